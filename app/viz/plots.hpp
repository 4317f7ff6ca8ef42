#pragma once
// The panel's live plots, as data: what a run did over time, sampled after
// every step, so that "widen the door, watch the flow rise" takes one
// glance. Pure (no ImGui, no GL): tests read the numbers the plots draw.
//
// The plots keep their own clock: seconds of simulated time stepped since
// they began, running on across a rebuild (a knob or a reset starts the run
// again at t = 0, but not the plots). A change to a knob or a setting puts
// a mark on that clock with the new value.
//
// Per step they sample:
//  - each measurement line's flow: its crossings either way over the last
//    kFlowWindow seconds of the current run, per second;
//  - the walkers out: left through a sink or standing on their goal;
//  - the crowd's mean speed (on the CPU backend: a device run would copy
//    every walker back for it) and its jammed count;
//  - each measurement area's density and its walkers' mean speed.
// History is capped at kMaxSamples steps: past it the oldest half goes.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "throng/crowd.hpp"

namespace throng::app {

struct PlotLine {
  std::string name;
  std::vector<float> y;  ///< one value a sample
};

struct PlotMark {
  double t = 0;  ///< on the plots' clock, s
  std::string text;
};

class PlotHistory {
 public:
  static constexpr double kFlowWindow = 5;       ///< s
  static constexpr std::size_t kMaxSamples = 36000;  ///< ten minutes at 60 steps a second

  /// Forgets everything: a new scene.
  void clear();
  /// The run began again (a rebuild): the flows' windows start empty, the
  /// clock and the history go on.
  void restart();
  /// After a step of `stepSeconds` of `crowd`; `agentsEver` walkers had
  /// been in it so far (the host's count, sinks included).
  void sample(const Crowd& crowd, std::size_t agentsEver, double stepSeconds);
  /// A mark at the current time ("doorWidth = 1.6").
  void mark(std::string text);

  const std::vector<double>& time() const { return t_; }  ///< s, the plots' clock, one a sample
  const std::vector<PlotLine>& flows() const { return flows_; }      ///< per measurement line, per s
  const PlotLine& out() const { return out_; }                        ///< walkers
  const PlotLine& meanSpeed() const { return speed_; }                ///< units/s
  const PlotLine& jammed() const { return jammed_; }                  ///< walkers
  const std::vector<PlotLine>& densities() const { return density_; }  ///< per area, walkers per square unit
  const std::vector<PlotLine>& areaSpeeds() const { return areaSpeed_; }  ///< per area, units/s
  const std::vector<PlotMark>& marks() const { return marks_; }
  bool empty() const { return t_.empty(); }

  /// Every series as CSV: a header, then one row a sample (time first).
  std::string csv() const;

 private:
  void fit(const MeasureSeries& series);
  void trim();
  double clock_ = 0;
  std::vector<double> t_;
  std::vector<PlotLine> flows_, density_, areaSpeed_;
  PlotLine out_{"out", {}}, speed_{"mean speed", {}}, jammed_{"jammed", {}};
  std::vector<PlotMark> marks_;
  /// The measurement indices of the lines and the areas, as the series lists them.
  std::vector<std::size_t> lineIndex_, areaIndex_;
  /// Per line, the crossings of the current run's recent steps (run time, count).
  std::vector<std::deque<std::pair<double, std::uint32_t>>> recent_;
  std::vector<std::uint32_t> inWindow_;
  double runStart_ = -1;  ///< the current run's start, on its own clock (Crowd::time), s
  double lastNow_ = -1;   ///< Crowd::time at the last sample, s
};


}  // namespace throng::app
