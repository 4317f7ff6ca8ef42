// The scene document: the tree, reading and writing a file, saving it whole,
// building its Scene, and the undo history (scene_doc.hpp). The edits are
// in scene_doc_edit.cpp, shapes, the checker and the inspector's fields in
// scene_doc_check.cpp.
//
// Reading leaves every judgement to the loader: a text is a document only
// when Scene::parse takes it, so a document is never a file the loader
// would refuse, and the tree is then read from the same ordered_json parse.
// A valid scene is a few levels deep at most, so the recursions here are
// shallow.
//
// Writing: the layout is a function of the tree alone (two-space indent; an
// array of plain values, or any value whose one-line form fits in 100
// columns, on one line), so read(write(d)) == d and a saved file changes
// only where the document did. Numbers print as the shortest text that
// reads back to the same double (whole numbers below 2^53 as integers, so
// a seed stays an unsigned integer to the parser).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "scene/scene_doc_internal.hpp"
#include "scene/scene_internal.hpp"
#include "throng/output_file.hpp"
#include "throng/scene_doc.hpp"

namespace throng {

using Json = nlohmann::ordered_json;
using namespace docdetail;

// ---- DocValue -------------------------------------------------------------------

DocValue DocValue::boolean(bool b) {
  DocValue v;
  v.kind_ = Kind::boolean;
  v.bool_ = b;
  return v;
}

DocValue DocValue::number(double x) {
  DocValue v;
  v.kind_ = Kind::number;
  v.number_ = x;
  return v;
}

DocValue DocValue::wholeNumber(std::uint64_t u) {
  DocValue v = number(static_cast<double>(u));
  v.exact_ = true;
  v.whole_ = u;
  return v;
}

DocValue DocValue::string(std::string s) {
  DocValue v;
  v.kind_ = Kind::string;
  v.string_ = std::move(s);
  return v;
}

DocValue DocValue::array(std::vector<DocValue> items) {
  DocValue v;
  v.kind_ = Kind::array;
  v.items_ = std::move(items);
  return v;
}

DocValue DocValue::object(std::vector<std::pair<std::string, DocValue>> members) {
  DocValue v;
  v.kind_ = Kind::object;
  v.members_ = std::move(members);
  return v;
}

const DocValue* DocValue::find(std::string_view key) const {
  if (kind_ != Kind::object) return nullptr;
  for (const auto& m : members_)
    if (m.first == key) return &m.second;
  return nullptr;
}

DocValue* DocValue::find(std::string_view key) {
  return const_cast<DocValue*>(static_cast<const DocValue*>(this)->find(key));
}

const DocValue* DocValue::at(std::string_view pointer) const {
  const std::optional<Tokens> tokens = splitPointer(pointer);
  if (!tokens) return nullptr;
  const DocValue* v = this;
  for (const std::string& t : *tokens) {
    if (v->kind_ == Kind::object) {
      v = v->find(t);
    } else if (v->kind_ == Kind::array) {
      const std::optional<std::size_t> i = arrayIndex(t);
      v = i && *i < v->items_.size() ? &v->items_[*i] : nullptr;
    } else {
      v = nullptr;
    }
    if (!v) return nullptr;
  }
  return v;
}

DocValue* DocValue::at(std::string_view pointer) {
  return const_cast<DocValue*>(static_cast<const DocValue*>(this)->at(pointer));
}

bool DocValue::operator==(const DocValue& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case Kind::null: return true;
    case Kind::boolean: return bool_ == o.bool_;
    case Kind::number: return number_ == o.number_ && exact_ == o.exact_ && whole_ == o.whole_;
    case Kind::string: return string_ == o.string_;
    case Kind::array: return items_ == o.items_;
    case Kind::object: return members_ == o.members_;
  }
  return false;
}

// ---- reading and writing ------------------------------------------------------------

