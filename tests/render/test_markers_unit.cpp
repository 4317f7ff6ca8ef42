// The marker layer's and BioCrowds' teaching view's pure parts, without GL:
// owner colours, the lattice spacing, packing with culling, and the
// teaching mesh built from a BioCrowds crowd's own explain.
#include <doctest/doctest.h>

#include <cmath>

#include "render/instance.hpp"
#include "render/markers.hpp"
#include "render/overlay.hpp"
#include "throng/crowd.hpp"

using namespace throng;
using namespace throng::render;

namespace {

int rgbDistance(std::uint32_t a, std::uint32_t b) {
  int d = 0;
  for (int k = 0; k < 3; ++k) d += std::abs(static_cast<int>((a >> (8 * k)) & 255u) - static_cast<int>((b >> (8 * k)) & 255u));
  return d;
}

Camera2D camera(glm::vec2 center, float zoom, int w = 200, int h = 100) {
  Camera2D c;
  c.center = center;
  c.zoom = zoom;
  c.width = w;
  c.height = h;
  return c;
}

}  // namespace

TEST_CASE("owner colours are stable per id, far from the background, the unowned grey and the jam orange") {
  const std::uint32_t background = packRgba(246, 246, 243);
  for (std::uint64_t id = 0; id < 5000; ++id) {
    const std::uint32_t c = ownerColor(id);
    INFO("id ", id);
    CHECK(c == ownerColor(id));
    CHECK((c >> 24) == 255u);
    CHECK(rgbDistance(c, background) > 150);
    CHECK(rgbDistance(c, kUnownedMarkerColor) > 80);
    CHECK(rgbDistance(c, kJamOrange) > 100);
    // Walkers added one after another (neighbours, in most layouts) differ plainly.
    CHECK(rgbDistance(c, ownerColor(id + 1)) > 100);
  }
  CHECK(ownerColor(~std::uint64_t{0}) == ownerColor(~std::uint64_t{0}));
}

TEST_CASE("the marker spacing follows the lattice: 1/sqrt(density), thinned to 64 across R") {
  CHECK(markerSpacing(1, 16) == doctest::Approx(0.25));
  CHECK(markerSpacing(24, 0.25f) == doctest::Approx(2));
  CHECK(markerSpacing(100, 16) == doctest::Approx(100.0 / 64));  // 400 strata across R: thinned
  CHECK(markerSpacing(0, 16) == 0);
  CHECK(markerSpacing(1, 0) == 0);
  CHECK(markerDotPx(20) == 6);
  CHECK(markerDotPx(8) == doctest::Approx(3.6));
  CHECK(markerDotPx(2) == 1.5);
}

TEST_CASE("packMarkers keeps the markers in view, in their owners' colours, grey when unowned or stale") {
  // Camera: 200 x 100 px at 10 px per unit round (0, 0): x in [-10, 10], y in [-5, 5].
  const Camera2D cam = camera({0, 0}, 10);
  const float x[] = {0, 9.9f, -9.9f, 30, 0, 1, 2, 3};
  const float y[] = {0, 4.9f, -4.9f, 0, -40, 1, 1, 1};
  const std::int32_t owner[] = {0, 1, -1, 0, 1, 7, 2, 1};
  const std::uint64_t ids[] = {11, 12, 13};
  const MarkerView m{x, y, owner};
  std::vector<Vertex> out;
  const MarkerPack p = packMarkers(m, ids, cam, 0.5f, out);
  CHECK(p.result == MarkerPack::Result::Drawn);
  CHECK(p.total == 8);
  CHECK(p.spacingPx == doctest::Approx(5));
  CHECK(p.dotPx == doctest::Approx(2.25));
  REQUIRE(p.drawn == 6);  // two are out of view
  REQUIRE(out.size() == 6);
  CHECK(out[0].x == 0);
  CHECK(out[0].rgba == ownerColor(11));
  CHECK(out[1].rgba == ownerColor(12));
  CHECK(out[2].rgba == kUnownedMarkerColor);  // -1
  CHECK(out[3].rgba == kUnownedMarkerColor);  // owner 7: past the walkers (they changed since the step)
  CHECK(out[4].rgba == ownerColor(13));
  CHECK(out[5].x == 3);
  // No owners yet (before the first step): all grey.
  const MarkerPack none = packMarkers(MarkerView{x, y, {}}, ids, cam, 0.5f, out);
  CHECK(none.drawn == 6);
  for (const Vertex& v : out) CHECK(v.rgba == kUnownedMarkerColor);
  // No markers (ORCA lays none).
  CHECK(packMarkers(MarkerView{}, ids, cam, 0.5f, out).result == MarkerPack::Result::None);
  CHECK(out.empty());
  // Zoomed out below 2 px apart: none drawn, whatever is in view.
  const MarkerPack dense = packMarkers(m, ids, camera({0, 0}, 3.9f), 0.5f, out);
  CHECK(dense.result == MarkerPack::Result::TooDense);
  CHECK(dense.spacingPx == doctest::Approx(1.95));
  CHECK(out.empty());
  // The count guard, when the spacing is unknown: more than one marker per
  // 2 pixels of a 4 x 2 px view.
  const std::vector<float> heap(20, 0.0f);
  const MarkerPack crowded = packMarkers(MarkerView{heap, heap, {}}, ids, camera({0, 0}, 10, 4, 2), 0, out);
  CHECK(crowded.result == MarkerPack::Result::TooDense);
  CHECK(out.empty());
}

