// The command-line parsers (app/cli/args.hpp) without the app: every
// subcommand refuses bad numbers, missing values and unknown flags with one
// line naming the option and exit code 2, and parses good argvs to the values
// given.
#include <doctest/doctest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "../common/setting_probes.hpp"
#include "args.hpp"

using namespace throng::cli;

namespace {

/// Calls a parser on argv = args (args[0] is the subcommand's name).
template <class Parser>
auto parse(Parser parser, std::initializer_list<const char*> args) {
  std::vector<const char*> argv(args);
  argv.push_back(nullptr);
  return parser(static_cast<int>(args.size()), argv.data());
}

/// A usage error: no options, exit 2, one line "COMMAND: ... (see COMMAND
/// --help)" that names `option`.
template <class T>
void refused(const Parsed<T>& p, const std::string& command, const std::string& option) {
  INFO("message: " << p.text);
  CHECK_FALSE(p.options.has_value());
  CHECK(p.exitCode == 2);
  CHECK(p.text.rfind(command + ": ", 0) == 0);
  CHECK(p.text.find(option) != std::string::npos);
  CHECK(p.text.find("(see " + command + " --help)") != std::string::npos);
  CHECK(p.text.find('\n') == p.text.size() - 1);
}

/// --help: exit 0, the usage line first, and every flag in `flags` listed.
template <class T>
void helps(const Parsed<T>& p, const std::string& usage, std::initializer_list<const char*> flags) {
  INFO("help: " << p.text);
  CHECK_FALSE(p.options.has_value());
  CHECK(p.exitCode == 0);
  CHECK(p.text.rfind(usage, 0) == 0);
  for (const char* f : flags) CHECK_MESSAGE(p.text.find(std::string("  ") + f) != std::string::npos, f);
}

}  // namespace

TEST_CASE("run refuses junk, non-finite, negative and out-of-range numbers, naming the option") {
  struct Bad {
    const char* flag;
    const char* value;
  };
  for (const Bad& b : {Bad{"--steps", "10x"}, Bad{"--steps", "-1"}, Bad{"--steps", "1000000001"}, Bad{"--steps", "1e3"},
                       Bad{"--steps", "0x10"}, Bad{"--steps", " 5"}, Bad{"--seconds", "inf"}, Bad{"--seconds", "nan"},
                       Bad{"--seconds", "-1"}, Bad{"--seconds", "0"}, Bad{"--seconds", "1000001"}, Bad{"--seconds", "2s"},
                       Bad{"--dt", "0"}, Bad{"--dt", "1e-7"}, Bad{"--dt", "10.5"}, Bad{"--dt", "-inf"},
                       Bad{"--seed", "18446744073709551616"}, Bad{"--seed", "-3"}, Bad{"--seed", "1.5"},
                       Bad{"--threads", "1025"}, Bad{"--threads", "2.0"}}) {
    INFO(b.flag << " " << b.value);
    refused(parse(parseRun, {"run", "ring", b.flag, b.value}), "throng run", std::string(b.flag) + ": expects a");
    // --name=value is the same flag
    const std::string joined = std::string(b.flag) + "=" + b.value;
    refused(parse(parseRun, {"run", "ring", joined.c_str()}), "throng run", std::string(b.flag) + ": expects a");
  }
}

