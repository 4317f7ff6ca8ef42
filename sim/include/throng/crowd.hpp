#pragma once
// Crowd: walkers that head for goals and make room for each other, by the
// model Settings::model names (ORCA, the RVO2 formulation; BioCrowds; or
// Continuum Crowds).
//
// Crowd is a thin facade over structure-of-arrays state
// (sim/src/core/world.hpp). A step is one pipeline of phases, each a loop
// over plain arrays (sim/src/core/model.hpp's design note): the wishes
// (goal, route, stream or closure; jitter), the model's own phases (new
// velocities and jam flags), then integrate (land on goals, advance
// routes). Every phase before integrate reads only the state as it was
// before the step and writes new arrays, so the result is independent of
// thread count and order.
//
// Movable, not copyable; thread-safe only across separate instances.
//
// Errors: a call with a walker index out of range throws std::out_of_range,
// and one with a value outside its [Limit] (a non-finite number, a
// negative radius, a count beyond kMaxAgents) throws std::invalid_argument
// (std::length_error for the count), each with a message naming the call
// and the value; the crowd is then unchanged. Nothing throws out of a step.
//
// Coordinates: any finite float. The step stays exact and deterministic
// out to the edges of float (tests/sim/test_near_lists.cpp), but floats are
// spaced 1 unit apart at 1e7 and 1/16 at 1e6: keep a scene within about
// 1e6 units of the origin if a walker's step is a small fraction of a unit.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/types.hpp"
#include "throng/backend.hpp"
#include "throng/fields.hpp"
#include "throng/measure.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The most walkers a crowd holds (indices are 32-bit on both backends;
/// about 100 bytes each on the host).
inline constexpr std::size_t kMaxAgents = 100'000'000;
/// The most steps one advance(by) takes (by / maxStep, rounded up).
inline constexpr double kMaxStepsPerAdvance = 1e6;

class World;
class Backend;

class Crowd {
 public:
  explicit Crowd(Settings = {});
  ~Crowd();
  Crowd(Crowd&&) noexcept;
  Crowd& operator=(Crowd&&) noexcept;
  Crowd(const Crowd&) = delete;
  Crowd& operator=(const Crowd&) = delete;

  Settings settings;  ///< editable between steps; takes effect at the next

  /// Appends a walker and returns its index. The limits are Agent's; at
  /// most kMaxAgents walkers.
  std::size_t add(Vec2 at, std::optional<Vec2> goal = {}, float radius = 8, float maxSpeed = 120,
                  int group = 0);
  std::size_t count() const;
  Agent agent(std::size_t i) const;            ///< a copy [Limit: i < count()]
  void setAgent(std::size_t i, const Agent&);  ///< edit or shove between steps; Agent's limits
  /// Removes every walker the predicate picks; keeps the others' order.
  void removeAgents(const std::function<bool(const Agent&)>&);
  /// The speed walker i wishes to walk at towards goals and gates, below
  /// its maxSpeed (it may speed up to maxSpeed to make room). <= 0, the
  /// default, wishes for maxSpeed. [Limit: finite]
  void setPreferredSpeed(std::size_t i, float speed);
  float preferredSpeed(std::size_t i) const;
  /// A stable id, unique in this crowd, from add() until removal.
  std::uint64_t id(std::size_t i) const;

  /// A closed outline, either winding, convex or not; walkers stay outside.
  /// Points finite; fewer than two distinct points add nothing.
  void addObstacle(std::span<const Vec2> outline);
  void addObstacle(Rect);
  /// A polyline of zero thickness, held from both sides and at bends.
  void addWall(std::span<const Vec2> polyline);
  void addWall(Vec2 from, Vec2 to);
  void removeAllObstacles();
  /// What was added, as given.
  std::span<const std::vector<Vec2>> obstacles() const;
  std::span<const std::vector<Vec2>> walls() const;

  /// Replaces goals with a rule: called once per walker per step on the
  /// calling thread, in index order. Empty: goals (or routes, streams).
  std::function<Vec2(const Agent&)> preferredVelocity;

