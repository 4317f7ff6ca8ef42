// The scene document's view of the format (scene.hpp): pointers, which
// values are points and rectangles, the canonical key order, numbers as
// text, and numbers evaluated with the knobs' current values.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "scene/expression.hpp"
#include "scene/schema.hpp"
#include "scene/scene_doc_internal.hpp"
#include "throng/settings.hpp"

namespace throng::docdetail {

// ---- the format's shape -------------------------------------------------------

std::string patternOf(const Tokens& tokens) {
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i == 1 && (tokens[0] == "knobs" || tokens[0] == "routes")) out += "/*";
    else if (arrayIndex(tokens[i])) out += "/#";
    else out += "/" + tokens[i];
  }
  return out;
}

namespace {

bool among(const std::string& s, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

Slot slotOf(const std::string& p) {
  if (among(p, {"/agents/#/at", "/agents/#/goal", "/generators/#/goal", "/sources/#/goal", "/generators/#/center",
                "/generators/#/origin", "/walls/#/#", "/obstacles/#/outline/#", "/routes/*/gates/#/#", "/routes/*/goal",
                "/discomfort/#/outline/#", "/hills/#/at", "/heightMap/origin", "/discomfortMap/origin",
                "/measurements/#/line/#", "/measurements/#/outline/#", "/speedZones/#/outline/#",
                "/stairs/#/outline/#"}))
    return Slot::point;
  if (among(p, {"/obstacles/#/rect", "/generators/#/region", "/sources/#/region", "/sinks/#/region", "/targets/#/region",
                "/targets/#/regions/#", "/discomfort/#/rect", "/routes/*/goalRegion", "/agents/#/goalRegion",
                "/generators/#/goalRegion", "/sources/#/goalRegion", "/measurements/#/rect", "/speedZones/#/rect",
                "/stairs/#/rect"}))
    return Slot::rect;
  if (among(p, {"/walls/#", "/obstacles/#/outline", "/discomfort/#/outline", "/measurements/#/outline",
                "/speedZones/#/outline", "/stairs/#/outline"}))
    return Slot::pointList;
  if (p == "/measurements/#/line") return Slot::gate;
  if (p == "/targets/#/regions") return Slot::rectList;
  if (p == "/routes/*/gates/#") return Slot::gate;
  if (p == "/routes/*/gates") return Slot::gateList;
  return Slot::other;
}

const std::vector<std::string_view>& movingMembers(const std::string& p) {
  static const std::vector<std::string_view> none, at{"at"}, generator{"center", "origin", "region"}, region{"region"},
      shape{"rect", "outline"}, measurement{"line", "rect", "outline"}, target{"region", "regions"}, route{"gates", "goal", "goalRegion"}, origin{"origin"};
  if (p == "/agents/#" || p == "/hills/#") return at;
  if (p == "/generators/#") return generator;
  if (p == "/sources/#" || p == "/sinks/#") return region;
  if (p == "/obstacles/#" || p == "/discomfort/#" || p == "/speedZones/#" || p == "/stairs/#") return shape;
  if (p == "/targets/#") return target;
  if (p == "/measurements/#") return measurement;
  if (p == "/routes/*") return route;
  if (p == "/heightMap" || p == "/discomfortMap") return origin;
  return none;
}

std::span<const std::string_view> canonicalKeys(const std::string& p) { return detail::sceneKeys(p); }

void setMember(DocValue& obj, const std::string& pattern, std::string_view key, DocValue value) {
  if (DocValue* v = obj.find(key)) {
    *v = std::move(value);
    return;
  }
  auto& members = obj.members();
  const std::span<const std::string_view> order = canonicalKeys(pattern);
  auto rank = [&](std::string_view k) {
    const auto it = std::find(order.begin(), order.end(), k);
    return static_cast<std::size_t>(it - order.begin());  // unknown: after every known key
  };
  auto at = members.end();
  if (!order.empty()) {
    const std::size_t mine = rank(key);
    at = std::find_if(members.begin(), members.end(), [&](const auto& m) {
      const std::size_t r = rank(m.first);
      return r < order.size() && r > mine;
    });
  }
  members.insert(at, {std::string(key), std::move(value)});
}

bool removeMember(DocValue& obj, std::string_view key) {
  auto& members = obj.members();
  const auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == key; });
  if (it == members.end()) return false;
  members.erase(it);
  return true;
}

