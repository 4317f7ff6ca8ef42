// The CPU executor of the step's plan (kStepPlan, throng/types.hpp): one
// case per phase, each phase timed into World::profile.
#include "pipeline/step.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "base/lanes.hpp"
#include "base/thread_pool.hpp"
#include "core/integrate.hpp"
#include "core/measure.hpp"
#include "core/pace.hpp"
#include "core/teach.hpp"
#include "core/wish.hpp"
#include "pipeline/registry.hpp"

namespace throng {

namespace {

/// The wishes of walkers [b, e) into `out`: wishAt's, eight at a time
/// where all eight head for a goal of their own (no route, no stream:
/// goalWish in lanes, then each one's shake).
void wishes(const World& w, StepBuffers& out, const WorldView& wv, const WishParams& wp, bool lanes, std::size_t b,
            std::size_t e) {
  float* const wishX = out.wishX.data();
  float* const wishY = out.wishY.data();
  std::uint8_t* const landing = out.landing.data();
  const auto plainGoals = [&](std::size_t i) {
    bool all = true;
    for (std::size_t l = i; l < i + 8; ++l) all &= w.hasGoal[l] != 0 && w.route[l] < 0;
    return all;
  };
  for (std::size_t i = b; i < e;) {
    if (lanes && i + 8 <= e && plainGoals(i)) {
      goalWishesBatch(&w.px[i], &w.py[i], &w.gx[i], &w.gy[i], &w.prefSpeed[i], &w.maxSpeed[i], wp.slowingRadius, wp.dt,
                  &wishX[i], &wishY[i], &landing[i]);
      if (!(wp.jitter <= 0.0f)) {  // as jitterWish tests it
        for (std::size_t l = i; l < i + 8; ++l) {
          if (landing[l]) continue;  // the landing step is exact: no shake
          const Vec2 v = jitterWish({wishX[l], wishY[l]}, w.maxSpeed[l], wp.jitter, wp.seed, w.id[l], wp.step);
          wishX[l] = v.x;
          wishY[l] = v.y;
        }
      }
      i += 8;
      continue;
    }
    bool land;
    const Vec2 v = wishAt(wv, wp, static_cast<std::int32_t>(i), land);
    wishX[i] = v.x;
    wishY[i] = v.y;
    landing[i] = land;
    ++i;
  }
}

/// Integrate: every walker's new velocity and jam flag taken, moved, landed,
/// its gate passed; the counts into w.stats. Eight at a time where none of
/// the eight follows a route.
void integrate(World& w, float dt) {
  // Counts are sums of integers, so the order the chunks finish in cannot
  // change them.
  std::atomic<std::size_t> jammedCount{0}, arrived{0};
  const bool lanes = lanesAvailable();
  const WorldView wv = w.worldView();
  MutableState m;
  m.px = w.px.data(); m.py = w.py.data(); m.vx = w.vx.data(); m.vy = w.vy.data();
  m.jammed = w.jammed.data(); m.gate = w.gate.data();
  StepOutputs o;
  o.wishX = w.scratch.buffers.wishX.data(); o.wishY = w.scratch.buffers.wishY.data(); o.landing = w.scratch.buffers.landing.data();
  o.nvx = w.scratch.buffers.nvx.data(); o.nvy = w.scratch.buffers.nvy.data(); o.njammed = w.scratch.buffers.njammed.data();
  const std::int32_t* const route = w.route.data();
  const auto noRoutes = [route](std::size_t i) {
    bool none = true;
    for (std::size_t l = i; l < i + 8; ++l) none &= route[l] < 0;
    return none;
  };
  w.forEach(w.size(), [&](std::size_t b, std::size_t e) {
    std::size_t jam = 0, done = 0;
    for (std::size_t i = b; i < e;) {
      if (lanes && i + 8 <= e && noRoutes(i)) {
        const unsigned counts = integrateBatch(wv, m, o, i, dt);  // jammed, plus 256 per arrival
        jam += counts & 255u;
        done += counts >> 8;
        i += 8;
      } else {
        const unsigned r = integrateAt(wv, m, o, dt, static_cast<std::int32_t>(i));
        jam += r & 1u;
        done += r >> 1;
        ++i;
      }
    }
    jammedCount += jam;
    arrived += done;
  }, kLightChunks);
  w.stats.jammed = jammedCount;
  w.stats.arrived = arrived;
}

}  // namespace

void buildFields(World& w, const Settings& s) {
  if (!fieldsTaken(s)) {
    if (w.fields.built) w.fields.clear();
    return;
  }
  const std::uint64_t every = static_cast<std::uint64_t>(s.fieldInterval > 0 ? s.fieldInterval : 1);
  if (w.fields.built && w.step % every != 0) return;
  // Closed faces are found through the obstacles' edge grid (any cell
  // size finds the same edges: the model's own fit is kept).
  if (!w.obstacles.vertices.empty() && w.obstacles.cols == 0) w.obstacles.fitToReach(w.obstacleReach(s));
  refreshFields(w.fields, s, w.fieldWalkers(), w.obstacles, w.terrainVersion, w.terrain, w.step, w.pool());
}

Model* modelFor(World& w, std::string_view name, std::string* why) {
  if (w.model && w.model->name() == name) return w.model.get();
  const ModelEntry* e = findModel(name);
  if (!e) {
    if (why) *why = "no model named \"" + std::string(name) + "\"";
    return nullptr;
  }
  const bool replaces = w.model != nullptr;
  w.model = e->make();
  if (replaces) w.model->resume();
  return w.model.get();
}

Vec2 wishOf(const World& w, const Settings& s, float dt, std::size_t i, const WishClosure& closure) {
  if (closure) return jitterWish(closure(w.agentAt(i)), w.maxSpeed[i], s.jitter, s.seed, w.id[i], w.step);
  bool landing;
  return wishAt(w.worldView(), w.wishParams(s, dt), static_cast<std::int32_t>(i), landing);
}

namespace {

/// What the phases of one CPU step share.
struct CpuStep {
  World& w;
  const Settings& s;
  float dt;
  const WishClosure& closure;
  Model& model;
  StepContext ctx;
};

/// The wishes phase, inside the model's first pass over the walkers (one
/// parallel pass fewer); a closure runs on this thread, one walker at a
/// time, in index order, before the pass.
void wishPhase(CpuStep& st) {
  World& w = st.w;
  const std::size_t n = w.size();
  if (st.closure) {
    StepBuffers& out = w.scratch.buffers;
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 v = wishOf(w, st.s, st.dt, i, st.closure);
      out.wishX[i] = v.x;
      out.wishY[i] = v.y;
      out.landing[i] = 0;
    }
    st.model.trackMotion(st.ctx, nullptr);
    return;
  }
  const WorldView wv = w.worldView();
  const WishParams wp = w.wishParams(st.s, st.dt);
  const bool lanes = lanesAvailable() && w.streamGroups.empty() && !w.fields.built;
  StepBuffers& out = w.scratch.buffers;
  const auto chunk = [&](std::size_t b, std::size_t e) { wishes(w, out, wv, wp, lanes, b, e); };
  // (A lambda of one reference fits in std::function's own storage; chunk
  // itself would be copied to the heap every step.)
  st.model.trackMotion(st.ctx, [&chunk](std::size_t b, std::size_t e) { chunk(b, e); });
}

/// The pace phase: every wish slowed to the ground under it
/// (geometry/ground.hpp), then to the room ahead (core/pace.hpp); a slowed
/// wish no longer lands.
void pacePhase(CpuStep& st) {
  World& w = st.w;
  const bool pace = paceTaken(st.s);
  const GroundView gv = w.ground.view();
  if ((!pace && !gv.on()) || w.size() == 0) return;
  const PaceParams pp = pace ? w.paceGridFor(st.s) : PaceParams{};
  const AgentsView av = w.view();
  const AgentGridView g = w.scratch.paceGrid.view();
  StepBuffers& out = w.scratch.buffers;
  w.forEach(w.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      bool slowed;
      const Vec2 v = pacePhaseWish(gv, av, g, pp, pace, static_cast<std::int32_t>(i), Vec2{out.wishX[i], out.wishY[i]},
                                   slowed);
      if (!slowed) continue;
      out.wishX[i] = v.x;
      out.wishY[i] = v.y;
      out.landing[i] = 0;
    }
  }, kLightChunks);
}

