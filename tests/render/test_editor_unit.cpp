// The scene editor's pure parts (app/viz/editor/), without a window or a
// document: hit testing and snapping on hand-made shapes, each tool's
// gesture as events in and actions out, the meshes, the recent files.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <variant>

#include "viz/editor/draw.hpp"
#include "viz/editor/geometry.hpp"
#include "viz/editor/recent.hpp"
#include "viz/editor/tools.hpp"

using namespace throng;
using namespace throng::app::edit;

namespace {

DocShape wall(std::string ptr, std::vector<Vec2> pts) {
  DocShape s;
  s.pointer = ptr;
  s.kind = DocShapeKind::wall;
  s.points = pts;
  for (std::size_t k = 0; k < pts.size(); ++k) s.vertexPointers.push_back(ptr + "/" + std::to_string(k));
  return s;
}

DocShape rectObstacle(std::string ptr, Rect r) {
  DocShape s;
  s.pointer = ptr;
  s.kind = DocShapeKind::obstacle;
  s.points = rectCorners(r);
  s.vertexPointers.assign(4, "");
  s.closed = true;
  return s;
}

DocShape agent(std::string ptr, Vec2 at, float r = 0.25f) {
  DocShape s;
  s.pointer = ptr;
  s.kind = DocShapeKind::agent;
  s.points = {at};
  s.vertexPointers = {ptr + "/at"};
  s.radius = r;
  return s;
}

// A 10 x 10 room's walls, an obstacle and a walker.
std::vector<DocShape> scene() {
  return {wall("/walls/0", {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}}), rectObstacle("/obstacles/0", {6, 6, 2, 2}),
          agent("/agents/0", {3, 3})};
}

PointerEvent ev(PointerEvent::Type t, Vec2 at, int clicks = 1, int button = 1) {
  PointerEvent e;
  e.type = t;
  e.world = at;
  e.clicks = clicks;
  e.button = button;
  return e;
}
PointerEvent press(Vec2 at, int clicks = 1) { return ev(PointerEvent::Type::Press, at, clicks); }
PointerEvent move(Vec2 at) { return ev(PointerEvent::Type::Move, at); }
PointerEvent release(Vec2 at) { return ev(PointerEvent::Type::Release, at); }

// Runs events through the machine and gathers every action.
std::vector<Action> run(ToolMachine& m, const ToolContext& c, const std::vector<PointerEvent>& events) {
  std::vector<Action> out;
  for (const PointerEvent& e : events) {
    auto r = m.pointer(e, c);
    out.insert(out.end(), r.actions.begin(), r.actions.end());
  }
  return out;
}

std::vector<Action> commits(const std::vector<Action>& a) {
  std::vector<Action> out;
  for (const Action& x : a)
    if (x.kind == Action::Kind::Commit) out.push_back(x);
  return out;
}

int countKind(const std::vector<Action>& a, Action::Kind k) {
  return static_cast<int>(std::count_if(a.begin(), a.end(), [k](const Action& x) { return x.kind == k; }));
}

bool near(Vec2 a, Vec2 b, float eps = 1e-4f) { return (a - b).length() <= eps; }

bool meshHas(const render::Mesh& m, std::uint32_t rgba) {
  return std::any_of(m.tris.begin(), m.tris.end(), [rgba](const render::Vertex& v) { return v.rgba == rgba; });
}

}  // namespace

TEST_CASE("segment distance, polygon inside, rect between") {
  float t = -1;
  CHECK(distanceToSegment({5, 2}, {0, 0}, {10, 0}, &t) == doctest::Approx(2));
  CHECK(t == doctest::Approx(0.5));
  CHECK(distanceToSegment({-3, 4}, {0, 0}, {10, 0}, &t) == doctest::Approx(5));
  CHECK(t == 0);
  const std::vector<Vec2> sq = rectCorners({0, 0, 2, 2});
  CHECK(insidePolygon({1, 1}, sq));
  CHECK_FALSE(insidePolygon({3, 1}, sq));
  const Rect r = rectBetween({4, 1}, {1, 5});
  CHECK(r.x == 1);
  CHECK(r.y == 1);
  CHECK(r.width == 3);
  CHECK(r.height == 4);
  CHECK(lastSegment("/walls/2/3") == "3");
  CHECK(parentPointer("/walls/2/3") == "/walls/2");
}

