// The field overlay's pure parts, without GL (render/field_layer.hpp): the
// colour maps, a layer's values and range, the texels, hill-shading, the
// value under the cursor, the potential's gradient and its arrows; the
// teaching view's field part (render/overlay.hpp); and which settings the
// panel shows as read (app/viz/settings_panel.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "render/field_layer.hpp"
#include "render/instance.hpp"
#include "render/overlay.hpp"
#include "throng/crowd.hpp"
#include "viz/settings_panel.hpp"

using namespace throng;
using namespace throng::render;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

int channel(std::uint32_t c, int k) { return static_cast<int>((c >> (8 * k)) & 255u); }
int rgbDistance(std::uint32_t a, std::uint32_t b) {
  int d = 0;
  for (int k = 0; k < 3; ++k) d += std::abs(channel(a, k) - channel(b, k));
  return d;
}
// Relative luminance, 0..255 (Rec. 709 weights on the bytes).
double luma(std::uint32_t c) { return 0.2126 * channel(c, 0) + 0.7152 * channel(c, 1) + 0.0722 * channel(c, 2); }

// A hand-made field of cols x rows cells of side 2 from (10, 20), its
// arrays owned here.
struct TestField {
  int cols, rows;
  std::vector<std::uint8_t> blocked;
  std::vector<float> density, vx, vy, height, discomfort, speed, cost, potential;
  TestField(int c, int r)
      : cols(c), rows(r), blocked(n()), density(n()), vx(n()), vy(n()), height(n()), discomfort(n()),
        speed(4 * n(), 1.0f), cost(4 * n(), 2.0f), potential(n()) {}
  std::size_t n() const { return static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows); }
  std::size_t at(int x, int y) const { return static_cast<std::size_t>(y) * cols + x; }
  FieldView view() const {
    FieldView v;
    v.origin = {10, 20};
    v.cell = 2;
    v.cols = cols;
    v.rows = rows;
    v.potentials = 1;
    v.blocked = blocked;
    v.density = density;
    v.velocityX = vx;
    v.velocityY = vy;
    v.height = height;
    v.discomfort = discomfort;
    v.speed = speed;
    v.cost = cost;
    v.potential = potential;
    v.refreshStep = 7;
    return v;
  }
};

std::size_t countColour(const Mesh& m, std::uint32_t c) {
  std::size_t n = 0;
  for (const Vertex& v : m.tris) n += v.rgba == c;
  return n;
}

}  // namespace

TEST_CASE("the sequential map is viridis: dark purple to yellow, ever brighter, clamped") {
  CHECK(sequentialColor(0) == packRgba(68, 1, 84));
  CHECK(sequentialColor(1) == packRgba(253, 231, 37));
  CHECK(sequentialColor(-3) == sequentialColor(0));
  CHECK(sequentialColor(7) == sequentialColor(1));
  CHECK(sequentialColor(std::nanf("")) == sequentialColor(0));
  CHECK(rgbDistance(sequentialColor(0.5f), packRgba(33, 144, 140)) < 12);  // viridis' teal middle
  double last = -1;
  for (int k = 0; k <= 100; ++k) {
    const std::uint32_t c = sequentialColor(k / 100.0f);
    INFO("t = ", k / 100.0);
    CHECK((c >> 24) == 255u);
    CHECK(luma(c) > last);  // a reader of the legend can tell low from high in grey too
    last = luma(c);
  }
}

TEST_CASE("the diverging map runs blue, near-white at the middle, red") {
  const std::uint32_t lo = divergingColor(0), mid = divergingColor(0.5f), hi = divergingColor(1);
  CHECK(channel(lo, 2) > channel(lo, 0) + 100);  // blue
  CHECK(channel(hi, 0) > channel(hi, 2) + 100);  // red
  CHECK(rgbDistance(mid, packRgba(247, 247, 247)) == 0);
  CHECK(divergingColor(std::nanf("")) == mid);
  CHECK(divergingColor(-1) == lo);
  CHECK(divergingColor(2) == hi);
}

