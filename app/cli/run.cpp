// `throng run SCENE ...`: a scene headless, with the gate on every step,
// an optional streamed export, a summary on stdout and as JSON.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <unistd.h>
#include <utility>
#include <vector>

#include "args.hpp"
#include "preset.hpp"
#include "cli.hpp"
#include "export.hpp"
#include "run_core.hpp"
#include "signals.hpp"
#include "throng/backend.hpp"
#include "throng/output_file.hpp"
#include "throng/scene.hpp"

namespace throng::cli {

namespace {

int run(const RunOptions& o) {
  std::string err;
  const std::optional<std::string> path = findScene(o.scene, &err);
  if (!path) {
    std::fprintf(stderr, "throng run: %s\n", err.c_str());
    return 1;
  }
  std::optional<Scene> scene = Scene::load(*path, &err);
  if (!scene) {
    std::fprintf(stderr, "throng run: %s\n", err.c_str());
    return 1;
  }
  // Flags apply in order: --seed, --dt, --threads, the --set-file's lines,
  // then each --set. Each is (where a message names it, the assignment); the
  // scene refuses what it does not have or what is out of its range, a usage
  // error.
  std::vector<std::pair<std::string, std::string>> assignments = runFlagAssignments(o.seed, o.dt, o.threads);
  if (!o.setFile.empty()) {
    std::vector<PresetLine> lines;
    if (!readPreset(o.setFile, lines, &err)) {
      std::fputs(usageError("throng run", "--set-file " + err).c_str(), stderr);
      return 2;
    }
    for (const PresetLine& l : lines) assignments.emplace_back(l.where, l.assignment);
  }
  for (const std::string& s : o.sets) assignments.emplace_back("--set " + s, s);
  for (const auto& [flag, assignment] : assignments)
    if (!scene->assign(assignment, &err)) {
      std::fputs(usageError("throng run", flag + ": " + err).c_str(), stderr);
      return 2;
    }

  // --seconds, or the scene's duration, in steps of dt: at most kMaxRunSteps
  // (--steps' own bound), so no run is endless by accident.
  const double dt = scene->spec().settings.maxStep;  // the run's fixed step (SceneRun::dt)
  const std::optional<std::uint64_t> planned = planSteps(scene->spec(), o.steps, o.seconds, &err);
  if (!planned) {
    std::fputs(usageError("throng run", err).c_str(), stderr);
    return 2;
  }
  const std::uint64_t total = *planned;
  for (const auto& [flag, path] : {std::pair{"--measure", &o.measurePath}, std::pair{"--crossings", &o.crossingsPath}})
    if (!path->empty() && scene->spec().measurements.empty()) {
      std::fputs(usageError("throng run", std::string(flag) + ": scene " + scene->name() +
                                              " has no \"measurements\" (lines or areas) to write").c_str(),
                 stderr);
      return 2;
    }
  SceneRun run(*scene, SceneRun::Options{.gate = true});
  if (o.backend != BackendKind::Cpu) {
    std::string msg;
    if (!run.crowd().setBackend(o.backend, &msg)) {
      std::fprintf(stderr, "throng run: %s\n", msg.c_str());
      return 1;
    }
    if (!o.quiet && !msg.empty()) std::fprintf(stderr, "throng run: %s\n", msg.c_str());
  }
  const bool exact = o.steps || o.seconds;

  // Handlers first: from here on a signal stops the loop instead of the
  // process, so no partial export can be left behind.
  installStopHandlers();
  Exporter exporter;
  if (!o.exportPath.empty()) {
    if (!exporter.open(o.exportPath, o.format, dt, scene->spec(), &err)) {
      std::fprintf(stderr, "throng run: %s\n", err.c_str());
      return 1;
    }
    if (o.format != ExportFormat::Csv && scene->spec().units != "m" && !o.quiet)
      std::fprintf(stderr, "throng run: note: scene %s is in %s, %s expects metres\n", scene->name().c_str(),
                   scene->spec().units.c_str(), o.format == ExportFormat::Pedpy ? "PedPy" : "JuPedSim");
  }
  // The measurements' file, opened now so that an unwritable path fails
  // before the run; written whole once it ends.
  OutputFile measureFile, crossingsFile;
  for (const auto& [file, path] : {std::pair{&measureFile, &o.measurePath}, std::pair{&crossingsFile, &o.crossingsPath}})
    if (!path->empty() && !file->open(*path, &err)) {
      std::fprintf(stderr, "throng run: %s\n", err.c_str());
      return 1;
    }
  Progress progress(!o.quiet);
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(total, kMaxKeptStepTimes)));
  const auto wall0 = std::chrono::steady_clock::now();

