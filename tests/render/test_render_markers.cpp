// GL tests of BioCrowds in the visualizer: the marker layer (render/markers.hpp)
// and the BioCrowds teaching view (render/overlay.hpp), drawn by the app on a
// small crowd whose every marker is a few pixels across, read back and
// checked marker by marker. Each test saves its PNGs in the build folder.
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <SDL.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "gl_fixture.hpp"
#include "render/gl_renderer.hpp"
#include "render/markers.hpp"
#include "viz/viz_app.hpp"

using namespace throng;
using namespace throng::render;
using throng::test::colorDistance;
using throng::test::Image;

namespace {

// A crowd built by a function, stepped by its own maxStep: enough of a
// SimHost for the app to draw it.
class CrowdHost final : public app::SimHost {
 public:
  explicit CrowdHost(std::function<void(Crowd&)> make) : make_(std::move(make)) { rebuild(Settings{}, nullptr); }
  std::string name() const override { return "test crowd"; }
  Crowd& crowd() override { return crowd_; }
  const Crowd& crowd() const override { return crowd_; }
  void step() override { crowd_.advance(crowd_.settings.maxStep); }
  std::vector<app::KnobInfo> knobs() const override { return {}; }
  bool set(const std::string&, double, std::string*) override { return false; }
  bool assign(const std::string&, std::string*) override { return false; }
  bool rebuild(const Settings&, std::string*) override {
    crowd_ = Crowd();
    make_(crowd_);
    return true;
  }

