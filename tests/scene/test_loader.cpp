// The loader: every kind of bad input fails with file, line, pointer and
// what was expected; knobs, expressions and settings resolve as documented.
#include <cmath>

#include "helpers.hpp"

using namespace throng;
using scenetest::parseError;

TEST_CASE("every shipped scene loads and is named after its file") {
  for (const char* name : {"ring", "door", "corridor", "crossing", "headon", "evacuation", "rimea-1"}) {
    const Scene s = scenetest::load(name);
    CHECK(s.name() == name);
    CHECK_FALSE(s.spec().description.empty());
  }
}

TEST_CASE("invalid JSON names the file, line and column") {
  const std::string err = parseError("{\n  \"name\": \"x\",\n  \"agents\": [,]\n}\n");
  CHECK(err.find("bad.json:3:") == 0);
  CHECK(err.find("invalid JSON") != std::string::npos);
}

TEST_CASE("text nested past 256 deep is refused at its place, before the parser's recursion can overflow") {
  // A deep value followed by another key made the parser copy it recursively (a crash).
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(parseError("{\"agents\": " + deep + ", \"name\": \"x\"}") == "bad.json:1:267: nested more than 256 deep");
  CHECK(parseError("{\n\"description\": \"[[[[ in a string is text\",\n \"agents\": " + deep + "}") ==
        "bad.json:3:267: nested more than 256 deep");
  // As deep as a plan needs is fine.
  const std::string nested = std::string(200, '[') + std::string(200, ']');
  CHECK(parseError("{\"agents\": " + nested + "}").find("nested") == std::string::npos);
}

TEST_CASE("an unknown key is reported at its line with the keys expected") {
  const std::string err = parseError(
      "{\n"
      "  \"agents\": [\n"
      "    {\"at\": [0, 0],\n"
      "     \"radis\": 1}\n"
      "  ]\n"
      "}\n");
  CHECK(err.find("bad.json:4: /agents/0/radis: unknown key \"radis\"") == 0);
  CHECK(err.find("radius") != std::string::npos);  // the list of keys it expected
}

TEST_CASE("an unknown top-level key fails") {
  const std::string err = parseError("{\"name\": \"x\",\n \"agnets\": []}");
  CHECK(err.find("bad.json:2: /agnets: unknown key") == 0);
}

TEST_CASE("wrong types say what was expected") {
  CHECK(parseError("{\"agents\": {}}").find("/agents: expected an array, got object") != std::string::npos);
  CHECK(parseError("{\"agents\": [{\"at\": [0]}]}").find("/agents/0/at: expected a point [x, y]") != std::string::npos);
  CHECK(parseError("{\"agents\": [{\"at\": [0, true]}]}").find("/agents/0/at/1: expected a number") != std::string::npos);
  CHECK(parseError("{\"settings\": {\"maxNeighbors\": 2.5}}")
            .find("/settings/maxNeighbors: maxNeighbors = 2.5 is out of range (expected a whole number in [0, 32])") !=
        std::string::npos);
  CHECK(parseError("{\"settings\": {\"seed\": -3}}")
            .find("/settings/seed: expected a whole number in [0, 18446744073709551615], got number") != std::string::npos);
  CHECK(parseError("{\"settings\": {\"model\": 3}}").find("/settings/model: expected a string, got number") !=
        std::string::npos);
  CHECK(parseError("{\"name\": 3}").find("/name: expected a string, got number") != std::string::npos);
  CHECK(parseError("{\"agents\": [{\"goal\": [1, 1]}]}").find("/agents/0: missing \"at\"") != std::string::npos);
  CHECK(parseError("{\"generators\": [{\"type\": \"spiral\"}]}").find("/generators/0/type: unknown generator type") !=
        std::string::npos);
  CHECK(parseError("{\"model\": \"social-force\"}").find("/model: unknown model") != std::string::npos);
}

TEST_CASE("a negative radius is refused with its line") {
  const std::string err = parseError(
      "{\n"
      "  \"agents\": [\n"
      "    {\"at\": [0, 0]},\n"
      "    {\"at\": [2, 0],\n"
      "     \"radius\": -0.5}\n"
      "  ]\n"
      "}\n");
  CHECK(err.find("bad.json:5: /agents/1/radius: expected a positive number, got -0.5") == 0);
}