TEST_CASE("hit testing: points, then vertices, then edges, then the smallest inside") {
  const auto shapes = scene();
  const float px = 0.01f;  // 100 pixels per unit: 7 px is 0.07 units
  Hit h = hitTest(shapes, {10.03f, 0.02f}, px);
  CHECK(h.part == Hit::Part::Vertex);
  CHECK(h.shape == 0);
  CHECK(h.vertex == 1);
  h = hitTest(shapes, {5, 0.05f}, px);
  CHECK(h.part == Hit::Part::Edge);
  CHECK(h.vertex == 0);
  CHECK(near(h.at, {5, 0}));
  h = hitTest(shapes, {3.1f, 3.1f}, px);  // within the walker's radius
  CHECK(h.part == Hit::Part::Body);
  CHECK(h.shape == 2);
  h = hitTest(shapes, {7, 7}, px);  // inside the obstacle
  CHECK(h.part == Hit::Part::Body);
  CHECK(h.shape == 1);
  h = hitTest(shapes, {6.02f, 7}, px);  // on the obstacle's edge (its corners do not move alone)
  CHECK(h.part == Hit::Part::Edge);
  CHECK(h.shape == 1);
  CHECK(hitTest(shapes, {2, 8}, px).part == Hit::Part::None);
  // Zoomed out, the same cursor offset is within reach.
  CHECK(hitTest(shapes, {10.3f, 0.2f}, 0.1f).part == Hit::Part::Vertex);
}

TEST_CASE("snapping: to the scene's points first, else to the grid") {
  const auto shapes = scene();
  SnapOptions o;
  o.step = 0.5f;
  Snapped s = snap({10.04f, 9.97f}, shapes, 0.01f, o);
  CHECK(s.kind == Snapped::Kind::Vertex);
  CHECK(near(s.at, {10, 10}));
  s = snap({4.3f, 4.1f}, shapes, 0.01f, o);
  CHECK(s.kind == Snapped::Kind::Grid);
  CHECK(near(s.at, {4.5f, 4}));
  s = snap({10.04f, 9.97f}, shapes, 0.01f, o, "/walls/0/2");  // the dragged vertex itself is skipped
  CHECK(s.kind == Snapped::Kind::Grid);
  o.grid = false;
  o.vertices = false;
  s = snap({4.3f, 4.1f}, shapes, 0.01f, o);
  CHECK(s.kind == Snapped::Kind::None);
  CHECK(near(s.at, {4.3f, 4.1f}));
  // Extra points (the polyline being drawn) pull too.
  const Vec2 extra[] = {{2.02f, 2.02f}};
  o.vertices = true;
  CHECK(near(snap({2.05f, 2.05f}, shapes, 0.01f, o, {}, extra).at, extra[0]));
}

TEST_CASE("the wall tool: click points, a double-click ends the wall, Enter too, Esc drops it") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  m.setTool(Tool::Wall);
  auto acts = run(m, c,
                  {press({5.1f, 0.2f}), release({5.1f, 0.2f}), move({5, 2}), press({5.02f, 3.9f}), release({5, 4}),
                   press({5.02f, 3.9f}, 2), release({5, 4})});
  auto cs = commits(acts);
  REQUIRE(cs.size() == 1);
  const auto* w = std::get_if<OpAddWall>(&*cs[0].op);
  REQUIRE(w);
  REQUIRE(w->points.size() == 2);  // the double-click's press adds no second copy
  CHECK(near(w->points[0], {5, 0}));
  CHECK(near(w->points[1], {5, 4}));
  CHECK_FALSE(m.busy());

  run(m, c, {press({1, 1}), release({1, 1}), press({2, 1}), release({2, 1}), press({2, 2}), release({2, 2})});
  CHECK(m.busy());
  CHECK(m.preview().points.size() == 3);
  auto r = m.key(Key::Enter, c);
  cs = commits(r.actions);
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpAddWall>(*cs[0].op).points.size() == 3);

  run(m, c, {press({1, 1}), release({1, 1})});
  CHECK(m.busy());
  r = m.key(Key::Escape, c);
  CHECK(commits(r.actions).empty());
  CHECK_FALSE(m.busy());
  // A lone point is no wall.
  acts = run(m, c, {press({1, 1}), release({1, 1}), press({1, 1}, 2)});
  CHECK(commits(acts).empty());
}