namespace {

DocValue fromJson(const Json& j) {
  switch (j.type()) {
    case Json::value_t::boolean: return DocValue::boolean(j.get<bool>());
    case Json::value_t::number_unsigned: {
      const auto u = j.get<std::uint64_t>();
      return u > (std::uint64_t{1} << 53) ? DocValue::wholeNumber(u) : DocValue::number(static_cast<double>(u));
    }
    case Json::value_t::number_integer:
    case Json::value_t::number_float: return DocValue::number(j.get<double>());
    case Json::value_t::string: return DocValue::string(j.get<std::string>());
    case Json::value_t::array: {
      std::vector<DocValue> items;
      items.reserve(j.size());
      for (const Json& e : j) items.push_back(fromJson(e));
      return DocValue::array(std::move(items));
    }
    case Json::value_t::object: {
      std::vector<std::pair<std::string, DocValue>> members;
      for (const auto& item : j.items()) members.emplace_back(item.key(), fromJson(item.value()));
      return DocValue::object(std::move(members));
    }
    default: return DocValue();
  }
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u < 0x20) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\u%04x", u);
          out += hex;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string scalarText(const DocValue& v) {
  switch (v.kind()) {
    case DocValue::Kind::boolean: return v.asBool() ? "true" : "false";
    case DocValue::Kind::number: return v.exactWhole() ? std::to_string(*v.exactWhole()) : formatNumber(v.asNumber());
    case DocValue::Kind::string: return quoted(v.asString());
    default: return "null";
  }
}

bool isContainer(const DocValue& v) { return v.kind() == DocValue::Kind::array || v.kind() == DocValue::Kind::object; }

/// The one-line form: [1, 2], {"knob": "w"}.
void oneLine(const DocValue& v, std::string& out) {
  if (v.kind() == DocValue::Kind::array) {
    out += '[';
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      if (i) out += ", ";
      oneLine(v.items()[i], out);
    }
    out += ']';
  } else if (v.kind() == DocValue::Kind::object) {
    out += '{';
    for (std::size_t i = 0; i < v.members().size(); ++i) {
      if (i) out += ", ";
      out += quoted(v.members()[i].first) + ": ";
      oneLine(v.members()[i].second, out);
    }
    out += '}';
  } else {
    out += scalarText(v);
  }
}

/// Whether the one-line form is at most `budget` characters (stops early:
/// a large height map is not printed to be measured).
bool fits(const DocValue& v, std::ptrdiff_t& budget) {
  if (v.kind() == DocValue::Kind::array) {
    budget -= 2;
    for (std::size_t i = 0; i < v.items().size() && budget >= 0; ++i) {
      if (i) budget -= 2;
      if (!fits(v.items()[i], budget)) return false;
    }
  } else if (v.kind() == DocValue::Kind::object) {
    budget -= 2;
    for (std::size_t i = 0; i < v.members().size() && budget >= 0; ++i) {
      if (i) budget -= 2;
      budget -= static_cast<std::ptrdiff_t>(quoted(v.members()[i].first).size()) + 2;
      if (budget < 0 || !fits(v.members()[i].second, budget)) return false;
    }
  } else {
    budget -= static_cast<std::ptrdiff_t>(scalarText(v).size());
  }
  return budget >= 0;
}

/// An array of numbers, strings and knob references: a point, a rectangle,
/// a row of heights, a list of groups. Always on one line.
bool plainArray(const DocValue& v) {
  return v.kind() == DocValue::Kind::array && std::all_of(v.items().begin(), v.items().end(), [](const DocValue& e) {
           return !isContainer(e) || isKnobRef(e);
         });
}

constexpr std::ptrdiff_t kWidth = 100;

void writeValue(const DocValue& v, int indent, std::ptrdiff_t column, bool top, std::string& out) {
  std::ptrdiff_t budget = kWidth - column;
  const bool empty = (v.kind() == DocValue::Kind::array && v.items().empty()) ||
                     (v.kind() == DocValue::Kind::object && v.members().empty());
  if (!isContainer(v) || empty || plainArray(v) || (!top && fits(v, budget))) {
    oneLine(v, out);
    return;
  }
  const std::string inner(static_cast<std::size_t>(2 * (indent + 1)), ' ');
  const bool array = v.kind() == DocValue::Kind::array;
  out += array ? "[\n" : "{\n";
  const std::size_t n = array ? v.items().size() : v.members().size();
  for (std::size_t i = 0; i < n; ++i) {
    out += inner;
    if (array) {
      writeValue(v.items()[i], indent + 1, static_cast<std::ptrdiff_t>(inner.size()) + 1, false, out);
    } else {
      const std::string key = quoted(v.members()[i].first) + ": ";
      out += key;
      writeValue(v.members()[i].second, indent + 1, static_cast<std::ptrdiff_t>(inner.size() + key.size()) + 1, false,
                 out);
    }
    out += i + 1 < n ? ",\n" : "\n";
  }
  out += std::string(static_cast<std::size_t>(2 * indent), ' ') + (array ? "]" : "}");
}

}  // namespace

