#pragma once
// Scenes as data: a JSON scene file, its knobs, and a run that steps it.
//
// Layer 5 (beside Crowd): the loader reads a file into a Scene, which keeps
// the parsed document and the current knob values, and resolves them into a
// SceneSpec: plain, concrete geometry and agents. A SceneRun builds a Crowd
// from a spec and advances it by a fixed dt with the scene's sources and
// sinks as part of the step. No SDL, GL or JSON types cross this header.
//
// The visualizer's use, in full:
//   std::string err;
//   auto path = findScene("door", &err);             // name or path
//   auto scene = Scene::load(*path, &err);           // nullopt: err says why
//   for (const Knob& k : scene->knobs()) slider(k.name, k.min, k.max, k.value);
//   scene->set("doorWidth", 1.6, &err);              // knob or Settings field
//   SceneRun run(*scene);                            // same seed, new knobs
//   run.step();                                      // fixed dt, deterministic
//   draw(run.crowd().frame(), run.crowd().walls(), run.spec().sinks);
//
// ## The file (every key is optional unless marked; unknown keys are errors)
// {
//   "name": "door", "description": "...", "units": "m",
//   "model": "orca",             // settings.model, one of modelNames()
//   "duration": 60,              // s: how long `throng run` runs by default
//   "settings": { "timeHorizon": 2, "maxStep": 0.05, ... },  // settingsTable():
//                                // numbers, seed a whole number, model a name;
//                                // maxStep is the run's fixed dt
//   "knobs": { "doorWidth": {"min": 0.6, "max": 3, "default": 1.2,
//                            "help": "...", "integer": false} },
//   "agentDefaults": { "radius": 0.25, "maxSpeed": 1.3 },
//   "agents": [ {"at": [x, y], PROPS} ],
//   "generators": [
//     {"type": "ring", "count": 60, "center": [0, 0], "ringRadius": 440, PROPS},
//                                // goal: the antipode unless PROPS give one
//     {"type": "grid", "origin": [x, y], "rows": 4, "cols": 5,
//      "spacing": [dx, dy] or d, PROPS},
//     {"type": "fill", "region": [x, y, w, h], "density": 1.5, PROPS}
//                                // agents/m²: a jittered grid hashed from the
//                                // seed, each disc inside its own cell, so
//                                // nothing overlaps; cells that would overlap
//                                // an obstacle are skipped
//   ],
//   "sources": [ {"region": [x, y, w, h], "rate": 2, "start": 0, "stop": 30,
//                 "max": 100, PROPS} ],   // rate in agents/s, hashed spots
//                                         // that overlap nobody
//   "sinks": [ {"region": [x, y, w, h], "groups": [1]} ],  // removes agents
//                                         // whose centre enters (all groups
//                                         // when "groups" is absent)
//   "obstacles": [ {"rect": [x, y, w, h]}, {"outline": [[x, y], ...]} ],
//   "walls": [ [[x, y], [x, y], ...] ],   // polylines
//   "geometry": {"wkt": "POLYGON ((0 0, 20 0, 20 10, 0 10, 0 0))"},
//                                // or {"geojson": {GeoJSON}} or {"file":
//                                // "plan.wkt"} (.wkt, .geojson or .json,
//                                // relative to this file, inside its
//                                // folder): exactly one. Polygons are the
//                                // walkable area: each outline a closed
//                                // wall, each hole an obstacle, and fill
//                                // generators fill only inside it. Lines
//                                // are walls. Read by GEOS: a polygon it
//                                // finds invalid is refused with its reason
//   "routes": { "door": {"gates": [ [[x, y], [x, y]] ], "goal": [x, y],
//                        "goalRegion": [x, y, w, h]} },
//   "streams": [ {"group": 1, "velocity": [1.3, 0]} ], // constant wish
//   "measurements": [ {"name": "door", "line": [[x, y], [x, y]]},
//                     {"name": "queue", "rect": [x, y, w, h]},
//                     {"name": "hall", "outline": [[x, y], ...]} ],
//                                // lines count crossings, forward from the
//                                // line's left to its right; areas count
//                                // walkers, density and speed
//                                // (throng/measure.hpp); names unique,
//                                // "measurement N" by default
//   "verify": {"test": "RiMEA 1", "says": "40 m in 26-34 s", "seeds": 1,
//              "checks": [{"figure": "end.lastTime", "min": 26, "max": 34},
//                         {"figure": "exit.meanFlow", "max": 1.33,
//                          "percentile": 95},
//                         {"figure": "allArrivedTime", "ratioTo": "other",
//                          "min": 1.6, "max": 2.4},
//                         {"figure": "foot.meanFlow", "over": "hall.meanFlow",
//                          "max": 1}],
//              "verdict": true}   // a test of `throng verify` (SceneVerify)
//   "verify": {"test": "RiMEA 4", "diagram": [0.5, 1, 2, 3],
//              "checks": [{"figure": "diagram.1", "over": "weidmann.1",
//                          "min": 0.85, "max": 1.15},
//                         {"figure": "diagram.falling", "min": 1}]}
//                                // a fundamental diagram: the ring corridor
//                                // (throng/diagram.hpp) at each density under
//                                // the scene's settings, instead of the scene
//   "routing": "goals",          // settings.routing, one of routingNames():
//                                // "field" walks down the targets' potentials
//   "targets": [ {"name": "exits", "regions": [[x, y, w, h], ...],
//                 "groups": [0, 1], "route": "door"} ],
//                                // "region" (one rect) or "regions" (at least
//                                // one), required; "group" (an int) or
//                                // "groups" (at least one; absent: every
//                                // group); "route": only walkers on it;
//                                // "name" defaults to "target N" (N its index)
//   "discomfort": [ {"rect": [x, y, w, h], "value": 2},
//                   {"outline": [[x, y], ...], "value": -0.5} ],
//                                // value (default 1) added where regions
//                                // overlap; below 0 a walker prefers it
//   "hills": [ {"at": [x, y], "radius": 3, "height": 1.5} ],  // all required;
//                                // radius > 0
//   "heightMap": {"origin": [x, y], "cell": 0.5,
//                 "heights": [[row 0 ...], [row 1 ...], ...]}
//                                // nodes: row r, column c at origin + (c, r)
//                                // * cell (row 0 at origin's y, y growing);
//                                // cell and heights required, origin [0, 0]
//                                // by default; rows of equal length, 1x1 to
//                                // kMaxHeightMapNodes a side
//   "discomfortMap": {"origin": [x, y], "cell": 0.5,
//                     "values": [[row 0 ...], [row 1 ...], ...]}
//                                // painted discomfort (the editor's brush):
//                                // nodes and limits as "heightMap"'s, read
//                                // bilinearly between them, 0 outside;
//                                // added to the "discomfort" regions' sum
//   "speedZones": [ {"rect": [x, y, w, h], "factor": 0.5},
//                   {"outline": [[x, y], ...], "factor": 0.8} ],
//                                // inside, every wish at factor times its
//                                // speed (in (0, 1], required); factors of
//                                // overlapping zones multiply
//   "stairs": [ {"rect": [x, y, w, h], "up": [dx, dy], "upSpeed": 0.61,
//                "downSpeed": 0.694} ],
//                                // a flight in plan: inside, a wish within
//                                // 90 degrees of "up" at most upSpeed, any
//                                // other at most downSpeed (units/s, > 0);
//                                // all required; "up" not [0, 0]. Both are
//                                // read by every model and by the fields'
//                                // cost (throng/fields.hpp)
// }
// PROPS (agents, generators, sources): "radius", "maxSpeed", "premovement",
// "maxAccel", "maxDecel", "group" (an int,
// or an array cycled through), "goal" [x, y], "goalOffset" [dx, dy] (goal =
// start + offset), "goalRegion" [x, y, w, h] (a hashed point in it), "route"
// (a route name, or an array of names: the one whose first gate is nearest).
// A routed agent without its own goal takes the route's goal.
// "maxAccel" and "maxDecel" (units/s², >= 0) are the group's own kinematic
// envelope, in place of the settings' for its walkers (0, the default:
// the settings'; throng/types.hpp's Agent::maxAccel).
// "maxSpeed" (units/s) and "premovement" (s a walker stands before it sets
// out, RiMEA 5's pre-movement time; 0 by default) are each a number or a
// distribution every walker draws from the seed:
//   {"distribution": "uniform", "min": 0, "max": 30}
//   {"distribution": "normal", "mean": 1.34, "sd": 0.26, "min": 0.5, "max": 2}
//   {"distribution": "lognormal", "mean": 20, "sd": 8, "max": 60}
//   {"distribution": "weidmann", "ages": "under 30"}
//                                // m/s, uniform over the age group's range in
//                                // RiMEA's table after Weidmann (1993): "under
//                                // 30" 0.58-1.61, "30 to 50" 1.41-1.54, "over
//                                // 50" 0.68-1.41, "impaired" 0.46-0.76
// min and max clip a normal or log-normal (a draw outside is drawn again;
// the clip must hold at least 1% of it); neither value goes below 0. A
// walker waiting out its pre-movement stands still (its top speed 0), so
// the others walk round it.
//
// The targets the fields are solved for (SceneSpec::terrain.targets) are the
// file's "targets" in order; then one per route with a "goalRegion" (named
// after the route, only for walkers on it); then the sinks': those without
// "groups" together as one target, "sinks", then one per distinct set of
// groups among the others ("sinks for groups 1, 2"), in file order.
//
// ## Numbers and knobs
// Every number may instead be a knob reference {"knob": "doorWidth"} or an
// expression string over knob names: "5 + doorWidth / 2". Expressions have
// + - * /, unary minus and parentheses, nothing else. Integer fields round an
// expression's value. A knob's min, max and default are plain numbers.
//
// ## Errors
// Every failure is one line: "FILE:LINE: /json/pointer: what was expected".
// The line is that of the offending key (or element); parse errors give the
// line and column from the parser.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/crowd.hpp"
#include "throng/fields.hpp"
#include "throng/settings.hpp"
#include "throng/vec2.hpp"
#include "throng/verify.hpp"

