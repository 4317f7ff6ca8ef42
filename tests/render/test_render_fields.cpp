// GL tests of the field overlay (render/field_layer.hpp) as the app draws it:
// the door scene under Continuum Crowds with its potential as a heatmap under
// the walkers, read back and checked against the colour map cell by cell;
// the arrows down it; and the teaching view's field cell. Each test saves its
// PNGs in the build folder.
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "gl_fixture.hpp"
#include "render/field_layer.hpp"
#include "render/gl_renderer.hpp"
#include "viz/viz_app.hpp"

using namespace throng;
using namespace throng::render;
using throng::test::colorDistance;
using throng::test::Image;

namespace {

constexpr int W = 640, H = 480;

// A crowd built by a function: enough of a SimHost for the app to draw it.
class CrowdHost final : public app::SimHost {
 public:
  explicit CrowdHost(std::function<void(Crowd&)> make) : make_(std::move(make)) { rebuild(Settings{}, nullptr); }
  std::string name() const override { return "door by hand"; }
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
  render::SceneGeometry geometry() const override {
    render::SceneGeometry g = SimHost::geometry();
    g.goalRegions.push_back(Rect{15, 1, 4, 8});
    return g;
  }

 private:
  std::function<void(Crowd&)> make_;
  Crowd crowd_;
};

// door.json as the API builds it: a 10 m room, a 1.2 m door in its east
// wall, 24 walkers in the room's west half, the target beyond the door.
void handDoor(Crowd& c) {
  c.settings.model = "continuum";
  c.settings.maxStep = 0.05;
  c.settings.jitter = 0;
  const Vec2 room[6] = {{10, 5.6f}, {10, 10}, {0, 10}, {0, 0}, {10, 0}, {10, 4.4f}};
  c.addWall(room);
  Terrain t;
  t.targets.push_back(Target{"door", {Rect{15, 1, 4, 8}}, {}, -1});
  c.setTerrain(t);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 4; ++x) c.add({1.0f + 1.1f * x, 1.5f + 1.3f * y}, Vec2{17, 5}, 0.25f, 1.3f);
}

// The door scene under continuum (few walkers, so the ground shows), or the
// same built by hand when the scene gives its walkers no target.
std::unique_ptr<app::SimHost> doorHost(bool* fromScene) {
  std::string err;
  std::unique_ptr<app::SimHost> h = app::openScene("door", &err);
  *fromScene = false;
  if (h && h->set("density", 0.3, &err) && h->assign("model=continuum", &err)) {
    h->crowd().settings.jitter = 0;
    h->step();
    if (!h->crowd().fields(0).potential.empty()) {
      h->rebuild(h->crowd().settings, &err);
      *fromScene = true;
      return h;
    }
  }
  MESSAGE("door.json gives no potential (", err, "): the door built by hand");
  return std::make_unique<CrowdHost>(handDoor);
}

Image read(GlRenderer& r) {
  Image im;
  im.w = r.width();
  im.h = r.height();
  r.readCanvas(im.px);
  return im;
}
void save(const Image& im, const char* name) { CHECK(writePng(test::outPath(name), im.w, im.h, im.px)); }

bool pixelOf(const Camera2D& cam, Vec2 p, int& x, int& y) {
  const glm::vec2 s = cam.worldToScreen({p.x, p.y});
  x = static_cast<int>(std::floor(s.x));
  y = static_cast<int>(std::floor(s.y));
  return x >= 2 && y >= 2 && x < cam.width - 2 && y < cam.height - 2;
}

