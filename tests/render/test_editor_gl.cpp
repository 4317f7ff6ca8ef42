// One real pass through the editor as a person (issue 29): under Xvfb, the
// visualizer's own frame loop (events -> VizApp::handleEvent -> advance ->
// canvas -> ImGui panel -> swap) is driven with synthetic SDL mouse, key and
// text events. On an empty walled room: a wall drawn across it with a gap,
// a group placed on one side with its goal on the other, a knob "gap" made
// in the knob form and bound to the gap's two ends by typing expressions in
// the inspector, then Ctrl+Shift+S and a path. Then the saved file runs with
// `throng run`: no walker crosses the drawn wall, some pass through the gap,
// and --set gap=... changes the run. The canvas is read back (the wall's
// pixels are drawn in edit mode) and kept as editor_*.png in this folder.
//
// ImGui 1.86's SDL backend reads the mouse from SDL's state, which pushed
// events do not move, so after ImGui_ImplSDL2_NewFrame the driver puts its
// cursor and button into ImGuiIO, as the backend would from the OS.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "render/gl_renderer.hpp"
#include "viz/editor/draw.hpp"
#include "viz/gl_window.hpp"
#include "viz/viz_app.hpp"

using namespace throng;
namespace edit = throng::app::edit;

namespace {

std::string out(const std::string& name) { return std::string(THRONG_TEST_OUT) + "/" + name; }

// The driver: the visualizer's loop of app/viz/viz.cpp, one frame at a time,
// with a cursor of its own.
struct Driver {
  SDL_Window* win = nullptr;
  app::VizApp& viz;
  int w = 0, h = 0;
  glm::vec2 mouse{400, 300};
  bool down = false, quit = false;

  Driver(SDL_Window* window, app::VizApp& app) : win(window), viz(app) { SDL_GL_GetDrawableSize(win, &w, &h); }

  void frame(int n = 1) {
    for (int k = 0; k < n; ++k) {
      SDL_Event e;
      while (SDL_PollEvent(&e)) {
        ImGui_ImplSDL2_ProcessEvent(&e);
        const ImGuiIO& io = ImGui::GetIO();
        if (!viz.handleEvent(e, io.WantCaptureMouse, io.WantCaptureKeyboard, 1)) quit = true;
      }
      viz.advance(1.0 / 60);
      viz.drawCanvas(w, h);
      viz.renderer().present(w, h);
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplSDL2_NewFrame();
      ImGuiIO& io = ImGui::GetIO();
      io.MousePos = ImVec2(mouse.x, mouse.y);
      io.MouseDown[0] = down;
      ImGui::NewFrame();
      viz.drawUi();
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      SDL_GL_SwapWindow(win);
    }
  }

  std::uint32_t windowId() const { return SDL_GetWindowID(win); }

  void push(SDL_Event& e) { REQUIRE(SDL_PushEvent(&e) == 1); }

  void moveTo(glm::vec2 p) {
    SDL_Event e{};
    e.type = SDL_MOUSEMOTION;
    e.motion.windowID = windowId();
    e.motion.x = static_cast<int>(std::lround(p.x));
    e.motion.y = static_cast<int>(std::lround(p.y));
    e.motion.xrel = e.motion.x - static_cast<int>(std::lround(mouse.x));
    e.motion.yrel = e.motion.y - static_cast<int>(std::lround(mouse.y));
    e.motion.state = down ? SDL_BUTTON_LMASK : 0;
    mouse = {static_cast<float>(e.motion.x), static_cast<float>(e.motion.y)};
    push(e);
    frame();
  }

  void button(bool press, int clicks = 1) {
    SDL_Event e{};
    e.type = press ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    e.button.windowID = windowId();
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = press ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = static_cast<Uint8>(clicks);
    e.button.x = static_cast<int>(std::lround(mouse.x));
    e.button.y = static_cast<int>(std::lround(mouse.y));
    down = press;
    push(e);
    frame();
  }

  void click(glm::vec2 p, int clicks = 1) {
    moveTo(p);
    button(true, clicks);
    button(false, clicks);
  }

  glm::vec2 screenOf(Vec2 world) { return viz.camera().worldToScreen({world.x, world.y}); }
  void clickWorld(Vec2 world, int clicks = 1) { click(screenOf(world), clicks); }