bool isTextSlot(const Tokens& t) {
  if (t.empty()) return false;
  if (t[0] == "geometry") return true;  // WKT, GeoJSON and a file name: never expressions
  static const std::initializer_list<std::string_view> text{
      "name", "description", "units", "model", "routing", "help", "type", "route", "distribution", "ages", "test", "says",
      "figure", "ratioTo", "over"};
  if (std::find(text.begin(), text.end(), t.back()) != text.end()) return true;
  return t.size() >= 2 && t[t.size() - 2] == "route" && arrayIndex(t.back());
}

void forEachExpression(const DocValue& v, Tokens& at, const std::function<void(const Tokens&, const std::string&)>& fn) {
  switch (v.kind()) {
    case DocValue::Kind::string:
      if (!isTextSlot(at)) fn(at, v.asString());
      break;
    case DocValue::Kind::array:
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        at.push_back(std::to_string(i));
        forEachExpression(v.items()[i], at, fn);
        at.pop_back();
      }
      break;
    case DocValue::Kind::object:
      for (const auto& m : v.members()) {
        at.push_back(m.first);
        forEachExpression(m.second, at, fn);
        at.pop_back();
      }
      break;
    default: break;
  }
}

bool isKnobRef(const DocValue& v) {
  return v.kind() == DocValue::Kind::object && v.members().size() == 1 && v.members()[0].first == "knob";
}

// ---- numbers as text ------------------------------------------------------------

std::string formatNumber(double v) {
  char b[64];
  if (v == std::floor(v) && std::fabs(v) <= 0x1p53) {
    const auto r = std::to_chars(b, b + sizeof b, static_cast<long long>(v));
    return std::string(b, r.ptr);
  }
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

double fromFloat(float f) {
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, f);
  double v = 0;
  std::from_chars(b, r.ptr, v);
  return static_cast<float>(v) == f ? v : static_cast<double>(f);
}

double tidy(double v) {
  if (!std::isfinite(v)) return v;
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, v, std::chars_format::general, 15);
  double out = v;
  std::from_chars(b, r.ptr, out);
  return out == 0 ? 0.0 : out;  // no "-0"
}

std::optional<DocValue> numberFromText(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  const std::vector<detail::ExprToken> toks = detail::exprTokens(text);
  if (toks.size() == 1 && toks[0].kind == detail::ExprToken::Kind::name && toks[0].end == text.size())
    return DocValue::object({{"knob", DocValue::string(std::string(text))}});
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    std::uint64_t u = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), u);
    if (r.ec == std::errc() && r.ptr == text.data() + text.size() && u > (std::uint64_t{1} << 53))
      return DocValue::wholeNumber(u);
  }
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec == std::errc() && r.ptr == text.data() + text.size()) {
    if (!std::isfinite(v)) return std::nullopt;
    return DocValue::number(v);
  }
  return DocValue::string(std::string(text));
}

DocValue pointValue(Vec2 p) { return DocValue::array({DocValue::number(fromFloat(p.x)), DocValue::number(fromFloat(p.y))}); }

DocValue rectValue(Rect r) {
  return DocValue::array({DocValue::number(fromFloat(r.x)), DocValue::number(fromFloat(r.y)),
                          DocValue::number(fromFloat(r.width)), DocValue::number(fromFloat(r.height))});
}

// ---- evaluation ------------------------------------------------------------------

Eval::Eval(const SceneDoc& doc) {
  const DocValue* knobs = doc.root().find("knobs");
  if (!knobs || knobs->kind() != DocValue::Kind::object) return;
  for (const auto& m : knobs->members()) {
    names_.push_back(m.first);
    double v = 0;
    const auto it = doc.knobValues().find(m.first);
    if (it != doc.knobValues().end()) {
      v = it->second;
    } else if (const DocValue* d = m.second.find("default"); d && d->kind() == DocValue::Kind::number) {
      v = d->asNumber();
    }
    values_[m.first] = v;
  }
}

