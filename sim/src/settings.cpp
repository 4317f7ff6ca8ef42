// The settings table and everything that reads a setting by name.
//
// Checks are made on the value as given, in double; a float field then
// keeps the nearest float inside the limits (1e30 as a float is above 1e30,
// so perceptionRadius = 1e30 keeps the float just below). sanitized() puts
// a field's value through the same step, so a value setSetting() accepted
// is never changed by it.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "throng/settings.hpp"

namespace throng {

namespace {

constexpr std::string_view kOrcaOnly[] = {"orca"};
constexpr std::string_view kBioCrowdsOnly[] = {"biocrowds"};
// The fields are read by the continuum model and by any model under routing = field.
constexpr std::string_view kFields[] = {"continuum", "routing = field"};
constexpr double kHuge = 1e30;    // world units: "no limit" for a length, still finite in a float
constexpr double kTwo64 = 0x1p64;  // 2^64: a Seed is below it

constexpr SettingInfo kTable[] = {
    {.name = "model",
     .unit = "",
     .kind = SettingKind::Choice,
     .limits = {},
     .help = "the crowd model that steps the walkers; it may change between steps",
     .models = {},
     .ui = {},
     .field = &Settings::model,
     .choices = &modelNames},
    {.name = "timeHorizon",
     .unit = "s",
     .kind = SettingKind::Real,
     .limits = {0.001, 1e6},
     .help = "how far ahead walkers look at each other",
     .models = kOrcaOnly,
     .ui = {0.05, 10},
     .field = &Settings::timeHorizon,
     .choices = nullptr},
    {.name = "obstacleTimeHorizon",
     .unit = "s",
     .kind = SettingKind::Real,
     .limits = {0.001, 1e6},
     .help = "the same for obstacles and walls",
     .models = kOrcaOnly,
     .ui = {0.05, 10},
     .field = &Settings::obstacleTimeHorizon,
     .choices = nullptr},
    {.name = "perceptionRadius",
     .unit = "world units",
     .kind = SettingKind::Real,
     .limits = {0, kHuge},
     .help = "how far another walker is still considered",
     .models = kOrcaOnly,
     .ui = {0, 40, true},
     .field = &Settings::perceptionRadius,
     .choices = nullptr},
    {.name = "maxNeighbors",
     .unit = "",
     .kind = SettingKind::Integer,
     .limits = {0, kMaxNeighbors},
     .help = "nearest neighbours considered",
     .models = kOrcaOnly,
     .ui = {},
     .field = &Settings::maxNeighbors,
     .choices = nullptr},
    {.name = "personalSpace",
     .unit = "world units",
     .kind = SettingKind::Real,
     .limits = {0, kHuge, true},
     .help = "perception radius R: a walker owns markers within it (the authors use 1 m)",
     .models = kBioCrowdsOnly,
     .ui = {1, 16, true},
     .field = &Settings::personalSpace,
     .choices = nullptr},
    {.name = "markerDensity",
     .unit = "per square unit",
     .kind = SettingKind::Real,
     .limits = {0, 1e6, true},
     .help = "markers on the ground (11-64 per m² recommended); at most 64 across R, denser is thinned",
     .models = kBioCrowdsOnly,
     .ui = {1, 64},
     .field = &Settings::markerDensity,
     .choices = nullptr},
    {.name = "markerGain",
     .unit = "",
     .kind = SettingKind::Real,
     .limits = {0, 10, true},
     .help = "speed over the markers' reach: 1 = the paper's (a lone walker a little below its wish)",
     .models = kBioCrowdsOnly,
     .ui = {0.5, 2},
     .field = &Settings::markerGain,
     .choices = nullptr},
    {.name = "routing",
     .unit = "",
     .kind = SettingKind::Choice,
     .limits = {},
     .help = "how walkers with a target find it: goals (straight, through route gates) or field (down its potential)",
     .models = {},
     .ui = {},
     .field = &Settings::routing,
     .choices = &routingNames},
    {.name = "fieldCell",
     .unit = "world units",
     .kind = SettingKind::Real,
     .limits = {0, kHuge},
     .help = "side of a field cell; 0 = four times the largest walker radius",
     .models = kFields,
     .ui = {0, 16, true},
     .field = &Settings::fieldCell,
     .choices = nullptr},
    {.name = "fieldInterval",
     .unit = "steps",
     .kind = SettingKind::Integer,
     .limits = {1, 3600},
     .help = "steps between refreshes of the density, speed, cost and potential fields",
     .models = kFields,
     .ui = {1, 60},
     .field = &Settings::fieldInterval,
     .choices = nullptr},
    {.name = "costDistance",
     .unit = "",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "α: cost per unit of path length",
     .models = kFields,
     .ui = {0, 4},
     .field = &Settings::costDistance,
     .choices = nullptr},
    {.name = "costTime",
     .unit = "",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "β: cost per second of walking (slow ground and crowds cost more)",
     .models = kFields,
     .ui = {0, 4},
     .field = &Settings::costTime,
     .choices = nullptr},
    {.name = "costDiscomfort",
     .unit = "",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "γ: cost per unit of painted discomfort",
     .models = kFields,
     .ui = {0, 4},
     .field = &Settings::costDiscomfort,
     .choices = nullptr},
    {.name = "densityExponent",
     .unit = "",
     .kind = SettingKind::Real,
     .limits = {0, 16},
     .help = "λ: how sharply a walker's density falls off to the cells around it (to 1/256)",
     .models = kFields,
     .ui = {0, 4},
     .field = &Settings::densityExponent,
     .choices = nullptr},
    {.name = "densityMin",
     .unit = "walkers per cell",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "ρ_min: below it the ground alone sets the speed",
     .models = kFields,
     .ui = {0, 4},
     .field = &Settings::densityMin,
     .choices = nullptr},
    {.name = "densityMax",
     .unit = "walkers per cell",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "ρ_max: above it the crowd's flow alone sets the speed",
     .models = kFields,
     .ui = {0, 4},
     .field = &Settings::densityMax,
     .choices = nullptr},
    {.name = "slopeMin",
     .unit = "rise / run",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "slopes up to this are walked at full speed",
     .models = kFields,
     .ui = {0, 1},
     .field = &Settings::slopeMin,
     .choices = nullptr},
    {.name = "slopeMax",
     .unit = "rise / run",
     .kind = SettingKind::Real,
     .limits = {0, 1e6},
     .help = "slopes from this up are walked at slopeSpeed",
     .models = kFields,
     .ui = {0, 2},
     .field = &Settings::slopeMax,
     .choices = nullptr},
    {.name = "slopeSpeed",
     .unit = "× maxSpeed",
     .kind = SettingKind::Real,
     .limits = {0, 1, true},
     .help = "speed on the steepest slopes, as a fraction of the top speed",
     .models = kFields,
     .ui = {0.01, 1},
     .field = &Settings::slopeSpeed,
     .choices = nullptr},
    {.name = "slowingRadius",
     .unit = "world units",
     .kind = SettingKind::Real,
     .limits = {0, kHuge},
     .help = "distance from the goal at which a walker eases down; 0 walks at full speed onto it",
     .models = {},
     .ui = {0, 40, true},
     .field = &Settings::slowingRadius,
     .choices = nullptr},
    {.name = "maxAccel",
     .unit = "world units/s²",
     .kind = SettingKind::Real,
     .limits = {0, kHuge},
     .help = "the largest acceleration speeding up or turning (the kinematic envelope); 0 = no limit",
     .models = {},
     .ui = {0, 40, true},
     .field = &Settings::maxAccel,
     .choices = nullptr},
    {.name = "maxDecel",
     .unit = "world units/s²",
     .kind = SettingKind::Real,
     .limits = {0, kHuge},
     .help = "the largest deceleration braking; 0 = maxAccel's; read only when maxAccel is above 0",
     .models = {},
     .ui = {0, 80, true},
     .field = &Settings::maxDecel,
     .choices = nullptr},
    {.name = "rightOfWay",
     .unit = "",
     .kind = SettingKind::Real,
     .limits = {0, 1},
     .help = "the share of a pair's avoidance the walker behind takes off the one ahead; 0 = even halves",
     .models = kOrcaOnly,
     .ui = {0, 1},
     .field = &Settings::rightOfWay,
     .choices = nullptr},
    {.name = "paceLength",
     .unit = "world units",
     .kind = SettingKind::Real,
     .limits = {0, kHuge},
     .help = "a: the spacing, centre to centre, at which a walker stops behind another (pace: v = (s - a) / T)",
     .models = {},
     .ui = {0, 5, true},
     .field = &Settings::paceLength,
     .choices = nullptr},
    {.name = "paceTimeGap",
     .unit = "s",
     .kind = SettingKind::Real,
     .limits = {0, 1e3},
     .help = "T: the time gap a walker keeps to the one ahead in its path; 0 = no pace (BioCrowds keeps its own)",
     .models = {},
     .ui = {0, 3},
     .field = &Settings::paceTimeGap,
     .choices = nullptr},
    {.name = "jitter",
     .unit = "× maxSpeed",
     .kind = SettingKind::Real,
     .limits = {0, 1},
     .help = "per-step shake of a moving walker's wish; 0 = no randomness",
     .models = {},
     .ui = {},
     .field = &Settings::jitter,
     .choices = nullptr},
    {.name = "maxStep",
     .unit = "s",
     .kind = SettingKind::Real,
     .limits = {1e-6, 10, true},
     .help = "the fixed step of a scene run; the longest single step `advance(by)` takes",
     .models = {},
     .ui = {0.002, 0.1},
     .field = &Settings::maxStep,
     .choices = nullptr},
    {.name = "seed",
     .unit = "",
     .kind = SettingKind::Seed,
     .limits = {0, kTwo64, false, true},
     .help = "picks the jitter, a scene's generated layout and the markers; the same seed replays the same run",
     .models = {},
     .ui = {},
     .field = &Settings::seed,
     .choices = nullptr},
    {.name = "threads",
     .unit = "",
     .kind = SettingKind::Integer,
     .limits = {0, 1024},
     .help = "worker threads (0 = every core); results never depend on it",
     .models = {},
     .ui = {},
     .field = &Settings::threads,
     .choices = nullptr},
};

/// The value of a float or double field moved to the nearest value of its
/// type inside the limits; NaN to `fallback`.
template <class T>
T intoLimits(const SettingLimits& l, T v, T fallback) {
  if (std::isnan(v)) return fallback;
  if (l.contains(static_cast<double>(v))) return v;
  const bool low = !(static_cast<double>(v) > l.min);  // below min, or at an open min
  const T toward = low ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  T t = static_cast<T>(low ? l.min : l.max);
  while (!l.contains(static_cast<double>(t))) t = std::nextafter(t, toward);
  return t;
}

int intoLimits(const SettingLimits& l, int v) {
  const int lo = static_cast<int>(l.minOpen ? std::floor(l.min) + 1 : std::ceil(l.min));
  const int hi = static_cast<int>(l.maxOpen ? std::ceil(l.max) - 1 : std::floor(l.max));
  return std::clamp(v, lo, hi);
}

/// The pieces joined. (GCC 12 warns wrongly, -Wrestrict, on some chains of
/// + that start with a literal.)
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += cat({out.empty() ? "" : ", ", n});
  return out;
}

bool refuse(std::string* why, std::string message) {
  if (why) *why = std::move(message);
  return false;
}

std::string unknown(std::string_view name) {
  std::string list;
  for (const SettingInfo& i : kTable) list += cat({list.empty() ? "" : ", ", i.name});
  return cat({"unknown setting \"", name, "\" (settings: ", list, ")"});
}

/// "expected a number in [0.001, 1e6] s" and the like.
std::string expected(const SettingInfo& info) {
  switch (info.kind) {
    case SettingKind::Real:
      return cat({"expected a number in ", formatLimits(info), info.unit.empty() ? "" : " ", info.unit});
    case SettingKind::Integer:
    case SettingKind::Seed: return cat({"expected a whole number in ", formatLimits(info)});
    case SettingKind::Choice: return cat({"expected one of: ", joined(info.choices())});
  }
  return {};
}

std::string outOfRange(const SettingInfo& info, double v) {
  return cat({info.name, " = ", formatSettingNumber(v), " is out of range (", expected(info), ")"});
}

/// A float's shortest text when reading it as a double and narrowing gives
/// the float back; else the double's (always exact).
std::string floatText(float f) {
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, f);
  double back = 0;
  std::from_chars(b, r.ptr, back);
  if (static_cast<float>(back) == f) return std::string(b, r.ptr);
  return formatSettingNumber(static_cast<double>(f));
}

}  // namespace

