// Floor plans in a scene's "geometry": WKT and GeoJSON through GEOS, the
// walkable area's walls, holes and fill, every shipped scene's walls read
// back from WKT to the same run, and a clear line for each bad plan.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "scene/plan_text.hpp"
#include "throng/scene.hpp"

namespace {

namespace fs = std::filesystem;
using scenetest::parse;
using scenetest::parseError;

std::uint64_t hashAfter(const throng::Scene& s, int steps) {
  throng::SceneRun run(s);
  for (int i = 0; i < steps; ++i) run.step();
  return run.crowd().stateHash();
}

/// A room of 10 m x 10 m with a 2 m pillar and a 1 m deep nook (the exit)
/// on its east side, filled at one walker per m².
std::string room(const std::string& geometry) {
  return R"J({"agentDefaults": {"radius": 0.2}, "geometry": )J" + geometry +
         R"J(, "generators": [{"type": "fill", "region": [-5, -5, 30, 30], "density": 1}]})J";
}
const std::string kRoomWkt =
    R"J({"wkt": "POLYGON ((0 0, 10 0, 10 4, 11 4, 11 6, 10 6, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))"})J";

}  // namespace

TEST_CASE("plan: a walkable area's outline is a closed wall, its hole an obstacle, and fill stays on the floor") {
  const throng::Scene s = parse(room(kRoomWkt));
  const throng::SceneSpec& spec = s.spec();
  REQUIRE(spec.walkable.size() == 1);
  REQUIRE(spec.walls.size() == 1);
  CHECK(spec.walls[0].size() == 9);  // eight corners and the first again
  CHECK(spec.walls[0].front().x == spec.walls[0].back().x);
  REQUIRE(spec.obstacles.size() == 1);
  CHECK(spec.obstacles[0].size() == 4);
  // The fill's 1 m cells centred on half metres: 100 in the room less the
  // pillar's 4, plus the nook's 2; none outside, none on the pillar.
  CHECK(spec.agents.size() == 98);
  for (const throng::SceneAgent& a : spec.agents) {
    CHECK(throng::detail::insideAreas(spec.walkable, a.at));
    CHECK_FALSE((a.at.x > 4 && a.at.x < 6 && a.at.y > 4 && a.at.y < 6));
  }
}

TEST_CASE("plan: GeoJSON, a file beside the scene and WKT give the same scene") {
  const std::string geojson =
      R"J({"geojson": {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": )J"
      R"J([[[0, 0], [10, 0], [10, 4], [11, 4], [11, 6], [10, 6], [10, 10], [0, 10], [0, 0]],)J"
      R"J( [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]]}}})J";
  const std::uint64_t wkt = hashAfter(parse(room(kRoomWkt)), 60);
  CHECK(hashAfter(parse(room(geojson)), 60) == wkt);

  const fs::path dir = fs::temp_directory_path() / "throng-plan-test";
  fs::create_directories(dir);
  std::ofstream(dir / "room.wkt") << "POLYGON ((0 0, 10 0, 10 4, 11 4, 11 6, 10 6, 10 10, 0 10, 0 0), "
                                     "(4 4, 6 4, 6 6, 4 6, 4 4))\n";
  std::ofstream(dir / "room.json") << room(R"J({"file": "room.wkt"})J");
  std::string err;
  const auto s = throng::Scene::load((dir / "room.json").string(), &err);
  INFO(err);
  REQUIRE(s.has_value());
  CHECK(hashAfter(*s, 60) == wkt);
  fs::remove_all(dir);
}

TEST_CASE("plan: every shipped scene's walls written as WKT read back to the same run, hash for hash") {
  std::vector<fs::path> files;
  for (const char* sub : {"", "/verify"})
    for (const auto& e : fs::directory_iterator(std::string(THRONG_TEST_SCENES_DIR) + sub))
      if (e.path().extension() == ".json") files.push_back(e.path());
  REQUIRE(files.size() >= 30);
  int withWalls = 0;
  for (const fs::path& f : files) {
    CAPTURE(f.string());
    std::string err;
    const auto s = throng::Scene::load(f.string(), &err);
    INFO(err);
    REQUIRE(s.has_value());
    if (s->spec().walls.empty()) continue;
    ++withWalls;
    const std::optional<std::string> wkt = throng::sceneGeometryWkt(s->spec(), &err);
    REQUIRE(wkt.has_value());
    std::ifstream in(f);
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
    j.erase("walls");
    j["geometry"] = {{"wkt", *wkt}};
    const auto back = throng::Scene::parse(j.dump(), f.filename().string(), &err);
    INFO(err);
    REQUIRE(back.has_value());
    REQUIRE(back->spec().walls.size() == s->spec().walls.size());
    for (std::size_t w = 0; w < s->spec().walls.size(); ++w) {
      const auto &a = s->spec().walls[w], &b = back->spec().walls[w];
      REQUIRE(a.size() == b.size());
      for (std::size_t k = 0; k < a.size(); ++k) CHECK((a[k].x == b[k].x && a[k].y == b[k].y));
    }
    CHECK(hashAfter(*back, 40) == hashAfter(*s, 40));
  }
  CHECK(withWalls >= 20);
}