TEST_CASE("the outline tool closes on its first point, the rectangle tool on release") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  m.setTool(Tool::ObstacleOutline);
  auto acts = run(m, c, {press({1, 5}), release({1, 5}), press({3, 5}), release({3, 5}), press({2, 7}),
                         release({2, 7}), press({1.03f, 5.02f}), release({1, 5})});
  auto cs = commits(acts);
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpAddObstacleOutline>(*cs[0].op).outline.size() == 3);

  m.setTool(Tool::ObstacleRect);
  acts = run(m, c, {press({1, 1}), move({2, 2}), move({3.1f, 2.4f}), release({3.1f, 2.4f})});
  cs = commits(acts);
  REQUIRE(cs.size() == 1);
  const Rect r = std::get<OpAddObstacleRect>(*cs[0].op).rect;
  CHECK(r.x == 1);
  CHECK(r.y == 1);
  CHECK(r.width == doctest::Approx(2));
  CHECK(r.height == doctest::Approx(1.5));
  // A click without a drag makes nothing.
  CHECK(commits(run(m, c, {press({1, 1}), release({1, 1})})).empty());
}

TEST_CASE("the group tool: drag the region, click the goal, the walker tool: click it, click its goal") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  m.options.count = 12;
  m.options.group = 2;
  m.setTool(Tool::Group);
  auto acts = run(m, c, {press({1, 1}), move({2, 5}), release({4, 9})});
  CHECK(commits(acts).empty());
  CHECK(m.busy());
  CHECK(m.preview().anchorRect.has_value());
  acts = run(m, c, {press({8, 5}), release({8, 5})});
  auto cs = commits(acts);
  REQUIRE(cs.size() == 1);
  const auto& g = std::get<OpAddGroup>(*cs[0].op);
  CHECK(g.region.x == 1);
  CHECK(g.region.width == 3);
  CHECK(g.region.height == 8);
  CHECK(g.count == 12);
  CHECK(g.props.group == 2);
  REQUIRE(g.props.goal.has_value());
  CHECK(near(*g.props.goal, {8, 5}));
  CHECK_FALSE(g.props.radius.has_value());  // the scene's defaults

  // By density, to a goal region.
  m.options.byCount = false;
  m.options.density = 1.5;
  m.options.goalMode = GoalMode::Region;
  acts = run(m, c, {press({1, 1}), release({4, 9}), press({7, 1}), move({8, 3}), release({9, 9})});
  cs = commits(acts);
  REQUIRE(cs.size() == 1);
  const auto& g2 = std::get<OpAddGroup>(*cs[0].op);
  CHECK(g2.count == 0);
  CHECK(g2.density == 1.5);
  REQUIRE(g2.props.goalRegion.has_value());
  CHECK(g2.props.goalRegion->width == 2);

  // On a route: committed as soon as the region is dragged.
  m.options.goalMode = GoalMode::Route;
  m.options.route = "door";
  cs = commits(run(m, c, {press({1, 1}), release({4, 9})}));
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpAddGroup>(*cs[0].op).props.route == "door");

  m.options.goalMode = GoalMode::Point;
  m.setTool(Tool::Walker);
  cs = commits(run(m, c, {press({2, 2}), release({2, 2}), move({6, 3}), press({9, 2}), release({9, 2})}));
  REQUIRE(cs.size() == 1);
  const auto& a = std::get<OpAddAgent>(*cs[0].op);
  CHECK(near(a.at, {2, 2}));
  CHECK(near(*a.props.goal, {9, 2}));
}

TEST_CASE("sources, sinks, targets, discomfort regions and gates") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  m.options.groups = "1, 2";
  m.options.rate = 3;
  m.setTool(Tool::Sink);
  auto cs = commits(run(m, c, {press({12, 0}), release({14, 10})}));
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpAddSink>(*cs[0].op).groups == std::vector<int>{1, 2});
  m.setTool(Tool::Target);
  m.options.targetName = "exit";
  cs = commits(run(m, c, {press({12, 0}), release({14, 10})}));
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpAddTarget>(*cs[0].op).name == "exit");
  m.setTool(Tool::Discomfort);
  m.options.discomfortValue = -0.5;  // a crosswalk
  cs = commits(run(m, c, {press({2, 4}), move({5, 5}), release({6, 5})}));
  REQUIRE(cs.size() == 1);
  const auto& dis = std::get<OpAddDiscomfort>(*cs[0].op);
  CHECK(dis.value == -0.5);
  CHECK(near({dis.region.x, dis.region.y}, {2, 4}));
  CHECK(near({dis.region.width, dis.region.height}, {4, 1}));
  CHECK(describe(*cs[0].op) == "add a discomfort region");
  m.setTool(Tool::Source);
  cs = commits(run(m, c, {press({1, 1}), release({2, 2}), press({9, 9}), release({9, 9})}));
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpAddSource>(*cs[0].op).rate == 3);
  m.setTool(Tool::Gate);
  m.options.gateRoute = "door";
  cs = commits(run(m, c, {press({10, 4}), move({10, 5}), release({10, 6})}));
  REQUIRE(cs.size() == 1);
  const auto& gate = std::get<OpAddGate>(*cs[0].op);
  CHECK(gate.route == "door");
  CHECK(near(gate.a, {10, 4}));
  CHECK(near(gate.b, {10, 6}));
  m.setTool(Tool::Goal);
  CHECK(commits(run(m, c, {press({8, 8})})).empty());  // nothing selected
  c.selected = "/agents/0";
  cs = commits(run(m, c, {press({8, 8}), release({8, 8})}));
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpSetGoal>(*cs[0].op).pointer == "/agents/0");
  CHECK(parseGroups(" 3,x, 4 5") == std::vector<int>{3, 4, 5});
}

