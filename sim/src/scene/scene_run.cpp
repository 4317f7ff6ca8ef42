// SceneRun: a Crowd plus a scene's sources and sinks, stepped at a fixed dt.
// The phases of one step are listed in scene.hpp; each is deterministic:
// sources place agents at hashed spots, in source order, and sinks remove
// in index order, so a run depends only on the spec.
#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>
#include <utility>

#include "scene/scene_internal.hpp"
#include "throng/scene.hpp"
#include "core/world.hpp"

namespace throng {

SceneRun::SceneRun(const SceneSpec& spec, Options o) : spec_(spec), options_(o), crowd_(spec.settings) {
  dt_ = spec_.settings.maxStep;
  for (const auto& outline : spec_.obstacles) crowd_.addObstacle(outline);
  for (const auto& wall : spec_.walls) crowd_.addWall(wall);
  for (const SceneRoute& r : spec_.routes) crowd_.addRoute(r.gates);
  for (const auto& [group, v] : spec_.streams) crowd_.setGroupVelocity(group, v);
  if (!spec_.terrain.empty()) crowd_.setTerrain(spec_.terrain);
  for (const Measurement& m : spec_.measurements) crowd_.addMeasurement(m);
  for (const SceneAgent& a : spec_.agents) {
    const bool waits = a.premovement > 0;
    const std::size_t i = crowd_.add(a.at, a.goal, a.radius, waits ? 0.0f : a.maxSpeed, a.group);
    if (a.route >= 0) crowd_.setRoute(i, a.route);
    ownEnvelope(i, a.maxAccel, a.maxDecel);
    if (waits) waiting_.push_back({crowd_.id(i), a.premovement, a.maxSpeed});
  }
  arrivedById_.assign(std::as_const(crowd_).world().nextId, 0);
  sourceDebt_.assign(spec_.sources.size(), 0.0);
  sourceEmitted_.assign(spec_.sources.size(), 0);
  sourceAttempts_.assign(spec_.sources.size(), 0);
}

void SceneRun::ownEnvelope(std::size_t i, float maxAccel, float maxDecel) {
  if (!(maxAccel > 0) && !(maxDecel > 0)) return;
  Agent a = crowd_.agent(i);
  a.maxAccel = maxAccel;
  a.maxDecel = maxDecel;
  crowd_.setAgent(i, a);
}

bool SceneRun::sourcesExhausted() const {
  for (std::size_t k = 0; k < spec_.sources.size(); ++k) {
    const SceneSource& s = spec_.sources[k];
    const bool full = s.max >= 0 && sourceEmitted_[k] >= s.max;
    if (!full && time() < s.stop && s.rate > 0) return false;
  }
  return true;
}

bool SceneRun::place(const SceneSource& src, std::size_t k, std::int64_t serial) {
  const std::uint64_t seed = spec_.settings.seed;
  const float r = src.radius;
  const FrameView f = crowd_.frame();
  for (int attempt = 0; attempt < 16; ++attempt) {
    const auto counter = static_cast<std::uint64_t>(sourceAttempts_[k]++);
    const Vec2 at{src.region.x + r + static_cast<float>(detail::unit01(seed, 5000 + k, counter, 1) * (src.region.width - 2 * r)),
                  src.region.y + r + static_cast<float>(detail::unit01(seed, 5000 + k, counter, 2) * (src.region.height - 2 * r))};
    bool clear = detail::discIntrusion(spec_.obstacles, spec_.walls, at, r) <= 0;
    for (std::size_t i = 0; clear && i < f.px.size(); ++i) {
      const float dx = f.px[i] - at.x, dy = f.py[i] - at.y, rr = (f.radius[i] + r) * 1.01f;
      clear = dx * dx + dy * dy >= rr * rr;
    }
    if (!clear) continue;
    std::optional<Vec2> goal;
    if (src.goal) goal = src.goal;
    else if (src.goalOffset) goal = at + *src.goalOffset;
    else if (src.goalRegion) goal = detail::pointIn(*src.goalRegion, seed, 6000 + k, static_cast<std::uint64_t>(serial));
    const int group = src.groups[static_cast<std::size_t>(serial) % src.groups.size()];
    // The walker's own draws (a fixed speed is the source's maxSpeed).
    const auto n = static_cast<std::uint64_t>(serial);
    const float speed = src.speedDraw.kind == SceneDraw::Kind::Fixed
                            ? src.maxSpeed
                            : static_cast<float>(src.speedDraw.draw(seed, 9200 + 2 * k, n));
    const double delay = src.premovement.draw(seed, 9201 + 2 * k, n);
    const std::size_t i = crowd_.add(at, goal, r, delay > 0 ? 0.0f : speed, group);
    if (src.route >= 0) crowd_.setRoute(i, src.route);
    ownEnvelope(i, src.maxAccel, src.maxDecel);
    if (delay > 0) waiting_.push_back({crowd_.id(i), time() + delay, speed});
    return true;
  }
  return false;
}

void SceneRun::emit() {
  const double t = time();
  for (std::size_t k = 0; k < spec_.sources.size(); ++k) {
    const SceneSource& s = spec_.sources[k];
    auto room = [&] { return (s.max < 0 || sourceEmitted_[k] < s.max) && crowd_.count() < spec_.maxAgents; };
    if (t < s.start || t >= s.stop || !room()) continue;
    // A blocked source keeps at most a second's worth (or two agents) owed.
    sourceDebt_[k] = std::min(sourceDebt_[k] + s.rate * dt_, std::max(2.0, s.rate));
    while (sourceDebt_[k] >= 1 && room()) {
      if (!place(s, k, sourceEmitted_[k])) break;
      sourceDebt_[k] -= 1;
      ++sourceEmitted_[k];
    }
  }
  arrivedById_.resize(std::as_const(crowd_).world().nextId, 0);
}

StepProfile SceneRun::meanProfile() const {
  StepProfile mean;
  if (profiled_ == 0) return mean;
  const auto steps = static_cast<double>(profiled_);
  for (std::size_t k = 0; k < kStepPhases; ++k) mean.ms[k] = profileSum_.ms[k] / steps;
  mean.totalMs = profileSum_.totalMs / steps;
  mean.measured = true;
  return mean;
}

void SceneRun::release() {
  const double t = time() + 1e-9;  // a release due at this step's start
  if (std::none_of(waiting_.begin(), waiting_.end(), [t](const Waiting& w) { return w.release <= t; })) return;
  std::map<std::uint64_t, std::size_t> index;
  for (std::size_t i = 0; i < crowd_.count(); ++i) index[crowd_.id(i)] = i;
  std::vector<Waiting> still;
  for (const Waiting& w : waiting_) {
    if (w.release > t) {
      still.push_back(w);
      continue;
    }
    const auto it = index.find(w.id);
    if (it == index.end()) continue;  // removed while it waited
    Agent a = crowd_.agent(it->second);
    released_.push_back({w.id, w.release, a.position});
    a.maxSpeed = w.maxSpeed;
    crowd_.setAgent(it->second, a);
  }
  waiting_ = std::move(still);
}

void SceneRun::noteSetOut() {
  if (released_.empty()) return;
  const World& w = std::as_const(crowd_).world();
  std::unordered_map<std::uint64_t, std::size_t> index;
  index.reserve(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) index.emplace(w.id[i], i);
  std::erase_if(released_, [&](const Released& r) {
    const auto it = index.find(r.id);
    if (it == index.end()) return true;  // removed before it moved
    if (w.px[it->second] == r.at.x && w.py[it->second] == r.at.y) return false;
    const double lag = time() - r.time;
    setOut_.minLag = setOut_.walkers ? std::min(setOut_.minLag, lag) : lag;
    setOut_.maxLag = setOut_.walkers ? std::max(setOut_.maxLag, lag) : lag;
    ++setOut_.walkers;
    return true;
  });
}

void SceneRun::step() {
  // 0. pre-movement over
  release();
  // 1. sources
  emit();
  // 2. the crowd's step
  if (options_.gate) {
    const FrameView f = crowd_.frame();
    from_.resize(f.px.size());
    for (std::size_t i = 0; i < f.px.size(); ++i) from_[i] = {f.px[i], f.py[i]};
  }
  const auto t0 = std::chrono::steady_clock::now();
  crowd_.advance(dt_);
  lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const StepProfile profile = crowd_.profile();
  if (profile.measured) {
    for (std::size_t k = 0; k < kStepPhases; ++k) profileSum_.ms[k] += profile.ms[k];
    profileSum_.totalMs += profile.totalMs;
    ++profiled_;
  }
  const StepStats stats = crowd_.lastStats();
  jammedAgentSteps_ += stats.jammed;
  infeasibleSteps_ += stats.jammed > 0 ? 1 : 0;
  // 3. the gate
  const World& w = std::as_const(crowd_).world();
  if (options_.gate) {
    to_.resize(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) to_[i] = {w.px[i], w.py[i]};
    GateStep gs{from_, to_, w.radius, w.jammed, w.id};
    GateReport last = checkStep(gs, GateGeometry{crowd_.obstacles(), crowd_.walls()}, 1e-4f,
                          overlapPromiseOf(crowd_.settings.model));
    last.step = steps();
    gate_.merge(last);
  }
  noteSetOut();
  // 4. arrivals
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.hasGoal[i] && w.px[i] == w.gx[i] && w.py[i] == w.gy[i] && !arrivedById_[w.id[i]]) {
      arrivedById_[w.id[i]] = 1;
      ++arrived_;
    }
  }
  // 5. sinks
  if (!spec_.sinks.empty()) {
    auto inSink = [this](Vec2 p, int group) {
      for (const SceneSink& s : spec_.sinks) {
        if (!s.groups.empty() && std::find(s.groups.begin(), s.groups.end(), group) == s.groups.end()) continue;
        if (p.x >= s.region.x && p.x <= s.region.x + s.region.width && p.y >= s.region.y &&
            p.y <= s.region.y + s.region.height)
          return true;
      }
      return false;
    };
    bool any = false;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (!inSink({w.px[i], w.py[i]}, w.group[i])) continue;
      any = true;
      ++removed_;
      ++removedByGroup_[w.group[i]];
      if (!arrivedById_[w.id[i]]) {
        arrivedById_[w.id[i]] = 1;
        ++arrived_;
      }
    }
    if (any) crowd_.removeAgents([&](const Agent& a) { return inSink(a.position, a.group); });
  }
  if (!allArrivedTime_ && !arrivedById_.empty() && arrived_ == arrivedById_.size() && sourcesExhausted())
    allArrivedTime_ = time();
}

}  // namespace throng
