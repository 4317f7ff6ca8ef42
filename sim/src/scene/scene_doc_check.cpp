// What the editor reads off a scene document (scene_doc.hpp): every
// element's geometry at the knobs' current values (shapes), the checker
// (checkDoc) and the inspector's fields (fieldsOf).
//
// The checker's blocking problems are what the loader refuses: the loader's
// own message at its pointer first, then the ones it would meet later (it
// stops at the first), found here on the document: a knob's default out of
// its range, an expression that does not evaluate (an unknown knob), a
// walker of "agents" inside an obstacle or across a wall, a gate of zero
// length. Its warnings are what loads but will not work: a goal a walker
// cannot stand on, a goal region partly or wholly in obstacles, a source
// with no free spot, and any problem the loader finds with one knob at an
// end of its range (a door so narrow that its gate vanishes, a wall moved
// onto a walker).
#include <algorithm>
#include <cmath>
#include <span>

#include "scene/plan_text.hpp"
#include "scene/resolve.hpp"
#include "scene/scene_doc_internal.hpp"
#include "scene/scene_internal.hpp"
#include "throng/scene_doc.hpp"

namespace throng {

using namespace docdetail;

namespace {

std::string num(double v) { return formatNumber(tidy(v)); }
std::string at(Vec2 p) {
  std::string s = "(";  // appended: GCC 12 warns (-Wrestrict) on "(" + std::string
  s += num(p.x);
  s += ", ";
  s += num(p.y);
  return s + ")";
}

const std::vector<DocValue>& itemsOf(const DocValue* v) {
  static const std::vector<DocValue> none;
  return v && v->kind() == DocValue::Kind::array ? v->items() : none;
}

const std::vector<std::pair<std::string, DocValue>>& membersOf(const DocValue* v) {
  static const std::vector<std::pair<std::string, DocValue>> none;
  return v && v->kind() == DocValue::Kind::object ? v->members() : none;
}

std::string idx(const std::string& base, std::size_t i) { return base + "/" + std::to_string(i); }

}  // namespace

// ---- shapes -------------------------------------------------------------------------

std::vector<DocShape> shapes(const SceneDoc& doc) {
  const Eval e(doc);
  const DocValue& root = doc.root();
  std::vector<DocShape> out;
  auto add = [&](std::string pointer, DocShapeKind kind, std::vector<Vec2> pts, std::vector<std::string> vps, bool closed,
                 float radius = 0) {
    DocShape s;
    s.pointer = std::move(pointer);
    s.kind = kind;
    s.points = std::move(pts);
    s.vertexPointers = std::move(vps);
    s.vertexPointers.resize(s.points.size());
    s.closed = closed;
    s.radius = radius;
    out.push_back(std::move(s));
  };
  auto rect = [&](const std::string& pointer, DocShapeKind kind, const DocValue* v) {
    if (const auto r = e.rect(v)) add(pointer, kind, rectCorners(*r), {}, true);
  };
  auto outline = [&](const std::string& pointer, const std::string& listPointer, DocShapeKind kind, const DocValue* v,
                     bool closed) {
    const auto pts = e.points(v);
    if (!pts) return;
    std::vector<std::string> vps;
    for (std::size_t k = 0; k < pts->size(); ++k) vps.push_back(idx(listPointer, k));
    add(pointer, kind, *pts, std::move(vps), closed);
  };
  auto goals = [&](const std::string& p, const DocValue& elem, std::optional<Vec2> start) {
    if (const auto g = e.point(elem.find("goal"))) add(p + "/goal", DocShapeKind::goal, {*g}, {p + "/goal"}, false);
    rect(p + "/goalRegion", DocShapeKind::goal, elem.find("goalRegion"));
    if (start)
      if (const auto o = e.point(elem.find("goalOffset"))) add(p + "/goalOffset", DocShapeKind::goal, {*start + *o}, {}, false);
  };
  auto lattice = [&](const std::string& p, DocShapeKind kind, const DocValue& m, const char* key) {
    const DocValue* o = m.find("origin");
    const std::optional<Vec2> origin = o ? e.point(o) : std::optional<Vec2>(Vec2{});
    const std::optional<double> c = e.value(m.find("cell"));
    const auto& rows = itemsOf(m.find(key));
    if (!origin || !c || rows.empty()) return;
    const float w = static_cast<float>(*c * static_cast<double>(itemsOf(&rows[0]).size() - (itemsOf(&rows[0]).empty() ? 0 : 1)));
    const float h = static_cast<float>(*c * static_cast<double>(rows.size() - 1));
    std::vector<Vec2> pts = rectCorners(Rect{origin->x, origin->y, w, h});
    add(p, kind, std::move(pts), {p + "/origin"}, true);
  };
  for (const auto& top : root.members()) {
    const std::string& key = top.first;
    const DocValue& v = top.second;
    const std::string base = joinPointer({key});
    if (key == "agents") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        const DocValue& a = v.items()[i];
        const std::string p = idx(base, i);
        const auto start = e.point(a.find("at"));
        if (start)
          add(p, DocShapeKind::agent, {*start}, {p + "/at"}, false, static_cast<float>(walkerRadius(root, a, e)));
        goals(p, a, start);
      }
    } else if (key == "generators") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        const DocValue& g = v.items()[i];
        const std::string p = idx(base, i);
        const DocValue* type = g.find("type");
        const std::string t = type && type->kind() == DocValue::Kind::string ? type->asString() : "";
        if (t == "fill") {
          rect(p, DocShapeKind::generator, g.find("region"));
        } else if (t == "ring") {
          const DocValue* c = g.find("center");
          const auto center = c ? e.point(c) : std::optional<Vec2>(Vec2{});
          const auto r = e.value(g.find("ringRadius"));
          if (center && r) add(p, DocShapeKind::generator, {*center}, {p + "/center"}, false, static_cast<float>(*r));
        } else if (t == "grid") {
          const auto o = e.point(g.find("origin"));
          const auto rows = e.value(g.find("rows")), cols = e.value(g.find("cols"));
          const DocValue* sp = g.find("spacing");
          std::optional<Vec2> d = e.point(sp);
          if (!d)
            if (const auto s = e.value(sp)) d = Vec2{static_cast<float>(*s), static_cast<float>(*s)};
          if (o && rows && cols && d) {
            const float w = d->x * static_cast<float>(std::max(0.0, std::round(*cols) - 1));
            const float h = d->y * static_cast<float>(std::max(0.0, std::round(*rows) - 1));
            add(p, DocShapeKind::generator, rectCorners(Rect{o->x, o->y, w, h}), {p + "/origin"}, true);
          }
        }
        goals(p, g, std::nullopt);
      }
    } else if (key == "sources") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        rect(idx(base, i), DocShapeKind::source, v.items()[i].find("region"));
        goals(idx(base, i), v.items()[i], std::nullopt);
      }
    } else if (key == "sinks") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) rect(idx(base, i), DocShapeKind::sink, v.items()[i].find("region"));
    } else if (key == "obstacles" || key == "discomfort" || key == "speedZones" || key == "stairs") {
      const DocShapeKind kind = key == "obstacles"    ? DocShapeKind::obstacle
                                : key == "discomfort" ? DocShapeKind::discomfort
                                : key == "speedZones" ? DocShapeKind::speedZone
                                                      : DocShapeKind::stairs;
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        const DocValue& o = v.items()[i];
        const std::size_t before = out.size();
        if (o.find("rect")) rect(idx(base, i), kind, o.find("rect"));
        else outline(idx(base, i), idx(base, i) + "/outline", kind, o.find("outline"), true);
        if (kind == DocShapeKind::stairs && out.size() > before)
          if (const auto up = e.point(o.find("up"))) out.back().up = *up;
      }
    } else if (key == "walls") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) outline(idx(base, i), idx(base, i), DocShapeKind::wall, &v.items()[i], false);
    } else if (key == "geometry") {
      // The floor plan as the resolver reads it (outlines and lines are
      // walls, holes obstacles), drawn but never dragged: a plan is edited
      // where it was drawn, and its text is kept as written.
      std::string text, why;
      detail::PlanFormat format = detail::PlanFormat::Wkt;
      bool have = false;
      const DocValue *wkt = v.find("wkt"), *geojson = v.find("geojson"), *file = v.find("file");
      if (wkt && wkt->kind() == DocValue::Kind::string) {
        text = wkt->asString(), have = true;
      } else if (geojson && geojson->kind() == DocValue::Kind::object) {
        text = jsonText(*geojson), format = detail::PlanFormat::GeoJson, have = true;
      } else if (file && file->kind() == DocValue::Kind::string) {
        if (const auto path = detail::planFilePath(file->asString(), doc.file(), &why))
          if (auto t = detail::readFile(*path, &why)) {
            text = std::move(*t), have = true;
            format = detail::planFormatOf(*path);
          }
      }
      detail::PlanShapes plan;
      if (have && detail::readPlan(text, format, &plan, &why)) {
        for (const WalkableArea& a : plan.areas) {
          add(base, DocShapeKind::wall, a.outline, {}, true);
          for (const std::vector<Vec2>& h : a.holes) add(base, DocShapeKind::obstacle, h, {}, true);
        }
        for (const std::vector<Vec2>& l : plan.lines) add(base, DocShapeKind::wall, l, {}, false);
      }
    } else if (key == "routes") {
      for (const auto& r : membersOf(&v)) {
        const std::string p = base + "/" + escapeToken(r.first);
        const auto& gates = itemsOf(r.second.find("gates"));
        for (std::size_t k = 0; k < gates.size(); ++k) outline(idx(p + "/gates", k), idx(p + "/gates", k), DocShapeKind::gate, &gates[k], false);
        goals(p, r.second, std::nullopt);
      }
    } else if (key == "targets") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        const DocValue& t = v.items()[i];
        if (t.find("region")) rect(idx(base, i), DocShapeKind::target, t.find("region"));
        const auto& regions = itemsOf(t.find("regions"));
        for (std::size_t k = 0; k < regions.size(); ++k) rect(idx(idx(base, i) + "/regions", k), DocShapeKind::target, &regions[k]);
      }
    } else if (key == "hills") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        const DocValue& h = v.items()[i];
        const auto c = e.point(h.find("at"));
        const auto r = e.value(h.find("radius"));
        if (c && r) add(idx(base, i), DocShapeKind::hill, {*c}, {idx(base, i) + "/at"}, false, static_cast<float>(*r));
      }
    } else if (key == "measurements") {
      for (std::size_t i = 0; i < itemsOf(&v).size(); ++i) {
        const DocValue& m = v.items()[i];
        const std::string p = idx(base, i);
        if (m.find("line")) outline(p, p + "/line", DocShapeKind::measureLine, m.find("line"), false);
        else if (m.find("rect")) rect(p, DocShapeKind::measureArea, m.find("rect"));
        else outline(p, p + "/outline", DocShapeKind::measureArea, m.find("outline"), true);
      }
    } else if (key == "heightMap") {
      lattice(base, DocShapeKind::heightMap, v, "heights");
    } else if (key == "discomfortMap") {
      lattice(base, DocShapeKind::discomfortMap, v, "values");
    }
  }
  return out;
}

