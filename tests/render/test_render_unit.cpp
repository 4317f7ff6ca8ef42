// Pure parts of the renderer, without GL: camera math, instance packing,
// overlay geometry.
#include <doctest/doctest.h>

#include <cstring>

#include "../models/walk_straight.hpp"
#include "render/camera.hpp"
#include "render/instance.hpp"
#include "render/overlay.hpp"
#include "render/pack.hpp"
#include "throng/crowd.hpp"

using namespace throng;
using namespace throng::render;

namespace {
Camera2D camera800x600() {
  Camera2D c;
  c.width = 800;
  c.height = 600;
  c.center = {10, -5};
  c.zoom = 2;
  return c;
}
float area(const Mesh& m) {
  float a = 0;
  for (std::size_t i = 0; i + 2 < m.tris.size(); i += 3) {
    const Vec2 p{m.tris[i].x, m.tris[i].y}, q{m.tris[i + 1].x, m.tris[i + 1].y}, r{m.tris[i + 2].x, m.tris[i + 2].y};
    a += std::fabs(det(q - p, r - p)) * 0.5f;
  }
  return a;
}
}  // namespace

TEST_CASE("camera maps the centre to the middle and y up to screen up") {
  const Camera2D c = camera800x600();
  const glm::vec2 mid = c.worldToScreen({10, -5});
  CHECK(mid.x == doctest::Approx(400));
  CHECK(mid.y == doctest::Approx(300));
  const glm::vec2 up = c.worldToScreen({10, 5});  // 10 units up = 20 px up
  CHECK(up.y == doctest::Approx(280));
  const glm::vec2 back = c.screenToWorld(c.worldToScreen({123.5f, -77}));
  CHECK(back.x == doctest::Approx(123.5f));
  CHECK(back.y == doctest::Approx(-77));
}

TEST_CASE("camera view-projection agrees with worldToScreen") {
  const Camera2D c = camera800x600();
  for (glm::vec2 w : {glm::vec2{0, 0}, glm::vec2{100, 40}, glm::vec2{-90, 120}}) {
    const glm::vec4 clip = c.viewProjection() * glm::vec4(w, 0, 1);
    const glm::vec2 s = c.worldToScreen(w);
    CHECK((clip.x * 0.5f + 0.5f) * 800 == doctest::Approx(s.x).epsilon(1e-4));
    CHECK((0.5f - clip.y * 0.5f) * 600 == doctest::Approx(s.y).epsilon(1e-4));
  }
}

TEST_CASE("zoom at the cursor keeps the world point under it") {
  Camera2D c = camera800x600();
  const glm::vec2 cursor{620, 130};
  const glm::vec2 before = c.screenToWorld(cursor);
  c.zoomAt(cursor, 1.7f);
  CHECK(c.zoom == doctest::Approx(3.4f));
  const glm::vec2 after = c.screenToWorld(cursor);
  CHECK(after.x == doctest::Approx(before.x));
  CHECK(after.y == doctest::Approx(before.y));
  c.zoomAt(cursor, 1e-30f);
  CHECK(c.zoom == doctest::Approx(Camera2D::kMinZoom));
}

TEST_CASE("pan moves the world with the cursor") {
  Camera2D c = camera800x600();
  const glm::vec2 grab{300, 200};
  const glm::vec2 w = c.screenToWorld(grab);
  c.pan({40, -25});
  const glm::vec2 s = c.worldToScreen(w);
  CHECK(s.x == doctest::Approx(340));
  CHECK(s.y == doctest::Approx(175));
}

TEST_CASE("fit centres the box and fills the viewport less the margin") {
  Camera2D c = camera800x600();
  Bounds b;
  b.add({-440, -440}, 8);
  b.add({440, 440}, 8);
  c.fit(b, 20);
  CHECK(c.center.x == doctest::Approx(0));
  CHECK(c.center.y == doctest::Approx(0));
  CHECK(c.zoom == doctest::Approx(560.0f / 896.0f));  // limited by the height
  const glm::vec2 top = c.worldToScreen({0, 448});
  CHECK(top.y == doctest::Approx(20));
  Bounds none;
  const float z = c.zoom;
  c.fit(none);
  CHECK(c.zoom == z);
}

