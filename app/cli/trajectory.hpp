#pragma once
// The seed's promotion gate for a trajectory set: a set is accepted when it
// is collision-free and consistently time-stamped, and (here) moves as a
// body can. Read frame by frame from any of three formats, in memory that
// follows the walkers in a frame, not the file:
//   csv:      throng's own (`throng run --export FILE --format csv`): header
//             step,time,id,x,y,vx,vy,jammed,group, rows grouped by step,
//             steps ascending;
//   pedpy:    PedPy's text format, the Juelich data archive's: '#' comments
//             holding "framerate" (its first number) and the unit ("x/m",
//             "in m", "x/cm", "in cm"), then "id frame x y [z ...]" rows
//             split by white space, in any order of runs (by frame, or by
//             walker as the archive's files are: each run of rows whose
//             frames do not go back is merged with the others by frame);
//   jupedsim: JuPedSim's SQLite (trajectory_data(frame, id, pos_x, pos_y),
//             metadata(key, value) with "fps"), read in frame order.
// The checks, over each pair (and triple) of consecutive frames:
//   separation: the swept-segment gate (checkStep) of walkers present in
//             both, with one radius, and the scene's walls when given;
//   time stamps: frames strictly increasing one at a time, no walker twice
//             in a frame, no hole in a walker's frames (csv: the time column
//             advancing by one step each frame);
//   speed:    no walker moving faster than a bound between two frames (a
//             teleport);
//   envelope: no walker's acceleration past its bounds, split into braking
//             (the change against its previous velocity) and speeding up
//             and turning (the rest).
// `throng check` and the fuzz harness (tests/fuzz) call it.
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "throng/verify.hpp"

namespace throng::cli {

/// The csv trajectory's header line, exactly.
inline constexpr const char* kTrajectoryHeader = "step,time,id,x,y,vx,vy,jammed,group";

/// The readers' formats; Auto picks by the file's first bytes.
enum class TrajectoryFormat { Auto, Csv, Pedpy, Jupedsim };

/// What the gate holds a trajectory to. Lengths are in the file's
/// coordinates as read (metres for PedPy's and JuPedSim's; a PedPy file in
/// centimetres is scaled to metres), times in seconds.
struct GateBounds {
  float radius = 0.25f;     ///< every walker's radius, (0, 1e6]
  float tolerance = 1e-4f;  ///< relative slack on r_A + r_B, [0, 1]
  GateGeometry geometry;    ///< walls and obstacles (a scene's), or none
  OverlapPromise promise{};
  double maxSpeed = 10;     ///< the fastest move between two frames, units/s; past it: a teleport
  double maxAccel = 0;      ///< speeding up and turning, units/s^2; 0: reported, not judged
  double maxDecel = 0;      ///< braking, units/s^2; 0: reported, not judged
  double frameRate = 0;     ///< frames per second when the file does not say (csv without a time step)
};

/// The worst case of one measure, and where it happened.
struct GateWorst {
  double value = 0;
  std::uint64_t id = 0, frame = 0;
  std::uint64_t faults = 0;  ///< how many times the bound was passed
};

struct TrajectoryCheck {
  GateReport gate;                   ///< separation
  std::uint64_t steps = 0, rows = 0;  ///< frames and rows read
  std::uint64_t firstFrame = 0, lastFrame = 0;
  std::uint64_t walkers = 0;         ///< distinct ids
  double frameRate = 0;              ///< frames per second used
  std::string format;                ///< "csv", "pedpy" or "jupedsim"
  std::string unitNote;              ///< how the unit was found
  // Time stamps: the first fault of each kind, in words, and the counts.
  std::uint64_t frameGaps = 0, duplicates = 0, holes = 0, timeFaults = 0;
  std::string firstTimeFault;
  GateWorst speed, accel, decel;
  bool timeStampsPassed() const { return frameGaps + duplicates + holes + timeFaults == 0; }
};

/// One row of a frame, as the readers give it.
struct FrameRow {
  std::uint64_t id = 0;
  Vec2 p;
  std::uint8_t jammed = 0;
};

/// A frame: its number, its time when the file says (NaN otherwise), and its
/// rows in the file's order.
struct TrajectoryFrame {
  std::uint64_t frame = 0;
  double time = 0;
  std::vector<FrameRow> rows;
};

/// A reader of frames in frame order. next() gives false at the end, and
/// throws BadTrajectory for a malformed file.
class FrameReader {
 public:
  virtual ~FrameReader() = default;
  virtual bool next(TrajectoryFrame& out) = 0;
  /// Frames per second the file states (0: unknown).
  virtual double frameRate() const = 0;
  /// Whether frames carry a time to check (the csv's time column).
  virtual bool hasTimes() const { return false; }
  virtual const char* format() const = 0;
  virtual std::string unitNote() const { return {}; }
};

/// A malformed file: where ("LINE" for text, a table and row for SQLite)
/// and what was expected.
struct BadTrajectory {
  std::string where, message;
};

/// The reader for `path` in `format` (Auto: SQLite's header is JuPedSim's; a
/// name ending .csv, an empty file or one starting "step" is throng's csv;
/// anything else PedPy's). `fps` (> 0) and `unitScale` (> 0: metres per
/// unit) override what the file says. Throws BadTrajectory when it cannot
/// be opened as that format.
std::unique_ptr<FrameReader> openTrajectory(const std::string& path, TrajectoryFormat format, double fps = 0,
                                            double unitScale = 0);

/// Every check over the frames of `reader`. A malformed file gives nullopt
/// and *error = "WHERE: what was expected".
std::optional<TrajectoryCheck> checkFrames(FrameReader& reader, const GateBounds& bounds, std::string* error);

/// checkFrames over throng's csv from a stream (the fuzz harness's entry).
std::optional<TrajectoryCheck> checkTrajectory(std::istream& in, const GateBounds& bounds, std::string* error);

/// The csv reader over a stream.
std::unique_ptr<FrameReader> csvReader(std::istream& in);

}  // namespace throng::cli
