// `throng check FILE`: the separation gate over an exported csv trajectory.
// Streams the file two steps at a time (memory stays flat), aligns walkers
// present in both steps by id, and runs checkStep on each pair of steps.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "cli.hpp"
#include "throng/scene.hpp"
#include "throng/verify.hpp"
#include "trajectory.hpp"

namespace throng::cli {

namespace {

int check(const CheckOptions& o) {
  const std::string& file = o.file;
  const auto radius = static_cast<float>(o.radius), tolerance = static_cast<float>(o.tolerance);
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
  GateGeometry geometry;
  if (scene) geometry = GateGeometry{scene->spec().obstacles, scene->spec().walls};

  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "throng check: %s: cannot open (%s)\n", file.c_str(), std::strerror(errno));
    return 1;
  }
  std::string err;
  // The scene's model's promise about overlaps (ORCA's without a scene).
  const OverlapPromise promise = overlapPromiseOf(scene ? scene->spec().settings.model : "orca");
  const std::optional<TrajectoryCheck> checked = checkTrajectory(in, radius, tolerance, geometry, promise, &err);
  if (!checked) {
    std::fprintf(stderr, "throng check: %s:%s\n", file.c_str(), err.c_str());
    return 1;
  }
  const GateReport& total = checked->gate;
  const std::uint64_t steps = checked->steps, rows = checked->rows;

  auto gap = [](float v) {
    char b[32];
    if (std::isfinite(v)) std::snprintf(b, sizeof b, "%.4g", static_cast<double>(v));
    else std::snprintf(b, sizeof b, "n/a");
    return std::string(b);
  };
  std::printf("check      %s: %" PRIu64 " steps, %" PRIu64 " rows, %zu pair-steps, radius %g%s\n", file.c_str(), steps,
              rows, total.pairsChecked, static_cast<double>(radius), o.radiusGiven ? "" : " (default; see --radius)");
  std::printf("gap        min %s over all pairs, %s between unjammed walkers\n", gap(total.minGap).c_str(),
              gap(total.minGapUnjammed).c_str());
  if (std::isfinite(total.minGapUnjammed))
    std::printf("worst      walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64 ", gap %s\n", total.worstA, total.worstB,
                total.step, gap(total.minGapUnjammed).c_str());
  std::printf("overlap    max %.4g, %zu unjammed overlaps\n", static_cast<double>(total.maxOverlap), total.unjammedOverlaps);
  if (scene) std::printf("walls      max intrusion %.4g (scene %s)\n", static_cast<double>(total.maxWallIntrusion), scene->name().c_str());
  if (!total.passed()) {
    if (total.unjammedOverlaps > 0)
      std::printf("FAILED     %zu overlaps outside a jam; worst: walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64
                  ", gap %s\n",
                  total.unjammedOverlaps, total.worstA, total.worstB, total.step, gap(total.minGapUnjammed).c_str());
    else
      std::printf("FAILED     wall intrusion %.4g\n", static_cast<double>(total.maxWallIntrusion));
    return 1;
  }
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
