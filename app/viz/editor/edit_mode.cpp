// VizApp's edit mode (see viz_app.hpp): switching between editing and
// running, the unsaved-edits question, saving and opening, the mouse and
// keys while editing, and the canvas of the document. The panels are in
// editor_panel.cpp; what is drawn and how the tools work is pure code in
// this folder (draw.hpp, tools.hpp).
#include <SDL.h>

#include <algorithm>

#include "viz/editor/draw.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {

void VizApp::openEditor() {
  std::string path = scenePath_;
  if (path.empty()) {
    std::string ignored;
    if (auto p = findScene(host_->name(), &ignored)) path = *p;
  }
  std::string err;
  if (!path.empty()) {
    if (auto d = SceneDoc::load(path, &err)) {
      editor_ = std::make_unique<edit::Editor>(std::move(*d), path);
      scenePath_ = path;
      recent_.add(path);
    } else {
      setStatus("cannot edit " + path + ": " + err + "; editing a new scene instead");
    }
  } else {
    std::string msg = host_->name();  // (built up in steps: GCC 12's -Wrestrict misfires on "..." + s + "...")
    msg += " is built in, with no file: editing a new scene";
    setStatus(msg);
  }
  if (!editor_) editor_ = std::make_unique<edit::Editor>(SceneDoc::blank(host_->name()));
  // The document at the run's knob values: the run is what it shows.
  const auto docKnobs = editor_->knobValues();
  for (const KnobInfo& k : host_->knobs()) {
    const auto it = docKnobs.find(k.name);
    std::string ignored;
    if (it != docKnobs.end() && it->second != k.value) editor_->setKnobValue(k.name, k.value, &ignored);
  }
  builtRevision_ = editor_->revision();
  std::snprintf(docPath_, sizeof docPath_, "%s", editor_->path().c_str());
}

void VizApp::takeRunSettings() {
  // One Settings while editing: the run's. Those tuned in the run panel
  // (and the run's seed) go into the document as one edit, which undo
  // takes back, so the inspector shows, Save writes and Run runs what ran.
  // The step, dt, is the document's: the run was built with it.
  edit::Editor& ed = *editor_;
  std::string err;
  const std::optional<Scene> doc = ed.buildScene(&err);
  if (!doc) return;  // a document that does not build: its own settings stand, the checker says why
  const Settings& run = host_->crowd().settings;
  SceneDoc next = ed.view();
  std::string changed;
  for (const SettingInfo& info : settingsTable()) {
    const std::string name(info.name);
    const std::string value = getSettingText(run, name);
    if (name == "maxStep" || value == getSettingText(doc->spec().settings, name)) continue;
    const DocEdit e = setSetting(next, name, value);
    if (!e) continue;  // the run's value is one a file cannot hold: the document's stands
    next = *e.doc;
    changed += (changed.empty() ? "" : ", ") + name;
  }
  if (changed.empty()) return;
  const bool inStep = ed.revision() == builtRevision_;
  ed.commit(DocEdit{std::move(next), {}, {}});
  if (inStep) builtRevision_ = ed.revision();  // the document is the run again
  setStatus("the run's " + changed + " went into the document (undo takes them back)");
}

bool VizApp::setEditing(bool on) {
  if (on == editing_) return true;
  if (on) {
    stopRecording();
    if (twin_) {  // the editor edits one scene: side by side ends
      std::string ignored;
      setSideBySide("", &ignored);
    }
    if (!editor_) openEditor();
    takeRunSettings();
    playingBeforeEdit_ = playing_;
    playing_ = false;
    clock_.reset();
    editing_ = true;
    hasSelection_ = false;
    editMeshZoom_ = -1;
    editFieldRevision_ = 0;
    fieldKey_.forget();
    arrowKey_.forget();
    renderer_.setFieldMesh({});
    renderer_.clearTrails();
    return true;
  }
  edit::Editor& ed = *editor_;
  ed.apply(ed.tools.cancel().actions);
  ed.endGesture();
  if (ed.revision() != builtRevision_) {
    std::string err;
    std::optional<Scene> scene = ed.buildScene(&err);
    if (!scene) {
      setStatus("cannot run the document: " + err);
      return false;
    }
    // The document holds the one Settings (takeRunSettings): the run is its scene as it stands.
    host_ = makeSceneHost(std::move(*scene));
    hasSelection_ = false;
    afterRebuild(false);
    builtRevision_ = ed.revision();
    setStatus("running the edited scene (" + std::to_string(host_->crowd().count()) + " walkers at the start)");
  }
  editing_ = false;
  playing_ = playingBeforeEdit_;
  clock_.reset();
  editorCaptured_ = panning_ = false;
  sceneMeshZoom_ = -1;  // the run's scene mesh again
  renderer_.setField({}, 0, 0, {}, 0);
  fieldImage_ = {};
  fieldKey_.forget();
  arrowKey_.forget();
  markers_.key.forget();
  return true;
}

