// The scene editor over a real document (app/viz/editor/editor.hpp), without
// a window: the tools' gestures edit it, a drag or a stroke is one undo step,
// knob values lie over every document the history holds, saving is refused
// while a blocking problem stands, and the run is built from the document.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "viz/editor/editor.hpp"
#include "viz/editor/draw.hpp"
#include "viz/editor/terrain.hpp"

using namespace throng;
using namespace throng::app::edit;

namespace {

const char* kRoom = R"({
  "name": "room",
  "description": "A walled 10 m room, empty.",
  "units": "m",
  "settings": {"maxStep": 0.05},
  "agentDefaults": {"radius": 0.25, "maxSpeed": 1.3},
  "walls": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]
})";

Editor roomEditor() {
  std::string err;
  auto d = SceneDoc::read(kRoom, "room.json", &err);
  REQUIRE_MESSAGE(d, err);
  return Editor(std::move(*d));
}

constexpr float kPx = 0.01f;  // 100 pixels a metre

PointerEvent at(PointerEvent::Type t, Vec2 p, int clicks = 1) {
  PointerEvent e;
  e.type = t;
  e.world = p;
  e.clicks = clicks;
  return e;
}

void click(Editor& ed, Vec2 p, int clicks = 1) {
  ed.pointer(at(PointerEvent::Type::Press, p, clicks), kPx);
  ed.pointer(at(PointerEvent::Type::Release, p), kPx);
}

std::size_t count(const SceneDoc& d, const char* key) {
  const DocValue* v = d.root().find(key);
  return v ? v->items().size() : 0;
}

// The wall shapes with exactly two points, drawn by the test.
std::vector<DocShape> drawnWalls(Editor& ed) {
  std::vector<DocShape> out;
  for (const DocShape& s : ed.shapes())
    if (s.kind == DocShapeKind::wall && s.points.size() == 2) out.push_back(s);
  return out;
}

}  // namespace

TEST_CASE("the wall tool adds a wall to the document, undo and redo take it away and back") {
  Editor ed = roomEditor();
  CHECK_FALSE(ed.dirty());
  ed.setTool(Tool::Wall);
  click(ed, {5.02f, 0.1f});
  click(ed, {5, 3.9f});
  ed.pointer(at(PointerEvent::Type::Press, {5, 3.9f}, 2), kPx);
  CHECK(count(ed.doc(), "walls") == 2);
  CHECK(ed.dirty());
  const auto walls = drawnWalls(ed);
  REQUIRE(walls.size() == 1);
  CHECK(walls[0].points[0] == Vec2{5, 0});
  CHECK(walls[0].points[1] == Vec2{5, 4});
  CHECK(ed.selected() == walls[0].pointer);  // what was made is selected
  CHECK(ed.undo());
  CHECK(count(ed.doc(), "walls") == 1);
  CHECK_FALSE(ed.dirty());
  CHECK(ed.redo());
  CHECK(count(ed.doc(), "walls") == 2);
}

TEST_CASE("a vertex drag is one undo step, and Cancel goes back to where it began") {
  Editor ed = roomEditor();
  ed.setTool(Tool::Wall);
  click(ed, {5, 0});
  click(ed, {5, 4});
  ed.key(Key::Enter, kPx);
  const std::string wall = drawnWalls(ed).at(0).pointer;
  ed.setTool(Tool::Select);
  ed.pointer(at(PointerEvent::Type::Press, {5.01f, 4.01f}), kPx);
  CHECK(ed.selectedVertex() == wall + "/1");
  for (int k = 1; k <= 20; ++k) ed.pointer(at(PointerEvent::Type::Move, {5, 4 + 0.1f * k}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {5, 6}), kPx);
  CHECK(ed.view().point(wall + "/1") == Vec2{5, 6});
  CHECK(ed.undo());  // the whole drag at once
  CHECK(ed.view().point(wall + "/1") == Vec2{5, 4});
  CHECK(ed.undo());  // then the wall
  CHECK(count(ed.doc(), "walls") == 1);
  CHECK(ed.redo());
  // A drag cancelled by a tool switch leaves no trace.
  ed.pointer(at(PointerEvent::Type::Press, {5.01f, 4.01f}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {6, 5}), kPx);
  CHECK(ed.view().point(wall + "/1") == Vec2{6, 5});
  ed.setTool(Tool::Wall);
  CHECK(ed.view().point(wall + "/1") == Vec2{5, 4});
}

