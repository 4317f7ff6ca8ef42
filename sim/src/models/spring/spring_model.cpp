// The position-spring baseline (spring_model.hpp).
#include "models/spring/spring_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "neighbors/agent_grid.hpp"

namespace throng {

namespace {

/// Walker i's velocity from the state as it was: away from every walker it
/// overlaps at its top speed (their directions summed), else its wish at
/// most at its top speed. `push` (optional) gets the direction summed.
Vec2 springVelocity(const AgentsView& a, const AgentGridView& g, float largestRadius, std::int32_t i, Vec2 wish,
                    Vec2* push = nullptr, std::int32_t* touching = nullptr, int* touchingCount = nullptr) {
  const Vec2 p{a.px[i], a.py[i]};
  const float reach = a.radius[i] + largestRadius;
  std::int32_t near[SpringModel::kNeighbors];
  float distSq[SpringModel::kNeighbors];
  const int n = selectNeighbors(g, a, p, i, reach * reach, SpringModel::kNeighbors, near, distSq);
  Vec2 away{};
  int count = 0;
  for (int k = 0; k < n; ++k) {
    const std::int32_t j = near[k];
    const float r = a.radius[i] + a.radius[j];
    if (!(distSq[k] < r * r)) continue;
    const float d = std::sqrt(distSq[k]);
    // Coincident centres push along +x, the lower index's way round.
    away += d > 0 ? (p - Vec2{a.px[j], a.py[j]}) / d : Vec2{i < j ? -1.0f : 1.0f, 0};
    if (touching) touching[count] = j;
    ++count;
  }
  if (touchingCount) *touchingCount = count;
  if (push) *push = away;
  const float top = a.maxSpeed[i];
  if (count > 0 && away.length() > 0) return away.normalized() * top;
  const float s = wish.length();
  return s > top && s > 0 ? wish * (top / s) : wish;
}

}  // namespace

void SpringModel::buildGrid(const World& w, AgentGrid& g) {
  largestRadius_ = 0;
  for (float r : w.radius) largestRadius_ = std::max(largestRadius_, r);
  const GridSpec spec = grid(largestRadius_);
  g.build(w.px.data(), w.py.data(), w.size(), spec.cell, spec.neighbors, w.pool());
}

void SpringModel::solve(StepContext& ctx) {
  const World& w = ctx.state;
  buildGrid(w, ctx.scratch.grid);
  const AgentsView a = w.view();
  const AgentGridView g = ctx.scratch.grid.view();
  StepBuffers& b = ctx.scratch.buffers;
  w.forEach(w.size(), [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      const Vec2 v = springVelocity(a, g, largestRadius_, static_cast<std::int32_t>(i), {b.wishX[i], b.wishY[i]});
      b.nvx[i] = v.x;
      b.nvy[i] = v.y;
      b.njammed[i] = 0;
    }
  });
}

void SpringModel::explain(StepContext& ctx, std::size_t i, AgentExplain& out) {
  const World& w = ctx.state;
  buildGrid(w, ctx.scratch.grid);
  Vec2 push;
  std::int32_t touching[kNeighbors];
  int count = 0;
  out.chosen = springVelocity(w.view(), ctx.scratch.grid.view(), largestRadius_, static_cast<std::int32_t>(i), out.preferred,
                              &push, touching, &count);
  out.jammed = false;
  for (int k = 0; k < count; ++k) out.neighbours.push_back(static_cast<std::size_t>(touching[k]));
  // Its view: a ring round each walker it already overlaps, the push away
  // from them, the wish and what it does instead.
  TeachingView& view = out.teaching;
  const Vec2 p{w.px[i], w.py[i]};
  for (int k = 0; k < count; ++k) {
    const auto j = static_cast<std::size_t>(touching[k]);
    view.ring(TeachRole::Neighbour, TeachFrame::World, {w.px[j], w.py[j]}, w.radius[j], "overlaps");
  }
  view.ring(TeachRole::TopSpeed, TeachFrame::Velocity, {0, 0}, w.maxSpeed[i], "top speed");
  view.arrow(TeachRole::Preferred, TeachFrame::Velocity, {0, 0}, out.preferred, "wish");
  view.arrow(TeachRole::Chosen, TeachFrame::Velocity, {0, 0}, out.chosen, "chosen");
  if (count > 0) view.arrow(TeachRole::Push, TeachFrame::World, p, p + push.normalized() * w.radius[i], "push");
  char line[96];
  std::snprintf(line, sizeof line, "overlapping %d: %s", count, count ? "pushed away at top speed" : "walks at its wish");
  view.note(TeachRole::Text, line);
  view.note(TeachRole::Legend,
            "The naive baseline: it reacts only once it already overlaps, with the whole correction; walkers "
            "interpenetrate, tunnel when fast, and a head-on pair bounces where ORCA passes.");
}

}  // namespace throng