TEST_CASE("packMarkers culls a million markers to the view") {
  std::vector<float> x, y;
  std::vector<std::int32_t> owner;
  for (int i = 0; i < 1000; ++i)
    for (int j = 0; j < 1000; ++j) {
      x.push_back(0.25f * static_cast<float>(i) + 0.1f);
      y.push_back(0.25f * static_cast<float>(j) + 0.1f);
      owner.push_back((i / 8) % 3 - 1);
    }
  const std::uint64_t ids[] = {5, 6};
  std::vector<Vertex> out;
  // 400 x 300 px at 40 px per unit: a 10 x 7.5 unit window, 40 x 30 markers (and a dot's margin).
  const MarkerPack p = packMarkers(MarkerView{x, y, owner}, ids, camera({100, 100}, 40, 400, 300), 0.25f, out);
  CHECK(p.result == MarkerPack::Result::Drawn);
  CHECK(p.total == 1000000);
  CHECK(p.drawn >= 40 * 30);
  CHECK(p.drawn <= 42 * 32);
  for (const Vertex& v : out) {
    CHECK(std::fabs(v.x - 100) <= 5.2f);
    CHECK(std::fabs(v.y - 100) <= 3.95f);
  }
}

TEST_CASE("the BioCrowds teaching mesh: owned markers sized by weight, M to the weighted mean, g and the chosen velocity") {
  Settings s;
  s.model = "biocrowds";
  s.jitter = 0;
  Crowd crowd(s);
  crowd.add({-0.35f, 0}, Vec2{-0.35f, 20}, 0.25f, 1.3f);
  crowd.add({0.35f, 0}, Vec2{0.35f, 20}, 0.25f, 1.3f);
  crowd.advance();
  const AgentExplain ex = crowd.explain(0);
  REQUIRE(ex.markers.size() > 10);
  REQUIRE(ex.markerWeights.size() == ex.markers.size());
  // M is the weighted mean of the owned markers' offsets (the usable ones).
  const Agent a = crowd.agent(0);
  Vec2 sum{};
  float total = 0;
  for (std::size_t k = 0; k < ex.markers.size(); ++k) {
    sum += (ex.markers[k] - a.position) * ex.markerWeights[k];
    total += ex.markerWeights[k];
  }
  REQUIRE(total > 0);
  CHECK((sum / total - ex.motion).length() < 1e-3f);

  const float spacing = markerSpacing(s.personalSpace, s.markerDensity);
  const float pixel = 1.0f / 80;  // 80 px per unit: markers 20 px apart
  Mesh m;
  buildTeachingMesh(ex.teaching, a.position, 1, pixel, m);
  // None of ORCA's view.
  for (const Vertex& v : m.tris) {
    CHECK(v.rgba != kOrcaLineColor);
    CHECK(v.rgba != kPermittedShade);
    CHECK(v.rgba != kFeasibleShade);
    CHECK(v.rgba != kVoShade);
  }
  // One magenta disc (12 triangles) per usable marker, centred on it, its
  // radius growing with the weight.
  std::size_t usable = 0;
  for (float f : ex.markerWeights) usable += f > 0;
  std::size_t magentaTris = 0;
  for (std::size_t i = 0; i + 2 < m.tris.size(); i += 3) magentaTris += m.tris[i].rgba == kOwnedMarkerColor;
  CHECK(magentaTris == 12 * usable);
  // The discs in explain order: the first vertex of each fan is its centre.
  std::size_t t = 0, k = 0;
  float lightR = 1e30f, heavyR = 0, lightF = 1e30f, heavyF = 0;
  while (t + 2 < m.tris.size() && k < ex.markers.size()) {
    if (m.tris[t].rgba != kOwnedMarkerColor) { t += 3; continue; }
    while (k < ex.markers.size() && !(ex.markerWeights[k] > 0)) ++k;
    REQUIRE(k < ex.markers.size());
    CHECK(m.tris[t].x == doctest::Approx(ex.markers[k].x));
    CHECK(m.tris[t].y == doctest::Approx(ex.markers[k].y));
    const float r = Vec2{m.tris[t + 1].x - m.tris[t].x, m.tris[t + 1].y - m.tris[t].y}.length();
    if (ex.markerWeights[k] < lightF) {
      lightF = ex.markerWeights[k];
      lightR = r;
    }
    if (ex.markerWeights[k] > heavyF) {
      heavyF = ex.markerWeights[k];
      heavyR = r;
    }
    CHECK(r <= 0.5f * spacing + 1e-5f);
    t += 3 * 12;
    ++k;
  }
  CHECK(heavyR > lightR + 2 * pixel);
  // The arrows end where they should: M at p + M (true length), g and the
  // chosen velocity at p + v x scale.
  auto tipOf = [&](std::uint32_t colour, Vec2 want) {
    bool found = false;
    for (const Vertex& v : m.tris) found |= v.rgba == colour && (Vec2{v.x, v.y} - want).length() < 1e-4f;
    return found;
  };
  CHECK(tipOf(kMotionColor, a.position + ex.motion));
  CHECK(tipOf(kPreferredColor, a.position + ex.preferred));
  CHECK(tipOf(kChosenColor, a.position + ex.chosen));
}