TEST_CASE("blocked and no-value cells are neutral greys, apart from each other and from every map colour") {
  for (std::uint32_t g : {kFieldBlockedColor, kFieldNoValueColor}) {
    CHECK(std::abs(channel(g, 0) - channel(g, 1)) <= 4);
    CHECK(std::abs(channel(g, 1) - channel(g, 2)) <= 4);
    for (int k = 0; k <= 200; ++k) {
      INFO("t = ", k / 200.0);
      CHECK(rgbDistance(g, sequentialColor(k / 200.0f)) > 60);
    }
  }
  CHECK(rgbDistance(kFieldBlockedColor, kFieldNoValueColor) > 150);
  // The diverging map's white middle is far lighter than both greys.
  CHECK(rgbDistance(kFieldNoValueColor, divergingColor(0.5f)) > 150);
}

TEST_CASE("a range places values between min and max and colours a non-finite one the no-value grey") {
  FieldRange r;
  r.min = 2;
  r.max = 6;
  r.any = true;
  CHECK(r.position(2) == 0);
  CHECK(r.position(4) == doctest::Approx(0.5));
  CHECK(r.position(6) == 1);
  CHECK(r.position(100) == 1);
  CHECK(r.color(4) == sequentialColor(0.5f));
  CHECK(r.color(kInf) == kFieldNoValueColor);
  CHECK(r.color(std::nanf("")) == kFieldNoValueColor);
  FieldRange flat;
  CHECK(flat.position(3) == 0);
  flat.map = ColorMap::Diverging;
  CHECK(flat.position(3) == 0.5f);
}

TEST_CASE("speed and cost show one direction, or the mean of the open ones, a closed face has no value") {
  TestField t(3, 2);
  const std::size_t c = t.at(1, 1);
  const float sp[4] = {1, 2, 0, 4}, co[4] = {3, 1, kInf, 5};
  for (int d = 0; d < 4; ++d) {
    t.speed[4 * c + d] = sp[d];
    t.cost[4 * c + d] = co[d];
  }
  const FieldView f = t.view();
  CHECK(fieldValue(f, FieldLayer::Speed, kFieldMean, c) == doctest::Approx((1 + 2 + 4) / 3.0));
  CHECK(fieldValue(f, FieldLayer::Cost, kFieldMean, c) == doctest::Approx(3.0));
  CHECK(fieldValue(f, FieldLayer::Speed, kNorth, c) == 2);
  CHECK(fieldValue(f, FieldLayer::Cost, kSouth, c) == 5);
  CHECK(fieldValue(f, FieldLayer::Speed, kWest, c) == kInf);  // closed: no speed that way
  CHECK(fieldValue(f, FieldLayer::Cost, kWest, c) == kInf);
  for (int d = 0; d < 4; ++d) t.cost[4 * c + d] = kInf;
  CHECK(fieldValue(t.view(), FieldLayer::Speed, kFieldMean, c) == kInf);
  CHECK(fieldValue(t.view(), FieldLayer::Cost, kFieldMean, c) == kInf);
  t.potential[c] = 12;
  t.density[c] = 0.75f;
  CHECK(fieldValue(t.view(), FieldLayer::Potential, kFieldMean, c) == 12);
  CHECK(fieldValue(t.view(), FieldLayer::Density, kFieldMean, c) == 0.75f);
  FieldView noPotential = t.view();
  noPotential.potential = {};
  CHECK(fieldValue(noPotential, FieldLayer::Potential, kFieldMean, c) == kInf);
}

TEST_CASE("hill-shading is 1 on flat ground, brighter facing the north-west light, darker facing away") {
  CHECK(hillShade(0, 0) == doctest::Approx(1));
  // Rising to the south-east: the slope faces north-west.
  CHECK(hillShade(0.1f, -0.1f) > 1.1f);
  CHECK(hillShade(-0.1f, 0.1f) < 0.9f);
  // Across the light: about as bright as flat.
  CHECK(hillShade(0.1f, 0.1f) == doctest::Approx(hillShade(-0.1f, -0.1f)));
  CHECK(hillShade(0.1f, 0.1f) < 1);
  CHECK(hillShade(-100, 100) == kHillAmbient);  // a cliff facing away: the ambient light alone
  CHECK(hillShade(100, -100) <= kHillAmbient + (1 - kHillAmbient) * std::sqrt(2.0f) + 1e-5f);
  CHECK(hillShade(0.05f, -0.05f) > 1.05f);  // slopeMin's gentle slope shows
  CHECK(hillShade(kInf, 0) == 1);
}

