#pragma once
// The separation gate over a csv trajectory, the format `throng run
// --export FILE --format csv` writes (header step,time,id,x,y,vx,vy,jammed,
// group; rows grouped by step, steps ascending). Streamed two steps at a
// time, so memory follows the largest step, not the file: walkers present
// in both steps are aligned by id and checkStep runs on each pair of steps.
// `throng check` and the fuzz harness (tests/fuzz) call it.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>

#include "throng/verify.hpp"

namespace throng::cli {

/// The csv trajectory's header line, exactly.
inline constexpr const char* kTrajectoryHeader = "step,time,id,x,y,vx,vy,jammed,group";

struct TrajectoryCheck {
  GateReport gate;
  std::uint64_t steps = 0, rows = 0;
};

/// Checks every pair of consecutive steps of `in` with every walker of
/// `radius` (world units) and the gate's `tolerance`, against `geometry`
/// and the model's `promise`. A malformed file gives nullopt and *error =
/// "LINE: what was expected".
std::optional<TrajectoryCheck> checkTrajectory(std::istream& in, float radius, float tolerance,
                                               const GateGeometry& geometry, OverlapPromise promise,
                                               std::string* error);

}  // namespace throng::cli