// ---- the checker -----------------------------------------------------------------------

namespace {

struct LoaderMessage {
  std::string pointer, message;
};

/// "FILE:LINE: /pointer: message" into its pointer and message.
LoaderMessage splitLoaderMessage(const std::string& m, const std::string& file) {
  LoaderMessage out{"", m};
  if (m.compare(0, file.size() + 1, file + ":") != 0) return out;
  std::size_t i = file.size() + 1;
  while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i]))) ++i;
  if (m.compare(i, 2, ": ") != 0) return out;
  i += 2;
  out.message = m.substr(i);
  if (i < m.size() && m[i] == '/') {
    const std::size_t end = m.find(": ", i);
    if (end != std::string::npos) {
      out.pointer = m.substr(i, end - i);
      if (out.pointer == "/") out.pointer.clear();
      out.message = m.substr(end + 2);
    }
  }
  return out;
}

/// Which obstacle or wall a disc reaches into, for messages; "" when clear.
std::string intruded(const Geometry& g, Vec2 c, float r) {
  const float tol = 1e-4f * r;
  for (std::size_t k = 0; k < g.outlines.size(); ++k)
    if (detail::discIntrusion(std::span(&g.outlines[k], 1), {}, c, r) > tol) return "obstacle " + g.outlinePointers[k];
  for (std::size_t k = 0; k < g.walls.size(); ++k)
    if (detail::discIntrusion({}, std::span(&g.walls[k], 1), c, r) > tol) return "wall " + g.wallPointers[k];
  return "";
}

}  // namespace

