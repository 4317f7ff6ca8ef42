#pragma once
// The editable scene document: a scene file as data that can be edited,
// checked, saved and run, for the visualizer's edit mode.
//
// Design note.
// A Scene resolves its file into a SceneSpec: generators expanded, knob
// expressions evaluated, so nothing can be saved from it. A SceneDoc keeps
// the file itself: an ordered tree (DocValue) with the file's keys in the
// file's order, every number either a plain number, a knob reference
// {"knob": "name"} or an expression string over knobs, exactly as written.
// Reading and writing are exact inverses: write() prints the tree with a
// fixed layout (two-space indent; a short array of numbers, a point, a rect
// or a row of heights on one line), read(write(d)) == d, and a key added by
// an edit goes where the canonical order (the order of scene.hpp's format)
// puts it among the keys present.
//
// The run is always built from the document (build(): Scene::parse of
// write()), so what is saved is what was run.
//
// Edits are pure functions: each takes a document and returns a new one,
// or an error and nothing changed; a number that was an expression stays an
// expression (a move by d of "10 - doorWidth / 2" writes
// "10 - doorWidth / 2 + 0.5"), so knobs survive editing. DocHistory keeps
// the documents for undo and redo, a whole gesture (a drag, a slider held)
// as one step.
//
// Elements are addressed by JSON pointer ("/walls/2", "/obstacles/0",
// "/agents/5", "/generators/1", "/sources/0", "/sinks/0", "/targets/0",
// "/routes/door/gates/1", "/discomfort/0", "/hills/0", "/knobs/doorWidth");
// a vertex by its point's pointer ("/walls/2/1", "/obstacles/0/outline/3").
// shapes() gives every element's geometry, evaluated with the knobs'
// current values, for drawing and picking.
//
// No SDL, GL or JSON library types cross this header.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "throng/scene.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// One value of the tree: null, a boolean, a number, a string (text, or an
/// expression where the format takes a number), an array or an object with
/// ordered keys.
class DocValue {
 public:
  enum class Kind : std::uint8_t { null, boolean, number, string, array, object };

  DocValue() = default;
  static DocValue boolean(bool b);
  static DocValue number(double v);
  static DocValue string(std::string s);
  static DocValue array(std::vector<DocValue> items = {});
  static DocValue object(std::vector<std::pair<std::string, DocValue>> members = {});
  /// A whole number kept exactly: a seed above 2^53, which a double would
  /// round (read() keeps every such number of a file this way).
  static DocValue wholeNumber(std::uint64_t v);

  Kind kind() const { return kind_; }
  bool asBool() const { return bool_; }
  double asNumber() const { return number_; }
  /// A number's exact value when it was made by wholeNumber() (or read as a
  /// whole number above 2^53); nullopt otherwise.
  std::optional<std::uint64_t> exactWhole() const {
    return exact_ ? std::optional<std::uint64_t>(whole_) : std::nullopt;
  }
  const std::string& asString() const { return string_; }
  const std::vector<DocValue>& items() const { return items_; }
  std::vector<DocValue>& items() { return items_; }
  const std::vector<std::pair<std::string, DocValue>>& members() const { return members_; }
  std::vector<std::pair<std::string, DocValue>>& members() { return members_; }
  /// The member `key` of an object, or nullptr.
  const DocValue* find(std::string_view key) const;
  DocValue* find(std::string_view key);
  /// The value at a JSON pointer below this one, or nullptr.
  const DocValue* at(std::string_view pointer) const;
  DocValue* at(std::string_view pointer);

  bool operator==(const DocValue& o) const;

 private:
  Kind kind_ = Kind::null;
  bool bool_ = false;
  bool exact_ = false;
  double number_ = 0;
  std::uint64_t whole_ = 0;  ///< exact_: the number, exactly
  std::string string_;
  std::vector<DocValue> items_;
  std::vector<std::pair<std::string, DocValue>> members_;
};

