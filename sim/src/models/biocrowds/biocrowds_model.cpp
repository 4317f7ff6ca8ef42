// BioCrowds on the CPU (biocrowds_model.hpp).
#include "models/biocrowds/biocrowds_model.hpp"

#include <algorithm>
#include <cstdio>

#include "base/thread_pool.hpp"

namespace throng {

BioParams BioCrowdsModel::params(const Settings& s, float dt, float largestRadius, float largestSpeed,
                                 const StepEnvelope& envelope) {
  BioParams p;
  p.radius = s.personalSpace;
  p.radiusSq = s.personalSpace * s.personalSpace;
  p.gain = static_cast<float>(s.markerGain / loneWalkerReach(s.personalSpace));
  p.dt = dt;
  p.largestRadius = largestRadius;
  p.largestSpeed = largestSpeed;
  p.envelope = envelope;
  p.envelope.vx = p.envelope.vy = p.envelope.ownAccel = p.envelope.ownDecel = nullptr;
  return p;
}

BioParams BioCrowdsModel::params(const World& w, const Settings& s, float dt) {
  float radius = 0, speed = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    radius = std::max(radius, w.radius[i]);
    speed = std::max(speed, w.maxSpeed[i]);
  }
  return params(s, dt, radius, speed, w.stepEnvelope(s, dt));
}

bool BioCrowdsModel::fitField(MarkerField& field, const World& w, const Settings& s, Vec2 lo, Vec2 hi,
                              ThreadPool* pool) {
  return field.fit(s, w.obstacles, lo, hi, w.size(), [&w](const auto& take) {
    for (std::size_t i = 0; i < w.size(); ++i)
      if (w.hasGoal[i]) take(Vec2{w.gx[i], w.gy[i]});
    for (const Waypoint& p : w.waypoints) {
      take(p.a);
      take(p.b);
    }
  }, pool);
}

void BioCrowdsModel::prepare(StepContext& ctx) {
  const World& w = ctx.state;
  const Settings& s = ctx.settings;
  const float dt = ctx.dt;
  const std::size_t n = w.size();
  bp = params(w, s, dt);
  if (n == 0) {  // nothing to own: the field waits for walkers
    owner.assign(field.size(), -1);
    return;
  }
  const GridSpec spec = grid(s);
  AgentGrid& g = ctx.scratch.grid;
  g.build(w.px.data(), w.py.data(), n, spec.cell, spec.neighbors, w.pool());
  // The edge grid's cells only change how fast edges are found.
  if (!w.obstacles.vertices.empty()) ctx.obstacles.fitToReach(obstacleReach(s));
  fitField(field, w, s, Vec2{g.minX, g.minY}, Vec2{g.maxX, g.maxY}, w.pool());
  owner.assign(field.size(), -1);
  const MarkerGridView mg = field.view();
  const AgentGridView gv = g.view();
  const ObstacleView ov = w.obstacles.view();
  const float R = s.personalSpace;
  std::int32_t* const out = owner.data();
  w.forEach(static_cast<std::size_t>(mg.cols) * static_cast<std::size_t>(mg.rows), [&](std::size_t b, std::size_t e) {
    float cx[kCellCandidates], cy[kCellCandidates];
    std::int32_t ci[kCellCandidates];
    for (std::size_t c = b; c < e; ++c) ownersOfCell(mg, gv, ov, R, static_cast<int>(c), cx, cy, ci, out);
  }, 4);
  preparedVersion_ = w.version;
  preparedRadius_ = s.personalSpace;
  preparedDensity_ = s.markerDensity;
  preparedSeed_ = s.seed;
  preparedGeometry_ = w.obstacles.version;
  preparedDt_ = dt;
}

void BioCrowdsModel::solve(StepContext& ctx) {
  const World& w = ctx.state;
  prepare(ctx);
  explainWishX_.clear();  // the teaching view finds its own wishes
  const MarkerGridView mg = field.view();
  const AgentGridView gv = ctx.scratch.grid.view();
  const ObstacleView ov = w.obstacles.view();
  StepBuffers& b = ctx.scratch.buffers;
  const BioWalkers a = w.movingWalkers(b.wishX.data(), b.wishY.data());
  const std::int32_t* const own = owner.data();
  w.forEach(w.size(), [&](std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      Vec2 v;
      const bool moved = bioVelocity(mg, own, gv, ov, a, bp, static_cast<std::int32_t>(i), {b.wishX[i], b.wishY[i]},
                                     b.landing[i] != 0, v);
      b.nvx[i] = v.x;
      b.nvy[i] = v.y;
      b.njammed[i] = !moved;
    }
  });
}