TEST_CASE("select: a vertex drag is one gesture of moves from where it began") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  auto acts = run(m, c, {press({10.02f, 0.01f})});
  REQUIRE(acts.size() == 1);
  CHECK(acts[0].kind == Action::Kind::Select);
  CHECK(acts[0].pointer == "/walls/0");
  CHECK(acts[0].vertex == "/walls/0/1");
  // Under the drag threshold: nothing yet.
  CHECK(run(m, c, {move({10.03f, 0.02f})}).empty());
  acts = run(m, c, {move({10.4f, 1.1f}), move({11.1f, 2.2f}), move({12.2f, 3.1f}), release({12.2f, 3.1f})});
  CHECK(countKind(acts, Action::Kind::Begin) == 1);
  CHECK(countKind(acts, Action::Kind::Update) == 3);
  CHECK(countKind(acts, Action::Kind::End) == 1);
  const Action& last = acts[acts.size() - 2];
  REQUIRE(last.kind == Action::Kind::Update);
  CHECK(last.onBase);
  const auto& mp = std::get<OpMovePoint>(*last.op);
  CHECK(mp.pointer == "/walls/0/1");
  CHECK(near(mp.to, {12, 3}));  // on the grid
}

TEST_CASE("select: an element moves by whole grid steps, a walker drags by its spot") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  auto acts = run(m, c, {press({7, 7}), move({7.6f, 7.2f}), move({8.1f, 6.1f}), release({8.1f, 6.1f})});
  CHECK(acts[0].pointer == "/obstacles/0");
  CHECK(countKind(acts, Action::Kind::Begin) == 1);
  const auto& mv = std::get<OpMoveElement>(*acts[acts.size() - 2].op);
  CHECK(mv.pointer == "/obstacles/0");
  CHECK(near(mv.by, {1, -1}));
  acts = run(m, c, {press({3, 3}), move({4, 4}), release({4, 4})});
  CHECK(acts[0].pointer == "/agents/0");
  CHECK(std::get<OpMovePoint>(*acts[2].op).pointer == "/agents/0/at");
  // A click that does not move is a selection only.
  acts = run(m, c, {press({7, 7}), release({7, 7})});
  CHECK(acts.size() == 1);
  // Empty ground: deselect, and the app pans.
  auto r = m.pointer(press({2, 8}), c);
  CHECK_FALSE(r.captured);
  REQUIRE(r.actions.size() == 1);
  CHECK(r.actions[0].pointer.empty());
  // Right and middle buttons are the app's.
  CHECK_FALSE(m.pointer(ev(PointerEvent::Type::Press, {7, 7}, 1, 3), c).captured);
}

TEST_CASE("select: a double-click on an edge inserts a vertex, Delete removes the vertex, then the element") {
  const auto shapes = scene();
  ToolContext c{&shapes, "/walls/0", {}, 0.01f, {}};
  ToolMachine m;
  auto acts = run(m, c, {press({5, 0.03f}), release({5, 0.03f}), press({5, 0.03f}, 2), release({5, 0.03f})});
  auto cs = commits(acts);
  REQUIRE(cs.size() == 1);
  const auto& iv = std::get<OpInsertVertex>(*cs[0].op);
  CHECK(iv.pointer == "/walls/0");
  CHECK(iv.before == 1);
  CHECK(near(iv.at, {5, 0}));
  CHECK(acts.back().vertex == "/walls/0/1");
  // Ctrl+click too.
  PointerEvent e = press({10, 5});
  e.ctrl = true;
  cs = commits(m.pointer(e, c).actions);
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpInsertVertex>(*cs[0].op).before == 2);

  c.selectedVertex = "/walls/0/2";
  auto r = m.key(Key::Delete, c);
  cs = commits(r.actions);
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpRemoveVertex>(*cs[0].op).pointer == "/walls/0/2");
  c.selectedVertex.clear();
  cs = commits(m.key(Key::Delete, c).actions);
  REQUIRE(cs.size() == 1);
  CHECK(std::get<OpRemoveElement>(*cs[0].op).pointer == "/walls/0");
  cs = commits(m.key(Key::Duplicate, c).actions);
  REQUIRE(cs.size() == 1);
  CHECK(near(std::get<OpDuplicate>(*cs[0].op).by, {0.5f, -0.5f}));
}