std::optional<SceneDoc> SceneDoc::read(std::string text, std::string fileName, std::string* error) {
  // The loader judges first: its message, and no document of a file it refuses.
  const std::optional<Scene> scene = Scene::parse(text, fileName, error);
  if (!scene) return std::nullopt;
  SceneDoc d;
  try {
    d.root_ = fromJson(Json::parse(text));
  } catch (const std::exception& e) {  // the loader read it: cannot happen
    if (error) *error = fileName + ": " + e.what();
    return std::nullopt;
  }
  d.file_ = std::move(fileName);
  for (const Knob& k : scene->knobs()) d.knobValues_[k.name] = k.defaultValue;
  return d;
}

std::optional<SceneDoc> SceneDoc::load(const std::string& path, std::string* error) {
  std::optional<std::string> text = detail::readFile(path, error);
  if (!text) return std::nullopt;
  return read(std::move(*text), path, error);
}

SceneDoc SceneDoc::blank(std::string name) {
  SceneDoc d;
  d.root_ = DocValue::object({{"name", DocValue::string(std::move(name))}, {"units", DocValue::string("m")}});
  return d;
}

std::string docdetail::jsonText(const DocValue& v) {
  std::string out;
  writeValue(v, 0, 0, true, out);
  return out;
}

std::string SceneDoc::write() const {
  std::string out;
  writeValue(root_, 0, 0, true, out);
  return out + "\n";
}

std::optional<Scene> SceneDoc::build(std::string* error, std::size_t maxAgents) const {
  std::optional<Scene> s = Scene::parse(write(), file_.empty() ? std::string("untitled.json") : file_, error, maxAgents);
  if (!s) return std::nullopt;
  for (const Knob& k : std::vector<Knob>(s->knobs())) {
    const auto it = knobValues_.find(k.name);
    if (it == knobValues_.end() || it->second == k.value) continue;
    std::string why;
    if (!s->set(k.name, it->second, &why)) {
      if (error) *error = why + " (with " + k.name + " = " + formatNumber(it->second) + ")";
      return std::nullopt;
    }
  }
  return s;
}

bool SceneDoc::save(const std::string& path, std::string* error) const {
  auto refuse = [&](std::string why) {
    if (error) *error = path + ": " + std::move(why);
    return false;
  };
  for (const DocProblem& p : problems(*this, false))
    if (p.blocking) return refuse("not saved: " + (p.pointer.empty() ? "" : p.pointer + ": ") + p.message);
  const std::string text = write();
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty()) return refuse("not a file name");
  // Keep the mode of the file replaced; a new file gets rw-r--r--.
  mode_t mode = 0644;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) mode = st.st_mode & 07777;
  OutputFile out;
  std::string why;
  if (!out.open(path, &why))
    return refuse("cannot create a temporary file in " + dir + " (" + why + "); not saved");
  if (std::fwrite(text.data(), 1, text.size(), out.file()) != text.size() || ::fchmod(::fileno(out.file()), mode) != 0)
    return refuse(std::string("cannot write (") + std::strerror(errno) + "); not saved");
  if (!out.commit(&why)) return refuse("cannot replace the file (" + why + "); not saved");
  return true;
}

std::optional<DocNumber> SceneDoc::number(std::string_view pointer) const {
  const DocValue* v = root_.at(pointer);
  if (!v) return std::nullopt;
  return Eval(*this).number(v);
}

std::optional<Vec2> SceneDoc::point(std::string_view pointer) const {
  const DocValue* v = root_.at(pointer);
  if (!v) return std::nullopt;
  return Eval(*this).point(v);
}

