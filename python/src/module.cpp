// _throng: the C++ half of the Python package (python/throng/ is the other,
// and the API people use). It binds the public API (Scene, SceneRun, the
// settings table) and app/cli's run core, so a run from Python takes the
// same steps, writes the same export bytes and the same summary as
// `throng run`.
//
// ## The GIL
// Stepping and exporting release it. A long step(n) takes it back every
// 50 ms of wall time, only to ask whether Ctrl-C was pressed (then it stops
// at a step boundary and raises KeyboardInterrupt). A run is stepped by one
// thread at a time: another thread's call on a run that is stepping raises
// RuntimeError rather than waiting or racing.
//
// ## The numpy views (x, y, vx, vy, radii, groups, jammed, ids)
// They are read-only numpy arrays over the crowd's own structure-of-arrays
// memory: no copy. Their base is a FrameLease, one per frame, which holds
// the run's state alive. Before anything that could change or reallocate
// that memory (a step, close(), the run's destruction), a lease that any
// array still holds is detached: the crowd's vectors are moved into it
// (Crowd::detachFrame; a vector's move keeps its buffer, so the arrays stay
// valid) and the crowd continues on copies. So an array always shows the frame it was taken
// from, is never freed under numpy, and nothing is copied while no array
// of the frame outlives it. positions and velocities are (n, 2): the
// memory is SoA, so they are copies, made once per frame and cached.
// After close(), every accessor raises; arrays taken before keep their frame.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "export.hpp"
#include "run_core.hpp"
#include "throng/backend.hpp"
#include "throng/output_file.hpp"
#include "throng/scene.hpp"
#include "throng/settings.hpp"

namespace py = pybind11;

namespace throng::python {

namespace {

using Clock = std::chrono::steady_clock;
using cli::ExportFormat;
using cli::planSteps;

/// How often a long call takes the GIL back to look for Ctrl-C.
constexpr auto kSignalCheck = std::chrono::milliseconds(50);

/// Makes `a` read-only (numpy's WRITEABLE flag cleared).
void freeze(const py::array& a) {
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
}

/// A read-only numpy array over `count` values at `data`, its base `base`.
template <class T>
py::array readOnly(const T* data, std::size_t count, py::handle base, py::dtype dtype = py::dtype::of<T>()) {
  const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(count)};
  const std::vector<py::ssize_t> strides{static_cast<py::ssize_t>(sizeof(T))};
  static const T empty{};
  py::array a(dtype, shape, strides, count ? data : &empty, base);
  freeze(a);
  return a;
}

/// A read-only numpy array that owns a copy of `v`, shaped `shape`.
template <class T>
py::array ownedCopy(const T* data, std::size_t count, std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape);
  if (count) std::copy(data, data + count, a.mutable_data());
  freeze(a);
  return a;
}

/// Raises a Python exception of `type` (OSError, FileNotFoundError) with `message`.
[[noreturn]] void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

ExportFormat exportFormat(const std::string& name) {
  if (const std::optional<ExportFormat> f = cli::exportFormatFromName(name)) return *f;
  throw py::value_error("format: " + name + " not in {csv,pedpy,jupedsim}");
}

BackendKind backendKind(const std::string& name) {
  const std::optional<BackendKind> k = backendFromName(name);
  if (!k) throw py::value_error("backend: " + name + " not in {cpu,cuda,auto}");
  return *k;
}

/// Scene::assign, raising ValueError with the scene's one-line message.
void assign(Scene& scene, const std::string& assignment) {
  std::string err;
  if (!scene.assign(assignment, &err)) throw py::value_error(err);
}

/// The assignments `throng run` makes for --seed, --dt and --threads, in its order.
void applyRunFlags(Scene& scene, std::optional<std::uint64_t> seed, std::optional<double> dt,
                   std::optional<std::int64_t> threads) {
  for (const auto& [flag, assignment] : cli::runFlagAssignments(seed, dt, threads)) assign(scene, assignment);
}

/// Asks, at most every kSignalCheck and with the GIL taken for it, whether
/// Ctrl-C was pressed; true then, with the Python error set.
class SignalPoll {
 public:
  bool interrupted() {
    const Clock::time_point now = Clock::now();
    if (now - last_ < kSignalCheck) return false;
    last_ = now;
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  }

 private:
  Clock::time_point last_ = Clock::now();
};

// ---- a run -------------------------------------------------------------------

