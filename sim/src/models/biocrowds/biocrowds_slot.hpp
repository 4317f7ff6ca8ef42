#pragma once
// BioCrowds' solve phase on the device (device_model.hpp): the owners kernel's
// body for one marker cell, the velocities kernel's for one grid slot, and
// the host side that runs before them. The kernels (biocrowds.cu) and the
// host mirror (tests/gpu/test_gpu_host.cpp) both run these, so the mirror
// tests the device form's own code against World::stepCpu.
//
// Design note.
// The math is biocrowds.hpp's, called as BioCrowdsModel::solve calls it:
// ownersOfCell once per marker cell (every marker belongs to exactly one
// cell, so the cells together write every owner once), then bioVelocity
// once per walker, reading the owners of the cells around it. Both read the
// state before the step alone, so neither the order of cells nor of slots
// matters; the agent grid and the obstacle grid are the CPU step's (built
// and fitted as BioCrowdsModel::grid and obstacleReach state).
//
// The marker field lives on the host (MarkerField, laid on the step's
// threads) and goes up when its version changes. It is a cache of a field
// fixed by the seed, the density and the geometry: a step's result does not
// depend on its extent as long as it covers every walker's personal space
// (MarkerField::covers), so the device may lay it at other times than the
// CPU and still give the same bits. What the host does not know is where
// the walkers are: their positions stay on the device between host edits,
// and reading them back each step would stall the stream. So the field is
// fitted to a box that holds every walker at the step's start (walkerBox):
// the host's own positions when the step uploaded them, else the bounds of
// the positions the last device step started from (reduced on the device
// by the grid's bounds kernel, copied back asynchronously, waited for only
// if that copy has not landed), widened by the farthest a walker can move
// in that step. The step's parameters (BioParams) come from the host's
// radius and maxSpeed, which only its edits change, and its log1p-based
// gain (loneWalkerReach) never runs on the device.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/world.hpp"
#include "device_solve.hpp"
#include "models/biocrowds/biocrowds.hpp"
#include "models/biocrowds/biocrowds_model.hpp"
#include "models/biocrowds/markers.hpp"
#include "throng/hd.hpp"
#include "throng/settings.hpp"

namespace throng {

/// What the owners and the velocities read besides DeviceSolve (device
/// pointers; host pointers in the mirror).
struct BioSolve {
  MarkerGridView markers;         ///< the field, as laid on the host
  std::int32_t* owner = nullptr;  ///< by marker: written by the owners pass, read by the velocities'
  BioParams bp;
};

/// The owners of marker cell `cell`'s markers into b.owner (ownersOfCell,
/// with the candidates on this thread's stack).
THRONG_HD void bioOwnersCell(const DeviceSolve& d, const BioSolve& b, std::int32_t cell) {
  const AgentGridView g = gridViewOf(*d.shape, d.cellStart, d.sortedIndex, d.sx, d.sy);
  float cx[kCellCandidates], cy[kCellCandidates];
  std::int32_t ci[kCellCandidates];
  ownersOfCell(b.markers, g, d.obstacles, b.bp.radius, cell, cx, cy, ci, b.owner);
}

/// The walker in grid slot `slot`: its new velocity and jam flag from its
/// owned markers (bioVelocity) into d.nvx, d.nvy and d.njammed.
THRONG_HD void bioVelocitySlot(const DeviceSolve& d, const BioSolve& b, std::int32_t slot) {
  const AgentGridView g = gridViewOf(*d.shape, d.cellStart, d.sortedIndex, d.sx, d.sy);
  const std::int32_t i = d.sortedIndex[slot];
  const BioWalkers a = movingWalkers(d.agents, d.wishX, d.wishY);
  Vec2 v;
  const bool moved = bioVelocity(b.markers, b.owner, g, d.obstacles, a, b.bp, i, Vec2{d.wishX[i], d.wishY[i]},
                                 d.landing[i] != 0, v);
  d.nvx[i] = v.x;
  d.nvy[i] = v.y;
  d.njammed[i] = moved ? 0 : 1;
}

/// A box holding every walker's position at the start of a step: the
/// host's positions when the step uploaded them, else the last device
/// step's bounds widened by the farthest a walker moved in it. Every model
/// keeps a walker's velocity within its maxSpeed, and a landing step stops
/// on a goal nearer than maxSpeed dt, so that is largestSpeed times the
/// last dt; 1% more, and a millionth of the coordinates, cover the
/// rounding of the velocities and of positions far out. False when the
/// last bounds are unknown.
inline bool walkerBox(const DeviceHost& h, float largestSpeed, Vec2& lo, Vec2& hi) {
  const World& w = *h.world;
  if (h.uploaded) {
    lo = hi = Vec2{};
    if (w.size() == 0) return true;
    lo = hi = Vec2{w.px[0], w.py[0]};
    for (std::size_t i = 1; i < w.size(); ++i) {
      lo = {w.px[i] < lo.x ? w.px[i] : lo.x, w.py[i] < lo.y ? w.py[i] : lo.y};
      hi = {w.px[i] > hi.x ? w.px[i] : hi.x, w.py[i] > hi.y ? w.py[i] : hi.y};
    }
    return true;
  }
  float lastDt = 0;
  if (!h.lastBounds || !h.lastBounds(lo, hi, lastDt)) return false;
  const float moved = largestSpeed * lastDt * 1.01f +
                      (std::fabs(lo.x) + std::fabs(lo.y) + std::fabs(hi.x) + std::fabs(hi.y)) * 1e-6f;
  lo = Vec2{lo.x - moved, lo.y - moved};
  hi = Vec2{hi.x + moved, hi.y + moved};
  return true;
}

/// The device form's host side, run before each step's kernels: the
/// step's parameters, and the marker field fitted to walkerBox. The device
/// copy of the field follows field.version.
class BioDeviceHost {
 public:
  /// For a step of dt seconds. False when where the walkers are is unknown
  /// (the step cannot run). Throws std::length_error as MarkerField::fit
  /// does, before the step changes anything.
  bool prepare(const DeviceHost& h, const Settings& s, float dt);

  MarkerField field;
  BioParams bp;  ///< BioCrowdsModel::params' values, bit for bit

 private:
  bool haveLargest_ = false;
  float largestRadius_ = 0, largestSpeed_ = 0;  ///< over the walkers, as of the last upload
};

inline bool BioDeviceHost::prepare(const DeviceHost& h, const Settings& s, float dt) {
  const World& w = *h.world;
  // radius and maxSpeed change only with the host's edits (which upload).
  if (h.uploaded || !haveLargest_) {
    largestRadius_ = largestSpeed_ = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      largestRadius_ = std::max(largestRadius_, w.radius[i]);
      largestSpeed_ = std::max(largestSpeed_, w.maxSpeed[i]);
    }
    haveLargest_ = true;
  }
  // The walkers' own envelopes, like their radii, change only with edits.
  bp = BioCrowdsModel::params(s, dt, largestRadius_, largestSpeed_, w.stepEnvelope(s, dt));
  Vec2 lo, hi;
  if (!walkerBox(h, largestSpeed_, lo, hi)) return false;
  BioCrowdsModel::fitField(field, w, s, lo, hi, h.pool);
  return true;
}

}  // namespace throng
