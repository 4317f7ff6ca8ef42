// `throng verify`: the verification suite. A test is a shipped scene with a
// "verify" (SceneVerify: the test's name, its criterion in words, and checks
// on figures of its run), found among the shipped scenes and in a verify/
// folder beside them. Each runs as `throng run SCENE` does without --steps
// (to its duration, or until everyone has arrived), with the gate on, once
// per model and seed; a check reads a figure of the run's summary (a
// summary field, or MEASUREMENT.FIGURE) and holds it to its bounds on every
// seed, or holds the ratio of its mean to another scene's to them. A test
// with a "diagram" measures the ring corridor's fundamental diagram instead
// (RiMEA 4). With --workers or --scheduler the scene runs go first to Dask
// as campaigns (Python's throng._campaign), and the table is made from
// their summaries, which are the runs' own, bit for bit.
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "args.hpp"
#include "cli.hpp"
#include "run_core.hpp"
#include "signals.hpp"
#include "throng/diagram.hpp"
#include "throng/scene.hpp"
#include "throng/measure.hpp"
#include "throng/output_file.hpp"
#include "throng/settings.hpp"

namespace throng::cli {

namespace {

namespace fs = std::filesystem;

/// Every verification scene by name: the shipped scenes and the verify/
/// folder of each scene directory (the first directory that has a name wins).
std::map<std::string, std::string> verifyScenes() {
  std::map<std::string, std::string> out;
  for (const auto& [name, path] : listScenes()) out.emplace(name, path);
  for (const std::string& d : sceneDirectories()) {
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(d) / "verify", ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json") out.emplace(it->path().stem().string(), it->path().string());
  }
  return out;
}

/// One run's summary, or why there is none; with a report, each line's
/// forward crossing times, s ({"door": [4.1, 4.6, ...]}).
struct Outcome {
  nlohmann::json summary;
  std::string error;
  nlohmann::json crossings = nlohmann::json::object();
};

/// A fundamental diagram's figures as a summary (SceneVerify::diagram):
/// {"measurements": [{"name": "diagram", "0.5": speed, ..., "falling": 0 or
/// 1}, {"name": "weidmann", "0.5": speed, ...}, {"name": "placed", "0.5":
/// the density placed, ...}]}; null when stopped.
nlohmann::json diagramSummary(const Settings& settings, const std::vector<double>& densities) {
  nlohmann::json speeds = {{"name", "diagram"}}, people = {{"name", "weidmann"}}, placed = {{"name", "placed"}};
  bool falling = true;
  double last = 0;
  for (std::size_t k = 0; k < densities.size(); ++k) {
    if (stopRequested()) return nullptr;
    const RingCorridor::Sample p = RingCorridor::measure(densities[k], settings);
    const std::string d = diagramFigureName(densities[k]);
    speeds[d] = p.speed;
    people[d] = weidmannSpeed(p.density);
    placed[d] = p.density;
    if (k > 0 && !(p.speed < last)) falling = false;
    last = p.speed;
  }
  speeds["falling"] = falling ? 1 : 0;
  return {{"measurements", {speeds, people, placed}}};
}

/// The file of the scene a check of `test` compares with (VerifyCheck::
/// ratioTo): the one of that name beside it, else the verification scene of
/// that name; empty when neither is there.
std::string ratioFile(const Scene& test, const std::string& name, const std::map<std::string, std::string>& all) {
  const std::string beside = (fs::path(test.file()).parent_path() / (name + ".json")).string();
  if (fs::is_regular_file(beside)) return beside;
  return all.count(name) ? all.at(name) : "";
}

class Runner {
 public:
  explicit Runner(const VerifyOptions& o) : o_(o) {}