/// Every frame of a run that records, row by row (a row: a walker in a frame).
struct Recording {
  std::vector<std::uint64_t> id;
  std::vector<float> x, y, vx, vy;
  std::vector<std::uint8_t> jammed;
  std::vector<std::int32_t> group;
  std::vector<std::size_t> frameStart;  ///< first row of each frame; one past the last at the end
  std::vector<std::uint64_t> frameStep;
  std::vector<double> frameTime;

  void add(const FrameView& f) {
    if (frameStart.empty()) frameStart.push_back(0);
    id.insert(id.end(), f.id.begin(), f.id.end());
    x.insert(x.end(), f.px.begin(), f.px.end());
    y.insert(y.end(), f.py.begin(), f.py.end());
    vx.insert(vx.end(), f.vx.begin(), f.vx.end());
    vy.insert(vy.end(), f.vy.begin(), f.vy.end());
    jammed.insert(jammed.end(), f.jammed.begin(), f.jammed.end());
    group.insert(group.end(), f.group.begin(), f.group.end());
    frameStart.push_back(id.size());
    frameStep.push_back(f.step);
    frameTime.push_back(f.time);
  }
  std::size_t frames() const { return frameStep.size(); }
  /// Frame k as the exporter takes it (radius is not exported).
  FrameView frame(std::size_t k) const {
    const std::size_t a = frameStart[k], n = frameStart[k + 1] - a;
    FrameView f;
    f.px = {x.data() + a, n};
    f.py = {y.data() + a, n};
    f.vx = {vx.data() + a, n};
    f.vy = {vy.data() + a, n};
    f.group = {group.data() + a, n};
    f.jammed = {jammed.data() + a, n};
    f.id = {id.data() + a, n};
    f.step = frameStep[k];
    f.time = frameTime[k];
    return f;
  }
};

struct RunState {
  RunState(const Scene& s, bool gate) : scene(s), run(scene, SceneRun::Options{.gate = gate}) {}
  Scene scene;
  SceneRun run;
  std::vector<double> ms;  ///< each step's crowd time, as `throng run` keeps them
  bool recording = false;
  Recording recorded;
  std::mutex busy;  ///< held by the one call using the run (try_lock: never waits with the GIL)

  /// The run for this call alone; another thread's call in progress is an error, not a wait.
  std::unique_lock<std::mutex> claim() {
    std::unique_lock lock(busy, std::try_to_lock);
    if (!lock.owns_lock()) throw std::runtime_error("this run is being stepped by another thread");
    return lock;
  }
};

/// The memory one frame's arrays read; see the note at the top.
struct FrameLease {
  std::shared_ptr<RunState> state;  ///< while the arrays read the crowd's own vectors
  FrameArrays arrays;               ///< the buffers they read, once the crowd moves on
};