TEST_CASE("a knob bound to a wall's end: expressions keep it, knob values lie over the history, the run gets them") {
  Editor ed = roomEditor();
  ed.setTool(Tool::Wall);
  click(ed, {5, 0});
  click(ed, {5, 4});
  ed.key(Key::Enter, kPx);
  const std::string wall = drawnWalls(ed).at(0).pointer;
  REQUIRE(ed.commit(addKnob(ed.view(), "gap", 0.6, 4, 2, "the gap in the wall, m")));
  REQUIRE_MESSAGE(ed.commit(setNumber(ed.view(), wall + "/1/1", "5 - gap / 2")), ed.lastError());
  CHECK(drawnWalls(ed).at(0).points[1].y == doctest::Approx(4));
  const auto fields = vertexFields(ed.view(), wall + "/1", ed.units());
  REQUIRE(fields.size() == 2);
  CHECK(fields[1].number->form == DocNumber::Form::expression);
  CHECK(numberText(*fields[1].number) == "5 - gap / 2");
  CHECK(fields[1].unit == "m");

  std::string err;
  REQUIRE(ed.setKnobValue("gap", 3, &err));
  CHECK(drawnWalls(ed).at(0).points[1].y == doctest::Approx(3.5));
  CHECK_FALSE(ed.setKnobValue("gap", 9, &err));  // outside its range
  // An undo changes the document, not the knob.
  ed.setTool(Tool::ObstacleRect);
  ed.pointer(at(PointerEvent::Type::Press, {7, 7}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {8, 8}), kPx);
  CHECK(ed.undo());
  CHECK(ed.knobValues().at("gap") == 3);
  CHECK(drawnWalls(ed).at(0).points[1].y == doctest::Approx(3.5));
  // Dragging the bound vertex keeps the expression.
  ed.setTool(Tool::Select);
  ed.pointer(at(PointerEvent::Type::Press, {5, 3.5f}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {5, 3}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {5, 3}), kPx);
  const auto moved = ed.view().number(wall + "/1/1");
  REQUIRE(moved);
  CHECK(moved->form == DocNumber::Form::expression);
  CHECK(moved->value == doctest::Approx(3));
  CHECK(ed.undo());

  const auto scene = ed.buildScene(&err);
  REQUIRE_MESSAGE(scene, err);
  REQUIRE(scene->spec().walls.size() == 2);
  CHECK(scene->spec().walls[1][1].y == doctest::Approx(3.5));
  const auto& knobs = scene->knobs();
  REQUIRE(knobs.size() == 1);
  CHECK(knobs[0].value == 3);
  CHECK(knobs[0].defaultValue == 2);
}

