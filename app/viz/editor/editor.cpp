#include "viz/editor/editor.hpp"

#include <algorithm>
#include <charconv>

namespace throng::app::edit {

Editor::Editor(SceneDoc doc, std::string path) : history_(std::move(doc)), path_(std::move(path)) {}

void Editor::changed() {
  ++revision_;
  lastError_.clear();
}

const SceneDoc& Editor::view() {
  if (knobValues_.empty()) return history_.current();
  if (viewRevision_ != revision_ || !view_) {
    SceneDoc v = history_.current();
    for (const auto& [name, value] : knobValues_) {
      std::string ignored;  // a knob the document no longer has keeps its value for when it comes back
      v.setKnobValue(name, value, &ignored);
    }
    view_ = std::move(v);
    viewRevision_ = revision_;
  }
  return *view_;
}

const std::vector<DocShape>& Editor::shapes() {
  if (shapesRevision_ != revision_) {
    shapes_ = throng::shapes(view());
    shapesRevision_ = revision_;
  }
  return shapes_;
}

const std::vector<DocProblem>& Editor::problems() {
  if (problemsRevision_ != revision_) {
    problems_ = checkDoc(view());
    problemsRevision_ = revision_;
  }
  return problems_;
}

bool Editor::hasBlockingProblem() {
  const auto& p = problems();
  return std::any_of(p.begin(), p.end(), [](const DocProblem& x) { return x.blocking; });
}

std::string Editor::units() const {
  const DocValue* u = doc().root().find("units");
  return u && u->kind() == DocValue::Kind::string && !u->asString().empty() ? u->asString() : "m";
}

void Editor::select(std::string pointer, std::string vertex) {
  selected_ = std::move(pointer);
  selectedVertex_ = std::move(vertex);
}

bool Editor::valid(const std::string& pointer) { return pointer.empty() || view().root().at(pointer) != nullptr; }

ToolContext Editor::context(float pixel) {
  ToolContext c;
  c.shapes = &shapes();
  c.selected = selected_;
  c.selectedVertex = selectedVertex_;
  c.pixel = pixel;
  c.snap = snap;
  return c;
}

bool Editor::pointer(const PointerEvent& e, float pixel) {
  ToolMachine::Result r = tools.pointer(e, context(pixel));
  apply(r.actions);
  return r.captured;
}

bool Editor::key(Key k, float pixel) {
  ToolMachine::Result r = tools.key(k, context(pixel));
  apply(r.actions);
  return r.captured;
}

void Editor::setTool(Tool t) { apply(tools.setTool(t).actions); }

void Editor::apply(const std::vector<Action>& actions) {
  for (const Action& a : actions) {
    switch (a.kind) {
      case Action::Kind::Select: select(a.pointer, a.vertex); break;
      case Action::Kind::Commit:
        if (a.op && commit(edit::apply(view(), *a.op))) lastChange_ = describe(*a.op);
        break;
      case Action::Kind::Begin: beginGesture(); break;
      case Action::Kind::Update:
        if (!a.op) break;
        if (!history_.inGesture()) {
          if (commit(edit::apply(view(), *a.op))) lastChange_ = describe(*a.op);
          break;
        }
        if (updateGesture(edit::apply(a.onBase && gestureBase_ ? *gestureBase_ : view(), *a.op)))
          lastChange_ = describe(*a.op);
        break;
      case Action::Kind::End: endGesture(); break;
      case Action::Kind::Cancel:
        if (history_.inGesture()) {
          const bool moved = !(history_.current() == *gestureBase_);
          history_.endGesture();
          gestureBase_.reset();
          if (moved) {
            history_.undo();
            changed();
          }
        }
        break;
    }
  }
}

bool Editor::commit(const DocEdit& e) {
  if (!e) {
    lastError_ = e.error;
    return false;
  }
  if (history_.inGesture()) endGesture();
  history_.commit(*e.doc);
  changed();
  // What the edit made or changed is selected, unless it lies within the
  // selection already (a number of the selected element keeps its vertex).
  const bool within = !selected_.empty() && e.selected.rfind(selected_ + "/", 0) == 0;
  if (!e.selected.empty() && e.selected != selected_ && !within) select(e.selected);
  if (!valid(selected_)) select({});
  else if (!valid(selectedVertex_)) select(selected_);
  return true;
}

void Editor::beginGesture() {
  if (history_.inGesture()) endGesture();
  gestureBase_ = view();
  history_.beginGesture();
}

bool Editor::updateGesture(const DocEdit& e) {
  if (!e) {
    lastError_ = e.error;
    return false;
  }
  if (!history_.inGesture()) return commit(e);
  history_.update(*e.doc);
  changed();
  return true;
}

void Editor::endGesture() {
  if (!history_.inGesture()) return;
  history_.endGesture();
  gestureBase_.reset();
}

bool Editor::undo() {
  if (history_.inGesture()) endGesture();
  tools.cancel();
  if (!history_.undo()) return false;
  changed();
  lastChange_ = "undo";
  if (!valid(selected_)) select({});
  else if (!valid(selectedVertex_)) select(selected_);
  return true;
}

bool Editor::redo() {
  if (history_.inGesture()) endGesture();
  tools.cancel();
  if (!history_.redo()) return false;
  changed();
  lastChange_ = "redo";
  if (!valid(selected_)) select({});
  else if (!valid(selectedVertex_)) select(selected_);
  return true;
}

bool Editor::save(const std::string& path, std::string* error) {
  if (path.empty()) {
    if (error) *error = "no file name to save to";
    return false;
  }
  for (const DocProblem& p : problems())
    if (p.blocking) {
      if (error) *error = "not saved: " + (p.pointer.empty() ? std::string() : p.pointer + ": ") + p.message;
      return false;
    }
  if (history_.inGesture()) endGesture();
  if (!doc().save(path, error)) return false;
  path_ = path;
  history_.markSaved();
  return true;
}

std::map<std::string, double> Editor::knobValues() { return view().knobValues(); }

bool Editor::setKnobValue(const std::string& name, double value, std::string* error) {
  SceneDoc probe = view();
  if (!probe.setKnobValue(name, value, error)) return false;
  knobValues_[name] = value;
  changed();
  return true;
}

std::optional<Scene> Editor::buildScene(std::string* error) {
  std::optional<Scene> s = view().build(error);
  if (!s) return std::nullopt;
  for (const auto& kv : view().knobValues()) {  // (no structured binding: Clang 14 cannot capture one)
    const std::string& name = kv.first;
    const double value = kv.second;
    const auto& knobs = s->knobs();
    const auto k = std::find_if(knobs.begin(), knobs.end(), [&](const Knob& x) { return x.name == name; });
    if (k == knobs.end() || k->value == value) continue;
    if (!s->set(name, value, error)) return std::nullopt;
  }
  return s;
}

std::vector<DocField> vertexFields(const SceneDoc& doc, const std::string& vertexPointer, const std::string& units) {
  std::vector<DocField> out;
  if (!doc.point(vertexPointer)) return out;
  const char* names[2] = {"x", "y"};
  for (int k = 0; k < 2; ++k) {
    DocField f;
    f.name = names[k];
    f.pointer = vertexPointer + "/" + std::to_string(k);
    f.unit = units;
    f.number = doc.number(f.pointer);
    if (!f.number) return {};
    out.push_back(std::move(f));
  }
  return out;
}

std::string numberText(const DocNumber& n) {
  if (n.form != DocNumber::Form::plain) return n.text;
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, n.value);
  return std::string(buf, r.ptr);
}

}  // namespace throng::app::edit