void VizApp::askThen(std::string question, std::function<void()> action) {
  if (!editor_ || !editor_->dirty()) {
    action();
    return;
  }
  question_ = std::move(question);
  questionAction_ = std::move(action);
}

void VizApp::answer(Answer a) {
  std::function<void()> action = std::move(questionAction_);
  questionAction_ = nullptr;
  question_.clear();
  if (a == Answer::Cancel || !action) return;
  if (a == Answer::Save && !saveDocument()) return;  // not saved (the status says why): nothing is dropped
  action();
}

bool VizApp::saveDocument(const std::string& path) {
  if (!editor_) {
    setStatus("nothing to save: edit the scene first (E)");
    return false;
  }
  const std::string p = path.empty() ? editor_->path() : path;
  if (p.empty()) {
    saveAsOpen_ = true;
    setStatus("choose a file to save to");
    return false;
  }
  std::string err;
  if (!editor_->save(p, &err)) {
    setStatus(err);
    return false;
  }
  scenePath_ = p;
  recent_.add(p);
  std::snprintf(docPath_, sizeof docPath_, "%s", p.c_str());
  setStatus("saved " + p);
  return true;
}

void VizApp::openSceneNow(const std::string& nameOrPath) {
  std::string err, ignored;
  const std::optional<std::string> path = findScene(nameOrPath, &ignored);
  auto h = openScene(nameOrPath, &err);
  if (!h) {
    setStatus(err);
    return;
  }
  const bool wasEditing = editing_;
  setScene(std::move(h));
  if (path) {
    scenePath_ = *path;
    recent_.add(*path);
  }
  if (wasEditing) setEditing(true);
}

void VizApp::openScenePrompted(const std::string& nameOrPath) {
  askThen("Open " + nameOrPath + ", dropping the unsaved edits?", [this, nameOrPath] { openSceneNow(nameOrPath); });
}

std::optional<glm::vec2> VizApp::cursorWorld() const {
  if (!cursorInCanvas_) return std::nullopt;
  return camera_.screenToWorld(cursorScreen_);
}

std::optional<std::array<float, 4>> VizApp::widgetRect(const std::string& name) const {
  const auto it = widgetRects_.find(name);
  if (it == widgetRects_.end()) return std::nullopt;
  return it->second;
}

// Keys for the document in either mode: E, Ctrl+S and Ctrl+Shift+S; while
// editing also undo and redo, duplicate, delete, Enter, Esc and G (grid snap).
bool VizApp::editorKey(const SDL_Event& e) {
  const SDL_Keycode k = e.key.keysym.sym;
  const bool ctrl = (e.key.keysym.mod & KMOD_CTRL) != 0, shift = (e.key.keysym.mod & KMOD_SHIFT) != 0;
  if (!ctrl && k == SDLK_e) {
    setEditing(!editing_);
    return true;
  }
  if (ctrl && k == SDLK_s && editor_) {
    if (shift || editor_->path().empty()) {
      saveAsOpen_ = true;
      std::snprintf(savePath_, sizeof savePath_, "%s", editor_->path().c_str());
    } else {
      saveDocument();
    }
    return true;
  }
  if (!editing_ || !editor_) return false;
  edit::Editor& ed = *editor_;
  const float px = camera_.pixelSize();
  if (ctrl && (k == SDLK_z || k == SDLK_y)) {
    const bool redo = k == SDLK_y || shift;
    if (!(redo ? ed.redo() : ed.undo())) setStatus(redo ? "nothing to redo" : "nothing to undo");
    return true;
  }
  if (ctrl && k == SDLK_d) return ed.key(edit::Key::Duplicate, px);
  if (ctrl) return false;
  switch (k) {
    case SDLK_DELETE:
    case SDLK_BACKSPACE: ed.key(edit::Key::Delete, px); return true;
    case SDLK_RETURN:
    case SDLK_KP_ENTER: ed.key(edit::Key::Enter, px); return true;
    case SDLK_ESCAPE: ed.key(edit::Key::Escape, px); return true;
    case SDLK_g: ed.snap.grid = !ed.snap.grid; return true;
    default: return false;
  }
}