/// A number as the file writes it.
struct DocNumber {
  enum class Form : std::uint8_t { plain, knob, expression };
  Form form = Form::plain;
  double value = 0;  ///< plain: the number; else its value at the knobs' current values
  std::string text;  ///< knob: its name; expression: the expression
};

/// What an element is, for drawing, picking and the inspector.
enum class DocShapeKind : std::uint8_t {
  wall, obstacle, agent, goal, generator, source, sink, target, gate, discomfort, hill, heightMap, discomfortMap,
  measureLine, measureArea,  ///< the scene's measurements (throng/measure.hpp)
  speedZone, stairs          ///< ground that changes walkers' speed (throng/fields.hpp)
};

/// One element's geometry at the knobs' current values.
struct DocShape {
  std::string pointer;              ///< the element ("/walls/2")
  DocShapeKind kind = DocShapeKind::wall;
  std::vector<Vec2> points;         ///< outline, polyline, rect corners, or one point
  std::vector<std::string> vertexPointers;  ///< per point: its pointer when it can be dragged alone, else empty
  bool closed = false;              ///< an outline (obstacle, region)
  float radius = 0;                 ///< agents and hills: world units
  Vec2 up;                          ///< stairs: uphill as the file gives it (any length); else 0
};

/// A problem the checker found, at an element.
struct DocProblem {
  std::string pointer;  ///< the element or number ("" for the whole scene)
  std::string message;  ///< one line
  bool blocking = true; ///< true: the scene would not load or run; false: a warning
};

/// A field of an element, for the inspector: its pointer, its number or
/// text, its unit and limits.
struct DocField {
  std::string name, pointer, unit;
  std::optional<DocNumber> number;  ///< numbers
  std::string text;                 ///< strings and names
  double min = -1e12, max = 1e12;
  bool integer = false;
  /// false: the key is absent from the file, and `number` or `text` give
  /// the value it takes (the default); setting it adds the key.
  bool inFile = true;
};

class SceneDoc {
 public:
  /// The document of a scene file's text; nullopt with *error ("FILE:LINE:
  /// /pointer: message") when it would not load as a Scene.
  static std::optional<SceneDoc> read(std::string text, std::string fileName, std::string* error);
  static std::optional<SceneDoc> load(const std::string& path, std::string* error);
  /// An empty scene (name, units "m", no walkers) for a new file.
  static SceneDoc blank(std::string name);

  /// The file's text, canonical layout; read(write()) gives this document.
  std::string write() const;
  /// Writes `path` whole or not at all (a temporary file renamed over it);
  /// refuses (false, *error) when checkDoc() finds a blocking problem.
  bool save(const std::string& path, std::string* error) const;
  /// The scene this document runs as (Scene::parse of write()).
  std::optional<Scene> build(std::string* error, std::size_t maxAgents = kMaxSceneAgents) const;

  const DocValue& root() const { return root_; }
  const std::string& file() const { return file_; }
  void setFile(std::string file) { file_ = std::move(file); }

  /// The number at a pointer (a plain number, a knob reference or an
  /// expression), evaluated with the knobs' current values; nullopt when
  /// the pointer names no number.
  std::optional<DocNumber> number(std::string_view pointer) const;
  /// A point ([x, y]) at a pointer, evaluated.
  std::optional<Vec2> point(std::string_view pointer) const;
  /// The knobs' current values (their defaults unless set here: the
  /// editor's sliders set these without changing the file's defaults).
  const std::map<std::string, double>& knobValues() const { return knobValues_; }
  bool setKnobValue(const std::string& name, double value, std::string* error);

  bool operator==(const SceneDoc& o) const { return root_ == o.root_; }

 private:
  friend struct SceneDocAccess;  ///< the edits (scene_doc.cpp)
  DocValue root_;
  std::string file_;
  std::map<std::string, double> knobValues_;
};