TEST_CASE("run refuses missing values, unknown flags, bad choices and conflicting flags") {
  refused(parse(parseRun, {"run", "ring", "--steps"}), "throng run", "--steps");
  refused(parse(parseRun, {"run", "ring", "--steps="}), "throng run", "--steps");
  refused(parse(parseRun, {"run", "ring", "--steps", ""}), "throng run", "--steps");
  refused(parse(parseRun, {"run", "ring", "--set"}), "throng run", "--set");
  refused(parse(parseRun, {"run", "ring", "--bogus"}), "throng run", "unknown option '--bogus'");
  refused(parse(parseRun, {"run", "ring", "-x"}), "throng run", "unknown option '-x'");
  refused(parse(parseRun, {"run", "ring", "door"}), "throng run", "unexpected argument 'door'");
  refused(parse(parseRun, {"run"}), "throng run", "SCENE");
  refused(parse(parseRun, {"run", "ring", "--backend", "gpu"}), "throng run", "--backend");
  refused(parse(parseRun, {"run", "ring", "--export", "x.csv", "--format", "xml"}), "throng run", "--format");
  refused(parse(parseRun, {"run", "ring", "--format", "csv"}), "throng run", "--format requires --export");
  refused(parse(parseRun, {"run", "ring", "--steps", "1", "--seconds", "1"}), "throng run", "--steps excludes --seconds");
  refused(parse(parseRun, {"run", "door", "--set", "doorWidth"}), "throng run", "--set: expected name=value");
  refused(parse(parseRun, {"run", "door", "--set", "=1"}), "throng run", "--set: expected name=value");
  refused(parse(parseRun, {"run", "door", "--set", "doorWidth=inf"}), "throng run", "--set");
  refused(parse(parseRun, {"run", "door", "--set", "doorWidth=nan"}), "throng run", "--set");
  refused(parse(parseRun, {"run", "door", "--set", "doorWidth=2m"}), "throng run", "--set");
}

TEST_CASE("run parses every flag, in both spellings, to the values given") {
  const auto p = parse(parseRun, {"run", "door", "--steps=300", "--seed", "9", "--dt", "0.01", "--threads", "2", "--set",
                                  "doorWidth=2.4", "--set=timeHorizon=3", "--backend", "cpu", "--export", "x.csv",
                                  "--format", "pedpy", "--summary=s.json", "-q"});
  INFO(p.text);
  REQUIRE(p.options);
  const RunOptions& o = *p.options;
  CHECK(o.scene == "door");
  CHECK(o.steps == 300u);
  CHECK_FALSE(o.seconds);
  CHECK(o.seed == 9u);
  CHECK(o.dt == 0.01);  // exactly the double "0.01" reads as
  CHECK(o.threads == 2u);
  CHECK(o.sets == std::vector<std::string>{"doorWidth=2.4", "timeHorizon=3"});
  CHECK(o.backend == throng::BackendKind::Cpu);
  CHECK(o.exportPath == "x.csv");
  CHECK(o.format == ExportFormat::Pedpy);
  CHECK(o.summaryPath == "s.json");
  CHECK(o.quiet);

  // Defaults, the bounds themselves, decimal only (no octal), the last of a repeated flag.
  const auto d = parse(parseRun, {"run", "--set", "jitter=0", "ring"});
  REQUIRE(d.options);
  CHECK(d.options->scene == "ring");  // --set takes one value: SCENE is not swallowed
  CHECK(d.options->sets == std::vector<std::string>{"jitter=0"});
  CHECK_FALSE(d.options->steps);
  CHECK(d.options->backend == throng::BackendKind::Auto);
  CHECK(d.options->format == ExportFormat::Csv);
  CHECK_FALSE(d.options->quiet);
  const auto b = parse(parseRun, {"run", "ring", "--seconds", "1e6", "--dt", "10", "--threads", "0", "--seed",
                                  "18446744073709551615"});
  REQUIRE(b.options);
  CHECK(b.options->seconds == 1e6);
  CHECK(b.options->dt == 10.0);
  CHECK(b.options->threads == 0u);
  CHECK(b.options->seed == 18446744073709551615u);
  const auto r = parse(parseRun, {"run", "ring", "--steps", "010", "--steps", "7"});
  REQUIRE(r.options);
  CHECK(r.options->steps == 7u);
  const auto o10 = parse(parseRun, {"run", "ring", "--steps", "010"});
  REQUIRE(o10.options);
  CHECK(o10.options->steps == 10u);
  const auto sec = parse(parseRun, {"run", "ring", "--seconds", "0.1"});
  REQUIRE(sec.options);
  CHECK(sec.options->seconds == 0.1);
}

