// The ground in a scene file: "routing", "targets", "discomfort", "hills",
// "speedZones", "stairs",
// "heightMap" and "discomfortMap" parse as scene.hpp documents them (knobs
// and expressions included), the routes and sinks add their targets after the file's, every
// mistake is one line naming the file, line and pointer, and a SceneRun hands
// the terrain to its crowd.
#include <cmath>

#include "helpers.hpp"

using namespace throng;
using scenetest::parse;
using scenetest::parseError;

namespace {

bool sameRect(const Rect& r, float x, float y, float w, float h) {
  return r.x == x && r.y == y && r.width == w && r.height == h;
}

}  // namespace

TEST_CASE("routing is read at the top level like the model, and refused twice or unknown") {
  CHECK(parse("{}").spec().settings.routing == "goals");
  CHECK(parse("{\"routing\": \"field\"}").spec().settings.routing == "field");
  CHECK(parse("{\"settings\": {\"routing\": \"field\"}}").spec().settings.routing == "field");
  Scene s = parse("{\"routing\": \"field\"}");
  std::string err;
  REQUIRE(s.assign("routing=goals", &err));
  CHECK(s.spec().settings.routing == "goals");
  s.reset();
  CHECK(s.spec().settings.routing == "field");

  const std::string unknown = parseError("{\"name\": \"x\",\n \"routing\": \"teleport\"}");
  CHECK(unknown.find("bad.json:2: /routing: unknown routing \"teleport\"") == 0);
  CHECK(unknown.find("goals, field") != std::string::npos);  // the names it takes
  CHECK(parseError("{\"routing\": 1}").find("bad.json:1: /routing: expected a string, got number") == 0);
  CHECK(parseError("{\"routing\": \"field\",\n \"settings\": {\"routing\": \"goals\"}}")
            .find("bad.json:2: /settings/routing: the routing is given twice (here and at /routing)") == 0);
}

TEST_CASE("targets: one region or several, groups, a route, names by default") {
  const Scene s = parse(
      "{\"routes\": {\"a\": {\"gates\": [[[0, 0], [0, 1]]]}, \"b\": {\"gates\": [[[5, 0], [5, 1]]]}},"
      " \"targets\": ["
      "  {\"name\": \"exits\", \"regions\": [[10, 0, 2, 3], [20, 1, 4, 5]], \"groups\": [0, 2]},"
      "  {\"region\": [1, 2, 3, 4], \"group\": 7, \"route\": \"b\"},"
      "  {\"region\": [0, 0, 0, 0]}"
      " ]}");
  const std::vector<Target>& t = s.spec().terrain.targets;
  REQUIRE(t.size() == 3);  // the routes have no goal region, there are no sinks
  CHECK(t[0].name == "exits");
  REQUIRE(t[0].regions.size() == 2);
  CHECK(sameRect(t[0].regions[0], 10, 0, 2, 3));
  CHECK(sameRect(t[0].regions[1], 20, 1, 4, 5));
  CHECK(t[0].groups == std::vector<int>{0, 2});
  CHECK(t[0].route == -1);
  CHECK(t[1].name == "target 1");
  REQUIRE(t[1].regions.size() == 1);
  CHECK(sameRect(t[1].regions[0], 1, 2, 3, 4));
  CHECK(t[1].groups == std::vector<int>{7});
  CHECK(t[1].route == 1);
  CHECK(t[2].name == "target 2");
  CHECK(t[2].groups.empty());  // every group
  CHECK(t[2].route == -1);
}

TEST_CASE("discomfort: rects and outlines, the value 1 unless given") {
  const Scene s = parse(
      "{\"discomfort\": [{\"rect\": [1, 2, 3, 4], \"value\": 2},"
      " {\"outline\": [[0, 0], [4, 0], [2, 3]], \"value\": -0.5}, {\"rect\": [0, 0, 1, 1]}]}");
  const std::vector<Discomfort>& d = s.spec().terrain.discomfort;
  REQUIRE(d.size() == 3);
  CHECK(d[0].outline == std::vector<Vec2>{{1, 2}, {4, 2}, {4, 6}, {1, 6}});
  CHECK(d[0].value == 2);
  CHECK(d[1].outline == std::vector<Vec2>{{0, 0}, {4, 0}, {2, 3}});
  CHECK(d[1].value == -0.5f);
  CHECK(d[2].value == 1);
  // The regions really are where the terrain reads them: overlapping adds.
  CHECK(s.spec().terrain.discomfortAt({2, 2.5f}) == doctest::Approx(1.5));  // the rect and the triangle
  CHECK(s.spec().terrain.discomfortAt({0.5f, 0.9f}) == doctest::Approx(1));   // the unit square only
  CHECK(s.spec().terrain.discomfortAt({10, 10}) == 0);
}