TEST_CASE("a layer packs one texel per cell, row 0 at the origin, greys for blocked and no value, the range over the rest") {
  TestField t(4, 3);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) t.potential[t.at(x, y)] = static_cast<float>(x + 10 * y);
  t.blocked[t.at(3, 2)] = 1;
  t.potential[t.at(3, 2)] = 1000;  // blocked: outside the range
  t.potential[t.at(2, 2)] = kInf;  // no path
  FieldLayerImage im;
  buildFieldLayer(t.view(), {FieldLayer::Potential, kFieldMean, false, false}, im);
  REQUIRE(im.result == FieldLayerImage::Result::Drawn);
  CHECK(im.cols == 4);
  CHECK(im.rows == 3);
  CHECK(im.cell == 2);
  CHECK(im.origin == Vec2{10, 20});
  CHECK(im.refreshStep == 7);
  REQUIRE(im.texels.size() == 12);
  CHECK(im.range.any);
  CHECK(im.range.min == 0);
  CHECK(im.range.max == 21);
  CHECK(im.texels[t.at(0, 0)] == sequentialColor(0));
  CHECK(im.texels[t.at(1, 2)] == sequentialColor(1));
  CHECK(im.texels[t.at(2, 1)] == sequentialColor(12.0f / 21));
  CHECK(im.texels[t.at(3, 2)] == kFieldBlockedColor);
  CHECK(im.texels[t.at(2, 2)] == kFieldNoValueColor);
  CHECK(im.potential.empty());  // not kept without arrows

  // The range of the cells in view: here cells (0..1, 0..1), centres (11..13, 21..23).
  Camera2D view;
  view.center = {12, 22};
  view.zoom = 10;
  view.width = view.height = 30;  // x and y within 1.5 of the centre
  buildFieldLayer(t.view(), {FieldLayer::Potential, kFieldMean, false, false, &view}, im);
  CHECK(im.range.min == 0);
  CHECK(im.range.max == 11);
  CHECK(im.texels[t.at(1, 1)] == sequentialColor(1));
  CHECK(im.texels[t.at(1, 2)] == sequentialColor(1));  // beyond the range: clamped
  CHECK(im.texels[t.at(2, 2)] == kFieldNoValueColor);
  view.center = {-100, -100};  // no cell in view: the whole grid's
  buildFieldLayer(t.view(), {FieldLayer::Potential, kFieldMean, false, false, &view}, im);
  CHECK(im.range.max == 21);

  // Discomfort: diverging, symmetric about 0.
  t.discomfort[t.at(0, 0)] = -0.5f;
  t.discomfort[t.at(1, 0)] = 2;
  buildFieldLayer(t.view(), {FieldLayer::Discomfort, kFieldMean, false, false}, im);
  CHECK(im.range.map == ColorMap::Diverging);
  CHECK(im.range.min == -2);
  CHECK(im.range.max == 2);
  CHECK(im.texels[t.at(2, 0)] == divergingColor(0.5f));  // no discomfort: the white middle
  CHECK(im.texels[t.at(1, 0)] == divergingColor(1));
  CHECK(im.texels[t.at(0, 0)] == divergingColor(0.375f));
}

TEST_CASE("a layer reports nothing asked, no field and no potential") {
  TestField t(2, 2);
  FieldLayerImage im;
  buildFieldLayer(t.view(), {}, im);
  CHECK(im.result == FieldLayerImage::Result::Off);
  CHECK(im.texels.empty());
  buildFieldLayer(FieldView{}, {FieldLayer::Density, kFieldMean, false, false}, im);
  CHECK(im.result == FieldLayerImage::Result::NoField);
  CHECK(im.cols == 0);
  FieldView v = t.view();
  v.potential = {};
  buildFieldLayer(v, {FieldLayer::Potential, kFieldMean, false, false}, im);
  CHECK(im.result == FieldLayerImage::Result::NoPotential);
  CHECK(im.texels.empty());
  // Another layer with arrows asked for still draws, without the arrows' potential.
  buildFieldLayer(v, {FieldLayer::Density, kFieldMean, false, true}, im);
  CHECK(im.result == FieldLayerImage::Result::Drawn);
  CHECK(im.texels.size() == 4);
  CHECK(im.potential.empty());
  // Arrows alone need it.
  buildFieldLayer(v, {FieldLayer::None, kFieldMean, false, true}, im);
  CHECK(im.result == FieldLayerImage::Result::NoPotential);
}