class Run {
 public:
  Run(const Scene& scene, std::optional<std::uint64_t> seed, const std::string& backend,
      std::optional<std::int64_t> threads, std::optional<double> dt, bool gate, bool record) {
    Scene s = scene;
    applyRunFlags(s, seed, dt, threads);
    const BackendKind kind = backendKind(backend);
    state_ = std::make_shared<RunState>(s, gate);
    if (kind != BackendKind::Cpu) {
      std::string msg;
      if (!state_->run.crowd().setBackend(kind, &msg)) throw std::runtime_error(msg);
      backendMessage_ = msg;
    }
    state_->recording = record;
    if (record) state_->recorded.add(state_->run.crowd().frame());
  }
  ~Run() {
    try {
      release();  // Python holds the GIL here, and nobody else holds the run
    } catch (...) {
    }
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  void step(std::uint64_t n) { stepLoop(n, false); }

  /// The steps `throng run --seconds S` takes.
  std::uint64_t stepsFor(double seconds) {
    std::string err;
    const std::optional<std::uint64_t> n = planSteps(use().run.spec(), std::nullopt, seconds, &err);
    if (!n) throw py::value_error(err);
    return *n;
  }

  /// `throng run`'s default length: on to the scene's duration (counted
  /// from the run's start, so steps already taken count), stopping early
  /// once all arrived. Returns the steps taken.
  std::uint64_t untilDone() {
    std::string err;
    const std::optional<std::uint64_t> total = planSteps(use().run.spec(), std::nullopt, std::nullopt, &err);
    if (!total) throw py::value_error(err);
    const std::uint64_t done = use().run.steps();
    if (use().run.allArrivedTime()) return 0;  // (runLoop checks after a step)
    return stepLoop(*total > done ? *total - done : 0, true);
  }

  /// Up to `n` steps with the GIL released: throng run's loop (stopping
  /// early once all arrived when `untilArrived`), recording each frame when
  /// asked; Ctrl-C stops it between steps and raises KeyboardInterrupt.
  /// Returns the steps taken.
  std::uint64_t stepLoop(std::uint64_t n, bool untilArrived) {
    RunState& s = use();
    std::unique_lock lock = s.claim();
    newFrame();
    const std::uint64_t before = s.run.steps();
    cli::LoopEnd end;
    {
      py::gil_scoped_release nogil;
      SignalPoll poll;
      const auto record = [&s](std::uint64_t) {
        if (s.recording) s.recorded.add(s.run.crowd().frame());
      };
      end = cli::runLoop(s.run, n, !untilArrived, nullptr, s.ms, [&poll] { return poll.interrupted(); }, record,
                         nullptr);
    }
    if (end == cli::LoopEnd::Stopped) throw py::error_already_set();
    return s.run.steps() - before;
  }

  /// Frees the run now; arrays taken before keep their frame.
  void close() { release(); }
  bool closed() const { return !state_; }

  // ---- the views ----
  enum class Column { X, Y, Vx, Vy, Radius, Group, Jammed, Id };
  py::array view(Column c) {
    RunState& s = use();
    std::unique_lock lock = s.claim();
    if (lease_.is_none()) {
      auto l = std::make_shared<FrameLease>();
      l->state = state_;
      lease_ = py::cast(l);
    }
    const FrameView f = s.run.crowd().frame();
    const std::size_t n = f.px.size();
    switch (c) {
      case Column::X: return readOnly(f.px.data(), n, lease_);
      case Column::Y: return readOnly(f.py.data(), n, lease_);
      case Column::Vx: return readOnly(f.vx.data(), n, lease_);
      case Column::Vy: return readOnly(f.vy.data(), n, lease_);
      case Column::Radius: return readOnly(f.radius.data(), n, lease_);
      case Column::Group: return readOnly(f.group.data(), n, lease_);
      case Column::Jammed: return readOnly(f.jammed.data(), n, lease_, py::dtype("bool"));  // 0 or 1
      case Column::Id: return readOnly(f.id.data(), n, lease_);
    }
    return py::none();
  }
  /// (n, 2): a copy, once per frame.
  py::object pairs(bool velocities) {
    py::object& cached = velocities ? velocities_ : positions_;
    if (!cached.is_none()) return cached;
    RunState& s = use();
    std::unique_lock lock = s.claim();
    const FrameView f = s.run.crowd().frame();
    const std::size_t n = f.px.size();
    py::array_t<float> a(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), 2});
    float* out = a.mutable_data();
    const std::span<const float> xs = velocities ? f.vx : f.px, ys = velocities ? f.vy : f.py;
    for (std::size_t i = 0; i < n; ++i) {
      out[2 * i] = xs[i];
      out[2 * i + 1] = ys[i];
    }
    freeze(a);
    cached = a;
    return cached;
  }

  // ---- scalars ----
  std::uint64_t steps() { return use().run.steps(); }
  double time() { return use().run.time(); }
  double dt() { return use().run.dt(); }
  std::size_t count() { return use().run.crowd().count(); }
  std::size_t agentsEver() { return use().run.agentsEver(); }
  std::size_t arrived() { return use().run.arrived(); }
  std::size_t removed() { return use().run.removed(); }
  std::optional<double> allArrivedTime() { return use().run.allArrivedTime(); }
  std::size_t jammedNow() { return use().run.crowd().lastStats().jammed; }
  std::string backend() { return use().run.crowd().backendName(); }
  const std::string& backendMessage() const { return backendMessage_; }
  std::uint64_t stateHash() { return use().run.crowd().stateHash(); }
  Scene scene() { return use().scene; }
  bool recording() { return use().recording; }

  std::string summary() {
    RunState& s = use();
    return cli::summaryJson(s.scene, s.run, s.ms);
  }

  void exportTo(const std::string& path, const std::string& format) {
    RunState& s = use();
    const ExportFormat f = exportFormat(format);
    if (!s.recording)
      throw std::runtime_error("export needs a run made with record=True (the frames are kept only when asked)");
    std::unique_lock lock = s.claim();
    std::string err;
    bool ok = true;
    {
      py::gil_scoped_release nogil;
      cli::Exporter e;
      ok = e.open(path, f, s.run.dt(), s.run.spec(), &err);
      for (std::size_t k = 0; ok && k < s.recorded.frames(); ++k) ok = e.write(s.recorded.frame(k), &err);
      if (ok) ok = e.commit(&err);
    }
    if (!ok) raise(PyExc_OSError, err);
  }

  /// The recorded frames as columns (copies).
  py::dict trajectory() {
    RunState& s = use();
    if (!s.recording)
      throw std::runtime_error("the trajectory needs a run made with record=True (the frames are kept only when asked)");
    const Recording& r = s.recorded;
    const std::size_t rows = r.id.size();
    std::vector<std::uint64_t> frame(rows);
    std::vector<double> time(rows);
    for (std::size_t k = 0; k < r.frames(); ++k)
      for (std::size_t i = r.frameStart[k]; i < r.frameStart[k + 1]; ++i) {
        frame[i] = r.frameStep[k];
        time[i] = r.frameTime[k];
      }
    const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(rows)};
    py::dict d;
    d["id"] = ownedCopy(r.id.data(), rows, shape);
    d["frame"] = ownedCopy(frame.data(), rows, shape);
    d["time"] = ownedCopy(time.data(), rows, shape);
    d["x"] = ownedCopy(r.x.data(), rows, shape);
    d["y"] = ownedCopy(r.y.data(), rows, shape);
    d["vx"] = ownedCopy(r.vx.data(), rows, shape);
    d["vy"] = ownedCopy(r.vy.data(), rows, shape);
    d["jammed"] = ownedCopy(r.jammed.data(), rows, shape).attr("astype")("bool");
    d["group"] = ownedCopy(r.group.data(), rows, shape);
    return d;
  }

  /// The fields of the last refresh (copies), or None when none was built.
  /// The measurements by name (Crowd::measurements), arrays copied.
  py::dict measurements() {
    RunState& s = use();
    const MeasureSeries& m = s.run.crowd().measurements();
    const std::size_t steps = m.steps(), n = m.measurements.size();
    const py::ssize_t k = static_cast<py::ssize_t>(steps);
    py::dict out;
    for (std::size_t j = 0; j < n; ++j) {
      const Measurement& def = m.measurements[j];
      py::dict d;
      std::vector<double> pts;
      for (const Vec2& p : def.points) pts.insert(pts.end(), {p.x, p.y});
      d["points"] = ownedCopy(pts.data(), pts.size(), {static_cast<py::ssize_t>(def.points.size()), 2});
      d["time"] = ownedCopy(m.time.data(), steps, {k});
      if (def.kind == MeasureKind::Line) {
        std::vector<std::int64_t> fwd(steps), back(steps), crossed(steps);
        std::int64_t total = 0;
        for (std::size_t t = 0; t < steps; ++t) {
          fwd[t] = m.at(t, j).forward;
          back[t] = m.at(t, j).backward;
          crossed[t] = total += fwd[t] + back[t];
        }
        d["kind"] = "line";
        d["forward"] = ownedCopy(fwd.data(), steps, {k});
        d["backward"] = ownedCopy(back.data(), steps, {k});
        d["crossed"] = ownedCopy(crossed.data(), steps, {k});
        std::vector<double> when;
        std::vector<std::uint64_t> who;
        std::vector<std::int8_t> way;
        for (const Crossing& c : m.crossings) {
          if (c.measurement != j) continue;
          when.push_back(c.time);
          who.push_back(c.id);
          way.push_back(c.direction);
        }
        const py::ssize_t c = static_cast<py::ssize_t>(when.size());
        py::dict cr;
        cr["time"] = ownedCopy(when.data(), when.size(), {c});
        cr["id"] = ownedCopy(who.data(), who.size(), {c});
        cr["direction"] = ownedCopy(way.data(), way.size(), {c});
        d["crossings"] = cr;
      } else {
        std::vector<std::int64_t> inside(steps);
        std::vector<double> density(steps), speed(steps), flow(steps);
        for (std::size_t t = 0; t < steps; ++t) {
          inside[t] = m.at(t, j).inside;
          density[t] = m.density(t, j);
          speed[t] = m.at(t, j).meanSpeed;
          flow[t] = density[t] * speed[t];
        }
        d["kind"] = "area";
        d["area"] = m.area[j];
        d["inside"] = ownedCopy(inside.data(), steps, {k});
        d["density"] = ownedCopy(density.data(), steps, {k});
        d["mean_speed"] = ownedCopy(speed.data(), steps, {k});
        d["specific_flow"] = ownedCopy(flow.data(), steps, {k});
      }
      out[py::str(def.name)] = d;
    }
    return out;
  }

  py::object fields(int target) {
    RunState& s = use();
    const FieldView f = s.run.crowd().fields(target);
    if (f.cols == 0) return py::none();
    const py::ssize_t rows = f.rows, cols = f.cols;
    const auto grid = [&](std::span<const float> v) {
      return v.empty() ? py::object(py::none()) : py::object(ownedCopy(v.data(), v.size(), {rows, cols}));
    };
    const auto four = [&](std::span<const float> v) {
      return v.empty() ? py::object(py::none()) : py::object(ownedCopy(v.data(), v.size(), {rows, cols, 4}));
    };
    py::dict d;
    d["origin"] = py::make_tuple(f.origin.x, f.origin.y);
    d["cell"] = f.cell;
    d["refresh_step"] = f.refreshStep;
    d["targets"] = f.potentials;
    d["blocked"] = f.blocked.empty() ? py::object(py::none())
                                     : ownedCopy(f.blocked.data(), f.blocked.size(), {rows, cols}).attr("astype")("bool");
    d["density"] = grid(f.density);
    d["velocity_x"] = grid(f.velocityX);
    d["velocity_y"] = grid(f.velocityY);
    d["height"] = grid(f.height);
    d["discomfort"] = grid(f.discomfort);
    d["speed"] = four(f.speed);
    d["cost"] = four(f.cost);
    d["potential"] = grid(f.potential);
    return d;
  }

 private:
  RunState& use() {
    if (!state_) throw std::runtime_error("this run is closed");
    return *state_;
  }

  /// Before the crowd's memory may change: the cached pairs go, and a lease
  /// that arrays still read takes the crowd's vectors (see the top).
  void newFrame() {
    positions_ = py::none();
    velocities_ = py::none();
    if (lease_.is_none()) return;
    FrameLease& l = lease_.cast<FrameLease&>();
    if (lease_.ref_count() > 1 && l.state) {
      // The arrays keep their buffers, now the lease's; the crowd goes on
      // with equal copies, exactly as it would have.
      l.state->run.crowd().detachFrame(l.arrays);
    }
    l.state.reset();
    lease_ = py::none();
  }

  void release() {
    if (!state_) return;
    std::unique_lock lock = state_->claim();
    newFrame();
    lock.unlock();
    state_.reset();
  }

  std::shared_ptr<RunState> state_;
  py::object lease_ = py::none();
  py::object positions_ = py::none(), velocities_ = py::none();
  std::string backendMessage_;
};

