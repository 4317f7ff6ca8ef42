#pragma once
// Shared by the scene document's sources (scene_doc*.cpp) and its tests;
// not installed. The document's pointers, the format's shape (which values
// are points, rectangles, expressions; the canonical key order), numbers as
// text, and the evaluation of numbers with the knobs' current values.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scene/pointer.hpp"
#include "throng/scene_doc.hpp"

namespace throng {

/// The document's insides, for the edits and the tests (which make
/// documents the loader would refuse, to see the checker flag them).
struct SceneDocAccess {
  static DocValue& root(SceneDoc& d) { return d.root_; }
  static std::map<std::string, double>& knobValues(SceneDoc& d) { return d.knobValues_; }
  /// A document of `root` as it is, unchecked; the knobs at their defaults.
  static SceneDoc make(DocValue root, std::string file);
  /// The knob values again after an edit: a value for every knob of the
  /// document (kept when still in range, else the default), none other.
  static void syncKnobs(SceneDoc& d);
};

namespace docdetail {

using Tokens = detail::PointerTokens;
// The pointers' tokens and escaping, shared with the loader (pointer.hpp).
using detail::arrayIndex;
using detail::escapeToken;
using detail::joinPointer;
using detail::splitPointer;

/// The pointer's shape in the format: an index "#", a knob's or a route's
/// name "*" ("/routes/*/gates/#/#").
std::string patternOf(const Tokens& tokens);
/// What the format puts at a pattern.
enum class Slot : std::uint8_t { other, point, rect, pointList, rectList, gate, gateList };
Slot slotOf(const std::string& pattern);
/// The members of an element that move with it ("at" of an agent, "region"
/// of a source, "gates", "goal" and "goalRegion" of a route); empty when
/// the pattern is no element.
const std::vector<std::string_view>& movingMembers(const std::string& pattern);
/// The canonical order of an object's keys (schema.hpp), or empty where
/// new keys go last (the knobs, the routes).
std::span<const std::string_view> canonicalKeys(const std::string& pattern);
/// Sets obj[key] = value: in place when present, else where the canonical
/// order of `pattern` (the object's) puts it among the keys present.
void setMember(DocValue& obj, const std::string& pattern, std::string_view key, DocValue value);
/// Removes obj[key]; false when absent.
bool removeMember(DocValue& obj, std::string_view key);
/// Whether a string at these tokens is text (a name, a model, a route),
/// not an expression.
bool isTextSlot(const Tokens& tokens);
/// Calls fn(tokens, expression) for every expression in the tree: strings
/// where the format takes a number, and the names of knob references.
void forEachExpression(const DocValue& v, Tokens& at,
                       const std::function<void(const Tokens&, const std::string&)>& fn);
/// Whether v is a knob reference {"knob": "name"}.
bool isKnobRef(const DocValue& v);

/// A number as write() prints it: whole numbers below 2^53 as integers,
/// others the shortest text that reads back to the same double.
std::string formatNumber(double v);
/// A value as JSON text (the canonical layout of SceneDoc::write).
std::string jsonText(const DocValue& v);
/// The double nearest the shortest text of a float (3.2f -> 3.2, not
/// 3.2000000476837158): coordinates from the editor are floats.
double fromFloat(float f);
/// v with the noise of a sum taken off: its nearest 15-digit decimal.
double tidy(double v);
/// A plain number, a knob reference or an expression of a text typed in
/// the inspector; nullopt when it is none of them.
std::optional<DocValue> numberFromText(std::string_view text);
DocValue pointValue(Vec2 p);
DocValue rectValue(Rect r);

/// Evaluates the document's numbers with its knobs' current values.
class Eval {
 public:
  explicit Eval(const SceneDoc& doc);
  /// A number, knob reference or expression; nullopt with *error.
  std::optional<DocNumber> number(const DocValue* v, std::string* error = nullptr) const;
  std::optional<double> value(const DocValue* v) const;
  std::optional<Vec2> point(const DocValue* v) const;
  std::optional<Rect> rect(const DocValue* v) const;
  std::optional<std::vector<Vec2>> points(const DocValue* v) const;
  std::optional<double> expression(std::string_view s, std::string* error) const;
  /// The knob of that name's value, or nullopt.
  std::optional<double> knob(std::string_view name) const;

 private:
  std::map<std::string, double, std::less<>> values_;
  std::vector<std::string> names_;
};

/// The geometry the walkers meet, evaluated: obstacles' outlines and walls.
struct Geometry {
  std::vector<std::vector<Vec2>> outlines, walls;
  std::vector<std::string> outlinePointers, wallPointers;
};
/// A rectangle's corners, as the loader makes an obstacle of one.
std::vector<Vec2> rectCorners(Rect r);
Geometry geometryOf(const SceneDoc& doc, const Eval& e);
/// The radius of walkers made by the element `elem` (its "radius", else the
/// agentDefaults', else 0.25).
double walkerRadius(const DocValue& root, const DocValue& elem, const Eval& e);

/// The checker (scene_doc_check.cpp): checkDoc() is problems(doc, true);
/// without warnings it skips the builds at the knobs' ends (save's check).
std::vector<DocProblem> problems(const SceneDoc& doc, bool warnings);

/// Moves a number by d (scene_doc_edit.cpp): a plain number stays plain
/// (its sum tidied), an expression keeps itself and gains or folds a
/// trailing constant ("a - 2" by 0.5: "a - 1.5"), a knob reference becomes
/// an expression ("w + 0.5"). False when v is no number.
bool shiftNumber(DocValue& v, double d);
/// s + d as an expression, folding a trailing constant.
std::string appendConstant(const std::string& s, double d);

}  // namespace docdetail
}  // namespace throng
