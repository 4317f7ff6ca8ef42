#pragma once
// Settings: the crowd's tunable parameters, default-initialised as in the
// seed, and the table that describes each of them once (settingsTable()):
// name, unit, kind, limits, help, the models that read it, and the range a
// slider shows. The default is the field's initialiser below, read through
// the table's member pointer, so it too is written once.
//
// Everything that names a setting takes it from the table: sanitized(), the
// scene loader, --set, `throng scenes`, the visualizer's panel and the user
// guide's Settings table (docs/guide.md: settingsMarkdown(), checked by a
// test). A value outside the limits is refused with a message by
// setSetting() (and so by scene files and --set), and clamped by sanitized()
// at the next step, so a slider or a stray assignment can never break a run.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace throng {

/// The most neighbours and obstacle edges one walker's linear program holds.
/// Fixed so the per-agent solve needs no allocation (and fits a GPU thread).
inline constexpr int kMaxNeighbors = 32;
inline constexpr int kMaxObstacleLines = 32;

/// Limits below are those of settingsTable(); "[a, b]" is closed, "(a, b]"
/// excludes a.
struct Settings {
  /// How far ahead a walker looks at other walkers, s. [Limit: [0.001, 1e6]]
  float timeHorizon = 1;
  /// The same for obstacles and walls, s. [Limit: [0.001, 1e6]]
  float obstacleTimeHorizon = 0.5f;
  /// How far away another walker is still considered, world units. [Limit: [0, 1e30]]
  float perceptionRadius = 100;
  /// The most neighbours each walker considers, nearest first. [Limit: [0, 32], 32 = kMaxNeighbors]
  int maxNeighbors = 10;
  /// BioCrowds' perception radius R: a walker owns the markers within it,
  /// world units. [Limit: (0, 1e30]]
  float personalSpace = 1;
  /// BioCrowds' markers per square world unit (at most 64 across R: a
  /// denser field is thinned). [Limit: (0, 1e6]]
  float markerDensity = 16;
  /// BioCrowds' gain over its markers' reach: a walker walks at
  /// min(gain |g| |M| / |M0(R)|, |g|, maxSpeed). 1 is the paper's (a lone
  /// walker, whose |M| varies with the markers it passes, then walks a
  /// little below its wish); a little more keeps it at its wish.
  /// [Limit: (0, 10]]
  float markerGain = 1;
  /// Distance from the goal at which a walker starts to slow, world units;
  /// 0 walks at full speed onto the goal. [Limit: [0, 1e30]]
  float slowingRadius = 0;
  // The kinematic envelope (every model: ORCA's models/orca/envelope.hpp,
  // the others' core/envelope.hpp). maxAccel 0: none, as in the seed. A
  // walker's own bounds (Agent::maxAccel, maxDecel) take their place.
  /// The largest acceleration speeding up or turning, |v - v_prev| / dt
  /// off the braking direction, world units/s²; 0: no limit. [Limit: [0, 1e30]]
  float maxAccel = 0;
  /// The largest deceleration braking, against the previous velocity,
  /// world units/s²; 0 takes maxAccel's; read only when maxAccel > 0.
  /// [Limit: [0, 1e30]]
  float maxDecel = 0;
  /// ORCA's right of way: of a pair in which one walks behind the other,
  /// the share of the avoidance moved from the one ahead to the one behind
  /// (models/orca/solve.hpp, wayShare); 0: RVO2's halves, as in the seed;
  /// 1: the one behind takes it all. [Limit: [0, 1]]
  float rightOfWay = 0;
  // The empirical pace (core/pace.hpp): a walker wishes no faster than
  // (s - a) / T, s the headway to the nearest walker in its path.
  /// a, the spacing at which a walker stops behind another, centre to
  /// centre, world units. [Limit: [0, 1e30]]
  float paceLength = 0;
  /// T, the time gap kept to the walker ahead, s; 0: no pace, as in the
  /// seed. BioCrowds leaves it: its markers slow a packing crowd already.
  /// [Limit: [0, 1000]]
  float paceTimeGap = 0;
  /// Shake of each moving walker's wish per step, as a fraction of its top
  /// speed; 0 gives a run with no randomness. [Limit: [0, 1]]
  float jitter = 0.05f;
  /// The longest single step advance(by) takes, s; a scene run's fixed step.
  /// [Limit: (1e-6, 10]]
  double maxStep = 1.0 / 60;
  /// Picks the jitter: the same seed replays the same run. [Limit: [0, 18446744073709551615]]
  std::uint64_t seed = 0;
  /// Worker threads for the per-agent phases; 0 uses every core. Results do
  /// not depend on it. [Limit: [0, 1024]]
  int threads = 0;
  /// The model the crowd steps with, one of modelNames(); it may change
  /// between steps. Short names stay within std::string's in-place buffer,
  /// so copying Settings at a step allocates nothing. [Limit: one of modelNames()]
  std::string model = "orca";
  /// How walkers with a target (throng/fields.hpp) find their way: "goals"
  /// (straight for the goal, through the route's gates) or "field" (down
  /// the target's potential, round walls and crowds). The continuum model
  /// always takes the field. [Limit: one of routingNames()]
  std::string routing = "goals";

