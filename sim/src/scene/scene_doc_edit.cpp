// The scene document's edits (scene_doc.hpp): pure functions from a document
// to a new one. Each copies the tree, changes the copy, and ends in finish(),
// which keeps the result only when it builds (loads, and runs at the knobs'
// current values); otherwise the loader's message is the edit's error and
// the caller's document stands, so an edit never makes a file that fails to
// load.
//
// Numbers keep their form: a plain number moved stays plain (the sum's
// rounding noise taken off by tidy()), an expression gains a trailing
// constant or folds the one it has, a knob reference becomes an expression.
// Coordinates from the editor are floats; they are written as the shortest
// decimal of the float (fromFloat), so a click at 3.2 writes 3.2.
#include <algorithm>
#include <cmath>

#include "scene/expression.hpp"
#include "scene/scene_doc_internal.hpp"
#include "throng/scene_doc.hpp"

namespace throng {

using namespace docdetail;

// ---- moving numbers -----------------------------------------------------------------

namespace docdetail {

std::string appendConstant(const std::string& s, double d) {
  using Kind = detail::ExprToken::Kind;
  const std::vector<detail::ExprToken> t = detail::exprTokens(s);
  const std::size_t n = t.size();
  std::string head = s;
  double c = d;
  // A trailing "+ k" or "- k" after an operand is a term of the top-level
  // sum (nothing binds looser), so it can take d into itself.
  if (n >= 3 && t[n - 1].kind == Kind::number && t[n - 2].kind == Kind::op &&
      (s[t[n - 2].begin] == '+' || s[t[n - 2].begin] == '-') &&
      (t[n - 3].kind == Kind::number || t[n - 3].kind == Kind::name || t[n - 3].kind == Kind::close)) {
    const std::optional<double> k =
        detail::evalExpr(s.substr(t[n - 1].begin, t[n - 1].end - t[n - 1].begin), {}, nullptr);  // a number: no knobs
    if (k) {
      c = tidy((s[t[n - 2].begin] == '-' ? -*k : *k) + d);
      head = s.substr(0, t[n - 2].begin);
    }
  } else {
    c = tidy(d);
  }
  while (!head.empty() && head.back() == ' ') head.pop_back();
  if (c == 0) return head;
  return head + (c < 0 ? " - " : " + ") + formatNumber(std::fabs(c));
}

bool shiftNumber(DocValue& v, double d) {
  if (v.kind() == DocValue::Kind::number) {
    if (d != 0) v = DocValue::number(tidy(v.asNumber() + d));
    return true;
  }
  if (v.kind() == DocValue::Kind::string) {
    if (d != 0) v = DocValue::string(appendConstant(v.asString(), d));
    return true;
  }
  if (isKnobRef(v) && v.members()[0].second.kind() == DocValue::Kind::string) {
    if (d != 0) v = DocValue::string(appendConstant(v.members()[0].second.asString(), d));
    return true;
  }
  return false;
}

}  // namespace docdetail

namespace {

DocEdit refuse(std::string why) {
  DocEdit e;
  e.error = std::move(why);
  return e;
}

DocValue& rootOf(SceneDoc& d) { return SceneDocAccess::root(d); }

/// Every edit ends here: the new document when it builds, else the
/// loader's message.
DocEdit finish(SceneDoc next, std::string selected) {
  SceneDocAccess::syncKnobs(next);
  std::string err;
  if (!next.build(&err)) return refuse(err);
  DocEdit e;
  e.doc = std::move(next);
  e.selected = std::move(selected);
  return e;
}

bool finite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }
bool finite(Rect r) { return std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.width) && std::isfinite(r.height); }

/// The top-level array `key`, made where the canonical order puts it.
DocValue& topArray(DocValue& root, std::string_view key) {
  if (!root.find(key)) setMember(root, "", key, DocValue::array());
  return *root.find(key);
}

DocEdit append(const SceneDoc& d, std::string_view key, DocValue element) {
  SceneDoc next = d;
  DocValue& list = topArray(rootOf(next), key);
  if (list.kind() != DocValue::Kind::array) return refuse("/" + std::string(key) + " is not a list");
  list.items().push_back(std::move(element));
  return finish(std::move(next), "/" + std::string(key) + "/" + std::to_string(list.items().size() - 1));
}

/// PROPS of scene.hpp into an element; an error, or "".
std::string writeProps(DocValue& obj, const std::string& pattern, const DocWalkerProps& p, const DocValue& root) {
  if (p.radius) {
    if (!(std::isfinite(*p.radius) && *p.radius > 0)) return "a walker's radius must be positive";
    setMember(obj, pattern, "radius", DocValue::number(tidy(*p.radius)));
  }
  if (p.maxSpeed) {
    if (!(std::isfinite(*p.maxSpeed) && *p.maxSpeed >= 0)) return "a walker's top speed must be >= 0";
    setMember(obj, pattern, "maxSpeed", DocValue::number(tidy(*p.maxSpeed)));
  }
  const DocValue* defaults = root.find("agentDefaults");
  if (p.group != 0 || (defaults && defaults->find("group")))
    setMember(obj, pattern, "group", DocValue::number(p.group));
  if (p.goal && p.goalRegion) return "give a goal or a goal region, not both";
  if (p.goal) {
    if (!finite(*p.goal)) return "the goal must be finite";
    setMember(obj, pattern, "goal", pointValue(*p.goal));
  }
  if (p.goalRegion) {
    if (!finite(*p.goalRegion)) return "the goal region must be finite";
    setMember(obj, pattern, "goalRegion", rectValue(*p.goalRegion));
  }
  if (!p.route.empty()) setMember(obj, pattern, "route", DocValue::string(p.route));
  return "";
}