namespace throng {

/// A named scene parameter: a slider in the visualizer, --set on the CLI.
struct Knob {
  std::string name, help;
  double min = 0, max = 1;     ///< the range; set() refuses values outside it
  double defaultValue = 0;     ///< as in the file
  double value = 0;            ///< current
  bool integer = false;        ///< values are whole numbers
};

/// A number each walker draws from the seed (PROPS' "maxSpeed" and
/// "premovement"): a fixed value, or a distribution clipped to [min, max]
/// (a draw outside the clip is drawn again). Uniform takes min and max;
/// normal and log-normal take the mean and sd of the value itself.
struct SceneDraw {
  enum class Kind : std::uint8_t { Fixed, Uniform, Normal, LogNormal };
  Kind kind = Kind::Fixed;
  double value = 0;          ///< Fixed
  double mean = 0, sd = 0;   ///< Normal, LogNormal
  double min = 0, max = 1e300;  ///< Uniform's range; the others' clip
  /// The value for draw (what, which) of this seed: the same every time.
  double draw(std::uint64_t seed, std::uint64_t what, std::uint64_t which) const;
  /// The largest value a draw can take.
  double largest() const { return kind == Kind::Fixed ? value : max; }
};

/// One agent, concrete: where it starts and what it wants.
struct SceneAgent {
  Vec2 at;
  std::optional<Vec2> goal;
  float radius = 0.25f, maxSpeed = 1.3f;  ///< world units, units/s (maxSpeed as drawn)
  int group = 0;
  int route = -1;                         ///< index into SceneSpec::routes
  double premovement = 0;                 ///< s it stands before setting out (as drawn)
  float maxAccel = 0, maxDecel = 0;       ///< its own envelope, units/s² (Agent::maxAccel); 0: the settings'
};

struct SceneRoute {
  std::string name;
  std::vector<Waypoint> gates;
};

/// Emits `rate` agents per second into `region` from `start` until `stop`
/// (or until `max` were emitted), each at a hashed spot that overlaps nobody.
struct SceneSource {
  Rect region;
  double rate = 1, start = 0, stop = 1e300;
  std::int64_t max = -1;            ///< -1: no limit
  float radius = 0.25f, maxSpeed = 1.3f;  ///< maxSpeed: the largest speedDraw gives
  SceneDraw speedDraw, premovement;       ///< drawn by each walker it emits
  float maxAccel = 0, maxDecel = 0;       ///< each walker's own envelope (SceneAgent's)
  std::vector<int> groups{0};       ///< cycled through by emission count
  std::optional<Vec2> goal, goalOffset;
  std::optional<Rect> goalRegion;
  int route = -1;                   ///< its goal fills in when none is given
};

/// Removes every agent whose centre is inside `region` (of `groups`, or all).
struct SceneSink {
  Rect region;
  std::vector<int> groups;          ///< empty: every group
};

/// One polygon of a walkable area (the file's "geometry"): its outline and
/// its holes, each a ring without its closing point, as the file gives
/// them.
struct WalkableArea {
  std::vector<Vec2> outline;
  std::vector<std::vector<Vec2>> holes;
};

/// The most walkers a scene makes unless the caller lowers it: its agents
/// and generators together, and, in a run, everyone present at once (its
/// sources stop emitting there).
inline constexpr std::size_t kMaxSceneAgents = 10'000'000;
/// The fastest a source emits, walkers per second.
inline constexpr double kMaxSourceRate = 1e5;
/// The most nodes a height map (or a discomfort map) has along each side.
inline constexpr std::size_t kMaxHeightMapNodes = 4096;

/// One pass criterion of a verification scene: a figure of its run (a
/// summary field of `throng run --summary`, such as "allArrivedTime", or a
/// measurement's, "NAME.FIGURE": "end.lastTime", "door.meanFlow") within
/// [min, max] on every seed; with `ratioTo`, the mean of the figure over
/// the seeds divided by the same figure's mean for the scene named there
/// (a file beside this one, run with the same model and seeds); with
/// `over`, the figure divided by another figure of the same run, on every
/// seed ("foot.meanFlow" over "corridor.meanFlow"); with `percentile` P,
/// the P-th percentile of the figure over the seeds (nearest rank: the
/// smallest value at least P% of the seeds reach), as the IMO holds its 95th
/// over 50 runs.
struct VerifyCheck {
  std::string figure;
  double min = -1e300, max = 1e300;
  std::string ratioTo;  ///< empty: the figure itself
  std::string over;     ///< empty: the figure itself
  double percentile = 0;  ///< (0, 100]; 0: every seed within the bounds
};

/// The nearest-rank `p`-th percentile of `values` (p in (0, 100]; values
/// not empty): the ceil(p/100 n)-th smallest.
double nearestRankPercentile(std::vector<double> values, double p);

/// What makes a scene a test of `throng verify` (the file's "verify").
struct SceneVerify {
  std::string test;   ///< "RiMEA 1"
  std::string says;   ///< the criterion in words
  std::vector<VerifyCheck> checks;
  int seeds = 1;      ///< runs of the full form
  bool verdict = true;  ///< false: the outcome is shown, never judged (RiMEA 8, 14)
  /// Densities, per m², ascending in (0, 5.4): the test measures the ring
  /// corridor's fundamental diagram (throng/diagram.hpp) at each under the
  /// scene's settings, in place of running the scene. Its figures are
  /// "diagram.D" (the mean speed at D as written, m/s), "weidmann.D"
  /// (Weidmann's speed at the density placed) and "diagram.falling" (1 when
  /// the speed falls from each density to the next, else 0).
  std::vector<double> diagram;
};

/// The name a fundamental diagram's figure has for density `d`: "%g" ("0.5").
std::string diagramFigureName(double d);

/// A scene resolved with its current knobs: plain data, ready to build.
struct SceneSpec {
  std::string name, description, units = "m";
  Settings settings;                ///< settings.maxStep is the run's dt
  double duration = 30;             ///< s, the default length of a run
  std::vector<SceneAgent> agents;
  /// Walls: the walkable areas' outlines (closed: the first point again at
  /// the end), then the geometry's lines, then the file's "walls".
  /// Obstacles: the areas' holes, then the file's "obstacles".
  std::vector<std::vector<Vec2>> obstacles, walls;
  std::vector<WalkableArea> walkable;  ///< the file's "geometry" polygons; empty: none given
  std::vector<SceneRoute> routes;
  std::vector<std::pair<int, Vec2>> streams;  ///< group, constant velocity
  std::vector<SceneSource> sources;
  std::vector<SceneSink> sinks;
  std::vector<Measurement> measurements;  ///< lines and areas, in file order
  std::optional<SceneVerify> verify;      ///< a test of `throng verify`
  /// Targets (the file's, the routes', the sinks'), discomfort (regions
  /// and the painted map), hills and the height map; a target's route
  /// indexes `routes`.
  Terrain terrain;
  std::size_t maxAgents = kMaxSceneAgents;  ///< the cap it was resolved with (see kMaxSceneAgents)
};

/// The loosest kinematic envelope among a scene's walkers, units/s²: the
/// most any walker it places or emits may speed up and brake by, each
/// walker's own bounds else the settings' (braking: else its acceleration's),
/// as every model holds them; both 0 when some walker has none. What `throng
/// check --scene` judges a trajectory of the scene against.
struct EnvelopeBound {
  double accel = 0, decel = 0;
};
EnvelopeBound loosestEnvelope(const SceneSpec& spec);

/// A loaded scene file with its knob values. Cheap to copy (the parsed
/// document is shared and immutable).
class Scene {
 public:
  /// Reads and resolves a file; nullopt with *error set on any failure.
  /// `maxAgents` caps the walkers it may make (kMaxSceneAgents at most; a
  /// tool that must stay small, such as a fuzzer, passes less).
  static std::optional<Scene> load(const std::string& path, std::string* error,
                                   std::size_t maxAgents = kMaxSceneAgents);
  /// The same from text; `fileName` only labels messages.
  static std::optional<Scene> parse(std::string text, std::string fileName, std::string* error,
                                    std::size_t maxAgents = kMaxSceneAgents);