TEST_CASE("speed zones and stairs: rects and outlines with their factor, direction and speeds, knobs in them") {
  const Scene s = parse(
      "{\"knobs\": {\"up\": {\"min\": 0.3, \"max\": 1, \"default\": 0.61}},"
      " \"speedZones\": [{\"rect\": [1, 2, 3, 4], \"factor\": 0.5}, {\"outline\": [[0, 0], [4, 0], [2, 3]], \"factor\": 1}],"
      " \"stairs\": [{\"rect\": [10, 0, 10, 2], \"up\": [1, 0], \"upSpeed\": {\"knob\": \"up\"}, \"downSpeed\": \"up + 0.084\"}]}");
  const Terrain& t = s.spec().terrain;
  REQUIRE(t.speedZones.size() == 2);
  CHECK(t.speedZones[0].outline == std::vector<Vec2>{{1, 2}, {4, 2}, {4, 6}, {1, 6}});
  CHECK(t.speedZones[0].factor == 0.5f);
  CHECK(t.speedZones[1].outline == std::vector<Vec2>{{0, 0}, {4, 0}, {2, 3}});
  REQUIRE(t.stairs.size() == 1);
  CHECK(t.stairs[0].outline == std::vector<Vec2>{{10, 0}, {20, 0}, {20, 2}, {10, 2}});
  CHECK(t.stairs[0].up == Vec2{1, 0});
  CHECK(t.stairs[0].upSpeed == 0.61f);
  CHECK(t.stairs[0].downSpeed == doctest::Approx(0.694f));
  CHECK_FALSE(t.empty());
  Scene k = s;
  std::string err;
  REQUIRE(k.assign("up=0.5", &err));
  CHECK(k.spec().terrain.stairs[0].upSpeed == 0.5f);
}

TEST_CASE("hills and a height map") {
  const Scene s = parse(
      "{\"hills\": [{\"at\": [5, 6], \"radius\": 3, \"height\": 1.5}],"
      " \"heightMap\": {\"origin\": [-1, -2], \"cell\": 0.5, \"heights\": [[0, 1, 2], [3, 4, 5]]}}");
  const Terrain& t = s.spec().terrain;
  REQUIRE(t.hills.size() == 1);
  CHECK(t.hills[0].at == Vec2{5, 6});
  CHECK(t.hills[0].radius == 3);
  CHECK(t.hills[0].height == 1.5f);
  const HeightMap& m = t.heightMap;
  CHECK(m.origin == Vec2{-1, -2});
  CHECK(m.cell == 0.5f);
  CHECK(m.cols == 3);
  CHECK(m.rows == 2);
  CHECK(m.heights == std::vector<float>{0, 1, 2, 3, 4, 5});
  // Row 0 lies at origin.y, and y grows with the row: node (2, 1) is 5 high.
  CHECK(t.heightAt({0, -1.5f}) == doctest::Approx(5));
  CHECK(t.heightAt({5, 6}) == doctest::Approx(1.5));  // the hill's top
  CHECK(t.heightAt({8.5f, 6}) == doctest::Approx(0));
  CHECK_FALSE(t.empty());
  // One node is a map; origin defaults to (0, 0).
  const HeightMap one = parse("{\"heightMap\": {\"cell\": 2, \"heights\": [[7]]}}").spec().terrain.heightMap;
  CHECK(one.origin == Vec2{0, 0});
  CHECK(one.cols == 1);
  CHECK(one.rows == 1);
  CHECK(one.heights == std::vector<float>{7});
  CHECK(parse("{}").spec().terrain.empty());
}

TEST_CASE("the ground's numbers take knobs and expressions, and follow them") {
  Scene s = parse(
      "{\"knobs\": {\"w\": {\"min\": 1, \"max\": 4, \"default\": 2}},"
      " \"targets\": [{\"region\": [\"10 + w\", 0, {\"knob\": \"w\"}, \"2 * w\"], \"group\": \"w - 1\"}],"
      " \"discomfort\": [{\"rect\": [0, 0, \"w\", 1], \"value\": \"w / 4\"}],"
      " \"hills\": [{\"at\": [\"w\", 0], \"radius\": \"w * 3\", \"height\": {\"knob\": \"w\"}}],"
      " \"heightMap\": {\"origin\": [\"-w\", 0], \"cell\": \"w / 2\", \"heights\": [[\"w\", \"w + 1\"]]}}");
  auto check = [&](float w) {
    const Terrain& t = s.spec().terrain;
    REQUIRE(t.targets.size() == 1);
    CHECK(sameRect(t.targets[0].regions[0], 10 + w, 0, w, 2 * w));
    CHECK(t.targets[0].groups == std::vector<int>{static_cast<int>(w) - 1});
    CHECK(t.discomfort[0].outline[1] == Vec2{w, 0});
    CHECK(t.discomfort[0].value == w / 4);
    CHECK(t.hills[0].at == Vec2{w, 0});
    CHECK(t.hills[0].radius == 3 * w);
    CHECK(t.hills[0].height == w);
    CHECK(t.heightMap.origin == Vec2{-w, 0});
    CHECK(t.heightMap.cell == w / 2);
    CHECK(t.heightMap.heights == std::vector<float>{w, w + 1});
  };
  check(2);
  std::string err;
  REQUIRE(s.set("w", 3, &err));
  check(3);
  // A knob that makes a radius zero is refused, and the scene is unchanged.
  Scene z = parse(
      "{\"knobs\": {\"w\": {\"min\": 0, \"max\": 4, \"default\": 2}},"
      " \"hills\": [{\"at\": [0, 0],\n \"radius\": \"w\", \"height\": 1}]}");
  CHECK_FALSE(z.set("w", 0, &err));
  CHECK(err.find("t.json:2: /hills/0/radius: expected a positive number, got 0") == 0);
  CHECK(z.spec().terrain.hills[0].radius == 2);
}