bool SceneDoc::setKnobValue(const std::string& name, double value, std::string* error) {
  const DocValue* knobs = root_.find("knobs");
  const DocValue* k = knobs ? knobs->find(name) : nullptr;
  auto refuse = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (!k) {
    std::string list;
    if (knobs)
      for (const auto& m : knobs->members()) list += (list.empty() ? "" : ", ") + m.first;
    return refuse("unknown knob \"" + name + "\" (knobs: " + (list.empty() ? "none" : list) + ")");
  }
  const DocValue *lo = k->find("min"), *hi = k->find("max"), *whole = k->find("integer");
  if (!std::isfinite(value) || !lo || !hi || !(value >= lo->asNumber() && value <= hi->asNumber()))
    return refuse("knob " + name + " = " + formatNumber(value) + " is out of range [" +
                  (lo ? formatNumber(lo->asNumber()) : "?") + ", " + (hi ? formatNumber(hi->asNumber()) : "?") + "]");
  if (whole && whole->asBool() && value != std::floor(value))
    return refuse("knob " + name + " takes whole numbers, got " + formatNumber(value));
  SceneDoc next = *this;
  next.knobValues_[name] = value;
  if (!next.build(error)) return false;
  knobValues_[name] = value;
  return true;
}

SceneDoc SceneDocAccess::make(DocValue root, std::string file) {
  SceneDoc d;
  d.root_ = std::move(root);
  d.file_ = std::move(file);
  syncKnobs(d);
  return d;
}

void SceneDocAccess::syncKnobs(SceneDoc& d) {
  std::map<std::string, double> values;
  if (const DocValue* knobs = d.root_.find("knobs"); knobs && knobs->kind() == DocValue::Kind::object) {
    for (const auto& m : knobs->members()) {
      const DocValue *def = m.second.find("default"), *lo = m.second.find("min"), *hi = m.second.find("max");
      const double fallback = def && def->kind() == DocValue::Kind::number ? def->asNumber() : 0;
      const auto it = d.knobValues_.find(m.first);
      const bool keep = it != d.knobValues_.end() && lo && hi && it->second >= lo->asNumber() &&
                        it->second <= hi->asNumber();
      values[m.first] = keep ? it->second : fallback;
    }
  }
  d.knobValues_ = std::move(values);
}

// ---- DocHistory -----------------------------------------------------------------------

DocHistory::DocHistory(SceneDoc start) { docs_.push_back(std::move(start)); }

void DocHistory::commit(SceneDoc next) {
  if (gesture_) {
    update(std::move(next));
    return;
  }
  docs_.resize(at_ + 1);
  if (saved_ > at_) saved_ = static_cast<std::size_t>(-1);  // the saved document was a redo step
  docs_.push_back(std::move(next));
  ++at_;
}

void DocHistory::beginGesture() {
  gesture_ = true;
  gestureChanged_ = false;
}

void DocHistory::update(SceneDoc next) {
  if (!gesture_) {
    commit(std::move(next));
    return;
  }
  if (!gestureChanged_) {
    gesture_ = false;
    commit(std::move(next));
    gesture_ = true;
    gestureChanged_ = true;
  } else {
    docs_[at_] = std::move(next);
  }
}

void DocHistory::endGesture() {
  if (gesture_ && gestureChanged_ && at_ > 0 && docs_[at_] == docs_[at_ - 1]) {
    // A drag that ended where it began is no step.
    docs_.pop_back();
    --at_;
    if (saved_ > at_ && saved_ != static_cast<std::size_t>(-1)) saved_ = static_cast<std::size_t>(-1);
  }
  gesture_ = false;
  gestureChanged_ = false;
}

bool DocHistory::undo() {
  if (gesture_) endGesture();
  if (!canUndo()) return false;
  --at_;
  return true;
}

bool DocHistory::redo() {
  if (gesture_) endGesture();
  if (!canRedo()) return false;
  ++at_;
  return true;
}

bool DocHistory::dirty() const {
  if (saved_ >= docs_.size()) return true;
  return saved_ != at_ && !(docs_[saved_] == docs_[at_]);
}

void DocHistory::markSaved() { saved_ = at_; }

}  // namespace throng