TEST_CASE("the height layer and the shading light the slopes, the shading alone is clear on flat ground") {
  TestField t(6, 6);
  // A ramp rising to the east: faces west, lit a little less than flat... and
  // a ridge's north-west face lit more.
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 6; ++x) t.height[t.at(x, y)] = x < 3 ? 0.0f : 0.5f * static_cast<float>(x - 2) - 0.5f * y;
  FieldLayerImage im;
  buildFieldLayer(t.view(), {FieldLayer::None, kFieldMean, true, false}, im);
  REQUIRE(im.result == FieldLayerImage::Result::Drawn);
  REQUIRE(im.texels.size() == 36);
  CHECK((im.texels[t.at(0, 3)] >> 24) == 0u);  // flat: clear
  // On the slope rising to the south-east (facing north-west): white, translucent.
  const std::uint32_t lit = im.texels[t.at(4, 3)];
  CHECK((lit >> 24) > 0u);
  CHECK((lit & 0xFFFFFFu) == 0xFFFFFFu);
  // The height layer is shaded: the same height colour, brighter where lit.
  buildFieldLayer(t.view(), {FieldLayer::Height, kFieldMean, false, false}, im);
  CHECK(im.texels[t.at(0, 0)] == im.range.color(0));
  CHECK(luma(im.texels[t.at(4, 3)]) > luma(im.range.color(im.values[t.at(4, 3)])));
  // Another layer is shaded only when asked.
  buildFieldLayer(t.view(), {FieldLayer::Density, kFieldMean, false, false}, im);
  CHECK(im.texels[t.at(4, 3)] == im.texels[t.at(0, 0)]);
  buildFieldLayer(t.view(), {FieldLayer::Density, kFieldMean, true, false}, im);
  CHECK(luma(im.texels[t.at(4, 3)]) > luma(im.texels[t.at(0, 0)]));
}

TEST_CASE("the value under the cursor names the cell, the value and its unit") {
  TestField t(4, 3);
  t.potential[t.at(2, 1)] = 12.25f;
  t.potential[t.at(1, 1)] = kInf;
  t.blocked[t.at(0, 2)] = 1;
  FieldLayerImage im;
  buildFieldLayer(t.view(), {FieldLayer::Potential, kFieldMean, false, false}, im);
  // Cell (2, 1) covers x in [14, 16), y in [22, 24).
  FieldSample s = sampleField(im, {15, 23});
  CHECK(s.inside);
  CHECK(s.x == 2);
  CHECK(s.y == 1);
  CHECK(s.value == 12.25f);
  CHECK(describeFieldSample(im, s) == "potential 12.2 path cost at cell (2, 1)");
  CHECK(describeFieldSample(im, sampleField(im, {13, 23})) == "potential inf (no path) path cost at cell (1, 1)");
  CHECK(describeFieldSample(im, sampleField(im, {11, 25})) == "cell (0, 2): blocked");
  CHECK_FALSE(sampleField(im, {9.9f, 23}).inside);
  CHECK_FALSE(sampleField(im, {18, 23}).inside);  // x = 18 is the far edge
  CHECK(describeFieldSample(im, sampleField(im, {18, 23})) == "off the field grid");
  // Four directions.
  const std::size_t c = t.at(2, 1);
  const float co[4] = {1.5f, 2, kInf, 3};
  for (int d = 0; d < 4; ++d) t.cost[4 * c + d] = co[d];
  buildFieldLayer(t.view(), {FieldLayer::Cost, kFieldMean, false, false}, im);
  s = sampleField(im, {15, 23});
  CHECK(s.perDirection[kWest] == kInf);
  CHECK(describeFieldSample(im, s) == "cost mean 2.17 (E 1.5, N 2, W inf, S 3) per unit of path at cell (2, 1)");
  CHECK(formatFieldNumber(0.000123456f) == "0.000123");
  CHECK(formatFieldNumber(-kInf) == "-inf");
}

