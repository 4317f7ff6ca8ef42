// The scene resolver (resolve.hpp): a parsed scene file and its knob values
// into a SceneSpec. It walks the document with a Path (the JSON pointer of
// the value at hand) and throws a ResolveFailure at the first problem.
//
// Every random choice (fill jitter, goal points in regions) is a hash of
// (seed, what, which), so a scene resolves identically every time.
#include "scene/resolve.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "models/orca/orca.hpp"
#include "scene/expression.hpp"
#include "scene/plan_text.hpp"
#include "scene/pointer.hpp"
#include "scene/scene_internal.hpp"
#include "scene/schema.hpp"

namespace throng::detail {

namespace {

using Json = SceneJson;

struct Path {
  std::vector<std::string> tokens;
  Path operator/(std::string_view key) const {
    Path p = *this;
    p.tokens.emplace_back(key);
    return p;
  }
  Path operator/(std::size_t index) const { return *this / std::string_view(std::to_string(index)); }
  std::string str() const {
    if (tokens.empty()) return "/";
    std::string out;
    for (const std::string& t : tokens) {
      out += '/';
      out += detail::escapeToken(t);
    }
    return out;
  }
};


[[noreturn]] void fail(const Path& p, std::string message) { throw ResolveFailure{p.tokens, std::move(message)}; }

/// A value's type and its start, for messages: one level deep (dump()
/// recurses, and a value nested a hundred thousand deep overflowed the
/// stack), at most 40 characters.
std::string describe(const Json& j) {
  std::string s;
  if (!j.is_structured()) {
    s = j.dump();
  } else {
    s = j.is_array() ? "[" : "{";
    for (auto it = j.begin(); it != j.end() && s.size() < 40; ++it) {
      if (it != j.begin()) s += ", ";
      if (j.is_object()) s += "\"" + it.key() + "\": ";
      s += it->is_array() ? "[...]" : it->is_object() ? "{...}" : it->dump();
    }
    s += j.is_array() ? "]" : "}";
  }
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return std::string(j.type_name()) + " " + s;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

using detail::pointIn;
using detail::unit01;

// ---- the resolver -------------------------------------------------------------

struct Props {
  float radius = 0.25f;
  SceneDraw maxSpeed{SceneDraw::Kind::Fixed, 1.3}, premovement;
  float maxAccel = 0, maxDecel = 0;  // the group's own envelope; 0: the settings'
  std::vector<int> groups{0};
  std::optional<Vec2> goal, goalOffset;
  std::optional<Rect> goalRegion;
  std::vector<int> routes;  // one: that route; several: the nearest first gate
};

struct RouteGoal {
  std::optional<Vec2> goal;
  std::optional<Rect> goalRegion;
};

class Resolver {
 public:
  Resolver(const Json& root, std::vector<Knob>& knobs, const std::map<std::string, std::string, std::less<>>& overrides,
           std::size_t maxAgents, const SceneFiles& files)
      : root_(root), knobs_(knobs), overrides_(overrides), files_(files) {
    spec_.maxAgents = maxAgents;
  }

  SceneSpec run();

 private:
  // values
  /// A number within +-1e12 (a coordinate, a count, a size).
  double number(const Json& j, const Path& p) const;
  /// Any finite number (a setting, which the settings table limits).
  double anyNumber(const Json& j, const Path& p) const;
  /// Positive, and still positive as a float (the walkers' floats).
  double positive(const Json& j, const Path& p) const {
    const double v = number(j, p);
    if (!(v > 0)) fail(p, "expected a positive number, got " + fmt(v));
    if (!(static_cast<float>(v) > 0)) fail(p, "expected a positive number of at least 1e-38, got " + fmt(v));
    return v;
  }
  double nonNegative(const Json& j, const Path& p) const {
    const double v = number(j, p);
    if (!(v >= 0)) fail(p, "expected a number >= 0, got " + fmt(v));
    return v;
  }
  /// A walker's own maxAccel or maxDecel, world units/s²: within the
  /// settings' limits (settingsTable()), 0 taking the settings'.
  float envelopeBound(const Json& j, const Path& p) const {
    const double v = nonNegative(j, p);
    if (!(v <= 1e30)) fail(p, "expected at most 1e30 world units/s², got " + fmt(v));
    return static_cast<float>(v);
  }
  std::int64_t integer(const Json& j, const Path& p) const {
    if (j.is_number() && !j.is_number_integer()) {
      const double v = j.get<double>();
      if (v != std::floor(v)) fail(p, "expected an integer, got " + fmt(v));
    }
    const double v = number(j, p);
    if (std::fabs(v) > 9e15) fail(p, "integer out of range");
    return static_cast<std::int64_t>(std::llround(v));
  }
  Vec2 point(const Json& j, const Path& p) const {
    if (!j.is_array() || j.size() != 2) fail(p, "expected a point [x, y], got " + describe(j));
    return {static_cast<float>(number(j[0], p / 0)), static_cast<float>(number(j[1], p / 1))};
  }
  Rect rect(const Json& j, const Path& p) const {
    if (!j.is_array() || j.size() != 4) fail(p, "expected a rectangle [x, y, width, height], got " + describe(j));
    Rect r{static_cast<float>(number(j[0], p / 0)), static_cast<float>(number(j[1], p / 1)),
           static_cast<float>(nonNegative(j[2], p / 2)), static_cast<float>(nonNegative(j[3], p / 3))};
    return r;
  }
  std::vector<Vec2> points(const Json& j, const Path& p, std::size_t atLeast) const {
    if (!j.is_array()) fail(p, "expected an array of points [[x, y], ...], got " + describe(j));
    if (j.size() < atLeast) fail(p, "expected at least " + std::to_string(atLeast) + " points, got " + std::to_string(j.size()));
    std::vector<Vec2> out;
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(point(j[i], p / i));
    return out;
  }
  std::string string(const Json& j, const Path& p) const {
    if (!j.is_string()) fail(p, "expected a string, got " + describe(j));
    return j.get<std::string>();
  }
  /// j as an object of the keys `allowed` (schema.hpp) takes, else a Fail.
  const Json& object(const Json& j, const Path& p, std::span<const std::string_view> allowed) const {
    if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
    for (const auto& [k, v] : j.items()) {
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        std::string list;
        for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(p / k, "unknown key \"" + k + "\" (expected one of: " + list + ")");
      }
    }
    return j;
  }
  const Json& array(const Json& j, const Path& p) const {
    if (!j.is_array()) fail(p, "expected an array, got " + describe(j));
    return j;
  }

  // parts
  void knobs(const Json& j, const Path& p);
  void settings(const Json& j, const Path& p);
  void geometry();
  void plan();  ///< "geometry": the walkable area and walls as WKT or GeoJSON
  void measurements();
  void verify();
  SceneDraw drawOf(const Json& j, const Path& p) const;
  void routes(const Json& j, const Path& p);
  Props props(const Json& j, const Path& p, const Props& base) const;
  SceneAgent makeAgent(Vec2 at, const Props& pr, std::size_t serial, std::uint64_t what, std::uint64_t which,
                       const Path& origin);
  void agents(const Json& j, const Path& p);
  void generators(const Json& j, const Path& p);
  void sources(const Json& j, const Path& p);
  void sinks(const Json& j, const Path& p);
  /// The ground (scene.hpp's "targets", "discomfort", "hills", "heightMap",
  /// "discomfortMap").
  void targets(const Json& j, const Path& p);
  void discomfort(const Json& j, const Path& p);
  /// "speedZones" and "stairs" (throng/fields.hpp's SpeedZone and Stairs).
  void speedZones(const Json& j, const Path& p);
  void stairs(const Json& j, const Path& p);
  /// A region's "rect" or "outline" (exactly one), as a closed outline.
  std::vector<Vec2> regionOutline(const Json& o, const Path& p);
  void hills(const Json& j, const Path& p);
  void heightMap(const Json& j, const Path& p);
  void discomfortMap(const Json& j, const Path& p);
  /// A lattice of node values, as "heightMap" and "discomfortMap" write it:
  /// {"origin", "cell", key: rows of numbers}; `noun` and `nouns` name a
  /// value in messages ("height", "heights").
  struct Lattice {
    Vec2 origin;
    float cell = 1;
    int cols = 0, rows = 0;
    std::vector<float> values;
  };
  Lattice lattice(const Json& j, const Path& p, const char* key, const char* noun, const char* nouns) const;
  /// After the file's targets: one per route with a goal region, then the
  /// sinks' (those for every group together, then one per set of groups).
  void derivedTargets();
  /// A group number (an int).
  int group(const Json& j, const Path& p) const {
    const std::int64_t g = integer(j, p);
    if (g < std::numeric_limits<int>::min() || g > std::numeric_limits<int>::max())
      fail(p, "expected a group number within the range of an int, got " + std::to_string(g));
    return static_cast<int>(g);
  }
  /// The index of the route named by j (a string) in spec_.routes.
  int routeIndex(const Json& j, const Path& p) const;
  /// How far the disc reaches into any obstacle or wall (0: clear).
  float intrusion(Vec2 c, float r) const;
  void checkClear(const SceneAgent& a, const Path& origin) const;
  /// Fails at p before `n` more walkers would pass spec_.maxAgents.
  void room(std::int64_t n, const Path& p) const {
    if (n > static_cast<std::int64_t>(spec_.maxAgents - spec_.agents.size()))
      fail(p, "the scene would make more than " + std::to_string(spec_.maxAgents) + " walkers");
  }

  const Json& root_;
  std::vector<Knob>& knobs_;
  const std::map<std::string, std::string, std::less<>>& overrides_;  // setting -> its text, over the file's
  const SceneFiles& files_;
  SceneSpec spec_;
  Props defaults_;
  std::vector<std::string> routeNames_;
  std::vector<RouteGoal> routeGoals_;
  std::vector<Path> agentOrigin_;
};

/// The value of an expression (scene.hpp's grammar, read by expression.hpp
/// within its limits) over the knobs known so far; its error fails at p.
double expression(std::string_view s, const std::vector<Knob>& knobs, const Path& p) {
  detail::ExprKnobs named;
  named.value = [&knobs](std::string_view name) -> std::optional<double> {
    for (const Knob& k : knobs)
      if (k.name == name) return k.value;
    return std::nullopt;
  };
  named.names = [&knobs] {
    std::vector<std::string> names;
    for (const Knob& k : knobs) names.push_back(k.name);
    return names;
  };
  std::string error;
  const std::optional<double> v = detail::evalExpr(s, named, &error);
  if (!v) fail(p, std::move(error));
  return *v;
}

double Resolver::number(const Json& j, const Path& p) const {
  const double v = anyNumber(j, p);
  // Beyond this, float coordinates and counts lose meaning (and could overflow).
  if (std::fabs(v) > 1e12) fail(p, "expected a number within +-1e12, got " + fmt(v));
  return v;
}

double Resolver::anyNumber(const Json& j, const Path& p) const {
  double v = 0;
  if (j.is_number()) {
    v = j.get<double>();
  } else if (j.is_string()) {
    v = expression(j.get_ref<const std::string&>(), knobs_, p);
  } else if (j.is_object() && j.size() == 1 && j.contains("knob")) {
    const Json& name = j["knob"];
    if (!name.is_string()) fail(p / "knob", "expected a knob name, got " + describe(name));
    v = expression(name.get_ref<const std::string&>(), knobs_, p / "knob");
  } else {
    fail(p, "expected a number, a {\"knob\": name} or an expression string, got " + describe(j));
  }
  if (!std::isfinite(v)) fail(p, "expected a finite number");
  return v;
}

void Resolver::knobs(const Json& j, const Path& p) {
  if (!j.is_object()) fail(p, "expected an object of knobs, got " + describe(j));
  std::vector<Knob> parsed;
  for (const auto& item : j.items()) {
    // Named references, not a structured binding: the lambda below captures
    // spec, which Clang before 16 cannot do with a binding.
    const std::string& name = item.key();
    const Json& spec = item.value();
    const Path kp = p / name;
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') ||
        !std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
      fail(kp, "a knob name is letters, digits and '_', starting with a letter");
    if (findSetting(name)) fail(kp, "knob \"" + name + "\" would shadow the setting of that name");
    object(spec, kp, detail::sceneKeys("/knobs/*"));
    auto plain = [&](const char* key) {
      if (!spec.contains(key)) fail(kp, std::string("missing \"") + key + "\"");
      const Json& v = spec[key];
      if (!v.is_number()) fail(kp / key, "expected a plain number, got " + describe(v));
      return v.get<double>();
    };
    Knob k;
    k.name = name;
    k.min = plain("min");
    k.max = plain("max");
    k.defaultValue = plain("default");
    if (spec.contains("help")) k.help = string(spec["help"], kp / "help");
    if (spec.contains("integer")) {
      if (!spec["integer"].is_boolean()) fail(kp / "integer", "expected true or false, got " + describe(spec["integer"]));
      k.integer = spec["integer"].get<bool>();
    }
    if (!(k.min <= k.max)) fail(kp / "max", "expected max >= min");
    if (!(k.defaultValue >= k.min && k.defaultValue <= k.max))
      fail(kp / "default", "default " + fmt(k.defaultValue) + " is outside [" + fmt(k.min) + ", " + fmt(k.max) + "]");
    k.value = k.defaultValue;
    for (const Knob& old : knobs_)
      if (old.name == k.name) k.value = old.value;  // keep what was set
    parsed.push_back(std::move(k));
  }
  knobs_ = std::move(parsed);
}

void Resolver::settings(const Json& j, const Path& p) {
  Settings& s = spec_.settings;
  std::string why;
  // The top-level "model" and "routing" are settings.model and
  // settings.routing, written where a reader looks first.
  for (const char* key : {"model", "routing"}) {
    if (!root_.contains(key)) continue;
    const Path kp = Path{} / key;
    if (!setSettingText(s, key, string(root_[key], kp), &why)) fail(kp, why);
  }
  if (!j.is_null()) {
    if (!j.is_object()) fail(p, "expected an object, got " + describe(j));
    for (const auto& [k, v] : j.items()) {
      const Path kp = p / k;
      const SettingInfo* info = findSetting(k);
      if (!info) {
        std::string list;
        for (const SettingInfo& i : settingsTable()) list += (list.empty() ? "" : ", ") + std::string(i.name);
        fail(kp, "unknown key \"" + k + "\" (expected one of: " + list + ")");
      }
      bool ok = false;
      switch (info->kind) {
        case SettingKind::Choice:
          if ((k == "model" || k == "routing") && root_.contains(k))
            fail(kp, "the " + k + " is given twice (here and at /" + k + ")");
          ok = setSettingText(s, k, string(v, kp), &why);
          break;
        case SettingKind::Seed:
          // Exactly as written: a seed above 2^53 is no double.
          if (!v.is_number_unsigned()) fail(kp, "expected a whole number in " + formatLimits(*info) + ", got " + describe(v));
          ok = setSettingText(s, k, std::to_string(v.get<std::uint64_t>()), &why);
          break;
        case SettingKind::Integer:  // an expression rounds, as integer fields do; a plain number must be whole
          ok = setSetting(s, k, v.is_number() ? anyNumber(v, kp) : std::round(anyNumber(v, kp)), &why);
          break;
        case SettingKind::Real: ok = setSetting(s, k, anyNumber(v, kp), &why); break;
      }
      if (!ok) fail(kp, why);
    }
  }
  for (const auto& [k, text] : overrides_)
    if (!setSettingText(s, k, text, &why)) fail(Path{} / "settings" / k, why);
}

void Resolver::plan() {
  const Path p = Path{} / "geometry";
  const Json& o = object(root_["geometry"], p, detail::sceneKeys("/geometry"));
  const int forms = int{o.contains("wkt")} + int{o.contains("geojson")} + int{o.contains("file")};
  if (forms != 1) fail(p, "expected exactly one of \"wkt\", \"geojson\" or \"file\"");
  PlanShapes shapes;
  std::string why;
  if (o.contains("wkt")) {
    if (!readPlan(string(o["wkt"], p / "wkt"), PlanFormat::Wkt, &shapes, &why)) fail(p / "wkt", why);
  } else if (o.contains("geojson")) {
    if (!o["geojson"].is_object()) fail(p / "geojson", "expected a GeoJSON object, got " + describe(o["geojson"]));
    // The loader refused text past 256 deep, so dump() recurses safely;
    // readPlan refuses its text past kMaxPlanDepth before GEOS sees it.
    if (!readPlan(o["geojson"].dump(), PlanFormat::GeoJson, &shapes, &why)) fail(p / "geojson", why);
  } else {
    const std::string name = string(o["file"], p / "file");
    const auto f = files_.find(name);
    if (f == files_.end()) fail(p / "file", "\"" + name + "\" was not read with the scene");
    if (!readPlan(f->second, planFormatOf(name), &shapes, &why)) fail(p / "file", name + ": " + why);
  }
  // Outlines close on their first point; holes are obstacles.
  for (const WalkableArea& a : shapes.areas) {
    std::vector<Vec2> wall = a.outline;
    wall.push_back(a.outline.front());
    spec_.walls.push_back(std::move(wall));
  }
  for (const WalkableArea& a : shapes.areas)
    for (const std::vector<Vec2>& h : a.holes) spec_.obstacles.push_back(h);
  for (std::vector<Vec2>& l : shapes.lines) spec_.walls.push_back(std::move(l));
  spec_.walkable = std::move(shapes.areas);
}

void Resolver::geometry() {
  if (root_.contains("geometry")) plan();
  if (root_.contains("obstacles")) {
    const Path p = Path{} / "obstacles";
    const Json& arr = array(root_["obstacles"], p);
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const Path op = p / i;
      const Json& o = object(arr[i], op, detail::sceneKeys("/obstacles/#"));
      if (o.contains("rect") == o.contains("outline")) fail(op, "expected exactly one of \"rect\" or \"outline\"");
      if (o.contains("rect")) {
        const Rect r = rect(o["rect"], op / "rect");
        spec_.obstacles.push_back({{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}});
      } else {
        spec_.obstacles.push_back(points(o["outline"], op / "outline", 3));
      }
    }
  }
  if (root_.contains("walls")) {
    const Path p = Path{} / "walls";
    const Json& arr = array(root_["walls"], p);
    for (std::size_t i = 0; i < arr.size(); ++i) spec_.walls.push_back(points(arr[i], p / i, 2));
  }
}

void Resolver::measurements() {
  if (!root_.contains("measurements")) return;
  const Path p = Path{} / "measurements";
  const Json& arr = array(root_["measurements"], p);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const Path mp = p / i;
    const Json& o = object(arr[i], mp, detail::sceneKeys("/measurements/#"));
    const int shapes = int{o.contains("line")} + int{o.contains("rect")} + int{o.contains("outline")};
    if (shapes != 1) fail(mp, "expected exactly one of \"line\", \"rect\" or \"outline\"");
    Measurement m;
    m.name = o.contains("name") ? string(o["name"], mp / "name") : "measurement " + std::to_string(i);
    for (const Measurement& other : spec_.measurements)
      if (other.name == m.name) fail(o.contains("name") ? mp / "name" : mp, "the name \"" + m.name + "\" is taken");
    Path shape = mp;
    if (o.contains("line")) {
      shape = mp / "line";
      m.points = points(o["line"], shape, 2);
      if (m.points.size() != 2) fail(shape, "expected a line [[x, y], [x, y]], got " + std::to_string(m.points.size()) + " points");
    } else if (o.contains("rect")) {
      shape = mp / "rect";
      const Rect r = rect(o["rect"], shape);
      m.kind = MeasureKind::Area;
      m.points = {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
    } else {
      shape = mp / "outline";
      m.kind = MeasureKind::Area;
      m.points = points(o["outline"], shape, 3);
    }
    const std::string why = measurementProblem(m);
    if (!why.empty()) fail(shape, why);
    if (m.kind == MeasureKind::Area && !spec_.walkable.empty()) {
      // Density is walkers per square metre of floor: the part on the walkable area.
      m.floorArea = areaOnFloor(spec_.walkable, m.points);
      if (!(m.floorArea > 1e-9)) fail(shape, "the area lies off the walkable area (\"geometry\")");
    }
    spec_.measurements.push_back(std::move(m));
  }
}

void Resolver::verify() {
  if (!root_.contains("verify")) return;
  const Path p = Path{} / "verify";
  const Json& o = object(root_["verify"], p, detail::sceneKeys("/verify"));
  SceneVerify v;
  if (!o.contains("test")) fail(p, "missing \"test\" (its name, \"RiMEA 1\")");
  v.test = string(o["test"], p / "test");
  if (o.contains("says")) v.says = string(o["says"], p / "says");
  if (o.contains("seeds")) {
    const std::int64_t n = integer(o["seeds"], p / "seeds");
    if (n < 1 || n > 1000) fail(p / "seeds", "expected a count in [1, 1000], got " + std::to_string(n));
    v.seeds = static_cast<int>(n);
  }
  if (o.contains("verdict")) {
    if (!o["verdict"].is_boolean()) fail(p / "verdict", "expected true or false, got " + describe(o["verdict"]));
    v.verdict = o["verdict"].get<bool>();
  }
  if (o.contains("diagram")) {
    const Json& d = array(o["diagram"], p / "diagram");
    if (d.empty()) fail(p / "diagram", "expected at least one density, per m²");
    for (std::size_t i = 0; i < d.size(); ++i) {
      const double rho = number(d[i], p / "diagram" / i);
      // The ring cannot place walkers of 0.2 m past about 5.5 per m²; Weidmann's jam density is 5.4.
      if (!(rho > 0 && rho < 5.4)) fail(p / "diagram" / i, "expected a density in (0, 5.4) per m², got " + fmt(rho));
      if (!v.diagram.empty() && !(rho > v.diagram.back()))
        fail(p / "diagram" / i, "expected the densities ascending, got " + fmt(rho) + " after " + fmt(v.diagram.back()));
      v.diagram.push_back(rho);
    }
  }
  if (!o.contains("checks")) fail(p, "missing \"checks\"");
  const Json& checks = array(o["checks"], p / "checks");
  if (checks.empty()) fail(p / "checks", "expected at least one check");
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Path cp = p / "checks" / i;
    const Json& c = object(checks[i], cp, detail::sceneKeys("/verify/checks/#"));
    VerifyCheck k;
    if (!c.contains("figure")) fail(cp, "missing \"figure\" (a summary field, or MEASUREMENT.FIGURE)");
    const auto figure = [&](const char* key) {
      std::string f = string(c[key], cp / key);
      const std::size_t dot = f.find('.');
      if (dot != std::string::npos && !v.diagram.empty()) {
        const std::string name = f.substr(0, dot), field = f.substr(dot + 1);
        const bool known = std::any_of(v.diagram.begin(), v.diagram.end(),
                                       [&](double d) { return diagramFigureName(d) == field; });
        if (name != "diagram" && name != "weidmann")
          fail(cp / key, "a fundamental diagram's figures are diagram.D, weidmann.D and diagram.falling, got \"" + f + "\"");
        if (!known && !(name == "diagram" && field == "falling"))
          fail(cp / key, "no density " + field + " in \"diagram\"");
      } else if (dot != std::string::npos) {
        const std::string name = f.substr(0, dot);
        const bool known = std::any_of(spec_.measurements.begin(), spec_.measurements.end(),
                                       [&](const Measurement& m) { return m.name == name; });
        if (!known) fail(cp / key, "no measurement named \"" + name + "\"");
      }
      return f;
    };
    k.figure = figure("figure");
    if (c.contains("ratioTo")) k.ratioTo = string(c["ratioTo"], cp / "ratioTo");
    if (c.contains("over")) k.over = figure("over");
    if (!k.ratioTo.empty() && !k.over.empty()) fail(cp, "expected one of \"ratioTo\" or \"over\", not both");
    if (c.contains("percentile")) {
      k.percentile = number(c["percentile"], cp / "percentile");
      if (!(k.percentile > 0 && k.percentile <= 100)) fail(cp / "percentile", "expected a percentile in (0, 100], got " + fmt(k.percentile));
      if (!k.ratioTo.empty()) fail(cp / "percentile", "a ratio to another scene is of the means; a percentile is of one scene's seeds");
    }
    if (c.contains("min")) k.min = number(c["min"], cp / "min");
    if (c.contains("max")) k.max = number(c["max"], cp / "max");
    if (!c.contains("min") && !c.contains("max") && v.verdict)
      fail(cp, "expected \"min\", \"max\" or both (a test with \"verdict\": false may show a figure without)");
    if (!(k.min <= k.max)) fail(cp, "the bounds are empty: min " + fmt(k.min) + " > max " + fmt(k.max));
    v.checks.push_back(std::move(k));
  }
  spec_.verify = std::move(v);
}

