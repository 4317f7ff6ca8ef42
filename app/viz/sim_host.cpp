#include "viz/sim_host.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

namespace throng::app {

render::SceneGeometry SimHost::geometry() const {
  const Crowd& c = crowd();
  render::SceneGeometry g;
  g.obstacles.assign(c.obstacles().begin(), c.obstacles().end());
  g.walls.assign(c.walls().begin(), c.walls().end());
  // Distinct goals, at most a few thousand marks.
  std::map<std::pair<long long, long long>, Vec2> seen;
  for (std::size_t i = 0; i < c.count() && seen.size() < 4096; ++i) {
    const auto goal = c.agent(i).goal;
    if (!goal) continue;
    const auto key = std::pair{std::llround(goal->x * 1000.0), std::llround(goal->y * 1000.0)};
    seen.emplace(key, *goal);
  }
  for (const auto& [k, p] : seen) g.goals.push_back(p);
  return g;
}

namespace {

constexpr float kTwoPi = 6.28318530718f;

class BuiltinHost final : public SimHost {
 public:
  explicit BuiltinHost(std::string name) : name_(std::move(name)) {
    if (name_ == "ring") {
      knobs_ = {{"count", "walkers in the ring", 2, 2000, 60, 60, true},
                {"ringRadius", "radius of the ring, points", 50, 4000, 440, 440, false}};
    } else {
      knobs_ = {{"count", "walkers in the two blocks", 2, 10000000, 10000, 10000, true},
                {"spacing", "grid spacing, points (radius 8)", 17, 60, 22, 22, false}};
    }
    // Walkers of radius 8 points: BioCrowds' personal space and markers at
    // the scale of its 1 m and 16 per m² for walkers of 0.25 m.
    Settings s;
    s.personalSpace = 32;
    s.markerDensity = 1.0f / 64;
    std::string err;
    rebuild(s, &err);
  }
  std::string name() const override { return name_; }
  Crowd& crowd() override { return crowd_; }
  const Crowd& crowd() const override { return crowd_; }
  void step() override { crowd_.advance(crowd_.settings.maxStep); }
  std::vector<KnobInfo> knobs() const override { return knobs_; }
  std::unique_ptr<SimHost> clone() const override {
    auto h = std::make_unique<BuiltinHost>(name_);
    h->knobs_ = knobs_;
    std::string ignored;
    h->rebuild(crowd_.settings, &ignored);
    return h;
  }

  bool set(const std::string& name, double value, std::string* error) override {
    for (KnobInfo& k : knobs_)
      if (k.name == name) {
        if (!(value >= k.min && value <= k.max)) {
          if (error) *error = name + ": " + std::to_string(value) + " is outside [" + std::to_string(k.min) + ", " +
                              std::to_string(k.max) + "]";
          return false;
        }
        k.value = k.integer ? std::round(value) : value;
        return rebuild(crowd_.settings, error);
      }
    return setSetting(name, value, nullptr, error);
  }

  bool assign(const std::string& a, std::string* error) override {
    const std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      if (error) *error = "expected name=value, got \"" + a + "\"";
      return false;
    }
    const std::string name = a.substr(0, eq), text = a.substr(eq + 1);
    if (findSetting(name)) return setSetting(name, 0, &text, error);
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      if (error) *error = name + " expects a number, got \"" + text + "\"";
      return false;
    }
    return set(name, v, error);
  }

  bool rebuild(const Settings& settings, std::string*) override {
    crowd_ = Crowd(settings);
    const auto count = static_cast<std::size_t>(knob("count"));
    if (name_ == "ring") {
      const float R = static_cast<float>(knob("ringRadius"));
      for (std::size_t i = 0; i < count; ++i) {
        const float a = kTwoPi * static_cast<float>(i) / static_cast<float>(count);
        const Vec2 spot{R * std::cos(a), R * std::sin(a)};
        crowd_.add(spot, -spot);
      }
    } else {
      // Two square-ish blocks, side by side, each walking to the other's place.
      const float d = static_cast<float>(knob("spacing"));
      const std::size_t half = std::max<std::size_t>(1, count / 2);
      const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(half))));
      const float width = d * static_cast<float>(side), gap = 0.5f * width;
      for (int b = 0; b < 2; ++b) {
        const std::size_t n = b == 0 ? half : count - half;
        const float x0 = b == 0 ? -gap - width : gap;
        const float dx = (b == 0 ? 1.0f : -1.0f) * (width + 2 * gap);
        for (std::size_t k = 0; k < n; ++k) {
          const Vec2 p{x0 + d * (0.5f + static_cast<float>(k % side)), -0.5f * width + d * (0.5f + static_cast<float>(k / side))};
          crowd_.add(p, p + Vec2{dx, 0}, 8, 120, b);
        }
      }
    }
    return true;
  }

  /// A setting from the table (the value, or its text when given); it
  /// takes effect at the next step.
  bool setSetting(const std::string& name, double value, const std::string* text, std::string* error) {
    if (!findSetting(name)) {
      if (error) {
        *error = "unknown knob or setting \"" + name + "\" (knobs:";
        for (const KnobInfo& k : knobs_) *error += " " + k.name;
        *error += "; settings:";
        for (const SettingInfo& i : settingsTable()) (*error += " ") += i.name;
        *error += ")";
      }
      return false;
    }
    Settings s = crowd_.settings;
    if (!(text ? throng::setSettingText(s, name, *text, error) : throng::setSetting(s, name, value, error))) return false;
    crowd_.settings = s;
    return true;
  }

 private:
  double knob(const std::string& n) const {
    for (const KnobInfo& k : knobs_)
      if (k.name == n) return k.value;
    return 0;
  }
  std::string name_;
  std::vector<KnobInfo> knobs_;
  Crowd crowd_;
};

}  // namespace

std::vector<std::string> builtinNames() { return {"ring", "blocks"}; }

std::unique_ptr<SimHost> makeBuiltin(const std::string& name) {
  if (name == "ring" || name == "blocks") return std::make_unique<BuiltinHost>(name);
  return nullptr;
}

void GapTracker::before(const Crowd& c) {
  // Reading the positions is free on the CPU backend; off it, each frame()
  // would be a round trip to the device, twice a step.
  active_ = std::string_view(c.backendName()) == "cpu";
  if (!active_) return;
  const FrameView f = c.frame();
  active_ = f.px.size() >= 2 && f.px.size() <= maxAgents;
  if (!active_) return;
  from_.resize(f.px.size());
  for (std::size_t i = 0; i < from_.size(); ++i) from_[i] = {f.px[i], f.py[i]};
  ids_.assign(f.id.begin(), f.id.end());
}

void GapTracker::after(const Crowd& c) {
  if (!active_) return;
  const FrameView f = c.frame();
  if (f.px.size() != ids_.size() || !std::equal(ids_.begin(), ids_.end(), f.id.begin())) return;
  to_.resize(f.px.size());
  for (std::size_t i = 0; i < to_.size(); ++i) to_[i] = {f.px[i], f.py[i]};
  radius_.assign(f.radius.begin(), f.radius.end());
  jammed_.assign(f.jammed.begin(), f.jammed.end());
  GateStep s{from_, to_, radius_, jammed_, {}};  // no ids: the report names indices
  const GateReport r = checkStep(s);
  minGap_ = std::min(minGap_, r.minGap);
  flag_.reset();
  if (r.unjammedOverlaps > 0 && r.worstA < to_.size() && r.worstB < to_.size())
    flag_ = Flag{from_[r.worstA], to_[r.worstA], from_[r.worstB], to_[r.worstB], r.minGapUnjammed};
}

}  // namespace throng::app