TEST_CASE("a group placed with its goal runs from the built scene, edits that would break the file are refused, save") {
  Editor ed = roomEditor();
  ed.tools.options.count = 10;
  ed.setTool(Tool::Group);
  ed.pointer(at(PointerEvent::Type::Press, {1, 1}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {3, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {4, 9}), kPx);
  click(ed, {8, 5});
  CHECK(count(ed.doc(), "generators") == 1);
  std::string err;
  auto scene = ed.buildScene(&err);
  REQUIRE_MESSAGE(scene, err);
  SceneRun run(*scene);
  CHECK(run.crowd().count() >= 8);
  CHECK(run.crowd().count() <= 12);
  for (std::size_t i = 0; i < run.crowd().count(); ++i) {
    const Agent a = run.crowd().agent(i);
    CHECK(a.position.x < 4.01f);
    REQUIRE(a.goal.has_value());
    CHECK(a.goal->x == doctest::Approx(8));
  }

  const auto dir = std::filesystem::temp_directory_path() / "throng-editor-doc-test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "room-edited.json").string();
  // Editing never makes a file that fails to load: a walker inside an
  // obstacle is refused, and the document stays as it was.
  ed.setTool(Tool::ObstacleRect);
  ed.pointer(at(PointerEvent::Type::Press, {6, 2}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {8, 4}), kPx);
  ed.tools.options.goalMode = GoalMode::None;
  ed.setTool(Tool::Walker);
  click(ed, {7, 3});
  CHECK_FALSE(ed.lastError().empty());
  CHECK(count(ed.doc(), "agents") == 0);
  click(ed, {7, 7});
  CHECK(count(ed.doc(), "agents") == 1);
  // What loads but cannot run blocks the save: a gate dragged to zero length.
  ed.setTool(Tool::Gate);
  ed.tools.options.gateRoute = "door";
  ed.pointer(at(PointerEvent::Type::Press, {10, 4}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {10, 6}), kPx);
  REQUIRE_MESSAGE(ed.view().root().at("/routes/door/gates/0"), ed.lastError());
  CHECK_FALSE(ed.hasBlockingProblem());
  // Dragging a post onto the other would make a gate of zero length (which the
  // checker blocks): the drag stops short, with the reason, never a broken file.
  ed.setTool(Tool::Select);
  ed.pointer(at(PointerEvent::Type::Press, {10, 6}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {10, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {10, 4}), kPx);
  CHECK(ed.lastError().find("two distinct ends") != std::string::npos);
  ed.pointer(at(PointerEvent::Type::Release, {10, 4}), kPx);
  CHECK(ed.view().point("/routes/door/gates/0/1") == Vec2{10, 5});
  CHECK_FALSE(ed.hasBlockingProblem());
  REQUIRE_MESSAGE(ed.save(path, &err), err);
  CHECK_FALSE(ed.dirty());
  CHECK(ed.path() == path);
  auto back = SceneDoc::load(path, &err);
  REQUIRE_MESSAGE(back, err);
  CHECK(*back == ed.doc());
  std::filesystem::remove_all(dir);
}

TEST_CASE("a brush stroke is one undo step and shows on the ground's grid where it was laid") {
  Editor ed = roomEditor();
  ed.tools.options.brushRadius = 1.5;
  ed.tools.options.brushStrength = 0.5;
  ed.setTool(Tool::PaintDiscomfort);
  ed.pointer(at(PointerEvent::Type::Press, {3, 5}), kPx);
  for (int k = 1; k <= 20; ++k) ed.pointer(at(PointerEvent::Type::Move, {3 + 0.2f * k, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {7, 5}), kPx);
  REQUIRE(ed.doc().root().find("discomfortMap") != nullptr);
  TerrainGrid g;
  buildTerrainGrid(ed.view(), ed.shapes(), ed.revision(), g);
  REQUIRE(g.view.cols > 0);
  auto valueAt = [&](Vec2 p) {
    const int x = static_cast<int>((p.x - g.view.origin.x) / g.view.cell);
    const int y = static_cast<int>((p.y - g.view.origin.y) / g.view.cell);
    return g.discomfort[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.view.cols) + static_cast<std::size_t>(x)];
  };
  CHECK(valueAt({5, 5}) > 0.5f);  // several dabs overlap on the stroke
  CHECK(valueAt({5, 9}) == 0.0f);
  CHECK(ed.undo());
  CHECK(ed.doc().root().find("discomfortMap") == nullptr);
  // Erasing takes it back toward 0.
  CHECK(ed.redo());
  ed.tools.options.erase = true;
  for (int k = 0; k < 8; ++k) click(ed, {5, 5});
  buildTerrainGrid(ed.view(), ed.shapes(), ed.revision(), g);
  CHECK(valueAt({5, 5}) == doctest::Approx(0).epsilon(1e-6));
}

TEST_CASE("measurement lines and areas: drawn with their tools, named, moved, deleted, and measured by the run") {
  Editor ed = roomEditor();
  ed.setTool(Tool::MeasureLine);
  ed.pointer(at(PointerEvent::Type::Press, {5, 1}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {5, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {5, 9}), kPx);
  ed.setTool(Tool::MeasureArea);
  ed.pointer(at(PointerEvent::Type::Press, {1, 1}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {3, 4}), kPx);
  ed.setTool(Tool::MeasureLine);
  ed.pointer(at(PointerEvent::Type::Press, {8, 1}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {8, 9}), kPx);
  REQUIRE(count(ed.doc(), "measurements") == 3);
  const auto& ms = ed.doc().root().find("measurements")->items();
  CHECK(ms[0].find("name")->asString() == "line 1");
  CHECK(ms[1].find("name")->asString() == "area 1");
  CHECK(ms[2].find("name")->asString() == "line 2");
  // Drawn as the editor's shapes: the lines by their two ends, the area by its corners.
  std::vector<DocShape> lines, areas;
  for (const DocShape& s : ed.shapes()) {
    if (s.kind == DocShapeKind::measureLine) lines.push_back(s);
    if (s.kind == DocShapeKind::measureArea) areas.push_back(s);
  }
  REQUIRE(lines.size() == 2);
  REQUIRE(areas.size() == 1);
  CHECK(lines[0].points == std::vector<Vec2>{{5, 1}, {5, 9}});
  CHECK(lines[0].vertexPointers[1] == "/measurements/0/line/1");
  CHECK(areas[0].closed);
  render::Mesh mesh;
  buildDocMesh(ed.shapes(), kPx, mesh);
  const bool coloured = std::any_of(mesh.tris.begin(), mesh.tris.end(),
                                    [](const render::Vertex& v) { return v.rgba == kMeasureColor; });
  CHECK(coloured);
  // Moved as any element, by a drag with the select tool; then deleted.
  ed.setTool(Tool::Select);
  click(ed, {8, 5});
  REQUIRE(ed.selected() == "/measurements/2");
  ed.pointer(at(PointerEvent::Type::Press, {8, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {7, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {7, 5}), kPx);
  const auto moved = ed.doc().root().find("measurements")->items()[2].find("line")->items();
  CHECK(moved[0].items()[0].asNumber() == doctest::Approx(7));
  CHECK(ed.key(Key::Delete, kPx));
  CHECK(count(ed.doc(), "measurements") == 2);
  // The scene built from the document measures them.
  std::string err;
  const auto scene = Scene::parse(ed.doc().write(), "room.json", &err);
  INFO(err);
  REQUIRE(scene);
  REQUIRE(scene->spec().measurements.size() == 2);
  CHECK(scene->spec().measurements[0].name == "line 1");
  CHECK(scene->spec().measurements[1].kind == MeasureKind::Area);
}

TEST_CASE("speed zones and stairs: drawn with their tools, shown with the inspector's fields, and walked by the run") {
  Editor ed = roomEditor();
  ed.tools.options.speedFactor = 0.4;
  ed.setTool(Tool::SpeedZone);
  ed.pointer(at(PointerEvent::Type::Press, {1, 1}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {3, 4}), kPx);
  ed.tools.options.stairsUp = Vec2{1, 0};
  ed.tools.options.stairsUpSpeed = 0.55;
  ed.setTool(Tool::Stairs);
  ed.pointer(at(PointerEvent::Type::Press, {5, 2}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {8, 6}), kPx);
  REQUIRE(count(ed.doc(), "speedZones") == 1);
  REQUIRE(count(ed.doc(), "stairs") == 1);
  std::vector<DocShape> zones, flights;
  for (const DocShape& s : ed.shapes()) {
    if (s.kind == DocShapeKind::speedZone) zones.push_back(s);
    if (s.kind == DocShapeKind::stairs) flights.push_back(s);
  }
  REQUIRE(zones.size() == 1);
  REQUIRE(flights.size() == 1);
  CHECK(zones[0].closed);
  CHECK(zones[0].points == std::vector<Vec2>{{1, 1}, {3, 1}, {3, 4}, {1, 4}});
  CHECK(flights[0].up == Vec2{1, 0});
  render::Mesh mesh;
  buildDocMesh(ed.shapes(), kPx, mesh);
  const auto has = [&](std::uint32_t c) {
    return std::any_of(mesh.tris.begin(), mesh.tris.end(), [c](const render::Vertex& v) { return v.rgba == c; });
  };
  CHECK(has(kZoneColor));
  CHECK(has(kStairsColor));
  // The inspector edits the factor, the direction and the speeds.
  const auto zf = fieldsOf(ed.doc(), "/speedZones/0");
  const auto factor = std::find_if(zf.begin(), zf.end(), [](const DocField& f) { return f.name == "factor"; });
  REQUIRE(factor != zf.end());
  CHECK(factor->number->value == doctest::Approx(0.4));
  CHECK(factor->max == 1);
  const auto sf = fieldsOf(ed.doc(), "/stairs/0");
  std::vector<std::string> names;
  for (const DocField& f : sf) names.push_back(f.name);
  for (const char* want : {"up x", "up y", "upSpeed", "downSpeed"})
    CHECK(std::find(names.begin(), names.end(), want) != names.end());
  // Moved as any element: the outline moves, the direction stays.
  ed.setTool(Tool::Select);
  click(ed, {6.5f, 4});
  REQUIRE(ed.selected() == "/stairs/0");
  ed.pointer(at(PointerEvent::Type::Press, {6.5f, 4}), kPx);
  ed.pointer(at(PointerEvent::Type::Move, {6.5f, 5}), kPx);
  ed.pointer(at(PointerEvent::Type::Release, {6.5f, 5}), kPx);
  // The scene built from the document has both, as the editor set them.
  std::string err;
  const auto scene = Scene::parse(ed.doc().write(), "room.json", &err);
  INFO(err);
  REQUIRE(scene);
  const Terrain& t = scene->spec().terrain;
  REQUIRE(t.speedZones.size() == 1);
  CHECK(t.speedZones[0].factor == 0.4f);
  REQUIRE(t.stairs.size() == 1);
  CHECK(t.stairs[0].up == Vec2{1, 0});
  CHECK(t.stairs[0].upSpeed == 0.55f);
  CHECK(t.stairs[0].downSpeed == 0.694f);
  CHECK(t.stairs[0].outline[0] == Vec2{5, 3});
  // A factor out of range is refused, with the reason.
  const DocEdit bad = addSpeedZoneRect(ed.doc(), Rect{0, 0, 1, 1}, 1.5);
  CHECK_FALSE(bad.doc);
  CHECK(bad.error.find("(0, 1]") != std::string::npos);
}