Settings Settings::pedestrian() {
  Settings s;
  s.timeHorizon = 1;
  s.obstacleTimeHorizon = 0.5f;
  s.perceptionRadius = 3;
  s.maxNeighbors = 10;
  s.maxStep = 0.05;
  // The envelope: 1.34 m/s from a standstill in 0.67 s; braking twice as hard.
  s.maxAccel = 2;
  s.maxDecel = 4;
  // The pace: Seyfried et al.'s a = 0.36 m (2005); T = 1.2 s, calibrated
  // on Weidmann's fundamental diagram (core/pace.hpp).
  s.paceLength = 0.36f;
  s.paceTimeGap = 1.2f;
  // BioCrowds' own fundamental diagram (it leaves the pace): R = 0.8 m, 24
  // markers per m² and a gain that keeps a lone walker at its wish,
  // calibrated on Weidmann's in the ring corridor (docs/walking.md).
  s.personalSpace = 0.8f;
  s.markerDensity = 24;
  s.markerGain = 1.1f;
  return s;
}

std::span<const SettingInfo> settingsTable() { return kTable; }

const SettingInfo* findSetting(std::string_view name) {
  for (const SettingInfo& i : kTable)
    if (i.name == name) return &i;
  return nullptr;
}

bool setSetting(Settings& s, std::string_view name, double v, std::string* why) {
  const SettingInfo* info = findSetting(name);
  if (!info) return refuse(why, unknown(name));
  if (info->kind == SettingKind::Choice)
    return refuse(why, cat({name, " takes a name, not a number (", expected(*info), ")"}));
  if (!std::isfinite(v) || !info->limits.contains(v) || (info->kind != SettingKind::Real && v != std::floor(v)))
    return refuse(why, outOfRange(*info, v));
  std::visit(
      [&](auto member) {
        using T = std::remove_reference_t<decltype(s.*member)>;
        if constexpr (std::is_floating_point_v<T>) {
          s.*member = intoLimits(info->limits, static_cast<T>(v), s.*member);
        } else if constexpr (std::is_integral_v<T>) {
          s.*member = static_cast<T>(v);
        }
      },
      info->field);
  return true;
}

