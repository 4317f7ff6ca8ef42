// Edit mode's panels (ImGui): the file, the tools and their options, snapping
// and the cursor, the ground layer (the left panel); the inspector, the
// knobs and the checker's problems (the right one, "scene"); and the two
// dialogs (unsaved edits, save as). Built every frame from the editor's
// state; every change goes through the editor, so through its history.
#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "viz/ui_help.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {
namespace {

std::string shortest(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

const char* snapName(edit::Snapped::Kind k) {
  switch (k) {
    case edit::Snapped::Kind::Vertex: return "on a point";
    case edit::Snapped::Kind::Grid: return "on the grid";
    default: return "free";
  }
}

// A string field of a document value ("" when absent or not a string).
std::string textAt(const SceneDoc& d, const std::string& pointer) {
  const DocValue* v = d.root().at(pointer);
  return v && v->kind() == DocValue::Kind::string ? v->asString() : std::string();
}

bool inputString(const char* label, std::string& s, std::size_t cap = 128) {
  std::vector<char> buf(cap, '\0');
  std::snprintf(buf.data(), cap, "%s", s.c_str());
  if (!ImGui::InputText(label, buf.data(), cap)) return false;
  s = buf.data();
  return true;
}

}  // namespace

void VizApp::mark(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  widgetRects_[name] = {a.x, a.y, b.x, b.y};
}

void VizApp::drawEditorPanel() {
  edit::Editor& ed = *editor_;
  const SceneDoc& doc = ed.view();

  // The file.
  ImGui::Separator();
  const std::string name = textAt(doc, "/name");
  ImGui::Text("%s%s", name.empty() ? "(unnamed scene)" : name.c_str(), ed.dirty() ? "  * unsaved" : "");
  ImGui::TextDisabled("%s", ed.path().empty() ? "not saved to a file yet" : ed.path().c_str());
  ImGui::SetNextItemWidth(-70);
  ImGui::InputTextWithHint("##docpath", "path/to/scene.json", docPath_, sizeof docPath_);
  mark("file.path");
  ImGui::SameLine();
  if (ImGui::Button("Open##doc")) later([this, p = std::string(docPath_)] { openScenePrompted(p); });
  mark("file.open");
  if (ImGui::BeginCombo("recent", recent_.list().empty() ? "(none yet)" : "open a recent file")) {
    for (const std::string& p : recent_.list())
      if (ImGui::Selectable(p.c_str())) later([this, p] { openScenePrompted(p); });
    ImGui::EndCombo();
  }
  if (ImGui::Button("New")) {
    later([this] {
      askThen("Start a new scene, dropping the unsaved edits?", [this] {
        editor_ = std::make_unique<edit::Editor>(SceneDoc::blank("untitled"));
        builtRevision_ = 0;  // running it builds it
        scenePath_.clear();
        docPath_[0] = '\0';
        fit();
      });
    });
  }
  ImGui::SameLine();
  if (ImGui::Button("Save")) later([this] { saveDocument(); });
  mark("file.save");
  ImGui::SameLine();
  if (ImGui::Button("Save as")) {
    saveAsOpen_ = true;
    std::snprintf(savePath_, sizeof savePath_, "%s", ed.path().c_str());
  }
  mark("file.saveas");
  ImGui::SameLine();
  ImGui::BeginDisabled(!ed.canUndo());
  if (ImGui::Button("Undo")) ed.undo();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!ed.canRedo());
  if (ImGui::Button("Redo")) ed.redo();
  ImGui::EndDisabled();
  help("Ctrl+S saves, Ctrl+Shift+S saves as, Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes. A drag, a brush "
       "stroke or a slider held is one step. Saving is refused while the checker finds a blocking problem.");

  // The tools.
  ImGui::Separator();
  for (int k = 0; k < edit::kToolCount; ++k) {
    const auto t = static_cast<edit::Tool>(k);
    if (k % 2 != 0) ImGui::SameLine(160.0f);
    const std::string label(edit::toolName(t));
    if (ImGui::RadioButton(label.c_str(), ed.tools.tool() == t)) ed.setTool(t);
    mark("tool." + label);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(edit::toolHelp(t)).c_str());
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", std::string(edit::toolHelp(ed.tools.tool())).c_str());
  ImGui::PopStyleColor();
  drawToolOptions();