void Resolver::routes(const Json& j, const Path& p) {
  if (!j.is_object()) fail(p, "expected an object of named routes, got " + describe(j));
  for (const auto& [name, r] : j.items()) {
    const Path rp = p / name;
    object(r, rp, detail::sceneKeys("/routes/*"));
    if (!r.contains("gates")) fail(rp, "missing \"gates\"");
    const Json& gates = array(r["gates"], rp / "gates");
    SceneRoute route;
    route.name = name;
    for (std::size_t i = 0; i < gates.size(); ++i) {
      const std::vector<Vec2> ends = points(gates[i], rp / "gates" / i, 2);
      if (ends.size() != 2) fail(rp / "gates" / i, "expected a gate [[x, y], [x, y]]");
      if (ends[0] == ends[1]) fail(rp / "gates" / i, "a gate needs two distinct ends");
      route.gates.push_back({ends[0], ends[1]});
    }
    RouteGoal g;
    if (r.contains("goal")) g.goal = point(r["goal"], rp / "goal");
    if (r.contains("goalRegion")) g.goalRegion = rect(r["goalRegion"], rp / "goalRegion");
    spec_.routes.push_back(std::move(route));
    routeNames_.push_back(name);
    routeGoals_.push_back(g);
  }
}

SceneDraw Resolver::drawOf(const Json& j, const Path& p) const {
  SceneDraw d;
  if (!j.is_object() || j.contains("knob")) {  // a number, knob or expression
    d.value = nonNegative(j, p);
    return d;
  }
  object(j, p, detail::sceneKeys("/draw"));
  if (!j.contains("distribution")) fail(p, "expected a number or a \"distribution\" (uniform, normal, lognormal, weidmann)");
  const std::string kind = string(j["distribution"], p / "distribution");
  const auto need = [&](const char* key) -> double {
    if (!j.contains(key)) fail(p, "a " + kind + " distribution needs \"" + key + "\"");
    return number(j[key], p / key);
  };
  const auto refuse = [&](const char* key) {
    if (j.contains(key)) fail(p / key, "a " + kind + " distribution takes no \"" + key + "\"");
  };
  if (kind == "uniform") {
    d.kind = SceneDraw::Kind::Uniform;
    refuse("mean");
    refuse("sd");
    d.min = need("min");
    d.max = need("max");
  } else if (kind == "normal" || kind == "lognormal") {
    d.kind = kind == "normal" ? SceneDraw::Kind::Normal : SceneDraw::Kind::LogNormal;
    d.mean = need("mean");
    d.sd = need("sd");
    if (!(d.sd >= 0)) fail(p / "sd", "expected a standard deviation >= 0, got " + fmt(d.sd));
    if (d.kind == SceneDraw::Kind::LogNormal && !(d.mean > 0)) fail(p / "mean", "a lognormal needs a mean > 0");
    if (j.contains("min")) d.min = number(j["min"], p / "min");
    if (j.contains("max")) d.max = number(j["max"], p / "max");
  } else if (kind == "weidmann") {
    // RiMEA's table of walking speeds by age (after Weidmann 1993), m/s.
    struct AgeGroup {
      const char* name;
      double min, max;
    };
    static constexpr AgeGroup kAges[] = {
        {"under 30", 0.58, 1.61}, {"30 to 50", 1.41, 1.54}, {"over 50", 0.68, 1.41}, {"impaired", 0.46, 0.76}};
    for (const char* key : {"mean", "sd", "min", "max"}) refuse(key);
    if (!j.contains("ages")) fail(p, "a weidmann distribution needs \"ages\" (under 30, 30 to 50, over 50, impaired)");
    const std::string ages = string(j["ages"], p / "ages");
    const auto it = std::find_if(std::begin(kAges), std::end(kAges), [&](const AgeGroup& a) { return ages == a.name; });
    if (it == std::end(kAges))
      fail(p / "ages", "unknown age group \"" + ages + "\" (expected under 30, 30 to 50, over 50 or impaired)");
    d.kind = SceneDraw::Kind::Uniform;
    d.min = it->min;
    d.max = it->max;
  } else {
    fail(p / "distribution",
         "unknown distribution \"" + kind + "\" (expected uniform, normal, lognormal or weidmann)");
  }
  if (kind != "weidmann" && j.contains("ages")) fail(p / "ages", "only a weidmann distribution takes \"ages\"");
  // No draw below 0: speeds and delays.
  if (d.min < 0) {
    if (d.kind == SceneDraw::Kind::Uniform || j.contains("min")) fail(p / "min", "expected a number >= 0, got " + fmt(d.min));
    d.min = 0;
  }
  if (!(d.min <= d.max)) fail(p, "the clip is empty: min " + fmt(d.min) + " > max " + fmt(d.max));
  if (d.kind != SceneDraw::Kind::Uniform) {
    // The share of the distribution inside [min, max], of the standard
    // normal between za and zb: by the upper tails when both are above 0,
    // so a clip far in a tail is not lost to rounding.
    const auto between = [](double za, double zb) {
      const double r = 1 / std::sqrt(2.0);
      return za > 0 ? 0.5 * (std::erfc(za * r) - std::erfc(zb * r)) : 0.5 * (std::erfc(-zb * r) - std::erfc(-za * r));
    };
    double share;
    if (d.sd == 0) {
      share = d.mean >= d.min && d.mean <= d.max ? 1 : 0;
    } else if (d.kind == SceneDraw::Kind::Normal) {
      share = between((d.min - d.mean) / d.sd, (d.max - d.mean) / d.sd);
    } else {
      const double s2 = std::log1p(d.sd * d.sd / (d.mean * d.mean)), mu = std::log(d.mean) - s2 / 2, s = std::sqrt(s2);
      share = between(d.min > 0 ? (std::log(d.min) - mu) / s : -1e300, (std::log(d.max) - mu) / s);
    }
    if (!(share >= 0.01))
      fail(p, "the clip [" + fmt(d.min) + ", " + fmt(d.max) + "] holds " + (share > 0 ? "under 1%" : "none") +
                  " of the " + kind + " distribution");
  }
  return d;
}