  /// Runs every scene run the tests need (each model and seed, and the
  /// scenes their ratios name) first, as campaigns on Dask (Python's
  /// throng._campaign: the runs `throng campaign` makes, in parallel), and
  /// caches each summary, or the error of a run that failed. The
  /// fundamental diagrams run here, and with a report so do the first
  /// seed's runs, whose line crossings the report draws. False, with one
  /// line on stderr, when a campaign could not run.
  bool prefetch(const std::vector<std::pair<std::string, Scene>>& tests, const std::map<std::string, std::string>& all) {
    // The scene files by their first seed and count of seeds: one campaign each.
    std::map<std::pair<std::uint64_t, int>, std::map<std::string, std::string>> groups;  // canonical -> as given
    for (const auto& [name, scene] : tests) {
      const SceneVerify& v = *scene.spec().verify;
      if (!v.diagram.empty()) continue;
      const int seeds = o_.seeds > 0 ? o_.seeds : v.seeds;
      std::vector<std::string> files = {scene.file()};
      for (const VerifyCheck& c : v.checks)
        if (!c.ratioTo.empty()) files.push_back(ratioFile(scene, c.ratioTo, all));
      for (const std::string& f : files) {
        std::string ignored;  // the table says why
        std::optional<Scene> s = f.empty() ? std::nullopt : Scene::load(f, &ignored);
        if (!s) continue;
        std::error_code ec;
        const std::string canonical = fs::canonical(f, ec).string();
        if (!ec) groups[{s->spec().settings.seed, seeds}].emplace(canonical, f);
      }
    }
    const int skip = o_.report.empty() ? 0 : 1;  // the report's seed runs here
    for (const auto& [group, files] : groups) {
      const auto [base, seeds] = group;
      if (seeds <= skip) continue;
      if (!campaign(files, base, skip, seeds)) return false;
    }
    return true;
  }

  /// The summary of `path` under `model` with seed `k` of the scene's and
  /// the knobs `knobs` ("doorWidth=1.2"), cached.
  const Outcome& run(const std::string& path, const std::string& model, int k,
                     const std::vector<std::string>& knobs = {}) {
    std::string knobKey;
    for (const std::string& s : knobs) knobKey += s + ";";
    const auto key = std::make_tuple(path, model, k, knobKey);
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    Outcome out;
    std::string err;
    std::optional<Scene> scene = Scene::load(path, &err);
    std::vector<std::string> sets = knobs;
    sets.push_back("model=" + model);
    if (scene) sets.push_back("seed=" + std::to_string(scene->spec().settings.seed + static_cast<std::uint64_t>(k)));
    if (o_.threads) sets.push_back("threads=" + std::to_string(*o_.threads));
    for (const std::string& s : sets)
      if (scene && !scene->assign(s, &err)) scene.reset();
    if (!scene) {
      out.error = err;
      return cache_[key] = out;
    }
    if (scene->spec().verify && !scene->spec().verify->diagram.empty()) {
      out.summary = diagramSummary(scene->spec().settings, scene->spec().verify->diagram);
      if (out.summary.is_null()) out.error = "interrupted";
      return cache_[key] = out;
    }
    const std::optional<std::uint64_t> steps = planSteps(scene->spec(), std::nullopt, std::nullopt, &err);
    if (!steps) {
      out.error = err;
      return cache_[key] = out;
    }
    ++ranHere_;
    SceneRun r(*scene, SceneRun::Options{.gate = true});
    std::vector<double> ms;
    const LoopEnd end = runLoop(r, *steps, false, nullptr, ms, [] { return stopRequested(); }, {}, &err);
    if (end != LoopEnd::Done) {
      out.error = end == LoopEnd::Stopped ? "interrupted" : err;
      return cache_[key] = out;
    }
    out.summary = nlohmann::json::parse(summaryJson(*scene, r, ms));
    if (!o_.report.empty()) {
      const MeasureSeries& series = r.crowd().measurements();
      for (const Measurement& m : series.measurements)
        if (m.kind == MeasureKind::Line) out.crossings[m.name] = nlohmann::json::array();
      for (const Crossing& c : series.crossings)
        if (c.direction > 0) out.crossings[series.measurements[c.measurement].name].push_back(c.time);
    }
    return cache_[key] = out;
  }

  /// Scene runs made in this process, and those read back from Dask.
  std::size_t ranHere() const { return ranHere_; }
  std::size_t ranOnDask() const { return ranOnDask_; }