  // Snapping and the cursor.
  ImGui::Separator();
  ImGui::Checkbox("grid snap (G)", &ed.snap.grid);
  mark("snap.grid");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(70);
  float step = ed.snap.step;
  if (ImGui::InputFloat("step", &step, 0, 0, "%.3g")) ed.snap.step = std::clamp(step, 1e-4f, 1e6f);
  ImGui::SameLine();
  ImGui::Checkbox("to points", &ed.snap.vertices);
  help("Points clicked and vertices dragged snap to the scene's points within 10 pixels, else to the grid; whole "
       "elements move by grid steps.");
  const std::string units = ed.units();
  const edit::Preview& pv = ed.tools.preview();
  if (cursorWorld())
    ImGui::Text("cursor x %.3f  y %.3f %s  (%s)", pv.cursor.x, pv.cursor.y, units.c_str(), snapName(pv.snapKind));
  else
    ImGui::TextDisabled("cursor: off the canvas");
  mark("cursor");
  if (!pv.prompt.empty()) ImGui::TextColored(ImVec4(0.95f, 0.45f, 0.75f, 1), "%s", pv.prompt.c_str());

  // The ground's heatmap.
  int layer = fieldOverlay_.layer == render::FieldLayer::Discomfort ? 1 : fieldOverlay_.layer == render::FieldLayer::Height ? 2 : 0;
  ImGui::SetNextItemWidth(140);
  if (ImGui::Combo("ground", &layer, "none\0discomfort\0height\0"))
    fieldOverlay_.layer = layer == 1 ? render::FieldLayer::Discomfort : layer == 2 ? render::FieldLayer::Height : render::FieldLayer::None;
  ImGui::SameLine();
  ImGui::Checkbox("shading", &fieldOverlay_.shading);
  help("The painted ground as run mode's field layers show it (the brushes show theirs): discomfort blue (below 0, "
       "preferred) through white to red, height dark to yellow. It steers walkers under continuum or routing = field.");
  if (!ed.lastChange().empty()) ImGui::TextDisabled("last: %s", ed.lastChange().c_str());
  if (!ed.lastError().empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", ed.lastError().c_str());
}

void VizApp::drawToolOptions() {
  edit::Editor& ed = *editor_;
  edit::ToolOptions& o = ed.tools.options;
  const edit::Tool t = ed.tools.tool();
  ImGui::PushItemWidth(120);
  const bool walkers = t == edit::Tool::Walker || t == edit::Tool::Group || t == edit::Tool::Source;
  if (walkers) {
    int mode = static_cast<int>(o.goalMode);
    if (ImGui::Combo("goal", &mode, "point\0region\0route\0none\0")) {
      ed.apply(ed.tools.cancel().actions);
      o.goalMode = static_cast<edit::GoalMode>(mode);
    }
    help("point: click the goal after placing; region: drag a goal region (each walker a hashed point in it); "
         "route: the named route's gates, then its goal; none: no goal.");
    if (o.goalMode == edit::GoalMode::Route) inputString("route", o.route);
    ImGui::InputInt("group", &o.group);
    double radius = o.radius, speed = o.maxSpeed;
    if (ImGui::InputDouble("radius", &radius, 0, 0, "%.3g")) o.radius = std::max(0.0, radius);
    help("world units; 0: the scene's agentDefaults");
    if (ImGui::InputDouble("top speed", &speed, 0, 0, "%.3g")) o.maxSpeed = std::max(0.0, speed);
    help("units/s; 0: the scene's agentDefaults");
  }
  if (t == edit::Tool::Group) {
    ImGui::Checkbox("by count", &o.byCount);
    ImGui::SameLine();
    if (o.byCount) {
      if (ImGui::InputInt("walkers", &o.count)) o.count = std::clamp(o.count, 1, 10'000'000);
    } else {
      double d = o.density;
      if (ImGui::InputDouble("per sq. unit", &d, 0, 0, "%.3g")) o.density = std::max(1e-6, d);
    }
  }
  if (t == edit::Tool::Source) {
    ImGui::InputDouble("rate /s", &o.rate, 0, 0, "%.3g");
    ImGui::InputDouble("start s", &o.start, 0, 0, "%.3g");
    ImGui::InputDouble("stop s", &o.stop, 0, 0, "%.3g");
    long long mx = o.max;
    if (ImGui::InputScalar("cap", ImGuiDataType_S64, &mx)) o.max = std::max(-1LL, mx);
    help("the most walkers it emits; -1: no cap");
  }
  if (t == edit::Tool::Sink || t == edit::Tool::Target) {
    inputString("groups", o.groups);
    help("the groups it takes, e.g. \"1, 2\"; empty: every group");
  }
  if (t == edit::Tool::Target) inputString("name", o.targetName);
  if (t == edit::Tool::Discomfort) {
    double v = o.discomfortValue;
    if (ImGui::InputDouble("discomfort", &v, 0, 0, "%.3g") && std::isfinite(v)) o.discomfortValue = v;
    help("g in the cost (alpha f + beta + gamma g) / f: above 0 walkers avoid the region, below 0 they prefer it");
  }
  if (t == edit::Tool::SpeedZone) {
    double f = o.speedFactor;
    if (ImGui::InputDouble("factor", &f, 0, 0, "%.3g") && f > 0 && f <= 1) o.speedFactor = f;
    help("walkers inside walk at this fraction of the speed they wish for, in (0, 1]");
  }
  if (t == edit::Tool::Stairs) {
    static const char* const kUp[] = {"east", "north", "west", "south"};
    static const Vec2 kUpVec[] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    int which = 1;
    for (int k = 0; k < 4; ++k)
      if (o.stairsUp == kUpVec[k]) which = k;
    if (ImGui::Combo("uphill", &which, kUp, 4)) o.stairsUp = kUpVec[which];
    double up = o.stairsUpSpeed, down = o.stairsDownSpeed;
    if (ImGui::InputDouble("up speed", &up, 0, 0, "%.3g") && up > 0) o.stairsUpSpeed = up;
    if (ImGui::InputDouble("down speed", &down, 0, 0, "%.3g") && down > 0) o.stairsDownSpeed = down;
    help("the most a walker heading uphill (within 90 degrees) or down walks on the flight, units/s; Weidmann's "
         "means are 0.61 and 0.694 m/s");
  }
  if (t == edit::Tool::Gate) {
    inputString("route", o.gateRoute);
    help("the route the gate joins (made when it does not exist yet); gates are passed in order");
  }
  if (t == edit::Tool::PaintDiscomfort || t == edit::Tool::PaintHeight) {
    double r = o.brushRadius, s = o.brushStrength, cell = o.brushCell;
    if (ImGui::InputDouble("size", &r, 0, 0, "%.3g")) o.brushRadius = std::max(1e-3, r);
    help("the brush's radius, world units");
    if (ImGui::InputDouble("strength", &s, 0, 0, "%.3g")) o.brushStrength = std::max(0.0, s);
    help("added at the brush's centre per dab (a dab every quarter radius), falling to 0 at its edge");
    ImGui::Checkbox("erase", &o.erase);
    help("takes the painted values back toward 0 (Shift while painting does too)");
    if (ImGui::InputDouble("map cell", &cell, 0, 0, "%.3g")) o.brushCell = std::max(1e-3, cell);
    help("the node spacing of the map the first stroke makes, world units");
  }
  ImGui::PopItemWidth();
}

void VizApp::drawEditorSidePanel() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 10, vp->WorkPos.y + 10), ImGuiCond_FirstUseEver,
                          ImVec2(1, 0));
  ImGui::SetNextWindowSize(ImVec2(static_cast<float>(kPanelWidthPx - 20), vp->WorkSize.y - 20), ImGuiCond_FirstUseEver);
  ImGui::Begin("scene");
  {
    // Where it is this frame: the field legend keeps clear of it.
    const ImVec2 a = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    widgetRects_["scene.window"] = {a.x, a.y, a.x + size.x, a.y + size.y};
  }
  if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) drawInspector();
  if (ImGui::CollapsingHeader("Knobs", ImGuiTreeNodeFlags_DefaultOpen)) drawKnobEditor();
  if (ImGui::CollapsingHeader("Problems", ImGuiTreeNodeFlags_DefaultOpen)) drawProblems();
  ImGui::End();
}