Props Resolver::props(const Json& j, const Path& p, const Props& base) const {
  Props pr = base;
  if (j.contains("radius")) pr.radius = static_cast<float>(positive(j["radius"], p / "radius"));
  if (j.contains("maxSpeed")) pr.maxSpeed = drawOf(j["maxSpeed"], p / "maxSpeed");
  if (j.contains("premovement")) pr.premovement = drawOf(j["premovement"], p / "premovement");
  if (j.contains("maxAccel")) pr.maxAccel = envelopeBound(j["maxAccel"], p / "maxAccel");
  if (j.contains("maxDecel")) pr.maxDecel = envelopeBound(j["maxDecel"], p / "maxDecel");
  if (j.contains("group")) {
    const Json& g = j["group"];
    pr.groups.clear();
    if (g.is_array()) {
      if (g.empty()) fail(p / "group", "expected at least one group");
      for (std::size_t i = 0; i < g.size(); ++i) pr.groups.push_back(static_cast<int>(integer(g[i], p / "group" / i)));
    } else {
      pr.groups.push_back(static_cast<int>(integer(g, p / "group")));
    }
  }
  int goals = 0;
  if (j.contains("goal")) pr.goal = point(j["goal"], p / "goal"), ++goals;
  if (j.contains("goalOffset")) pr.goalOffset = point(j["goalOffset"], p / "goalOffset"), ++goals;
  if (j.contains("goalRegion")) pr.goalRegion = rect(j["goalRegion"], p / "goalRegion"), ++goals;
  if (goals > 1) fail(p, "expected at most one of \"goal\", \"goalOffset\", \"goalRegion\"");
  if (j.contains("route")) {
    const Json& r = j["route"];
    pr.routes.clear();
    if (r.is_array()) {
      if (r.empty()) fail(p / "route", "expected at least one route name");
      for (std::size_t i = 0; i < r.size(); ++i) pr.routes.push_back(routeIndex(r[i], p / "route" / i));
    } else {
      pr.routes.push_back(routeIndex(r, p / "route"));
    }
  }
  return pr;
}