 private:
  /// One campaign: `files` (canonical -> as the tests name them) under each
  /// model, at seeds base + first to base + seeds - 1; each run's summary
  /// (or error) cached under the file's name as given.
  bool campaign(const std::map<std::string, std::string>& files, std::uint64_t base, int first, int seeds) {
    std::string dirTemplate = (fs::temp_directory_path() / "throng-verify-XXXXXX").string();
    if (!mkdtemp(dirTemplate.data())) {
      std::fprintf(stderr, "throng verify: cannot make a folder for the campaign in %s: %s\n",
                   fs::temp_directory_path().c_str(), std::strerror(errno));
      return false;
    }
    const fs::path dir = dirTemplate;
    struct Cleanup {
      fs::path dir;
      ~Cleanup() {
        std::error_code ec;
        fs::remove_all(dir, ec);
      }
    } cleanup{dir};
    nlohmann::json scenes = nlohmann::json::array();
    for (const auto& entry : files) scenes.push_back({{"scene", entry.first}, {"settings", {{"model", o_.models}}}});
    nlohmann::json spec = {{"name", "throng verify"},
                                 {"scenes", scenes},
                                 {"seeds", {{"start", base + static_cast<std::uint64_t>(first)}, {"count", seeds - first}}},
                                 {"trajectory", "none"},
                                 {"backend", "cpu"},
                                 {"out", (dir / "out").string()}};
    if (o_.threads && *o_.threads > 0) spec["threads"] = *o_.threads;  // else one per run: the workers are the parallelism
    std::string err;
    const std::string specPath = (dir / "verify.json").string();
    if (!writeFileWhole(specPath, spec.dump(1) + "\n", &err)) {
      std::fprintf(stderr, "throng verify: %s\n", err.c_str());
      return false;
    }
    std::vector<std::string> args = {specPath};
    const std::vector<std::string> dask = o_.dask.args();
    args.insert(args.end(), dask.begin(), dask.end());
    const int status = runPythonMain("throng verify", "_campaign", args,
                                     "runs on Dask need Python 3 with the throng package and dask", &err);
    if (status < 0) {
      std::fprintf(stderr, "throng verify: %s\n", err.c_str());
      return false;
    }
    if (stopRequested()) return false;
    // Every row, failed ones too (status 1 when any run failed): the table says which.
    std::ifstream manifest(dir / "out" / "manifest.jsonl");
    if (!manifest) {
      std::fprintf(stderr, "throng verify: the campaign on Dask ended (status %d) with no manifest\n", status);
      return false;
    }
    std::size_t rows = 0;
    for (std::string line; std::getline(manifest, line);) {
      const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
      if (row.is_discarded() || !row.contains("file") || !files.count(row["file"].get<std::string>())) continue;
      const std::string& path = files.at(row["file"].get<std::string>());
      const std::string model = row["settings"]["model"];
      const int k = static_cast<int>(row["seed"].get<std::uint64_t>() - base);
      Outcome out;
      if (row["status"] == "ok") {
        std::ifstream in(dir / "out" / row["summary"].get<std::string>());
        out.summary = nlohmann::json::parse(in, nullptr, false);
        if (out.summary.is_discarded()) out.error = "the run's summary on Dask cannot be read";
      } else {
        out.error = row.value("error", std::string("failed on Dask"));
      }
      cache_[std::make_tuple(path, model, k, std::string())] = out;
      ++rows, ++ranOnDask_;
    }
    if (rows == 0) {
      std::fprintf(stderr, "throng verify: the campaign on Dask ended (status %d) with no runs\n", status);
      return false;
    }
    return true;
  }

