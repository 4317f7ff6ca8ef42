#pragma once
// The scene editor's state, apart from any window: the document and its
// history (throng/scene_doc.hpp's SceneDoc and DocHistory), the selection,
// the tools, the knobs' values, and the file. The app feeds it pointer and
// key events in world units and draws what it holds; the tests drive it the
// same way without GL.
//
// Design note.
//  - Every change goes through the history: a tool's Commit is one step; a
//    Begin ... End gesture (a drag, a brush stroke, a slider held) is one
//    step however many documents it passes through; Cancel goes back to
//    where the gesture began.
//  - The knobs' values (the editor's sliders and run mode's) are not part of
//    the file: they are kept here and laid over every document the history
//    holds (view()), so an undo never moves a knob, and the shapes, the
//    checker and the run all see the same values.
//  - Edits are made on view(): a point dragged where a knob expression
//    places it is written as that expression plus the offset, at the value
//    the person sees.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "throng/scene.hpp"
#include "throng/scene_doc.hpp"
#include "viz/editor/tools.hpp"

namespace throng::app::edit {

class Editor {
 public:
  /// `path`: the file the document came from ("" for a new one).
  explicit Editor(SceneDoc doc, std::string path = {});

  /// The document as the file has it (the knobs at their defaults).
  const SceneDoc& doc() const { return history_.current(); }
  /// The document with the editor's knob values: what is drawn, checked,
  /// edited and run.
  const SceneDoc& view();
  /// Counts changes of view(): edits, undo and redo, knob values.
  std::uint64_t revision() const { return revision_; }
  const std::vector<DocShape>& shapes();
  const std::vector<DocProblem>& problems();
  bool hasBlockingProblem();
  /// The scene's units ("m" unless the file names others).
  std::string units() const;

  // Selection: an element's pointer, and one of its vertices ("" none).
  const std::string& selected() const { return selected_; }
  const std::string& selectedVertex() const { return selectedVertex_; }
  void select(std::string pointer, std::string vertex = {});

  ToolMachine tools;
  SnapOptions snap;

  /// A pointer event in world units; `pixel` the world size of a screen
  /// pixel. Returns whether the tool took it (else the app may pan).
  bool pointer(const PointerEvent& e, float pixel);
  bool key(Key k, float pixel);
  void setTool(Tool t);
  /// Runs the tools' actions on the history.
  void apply(const std::vector<Action>& actions);

  /// One edit as one undo step (the inspector's typed values, the knob
  /// form). False, with lastError, when the edit was refused.
  bool commit(const DocEdit& e);
  /// A gesture made by hand (a slider held): begin, updates (each a whole
  /// new document), end. A gesture already open (a drag) is ended first.
  void beginGesture();
  bool updateGesture(const DocEdit& e);
  void endGesture();
  bool inGesture() const { return history_.inGesture(); }

  bool undo();
  bool redo();
  bool canUndo() const { return history_.canUndo(); }
  bool canRedo() const { return history_.canRedo(); }
  /// Unsaved edits.
  bool dirty() const { return history_.dirty(); }

  /// The file ("" until saved or opened).
  const std::string& path() const { return path_; }
  /// Writes the document to `path` (and takes it as the file), refused
  /// while the checker finds a blocking problem.
  bool save(const std::string& path, std::string* error);

  /// The knobs' current values (every knob of the document: the editor's
  /// value, else its default).
  std::map<std::string, double> knobValues();
  /// Sets a knob's value (not the file's default); false outside its range.
  bool setKnobValue(const std::string& name, double value, std::string* error);

  /// The scene this document runs as, with the editor's knob values.
  std::optional<Scene> buildScene(std::string* error);

  /// The last refused edit's reason (for the status line).
  const std::string& lastError() const { return lastError_; }
  /// What the last change was, for the status line ("add a wall of 2 points").
  const std::string& lastChange() const { return lastChange_; }

 private:
  ToolContext context(float pixel);
  void changed();
  bool valid(const std::string& pointer);

  DocHistory history_;
  std::string path_;
  std::string selected_, selectedVertex_;
  std::map<std::string, double> knobValues_;  ///< set by the person: laid over every document
  std::optional<SceneDoc> gestureBase_;       ///< the document at Begin
  std::uint64_t revision_ = 1;
  std::optional<SceneDoc> view_;
  std::uint64_t viewRevision_ = 0, shapesRevision_ = 0, problemsRevision_ = 0;
  std::vector<DocShape> shapes_;
  std::vector<DocProblem> problems_;
  std::string lastError_, lastChange_;
};

/// The inspector's fields of a vertex ("/walls/2/1"): its x and y, each a
/// number or an expression over knobs, in the scene's units. Empty when the
/// pointer names no point. (fieldsOf covers elements; this covers their points.)
std::vector<DocField> vertexFields(const SceneDoc& doc, const std::string& vertexPointer, const std::string& units);

/// A number's text as the inspector shows and takes it: a plain number in
/// its shortest form, a knob's name, or the expression.
std::string numberText(const DocNumber& n);

}  // namespace throng::app::edit
