// The teaching view as data (throng/teaching.hpp): the shapes each model
// produces for a walker, from its own explain, before any renderer sees
// them; and the geometry they are built with (core/teach.hpp,
// models/orca/teach.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/teach.hpp"
#include "models/orca/teach.hpp"
#include "throng/crowd.hpp"

using namespace throng;

namespace {
std::size_t count(const TeachingView& v, TeachRole role, TeachKind kind) {
  return static_cast<std::size_t>(std::count_if(v.shapes.begin(), v.shapes.end(), [&](const TeachShape& s) {
    return s.role == role && s.kind == kind;
  }));
}
const TeachShape* first(const TeachingView& v, TeachRole role) {
  for (const TeachShape& s : v.shapes)
    if (s.role == role) return &s;
  return nullptr;
}
float shoelace(const std::vector<Vec2>& p) {
  float a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) a += det(p[i], p[(i + 1) % p.size()]);
  return 0.5f * a;
}
}  // namespace

TEST_CASE("clipping keeps the permitted side: left of the direction") {
  const Vec2 sq[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  // Direction +x through the origin: left is +y, so det(dir, p - v) <= 0 keeps y >= 0.
  const auto half = clipToPermitted(sq, HalfPlane{{0, 0}, {1, 0}});
  REQUIRE(half.size() == 4);
  for (Vec2 v : half) CHECK(v.y >= -1e-6f);
  CHECK(std::fabs(shoelace(half)) == doctest::Approx(2));
  const auto none = clipToPermitted(sq, HalfPlane{{0, 5}, {1, 0}});
  CHECK(none.empty());
}

TEST_CASE("the velocity obstacle is a convex cone whose legs touch the cut-off disc") {
  const Vec2 rel{100, 0};
  const float r = 20, tau = 2;
  const auto vo = velocityObstacle(rel, r, tau, {0, 0}, 300, 16);
  REQUIRE(vo.size() == 19);
  // Every cut-off arc point lies on the disc of radius r/tau at rel/tau, on its near side.
  for (std::size_t k = 1; k + 1 < vo.size(); ++k) {
    CHECK((vo[k] - rel / tau).length() == doctest::Approx(r / tau));
    CHECK(vo[k].x <= 50 + 1e-3f);
  }
  // The legs leave at the half-angle asin(r / |rel|).
  const float half = std::asin(r / 100);
  CHECK(std::atan2(vo.front().y, vo.front().x) == doctest::Approx(-half));
  CHECK(std::atan2(vo.back().y, vo.back().x) == doctest::Approx(half));
  // Convex: all turns the same way.
  float sign = 0;
  for (std::size_t k = 0; k < vo.size(); ++k) {
    const float t = det(vo[(k + 1) % vo.size()] - vo[k], vo[(k + 2) % vo.size()] - vo[(k + 1) % vo.size()]);
    if (std::fabs(t) < 1e-6f) continue;
    if (sign == 0) sign = t;
    CHECK(t * sign > 0);
  }
  // The ORCA cut-off disc's closest point to the apex is at (|rel| - r) / tau.
  CHECK(vo[9].x == doctest::Approx((100 - r) / tau));
}

TEST_CASE("ORCA's view: a velocity obstacle and a ring per neighbour, a shaded line per solver line, the feasible region") {
  Crowd crowd;
  crowd.add({-50, 0}, Vec2{200, 0});
  crowd.add({50, 4}, Vec2{-200, 0});
  crowd.add({0, 90}, Vec2{0, 300});
  crowd.advance();
  const AgentExplain ex = crowd.explain(0);
  REQUIRE(!ex.neighbours.empty());
  const TeachingView& v = ex.teaching;
  CHECK(count(v, TeachRole::Forbidden, TeachKind::Fill) == ex.neighbours.size());
  CHECK(count(v, TeachRole::Neighbour, TeachKind::Ring) == ex.neighbours.size());
  CHECK(count(v, TeachRole::Permitted, TeachKind::Fill) == ex.agentLines.size() + ex.obstacleLines.size());
  CHECK(count(v, TeachRole::AgentLine, TeachKind::Path) == ex.agentLines.size());
  // Every vertex of the feasible region is permitted by every line and within top speed.
  const TeachShape* feasible = first(v, TeachRole::Feasible);
  REQUIRE(feasible != nullptr);
  CHECK(feasible->frame == TeachFrame::Velocity);
  CHECK(feasible->points.size() >= 3);
  const float top = crowd.agent(0).maxSpeed;
  for (Vec2 p : feasible->points) {
    CHECK(p.length() <= top + 1e-3f);
    for (const HalfPlane& l : ex.agentLines) CHECK(det(l.direction, l.point - p) <= 1e-2f);
  }
  // The arrows are the explain's own wish and choice.
  const TeachShape* chosen = first(v, TeachRole::Chosen);
  REQUIRE(chosen != nullptr);
  CHECK(chosen->kind == TeachKind::Arrow);
  CHECK(chosen->points.back() == ex.chosen);
  CHECK(first(v, TeachRole::Preferred)->points.back() == ex.preferred);
  CHECK(first(v, TeachRole::Marker) == nullptr);
  CHECK(!v.notes.empty());
  // The grid's query: the cells scanned, and every neighbour read is among
  // the walkers found in them.
  CHECK(count(v, TeachRole::GridCell, TeachKind::Loop) >= 1);
  std::size_t found = 0;
  for (std::size_t j : ex.neighbours) {
    const Vec2 q = crowd.agent(j).position;
    for (const TeachShape& sh : v.shapes) found += sh.role == TeachRole::Candidate && sh.points[0] == q;
  }
  CHECK(found == ex.neighbours.size());
}

TEST_CASE("BioCrowds' view: a dot per owned marker weighted against the heaviest, M from the walker, R round it") {
  Settings s;
  s.model = "biocrowds";
  s.jitter = 0;
  Crowd crowd(s);
  crowd.add({-0.35f, 0}, Vec2{-0.35f, 20}, 0.25f, 1.3f);
  crowd.add({0.35f, 0}, Vec2{0.35f, 20}, 0.25f, 1.3f);
  crowd.advance();
  const AgentExplain ex = crowd.explain(0);
  REQUIRE(ex.markers.size() > 10);
  const TeachingView& v = ex.teaching;
  std::size_t usable = 0;
  for (float f : ex.markerWeights) usable += f > 0;
  CHECK(count(v, TeachRole::Marker, TeachKind::Dot) == usable);
  CHECK(count(v, TeachRole::MarkerUnusable, TeachKind::Dot) == ex.markers.size() - usable);
  float heaviest = 0;
  for (const TeachShape& sh : v.shapes)
    if (sh.role == TeachRole::Marker) {
      CHECK(sh.weight > 0);
      CHECK(sh.weight <= 1);
      CHECK(sh.size == doctest::Approx(markerSpacing(s.personalSpace, s.markerDensity)));
      heaviest = std::max(heaviest, sh.weight);
    }
  CHECK(heaviest == 1);
  const Vec2 p = crowd.agent(0).position;
  const TeachShape* m = first(v, TeachRole::Motion);
  REQUIRE(m != nullptr);
  CHECK(m->frame == TeachFrame::World);
  CHECK(m->points[0] == p);
  CHECK(m->points[1] == p + ex.motion);
  const TeachShape* reach = first(v, TeachRole::Reach);
  REQUIRE(reach != nullptr);
  CHECK(reach->size == s.personalSpace);
  // None of ORCA's.
  CHECK(first(v, TeachRole::Feasible) == nullptr);
  CHECK(first(v, TeachRole::AgentLine) == nullptr);
}

TEST_CASE("Continuum's view: the wish, the choice and the push, the fields' part under every model that reads them") {
  Settings s;
  s.model = "continuum";
  s.jitter = 0;
  Crowd crowd(s);
  crowd.add({0, 0}, Vec2{20, 0}, 0.25f, 1.3f);
  crowd.add({0.3f, 0.1f}, Vec2{20, 0}, 0.25f, 1.3f);
  crowd.advance();
  const AgentExplain ex = crowd.explain(0);
  REQUIRE(ex.fieldCell >= 0);
  const TeachingView& v = ex.teaching;
  CHECK(first(v, TeachRole::Feasible) == nullptr);
  CHECK(count(v, TeachRole::Chosen, TeachKind::Arrow) == 1);
  CHECK(count(v, TeachRole::FieldCell, TeachKind::Loop) == 1);
  // Four faces, each an arrow or a bar.
  CHECK(count(v, TeachRole::FieldSpeed, TeachKind::Arrow) + count(v, TeachRole::FieldClosed, TeachKind::Path) == 4);
  // The fields' part comes last, over the model's.
  CHECK(v.shapes.back().role == (ex.fieldFlow.length() > 0 ? TeachRole::FieldFlow : TeachRole::FieldSpeed));
  // ORCA with field routing adds the same part to its own view.
  Settings o;
  o.routing = "field";
  o.jitter = 0;
  Crowd routed(o);
  routed.add({0, 0}, Vec2{20, 0}, 0.25f, 1.3f);
  routed.advance();
  const AgentExplain ro = routed.explain(0);
  CHECK(count(ro.teaching, TeachRole::FieldCell, TeachKind::Loop) == (ro.fieldCell >= 0 ? 1u : 0u));
  CHECK(first(ro.teaching, TeachRole::Feasible) != nullptr);
}

TEST_CASE("the fields' part: an arrow as long as the speed each open way, a bar across a closed face, the flow") {
  TeachingView v;
  const float inf = INFINITY;
  const float sp[4] = {1.3f, 0.65f, 0, 1.3f}, co[4] = {1.8f, 2.5f, inf, 1.8f};
  teachFieldCell(v, {0, 0}, 1, 5, 2 * 5 + 3, sp, co, {1, 0.5f}, 1.3f);  // cell (3, 2) of a 5-wide grid
  REQUIRE(count(v, TeachRole::FieldSpeed, TeachKind::Arrow) == 3);
  REQUIRE(count(v, TeachRole::FieldClosed, TeachKind::Path) == 1);
  const TeachShape* east = first(v, TeachRole::FieldSpeed);
  CHECK(east->points[0] == Vec2{3.5f, 2.5f});
  CHECK(east->points[1].x == doctest::Approx(3.95f));  // 0.45 of the cell at top speed
  const TeachShape* bar = first(v, TeachRole::FieldClosed);
  CHECK(bar->points[0].x == doctest::Approx(3.0f));  // the west face
  CHECK(bar->points[1].x == doctest::Approx(3.0f));
  CHECK(first(v, TeachRole::FieldFlow)->frame == TeachFrame::Velocity);
  TeachingView none;
  teachFieldCell(none, {0, 0}, 1, 5, -1, sp, co, {1, 0}, 1.3f);
  CHECK(none.shapes.empty());
}

TEST_CASE("ORCA's view says each neighbour's share: half, or all of it for the one behind under full right of way") {
  Settings s;
  s.jitter = 0;
  s.rightOfWay = 1;
  Crowd crowd(s);
  crowd.add({0, 0}, Vec2{400, 0});
  crowd.add({25, 0}, Vec2{400, 0});
  crowd.advance();
  auto lineLabel = [&](std::size_t i) {
    for (const TeachShape& sh : crowd.explain(i).teaching.shapes)
      if (sh.role == TeachRole::AgentLine) return sh.label;
    return std::string();
  };
  CHECK(lineLabel(0) == "#1 takes 100%");  // behind: it gives way wholly
  CHECK(lineLabel(1) == "#0 takes 0%");
  crowd.settings.rightOfWay = 0;
  CHECK(lineLabel(0) == "#1 takes 50%");
}