  const VerifyOptions& o_;
  std::size_t ranHere_ = 0, ranOnDask_ = 0;
  std::map<std::tuple<std::string, std::string, int, std::string>, Outcome> cache_;
};

/// A figure of a summary: a field ("allArrivedTime"), or a measurement's
/// ("door.meanFlow"); nullopt when absent or null (not all arrived).
std::optional<double> figureOf(const nlohmann::json& s, const std::string& figure) {
  const std::size_t dot = figure.find('.');
  const nlohmann::json* v = nullptr;
  if (dot == std::string::npos) {
    if (s.contains(figure)) v = &s[figure];
  } else {
    for (const nlohmann::json& m : s["measurements"])
      if (m["name"] == figure.substr(0, dot) && m.contains(figure.substr(dot + 1))) v = &m[figure.substr(dot + 1)];
  }
  if (!v || v->is_null()) return std::nullopt;
  if (v->is_boolean()) return v->get<bool>() ? 1.0 : 0.0;
  if (!v->is_number()) return std::nullopt;
  return v->get<double>();
}

std::string bounds(const VerifyCheck& c) {
  const bool lo = c.min > -1e300, hi = c.max < 1e300;
  char b[64];
  if (!lo && !hi) return "-";  // shown only
  if (lo && hi && c.min == c.max) std::snprintf(b, sizeof b, "= %.4g", c.min);
  else if (lo && hi) std::snprintf(b, sizeof b, "[%.4g, %.4g]", c.min, c.max);
  else if (lo) std::snprintf(b, sizeof b, ">= %.4g", c.min);
  else std::snprintf(b, sizeof b, "<= %.4g", c.max);
  return b;
}

/// The door widths the report's flow against width runs `door` at, m.
constexpr double kReportWidths[] = {0.6, 0.8, 1.0, 1.2, 1.6, 2.0, 2.4};
/// Each model's fundamental diagram, as RiMEA 4's test (verify/rimea-4)
/// measures it: {model: [{density, speed, weidmann}]}, the density as
/// placed. Empty without that test; null when stopped.
nlohmann::json fundamentalDiagram(const VerifyOptions& o, Runner& runner, const std::map<std::string, std::string>& all) {
  nlohmann::json out = nlohmann::json::object();
  const auto test = all.find("rimea-4");
  if (test == all.end()) return out;
  for (const std::string& model : o.models) {
    const Outcome& run = runner.run(test->second, model, 0);
    if (stopRequested()) return nullptr;
    if (!run.error.empty() || !run.summary.contains("measurements")) return nlohmann::json::object();
    const nlohmann::json& m = run.summary["measurements"];
    nlohmann::json points = nlohmann::json::array();
    for (const auto& [d, speed] : m[0].items())
      if (d != "name" && d != "falling")
        points.push_back({{"density", m[2][d]}, {"speed", speed}, {"weidmann", m[1][d]}});
    std::sort(points.begin(), points.end(),
              [](const nlohmann::json& a, const nlohmann::json& b) { return a["density"] < b["density"]; });
    out[model] = points;
  }
  return out;
}

/// What a report is made of, gathered while the suite runs.
struct ReportData {
  nlohmann::json tests = nlohmann::json::array();  ///< {name, test, says, image, curvesImage, curves: {model: {line: [t]}}}
  nlohmann::json rows = nlohmann::json::array();   ///< one per check, model: {test, model, figure, values, value, min, max, verdict}
};

/// Runs throng._report's main on `dir` ($THRONG_PYTHON, the build tree's
/// package first); its exit status, or -1 with *why when it could not start.
int reportFigures(const std::string& dir, std::string* why) {
  return runPythonMain("throng verify: no figures", "_report", {dir}, "the figures need matplotlib", why);
}

/// The report in `dir`: the flow through `door` against its width under each
/// model, results.json, the figures (Python) and report.md. False with one
/// line on stderr when a file cannot be written; missing figures are said
/// and the rest is written.
bool writeReport(const VerifyOptions& o, ReportData& data, Runner& runner, const std::map<std::string, std::string>& all,
                 const std::string& command) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(o.report) / "img", ec);
  if (ec) {
    std::fprintf(stderr, "throng verify: cannot make %s: %s\n", (fs::path(o.report) / "img").c_str(), ec.message().c_str());
    return false;
  }
  // Flow against width: the shipped door at each width, its line's mean flow.
  nlohmann::json widths = nlohmann::json::object();
  const std::map<std::string, std::string> scenes = listScenes();
  if (const auto door = scenes.find("door"); door != scenes.end()) {
    for (const std::string& model : o.models) {
      nlohmann::json points = nlohmann::json::array();
      for (const double w : kReportWidths) {
        char knob[48];
        std::snprintf(knob, sizeof knob, "doorWidth=%g", w);
        const Outcome& run = runner.run(door->second, model, 0, {knob});
        if (stopRequested()) return false;
        if (const auto f = run.error.empty() ? figureOf(run.summary, "door.meanFlow") : std::nullopt)
          points.push_back({{"width", w}, {"flow", *f}});
      }
      widths[model] = points;
    }
  }
  // The fundamental diagram: the ring corridor at each density.
  const nlohmann::json diagram = fundamentalDiagram(o, runner, all);
  if (diagram.is_null()) return false;
  const nlohmann::json results = {{"command", command}, {"models", o.models}, {"tests", data.tests},
                                  {"rows", data.rows}, {"flowWidth", widths}, {"fundamentalDiagram", diagram}};
  std::string err;
  const std::string resultsPath = (fs::path(o.report) / "results.json").string();
  if (!writeFileWhole(resultsPath, results.dump(1) + "\n", &err)) {
    std::fprintf(stderr, "throng verify: %s\n", err.c_str());
    return false;
  }
  const int figures = reportFigures(o.report, &err);
  if (figures < 0) std::fprintf(stderr, "throng verify: no figures: %s\n", err.c_str());
  const auto have = [&](const std::string& image) {
    return figures == 0 && !image.empty() && fs::is_regular_file(fs::path(o.report) / "img" / image, ec);
  };
  // report.md: the table, then each test with its criterion and figures.
  std::string md = "# throng verify\n\n`" + command + "`\n\n";
  md += "Each test's figures and verdicts, one row per check and model (see docs/verify.md for what each test "
        "is and why a model falls short).\n\n| test | model | figure | value | bounds | verdict |\n"
        "| --- | --- | --- | --- | --- | --- |\n";
  const auto cell = [](std::string s) {
    for (char& c : s)
      if (c == '|' || c == '\n') c = ' ';
    return s;
  };
  for (const nlohmann::json& r : data.rows)
    md += "| " + cell(r["test"]) + " | " + cell(r["model"]) + " | " + cell(r["figure"]) + " | " + cell(r["value"]) +
          " | " + cell(r["bounds"]) + " | " + cell(r["verdict"]) + " |\n";
  for (const nlohmann::json& t : data.tests) {
    md += "\n## " + cell(t["test"]) + " (`" + cell(t["name"]) + "`)\n\n" + cell(t["says"]) + "\n";
    if (have(t["image"])) md += "\n![each figure against its bounds](img/" + t["image"].get<std::string>() + ")\n";
    if (have(t["curvesImage"]))
      md += "\n![walkers past each line over time](img/" + t["curvesImage"].get<std::string>() + ")\n";
  }
  if (!widths.empty()) {
    md += "\n## Flow against width\n\nThe shipped `door` scene at widths 0.6 to 2.4 m, its door line's mean flow "
          "over the width (walkers per metre per second), against 1.6 to 2.0 per m per s for people "
          "(docs/walking.md).\n";
    if (have("flow-width.png")) md += "\n![specific flow against the door's width](img/flow-width.png)\n";
  }
  if (!diagram.empty()) {
    md += "\n## The fundamental diagram\n\nThe mean speed in a closed ring corridor 2 m wide (RiMEA test 4's "
          "set-up, as the test verify/rimea-4 runs it: walkers of 0.2 m wishing 1.34 m/s, Settings::pedestrian()) against Weidmann's (1993), m/s, "
          "at the density placed, per m² (docs/walking.md).\n\n| density | Weidmann |";
    for (const auto& [model, points] : diagram.items()) md += " " + cell(model) + " |";
    md += "\n| --- | --- |";
    for (std::size_t k = 0; k < diagram.size(); ++k) md += " --- |";
    md += "\n";
    for (std::size_t k = 0; k < diagram.begin().value().size(); ++k) {
      const nlohmann::json& first = diagram.begin().value()[k];
      char line[64];
      std::snprintf(line, sizeof line, "| %.2f | %.2f |", first["density"].get<double>(),
                    first["weidmann"].get<double>());
      md += line;
      for (const auto& [model, points] : diagram.items()) {
        const double v = points[k]["speed"], w = points[k]["weidmann"];
        if (w > 0) std::snprintf(line, sizeof line, " %.2f (%+.0f%%) |", v, 100 * (v / w - 1));
        else std::snprintf(line, sizeof line, " %.2f |", v);
        md += line;
      }
      md += "\n";
    }
    if (have("fundamental-diagram.png"))
      md += "\n![each model's mean speed against Weidmann's](img/fundamental-diagram.png)\n";
  }
  if (figures != 0)
    md += "\nNo figures: the Python that makes them (matplotlib) did not run; `results.json` holds every value.\n";
  if (!writeFileWhole((fs::path(o.report) / "report.md").string(), md, &err)) {
    std::fprintf(stderr, "throng verify: %s\n", err.c_str());
    return false;
  }
  return true;
}

}  // namespace