/// `throng run` from Python: the scene as given (seed, sets, threads applied
/// already), the same step count, loop, export and summary. Returns the
/// summary's JSON text.
std::string runScene(const Scene& scene, std::optional<std::uint64_t> steps, std::optional<double> seconds,
                     const std::string& backend, const std::string& exportPath, const std::string& format,
                     const std::string& summaryPath) {
  const ExportFormat f = exportFormat(format);
  const BackendKind kind = backendKind(backend);
  std::string err;
  const std::optional<std::uint64_t> total = cli::planSteps(scene.spec(), steps, seconds, &err);
  if (!total) throw py::value_error(err);
  SceneRun run(scene, SceneRun::Options{.gate = true});
  if (kind != BackendKind::Cpu && !run.crowd().setBackend(kind, &err)) throw std::runtime_error(err);
  cli::Exporter exporter;
  if (!exportPath.empty() &&
      !exporter.open(exportPath, f, run.dt(), scene.spec(), &err))
    raise(PyExc_OSError, err);
  std::vector<double> ms;
  cli::LoopEnd end;
  std::string summary;
  {
    py::gil_scoped_release nogil;
    SignalPoll poll;
    end = cli::runLoop(run, *total, steps || seconds, &exporter, ms, [&] { return poll.interrupted(); }, {}, &err);
    if (end == cli::LoopEnd::Done && exporter.isOpen() && !exporter.commit(&err)) end = cli::LoopEnd::Failed;
    if (end == cli::LoopEnd::Done) {
      summary = cli::summaryJson(scene, run, ms);
      if (!summaryPath.empty() && !cli::writeAtomically(summaryPath, summary, &err)) end = cli::LoopEnd::Failed;
    }
  }
  if (end == cli::LoopEnd::Stopped) {
    exporter.discard();
    throw py::error_already_set();
  }
  if (end == cli::LoopEnd::Failed)
    raise(PyExc_OSError, err);
  return summary;
}