void BioCrowdsModel::explain(StepContext& ctx, std::size_t i, AgentExplain& out) {
  const World& w = ctx.state;
  const Settings& s = ctx.settings;
  if (preparedVersion_ != w.version || preparedRadius_ != s.personalSpace || preparedDensity_ != s.markerDensity ||
      preparedSeed_ != s.seed || preparedGeometry_ != w.obstacles.version || preparedDt_ != ctx.dt ||
      explainWishX_.size() != w.size()) {
    prepare(ctx);
    // Everyone's wish, as the step will take it (who yields to whom reads
    // the neighbours'); with a user's closure the caller gives walker i's
    // own, and the others' come from their goals.
    const WishParams wp = w.wishParams(s, ctx.dt);
    const WorldView wv = w.worldView();
    explainWishX_.resize(w.size());
    explainWishY_.resize(w.size());
    for (std::size_t k = 0; k < w.size(); ++k) {
      bool landing;
      const Vec2 v = wishAt(wv, wp, static_cast<std::int32_t>(k), landing);
      explainWishX_[k] = v.x;
      explainWishY_[k] = v.y;
    }
  }
  explainWishX_[i] = out.preferred.x;
  explainWishY_[i] = out.preferred.y;
  const MarkerGridView mg = field.view();
  const AgentGridView gv = ctx.scratch.grid.view();
  const ObstacleView ov = w.obstacles.view();
  const BioWalkers a = w.movingWalkers(explainWishX_.data(), explainWishY_.data());
  const auto self = static_cast<std::int32_t>(i);
  BioMotion motion;
  out.jammed = !bioVelocity(mg, owner.data(), gv, ov, a, bp, self, out.preferred, false, out.chosen, &motion);
  out.motion = motion.motion;
  // The owned markers and their weights (0: owned, not usable), as the sum
  // takes them.
  const Vec2 p{w.px[i], w.py[i]};
  forOwnedMarkers(mg, owner.data(), self, p, w.radius[i], out.preferred,
                  [&](std::int32_t, Vec2 m, float f, bool usable) {
                    out.markers.push_back(p + m);
                    out.markerWeights.push_back(usable ? f : 0.0f);
                  });
  teach(s, p, w.maxSpeed[i], out);
}

void BioCrowdsModel::teach(const Settings& s, Vec2 p, float maxSpeed, AgentExplain& out) {
  // The personal space R, the top-speed circle, the markers owned (a dot
  // that grows with its weight f_k; a grey ring for one it cannot use: its
  // disc does not fit there, or a neighbour is too near), the wish and the
  // choice, and last and wider M (true length, within R), so where it runs
  // along the chosen velocity it shows as a band over it.
  TeachingView& view = out.teaching;
  view.ring(TeachRole::Reach, TeachFrame::World, p, s.personalSpace, "R");
  view.ring(TeachRole::TopSpeed, TeachFrame::Velocity, {0, 0}, std::max(maxSpeed, 0.0f), "top speed");
  float heaviest = 0;
  for (float f : out.markerWeights) heaviest = std::max(heaviest, f);
  const float spacing = markerSpacing(s.personalSpace, s.markerDensity);
  std::size_t usable = 0;
  for (std::size_t k = 0; k < out.markers.size() && k < out.markerWeights.size(); ++k) {
    const float f = out.markerWeights[k];
    usable += f > 0;
    view.add(TeachKind::Dot, f > 0 ? TeachRole::Marker : TeachRole::MarkerUnusable, TeachFrame::World, {out.markers[k]},
             spacing, f > 0 && heaviest > 0 ? f / heaviest : 0);
  }
  view.arrow(TeachRole::Preferred, TeachFrame::Velocity, {0, 0}, out.preferred, "wish g");
  view.arrow(TeachRole::Chosen, TeachFrame::Velocity, {0, 0}, out.chosen, "chosen");
  view.arrow(TeachRole::Motion, TeachFrame::World, p, p + out.motion, "M");
  char line[96];
  std::snprintf(line, sizeof line, "markers owned %zu, usable %zu", out.markers.size(), usable);
  view.note(TeachRole::Text, line);
  std::snprintf(line, sizeof line, "personal space R %.3f   |M| %.3f", s.personalSpace, out.motion.length());
  view.note(TeachRole::Text, line);
  std::snprintf(line, sizeof line, "motion M (%.3f, %.3f)", out.motion.x, out.motion.y);
  view.note(TeachRole::Motion, line);
  view.note(TeachRole::Legend,
            "magenta: the markers it owns, larger the harder they pull (weight f_k); grey rings: owned, unusable; "
            "green: M, the weighted mean of their offsets; circle: personal space R");
}

MarkerView BioCrowdsModel::markers() const {
  MarkerView v;
  v.x = field.mx;
  v.y = field.my;
  if (owner.size() == field.size()) v.owner = owner;
  return v;
}

}  // namespace throng
