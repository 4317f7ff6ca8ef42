#pragma once
// ORCA for one walker once its neighbours are known, as THRONG_HD functions
// over plain views: obstacle lines, agent lines, the linear programs, and
// solveAgent, all of them from the neighbour search on. The reference
// (reference.cpp), the fast CPU model (fast/orca_model.cpp) and the CUDA
// kernels (orca_slot.hpp) call them; the teaching view reads SolveScratch
// back. Where SolveParams::lineLanes is on (the fast model, on AVX2), three
// inner loops take their lanes forms from fast/lanes.hpp, the same bits.
#include <cmath>
#include <cstdint>

#include "core/envelope.hpp"
#include "geometry/obstacles.hpp"
#include "models/orca/envelope.hpp"
#include "models/orca/obstacle_lines.hpp"
#include "models/orca/orca.hpp"
#include "models/orca/fast/lanes.hpp"
#include "neighbors/agent_grid.hpp"

namespace throng {

/// Orders a walker's neighbours[0, count) at p nearest first, by (distance
/// squared, index) as every neighbour search gives them, moving lines[m]
/// (its agent lines, built in the neighbours' order) along with them.
THRONG_HD void orderNeighbors(const AgentsView& a, Vec2 p, std::int32_t* neighbors, int count, Line* lines) {
  std::uint64_t keys[kMaxNeighbors];
  for (int m = 0; m < count; ++m) keys[m] = keyAt(a, p, neighbors[m]);
  for (int m = 1; m < count; ++m) {
    const std::uint64_t key = keys[m];
    const Line line = lines[m];
    int b = m;
    for (; b > 0 && keys[b - 1] > key; --b) {
      keys[b] = keys[b - 1];
      lines[b] = lines[b - 1];
    }
    keys[b] = key;
    lines[b] = line;
  }
  for (int m = 0; m < count; ++m) neighbors[m] = static_cast<std::int32_t>(static_cast<std::uint32_t>(keys[m]));
}

/// What the solve of one walker needs besides the views.
struct SolveParams {
  float invTimeHorizon = 1, invObstacleTimeHorizon = 2, invDt = 60;
  float perceptionRadiusSq = 1e4f;
  std::int32_t maxNeighbors = 10;
  /// The kinematic envelope (envelope.hpp): the most the velocity may
  /// change in this step speeding up or turning (maxAccel * dt) and braking
  /// (maxDecel * dt; 0 takes accelStep), world units/s, as the settings
  /// give them; accelStep 0: none. A walker's own bounds
  /// (AgentsView::maxAccel, maxDecel) take their place (envelopeOf).
  float accelStep = 0, brakeStep = 0;
  float dt = 1.0f / 60;  ///< s, for the walkers' own bounds
  /// Right of way (Settings::rightOfWay, in [0, 1]; 0: RVO2's even
  /// halves): the share of a pair's change moved from the walker ahead to
  /// the walker behind (giveWay), with every walker's wish for this step
  /// (read only when rightOfWay > 0).
  float rightOfWay = 0;
  const float *wishX = nullptr, *wishY = nullptr;
  /// Build the agent lines eight at a time (agentLinesInLanes, the same bits as
  /// agentLine; host code on a CPU where lanesAvailable(); the CUDA
  /// kernels ignore it).
  bool lineLanes = false;
};

/// The solve's working set; the teaching view reads it back.
struct SolveScratch {
  Line lines[kMaxLines];
  std::int32_t neighbors[kMaxNeighbors];
  float neighborDistSq[kMaxNeighbors];  // the grid scan's; a list's walker leaves it as it was
  std::int32_t edges[kMaxObstacleLines];
  float edgeDistSq[kMaxObstacleLines];
  int neighborCount = 0, edgeCount = 0, obstacleLineCount = 0, lineCount = 0;
  /// A list stands in for the neighbours (the CPU step's SolveBatch):
  /// `list`, of neighborCount agents, whose ones in range are the
  /// neighbours (inRangeFromList), in the list's order rather than nearest
  /// first. The batch finds them with their lines, and orders them
  /// (orderNeighbors) before a linear program reads them.
  bool fromList = false;
  const std::int32_t* list = nullptr;  ///< read only with fromList
};

/// solveWithNeighbors' first part: agent i's obstacle edges and lines,
/// into s.edges and s.lines[0, s.obstacleLineCount).
THRONG_HD void obstacleLinesOf(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp, std::int32_t i,
                               SolveScratch& s) {
  if (ov.vertexCount == 0) {  // no obstacles: nothing to read or divide (selectObstacleEdges' first test)
    s.edgeCount = s.obstacleLineCount = 0;
    return;
  }
  const Vec2 p{a.px[i], a.py[i]};
  const float r = a.radius[i];
  const float reach = a.maxSpeed[i] / sp.invObstacleTimeHorizon + r;
  s.edgeCount = selectObstacleEdges(ov, p, reach * reach, s.edges, s.edgeDistSq, kMaxObstacleLines);
  s.obstacleLineCount =  // the test skips an out-of-line call in the open
      s.edgeCount > 0 ? obstacleLines(ov, s.edges, s.edgeCount, p, Vec2{a.vx[i], a.vy[i]}, r,
                                      sp.invObstacleTimeHorizon, s.lines)
                      : 0;
}

/// solveWithNeighbors' last part, once the agent lines follow the
/// obstacle lines in s.lines: the linear programs. False when jammed.
THRONG_HD bool solveWithLines(const AgentsView& a, const SolveParams& sp, std::int32_t i, Vec2 preferred,
                              Vec2& out, SolveScratch& s) {
  s.lineCount = s.obstacleLineCount + s.neighborCount;
  return solveVelocity(s.lines, s.lineCount, s.obstacleLineCount, a.maxSpeed[i], preferred, out, sp.lineLanes);
}

/// Walker i's share of the change its pair with j needs, d = p_j - p_i:
/// with j ahead of i along i's wish and i behind j along j's (or j
/// standing), i is the one behind and takes 1/2 + rightOfWay/2; in the
/// mirror case 1/2 - rightOfWay/2; otherwise (side by side, head on, two
/// converging on one place) half. j asks with -d exactly, so the two
/// shares always sum to one.
THRONG_HD float wayShare(Vec2 d, Vec2 wishI, Vec2 wishJ, float rightOfWay) {
  const float alongI = dot(d, wishI), alongJ = dot(d, wishJ);
  if (alongI > 0.0f && alongJ >= 0.0f) return 0.5f + 0.5f * rightOfWay;
  if (alongJ < 0.0f && alongI <= 0.0f) return 0.5f - 0.5f * rightOfWay;
  return 0.5f;
}

/// Right of way for agent i's agent lines lines[0, count), built for
/// neighbors[0, count) with RVO2's halves (line point v_i + u/2): each
/// moved to v_i + share * u (wayShare), so people queueing at a door let
/// the one ahead through rather than meeting it halfway, as the keep-apart
/// limits' yielding does for the other models.
THRONG_HD void giveWay(const AgentsView& a, const SolveParams& sp, std::int32_t i, const std::int32_t* neighbors,
                       int count, Line* lines) {
  const Vec2 p{a.px[i], a.py[i]}, v{a.vx[i], a.vy[i]}, wishI{sp.wishX[i], sp.wishY[i]};
  for (int k = 0; k < count; ++k) {
    const std::int32_t j = neighbors[k];
    const float share = wayShare(Vec2{a.px[j], a.py[j]} - p, wishI, Vec2{sp.wishX[j], sp.wishY[j]}, sp.rightOfWay);
    if (share != 0.5f) lines[k].point = v + (2.0f * share) * (lines[k].point - v);
  }
}

/// Agent i's agent lines for its neighbours s.neighbors[0,
/// s.neighborCount), into s.lines after its s.obstacleLineCount lines.
THRONG_HD void agentLinesAfter(const AgentsView& a, const SolveParams& sp, std::int32_t i, SolveScratch& s) {
  Line* const out = s.lines + s.obstacleLineCount;
#if !defined(__CUDA_ARCH__)  // host code, the same in every compiler's host pass
  if (sp.lineLanes) {
    agentLinesInLanes(a, i, s.neighbors, s.neighborCount, sp.invTimeHorizon, sp.invDt, out);
  } else
#endif
  {
    agentLines(a, i, s.neighbors, s.neighborCount, sp.invTimeHorizon, sp.invDt, out);
  }
  if (sp.rightOfWay > 0.0f) giveWay(a, sp, i, s.neighbors, s.neighborCount, out);
}

/// Walker i's envelope for the step: a·dt and b·dt, its own where it has
/// them, else the settings' (StepEnvelope's rule); accel 0: none.
struct EnvelopeSteps {
  float accel = 0, brake = 0;
};
THRONG_HD EnvelopeSteps envelopeOf(const AgentsView& a, const SolveParams& sp, std::int32_t i) {
  StepEnvelope e;
  e.accelStep = sp.accelStep, e.brakeStep = sp.brakeStep, e.dt = sp.dt;
  e.ownAccel = a.maxAccel, e.ownDecel = a.maxDecel;
  const float accel = e.accelOf(i);
  return {accel, e.brakeOf(i, accel)};
}

/// ORCA for agent i once its neighbours are in s.neighbors[0,
/// s.neighborCount), as selectNeighbors or nearestFromList chose them:
/// solveAgent's second half.
THRONG_HD bool solveWithNeighbors(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp,
                                  std::int32_t i, Vec2 preferred, Vec2& out, SolveScratch& s) {
  obstacleLinesOf(a, ov, sp, i, s);
  agentLinesAfter(a, sp, i, s);
  return solveWithLines(a, sp, i, preferred, out, s);
}

/// Agent i's program with the kinematic envelope (envelope.hpp), its
/// neighbours nearest first in s.neighbors[0, s.neighborCount): the
/// envelope's lines beside the obstacle lines (hard), then the agent
/// lines. When the walls and the envelope leave no velocity within the top
/// speed, the walls win: the program without the envelope. Returns false
/// when jammed.
THRONG_HD bool envelopeSolve(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp, std::int32_t i,
                             Vec2 preferred, Vec2& out, SolveScratch& s) {
  obstacleLinesOf(a, ov, sp, i, s);
  const int walls = s.obstacleLineCount;
  const EnvelopeSteps e = envelopeOf(a, sp, i);
  envelopeLines(Vec2{a.vx[i], a.vy[i]}, e.accel, e.brake, s.lines + walls);
  const int hard = walls + kEnvelopeLines;
  Vec2 probe;
  if (linearProgram2(s.lines, hard, a.maxSpeed[i], preferred, false, probe) < hard)
    return solveWithNeighbors(a, ov, sp, i, preferred, out, s);
  s.obstacleLineCount = hard;
  agentLinesAfter(a, sp, i, s);
  return solveWithLines(a, sp, i, preferred, out, s);
}

/// Whether v lies in agent i's kinematic envelope for this step (one it
/// is under: envelopeOf's accel > 0).
THRONG_HD bool withinEnvelope(const AgentsView& a, const SolveParams& sp, std::int32_t i, Vec2 v) {
  Line envelope[kEnvelopeLines];
  const EnvelopeSteps e = envelopeOf(a, sp, i);
  envelopeLines(Vec2{a.vx[i], a.vy[i]}, e.accel, e.brake, envelope);
  return permittedByAll(envelope, kEnvelopeLines, v);
}

/// ORCA for agent i once its neighbours are nearest first in
/// s.neighbors[0, s.neighborCount), under the envelope's rule when there
/// is one (the same bits on every path that finds the neighbours): a wish
/// outside the envelope is solved with it (envelopeSolve) straight away;
/// one inside, without it, and again with it only when the velocity found
/// lies outside (a velocity inside is the envelope's optimum too). False
/// when jammed.
THRONG_HD bool solveWithinEnvelope(const AgentsView& a, const ObstacleView& ov, const SolveParams& sp,
                                   std::int32_t i, Vec2 preferred, Vec2& out, SolveScratch& s) {
  if (!(envelopeOf(a, sp, i).accel > 0.0f)) return solveWithNeighbors(a, ov, sp, i, preferred, out, s);
  if (!withinEnvelope(a, sp, i, preferred)) return envelopeSolve(a, ov, sp, i, preferred, out, s);
  const bool ok = solveWithNeighbors(a, ov, sp, i, preferred, out, s);
  return withinEnvelope(a, sp, i, out) ? ok : envelopeSolve(a, ov, sp, i, preferred, out, s);
}

/// ORCA for agent i: returns false when the walker is jammed. `preferred`
/// is its wish for this step; the new velocity goes to `out`. `hint`,
/// `hintCount` and `slot` (i's grid slot) only speed up the neighbour
/// search (see selectNeighbors).
THRONG_HD bool solveAgent(const AgentsView& a, const AgentGridView& g, const ObstacleView& ov,
                          const SolveParams& sp, std::int32_t i, Vec2 preferred, Vec2& out,
                          SolveScratch& s, const std::int32_t* hint = nullptr, int hintCount = 0,
                          std::int32_t slot = -1) {
  s.neighborCount = selectNeighbors(g, a, Vec2{a.px[i], a.py[i]}, i, sp.perceptionRadiusSq, sp.maxNeighbors,
                                    s.neighbors, s.neighborDistSq, hint, hintCount, slot);
  return solveWithinEnvelope(a, ov, sp, i, preferred, out, s);
}

}  // namespace throng