/// Every element's geometry, evaluated, in file order.
std::vector<DocShape> shapes(const SceneDoc& doc);
/// What would not load or run, or would not make sense: a walker inside an
/// obstacle or a wall, a goal inside an obstacle, an unknown knob in an
/// expression, a source whose region has no free spot, a route gate of
/// zero length, a knob's default outside its range.
/// Blocking: what the loader refuses (its own message at its pointer first,
/// then each later one it would meet: an expression that does not evaluate,
/// a walker of "agents" in an obstacle or across a wall, a zero-length gate,
/// a default out of range). Warnings: goals and goal regions a walker cannot
/// stand on, a source with no free spot, and whatever the loader refuses
/// with one knob at either end of its range (a wall moved onto a walker, a
/// gate that closes), each at its element's pointer.
std::vector<DocProblem> checkDoc(const SceneDoc& doc);
/// The inspector's fields of the element at `pointer` (empty when none).
std::vector<DocField> fieldsOf(const SceneDoc& doc, std::string_view pointer);

/// An edit's outcome: the new document, or the reason none was made.
struct DocEdit {
  std::optional<SceneDoc> doc;
  std::string error;
  std::string selected;  ///< the pointer of the element made or changed
  explicit operator bool() const { return doc.has_value(); }
};

/// How a walker or a group is made: the PROPS of scene.hpp.
struct DocWalkerProps {
  std::optional<Vec2> goal;
  std::optional<Rect> goalRegion;
  std::string route;                ///< "" for none
  int group = 0;
  std::optional<double> radius, maxSpeed;  ///< nullopt: the agentDefaults
};

// ---- the edits: each returns a new document or an error ----------------
DocEdit addWall(const SceneDoc& d, const std::vector<Vec2>& points);                  ///< at least 2 points
DocEdit addObstacleRect(const SceneDoc& d, Rect r);                                   ///< w, h > 0
DocEdit addObstacleOutline(const SceneDoc& d, const std::vector<Vec2>& outline);     ///< at least 3 points
DocEdit addAgent(const SceneDoc& d, Vec2 at, const DocWalkerProps& p);
/// A "fill" generator over `region`: `density` walkers per square unit,
/// or, when count > 0, the density that makes about `count`.
DocEdit addGroup(const SceneDoc& d, Rect region, double density, int count, const DocWalkerProps& p);
DocEdit addSource(const SceneDoc& d, Rect region, double rate, double start, double stop, std::int64_t max,
                  const DocWalkerProps& p);
DocEdit addSink(const SceneDoc& d, Rect region, const std::vector<int>& groups);
DocEdit addTarget(const SceneDoc& d, std::string name, Rect region, const std::vector<int>& groups);
/// A gate on route `route` (made when it does not exist), after the last.
DocEdit addRouteGate(const SceneDoc& d, const std::string& route, Vec2 a, Vec2 b);
DocEdit addHill(const SceneDoc& d, Vec2 at, double radius, double height);
/// A measurement line from a to b (distinct) or area (w, h > 0), named
/// "line N" or "area N" with the first N no measurement has.
DocEdit addMeasureLine(const SceneDoc& d, Vec2 a, Vec2 b);
DocEdit addMeasureArea(const SceneDoc& d, Rect r);
DocEdit addDiscomfortRect(const SceneDoc& d, Rect r, double value);
/// A speed zone (factor in (0, 1]) or a flight of stairs (up not zero,
/// speeds > 0) over rectangle r (w, h > 0).
DocEdit addSpeedZoneRect(const SceneDoc& d, Rect r, double factor);
DocEdit addStairsRect(const SceneDoc& d, Rect r, Vec2 up, double upSpeed, double downSpeed);

