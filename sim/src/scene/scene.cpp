// Scene: a scene file (format in scene.hpp) with its knob values and
// setting overrides, resolved into a SceneSpec.
//
// Design: the file is parsed once into an ordered_json, shared by copies
// of the Scene. Resolving (resolve.cpp) walks it and throws at the first
// problem; Scene's public functions catch that and turn it into one line,
// "FILE:LINE: /pointer: message", where LINE comes from a light scan of the
// text for that pointer (pointer.cpp). Nothing escapes: callers get a
// status. A number written as a string is an expression over the knobs,
// read by expression.hpp, which the scene document (scene_doc*.cpp) shares,
// as it shares readFile, the pointers and the keys (schema.hpp): its
// messages are the loader's.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/envelope.hpp"
#include "scene/expression.hpp"
#include "scene/pointer.hpp"
#include "scene/resolve.hpp"
#include "scene/scene_internal.hpp"
#include "models/orca/orca.hpp"
#include "throng/scene.hpp"

namespace throng {

using Json = detail::SceneJson;

struct Scene::Doc {
  std::string text;
  Json json;
  detail::SceneFiles files;  ///< the files it names, read with it
  std::size_t maxAgents = kMaxSceneAgents;
};

namespace {

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::optional<double> parseDouble(std::string_view s) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

namespace detail {
double unit01(std::uint64_t seed, std::uint64_t what, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t h = mix64(seed ^ mix64(what ^ mix64(a ^ mix64(b))));
  return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
}

double drawNormal(double mu, double sigma, std::uint64_t seed, std::uint64_t what, std::uint64_t which,
                  std::uint64_t attempt) {
  // Box-Muller on two hashed uniforms; 1 - u is in (0, 1], so the log is finite.
  const double u1 = 1 - unit01(seed, what, which, 2 * attempt + 1), u2 = unit01(seed, what, which, 2 * attempt + 2);
  return mu + sigma * std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

Vec2 pointIn(const Rect& r, std::uint64_t seed, std::uint64_t what, std::uint64_t which) {
  return {r.x + static_cast<float>(unit01(seed, what, which, 1) * r.width),
          r.y + static_cast<float>(unit01(seed, what, which, 2) * r.height)};
}

float discIntrusion(std::span<const std::vector<Vec2>> outlines, std::span<const std::vector<Vec2>> walls, Vec2 c,
                    float r) {
  float worst = 0;
  auto edge = [&](Vec2 a, Vec2 b) {
    const Vec2 ab = b - a;
    const float len2 = ab.lengthSquared();
    float t = len2 > 0 ? dot(c - a, ab) / len2 : 0;
    t = std::clamp(t, 0.0f, 1.0f);
    worst = std::max(worst, r - (c - (a + t * ab)).length());
  };
  for (const auto& poly : outlines) {
    bool inside = false;
    for (std::size_t i = 0, k = poly.size() - 1; i < poly.size(); k = i++) {
      edge(poly[i], poly[k]);
      const Vec2 a = poly[i], b = poly[k];
      if ((a.y > c.y) != (b.y > c.y) && c.x < (b.x - a.x) * (c.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
    }
    if (inside) worst = std::max(worst, r);
  }
  for (const auto& wall : walls)
    for (std::size_t i = 0; i + 1 < wall.size(); ++i) edge(wall[i], wall[i + 1]);
  return worst;
}

std::optional<std::string> readFile(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = path + ": cannot open (" + std::strerror(errno) + ")";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    if (error) *error = path + ": read error";
    return std::nullopt;
  }
  return ss.str();
}

}  // namespace detail

double SceneDraw::draw(std::uint64_t seed, std::uint64_t what, std::uint64_t which) const {
  switch (kind) {
    case Kind::Fixed: return value;
    case Kind::Uniform: return min + detail::unit01(seed, what, which, 0) * (max - min);
    case Kind::Normal:
    case Kind::LogNormal: break;
  }
  double mu = mean, sigma = sd;
  if (kind == Kind::LogNormal) {  // the log's mean and sd from the value's
    const double s2 = std::log1p(sd * sd / (mean * mean));
    mu = std::log(mean) - s2 / 2;
    sigma = std::sqrt(s2);
  }
  // The resolver keeps at least 1% of the distribution in the clip, so a
  // thousand draws all falling outside is far below one chance in 1e4.
  for (std::uint64_t attempt = 0; attempt < 1000; ++attempt) {
    double x = detail::drawNormal(mu, sigma, seed, what, which, attempt);
    if (kind == Kind::LogNormal) x = std::exp(x);
    if (x >= min && x <= max) return x;
  }
  return std::clamp(mean, min, max);
}

double nearestRankPercentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  const std::size_t rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100 * n - 1e-9)));
  return values[std::min(rank, values.size()) - 1];
}