namespace docdetail {

std::vector<DocProblem> problems(const SceneDoc& doc, bool warnings) {
  const DocValue& root = doc.root();
  const Eval e(doc);
  std::vector<DocProblem> out;
  const std::string file = doc.file().empty() ? "untitled.json" : doc.file();
  std::string loaderPointer;
  bool loads = true;
  {
    std::string err;
    if (!doc.build(&err)) {
      loads = false;
      const LoaderMessage m = splitLoaderMessage(err, file);
      loaderPointer = m.pointer;
      out.push_back({m.pointer, m.message, true});
    }
  }
  auto add = [&](std::string pointer, std::string message, bool blocking) {
    if (blocking && !loads && pointer == loaderPointer) return;  // the loader said it
    for (const DocProblem& p : out)
      if (p.pointer == pointer && p.message == message) return;
    out.push_back({std::move(pointer), std::move(message), blocking});
  };

  // What the loader would refuse after its first refusal.
  for (const auto& k : membersOf(root.find("knobs"))) {
    const DocValue *lo = k.second.find("min"), *hi = k.second.find("max"), *def = k.second.find("default");
    if (!lo || !hi || !def || lo->kind() != DocValue::Kind::number || hi->kind() != DocValue::Kind::number ||
        def->kind() != DocValue::Kind::number)
      continue;
    if (!(def->asNumber() >= lo->asNumber() && def->asNumber() <= hi->asNumber()))
      add("/knobs/" + escapeToken(k.first) + "/default",
          "default " + num(def->asNumber()) + " is outside [" + num(lo->asNumber()) + ", " + num(hi->asNumber()) + "]",
          true);
  }
  Tokens walk;
  forEachExpression(root, walk, [&](const Tokens& t, const std::string& expr) {
    if (!t.empty() && t[0] == "knobs") return;  // the loader reads no expression there
    std::string why;
    if (!e.expression(expr, &why)) add(joinPointer(t), why, true);
  });
  const Geometry geo = geometryOf(doc, e);
  const auto& agents = itemsOf(root.find("agents"));
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const auto c = e.point(agents[i].find("at"));
    if (!c) continue;
    const auto r = static_cast<float>(walkerRadius(root, agents[i], e));
    const std::string hit = intruded(geo, *c, r);
    if (!hit.empty())
      add(idx("/agents", i), "walker at " + at(*c) + " with radius " + num(r) + (hit[0] == 'w' ? " crosses " : " is inside ") + hit,
          true);
  }
  for (const auto& r : membersOf(root.find("routes"))) {
    const auto& gates = itemsOf(r.second.find("gates"));
    for (std::size_t k = 0; k < gates.size(); ++k) {
      const auto ends = e.points(&gates[k]);
      if (ends && ends->size() == 2 && (*ends)[0] == (*ends)[1])
        add(idx("/routes/" + escapeToken(r.first) + "/gates", k), "a gate of zero length at " + at((*ends)[0]), true);
    }
  }
  if (!warnings) return out;