DocValue pointsValue(const std::vector<Vec2>& pts) {
  std::vector<DocValue> items;
  for (const Vec2 p : pts) items.push_back(pointValue(p));
  return DocValue::array(std::move(items));
}

bool shiftPoint(DocValue& v, double dx, double dy, std::size_t size = 2) {
  if (v.kind() != DocValue::Kind::array || v.items().size() != size) return false;
  return shiftNumber(v.items()[0], dx) && shiftNumber(v.items()[1], dy);
}

/// Shifts what moves of the value at `pattern`; false when nothing there moves.
bool shiftValue(DocValue& v, const std::string& pattern, double dx, double dy) {
  auto each = [&](std::size_t size) {
    if (v.kind() != DocValue::Kind::array) return false;
    for (DocValue& item : v.items())
      if (!shiftPoint(item, dx, dy, size)) return false;
    return true;
  };
  switch (slotOf(pattern)) {
    case Slot::point: return shiftPoint(v, dx, dy);
    case Slot::rect: return shiftPoint(v, dx, dy, 4);
    case Slot::pointList: return each(2);
    case Slot::rectList: return each(4);
    case Slot::gate: return each(2);
    case Slot::gateList:
      if (v.kind() != DocValue::Kind::array) return false;
      for (DocValue& gate : v.items())
        if (!shiftValue(gate, pattern + "/#", dx, dy)) return false;
      return true;
    case Slot::other: break;
  }
  const std::vector<std::string_view>& moving = movingMembers(pattern);
  if (moving.empty() || v.kind() != DocValue::Kind::object) return false;
  // A ring's centre and a map's origin default to [0, 0]: written out to move.
  const DocValue* type = v.find("type");
  const bool ring = type && type->kind() == DocValue::Kind::string && type->asString() == "ring";
  if ((ring || pattern == "/heightMap" || pattern == "/discomfortMap") && !v.find(ring ? "center" : "origin"))
    setMember(v, pattern, ring ? "center" : "origin", pointValue({0, 0}));
  bool moved = false;
  for (const std::string_view key : moving) {
    DocValue* m = v.find(key);
    if (!m) continue;
    if (!shiftValue(*m, pattern + "/" + std::string(key), dx, dy)) return false;
    moved = true;
  }
  return moved;
}

struct Located {
  Tokens tokens;
  std::string pattern;
  DocValue* value = nullptr;   ///< the value at the pointer, or nullptr
  DocValue* parent = nullptr;  ///< its container, or nullptr
};

/// The pointer in `root`: its tokens, pattern, value and container.
std::optional<Located> locate(DocValue& root, std::string_view pointer) {
  std::optional<Tokens> tokens = splitPointer(pointer);
  if (!tokens || tokens->empty()) return std::nullopt;
  Located l;
  l.tokens = std::move(*tokens);
  l.pattern = patternOf(l.tokens);
  Tokens up = l.tokens;
  up.pop_back();
  l.parent = root.at(joinPointer(up));
  l.value = root.at(pointer);
  return l;
}

std::string parentPointer(const Tokens& t) {
  Tokens up = t;
  up.pop_back();
  return joinPointer(up);
}

bool validKnobName(const std::string& n) {
  if (n.empty() || !(std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_')) return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// The first pointer of an expression that names `knob`, and how many do.
std::pair<std::string, std::size_t> usesOf(const DocValue& root, const std::string& knob) {
  std::pair<std::string, std::size_t> out{"", 0};
  Tokens at;
  forEachExpression(root, at, [&](const Tokens& t, const std::string& expr) {
    for (const detail::ExprToken& tok : detail::exprTokens(expr)) {
      if (tok.kind != detail::ExprToken::Kind::name || expr.compare(tok.begin, tok.end - tok.begin, knob) != 0) continue;
      if (out.second++ == 0) out.first = joinPointer(t);
      break;
    }
  });
  return out;
}

/// Renames the knob `from` to `to` in every expression and knob reference.
void renameIn(DocValue& v, Tokens& at, const std::string& from, const std::string& to) {
  if (v.kind() == DocValue::Kind::string && !isTextSlot(at)) {
    std::string s = v.asString();
    const std::vector<detail::ExprToken> toks = detail::exprTokens(s);
    for (auto it = toks.rbegin(); it != toks.rend(); ++it)
      if (it->kind == detail::ExprToken::Kind::name && s.compare(it->begin, it->end - it->begin, from) == 0)
        s.replace(it->begin, it->end - it->begin, to);
    v = DocValue::string(std::move(s));
  } else if (v.kind() == DocValue::Kind::array) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      at.push_back(std::to_string(i));
      renameIn(v.items()[i], at, from, to);
      at.pop_back();
    }
  } else if (v.kind() == DocValue::Kind::object) {
    for (auto& m : v.members()) {
      at.push_back(m.first);
      renameIn(m.second, at, from, to);
      at.pop_back();
    }
  }
}

DocValue knobValue(const Knob& k) {
  DocValue o = DocValue::object({{"min", DocValue::number(k.min)},
                                 {"max", DocValue::number(k.max)},
                                 {"default", DocValue::number(k.defaultValue)}});
  if (!k.help.empty()) o.members().emplace_back("help", DocValue::string(k.help));
  if (k.integer) o.members().emplace_back("integer", DocValue::boolean(true));
  return o;
}

std::string checkKnob(const Knob& k) {
  if (!(std::isfinite(k.min) && std::isfinite(k.max) && std::isfinite(k.defaultValue)))
    return "knob " + k.name + ": min, max and default must be finite";
  if (!(k.min <= k.max)) return "knob " + k.name + ": expected max >= min";
  if (!(k.defaultValue >= k.min && k.defaultValue <= k.max))
    return "knob " + k.name + ": default " + formatNumber(k.defaultValue) + " is outside [" + formatNumber(k.min) + ", " +
           formatNumber(k.max) + "]";
  if (k.integer && k.defaultValue != std::floor(k.defaultValue))
    return "knob " + k.name + " takes whole numbers, and its default is " + formatNumber(k.defaultValue);
  return "";
}

std::string checkNewKnobName(const DocValue& root, const std::string& name) {
  if (!validKnobName(name)) return "a knob name is letters, digits and '_', starting with a letter";
  if (findSetting(name)) return "knob \"" + name + "\" would shadow the setting of that name";
  const DocValue* knobs = root.find("knobs");
  if (knobs && knobs->find(name)) return "there is already a knob \"" + name + "\"";
  return "";
}

}  // namespace