int Resolver::routeIndex(const Json& j, const Path& p) const {
  const std::string n = string(j, p);
  for (std::size_t i = 0; i < routeNames_.size(); ++i)
    if (routeNames_[i] == n) return static_cast<int>(i);
  std::string list;
  for (const std::string& s : routeNames_) list += (list.empty() ? "" : ", ") + s;
  fail(p, "unknown route \"" + n + "\" (routes: " + (list.empty() ? "none" : list) + ")");
}

SceneAgent Resolver::makeAgent(Vec2 at, const Props& pr, std::size_t serial, std::uint64_t what, std::uint64_t which,
                               const Path& origin) {
  SceneAgent a;
  a.at = at;
  a.radius = pr.radius;
  // Each walker's own draws, named by (what, which) as its goal point is.
  const std::uint64_t who = what << 32 ^ which;
  a.maxSpeed = static_cast<float>(pr.maxSpeed.draw(spec_.settings.seed, 9101, who));
  a.premovement = pr.premovement.draw(spec_.settings.seed, 9102, who);
  a.maxAccel = pr.maxAccel;
  a.maxDecel = pr.maxDecel;
  a.group = pr.groups[serial % pr.groups.size()];
  if (!pr.routes.empty()) {
    a.route = pr.routes[0];
    if (pr.routes.size() > 1) {
      float best = std::numeric_limits<float>::max();
      for (int r : pr.routes) {
        const auto& gates = spec_.routes[static_cast<std::size_t>(r)].gates;
        if (gates.empty()) continue;
        const float d = ((gates[0].a + gates[0].b) * 0.5f - at).length();
        if (d < best) best = d, a.route = r;  // ties: the first listed
      }
    }
  }
  const std::uint64_t seed = spec_.settings.seed;
  if (pr.goal) a.goal = pr.goal;
  else if (pr.goalOffset) a.goal = at + *pr.goalOffset;
  else if (pr.goalRegion) a.goal = pointIn(*pr.goalRegion, seed, what, which);
  else if (a.route >= 0) {
    const RouteGoal& g = routeGoals_[static_cast<std::size_t>(a.route)];
    if (g.goal) a.goal = g.goal;
    else if (g.goalRegion) a.goal = pointIn(*g.goalRegion, seed, what, which);
  }
  checkClear(a, origin);
  return a;
}

