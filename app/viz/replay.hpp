#pragma once
// The last seconds of a run, to step back and forth over while paused: a
// ring of the drawn walkers (render's packed instances) after each step, so
// a teacher can show the moment a jam formed. What it keeps is what was
// drawn; the run itself stays where it is, and Play goes on from there.
// Pure (no GL).
//
// It holds at most kMaxSteps steps and kMaxBytes of instances: a crowd of
// 100,000 keeps about 20 steps, one of 1,000 the full kMaxSteps. Above
// kMaxWalkers the app keeps none (packing them every step would cost the
// step's time).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "render/instance.hpp"

namespace throng::app {

class ReplayBuffer {
 public:
  static constexpr std::size_t kMaxSteps = 600;
  static constexpr std::size_t kMaxBytes = std::size_t{64} << 20;
  static constexpr std::size_t kMaxWalkers = 100000;

  struct Entry {
    double time = 0;          ///< s, the run's clock after the step
    std::uint64_t step = 0;   ///< the step count after it
    std::vector<render::AgentInstance> walkers;
  };

  void clear() {
    entries_.clear();
    bytes_ = 0;
  }
  void push(double time, std::uint64_t step, std::vector<render::AgentInstance> walkers) {
    bytes_ += walkers.size() * sizeof(render::AgentInstance);
    entries_.push_back({time, step, std::move(walkers)});
    while (entries_.size() > 1 && (entries_.size() > kMaxSteps || bytes_ > kMaxBytes)) {
      bytes_ -= entries_.front().walkers.size() * sizeof(render::AgentInstance);
      entries_.pop_front();
    }
  }
  std::size_t size() const { return entries_.size(); }
  /// `back` steps before the newest (0: the newest) [Limit: back < size()].
  const Entry& before(std::size_t back) const { return entries_[entries_.size() - 1 - back]; }

 private:
  std::deque<Entry> entries_;
  std::size_t bytes_ = 0;
};

}  // namespace throng::app