Scene loadScene(const std::string& nameOrPath) {
  std::string err;
  const std::optional<std::string> path = findScene(nameOrPath, &err);
  if (!path) raise(PyExc_FileNotFoundError, err);
  std::optional<Scene> scene = Scene::load(*path, &err);
  if (!scene) throw py::value_error(err);
  return std::move(*scene);
}

Scene parseScene(const std::string& text, const std::string& fileName) {
  std::string err;
  std::optional<Scene> scene = Scene::parse(text, fileName, &err);
  if (!scene) throw py::value_error(err);
  return std::move(*scene);
}

py::list knobList(const Scene& s) {
  py::list out;
  for (const Knob& k : s.knobs()) {
    py::dict d;
    d["name"] = k.name;
    d["help"] = k.help;
    d["min"] = k.min;
    d["max"] = k.max;
    d["default"] = k.defaultValue;
    d["value"] = k.value;
    d["integer"] = k.integer;
    out.append(d);
  }
  return out;
}

py::dict settingTexts(const Settings& s) {
  py::dict d;
  for (const SettingInfo& i : settingsTable()) d[py::str(std::string(i.name))] = getSettingText(s, i.name);
  return d;
}

py::list settingList() {
  py::list out;
  const Settings defaults;
  for (const SettingInfo& i : settingsTable()) {
    py::dict d;
    d["name"] = std::string(i.name);
    d["unit"] = std::string(i.unit);
    const char* kinds[] = {"real", "integer", "seed", "choice"};
    d["kind"] = kinds[static_cast<int>(i.kind)];
    d["limits"] = formatLimits(i);
    d["default"] = getSettingText(defaults, i.name);
    d["help"] = std::string(i.help);
    py::list models;
    for (std::string_view m : i.models) models.append(std::string(m));
    d["models"] = models;
    out.append(d);
  }
  return out;
}