float Resolver::intrusion(Vec2 c, float r) const {
  return detail::discIntrusion(spec_.obstacles, spec_.walls, c, r);
}

void Resolver::checkClear(const SceneAgent& a, const Path& origin) const {
  if (intrusion(a.at, a.radius) > 1e-4f * a.radius)
    fail(origin, "agent at (" + fmt(a.at.x) + ", " + fmt(a.at.y) + ") with radius " + fmt(a.radius) +
                     " overlaps an obstacle or wall");
}

void Resolver::agents(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path ap = p / i;
    const Json& o = object(j[i], ap, detail::sceneKeys("/agents/#"));
    if (!o.contains("at")) fail(ap, "missing \"at\" (the start [x, y])");
    const Props pr = props(o, ap, defaults_);
    room(1, ap);
    spec_.agents.push_back(makeAgent(point(o["at"], ap / "at"), pr, 0, 1, i, ap / "at"));
  }
}

void Resolver::generators(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t g = 0; g < j.size(); ++g) {
    const Path gp = p / g;
    if (!j[g].is_object()) fail(gp, "expected an object, got " + describe(j[g]));
    if (!j[g].contains("type")) fail(gp, "missing \"type\" (ring, grid or fill)");
    const std::string type = string(j[g]["type"], gp / "type");
    const std::uint64_t what = 1000 + g;
    const std::uint64_t seed = spec_.settings.seed;
    auto need = [&](const char* key) -> const Json& {
      if (!j[g].contains(key)) fail(gp, "missing \"" + std::string(key) + "\" for a " + type + " generator");
      return j[g][key];
    };
    if (type == "ring") {
      const Json& o = object(j[g], gp, detail::generatorKeys("ring"));
      const std::int64_t n = integer(need("count"), gp / "count");
      if (n < 0 || n > 10'000'000) fail(gp / "count", "expected a count in [0, 1e7]");
      room(n, gp / "count");
      const Vec2 c = o.contains("center") ? point(o["center"], gp / "center") : Vec2{};
      const double R = positive(need("ringRadius"), gp / "ringRadius");
      const Props pr = props(o, gp, defaults_);
      for (std::int64_t i = 0; i < n; ++i) {
        // The seed's spot: an angle of i/n turns, without libm's rounding
        // differences mattering (double precision, then rounded to float).
        const double a = 2.0 * 3.14159265358979323846 * static_cast<double>(i) / static_cast<double>(n);
        const Vec2 at{static_cast<float>(c.x + R * std::cos(a)), static_cast<float>(c.y + R * std::sin(a))};
        Props each = pr;
        if (!pr.goal && !pr.goalOffset && !pr.goalRegion) each.goal = c - (at - c);
        spec_.agents.push_back(makeAgent(at, each, static_cast<std::size_t>(i), what, static_cast<std::uint64_t>(i), gp));
      }
    } else if (type == "grid") {
      const Json& o = object(j[g], gp, detail::generatorKeys("grid"));
      const Vec2 origin = point(need("origin"), gp / "origin");
      const std::int64_t rows = integer(need("rows"), gp / "rows"), cols = integer(need("cols"), gp / "cols");
      if (rows < 0 || cols < 0 || rows > 10'000'000 || cols > 10'000'000 || rows * cols > 10'000'000)
        fail(gp, "expected rows and cols >= 0, at most 1e7 agents");
      room(rows * cols, gp);
      const Json& sp = need("spacing");
      const Vec2 d = sp.is_array() ? point(sp, gp / "spacing")
                                   : Vec2{static_cast<float>(positive(sp, gp / "spacing")), static_cast<float>(number(sp, gp / "spacing"))};
      const Props pr = props(o, gp, defaults_);
      std::size_t k = 0;
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c, ++k)
          spec_.agents.push_back(makeAgent(origin + Vec2{static_cast<float>(c) * d.x, static_cast<float>(r) * d.y}, pr, k, what, k, gp));
    } else if (type == "fill") {
      const Json& o = object(j[g], gp, detail::generatorKeys("region"));
      const Rect reg = rect(need("region"), gp / "region");
      const double density = nonNegative(need("density"), gp / "density");
      const Props pr = props(o, gp, defaults_);
      // A jittered grid of about density x area cells; each disc stays in its
      // own cell, so discs never overlap and never leave the region.
      const double s = density > 0 ? std::sqrt(density) : 0;
      const auto cols = static_cast<std::int64_t>(std::llround(reg.width * s));
      const auto rows = static_cast<std::int64_t>(std::llround(reg.height * s));
      if (cols > 10'000'000 || rows > 10'000'000 || cols * rows > 10'000'000) fail(gp / "density", "more than 1e7 agents");
      room(cols * rows, gp / "density");
      if (cols > 0 && rows > 0) {
        const double cw = reg.width / static_cast<double>(cols), ch = reg.height / static_cast<double>(rows);
        const double clear = 2.0 * pr.radius * 1.02;
        if (cw < clear || ch < clear) {
          const double most = 1.0 / (clear * clear);
          fail(gp / "density", "density " + fmt(density) + " /m² is too high for radius " + fmt(pr.radius) +
                                   " in this region (at most about " + fmt(std::floor(most * 100) / 100) + ")");
        }
        std::size_t k = 0;
        for (std::int64_t r = 0; r < rows; ++r)
          for (std::int64_t c = 0; c < cols; ++c) {
            const std::uint64_t cell = static_cast<std::uint64_t>(r * cols + c);
            const double jx = (cw - clear) * (unit01(seed, what, cell, 3) - 0.5);
            const double jy = (ch - clear) * (unit01(seed, what, cell, 4) - 0.5);
            const Vec2 at{static_cast<float>(reg.x + (static_cast<double>(c) + 0.5) * cw + jx),
                          static_cast<float>(reg.y + (static_cast<double>(r) + 0.5) * ch + jy)};
            if (intrusion(at, pr.radius) > 0) continue;  // cells under obstacles stay empty
            if (!spec_.walkable.empty() && !insideAreas(spec_.walkable, at)) continue;  // and those off the floor
            spec_.agents.push_back(makeAgent(at, pr, k, what, cell, gp));
            ++k;
          }
      }
    } else {
      fail(gp / "type", "unknown generator type \"" + type + "\" (expected ring, grid or fill)");
    }
  }
}