 private:
  std::function<void(Crowd&)> make_;
  Crowd crowd_;
};

constexpr int W = 480, H = 360;
constexpr float kZoom = 80;  // pixels per metre: markers 0.25 m apart are 20 px apart

// Three walkers in metres (radius 0.25 m, 1.3 m/s) under BioCrowds with its
// defaults (R = 1 m, 16 markers per m²), heading up: A and B side by side,
// 0.2 m apart, their territories meeting between them; C alone below right.
void threeWalkers(Crowd& c) {
  c.settings.model = "biocrowds";
  c.settings.jitter = 0;
  c.add({-0.35f, 0}, Vec2{-0.35f, 20}, 0.25f, 1.3f);
  c.add({0.35f, 0}, Vec2{0.35f, 20}, 0.25f, 1.3f);
  c.add({2.0f, -1.4f}, Vec2{2.0f, 20}, 0.25f, 1.3f);
}

std::unique_ptr<app::VizApp> threeWalkersApp() {
  auto viz = std::make_unique<app::VizApp>(std::make_unique<CrowdHost>(threeWalkers));
  std::string err;
  REQUIRE_MESSAGE(viz->initGl(&err), err);
  viz->renderOptions().trails = false;
  viz->setPlaying(false);
  viz->drawCanvas(W, H);
  viz->camera().center = {0.8f, -0.6f};
  viz->camera().zoom = kZoom;
  viz->stepOnce();  // the first step finds the owners
  return viz;
}

Image read(GlRenderer& r) {
  Image im;
  im.w = r.width();
  im.h = r.height();
  r.readCanvas(im.px);
  return im;
}
void save(const Image& im, const char* name) { CHECK(writePng(test::outPath(name), im.w, im.h, im.px)); }

// The pixel holding world point p, or false when it is off the canvas.
bool pixelOf(const Camera2D& cam, Vec2 p, int& x, int& y) {
  const glm::vec2 s = cam.worldToScreen({p.x, p.y});
  x = static_cast<int>(std::floor(s.x));
  y = static_cast<int>(std::floor(s.y));
  return x >= 2 && y >= 2 && x < cam.width - 2 && y < cam.height - 2;
}

// A marker whose dot shows whole: off every walker's disc (ring and a step's
// motion included) and not overlapped by another marker's dot.
struct MarkerSample {
  Vec2 at;
  std::int32_t owner;
  int x, y;
};
std::vector<MarkerSample> clearMarkers(const Crowd& c, const Camera2D& cam) {
  const MarkerView m = c.markers();
  const FrameView f = c.frame();
  std::vector<MarkerSample> out;
  const float dot = markerDotPx(markerSpacing(c.settings.personalSpace, c.settings.markerDensity) * cam.zoom);
  for (std::size_t k = 0; k < m.x.size(); ++k) {
    const Vec2 p{m.x[k], m.y[k]};
    MarkerSample s{p, m.owner.empty() ? -1 : m.owner[k], 0, 0};
    if (!pixelOf(cam, p, s.x, s.y)) continue;
    bool clear = true;
    for (std::size_t i = 0; i < f.px.size() && clear; ++i)
      clear = (p - Vec2{f.px[i], f.py[i]}).length() * cam.zoom > f.radius[i] * cam.zoom + 3;
    for (std::size_t j = 0; j < m.x.size() && clear; ++j)
      clear = j == k || (p - Vec2{m.x[j], m.y[j]}).length() * cam.zoom > dot + 1.5f;
    if (clear) out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("BioCrowds' markers are drawn under the walkers in their owners' colours, and hidden by M") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto viz = threeWalkersApp();
  const Crowd& c = viz->host().crowd();
  REQUIRE(viz->markersShown());  // on by default
  viz->drawCanvas(W, H);
  const Image on = read(viz->renderer());
  save(on, "app_biocrowds_markers.png");
  const Camera2D& cam = viz->camera();
  const MarkerPack& pack = viz->markerPack();
  CHECK(pack.result == MarkerPack::Result::Drawn);
  CHECK(pack.spacingPx == doctest::Approx(20));
  CHECK(pack.drawn > 300);
  CHECK(pack.drawn <= pack.total);
  CHECK(viz->renderer().markerCount() == pack.drawn);

  // Every marker whose dot shows whole has its owner's colour, or the dim
  // grey when nobody owns it.
  const FrameView f = c.frame();
  const std::vector<MarkerSample> samples = clearMarkers(c, cam);
  REQUIRE(samples.size() > 250);
  std::size_t ownedOk = 0, owned = 0, freeOk = 0, free = 0;
  std::size_t perOwner[3] = {};
  for (const MarkerSample& s : samples) {
    if (s.owner >= 0) {
      ++owned;
      const bool ok = colorDistance(on, s.x, s.y, ownerColor(f.id[static_cast<std::size_t>(s.owner)])) < 24;
      ownedOk += ok;
      perOwner[s.owner] += ok;
    } else {
      ++free;
      freeOk += colorDistance(on, s.x, s.y, kUnownedMarkerColor) < 24;
    }
  }
  INFO("owned ", ownedOk, "/", owned, "  unowned ", freeOk, "/", free);
  CHECK(owned > 80);
  CHECK(free > 100);
  CHECK(ownedOk >= owned * 97 / 100);
  CHECK(freeOk >= free * 97 / 100);
  // Each walker has its patch around it.
  for (std::size_t n : perOwner) CHECK(n > 20);

  // The neighbours A and B: their territories meet between them and differ
  // in colour, in the picture as in the colours.
  const std::uint32_t ca = ownerColor(f.id[0]), cb = ownerColor(f.id[1]);
  CHECK(colorDistance(Image{1, 1, {std::uint8_t(ca), std::uint8_t(ca >> 8), std::uint8_t(ca >> 16), 255}}, 0, 0, cb) > 120);
  int nearA = 0, nearB = 0, wrongSide = 0;
  for (const MarkerSample& s : samples) {
    if (std::fabs(s.at.y) > 0.8f || std::fabs(s.at.x) > 1.2f) continue;  // the strip across both
    const bool isA = colorDistance(on, s.x, s.y, ca) < 24, isB = colorDistance(on, s.x, s.y, cb) < 24;
    nearA += isA;
    nearB += isB;
    wrongSide += (isA && s.at.x > 0.05f) || (isB && s.at.x < -0.05f);  // the border is x = 0, give or take a step
  }
  CHECK(nearA > 12);
  CHECK(nearB > 12);
  CHECK(wrongSide == 0);

  // M hides them: every one of those pixels is the background again, and
  // the walkers are drawn as before.
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = SDLK_m;
  CHECK(viz->handleEvent(e, false, false, 1));
  CHECK_FALSE(viz->markersShown());
  viz->drawCanvas(W, H);
  const Image off = read(viz->renderer());
  save(off, "app_biocrowds_markers_off.png");
  CHECK(viz->renderer().markerCount() == 0);
  for (const MarkerSample& s : samples) CHECK(colorDistance(off, s.x, s.y, viz->renderOptions().background) < 4);
  for (std::size_t i = 0; i < f.px.size(); ++i) {
    int x = 0, y = 0;
    REQUIRE(pixelOf(cam, {f.px[i], f.py[i]}, x, y));
    CHECK(colorDistance(off, x - 5, y, groupColor(0)) < 12);  // the disc, left of its heading tick
    CHECK(colorDistance(on, x - 5, y, groupColor(0)) < 12);   // on top of the markers
  }
  // And M shows them again, the same pixels.
  viz->handleEvent(e, false, false, 1);
  viz->drawCanvas(W, H);
  CHECK(read(viz->renderer()).px == on.px);
}

TEST_CASE("zoomed out until the markers are under 2 pixels apart, none are drawn and the app says so") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto viz = threeWalkersApp();
  viz->camera().zoom = 7.2f;  // 1.8 px apart
  viz->drawCanvas(W, H);
  CHECK(viz->markerPack().result == MarkerPack::Result::TooDense);
  CHECK(viz->markerPack().spacingPx == doctest::Approx(1.8));
  CHECK(viz->renderer().markerCount() == 0);
  const Image im = read(viz->renderer());
  save(im, "app_biocrowds_zoomed_out.png");
  // The same picture as with the markers off.
  viz->setMarkersShown(false);
  viz->drawCanvas(W, H);
  CHECK(read(viz->renderer()).px == im.px);
  viz->setMarkersShown(true);
  viz->camera().zoom = 9.6f;  // 2.4 px apart: drawn, as small dots
  viz->drawCanvas(W, H);
  CHECK(viz->markerPack().result == MarkerPack::Result::Drawn);
  CHECK(viz->markerPack().dotPx == doctest::Approx(1.5));
  save(read(viz->renderer()), "app_biocrowds_zoom_9.6.png");
}

TEST_CASE("the BioCrowds teaching view highlights the owned markers by weight and draws M from the walker") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto viz = threeWalkersApp();
  viz->select(0);  // A, with B on its right
  REQUIRE(viz->selectedIndex() == 0);
  viz->drawCanvas(W, H);
  const Image im = read(viz->renderer());
  save(im, "app_biocrowds_teaching.png");
  const Crowd& c = viz->host().crowd();
  const Camera2D& cam = viz->camera();
  const AgentExplain ex = c.explain(0, viz->host().dt());
  const Vec2 p = c.agent(0).position;
  REQUIRE(ex.markers.size() > 25);
  REQUIRE(ex.markers.size() == ex.markerWeights.size());
  CHECK(!ex.jammed);
  // B on its right: A's markers lean left, so M points up and to the left.
  CHECK(ex.motion.y > 0);
  CHECK(ex.motion.x < 0);
  CHECK(ex.motion.length() * kZoom > 8);