TEST_CASE("check refuses bad numbers, missing values and unknown flags, and parses good ones") {
  for (const char* v : {"-1", "0", "inf", "nan", "1x", "1000001"})
    refused(parse(parseCheck, {"check", "x.csv", "--radius", v}), "throng check", "--radius: expects a");
  for (const char* v : {"-0.1", "1.5", "nan", "1e-4x"})
    refused(parse(parseCheck, {"check", "x.csv", "--tolerance", v}), "throng check", "--tolerance: expects a");
  refused(parse(parseCheck, {"check", "x.csv", "--radius"}), "throng check", "--radius");
  refused(parse(parseCheck, {"check", "x.csv", "--bogus"}), "throng check", "unknown option '--bogus'");
  refused(parse(parseCheck, {"check"}), "throng check", "FILE");
  refused(parse(parseCheck, {"check", "x.csv", "y.csv"}), "throng check", "unexpected argument 'y.csv'");
  refused(parse(parseCheck, {"check", "x.csv", "--set", "a=1"}), "throng check", "--set requires --scene");

  const auto p = parse(parseCheck, {"check", "x.csv", "--radius=8", "--tolerance", "0", "--scene", "door", "--set",
                                    "doorWidth=2", "--set", "density=1"});
  REQUIRE(p.options);
  CHECK(p.options->file == "x.csv");
  CHECK(p.options->radius == 8.0);
  CHECK(p.options->radiusGiven);
  CHECK(p.options->tolerance == 0.0);
  CHECK(p.options->scene == "door");
  CHECK(p.options->sets == std::vector<std::string>{"doorWidth=2", "density=1"});
  const auto d = parse(parseCheck, {"check", "x.csv"});
  REQUIRE(d.options);
  CHECK(d.options->radius == 0.25);
  CHECK_FALSE(d.options->radiusGiven);
  CHECK(d.options->tolerance == 1e-4);
}

TEST_CASE("scenes takes no arguments") {
  refused(parse(parseScenes, {"scenes", "extra"}), "throng scenes", "unexpected argument 'extra'");
  refused(parse(parseScenes, {"scenes", "--all"}), "throng scenes", "unknown option '--all'");
  CHECK(parse(parseScenes, {"scenes"}).options.has_value());
}

TEST_CASE("campaign takes a spec, a scheduler or a worker count, and refuses the rest") {
  refused(parse(parseCampaign, {"campaign"}), "throng campaign", "SPEC is required");
  refused(parse(parseCampaign, {"campaign", "s.json", "--workers", "0"}), "throng campaign", "--workers");
  refused(parse(parseCampaign, {"campaign", "s.json", "--workers", "2x"}), "throng campaign", "--workers");
  refused(parse(parseCampaign, {"campaign", "s.json", "--workers", "1025"}), "throng campaign", "[1, 1024]");
  refused(parse(parseCampaign, {"campaign", "s.json", "--scheduler"}), "throng campaign", "--scheduler");
  refused(parse(parseCampaign, {"campaign", "s.json", "--scheduler", "tcp://h:8786", "--workers", "2"}),
          "throng campaign", "--workers is for the LocalCluster");
  refused(parse(parseCampaign, {"campaign", "s.json", "t.json"}), "throng campaign", "unexpected argument 't.json'");
  refused(parse(parseCampaign, {"campaign", "s.json", "--seed", "1"}), "throng campaign", "unknown option '--seed'");
  const auto a = parse(parseCampaign, {"campaign", "s.json", "--workers=3", "--out", "o", "-q"});
  REQUIRE(a.options.has_value());
  CHECK(a.options->spec == "s.json");
  CHECK(a.options->dask.workers == 3);
  CHECK(a.options->dask.scheduler.empty());
  CHECK(a.options->out == "o");
  CHECK(a.options->quiet);
  const auto b = parse(parseCampaign, {"campaign", "--scheduler", "tcp://h:8786", "s.json"});
  REQUIRE(b.options.has_value());
  CHECK(b.options->dask.scheduler == "tcp://h:8786");
  CHECK(b.options->dask.workers == 0);
  helps(parse(parseCampaign, {"campaign", "--help"}), "usage: throng campaign SPEC.json",
        {"--scheduler ADDRESS", "--workers N", "--out DIR", "-q,--quiet"});
}