TEST_CASE("settings out of their limits are refused") {
  CHECK(parseError("{\"settings\": {\"timeHorizon\": 0}}").find("/settings/timeHorizon: timeHorizon = 0 is out of range") !=
        std::string::npos);
  CHECK(parseError("{\"settings\": {\"jitter\": 2}}").find("expected a number in [0, 1]") != std::string::npos);
  CHECK(parseError("{\"settings\": {\"maxNeighbors\": 40}}").find("expected a whole number in [0, 32]") !=
        std::string::npos);
  CHECK(parseError("{\"settings\": {\"speed\": 1}}").find("/settings/speed: unknown key") != std::string::npos);
}

TEST_CASE("an agent inside an obstacle is refused, pointing at the agent") {
  const std::string text =
      "{\n"
      "  \"obstacles\": [{\"rect\": [0, 0, 2, 2]}],\n"
      "  \"agents\": [\n"
      "    {\"at\": [5, 5]},\n"
      "    {\"at\": [1, 1]}\n"
      "  ]\n"
      "}\n";
  const std::string err = parseError(text);
  CHECK(err.find("bad.json:5: /agents/1/at: agent at (1, 1)") == 0);
  CHECK(err.find("overlaps an obstacle") != std::string::npos);
  // Touching a wall counts too; clear of it does not.
  CHECK(parseError("{\"walls\": [[[0, -1], [0, 1]]], \"agents\": [{\"at\": [0.1, 0], \"radius\": 0.25}]}")
            .find("/agents/0/at") != std::string::npos);
  std::string err2;
  CHECK(Scene::parse("{\"walls\": [[[0, -1], [0, 1]]], \"agents\": [{\"at\": [0.3, 0], \"radius\": 0.25}]}", "ok.json", &err2));
}

TEST_CASE("knobs: defaults must lie in range, and set() refuses values outside it") {
  CHECK(parseError("{\"knobs\": {\"w\": {\"min\": 1, \"max\": 2, \"default\": 3}}}").find("/knobs/w/default: default 3 is outside [1, 2]") !=
        std::string::npos);
  CHECK(parseError("{\"knobs\": {\"w\": {\"min\": 1, \"max\": 2}}}").find("/knobs/w: missing \"default\"") != std::string::npos);
  CHECK(parseError("{\"knobs\": {\"jitter\": {\"min\": 0, \"max\": 1, \"default\": 0}}}").find("shadow") != std::string::npos);
  Scene door = scenetest::load("door");
  const SceneSpec before = door.spec();
  std::string err;
  CHECK_FALSE(door.set("doorWidth", 10, &err));
  CHECK(err == "knob doorWidth = 10 is out of range [0.6, 3]");
  CHECK_FALSE(door.assign("doorWidth=wide", &err));
  CHECK(err.find("expects a number") != std::string::npos);
  CHECK_FALSE(door.assign("nosuch=1", &err));
  CHECK(err.find("unknown knob or setting \"nosuch\"") != std::string::npos);
  CHECK(err.find("doorWidth, density") != std::string::npos);
  CHECK(door.spec().walls == before.walls);  // nothing changed
  CHECK(door.knobs()[0].value == 1.2);
}

TEST_CASE("integer knobs take whole numbers") {
  Scene ring = scenetest::load("ring");
  std::string err;
  CHECK_FALSE(ring.set("count", 10.5, &err));
  CHECK(err.find("whole numbers") != std::string::npos);
  CHECK(ring.set("count", 12, &err));
  CHECK(ring.spec().agents.size() == 12);
}

TEST_CASE("knobs reshape geometry and generators, and reset() restores them") {
  Scene door = scenetest::load("door");
  REQUIRE(door.knobs().size() == 2);
  CHECK(door.knobs()[0].name == "doorWidth");
  CHECK(door.knobs()[1].name == "density");
  const std::size_t n0 = door.spec().agents.size();
  const auto gateOf = [](const Scene& s) { return s.spec().routes.at(0).gates.at(0); };
  CHECK(std::fabs((gateOf(door).b - gateOf(door).a).length() - 1.2f) < 1e-5f);
  std::string err;
  REQUIRE(door.set("doorWidth", 2.5, &err));
  CHECK(std::fabs((gateOf(door).b - gateOf(door).a).length() - 2.5f) < 1e-5f);
  CHECK(door.spec().walls[0].front().y == doctest::Approx(6.25));
  REQUIRE(door.assign("density=2", &err));
  CHECK(door.spec().agents.size() > 1.8 * n0);
  CHECK(door.knobs()[0].value == 2.5);  // the first knob kept its value
  door.reset();
  CHECK(door.spec().agents.size() == n0);
  CHECK(door.knobs()[0].value == 1.2);
}