TEST_CASE("the potential's gradient: central differences of finite neighbours, one-sided at the edges") {
  const int cols = 5, rows = 4;
  const float h = 0.5f;
  std::vector<float> phi(cols * rows);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) phi[y * cols + x] = 2 * x * h + 3 * y * h;  // grad (2, 3)
  CHECK(potentialGradient(phi, cols, rows, h, 2, 1) == Vec2{2, 3});
  CHECK(potentialGradient(phi, cols, rows, h, 0, 0) == Vec2{2, 3});          // one-sided
  CHECK(potentialGradient(phi, cols, rows, h, cols - 1, rows - 1) == Vec2{2, 3});
  phi[1 * cols + 3] = kInf;                                                  // the east neighbour of (2, 1)
  CHECK(potentialGradient(phi, cols, rows, h, 2, 1) == Vec2{2, 3});          // from the west side alone
  phi[1 * cols + 1] = kInf;                                                  // and the west
  CHECK(potentialGradient(phi, cols, rows, h, 2, 1) == Vec2{0, 3});
  CHECK(potentialGradient(phi, cols, rows, h, 3, 1) == Vec2{});              // no potential there
  CHECK(potentialGradient(phi, cols, rows, h, 9, 1) == Vec2{});              // off the grid
}

TEST_CASE("arrows point down the potential at every k-th cell in view, thinned to 14 pixels apart") {
  TestField t(20, 10);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 20; ++x) t.potential[t.at(x, y)] = static_cast<float>(20 - x);  // falls to the east
  t.blocked[t.at(0, 0)] = 1;
  FieldLayerImage im;
  buildFieldLayer(t.view(), {FieldLayer::None, kFieldMean, false, true}, im);
  REQUIRE(im.result == FieldLayerImage::Result::Drawn);
  REQUIRE(im.potential.size() == 200);
  Camera2D cam;
  cam.center = {30, 30};  // the grid: x 10..50, y 20..40
  cam.width = 800;
  cam.height = 400;
  cam.zoom = 16;  // 32 px a cell: the whole grid in view
  Mesh m;
  FieldArrows a = buildFieldArrows(im, cam, 1, m);
  CHECK(a.stride == 1);
  CHECK(a.drawn == 199);  // every cell but the blocked one
  CHECK(countColour(m, kFieldArrowColor) > 0);
  CHECK(countColour(m, kFieldArrowOutline) > 0);
  // Each white arrow runs east: its vertices span x more than y.
  float minX = 1e9f, maxX = -1e9f, minY = 1e9f, maxY = -1e9f;
  for (std::size_t k = 0; k < m.tris.size(); ++k) {
    const Vertex& v = m.tris[k];
    if (v.rgba != kFieldArrowColor || std::fabs(v.x - 13) > 1 || std::fabs(v.y - 23) > 1) continue;  // cell (1, 1)'s
    minX = std::min(minX, v.x);
    maxX = std::max(maxX, v.x);
    minY = std::min(minY, v.y);
    maxY = std::max(maxY, v.y);
  }
  CHECK(maxX - minX > 1.2f);  // 0.8 of a 2-unit cell
  CHECK(maxY - minY < 0.8f);
  CHECK(m.tris.size() / 3 < 200 * 40);
  // Zoomed out to 4 px a cell: every 4th.
  m.clear();
  cam.zoom = 2;
  a = buildFieldArrows(im, cam, 1, m);
  CHECK(a.stride == 4);
  CHECK(a.drawn == 5 * 3 - 1);  // less the blocked cell (0, 0)
  m.clear();
  a = buildFieldArrows(im, cam, 5, m);
  CHECK(a.stride == 5);
  CHECK(a.drawn == 4 * 2 - 1);
  // Only those in view (one stride beyond).
  m.clear();
  cam.zoom = 16;
  cam.center = {12, 22};
  cam.width = cam.height = 64;  // 2 x 2 cells about (1, 1)
  a = buildFieldArrows(im, cam, 1, m);
  CHECK(a.drawn > 0);
  CHECK(a.drawn <= 16);
  // No potential: none.
  buildFieldLayer(t.view(), {FieldLayer::Density, kFieldMean, false, false}, im);
  m.clear();
  CHECK(buildFieldArrows(im, cam, 1, m).drawn == 0);
  CHECK(m.tris.empty());
}