  void drag(Vec2 from, Vec2 to, int steps = 6) {
    moveTo(screenOf(from));
    button(true);
    for (int k = 1; k <= steps; ++k) {
      const float t = static_cast<float>(k) / static_cast<float>(steps);
      moveTo(screenOf(from + (to - from) * t));
    }
    button(false);
  }

  // A widget of the panel by the name the app recorded it under.
  void clickWidget(const std::string& name) {
    const auto r = viz.widgetRect(name);
    REQUIRE_MESSAGE(r.has_value(), "no widget " << name << " in the last frame");
    REQUIRE_MESSAGE(((*r)[0] >= 0 && (*r)[3] <= static_cast<float>(h)), "widget " << name << " is off the screen");
    click({0.5f * ((*r)[0] + (*r)[2]), 0.5f * ((*r)[1] + (*r)[3])});
  }

  void key(SDL_Keycode sym, SDL_Scancode code, Uint16 mod = KMOD_NONE) {
    SDL_Event e{};
    e.type = SDL_KEYDOWN;
    e.key.windowID = windowId();
    e.key.state = SDL_PRESSED;
    e.key.keysym.sym = sym;
    e.key.keysym.scancode = code;
    e.key.keysym.mod = mod;
    push(e);
    frame();
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    push(e);
    frame();
  }

  void type(const std::string& text) {
    for (std::size_t at = 0; at < text.size(); at += 24) {
      SDL_Event e{};
      e.type = SDL_TEXTINPUT;
      e.text.windowID = windowId();
      std::snprintf(e.text.text, sizeof e.text.text, "%s", text.substr(at, 24).c_str());
      push(e);
    }
    frame();
  }

  // Click a text field (it selects its text), type, Enter.
  void enterText(const std::string& widget, const std::string& text) {
    clickWidget(widget);
    type(text);
    key(SDLK_RETURN, SDL_SCANCODE_RETURN);
  }

  // The window as shown (canvas and panels), top row first.
  std::vector<std::uint8_t> window() {
    std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4), flipped(px.size());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    const std::size_t row = static_cast<std::size_t>(w) * 4;
    for (int y = 0; y < h; ++y) std::copy_n(px.data() + row * (h - 1 - y), row, flipped.data() + row * y);
    return flipped;
  }

  // A frame drawn but not swapped, for reading the back buffer.
  std::vector<std::uint8_t> shot(const std::string& name) {
    viz.drawCanvas(w, h);
    viz.renderer().present(w, h);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(mouse.x, mouse.y);
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    viz.drawUi();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    std::vector<std::uint8_t> px = window();
    CHECK(render::writePng(out(name), w, h, px));
    SDL_GL_SwapWindow(win);
    return px;
  }
};

int distance(const std::vector<std::uint8_t>& px, int w, glm::vec2 at, std::uint32_t c) {
  const int x = static_cast<int>(std::lround(at.x)), y = static_cast<int>(std::lround(at.y));
  const std::uint8_t* p = px.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 4;
  int d = 0;
  for (int k = 0; k < 3; ++k) d += std::abs(static_cast<int>(p[k]) - static_cast<int>((c >> (8 * k)) & 255u));
  return d;
}

// The nearest any pixel within `r` of `at` comes to colour c.
int nearest(const std::vector<std::uint8_t>& px, int w, int h, glm::vec2 at, std::uint32_t c, int r = 2) {
  int best = 1 << 20;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx) {
      const glm::vec2 p = at + glm::vec2(dx, dy);
      if (p.x < 0 || p.y < 0 || p.x >= static_cast<float>(w) || p.y >= static_cast<float>(h)) continue;
      best = std::min(best, distance(px, w, p, c));
    }
  return best;
}

int runThrong(const std::string& args) {
  const std::string cmd = std::string(THRONG_BIN) + " " + args + " > " + out("editor_run.log") + " 2>&1";
  const int rc = std::system(cmd.c_str());
  return rc;
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Segment pq crosses segment ab (proper or touching).
bool crosses(Vec2 p, Vec2 q, Vec2 a, Vec2 b) {
  auto side = [](Vec2 o, Vec2 u, Vec2 v) { return det(u - o, v - o); };
  const float d1 = side(a, b, p), d2 = side(a, b, q), d3 = side(p, q, a), d4 = side(p, q, b);
  return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

const char* kRoom = R"({
  "name": "room",
  "description": "A walled 10 m room, empty: the editor test draws in it.",
  "units": "m",
  "duration": 40,
  "settings": {"maxStep": 0.05},
  "agentDefaults": {"radius": 0.25, "maxSpeed": 1.3},
  "walls": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]
}
)";