TEST_CASE("the brushes: one gesture of dabs laid on the current document, spaced a quarter of the radius") {
  const auto shapes = scene();
  ToolContext c{&shapes, {}, {}, 0.01f, {}};
  ToolMachine m;
  m.options.brushRadius = 2;
  m.options.brushStrength = 0.5;
  m.setTool(Tool::PaintDiscomfort);
  std::vector<PointerEvent> evs{press({2, 2})};
  for (int k = 1; k <= 20; ++k) evs.push_back(move({2 + 0.1f * k, 2}));  // 2 units: a dab every 0.5
  evs.push_back(release({4, 2}));
  auto acts = run(m, c, evs);
  CHECK(countKind(acts, Action::Kind::Begin) == 1);
  CHECK(countKind(acts, Action::Kind::End) == 1);
  CHECK(countKind(acts, Action::Kind::Update) == 5);
  for (const Action& a : acts)
    if (a.kind == Action::Kind::Update) {
      CHECK_FALSE(a.onBase);
      const auto& p = std::get<OpPaint>(*a.op);
      CHECK_FALSE(p.height);
      CHECK(p.radius == 2);
    }
  CHECK(m.preview().brushRadius == 2);
  m.setTool(Tool::PaintHeight);
  PointerEvent e = press({1, 1});
  e.shift = true;  // erases
  acts = m.pointer(e, c).actions;
  REQUIRE(acts.size() == 2);
  CHECK(std::get<OpPaint>(*acts[1].op).height);
  CHECK(std::get<OpPaint>(*acts[1].op).erase);
  // Switching tools mid-stroke cancels it.
  acts = m.setTool(Tool::Select).actions;
  REQUIRE(acts.size() == 1);
  CHECK(acts[0].kind == Action::Kind::Cancel);
}

TEST_CASE("the meshes: walls in the wall colour, the selection with its handles, problems ringed") {
  const auto shapes = scene();
  render::Mesh doc;
  buildDocMesh(shapes, 0.01f, doc);
  CHECK(meshHas(doc, kWallColor));
  CHECK(meshHas(doc, kObstacleFill));
  CHECK(meshHas(doc, kAgentColor));

  Preview pv;
  pv.points = {{1, 1}, {2, 1}};
  pv.cursor = {2, 2};
  pv.snapKind = Snapped::Kind::Vertex;
  const std::vector<DocProblem> problems{{"/agents/0/at", "inside an obstacle", true}};
  OverlayInput in;
  in.shapes = &shapes;
  in.selected = "/walls/0";
  in.preview = &pv;
  in.cursorInCanvas = true;
  in.problems = &problems;
  render::Mesh over;
  buildEditOverlay(in, 0.01f, over);
  CHECK(meshHas(over, kSelectColor));
  CHECK(meshHas(over, kVertexColor));
  CHECK(meshHas(over, kPreviewColor));
  CHECK(meshHas(over, kProblemColor));
  const auto spot = problemSpot(shapes, "/agents/0/at");
  REQUIRE(spot);
  CHECK(near(*spot, {3, 3}));
  CHECK(near(*problemSpot(shapes, "/obstacles/0/rect"), {7, 7}));
  CHECK_FALSE(problemSpot(shapes, "/knobs/gap").has_value());
}

TEST_CASE("recent files: newest first, no copies, at most eight, kept in their file") {
  const auto dir = std::filesystem::temp_directory_path() / "throng-recent-test";
  std::filesystem::remove_all(dir);
  const std::string store = (dir / "sub" / "recent").string();
  {
    RecentFiles r(store);
    r.load();
    CHECK(r.list().empty());
    for (int k = 0; k < 10; ++k) r.add("/tmp/scene" + std::to_string(k) + ".json");
    r.add("/tmp/scene5.json");
    REQUIRE(r.list().size() == RecentFiles::kMax);
    CHECK(r.list()[0] == "/tmp/scene5.json");
    CHECK(r.list()[1] == "/tmp/scene9.json");
    CHECK(std::count(r.list().begin(), r.list().end(), "/tmp/scene5.json") == 1);
  }
  RecentFiles again(store);
  again.load();
  REQUIRE(again.list().size() == RecentFiles::kMax);
  CHECK(again.list()[0] == "/tmp/scene5.json");
  std::filesystem::remove_all(dir);
}
