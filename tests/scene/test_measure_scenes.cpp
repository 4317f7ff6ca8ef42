// The scene file's "measurements": loaded with knobs, refused with the
// file, line and pointer when malformed, and counting what happened in a
// shipped scene.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"

using namespace throng;
using scenetest::load;
using scenetest::parseError;

TEST_CASE("measurements load with their knobs, names and kinds") {
  const Scene door = load("door", {"doorWidth=1.6"});
  const std::vector<Measurement>& ms = door.spec().measurements;
  REQUIRE(ms.size() == 2);
  CHECK(ms[0].name == "door");
  CHECK(ms[0].kind == MeasureKind::Line);
  REQUIRE(ms[0].points.size() == 2);
  CHECK(ms[0].points[0].y == doctest::Approx(4.2));  // 5 - doorWidth / 2
  CHECK(ms[0].points[1].y == doctest::Approx(5.8));
  CHECK(ms[1].kind == MeasureKind::Area);
  CHECK(ms[1].points.size() == 4);
  std::string err;
  const auto named = Scene::parse(R"({"measurements": [{"line": [[0, 0], [1, 0]]}, {"outline": [[0, 0], [1, 0], [0, 1]]}]})",
                                  "m.json", &err);
  INFO(err);
  REQUIRE(named);
  CHECK(named->spec().measurements[0].name == "measurement 0");
  CHECK(named->spec().measurements[1].name == "measurement 1");
  CHECK(named->spec().measurements[1].kind == MeasureKind::Area);
}

TEST_CASE("mistakes in measurements name the file, line and pointer") {
  const auto at2 = [](const std::string& value) { return parseError("{\n  \"measurements\": " + value + "\n}\n"); };
  CHECK(at2("{}").find("bad.json:2: /measurements: expected an array, got object") == 0);
  CHECK(at2("[{\"name\": \"x\"}]").find("bad.json:2: /measurements/0: expected exactly one of \"line\", \"rect\" or "
                                        "\"outline\"") == 0);
  CHECK(at2("[{\"line\": [[0, 0]]}]").find("bad.json:2: /measurements/0/line: expected at least 2 points, got 1") == 0);
  CHECK(at2("[{\"line\": [[0, 0], [1, 1], [2, 2]]}]").find("bad.json:2: /measurements/0/line: expected a line") == 0);
  CHECK(at2("[{\"line\": [[1, 1], [1, 1]]}]").find("bad.json:2: /measurements/0/line: a line needs two distinct ends") == 0);
  CHECK(at2("[{\"outline\": [[0, 0], [1, 0]]}]").find("bad.json:2: /measurements/0/outline: expected at least 3 points") == 0);
  CHECK(at2("[{\"outline\": [[0, 0], [1, 0], [2, 0]]}]")
            .find("bad.json:2: /measurements/0/outline: an area needs a nonzero area") == 0);
  CHECK(at2("[{\"rect\": [0, 0, 0, 1]}]").find("bad.json:2: /measurements/0/rect: an area needs a nonzero area") == 0);
  CHECK(at2("[{\"rect\": [0, 0, -1, 1]}]").find("bad.json:2: /measurements/0/rect/2:") == 0);
  CHECK(at2("[{\"name\": \"a\", \"line\": [[0, 0], [1, 0]]}, {\"name\": \"a\", \"rect\": [0, 0, 1, 1]}]")
            .find("bad.json:2: /measurements/1/name: the name \"a\" is taken") == 0);
  CHECK(at2("[{\"line\": [[0, 0], [1, 0]], \"windw\": 5}]")
            .find("bad.json:2: /measurements/0/windw: unknown key \"windw\" (expected one of: name, line, rect, outline)") == 0);
}

TEST_CASE("the door's line counts each walker that left through it, and its area what stood before it") {
  SceneRun run(load("door"));
  const std::size_t walkers = run.crowd().count();
  scenetest::runFor(run, 60);
  const MeasureFigures door = measureFigures(run.crowd().measurements())[0];
  const MeasureFigures before = measureFigures(run.crowd().measurements())[1];
  // Everyone starts inside; those beyond the wall now, and those the sink
  // took, crossed out once more than back.
  std::size_t outside = 0;
  for (std::size_t i = 0; i < run.crowd().count(); ++i) outside += run.crowd().agent(i).position.x > 10;
  MESSAGE(walkers << " walkers; " << door.forward << " out, " << door.backward << " back; " << run.removed()
                  << " taken by the sink, " << outside << " beyond the door; flow " << door.meanFlow << "/s");
  CHECK(door.forward - door.backward == run.removed() + outside);
  CHECK(door.forward > walkers / 2);
  CHECK(door.meanFlow > 1.0);  // a 1.2 m door (walking.md's flow against width: about 2/s)
  CHECK(door.meanFlow < 3.0);
  CHECK(before.peakDensity > 1.0);  // the queue at the door
}

