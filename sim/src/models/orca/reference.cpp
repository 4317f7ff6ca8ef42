// OrcaReference (reference.hpp): ORCA one walker at a time.
#include "models/orca/reference.hpp"

#include <memory>

#include "models/orca/teach.hpp"

namespace throng {

SolveParams OrcaReference::solveParams(const Settings& s, float dt) {
  SolveParams sp;
  sp.invTimeHorizon = 1.0f / s.timeHorizon;
  sp.invObstacleTimeHorizon = 1.0f / s.obstacleTimeHorizon;
  sp.invDt = 1.0f / dt;
  sp.perceptionRadiusSq = s.perceptionRadius * s.perceptionRadius;
  sp.maxNeighbors = s.maxNeighbors;
  const StepEnvelope e = settingsEnvelope(s, dt);
  sp.accelStep = e.accelStep;
  sp.brakeStep = e.brakeStep;
  sp.dt = e.dt;
  sp.rightOfWay = s.rightOfWay;  // the wishes are the caller's to point at
  return sp;
}

void OrcaReference::buildGrid(const World& w, AgentGrid& g, const Settings& s) {
  const GridSpec spec = grid(s);
  g.build(w.px.data(), w.py.data(), w.size(), spec.cell, spec.neighbors, w.pool());
}

void OrcaReference::solve(StepContext& ctx) {
  const World& w = ctx.state;
  const Settings& s = ctx.settings;
  AgentGrid& g = ctx.scratch.grid;
  buildGrid(w, g, s);
  if (!w.obstacles.vertices.empty() && w.size() > 0) ctx.obstacles.fitToReach(obstacleReach(w, s));
  StepBuffers& b = ctx.scratch.buffers;
  SolveParams sp = solveParams(s, ctx.dt);
  sp.wishX = b.wishX.data();  // right of way reads the others' wishes
  sp.wishY = b.wishY.data();
  const AgentsView av = w.view();
  const AgentGridView gv = g.view();
  const ObstacleView ov = w.obstacles.view();
  w.forEach(w.size(), [&](std::size_t first, std::size_t end) {
    const auto ss = std::make_unique<SolveScratch>();  // about 5 KB: off the stack
    for (std::size_t k = first; k < end; ++k) {
      const auto i = static_cast<std::int32_t>(k);
      Vec2 v;
      const bool ok = solveAgent(av, gv, ov, sp, i, Vec2{b.wishX[k], b.wishY[k]}, v, *ss);
      b.nvx[k] = v.x;
      b.nvy[k] = v.y;
      b.njammed[k] = ok ? 0 : 1;
    }
  });
}

void OrcaReference::explain(StepContext& ctx, std::size_t i, AgentExplain& out) {
  const World& w = ctx.state;
  const Settings& s = ctx.settings;
  AgentGrid& g = ctx.scratch.grid;
  if (explainVersion_ != w.version || explainPerception_ != s.perceptionRadius) {
    buildGrid(w, g, s);
    explainVersion_ = w.version;
    explainPerception_ = s.perceptionRadius;
  }
  if (!w.obstacles.vertices.empty() && w.obstacles.cols == 0) ctx.obstacles.rebuildGrid();
  const auto ss = std::make_unique<SolveScratch>();
  // Right of way reads the others' wishes of the last step (none before
  // the first).
  SolveParams sp = solveParams(s, ctx.dt);
  const StepBuffers& b = ctx.scratch.buffers;
  if (b.wishX.size() == w.size()) {
    sp.wishX = b.wishX.data();
    sp.wishY = b.wishY.data();
  } else {
    sp.rightOfWay = 0;
  }
  out.jammed = !solveAgent(w.view(), g.view(), w.obstacles.view(), sp, static_cast<std::int32_t>(i),
                           out.preferred, out.chosen, *ss);
  out.neighbours.assign(ss->neighbors, ss->neighbors + ss->neighborCount);
  const auto half = [](const Line& l) { return HalfPlane{l.point, l.direction}; };
  for (int k = 0; k < ss->lineCount; ++k)
    (k < ss->obstacleLineCount ? out.obstacleLines : out.agentLines).push_back(half(ss->lines[k]));
  teachOrca(w, ctx.scratch, s, i, out);
}

}  // namespace throng