struct ImGuiSession {
  explicit ImGuiSession(const app::GlWindow& w) {
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ok = ImGui_ImplSDL2_InitForOpenGL(w.window(), w.context()) && ImGui_ImplOpenGL3_Init("#version 330 core");
  }
  ~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  bool ok = false;
};

}  // namespace

TEST_CASE("editor: one pass as a person: draw a wall with a gap, a group and its goal, a knob on the gap, save, run") {
  std::filesystem::create_directories(THRONG_TEST_OUT);
  setenv("THRONG_RECENT_FILES", out("editor_recent.txt").c_str(), 1);
  const std::string roomPath = out("editor_room.json"), savedPath = out("editor_room_edited.json");
  std::filesystem::remove(savedPath);
  {
    std::ofstream f(roomPath);
    f << kRoom;
  }
  app::GlWindow window;
  std::string err;
  REQUIRE_MESSAGE(window.create("throng editor test", 1280, 800, true, false, &err), err);
  ImGuiSession imgui(window);
  REQUIRE(imgui.ok);

  auto host = app::openScene(roomPath, &err);
  REQUIRE_MESSAGE(host, err);
  app::VizApp viz(std::move(host));
  viz.setScenePath(roomPath);  // as the command line's scene
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.renderOptions().trails = false;
  Driver d(window.window(), viz);
  d.frame(3);
  // A setting tuned in the run panel before editing, which the edit leaves
  // alone: the run rebuilt from the document keeps it.
  REQUIRE(viz.host().set("timeHorizon", 2.5, &err));

  // E: edit mode, the room's document; F: fit it between the panels.
  d.key(SDLK_e, SDL_SCANCODE_E);
  REQUIRE(viz.editing());
  REQUIRE(viz.editor() != nullptr);
  edit::Editor& ed = *viz.editor();
  CHECK(ed.path() == roomPath);
  CHECK_FALSE(viz.isPlaying());
  // One Settings while editing: the tuned time horizon went into the
  // document, as one edit that undo takes back.
  CHECK(ed.view().number("/settings/timeHorizon").value_or(DocNumber{}).value == 2.5);
  CHECK(ed.dirty());
  REQUIRE(ed.undo());
  CHECK_FALSE(ed.view().number("/settings/timeHorizon").has_value());
  REQUIRE(ed.redo());
  d.key(SDLK_f, SDL_SCANCODE_F);
  d.frame(2);
  const std::vector<std::uint8_t> before = d.shot("editor_0_room.png");
  const glm::vec2 onWallA = d.screenOf({5, 2}), inGap = d.screenOf({5, 5}), onWallB = d.screenOf({5, 8});
  INFO("wall A's middle on screen at " << onWallA.x << ", " << onWallA.y << "; zoom " << viz.camera().zoom);
  REQUIRE(onWallA.x > 380);  // between the panels
  REQUIRE(onWallA.x < 900);
  CHECK(nearest(before, d.w, d.h, onWallA, edit::kWallColor) > 150);  // empty ground before

  // The wall tool: the gap's two sides, one ended by a double-click, the other by Enter.
  d.clickWidget("tool.wall");
  CHECK(ed.tools.tool() == edit::Tool::Wall);
  d.clickWorld({5, 0});
  d.clickWorld({5, 4});
  d.clickWorld({5, 4}, 2);
  d.clickWorld({5, 6});
  d.clickWorld({5, 10});
  d.key(SDLK_RETURN, SDL_SCANCODE_RETURN);
  std::vector<DocShape> drawn;
  for (const DocShape& s : ed.shapes())
    if (s.kind == DocShapeKind::wall && s.points.size() == 2) drawn.push_back(s);
  REQUIRE(drawn.size() == 2);
  CHECK(drawn[0].points[0] == Vec2{5, 0});
  CHECK(drawn[0].points[1] == Vec2{5, 4});
  CHECK(drawn[1].points[0] == Vec2{5, 6});
  CHECK(drawn[1].points[1] == Vec2{5, 10});

  // The group tool: drag its region on the west side, click its goal on the east.
  d.clickWidget("tool.group");
  d.drag({1, 1}, {4, 9});
  d.clickWorld({8, 5});
  CHECK(ed.view().root().find("generators") != nullptr);

  // A knob from the knob form (Esc first: nothing selected, so the inspector is short).
  d.key(SDLK_ESCAPE, SDL_SCANCODE_ESCAPE);
  CHECK(ed.selected().empty());
  d.enterText("knob.form.name", "gap");
  d.enterText("knob.form.min", "0.6");
  d.enterText("knob.form.max", "4");
  d.enterText("knob.form.default", "2");
  d.enterText("knob.form.help", "the gap in the drawn wall, m");
  d.clickWidget("knob.form.add");
  REQUIRE_MESSAGE(ed.knobValues().count("gap") == 1, viz.status());
  CHECK(ed.knobValues().at("gap") == 2);

  // Bind the gap's ends: select each end and type its y as an expression.
  d.clickWidget("tool.select");
  d.clickWorld({5, 4});
  CHECK(ed.selectedVertex() == drawn[0].vertexPointers[1]);
  d.enterText("vertex.y", "5 - gap / 2");
  d.clickWorld({5, 6});
  CHECK(ed.selectedVertex() == drawn[1].vertexPointers[0]);
  d.enterText("vertex.y", "5 + gap / 2");
  const auto endA = ed.view().number(drawn[0].vertexPointers[1] + "/1");
  const auto endB = ed.view().number(drawn[1].vertexPointers[0] + "/1");
  REQUIRE(endA);
  REQUIRE(endB);
  CHECK(endA->form == DocNumber::Form::expression);
  CHECK(endA->text == "5 - gap / 2");
  CHECK(endB->text == "5 + gap / 2");
  CHECK(endA->value == doctest::Approx(4));
  CHECK(ed.problems().empty());

  // The knob's range widened afterwards: its row's edit button fills the
  // form with it, Apply writes it back; what is bound to it stays bound.
  d.clickWidget("knob.gap.edit");
  d.enterText("knob.form.max", "5");
  d.clickWidget("knob.form.apply");
  const auto gapMax = ed.view().number("/knobs/gap/max");
  REQUIRE_MESSAGE(gapMax, viz.status());
  CHECK(gapMax->value == 5);
  CHECK(ed.view().number("/knobs/gap/default")->value == 2);
  REQUIRE(ed.view().root().at("/knobs/gap/help") != nullptr);
  CHECK(ed.view().root().at("/knobs/gap/help")->asString() == "the gap in the drawn wall, m");
  CHECK(ed.view().number(drawn[0].vertexPointers[1] + "/1")->text == "5 - gap / 2");
  d.frame();
  CHECK(viz.widgetRect("knob.form.add").has_value());  // the form is back to a new knob

  // The discomfort-region tool: a drag makes a region; Ctrl+Z takes it back.
  d.clickWidget("tool.discomfort region");
  CHECK(ed.tools.tool() == edit::Tool::Discomfort);
  d.drag({6, 1}, {9, 3});
  const DocValue* regions = ed.view().root().find("discomfort");
  REQUIRE(regions != nullptr);
  REQUIRE(regions->items().size() == 1);
  CHECK(ed.view().number("/discomfort/0/value")->value == 1);
  // The tool shows the discomfort layer, whose legend keeps clear of the scene panel.
  d.moveTo(d.screenOf({7.5f, 2}));
  d.frame(2);
  d.shot("editor_discomfort_region.png");
  const auto legend = viz.widgetRect("legend.window"), panel = viz.widgetRect("scene.window");
  REQUIRE(legend.has_value());
  REQUIRE(panel.has_value());
  INFO("legend " << (*legend)[0] << ".." << (*legend)[2] << ", scene panel " << (*panel)[0] << ".." << (*panel)[2]);
  CHECK((*legend)[2] <= (*panel)[0]);
  d.key(SDLK_z, SDL_SCANCODE_Z, KMOD_LCTRL);
  CHECK(ed.view().root().find("discomfort") == nullptr);
  CHECK(ed.view().number("/knobs/gap/max")->value == 5);

  // The measurement-line tool: a drag from one end to the other.
  d.clickWidget("tool.measurement line");
  CHECK(ed.tools.tool() == edit::Tool::MeasureLine);
  d.drag({1.5f, 9}, {3.5f, 9});
  const DocValue* measured = ed.view().root().find("measurements");
  REQUIRE(measured != nullptr);
  CHECK(measured->items().size() == 1);
  d.clickWidget("tool.select");

  // What it looks like: the drawn walls' pixels in the wall colour, the gap open
  // (nothing selected, the cursor away, so no highlight covers them).
  d.key(SDLK_ESCAPE, SDL_SCANCODE_ESCAPE);
  d.moveTo(d.screenOf({8.5f, 8.5f}));
  const std::vector<std::uint8_t> drawnPx = d.shot("editor_1_drawn.png");
  CHECK(nearest(drawnPx, d.w, d.h, onWallA, edit::kWallColor) < 40);
  CHECK(nearest(drawnPx, d.w, d.h, onWallB, edit::kWallColor) < 40);
  CHECK(nearest(drawnPx, d.w, d.h, inGap, edit::kWallColor) > 150);
  CHECK(nearest(drawnPx, d.w, d.h, d.screenOf({1, 5}), edit::kGeneratorColor, 3) < 60);  // the group's region
  CHECK(nearest(drawnPx, d.w, d.h, d.screenOf({8, 5}), edit::kGoalColor, 3) < 40);     // its goal
  CHECK(nearest(drawnPx, d.w, d.h, d.screenOf({2.5f, 9}), edit::kMeasureColor, 3) < 60);  // the measurement line

  // Ctrl+Shift+S: save as, a path typed into the dialog.
  CHECK(ed.dirty());
  d.key(SDLK_s, SDL_SCANCODE_S, KMOD_LCTRL | KMOD_LSHIFT);
  d.frame(2);
  d.enterText("saveas.path", savedPath);
  d.frame(2);
  REQUIRE_MESSAGE(std::filesystem::exists(savedPath), viz.status());
  CHECK_FALSE(ed.dirty());
  CHECK(ed.path() == savedPath);
  CHECK(viz.recentFiles().list().at(0) == std::filesystem::absolute(savedPath).lexically_normal().string());

  // Back to run: the run is built from the document (the group walks).
  d.key(SDLK_e, SDL_SCANCODE_E);
  CHECK_FALSE(viz.editing());
  CHECK(viz.host().crowd().count() >= 15);
  CHECK(viz.host().crowd().settings.timeHorizon == 2.5f);
  CHECK(viz.host().crowd().measurements().measurements.size() == 1);  // and measures the line
  bool hasGapKnob = false;
  for (const app::KnobInfo& k : viz.host().knobs()) hasGapKnob |= k.name == "gap";
  CHECK(hasGapKnob);
  viz.setPlaying(true);
  for (int k = 0; k < 30; ++k) viz.stepOnce();
  d.frame(2);
  d.shot("editor_2_run.png");

  // The saved file, headless: the walls hold, the gap lets walkers through, the knob matters.
  const std::string traj = out("editor_traj.csv"), sum1 = out("editor_sum1.json"), sum2 = out("editor_sum2.json");
  REQUIRE(runThrong("run " + savedPath + " --seconds 40 --export " + traj + " --summary " + sum1 + " --quiet") == 0);
  REQUIRE(runThrong("run " + savedPath + " --seconds 40 --set gap=0.8 --summary " + sum2 + " --quiet") == 0);
  const nlohmann::json s1 = readJson(sum1), s2 = readJson(sum2);
  CHECK(s1["knobs"]["gap"] == 2);
  CHECK(s2["knobs"]["gap"] == 0.8);
  CHECK(s1["hash"] != s2["hash"]);
  CHECK(s1["gatePassed"] == true);
  MESSAGE("gap 2: " << s1["arrived"] << " of " << s1["agents"] << " arrived, all by " << s1["allArrivedTime"]
                    << "; gap 0.8: " << s2["arrived"] << " arrived, all by " << s2["allArrivedTime"]);
  std::ifstream csv(traj);
  std::string line;
  std::getline(csv, line);
  REQUIRE(line.rfind("step,time,id,x,y", 0) == 0);
  std::map<long long, Vec2> last;
  std::size_t rows = 0, crossings = 0, through = 0;
  const Vec2 a0{5, 0}, a1{5, 4}, b0{5, 6}, b1{5, 10};
  while (std::getline(csv, line)) {
    std::stringstream ss(line);
    std::string f[5];
    for (auto& x : f) std::getline(ss, x, ',');
    const long long id = std::stoll(f[2]);
    const Vec2 p{std::stof(f[3]), std::stof(f[4])};
    if (auto it = last.find(id); it != last.end()) {
      crossings += crosses(it->second, p, a0, a1) || crosses(it->second, p, b0, b1);
      through += it->second.x < 5 && p.x >= 5;
    }
    last[id] = p;
    ++rows;
  }
  CHECK(rows > 1000);
  CHECK(crossings == 0);  // nobody walks through the drawn wall
  CHECK(through >= 5);    // the gap lets them by
  MESSAGE(rows << " trajectory rows, " << through << " passages through the gap, " << crossings << " through the wall");

  // Back in: the run is the saved document, so nothing goes in and nothing
  // is unsaved; out again with no edit, the run is the one it was.
  viz.setPlaying(false);
  const std::uint64_t steps = viz.host().crowd().stepCount(), hash = viz.host().crowd().stateHash();
  d.key(SDLK_e, SDL_SCANCODE_E);
  REQUIRE(viz.editing());
  CHECK_FALSE(ed.dirty());
  d.key(SDLK_e, SDL_SCANCODE_E);
  REQUIRE_FALSE(viz.editing());
  CHECK(viz.host().crowd().stepCount() == steps);
  // A setting tuned now goes into the document on the way in, and the run
  // still goes on, with it, where it was.
  REQUIRE(viz.host().set("jitter", 0, &err));
  d.key(SDLK_e, SDL_SCANCODE_E);
  REQUIRE(viz.editing());
  CHECK(ed.view().number("/settings/jitter").value_or(DocNumber{}).value == 0);
  CHECK(ed.dirty());
  d.key(SDLK_e, SDL_SCANCODE_E);
  REQUIRE_FALSE(viz.editing());
  CHECK(viz.host().crowd().stepCount() == steps);
  CHECK(viz.host().crowd().stateHash() == hash);
  CHECK(viz.host().crowd().settings.jitter == 0);

  // An unsaved edit asks before quitting: Cancel keeps the app, Discard quits.
  d.key(SDLK_e, SDL_SCANCODE_E);
  REQUIRE(viz.editing());
  // A stroke of the discomfort brush shows at once in the field overlay's
  // colours (red: avoided), and Ctrl+Z takes the whole stroke back.
  d.clickWidget("tool.discomfort brush");
  d.drag({6.5f, 7.5f}, {9, 7.5f}, 10);
  REQUIRE(ed.view().root().find("discomfortMap") != nullptr);
  d.moveTo(d.screenOf({8, 2}));
  const std::vector<std::uint8_t> brushPx = d.shot("editor_4_brush.png");
  CHECK(viz.fieldImage().result == render::FieldLayerImage::Result::Drawn);
  CHECK(viz.fieldImage().layer == render::FieldLayer::Discomfort);
  {
    const glm::vec2 hot = d.screenOf({7.75f, 7.5f}), cold = d.screenOf({7.75f, 3});
    const std::uint8_t* p = brushPx.data() + (static_cast<std::size_t>(hot.y) * d.w + static_cast<std::size_t>(hot.x)) * 4;
    const std::uint8_t* q = brushPx.data() + (static_cast<std::size_t>(cold.y) * d.w + static_cast<std::size_t>(cold.x)) * 4;
    INFO("painted " << int(p[0]) << "," << int(p[1]) << "," << int(p[2]) << "; unpainted " << int(q[0]) << ","
                    << int(q[1]) << "," << int(q[2]));
    CHECK(p[0] > p[2] + 60);                      // red where painted
    CHECK(std::abs(int(q[0]) - int(q[2])) < 30);  // near-white elsewhere
  }
  d.key(SDLK_z, SDL_SCANCODE_Z, KMOD_LCTRL);
  CHECK(ed.view().root().find("discomfortMap") == nullptr);
  d.key(SDLK_z, SDL_SCANCODE_Z, KMOD_LCTRL | KMOD_LSHIFT);
  CHECK(ed.view().root().find("discomfortMap") != nullptr);
  d.clickWidget("tool.obstacle rect");
  d.drag({7, 1}, {9, 3});
  CHECK(ed.dirty());
  SDL_Event q{};
  q.type = SDL_QUIT;
  d.push(q);
  d.frame(2);
  CHECK_FALSE(d.quit);
  CHECK_FALSE(viz.pendingQuestion().empty());
  d.shot("editor_3_unsaved.png");
  d.clickWidget("ask.cancel");
  CHECK(viz.pendingQuestion().empty());
  d.push(q);
  d.frame(2);
  d.clickWidget("ask.discard");
  d.frame(2);
  CHECK(d.quit);
}