  /// Walkers of `group` wish for this constant velocity instead of a goal
  /// (a corridor stream); std::nullopt returns them to goals. [Limit: finite]
  void setGroupVelocity(int group, std::optional<Vec2> velocity);
  /// Adds a route of gates (finite points) and returns its number.
  int addRoute(std::vector<Waypoint> gates);
  /// Sends walker i along a route (-1: none), from its first gate; after the
  /// last gate it heads for its goal. [Limit: -1 <= route < routes added]
  void setRoute(std::size_t i, int route);
  /// The route and next gate of walker i (gate == route size once through).
  std::pair<int, int> routeOf(std::size_t i) const;

  /// The model the next steps take (Settings::model): the walkers, goals,
  /// routes and obstacles stay as they are. [Limit: a registered model,
  /// throng::modelNames()]
  void setModel(std::string_view name);

  void advance();             ///< one 1/60 s step
  /// Equal steps of at most settings.maxStep. [Limit: 0 <= by, finite, at
  /// most kMaxStepsPerAdvance steps]; 0 does nothing.
  void advance(double by);

  std::uint64_t stepCount() const;  ///< steps taken since construction
  double time() const;              ///< simulated seconds since construction
  StepStats lastStats() const;
  /// What the last step cost, phase by phase (StepProfile: timings, not
  /// state); measured == false before the first step.
  StepProfile profile() const;
  FrameView frame() const;
  /// What walker i will do in the first step of advance(by) (advance()'s
  /// 1/60 s by default): its wish, neighbours, lines and chosen velocity.
  AgentExplain explain(std::size_t i, double by = 1.0 / 60) const;
  /// The points the model lays on the ground (BioCrowds' markers) and
  /// their owners in the last step; empty for a model with none, or
  /// before its first step. On CUDA the owners are copied back on each call.
  MarkerView markers() const;
  /// The targets, discomfort and ground the fields are built over
  /// (throng/fields.hpp); the next field refresh takes them.
  void setTerrain(Terrain terrain);
  const Terrain& terrain() const;
  /// The fields of the last refresh, with the potential of target `target`
  /// (an index into terrain().targets; out of range: none). Empty when no
  /// field was built: the model and routing use none, or before the first
  /// step. On CUDA the fields are copied back on each call.
  FieldView fields(int target = 0) const;
  /// A measurement line or area (throng/measure.hpp), measured from the
  /// next step on; returns its index. Adding one starts every series over.
  /// [Limit: measurementProblem(m) is empty]
  std::size_t addMeasurement(Measurement m);
  void clearMeasurements();
  /// The measurements and what they measured, step by step, since the last
  /// was added. Not part of the state: stateHash() never reads it.
  const MeasureSeries& measurements() const;
  /// A 64-bit hash of the whole state (positions, velocities, flags, ids).
  std::uint64_t stateHash() const;

  /// Picks where steps run. Auto takes CUDA when a device is present, else
  /// the CPU. Returns false (and says why in `message`) when the kind asked
  /// for is unavailable; the crowd then keeps its current backend. On
  /// success with Auto, `message` names the choice.
  bool setBackend(BackendKind kind, std::string* message = nullptr);
  const char* backendName() const;
  /// The device arrays of the current state, for drawing straight from them
  /// (CUDA-GL interop); false on the CPU, or while the host copy is newer.
  bool deviceFrame(DeviceFrame& out);

  /// Moves the arrays frame() views into `into` and leaves equal copies in
  /// the crowd: views taken before keep their buffers (now `into`'s) and
  /// their values, whatever the crowd does next. A read: the state, its
  /// hash and the next steps are what they would have been.
  void detachFrame(FrameArrays& into);

  World& world();              ///< the SoA state (host copy), for backends and the library's own tests
  const World& world() const;

 private:
  const World& synced() const;  ///< pulls device state first
  World& edit();                ///< pulls, then marks the host copy changed

  std::unique_ptr<World> world_;
  std::unique_ptr<Backend> backend_;
};

}  // namespace throng
