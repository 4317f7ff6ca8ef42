#pragma once
// ORCA's AVX2 lanes, the fast model's (orca_model.hpp): a walker's lines for
// its neighbours one at a time (agentLines, THRONG_HD: the CUDA kernels,
// CPUs without AVX2) or eight at a time (agentLinesInLanes), and the lines
// and linear programs of a batch of up to eight walkers, one to a lane
// (batch...). Names say what a lane holds: InLanes, eight lines of one
// walker; batch, one walker each. They are in lanes.cpp, the one file built
// for AVX2 (per function, so the rest runs on any x86-64); what every
// compiler sees here (nvcc's host pass too) is plain C++.
//
// Design note. agentLine branches five ways (touching, cut-off circle with
// or without the head-on turn, left or right leg, overlap), and which way
// is hard to predict, so the scalar loop spends much of its time on
// branches. Here every lane computes every way, with the same operations
// in the same order as agentLine, and a mask per lane picks its way. IEEE
// +, -, *, / and sqrt round each lane exactly as the scalar instructions
// do, and the build never contracts a*b+c (the AVX2 target here does not
// include FMA), so every line is agentLine's, bit for bit; tests/sim/
// test_orca_lanes.cpp compares them over random and edge cases. The rare
// ways run only when some lane needs them: each of the three (cut-off
// circle, leg, overlap), the head-on turn when a lane is on a collision
// course; coincident centres (a hashed direction) take agentLine for that
// lane. A ring's pairs all take the cut-off circle, so the legs' and the
// overlap's square roots and divisions are skipped there.
//
// Four SSE lanes, x86-64's baseline, cost more than the scalar loop (no
// blend instruction, two-operand forms), so CPUs without AVX2 keep it. The
// neighbours come from AgentKin records (position, velocity and radius in
// 32 bytes, copied at the step's start), two reads each and a transpose:
// gathered one float at a time into arrays and read back as whole
// registers, they would stall store forwarding (docs/orca-cpu-notes.md has
// the figures).
//
// The CPU step builds the lines of eight walkers at once (orca_model.cpp's
// SolveBatch): batchAgentLines fills its lanes with pairs from any of them,
// each lane picking its walker's own values out of one register per input,
// and stores each line to its walker's lines. One walker at a time, a ring's
// four neighbours filled half of a group and a dense crowd's ten two groups
// of eight.
#include <cstdint>

#include "neighbors/agents_view.hpp"
#include "models/orca/orca.hpp"