  // The fields (Continuum Crowds, and routing = field; throng/fields.hpp).
  /// Side of a field cell, world units; 0 takes four times the largest
  /// walker radius (1 m for 0.25 m walkers). [Limit: [0, 1e30]]
  float fieldCell = 0;
  /// Steps between field refreshes (density, speed, cost, potentials).
  /// [Limit: [1, 3600]]
  int fieldInterval = 4;
  /// α, the cost per unit of path length in C = (α f + β + γ g) / f
  /// (α + β = 0 is taken as β = 0.001). [Limit: [0, 1e6]]
  float costDistance = 1;
  /// β, the cost per second of walking. [Limit: [0, 1e6]]
  float costTime = 1;
  /// γ, the cost per unit of painted discomfort. [Limit: [0, 1e6]]
  float costDiscomfort = 1;
  /// λ: how sharply a walker's density falls off to the cells around it
  /// (taken to 1/256). [Limit: [0, 16]]
  float densityExponent = 1.5f;
  /// ρ_min, walkers per cell: below it the ground alone sets the speed.
  /// [Limit: [0, 1e6]]
  float densityMin = 1.0f;
  /// ρ_max, walkers per cell: above it the crowd's flow alone sets the
  /// speed (below ρ_min it is taken as ρ_min). [Limit: [0, 1e6]]
  float densityMax = 3.0f;
  /// The slope (rise over run) up to which a walker keeps its top speed.
  /// [Limit: [0, 1e6]]
  float slopeMin = 0.05f;
  /// The slope from which a walker walks at slopeSpeed. [Limit: [0, 1e6]]
  float slopeMax = 0.5f;
  /// A walker's speed on a slope of slopeMax and steeper, as a fraction of
  /// its top speed. [Limit: (0, 1]]
  float slopeSpeed = 0.2f;

  /// A metric crowd that walks like people (world units are metres; give
  /// walkers a radius near 0.2 m and a speed near 1.34 m/s): the empirical
  /// pace and the kinematic envelope on, ORCA's horizons and range for
  /// people, a 0.05 s step. The figures and their sources are in the
  /// README ("Walking like people"). Settings{} stays the seed's crowd.
  static Settings pedestrian();
};

/// The names routing takes: "goals", "field".
std::vector<std::string> routingNames();

/// The names of the models a crowd can step with, in the order a picker
/// lists them.
std::vector<std::string> modelNames();

/// The spacing of BioCrowds' marker lattice for these settings, world
/// units: 1/sqrt(markerDensity), or R/64 when that puts more than 64 strata
/// across the personal space R (the field is thinned to that). 0 when
/// either setting is not positive.
float markerSpacing(float personalSpace, float markerDensity);