  // What loads but will not work.
  const DocValue* defaults = root.find("agentDefaults");
  const double defaultRadius = defaults ? e.value(defaults->find("radius")).value_or(0.25) : 0.25;
  auto goalPoint = [&](const std::string& p, std::optional<Vec2> g, double radius) {
    if (!g) return;
    const auto r = static_cast<float>(radius);
    const std::string hit = intruded(geo, *g, r);
    if (!hit.empty())
      add(p, "goal " + at(*g) + (hit[0] == 'w' ? " is on " : " is inside ") + hit + ": a walker of radius " + num(r) +
                 " cannot stand there",
          false);
  };
  auto goalRegion = [&](const std::string& p, const DocValue* v, double radius) {
    const auto reg = e.rect(v);
    if (!reg) return;
    constexpr int kSide = 9;
    int blocked = 0;
    for (int a = 0; a < kSide; ++a)
      for (int b = 0; b < kSide; ++b) {
        const Vec2 q{reg->x + reg->width * static_cast<float>(a) / (kSide - 1),
                     reg->y + reg->height * static_cast<float>(b) / (kSide - 1)};
        blocked += intruded(geo, q, static_cast<float>(radius)).empty() ? 0 : 1;
      }
    if (blocked == kSide * kSide)
      add(p, "the goal region lies inside obstacles or on walls: no walker can reach its goal", false);
    else if (blocked > 0)
      add(p, "part of the goal region (" + std::to_string(blocked * 100 / (kSide * kSide)) +
                 "%) is inside an obstacle or on a wall: some walkers' goals will be unreachable",
          false);
  };
  for (const char* key : {"agents", "generators", "sources"}) {
    const auto& list = itemsOf(root.find(key));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string p = idx(std::string("/") + key, i);
      const double r = walkerRadius(root, list[i], e);
      goalPoint(p + "/goal", e.point(list[i].find("goal")), r);
      goalRegion(p + "/goalRegion", list[i].find("goalRegion"), r);
      if (std::string(key) == "agents") {
        const auto start = e.point(list[i].find("at")), off = e.point(list[i].find("goalOffset"));
        if (start && off) goalPoint(p + "/goalOffset", *start + *off, r);
      }
    }
  }
  for (const auto& r : membersOf(root.find("routes"))) {
    const std::string p = "/routes/" + escapeToken(r.first);
    goalPoint(p + "/goal", e.point(r.second.find("goal")), defaultRadius);
    goalRegion(p + "/goalRegion", r.second.find("goalRegion"), defaultRadius);
  }
  // A source places a walker at a spot its disc fits in the region clear of
  // obstacles and walls (SceneRun::place): is there one at all?
  const auto& sources = itemsOf(root.find("sources"));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const auto reg = e.rect(sources[i].find("region"));
    const auto r = static_cast<float>(walkerRadius(root, sources[i], e));
    if (!reg || reg->width < 2 * r || reg->height < 2 * r) continue;  // the loader's to refuse
    constexpr int kSide = 33;
    bool free = false;
    for (int a = 0; a < kSide && !free; ++a)
      for (int b = 0; b < kSide && !free; ++b) {
        const Vec2 q{reg->x + r + (reg->width - 2 * r) * static_cast<float>(a) / (kSide - 1),
                     reg->y + r + (reg->height - 2 * r) * static_cast<float>(b) / (kSide - 1)};
        free = detail::discIntrusion(geo.outlines, geo.walls, q, r) <= 0;
      }
    if (!free)
      add(idx("/sources", i) + "/region",
          "no free spot in the region for a walker of radius " + num(r) + ": the source never emits", false);
  }
  // Each knob at the ends of its range, the others where they are.
  const auto& knobs = membersOf(root.find("knobs"));
  if (loads && knobs.size() <= 16) {
    for (const auto& k : knobs) {
      const DocValue *lo = k.second.find("min"), *hi = k.second.find("max");
      if (!lo || !hi) continue;
      for (const bool low : {true, false}) {
        const double v = (low ? lo : hi)->asNumber();
        const auto now = doc.knobValues().find(k.first);
        if (now != doc.knobValues().end() && now->second == v) continue;
        SceneDoc probe = doc;
        SceneDocAccess::knobValues(probe)[k.first] = v;
        std::string err;
        if (probe.build(&err)) continue;
        LoaderMessage m = splitLoaderMessage(err, file);
        const std::string tail = " (with " + k.first + " = " + formatNumber(v) + ")";
        if (m.message.size() > tail.size() && m.message.ends_with(tail)) m.message.resize(m.message.size() - tail.size());
        add(m.pointer, "with " + k.first + " = " + formatNumber(v) + " (its " + (low ? "min" : "max") + "): " + m.message,
            false);
      }
    }
  }
  return out;
}

}  // namespace docdetail

