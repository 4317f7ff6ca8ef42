#pragma once
// A model for the tests, never shipped: every walker walks straight at its
// wish, at most at its top speed, and is never jammed. It is all a second
// model needs: a Model for the CPU step (core/model.hpp) with its teaching
// view (throng/teaching.hpp), a THRONG_HD function per grid slot for the
// device seam (sim/cuda/device_solve.hpp, run on the host by tests/gpu's
// mirror), and one registration; no file outside its own changes.
#include <cmath>
#include <cstdint>

#include "core/model.hpp"
#include "core/world.hpp"
#include "pipeline/registry.hpp"

namespace throng::test {

/// The walker's velocity: its wish, scaled down to maxSpeed when faster.
THRONG_HD Vec2 walkStraight(Vec2 wish, float maxSpeed) {
  const float lengthSq = wish.lengthSquared();
  if (lengthSq <= maxSpeed * maxSpeed) return wish;
  return wish * (maxSpeed / std::sqrt(lengthSq));
}

class WalkStraight final : public Model {
 public:
  static constexpr const char* kName = "test-walk";
  std::string_view name() const override { return kName; }
  void solve(StepContext& ctx) override {
    const World& w = ctx.state;
    StepBuffers& b = ctx.scratch.buffers;
    w.forEach(w.size(), [&](std::size_t first, std::size_t end) {
      for (std::size_t i = first; i < end; ++i) {
        const Vec2 v = walkStraight({b.wishX[i], b.wishY[i]}, w.maxSpeed[i]);
        b.nvx[i] = v.x;
        b.nvy[i] = v.y;
        b.njammed[i] = 0;
      }
    });
  }
  void explain(StepContext& ctx, std::size_t i, AgentExplain& out) override {
    out.chosen = walkStraight(out.preferred, ctx.state.maxSpeed[i]);
    out.jammed = false;
    // Its teaching view: the wish and the choice over the top-speed circle,
    // and a note, in the roles every model draws with.
    out.teaching.ring(TeachRole::TopSpeed, TeachFrame::Velocity, {0, 0}, ctx.state.maxSpeed[i]);
    out.teaching.arrow(TeachRole::Preferred, TeachFrame::Velocity, {0, 0}, out.preferred);
    out.teaching.arrow(TeachRole::Chosen, TeachFrame::Velocity, {0, 0}, out.chosen);
    out.teaching.note(TeachRole::Legend, "it walks straight at its wish, blind to everyone");
  }
};

/// Registers it (idempotent); it promises nothing about overlaps.
inline void registerWalkStraight() {
  registerModel({WalkStraight::kName, "walks straight at the wish (tests only)", OverlapPromise{INFINITY, INFINITY},
                 "never", [] { return std::unique_ptr<Model>(new WalkStraight()); }});
}

}  // namespace throng::test
