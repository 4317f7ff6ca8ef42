#include <epoxy/gl.h>  // before SDL's and ImGui's GL headers

#include "viz/ui_help.hpp"
#include "viz/viz_app.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <utility>

#include "render/pack.hpp"
#include "throng/output_file.hpp"
#include "viz/editor/draw.hpp"

namespace throng::app {

using Clock = std::chrono::steady_clock;

VizApp::VizApp(std::unique_ptr<SimHost> host) : host_(std::move(host)), settingWidgets_(settingWidgets(0)) {
  scenes_ = pickableScenes();
  recent_.load();
}

bool VizApp::initGl(std::string* error) {
  if (!renderer_.init(error)) return false;
  afterRebuild(true);
  return true;
}

void VizApp::setStatus(std::string s) {
  status_ = std::move(s);
  statusAt_ = Clock::now();
}

void VizApp::setRate(double r) { clock_.setRate(r); }

void VizApp::takeStep() {
  gap_.before(host_->crowd());
  const auto t0 = Clock::now();
  host_->step();
  lastStepMs_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  msPerStep_ = msPerStep_ <= 0 ? lastStepMs_ : 0.95 * msPerStep_ + 0.05 * lastStepMs_;
  const StepProfile profile = std::as_const(host_->crowd()).profile();
  if (profile.measured) {
    // Smoothed as ms/step is, from the first step's figures.
    const bool first = !phaseMsSeen_;
    for (std::size_t k = 0; k < kStepPhases; ++k)
      phaseMs_[k] = first ? profile.ms[k] : 0.95 * phaseMs_[k] + 0.05 * profile.ms[k];
    phaseMsSeen_ = true;
  }
  gap_.after(host_->crowd());
  plots_.sample(host_->crowd(), host_->agentsEver(), host_->dt());
  if (twin_) {
    // Lockstep: the twin takes the same step with the first's settings,
    // its own over them (a change in the panel reaches both).
    twin_->crowd().settings = twinSettings();
    twin_->step();
    twinPlots_.sample(twin_->crowd(), twin_->agentsEver(), twin_->dt());
  }
  // The replay keeps what the CPU holds anyway; a device run would copy its
  // state back every step for it, so there it keeps nothing.
  const Crowd& c = host_->crowd();
  if (std::string_view(c.backendName()) == "cpu" && c.count() <= ReplayBuffer::kMaxWalkers) {
    std::vector<render::AgentInstance> walkers;
    render::packInstances(c.frame(), walkers);
    replay_.push(c.time(), c.stepCount(), std::move(walkers));
  }
  replayBack_ = 0;
}

void VizApp::replayTo(std::size_t back) {
  playing_ = false;
  replayBack_ = replay_.size() == 0 ? 0 : std::min(back, replay_.size() - 1);
}

void VizApp::stepOnce() {
  playing_ = false;
  // In a replay, a step goes forward through it; at its end, the run steps.
  if (replayBack_ > 0) --replayBack_;
  else takeStep();
}

void VizApp::advance(double frameSeconds) {
  stepsLastFrame_ = 0;
  const double dt = std::max(host_->dt(), 1e-6);
  if (!playing_) {
    clock_.reset();
    return;
  }
  const int n = recorder_.active() ? clock_.recorded(recordFps, dt) : clock_.live(frameSeconds, dt);
  for (int k = 0; k < n; ++k) takeStep();
  stepsLastFrame_ = n;
}

void VizApp::reset() {
  std::string err;
  const Settings s = host_->crowd().settings;
  if (!host_->rebuild(s, &err)) setStatus("reset failed: " + err);
  afterRebuild(false);
}

Settings VizApp::twinSettings() const {
  Settings s = host_->crowd().settings;
  for (const std::string& a : twinSets_) {
    const std::size_t eq = a.find('=');
    setSettingText(s, a.substr(0, eq), a.substr(eq + 1), nullptr);  // checked when they were given
  }
  if (twin_) s.maxStep = twin_->crowd().settings.maxStep;  // the step belongs to the scene
  return s;
}

bool VizApp::setSideBySide(const std::string& assignments, std::string* error) {
  std::vector<std::string> sets;
  std::string word;
  for (const char c : assignments + " ") {
    if (c == ' ' || c == ',' || c == '\t') {
      if (!word.empty()) sets.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (sets.empty()) {
    const bool was = twin_ != nullptr;
    twin_.reset();
    dropMarkers(twinMarkers_, 1);
    twinSets_.clear();
    twinPlots_.clear();
    if (was) fit();
    return true;
  }
  Settings probe = host_->crowd().settings;
  for (const std::string& a : sets) {
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, std::min(eq, a.size()));
    std::string why;
    if (eq == std::string::npos || eq == 0) why = "expected name=value, got \"" + a + "\"";
    else if (!findSetting(name)) why = "\"" + name + "\" is not a setting: side by side compares settings and models of one scene";
    else if (name == "seed" || name == "maxStep") why = "both runs share the seed and the step";
    else setSettingText(probe, name, a.substr(eq + 1), &why);
    if (!why.empty()) {
      if (error) *error = why;
      return false;
    }
  }
  std::unique_ptr<SimHost> twin = host_->clone();
  if (!twin) {
    if (error) *error = host_->name() + " cannot run twice";
    return false;
  }
  twin_ = std::move(twin);
  twinSets_ = std::move(sets);
  twinPlots_.clear();
  plots_.clear();
  reset();  // both from t = 0 (afterRebuild starts the twin)
  fit();
  setStatus("side by side: A " + host_->crowd().settings.model + ", " + twinLabel());
  return true;
}

void VizApp::setBackend(BackendKind kind) {
  if (kind == BackendKind::Auto) {
    std::string why;
    kind = cudaAvailable(&why) ? BackendKind::Cuda : BackendKind::Cpu;
    setStatus(kind == BackendKind::Cuda ? "using the CUDA backend" : "using the CPU backend (" + why + ")");
  }
  backendKind_ = kind;
  interopBroken_ = false;
  applyBackend();
}

void VizApp::applyBackend() {
  Crowd& c = host_->crowd();
  const bool wantCpu = backendKind_ == BackendKind::Cpu;
  if (wantCpu == (std::string_view(c.backendName()) == "cpu")) return;  // already there
  std::string msg;
  if (!c.setBackend(backendKind_, &msg)) {
    c.setBackend(BackendKind::Cpu);
    backendKind_ = BackendKind::Cpu;
    setStatus(msg + "; stepping on the CPU");
    return;
  }
  if (!msg.empty()) setStatus(msg);
}

void VizApp::afterRebuild(bool refit) {
  applyBackend();
  clock_.reset();
  gap_.reset();
  {
    const FrameView f = host_->crowd().frame();
    maxRadius_ = 0;
    for (float r : f.radius) maxRadius_ = std::max(maxRadius_, r);
  }
  settingWidgets_ = settingWidgets(maxRadius_);
  replay_.clear();  // another run: its past is not this one's
  replayBack_ = 0;
  if (twin_) {
    // The twin starts again with the first: the same knobs, its settings over the first's.
    std::string why;
    const std::vector<KnobInfo> theirs = twin_->knobs();
    for (const KnobInfo& k : host_->knobs())
      for (const KnobInfo& t : theirs)
        if (t.name == k.name && t.value != k.value && !twin_->set(k.name, k.value, &why)) setStatus("side by side: " + why);
    if (!twin_->rebuild(twinSettings(), &why)) setStatus("side by side: " + why);
    twinPlots_.restart();
  }
  if (refit) {  // a scene opened: its own values to go back to, its own plots
    sceneSettings_ = host_->crowd().settings;
    plots_.clear();
  }
  ++generation_;
  geometry_ = host_->geometry();
  sceneMeshZoom_ = -1;
  renderer_.clearTrails();
  if (refit) fit();
}

void VizApp::fit() { fitPending_ = true; }

void VizApp::fitNow() {
  fitPending_ = false;
  render::Bounds b;
  if (editing_ && editor_) {
    for (const DocShape& s : editor_->shapes())
      if (!edit::isMapShape(s))
        for (Vec2 p : s.points) b.add({p.x, p.y}, s.radius);
    if (b.empty()) b.add({0, 0}, 10);
    // Between the panel (left) and the inspector (right) when there is room.
    const int left = uiHidden_ ? 0 : panelWidthPx(), right = uiHidden_ ? 0 : panelWidthPx();
    const bool room = camera_.width - left - right >= 300;
    const int fullWidth = camera_.width;
    camera_.width = room ? fullWidth - left - right : fullWidth;
    camera_.fit(b, 24);
    camera_.width = fullWidth;
    if (room) camera_.center.x -= 0.5f * static_cast<float>(left - right) / camera_.zoom;
    return;
  }
  const FrameView f = host_->crowd().frame();
  for (std::size_t i = 0; i < f.px.size(); ++i) b.add({f.px[i], f.py[i]}, f.radius[i]);
  for (const auto& o : geometry_.obstacles)
    for (Vec2 p : o) b.add({p.x, p.y});
  for (const auto& w : geometry_.walls)
    for (Vec2 p : w) b.add({p.x, p.y});
  for (Vec2 p : geometry_.goals) b.add({p.x, p.y});
  auto addRect = [&](const Rect& r) {
    b.add({r.x, r.y});
    b.add({r.x + r.width, r.y + r.height});
  };
  // Sources and goal regions say where walkers will be; sinks are often
  // oversized catch-alls, so they count only when nothing else is there.
  for (const Rect& r : geometry_.sources) addRect(r);
  for (const Rect& r : geometry_.goalRegions) addRect(r);
  if (b.empty())
    for (const Rect& r : geometry_.sinks) addRect(r);
  if (b.empty()) b.add({0, 0}, 10);
  // Fit into the part of the canvas right of the panel while the UI shows
  // and there is room (the canvas itself, and so the footage, is unchanged).
  const int panel = (!uiHidden_ && !presenting_ && !twin_ && !recorder_.active() && camera_.width > 3 * panelWidthPx())
                        ? panelWidthPx()
                        : 0;
  const int fullWidth = camera_.width;
  camera_.width = fullWidth - panel;
  // Presenting: room round the scene for the title, the clock and the plot.
  camera_.fit(b, presenting_ ? std::max(24.0f, 0.17f * static_cast<float>(camera_.height)) : 24.0f);
  camera_.width = fullWidth;
  camera_.center.x -= 0.5f * static_cast<float>(panel) / camera_.zoom;
}

bool VizApp::setScene(std::unique_ptr<SimHost> host) {
  if (!host) return false;
  stopRecording();
  if (editing_) {  // a new scene: its own document, opened when edit mode is entered again
    editing_ = false;
    renderer_.setField({}, 0, 0, {}, 0);
    fieldKey_.forget();
  }
  editor_.reset();
  scenePath_.clear();
  host_ = std::move(host);
  twin_.reset();  // side by side is of one scene
  dropMarkers(twinMarkers_, 1);
  twinSets_.clear();
  twinPlots_.clear();
  hasSelection_ = false;
  afterRebuild(true);
  setStatus("opened " + host_->name());
  return true;
}

bool VizApp::setKnob(const std::string& name, double value, std::string* error) {
  const bool ok = host_->set(name, value, error);
  if (ok) afterRebuild(false);
  if (ok) {
    char text[64];
    std::snprintf(text, sizeof text, "%s = %.4g", name.c_str(), value);
    plots_.mark(text);
  }
  // The editor shows the document at the run's knob values; the run already has them.
  if (ok && editor_) {
    const auto knobs = editor_->knobValues();
    if (knobs.count(name)) {
      const bool current = builtRevision_ == editor_->revision();
      std::string ignored;
      if (editor_->setKnobValue(name, value, &ignored) && current) builtRevision_ = editor_->revision();
    }
  }
  return ok;
}

void VizApp::select(std::ptrdiff_t index) {
  const FrameView f = host_->crowd().frame();
  if (index < 0 || static_cast<std::size_t>(index) >= f.id.size()) {
    hasSelection_ = false;
    return;
  }
  hasSelection_ = true;
  selectedId_ = f.id[static_cast<std::size_t>(index)];
}

std::ptrdiff_t VizApp::selectedIndex() const {
  if (!hasSelection_) return -1;
  const FrameView f = host_->crowd().frame();
  for (std::size_t i = 0; i < f.id.size(); ++i)
    if (f.id[i] == selectedId_) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

void VizApp::pickAt(glm::vec2 screen) {
  const glm::vec2 w = camera_.screenToWorld(screen);
  const FrameView f = host_->crowd().frame();
  std::ptrdiff_t best = -1;
  float bestD = 1e30f;
  const float slack = 4 * camera_.pixelSize();
  for (std::size_t i = 0; i < f.px.size(); ++i) {
    const float dx = f.px[i] - w.x, dy = f.py[i] - w.y;
    const float d = std::sqrt(dx * dx + dy * dy) - f.radius[i];
    if (d < slack && d < bestD) {
      bestD = d;
      best = static_cast<std::ptrdiff_t>(i);
    }
  }
  select(best);
}

bool VizApp::handleEvent(const SDL_Event& e, bool uiMouse, bool uiKeys, float scale) {
  // Quitting with unsaved edits asks first; "discard" (or a save) quits.
  const bool quit = e.type == SDL_QUIT || (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE);
  if (quit) {
    if (quitConfirmed_ || !editor_ || !editor_->dirty()) return false;
    askThen("Quit, dropping the unsaved edits?", [this] {
      quitConfirmed_ = true;
      SDL_Event q{};
      q.type = SDL_QUIT;
      SDL_PushEvent(&q);
    });
    return true;
  }
  if (e.type == SDL_KEYDOWN && !uiKeys && !e.key.repeat && editorKey(e)) return true;
  if (editing_) {
    const bool mouse = e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP || e.type == SDL_MOUSEMOTION;
    if (mouse) {
      const glm::vec2 at = e.type == SDL_MOUSEMOTION ? glm::vec2(e.motion.x, e.motion.y) : glm::vec2(e.button.x, e.button.y);
      editorPointer(e, at * scale, uiMouse);
      return true;
    }
    if (e.type == SDL_KEYDOWN && !uiKeys && !e.key.repeat) {
      // Run mode's keys that make sense while editing; the rest wait for run mode.
      switch (e.key.keysym.sym) {
        case SDLK_f: fit(); break;
        case SDLK_h: uiHidden_ = !uiHidden_; break;
        case SDLK_l:
          fieldOverlay_.layer =
              static_cast<render::FieldLayer>((static_cast<int>(fieldOverlay_.layer) + 1) % render::kFieldLayerCount);
          break;
        default: break;
      }
      return true;
    }
  }
  switch (e.type) {
    case SDL_KEYDOWN:
      if (uiKeys || e.key.repeat) break;
      switch (e.key.keysym.sym) {
        case SDLK_SPACE: togglePlay(); break;
        case SDLK_PERIOD: stepOnce(); break;
        case SDLK_r: reset(); break;
        case SDLK_f: fit(); break;
        case SDLK_s: screenshot(); break;
        case SDLK_v:
          if (recorder_.active()) stopRecording();
          else {
            std::string msg;
            startRecording("", recordFps, &msg);
          }
          break;
        case SDLK_h: uiHidden_ = !uiHidden_; break;
        case SDLK_p: setPresenting(!presenting_); break;
        case SDLK_m: showMarkers_ = !showMarkers_; break;
        case SDLK_l:
          fieldOverlay_.layer =
              static_cast<render::FieldLayer>((static_cast<int>(fieldOverlay_.layer) + 1) % render::kFieldLayerCount);
          break;
        case SDLK_ESCAPE: hasSelection_ = false; break;
        case SDLK_LEFT: replayTo(replayBack_ + 1); break;
        case SDLK_RIGHT:
          if (replayBack_ > 0) replayTo(replayBack_ - 1);
          break;
        default: break;
      }
      break;
    case SDL_MOUSEBUTTONDOWN:
      if (uiMouse) break;
      pressed_ = true;
      dragging_ = false;
      pressAt_ = lastMouse_ = glm::vec2(e.button.x, e.button.y) * scale;
      break;
    case SDL_MOUSEMOTION: {
      const glm::vec2 m = glm::vec2(e.motion.x, e.motion.y) * scale;
      if (pressed_) {
        if (!dragging_ && glm::length(m - pressAt_) > 3) dragging_ = true;
        if (dragging_) camera_.pan(m - lastMouse_);
      }
      lastMouse_ = m;
      break;
    }
    case SDL_MOUSEBUTTONUP:
      if (pressed_ && !dragging_ && e.button.button == SDL_BUTTON_LEFT) pickAt(glm::vec2(e.button.x, e.button.y) * scale);
      pressed_ = dragging_ = false;
      break;
    case SDL_MOUSEWHEEL: {
      if (uiMouse) break;
      int mx = 0, my = 0;
      SDL_GetMouseState(&mx, &my);
      const float wheel = e.wheel.preciseY != 0 ? e.wheel.preciseY : static_cast<float>(e.wheel.y);
      camera_.zoomAt(glm::vec2(mx, my) * scale, std::pow(1.15f, wheel));
      break;
    }
    default: break;
  }
  return true;
}

void VizApp::rebuildSceneMesh() {
  if (sceneMeshZoom_ == camera_.zoom) return;
  sceneMesh_.clear();
  if (showGeometry_) render::buildSceneMesh(geometry_, camera_.pixelSize(), sceneMesh_);
  renderer_.setSceneMesh(sceneMesh_);
  sceneMeshZoom_ = camera_.zoom;
}

void VizApp::buildTeaching() {
  overlay_.clear();
  const std::ptrdiff_t sel = selectedIndex();
  if (!teaching_ || sel < 0) return;
  const Crowd& c = host_->crowd();
  explain_ = c.explain(static_cast<std::size_t>(sel), host_->dt());
  const FrameView f = c.frame();
  const auto i = static_cast<std::size_t>(sel);
  if (explain_.fieldCell >= 0) {
    // The grid the cell counts in, for the costs printed by the cell: read
    // once a step (on CUDA fields() copies back).
    if (teachingGridKey_.changed({c.stepCount(), generation_})) {
      const FieldView fv = c.fields(-1);
      teachingGrid_ = FieldView{};
      teachingGrid_.origin = fv.origin;
      teachingGrid_.cell = fv.cell;
      teachingGrid_.cols = fv.cols;
      teachingGrid_.rows = fv.rows;
    }
  }
  if (!showGridQuery) {  // the neighbour grid's cells and candidates only when asked for
    std::erase_if(explain_.teaching.shapes, [](const TeachShape& s) {
      return s.role == TeachRole::GridCell || s.role == TeachRole::Candidate;
    });
  }
  render::buildTeachingMesh(explain_.teaching, {f.px[i], f.py[i]}, velocityScale_, camera_.pixelSize(), overlay_,
                            velocityInset ? render::TeachLayer::World : render::TeachLayer::All);
}

// After buildTeaching: an explain may find the owners anew, and may move
// the markers' storage.
void VizApp::dropMarkers(MarkerLayer& layer, int set) {
  if (layer.key.held() || renderer_.markerCount(set) > 0) renderer_.setMarkers({}, 0, set);
  layer.key.forget();
  layer.pack = {};
}

void VizApp::updateMarkers(const Crowd& c, std::uint64_t selected, MarkerLayer& layer, int set) {
  if (!showMarkers_) {
    dropMarkers(layer, set);
    return;
  }
  const MarkerKey key{c.stepCount(),
                      generation_,
                      selected,
                      camera_.center,
                      camera_.zoom,
                      markerSpacing(c.settings.personalSpace, c.settings.markerDensity),
                      c.settings.personalSpace,
                      camera_.width,
                      camera_.height,
                      c.settings.model};
  if (!layer.key.changed(key)) return;
  layer.pack = render::packMarkers(c.markers(), c.frame().id, camera_, key.spacing, layer.points);
  renderer_.setMarkers(layer.points, layer.pack.dotPx, set);
}

// The field overlay (see FieldKey): the fields are read when the crowd
// stepped, rebuilt or the overlay changed, and packed again only when they
// were refreshed since (steps between refreshes leave them as they were).
void VizApp::updateField() {
  const FieldOverlay& o = fieldOverlay_;
  if (o.layer == render::FieldLayer::None && !o.shading && !o.arrows) {
    if (fieldKey_.held()) {
      renderer_.setField({}, 0, 0, {}, 0);
      renderer_.setFieldMesh({});
    }
    fieldKey_.forget();
    arrowKey_.forget();
    fieldImage_ = {};
    fieldArrows_ = {};
    fieldMesh_.clear();
    fieldTooLarge_ = false;
    return;
  }
  const Crowd& c = host_->crowd();
  // Up to kFollowViewCells the range follows the view as it moves (each move
  // packs the grid again); a larger grid keeps the range of its last pack
  // until the next refresh, so panning stays smooth.
  constexpr std::size_t kFollowViewCells = std::size_t{1} << 18;  // about 8 ms a pack
  const bool followView = o.rangeInView && o.layer != render::FieldLayer::None;
  const bool moveWithView = followView && fieldImage_.cells() <= kFollowViewCells;
  const FieldKey key{c.stepCount(),
                     generation_,
                     o,
                     moveWithView ? camera_.center : glm::vec2{},
                     moveWithView ? camera_.zoom : 0,
                     moveWithView ? camera_.width : 0,
                     moveWithView ? camera_.height : 0};
  // Packed again whatever the fields when anything but the step changed.
  const FieldKey* was = fieldKey_.last();
  const bool fresh = !was || !(was->overlay == o) || fieldImageGeneration_ != generation_ || was->center != key.center ||
                     was->zoom != key.zoom || was->width != key.width || was->height != key.height;
  if (fieldKey_.changed(key)) {
    const FieldView f = c.fields(o.target);
    if (fresh || f.refreshStep != fieldImage_.refreshStep || f.cols != fieldImage_.cols || f.rows != fieldImage_.rows ||
        f.cell != fieldImage_.cell || !(f.origin == fieldImage_.origin)) {
      render::buildFieldLayer(f, {o.layer, o.direction, o.shading, o.arrows, followView ? &camera_ : nullptr}, fieldImage_);
      fieldImageGeneration_ = generation_;
      ++fieldImages_;
      fieldTooLarge_ = !renderer_.setField(fieldImage_.texels, fieldImage_.cols, fieldImage_.rows, fieldImage_.origin,
                                           fieldImage_.cell);
    }
  }
  const ArrowKey ak{fieldImages_, camera_.center, camera_.zoom, camera_.width, camera_.height,
                    o.arrows ? o.arrowEvery : 0};
  if (arrowKey_.changed(ak)) {
    fieldMesh_.clear();
    fieldArrows_ = o.arrows ? render::buildFieldArrows(fieldImage_, camera_, o.arrowEvery, fieldMesh_) : render::FieldArrows{};
    renderer_.setFieldMesh(fieldMesh_);
  }
}

std::string VizApp::fieldAt(glm::vec2 screen) const {
  if (fieldImage_.cols == 0 || fieldImage_.result != render::FieldLayerImage::Result::Drawn) return {};
  const glm::vec2 w = camera_.screenToWorld(screen);
  return render::describeFieldSample(fieldImage_, render::sampleField(fieldImage_, {w.x, w.y}));
}

void VizApp::drawCanvas(int w, int h) {
  if (!recorder_.active()) {
    // Even sizes, so a recording can start at any time (yuv420p).
    w = std::max(2, w & ~1);
    h = std::max(2, h & ~1);
    renderer_.resize(w, h);
  }
  // Side by side, each run has half the canvas, the first on the left.
  camera_.width = twin_ ? renderer_.width() / 2 : renderer_.width();
  camera_.height = renderer_.height();
  if (fitPending_) fitNow();
  if (editing_ && editor_) {
    drawEditCanvas();
    return;
  }
  drawRunCanvas();
  if (twin_) drawTwin();
  if (presenting_ || twin_) drawPresentation();
}

render::RenderOptions VizApp::runOptions() const {
  render::RenderOptions o = options_;
  if (twin_) {
    o.viewportX = 0;
    o.viewportWidth = renderer_.width() / 2;
  }
  return o;
}

void VizApp::drawTwin() {
  render::RenderOptions o = options_;
  o.viewportX = renderer_.width() / 2;
  o.viewportWidth = renderer_.width() - o.viewportX;
  o.runLayers = false;  // the field drawn is the first run's
  o.markerSet = 1;      // the markers, its own
  updateMarkers(twin_->crowd(), ~0ull, twinMarkers_, 1);
  render::packInstances(twin_->crowd().frame(), twinInstances_);
  renderer_.draw(camera_, twinInstances_, nullptr, o);
}

std::string VizApp::twinLabel() const {
  std::string out = "B:";
  for (const std::string& a : twinSets_) out.append(" ").append(a);
  return out;
}

void VizApp::drawPresentation() {
  PresentFrame f;
  f.full = presenting_;
  if (twin_) {
    const float half = static_cast<float>(renderer_.width() / 2);
    f.divider = half;
    f.labels = {{0.0f, "A: " + host_->crowd().settings.model}, {half, twinLabel()}};
  }
  f.title = host_->name();
  f.caption = host_->description();
  f.time = host_->crowd().time();
  f.pixelSize = camera_.pixelSize();
  f.units = host_->units();
  // The corner plot: the first measurement line's flow, else the walkers out.
  const bool twinPlotted = twin_ && twinPlots_.time().size() == plots_.time().size();
  if (!plots_.flows().empty()) {
    f.plotName = "flow at " + plots_.flows().front().name + ", per s";
    f.plot = plots_.flows().front().y;
    if (twinPlotted && !twinPlots_.flows().empty()) f.plotB = twinPlots_.flows().front().y;
  } else if (!plots_.empty()) {
    f.plotName = "walkers out";
    f.plot = plots_.out().y;
    if (twinPlotted) f.plotB = twinPlots_.out().y;
  }
  std::string why;
  if (!presenter_.draw(renderer_, renderer_.width(), renderer_.height(), f, &why)) {
    presenting_ = false;
    setStatus(why);
  }
}

void VizApp::drawRunCanvas() {
  rebuildSceneMesh();
  const std::ptrdiff_t sel = selectedIndex();
  buildTeaching();
  if (hoveredWalker_ >= 0 && static_cast<std::size_t>(hoveredWalker_) < host_->crowd().count()) {
    const Agent n = host_->crowd().agent(static_cast<std::size_t>(hoveredWalker_));
    render::addCircle(overlay_, n.position, n.radius + 5 * camera_.pixelSize(), 3 * camera_.pixelSize(),
                      render::kOrcaLineColor, 32);
  }
  if (const auto& flag = gap_.lastFlag()) {
    // The separation gate caught two walkers overlapping in the last step:
    // both motion segments and where they ended, in red.
    const float px = camera_.pixelSize();
    for (auto [from, to] : {std::pair{flag->fromA, flag->toA}, std::pair{flag->fromB, flag->toB}}) {
      render::addSegment(overlay_, from, to, 3 * px, render::kGateFlagColor);
      render::addCircle(overlay_, to, 6 * px, 2 * px, render::kGateFlagColor, 16);
    }
    render::addSegment(overlay_, flag->toA, flag->toB, 1.5f * px, render::kGateFlagColor);
  }
  updateMarkers(host_->crowd(), teaching_ && sel >= 0 ? selectedId_ : ~0ull, markers_, 0);
  updateField();
  if (replayBack_ > 0 && replayBack_ < replay_.size()) {
    // The crowd as it was: no teaching view (it explains the live state), no trails.
    instances_ = replay_.before(replayBack_).walkers;
    render::RenderOptions o = runOptions();
    o.trails = false;
    lastDrawInterop_ = false;
    renderer_.draw(camera_, instances_, nullptr, o);
    return;
  }
  lastDrawInterop_ = drawFromDevice(sel);
  if (lastDrawInterop_) return;
  const FrameView f = host_->crowd().frame();
  render::packInstances(f, instances_);
  if (sel >= 0) render::markSelection(instances_, sel, explain_.neighbours);
  renderer_.draw(camera_, instances_, &overlay_, runOptions());
}

// The CUDA-GL interop path: when the backend's state is on the device, the
// pack kernel writes the instance buffer in place on the sim stream (no
// host copy). Any failure (no NVIDIA GL context, e.g. Mesa) is reported
// once, and the host upload takes over for good.
bool VizApp::drawFromDevice(std::ptrdiff_t selected) {
  if (interopBroken_ || twin_) return false;  // side by side draws both runs from the host
  DeviceFrame df{};
  if (!host_->crowd().deviceFrame(df)) return false;
  std::string why;
  if (df.count > renderer_.instanceCapacity() || !interop_.attached()) {
    interop_.detach();
    renderer_.useInstanceBuffer(df.count + df.count / 2 + 64, maxRadius_);
    if (!interop_.attach(renderer_.instanceBuffer(), renderer_.instanceCapacity(), &why)) {
      interopBroken_ = true;
      setStatus("drawing by host upload: " + why);
      return false;
    }
  }
  if (!interop_.fill(df, selected, explain_.neighbours, &why)) {
    interop_.detach();
    interopBroken_ = true;
    setStatus("drawing by host upload: " + why);
    return false;
  }
  renderer_.useInstanceBuffer(df.count, maxRadius_);
  renderer_.draw(camera_, {}, &overlay_, options_);
  return true;
}

void VizApp::afterFrame() {
  if (plotPngPending_) writePlotsPng();
  if (!recorder_.active()) return;
  static thread_local std::vector<std::uint8_t> px;
  if (recordUi) {
    px.resize(static_cast<std::size_t>(recorder_.width()) * recorder_.height() * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, recorder_.width(), recorder_.height(), GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  } else {
    renderer_.readCanvasBottomUp(px);
  }
  if (!recorder_.frame(px)) {
    std::string msg;
    recorder_.finish(&msg);
    setStatus("recording stopped: " + msg);
  }
}

std::string VizApp::timestampedName(const char* ext) const {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "throng-%Y%m%d-%H%M%S", std::localtime(&t));
  std::string base = std::string(buf) + "-" + pathComponent(host_->name());
  std::string name = base + "." + ext;
  for (int k = 2; std::filesystem::exists(name); ++k) name = base + "-" + std::to_string(k) + "." + ext;
  return name;
}

bool VizApp::screenshot(const std::string& path) {
  std::vector<std::uint8_t> px;
  renderer_.readCanvas(px);
  const std::string png = render::encodePng(renderer_.width(), renderer_.height(), px);
  std::string why = "cannot encode the canvas as PNG", written;
  const bool ok = !png.empty() && writeWhole(path, png, "png", &written, &why);
  setStatus(ok ? "screenshot: " + written : "screenshot not saved: " + why);
  return ok;
}

bool VizApp::writeWhole(const std::string& path, std::string_view bytes, const char* ext, std::string* written,
                        std::string* why) {
  OutputFile out;
  // A name of our own choosing never replaces a file: a taken one gets -2, -3, ...
  if (!out.open(path.empty() ? timestampedName(ext) : path, why)) return false;
  if (std::fwrite(bytes.data(), 1, bytes.size(), out.file()) != bytes.size()) {
    *why = "writing " + out.partialPath() + " failed";
    return false;
  }
  if (path.empty()) return out.commitUnique(written, why);
  *written = path;
  return out.commit(why);
}

bool VizApp::startRecording(const std::string& path, int fps, std::string* message) {
  recordFps = std::max(1, fps);
  clock_.reset();
  std::string msg;
  // A name given by the user replaces its file; one of ours never does.
  const auto replace = path.empty() ? OutputFile::Replace::No : OutputFile::Replace::Yes;
  // A video size of its own (the canvas alone: the UI is the window's size).
  static constexpr int kSizes[][2] = {{0, 0}, {1280, 720}, {1920, 1080}};
  const int pick = std::clamp(recordSize, 0, 2);
  if (!recordUi && pick > 0 && (renderer_.width() != kSizes[pick][0] || renderer_.height() != kSizes[pick][1])) {
    renderer_.resize(kSizes[pick][0], kSizes[pick][1]);
    fit();
  }
  const bool ok = recorder_.start(path.empty() ? timestampedName("mp4") : path, renderer_.width(),
                                  renderer_.height(), recordFps, &msg, replace);
  setStatus(msg);
  if (message) *message = msg;
  return ok;
}

void VizApp::stopRecording() {
  if (!recorder_.active()) return;
  std::string msg;
  recorder_.finish(&msg);
  setStatus(msg);
  if (recordSize > 0) fit();  // the canvas goes back to the window's size
}

void VizApp::drawUi() {
  widgetRects_.clear();
  uiScale = std::clamp(uiScale, kMinUiScale, kMaxUiScale);
  const bool rescaled = uiScale != appliedUiScale_;
  if (rescaled) {
    if (!baseStyle_) baseStyle_ = std::make_shared<ImGuiStyle>(ImGui::GetStyle());
    ImGui::GetStyle() = *baseStyle_;
    ImGui::GetStyle().ScaleAllSizes(uiScale);
    ImGui::GetIO().FontGlobalScale = uiScale;
    appliedUiScale_ = uiScale;
  }
  drawRecordingIndicator();
  if (uiHidden_ || presenting_) return;

  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  // The panel's width follows the UI scale whenever the scale changes (else
  // the remembered or the user's width holds).
  ImGui::SetNextWindowSize(ImVec2(static_cast<float>(kPanelWidthPx - 20) * uiScale, 0),
                           rescaled && appliedUiScale_ != 1 ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGui::Begin("throng");
  markPanel();

  // Mode: run or edit (E).
  if (ImGui::Button(editing_ ? "Run  (E)" : "Edit (E)")) later([this] { setEditing(!editing_); });
  mark("mode");
  ImGui::SameLine();
  ImGui::TextDisabled(editing_ ? "editing; Run rebuilds" : "running");
  hoverHelp(editing_ ? "Editing the scene; Run rebuilds the run from it." : "Edit pauses the run and opens the scene in the editor.");
  if (editing_ && editor_) {
    drawEditorPanel();
    if (!status_.empty() && Clock::now() - statusAt_ < std::chrono::seconds(8)) ImGui::TextWrapped("%s", status_.c_str());
    ImGui::End();
    drawEditorSidePanel();
    drawFieldLegend();
    drawModals();
    auto actions = std::move(deferred_);
    deferred_.clear();
    for (auto& a : actions) a();
    return;
  }

  drawScenePicker();
  drawTransport();
  drawKnobs();
  drawSettings();
  drawPlots();
  drawViewSection();
  if (ImGui::CollapsingHeader("Fields", ImGuiTreeNodeFlags_DefaultOpen)) drawFieldPanel();

  drawStats();
  drawSelectedWalker();
  drawSideBySideSection();
  drawCaptureSection();
  drawKeys();
  if (!status_.empty() && Clock::now() - statusAt_ < std::chrono::seconds(8)) ImGui::TextWrapped("%s", status_.c_str());
  ImGui::End();
  drawVelocityInset();
  drawFieldLegend();
  drawFieldCellLabels();
  drawModals();
  // Actions that replace the crowd run after the panel is done with it.
  auto actions = std::move(deferred_);
  deferred_.clear();
  for (auto& a : actions) a();
}

}  // namespace throng::app