/// Where every walker begins the step, for the measure phase (only while
/// the crowd measures anything).
void keepStarts(World& w) {
  if (!w.measure.on()) return;
  w.measure.ox = w.px;
  w.measure.oy = w.py;
}

/// The measure phase: each chunk's tally and crossings (measureWalker),
/// summed (integers: in any order), then the step's row of the series. A
/// chunk with more crossings than room measures again with room for all.
void measurePhase(CpuStep& st) {
  World& w = st.w;
  MeasureState& ms = w.measure;
  if (!ms.on()) return;
  const MeasureShapesView v = ms.shapes.view();
  const std::size_t n = ms.series.measurements.size();
  MeasureTally total(n);
  std::vector<MeasureEvent> events;
  std::mutex merge;
  const float *ox = ms.ox.data(), *oy = ms.oy.data(), *px = w.px.data(), *py = w.py.data(), *vx = w.vx.data(),
              *vy = w.vy.data();
  w.forEach(w.size(), [&](std::size_t b, std::size_t e) {
    MeasureTally tally(n);
    std::vector<MeasureEvent> found(64);
    for (;;) {
      ArrayMeasureSink sink = tally.sink(found);
      for (std::size_t i = b; i < e; ++i) {
        sink.walker = static_cast<std::int32_t>(i);
        measureWalker(v, ox[i], oy[i], px[i], py[i], vx[i], vy[i], sink);
      }
      if (sink.found <= found.size()) {
        found.resize(sink.found);
        break;
      }
      found.resize(sink.found);
      tally = MeasureTally(n);
    }
    const std::lock_guard<std::mutex> lock(merge);
    total.add(tally);
    events.insert(events.end(), found.begin(), found.end());
  }, kLightChunks);
  ms.record(total, events, w.id.data(), w.step, w.time, st.dt);
}