TEST_CASE("verify takes tests, models, seeds and where on Dask its runs go, and refuses the rest") {
  const auto a = parse(parseVerify, {"verify", "rimea-1", "imo-4", "--models", "orca,continuum", "--seeds", "50",
                                     "--workers", "4"});
  REQUIRE(a.options.has_value());
  CHECK(a.options->tests == std::vector<std::string>{"rimea-1", "imo-4"});
  CHECK(a.options->models == std::vector<std::string>{"orca", "continuum"});
  CHECK(a.options->seeds == 50);
  CHECK(a.options->dask.given());
  CHECK(a.options->dask.args() == std::vector<std::string>{"--workers", "4"});
  const auto b = parse(parseVerify, {"verify"});
  REQUIRE(b.options.has_value());
  CHECK_FALSE(b.options->dask.given());  // the runs stay in this process
  refused(parse(parseVerify, {"verify", "--scheduler", "tcp://h:8786", "--workers", "2"}), "throng verify",
          "--workers is for the LocalCluster");
  refused(parse(parseVerify, {"verify", "--scheduler", "tls://h:8786"}), "throng verify",
          "--scheduler tls://...: give --tls-ca-file and --tls-cert");
  refused(parse(parseVerify, {"verify", "--workers", "0"}), "throng verify", "[1, 1024]");
  helps(parse(parseVerify, {"verify", "--help"}), "usage: throng verify [TESTS...]", {"--scheduler ADDRESS", "--workers N"});
}

TEST_CASE("import takes a plan, its layers, the units, a density and the output, and refuses the rest") {
  refused(parse(parseImport, {"import"}), "throng import", "PLAN is required");
  refused(parse(parseImport, {"import", "p.dxf", "--out", "s.json"}), "throng import", "--walls is required");
  refused(parse(parseImport, {"import", "p.dxf", "--walls", "W"}), "throng import", "--out is required");
  refused(parse(parseImport, {"import", "p.dxf", "--walls", "--out", "s.json"}), "throng import",
          "--walls: expects layer names, got the option '--out'");
  refused(parse(parseImport, {"import", "p.dxf", "--walls", "W", "--out", ""}), "throng import", "--out");
  refused(parse(parseImport, {"import", "", "--walls", "W", "--out", "s.json"}), "throng import", "PLAN: expects a file");
  refused(parse(parseImport, {"import", "p.dxf", "--walls", "W", "--exits", "", "--out", "s.json"}), "throng import",
          "--exits: expects layer names, got ''");
  for (const char* v : {"0", "-1", "6.5", "inf", "nan", "1x"})
    refused(parse(parseImport, {"import", "p.dxf", "--walls", "W", "--out", "s.json", "--density", v}), "throng import",
            "--density: expects a finite number in (0, 6]");
  refused(parse(parseImport, {"import", "p.dxf", "--walls", "W", "--out", "s.json", "--units", "km"}), "throng import",
          "--units");
  refused(parse(parseImport, {"import", "p.dxf", "--walls", "W", "--out", "s.json", "--seed", "1"}), "throng import",
          "unknown option '--seed'");
  // Several names after a layer flag, and the flag again: all of them, in order.
  const auto a = parse(parseImport, {"import", "p.dxf", "--walls", "A", "B", "--obstacles", "F", "--walls", "C",
                                     "--exits", "X", "--units", "cm", "--density", "0.9", "--out", "s.json"});
  REQUIRE(a.options.has_value());
  CHECK(a.options->plan == "p.dxf");
  CHECK(a.options->walls == std::vector<std::string>{"A", "B", "C"});
  CHECK(a.options->obstacles == std::vector<std::string>{"F"});
  CHECK(a.options->exits == std::vector<std::string>{"X"});
  CHECK(a.options->units == "cm");
  CHECK(a.options->density == 0.9);
  CHECK(a.options->out == "s.json");
  const auto b = parse(parseImport, {"import", "p.dxf", "--walls=PLAN", "--out=s.json"});  // a layer named as the argument
  REQUIRE(b.options.has_value());
  CHECK(b.options->walls == std::vector<std::string>{"PLAN"});
  CHECK(b.options->obstacles.empty());
  CHECK(b.options->exits.empty());
  CHECK(b.options->units.empty());
  CHECK(b.options->density == 1);
  helps(parse(parseImport, {"import", "--help"}), "usage: throng import PLAN.dxf --walls LAYER...",
        {"--walls LAYER...", "--obstacles LAYER...", "--exits LAYER...", "--units U", "--density D", "--out SCENE.json"});
}