void VizApp::editorPointer(const SDL_Event& e, glm::vec2 screen, bool uiMouse) {
  edit::Editor& ed = *editor_;
  cursorScreen_ = screen;
  const glm::vec2 w = camera_.screenToWorld(screen);
  edit::PointerEvent pe;
  pe.world = {w.x, w.y};
  const SDL_Keymod mod = SDL_GetModState();
  pe.shift = (mod & KMOD_SHIFT) != 0;
  pe.ctrl = (mod & KMOD_CTRL) != 0;
  pe.alt = (mod & KMOD_ALT) != 0;
  const float px = camera_.pixelSize();
  switch (e.type) {
    case SDL_MOUSEMOTION:
      cursorInCanvas_ = !uiMouse || editorCaptured_ || panning_;
      if (panning_) {
        camera_.pan(screen - lastMouse_);
      } else if (cursorInCanvas_) {
        pe.type = edit::PointerEvent::Type::Move;
        ed.pointer(pe, px);
      }
      lastMouse_ = screen;
      break;
    case SDL_MOUSEBUTTONDOWN:
      if (uiMouse) break;
      cursorInCanvas_ = true;
      pe.type = edit::PointerEvent::Type::Press;
      pe.button = e.button.button;
      pe.clicks = e.button.clicks;
      lastMouse_ = screen;
      if (ed.pointer(pe, px)) editorCaptured_ = true;
      else panning_ = true;
      break;
    case SDL_MOUSEBUTTONUP:
      pe.type = edit::PointerEvent::Type::Release;
      pe.button = e.button.button;
      if (editorCaptured_ || (!uiMouse && ed.tools.busy())) ed.pointer(pe, px);
      editorCaptured_ = panning_ = false;
      break;
    default: break;
  }
  if (!ed.lastError().empty()) setStatus(ed.lastError());
}

void VizApp::drawEditCanvas() {
  edit::Editor& ed = *editor_;
  const float px = camera_.pixelSize();
  const std::vector<DocShape>& shapes = ed.shapes();
  if (editMeshRevision_ != ed.revision() || editMeshZoom_ != camera_.zoom) {
    editMesh_.clear();
    edit::buildDocMesh(shapes, px, editMesh_);
    renderer_.setSceneMesh(editMesh_);
    editMeshRevision_ = ed.revision();
    editMeshZoom_ = camera_.zoom;
    sceneMeshZoom_ = -1;
  }
  std::string hovered;
  if (cursorInCanvas_ && !ed.tools.busy()) {
    const glm::vec2 w = camera_.screenToWorld(cursorScreen_);
    const edit::Hit h = edit::hitTest(shapes, {w.x, w.y}, px, {7, ed.selected()});
    if (h.part != edit::Hit::Part::None) hovered = shapes[static_cast<std::size_t>(h.shape)].pointer;
  }
  edit::OverlayInput in;
  in.shapes = &shapes;
  in.selected = ed.selected();
  in.selectedVertex = ed.selectedVertex();
  in.hovered = hovered;
  in.preview = &ed.tools.preview();
  in.cursorInCanvas = cursorInCanvas_;
  in.problems = &ed.problems();
  in.grid = &ed.snap;
  in.camera = &camera_;
  editOverlay_.clear();
  edit::buildEditOverlay(in, px, editOverlay_);
  updateEditField();
  dropMarkers(markers_, 0);
  renderer_.useInstanceBuffer(0, maxRadius_);  // the walkers wait for run mode
  render::RenderOptions o = options_;
  o.trails = false;
  renderer_.draw(camera_, {}, &editOverlay_, o);
  lastDrawInterop_ = false;
}

// The heatmap while editing: the painted ground read from the document
// (edit::buildTerrainGrid), in the field overlay's colours. A brush shows
// its own layer (the discomfort-region tool the discomfort's); otherwise
// the panel's layer, when it is the discomfort or the height.
void VizApp::updateEditField() {
  edit::Editor& ed = *editor_;
  render::FieldLayer layer = fieldOverlay_.layer;
  if (ed.tools.tool() == edit::Tool::PaintDiscomfort || ed.tools.tool() == edit::Tool::Discomfort)
    layer = render::FieldLayer::Discomfort;
  if (ed.tools.tool() == edit::Tool::PaintHeight) layer = render::FieldLayer::Height;
  const bool ground = layer == render::FieldLayer::Discomfort || layer == render::FieldLayer::Height;
  if (!ground && !fieldOverlay_.shading) {
    if (editFieldLayer_ != render::FieldLayer::None || editFieldRevision_ == 0) {
      renderer_.setField({}, 0, 0, {}, 0);
      fieldImage_ = {};
    }
    editFieldLayer_ = render::FieldLayer::None;
    editFieldRevision_ = ed.revision();
    return;
  }
  if (editFieldRevision_ == ed.revision() && editFieldLayer_ == layer) return;
  editFieldRevision_ = ed.revision();
  editFieldLayer_ = layer;
  edit::buildTerrainGrid(ed.view(), ed.shapes(), ed.revision(), terrainGrid_);
  render::buildFieldLayer(terrainGrid_.view, {ground ? layer : render::FieldLayer::None, render::kFieldMean,
                                              fieldOverlay_.shading, false, nullptr},
                          fieldImage_);
  fieldTooLarge_ = !renderer_.setField(fieldImage_.texels, fieldImage_.cols, fieldImage_.rows, fieldImage_.origin,
                                       fieldImage_.cell);
}

}  // namespace throng::app