// ---- making elements ---------------------------------------------------------------

DocEdit addWall(const SceneDoc& d, const std::vector<Vec2>& points) {
  if (points.size() < 2) return refuse("a wall needs at least 2 points");
  if (!std::all_of(points.begin(), points.end(), [](Vec2 p) { return finite(p); })) return refuse("a point is not finite");
  return append(d, "walls", pointsValue(points));
}

DocEdit addObstacleRect(const SceneDoc& d, Rect r) {
  if (!finite(r) || !(r.width > 0 && r.height > 0)) return refuse("an obstacle's rectangle needs a width and height > 0");
  return append(d, "obstacles", DocValue::object({{"rect", rectValue(r)}}));
}

DocEdit addObstacleOutline(const SceneDoc& d, const std::vector<Vec2>& outline) {
  if (outline.size() < 3) return refuse("an obstacle's outline needs at least 3 points");
  if (!std::all_of(outline.begin(), outline.end(), [](Vec2 p) { return finite(p); })) return refuse("a point is not finite");
  return append(d, "obstacles", DocValue::object({{"outline", pointsValue(outline)}}));
}

DocEdit addAgent(const SceneDoc& d, Vec2 at, const DocWalkerProps& p) {
  if (!finite(at)) return refuse("the walker's place is not finite");
  DocValue a = DocValue::object({{"at", pointValue(at)}});
  if (std::string why = writeProps(a, "/agents/#", p, d.root()); !why.empty()) return refuse(why);
  return append(d, "agents", std::move(a));
}

DocEdit addGroup(const SceneDoc& d, Rect region, double density, int count, const DocWalkerProps& p) {
  if (!finite(region) || !(region.width > 0 && region.height > 0))
    return refuse("a group's region needs a width and height > 0");
  if (count > 0) {
    // The fill lays round(w sqrt(density)) x round(h sqrt(density)) cells:
    // about count for this density.
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", count / (static_cast<double>(region.width) * region.height));
    density = std::strtod(b, nullptr);
  }
  if (!(std::isfinite(density) && density > 0)) return refuse("a group needs a density > 0 or a count > 0");
  DocValue g = DocValue::object({{"type", DocValue::string("fill")},
                                 {"region", rectValue(region)},
                                 {"density", DocValue::number(tidy(density))}});
  if (std::string why = writeProps(g, "/generators/#", p, d.root()); !why.empty()) return refuse(why);
  return append(d, "generators", std::move(g));
}

DocEdit addSource(const SceneDoc& d, Rect region, double rate, double start, double stop, std::int64_t max,
                  const DocWalkerProps& p) {
  if (!finite(region)) return refuse("the source's region is not finite");
  if (!(std::isfinite(rate) && rate >= 0)) return refuse("a source's rate must be >= 0 walkers/s");
  if (!(std::isfinite(start) && start >= 0)) return refuse("a source's start must be >= 0 s");
  if (std::isnan(stop) || stop < 0) return refuse("a source's stop must be >= 0 s");
  DocValue s = DocValue::object({{"region", rectValue(region)}, {"rate", DocValue::number(tidy(rate))}});
  if (start > 0) setMember(s, "/sources/#", "start", DocValue::number(tidy(start)));
  if (std::isfinite(stop)) setMember(s, "/sources/#", "stop", DocValue::number(tidy(stop)));
  if (max >= 0) setMember(s, "/sources/#", "max", DocValue::number(static_cast<double>(max)));
  if (std::string why = writeProps(s, "/sources/#", p, d.root()); !why.empty()) return refuse(why);
  return append(d, "sources", std::move(s));
}

DocEdit addSink(const SceneDoc& d, Rect region, const std::vector<int>& groups) {
  if (!finite(region)) return refuse("the sink's region is not finite");
  DocValue s = DocValue::object({{"region", rectValue(region)}});
  if (!groups.empty()) {
    std::vector<DocValue> g;
    for (const int k : groups) g.push_back(DocValue::number(k));
    s.members().emplace_back("groups", DocValue::array(std::move(g)));
  }
  return append(d, "sinks", std::move(s));
}

namespace {

/// "STEM N" with the first N from 1 that no measurement is named.
std::string freeMeasurementName(const SceneDoc& d, const std::string& stem) {
  const DocValue* list = d.root().find("measurements");
  for (int n = 1;; ++n) {
    const std::string name = stem + " " + std::to_string(n);
    bool taken = false;
    if (list && list->kind() == DocValue::Kind::array)
      for (const DocValue& m : list->items())
        if (const DocValue* v = m.find("name"); v && v->kind() == DocValue::Kind::string && v->asString() == name)
          taken = true;
    if (!taken) return name;
  }
}

}  // namespace