TEST_CASE("the visualizer refuses bad numbers, sizes and flags of record, and parses good ones") {
  for (const char* v : {"3x", "0", "-2", "inf", "nan", "1000001", "2.5"})
    refused(parse(parseViz, {"throng", "--bench-frames", v}), "throng", "--bench-frames: expects a whole number");
  for (const char* v : {"1", "10000001", "2.5", "1e6", "inf"})
    refused(parse(parseViz, {"throng", "--agents", v}), "throng", "--agents: expects a whole number");
  for (const char* v : {"100", "15x720", "1280x16385", "1280x", "x720", "1280x720x", "-1280x720", "1280.0x720"})
    refused(parse(parseViz, {"throng", "--size", v}), "throng", "--size: expects WxH");
  refused(parse(parseViz, {"throng", "--bench-frames"}), "throng", "--bench-frames");
  for (const char* v : {"-1", "x", "1.5", "100000001"})
    refused(parse(parseViz, {"throng", "--select", v}), "throng", "--select: expects a whole number in [0, 100000000]");
  CHECK(parse(parseViz, {"throng", "door", "--select", "7"}).options->select == 7);
  CHECK(parse(parseViz, {"throng", "door"}).options->select == -1);
  refused(parse(parseViz, {"throng", "--backend", "gpu"}), "throng", "--backend");
  refused(parse(parseViz, {"throng", "--fps", "30"}), "throng", "unknown option '--fps'");
  refused(parse(parseViz, {"throng", "ring", "door"}), "throng", "unexpected argument 'door'");
  refused(parse(parseViz, {"throng", "--set", "count"}), "throng", "--set: expected name=value");

  const auto d = parse(parseViz, {"throng"});
  REQUIRE(d.options);
  CHECK(d.options->scene == "ring");
  CHECK_FALSE(d.options->sceneGiven);
  CHECK(d.options->width == 1280);
  CHECK(d.options->height == 720);
  CHECK(d.options->benchFrames == 0);
  CHECK(d.options->agents == 0);
  CHECK(d.options->trails);
  CHECK_FALSE(d.options->paused);
  CHECK_FALSE(d.options->headless);
  CHECK(d.options->backend == throng::BackendKind::Auto);

  const auto p = parse(parseViz, {"throng", "door", "--size", "640x480", "--bench-frames=3", "--agents", "1000000",
                                  "--no-trails", "--paused", "--headless", "--backend=cuda", "--set", "doorWidth=2"});
  REQUIRE(p.options);
  CHECK(p.options->scene == "door");
  CHECK(p.options->sceneGiven);
  CHECK(p.options->width == 640);
  CHECK(p.options->height == 480);
  CHECK(p.options->benchFrames == 3);
  CHECK(p.options->agents == 1000000);
  CHECK_FALSE(p.options->trails);
  CHECK(p.options->paused);
  CHECK(p.options->headless);
  CHECK(p.options->backend == throng::BackendKind::Cuda);
  CHECK(p.options->sets == std::vector<std::string>{"doorWidth=2"});
}