void Resolver::sources(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path sp = p / i;
    const Json& o = object(j[i], sp, detail::sceneKeys("/sources/#"));
    if (!o.contains("region")) fail(sp, "missing \"region\" [x, y, width, height]");
    if (!o.contains("rate")) fail(sp, "missing \"rate\" (agents per second)");
    SceneSource s;
    s.region = rect(o["region"], sp / "region");
    s.rate = nonNegative(o["rate"], sp / "rate");
    if (s.rate > kMaxSourceRate) fail(sp / "rate", "expected at most " + fmt(kMaxSourceRate) + " agents per second");
    if (o.contains("start")) s.start = nonNegative(o["start"], sp / "start");
    if (o.contains("stop")) s.stop = nonNegative(o["stop"], sp / "stop");
    if (o.contains("max")) {
      s.max = integer(o["max"], sp / "max");
      if (s.max < 0) fail(sp / "max", "expected a count >= 0");
    }
    const Props pr = props(o, sp, defaults_);
    s.radius = pr.radius;
    s.speedDraw = pr.maxSpeed;
    s.maxSpeed = static_cast<float>(pr.maxSpeed.largest());
    s.premovement = pr.premovement;
    s.maxAccel = pr.maxAccel;
    s.maxDecel = pr.maxDecel;
    s.groups = pr.groups;
    s.goal = pr.goal;
    s.goalOffset = pr.goalOffset;
    s.goalRegion = pr.goalRegion;
    if (pr.routes.size() > 1) fail(sp / "route", "a source takes one route");
    if (!pr.routes.empty()) {
      s.route = pr.routes[0];
      const RouteGoal& g = routeGoals_[static_cast<std::size_t>(s.route)];
      if (!s.goal && !s.goalOffset && !s.goalRegion) {
        s.goal = g.goal;
        s.goalRegion = g.goalRegion;
      }
    }
    if (s.region.width < 2 * s.radius || s.region.height < 2 * s.radius)
      fail(sp / "region", "the region is smaller than one agent (diameter " + fmt(2 * s.radius) + ")");
    spec_.sources.push_back(s);
  }
}