std::vector<DocProblem> checkDoc(const SceneDoc& doc) { return problems(doc, true); }

// ---- the inspector's fields ------------------------------------------------------------

namespace {

constexpr const char* kLength = "world units";
constexpr const char* kSpeed = "world units/s";
constexpr const char* kAccel = "world units/s²";

class FieldList {
 public:
  explicit FieldList(const SceneDoc& d) : doc_(d), e_(d) {}

  /// A number at `pointer`; when absent, `fallback` (the value it takes)
  /// or no number.
  void number(std::string name, const std::string& pointer, std::string unit, double min, double max, bool integer = false,
              std::optional<double> fallback = std::nullopt) {
    DocField f;
    f.name = std::move(name);
    f.pointer = pointer;
    f.unit = std::move(unit);
    f.min = min;
    f.max = max;
    f.integer = integer;
    if (const DocValue* v = doc_.root().at(pointer)) {
      std::string why;
      f.number = e_.number(v, &why);
      if (!f.number) {
        f.text = v->kind() == DocValue::Kind::string ? v->asString() : "";
        if (isKnobRef(*v)) f.text = v->members()[0].second.asString();
      }
    } else {
      f.inFile = false;
      if (fallback) f.number = DocNumber{DocNumber::Form::plain, *fallback, ""};
    }
    out.push_back(std::move(f));
  }
  void point(const std::string& name, const std::string& pointer, std::optional<Vec2> fallback = std::nullopt) {
    number(name + " x", pointer + "/0", kLength, -1e12, 1e12, false,
           fallback ? std::optional<double>(fallback->x) : std::nullopt);
    number(name + " y", pointer + "/1", kLength, -1e12, 1e12, false,
           fallback ? std::optional<double>(fallback->y) : std::nullopt);
  }
  void rect(const std::string& name, const std::string& pointer) {
    const std::string pre = name.empty() ? "" : name + " ";
    number(pre + "x", pointer + "/0", kLength, -1e12, 1e12);
    number(pre + "y", pointer + "/1", kLength, -1e12, 1e12);
    number(pre + "width", pointer + "/2", kLength, 0, 1e12);
    number(pre + "height", pointer + "/3", kLength, 0, 1e12);
  }
  void text(std::string name, const std::string& pointer, std::string fallback = "") {
    DocField f;
    f.name = std::move(name);
    f.pointer = pointer;
    const DocValue* v = doc_.root().at(pointer);
    if (v && v->kind() == DocValue::Kind::string) {
      f.text = v->asString();
    } else if (v && v->kind() == DocValue::Kind::boolean) {
      f.text = v->asBool() ? "true" : "false";
    } else {
      f.inFile = false;
      f.text = std::move(fallback);
    }
    out.push_back(std::move(f));
  }
  /// PROPS: radius, top speed, group, goal, goal region, route.
  void props(const std::string& p, const DocValue& elem) {
    const DocValue* defaults = doc_.root().find("agentDefaults");
    const auto fromDefaults = [&](const char* key, double otherwise) {
      const auto v = defaults ? e_.value(defaults->find(key)) : std::nullopt;
      return v.value_or(otherwise);
    };
    number("radius", p + "/radius", kLength, 0, 1e12, false, fromDefaults("radius", 0.25));
    number("maxSpeed", p + "/maxSpeed", kSpeed, 0, 1e12, false, fromDefaults("maxSpeed", 1.3));
    if (elem.find("maxAccel")) number("maxAccel", p + "/maxAccel", kAccel, 0, 1e30);
    if (elem.find("maxDecel")) number("maxDecel", p + "/maxDecel", kAccel, 0, 1e30);
    const DocValue* g = elem.find("group");
    if (g && g->kind() == DocValue::Kind::array) {
      for (std::size_t k = 0; k < g->items().size(); ++k)
        number("group " + std::to_string(k), idx(p + "/group", k), "", -2147483648.0, 2147483647.0, true);
    } else {
      number("group", p + "/group", "", -2147483648.0, 2147483647.0, true, fromDefaults("group", 0));
    }
    if (elem.find("goal")) point("goal", p + "/goal");
    if (elem.find("goalOffset")) {
      number("goalOffset x", p + "/goalOffset/0", kLength, -1e12, 1e12);
      number("goalOffset y", p + "/goalOffset/1", kLength, -1e12, 1e12);
    }
    if (elem.find("goalRegion")) rect("goalRegion", p + "/goalRegion");
    const DocValue* r = elem.find("route");
    if (r && r->kind() == DocValue::Kind::array) {
      for (std::size_t k = 0; k < r->items().size(); ++k) text("route " + std::to_string(k), idx(p + "/route", k));
    } else {
      text("route", p + "/route");
    }
  }
  void vertices(const std::string& p, const DocValue* list) {
    for (std::size_t k = 0; k < itemsOf(list).size(); ++k) point("point " + std::to_string(k), idx(p, k));
  }