DocEdit addMeasureLine(const SceneDoc& d, Vec2 a, Vec2 b) {
  if (!finite(a) || !finite(b)) return refuse("the line's ends are not finite");
  if (a == b) return refuse("a measurement line needs two distinct ends");
  return append(d, "measurements",
                DocValue::object({{"name", DocValue::string(freeMeasurementName(d, "line"))},
                                  {"line", pointsValue({a, b})}}));
}

DocEdit addMeasureArea(const SceneDoc& d, Rect r) {
  if (!finite(r)) return refuse("the area is not finite");
  if (!(r.width > 0 && r.height > 0)) return refuse("a measurement area needs a width and a height");
  return append(d, "measurements",
                DocValue::object({{"name", DocValue::string(freeMeasurementName(d, "area"))}, {"rect", rectValue(r)}}));
}

DocEdit addTarget(const SceneDoc& d, std::string name, Rect region, const std::vector<int>& groups) {
  if (!finite(region)) return refuse("the target's region is not finite");
  DocValue t = DocValue::object();
  if (!name.empty()) t.members().emplace_back("name", DocValue::string(std::move(name)));
  t.members().emplace_back("region", rectValue(region));
  if (!groups.empty()) {
    std::vector<DocValue> g;
    for (const int k : groups) g.push_back(DocValue::number(k));
    t.members().emplace_back("groups", DocValue::array(std::move(g)));
  }
  return append(d, "targets", std::move(t));
}

DocEdit addRouteGate(const SceneDoc& d, const std::string& route, Vec2 a, Vec2 b) {
  if (route.empty()) return refuse("a route needs a name");
  if (!finite(a) || !finite(b)) return refuse("a gate's ends must be finite");
  if (a == b) return refuse("a gate needs two distinct ends");
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  if (!root.find("routes")) setMember(root, "", "routes", DocValue::object());
  DocValue& routes = *root.find("routes");
  if (!routes.find(route)) routes.members().emplace_back(route, DocValue::object({{"gates", DocValue::array()}}));
  DocValue& r = *routes.find(route);
  if (!r.find("gates")) setMember(r, "/routes/*", "gates", DocValue::array());
  DocValue& gates = *r.find("gates");
  gates.items().push_back(DocValue::array({pointValue(a), pointValue(b)}));
  return finish(std::move(next), "/routes/" + escapeToken(route) + "/gates/" + std::to_string(gates.items().size() - 1));
}

DocEdit addHill(const SceneDoc& d, Vec2 at, double radius, double height) {
  if (!finite(at) || !std::isfinite(height) || !(std::isfinite(radius) && radius > 0))
    return refuse("a hill needs a finite place and height and a radius > 0");
  return append(d, "hills", DocValue::object({{"at", pointValue(at)},
                                              {"radius", DocValue::number(tidy(radius))},
                                              {"height", DocValue::number(tidy(height))}}));
}

DocEdit addDiscomfortRect(const SceneDoc& d, Rect r, double value) {
  if (!finite(r) || !std::isfinite(value)) return refuse("a discomfort region needs a finite rectangle and value");
  return append(d, "discomfort", DocValue::object({{"rect", rectValue(r)}, {"value", DocValue::number(tidy(value))}}));
}

DocEdit addSpeedZoneRect(const SceneDoc& d, Rect r, double factor) {
  if (!finite(r) || !(r.width > 0 && r.height > 0)) return refuse("a speed zone needs a width and a height");
  if (!(factor > 0 && factor <= 1)) return refuse("a speed zone's factor is in (0, 1]");
  return append(d, "speedZones", DocValue::object({{"rect", rectValue(r)}, {"factor", DocValue::number(tidy(factor))}}));
}

DocEdit addStairsRect(const SceneDoc& d, Rect r, Vec2 up, double upSpeed, double downSpeed) {
  if (!finite(r) || !(r.width > 0 && r.height > 0)) return refuse("a flight of stairs needs a width and a height");
  if (!(std::isfinite(up.x) && std::isfinite(up.y)) || !(up.length() > 0))
    return refuse("a flight of stairs needs an uphill direction");
  if (!(upSpeed > 0 && downSpeed > 0 && std::isfinite(upSpeed) && std::isfinite(downSpeed)))
    return refuse("a flight's speeds are above 0");
  return append(d, "stairs",
                DocValue::object({{"rect", rectValue(r)},
                                  {"up", DocValue::array({DocValue::number(tidy(up.x)), DocValue::number(tidy(up.y))})},
                                  {"upSpeed", DocValue::number(tidy(upSpeed))},
                                  {"downSpeed", DocValue::number(tidy(downSpeed))}}));
}

// ---- changing elements -------------------------------------------------------------

DocEdit moveElement(const SceneDoc& d, std::string_view pointer, Vec2 by) {
  if (!finite(by)) return refuse("the move is not finite");
  SceneDoc next = d;
  const std::optional<Located> l = locate(rootOf(next), pointer);
  if (!l || !l->value) return refuse("no element at " + std::string(pointer));
  if (!shiftValue(*l->value, l->pattern, fromFloat(by.x), fromFloat(by.y)))
    return refuse("nothing to move at " + std::string(pointer));
  return finish(std::move(next), std::string(pointer));
}