/// Polylines as a list of (n, 2) float64 arrays.
py::list pointLists(const std::vector<std::vector<Vec2>>& lines) {
  py::list out;
  for (const std::vector<Vec2>& l : lines) {
    std::vector<double> xy;
    for (const Vec2& p : l) xy.insert(xy.end(), {p.x, p.y});
    out.append(ownedCopy(xy.data(), xy.size(), {static_cast<py::ssize_t>(l.size()), 2}));
  }
  return out;
}

/// The scene's measurements as (name, kind, (n, 2) points), in file order.
py::list measurementList(const Scene& s) {
  py::list out;
  for (const Measurement& m : s.spec().measurements) {
    py::dict d;
    d["name"] = m.name;
    d["kind"] = m.kind == MeasureKind::Line ? "line" : "area";
    d["points"] = pointLists({m.points})[0];
    out.append(d);
  }
  return out;
}

}  // namespace

}  // namespace throng::python

PYBIND11_MODULE(_throng, m) {
  using namespace throng;
  using namespace throng::python;
  m.doc() = "throng's C++ core: use the throng package, not this module.";

  py::class_<Scene>(m, "Scene")
      .def_static("load", &loadScene, py::arg("name_or_path"))
      .def_static("parse", &parseScene, py::arg("text"), py::arg("file_name"))
      .def_property_readonly("name", [](const Scene& s) { return s.name(); })
      .def_property_readonly("file", [](const Scene& s) { return s.file(); })
      .def_property_readonly("description", [](const Scene& s) { return s.spec().description; })
      .def_property_readonly("units", [](const Scene& s) { return s.spec().units; })
      .def_property_readonly("duration", [](const Scene& s) { return s.spec().duration; })
      .def_property_readonly("agent_count", [](const Scene& s) { return s.spec().agents.size(); })
      .def_property_readonly("knobs", &knobList)
      .def_property_readonly("settings", [](const Scene& s) { return settingTexts(s.spec().settings); })
      .def_property_readonly("walls", [](const Scene& s) { return pointLists(s.spec().walls); })
      .def_property_readonly("obstacles", [](const Scene& s) { return pointLists(s.spec().obstacles); })
      .def_property_readonly("has_walkable_area", [](const Scene& s) { return !s.spec().walkable.empty(); })
      .def_property_readonly("walkable_area_wkt", [](const Scene& s) { return walkableAreaWkt(s.spec()); })
      .def_property_readonly("measurements", &measurementList)
      .def("assign", [](Scene& s, const std::string& a) { assign(s, a); }, py::arg("assignment"))
      .def("reset", &Scene::reset)
      .def("copy", [](const Scene& s) { return Scene(s); });

  py::class_<FrameLease, std::shared_ptr<FrameLease>>(m, "FrameLease",
                                                       "The memory of one frame's numpy views (their base).");

  py::class_<Run> run(m, "Run");
  run.def(py::init<const Scene&, std::optional<std::uint64_t>, const std::string&, std::optional<std::int64_t>,
                   std::optional<double>, bool, bool>(),
          py::arg("scene"), py::arg("seed") = py::none(), py::arg("backend") = "auto", py::arg("threads") = py::none(),
          py::arg("dt") = py::none(), py::arg("gate") = true, py::arg("record") = false)
      .def("step", &Run::step, py::arg("n") = 1)
      .def("steps_for", &Run::stepsFor, py::arg("seconds"))
      .def("until_done", &Run::untilDone)
      .def("close", &Run::close)
      .def_property_readonly("closed", &Run::closed)
      .def_property_readonly("x", [](Run& r) { return r.view(Run::Column::X); })
      .def_property_readonly("y", [](Run& r) { return r.view(Run::Column::Y); })
      .def_property_readonly("vx", [](Run& r) { return r.view(Run::Column::Vx); })
      .def_property_readonly("vy", [](Run& r) { return r.view(Run::Column::Vy); })
      .def_property_readonly("radii", [](Run& r) { return r.view(Run::Column::Radius); })
      .def_property_readonly("groups", [](Run& r) { return r.view(Run::Column::Group); })
      .def_property_readonly("jammed", [](Run& r) { return r.view(Run::Column::Jammed); })
      .def_property_readonly("ids", [](Run& r) { return r.view(Run::Column::Id); })
      .def_property_readonly("positions", [](Run& r) { return r.pairs(false); })
      .def_property_readonly("velocities", [](Run& r) { return r.pairs(true); })
      .def_property_readonly("step_count", &Run::steps)
      .def_property_readonly("time", &Run::time)
      .def_property_readonly("dt", &Run::dt)
      .def_property_readonly("count", &Run::count)
      .def_property_readonly("agents_ever", &Run::agentsEver)
      .def_property_readonly("arrived", &Run::arrived)
      .def_property_readonly("removed", &Run::removed)
      .def_property_readonly("all_arrived_time", &Run::allArrivedTime)
      .def_property_readonly("jammed_count", &Run::jammedNow)
      .def_property_readonly("backend", &Run::backend)
      .def_property_readonly("backend_message", &Run::backendMessage)
      .def_property_readonly("state_hash", &Run::stateHash)
      .def_property_readonly("scene", &Run::scene)
      .def_property_readonly("recording", &Run::recording)
      .def("summary_json", &Run::summary)
      .def("export", &Run::exportTo, py::arg("path"), py::arg("format"))
      .def("trajectory", &Run::trajectory)
      .def("fields", &Run::fields, py::arg("target") = 0)
      .def("measurements", &Run::measurements);

  m.def("run_scene", &runScene, py::arg("scene"), py::arg("steps"), py::arg("seconds"), py::arg("backend"),
        py::arg("export_path"), py::arg("format"), py::arg("summary_path"));
  m.def("find_scene", [](const std::string& name) {
    std::string err;
    const std::optional<std::string> p = findScene(name, &err);
    if (!p) raise(PyExc_FileNotFoundError, err);
    return *p;
  });
  m.def("list_scenes", [] { return listScenes(); });
  m.def("path_component", [](const std::string& name) { return pathComponent(name); }, py::arg("name"));
  m.def("scene_directories", [] { return sceneDirectories(); });
  m.def("settings_table", &settingList);
  m.def("model_names", [] { return modelNames(); });
  m.def("routing_names", [] { return routingNames(); });
  m.def("cuda_available", [] {
    std::string why;
    const bool ok = cudaAvailable(&why);
    return py::make_tuple(ok, why);
  });
  m.attr("MAX_RUN_STEPS") = cli::kMaxRunSteps;
  m.attr("MAX_RUN_SECONDS") = cli::kMaxRunSeconds;
}