EnvelopeBound loosestEnvelope(const SceneSpec& spec) {
  // StepEnvelope's per-walker rule, at dt = 1 so its steps are the bounds.
  StepEnvelope e = settingsEnvelope(spec.settings, 1.0f);
  EnvelopeBound out;
  const auto walker = [&](float ownAccel, float ownDecel) {
    e.ownAccel = &ownAccel;
    e.ownDecel = &ownDecel;
    const float a = e.accelOf(0);
    if (!(a > 0.0f)) return false;
    out.accel = std::max(out.accel, static_cast<double>(a));
    out.decel = std::max(out.decel, static_cast<double>(e.brakeOf(0, a)));
    return true;
  };
  bool all = true;
  for (const SceneAgent& a : spec.agents) all = walker(a.maxAccel, a.maxDecel) && all;
  for (const SceneSource& s : spec.sources) all = walker(s.maxAccel, s.maxDecel) && all;
  if (spec.agents.empty() && spec.sources.empty()) all = walker(0, 0);  // no walkers: the settings'
  return all ? out : EnvelopeBound{};
}

std::string diagramFigureName(double d) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", d);
  return b;
}

// ---- Scene ----------------------------------------------------------------------

std::optional<Scene> Scene::load(const std::string& path, std::string* error, std::size_t maxAgents) {
  std::optional<Scene> s = doLoad(path, error, maxAgents);
  if (!s && error) *error = detail::oneLine(*error);
  return s;
}

std::optional<Scene> Scene::parse(std::string text, std::string fileName, std::string* error, std::size_t maxAgents) {
  std::optional<Scene> s = doParse(std::move(text), std::move(fileName), error, maxAgents);
  if (!s && error) *error = detail::oneLine(*error);
  return s;
}

bool Scene::set(std::string_view name, double value, std::string* error) {
  const bool ok = doSet(name, value, error);
  if (!ok && error) *error = detail::oneLine(*error);
  return ok;
}

bool Scene::assign(std::string_view assignment, std::string* error) {
  const bool ok = doAssign(assignment, error);
  if (!ok && error) *error = detail::oneLine(*error);
  return ok;
}

std::optional<Scene> Scene::doLoad(const std::string& path, std::string* error, std::size_t maxAgents) {
  std::optional<std::string> text = detail::readFile(path, error);
  if (!text) return std::nullopt;
  return doParse(std::move(*text), path, error, maxAgents);
}