/// Shifts every point of the element at `pointer` by `by`: a wall, an
/// outline, a rectangle, a gate, a route (its gates and goal), a walker's
/// "at", a region, a hill, a map's origin, or one point. A walker's,
/// generator's or source's goal stays where it is: it is a shape of its own
/// ("/agents/3/goal").
DocEdit moveElement(const SceneDoc& d, std::string_view pointer, Vec2 by);
/// Moves one point (a vertex, an agent's "at" or "goal") to `to`.
DocEdit movePoint(const SceneDoc& d, std::string_view pointPointer, Vec2 to);
/// Inserts a vertex into the wall or outline at `pointer` before index `before`.
DocEdit insertVertex(const SceneDoc& d, std::string_view pointer, std::size_t before, Vec2 at);
/// Removes a vertex (a wall keeps 2, an outline 3).
DocEdit removeVertex(const SceneDoc& d, std::string_view pointPointer);
DocEdit removeElement(const SceneDoc& d, std::string_view pointer);
/// A copy of the element, shifted by `by`, after the last of its kind.
DocEdit duplicateElement(const SceneDoc& d, std::string_view pointer, Vec2 by);
/// Sets the goal of an agent, generator or source (its "goal" point).
DocEdit setGoal(const SceneDoc& d, std::string_view pointer, Vec2 goal);

/// Sets a number: `text` is a number or an expression over knobs (checked:
/// it parses and names only knobs; a knob's name alone is written as a
/// knob reference {"knob": name}); empty text removes an optional key.
DocEdit setNumber(const SceneDoc& d, std::string_view pointer, std::string_view text);
/// Sets a string field (a name, a route, a model) checked as the loader would.
DocEdit setText(const SceneDoc& d, std::string_view pointer, std::string_view text);
/// Sets a setting (settingsTable()) in the document's "settings".
DocEdit setSetting(const SceneDoc& d, std::string_view name, std::string_view text);

DocEdit addKnob(const SceneDoc& d, const std::string& name, double min, double max, double defaultValue,
                std::string help, bool integer = false);
/// Changes a knob's range, default or help; renaming rewrites every
/// expression that names it.
DocEdit editKnob(const SceneDoc& d, const std::string& name, const Knob& to);
/// Refused while an expression names it.
DocEdit removeKnob(const SceneDoc& d, const std::string& name);

/// A round brush of `radius` at `at`: adds `strength` × (1 − (d/r)²)² to
/// the height map's nodes (erase: takes the nodes back toward 0 by that
/// much), making a map over the scene's bounds at `cell` when there is none
/// and growing it by whole rows and columns to cover the brush (at most
/// kMaxHeightMapNodes a side). Node values are kept to 1e-4.
DocEdit paintHeight(const SceneDoc& d, Vec2 at, double radius, double strength, bool erase, double cell = 0.5);
/// The same on the discomfort map ("discomfortMap", nodes like "heightMap").
DocEdit paintDiscomfort(const SceneDoc& d, Vec2 at, double radius, double strength, bool erase, double cell = 0.5);

/// Undo and redo over documents. A gesture (begin ... end) is one step
/// however many documents it passes through; an edit outside a gesture is
/// a step of its own.
class DocHistory {
 public:
  explicit DocHistory(SceneDoc start);
  const SceneDoc& current() const { return docs_[at_]; }
  /// A new document as the next step (drops the redo steps); within a
  /// gesture, the same as update().
  void commit(SceneDoc next);
  void beginGesture();
  /// Within a gesture: its first update is a new step, later ones replace
  /// that step's document. Outside one: commit().
  void update(SceneDoc next);
  /// Ends the gesture; one that ends on the document it began from leaves
  /// no step.
  void endGesture();
  bool inGesture() const { return gesture_; }
  bool canUndo() const { return at_ > 0; }
  bool canRedo() const { return at_ + 1 < docs_.size(); }
  /// Both end a gesture in progress first.
  bool undo();
  bool redo();
  /// Unsaved: the current document differs from the one last saved.
  bool dirty() const;
  void markSaved();

 private:
  std::vector<SceneDoc> docs_;
  std::size_t at_ = 0, saved_ = 0;  ///< saved_: past the end once that step was dropped
  bool gesture_ = false, gestureChanged_ = false;
};

}  // namespace throng