TEST_CASE("door.json: one target from its route, then its sink") {
  const Scene s = scenetest::load("door");
  const std::vector<Target>& t = s.spec().terrain.targets;
  REQUIRE(s.spec().routes.size() == 1);
  REQUIRE(t.size() == 2);
  CHECK(t[0].name == "door");
  REQUIRE(t[0].regions.size() == 1);
  CHECK(sameRect(t[0].regions[0], 15, 1, 4, 8));  // the route's goalRegion
  CHECK(t[0].groups.empty());
  CHECK(t[0].route == 0);
  CHECK(t[1].name == "sinks");
  REQUIRE(t[1].regions.size() == 1);
  CHECK(sameRect(t[1].regions[0], 12, -20, 20, 50));
  CHECK(t[1].groups.empty());
  CHECK(t[1].route == -1);
  CHECK(s.spec().terrain.discomfort.empty());
  CHECK(s.spec().terrain.hills.empty());
  CHECK(s.spec().terrain.heightMap.heights.empty());
}

TEST_CASE("evacuation.json: the file's \"any exit\" target, then three route targets in file order, then the sinks") {
  const Scene s = scenetest::load("evacuation");
  const SceneSpec& spec = s.spec();
  const std::vector<Target>& t = spec.terrain.targets;
  REQUIRE(t.size() == 5);
  // The file's target comes first, so under field routing every walker
  // (any group, any route) follows the one potential to all three exits.
  CHECK(t[0].name == "any exit");
  CHECK(t[0].route == -1);
  CHECK(t[0].groups.empty());
  REQUIRE(t[0].regions.size() == 3);
  CHECK(sameRect(t[0].regions[0], -8, 4, 3, 12));
  CHECK(sameRect(t[0].regions[1], 25, 4, 3, 12));
  CHECK(sameRect(t[0].regions[2], 4, 25, 12, 3));
  const char* names[] = {"west", "east", "north"};
  for (int r = 0; r < 3; ++r) {
    const Target& target = t[static_cast<std::size_t>(r + 1)];
    INFO("route ", names[r]);
    CHECK(target.name == names[r]);
    CHECK(target.route == r);
    CHECK(spec.routes[static_cast<std::size_t>(r)].name == names[r]);
    CHECK(target.groups.empty());
    CHECK(target.regions.size() == 1);
  }
  CHECK(sameRect(t[1].regions[0], -8, 4, 3, 12));
  CHECK(sameRect(t[2].regions[0], 25, 4, 3, 12));
  CHECK(sameRect(t[3].regions[0], 4, 25, 12, 3));
  CHECK(t[4].name == "sinks");
  CHECK(t[4].route == -1);
  CHECK(t[4].groups.empty());
  REQUIRE(t[4].regions.size() == 3);
  CHECK(sameRect(t[4].regions[0], -20, -20, 18, 60));
  CHECK(sameRect(t[4].regions[1], 22, -20, 18, 60));
  CHECK(sameRect(t[4].regions[2], -20, 22, 60, 18));
}

TEST_CASE("file targets come first, then routes with a goal region, then sinks by set of groups") {
  const Scene s = parse(
      "{\"routes\": {\"plain\": {\"gates\": [[[0, 0], [0, 1]]], \"goal\": [3, 3]},"
      "             \"r\": {\"gates\": [[[0, 0], [0, 1]]], \"goalRegion\": [30, 0, 2, 2]}},"
      " \"targets\": [{\"name\": \"mine\", \"region\": [0, 0, 1, 1]}],"
      " \"sinks\": [{\"region\": [1, 0, 1, 1], \"groups\": [2, 1]}, {\"region\": [2, 0, 1, 1]},"
      "           {\"region\": [3, 0, 1, 1], \"groups\": [3]}, {\"region\": [4, 0, 1, 1], \"groups\": [1, 2, 2]},"
      "           {\"region\": [5, 0, 1, 1]}]}");
  const std::vector<Target>& t = s.spec().terrain.targets;
  REQUIRE(t.size() == 5);
  CHECK(t[0].name == "mine");
  CHECK(t[1].name == "r");  // "plain" has a goal point, no region: no target
  CHECK(t[1].route == 1);
  CHECK(t[2].name == "sinks");
  CHECK(t[2].groups.empty());
  REQUIRE(t[2].regions.size() == 2);
  CHECK(sameRect(t[2].regions[0], 2, 0, 1, 1));
  CHECK(sameRect(t[2].regions[1], 5, 0, 1, 1));
  CHECK(t[3].name == "sinks for groups 1, 2");  // [2, 1] and [1, 2, 2] are one set
  CHECK(t[3].groups == std::vector<int>{1, 2});
  REQUIRE(t[3].regions.size() == 2);
  CHECK(sameRect(t[3].regions[0], 1, 0, 1, 1));
  CHECK(sameRect(t[3].regions[1], 4, 0, 1, 1));
  CHECK(t[4].name == "sinks for group 3");
  CHECK(t[4].groups == std::vector<int>{3});
  CHECK(t[4].route == -1);
}

