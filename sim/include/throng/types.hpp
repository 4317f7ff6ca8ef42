#pragma once
// The value types of the public API: a walker, a route gate, what the
// teaching view explains, a step's counts, and the read-only frame the
// renderers draw. Plain data: any layer may include this.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "throng/teaching.hpp"
#include "throng/vec2.hpp"

namespace throng {

struct Agent {
  Vec2 position, velocity;    ///< world units; world units per second [Limit: finite]
  std::optional<Vec2> goal;   ///< none: stands, but still steps aside [Limit: finite]
  float radius = 8;           ///< world units [Limit: > 0]
  float maxSpeed = 120;       ///< world units per second [Limit: >= 0]
  int group = 0;              ///< carried untouched; picks a stream velocity
  bool isJammed = false;      ///< no permitted velocity on the last step
  /// The walker's own kinematic envelope, world units/s² (a group's
  /// override of Settings::maxAccel and maxDecel, core/envelope.hpp): 0
  /// takes the settings'. [Limit: finite, >= 0]
  float maxAccel = 0, maxDecel = 0;
};

/// A gate a routed walker heads for, then counts as passed once its centre
/// crosses the infinite line through a and b. The walker aims at the nearest
/// point of the segment, kept one radius in from each end.
struct Waypoint {
  Vec2 a, b;
};

/// What a walker is about to decide and why: the teaching view. Computed by
/// the same per-agent functions as the step, from the current state.
/// A half-plane of permitted velocities: those left of `direction` (a unit
/// vector) through `point` (ORCA's lines, as the teaching view draws them).
struct HalfPlane {
  Vec2 point, direction;
};

struct AgentExplain {
  Vec2 preferred;                        ///< wish after jitter, units/s
  Vec2 chosen;                           ///< the velocity the solve picks
  bool jammed = false;                   ///< the program was infeasible
  std::vector<std::size_t> neighbours;   ///< nearest first
  std::vector<HalfPlane> obstacleLines;       ///< never relaxed
  std::vector<HalfPlane> agentLines;          ///< one per neighbour, same order
  // BioCrowds: the markers the walker owns, their weights f_k as the sum
  // takes them (0 for one it owns but cannot use: its disc does not fit
  // there, or a neighbour is too near it), and the motion vector M.
  std::vector<Vec2> markers;
  std::vector<float> markerWeights;
  Vec2 motion;
  // The fields (Continuum Crowds, routing = field): the walker's cell
  // (-1: no field reaches it), that cell's speed (units/s) and unit cost
  // in each of the four directions (east, north, west, south), and the
  // field's velocity at the walker, units/s.
  std::int32_t fieldCell = -1;
  float fieldSpeed[4] = {0, 0, 0, 0};
  float fieldCost[4] = {0, 0, 0, 0};
  Vec2 fieldFlow;
  /// The model's view of all this as shapes and notes (throng/teaching.hpp),
  /// the fields' part last; the renderer draws it without knowing the model.
  TeachingView teaching;
};

/// Points a model lays on the ground (BioCrowds' markers) and the walker
/// that owns each in the last step (-1: none; empty before a step). The
/// spans stay valid until the crowd is next changed or advanced.
struct MarkerView {
  std::span<const float> x, y;
  std::span<const std::int32_t> owner;
};

/// Counts over the last step.
struct StepStats {
  std::size_t jammed = 0;       ///< walkers with no permitted velocity
  std::size_t arrived = 0;      ///< walkers standing on their goal
};

/// The step's phases. kStepPlan below is the one statement of their order:
/// the CPU step (pipeline/step.cpp), the CUDA backend (sim/cuda) and the
/// host mirror (tests/gpu) each run the plan entry by entry, with one case
/// per phase. Adding a phase is an entry here and its case in each.
enum class StepPhase : std::uint8_t {
  /// Density, speed and cost per cell and a potential per target in use,
  /// every fieldInterval steps, while the model or the routing wants them.
  Fields,
  /// Every walker's preferred velocity (goal, route, stream or the user's
  /// closure, then the shake); the model's first pass over the walkers
  /// (ORCA tracks how far each moved) and the device's neighbour grid ride
  /// in the same pass.
  Wishes,
  /// Every wish slowed to the ground under its walker (speed zones and
  /// stairs, throng/fields.hpp), then to the room ahead of it
  /// (core/pace.hpp) while Settings::paceTimeGap is above 0, unless the
  /// model slows its crowd by a rule of its own (BioCrowds).
  Pace,
  /// The model's own: from the state as it was before the step and the
  /// wishes, every walker's new velocity and jam flag.
  Solve,
  /// Every walker moved, landed on its goal, its gates passed; the counts.
  Integrate,
  /// The measurement lines' crossings and the areas' counts and speeds
  /// (throng/measure.hpp), from where each walker began and ended the step;
  /// nothing while the crowd has no measurement.
  Measure,
};

struct StepPhaseEntry {
  StepPhase phase;
  const char* name;  ///< as `throng run --summary` and the visualizer print it
};

inline constexpr StepPhaseEntry kStepPlan[] = {
    {StepPhase::Fields, "fields"},
    {StepPhase::Wishes, "wishes"},
    {StepPhase::Pace, "pace"},
    {StepPhase::Solve, "solve"},
    {StepPhase::Integrate, "integrate"},
    {StepPhase::Measure, "measure"},
};
inline constexpr std::size_t kStepPhases = sizeof(kStepPlan) / sizeof(kStepPlan[0]);

/// Whether entry k of the plan is phase k (StepProfile indexes by phase).
constexpr bool planInEnumOrder() {
  for (std::size_t k = 0; k < kStepPhases; ++k)
    if (static_cast<std::size_t>(kStepPlan[k].phase) != k) return false;
  return true;
}
static_assert(planInEnumOrder(), "kStepPlan lists the phases in StepPhase's order");

/// What the last step cost, phase by phase (Crowd::profile, as Box2D's
/// b2Profile). On the CPU, wall-clock milliseconds of each phase; on CUDA,
/// the stream's milliseconds between events recorded at the phases'
/// boundaries (host work inside a phase, such as a field refresh's round
/// trips, counts to it). Timings are not state: nothing reads them back
/// into a step, so they never touch determinism.
struct StepProfile {
  double ms[kStepPhases] = {};  ///< by StepPhase; milliseconds
  double totalMs = 0;           ///< the whole step, milliseconds
  bool measured = false;        ///< false before the first step
  double of(StepPhase p) const { return ms[static_cast<std::size_t>(p)]; }
};

/// The arrays behind a FrameView, owned (Crowd::detachFrame).
struct FrameArrays {
  std::vector<float> px, py, vx, vy, radius;
  std::vector<std::int32_t> group;
  std::vector<std::uint8_t> jammed;
  std::vector<std::uint64_t> id;
};

/// A read-only snapshot of the state for renderers and exporters. The spans
/// stay valid until the crowd is next changed or advanced.
struct FrameView {
  std::span<const float> px, py, vx, vy, radius;
  std::span<const std::int32_t> group;
  std::span<const std::uint8_t> jammed;
  std::span<const std::uint64_t> id;
  std::uint64_t step = 0;
  double time = 0;
};

/// What a model promises about two walkers that are not jammed, as
/// fractions of r_A + r_B, which the gate holds it to: how deep a pair that
/// starts a step apart may come to overlap in it, and how deep one that
/// starts in contact may close to. An overlap deeper than both (carried in
/// from a jam) must never deepen. ORCA's: apart stays apart, and contact
/// within its contact overlap (0.101%).
struct OverlapPromise {
  float fromApart = 0;
  float inContact = 0.00101f;
};

}  // namespace throng