DocEdit movePoint(const SceneDoc& d, std::string_view pointer, Vec2 to) {
  if (!finite(to)) return refuse("the point is not finite");
  SceneDoc next = d;
  std::optional<Located> l = locate(rootOf(next), pointer);
  if (!l || slotOf(l->pattern) != Slot::point) return refuse("no point at " + std::string(pointer));
  if (!l->value) {
    // A ring's centre and a map's origin are [0, 0] until written.
    const bool defaulted = l->pattern == "/generators/#/center" || l->pattern == "/heightMap/origin" ||
                           l->pattern == "/discomfortMap/origin";
    if (!defaulted || !l->parent || l->parent->kind() != DocValue::Kind::object)
      return refuse("no point at " + std::string(pointer));
    Tokens up = l->tokens;
    up.pop_back();
    setMember(*l->parent, patternOf(up), l->tokens.back(), pointValue({0, 0}));
    l->value = rootOf(next).at(pointer);
  }
  DocValue& p = *l->value;
  if (p.kind() != DocValue::Kind::array || p.items().size() != 2) return refuse("no point at " + std::string(pointer));
  const Eval e(next);
  const double want[2] = {fromFloat(to.x), fromFloat(to.y)};
  for (std::size_t i = 0; i < 2; ++i) {
    DocValue& c = p.items()[i];
    if (c.kind() == DocValue::Kind::number) {
      c = DocValue::number(want[i]);
      continue;
    }
    const std::optional<double> now = e.value(&c);
    if (!now || !shiftNumber(c, tidy(want[i] - *now))) return refuse("no point at " + std::string(pointer));
  }
  return finish(std::move(next), std::string(pointer));
}

DocEdit insertVertex(const SceneDoc& d, std::string_view pointer, std::size_t before, Vec2 at) {
  if (!finite(at)) return refuse("the vertex is not finite");
  SceneDoc next = d;
  const std::optional<Located> l = locate(rootOf(next), pointer);
  if (!l || !l->value) return refuse("no wall or outline at " + std::string(pointer));
  DocValue* list = l->value;
  std::string listPointer(pointer);
  if (l->pattern == "/obstacles/#" || l->pattern == "/discomfort/#") {
    list = l->value->find("outline");
    listPointer += "/outline";
    if (!list) return refuse(std::string(pointer) + " is a rectangle: it has no vertices to insert between");
  } else if (slotOf(l->pattern) != Slot::pointList) {
    return refuse("no wall or outline at " + std::string(pointer));
  }
  if (list->kind() != DocValue::Kind::array || before > list->items().size())
    return refuse("no vertex " + std::to_string(before) + " to insert before in " + listPointer);
  list->items().insert(list->items().begin() + static_cast<std::ptrdiff_t>(before), pointValue(at));
  return finish(std::move(next), listPointer + "/" + std::to_string(before));
}

DocEdit removeVertex(const SceneDoc& d, std::string_view pointer) {
  SceneDoc next = d;
  const std::optional<Located> l = locate(rootOf(next), pointer);
  if (!l || !l->value || !l->parent || slotOf(l->pattern) != Slot::point) return refuse("no vertex at " + std::string(pointer));
  Tokens up = l->tokens;
  up.pop_back();
  const std::string listPattern = patternOf(up);
  if (slotOf(listPattern) != Slot::pointList) return refuse("no vertex of a wall or an outline at " + std::string(pointer));
  const bool wall = listPattern == "/walls/#";
  const std::size_t least = wall ? 2 : 3;
  auto& items = l->parent->items();
  if (items.size() <= least)
    return refuse(std::string(wall ? "a wall keeps at least 2 points" : "an outline keeps at least 3 points") +
                  " (remove the whole element instead)");
  items.erase(items.begin() + static_cast<std::ptrdiff_t>(*arrayIndex(l->tokens.back())));
  return finish(std::move(next), joinPointer(up));
}

DocEdit removeElement(const SceneDoc& d, std::string_view pointer) {
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  const std::optional<Located> l = locate(root, pointer);
  if (!l) return refuse("cannot remove " + std::string(pointer.empty() ? "the whole scene" : pointer));
  if (l->tokens.size() == 2 && l->tokens[0] == "knobs") return removeKnob(d, l->tokens[1]);
  if (!l->value || !l->parent) return refuse("nothing at " + std::string(pointer));
  if (l->parent->kind() == DocValue::Kind::array)
    l->parent->items().erase(l->parent->items().begin() + static_cast<std::ptrdiff_t>(*arrayIndex(l->tokens.back())));
  else
    removeMember(*l->parent, l->tokens.back());
  // A list or the routes left empty by their last element go too.
  if (l->tokens.size() == 2) {
    const DocValue* top = root.find(l->tokens[0]);
    if (top && ((top->kind() == DocValue::Kind::array && top->items().empty()) ||
                (top->kind() == DocValue::Kind::object && top->members().empty() && l->tokens[0] == "routes")))
      removeMember(root, l->tokens[0]);
  }
  return finish(std::move(next), "");
}

DocEdit duplicateElement(const SceneDoc& d, std::string_view pointer, Vec2 by) {
  if (!finite(by)) return refuse("the offset is not finite");
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  const std::optional<Located> l = locate(root, pointer);
  if (!l || !l->value || !l->parent) return refuse("no element at " + std::string(pointer));
  DocValue copy = *l->value;
  const double dx = fromFloat(by.x), dy = fromFloat(by.y);
  if ((dx != 0 || dy != 0) && !shiftValue(copy, l->pattern, dx, dy))
    return refuse("nothing to move at " + std::string(pointer));
  if (l->parent->kind() == DocValue::Kind::array) {
    l->parent->items().push_back(std::move(copy));
    return finish(std::move(next), parentPointer(l->tokens) + "/" + std::to_string(l->parent->items().size() - 1));
  }
  if (l->pattern == "/routes/*") {
    std::string name;
    for (int k = 2; name.empty() || l->parent->find(name); ++k) name = l->tokens[1] + std::to_string(k);
    l->parent->members().emplace_back(name, std::move(copy));
    return finish(std::move(next), "/routes/" + escapeToken(name));
  }
  return refuse(std::string(pointer) + " cannot be duplicated");
}