TEST_CASE("plan: the walkable area PedPy and JuPedSim take, given or made round the walls") {
  const throng::Scene given = parse(room(kRoomWkt));
  CHECK(throng::walkableAreaWkt(given.spec()) ==
        "POLYGON ((0 0, 10 0, 10 4, 11 4, 11 6, 10 6, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))");
  // The door scene names none: the box round it less its walls, one
  // polygon holding every walker.
  const throng::Scene door = scenetest::load("door");
  const std::string made = throng::walkableAreaWkt(door.spec());
  CAPTURE(made);
  throng::detail::PlanShapes shapes;
  std::string err;
  REQUIRE(throng::detail::readPlan(made, throng::detail::PlanFormat::Wkt, &shapes, &err));
  REQUIRE(shapes.areas.size() == 1);
  for (const throng::SceneAgent& a : door.spec().agents) CHECK(throng::detail::insideAreas(shapes.areas, a.at));
  // A point on a wall is not walkable (the wall is 1 cm thick).
  const throng::Vec2 onWall = door.spec().walls[0][0];
  CHECK_FALSE(throng::detail::insideAreas(shapes.areas, {onWall.x + 0.001f, onWall.y + 0.001f}));
}

TEST_CASE("plan: a measurement area's density counts only its floor") {
  // x 8 to 12, y 3 to 7 over the room's east wall: 8 m² of room and the
  // nook's 2 m² are floor; the rest is outside.
  std::string text = room(kRoomWkt);
  text.insert(text.size() - 1, R"J(, "measurements": [{"name": "east", "rect": [8, 3, 4, 4]}])J");
  const throng::Scene s = parse(text);
  REQUIRE(s.spec().measurements.size() == 1);
  CHECK(s.spec().measurements[0].floorArea == doctest::Approx(10).epsilon(1e-9));
  throng::SceneRun run(s);
  run.step();
  const throng::MeasureSeries& m = run.crowd().measurements();
  REQUIRE(m.area.size() == 1);
  CHECK(m.area[0] == doctest::Approx(10).epsilon(1e-9));
  std::string off = room(kRoomWkt);
  off.insert(off.size() - 1, R"J(, "measurements": [{"rect": [20, 20, 1, 1]}])J");
  CHECK(parseError(off) == "bad.json:1: /measurements/0/rect: the area lies off the walkable area (\"geometry\")");
}

TEST_CASE("plan: a bad plan is one line naming the file, line, pointer and GEOS's reason") {
  const auto bad = [](const std::string& geometry) { return parseError(room(geometry)); };
  CHECK(bad(R"J({"wkt": "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 1))"})J") ==
        "bad.json:1: /geometry/wkt: not WKT (GEOS: Points of LinearRing do not form a closed linestring)");
  CHECK(bad(R"J({"wkt": "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))"})J") ==
        "bad.json:1: /geometry/wkt: an invalid polygon (GEOS: Self-intersection[5 5])");
  CHECK(bad(R"J({"wkt": "POLYGON ((0 0, 1 0, x"})J").starts_with("bad.json:1: /geometry/wkt: not WKT (GEOS: "));
  CHECK(bad(R"J({"wkt": "POLYGON EMPTY"})J") == "bad.json:1: /geometry/wkt: an empty polygon");
  CHECK(bad(R"J({"wkt": "POINT (1 1)"})J") ==
        "bad.json:1: /geometry/wkt: a Point (expected polygons for the walkable area and lines for walls)");
  CHECK(bad(R"J({"wkt": "LINESTRING (0 0, 1e13 0)"})J") ==
        "bad.json:1: /geometry/wkt: a coordinate beyond 1e12 or not a number");
  CHECK(bad(R"J({"geojson": {"type": "Polygon"}})J").starts_with("bad.json:1: /geometry/geojson: not GeoJSON (GEOS: "));
  // Nested deeper than any plan needs: refused before GEOS's readers, which recurse, see it.
  // (JSON past 256 deep is the loader's to refuse, before it parses.)
  std::string deepWkt, deepJson;
  for (int k = 0; k < 100000; ++k) deepWkt += "GEOMETRYCOLLECTION (";
  deepWkt += "POINT (1 1)";
  for (int k = 0; k < 100000; ++k) deepWkt += ")";
  deepJson = std::string(100, '[') + std::string(100, ']');
  CHECK(bad(R"J({"wkt": ")J" + deepWkt + R"J("})J") == "bad.json:1: /geometry/wkt: nested more than 32 deep");
  CHECK(bad(R"J({"geojson": {"type": "GeometryCollection", "geometries": )J" + deepJson + "}}") ==
        "bad.json:1: /geometry/geojson: nested more than 32 deep");
  CHECK(bad(R"J({"wkt": "POINT (1 1)", "file": "a.wkt"})J") ==
        "bad.json:1: /geometry: expected exactly one of \"wkt\", \"geojson\" or \"file\"");
  CHECK(bad(R"J({"file": "../x.wkt"})J") == "bad.json:1: /geometry/file: \"../x.wkt\" leaves the scene's folder (\"..\")");
  CHECK(bad(R"J({"file": "/etc/passwd"})J") ==
        "bad.json:1: /geometry/file: expected a path relative to the scene's folder, got \"/etc/passwd\"");
  CHECK(bad(R"J({"file": "plan.txt"})J") ==
        "bad.json:1: /geometry/file: expected a .wkt, .geojson or .json file, got \"plan.txt\"");
  CHECK(bad(R"J({"file": "no-such-plan.wkt"})J") ==
        "bad.json:1: /geometry/file: no-such-plan.wkt: cannot open (No such file or directory)");
}
