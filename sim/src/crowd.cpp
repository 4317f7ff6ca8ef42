// Crowd: the facade over World.
#include "throng/crowd.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/model.hpp"
#include "core/world.hpp"
#include "pipeline/backend.hpp"
#include "pipeline/registry.hpp"
#include "pipeline/step.hpp"

namespace throng {

namespace {
bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// The checks at the API boundary (see crowd.hpp's Errors): each throws with
// the call's name and the value, before anything is changed.
std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}
std::string pt(Vec2 v) {
  std::string out = "(";  // appended: GCC 12 warns falsely (-Wrestrict) on "(" + std::string
  out += num(v.x);
  out += ", ";
  out += num(v.y);
  return out += ")";
}
[[noreturn]] void invalid(const char* call, const std::string& what) {
  throw std::invalid_argument(std::string("Crowd::") + call + ": " + what);
}
void checkIndex(const char* call, std::size_t i, std::size_t count) {
  if (i >= count)
    throw std::out_of_range(std::string("Crowd::") + call + ": walker " + std::to_string(i) + " is out of range (" +
                            std::to_string(count) + " walkers)");
}
void checkPoint(const char* call, const char* what, Vec2 v) {
  if (!finite(v)) invalid(call, std::string(what) + " " + pt(v) + " is not finite");
}
void checkBody(const char* call, float radius, float maxSpeed) {
  if (!(std::isfinite(radius) && radius > 0)) invalid(call, "radius " + num(radius) + " is not a finite number > 0");
  if (!(std::isfinite(maxSpeed) && maxSpeed >= 0))
    invalid(call, "maxSpeed " + num(maxSpeed) + " is not a finite number >= 0");
}
std::string modelList() {
  std::string list;
  for (const ModelEntry& e : registeredModels()) list += (list.empty() ? "" : ", ") + e.name;
  return list;
}
void checkPoints(const char* call, std::span<const Vec2> pts) {
  for (const Vec2& p : pts) checkPoint(call, "point", p);
}

/// Drops repeated consecutive points (and a closing repeat of the first).
std::vector<Vec2> cleaned(std::span<const Vec2> pts, bool closed) {
  std::vector<Vec2> out;
  for (const Vec2& p : pts) {
    if (out.empty() || !(out.back() == p)) out.push_back(p);
  }
  if (closed) while (out.size() > 1 && out.front() == out.back()) out.pop_back();
  return out;
}
}  // namespace

Crowd::Crowd(Settings s) : settings(s), world_(std::make_unique<World>()), backend_(makeCpuBackend()) {}
Crowd::~Crowd() = default;
Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;

std::size_t Crowd::add(Vec2 at, std::optional<Vec2> goal, float radius, float maxSpeed, int group) {
  checkPoint("add", "position", at);
  if (goal) checkPoint("add", "goal", *goal);
  checkBody("add", radius, maxSpeed);
  if (world_->size() >= kMaxAgents)
    throw std::length_error("Crowd::add: the crowd already holds kMaxAgents (" + std::to_string(kMaxAgents) +
                            ") walkers");
  World& w = edit();
  const std::size_t i = w.size();
  w.resize(i + 1);
  w.px[i] = at.x;
  w.py[i] = at.y;
  w.vx[i] = w.vy[i] = 0;
  w.radius[i] = radius;
  w.maxSpeed[i] = maxSpeed;
  w.prefSpeed[i] = 0;
  w.maxAccel[i] = w.maxDecel[i] = 0;
  w.hasGoal[i] = goal.has_value();
  w.gx[i] = w.hasGoal[i] ? goal->x : 0;
  w.gy[i] = w.hasGoal[i] ? goal->y : 0;
  w.group[i] = group;
  w.route[i] = -1;
  w.gate[i] = 0;
  w.jammed[i] = 0;
  w.id[i] = w.nextId++;
  return i;
}

void Crowd::setPreferredSpeed(std::size_t i, float speed) {
  checkIndex("setPreferredSpeed", i, count());
  if (!std::isfinite(speed)) invalid("setPreferredSpeed", "speed " + num(speed) + " is not finite");
  edit().prefSpeed[i] = speed > 0 ? speed : 0.0f;
}

float Crowd::preferredSpeed(std::size_t i) const {
  checkIndex("preferredSpeed", i, count());
  const World& w = synced();
  return cruiseSpeed(w.prefSpeed[i], w.maxSpeed[i]);
}