// Whether world point p is clear of every walker (its ring and tick
// included) and of the scene's lines: the heatmap shows there as it is.
bool groundShows(const Crowd& c, const app::SimHost& h, const Camera2D& cam, Vec2 p) {
  const FrameView f = c.frame();
  for (std::size_t i = 0; i < f.px.size(); ++i)
    if ((p - Vec2{f.px[i], f.py[i]}).length() < f.radius[i] + 8 * cam.pixelSize()) return false;
  const auto nearSegment = [&](Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const float t = std::clamp(dot(p - a, d) / std::max(dot(d, d), 1e-12f), 0.0f, 1.0f);
    return (p - (a + d * t)).length() < 6 * cam.pixelSize();
  };
  const SceneGeometry g = h.geometry();
  for (const auto& w : g.walls)
    for (std::size_t k = 0; k + 1 < w.size(); ++k)
      if (nearSegment(w[k], w[k + 1])) return false;
  for (const Waypoint& wp : g.gates)
    if (nearSegment(wp.a, wp.b)) return false;
  for (const auto& rects : {g.goalRegions, g.sinks, g.sources})
    for (const Rect& r : rects) {
      const Vec2 q[4] = {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
      for (int k = 0; k < 4; ++k)
        if (nearSegment(q[k], q[(k + 1) % 4])) return false;
    }
  return true;
}

Vec2 centreOf(const FieldLayerImage& fi, const FieldSample& s) {
  return {fi.origin.x + (s.x + 0.5f) * fi.cell, fi.origin.y + (s.y + 0.5f) * fi.cell};
}

std::unique_ptr<app::VizApp> doorApp(bool* fromScene) {
  auto viz = std::make_unique<app::VizApp>(doorHost(fromScene));
  std::string err;
  REQUIRE_MESSAGE(viz->initGl(&err), err);
  viz->renderOptions().trails = false;
  viz->setPlaying(false);
  viz->drawCanvas(W, H);
  viz->camera().center = {9.5f, 5};
  viz->camera().zoom = 30;  // 30 px a metre: x -1..20, y -3..13
  viz->stepOnce();          // the first step builds the fields
  return viz;
}

}  // namespace