  std::vector<DocField> out;

 private:
  const SceneDoc& doc_;
  Eval e_;
};

}  // namespace

std::vector<DocField> fieldsOf(const SceneDoc& doc, std::string_view pointer) {
  const std::optional<Tokens> tokens = splitPointer(pointer);
  if (!tokens) return {};
  const std::string p(pointer), pattern = patternOf(*tokens);
  const DocValue& root = doc.root();
  const DocValue* v = root.at(pointer);
  FieldList f(doc);
  if (pattern.empty()) {
    f.text("name", "/name");
    f.text("description", "/description");
    f.text("units", "/units", "m");
    f.text("model", root.find("settings") && root.find("settings")->find("model") ? "/settings/model" : "/model", "orca");
    f.text("routing", root.find("settings") && root.find("settings")->find("routing") ? "/settings/routing" : "/routing",
           "goals");
    f.number("duration", "/duration", "s", 0, 1e9, false, 30.0);
    return f.out;
  }
  if (pattern == "/settings") {
    const Settings defaults;
    for (const SettingInfo& i : settingsTable()) {
      const std::string sp = "/settings/" + std::string(i.name);
      if (i.kind == SettingKind::Choice) {
        const bool top = !root.at(sp) && root.find(i.name);
        f.text(std::string(i.name), top ? "/" + std::string(i.name) : sp, getSettingText(defaults, i.name));
        f.out.back().unit = std::string(i.unit);
        continue;
      }
      const bool whole = i.kind != SettingKind::Real;
      const double lo = i.kind == SettingKind::Seed ? 0 : i.limits.min;
      const double hi = i.kind == SettingKind::Seed ? 18446744073709551615.0 : i.limits.max;
      f.number(std::string(i.name), sp, std::string(i.unit), lo, hi, whole, getSetting(defaults, i.name));
    }
    return f.out;
  }
  if (!v) return {};
  if (slotOf(pattern) == Slot::point) {
    f.point("point", p);
    return f.out;
  }
  if (pattern == "/knobs/*") {
    f.number("min", p + "/min", "", -1e300, 1e300);
    f.number("max", p + "/max", "", -1e300, 1e300);
    f.number("default", p + "/default", "", -1e300, 1e300);
    f.text("help", p + "/help");
    f.text("integer", p + "/integer", "false");
  } else if (pattern == "/agentDefaults") {
    f.number("radius", p + "/radius", kLength, 0, 1e12, false, 0.25);
    f.number("maxSpeed", p + "/maxSpeed", kSpeed, 0, 1e12, false, 1.3);
    if (v->find("maxAccel")) f.number("maxAccel", p + "/maxAccel", kAccel, 0, 1e30);
    if (v->find("maxDecel")) f.number("maxDecel", p + "/maxDecel", kAccel, 0, 1e30);
    f.number("group", p + "/group", "", -2147483648.0, 2147483647.0, true, 0.0);
  } else if (pattern == "/agents/#") {
    f.point("at", p + "/at");
    f.props(p, *v);
  } else if (pattern == "/generators/#") {
    f.text("type", p + "/type");
    const DocValue* type = v->find("type");
    const std::string t = type && type->kind() == DocValue::Kind::string ? type->asString() : "";
    if (t == "ring") {
      f.number("count", p + "/count", "walkers", 0, 1e7, true);
      f.point("center", p + "/center", Vec2{});
      f.number("ringRadius", p + "/ringRadius", kLength, 0, 1e12);
    } else if (t == "grid") {
      f.point("origin", p + "/origin");
      f.number("rows", p + "/rows", "walkers", 0, 1e7, true);
      f.number("cols", p + "/cols", "walkers", 0, 1e7, true);
      const DocValue* sp = v->find("spacing");
      if (sp && sp->kind() == DocValue::Kind::array) {
        f.number("spacing x", p + "/spacing/0", kLength, -1e12, 1e12);
        f.number("spacing y", p + "/spacing/1", kLength, -1e12, 1e12);
      } else {
        f.number("spacing", p + "/spacing", kLength, 0, 1e12);
      }
    } else if (t == "fill") {
      f.rect("region", p + "/region");
      f.number("density", p + "/density", "walkers per square unit", 0, 1e12);
    }
    f.props(p, *v);
  } else if (pattern == "/sources/#") {
    f.rect("region", p + "/region");
    f.number("rate", p + "/rate", "walkers/s", 0, kMaxSourceRate);
    f.number("start", p + "/start", "s", 0, 1e12, false, 0.0);
    f.number("stop", p + "/stop", "s", 0, 1e12);
    f.number("max", p + "/max", "walkers", 0, 9e15, true);
    f.props(p, *v);
  } else if (pattern == "/sinks/#") {
    f.rect("region", p + "/region");
    for (std::size_t k = 0; k < itemsOf(v->find("groups")).size(); ++k)
      f.number("group " + std::to_string(k), idx(p + "/groups", k), "", -2147483648.0, 2147483647.0, true);
  } else if (pattern == "/measurements/#") {
    f.text("name", p + "/name");
    if (v->find("line")) f.vertices(p + "/line", v->find("line"));
    else if (v->find("rect")) f.rect("", p + "/rect");
    else f.vertices(p + "/outline", v->find("outline"));
  } else if (pattern == "/obstacles/#" || pattern == "/discomfort/#" || pattern == "/speedZones/#" ||
             pattern == "/stairs/#") {
    if (v->find("rect")) f.rect("", p + "/rect");
    else f.vertices(p + "/outline", v->find("outline"));
    if (pattern == "/discomfort/#") f.number("value", p + "/value", "", -1e12, 1e12, false, 1.0);
    if (pattern == "/speedZones/#") f.number("factor", p + "/factor", "", 1e-30, 1);
    if (pattern == "/stairs/#") {
      f.number("up x", p + "/up/0", "", -1e12, 1e12);
      f.number("up y", p + "/up/1", "", -1e12, 1e12);
      f.number("upSpeed", p + "/upSpeed", "units/s", 1e-30, 1e12);
      f.number("downSpeed", p + "/downSpeed", "units/s", 1e-30, 1e12);
    }
  } else if (pattern == "/walls/#") {
    f.vertices(p, v);
  } else if (pattern == "/routes/*") {
    const auto& gates = itemsOf(v->find("gates"));
    for (std::size_t k = 0; k < gates.size(); ++k) {
      f.point("gate " + std::to_string(k) + " a", idx(p + "/gates", k) + "/0");
      f.point("gate " + std::to_string(k) + " b", idx(p + "/gates", k) + "/1");
    }
    if (v->find("goal")) f.point("goal", p + "/goal");
    if (v->find("goalRegion")) f.rect("goalRegion", p + "/goalRegion");
  } else if (pattern == "/routes/*/gates/#") {
    f.point("a", p + "/0");
    f.point("b", p + "/1");
  } else if (pattern == "/targets/#") {
    f.text("name", p + "/name", "target " + tokens->back());
    if (v->find("region")) f.rect("region", p + "/region");
    for (std::size_t k = 0; k < itemsOf(v->find("regions")).size(); ++k)
      f.rect("region " + std::to_string(k), idx(p + "/regions", k));
    if (v->find("group")) f.number("group", p + "/group", "", -2147483648.0, 2147483647.0, true);
    for (std::size_t k = 0; k < itemsOf(v->find("groups")).size(); ++k)
      f.number("group " + std::to_string(k), idx(p + "/groups", k), "", -2147483648.0, 2147483647.0, true);
    f.text("route", p + "/route");
  } else if (slotOf(pattern) == Slot::rect) {
    f.rect("", p);
  } else if (pattern == "/hills/#") {
    f.point("at", p + "/at");
    f.number("radius", p + "/radius", kLength, 0, 1e12);
    f.number("height", p + "/height", kLength, -1e12, 1e12);
  } else if (pattern == "/heightMap" || pattern == "/discomfortMap") {
    f.point("origin", p + "/origin", Vec2{});
    f.number("cell", p + "/cell", kLength, 0, 1e12);
  } else if (pattern == "/streams/#") {
    f.number("group", p + "/group", "", -2147483648.0, 2147483647.0, true);
    f.number("velocity x", p + "/velocity/0", kSpeed, -1e12, 1e12);
    f.number("velocity y", p + "/velocity/1", kSpeed, -1e12, 1e12);
  }
  return f.out;
}

}  // namespace throng
