#pragma once
// Continuum Crowds' solve phase on the device (device_model.hpp): the bodies of
// its kernels, one grid slot a thread, and the host side that runs before
// them. The kernels (continuum.cu) and the host mirror
// (tests/gpu/test_gpu_host.cpp) both run these, so the mirror tests the
// device form's own code against World::stepCpu.
//
// Design note.
// The math is continuum.hpp's, called as ContinuumModel::solve calls it:
//   1. desired: continuumDesired per walker, its unpushed step s = d dt and
//      its first position q = p + offWalls(s) (continuumDesiredSlot);
//   2. kPushRounds rounds of the push (pushRound), each reading the q of
//      the round before and writing the other buffer (Jacobi, as the CPU's
//      swap), so a round is order-free (continuumPushSlot);
//   3. the step to the last q as a velocity and the jam flag
//      (continuumStep; continuumStepSlot).
// Each reads the state before the step, the step's wishes and the fields
// the fields phase built (on the device: device_fields.hpp), never what another
// thread of the same pass writes. The agent grid and the obstacle grid are
// the CPU step's, as ContinuumModel::grid and obstacleReach state them:
// columns pushReach(r) wide, edges fitted to R + S dt, where R and S are the
// largest radius and top speed (StepReach). Those come from the host's radius and maxSpeed,
// which only its edits change (and every edit uploads), so the host side
// takes them again only on an upload.
#include <cstdint>

#include "core/world.hpp"
#include "device_solve.hpp"
#include "models/continuum/continuum.hpp"
#include "models/continuum/continuum_model.hpp"
#include "throng/hd.hpp"

namespace throng {

/// What the passes read and write besides DeviceSolve (device pointers;
/// host pointers in the mirror), by agent.
struct ContinuumSolve {
  ContinuumView cv;                  ///< the step's fields, groups, routes and reach
  float *sx = nullptr, *sy = nullptr;  ///< the unpushed steps (pass 1 writes them)
  float* qx[2] = {nullptr, nullptr};   ///< the pushed positions, two buffers
  float* qy[2] = {nullptr, nullptr};
};

/// The buffer the push's last round leaves its positions in.
inline constexpr int kContinuumFinalBuffer = kPushRounds & 1;

/// Pass 1 for the walker in grid slot `slot`: its unpushed step and its
/// first position into buffer 0.
THRONG_HD void continuumDesiredSlot(const DeviceSolve& d, const ContinuumSolve& c, std::int32_t slot) {
  const std::int32_t i = d.sortedIndex[slot];
  const Vec2 p{d.agents.px[i], d.agents.py[i]};
  const float dt = c.cv.reach.dt;
  const Vec2 v = continuumDesired(c.cv, i, p, Vec2{d.wishX[i], d.wishY[i]}, d.landing[i] != 0);
  c.sx[i] = v.x * dt;
  c.sy[i] = v.y * dt;
  const AgentGridView g = gridViewOf(*d.shape, d.cellStart, d.sortedIndex, d.sx, d.sy);
  const MovingWalkers a = movingWalkers(d.agents, d.wishX, d.wishY);
  const Vec2 q = p + firstMove(g, d.obstacles, a, c.cv, i, Vec2{c.sx[i], c.sy[i]}, v.length() * dt);
  c.qx[0][i] = q.x;
  c.qy[0][i] = q.y;
}

/// Round `round` (from 0) of the push for the walker in grid slot `slot`:
/// reads buffer round & 1, writes the other.
THRONG_HD void continuumPushSlot(const DeviceSolve& d, const ContinuumSolve& c, int round, std::int32_t slot) {
  const AgentGridView g = gridViewOf(*d.shape, d.cellStart, d.sortedIndex, d.sx, d.sy);
  const std::int32_t i = d.sortedIndex[slot];
  const int from = round & 1;
  const ContinuumWalkers a{d.agents.px, d.agents.py, d.agents.radius, c.sx, c.sy, c.qx[from], c.qy[from]};
  const Vec2 q = pushRound(g, d.obstacles, a, c.cv.reach, i, Vec2{c.sx[i], c.sy[i]}, c.cv.envelope);
  c.qx[from ^ 1][i] = q.x;
  c.qy[from ^ 1][i] = q.y;
}

/// Pass 3 for the walker in grid slot `slot`: its new velocity and jam flag
/// (continuumStep) into d.nvx, d.nvy and d.njammed.
THRONG_HD void continuumStepSlot(const DeviceSolve& d, const ContinuumSolve& c, std::int32_t slot) {
  const AgentGridView g = gridViewOf(*d.shape, d.cellStart, d.sortedIndex, d.sx, d.sy);
  const std::int32_t i = d.sortedIndex[slot];
  const ContinuumWalkers a{d.agents.px, d.agents.py, d.agents.radius, c.sx, c.sy,
                           c.qx[kContinuumFinalBuffer], c.qy[kContinuumFinalBuffer]};
  Vec2 v;
  const bool moved = continuumStep(g, a, c.cv.reach, i, Vec2{c.sx[i], c.sy[i]}, d.landing[i] != 0, v, c.cv.envelope.onFor(i));
  d.nvx[i] = v.x;
  d.nvy[i] = v.y;
  d.njammed[i] = moved ? 0 : 1;
}

/// What the passes read of a step's arrays, reach and envelope (its bounds
/// as World::stepEnvelope finds them; the scratch arrays are the caller's
/// to set).
inline ContinuumView continuumViewOf(const DeviceSolve& d, const StepReach& reach, const StepEnvelope& envelope) {
  ContinuumView cv;
  cv.field = d.field;
  cv.group = d.group;
  cv.route = d.route;
  cv.reach = reach;
  cv.envelope = envelope;
  cv.envelope.vx = d.agents.vx;
  cv.envelope.vy = d.agents.vy;
  cv.envelope.ownAccel = d.agents.maxAccel;
  cv.envelope.ownDecel = d.agents.maxDecel;
  return cv;
}

/// The device form's host side: the step's reach.
class ContinuumDeviceHost {
 public:
  /// The reach of a step of dt seconds (ContinuumModel::reach's values):
  /// the largest radius and top speed taken again when the host's walkers
  /// were uploaded for this step.
  StepReach reach(const World& w, bool uploaded, float dt) {
    if (uploaded || !have_) {
      const StepReach r = ContinuumModel::reach(w, dt);
      largestRadius_ = r.largestRadius;
      largestSpeed_ = r.largestSpeed;
      have_ = true;
    }
    StepReach r;
    r.dt = dt;
    r.largestRadius = largestRadius_;
    r.largestSpeed = largestSpeed_;
    return r;
  }

 private:
  bool have_ = false;
  float largestRadius_ = 0, largestSpeed_ = 0;
};

}  // namespace throng