void Resolver::sinks(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path sp = p / i;
    const Json& o = object(j[i], sp, detail::sceneKeys("/sinks/#"));
    if (!o.contains("region")) fail(sp, "missing \"region\" [x, y, width, height]");
    SceneSink s;
    s.region = rect(o["region"], sp / "region");
    if (o.contains("groups")) {
      const Json& g = array(o["groups"], sp / "groups");
      for (std::size_t k = 0; k < g.size(); ++k) s.groups.push_back(static_cast<int>(integer(g[k], sp / "groups" / k)));
    }
    spec_.sinks.push_back(s);
  }
}

void Resolver::targets(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path tp = p / i;
    const Json& o = object(j[i], tp, detail::sceneKeys("/targets/#"));
    Target t;
    t.name = o.contains("name") ? string(o["name"], tp / "name") : "target " + std::to_string(i);
    if (o.contains("region") == o.contains("regions"))
      fail(tp, "expected exactly one of \"region\" [x, y, width, height] or \"regions\" [[x, y, width, height], ...]");
    if (o.contains("region")) {
      t.regions.push_back(rect(o["region"], tp / "region"));
    } else {
      const Json& rs = array(o["regions"], tp / "regions");
      if (rs.empty()) fail(tp / "regions", "expected at least one region [x, y, width, height]");
      for (std::size_t k = 0; k < rs.size(); ++k) t.regions.push_back(rect(rs[k], tp / "regions" / k));
    }
    if (o.contains("group") && o.contains("groups")) fail(tp, "expected at most one of \"group\" or \"groups\"");
    if (o.contains("group")) t.groups.push_back(group(o["group"], tp / "group"));
    if (o.contains("groups")) {
      const Json& gs = array(o["groups"], tp / "groups");
      if (gs.empty()) fail(tp / "groups", "expected at least one group (leave \"groups\" out for every group)");
      for (std::size_t k = 0; k < gs.size(); ++k) t.groups.push_back(group(gs[k], tp / "groups" / k));
    }
    if (o.contains("route")) t.route = routeIndex(o["route"], tp / "route");
    spec_.terrain.targets.push_back(std::move(t));
  }
}

void Resolver::derivedTargets() {
  std::vector<Target>& out = spec_.terrain.targets;
  for (std::size_t r = 0; r < spec_.routes.size(); ++r) {
    if (!routeGoals_[r].goalRegion) continue;
    out.push_back(Target{spec_.routes[r].name, {*routeGoals_[r].goalRegion}, {}, static_cast<int>(r)});
  }
  // The sinks: those for every group as one target, then one per set of
  // groups (in the order each set first appears; [2, 1] is [1, 2]).
  Target all{"sinks", {}, {}, -1};
  std::vector<Target> some;
  for (const SceneSink& s : spec_.sinks) {
    if (s.groups.empty()) {
      all.regions.push_back(s.region);
      continue;
    }
    std::vector<int> g = s.groups;
    std::sort(g.begin(), g.end());
    g.erase(std::unique(g.begin(), g.end()), g.end());
    auto it = std::find_if(some.begin(), some.end(), [&](const Target& t) { return t.groups == g; });
    if (it == some.end()) {
      std::string name = "sinks for group" + std::string(g.size() > 1 ? "s " : " ");
      for (std::size_t k = 0; k < g.size(); ++k) name += (k ? ", " : "") + std::to_string(g[k]);
      some.push_back(Target{std::move(name), {}, g, -1});
      it = some.end() - 1;
    }
    it->regions.push_back(s.region);
  }
  if (!all.regions.empty()) out.push_back(std::move(all));
  for (Target& t : some) out.push_back(std::move(t));
}

std::vector<Vec2> Resolver::regionOutline(const Json& o, const Path& p) {
  if (o.contains("rect") == o.contains("outline")) fail(p, "expected exactly one of \"rect\" or \"outline\"");
  if (o.contains("outline")) return points(o["outline"], p / "outline", 3);
  const Rect r = rect(o["rect"], p / "rect");
  return {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
}

void Resolver::discomfort(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path dp = p / i;
    const Json& o = object(j[i], dp, detail::sceneKeys("/discomfort/#"));
    Discomfort d;
    d.outline = regionOutline(o, dp);
    if (o.contains("value")) d.value = static_cast<float>(number(o["value"], dp / "value"));
    spec_.terrain.discomfort.push_back(std::move(d));
  }
}

void Resolver::speedZones(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path zp = p / i;
    const Json& o = object(j[i], zp, detail::sceneKeys("/speedZones/#"));
    if (!o.contains("factor")) fail(zp, "missing \"factor\" (a speed zone is {\"rect\": [x, y, w, h], \"factor\": f})");
    SpeedZone z;
    z.outline = regionOutline(o, zp);
    const double f = number(o["factor"], zp / "factor");
    if (!(f > 0 && f <= 1) || !(static_cast<float>(f) > 0))
      fail(zp / "factor", "expected a factor in (0, 1] (a zone slows walkers; none stands still), got " + fmt(f));
    z.factor = static_cast<float>(f);
    spec_.terrain.speedZones.push_back(std::move(z));
  }
}

void Resolver::stairs(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path sp = p / i;
    const Json& o = object(j[i], sp, detail::sceneKeys("/stairs/#"));
    for (const char* key : {"up", "upSpeed", "downSpeed"})
      if (!o.contains(key))
        fail(sp, std::string("missing \"") + key +
                     "\" (stairs are {\"rect\": [x, y, w, h], \"up\": [dx, dy], \"upSpeed\": v, \"downSpeed\": v})");
    Stairs s;
    s.outline = regionOutline(o, sp);
    s.up = point(o["up"], sp / "up");
    if (!(s.up.length() > 0)) fail(sp / "up", "expected the uphill direction, a vector other than [0, 0]");
    s.upSpeed = static_cast<float>(positive(o["upSpeed"], sp / "upSpeed"));
    s.downSpeed = static_cast<float>(positive(o["downSpeed"], sp / "downSpeed"));
    spec_.terrain.stairs.push_back(std::move(s));
  }
}

void Resolver::hills(const Json& j, const Path& p) {
  array(j, p);
  for (std::size_t i = 0; i < j.size(); ++i) {
    const Path hp = p / i;
    const Json& o = object(j[i], hp, detail::sceneKeys("/hills/#"));
    for (const char* key : {"at", "radius", "height"})
      if (!o.contains(key)) fail(hp, std::string("missing \"") + key + "\" (a hill is {\"at\": [x, y], \"radius\": r, \"height\": h})");
    Hill h;
    h.at = point(o["at"], hp / "at");
    h.radius = static_cast<float>(positive(o["radius"], hp / "radius"));
    h.height = static_cast<float>(number(o["height"], hp / "height"));
    spec_.terrain.hills.push_back(h);
  }
}