TEST_CASE("packInstance fills every field of the 32-byte record") {
  const AgentInstance a = packInstance(3, 4, 30, -40, 8, 1, 1);
  CHECK(a.x == 3);
  CHECK(a.y == 4);
  CHECK(a.radius == 8);
  CHECK(a.speed == doctest::Approx(50));
  CHECK(a.hx == doctest::Approx(0.6f));
  CHECK(a.hy == doctest::Approx(-0.8f));
  CHECK(a.rgba == groupColor(1));
  CHECK(a.flags == kInstanceJammed);
  const AgentInstance s = packInstance(0, 0, 0, 0, 5, 0, 0);
  CHECK(s.hx == 0);
  CHECK(s.hy == 0);
  CHECK(s.flags == 0);
  static_assert(offsetof(AgentInstance, hx) == 16 && offsetof(AgentInstance, rgba) == 24 &&
                offsetof(AgentInstance, flags) == 28);
}

TEST_CASE("group colours cycle and never come near the jam orange") {
  for (int g = -8; g < 16; ++g) {
    const std::uint32_t c = groupColor(g);
    CHECK(c == groupColor(g + 8));
    const int r = c & 255, gr = (c >> 8) & 255, b = (c >> 16) & 255;
    CHECK(std::abs(r - 255) + std::abs(gr - 140) + std::abs(b - 0) > 150);
  }
}

TEST_CASE("packInstances over a crowd's frame matches packInstance per walker") {
  Crowd crowd;
  crowd.add({0, 0}, Vec2{100, 0}, 8, 120, 0);
  crowd.add({50, 20}, Vec2{-100, 0}, 6, 100, 2);
  crowd.add({-30, 70}, std::nullopt, 10, 90, 5);
  for (int k = 0; k < 5; ++k) crowd.advance();
  const FrameView f = crowd.frame();
  std::vector<AgentInstance> out;
  packInstances(f, out);
  REQUIRE(out.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const AgentInstance e = packInstance(f.px[i], f.py[i], f.vx[i], f.vy[i], f.radius[i], f.group[i], f.jammed[i]);
    CHECK(std::memcmp(&e, &out[i], sizeof e) == 0);
  }
  const std::size_t nb[] = {0, 7};
  markSelection(out, 1, nb);
  CHECK((out[1].flags & kInstanceSelected) != 0);
  CHECK((out[0].flags & kInstanceNeighbour) != 0);
  CHECK(out[2].flags == 0);
}

TEST_CASE("ear clipping fills a non-convex outline with its own area, either winding") {
  std::vector<Vec2> l = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 3}, {0, 3}};  // an L, area 6
  Mesh m;
  addPolygonFill(m, l, 0xffffffffu);
  CHECK(m.triangleCount() == 4);
  CHECK(area(m) == doctest::Approx(6));
  std::reverse(l.begin(), l.end());
  Mesh r;
  addPolygonFill(r, l, 0xffffffffu);
  CHECK(area(r) == doctest::Approx(6));
}

TEST_CASE("segments and circles have the widths asked for") {
  Mesh m;
  addSegment(m, {0, 0}, {10, 0}, 2, 0xffffffffu);
  CHECK(area(m) == doctest::Approx(20));
  Mesh c;
  addCircle(c, {0, 0}, 10, 1, 0xffffffffu, 256);
  CHECK(area(c) == doctest::Approx(2 * 3.14159265f * 10 * 1).epsilon(0.01));
}