TEST_CASE("the teaching mesh draws each role in its colour and width: a field cell, its speeds, a closed face, the flow") {
  // Shapes as the fields' part lays them for a walker at (3.7, 2.4) in cell
  // (3, 2) of a unit grid: east at top speed, north at half, west closed,
  // south at zero speed.
  const Vec2 c{3.5f, 2.5f};
  TeachingView v;
  v.add(TeachKind::Loop, TeachRole::FieldCell, TeachFrame::World, {{3, 2}, {4, 2}, {4, 3}, {3, 3}});
  v.arrow(TeachRole::FieldSpeed, TeachFrame::World, c, c + Vec2{0.45f, 0});
  v.arrow(TeachRole::FieldSpeed, TeachFrame::World, c, c + Vec2{0, 0.225f});
  v.add(TeachKind::Path, TeachRole::FieldClosed, TeachFrame::World, {{3, 2.15f}, {3, 2.85f}});
  v.arrow(TeachRole::FieldSpeed, TeachFrame::World, c, c);  // no speed: shorter than two pixels, not drawn
  v.arrow(TeachRole::FieldFlow, TeachFrame::Velocity, {0, 0}, {1, 0.5f});
  const Vec2 walker{3.7f, 2.4f};
  Mesh m;
  buildTeachingMesh(v, walker, 1, 0.01f, m);
  CHECK(countColour(m, kFieldCellOutline) > 0);
  CHECK(countColour(m, kFieldSpeedColor) == 2 * 9);  // two arrows (shaft and head) drawn
  CHECK(countColour(m, kFieldClosedColor) == 6);     // one bar
  CHECK(countColour(m, kFieldFlowColor) == 9);
  float east = -1e9f;
  for (const Vertex& p : m.tris)
    if (p.rgba == kFieldSpeedColor && std::fabs(p.y - 2.5f) < 0.1f) east = std::max(east, p.x);
  CHECK(east == doctest::Approx(3.95f).epsilon(0.01));
  // The flow is a velocity: from the walker, scaled with the view; the cell is not.
  auto tip = [](const Mesh& mesh, std::uint32_t colour, Vec2 want) {
    bool found = false;
    for (const Vertex& p : mesh.tris) found |= p.rgba == colour && (Vec2{p.x, p.y} - want).length() < 1e-4f;
    return found;
  };
  CHECK(tip(m, kFieldFlowColor, walker + Vec2{1, 0.5f}));
  Mesh doubled;
  buildTeachingMesh(v, walker, 2, 0.01f, doubled);
  CHECK(tip(doubled, kFieldFlowColor, walker + Vec2{2, 1}));
  CHECK(tip(doubled, kFieldSpeedColor, c + Vec2{0.45f, 0}));
  // A push shorter than half a pixel is not drawn; a longer one is.
  TeachingView push;
  push.arrow(TeachRole::Push, TeachFrame::World, walker, walker + Vec2{0.004f, 0});
  Mesh none;
  buildTeachingMesh(push, walker, 1, 0.01f, none);
  CHECK(countColour(none, kMotionColor) == 0);
  push.arrow(TeachRole::Push, TeachFrame::World, walker, walker + Vec2{0.12f, 0});
  Mesh pushed;
  buildTeachingMesh(push, walker, 1, 0.01f, pushed);
  CHECK(countColour(pushed, kMotionColor) == 9);
  // Notes are for the panel: they draw nothing.
  TeachingView notes;
  notes.note(TeachRole::Legend, "words");
  Mesh empty;
  buildTeachingMesh(notes, walker, 1, 0.01f, empty);
  CHECK(empty.tris.empty());
}