Resolver::Lattice Resolver::lattice(const Json& j, const Path& p, const char* key, const char* noun,
                                    const char* nouns) const {
  const Json& o = object(j, p, detail::sceneKeys(key == std::string_view("heights") ? "/heightMap" : "/discomfortMap"));
  const std::string row = std::string("[") + noun[0] + ", ...]";
  if (!o.contains("cell")) fail(p, "missing \"cell\" (the spacing of the nodes)");
  if (!o.contains(key))
    fail(p, std::string("missing \"") + key + "\" (rows of " + nouns + " [" + row + ", ...], row 0 at origin y)");
  Lattice m;
  if (o.contains("origin")) m.origin = point(o["origin"], p / "origin");
  m.cell = static_cast<float>(positive(o["cell"], p / "cell"));
  const Path hp = p / key;
  const Json& rows = array(o[key], hp);
  const std::string most = std::to_string(kMaxHeightMapNodes);
  if (rows.empty()) fail(hp, std::string("expected at least one row of ") + nouns);
  if (rows.size() > kMaxHeightMapNodes) fail(hp, "expected at most " + most + " rows, got " + std::to_string(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Path rp = hp / r;
    const Json& rj = rows[r];
    if (!rj.is_array()) fail(rp, std::string("expected a row of ") + nouns + " " + row + ", got " + describe(rj));
    if (r == 0) {
      if (rj.empty()) fail(rp, std::string("expected at least one ") + noun);
      if (rj.size() > kMaxHeightMapNodes)
        fail(rp, "expected at most " + most + " " + nouns + " in a row, got " + std::to_string(rj.size()));
      m.cols = static_cast<int>(rj.size());
      m.rows = static_cast<int>(rows.size());
      m.values.reserve(static_cast<std::size_t>(m.cols) * rows.size());
    } else if (rj.size() != static_cast<std::size_t>(m.cols)) {
      fail(rp, "expected " + std::to_string(m.cols) + " " + nouns + ", as in row 0, got " + std::to_string(rj.size()));
    }
    for (std::size_t c = 0; c < rj.size(); ++c) m.values.push_back(static_cast<float>(number(rj[c], rp / c)));
  }
  return m;
}

void Resolver::heightMap(const Json& j, const Path& p) {
  Lattice l = lattice(j, p, "heights", "height", "heights");
  HeightMap& m = spec_.terrain.heightMap;
  m.origin = l.origin;
  m.cell = l.cell;
  m.cols = l.cols;
  m.rows = l.rows;
  m.heights = std::move(l.values);
}

void Resolver::discomfortMap(const Json& j, const Path& p) {
  Lattice l = lattice(j, p, "values", "value", "values");
  DiscomfortMap& m = spec_.terrain.discomfortMap;
  m.origin = l.origin;
  m.cell = l.cell;
  m.cols = l.cols;
  m.rows = l.rows;
  m.values = std::move(l.values);
}

SceneSpec Resolver::run() {
  const Path top;
  object(root_, top, detail::sceneKeys(""));
  if (root_.contains("name")) spec_.name = string(root_["name"], top / "name");
  if (root_.contains("description")) spec_.description = string(root_["description"], top / "description");
  if (root_.contains("units")) spec_.units = string(root_["units"], top / "units");
  if (root_.contains("knobs")) knobs(root_["knobs"], top / "knobs");
  else knobs_.clear();
  settings(root_.contains("settings") ? root_["settings"] : Json(), top / "settings");
  if (root_.contains("duration")) {
    spec_.duration = positive(root_["duration"], top / "duration");
    if (spec_.duration > 1e9) fail(top / "duration", "expected at most 1e9 s");
  }
  if (root_.contains("agentDefaults")) {
    const Json& d = object(root_["agentDefaults"], top / "agentDefaults", detail::sceneKeys("/agentDefaults"));
    defaults_ = props(d, top / "agentDefaults", defaults_);
  }
  geometry();
  measurements();
  verify();
  if (root_.contains("routes")) routes(root_["routes"], top / "routes");
  if (root_.contains("streams")) {
    const Path p = top / "streams";
    const Json& arr = array(root_["streams"], p);
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const Json& o = object(arr[i], p / i, detail::sceneKeys("/streams/#"));
      if (!o.contains("group") || !o.contains("velocity")) fail(p / i, "expected {\"group\": g, \"velocity\": [vx, vy]}");
      spec_.streams.emplace_back(static_cast<int>(integer(o["group"], p / i / "group")), point(o["velocity"], p / i / "velocity"));
    }
  }
  if (root_.contains("agents")) agents(root_["agents"], top / "agents");
  if (root_.contains("generators")) generators(root_["generators"], top / "generators");
  if (root_.contains("sources")) sources(root_["sources"], top / "sources");
  if (root_.contains("sinks")) sinks(root_["sinks"], top / "sinks");
  if (root_.contains("targets")) targets(root_["targets"], top / "targets");
  derivedTargets();
  if (root_.contains("discomfort")) discomfort(root_["discomfort"], top / "discomfort");
  if (root_.contains("hills")) hills(root_["hills"], top / "hills");
  if (root_.contains("heightMap")) heightMap(root_["heightMap"], top / "heightMap");
  if (root_.contains("discomfortMap")) discomfortMap(root_["discomfortMap"], top / "discomfortMap");
  if (root_.contains("speedZones")) speedZones(root_["speedZones"], top / "speedZones");
  if (root_.contains("stairs")) stairs(root_["stairs"], top / "stairs");
  return std::move(spec_);
}

}  // namespace

SceneSpec resolveScene(const SceneJson& root, std::vector<Knob>& knobs,
                       const std::map<std::string, std::string, std::less<>>& overrides, std::size_t maxAgents,
                       const SceneFiles& files) {
  return Resolver(root, knobs, overrides, maxAgents, files).run();
}

std::optional<std::string> planFilePath(const std::string& name, const std::string& sceneFile, std::string* why) {
  const auto refuse = [&](std::string text) {
    *why = std::move(text);
    return std::nullopt;
  };
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos)
    return refuse("expected a path relative to the scene's folder, got \"" + name + "\"");
  for (std::size_t b = 0; b <= name.size();) {
    const std::size_t e = std::min(name.find('/', b), name.size());
    if (name.compare(b, e - b, "..") == 0) return refuse("\"" + name + "\" leaves the scene's folder (\"..\")");
    b = e + 1;
  }
  if (!name.ends_with(".wkt") && !name.ends_with(".geojson") && !name.ends_with(".json"))
    return refuse("expected a .wkt, .geojson or .json file, got \"" + name + "\"");
  const std::size_t slash = sceneFile.find_last_of('/');
  return slash == std::string::npos ? name : sceneFile.substr(0, slash + 1) + name;
}

void readSceneFiles(const SceneJson& root, const std::string& sceneFile, SceneFiles* files) {
  if (!root.is_object() || !root.contains("geometry") || !root["geometry"].is_object()) return;
  const Json& g = root["geometry"];
  if (!g.contains("file") || !g["file"].is_string() || g.contains("wkt") || g.contains("geojson"))
    return;  // the resolver says what is wrong
  const Path p = Path{} / "geometry" / "file";
  const std::string name = g["file"].get<std::string>();
  std::string why;
  const std::optional<std::string> found = planFilePath(name, sceneFile, &why);
  if (!found) fail(p, why);
  const std::string& path = *found;
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) > (std::uintmax_t{64} << 20) && !ec) fail(p, path + ": larger than 64 MiB");
  std::optional<std::string> text = readFile(path, &why);
  if (!text) fail(p, why);
  (*files)[name] = std::move(*text);
}

}  // namespace throng::detail