  const std::string& file() const { return file_; }
  const std::string& name() const { return spec_.name; }
  const std::vector<Knob>& knobs() const { return knobs_; }
  const SceneSpec& spec() const { return spec_; }

  /// Sets a knob, or a setting of settingsTable() by name (a number; see
  /// setSetting), and re-resolves the scene. On an unknown name, a value out
  /// of range, or a scene that no longer resolves (e.g. an agent now inside
  /// an obstacle), returns false with *error and changes nothing.
  bool set(std::string_view name, double value, std::string* error);
  /// "name=value", as given to --set: a knob takes a number, a setting its
  /// text form (setSettingText: seed exactly, model by name).
  bool assign(std::string_view assignment, std::string* error);
  /// Every knob back to its default, every setting back to the file's.
  void reset();

  struct Doc;  ///< the parsed file (scene.cpp)

 private:
  Scene() = default;
  bool resolve(std::string* error);
  // The public calls' bodies; the public calls make their message one
  // printable line.
  static std::optional<Scene> doLoad(const std::string& path, std::string* error, std::size_t maxAgents);
  static std::optional<Scene> doParse(std::string text, std::string fileName, std::string* error,
                                         std::size_t maxAgents);
  bool doSet(std::string_view name, double value, std::string* error);
  bool doAssign(std::string_view assignment, std::string* error);
  bool setKnob(std::string_view name, double value, std::string* error);
  /// Keeps `text` (checked already) as the setting's value over the file's.
  bool setOverride(std::string_view name, std::string_view text, std::string* error);