bool setSettingText(Settings& s, std::string_view name, std::string_view text, std::string* why) {
  const SettingInfo* info = findSetting(name);
  if (!info) return refuse(why, unknown(name));
  const char* end = text.data() + text.size();
  const std::string quoted = cat({"\"", text.substr(0, 40), text.size() > 40 ? "...\"" : "\""});
  switch (info->kind) {
    case SettingKind::Choice: {
      const std::vector<std::string> names = info->choices();
      if (std::find(names.begin(), names.end(), text) == names.end())
        return refuse(why, cat({"unknown ", name, " ", quoted, " (", expected(*info), ")"}));
      s.*std::get<std::string Settings::*>(info->field) = std::string(text);
      return true;
    }
    case SettingKind::Seed: {
      std::uint64_t seed = 0;
      const auto r = std::from_chars(text.data(), end, seed);
      if (text.empty() || r.ec != std::errc() || r.ptr != end)
        return refuse(why, cat({name, " expects a whole number in ", formatLimits(*info), ", got ", quoted}));
      s.*std::get<std::uint64_t Settings::*>(info->field) = seed;
      return true;
    }
    case SettingKind::Real:
    case SettingKind::Integer: {
      double v = 0;
      const auto r = std::from_chars(text.data(), end, v);
      if (text.empty() || r.ec != std::errc() || r.ptr != end)
        return refuse(why, cat({name, " expects a number, got ", quoted, " (", expected(*info), ")"}));
      return setSetting(s, name, v, why);
    }
  }
  return false;
}