namespace {

/// A scene nests a few levels (a height map's rows, a GeoJSON plan's
/// rings); the parser copies a value into an object recursively, so text
/// nested far deeper would overflow the stack before it could be refused.
constexpr std::size_t kMaxJsonDepth = 256;

/// "FILE:LINE:COLUMN" of byte `at` of `text` (both 1-based).
std::string placeOf(const std::string& file, std::string_view text, std::size_t at) {
  const std::size_t lineStart = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t col = at - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + 1;
  return file + ":" + std::to_string(detail::lineAt(text, at)) + ":" + std::to_string(col);
}

/// A resolver's failure as one line: "FILE:LINE: /pointer: message". Keys
/// and strings from the file are quoted in the pointer and the message, so
/// both are clipped: a line stays readable however long they are.
std::string failureLine(const std::string& file, std::string_view text, const detail::ResolveFailure& f) {
  const auto clip = [](std::string s, std::size_t most) {
    if (s.size() > most) s = s.substr(0, most - 3) + "...";
    return s;
  };
  return file + ":" + std::to_string(detail::pointerLine(text, f.tokens)) + ": " +
         clip(f.tokens.empty() ? "/" : detail::joinPointer(f.tokens), 120) + ": " + clip(f.message, 300);
}

}  // namespace

std::size_t detail::nestedPast(std::string_view text, std::size_t most, Nesting kind) {
  const bool json = kind == Nesting::Json;
  std::size_t depth = 0;
  bool inString = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') inString = false;
    } else if (json && c == '"') {
      inString = true;
    } else if (json ? c == '[' || c == '{' : c == '(') {
      if (++depth > most) return i;
    } else if ((json ? c == ']' || c == '}' : c == ')') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

std::optional<Scene> Scene::doParse(std::string text, std::string fileName, std::string* error,
                                       std::size_t maxAgents) {
  auto doc = std::make_shared<Doc>();
  doc->text = std::move(text);
  doc->maxAgents = std::min(maxAgents, kMaxSceneAgents);
  if (const std::size_t at = detail::nestedPast(doc->text, kMaxJsonDepth, detail::Nesting::Json);
      at != std::string_view::npos) {
    if (error) *error = placeOf(fileName, doc->text, at) + ": nested more than " + std::to_string(kMaxJsonDepth) + " deep";
    return std::nullopt;
  }
  try {
    doc->json = Json::parse(doc->text);
  } catch (const Json::parse_error& e) {
    if (error) {
      // e.byte is 1-based, at the character that broke the parse.
      const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
      std::string what = e.what();
      const std::size_t cut = what.find("syntax error");
      if (cut != std::string::npos) what = what.substr(cut);
      // The parser quotes all it read of the token, which may be the whole
      // file: its last 40 characters say where.
      const std::size_t read = what.find("last read: '");
      if (read != std::string::npos) {
        const std::size_t b = read + 12, e = what.rfind('\'');
        if (e != std::string::npos && e > b + 40) what.replace(b, e - b - 40, "...");
      }
      *error = placeOf(fileName, doc->text, at) + ": invalid JSON: " + what;
    }
    return std::nullopt;
  } catch (const std::exception& e) {
    // Other parse failures (a number past double's range: "number overflow
    // parsing '1e999'") carry no position: the line is that of the quoted
    // text, where it can be found.
    if (error) {
      const std::string what = e.what();
      const std::size_t q = what.find('\''), q2 = what.rfind('\'');
      const std::size_t at = q != std::string::npos && q2 > q + 1 ? doc->text.find(what.substr(q + 1, q2 - q - 1))
                                                                 : std::string::npos;
      const std::size_t line = at == std::string::npos ? 1 : detail::lineAt(doc->text, at);
      const std::size_t tag = what.find("] ");
      *error = fileName + ":" + std::to_string(line) + ": invalid JSON: " +
               (tag == std::string::npos ? what : what.substr(tag + 2)).substr(0, 200);
    }
    return std::nullopt;
  }
  Scene s;
  s.file_ = std::move(fileName);
  try {
    detail::readSceneFiles(doc->json, s.file_, &doc->files);
  } catch (const detail::ResolveFailure& f) {
    if (error) *error = failureLine(s.file_, doc->text, f);
    return std::nullopt;
  }
  s.doc_ = std::move(doc);
  if (!s.resolve(error)) return std::nullopt;
  return s;
}

bool Scene::resolve(std::string* error) {
  std::vector<Knob> knobs = knobs_;
  try {
    SceneSpec spec = detail::resolveScene(doc_->json, knobs, settingOverrides_, doc_->maxAgents, doc_->files);
    if (spec.name.empty()) {
      std::string base = file_;
      const std::size_t slash = base.find_last_of('/');
      if (slash != std::string::npos) base = base.substr(slash + 1);
      if (base.size() > 5 && base.ends_with(".json")) base.resize(base.size() - 5);
      spec.name = base;
    }
    spec_ = std::move(spec);
    knobs_ = std::move(knobs);
    return true;
  } catch (const detail::ResolveFailure& f) {
    if (error) *error = failureLine(file_, doc_->text, f);
  } catch (const std::exception& e) {
    if (error) *error = file_ + ": " + e.what();
  }
  return false;
}

bool Scene::doSet(std::string_view name, double value, std::string* error) {
  const bool isKnob = std::any_of(knobs_.begin(), knobs_.end(), [&](const Knob& k) { return k.name == name; });
  if (isKnob || !findSetting(name)) return setKnob(name, value, error);
  // Checked here so the message is the setting's own, and kept as text like
  // every override: the shortest that reads back to this double, or a
  // seed's digits.
  Settings probe;
  if (!setSetting(probe, name, value, error)) return false;
  const bool seed = findSetting(name)->kind == SettingKind::Seed;
  return setOverride(name, seed ? getSettingText(probe, name) : formatSettingNumber(value), error);
}

bool Scene::doAssign(std::string_view a, std::string* error) {
  const std::size_t eq = a.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    if (error) *error = "expected name=value, got \"" + std::string(a) + "\"";
    return false;
  }
  const std::string_view name = a.substr(0, eq), value = a.substr(eq + 1);
  const bool isKnob = std::any_of(knobs_.begin(), knobs_.end(), [&](const Knob& k) { return k.name == name; });
  if (!isKnob && findSetting(name)) {
    Settings probe;
    if (!setSettingText(probe, name, value, error)) return false;
    return setOverride(name, value, error);
  }
  const std::optional<double> v = parseDouble(value);
  if (!v) {
    if (error) *error = std::string(name) + " expects a number, got \"" + std::string(value) + "\"";
    return false;
  }
  return setKnob(name, *v, error);
}

