#include "run_core.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "throng/output_file.hpp"

namespace throng::cli {

namespace {

nlohmann::ordered_json finiteOrNull(float v) {
  return std::isfinite(v) ? nlohmann::ordered_json(static_cast<double>(v)) : nlohmann::ordered_json(nullptr);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> runFlagAssignments(std::optional<std::uint64_t> seed,
                                                                    std::optional<double> dt,
                                                                    std::optional<std::int64_t> threads) {
  std::vector<std::pair<std::string, std::string>> out;
  if (seed) out.emplace_back("--seed", "seed=" + std::to_string(*seed));
  if (dt) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "maxStep=%.17g", *dt);
    out.emplace_back("--dt", buf);
  }
  if (threads) out.emplace_back("--threads", "threads=" + std::to_string(*threads));
  return out;
}

std::optional<std::uint64_t> planSteps(const SceneSpec& spec, std::optional<std::uint64_t> steps,
                                       std::optional<double> seconds, std::string* error) {
  const auto refuse = [error](std::string why) -> std::optional<std::uint64_t> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (steps && *steps > kMaxRunSteps)
    return refuse("steps: expects a whole number in [0, " + std::to_string(kMaxRunSteps) + "], got " +
                  std::to_string(*steps));
  static_assert(kMaxRunSeconds == 1e6, "the message below spells it");
  if (seconds && !(*seconds > 0 && *seconds <= kMaxRunSeconds)) {  // (NaN fails too)
    char what[120];
    std::snprintf(what, sizeof what, "seconds: expects a finite number in (0, 1e6], got %.6g", *seconds);
    return refuse(what);
  }
  const double dt = spec.settings.maxStep;  // the run's fixed step (SceneRun::dt)
  const double s = seconds ? *seconds : spec.duration;
  const double wanted = steps ? static_cast<double>(*steps) : std::ceil(s / dt - 1e-9);
  if (wanted > static_cast<double>(kMaxRunSteps)) {
    if (error) {
      char what[200];
      std::snprintf(what, sizeof what,
                    "%s%.6g s in steps of %.6g s is %.6g steps, more than %.6g; give --dt or --steps",
                    seconds ? "" : "the scene's duration of ", s, dt, wanted, static_cast<double>(kMaxRunSteps));
      *error = what;
    }
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(wanted);
}

Progress::Progress(bool on) : on_(on && isatty(STDERR_FILENO)) {}

void Progress::update(double fraction, bool last, const std::string& detail) {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!last && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double f = std::clamp(fraction, 0.0, 1.0);
  const int width = 30, fill = static_cast<int>(f * width);
  std::fprintf(stderr, "\r[%.*s%*s] %3d%%  %s ", fill, "##############################", width - fill, "",
               static_cast<int>(f * 100), detail.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::clear() {
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
}

LoopEnd runLoop(SceneRun& run, std::uint64_t total, bool exact, Exporter* exporter, std::vector<double>& ms,
                const std::function<bool()>& stop, const std::function<void(std::uint64_t)>& progress,
                std::string* error) {
  const bool exporting = exporter && exporter->isOpen();
  // A failed write: LoopEnd::Failed with the write's message (the exporter removes the partial).
  if (exporting && !exporter->write(run.crowd().frame(), error)) return LoopEnd::Failed;
  for (std::uint64_t k = 0; k < total; ++k) {
    if (stop && stop()) return LoopEnd::Stopped;
    run.step();
    if (ms.size() < kMaxKeptStepTimes) ms.push_back(run.lastStepMs());
    if (exporting && !exporter->write(run.crowd().frame(), error)) return LoopEnd::Failed;
    if (progress) progress(k + 1);
    if (!exact && run.allArrivedTime()) break;
  }
  return LoopEnd::Done;
}

std::string hex16(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  return buf;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  // The nearest-rank percentile: the ceil(q n)-th smallest.
  const double rank = std::ceil(q * static_cast<double>(v.size()));
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(std::max(1.0, rank)) - 1);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

std::string summaryJson(const Scene& scene, const SceneRun& run, const std::vector<double>& ms) {
  const GateReport& g = run.gate();
  nlohmann::ordered_json j;
  j["scene"] = scene.name();
  j["file"] = scene.file();
  j["steps"] = run.steps();
  j["dt"] = run.dt();
  j["simTime"] = run.time();
  j["agents"] = run.agentsEver();
  j["arrived"] = run.arrived();
  j["allArrivedTime"] =
      run.allArrivedTime() ? nlohmann::ordered_json(*run.allArrivedTime()) : nlohmann::ordered_json(nullptr);
  // RiMEA 5: how soon after its pre-movement time each walker moved, s.
  const SceneRun::SetOut& out = run.setOut();
  j["setOutWalkers"] = out.walkers;
  j["setOutLagMin"] = out.walkers ? nlohmann::ordered_json(out.minLag) : nlohmann::ordered_json(nullptr);
  j["setOutLagMax"] = out.walkers ? nlohmann::ordered_json(out.maxLag) : nlohmann::ordered_json(nullptr);
  j["minGap"] = finiteOrNull(g.minGap);
  j["minGapUnjammed"] = finiteOrNull(g.minGapUnjammed);
  j["maxOverlap"] = g.maxOverlap;
  j["unjammedOverlaps"] = g.unjammedOverlaps;
  j["jammedAgentSteps"] = run.jammedAgentSteps();
  j["infeasibleSteps"] = run.infeasibleSteps();
  j["maxWallIntrusion"] = g.maxWallIntrusion;
  j["msPerStepMedian"] = percentile(ms, 0.5);
  j["msPerStepP95"] = percentile(ms, 0.95);
  // The step's phases, milliseconds per step averaged over the run (timings:
  // they differ between runs of the same scene).
  const StepProfile profile = run.meanProfile();
  nlohmann::ordered_json phases = nlohmann::ordered_json::object();
  for (const StepPhaseEntry& e : kStepPlan) phases[e.name] = profile.of(e.phase);
  j["msPerPhaseMean"] = phases;
  j["hash"] = hex16(run.crowd().stateHash());
  j["backend"] = run.crowd().backendName();
  j["seed"] = scene.spec().settings.seed;
  nlohmann::ordered_json knobs = nlohmann::ordered_json::object();
  for (const Knob& k : scene.knobs()) knobs[k.name] = k.value;
  j["knobs"] = knobs;
  j["gatePassed"] = g.passed();
  nlohmann::ordered_json measured = nlohmann::ordered_json::array();
  for (const MeasureFigures& f : measureFigures(run.crowd().measurements())) {
    nlohmann::ordered_json m;
    m["name"] = f.name;
    if (f.kind == MeasureKind::Line) {
      m["kind"] = "line";
      m["forward"] = f.forward;
      m["backward"] = f.backward;
      m["firstTime"] = f.firstTime;
      m["lastTime"] = f.lastTime;
      m["meanFlow"] = f.meanFlow;
      m["peakFlow"] = f.peakFlow;
      m["time95"] = f.time95;
    } else {
      m["kind"] = "area";
      m["peakDensity"] = f.peakDensity;
      m["meanDensity"] = f.meanDensity;
      m["meanSpeed"] = f.meanSpeed;
      m["meanSpecificFlow"] = f.meanSpecificFlow;
    }
    measured.push_back(std::move(m));
  }
  j["measurements"] = measured;
  return j.dump(2);
}

std::string crossingsCsv(const MeasureSeries& s) {
  std::string out = "time,measurement,id,direction\n";
  for (const Crossing& c : s.crossings) {
    char b[32];
    out.append(b, std::to_chars(b, b + sizeof b, c.time).ptr);
    out += ",\"";
    for (char ch : s.measurements[c.measurement].name) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    out += "\",";
    out.append(b, std::to_chars(b, b + sizeof b, c.id).ptr);
    out += c.direction > 0 ? ",1\n" : ",-1\n";
  }
  return out;
}

std::string measureCsv(const MeasureSeries& s) {
  std::string out = "time,measurement,kind,forward,backward,crossed,inside,density,mean_speed,specific_flow\n";
  const auto num = [&out](double v) {
    char b[32];
    const auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, r.ptr);
  };
  const std::size_t n = s.measurements.size();
  std::vector<std::uint64_t> crossed(n, 0);
  for (std::size_t k = 0; k < s.steps(); ++k) {
    for (std::size_t m = 0; m < n; ++m) {
      const MeasureSample& a = s.at(k, m);
      num(s.time[k]);
      // Names are the scene's: quoted, with quotes doubled (RFC 4180).
      out += ",\"";
      for (char c : s.measurements[m].name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
      out += '"';
      if (s.measurements[m].kind == MeasureKind::Line) {
        crossed[m] += a.forward + a.backward;
        out += ",line,";
        num(a.forward);
        out += ',';
        num(a.backward);
        out += ',';
        num(static_cast<double>(crossed[m]));
        out += ",,,,\n";
      } else {
        const double rho = s.density(k, m);
        out += ",area,,,,";
        num(a.inside);
        out += ',';
        num(rho);
        out += ',';
        num(a.meanSpeed);
        out += ',';
        num(rho * a.meanSpeed);
        out += '\n';
      }
    }
  }
  return out;
}

bool writeAtomically(const std::string& path, const std::string& text, std::string* error) {
  return writeFileWhole(path, text + "\n", error);
}

}  // namespace throng::cli