TEST_CASE("the door under continuum: the potential's heatmap under the walkers, dark at the target, light far off") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  bool fromScene = false;
  auto viz = doorApp(&fromScene);
  INFO((fromScene ? "door.json" : "the door by hand"));
  viz->drawCanvas(W, H);
  const Image plain = read(viz->renderer());
  save(plain, "app_fields_off.png");
  CHECK(viz->fieldImage().result == FieldLayerImage::Result::Off);
  CHECK_FALSE(viz->renderer().hasField());

  viz->fieldOverlay().layer = FieldLayer::Potential;
  viz->fieldOverlay().target = 0;
  viz->renderOptions().fieldOpacity = 1;  // the texels as they are
  viz->drawCanvas(W, H);
  const Image im = read(viz->renderer());
  save(im, "app_fields_potential.png");
  const FieldLayerImage& fi = viz->fieldImage();
  REQUIRE(fi.result == FieldLayerImage::Result::Drawn);
  CHECK(viz->renderer().hasField());
  REQUIRE(fi.range.any);
  CHECK(fi.range.min == 0);
  CHECK(fi.range.max > 10);
  const Crowd& c = viz->host().crowd();
  const Camera2D& cam = viz->camera();

  // Every cell centre in view where the ground shows has its texel's colour.
  std::size_t shown = 0, match = 0;
  for (int y = 0; y < fi.rows; ++y)
    for (int x = 0; x < fi.cols; ++x) {
      const Vec2 p{fi.origin.x + (x + 0.5f) * fi.cell, fi.origin.y + (y + 0.5f) * fi.cell};
      int px = 0, py = 0;
      if (!pixelOf(cam, p, px, py) || !groundShows(c, viz->host(), cam, p)) continue;
      ++shown;
      match += colorDistance(im, px, py, fi.texels[static_cast<std::size_t>(y) * fi.cols + x]) <= 6;
    }
  INFO("cells shown ", shown, ", matching their texel ", match);
  CHECK(shown > 100);
  CHECK(match >= shown * 98 / 100);

  // At the target (inside its region, φ = 0): the map's dark purple. In the
  // room's far corner (north-west, behind the walkers): far up the map, and
  // plainly different on screen.
  const auto pixelAt = [&](Vec2 p, std::uint32_t& rgb) {
    int x = 0, y = 0;
    REQUIRE(pixelOf(cam, p, x, y));
    REQUIRE(groundShows(c, viz->host(), cam, p));
    const std::uint8_t* q = im.at(x, y);
    rgb = packRgba(q[0], q[1], q[2]);
  };
  const FieldSample atTarget = sampleField(fi, {17, 5});
  // The corner: the first cell clear of walkers in the room's north-west.
  FieldSample corner;
  for (float y = 9.7f; y > 7 && !corner.inside; y -= 0.25f)
    for (float x = 0.3f; x < 3 && !corner.inside; x += 0.25f) {
      const FieldSample s = sampleField(fi, {x, y});
      if (s.inside && groundShows(c, viz->host(), cam, centreOf(fi, s))) corner = s;
    }
  REQUIRE(atTarget.inside);
  REQUIRE(corner.inside);
  std::uint32_t targetPx = 0, cornerPx = 0;
  pixelAt(centreOf(fi, atTarget), targetPx);
  pixelAt(centreOf(fi, corner), cornerPx);
  Image one{1, 1, {std::uint8_t(targetPx), std::uint8_t(targetPx >> 8), std::uint8_t(targetPx >> 16), 255}};
  CHECK(colorDistance(one, 0, 0, sequentialColor(0)) <= 6);
  CHECK(colorDistance(one, 0, 0, sequentialColor(fi.range.position(corner.value))) > 100);
  one.px = {std::uint8_t(cornerPx), std::uint8_t(cornerPx >> 8), std::uint8_t(cornerPx >> 16), 255};
  CHECK(colorDistance(one, 0, 0, sequentialColor(fi.range.position(corner.value))) <= 6);
  CHECK(colorDistance(one, 0, 0, targetPx) > 100);
  // The potential rises along the way from the door to the corner.
  const FieldSample door = sampleField(fi, {9.5f, 5});
  CHECK(door.value > atTarget.value);
  CHECK(door.value < corner.value);

  // The walkers are drawn over it, as before.
  const FrameView f = c.frame();
  for (std::size_t i = 0; i < f.px.size(); ++i) {
    int x = 0, y = 0;
    if (!pixelOf(cam, {f.px[i], f.py[i]}, x, y)) continue;
    INFO("walker ", i);
    CHECK(colorDistance(im, x - 2, y, groupColor(f.group[i])) < 12);
  }
  // The cursor's line names the value.
  int tx = 0, ty = 0;
  REQUIRE(pixelOf(cam, {17, 5}, tx, ty));
  CHECK(viz->fieldAt({tx + 0.5f, ty + 0.5f}).find("potential 0 path cost at cell") == 0);

  // Off again: the same pixels as before.
  viz->fieldOverlay().layer = FieldLayer::None;
  viz->drawCanvas(W, H);
  CHECK_FALSE(viz->renderer().hasField());
  CHECK(read(viz->renderer()).px == plain.px);
}