int runVerify(int argc, char** argv) {
  const Parsed<VerifyOptions> p = parseVerify(argc, argv);
  if (!p.options) return p.finish();
  const VerifyOptions& o = *p.options;
  for (const std::string& m : o.models) {
    const std::vector<std::string> known = modelNames();
    if (std::find(known.begin(), known.end(), m) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      std::fputs(usageError("throng verify", "--models: no model \"" + m + "\" (models: " + list + ")").c_str(), stderr);
      return 2;
    }
  }
  // The tests: every verification scene with a "verify", or those named.
  const std::map<std::string, std::string> all = verifyScenes();
  std::vector<std::pair<std::string, Scene>> tests;
  std::string err;
  for (const auto& [name, path] : all) {
    if (!o.tests.empty() && std::find(o.tests.begin(), o.tests.end(), name) == o.tests.end()) continue;
    std::optional<Scene> s = Scene::load(path, &err);
    if (!s) {
      std::fprintf(stderr, "throng verify: %s\n", err.c_str());
      return 1;
    }
    if (s->spec().verify) tests.emplace_back(name, *s);
    else if (!o.tests.empty()) {
      std::fputs(usageError("throng verify", "scene " + name + " is not a test (it has no \"verify\")").c_str(), stderr);
      return 2;
    }
  }
  for (const std::string& t : o.tests)
    if (!all.count(t)) {
      std::fputs(usageError("throng verify", "no test named \"" + t + "\"").c_str(), stderr);
      return 2;
    }
  if (tests.empty()) {
    std::fputs("throng verify: no verification scene found (set THRONG_SCENES)\n", stderr);
    return 1;
  }
  // In the guideline's order: rimea-2 before rimea-10 (a name's digits as a number).
  const auto key = [](const std::string& n) {
    const std::size_t d = n.find_first_of("0123456789");
    const std::size_t e = d == std::string::npos ? n.size() : n.find_first_not_of("0123456789", d);
    const long number = d == std::string::npos ? -1 : std::stol(n.substr(d, std::min<std::size_t>(e - d, 9)));
    return std::tuple{n.substr(0, d), number, n.substr(e == std::string::npos ? n.size() : e)};
  };
  std::stable_sort(tests.begin(), tests.end(), [&](const auto& a, const auto& b) { return key(a.first) < key(b.first); });
  installStopHandlers();
  Runner runner(o);
  if (o.dask.given() && !runner.prefetch(tests, all)) return stopRequested() ? 130 : 1;
  ReportData report;
  Progress progress(true);
  std::size_t failed = 0, passed = 0, done = 0;
  const std::size_t total = tests.size() * o.models.size();
  std::printf("%-12s %-10s %-9s %-40s %-28s %-16s %s\n", "test", "", "model", "figure", "value", "bounds", "verdict");
  for (const auto& [name, scene] : tests) {
    const SceneVerify& v = *scene.spec().verify;
    const int seeds = o.seeds > 0 ? o.seeds : v.seeds;
    nlohmann::json curves = nlohmann::json::object();
    for (const std::string& model : o.models) {
      progress.update(static_cast<double>(done) / static_cast<double>(total), false, name + " under " + model);
      ++done;
      for (const VerifyCheck& c : v.checks) {
        std::vector<double> values;
        std::string problem;
        for (int k = 0; k < seeds && problem.empty(); ++k) {
          const Outcome& run = runner.run(scene.file(), model, k);
          if (!run.error.empty()) problem = run.error;
          else if (const auto f = figureOf(run.summary, c.figure)) {
            if (c.over.empty()) {
              values.push_back(*f);
            } else if (const auto d = figureOf(run.summary, c.over); d && *d != 0) {
              values.push_back(*f / *d);
            } else {
              problem = c.over + (d ? " is 0" : " is not there");
            }
          } else {
            problem = c.figure + " is not there (not all arrived?)";
          }
        }
        // A ratio: the figure's mean here over its mean in the other scene.
        double mean = 0;
        for (double x : values) mean += x;
        if (!values.empty()) mean /= static_cast<double>(values.size());
        std::string value;
        std::vector<double> judged = values;  // what the bounds hold: the values, or the ratio
        bool ok = problem.empty();
        if (ok && !c.ratioTo.empty()) {
          const std::string other = ratioFile(scene, c.ratioTo, all);
          double theirs = 0;
          int n = 0;
          for (int k = 0; k < seeds && ok && !other.empty(); ++k) {
            const Outcome& run = runner.run(other, model, k);
            const auto f = run.error.empty() ? figureOf(run.summary, c.figure) : std::nullopt;
            if (!f) ok = false, problem = c.ratioTo + ": " + (run.error.empty() ? c.figure + " is not there" : run.error);
            else theirs += *f, ++n;
          }
          if (other.empty()) ok = false, problem = "no scene \"" + c.ratioTo + "\" to compare with";
          if (ok && n > 0 && theirs != 0) {
            const double ratio = mean / (theirs / n);
            char b[96];
            std::snprintf(b, sizeof b, "%.4g / %.4g = %.4g", mean, theirs / n, ratio);
            value = b;
            judged = {ratio};
            ok = ratio >= c.min && ratio <= c.max;
          } else if (ok) {
            ok = false, problem = c.ratioTo + ": " + c.figure + " is 0";
          }
        } else if (ok && c.percentile > 0) {
          // The percentile over the seeds is what the bounds hold.
          const double q = nearestRankPercentile(values, c.percentile);
          const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
          char b[128];
          std::snprintf(b, sizeof b, "p%g %.4g of %zu (%.4g to %.4g)", c.percentile, q, values.size(), *lo, *hi);
          value = b;
          judged = {q};
          ok = q >= c.min && q <= c.max;
        } else if (ok) {
          const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
          char b[96];
          if (values.size() == 1) std::snprintf(b, sizeof b, "%.4g", mean);
          else std::snprintf(b, sizeof b, "%.4g (%.4g to %.4g)", mean, *lo, *hi);
          value = b;
          for (double x : values) ok &= x >= c.min && x <= c.max;
        }
        if (!problem.empty()) value = problem;
        const char* verdict = !v.verdict ? "shown" : ok ? "pass" : "FAIL";
        if (v.verdict) (ok ? passed : failed) += 1;
        std::string figure = c.figure;
        if (!c.ratioTo.empty()) figure.append(" / ").append(c.ratioTo);
        if (!c.over.empty()) figure.append(" / ").append(c.over);
        if (c.percentile > 0) {
          char b[32];
          std::snprintf(b, sizeof b, " (p%g)", c.percentile);
          figure.append(b);
        }
        progress.clear();
        std::printf("%-12s %-10s %-9s %-40s %-28s %-16s %s\n", name.c_str(), v.test.c_str(), model.c_str(),
                    figure.c_str(), value.c_str(), bounds(c).c_str(), verdict);
        std::fflush(stdout);
        if (!o.report.empty()) {
          nlohmann::json row = {{"test", name},     {"model", model},        {"figure", figure},
                                {"value", value},   {"bounds", bounds(c)},   {"verdict", verdict},
                                {"values", problem.empty() ? judged : std::vector<double>{}},
                                {"min", nullptr},   {"max", nullptr}};
          if (c.min > -1e300) row["min"] = c.min;
          if (c.max < 1e300) row["max"] = c.max;
          report.rows.push_back(row);
        }
        if (stopRequested()) {
          progress.clear();
          std::fprintf(stderr, "throng verify: interrupted\n");
          return 130;
        }
      }
      if (!o.report.empty()) curves[model] = runner.run(scene.file(), model, 0).crossings;
    }
    if (!o.report.empty()) {
      const std::string stem = pathComponent(name);
      report.tests.push_back({{"name", name}, {"test", v.test}, {"says", v.says}, {"image", stem + ".png"},
                              {"curvesImage", stem + "-curves.png"}, {"curves", curves}});
    }
  }
  progress.clear();
  if (o.dask.given())
    std::fprintf(stderr, "throng verify: %zu runs on Dask, %zu here\n", runner.ranOnDask(), runner.ranHere());
  std::printf("%zu checks passed, %zu failed\n", passed, failed);
  if (!o.report.empty()) {
    std::string command = "throng verify";
    for (int k = 1; k < argc; ++k) command.append(" ").append(argv[k]);
    if (!writeReport(o, report, runner, all, command)) return stopRequested() ? 130 : 1;
    std::printf("report: %s\n", (std::filesystem::path(o.report) / "report.md").c_str());
  }
  return failed ? 1 : 0;
}

}  // namespace throng::cli