TEST_CASE("the teaching mesh draws the solver's own lines from Crowd::explain") {
  Crowd crowd;
  crowd.add({-50, 0}, Vec2{200, 0});
  crowd.add({50, 4}, Vec2{-200, 0});
  crowd.advance();
  const AgentExplain ex = crowd.explain(0);
  REQUIRE(ex.neighbours.size() == 1);
  REQUIRE(ex.agentLines.size() == 1);
  const Agent a = crowd.agent(0);
  Mesh m;
  buildTeachingMesh(ex.teaching, a.position, 1, 1, m);
  std::size_t lineVerts = 0, shadeVerts = 0, chosenVerts = 0, voVerts = 0, feasibleVerts = 0;
  bool chosenTipFound = false;
  const Vec2 tip = a.position + ex.chosen;
  for (const Vertex& v : m.tris) {
    lineVerts += v.rgba == kOrcaLineColor;
    shadeVerts += v.rgba == kPermittedShade;
    voVerts += v.rgba == kVoShade;
    if (v.rgba == kChosenColor) {
      ++chosenVerts;
      chosenTipFound |= std::fabs(v.x - tip.x) < 1e-3f && std::fabs(v.y - tip.y) < 1e-3f;
    }
    // Every shaded vertex of the permitted side is on the permitted side of the solver's line.
    if (v.rgba == kFeasibleShade) {
      ++feasibleVerts;
      const Vec2 vel = (Vec2{v.x, v.y} - a.position);
      CHECK(det(ex.agentLines[0].direction, ex.agentLines[0].point - vel) <= 1e-2f);
      CHECK(vel.length() <= a.maxSpeed + 1e-3f);
    }
    if (v.rgba == kPermittedShade && lineVerts == 0) {
      const Vec2 vel = (Vec2{v.x, v.y} - a.position);
      CHECK(det(ex.agentLines[0].direction, ex.agentLines[0].point - vel) <= 1e-2f);
    }
  }
  CHECK(lineVerts == 6);
  CHECK(shadeVerts >= 9);
  CHECK(voVerts >= 9);
  CHECK(chosenVerts == 9);
  CHECK(chosenTipFound);
  CHECK(!ex.jammed);
  CHECK(feasibleVerts >= 9);  // a non-empty feasible region
}

TEST_CASE("a model the renderer has never heard of has its teaching view drawn: the tests' walk-straight") {
  test::registerWalkStraight();
  Crowd crowd;
  crowd.settings.jitter = 0;
  crowd.setModel(test::WalkStraight::kName);
  crowd.add({0, 0}, Vec2{200, 0});
  crowd.add({60, 0}, Vec2{-200, 0});
  crowd.advance();
  const AgentExplain ex = crowd.explain(0);
  const Agent a = crowd.agent(0);
  Mesh m;
  buildTeachingMesh(ex.teaching, a.position, 1, 1, m);
  std::size_t chosen = 0, preferred = 0, ring = 0, orca = 0;
  bool chosenTip = false;
  const Vec2 tip = a.position + ex.chosen;
  for (const Vertex& v : m.tris) {
    chosen += v.rgba == kChosenColor;
    preferred += v.rgba == kPreferredColor;
    ring += v.rgba == kTopSpeedColor;
    orca += v.rgba == kOrcaLineColor || v.rgba == kVoShade || v.rgba == kFeasibleShade;
    chosenTip |= v.rgba == kChosenColor && (Vec2{v.x, v.y} - tip).length() < 1e-3f;
  }
  CHECK(chosen == 9);  // shaft and head
  CHECK(preferred == 9);
  CHECK(ring == 64 * 6);
  CHECK(chosenTip);
  CHECK(orca == 0);  // it reads no neighbour: none of ORCA's view
}

TEST_CASE("the scene mesh fills obstacles and draws walls, goals and gates") {
  SceneGeometry g;
  g.obstacles.push_back({{0, 0}, {10, 0}, {10, 10}, {0, 10}});
  g.walls.push_back({{20, 0}, {20, 10}, {30, 10}});
  g.goals.push_back({5, 20});
  g.gates.push_back({{40, 0}, {40, 14}});
  Mesh m;
  buildSceneMesh(g, 0.5f, m);
  CHECK(m.triangleCount() > 10);
  Mesh fillOnly;
  addPolygonFill(fillOnly, g.obstacles[0], 1);
  CHECK(area(fillOnly) == doctest::Approx(100));
}