TEST_CASE("arrows run down the potential, through the door, and every layer draws") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  bool fromScene = false;
  auto viz = doorApp(&fromScene);
  for (int k = 0; k < 20; ++k) viz->stepOnce();
  viz->fieldOverlay().arrows = true;
  viz->fieldOverlay().arrowEvery = 1;
  viz->drawCanvas(W, H);
  const Image arrowsOnly = read(viz->renderer());
  save(arrowsOnly, "app_fields_arrows.png");
  CHECK(viz->fieldImage().result == FieldLayerImage::Result::Drawn);
  const FieldArrows& a = viz->fieldArrows();
  CHECK(a.drawn > 50);
  std::size_t white = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) white += colorDistance(arrowsOnly, x, y, kFieldArrowColor) < 30;
  CHECK(white > 200);
  // In the doorway the way is east.
  const FieldLayerImage& fi = viz->fieldImage();
  const FieldSample door = sampleField(fi, {10, 5});
  REQUIRE(door.inside);
  const Vec2 g = potentialGradient(fi.potential, fi.cols, fi.rows, fi.cell, door.x, door.y);
  CHECK(g.x < 0);
  CHECK(std::fabs(g.y) < std::fabs(g.x));

  // Each layer with the arrows, for people to look at.
  for (FieldLayer l : {FieldLayer::Density, FieldLayer::Speed, FieldLayer::Cost, FieldLayer::Potential,
                       FieldLayer::Discomfort, FieldLayer::Height}) {
    viz->fieldOverlay().layer = l;
    viz->drawCanvas(W, H);
    INFO(fieldLayerName(l));
    CHECK(viz->fieldImage().result == FieldLayerImage::Result::Drawn);
    CHECK(viz->renderer().hasField());
    const std::string name = "app_fields_layer_" + std::string(fieldLayerName(l)) + ".png";
    save(read(viz->renderer()), name.c_str());
  }
  // Cost toward the west: the door's west face is open, the walls' closed faces are the no-value grey.
  viz->fieldOverlay().layer = FieldLayer::Cost;
  viz->fieldOverlay().direction = kWest;
  viz->fieldOverlay().arrows = false;
  viz->drawCanvas(W, H);
  save(read(viz->renderer()), "app_fields_cost_west.png");
  std::size_t closed = 0;
  for (std::uint32_t t : viz->fieldImage().texels) closed += t == kFieldNoValueColor;
  CHECK(closed > 10);  // the cells just east of the west wall and of the east wall
}

TEST_CASE("the teaching view shows the selected walker's field cell, its speeds and the flow") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  bool fromScene = false;
  auto viz = doorApp(&fromScene);
  const Crowd& c = viz->host().crowd();
  viz->select(0);
  REQUIRE(viz->selectedIndex() == 0);
  const AgentExplain ex = c.explain(0, viz->host().dt());
  REQUIRE(ex.fieldCell >= 0);
  CHECK(ex.fieldFlow.length() > 0.5f);
  const FieldView fv = c.fields(0);
  const Vec2 centre = fieldCellCentre(fv.origin, fv.cell, fv.cols, ex.fieldCell);
  viz->camera().center = {centre.x, centre.y};
  viz->camera().zoom = 200;  // a cell of 1 m is 200 px
  viz->drawCanvas(W, H);
  const Image im = read(viz->renderer());
  save(im, "app_fields_teaching.png");
  const Camera2D& cam = viz->camera();
  // The speed arrows from the cell's centre: along each open direction, a
  // third of the way to its face when the speed there is at least 2/3 of the top.
  const float top = c.agent(0).maxSpeed;
  int arrows = 0;
  for (int d = 0; d < 4; ++d) {
    if (!std::isfinite(ex.fieldCost[d]) || ex.fieldSpeed[d] < 0.67f * top) continue;
    const Vec2 u = d == 0 ? Vec2{1, 0} : d == 1 ? Vec2{0, 1} : d == 2 ? Vec2{-1, 0} : Vec2{0, -1};
    const Vec2 p = centre + u * (fv.cell / 6);
    if (!groundShows(c, viz->host(), cam, p)) continue;  // under a walker
    int x = 0, y = 0;
    REQUIRE(pixelOf(cam, p, x, y));
    INFO("direction ", d);
    CHECK(colorDistance(im, x, y, kFieldSpeedColor) < 12);
    ++arrows;
  }
  CHECK(arrows > 0);
  // The flow: teal from the walker's rim outward.
  const Vec2 p0 = c.agent(0).position;
  const Vec2 tip = p0 + ex.fieldFlow;
  const Vec2 q = p0 + ex.fieldFlow * ((c.agent(0).radius + 0.05f) / ex.fieldFlow.length());
  if ((tip - p0).length() > c.agent(0).radius + 0.1f) {
    int x = 0, y = 0;
    REQUIRE(pixelOf(cam, q, x, y));
    CHECK(colorDistance(im, x, y, kFieldFlowColor) < 12);
  }

  // The panel and the legend draw with ImGui (a frame of each), the labels by the cell.
  SDL_Window* win = SDL_GL_GetCurrentWindow();
  REQUIRE(win != nullptr);
  test::ImGuiSession imgui;
  REQUIRE(imgui.ok);
  {
    viz->fieldOverlay().layer = FieldLayer::Potential;
    viz->fieldOverlay().arrows = true;
    viz->renderOptions().fieldOpacity = 0.8f;
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(win, &w, &h);
    viz->camera().center = {centre.x - 1.0f, centre.y};  // the cell right of the panel
    viz->camera().zoom = 160;                           // wide enough for its numbers
    for (int frame = 0; frame < 3; ++frame) {
      viz->drawCanvas(w, h);
      viz->renderer().present(w, h);
      test::imguiFrame([&] { viz->drawUi(); });
    }
    CHECK(glGetError() == GL_NO_ERROR);
    const std::vector<std::uint8_t> flipped = test::readWindow(w, h);
    CHECK(writePng(test::outPath("imgui_frame_fields.png"), w, h, flipped));
    // The legend's colour bar, bottom right: viridis' dark start and yellow end on one row.
    Image shot{w, h, flipped};
    bool dark = false, yellow = false;
    for (int y = h - 120; y < h - 10; ++y) {
      bool d = false, yl = false;
      for (int x = w / 2; x < w - 10; ++x) {
        d = d || colorDistance(shot, x, y, sequentialColor(0)) < 20;
        yl = yl || colorDistance(shot, x, y, sequentialColor(1)) < 20;
      }
      dark = dark || (d && yl);
      yellow = yellow || yl;
    }
    CHECK(dark);
    CHECK(yellow);
  }
}