double getSetting(const Settings& s, std::string_view name) {
  const SettingInfo* info = findSetting(name);
  if (!info) return std::numeric_limits<double>::quiet_NaN();
  return std::visit(
      [&](auto member) -> double {
        using T = std::remove_cvref_t<decltype(s.*member)>;
        if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(s.*member);
        else return std::numeric_limits<double>::quiet_NaN();
      },
      info->field);
}

std::string getSettingText(const Settings& s, std::string_view name) {
  const SettingInfo* info = findSetting(name);
  if (!info) return {};
  return std::visit(
      [&](auto member) -> std::string {
        using T = std::remove_cvref_t<decltype(s.*member)>;
        const T& v = s.*member;
        if constexpr (std::is_same_v<T, float>) return floatText(v);
        else if constexpr (std::is_same_v<T, double>) return formatSettingNumber(v);
        else if constexpr (std::is_integral_v<T>) return std::to_string(v);
        else return v;
      },
      info->field);
}

std::string formatSettingNumber(double v) {
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, v);
  std::string s(b, r.ptr);
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exp = s.substr(e + 1);  // "+06", "-06", "+30"
  const bool negative = exp[0] == '-';
  exp.erase(0, exp.find_first_not_of("+-0"));
  return cat({std::string_view(s).substr(0, e), "e", negative ? "-" : "", exp.empty() ? "0" : exp});
}