namespace throng {

/// What agentLine takes for the pair of agents (A at p with velocity v and
/// radius r, B = j), as both line builders compute it.
struct PairInputs {
  Vec2 relPos, relVel;            ///< pB - pA, vA - vB
  float combinedRadius, commonSq;  ///< rA + rB, |vA + vB|^2
};
THRONG_HD PairInputs pairInputs(const AgentsView& a, Vec2 p, Vec2 v, float r, std::int32_t j) {
  const Vec2 vj{a.vx[j], a.vy[j]};
  return {Vec2{a.px[j], a.py[j]} - p, v - vj, r + a.radius[j], (v + vj).lengthSquared()};
}

/// The ORCA lines of agent `self` for its neighbours j = neighbors[k], k in
/// [0, count), into out[k], one at a time: agentLine(v, pairInputs(..., j),
/// invTau, invDt, id[self], id[j]).
THRONG_HD void agentLines(const AgentsView& a, std::int32_t self, const std::int32_t* neighbors, int count,
                          float invTau, float invDt, Line* out) {
  const Vec2 p{a.px[self], a.py[self]}, v{a.vx[self], a.vy[self]};
  const float r = a.radius[self];
  for (int k = 0; k < count; ++k) {
    const std::int32_t j = neighbors[k];
    const PairInputs q = pairInputs(a, p, v, r, j);
    out[k] = agentLine(v, q.relPos, q.relVel, q.combinedRadius, invTau, invDt, a.id[self], a.id[j], q.commonSq);
  }
}

/// linearProgram2 (directionOpt false), then linearProgram3 from the line
/// it stopped at where it did, for up to eight walkers at once, one to a
/// lane: walker w's lines[w][0, lineCount[w]), of which
/// obstacleLineCount[w] obstacle lines, speed limit radius[w] and wish
/// optVelocity[w] give result[w], lineFail[w] (linearProgram2's return)
/// and deepest[w] (linearProgram3's; 0 where it did not run), bit for bit.
/// Walkers whose wish breaks no line cost a test per line; a line that some
/// walker must move onto runs linearProgram1 in every lane that must,
/// without a branch per walker. Host code where lanesAvailable()
/// (fast/lanes.cpp).
void batchLinearPrograms(const Line* const* lines, const int* lineCount, const int* obstacleLineCount, const float* radius,
                     const Vec2* optVelocity, int walkers, Vec2* result, int* lineFail, float* deepest);
/// solveVelocity for up to eight walkers at once, one to a lane:
/// batchLinearPrograms, then leanTowardWish for the walkers it left jammed,
/// eight walkers' lines at a time (lanes bit for bit as each walker's own
/// solveVelocity): result[w]; returns the walkers (bit w for walker w)
/// whose solveVelocity returns false, jammed. Host code where
/// lanesAvailable() (fast/lanes.cpp).
unsigned batchSolveVelocities(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                          const float* radius, const Vec2* optVelocity, int walkers, Vec2* result);
/// linearProgram3 for up to eight walkers at once, one to a lane: walker
/// w's lines[w][0, lineCount[w]), of which obstacleLineCount[w] obstacle
/// lines, from beginLine[w] (lineCount[w] or more: the walker is left as
/// it is) and result[w]; result[w] and deepest[w] as linearProgram3's
/// result and return, bit for bit. Host code where lanesAvailable().
void batchLinearProgram3(const Line* const* lines, const int* lineCount, const int* obstacleLineCount,
                      const int* beginLine, const float* radius, int walkers, Vec2* result, float* deepest);

/// True where agentLinesInLanes may run: an x86-64 CPU with AVX2.
bool lanesAvailable();

/// agentLines, eight neighbours at a time, bit for bit, reading the
/// neighbours from a.kin (AgentKin records; without them it is agentLines).
/// Only where lanesAvailable(). It writes `out` up to count rounded up
/// to eight (SolveScratch::lines has room).
void agentLinesInLanes(const AgentsView& a, std::int32_t self, const std::int32_t* neighbors, int count, float invTau,
                 float invDt, Line* out);

/// agentLinesInLanes for a batch of walkers: the line of walker
/// walkers[walkerOf[m]] for its neighbour others[m] into *outs[m], m in
/// [0, count), eight pairs at a time whoever the walkers are, so walkers
/// with few neighbours each fill the lanes. At most eight walkers; needs
/// a.kin, and outs up to count rounded up to eight (those past count may
/// all point at one spare Line). Only where lanesAvailable().
/// With wishes (else null), also each walker's linear program start into
/// starts (linearProgram2's: withinSpeed(wishes[w], speeds[w])), and
/// returns the walkers (bit w for walker w) whose start breaks one of the
/// lines built, or that had a line built one at a time (coincident pairs;
/// the scalar form tells exactly); without, returns every walker's bit.
/// A walker without its bit and without obstacle lines ends its program
/// at its start, so the CPU step skips the programs of a batch whose
/// walkers all do (a ring's, every batch).
/// With `packed` (else null), the lines go there in pair order instead, as
/// eight whole lines at a time (room for count rounded up to eight), and
/// outs is not read.
/// The walkers in `unfiltered` (bit w for walker w) queued a list rather
/// than their neighbours: of their pairs, only those strictly in range
/// (rangeSq, as inRangeFromList tests it) are neighbours, and only theirs
/// can flag the walker. With any, bit m % 8 of inRange[m / 8] (room for
/// count / 8 rounded up) tells whether pair m is a neighbour (every other
/// walker's pair is).
unsigned batchAgentLines(const AgentsView& a, const std::int32_t* walkers, int walkerCount,
                         const std::int32_t* walkerOf, const std::int32_t* others, int count, float invTau,
                         float invDt, Line* const* outs, const Vec2* wishes, const float* speeds, Vec2* starts,
                         Line* packed = nullptr, unsigned unfiltered = 0, float rangeSq = 0,
                         std::uint8_t* inRange = nullptr);
/// Queues a batch's pairs for batchAgentLines, walker after walker: for
/// walker w, walkerOf[k] = w, others[k] = neighbors[w][n], outs[k] =
/// lines[w] + n for its n in [0, count[w]), k counting on over the batch;
/// returns the pairs queued. It may write all three up to the total
/// rounded up to eight, and each walker's up to its count so rounded.
/// Without outs (null), neither outs nor lines is touched.
int queueBatchPairs(int walkers, const std::int32_t* const* neighbors, const int* count, Line* const* lines,
                std::int32_t* walkerOf, std::int32_t* others, Line** outs);

}  // namespace throng