TEST_CASE("a hill under the height layer is shaded: its north-west side lit, its south-east side dark") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto hill = [](Crowd& c) {
    c.settings.model = "continuum";
    c.settings.jitter = 0;
    c.settings.fieldCell = 0.25f;
    Terrain t;
    t.targets.push_back(Target{"east", {Rect{18, 0, 2, 10}}, {}, -1});
    t.hills.push_back(Hill{{10, 5}, 4, 1.5f});
    c.setTerrain(t);
    c.add({1, 5}, Vec2{19, 5}, 0.25f, 1.3f);
  };
  app::VizApp viz(std::make_unique<CrowdHost>(hill));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.renderOptions().trails = false;
  viz.renderOptions().fieldOpacity = 1;
  viz.setPlaying(false);
  viz.drawCanvas(W, H);
  viz.camera().center = {10, 5};
  viz.camera().zoom = 40;
  viz.stepOnce();
  viz.fieldOverlay().layer = FieldLayer::Height;
  viz.drawCanvas(W, H);
  const Image im = read(viz.renderer());
  save(im, "app_fields_hill_height.png");
  const FieldLayerImage& fi = viz.fieldImage();
  REQUIRE(fi.result == FieldLayerImage::Result::Drawn);
  CHECK(fi.range.max == doctest::Approx(1.5f).epsilon(0.05));
  // Two points at the same height either side of the top: the north-west one brighter.
  const auto lum = [&](Vec2 p) {
    int x = 0, y = 0;
    REQUIRE(pixelOf(viz.camera(), p, x, y));
    const std::uint8_t* q = im.at(x, y);
    return 0.2126 * q[0] + 0.7152 * q[1] + 0.0722 * q[2];
  };
  CHECK(lum({8, 7}) > lum({12, 3}) + 40);
  // The shading alone, over no layer: the same sides, on the light ground.
  viz.fieldOverlay().layer = FieldLayer::None;
  viz.fieldOverlay().shading = true;
  viz.renderOptions().fieldOpacity = 0.8f;
  viz.drawCanvas(W, H);
  const Image shaded = read(viz.renderer());
  save(shaded, "app_fields_hill_shading.png");
  int x = 0, y = 0;
  REQUIRE(pixelOf(viz.camera(), {12, 3}, x, y));
  CHECK(colorDistance(shaded, x, y, viz.renderOptions().background) > 60);  // dark
  REQUIRE(pixelOf(viz.camera(), {4, 9}, x, y));
  CHECK(colorDistance(shaded, x, y, viz.renderOptions().background) < 4);   // flat: the ground as it is
}
