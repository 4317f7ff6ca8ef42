#pragma once
// SimHost: what the visualizer drives. It owns a Crowd (plus whatever a
// scene adds around it), steps it by a fixed dt, and rebuilds it from the
// same seed when a knob changes. The visualizer sees the crowd only through
// Crowd's public API (frame(), explain(), obstacles(), walls()).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/overlay.hpp"
#include "throng/crowd.hpp"
#include "throng/verify.hpp"

namespace throng::app {

/// A named scene parameter as the panel shows it.
struct KnobInfo {
  std::string name, help;
  double min = 0, max = 1, value = 0, defaultValue = 0;
  bool integer = false;
};

class SimHost {
 public:
  virtual ~SimHost() = default;
  virtual std::string name() const = 0;
  /// A line or two on what the scene shows (a scene file's "description").
  virtual std::string description() const { return {}; }
  /// The length unit of its coordinates ("m", or "units" for the built-ins).
  virtual std::string units() const { return "units"; }
  virtual Crowd& crowd() = 0;
  virtual double dt() const { return crowd().settings.maxStep; }
  virtual const Crowd& crowd() const = 0;
  /// One fixed step (sources and sinks included where the scene has them).
  virtual void step() = 0;
  /// Agents ever present, and arrived (standing on the goal or removed by a sink).
  virtual std::size_t arrived() const { return crowd().lastStats().arrived; }
  virtual std::size_t agentsEver() const { return crowd().count(); }
  virtual std::vector<KnobInfo> knobs() const = 0;
  /// Sets a knob (and rebuilds from the same seed), or a setting of
  /// settingsTable() by name, refused outside its limits.
  virtual bool set(const std::string& name, double value, std::string* error) = 0;
  /// "name=value", as --set gives it: a knob takes a number, a setting its
  /// text form (setSettingText: a seed exactly, a model by name).
  virtual bool assign(const std::string& assignment, std::string* error) = 0;
  /// Rebuilds from the start with the current knobs, keeping `settings`.
  virtual bool rebuild(const Settings& settings, std::string* error) = 0;
  /// Static geometry for the renderer (obstacles, walls, goals, gates).
  virtual render::SceneGeometry geometry() const;
  /// A second host of the same scene with the same knobs, from its start
  /// (side by side runs it beside this one); null when it cannot make one.
  virtual std::unique_ptr<SimHost> clone() const { return nullptr; }
};

/// A built-in scene that needs no file: "ring" (the seed's 60 walkers,
/// radius 8, ring radius 440, crossing to the antipode; knobs count and
/// ringRadius) or "blocks" (two blocks crossing through each other; knob
/// count, for benchmarks at 1k to 100k+). nullptr for another name.
std::unique_ptr<SimHost> makeBuiltin(const std::string& name);
/// The built-in scene names.
std::vector<std::string> builtinNames();

/// Tracks the smallest gap (centre distance minus radii, over the swept
/// segments) so far, through the separation gate. Skips steps in which the
/// population changed (ids differ), crowds above `maxAgents`, and crowds
/// stepping off the CPU backend.
class GapTracker {
 public:
  std::size_t maxAgents = 20000;
  void reset() {
    minGap_ = GateReport::kNone;
    flag_.reset();
  }
  void before(const Crowd& c);
  void after(const Crowd& c);
  float minGap() const { return minGap_; }
  bool active() const { return active_; }
  /// The last step's deepest overlap between two unjammed walkers, as the
  /// separation gate measures it along both motion segments (the seed's
  /// swept-segment test): the pair's segments of the step, and how deep
  /// (gap < 0, world units). None when the step kept every pair apart.
  struct Flag {
    Vec2 fromA, toA, fromB, toB;
    float gap = 0;
  };
  const std::optional<Flag>& lastFlag() const { return flag_; }

 private:
  std::optional<Flag> flag_;
  std::vector<Vec2> from_, to_;
  std::vector<std::uint64_t> ids_;
  std::vector<float> radius_;
  std::vector<std::uint8_t> jammed_;
  float minGap_ = GateReport::kNone;
  bool active_ = false;
};

}  // namespace throng::app