  // M: green along its length from the walker, not behind it.
  for (float t : {0.25f, 0.5f, 0.7f}) {
    int x = 0, y = 0;
    REQUIRE(pixelOf(cam, p + ex.motion * t, x, y));
    CHECK_MESSAGE(colorDistance(im, x, y, kMotionColor) < 12, "M at t = " << t);
    REQUIRE(pixelOf(cam, p - ex.motion * t, x, y));
    CHECK(colorDistance(im, x, y, kMotionColor) > 60);
  }
  // The wish arrow beyond M's tip, blue.
  const float s = 1;  // the default velocity scale
  {
    int x = 0, y = 0;
    REQUIRE(ex.preferred.length() * s > 2 * ex.motion.length());
    REQUIRE(pixelOf(cam, p + ex.preferred * (0.8f * s), x, y));
    CHECK(std::min(colorDistance(im, x, y, kPreferredColor), colorDistance(im, x, y, kChosenColor)) < 12);
  }

  // A's usable markers are magenta dots, away from the arrows (their shafts
  // run within 2 px of the segments from p).
  const auto nearSegment = [&](Vec2 q, Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const float t = std::clamp(dot(q - a, d) / std::max(dot(d, d), 1e-12f), 0.0f, 1.0f);
    return (q - (a + d * t)).length() * kZoom < 8;
  };
  std::size_t usable = 0, magenta = 0;
  std::vector<std::size_t> clear;  // usable markers clear of the arrows and the circle
  for (std::size_t k = 0; k < ex.markers.size(); ++k) {
    const float f = ex.markerWeights[k];
    if (!(f > 0)) continue;
    const Vec2 q = ex.markers[k];
    if (nearSegment(q, p, p + ex.motion) || nearSegment(q, p, p + ex.preferred * s) ||
        nearSegment(q, p, p + ex.chosen * s) || std::fabs((q - p).length() - c.settings.personalSpace) * kZoom < 3)
      continue;
    int x = 0, y = 0;
    if (!pixelOf(cam, q, x, y)) continue;
    ++usable;
    clear.push_back(k);
    magenta += colorDistance(im, x, y, kOwnedMarkerColor) < 24;
  }
  INFO("magenta ", magenta, " of ", usable);
  CHECK(usable > 15);
  CHECK(magenta >= usable * 95 / 100);
  // Heavier markers have bigger dots: count each dot's magenta pixels (those
  // nearer it than any other owned marker), the heaviest quarter against
  // the lightest.
  const auto dotArea = [&](std::size_t k) {
    int x0 = 0, y0 = 0, n = 0;
    pixelOf(cam, ex.markers[k], x0, y0);
    for (int y = y0 - 6; y <= y0 + 6; ++y)
      for (int x = x0 - 6; x <= x0 + 6; ++x) {
        const glm::vec2 w = cam.screenToWorld({x + 0.5f, y + 0.5f});
        const Vec2 q{w.x, w.y};
        bool nearest = true;
        for (std::size_t j = 0; j < ex.markers.size() && nearest; ++j)
          nearest = j == k || (q - ex.markers[j]).length() >= (q - ex.markers[k]).length();
        n += nearest && colorDistance(im, x, y, kOwnedMarkerColor) < 60;
      }
    return n;
  };
  std::sort(clear.begin(), clear.end(), [&](std::size_t a, std::size_t b) { return ex.markerWeights[a] < ex.markerWeights[b]; });
  const std::size_t quarter = clear.size() / 4;
  REQUIRE(quarter >= 4);
  double light = 0, heavy = 0;
  for (std::size_t k = 0; k < quarter; ++k) {
    light += dotArea(clear[k]);
    heavy += dotArea(clear[clear.size() - 1 - k]);
  }
  light /= static_cast<double>(quarter);
  heavy /= static_cast<double>(quarter);
  INFO("mean dot of the heaviest quarter ", heavy, " px, of the lightest ", light, " px");
  CHECK(heavy > light + 10);

