// `throng verify`: the verification suite. A test is a shipped scene with a
// "verify" (SceneVerify: the test's name, its criterion in words, and checks
// on figures of its run), found among the shipped scenes and in a verify/
// folder beside them. Each runs as `throng run SCENE` does without --steps
// (to its duration, or until everyone has arrived), with the gate on, once
// per model and seed; a check reads a figure of the run's summary (a
// summary field, or MEASUREMENT.FIGURE) and holds it to its bounds on every
// seed, or holds the ratio of its mean to another scene's to them.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
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
#include "throng/scene.hpp"
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

/// One run's summary, or why there is none.
struct Outcome {
  nlohmann::json summary;
  std::string error;
};

class Runner {
 public:
  explicit Runner(const VerifyOptions& o) : o_(o) {}

  /// The summary of `path` under `model` with seed `k` of the scene's (cached).
  const Outcome& run(const std::string& path, const std::string& model, int k) {
    const auto key = std::make_tuple(path, model, k);
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    Outcome out;
    std::string err;
    std::optional<Scene> scene = Scene::load(path, &err);
    std::vector<std::string> sets{"model=" + model};
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
    return cache_[key] = out;
  }

 private:
  const VerifyOptions& o_;
  std::map<std::tuple<std::string, std::string, int>, Outcome> cache_;
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
  if (lo && hi && c.min == c.max) std::snprintf(b, sizeof b, "= %.4g", c.min);
  else if (lo && hi) std::snprintf(b, sizeof b, "[%.4g, %.4g]", c.min, c.max);
  else if (lo) std::snprintf(b, sizeof b, ">= %.4g", c.min);
  else std::snprintf(b, sizeof b, "<= %.4g", c.max);
  return b;
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
    const long number = d == std::string::npos ? -1 : std::stol(n.substr(d, e - d));
    return std::tuple{n.substr(0, d), number, n.substr(e == std::string::npos ? n.size() : e)};
  };
  std::stable_sort(tests.begin(), tests.end(), [&](const auto& a, const auto& b) { return key(a.first) < key(b.first); });
  installStopHandlers();
  Runner runner(o);
  std::size_t failed = 0, passed = 0;
  std::printf("%-12s %-10s %-9s %-40s %-28s %-16s %s\n", "test", "", "model", "figure", "value", "bounds", "verdict");
  for (const auto& [name, scene] : tests) {
    const SceneVerify& v = *scene.spec().verify;
    const int seeds = o.seeds > 0 ? o.seeds : v.seeds;
    const std::string dir = fs::path(scene.file()).parent_path().string();
    for (const std::string& model : o.models) {
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
            ok = ratio >= c.min && ratio <= c.max;
          } else if (ok) {
            ok = false, problem = c.ratioTo + ": " + c.figure + " is 0";
          }
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
        std::printf("%-12s %-10s %-9s %-40s %-28s %-16s %s\n", name.c_str(), v.test.c_str(), model.c_str(),
                    figure.c_str(), value.c_str(), bounds(c).c_str(), verdict);
        std::fflush(stdout);
        if (stopRequested()) {
          std::fprintf(stderr, "throng verify: interrupted\n");
          return 130;
        }
      }
    }
  }
  std::printf("%zu checks passed, %zu failed\n", passed, failed);
  return failed ? 1 : 0;
}

}  // namespace throng::cli