std::size_t Crowd::count() const { return world_->size(); }
Agent Crowd::agent(std::size_t i) const {
  checkIndex("agent", i, count());
  return synced().agentAt(i);
}
std::uint64_t Crowd::id(std::size_t i) const {
  checkIndex("id", i, count());
  return world_->id[i];
}

void Crowd::setAgent(std::size_t i, const Agent& a) {
  checkIndex("setAgent", i, count());
  checkPoint("setAgent", "position", a.position);
  if (!finite(a.velocity)) invalid("setAgent", "velocity " + pt(a.velocity) + " is not finite");
  if (a.goal) checkPoint("setAgent", "goal", *a.goal);
  checkBody("setAgent", a.radius, a.maxSpeed);
  if (!(std::isfinite(a.maxAccel) && a.maxAccel >= 0))
    invalid("setAgent", "maxAccel " + num(a.maxAccel) + " is not a finite number >= 0");
  if (!(std::isfinite(a.maxDecel) && a.maxDecel >= 0))
    invalid("setAgent", "maxDecel " + num(a.maxDecel) + " is not a finite number >= 0");
  World& w = edit();
  w.px[i] = a.position.x;
  w.py[i] = a.position.y;
  w.vx[i] = a.velocity.x;
  w.vy[i] = a.velocity.y;
  w.hasGoal[i] = a.goal.has_value();
  w.gx[i] = w.hasGoal[i] ? a.goal->x : 0;
  w.gy[i] = w.hasGoal[i] ? a.goal->y : 0;
  w.radius[i] = a.radius;
  w.maxSpeed[i] = a.maxSpeed;
  w.group[i] = a.group;
  w.jammed[i] = a.isJammed;
  w.maxAccel[i] = a.maxAccel;
  w.maxDecel[i] = a.maxDecel;
}

void Crowd::removeAgents(const std::function<bool(const Agent&)>& pick) {
  World& w = edit();
  std::vector<std::uint8_t> remove(w.size());
  bool any = false;
  for (std::size_t i = 0; i < w.size(); ++i) any |= (remove[i] = pick(w.agentAt(i)) ? 1 : 0);
  if (any) w.erase(remove);
}

void Crowd::addObstacle(std::span<const Vec2> outline) {
  checkPoints("addObstacle", outline);
  std::vector<Vec2> loop = cleaned(outline, true);
  if (loop.size() < 2) return;
  // Counter-clockwise (positive area): the solid lies left of every edge.
  double area = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    const Vec2 a = loop[i], b = loop[(i + 1) % loop.size()];
    area += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
  }
  if (area < 0) std::reverse(loop.begin(), loop.end());
  World& w = edit();
  w.obstacles.outlines.emplace_back(outline.begin(), outline.end());
  w.obstacles.addLoop(loop);
}