TEST_CASE("expressions: arithmetic over knobs, errors name the column") {
  std::string err;
  auto s = Scene::parse(
      "{\"knobs\": {\"w\": {\"min\": 0, \"max\": 10, \"default\": 4}},"
      " \"agents\": [{\"at\": [\"(w + 2) * 3 - -1\", \"w / 4\"], \"radius\": {\"knob\": \"w\"}}]}",
      "e.json", &err);
  INFO(err);
  REQUIRE(s);
  CHECK(s->spec().agents[0].at.x == 19.0f);
  CHECK(s->spec().agents[0].at.y == 1.0f);
  CHECK(s->spec().agents[0].radius == 4.0f);
  CHECK(parseError("{\"agents\": [{\"at\": [\"width / 2\", 0]}]}").find("/agents/0/at/0: in expression \"width / 2\" at column 1: unknown knob 'width'") !=
        std::string::npos);
  CHECK(parseError("{\"agents\": [{\"at\": [\"1 / 0\", 0]}]}").find("division by zero") != std::string::npos);
  CHECK(parseError("{\"agents\": [{\"at\": [\"2 +\", 0]}]}").find("at column 4") != std::string::npos);
  CHECK(parseError("{\"agents\": [{\"at\": [\"(2\", 0]}]}").find("expected ')'") != std::string::npos);
}

TEST_CASE("expressions: nesting and length are bounded with a clear message, never a crash") {
  const auto scene = [](const std::string& expr) { return "{\"agents\": [{\"at\": [\"" + expr + "\", 0]}]}"; };
  // 100,000 parentheses and 200,000 minus signs once overflowed the stack.
  const std::string deep = parseError(scene(std::string(100000, '(') + "1" + std::string(100000, ')')));
  CHECK(deep.find("/agents/0/at/0: in expression") != std::string::npos);
  CHECK(deep.find("longer than 4096 characters (200001)") != std::string::npos);
  CHECK(deep.size() < 300);  // the expression is quoted by its start only
  const std::string minus = parseError(scene(std::string(2000, '-') + "1"));
  CHECK(minus.find("nested deeper than 64 levels") != std::string::npos);
  CHECK(parseError(scene(std::string(65, '(') + "1" + std::string(65, ')'))).find("nested deeper than 64 levels") !=
        std::string::npos);
  // At the bound itself it still evaluates.
  std::string err;
  const auto ok = Scene::parse(scene(std::string(64, '(') + "7" + std::string(64, ')') + " + " + std::string(64, '-') + "1"),
                               "e.json", &err);
  INFO(err);
  REQUIRE(ok);
  CHECK(ok->spec().agents[0].at.x == 8.0f);
}

TEST_CASE("a knob that puts an agent into a wall is refused and changes nothing") {
  std::string err;
  auto s = Scene::parse(
      "{\"knobs\": {\"x\": {\"min\": 0, \"max\": 5, \"default\": 1}},"
      " \"walls\": [[[3, -1], [3, 1]]],"
      " \"agents\": [{\"at\": [{\"knob\": \"x\"}, 0], \"radius\": 0.25}]}",
      "k.json", &err);
  REQUIRE(s);
  CHECK_FALSE(s->set("x", 3, &err));
  CHECK(err.find("k.json:1: /agents/0/at: agent at (3, 0)") == 0);
  CHECK(s->knobs()[0].value == 1);
  CHECK(s->spec().agents[0].at.x == 1.0f);
}

TEST_CASE("settings are set by their seed names, checked against their limits") {
  Scene door = scenetest::load("door");
  std::string err;
  REQUIRE(door.assign("timeHorizon=2.5", &err));
  CHECK(door.spec().settings.timeHorizon == 2.5f);
  REQUIRE(door.assign("maxNeighbors=4", &err));
  CHECK(door.spec().settings.maxNeighbors == 4);
  REQUIRE(door.assign("seed=18446744073709551615", &err));
  CHECK(door.spec().settings.seed == 18446744073709551615ull);
  CHECK_FALSE(door.assign("timeHorizon=-1", &err));
  CHECK(err.find("timeHorizon = -1 is out of range (expected a number in [0.001, 1e6] s)") != std::string::npos);
  CHECK_FALSE(door.assign("maxNeighbors=2.5", &err));
  CHECK_FALSE(door.assign("threads=-1", &err));
  CHECK_FALSE(door.assign("seed=-1", &err));
  CHECK(door.spec().settings.timeHorizon == 2.5f);
}