TEST_CASE("record refuses bad numbers, odd sizes, missing required flags and the visualizer's flags") {
  struct Bad {
    const char* flag;
    const char* value;
  };
  for (const Bad& b : {Bad{"--seconds", "inf"}, Bad{"--seconds", "nan"}, Bad{"--seconds", "-1"}, Bad{"--seconds", "0"},
                       Bad{"--seconds", "3601"}, Bad{"--seconds", "2x"}, Bad{"--fps", "0"}, Bad{"--fps", "241"},
                       Bad{"--fps", "29.97"}, Bad{"--rate", "0.2"}, Bad{"--rate", "9"}, Bad{"--rate", "nan"},
                       Bad{"--agents", "1"}}) {
    INFO(b.flag << " " << b.value);
    refused(parse(parseRecord, {"record", "ring", "--seconds", "1", "--out", "a.mp4", b.flag, b.value}), "throng record",
            std::string(b.flag) + ": expects a");
  }
  refused(parse(parseRecord, {"record", "ring", "--seconds", "1", "--out", "a.mp4", "--size", "321x240"}),
          "throng record", "--size: expects even numbers");
  refused(parse(parseRecord, {"record", "ring", "--seconds", "1", "--out", "a.mp4", "--size", "8x8"}), "throng record",
          "--size: expects WxH");
  refused(parse(parseRecord, {"record", "ring", "--out", "a.mp4"}), "throng record", "--seconds is required");
  refused(parse(parseRecord, {"record", "ring", "--seconds", "1"}), "throng record", "--out is required");
  refused(parse(parseRecord, {"record", "--seconds", "1", "--out", "a.mp4"}), "throng record", "missing SCENE");
  refused(parse(parseRecord, {"record", "ring", "--seconds", "1", "--out"}), "throng record", "--out");
  refused(parse(parseRecord, {"record", "ring", "--seconds", "1", "--out", "a.mp4", "--bench-frames", "3"}),
          "throng record", "unknown option '--bench-frames'");

  const auto p = parse(parseRecord, {"record", "ring", "--seconds", "2.5", "--out=a.mp4", "--fps", "60", "--rate", "0.5",
                                     "--size", "320x240", "--no-trails", "--set", "count=20", "--backend", "cpu"});
  REQUIRE(p.options);
  CHECK(p.options->scene == "ring");
  CHECK(p.options->seconds == 2.5);
  CHECK(p.options->out == "a.mp4");
  CHECK(p.options->fps == 60);
  CHECK(p.options->rate == 0.5);
  CHECK(p.options->width == 320);
  CHECK(p.options->height == 240);
  CHECK_FALSE(p.options->trails);
  CHECK(p.options->sets == std::vector<std::string>{"count=20"});
  CHECK(p.options->backend == throng::BackendKind::Cpu);
  // --agents stands in for SCENE; fps and rate keep their defaults.
  const auto a = parse(parseRecord, {"record", "--agents", "100", "--seconds", "3600", "--out", "b.mp4"});
  REQUIRE(a.options);
  CHECK_FALSE(a.options->sceneGiven);
  CHECK(a.options->agents == 100);
  CHECK(a.options->seconds == 3600);
  CHECK(a.options->fps == 30);
  CHECK(a.options->rate == 1.0);
}