TEST_CASE("mistakes in targets, discomfort, speed zones, stairs and hills name the file, line and pointer") {
  // Each on its own line, so the line number says the right element was found.
  const auto at3 = [](const std::string& key, const std::string& value) {
    return parseError("{\n  \"routes\": {\"r\": {\"gates\": []}},\n  \"" + key + "\": " + value + "\n}\n");
  };
  CHECK(at3("targets", "{}").find("bad.json:3: /targets: expected an array, got object") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"goup\": 1}]")
            .find("bad.json:3: /targets/0/goup: unknown key \"goup\" (expected one of: name, region, regions, group, "
                  "groups, route)") == 0);
  CHECK(at3("targets", "[{\"name\": \"x\"}]")
            .find("bad.json:3: /targets/0: expected exactly one of \"region\" [x, y, width, height] or \"regions\"") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"regions\": [[0, 0, 1, 1]]}]").find("bad.json:3: /targets/0: expected exactly one of") == 0);
  CHECK(at3("targets", "[{\"regions\": []}]").find("bad.json:3: /targets/0/regions: expected at least one region") == 0);
  CHECK(at3("targets", "[{\"regions\": [[0, 0, 1]]}]").find("bad.json:3: /targets/0/regions/0: expected a rectangle") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, -1, 1]}]").find("bad.json:3: /targets/0/region/2: expected a number >= 0") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"group\": 1, \"groups\": [2]}]")
            .find("bad.json:3: /targets/0: expected at most one of \"group\" or \"groups\"") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"group\": 1.5}]").find("bad.json:3: /targets/0/group: expected an integer, got 1.5") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"group\": 3e9}]").find("bad.json:3: /targets/0/group: expected a group number") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"groups\": []}]").find("bad.json:3: /targets/0/groups: expected at least one group") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"groups\": [1, \"x\"]}]")
            .find("bad.json:3: /targets/0/groups/1: in expression \"x\" at column 1: unknown knob 'x'") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"route\": \"s\"}]")
            .find("bad.json:3: /targets/0/route: unknown route \"s\" (routes: r)") == 0);
  CHECK(at3("targets", "[{\"region\": [0, 0, 1, 1], \"name\": 4}]").find("bad.json:3: /targets/0/name: expected a string, got number") == 0);

  CHECK(at3("discomfort", "[{\"value\": 2}]").find("bad.json:3: /discomfort/0: expected exactly one of \"rect\" or \"outline\"") == 0);
  CHECK(at3("discomfort", "[{\"rect\": [0, 0, 1, 1], \"outline\": [[0, 0], [1, 0], [0, 1]]}]").find("bad.json:3: /discomfort/0: expected exactly one") == 0);
  CHECK(at3("discomfort", "[{\"outline\": [[0, 0], [1, 0]]}]").find("bad.json:3: /discomfort/0/outline: expected at least 3 points, got 2") == 0);
  CHECK(at3("discomfort", "[{\"rect\": [0, 0, 1, 1], \"value\": \"1 / 0\"}]").find("bad.json:3: /discomfort/0/value: in expression") == 0);
  CHECK(at3("discomfort", "[{\"rect\": [0, 0, 1, 1], \"value\": 1e300}]").find("bad.json:3: /discomfort/0/value: expected a number within +-1e12") == 0);
  CHECK(at3("discomfort", "[{\"rect\": [0, 0, 1, 1], \"cost\": 1}]").find("bad.json:3: /discomfort/0/cost: unknown key \"cost\" (expected one of: rect, outline, value)") == 0);

  CHECK(at3("speedZones", "[{\"rect\": [0, 0, 1, 1]}]").find("bad.json:3: /speedZones/0: missing \"factor\"") == 0);
  CHECK(at3("speedZones", "[{\"factor\": 0.5}]").find("bad.json:3: /speedZones/0: expected exactly one of \"rect\" or \"outline\"") == 0);
  CHECK(at3("speedZones", "[{\"outline\": [[0, 0], [1, 0]], \"factor\": 0.5}]").find("bad.json:3: /speedZones/0/outline: expected at least 3 points, got 2") == 0);
  for (const char* f : {"0", "-0.5", "1.5", "1e-50"})
    CHECK(at3("speedZones", std::string("[{\"rect\": [0, 0, 1, 1], \"factor\": ") + f + "}]").find("bad.json:3: /speedZones/0/factor: expected a factor in (0, 1]") == 0);
  CHECK(at3("speedZones", "[{\"rect\": [0, 0, 1, 1], \"factor\": 0.5, \"speed\": 1}]").find("bad.json:3: /speedZones/0/speed: unknown key \"speed\" (expected one of: rect, outline, factor)") == 0);
  const std::string flight = "\"rect\": [0, 0, 10, 2], \"up\": [1, 0], \"upSpeed\": 0.6";
  CHECK(at3("stairs", "[{" + flight + "}]").find("bad.json:3: /stairs/0: missing \"downSpeed\"") == 0);
  CHECK(at3("stairs", "[{" + flight + ", \"downSpeed\": -0.7}]").find("bad.json:3: /stairs/0/downSpeed: expected a positive number, got -0.7") == 0);
  CHECK(at3("stairs", "[{" + flight + ", \"downSpeed\": 0}]").find("bad.json:3: /stairs/0/downSpeed: expected a positive number, got 0") == 0);
  CHECK(at3("stairs", "[{\"rect\": [0, 0, 10, 2], \"up\": [0, 0], \"upSpeed\": 0.6, \"downSpeed\": 0.7}]").find("bad.json:3: /stairs/0/up: expected the uphill direction, a vector other than [0, 0]") == 0);
  CHECK(at3("stairs", "[{\"up\": [1, 0], \"upSpeed\": 0.6, \"downSpeed\": 0.7}]").find("bad.json:3: /stairs/0: expected exactly one of \"rect\" or \"outline\"") == 0);

  CHECK(at3("hills", "[{\"at\": [0, 0], \"radius\": 1}]").find("bad.json:3: /hills/0: missing \"height\"") == 0);
  CHECK(at3("hills", "[{\"radius\": 1, \"height\": 1}]").find("bad.json:3: /hills/0: missing \"at\"") == 0);
  CHECK(at3("hills", "[{\"at\": [0, 0], \"radius\": 0, \"height\": 1}]").find("bad.json:3: /hills/0/radius: expected a positive number, got 0") == 0);
  CHECK(at3("hills", "[{\"at\": [0, 0], \"radius\": -2, \"height\": 1}]").find("bad.json:3: /hills/0/radius: expected a positive number, got -2") == 0);
  CHECK(at3("hills", "[{\"at\": [0, 0], \"radius\": 1, \"height\": true}]").find("bad.json:3: /hills/0/height: expected a number") == 0);
  CHECK(at3("hills", "[{\"at\": [0, 0], \"radius\": 1, \"height\": 1, \"width\": 1}]").find("bad.json:3: /hills/0/width: unknown key \"width\" (expected one of: at, radius, height)") == 0);
  CHECK(at3("hills", "{\"at\": [0, 0]}").find("bad.json:3: /hills: expected an array, got object") == 0);

  // The line is that of the offending element, not of its array.
  const std::string deep = parseError(
      "{\n"
      "  \"discomfort\": [\n"
      "    {\"rect\": [0, 0, 1, 1]},\n"
      "    {\"rect\": [0, 0, 1, 1],\n"
      "     \"value\": \"nope\"}\n"
      "  ]\n"
      "}\n");
  CHECK(deep.find("bad.json:5: /discomfort/1/value: in expression \"nope\" at column 1: unknown knob 'nope' (knobs: none)") == 0);
}

