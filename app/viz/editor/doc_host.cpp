// makeDocHost: a SceneRun behind the SimHost interface. It follows
// scenes.cpp's SceneHost (which is private to that file): knobs, maxStep and
// the seed rebuild the run from the same seed, keeping the settings edited on
// the crowd; other settings take effect at the next step.
#include "viz/editor/doc_host.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace throng::app::edit {
namespace {

class DocHost final : public SimHost {
 public:
  explicit DocHost(Scene scene) : scene_(std::move(scene)) { run_ = std::make_unique<SceneRun>(scene_); }
  std::string name() const override { return scene_.name(); }
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
    if (goals.size() <= 64)
      for (const auto& [k, p] : goals) g.goals.push_back(p);
    for (const SceneRoute& r : sp.routes) g.gates.insert(g.gates.end(), r.gates.begin(), r.gates.end());
    for (const SceneSink& s : sp.sinks) g.sinks.push_back(s.region);
    return g;
  }

 private:
  bool isKnob(const std::string& name) const {
    return std::any_of(scene_.knobs().begin(), scene_.knobs().end(), [&](const Knob& k) { return k.name == name; });
  }
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

std::unique_ptr<SimHost> makeDocHost(Scene scene) { return std::make_unique<DocHost>(std::move(scene)); }

}  // namespace throng::app::edit
