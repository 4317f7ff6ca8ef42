#pragma once
// agentLine for eight neighbours at once, on CPUs with AVX2 (host code
// only: the CUDA kernels and other CPUs call agentLine per neighbour).
// Declarations only: the code is in sim/src/orca_lanes.cpp, the one file
// built for AVX2 (per function, so the rest runs on any x86-64), and every
// compiler that includes this header (nvcc's host pass too) sees the same
// plain C++.
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
// ways run only when some lane needs them: the head-on turn when a lane is
// on a collision course; coincident centres (a hashed direction) take
// agentLine for that lane.
//
// Measured with callgrind on the 10k dense crowd (ten lines per walker),
// gathering the inputs included: about 900 instructions per agent-step one
// line at a time, about 630 here (the whole step: 3,645 -> 3,357). Four
// SSE lanes, x86-64's baseline, took about 1,170 (no blend instruction,
// two-operand forms), so CPUs without AVX2 keep the scalar loop.
#include <cstdint>

#include "throng/agents_view.hpp"
#include "throng/orca.hpp"

namespace throng {

/// True where agentLines8 may run: an x86-64 CPU with AVX2.
bool lineLanesAvailable();

/// The ORCA lines of agent `self` for its neighbours j = neighbors[k], k in
/// [0, count), into out[k]: bit for bit what solveAgent's loop gives,
/// agentLine(v, p_j - p, v - v_j, r + r_j, invTau, invDt, id[self], id[j],
/// |v + v_j|^2). Only where lineLanesAvailable(). It writes `out` up to
/// count rounded up to eight (SolveScratch::lines has room).
void agentLines8(const AgentsView& a, std::int32_t self, const std::int32_t* neighbors, int count, float invTau,
                 float invDt, Line* out);

}  // namespace throng