void Crowd::addObstacle(Rect r) {
  const Vec2 pts[4] = {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
  addObstacle(std::span<const Vec2>(pts, 4));
}

void Crowd::addWall(std::span<const Vec2> polyline) {
  checkPoints("addWall", polyline);
  std::vector<Vec2> pts = cleaned(polyline, false);
  if (pts.size() < 2) return;
  // Along the polyline and back: each segment is an edge from both sides.
  std::vector<Vec2> loop(pts);
  for (std::size_t i = pts.size() - 1; i-- > 1;) loop.push_back(pts[i]);
  World& w = edit();
  w.obstacles.walls.emplace_back(polyline.begin(), polyline.end());
  w.obstacles.addLoop(loop);
}

void Crowd::addWall(Vec2 from, Vec2 to) {
  const Vec2 pts[2] = {from, to};
  addWall(std::span<const Vec2>(pts, 2));
}

void Crowd::removeAllObstacles() {
  ObstacleSet& o = edit().obstacles;
  const std::uint64_t version = o.version + 1;
  o = ObstacleSet{};
  o.version = version;
}

std::span<const std::vector<Vec2>> Crowd::obstacles() const { return world_->obstacles.outlines; }
std::span<const std::vector<Vec2>> Crowd::walls() const { return world_->obstacles.walls; }

void Crowd::setGroupVelocity(int group, std::optional<Vec2> velocity) {
  if (velocity && !finite(*velocity)) invalid("setGroupVelocity", "velocity " + pt(*velocity) + " is not finite");
  World& w = edit();
  const auto it = std::lower_bound(w.streamGroups.begin(), w.streamGroups.end(), group);
  const auto k = static_cast<std::size_t>(it - w.streamGroups.begin());
  const bool present = it != w.streamGroups.end() && *it == group;
  if (velocity) {
    if (present) {
      w.streamVelocity[k] = *velocity;
    } else {
      w.streamGroups.insert(it, group);
      w.streamVelocity.insert(w.streamVelocity.begin() + static_cast<std::ptrdiff_t>(k), *velocity);
    }
  } else if (present) {
    w.streamGroups.erase(it);
    w.streamVelocity.erase(w.streamVelocity.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

int Crowd::addRoute(std::vector<Waypoint> gates) {
  for (const Waypoint& g : gates) {
    checkPoint("addRoute", "gate end", g.a);
    checkPoint("addRoute", "gate end", g.b);
  }
  return edit().addRoute(std::move(gates));
}

void Crowd::setRoute(std::size_t i, int route) {
  checkIndex("setRoute", i, count());
  const auto routes = static_cast<long long>(world_->routes.size());
  if (route < -1 || route >= routes)
    invalid("setRoute", "route " + std::to_string(route) + " is not -1 or one of the " + std::to_string(routes) +
                            " routes added");
  World& w = edit();
  w.route[i] = route;
  w.gate[i] = 0;
}

std::pair<int, int> Crowd::routeOf(std::size_t i) const {
  checkIndex("routeOf", i, count());
  const World& w = synced();
  return {w.route[i], w.gate[i]};
}

void Crowd::setModel(std::string_view name) {
  if (!findModel(name)) invalid("setModel", "\"" + std::string(name) + "\" is not a model (" + modelList() + ")");
  settings.model = std::string(name);
}

void Crowd::advance() { advance(1.0 / 60); }

namespace {
// advance(by)'s split: equal steps of at most maxStep; the tolerance makes
// 1/30 two 1/60s.
double stepsFor(double by, const Settings& s) { return std::max(1.0, std::ceil(by / s.maxStep - 1e-9)); }
}  // namespace

void Crowd::advance(double by) {
  if (!(by >= 0 && std::isfinite(by))) invalid("advance", num(by) + " s is not a finite number >= 0");
  if (by == 0) return;
  const Settings s = sanitized(settings);
  if (!findModel(s.model)) invalid("advance", "settings.model \"" + s.model + "\" is not a model (" + modelList() + ")");
  const double steps = stepsFor(by, s);
  if (steps > kMaxStepsPerAdvance)
    invalid("advance", num(by) + " s is " + num(steps) + " steps of maxStep " + num(s.maxStep) + " s, more than " +
                           num(kMaxStepsPerAdvance) + " at once: advance in parts");
  const double dt = by / steps;
  for (double k = 0; k < steps; ++k) {
    backend_->step(*world_, s, static_cast<float>(dt), preferredVelocity);
    ++world_->step;
    ++world_->version;
    world_->time += dt;
    // The measure phase stamps its row with the step's float dt; the row's
    // end is the crowd's own time.
    if (world_->measure.on()) world_->measure.series.time.back() = world_->time;
  }
}

std::uint64_t Crowd::stepCount() const { return world_->step; }
double Crowd::time() const { return world_->time; }
StepStats Crowd::lastStats() const { return synced().stats; }

StepProfile Crowd::profile() const { return backend_->profile(*world_); }

void Crowd::detachFrame(FrameArrays& into) {
  World& w = *world_;
  backend_->pull(w);  // a read: nothing is marked edited
  const auto keep = [](auto& mine, auto& crowd) {
    mine = std::move(crowd);
    crowd = mine;
  };
  keep(into.px, w.px);
  keep(into.py, w.py);
  keep(into.vx, w.vx);
  keep(into.vy, w.vy);
  keep(into.radius, w.radius);
  keep(into.group, w.group);
  keep(into.jammed, w.jammed);
  keep(into.id, w.id);
}

FrameView Crowd::frame() const {
  const World& w = synced();
  FrameView f;
  f.px = w.px; f.py = w.py; f.vx = w.vx; f.vy = w.vy; f.radius = w.radius;
  f.group = w.group; f.jammed = w.jammed; f.id = w.id;
  f.step = w.step;
  f.time = w.time;
  return f;
}

AgentExplain Crowd::explain(std::size_t i, double by) const {
  checkIndex("explain", i, count());
  // The next step's decision for walker i, through the step's own functions.
  const Settings s = sanitized(settings);
  if (!(by > 0) || !std::isfinite(by)) by = 1.0 / 60;
  const float dt = static_cast<float>(by / stepsFor(by, s));
  synced();
  return explainAgent(*world_, s, dt, i, preferredVelocity);  // the grid it may build is scratch
}

std::uint64_t Crowd::stateHash() const {
  const World& w = synced();
  std::uint64_t h = mix64(w.step ^ (static_cast<std::uint64_t>(w.size()) << 32));
  auto bits = [](float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return static_cast<std::uint64_t>(u); };
  for (std::size_t i = 0; i < w.size(); ++i) {
    h = mix64(h ^ w.id[i]);
    h = mix64(h ^ (bits(w.px[i]) | bits(w.py[i]) << 32));
    h = mix64(h ^ (bits(w.vx[i]) | bits(w.vy[i]) << 32));
    h = mix64(h ^ (w.jammed[i] | static_cast<std::uint64_t>(static_cast<std::uint32_t>(w.gate[i])) << 8));
  }
  return h;
}

World& Crowd::world() { return edit(); }
const World& Crowd::world() const { return synced(); }

const World& Crowd::synced() const {
  backend_->pull(*world_);
  return *world_;
}

World& Crowd::edit() {
  backend_->pull(*world_);
  backend_->pushed();
  ++world_->version;
  return *world_;
}

bool Crowd::setBackend(BackendKind kind, std::string* message) {
  std::string why;
  std::unique_ptr<Backend> next;
  if (kind == BackendKind::Cpu) {
    next = makeCpuBackend();
  } else {
    next = makeCudaBackend(&why);
    if (!next && kind == BackendKind::Cuda) {
      if (message) *message = "CUDA backend unavailable: " + why;
      return false;
    }
    if (!next) {
      next = makeCpuBackend();
      if (message) *message = "using the CPU backend (" + why + ")";
    } else if (message) {
      *message = "using the CUDA backend";
    }
  }
  backend_->pull(*world_);
  backend_ = std::move(next);
  backend_->pushed();
  if (world_->model) world_->model->resume();  // the other backend stepped the walkers its own way
  return true;
}

const char* Crowd::backendName() const { return backend_->name(); }
MarkerView Crowd::markers() const {
  synced();
  return backend_->markers(*world_);
}
MarkerView Backend::markers(World& w) { return w.model ? w.model->markers() : MarkerView{}; }
bool Crowd::deviceFrame(DeviceFrame& out) { return backend_->deviceFrame(out); }

void Crowd::setTerrain(Terrain terrain) {
  World& w = edit();
  w.terrain = std::move(terrain);
  w.ground.build(w.terrain);
  ++w.terrainVersion;
  w.fields.clear();  // the next step refreshes them
}
const Terrain& Crowd::terrain() const { return world_->terrain; }

std::size_t Crowd::addMeasurement(Measurement m) {
  const std::string why = measurementProblem(m);
  if (!why.empty()) invalid("addMeasurement", "\"" + m.name + "\": " + why);
  world_->measure.add(std::move(m));
  return world_->measure.series.measurements.size() - 1;
}
void Crowd::clearMeasurements() { world_->measure.clear(); }
const MeasureSeries& Crowd::measurements() const { return world_->measure.series; }
FieldView Crowd::fields(int target) const {
  synced();
  return backend_->fields(*world_, target);
}
FieldView Backend::fields(World& w, int target) { return w.fields.view(target); }

StepProfile Backend::profile(const World& w) { return w.profile; }

namespace {
class CpuBackend final : public Backend {
 public:
  const char* name() const override { return "cpu"; }
  void step(World& w, const Settings& s, float dt, const std::function<Vec2(const Agent&)>& closure) override {
    stepCpu(w, s, dt, closure);
  }
};
}  // namespace

std::unique_ptr<Backend> makeCpuBackend() { return std::make_unique<CpuBackend>(); }

std::optional<BackendKind> backendFromName(std::string_view name) {
  if (name == "cpu") return BackendKind::Cpu;
  if (name == "cuda") return BackendKind::Cuda;
  if (name == "auto") return BackendKind::Auto;
  return std::nullopt;
}

}  // namespace throng