  // B's markers are not highlighted: they keep B's colour.
  const FrameView f = c.frame();
  const MarkerView m = c.markers();
  std::size_t ofB = 0, bOk = 0;
  for (const MarkerSample& sm : clearMarkers(c, cam)) {
    if (sm.owner != 1 || sm.at.x < 0.72f) continue;  // B's, clear of A's view and its circle
    ++ofB;
    bOk += colorDistance(im, sm.x, sm.y, ownerColor(f.id[1])) < 24;
  }
  CHECK(m.owner.size() == m.x.size());
  CHECK(ofB > 5);
  CHECK(bOk >= ofB * 95 / 100);

  // Zoomed in for a person to look at.
  viz->camera().center = {p.x, p.y};
  viz->camera().zoom = 200;
  viz->drawCanvas(W, H);
  save(read(viz->renderer()), "app_biocrowds_teaching_zoomed.png");
}

TEST_CASE("ORCA draws the same pixels with the marker layer on and off") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  app::VizApp viz(app::makeBuiltin("ring"));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.renderOptions().trails = false;
  viz.drawCanvas(W, H);
  for (int k = 0; k < 60; ++k) viz.stepOnce();
  viz.select(3);
  REQUIRE(viz.markersShown());
  viz.drawCanvas(W, H);
  const Image on = read(viz.renderer());
  CHECK(viz.markerPack().total == 0);
  CHECK(viz.markerPack().result == MarkerPack::Result::None);
  viz.setMarkersShown(false);
  viz.drawCanvas(W, H);
  CHECK(read(viz.renderer()).px == on.px);
}