void VizApp::drawInspector() {
  edit::Editor& ed = *editor_;
  const SceneDoc& doc = ed.view();
  const std::string units = ed.units();
  // The selected vertex's x and y come first, and again among the element's
  // fields: `markName` (unique per list) keeps their widgets apart.
  auto numberField = [&](const DocField& f, const std::string& markName) {
    ImGui::PushID(markName.c_str());
    ImGui::PushID(f.pointer.c_str());
    const DocNumber n = *f.number;
    ImGui::TextUnformatted(f.name.c_str());
    if (!f.unit.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", f.unit.c_str());
    }
    if (!f.inFile) {
      ImGui::SameLine();
      ImGui::TextDisabled("(default; setting it adds it to the file)");
    }
    if (n.form == DocNumber::Form::plain) {
      double v = n.value, lo = f.min, hi = f.max;
      ImGui::SetNextItemWidth(110);
      const float speed = static_cast<float>(std::max(0.01, 0.005 * std::abs(v)));
      const bool changed = ImGui::DragScalar("##drag", ImGuiDataType_Double, &v, f.integer ? 0.2f : speed, &lo, &hi,
                                             f.integer ? "%.0f" : "%.4g", ImGuiSliderFlags_AlwaysClamp);
      // Held: one gesture (one undo step) however far it goes.
      if (ImGui::IsItemActivated()) ed.beginGesture();
      if (changed) {
        if (f.integer) v = std::round(v);
        if (!ed.updateGesture(setNumber(doc, f.pointer, shortest(v)))) setStatus(ed.lastError());
      }
      if (ImGui::IsItemDeactivated()) ed.endGesture();
    } else {
      ImGui::SetNextItemWidth(110);
      ImGui::TextDisabled("= %.4g", n.value);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("the expression's value at the knobs' current values");
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s", edit::numberText(n).c_str());
    if (ImGui::InputText("##expr", buf, sizeof buf,
                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll)) {
      if (ed.commit(setNumber(ed.view(), f.pointer, buf))) setStatus(f.pointer + " = " + buf);
      else setStatus(ed.lastError());
    }
    if (!markName.empty()) mark(markName);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A number, or an expression over knobs (+ - * / and parentheses): e.g. 5 + gap / 2. "
                        "Enter sets it.%s",
                        f.min > -1e12 || f.max < 1e12 ? ("\nlimits " + shortest(f.min) + " to " + shortest(f.max)).c_str() : "");
    ImGui::PopID();
    ImGui::PopID();
  };
  auto textField = [&](const DocField& f) {
    ImGui::PushID(f.pointer.c_str());
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s", f.text.c_str());
    ImGui::SetNextItemWidth(-90);
    if (ImGui::InputText(f.name.c_str(), buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) {
      if (!ed.commit(setText(ed.view(), f.pointer, buf))) setStatus(ed.lastError());
    }
    ImGui::PopID();
  };

  const std::string sel = ed.selected();
  if (sel.empty()) {
    ImGui::TextDisabled("nothing selected: the scene's own fields");
  } else {
    ImGui::Text("%s", sel.c_str());
    if (ImGui::SmallButton("Delete")) ed.key(edit::Key::Delete, camera_.pixelSize());
    ImGui::SameLine();
    if (ImGui::SmallButton("Duplicate")) ed.key(edit::Key::Duplicate, camera_.pixelSize());
    ImGui::SameLine();
    if (ImGui::SmallButton("Deselect")) ed.select({});
  }
  if (!ed.selectedVertex().empty()) {
    ImGui::Separator();
    ImGui::Text("vertex %s", ed.selectedVertex().c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Remove")) ed.key(edit::Key::Delete, camera_.pixelSize());
    for (const DocField& f : edit::vertexFields(doc, ed.selectedVertex(), units)) numberField(f, "vertex." + f.name);
    ImGui::Separator();
  }
  const std::vector<DocField> fields = fieldsOf(doc, sel);
  // The scene's own fields (name, model, settings, ...) fold away: they are many.
  const bool open = !sel.empty() || ImGui::TreeNodeEx("the scene's fields", ImGuiTreeNodeFlags_None);
  if (open) {
    for (const DocField& f : fields) {
      if (f.number) numberField(f, "field." + f.name);
      else textField(f);
    }
    if (sel.empty()) ImGui::TreePop();
  }
  if (fields.empty() && !sel.empty()) ImGui::TextDisabled("no fields to edit here");
}

void VizApp::drawKnobEditor() {
  edit::Editor& ed = *editor_;
  const SceneDoc& doc = ed.view();
  const DocValue* knobs = doc.root().find("knobs");
  const auto values = ed.knobValues();
  // Removed after the loop: a commit replaces the document `knobs` points into.
  std::string removeName;
  if (knobs && knobs->kind() == DocValue::Kind::object) {
    for (const auto& member : knobs->members()) {
      const std::string& name = member.first;
      const std::string base = "/knobs/" + name;
      ImGui::PushID(name.c_str());
      double lo = doc.number(base + "/min").value_or(DocNumber{}).value;
      double hi = doc.number(base + "/max").value_or(DocNumber{}).value;
      const auto it = values.find(name);
      double v = it != values.end() ? it->second : lo;
      ImGui::SetNextItemWidth(150);
      if (ImGui::SliderScalar(name.c_str(), ImGuiDataType_Double, &v, &lo, &hi, "%.4g")) {
        std::string err;
        if (!ed.setKnobValue(name, v, &err)) setStatus(err);
      }
      mark("knob." + name);
      const std::string helpText = textAt(doc, base + "/help");
      if (!helpText.empty()) help(helpText.c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton("edit")) {
        // Into the form below: its name, range, default and help as the file has them.
        KnobForm& f = knobForm_;
        f = KnobForm{};
        f.editing = name;
        std::snprintf(f.name, sizeof f.name, "%s", name.c_str());
        f.min = lo;
        f.max = hi;
        f.defaultValue = doc.number(base + "/default").value_or(DocNumber{}).value;
        std::snprintf(f.help, sizeof f.help, "%s", helpText.c_str());
        const DocValue* integer = member.second.find("integer");
        f.integer = integer && integer->kind() == DocValue::Kind::boolean && integer->asBool();
      }
      mark("knob." + name + ".edit");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("change its name, range, default or help in the form below");
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) removeName = name;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove the knob (refused while an expression names it)");
      ImGui::PopID();
    }
    ImGui::TextDisabled("The slider moves the value the editor shows and runs with; the file keeps the default.");
  } else {
    ImGui::TextDisabled("no knobs yet");
  }
  if (!removeName.empty() && !ed.commit(removeKnob(doc, removeName))) setStatus(ed.lastError());
  drawKnobForm();
}

void VizApp::drawKnobForm() {
  edit::Editor& ed = *editor_;
  const SceneDoc& doc = ed.view();
  const DocValue* knobs = doc.root().find("knobs");
  KnobForm& f = knobForm_;
  // A knob being edited that an undo or a removal took away: back to a new one.
  if (!f.editing.empty() && !(knobs && knobs->find(f.editing))) f = KnobForm{};
  const std::string formTitle = f.editing.empty() ? "new knob" : "edit knob " + f.editing;
  if (ImGui::TreeNodeEx((formTitle + "###knobform").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushItemWidth(120);
    ImGui::InputText("name##knob", f.name, sizeof f.name);
    mark("knob.form.name");
    ImGui::InputDouble("min##knob", &f.min, 0, 0, "%.6g");
    mark("knob.form.min");
    ImGui::InputDouble("max##knob", &f.max, 0, 0, "%.6g");
    mark("knob.form.max");
    ImGui::InputDouble("default##knob", &f.defaultValue, 0, 0, "%.6g");
    mark("knob.form.default");
    ImGui::PopItemWidth();
    ImGui::InputText("help##knob", f.help, sizeof f.help);
    mark("knob.form.help");
    ImGui::Checkbox("whole numbers", &f.integer);
    if (f.editing.empty()) {
      if (ImGui::Button("Add knob")) {
        if (ed.commit(addKnob(doc, f.name, f.min, f.max, f.defaultValue, f.help, f.integer))) {
          setStatus(std::string("knob ") + f.name + " added: bind a number to it in the inspector");
          f.name[0] = '\0';
          f.help[0] = '\0';
        } else {
          setStatus(ed.lastError());
        }
      }
      mark("knob.form.add");
    } else {
      // Renaming rewrites every expression that names the knob (editKnob).
      if (ImGui::Button("Apply")) {
        const Knob to{f.name, f.help, f.min, f.max, f.defaultValue, 0, f.integer};
        if (ed.commit(editKnob(doc, f.editing, to))) {
          setStatus("knob " + (f.editing == to.name ? to.name + " changed" : f.editing + " is now " + to.name));
          f = KnobForm{};
        } else {
          setStatus(ed.lastError());
        }
      }
      mark("knob.form.apply");
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) f = KnobForm{};
      mark("knob.form.cancel");
    }
    ImGui::TextDisabled("Bind a number to it: type e.g. 5 + gap / 2 in an inspector field.");
    ImGui::TreePop();
  }
}

void VizApp::drawProblems() {
  edit::Editor& ed = *editor_;
  const std::vector<DocProblem> problems = ed.problems();
  const auto blocking = std::count_if(problems.begin(), problems.end(), [](const DocProblem& p) { return p.blocking; });
  if (problems.empty()) {
    ImGui::TextDisabled("none: the scene loads and runs");
    return;
  }
  if (blocking > 0) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%td blocking: saving is refused", blocking);
  const std::vector<DocShape>& shapes = ed.shapes();
  int k = 0;
  for (const DocProblem& p : problems) {
    ImGui::PushID(k++);
    ImGui::PushStyleColor(ImGuiCol_Text, p.blocking ? ImVec4(1, 0.4f, 0.35f, 1) : ImVec4(0.95f, 0.75f, 0.2f, 1));
    const std::string line = (p.pointer.empty() ? std::string("scene") : p.pointer) + ": " + p.message;
    if (ImGui::Selectable(line.c_str())) {
      // Select the element the problem is at (the pointer or the nearest element above it).
      std::string_view ptr = p.pointer;
      while (!ptr.empty()) {
        if (std::any_of(shapes.begin(), shapes.end(), [&](const DocShape& s) { return s.pointer == ptr; })) {
          ed.select(std::string(ptr));
          break;
        }
        ptr = edit::parentPointer(ptr);
      }
    }
    ImGui::PopStyleColor();
    ImGui::PopID();
  }
}

void VizApp::drawModals() {
  if (!question_.empty() && !ImGui::IsPopupOpen("Unsaved edits")) ImGui::OpenPopup("Unsaved edits");
  if (ImGui::BeginPopupModal("Unsaved edits", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextUnformatted(question_.c_str());
    ImGui::TextDisabled("%s", editor_ && !editor_->path().empty() ? editor_->path().c_str() : "(not saved to a file yet)");
    if (ImGui::Button("Save")) {
      ImGui::CloseCurrentPopup();
      later([this] { answer(Answer::Save); });
    }
    mark("ask.save");
    ImGui::SameLine();
    if (ImGui::Button("Discard")) {
      ImGui::CloseCurrentPopup();
      later([this] { answer(Answer::Discard); });
    }
    mark("ask.discard");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
      ImGui::CloseCurrentPopup();
      later([this] { answer(Answer::Cancel); });
    }
    mark("ask.cancel");
    ImGui::EndPopup();
  }
  if (saveAsOpen_ && !ImGui::IsPopupOpen("Save as")) ImGui::OpenPopup("Save as");
  if (ImGui::BeginPopupModal("Save as", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextUnformatted("Save the scene as:");
    ImGui::SetNextItemWidth(420);
    const bool enter = ImGui::InputTextWithHint("##saveas", "path/to/scene.json", savePath_, sizeof savePath_,
                                                ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    mark("saveas.path");
    const bool click = ImGui::Button("Save##as");
    mark("saveas.save");
    ImGui::SameLine();
    if (ImGui::Button("Cancel##as")) {
      saveAsOpen_ = false;
      ImGui::CloseCurrentPopup();
    }
    if (enter || click) {
      if (saveDocument(savePath_)) {
        saveAsOpen_ = false;
        ImGui::CloseCurrentPopup();
      } else {
        saveAsOpen_ = true;
      }
    }
    if (editor_ && editor_->hasBlockingProblem())
      ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "blocking problems: see Problems (saving is refused)");
    if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
    ImGui::EndPopup();
  }
}

}  // namespace throng::app