DocEdit setGoal(const SceneDoc& d, std::string_view pointer, Vec2 goal) {
  if (!finite(goal)) return refuse("the goal is not finite");
  SceneDoc next = d;
  const std::optional<Located> l = locate(rootOf(next), pointer);
  if (!l || !l->value || !(l->pattern == "/agents/#" || l->pattern == "/generators/#" || l->pattern == "/sources/#"))
    return refuse("only a walker, a generator or a source has a goal (" + std::string(pointer) + ")");
  const std::string goalPointer = std::string(pointer) + "/goal";
  if (l->value->find("goal")) return movePoint(d, goalPointer, goal);  // keeps its expressions
  removeMember(*l->value, "goalOffset");
  removeMember(*l->value, "goalRegion");
  setMember(*l->value, l->pattern, "goal", pointValue(goal));
  return finish(std::move(next), goalPointer);
}

DocEdit setNumber(const SceneDoc& d, std::string_view pointer, std::string_view text) {
  SceneDoc next = d;
  const std::optional<Located> l = locate(rootOf(next), pointer);
  const std::string p(pointer);
  if (!l || !l->parent) return refuse("no number at " + p);
  if (isTextSlot(l->tokens)) return refuse(p + " is text, not a number");
  if (l->value && l->value->kind() != DocValue::Kind::number && l->value->kind() != DocValue::Kind::string &&
      !isKnobRef(*l->value))
    return refuse(p + " is not a number");
  const std::optional<DocValue> v = numberFromText(text);
  const bool blank = std::all_of(text.begin(), text.end(), [](char c) { return c == ' '; });
  if (blank) {
    if (l->parent->kind() != DocValue::Kind::object) return refuse(p + " cannot be left out");
    removeMember(*l->parent, l->tokens.back());
    return finish(std::move(next), p);
  }
  if (!v) return refuse(p + ": expected a number, a knob name or an expression, got \"" + std::string(text) + "\"");
  if (v->kind() != DocValue::Kind::number) {
    std::string why;
    if (!Eval(d).number(&*v, &why)) return refuse(p + ": " + why);
  }
  if (l->parent->kind() == DocValue::Kind::array) {
    if (!l->value) return refuse("no number at " + p);
    *l->value = *v;
  } else if (l->parent->kind() == DocValue::Kind::object) {
    setMember(*l->parent, patternOf(Tokens(l->tokens.begin(), l->tokens.end() - 1)), l->tokens.back(), *v);
  } else {
    return refuse("no number at " + p);
  }
  return finish(std::move(next), p);
}

DocEdit setText(const SceneDoc& d, std::string_view pointer, std::string_view text) {
  SceneDoc next = d;
  const std::optional<Located> l = locate(rootOf(next), pointer);
  const std::string p(pointer);
  if (!l || !l->parent || !isTextSlot(l->tokens) ||
      (l->value && l->value->kind() != DocValue::Kind::string))
    return refuse("no text field at " + p);
  if (text.empty()) {
    if (l->parent->kind() != DocValue::Kind::object) return refuse(p + " cannot be left empty");
    removeMember(*l->parent, l->tokens.back());
    return finish(std::move(next), p);
  }
  if (l->parent->kind() == DocValue::Kind::array) {
    if (!l->value) return refuse("no text field at " + p);
    *l->value = DocValue::string(std::string(text));
  } else {
    setMember(*l->parent, patternOf(Tokens(l->tokens.begin(), l->tokens.end() - 1)), l->tokens.back(),
              DocValue::string(std::string(text)));
  }
  return finish(std::move(next), p);
}

DocEdit setSetting(const SceneDoc& d, std::string_view name, std::string_view text) {
  const SettingInfo* info = findSetting(name);
  if (!info) {
    std::string list;
    for (const SettingInfo& i : settingsTable()) list += (list.empty() ? "" : ", ") + std::string(i.name);
    return refuse("unknown setting \"" + std::string(name) + "\" (expected one of: " + list + ")");
  }
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  DocValue* settings = root.find("settings");
  const std::string key(name);
  // model and routing live at the top level unless the file has them in "settings".
  const bool top = (key == "model" || key == "routing") && !(settings && settings->find(key));
  if (text.empty()) {
    removeMember(top ? root : (settings ? *settings : root), key);
    if (settings && settings->members().empty()) removeMember(root, "settings");
    return finish(std::move(next), "");
  }
  DocValue v;
  Settings probe;
  std::string why;
  if (info->kind == SettingKind::Choice) {
    if (!setSettingText(probe, name, text, &why)) return refuse(why);
    v = DocValue::string(std::string(text));
  } else {
    const std::optional<DocValue> n = numberFromText(text);
    if (!n) return refuse(key + ": expected a number or an expression, got \"" + std::string(text) + "\"");
    v = *n;
    if (info->kind == SettingKind::Seed) {
      if (!setSettingText(probe, name, text, &why)) return refuse(why);
    } else {
      const std::optional<DocNumber> x = Eval(d).number(&v, &why);
      if (!x) return refuse(key + ": " + why);
      const double value = info->kind == SettingKind::Integer && v.kind() != DocValue::Kind::number
                               ? std::round(x->value)
                               : x->value;
      if (!setSetting(probe, name, value, &why)) return refuse(why);
    }
  }
  if (top) {
    setMember(root, "", key, std::move(v));
    return finish(std::move(next), "/" + key);
  }
  if (!settings) {
    setMember(root, "", "settings", DocValue::object());
    settings = root.find("settings");
  }
  setMember(*settings, "/settings", key, std::move(v));
  return finish(std::move(next), "/settings/" + key);
}