  std::string file_;
  std::shared_ptr<const Doc> doc_;
  std::vector<Knob> knobs_;
  std::map<std::string, std::string, std::less<>> settingOverrides_;  ///< setting -> text, as setSettingText reads it
  SceneSpec spec_;
};

/// Where shipped scenes are looked for, in order: each directory of the
/// THRONG_SCENES environment variable (colon-separated), `scenes/` next to
/// the executable, `../share/throng/scenes` from it, and the source tree's
/// assets/scenes compiled in. Only existing directories are listed.
std::vector<std::string> sceneDirectories();
/// A path to an existing file, or the name of a shipped scene ("door" or
/// "door.json"): the file to load, or nullopt with *error naming where it looked.
std::optional<std::string> findScene(std::string_view nameOrPath, std::string* error);
/// The shipped scenes: name -> path, from the first directory that has each.
std::map<std::string, std::string> listScenes();

/// The spec's walls and walkable area as one WKT GEOMETRYCOLLECTION that a
/// scene's "geometry" reads back to the same walls in the same order: the
/// walkable polygons, then every other wall as a LINESTRING. Coordinates in
/// the shortest form that reads back to the same float. nullopt with
/// *error when the spec has obstacles that are not holes of its walkable
/// area (WKT's polygons would read back as walkable area).
std::optional<std::string> sceneGeometryWkt(const SceneSpec& spec, std::string* error);
/// The walkable area as one WKT POLYGON (or MULTIPOLYGON when it is in
/// parts), as JuPedSim and PedPy take it. The file's "geometry" polygons
/// when it has them; otherwise the box around everything the scene holds,
/// 2 m wider on each side, less its obstacles and its walls (each 1 cm
/// thick), keeping the part with the most walkers at the start. *bounds
/// (when given) gets its bounding box.
std::string walkableAreaWkt(const SceneSpec& spec, Rect* bounds = nullptr);

/// A running scene: the Crowd plus its sources and sinks, advanced by a fixed
/// dt (the spec's settings.maxStep). One step is, in order:
///   0. walkers whose pre-movement time is over set out (their top speed
///      given back),
///   1. sources emit (rate x dt accumulated; spots hashed from the seed),
///   2. the crowd takes one step of dt,
///   3. the separation gate checks the step (when enabled),
///   4. arrivals are recorded (an agent standing on its goal),
///   5. sinks remove agents (they count as arrived).
/// Everything depends only on the spec, so a run replays exactly.
class SceneRun {
 public:
  struct Options {
    bool gate = false;  ///< run checkStep on every step (costs about a step)
  };
  explicit SceneRun(const Scene& scene, Options o) : SceneRun(scene.spec(), o) {}
  explicit SceneRun(const Scene& scene) : SceneRun(scene.spec(), Options{}) {}
  SceneRun(const SceneSpec& spec, Options o);