  const LoopEnd end = runLoop(
      run, total, exact, &exporter, ms, [] { return stopRequested(); },
      [&](std::uint64_t done) {
        char detail[96];
        std::snprintf(detail, sizeof detail, "step %" PRIu64 "/%" PRIu64 "  t=%.1fs  %zu agents", done, total,
                      run.time(), run.crowd().count());
        progress.update(total ? static_cast<double>(done) / static_cast<double>(total) : 1, done == total, detail);
      }, &err);
  if (end == LoopEnd::Failed) {
    progress.clear();
    std::fprintf(stderr, "throng run: %s\n", err.c_str());
    return 1;
  }
  const bool interrupted = end == LoopEnd::Stopped;
  progress.clear();
  if (interrupted || stopRequested()) {
    exporter.discard();
    std::fprintf(stderr, "throng run: interrupted at step %" PRIu64 "%s\n", run.steps(),
                 o.exportPath.empty() && o.measurePath.empty() && o.crossingsPath.empty() ? "" : "; no export written");
    return 130;
  }
  if (exporter.isOpen() && !exporter.commit(&err)) {
    std::fprintf(stderr, "throng run: %s\n", err.c_str());
    return 1;
  }
  for (OutputFile* file : {&measureFile, &crossingsFile}) {
    if (!file->isOpen()) continue;
    const MeasureSeries& series = run.crowd().measurements();
    const std::string csv = file == &measureFile ? measureCsv(series) : crossingsCsv(series);
    if (std::fwrite(csv.data(), 1, csv.size(), file->file()) != csv.size() || !file->commit(&err)) {
      if (err.empty()) err = "writing " + file->partialPath() + " failed: " + std::strerror(errno);
      file->discard();
      std::fprintf(stderr, "throng run: %s\n", err.c_str());
      return 1;
    }
  }
  const double wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  const GateReport& g = run.gate();
  const double median = percentile(ms, 0.5), p95 = percentile(ms, 0.95);
  const std::uint64_t hash = run.crowd().stateHash();
  const std::string summary = summaryJson(*scene, run, ms);

  if (!o.quiet) {
    auto gap = [](float v) {
      char b[32];
      if (std::isfinite(v)) std::snprintf(b, sizeof b, "%.4g", static_cast<double>(v));
      else std::snprintf(b, sizeof b, "n/a");
      return std::string(b);
    };
    std::printf("scene      %s (%s)\n", scene->name().c_str(), path->c_str());
    std::printf("steps      %" PRIu64 " of %.4g s: %.4g s simulated in %.3g s on %s\n", run.steps(), dt, run.time(),
                wallSeconds, run.crowd().backendName());
    std::printf("agents     %zu ever, %zu arrived", run.agentsEver(), run.arrived());
    if (run.allArrivedTime()) std::printf(", all by %.4g s\n", *run.allArrivedTime());
    else std::printf(", not all\n");
    std::printf("gap        min %s over all pairs, %s between unjammed walkers\n", gap(g.minGap).c_str(),
                gap(g.minGapUnjammed).c_str());
    std::printf("overlap    max %.4g; %zu unjammed; %" PRIu64 " jammed agent-steps in %" PRIu64 " infeasible steps\n",
                static_cast<double>(g.maxOverlap), g.unjammedOverlaps, run.jammedAgentSteps(), run.infeasibleSteps());
    std::printf("walls      max intrusion %.4g\n", static_cast<double>(g.maxWallIntrusion));
    std::printf("time       %.4g ms/step median, %.4g p95\n", median, p95);
    const StepProfile profile = run.meanProfile();
    std::printf("phases    ");
    for (const StepPhaseEntry& e : kStepPlan) std::printf(" %s %.3g", e.name, profile.of(e.phase));
    std::printf(" ms/step mean\n");
    for (const MeasureFigures& f : measureFigures(run.crowd().measurements())) {
      const char* u = scene->spec().units.c_str();
      if (f.kind == MeasureKind::Line)
        std::printf("line       %s: %zu forward, %zu backward; %.3g/s mean, %.3g/s peak over 5 s; 95%% by %.4g s\n",
                    f.name.c_str(), f.forward, f.backward, f.meanFlow, f.peakFlow, f.time95);
      else
        std::printf("area       %s: density %.3g/%s² peak, %.3g mean; speed %.3g %s/s; specific flow %.3g /%s/s\n",
                    f.name.c_str(), f.peakDensity, u, f.meanDensity, f.meanSpeed, u, f.meanSpecificFlow, u);
    }
    std::printf("hash       %s\n", hex16(hash).c_str());
    if (!o.exportPath.empty()) std::printf("export     %s\n", o.exportPath.c_str());
    if (!o.measurePath.empty()) std::printf("measure    %s\n", o.measurePath.c_str());
    if (!o.crossingsPath.empty()) std::printf("crossings  %s\n", o.crossingsPath.c_str());
    if (!g.passed())
      std::printf("GATE       FAILED: walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64 " (gap %s)\n", g.worstA,
                  g.worstB, g.step, gap(g.minGapUnjammed).c_str());
  }
  if (!o.summaryPath.empty() && !writeAtomically(o.summaryPath, summary, &err)) {
    std::fprintf(stderr, "throng run: %s\n", err.c_str());
    return 1;
  }
  return g.passed() ? 0 : 1;
}

}  // namespace

int runRun(int argc, char** argv) {
  try {
    const Parsed<RunOptions> p = parseRun(argc, argv);
    return p.options ? run(*p.options) : p.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng run: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace throng::cli