void runPhase(CpuStep& st, StepPhase phase) {
  switch (phase) {
    case StepPhase::Fields:  // first: the wishes read them
      buildFields(st.w, st.s);
      return;
    case StepPhase::Wishes:
      wishPhase(st);
      return;
    case StepPhase::Pace:
      pacePhase(st);
      return;
    case StepPhase::Solve:  // new velocities and jam flags into the scratch
      st.model.solve(st.ctx);
      return;
    case StepPhase::Integrate:
      keepStarts(st.w);
      integrate(st.w, st.dt);
      return;
    case StepPhase::Measure:
      measurePhase(st);
      return;
  }
}

double msBetween(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

void stepCpu(World& w, const Settings& s, float dt, const WishClosure& closure) {
  w.pool(s.threads);
  Model* const model = modelFor(w, s.model);
  w.scratch.buffers.resize(w.size());
  CpuStep st{w, s, dt, closure, *model, StepContext{w, w.scratch, w.obstacles, s, dt}};
  using Clock = std::chrono::steady_clock;
  StepProfile profile;
  const Clock::time_point start = Clock::now();
  Clock::time_point before = start;
  for (const StepPhaseEntry& entry : kStepPlan) {
    runPhase(st, entry.phase);
    const Clock::time_point after = Clock::now();
    profile.ms[static_cast<std::size_t>(entry.phase)] = msBetween(before, after);
    before = after;
  }
  profile.totalMs = msBetween(start, before);
  profile.measured = true;
  w.profile = profile;
}

AgentExplain explainAgent(World& w, const Settings& s, float dt, std::size_t i, const WishClosure& closure) {
  w.pool(s.threads);
  Model* const model = modelFor(w, s.model);
  StepContext ctx{w, w.scratch, w.obstacles, s, dt};
  if (!w.fields.built) buildFields(w, s);  // a crowd not yet stepped: the wish reads them
  AgentExplain out;
  out.preferred = wishOf(w, s, dt, i, closure);
  const bool pace = paceTaken(s);
  const PaceParams pp = pace ? w.paceGridFor(s) : PaceParams{};
  bool slowed;
  out.preferred = pacePhaseWish(w.ground.view(), w.view(), w.scratch.paceGrid.view(), pp, pace, static_cast<std::int32_t>(i),
                                out.preferred, slowed);
  model->explain(ctx, i, out);
  // The fields at the walker, whatever the model.
  const FieldRouting f = w.fields.routing();
  const Vec2 p{w.px[i], w.py[i]};
  out.fieldCell = f.grid.cols > 0 ? fieldCellAt(f.grid, p) : -1;
  if (out.fieldCell >= 0) {
    for (int d = 0; d < 4; ++d) {
      out.fieldSpeed[d] = w.fields.speed[4 * static_cast<std::size_t>(out.fieldCell) + d];
      out.fieldCost[d] = w.fields.cost[4 * static_cast<std::size_t>(out.fieldCell) + d];
    }
    const std::int32_t potential = potentialFor(f, w.group[i], w.route[i]);
    bool onTarget, lost;
    if (potential >= 0) out.fieldFlow = fieldFlowAt(f, potential, p, onTarget, lost);
    teachFieldCell(out.teaching, f.grid.origin, f.grid.cell, f.grid.cols, out.fieldCell, out.fieldSpeed, out.fieldCost,
                   out.fieldFlow, w.maxSpeed[i]);
  }
  return out;
}

}  // namespace throng