// ---- knobs ----------------------------------------------------------------------------

DocEdit addKnob(const SceneDoc& d, const std::string& name, double min, double max, double defaultValue,
                std::string help, bool integer) {
  if (std::string why = checkNewKnobName(d.root(), name); !why.empty()) return refuse(why);
  Knob k;
  k.name = name;
  k.min = min;
  k.max = max;
  k.defaultValue = defaultValue;
  k.help = std::move(help);
  k.integer = integer;
  if (std::string why = checkKnob(k); !why.empty()) return refuse(why);
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  if (!root.find("knobs")) setMember(root, "", "knobs", DocValue::object());
  root.find("knobs")->members().emplace_back(name, knobValue(k));
  return finish(std::move(next), "/knobs/" + name);
}

DocEdit editKnob(const SceneDoc& d, const std::string& name, const Knob& to) {
  const DocValue* knobs = d.root().find("knobs");
  if (!knobs || !knobs->find(name)) return refuse("no knob \"" + name + "\"");
  Knob k = to;
  if (k.name.empty()) k.name = name;
  if (k.name != name)
    if (std::string why = checkNewKnobName(d.root(), k.name); !why.empty()) return refuse(why);
  if (std::string why = checkKnob(k); !why.empty()) return refuse(why);
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  for (auto& m : root.find("knobs")->members()) {
    if (m.first != name) continue;
    m.first = k.name;
    m.second = knobValue(k);
  }
  if (k.name != name) {
    Tokens at;
    renameIn(root, at, name, k.name);
    auto& values = SceneDocAccess::knobValues(next);
    const auto it = values.find(name);
    if (it != values.end()) {
      values[k.name] = it->second;
      values.erase(name);
    }
  }
  return finish(std::move(next), "/knobs/" + k.name);
}

DocEdit removeKnob(const SceneDoc& d, const std::string& name) {
  const DocValue* knobs = d.root().find("knobs");
  if (!knobs || !knobs->find(name)) return refuse("no knob \"" + name + "\"");
  const auto [first, count] = usesOf(d.root(), name);
  if (count > 0)
    return refuse("knob \"" + name + "\" is used at " + first +
                  (count > 1 ? " and " + std::to_string(count - 1) + " more place" + (count > 2 ? "s" : "") : "") +
                  ": bind those numbers to something else first");
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  removeMember(*root.find("knobs"), name);
  if (root.find("knobs")->members().empty()) removeMember(root, "knobs");
  return finish(std::move(next), "");
}

// ---- painting ---------------------------------------------------------------------------