bool Scene::setKnob(std::string_view name, double value, std::string* error) {
  const Scene before = *this;
  bool known = false;
  for (Knob& k : knobs_) {
    if (k.name != name) continue;
    known = true;
    if (!(value >= k.min && value <= k.max)) {
      if (error) *error = "knob " + k.name + " = " + fmt(value) + " is out of range [" + fmt(k.min) + ", " + fmt(k.max) + "]";
      return false;
    }
    if (k.integer && value != std::floor(value)) {
      if (error) *error = "knob " + k.name + " takes whole numbers, got " + fmt(value);
      return false;
    }
    k.value = value;
  }
  if (!known) {
    if (error) {
      std::string knobs, settings;
      for (const Knob& k : knobs_) knobs += (knobs.empty() ? "" : ", ") + k.name;
      for (const SettingInfo& i : settingsTable()) settings += (settings.empty() ? "" : ", ") + std::string(i.name);
      *error = "unknown knob or setting \"" + std::string(name) + "\" (knobs of " + spec_.name + ": " +
               (knobs.empty() ? "none" : knobs) + "; settings: " + settings + ")";
    }
    return false;
  }
  if (!resolve(error)) {
    *this = before;
    return false;
  }
  return true;
}

bool Scene::setOverride(std::string_view name, std::string_view text, std::string* error) {
  const Scene before = *this;
  settingOverrides_[std::string(name)] = std::string(text);
  if (!resolve(error)) {
    *this = before;
    return false;
  }
  return true;
}

void Scene::reset() {
  for (Knob& k : knobs_) k.value = k.defaultValue;
  settingOverrides_.clear();
  std::string ignored;
  resolve(&ignored);  // the defaults resolved when the file loaded
}

}  // namespace throng