  Crowd& crowd() { return crowd_; }     ///< edit between steps as you like
  const Crowd& crowd() const { return crowd_; }
  const SceneSpec& spec() const { return spec_; }
  double dt() const { return dt_; }

  void step();
  std::uint64_t steps() const { return crowd_.stepCount(); }
  double time() const { return crowd_.time(); }

  std::size_t agentsEver() const { return arrivedById_.size(); }  ///< ids given out
  std::size_t arrived() const { return arrived_; }                ///< reached goal or a sink
  std::size_t removed() const { return removed_; }                ///< by sinks
  /// Removed by sinks, per group.
  const std::map<int, std::size_t>& removedByGroup() const { return removedByGroup_; }
  /// Every source is done (past its stop or max; never for open-ended ones).
  bool sourcesExhausted() const;
  /// Sim time at the end of the first step after which every agent ever
  /// present had arrived and the sources were done; nullopt until then.
  std::optional<double> allArrivedTime() const { return allArrivedTime_; }

  /// The gate over all steps so far (step = the worst unjammed pair's step).
  /// An empty report when the gate is off.
  const GateReport& gate() const { return gate_; }
  std::uint64_t jammedAgentSteps() const { return jammedAgentSteps_; }
  std::uint64_t infeasibleSteps() const { return infeasibleSteps_; }  ///< steps with any jam
  /// Wall-clock milliseconds of the last crowd step alone.
  double lastStepMs() const { return lastStepMs_; }
  /// The walkers that stood out a pre-movement time and have moved since
  /// (RiMEA 5's check): how many, and the least and the most lag from each
  /// one's time to the end of the step in which its position first changed,
  /// s. A walker that moves in the first step starting at or after its time
  /// lags by dt to 2 dt; one still held by a neighbour in its way lags more.
  struct SetOut {
    std::size_t walkers = 0;
    double minLag = 0, maxLag = 0;  ///< s; 0 while walkers is 0
  };
  const SetOut& setOut() const { return setOut_; }
  /// The crowd's profile (Crowd::profile) averaged over the steps so far,
  /// phase by phase, milliseconds; measured == false before the first.
  StepProfile meanProfile() const;