namespace {

/// The box of everything in the scene, and of the brush.
Rect sceneBox(const SceneDoc& d, double ax, double ay, double r) {
  double x0 = ax - r, y0 = ay - r, x1 = ax + r, y1 = ay + r;
  for (const DocShape& s : shapes(d)) {
    if (s.kind == DocShapeKind::heightMap || s.kind == DocShapeKind::discomfortMap) continue;
    for (const Vec2 p : s.points) {
      x0 = std::min(x0, static_cast<double>(p.x) - s.radius);
      y0 = std::min(y0, static_cast<double>(p.y) - s.radius);
      x1 = std::max(x1, static_cast<double>(p.x) + s.radius);
      y1 = std::max(y1, static_cast<double>(p.y) + s.radius);
    }
  }
  return Rect{static_cast<float>(x0), static_cast<float>(y0), static_cast<float>(x1 - x0), static_cast<float>(y1 - y0)};
}

DocValue zeros(std::size_t n) { return DocValue::array(std::vector<DocValue>(n, DocValue::number(0))); }

DocEdit paint(const SceneDoc& d, const char* key, const char* valuesKey, Vec2 at, double radius, double strength,
              bool erase, double cell) {
  if (!finite(at) || !std::isfinite(strength)) return refuse("the brush's place and strength must be finite");
  if (!(std::isfinite(radius) && radius > 0)) return refuse("the brush's radius must be > 0");
  const std::string mapPointer = std::string("/") + key;
  const std::string most = std::to_string(kMaxHeightMapNodes);
  SceneDoc next = d;
  DocValue& root = rootOf(next);
  const double ax = fromFloat(at.x), ay = fromFloat(at.y);
  if (!root.find(key)) {
    if (erase) return finish(std::move(next), "");  // nothing to erase
    if (!(std::isfinite(cell) && cell > 0)) return refuse("the map's cell must be > 0");
    const Rect box = sceneBox(d, ax, ay, radius);
    const double ox = tidy(std::floor(box.x / cell) * cell), oy = tidy(std::floor(box.y / cell) * cell);
    const double cols = std::ceil((box.x + box.width - ox) / cell) + 1;
    const double rows = std::ceil((box.y + box.height - oy) / cell) + 1;
    if (cols > static_cast<double>(kMaxHeightMapNodes) || rows > static_cast<double>(kMaxHeightMapNodes))
      return refuse("a map over the scene at cell " + formatNumber(cell) + " would need " + formatNumber(std::max(cols, rows)) +
                    " nodes a side (at most " + most + "): paint with a larger cell");
    std::vector<DocValue> grid(static_cast<std::size_t>(rows), zeros(static_cast<std::size_t>(cols)));
    setMember(root, "", key,
              DocValue::object({{"origin", DocValue::array({DocValue::number(ox), DocValue::number(oy)})},
                                {"cell", DocValue::number(tidy(cell))},
                                {valuesKey, DocValue::array(std::move(grid))}}));
  }
  DocValue& map = *root.find(key);
  const Eval e(next);
  DocValue* originValue = map.find("origin");
  double ox = 0, oy = 0;
  bool plainOrigin = true;
  if (originValue) {
    if (originValue->kind() != DocValue::Kind::array || originValue->items().size() != 2)
      return refuse(mapPointer + "/origin is not a point");
    const auto x = e.value(&originValue->items()[0]), y = e.value(&originValue->items()[1]);
    if (!x || !y) return refuse(mapPointer + "/origin does not evaluate");
    ox = *x, oy = *y;
    plainOrigin = originValue->items()[0].kind() == DocValue::Kind::number &&
                  originValue->items()[1].kind() == DocValue::Kind::number;
  }
  const DocValue* cellValue = map.find("cell");
  const std::optional<double> c = e.value(cellValue);
  if (!c || !(*c > 0)) return refuse(mapPointer + "/cell does not evaluate to a positive number");
  DocValue* grid = map.find(valuesKey);
  if (!grid || grid->kind() != DocValue::Kind::array || grid->items().empty() ||
      grid->items()[0].kind() != DocValue::Kind::array)
    return refuse(mapPointer + "/" + valuesKey + " is not rows of numbers");
  auto& rows = grid->items();
  std::size_t nr = rows.size(), nc = rows[0].items().size();
  if (!erase) {
    // Grow by whole rows and columns of zeros to cover the brush's box.
    const double c0 = std::floor((ax - radius - ox) / *c), c1 = std::ceil((ax + radius - ox) / *c);
    const double r0 = std::floor((ay - radius - oy) / *c), r1 = std::ceil((ay + radius - oy) / *c);
    const double addL = std::max(0.0, -c0), addR = std::max(0.0, c1 - static_cast<double>(nc - 1));
    const double addB = std::max(0.0, -r0), addT = std::max(0.0, r1 - static_cast<double>(nr - 1));
    if (addL + addR + addB + addT > 0) {
      if (!plainOrigin || cellValue->kind() != DocValue::Kind::number)
        return refuse(mapPointer + ": the brush is off the map, and its origin or cell is an expression: the map "
                                   "cannot grow (make them plain numbers)");
      const double cols = static_cast<double>(nc) + addL + addR, rowsWanted = static_cast<double>(nr) + addB + addT;
      if (cols > static_cast<double>(kMaxHeightMapNodes) || rowsWanted > static_cast<double>(kMaxHeightMapNodes))
        return refuse(mapPointer + ": growing the map to the brush would make it " + formatNumber(cols) + " x " +
                      formatNumber(rowsWanted) + " nodes (at most " + most + " a side)");
      const auto L = static_cast<std::size_t>(addL), R = static_cast<std::size_t>(addR);
      for (DocValue& row : rows) {
        if (row.kind() != DocValue::Kind::array) return refuse(mapPointer + "/" + valuesKey + " is not rows of numbers");
        row.items().insert(row.items().begin(), L, DocValue::number(0));
        row.items().insert(row.items().end(), R, DocValue::number(0));
      }
      nc += L + R;
      rows.insert(rows.begin(), static_cast<std::size_t>(addB), zeros(nc));
      rows.insert(rows.end(), static_cast<std::size_t>(addT), zeros(nc));
      nr = rows.size();
      ox = tidy(ox - addL * *c), oy = tidy(oy - addB * *c);
      setMember(map, mapPointer, "origin", DocValue::array({DocValue::number(ox), DocValue::number(oy)}));
    }
  }
  // The brush: strength (1 - (d/r)^2)^2 at each node within r; values kept
  // to 1e-4.
  const auto clampIndex = [](double v, std::size_t n) {
    return static_cast<std::size_t>(std::clamp(v, 0.0, static_cast<double>(n) - 1));
  };
  const std::size_t cA = clampIndex(std::floor((ax - radius - ox) / *c), nc), cB = clampIndex(std::ceil((ax + radius - ox) / *c), nc);
  const std::size_t rA = clampIndex(std::floor((ay - radius - oy) / *c), nr), rB = clampIndex(std::ceil((ay + radius - oy) / *c), nr);
  for (std::size_t r = rA; r <= rB; ++r) {
    if (rows[r].kind() != DocValue::Kind::array || rows[r].items().size() != nc) continue;
    for (std::size_t k = cA; k <= cB; ++k) {
      const double x = ox + static_cast<double>(k) * *c - ax, y = oy + static_cast<double>(r) * *c - ay;
      const double q = (x * x + y * y) / (radius * radius);
      if (q >= 1) continue;
      const double w = (1 - q) * (1 - q);
      DocValue& node = rows[r].items()[k];
      const std::optional<double> now = e.value(&node);
      if (!now) continue;
      double want = *now + strength * w;
      if (erase) {
        const double by = std::fabs(strength) * w;
        want = *now > 0 ? std::max(0.0, *now - by) : std::min(0.0, *now + by);
      }
      want = tidy(std::round(want * 1e4) / 1e4);
      if (node.kind() == DocValue::Kind::number) node = DocValue::number(want);
      else shiftNumber(node, tidy(want - *now));
    }
  }
  return finish(std::move(next), mapPointer);
}

}  // namespace

DocEdit paintHeight(const SceneDoc& d, Vec2 at, double radius, double strength, bool erase, double cell) {
  return paint(d, "heightMap", "heights", at, radius, strength, erase, cell);
}

DocEdit paintDiscomfort(const SceneDoc& d, Vec2 at, double radius, double strength, bool erase, double cell) {
  return paint(d, "discomfortMap", "values", at, radius, strength, erase, cell);
}

}  // namespace throng