TEST_CASE("a height map of a bad shape is refused with its line") {
  const auto map = [](const std::string& body) { return parseError("{\"name\": \"m\",\n \"heightMap\": " + body + "}"); };
  CHECK(map("[]").find("bad.json:2: /heightMap: expected an object, got array") == 0);
  CHECK(map("{\"heights\": [[0]]}").find("bad.json:2: /heightMap: missing \"cell\"") == 0);
  CHECK(map("{\"cell\": 1}").find("bad.json:2: /heightMap: missing \"heights\"") == 0);
  CHECK(map("{\"cell\": 0, \"heights\": [[0]]}").find("bad.json:2: /heightMap/cell: expected a positive number, got 0") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": [[0]], \"scale\": 2}").find("bad.json:2: /heightMap/scale: unknown key \"scale\" (expected one of: origin, cell, heights)") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": []}").find("bad.json:2: /heightMap/heights: expected at least one row of heights") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": [[]]}").find("bad.json:2: /heightMap/heights/0: expected at least one height") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": [1, 2]}").find("bad.json:2: /heightMap/heights/0: expected a row of heights [h, ...], got number 1") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": {}}").find("bad.json:2: /heightMap/heights: expected an array, got object") == 0);
  CHECK(map("{\"cell\": 1, \"origin\": [0], \"heights\": [[0]]}").find("bad.json:2: /heightMap/origin: expected a point [x, y]") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": [[0, 1], [2, \"q\"]]}").find("bad.json:2: /heightMap/heights/1/1: in expression \"q\"") == 0);
  // Ragged rows: the short (or long) row, on its own line.
  const std::string ragged = parseError(
      "{\"heightMap\": {\"cell\": 1, \"heights\": [\n"
      "  [0, 1, 2],\n"
      "  [3, 4, 5],\n"
      "  [6, 7]\n"
      "]}}\n");
  CHECK(ragged.find("bad.json:4: /heightMap/heights/2: expected 3 heights, as in row 0, got 2") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": [[0], [1, 2]]}").find("/heightMap/heights/1: expected 1 heights, as in row 0, got 2") != std::string::npos);
  // The cap: kMaxHeightMapNodes a side, rows and columns each.
  const std::size_t over = kMaxHeightMapNodes + 1;
  std::string wide = "[[";
  for (std::size_t i = 0; i < over; ++i) wide += i ? ",0" : "0";
  wide += "]]";
  CHECK(map("{\"cell\": 1, \"heights\": " + wide + "}").find("bad.json:2: /heightMap/heights/0: expected at most 4096 heights in a row, got 4097") == 0);
  std::string tall = "[";
  for (std::size_t i = 0; i < over; ++i) tall += i ? ",[0]" : "[0]";
  tall += "]";
  CHECK(map("{\"cell\": 1, \"heights\": " + tall + "}").find("bad.json:2: /heightMap/heights: expected at most 4096 rows, got 4097") == 0);
  // At the cap itself, a side loads.
  std::string edge = "[[";
  for (std::size_t i = 0; i < kMaxHeightMapNodes; ++i) edge += i ? ",1" : "1";
  edge += "]]";
  CHECK(parse("{\"heightMap\": {\"cell\": 1, \"heights\": " + edge + "}}").spec().terrain.heightMap.cols == 4096);
}

