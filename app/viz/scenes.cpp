// Which scenes the visualizer opens: shipped scene files and paths through
// the scene loader (throng/scene.hpp), plus the built-ins ("blocks" for
// figures at any size; "ring" when no ring.json is found).
#include <algorithm>
#include <cmath>
#include <map>

#include "throng/scene.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {
namespace {

// A scene file running as a SceneRun. Knob changes re-resolve the scene and
// rebuild the run from the same seed; settings edited on the crowd are
// carried over a rebuild (dt is the spec's maxStep and rebuilds when set).
class SceneHost final : public SimHost {
 public:
  explicit SceneHost(Scene scene) : scene_(std::move(scene)) { run_ = std::make_unique<SceneRun>(scene_); }
  std::string name() const override { return scene_.name(); }
  std::string description() const override { return scene_.spec().description; }
  std::string units() const override { return scene_.spec().units; }
  std::unique_ptr<SimHost> clone() const override { return std::make_unique<SceneHost>(scene_); }
  Crowd& crowd() override { return run_->crowd(); }
  const Crowd& crowd() const override { return run_->crowd(); }
  double dt() const override { return run_->dt(); }
  void step() override { run_->step(); }
  std::size_t arrived() const override { return run_->arrived(); }
  std::size_t agentsEver() const override { return run_->agentsEver(); }

  std::vector<KnobInfo> knobs() const override {
    std::vector<KnobInfo> out;
    for (const Knob& k : scene_.knobs()) out.push_back({k.name, k.help, k.min, k.max, k.value, k.defaultValue, k.integer});
    return out;
  }

  bool set(const std::string& name, double value, std::string* error) override {
    const Settings kept = run_->crowd().settings;
    const bool knob = isKnob(name);
    if (!scene_.set(name, value, error)) return false;
    return afterSet(name, knob, kept, error);
  }

  bool assign(const std::string& a, std::string* error) override {
    const Settings kept = run_->crowd().settings;
    const std::string name = a.substr(0, a.find('='));
    const bool knob = isKnob(name);
    if (!scene_.assign(a, error)) return false;
    return afterSet(name, knob, kept, error);
  }

  bool rebuild(const Settings& s, std::string* error) override {
    if (s.seed != scene_.spec().settings.seed && !scene_.assign("seed=" + std::to_string(s.seed), error)) return false;
    run_ = std::make_unique<SceneRun>(scene_);
    Settings keep = s;
    keep.maxStep = scene_.spec().settings.maxStep;  // dt belongs to the spec
    run_->crowd().settings = keep;
    return true;
  }

  render::SceneGeometry geometry() const override {
    const SceneSpec& sp = scene_.spec();
    render::SceneGeometry g;
    g.obstacles = sp.obstacles;
    g.walls = sp.walls;
    std::map<std::pair<long long, long long>, Vec2> goals;
    auto addGoal = [&](Vec2 p) {
      if (goals.size() < 4096) goals.emplace(std::pair{std::llround(p.x * 1000.0), std::llround(p.y * 1000.0)}, p);
    };
    for (const SceneAgent& a : sp.agents)
      if (a.goal) addGoal(*a.goal);
    for (const SceneSource& s : sp.sources) {
      if (s.goal) addGoal(*s.goal);
      if (s.goalRegion) g.goalRegions.push_back(*s.goalRegion);
      g.sources.push_back(s.region);
    }
    // Many distinct goals come from goal regions (outlined instead): marking
    // each would bury the scene, so only a few dozen are drawn as crosses.
    if (goals.size() <= 64)
      for (const auto& [k, p] : goals) g.goals.push_back(p);
    for (const SceneRoute& r : sp.routes) g.gates.insert(g.gates.end(), r.gates.begin(), r.gates.end());
    for (const SceneSink& s : sp.sinks) g.sinks.push_back(s.region);
    for (const Measurement& m : sp.measurements)
      (m.kind == MeasureKind::Line ? g.measureLines : g.measureAreas).push_back(m.points);
    for (const SpeedZone& z : sp.terrain.speedZones) g.speedZones.push_back(z.outline);
    g.stairs = sp.terrain.stairs;
    return g;
  }

 private:
  bool isKnob(const std::string& name) const {
    return std::any_of(scene_.knobs().begin(), scene_.knobs().end(), [&](const Knob& k) { return k.name == name; });
  }
  // After the scene took a value: a setting takes effect at the next step;
  // a knob, maxStep (the run's dt) or the seed (the layout's) rebuilds the
  // run from the same seed, keeping the settings edited on the crowd.
  bool afterSet(const std::string& name, bool knob, const Settings& kept, std::string* error) {
    if (!knob && name != "maxStep" && name != "seed") {
      run_->crowd().settings = scene_.spec().settings;
      return true;
    }
    Settings s = kept;
    if (name == "seed") s.seed = scene_.spec().settings.seed;
    return rebuild(s, error);
  }

  Scene scene_;
  std::unique_ptr<SceneRun> run_;
};

}  // namespace

std::unique_ptr<SimHost> makeSceneHost(Scene scene) { return std::make_unique<SceneHost>(std::move(scene)); }

std::unique_ptr<SimHost> openScene(const std::string& nameOrPath, std::string* error) {
  std::string findErr;
  if (auto path = findScene(nameOrPath, &findErr)) {
    auto scene = Scene::load(*path, error);
    if (!scene) return nullptr;
    return makeSceneHost(std::move(*scene));
  }
  if (auto h = makeBuiltin(nameOrPath)) return h;
  if (error) {
    *error = findErr + " (built-in scenes:";
    for (const auto& n : builtinNames()) *error += " " + n;
    *error += ")";
  }
  return nullptr;
}

std::vector<std::string> pickableScenes() {
  std::vector<std::string> out;
  for (const auto& [name, path] : listScenes()) out.push_back(name);
  for (const std::string& b : builtinNames())
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  return out;
}

}  // namespace throng::app