TEST_CASE("the fill generator is deterministic, in its region, overlap-free, and follows the seed") {
  Scene a = scenetest::load("door", {"density=2.5"});
  Scene b = scenetest::load("door", {"density=2.5"});
  Scene c = scenetest::load("door", {"density=2.5", "seed=7"});
  const auto& pa = a.spec().agents;
  REQUIRE(pa.size() == b.spec().agents.size());
  bool same = true, differs = false;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    same &= pa[i].at == b.spec().agents[i].at && pa[i].goal == b.spec().agents[i].goal;
    differs |= !(pa[i].at == c.spec().agents[i].at);
  }
  CHECK(same);
  CHECK(differs);
  // 2.5 agents/m² over the 9.2 m square
  CHECK(pa.size() == doctest::Approx(2.5 * 9.2 * 9.2).epsilon(0.1));
  float minGap = 1e9f;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    CHECK(pa[i].at.x - pa[i].radius >= 0.4f - 1e-5f);
    CHECK(pa[i].at.x + pa[i].radius <= 9.6f + 1e-5f);
    for (std::size_t j = i + 1; j < pa.size(); ++j)
      minGap = std::min(minGap, (pa[i].at - pa[j].at).length() - pa[i].radius - pa[j].radius);
  }
  CHECK(minGap > 0);
}

TEST_CASE("a density too high for the radius is refused with the limit") {
  const std::string err = parseError(
      "{\"generators\": [{\"type\": \"fill\", \"region\": [0, 0, 4, 4], \"density\": 10, \"radius\": 0.25}]}");
  CHECK(err.find("/generators/0/density: density 10 /m² is too high for radius 0.25") != std::string::npos);
}

TEST_CASE("fill leaves the cells under an obstacle empty") {
  std::string err;
  auto s = Scene::parse(
      "{\"obstacles\": [{\"rect\": [2, 2, 2, 2]}],"
      " \"generators\": [{\"type\": \"fill\", \"region\": [0, 0, 6, 6], \"density\": 1, \"radius\": 0.2}]}",
      "f.json", &err);
  INFO(err);
  REQUIRE(s);
  CHECK(s->spec().agents.size() < 36);
  CHECK(s->spec().agents.size() > 20);
  for (const SceneAgent& a : s->spec().agents)
    CHECK_FALSE((a.at.x > 2 - a.radius && a.at.x < 4 + a.radius && a.at.y > 2 - a.radius && a.at.y < 4 + a.radius));
}

TEST_CASE("ring and grid generators place as documented") {
  const Scene ring = scenetest::load("ring");
  const auto& ag = ring.spec().agents;
  REQUIRE(ag.size() == 60);
  for (const SceneAgent& a : ag) {
    CHECK((a.at - Vec2{540, 540}).length() == doctest::Approx(440).epsilon(1e-5));
    REQUIRE(a.goal);
    CHECK(((*a.goal + a.at) * 0.5f - Vec2{540, 540}).length() < 1e-3f);  // the antipode
    CHECK(a.radius == 8);
    CHECK(a.maxSpeed == 120);
  }
  std::string err;
  auto g = Scene::parse(
      "{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"rows\": 2, \"cols\": 3, \"spacing\": [1, 2],"
      " \"goalOffset\": [10, 0], \"group\": [4, 5]}]}",
      "g.json", &err);
  REQUIRE(g);
  REQUIRE(g->spec().agents.size() == 6);
  CHECK(g->spec().agents[5].at == Vec2{2, 2});
  CHECK(*g->spec().agents[5].goal == Vec2{12, 2});
  CHECK(g->spec().agents[0].group == 4);
  CHECK(g->spec().agents[1].group == 5);
}