std::string formatLimits(const SettingInfo& info) {
  switch (info.kind) {
    case SettingKind::Choice: return cat({"{", joined(info.choices()), "}"});
    case SettingKind::Seed: return "[0, " + std::to_string(std::numeric_limits<std::uint64_t>::max()) + "]";
    case SettingKind::Real:
    case SettingKind::Integer: break;
  }
  const SettingLimits& l = info.limits;
  return cat({l.minOpen ? "(" : "[", formatSettingNumber(l.min), ", ", formatSettingNumber(l.max), l.maxOpen ? ")" : "]"});
}

std::string formatDefault(const SettingInfo& info) {
  const Settings d;
  if (info.kind != SettingKind::Real) return getSettingText(d, info.name);
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", getSetting(d, info.name));
  return b;
}

std::string settingsMarkdown() {
  std::string out = "| field | default | unit | limits | models | meaning |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const SettingInfo& i : kTable) {
    std::string models;
    for (std::string_view m : i.models) models += cat({models.empty() ? "" : ", ", m});
    const std::string name = cat({"`", i.name, "`"}), def = formatDefault(i), limits = formatLimits(i);
    for (std::string_view cell : {std::string_view(name), std::string_view(def), i.unit, std::string_view(limits),
                                  models.empty() ? std::string_view("all") : std::string_view(models), i.help})
      out += cat({"|", cell.empty() ? "" : " ", cell, " "});
    out += "|\n";
  }
  return out;
}

std::vector<std::string> routingNames() { return {"goals", "field"}; }

Settings sanitized(const Settings& in) {
  const Settings d;
  Settings s = in;
  for (const SettingInfo& info : kTable) {
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(s.*member)>;
          if constexpr (std::is_floating_point_v<T>) s.*member = intoLimits(info.limits, s.*member, d.*member);
          else if constexpr (std::is_same_v<T, int>) s.*member = intoLimits(info.limits, s.*member);
          // A seed has no value outside its limits; a model name is left as it is (see the header).
        },
        info.field);
  }
  return s;
}

}  // namespace throng
