#pragma once
// What `throng run` and the Python package (python/) share, so that both take
// the same steps, write the same export bytes and the same summary fields:
// the step count of a run, the loop (the first frame, then step, export,
// stop early once all arrived unless the length was exact), the --summary
// JSON and its atomic write. No CLI11 here (the Python module links this
// without the parsers); the Exporter is export.hpp's.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"  // kMaxRunSteps (declarations only: no CLI11)
#include "export.hpp"
#include "throng/scene.hpp"

namespace throng::cli {

/// The steps a run takes: `steps` when given, else `seconds` (or, when
/// neither is given, the scene's duration) in steps of the spec's dt, rounded
/// up. nullopt with *error (one line, naming "steps" or "seconds") for
/// steps past kMaxRunSteps, seconds outside (0, kMaxRunSeconds] or not
/// finite, or a length of more than kMaxRunSteps steps.
std::optional<std::uint64_t> planSteps(const SceneSpec& spec, std::optional<std::uint64_t> steps,
                                       std::optional<double> seconds, std::string* error);

/// A progress bar on stderr, drawn only when stderr is a terminal, at most
/// ten times a second (and always when `last`).
class Progress {
 public:
  explicit Progress(bool on);
  /// The bar at `fraction` (0 to 1) with `detail` after it.
  void update(double fraction, bool last, const std::string& detail);
  /// Erases the bar (before other output).
  void clear();

 private:
  bool on_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// How runLoop ended.
enum class LoopEnd {
  Done,     ///< every step taken, or all arrived (when not exact)
  Stopped,  ///< stop() said so before a step
  Failed,   ///< an export write failed; *error says which file
};

/// The assignments --seed, --dt and --threads make, in throng run's order,
/// each with the flag a message names: ("--dt", "maxStep=0.025"). dt is
/// written with 17 digits, so the scene reads the same double back.
std::vector<std::pair<std::string, std::string>> runFlagAssignments(std::optional<std::uint64_t> seed,
                                                                    std::optional<double> dt,
                                                                    std::optional<std::int64_t> threads);

/// The most step times a run keeps for its summary's percentiles (32 MiB).
inline constexpr std::size_t kMaxKeptStepTimes = std::size_t{1} << 22;

/// `throng run`'s loop: writes the current frame to the exporter (when open),
/// then up to `total` steps, each followed by its frame; stops early once all
/// arrived unless `exact`. Appends each step's crowd time (SceneRun::
/// lastStepMs) to `ms`, up to kMaxKeptStepTimes of them. `stop` (may be empty) is asked
/// before each step; `progress` (may be empty) after each, with the steps done.
LoopEnd runLoop(SceneRun& run, std::uint64_t total, bool exact, Exporter* exporter, std::vector<double>& ms,
                const std::function<bool()>& stop, const std::function<void(std::uint64_t)>& progress,
                std::string* error);

/// 16 lower-case hex digits, as the summary writes a state hash.
std::string hex16(std::uint64_t h);
/// The nearest-rank percentile (the ceil(q n)-th smallest); 0 when empty.
double percentile(std::vector<double> v, double q);

/// The --summary JSON of a run of `scene` ("file": the file it was loaded
/// from), two-space indented, without a trailing newline; `ms` as runLoop
/// collected them.
std::string summaryJson(const Scene& scene, const SceneRun& run, const std::vector<double>& ms);

/// The measurements' series as CSV (`throng run --measure`), a row per
/// step and measurement:
///   time,measurement,kind,forward,backward,crossed,inside,density,mean_speed,specific_flow
/// A line fills forward and backward (its crossings in the step) and
/// crossed (every crossing so far, either way: N(t)); an area fills inside,
/// density (per square unit), mean_speed and specific_flow (density times
/// mean speed). The other kind's columns are empty.
std::string measureCsv(const MeasureSeries& series);
/// Every crossing of the measurement lines as CSV (`throng run
/// --crossings`), in order of time: time,measurement,id,direction (+1
/// forward, from the line's left to its right; -1 back).
std::string crossingsCsv(const MeasureSeries& series);

/// Writes text and a newline to a fresh partial beside path, then renames it
/// to path (throng::writeFileWhole); on failure removes the partial and
/// returns false with *error ("cannot write ...").
bool writeAtomically(const std::string& path, const std::string& text, std::string* error);

}  // namespace throng::cli
