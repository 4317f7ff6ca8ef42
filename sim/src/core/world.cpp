// World: the SoA state (core/world.hpp).
#include "core/world.hpp"

#include <algorithm>
#include <utility>

#include "base/thread_pool.hpp"
#include "core/model.hpp"

namespace throng {

World::World() = default;
World::~World() = default;

void StepBuffers::resize(std::size_t n) {
  wishX.resize(n);
  wishY.resize(n);
  landing.resize(n);
  nvx.resize(n);
  nvy.resize(n);
  njammed.resize(n);
}

void World::resize(std::size_t n) {
  px.resize(n); py.resize(n); vx.resize(n); vy.resize(n);
  radius.resize(n, 8); maxSpeed.resize(n, 120); prefSpeed.resize(n); maxAccel.resize(n); maxDecel.resize(n);
  jammed.resize(n); hasGoal.resize(n); gx.resize(n); gy.resize(n);
  group.resize(n); route.resize(n, -1); gate.resize(n); id.resize(n);
}

template <class T>
static void eraseMarked(std::vector<T>& v, const std::vector<std::uint8_t>& remove) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!remove[i]) v[out++] = v[i];
  v.resize(out);
}

void World::erase(const std::vector<std::uint8_t>& remove) {
  eraseMarked(px, remove); eraseMarked(py, remove); eraseMarked(vx, remove); eraseMarked(vy, remove);
  eraseMarked(radius, remove); eraseMarked(maxSpeed, remove); eraseMarked(prefSpeed, remove); eraseMarked(jammed, remove);
  eraseMarked(maxAccel, remove); eraseMarked(maxDecel, remove);
  eraseMarked(hasGoal, remove); eraseMarked(gx, remove); eraseMarked(gy, remove);
  eraseMarked(group, remove); eraseMarked(route, remove); eraseMarked(gate, remove); eraseMarked(id, remove);
}

int World::addRoute(std::vector<Waypoint> gates) {
  waypoints.insert(waypoints.end(), gates.begin(), gates.end());
  routeStart.push_back(static_cast<std::int32_t>(waypoints.size()));
  routes.push_back(std::move(gates));
  return static_cast<int>(routes.size()) - 1;
}

WorldView World::worldView() const {
  WorldView v;
  v.px = px.data(); v.py = py.data(); v.radius = radius.data(); v.maxSpeed = maxSpeed.data();
  v.prefSpeed = prefSpeed.data(); v.hasGoal = hasGoal.data(); v.gx = gx.data(); v.gy = gy.data();
  v.group = group.data(); v.route = route.data(); v.gate = gate.data(); v.id = id.data();
  v.routeStart = routeStart.data(); v.waypoints = waypoints.data();
  v.streamGroups = streamGroups.data(); v.streamVelocity = streamVelocity.data();
  v.streamCount = static_cast<std::int32_t>(streamGroups.size());
  v.field = fields.routing();
  return v;
}

AgentsView World::view() const {
  AgentsView v;
  v.px = px.data(); v.py = py.data(); v.vx = vx.data(); v.vy = vy.data();
  v.radius = radius.data(); v.maxSpeed = maxSpeed.data(); v.id = id.data();
  v.maxAccel = maxAccel.data(); v.maxDecel = maxDecel.data();
  v.count = static_cast<std::int32_t>(px.size());
  return v;
}

FieldWalkers World::fieldWalkers() const {
  FieldWalkers f;
  f.px = px.data(); f.py = py.data(); f.vx = vx.data(); f.vy = vy.data();
  f.radius = radius.data(); f.maxSpeed = maxSpeed.data(); f.prefSpeed = prefSpeed.data();
  f.group = group.data(); f.route = route.data();
  f.count = size();
  return f;
}

const Vec2* World::streamOf(std::int32_t g) const {
  const auto it = std::lower_bound(streamGroups.begin(), streamGroups.end(), g);
  if (it == streamGroups.end() || *it != g) return nullptr;
  return &streamVelocity[static_cast<std::size_t>(it - streamGroups.begin())];
}

Agent World::agentAt(std::size_t i) const {
  Agent a;
  a.position = {px[i], py[i]};
  a.velocity = {vx[i], vy[i]};
  if (hasGoal[i]) a.goal = Vec2{gx[i], gy[i]};
  a.radius = radius[i];
  a.maxSpeed = maxSpeed[i];
  a.group = group[i];
  a.isJammed = jammed[i] != 0;
  a.maxAccel = maxAccel[i];
  a.maxDecel = maxDecel[i];
  return a;
}

ThreadPool& World::pool(int threads) {
  const int want = resolveThreads(threads);
  if (!pool_ || pool_->size() != want) pool_ = std::make_unique<ThreadPool>(want);
  return *pool_;
}

void World::forEach(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn,
                    int chunksPerThread) const {
  if (pool_) pool_->parallelFor(n, fn, chunksPerThread);
  else if (n > 0) fn(0, n);
}

WishParams World::wishParams(const Settings& s, float dt) const {
  WishParams wp;
  wp.slowingRadius = s.slowingRadius;
  wp.jitter = s.jitter;
  wp.dt = dt;
  wp.seed = s.seed;
  wp.step = step;
  return wp;
}

float World::largestRadius() const {
  float largest = 0;
  for (const float r : radius) largest = std::max(largest, r);
  return largest;
}

PaceParams World::paceParamsFor(const Settings& s) const { return paceParams(s, largestRadius()); }

PaceParams World::paceGridFor(const Settings& s) {
  const PaceParams p = paceParamsFor(s);
  float topSpeed = 0;
  for (const float v : maxSpeed) topSpeed = std::max(topSpeed, v);
  // The grid's shape changes only how fast the pace scans (pacedWish):
  // columns as wide as the farthest look ahead, rows split finely.
  scratch.paceGrid.build(px.data(), py.data(), size(), paceReach(p, topSpeed), 2, pool());
  return p;
}

MovingWalkers World::movingWalkers(const float* wishX, const float* wishY) const {
  return throng::movingWalkers(view(), wishX, wishY);
}

StepEnvelope World::stepEnvelope(const Settings& s, float dt) const {
  StepEnvelope e = throng::stepEnvelope(s, dt, maxAccel.data(), maxDecel.data(), size());
  e.vx = vx.data();
  e.vy = vy.data();
  return e;
}

float World::obstacleReach(const Settings& s) const {
  float reach = 0;
  for (std::size_t i = 0; i < size(); ++i) reach = std::max(reach, maxSpeed[i] * s.obstacleTimeHorizon + radius[i]);
  return reach;
}

}  // namespace throng