TEST_CASE("a scene's verify: its checks load, and mistakes name the file, line and pointer") {
  const Scene rimea1 = load("rimea-1");
  REQUIRE(rimea1.spec().verify);
  const SceneVerify& v = *rimea1.spec().verify;
  CHECK(v.test == "RiMEA 1");
  CHECK(v.seeds == 1);
  CHECK(v.verdict);
  REQUIRE(v.checks.size() == 1);
  CHECK(v.checks[0].figure == "end.lastTime");
  CHECK(v.checks[0].min == 26);
  CHECK(v.checks[0].max == 34);
  CHECK_FALSE(load("door").spec().verify);
  const auto at2 = [](const std::string& value) {
    return parseError("{\"measurements\": [{\"name\": \"end\", \"line\": [[0, 0], [0, 1]]}],\n  \"verify\": " + value + "\n}\n");
  };
  CHECK(at2("{\"checks\": []}").find("bad.json:2: /verify: missing \"test\"") == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": []}").find("bad.json:2: /verify/checks: expected at least one check") == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"gate.lastTime\", \"max\": 1}]}")
            .find("bad.json:2: /verify/checks/0/figure: no measurement named \"gate\"") == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"end.lastTime\"}]}")
            .find("bad.json:2: /verify/checks/0: expected \"min\", \"max\" or both") == 0);
  // A test shown without a verdict may show a figure without bounds.
  const Scene shown = scenetest::parse("{\"measurements\": [{\"name\": \"end\", \"line\": [[0, 0], [0, 1]]}], \"verify\": "
                                       "{\"test\": \"T\", \"verdict\": false, \"checks\": [{\"figure\": \"end.forward\"}]}}");
  CHECK_FALSE(shown.spec().verify->verdict);
  CHECK(shown.spec().verify->checks[0].min == -1e300);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"end.lastTime\", \"over\": \"hall.meanFlow\", \"max\": 1}]}")
            .find("bad.json:2: /verify/checks/0/over: no measurement named \"hall\"") == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"end.lastTime\", \"over\": \"end.firstTime\", \"ratioTo\": \"x\", \"max\": 1}]}")
            .find("bad.json:2: /verify/checks/0: expected one of \"ratioTo\" or \"over\", not both") == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"arrived\", \"min\": 3, \"max\": 2}]}")
            .find("bad.json:2: /verify/checks/0: the bounds are empty: min 3 > max 2") == 0);
  CHECK(at2("{\"test\": \"T\", \"seeds\": 0, \"checks\": [{\"figure\": \"arrived\", \"min\": 1}]}")
            .find("bad.json:2: /verify/seeds: expected a count in [1, 1000], got 0") == 0);
  CHECK(at2("{\"test\": \"T\", \"verdict\": 1, \"checks\": [{\"figure\": \"arrived\", \"min\": 1}]}")
            .find("bad.json:2: /verify/verdict: expected true or false") == 0);
  // A percentile over the seeds: the IMO's 95th, in (0, 100], never of a ratio to another scene.
  const Scene imo4 = load("verify/imo-4");
  CHECK(imo4.spec().verify->checks[0].percentile == 95);
  CHECK(imo4.spec().verify->checks[1].percentile == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"arrived\", \"min\": 1, \"percentile\": 0}]}")
            .find("bad.json:2: /verify/checks/0/percentile: expected a percentile in (0, 100], got 0") == 0);
  CHECK(at2("{\"test\": \"T\", \"checks\": [{\"figure\": \"arrived\", \"min\": 1, \"ratioTo\": \"x\", \"percentile\": 95}]}")
            .find("bad.json:2: /verify/checks/0/percentile: a ratio to another scene is of the means") == 0);
  // A fundamental diagram (RiMEA 4): densities ascending in (0, 5.4), figures of its own.
  const Scene rimea4 = load("verify/rimea-4");
  CHECK(rimea4.spec().verify->diagram == std::vector<double>{0.5, 1, 2, 3, 4, 5});
  CHECK(rimea4.spec().verify->checks[0].figure == "diagram.0.5");
  CHECK(rimea4.spec().verify->checks[0].over == "weidmann.0.5");
  const std::string check = ", \"checks\": [{\"figure\": \"diagram.falling\", \"min\": 1}]}";
  CHECK(at2("{\"test\": \"T\", \"diagram\": [1, 6]" + check)
            .find("bad.json:2: /verify/diagram/1: expected a density in (0, 5.4) per m², got 6") == 0);
  CHECK(at2("{\"test\": \"T\", \"diagram\": [2, 1]" + check)
            .find("bad.json:2: /verify/diagram/1: expected the densities ascending, got 1 after 2") == 0);
  CHECK(at2("{\"test\": \"T\", \"diagram\": []" + check).find("bad.json:2: /verify/diagram: expected at least one density") == 0);
  CHECK(at2("{\"test\": \"T\", \"diagram\": [1, 2], \"checks\": [{\"figure\": \"diagram.3\", \"min\": 1}]}")
            .find("bad.json:2: /verify/checks/0/figure: no density 3 in \"diagram\"") == 0);
  CHECK(at2("{\"test\": \"T\", \"diagram\": [1, 2], \"checks\": [{\"figure\": \"end.lastTime\", \"min\": 1}]}")
            .find("bad.json:2: /verify/checks/0/figure: a fundamental diagram's figures are diagram.D, weidmann.D and "
                  "diagram.falling, got \"end.lastTime\"") == 0);
}

TEST_CASE("the nearest-rank percentile: the smallest value at least P% of the runs reach") {
  std::vector<double> fifty;
  for (int k = 50; k >= 1; --k) fifty.push_back(k);  // 50 runs, any order
  CHECK(nearestRankPercentile(fifty, 95) == 48);     // ceil(0.95 x 50) = 48th smallest
  CHECK(nearestRankPercentile(fifty, 100) == 50);
  CHECK(nearestRankPercentile(fifty, 1) == 1);
  CHECK(nearestRankPercentile({7.5}, 95) == 7.5);    // one seed: its value
  CHECK(nearestRankPercentile({1, 2, 3, 4}, 50) == 2);
}
