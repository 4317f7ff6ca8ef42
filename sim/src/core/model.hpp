#pragma once
// The seam between the step and a crowd model.
//
// Design note. A step is the plan of named phases in throng/types.hpp
// (kStepPlan), run in order by each executor (pipeline/step.cpp on the
// CPU):
//   fields     every fieldInterval steps, under continuum or routing =
//              field: density, speed and cost per cell, a potential per
//              target in use (fields/, buildFields)
//   wishes     every walker's preferred velocity: goal, route, stream or
//              the user's closure, then the shake (core/wish.hpp), into
//              StepScratch::buffers; taken inside the model's first pass over
//              the walkers (trackMotion: ORCA measures how far everyone
//              moved, for its lists)
//   pace       every wish slowed to the ground under its walker, and,
//              while Settings::paceTimeGap > 0, to the room ahead of it
//              (core/pace.hpp), unless the model has a rule of its own
//              for that (ModelEntry::ownPace: BioCrowds)
//   solve      the model's own: from the state as it was and the wishes,
//              every walker's new velocity and jam flag into
//              StepScratch::buffers (nvx, nvy, njammed)
//   integrate  every walker moved, landed, its gates passed
//              (core/integrate.hpp)
// Fields, wishes, the pace and integrate are shared and written once; a model
// supplies solve (and may take over the first pass), and keeps its own
// state across steps. The pipeline chooses the model once per step, by its
// name in Settings::model, and calls it through this interface once per
// phase: never a virtual call per walker. What a model may read: the state
// as it was before the step (StepContext::state, const: only integrate
// writes it), the settings and dt; what it writes: the scratch's buffers'
// nvx, nvy and njammed for every walker, and its agent grid if it builds
// it (StepContext::scratch), and its own state kept across steps.
//
// A model lives in its own folder (sim/src/models/NAME/) and is registered
// in pipeline/registry.cpp; nothing else changes to add one.
#include <cstddef>
#include <functional>
#include <string_view>

#include "throng/settings.hpp"
#include "throng/types.hpp"

namespace throng {

class World;
struct StepScratch;
struct ObstacleSet;

/// Work on the walkers [b, e), as the step hands out chunks of them.
using ChunkFn = std::function<void(std::size_t, std::size_t)>;

/// The agent grid a model builds (StepScratch::grid): columns `cell` world units
/// wide, sized for `neighbors` a row. Each model states its own once, in its
/// folder, and its host form, its device form and the host mirror all read
/// that statement.
struct GridSpec {
  float cell = 1;
  int neighbors = 1;
};

/// What a model's phases get for one step, as Box2D's b2StepContext: the
/// walkers as they were before the step, read only (integrate alone writes
/// them), and the step's scratch, which the phases write.
struct StepContext {
  const World& state;
  StepScratch& scratch;
  /// The state's obstacles, for the one thing a model may change of them:
  /// their edge grid, fitted to how far its walkers look (fitToReach). It
  /// changes no result; the geometry is never a model's to change.
  ObstacleSet& obstacles;
  const Settings& settings;  ///< sanitized
  float dt;                  ///< seconds
};

class Model {
 public:
  virtual ~Model() = default;
  /// The name Settings::model and scene files give it.
  virtual std::string_view name() const = 0;
  /// The step's first pass over the walkers, in the wishes phase. It must
  /// call `alongside` (when given) over every walker once, chunk by chunk
  /// (the wishes ride in the same pass). By default the pass does nothing
  /// else.
  virtual void trackMotion(StepContext& ctx, const ChunkFn& alongside);
  /// The solve phase: every walker's new velocity and jam flag into ctx.scratch.buffers.
  virtual void solve(StepContext& ctx) = 0;
  /// The teaching view: what walker i does in a step of ctx.dt from its
  /// wish `out.preferred` (set by the caller): out.chosen, out.jammed and
  /// the model's own parts of out. Changes no state (it may build
  /// StepScratch::grid, which is scratch).
  virtual void explain(StepContext& ctx, std::size_t i, AgentExplain& out) = 0;
  /// The walkers were stepped by something else since this model's last
  /// step (another model, another backend): drop what was kept across
  /// steps about them.
  virtual void resume() {}
  /// The points this model lays on the ground and their owners, for
  /// drawing (BioCrowds' markers); empty for a model with none.
  virtual MarkerView markers() const { return {}; }
};

}  // namespace throng