TEST_CASE("a discomfort map: nodes like the height map's, read bilinearly, 0 outside, added to the regions") {
  const Scene s = parse(
      "{\"discomfort\": [{\"rect\": [3.25, 1.25, 0.5, 0.5], \"value\": 2}],"
      " \"discomfortMap\": {\"origin\": [2, 1], \"cell\": 2, \"values\": [[0, 4], [8, 12]]}}");
  const Terrain& t = s.spec().terrain;
  const DiscomfortMap& m = t.discomfortMap;
  CHECK(m.origin == Vec2{2, 1});
  CHECK(m.cell == 2);
  CHECK(m.cols == 2);
  CHECK(m.rows == 2);
  CHECK(m.values == std::vector<float>{0, 4, 8, 12});
  CHECK_FALSE(t.empty());
  CHECK(t.heightMap.heights.empty());  // its own map, not the height map's
  CHECK(t.heightAt({3, 2}) == 0);
  // The nodes: row r, column c at origin + (c, r) * cell, row 0 at origin's y.
  CHECK(t.discomfortAt({4, 1}) == 4);
  CHECK(t.discomfortAt({2, 3}) == 8);
  CHECK(t.discomfortAt({4, 3}) == 12);  // the far corner is on the map
  // Between them, bilinear: the middle is the mean of the four; at (0.75,
  // 0.25) of the cell, 3 + 0.25 (11 - 3) = 5, plus the rect's 2 there.
  CHECK(t.discomfortAt({3, 2}) == doctest::Approx(6));
  CHECK(t.discomfortAt({3.5f, 1.5f}) == doctest::Approx(5 + 2));
  CHECK(t.discomfortAt({3.5f, 2.5f}) == doctest::Approx(9));  // off the rect: the map alone
  CHECK(t.discomfortAt({3.5f, 1.3f}) == doctest::Approx(0.75f * 4 + 0.15f * 8 + 2));
  // Outside the nodes' square, 0 (as the height map reads): the regions only.
  CHECK(t.discomfortAt({1.9f, 2}) == 0);
  CHECK(t.discomfortAt({4.1f, 2}) == 0);
  CHECK(t.discomfortAt({3, 0.9f}) == 0);
  CHECK(t.discomfortAt({3, 3.1f}) == 0);
  // One node; origin [0, 0] by default; negative values (preferred ground).
  const Terrain one = parse("{\"discomfortMap\": {\"cell\": 0.5, \"values\": [[-1.5]]}}").spec().terrain;
  CHECK(one.discomfortMap.origin == Vec2{0, 0});
  CHECK(one.discomfortMap.cols == 1);
  CHECK(one.discomfortMap.rows == 1);
  CHECK(one.discomfortAt({0, 0}) == -1.5f);
  CHECK(one.discomfortAt({0.1f, 0}) == 0);
  CHECK_FALSE(one.empty());
}

TEST_CASE("a discomfort map's numbers take knobs and expressions, and follow them") {
  Scene s = parse(
      "{\"knobs\": {\"w\": {\"min\": 1, \"max\": 4, \"default\": 2}},"
      " \"discomfortMap\": {\"origin\": [\"-w\", {\"knob\": \"w\"}], \"cell\": \"w / 2\","
      " \"values\": [[\"w\", \"w + 1\"], [0, \"2 * w\"]]}}");
  auto check = [&](float w) {
    const DiscomfortMap& m = s.spec().terrain.discomfortMap;
    CHECK(m.origin == Vec2{-w, w});
    CHECK(m.cell == w / 2);
    CHECK(m.values == std::vector<float>{w, w + 1, 0, 2 * w});
    CHECK(s.spec().terrain.discomfortAt({-w, w}) == w);
  };
  check(2);
  std::string err;
  REQUIRE(s.set("w", 3, &err));
  check(3);
}