std::optional<double> Eval::knob(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> Eval::expression(std::string_view s, std::string* error) const {
  return detail::evalExpr(s, {[this](std::string_view n) { return knob(n); }, [this] { return names_; }}, error);
}

std::optional<DocNumber> Eval::number(const DocValue* v, std::string* error) const {
  auto refuse = [&](std::string why) -> std::optional<DocNumber> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (!v) return refuse("missing");
  DocNumber n;
  if (v->kind() == DocValue::Kind::number) {
    n.value = v->asNumber();
  } else if (v->kind() == DocValue::Kind::string) {
    n.form = DocNumber::Form::expression;
    n.text = v->asString();
  } else if (isKnobRef(*v) && v->members()[0].second.kind() == DocValue::Kind::string) {
    n.form = DocNumber::Form::knob;
    n.text = v->members()[0].second.asString();
  } else {
    return refuse("expected a number, a {\"knob\": name} or an expression string");
  }
  if (n.form != DocNumber::Form::plain) {
    const std::optional<double> x = expression(n.text, error);
    if (!x) return std::nullopt;
    n.value = *x;
  }
  if (!std::isfinite(n.value)) return refuse("expected a finite number");
  return n;
}

std::optional<double> Eval::value(const DocValue* v) const {
  const std::optional<DocNumber> n = number(v);
  return n ? std::optional<double>(n->value) : std::nullopt;
}

std::optional<Vec2> Eval::point(const DocValue* v) const {
  if (!v || v->kind() != DocValue::Kind::array || v->items().size() != 2) return std::nullopt;
  const auto x = value(&v->items()[0]), y = value(&v->items()[1]);
  if (!x || !y) return std::nullopt;
  return Vec2{static_cast<float>(*x), static_cast<float>(*y)};
}

std::optional<Rect> Eval::rect(const DocValue* v) const {
  if (!v || v->kind() != DocValue::Kind::array || v->items().size() != 4) return std::nullopt;
  float f[4];
  for (std::size_t i = 0; i < 4; ++i) {
    const auto x = value(&v->items()[i]);
    if (!x) return std::nullopt;
    f[i] = static_cast<float>(*x);
  }
  return Rect{f[0], f[1], f[2], f[3]};
}

std::optional<std::vector<Vec2>> Eval::points(const DocValue* v) const {
  if (!v || v->kind() != DocValue::Kind::array) return std::nullopt;
  std::vector<Vec2> out;
  for (const DocValue& p : v->items()) {
    const auto q = point(&p);
    if (!q) return std::nullopt;
    out.push_back(*q);
  }
  return out;
}

std::vector<Vec2> rectCorners(Rect r) {
  return {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
}

Geometry geometryOf(const SceneDoc& doc, const Eval& e) {
  Geometry g;
  if (const DocValue* obs = doc.root().find("obstacles"); obs && obs->kind() == DocValue::Kind::array) {
    for (std::size_t i = 0; i < obs->items().size(); ++i) {
      const DocValue& o = obs->items()[i];
      std::optional<std::vector<Vec2>> outline;
      if (const auto r = e.rect(o.find("rect"))) outline = rectCorners(*r);
      else outline = e.points(o.find("outline"));
      if (!outline || outline->size() < 3) continue;
      g.outlines.push_back(std::move(*outline));
      g.outlinePointers.push_back("/obstacles/" + std::to_string(i));
    }
  }
  if (const DocValue* walls = doc.root().find("walls"); walls && walls->kind() == DocValue::Kind::array) {
    for (std::size_t i = 0; i < walls->items().size(); ++i) {
      auto w = e.points(&walls->items()[i]);
      if (!w || w->size() < 2) continue;
      g.walls.push_back(std::move(*w));
      g.wallPointers.push_back("/walls/" + std::to_string(i));
    }
  }
  return g;
}

double walkerRadius(const DocValue& root, const DocValue& elem, const Eval& e) {
  if (const DocValue* r = elem.find("radius"))
    if (const auto v = e.value(r)) return *v;
  if (const DocValue* d = root.find("agentDefaults"))
    if (const auto v = e.value(d->find("radius"))) return *v;
  return 0.25;
}

}  // namespace throng::docdetail