enum class SettingKind : std::uint8_t {
  Real,     ///< a finite number in the limits (a float or double field)
  Integer,  ///< a whole number in the limits (an int field)
  Seed,     ///< any 64-bit unsigned integer, kept exactly (text: decimal digits)
  Choice,   ///< one of the names choices() returns (text only)
};

/// A range whose ends may be closed ([a, b]) or open ((a, b)).
struct SettingLimits {
  double min = 0, max = 0;
  bool minOpen = false, maxOpen = false;
  bool contains(double v) const {
    return (minOpen ? v > min : v >= min) && (maxOpen ? v < max : v <= max);
  }
};

/// The range a slider shows when the limits are too wide to drag through
/// usefully. It lies inside the limits; a value typed into the slider may
/// still go anywhere within them.
struct SettingUiRange {
  double min = 0, max = 0;  ///< both 0: the slider spans the limits
  /// min and max are multiples of the largest walker radius (for lengths in
  /// world units, whose scale depends on the scene).
  bool perRadius = false;
  bool given() const { return min != 0 || max != 0; }
};

/// The field a setting lives in.
using SettingField = std::variant<float Settings::*, double Settings::*, int Settings::*, std::uint64_t Settings::*,
                                  std::string Settings::*>;

/// One setting, described once.
struct SettingInfo {
  std::string_view name;  ///< the field's name, as scene files and --set spell it
  std::string_view unit;  ///< "s", "world units", ...; empty for a count or a name
  SettingKind kind = SettingKind::Real;
  SettingLimits limits;   ///< Real and Integer; Seed: [0, 2^64 - 1]; Choice: unused
  std::string_view help;  ///< one line for people
  /// The models that read it; empty: every model.
  std::span<const std::string_view> models;
  SettingUiRange ui;      ///< Real and Integer: the slider's range
  SettingField field;
  std::vector<std::string> (*choices)() = nullptr;  ///< Choice: the names it takes
};

/// Every setting, in the order they are listed (the user guide's order).
std::span<const SettingInfo> settingsTable();
/// The setting of that name, or nullptr.
const SettingInfo* findSetting(std::string_view name);

/// Sets the setting `name` to `value` when it is a known Real, Integer or
/// Seed setting and `value` is within its limits (whole for Integer and
/// Seed; a Seed must be below 2^64). A float field keeps the nearest float
/// inside the limits. Otherwise returns false with *why (one line, naming
/// the setting and its limits) and leaves `s` unchanged.
bool setSetting(Settings& s, std::string_view name, double value, std::string* why = nullptr);
/// The same from text, as "--set name=text" and scene files give it: a
/// number for Real and Integer (decimal, all of the text), decimal digits
/// for a Seed (read exactly, up to 18446744073709551615), a name for a
/// Choice.
bool setSettingText(Settings& s, std::string_view name, std::string_view text, std::string* why = nullptr);
/// The value as a double (a Seed above 2^53 rounds); NaN for a Choice or an
/// unknown name.
double getSetting(const Settings& s, std::string_view name);
/// The value as text that setSettingText() reads back to the same value;
/// empty for an unknown name.
std::string getSettingText(const Settings& s, std::string_view name);

/// The limits for messages and tables: "[0.001, 1e6]", "(1e-6, 10]", "[0, 32]",
/// "{orca}" (a Choice's names).
std::string formatLimits(const SettingInfo& info);
/// A number for messages and tables: the shortest text that reads back to
/// the same double, exponents without padding ("1e6", "1e-6").
std::string formatSettingNumber(double v);
/// The default, short, for tables: "0.0166667" (6 significant digits), "orca".
std::string formatDefault(const SettingInfo& info);
/// The user guide's Settings table (docs/guide.md; a markdown table, one row
/// per setting, with a trailing newline).
std::string settingsMarkdown();

/// The settings with every field inside its limits: a value outside goes to
/// the nearest value of the field's type inside them, NaN to the default.
/// `model` is left as it is: a name is not a number to clamp, and an unknown
/// one is for the step to report rather than to replace silently.
Settings sanitized(const Settings& s);

}  // namespace throng