TEST_CASE("the panel reads the fields' settings under continuum and under routing = field, and not otherwise") {
  const auto table = settingsTable();
  Settings s;
  auto read = [&](std::string_view name) { return app::settingReadNow(*findSetting(name), s); };
  REQUIRE(findSetting("fieldCell") != nullptr);
  REQUIRE(findSetting("routing") != nullptr);
  CHECK(read("routing"));  // every model's
  CHECK(read("timeHorizon"));
  CHECK_FALSE(read("personalSpace"));
  for (const char* f : {"fieldCell", "fieldInterval", "costDistance", "costTime", "costDiscomfort", "densityExponent",
                        "densityMin", "densityMax", "slopeMin", "slopeMax", "slopeSpeed"}) {
    INFO(f);
    s = Settings{};
    CHECK_FALSE(read(f));
    s.model = "continuum";
    CHECK(read(f));
    s = Settings{};
    s.routing = "field";
    CHECK(read(f));
    s.model = "biocrowds";
    CHECK(read(f));
  }
  s = Settings{};
  s.model = "biocrowds";
  CHECK(read("personalSpace"));
  CHECK_FALSE(read("timeHorizon"));
  // Every setting that names models is read under one of them.
  for (const SettingInfo& i : table)
    for (std::string_view m : i.models) {
      s = Settings{};
      const auto eq = m.find(" = ");
      if (eq == std::string_view::npos) s.model = std::string(m);
      else REQUIRE(setSettingText(s, m.substr(0, eq), m.substr(eq + 3)));
      INFO(i.name, " under ", m);
      CHECK(app::settingReadNow(i, s));
    }
  // The panel has the routing combo, its names from the table.
  bool combo = false;
  for (const app::SettingWidget& w : app::settingWidgets(0.25f))
    if (w.label == "routing") {
      combo = w.kind == app::SettingWidget::Kind::Combo && w.choices == routingNames();
      CHECK(w.tooltip.find("every model") != std::string::npos);
    }
  CHECK(combo);
}

TEST_CASE("a continuum crowd's potential packs low at its target and high far from it") {
  // A 12 x 4 strip, the target at its east end, walkers at its west end.
  Crowd c;
  c.settings.model = "continuum";
  c.settings.jitter = 0;
  c.settings.fieldCell = 0.5f;
  Terrain t;
  t.targets.push_back(Target{"east end", {Rect{11, 0, 1, 4}}, {}, -1});
  c.setTerrain(t);
  const Vec2 box[5] = {{0, 0}, {12, 0}, {12, 4}, {0, 4}, {0, 0}};
  c.addWall(box);
  for (int k = 0; k < 4; ++k) c.add({1.0f, 0.8f + 0.8f * k}, Vec2{11.5f, 2}, 0.25f, 1.3f);
  c.advance(0.05);
  const FieldView f = c.fields(0);
  REQUIRE(f.cols > 0);
  REQUIRE(f.potential.size() == static_cast<std::size_t>(f.cols) * f.rows);
  FieldLayerImage im;
  buildFieldLayer(f, {FieldLayer::Potential, kFieldMean, false, true}, im);
  REQUIRE(im.result == FieldLayerImage::Result::Drawn);
  CHECK(im.range.min == 0);
  const FieldSample atTarget = sampleField(im, {11.5f, 2}), far = sampleField(im, {0.5f, 2});
  REQUIRE(atTarget.inside);
  REQUIRE(far.inside);
  CHECK(atTarget.value == 0);
  CHECK(far.value > 10);
  const auto texel = [&](const FieldSample& s) { return im.texels[static_cast<std::size_t>(s.y) * im.cols + s.x]; };
  CHECK(texel(atTarget) == sequentialColor(0));
  CHECK(luma(texel(far)) > luma(texel(atTarget)) + 40);
  // Down the potential is east, in the middle of the strip.
  const Vec2 g = potentialGradient(im.potential, im.cols, im.rows, im.cell, far.x + 4, far.y);
  CHECK(g.x < 0);
  CHECK(std::fabs(g.y) < 0.2f * std::fabs(g.x));
  // The teaching view's walker stands in a cell with its speeds and flow.
  const AgentExplain ex = c.explain(0, 0.05);
  CHECK(ex.fieldCell >= 0);
  CHECK(ex.fieldFlow.x > 0);
}