 private:
  void emit();
  bool place(const SceneSource& src, std::size_t sourceIndex, std::int64_t serial);
  /// Walker i's own envelope (SceneAgent::maxAccel, maxDecel), where it has one.
  void ownEnvelope(std::size_t i, float maxAccel, float maxDecel);
  void release();

  /// A walker standing out its pre-movement time, and the speed it sets out at.
  struct Waiting {
    std::uint64_t id;
    double release;  ///< s, the run's time it sets out at
    float maxSpeed;
  };
  std::vector<Waiting> waiting_;
  /// Released walkers that have not moved yet: id, their time, where they stood.
  struct Released {
    std::uint64_t id;
    double time;
    Vec2 at;
  };
  std::vector<Released> released_;
  SetOut setOut_;
  /// Records the released walkers that moved in the step just taken.
  void noteSetOut();

  SceneSpec spec_;
  Options options_;
  Crowd crowd_;
  double dt_ = 1.0 / 60;
  std::vector<double> sourceDebt_;
  std::vector<std::int64_t> sourceEmitted_, sourceAttempts_;
  std::vector<std::uint8_t> arrivedById_;
  std::size_t arrived_ = 0, removed_ = 0;
  std::map<int, std::size_t> removedByGroup_;
  std::optional<double> allArrivedTime_;
  GateReport gate_;
  std::uint64_t jammedAgentSteps_ = 0, infeasibleSteps_ = 0;
  double lastStepMs_ = 0;
  StepProfile profileSum_;  ///< every step's profile, added up
  std::uint64_t profiled_ = 0;
  std::vector<Vec2> from_, to_;
};

}  // namespace throng