TEST_CASE("routes: unknown names fail, several pick the nearest first gate, the route's goal fills in") {
  CHECK(parseError("{\"agents\": [{\"at\": [0, 0], \"route\": \"exit\"}]}").find("/agents/0/route: unknown route \"exit\" (routes: none)") !=
        std::string::npos);
  const Scene evac = scenetest::load("evacuation");
  std::size_t used[3] = {0, 0, 0};
  for (const SceneAgent& a : evac.spec().agents) {
    REQUIRE(a.route >= 0);
    ++used[a.route];
    REQUIRE(a.goal);
    if (a.route == 0) CHECK(a.goal->x < -4);   // west
    if (a.route == 1) CHECK(a.goal->x > 24);   // east
    if (a.route == 2) CHECK(a.goal->y > 24);   // north
    if (a.route == 0) CHECK(a.at.x < 10.01f);  // the west exit is nearer
  }
  CHECK(used[0] > 50);
  CHECK(used[1] > 50);
  CHECK(used[2] > 50);
}

TEST_CASE("findScene takes names and paths and says where it looked") {
  std::string err;
  const auto p = findScene("door", &err);
  REQUIRE(p);
  CHECK(p->ends_with("door.json"));
  CHECK(findScene("door.json", &err));
  CHECK(findScene(scenetest::shipped("ring"), &err) == scenetest::shipped("ring"));
  CHECK_FALSE(findScene("no-such-scene", &err));
  CHECK(err.find("no scene \"no-such-scene\"") == 0);
  CHECK(listScenes().size() >= 7);
  std::string err2;
  CHECK_FALSE(Scene::load("/nonexistent/x.json", &err2));
  CHECK(err2.find("/nonexistent/x.json: cannot open") == 0);
}

TEST_CASE("absurd inputs fail cleanly instead of overflowing") {
  CHECK(parseError("[1, 2]").find("bad.json:1: /: expected an object, got array") == 0);
  CHECK(parseError("{\"generators\": [{\"type\": \"ring\", \"count\": 1e20, \"ringRadius\": 5}]}").find("/generators/0/count: expected a number within") !=
        std::string::npos);
  CHECK(parseError("{\"generators\": [{\"type\": \"grid\", \"origin\": [0, 0], \"rows\": 1e9, \"cols\": 1e9, \"spacing\": 1}]}").find("at most 1e7 agents") !=
        std::string::npos);
  CHECK(parseError("{\"generators\": [{\"type\": \"fill\", \"region\": [0, 0, 1e11, 1e11], \"density\": 1}]}").find("more than 1e7 agents") !=
        std::string::npos);
  CHECK(parseError("{\"duration\": 1e11}").find("/duration: expected at most 1e9 s") != std::string::npos);
  CHECK(parseError("{\"sources\": [{\"region\": [0, 0, 0.1, 0.1], \"rate\": 1}]}").find("/sources/0/region: the region is smaller than one agent") !=
        std::string::npos);
  CHECK(parseError("").find("bad.json:1:1: invalid JSON") == 0);
}

TEST_CASE("a Scene is a value: copies keep their own knobs") {
  Scene a = scenetest::load("door");
  Scene b = a;
  std::string err;
  REQUIRE(b.set("doorWidth", 2, &err));
  CHECK(a.knobs()[0].value == 1.2);
  CHECK(b.knobs()[0].value == 2);
  CHECK_FALSE(a.spec().walls == b.spec().walls);
}

TEST_CASE("a scene makes at most maxAgents walkers, its sources included, and no source outruns kMaxSourceRate") {
  const std::string two =
      "{\"generators\": [{\"type\": \"ring\", \"count\": 60, \"ringRadius\": 100},\n"
      "                  {\"type\": \"ring\", \"count\": 60, \"ringRadius\": 50}]}";
  std::string err;
  CHECK(Scene::parse(two, "two.json", &err, 120));
  CHECK_FALSE(Scene::parse(two, "two.json", &err, 119));
  CHECK(err == "two.json:2: /generators/1/count: the scene would make more than 119 walkers");
  CHECK(parseError("{\"sources\": [{\"region\": [0, 0, 10, 10], \"rate\": 1e6}]}")
            .find("/sources/0/rate: expected at most 100000 agents per second") != std::string::npos);
  // A run's sources stop at the cap.
  const auto s = Scene::parse("{\"settings\": {\"maxStep\": 0.5},"
                              " \"sources\": [{\"region\": [0, 0, 100, 100], \"rate\": 1000}]}",
                              "src.json", &err, 50);
  INFO(err);
  REQUIRE(s);
  SceneRun run(*s);
  for (int k = 0; k < 10; ++k) run.step();
  CHECK(run.crowd().count() == 50);
}
