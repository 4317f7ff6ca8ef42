// `throng check FILE`: the gate for a trajectory set (trajectory.hpp):
// separation, time stamps, speed and the envelope, over throng's csv,
// PedPy's text or JuPedSim's SQLite, streamed frame by frame.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "cli.hpp"
#include "throng/scene.hpp"
#include "throng/verify.hpp"
#include "trajectory.hpp"

namespace throng::cli {

namespace {

std::string num(double v) {
  char b[32];
  if (std::isfinite(v)) std::snprintf(b, sizeof b, "%.4g", v);
  else std::snprintf(b, sizeof b, "n/a");
  return b;
}

/// "max V (walker W, frame F)" and its verdict against `bound` (where it
/// came from: `note`); false when it fails.
bool worstLine(const char* label, const char* unit, const GateWorst& w, double bound, const char* flag,
               const std::string& note = {}) {
  std::printf("%-10s max %s %s", label, num(w.value).c_str(), unit);
  if (w.value > 0) std::printf(" (walker %" PRIu64 ", frame %" PRIu64 ")", w.id, w.frame);
  if (bound > 0) {
    std::printf(", bound %s%s: %s\n", num(bound).c_str(), note.c_str(),
                w.faults ? (std::to_string(w.faults) + " over, FAILED").c_str() : "passed");
    return w.faults == 0;
  }
  std::printf(", no bound (%s)\n", flag);
  return true;
}

int check(const CheckOptions& o) {
  const std::string& file = o.file;
  std::optional<Scene> scene;
  if (!o.scene.empty()) {
    std::string err;
    const auto path = findScene(o.scene, &err);
    if (path) scene = Scene::load(*path, &err);
    if (!scene) {
      std::fprintf(stderr, "throng check: %s\n", err.c_str());
      return 1;
    }
    for (const std::string& s : o.sets)
      if (!scene->assign(s, &err)) {
        std::fputs(usageError("throng check", "--set " + s + ": " + err).c_str(), stderr);
        return 2;
      }
  }
  GateBounds bounds;
  bounds.radius = static_cast<float>(o.radius);
  // A scene's walkers, placed and made: their largest radius and top speed.
  float largest = 0, fastest = 0;
  const auto walker = [&](float radius, float maxSpeed) {
    largest = std::max(largest, radius);
    fastest = std::max(fastest, maxSpeed);
  };
  if (scene) {
    for (const SceneAgent& a : scene->spec().agents) walker(a.radius, a.maxSpeed);
    for (const SceneSource& s : scene->spec().sources) walker(s.radius, s.maxSpeed);
  }
  // Without --radius, the scene's walkers' (the largest, when they differ:
  // the gate takes one radius for all).
  std::string radiusNote = o.radiusGiven ? "" : " (default; see --radius)";
  if (!o.radiusGiven && largest > 0) {
    bounds.radius = largest;
    radiusNote = " (scene " + o.scene + "'s)";
  }
  bounds.tolerance = static_cast<float>(o.tolerance);
  if (scene) bounds.geometry = GateGeometry{scene->spec().obstacles, scene->spec().walls};
  // The scene's model's promise about overlaps (ORCA's without a scene).
  bounds.promise = overlapPromiseOf(scene ? scene->spec().settings.model : "orca");
  // The teleport bound: the scene's walkers' (units/s), else 10 m/s for the
  // formats in metres; throng's csv without a scene is in units unknown.
  // (set below, once the format is known).
  bounds.maxSpeed = 0;
  if (fastest > 0) bounds.maxSpeed = 1.5 * fastest;
  if (o.maxSpeed > 0) bounds.maxSpeed = o.maxSpeed;
  bounds.maxAccel = o.maxAccel;
  bounds.maxDecel = o.maxDecel;
  // Without --max-accel or --max-decel, the scene's envelope (the loosest of
  // its walkers'), 1% over for the file's rounding of positions.
  constexpr double kRounding = 1.01;
  std::string accelNote, decelNote;
  if (scene) {
    const EnvelopeBound e = loosestEnvelope(scene->spec());
    const auto from = [&](double value) { return " (scene " + o.scene + "'s " + num(value) + ", +1% for the file's rounding)"; };
    if (bounds.maxAccel == 0 && e.accel > 0) bounds.maxAccel = kRounding * e.accel, accelNote = from(e.accel);
    if (bounds.maxDecel == 0 && e.decel > 0) bounds.maxDecel = kRounding * e.decel, decelNote = from(e.decel);
  }
  const TrajectoryFormat format = o.format == "csv"        ? TrajectoryFormat::Csv
                                  : o.format == "pedpy"    ? TrajectoryFormat::Pedpy
                                  : o.format == "jupedsim" ? TrajectoryFormat::Jupedsim
                                                           : TrajectoryFormat::Auto;
  std::string err;
  std::optional<TrajectoryCheck> checked;
  try {
    const auto reader = openTrajectory(file, format, o.fps, o.units == "cm" ? 0.01 : o.units == "m" ? 1.0 : 0.0);
    if (bounds.maxSpeed == 0 && std::string(reader->format()) != "csv") bounds.maxSpeed = 10;
    checked = checkFrames(*reader, bounds, &err);
  } catch (const BadTrajectory& e) {
    err = e.where.empty() ? " " + e.message : e.where + ": " + e.message;
  }
  if (!checked) {
    std::fprintf(stderr, "throng check: %s:%s\n", file.c_str(), err.c_str());
    return 1;
  }
  const TrajectoryCheck& c = *checked;
  const GateReport& total = c.gate;
  std::printf("check      %s: %" PRIu64 " steps, %" PRIu64 " rows, %zu pair-steps, radius %g%s\n", file.c_str(),
              c.steps, c.rows, total.pairsChecked, static_cast<double>(bounds.radius), radiusNote.c_str());
  std::printf("frames     %s, frames %" PRIu64 " to %" PRIu64 " at %s fps, %" PRIu64 " walkers%s%s\n", c.format.c_str(),
              c.firstFrame, c.lastFrame, num(c.frameRate).c_str(), c.walkers, c.unitNote.empty() ? "" : ", unit ",
              c.unitNote.c_str());
  std::printf("gap        min %s over all pairs, %s between unjammed walkers\n", num(total.minGap).c_str(),
              num(total.minGapUnjammed).c_str());
  if (std::isfinite(total.minGapUnjammed))
    std::printf("worst      walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64 ", gap %s\n", total.worstA, total.worstB,
                total.step, num(total.minGapUnjammed).c_str());
  std::printf("overlap    max %.4g, %zu unjammed overlaps\n", static_cast<double>(total.maxOverlap), total.unjammedOverlaps);
  if (scene) std::printf("walls      max intrusion %.4g (scene %s)\n", static_cast<double>(total.maxWallIntrusion), scene->name().c_str());
  if (c.timeStampsPassed())
    std::printf("time       frames one at a time, no walker twice in a frame, no hole: passed\n");
  else
    std::printf("time       %" PRIu64 " frame gaps, %" PRIu64 " repeated walkers, %" PRIu64 " holes%s; first: %s, FAILED\n",
                c.frameGaps, c.duplicates, c.holes,
                c.timeFaults ? (", " + std::to_string(c.timeFaults) + " times off the step").c_str() : "",
                c.firstTimeFault.c_str());
  // PedPy's and JuPedSim's files are read in metres; throng's csv is in its scene's units.
  const bool metres = c.format != "csv";
  const char* perSecond = metres ? "m/s" : "units/s";
  const char* perSecond2 = metres ? "m/s^2" : "units/s^2";
  const bool speedOk = c.frameRate > 0 ? worstLine("speed", perSecond, c.speed, bounds.maxSpeed, "--max-speed") : true;
  if (c.frameRate <= 0) std::printf("speed      not checked: no frame rate (--fps)\n");
  const bool accelOk = worstLine("accel", perSecond2, c.accel, bounds.maxAccel, "--max-accel", accelNote);
  const bool decelOk = worstLine("braking", perSecond2, c.decel, bounds.maxDecel, "--max-decel", decelNote);
  bool ok = true;
  if (!total.passed()) {
    ok = false;
    if (total.unjammedOverlaps > 0)
      std::printf("FAILED     %zu overlaps outside a jam; worst: walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64
                  ", gap %s\n",
                  total.unjammedOverlaps, total.worstA, total.worstB, total.step, num(total.minGapUnjammed).c_str());
    else
      std::printf("FAILED     wall intrusion %.4g\n", static_cast<double>(total.maxWallIntrusion));
  }
  if (!c.timeStampsPassed()) {
    ok = false;
    std::printf("FAILED     time stamps: %s\n", c.firstTimeFault.c_str());
  }
  if (!speedOk) {
    ok = false;
    std::printf("FAILED     a teleport: walker %" PRIu64 " at %s %s at frame %" PRIu64 " (bound %s)\n", c.speed.id,
                num(c.speed.value).c_str(), perSecond, c.speed.frame, num(bounds.maxSpeed).c_str());
  }
  if (!accelOk) {
    ok = false;
    std::printf("FAILED     acceleration: walker %" PRIu64 " at %s %s at frame %" PRIu64 " (bound %s)\n", c.accel.id,
                num(c.accel.value).c_str(), perSecond2, c.accel.frame, num(bounds.maxAccel).c_str());
  }
  if (!decelOk) {
    ok = false;
    std::printf("FAILED     braking: walker %" PRIu64 " at %s %s at frame %" PRIu64 " (bound %s)\n", c.decel.id,
                num(c.decel.value).c_str(), perSecond2, c.decel.frame, num(bounds.maxDecel).c_str());
  }
  if (!ok) return 1;
  std::printf("PASSED\n");
  return 0;
}

}  // namespace

int runCheck(int argc, char** argv) {
  try {
    const Parsed<CheckOptions> p = parseCheck(argc, argv);
    return p.options ? check(*p.options) : p.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng check: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace throng::cli