TEST_CASE("a discomfort map of a bad shape is refused with its line and pointer") {
  const auto map = [](const std::string& body) {
    return parseError("{\"name\": \"m\",\n \"discomfortMap\": " + body + "}");
  };
  CHECK(map("[]").find("bad.json:2: /discomfortMap: expected an object, got array") == 0);
  CHECK(map("{\"values\": [[0]]}").find("bad.json:2: /discomfortMap: missing \"cell\"") == 0);
  CHECK(map("{\"cell\": 1}").find("bad.json:2: /discomfortMap: missing \"values\" (rows of values [[v, ...], ...]") == 0);
  CHECK(map("{\"cell\": 0, \"values\": [[0]]}").find("bad.json:2: /discomfortMap/cell: expected a positive number, got 0") == 0);
  CHECK(map("{\"cell\": -1, \"values\": [[0]]}").find("bad.json:2: /discomfortMap/cell: expected a positive number, got -1") == 0);
  CHECK(map("{\"cell\": 1, \"heights\": [[0]]}")
            .find("bad.json:2: /discomfortMap/heights: unknown key \"heights\" (expected one of: origin, cell, values)") == 0);
  CHECK(map("{\"cell\": 1, \"values\": []}").find("bad.json:2: /discomfortMap/values: expected at least one row of values") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [[]]}").find("bad.json:2: /discomfortMap/values/0: expected at least one value") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [1, 2]}")
            .find("bad.json:2: /discomfortMap/values/0: expected a row of values [v, ...], got number 1") == 0);
  CHECK(map("{\"cell\": 1, \"values\": {}}").find("bad.json:2: /discomfortMap/values: expected an array, got object") == 0);
  CHECK(map("{\"cell\": 1, \"origin\": [0], \"values\": [[0]]}").find("bad.json:2: /discomfortMap/origin: expected a point [x, y]") == 0);
  // Not a number: a boolean, null, an unknown knob, a value past the limits.
  CHECK(map("{\"cell\": 1, \"values\": [[0, true]]}")
            .find("bad.json:2: /discomfortMap/values/0/1: expected a number, a {\"knob\": name} or an expression string, got boolean true") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [[0], [null]]}").find("bad.json:2: /discomfortMap/values/1/0: expected a number") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [[0, 1], [2, \"q\"]]}")
            .find("bad.json:2: /discomfortMap/values/1/1: in expression \"q\" at column 1: unknown knob 'q'") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [[1e13]]}").find("bad.json:2: /discomfortMap/values/0/0: expected a number within +-1e12, got 1e+13") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [[\"1 / 0\"]]}").find("bad.json:2: /discomfortMap/values/0/0: in expression \"1 / 0\"") == 0);
  CHECK(map("{\"cell\": \"x\", \"values\": [[0]]}").find("bad.json:2: /discomfortMap/cell: in expression \"x\"") == 0);
  // A ragged row, on its own line: the short (or long) row is named.
  const std::string ragged = parseError(
      "{\"discomfortMap\": {\"cell\": 1, \"values\": [\n"
      "  [0, 1, 2],\n"
      "  [3, 4, 5],\n"
      "  [6, 7]\n"
      "]}}\n");
  CHECK(ragged.find("bad.json:4: /discomfortMap/values/2: expected 3 values, as in row 0, got 2") == 0);
  CHECK(map("{\"cell\": 1, \"values\": [[0], [1, 2]]}")
            .find("bad.json:2: /discomfortMap/values/1: expected 1 values, as in row 0, got 2") == 0);
  // Too many nodes: kMaxHeightMapNodes a side, rows and columns each.
  const std::size_t over = kMaxHeightMapNodes + 1;
  std::string wide = "[[";
  for (std::size_t i = 0; i < over; ++i) wide += i ? ",0" : "0";
  wide += "]]";
  CHECK(map("{\"cell\": 1, \"values\": " + wide + "}")
            .find("bad.json:2: /discomfortMap/values/0: expected at most 4096 values in a row, got 4097") == 0);
  std::string tall = "[";
  for (std::size_t i = 0; i < over; ++i) tall += i ? ",[0]" : "[0]";
  tall += "]";
  CHECK(map("{\"cell\": 1, \"values\": " + tall + "}")
            .find("bad.json:2: /discomfortMap/values: expected at most 4096 rows, got 4097") == 0);
  std::string edge = "[";
  for (std::size_t i = 0; i < kMaxHeightMapNodes; ++i) edge += i ? ",[1]" : "[1]";
  edge += "]";
  CHECK(parse("{\"discomfortMap\": {\"cell\": 1, \"values\": " + edge + "}}").spec().terrain.discomfortMap.rows == 4096);
  // The height map keeps its own words.
  CHECK(parseError("{\"heightMap\": {\"cell\": 1, \"heights\": [[0], [1, 2]]}}")
            .find("bad.json:1: /heightMap/heights/1: expected 1 heights, as in row 0, got 2") == 0);
}

namespace {

/// Where a lone walker routed by field went on its way east to a target at
/// x = 20: the largest |y| it reached, whether it arrived, and whether its
/// centre ever entered the box [8.5, 11.5] x [-2.5, 2.5].
struct Walk {
  float maxAbsY = 0;
  bool arrived = false, enteredBand = false;
};

Walk walkEast(const std::string& extra) {
  const Scene s = parse(
      "{\"routing\": \"field\", \"settings\": {\"maxStep\": 0.05},"
      " \"targets\": [{\"region\": [20, -2, 2, 4]}],"
      " \"agents\": [{\"at\": [0, 0]}]" + extra + "}");
  SceneRun run(s);
  Walk w;
  while (run.time() < 40) {
    run.step();
    const Vec2 p = run.crowd().agent(0).position;
    w.maxAbsY = std::max(w.maxAbsY, std::fabs(p.y));
    w.enteredBand = w.enteredBand || (p.x > 8.5f && p.x < 11.5f && std::fabs(p.y) < 2.5f);
    if (p.x > 20) {
      w.arrived = true;
      break;
    }
  }
  return w;
}

}  // namespace

