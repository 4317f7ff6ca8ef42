// Continuum Crowds on the CPU (continuum_model.hpp).
#include "models/continuum/continuum_model.hpp"

#include <algorithm>

#include "base/thread_pool.hpp"

namespace throng {

StepReach ContinuumModel::reach(const World& w, float dt) {
  StepReach r;
  r.dt = dt;
  for (std::size_t i = 0; i < w.size(); ++i) {
    r.largestRadius = std::max(r.largestRadius, w.radius[i]);
    r.largestSpeed = std::max(r.largestSpeed, w.maxSpeed[i]);
  }
  return r;
}

ContinuumView ContinuumModel::view(const World& w, float dt) {
  ContinuumView v;
  v.field = w.fields.routing();
  v.group = w.group.data();
  v.route = w.route.data();
  v.reach = reach(w, dt);
  return v;
}

void ContinuumModel::buildGrid(World& w, const StepReach& r) {
  // Columns as wide as the farthest two walkers can close in a step.
  const float cell = 2.0f * (r.largestRadius + r.largestSpeed * r.dt);
  w.grid.build(w.px.data(), w.py.data(), w.size(), cell > 0.0f ? cell : 1.0f, 4, w.pool());
  if (!w.obstacles.vertices.empty()) w.obstacles.fitToReach(r.largestRadius + r.largestSpeed * r.dt);
}

void ContinuumModel::solve(StepContext& ctx) {
  World& w = ctx.world;
  const ContinuumView cv = view(w, ctx.dt);
  buildGrid(w, cv.reach);
  const AgentGridView gv = w.grid.view();
  const ObstacleView ov = w.obstacles.view();
  StepBuffers& b = w.buffers;
  const MovingWalkers a{w.px.data(), w.py.data(), w.radius.data(), w.maxSpeed.data(), b.wishX.data(), b.wishY.data()};
  w.forEach(w.size(), [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      Vec2 v;
      const bool moved = continuumVelocity(cv, gv, ov, a, static_cast<std::int32_t>(i), {b.wishX[i], b.wishY[i]},
                                           b.landing[i] != 0, v);
      b.nvx[i] = v.x;
      b.nvy[i] = v.y;
      b.njammed[i] = !moved;
    }
  });
}

void ContinuumModel::explain(StepContext& ctx, std::size_t i, AgentExplain& out) {
  World& w = ctx.world;
  const ContinuumView cv = view(w, ctx.dt);
  buildGrid(w, cv.reach);
  // Everyone's wish as the step takes it (who yields to whom reads the
  // neighbours'); walker i's is the caller's.
  const WishParams wp = w.wishParams(ctx.settings, ctx.dt);
  const WorldView wv = w.worldView();
  std::vector<float> wx(w.size()), wy(w.size());
  for (std::size_t k = 0; k < w.size(); ++k) {
    bool landing;
    const Vec2 v = wishAt(wv, wp, static_cast<std::int32_t>(k), landing);
    wx[k] = v.x;
    wy[k] = v.y;
  }
  wx[i] = out.preferred.x;
  wy[i] = out.preferred.y;
  const MovingWalkers a{w.px.data(), w.py.data(), w.radius.data(), w.maxSpeed.data(), wx.data(), wy.data()};
  ContinuumMotion motion;
  out.jammed = !continuumVelocity(cv, w.grid.view(), w.obstacles.view(), a, static_cast<std::int32_t>(i), out.preferred,
                                  false, out.chosen, &motion);
  out.motion = motion.push;
}

}  // namespace throng