TEST_CASE("each --help is generated from the declarations: usage first, every flag with its bounds") {
  const auto run = parse(parseRun, {"run", "--help"});
  helps(run, "usage: throng run SCENE",
        {"--steps N", "--seconds S", "--dt S", "--seed K", "--set NAME=VALUE", "--threads N", "--backend KIND",
         "--export FILE", "--format F", "--summary FILE", "-q,--quiet", "-h,--help"});
  for (const char* bound : {"[0, 1000000000]", "(0, 1e6]", "(1e-6, 10]", "[0, 1024]"})
    CHECK_MESSAGE(run.text.find(bound) != std::string::npos, bound);
  helps(parse(parseRun, {"run", "-h"}), "usage: throng run SCENE", {"--steps N"});
  // --help wins over a missing SCENE
  helps(parse(parseRun, {"run", "--steps", "3", "--help"}), "usage: throng run SCENE", {"--steps N"});

  const auto check = parse(parseCheck, {"check", "--help"});
  helps(check, "usage: throng check FILE", {"--radius R", "--scene SCENE", "--set NAME=VALUE", "--tolerance T"});
  CHECK(check.text.find("(0, 1e6]") != std::string::npos);
  helps(parse(parseScenes, {"scenes", "-h"}), "usage: throng scenes", {"-h,--help"});

  const auto viz = parse(parseViz, {"throng", "--help"});
  helps(viz, "usage: throng [SCENE]",
        {"--set NAME=VALUE", "--size WxH", "--agents N", "--no-trails", "--backend KIND", "--bench-frames N", "--paused",
         "--headless"});
  for (const char* sub : {"throng run SCENE", "throng check FILE", "throng scenes", "throng record SCENE",
                          "throng campaign SPEC.json"})
    CHECK_MESSAGE(viz.text.find(sub) != std::string::npos, sub);  // the top-level help lists the subcommands
  for (const char* bound : {"[16, 16384]", "[2, 10000000]", "[1, 1000000]"})
    CHECK_MESSAGE(viz.text.find(bound) != std::string::npos, bound);

  const auto record = parse(parseRecord, {"record", "--help"});
  helps(record, "usage: throng record SCENE --seconds S --out FILE.mp4",
        {"--seconds S", "--out FILE", "--fps N", "--rate R", "--size WxH", "--agents N", "--backend KIND"});
  for (const char* bound : {"(0, 3600]", "[1, 240]", "[0.25, 8]"})
    CHECK_MESSAGE(record.text.find(bound) != std::string::npos, bound);
}

TEST_CASE("splitAssignment takes name=finite-number only, and usageError is one line") {
  const auto a = splitAssignment("doorWidth=2.4");
  REQUIRE(a);
  CHECK(a->first == "doorWidth");
  CHECK(a->second == 2.4);
  CHECK(splitAssignment("x=-1e3")->second == -1000.0);
  for (const char* bad : {"doorWidth", "=1", "x=", "x=inf", "x=nan", "x=1x", "x= 1"}) CHECK_FALSE(splitAssignment(bad));
  CHECK(usageError("throng run", "a\nb") == "throng run: a b (see throng run --help)\n");
}

TEST_CASE("--set checks a setting against the settings table at parse time, in every subcommand that takes it") {
  using namespace throng;
  for (const SettingInfo& i : settingsTable()) {
    for (const settingtest::Probe& p : settingtest::probes(i)) {
      const std::string set = settingtest::cat({i.name, "=", p.text});
      INFO(set, (p.inside ? " (inside)" : " (outside)"));
      const auto run = parse(parseRun, {"run", "door", "--set", set.c_str()});
      const auto viz = parse(parseViz, {"throng", "door", "--set", set.c_str()});
      const auto record = parse(parseRecord, {"record", "door", "--seconds", "1", "--out", "x.mp4", "--set", set.c_str()});
      if (p.inside) {
        REQUIRE(run.options);
        CHECK(run.options->sets == std::vector<std::string>{set});
        CHECK(viz.options);
        CHECK(record.options);
      } else {
        refused(run, "throng run", "--set");
        refused(viz, "throng", "--set");
        refused(record, "throng record", "--set");
        CHECK(run.text.find(i.name) != std::string::npos);
      }
    }
  }
  // A knob (not a setting) still takes any finite number: the scene checks it.
  CHECK(parse(parseRun, {"run", "door", "--set", "doorWidth=1e9"}).options);
  // --dt and --threads are maxStep and threads, with the table's bounds.
  const auto help = parse(parseRun, {"run", "--help"}).text;
  CHECK(help.find("in " + formatLimits(*findSetting("maxStep"))) != std::string::npos);
  CHECK(help.find("N in " + formatLimits(*findSetting("threads"))) != std::string::npos);
  for (const SettingInfo& i : settingsTable()) CHECK_MESSAGE(help.find(i.name) != std::string::npos, i.name);
}