TEST_CASE("a walker routed by field goes round a painted band when there is a way round, and through it when not") {
  // The band: nodes from (8, -3) to (12, 3), a metre apart, all 20.
  std::string rows = "[";
  for (int r = 0; r < 7; ++r) rows += r ? ", [20, 20, 20, 20, 20]" : "[20, 20, 20, 20, 20]";
  rows += "]";
  const std::string band = ", \"discomfortMap\": {\"origin\": [8, -3], \"cell\": 1, \"values\": " + rows + "}";
  const Walk plain = walkEast("");
  const Walk round = walkEast(band);
  MESSAGE("plain ground: largest |y| " << plain.maxAbsY << "; painted band: largest |y| " << round.maxAbsY);
  CHECK(plain.arrived);
  CHECK(plain.maxAbsY < 0.3f);
  CHECK(plain.enteredBand);
  CHECK(round.arrived);
  CHECK(round.maxAbsY > 2.5f);
  CHECK_FALSE(round.enteredBand);
  // The same band across a closed corridor (walls at y = +-3, closed at both
  // ends): no way round, so it walks through and still arrives.
  const Walk through = walkEast(band + ", \"walls\": [[[-2, -3], [24, -3], [24, 3], [-2, 3], [-2, -3]]]");
  MESSAGE("band across a corridor: largest |y| " << through.maxAbsY);
  CHECK(through.arrived);
  CHECK(through.enteredBand);
}

TEST_CASE("an unknown top-level key still lists the ground's keys") {
  const std::string err = parseError("{\"hils\": []}");
  CHECK(err.find("bad.json:1: /hils: unknown key \"hils\"") == 0);
  for (const char* key : {"routing", "targets", "discomfort", "hills", "heightMap", "discomfortMap"}) {
    INFO(key);
    CHECK(err.find(key) != std::string::npos);
  }
}

TEST_CASE("a SceneRun's crowd has the scene's terrain, and field routing builds a potential per target") {
  const std::string text =
      "{\"routing\": \"field\", \"settings\": {\"maxStep\": 0.05},"
      " \"routes\": {\"r\": {\"gates\": [[[5, -1], [5, 1]]], \"goalRegion\": [18, -2, 2, 4]}},"
      " \"targets\": [{\"name\": \"east\", \"region\": [18, -2, 2, 4], \"group\": 1}],"
      " \"discomfort\": [{\"rect\": [8, -1, 2, 2], \"value\": 3}],"
      " \"hills\": [{\"at\": [12, 0], \"radius\": 2, \"height\": 0.5}],"
      " \"heightMap\": {\"origin\": [0, -4], \"cell\": 1, \"heights\": [[0, 0.1], [0.2, 0.3]]},"
      " \"discomfortMap\": {\"origin\": [14, -1], \"cell\": 1, \"values\": [[1, 2], [3, 4]]},"
      " \"agents\": [{\"at\": [0, 0], \"goal\": [19, 0], \"group\": 1}, {\"at\": [0, 2], \"route\": \"r\"}],"
      " \"sinks\": [{\"region\": [30, -5, 5, 10], \"groups\": [2]}]}";
  const Scene s = parse(text);
  SceneRun run(s);
  const Terrain& t = run.crowd().terrain();
  const Terrain& want = s.spec().terrain;
  REQUIRE(t.targets.size() == 3);  // east, the route's, the sink's for group 2
  for (std::size_t i = 0; i < t.targets.size(); ++i) {
    INFO("target ", i);
    CHECK(t.targets[i].name == want.targets[i].name);
    CHECK(t.targets[i].groups == want.targets[i].groups);
    CHECK(t.targets[i].route == want.targets[i].route);
    REQUIRE(t.targets[i].regions.size() == want.targets[i].regions.size());
  }
  CHECK(t.targets[0].name == "east");
  CHECK(t.targets[1].name == "r");
  CHECK(t.targets[1].route == 0);
  CHECK(t.targets[2].name == "sinks for group 2");
  REQUIRE(t.discomfort.size() == 1);
  CHECK(t.discomfort[0].value == 3);
  REQUIRE(t.hills.size() == 1);
  CHECK(t.hills[0].at == Vec2{12, 0});
  CHECK(t.heightMap.heights == std::vector<float>{0, 0.1f, 0.2f, 0.3f});
  CHECK(t.discomfortAt({9, 0}) == 3);
  CHECK(t.discomfortMap.values == std::vector<float>{1, 2, 3, 4});
  CHECK(t.discomfortAt({15, 0}) == 4);  // the map's far corner
  CHECK(t.discomfortAt({14.5f, -0.5f}) == doctest::Approx(2.5));
  CHECK(t.heightAt({12, 0}) == doctest::Approx(0.5));
  CHECK(run.crowd().settings.routing == "field");
  // The crowd steps over it: the fields are built, with a potential for
  // each target a walker takes (group 1's "east", the routed walker's "r").
  run.step();
  const FieldView f = run.crowd().fields(0);
  CHECK(f.cols > 0);
  CHECK(f.rows > 0);
  CHECK(f.potentials >= 2);
  // A scene without ground leaves the crowd's terrain empty.
  SceneRun plain(parse("{\"agents\": [{\"at\": [0, 0], \"goal\": [3, 0]}]}"));
  CHECK(plain.crowd().terrain().empty());
}
