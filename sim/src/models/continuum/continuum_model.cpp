// Continuum Crowds on the CPU (continuum_model.hpp).
#include "models/continuum/continuum_model.hpp"

#include <algorithm>
#include <cstdio>

#include "base/thread_pool.hpp"
#include "core/teach.hpp"

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


ContinuumView ContinuumModel::view(const World& w, const Settings& s, float dt) {
  ContinuumView v;
  v.field = w.fields.routing();
  v.group = w.group.data();
  v.route = w.route.data();
  v.reach = reach(w, dt);
  v.envelope = w.stepEnvelope(s, dt);
  return v;
}

void ContinuumModel::buildGrid(StepContext& ctx, const StepReach& r) {
  const World& w = ctx.state;
  const GridSpec spec = grid(r);
  ctx.scratch.grid.build(w.px.data(), w.py.data(), w.size(), spec.cell, spec.neighbors, w.pool());
  if (!w.obstacles.vertices.empty()) ctx.obstacles.fitToReach(obstacleReach(r));
}

void ContinuumModel::push(const World& w, const AgentGrid& grid, const ContinuumView& cv, std::vector<float>& qx, std::vector<float>& qy,
                          const std::vector<float>& sx, const std::vector<float>& sy) {
  const std::size_t n = w.size();
  const AgentGridView gv = grid.view();
  const ObstacleView ov = w.obstacles.view();
  std::vector<float>& nx = scratchX_;
  std::vector<float>& ny = scratchY_;
  nx.resize(n);
  ny.resize(n);
  for (int round = 0; round < kPushRounds; ++round) {
    const ContinuumWalkers a{w.px.data(), w.py.data(), w.radius.data(), sx.data(), sy.data(), qx.data(), qy.data()};
    w.forEach(n, [&](std::size_t first, std::size_t end) {
      for (std::size_t i = first; i < end; ++i) {
        const Vec2 q = pushRound(gv, ov, a, cv.reach, static_cast<std::int32_t>(i), Vec2{sx[i], sy[i]}, cv.envelope);
        nx[i] = q.x;
        ny[i] = q.y;
      }
    });
    qx.swap(nx);
    qy.swap(ny);
  }
}

void ContinuumModel::solve(StepContext& ctx) {
  const World& w = ctx.state;
  const ContinuumView cv = view(w, ctx.settings, ctx.dt);
  buildGrid(ctx, cv.reach);
  StepBuffers& b = ctx.scratch.buffers;
  const std::size_t n = w.size();
  const ObstacleView ov = w.obstacles.view();
  stepX_.resize(n);
  stepY_.resize(n);
  qx_.resize(n);
  qy_.resize(n);
  const AgentGridView gv = ctx.scratch.grid.view();
  const MovingWalkers walkers = w.movingWalkers(b.wishX.data(), b.wishY.data());
  w.forEach(n, [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      const Vec2 d = continuumDesired(cv, static_cast<std::int32_t>(i), Vec2{w.px[i], w.py[i]},
                                      Vec2{b.wishX[i], b.wishY[i]}, b.landing[i] != 0);
      stepX_[i] = d.x * ctx.dt;
      stepY_[i] = d.y * ctx.dt;
      const Vec2 p{w.px[i], w.py[i]};
      const Vec2 q = p + firstMove(gv, ov, walkers, cv, static_cast<std::int32_t>(i), Vec2{stepX_[i], stepY_[i]},
                                   d.length() * ctx.dt);
      qx_[i] = q.x;
      qy_[i] = q.y;
    }
  }, kLightChunks);
  push(w, ctx.scratch.grid, cv, qx_, qy_, stepX_, stepY_);
  const ContinuumWalkers a{w.px.data(), w.py.data(), w.radius.data(), stepX_.data(), stepY_.data(), qx_.data(),
                           qy_.data()};
  w.forEach(n, [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      Vec2 v;
      const bool moved = continuumStep(gv, a, cv.reach, static_cast<std::int32_t>(i), Vec2{stepX_[i], stepY_[i]},
                                       b.landing[i] != 0, v, cv.envelope.onFor(static_cast<std::int32_t>(i)));
      b.nvx[i] = v.x;
      b.nvy[i] = v.y;
      b.njammed[i] = !moved;
    }
  }, kLightChunks);
}

void ContinuumModel::explain(StepContext& ctx, std::size_t i, AgentExplain& out) {
  const World& w = ctx.state;
  const ContinuumView cv = view(w, ctx.settings, ctx.dt);
  buildGrid(ctx, cv.reach);
  // Everyone's step as the step takes it (the push reads the neighbours');
  // walker i's from the caller's wish.
  const WishParams wp = w.wishParams(ctx.settings, ctx.dt);
  const WorldView wv = w.worldView();
  const std::size_t n = w.size();
  std::vector<float> sx(n), sy(n), qx(n), qy(n), wx(n), wy(n);
  std::vector<Vec2> desired(n);
  for (std::size_t k = 0; k < n; ++k) {
    bool landing = false;
    const Vec2 wish = k == i ? out.preferred : wishAt(wv, wp, static_cast<std::int32_t>(k), landing);
    wx[k] = wish.x;
    wy[k] = wish.y;
    desired[k] = continuumDesired(cv, static_cast<std::int32_t>(k), Vec2{w.px[k], w.py[k]}, wish, landing);
    sx[k] = desired[k].x * ctx.dt;
    sy[k] = desired[k].y * ctx.dt;
  }
  const MovingWalkers walkers = w.movingWalkers(wx.data(), wy.data());
  for (std::size_t k = 0; k < n; ++k) {
    const Vec2 p{w.px[k], w.py[k]};
    const Vec2 q = p + firstMove(ctx.scratch.grid.view(), w.obstacles.view(), walkers, cv, static_cast<std::int32_t>(k),
                                 Vec2{sx[k], sy[k]}, desired[k].length() * ctx.dt);
    qx[k] = q.x;
    qy[k] = q.y;
  }
  push(w, ctx.scratch.grid, cv, qx, qy, sx, sy);
  const ContinuumWalkers a{w.px.data(), w.py.data(), w.radius.data(), sx.data(), sy.data(), qx.data(), qy.data()};
  const Vec2 s{sx[i], sy[i]};
  out.jammed = !continuumStep(ctx.scratch.grid.view(), a, cv.reach, static_cast<std::int32_t>(i), s, false, out.chosen,
                              cv.envelope.onFor(static_cast<std::int32_t>(i)));
  out.motion = Vec2{qx[i] - w.px[i] - s.x, qy[i] - w.py[i] - s.y};  // the push
  // No velocity program, so no lines and no feasible region: the wish, the
  // field's choice, and the push (a displacement, world units, at most half
  // a radius) to scale from the walker where there is one.
  teachWishAndChoice(out.teaching, w.maxSpeed[i], out.preferred, out.chosen);
  const Vec2 p{w.px[i], w.py[i]};
  if (out.motion.length() > 0) out.teaching.arrow(TeachRole::Push, TeachFrame::World, p, p + out.motion);
  char line[96];
  std::snprintf(line, sizeof line, "push (%.3f, %.3f)", out.motion.x, out.motion.y);
  out.teaching.note(TeachRole::Push, line);
  out.teaching.note(TeachRole::Legend, "green: the push the walkers and walls around it give it this step");
}

}  // namespace throng
