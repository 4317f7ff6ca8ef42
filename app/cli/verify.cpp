// `throng verify`: the verification suite. A test is a shipped scene with a
// "verify" (SceneVerify: the test's name, its criterion in words, and checks
// on figures of its run), found among the shipped scenes and in a verify/
// folder beside them. Each runs as `throng run SCENE` does without --steps
// (to its duration, or until everyone has arrived), with the gate on, once
// per model and seed; a check reads a figure of the run's summary (a
// summary field, or MEASUREMENT.FIGURE) and holds it to its bounds on every
// seed, or holds the ratio of its mean to another scene's to them.
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

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

class Runner {
 public:
  explicit Runner(const VerifyOptions& o) : o_(o) {}

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
    const std::optional<std::uint64_t> steps = planSteps(scene->spec(), std::nullopt, std::nullopt, &err);
    if (!steps) {
      out.error = err;
      return cache_[key] = out;
    }
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

 private:
  const VerifyOptions& o_;
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
/// The densities the report's fundamental diagram runs the ring corridor
/// at (throng/diagram.hpp), per m².
constexpr double kReportDensities[] = {0.5, 1, 2, 3, 4, 5};

/// Each model's fundamental diagram in the ring corridor under
/// Settings::pedestrian(): {model: [{density, speed, weidmann}]}, the
/// density as placed. Empty (null) when stopped.
nlohmann::json fundamentalDiagram(const VerifyOptions& o) {
  nlohmann::json out = nlohmann::json::object();
  for (const std::string& model : o.models) {
    Settings s = Settings::pedestrian();
    s.model = model;
    if (o.threads) s.threads = static_cast<int>(*o.threads);
    nlohmann::json points = nlohmann::json::array();
    for (const double asked : kReportDensities) {
      if (stopRequested()) return nullptr;
      const RingCorridor::Sample p = RingCorridor::measure(asked, s);
      points.push_back({{"density", p.density}, {"speed", p.speed}, {"weidmann", weidmannSpeed(p.density)}});
    }
    out[model] = points;
  }
  return out;
}

/// What a report is made of, gathered while the suite runs.
struct ReportData {
  nlohmann::json tests = nlohmann::json::array();  ///< {name, test, says, image, curvesImage, curves: {model: {line: [t]}}}
  nlohmann::json rows = nlohmann::json::array();   ///< one per check, model: {test, model, figure, values, value, min, max, verdict}
};

/// Runs $THRONG_PYTHON (default python3) on throng._report for `dir`, the
/// build tree's package first on its PYTHONPATH; its exit status, or -1
/// with *why when it could not start.
int reportFigures(const std::string& dir, std::string* why) {
  static constexpr const char* kBootstrap =
      "import sys\n"
      "try:\n"
      "    from throng._report import main\n"
      "except ImportError as e:\n"
      "    sys.stderr.write('throng verify: no figures: the throng Python package is not importable by %s (%s)\\n'"
      " % (sys.executable, e))\n"
      "    sys.exit(3)\n"
      "sys.exit(main(sys.argv[1:]))\n";
  const char* env = std::getenv("THRONG_PYTHON");
  const std::string python = env && *env ? env : "python3";
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    *why = std::string("cannot start ") + python + ": " + std::strerror(errno);
    return -1;
  }
  if (pid == 0) {
    preferBuildTreePackage();
    const char* args[] = {python.c_str(), "-c", kBootstrap, dir.c_str(), nullptr};
    execvp(args[0], const_cast<char* const*>(args));
    std::fprintf(stderr, "throng verify: no figures: %s: %s%s\n", python.c_str(), std::strerror(errno),
                 errno == ENOENT ? " (set THRONG_PYTHON to a Python with matplotlib)" : "");
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      *why = std::string("waiting for ") + python + ": " + std::strerror(errno);
      return -1;
    }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// The report in `dir`: the flow through `door` against its width under each
/// model, results.json, the figures (Python) and report.md. False with one
/// line on stderr when a file cannot be written; missing figures are said
/// and the rest is written.
bool writeReport(const VerifyOptions& o, ReportData& data, Runner& runner, const std::string& command) {
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
  const nlohmann::json diagram = fundamentalDiagram(o);
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
          "set-up; walkers of 0.2 m wishing 1.34 m/s, Settings::pedestrian()) against Weidmann's (1993), m/s, "
          "at the density placed, per m² (docs/walking.md).\n\n| density | Weidmann |";
    for (const auto& [model, points] : diagram.items()) md += " " + cell(model) + " |";
    md += "\n| --- | --- |";
    for (std::size_t k = 0; k < diagram.size(); ++k) md += " --- |";
    md += "\n";
    for (std::size_t k = 0; k < std::size(kReportDensities); ++k) {
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
  ReportData report;
  Progress progress(true);
  std::size_t failed = 0, passed = 0, done = 0;
  const std::size_t total = tests.size() * o.models.size();
  std::printf("%-12s %-10s %-9s %-40s %-28s %-16s %s\n", "test", "", "model", "figure", "value", "bounds", "verdict");
  for (const auto& [name, scene] : tests) {
    const SceneVerify& v = *scene.spec().verify;
    const int seeds = o.seeds > 0 ? o.seeds : v.seeds;
    const std::string dir = fs::path(scene.file()).parent_path().string();
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
          std::string other = (fs::path(dir) / (c.ratioTo + ".json")).string();
          if (!fs::is_regular_file(other)) other = all.count(c.ratioTo) ? all.at(c.ratioTo) : "";
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
  std::printf("%zu checks passed, %zu failed\n", passed, failed);
  if (!o.report.empty()) {
    std::string command = "throng verify";
    for (int k = 1; k < argc; ++k) command.append(" ").append(argv[k]);
    if (!writeReport(o, report, runner, command)) return stopRequested() ? 130 : 1;
    std::printf("report: %s\n", (std::filesystem::path(o.report) / "report.md").c_str());
  }
  return failed ? 1 : 0;
}

}  // namespace throng::cli
