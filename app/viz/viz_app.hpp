#pragma once
// VizApp: the visualizer's state and its per-frame work, apart from the
// window loop so `throng record` and the tests can drive it too.
//
// A frame (the canonical ImGui loop): events -> advance -> draw canvas ->
// present -> UI -> swap -> (recording) read the canvas back.
//
// Edit mode (issue 29; app/viz/editor/): E or the panel's button switches
// between running the scene and editing its document (throng/scene_doc.hpp).
// Editing pauses the run and draws the document instead of the walkers;
// mouse and keys go to the editor's tools. Going back to run rebuilds the run
// from the document (when it changed) with the run's seed. Unsaved edits are
// asked about before they are dropped (another scene, open, new, quit). The sim is
// driven by a fixed-step accumulator: every frame adds frameTime x rate,
// whole steps of dt are taken, and the backlog is clamped so a slow step
// never spirals. While recording, each frame is exactly rate / fps seconds
// of sim time instead, so the video plays smoothly whatever the render
// speed.
#include <array>
#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/camera.hpp"
#include "render/cuda_interop.hpp"
#include "render/field_layer.hpp"
#include "render/gl_renderer.hpp"
#include "render/markers.hpp"
#include "render/overlay.hpp"
#include "viz/cache_key.hpp"
#include "viz/editor/editor.hpp"
#include "viz/editor/recent.hpp"
#include "viz/editor/terrain.hpp"
#include "viz/plots.hpp"
#include "viz/present.hpp"
#include "viz/recorder.hpp"
#include "viz/replay.hpp"
#include "viz/settings_panel.hpp"
#include "viz/sim_host.hpp"
#include "viz/step_clock.hpp"
#include "throng/backend.hpp"
#include "throng/scene.hpp"

union SDL_Event;

struct ImGuiStyle;

namespace throng::app {

/// Opens a scene by name or path: built-ins, then scene files when the
/// scene loader is built in. nullptr with *error when none matches.
std::unique_ptr<SimHost> openScene(const std::string& nameOrPath, std::string* error);
/// A host running a loaded Scene from its start (a scene file's, or the one
/// the editor built from its document: what runs is what was edited). Knob
/// changes re-resolve it and rebuild the run from the same seed.
std::unique_ptr<SimHost> makeSceneHost(Scene scene);
/// Names the scene picker offers (built-ins and shipped scene files).
std::vector<std::string> pickableScenes();

class VizApp {
 public:
  static constexpr int kPanelWidthPx = 360;  ///< the panel's width plus its margin
  explicit VizApp(std::unique_ptr<SimHost> host);
  /// Needs a current GL 3.3 context.
  bool initGl(std::string* error);

  /// Window events (after ImGui had them). Returns false on quit.
  bool handleEvent(const SDL_Event& e, bool uiWantsMouse, bool uiWantsKeyboard, float mouseScale);
  /// Advances the sim for a frame that took `frameSeconds` of wall time.
  void advance(double frameSeconds);
  /// Draws the canvas at `w` x `h` (ignored while recording: size is fixed).
  void drawCanvas(int w, int h);
  /// The ImGui panel (between ImGui::NewFrame and ImGui::Render).
  void drawUi();
  /// After the frame is drawn: feeds the recorder.
  void afterFrame();

  // Actions (keys and buttons).
  void togglePlay() {
    playing_ = !playing_;
    if (playing_) replayBack_ = 0;  // Play goes on from the live state
  }
  /// Shows the crowd `back` steps before the newest kept (0: live), while
  /// paused; clamped to what the replay holds.
  void replayTo(std::size_t back);
  std::size_t replayBack() const { return replayBack_; }
  const ReplayBuffer& replay() const { return replay_; }
  /// The walkers the canvas drew last (live or replayed).
  const std::vector<render::AgentInstance>& drawnWalkers() const { return instances_; }
  void stepOnce();
  void reset();
  /// Fits the scene in view (at the next drawCanvas, once the size is known).
  void fit();
  /// Saves the canvas as a PNG at `path`, or (empty) under a new
  /// timestamped name of the scene's, never replacing a file.
  bool screenshot(const std::string& path = {});
  /// Records to `path`, or (empty) to a new timestamped name that never
  /// replaces a file.
  bool startRecording(const std::string& path, int fps, std::string* message);
  void stopRecording();
  bool setScene(std::unique_ptr<SimHost> host);
  bool setKnob(const std::string& name, double value, std::string* error);
  /// Where the crowd steps (kept across rebuilds and scene changes). Cuda
  /// without a device falls back to the CPU and says so in the status line.
  void setBackend(BackendKind kind);
  BackendKind backendKind() const { return backendKind_; }
  /// True when the last canvas took its walkers straight from the device
  /// (CUDA-GL interop) rather than by host upload.
  bool lastDrawUsedInterop() const { return lastDrawInterop_; }
  /// The ground markers (BioCrowds'), drawn under the walkers in their
  /// owners' colours; on by default, toggled by M and the panel.
  void setMarkersShown(bool shown) { showMarkers_ = shown; }
  bool markersShown() const { return showMarkers_; }
  /// What the last canvas did with the markers (how many, or why none).
  const render::MarkerPack& markerPack() const { return markers_.pack; }
  /// Side by side: the second run's markers, as drawn on the right.
  const render::MarkerPack& twinMarkerPack() const { return twinMarkers_.pack; }

  /// The field overlay (render/field_layer.hpp): which layer of the fields
  /// (Crowd::fields) is drawn as a heatmap under the walkers, which
  /// direction speed and cost show, whose potential (an index into
  /// Crowd::terrain().targets) the potential layer and the arrows take, the
  /// arrows down it at every `arrowEvery`-th cell, and hill-shading of the
  /// ground under any layer (the height layer is always shaded). Takes
  /// effect at the next drawCanvas; the fields are read again only when the
  /// crowd stepped or rebuilt, or these change.
  struct FieldOverlay {
    render::FieldLayer layer = render::FieldLayer::None;
    int direction = render::kFieldMean;
    int target = 0;
    bool arrows = false;
    int arrowEvery = 2;  ///< [Limit: 1..64]
    bool shading = false;
    bool rangeInView = true;  ///< the colours span the cells in view (else the whole grid's)
    bool operator==(const FieldOverlay&) const = default;
  };
  FieldOverlay& fieldOverlay() { return fieldOverlay_; }
  /// What the last canvas drew of the fields (a copy: valid across steps).
  const render::FieldLayerImage& fieldImage() const { return fieldImage_; }
  const render::FieldArrows& fieldArrows() const { return fieldArrows_; }
  /// The field under canvas pixel `screen` (the last canvas' layer), for
  /// people: "potential 12.3 path cost at cell (4, 7)"; empty when no
  /// field is drawn.
  std::string fieldAt(glm::vec2 screen) const;

  // Edit mode.
  bool editing() const { return editing_; }
  /// Switches to editing (pausing the run; the document is the scene's
  /// file, or a new one for a built-in) or back to running (rebuilt from
  /// the document when it changed, with the run's seed). False, with the
  /// status saying why, when the document does not build into a run.
  bool setEditing(bool on);
  /// The editor of the current scene's document (null until edit mode was entered).
  edit::Editor* editor() { return editor_.get(); }
  /// The file the current scene was read from ("" unknown: then edit mode
  /// looks the scene's name up among the shipped scenes).
  void setScenePath(std::string path) { scenePath_ = std::move(path); }
  const std::string& scenePath() const { return scenePath_; }
  /// Opens a scene by name or path, as the scene combo and the open field
  /// do: after asking, when the document has unsaved edits.
  void openScenePrompted(const std::string& nameOrPath);
  /// Writes the document to `path` (or to its own file); refused while the
  /// checker finds a blocking problem, and without a file name (then the
  /// "Save as" dialog opens).
  bool saveDocument(const std::string& path = {});
  /// Runs `action` now, or, when the document has unsaved edits, after the
  /// person answers `question` (a modal: save, discard or cancel).
  void askThen(std::string question, std::function<void()> action);
  const std::string& pendingQuestion() const { return question_; }
  enum class Answer { Save, Discard, Cancel };
  void answer(Answer a);
  /// The recent scene files (kept in edit::defaultRecentStore()).
  edit::RecentFiles& recentFiles() { return recent_; }
  /// The world point under the cursor (world units), while it is over the canvas.
  std::optional<glm::vec2> cursorWorld() const;
  /// Screen rectangles (x0, y0, x1, y1 pixels) of the panel's named widgets
  /// in the last drawUi, for tests that drive the UI with the mouse.
  std::optional<std::array<float, 4>> widgetRect(const std::string& name) const;
  /// The live plots' samples and marks (plots.hpp).
  const PlotHistory& plots() const { return plots_; }
  /// The separation gate over the live run (the Stats panel, the red flag).
  const GapTracker& gapTracker() const { return gap_; }
  /// The labels the velocity inset drew in the last drawUi, in drawing order.
  const std::vector<std::string>& insetLabels() const { return insetLabels_; }
  /// The neighbour whose line the cursor is on in the inset (-1: none); the
  /// world view rings it.
  std::int64_t hoveredNeighbour() const { return hoveredWalker_; }
  /// The UI's size for projectors and high-DPI screens (fonts and spacing),
  /// in [kMinUiScale, kMaxUiScale]; remembered with the window layout.
  float uiScale = 1;
  static constexpr float kMinUiScale = 0.5f, kMaxUiScale = 4;
  /// The panel's width with its margin at the UI scale, pixels.
  int panelWidthPx() const { return static_cast<int>(std::lround(kPanelWidthPx * uiScale)); }
  /// Whether the teaching view shows the neighbour grid's query (the cells
  /// scanned, the walkers found in them).
  bool showGridQuery = false;
  /// Whether the velocity plane has its own window (else it is drawn over the crowd).
  bool velocityInset = true;
  /// Writes the plots' samples as CSV to `path`, or to a new timestamped
  /// file when empty; the file is whole or absent. Sets the status line.
  bool savePlotsCsv(const std::string& path = {});
  /// The plots as the panel draws them, as a PNG at `path` (or, empty, a
  /// new timestamped name): read from the window after this frame's UI
  /// (afterFrame), so it needs the Plots section open. The status says where.
  void savePlotsPng(const std::string& path = {});
  /// Saves the scene's knob values and the settings that differ from the
  /// scene's as a preset (cli/preset.hpp) that `throng run --set-file` and
  /// loadPreset read; to a new timestamped file when `path` is empty.
  bool savePreset(const std::string& path = {});
  /// Applies a preset's lines in order (a knob rebuilds the run). Stops at
  /// the first line refused, naming its file and line in the status.
  bool loadPreset(const std::string& path);

  // State.
  SimHost& host() { return *host_; }
  render::Camera2D& camera() { return camera_; }
  render::RenderOptions& renderOptions() { return options_; }
  render::GlRenderer& renderer() { return renderer_; }
  Recorder& recorder() { return recorder_; }
  bool uiHidden() const { return uiHidden_; }
  /// Presentation mode (present.hpp): the canvas carries the title,
  /// caption, clock, scale bar and a plot, and the panel hides. P toggles it.
  void setPresenting(bool on) {
    if (on != presenting_) fit();
    presenting_ = on;
  }
  bool presenting() const { return presenting_; }
  /// Side by side: a second run of this scene in the canvas's right half,
  /// with the same seed and knobs and `assignments` ("model=biocrowds
  /// timeHorizon=3": settings only, by spaces or commas) over the first's
  /// settings, stepping in lockstep and plotted over the first's plots. Both
  /// start again at t = 0. Empty: one run again. False with *error, and
  /// nothing changed, for an assignment the settings refuse, a knob, the
  /// seed or the step.
  bool setSideBySide(const std::string& assignments, std::string* error);
  const SimHost* twin() const { return twin_.get(); }
  const PlotHistory& twinPlots() const { return twinPlots_; }
  /// The twin's settings now: the first's, its assignments over them, its
  /// own step (the scene's).
  Settings twinSettings() const;
  const Presenter& presenter() const { return presenter_; }
  double rate() const { return clock_.rate; }
  void setRate(double r);
  void setPlaying(bool p) { playing_ = p; }
  bool isPlaying() const { return playing_; }
  void select(std::ptrdiff_t index);
  std::ptrdiff_t selectedIndex() const;
  const std::string& status() const { return status_; }
  void setStatus(std::string s);
  /// Milliseconds per step (mean over the last second or so).
  double msPerStep() const { return msPerStep_; }
  double lastStepMs() const { return lastStepMs_; }
  int stepsLastFrame() const { return stepsLastFrame_; }
  void setFrameMs(double ms) { frameMs_ = frameMs_ <= 0 ? ms : 0.9 * frameMs_ + 0.1 * ms; }
  double frameMs() const { return frameMs_; }
  /// Include the UI in the footage (reads the window instead of the canvas).
  bool recordUi = false;
  /// The video's size: 0 the window's, 1 1280 x 720, 2 1920 x 1080 (the
  /// canvas alone; with the UI in footage, the window's).
  int recordSize = 0;
  int recordFps = 30;

 private:
  void takeStep();
  void fitNow();
  void rebuildSceneMesh();
  void afterRebuild(bool refit);
  void applyBackend();
  bool drawFromDevice(std::ptrdiff_t selected);
  /// The crowd, the scene and the overlays into the canvas (run mode).
  void drawRunCanvas();
  /// Presentation mode's text over the canvas.
  void drawPresentation();
  void buildTeaching();
  /// One run's markers as drawn (the first's in set 0, a second run's in 1).
  struct MarkerLayer;
  void updateMarkers(const Crowd& c, std::uint64_t selected, MarkerLayer& layer, int set);
  /// Stops drawing a run's markers (and forgets their key).
  void dropMarkers(MarkerLayer& layer, int set);
  void updateField();
  void drawFieldPanel();
  /// The scene's measurement lines and areas, live (the Stats panel).
  // The run panel's other sections, one each (run_sections.cpp).
  void drawRecordingIndicator();
  void drawScenePicker();
  void drawTransport();
  void drawViewSection();
  void drawStats();
  void drawMeasurements(const MeasureSeries& series);
  void drawSelectedWalker();
  void drawSideBySideSection();
  void drawCaptureSection();
  void drawKeys();
  // The run panel's tuning sections (run_panel.cpp).
  void drawKnobs();
  void drawSettings();
  void drawSettingWidget(const SettingWidget& w, Settings& s, bool dim);
  void drawPlots();
  void markPanel();  ///< records the panel's visible rectangle as "panel"
  /// The selected walker's velocity plane in a window of its own (the
  /// teaching view's velocity-frame shapes, labelled).
  void drawVelocityInset();
  void drawFieldLegend();
  void drawFieldCellLabels();
  void pickAt(glm::vec2 screen);
  // Edit mode (app/viz/editor/editor_panel.cpp and viz_app.cpp).
  void openEditor();
  void openSceneNow(const std::string& nameOrPath);
  void drawEditCanvas();
  void updateEditField();
  void drawEditorPanel();
  void drawEditorSidePanel();
  void drawToolOptions();
  void drawInspector();
  void drawKnobEditor();
  void drawKnobForm();  ///< new knob, or the one being edited
  void drawProblems();
  void drawModals();
  bool editorKey(const SDL_Event& e);
  void editorPointer(const SDL_Event& e, glm::vec2 screen, bool uiMouse);
  void mark(const std::string& name);  ///< records the last widget's rectangle under `name`
  /// Entering edit mode: the run's settings into the document (edit_mode.cpp).
  void takeRunSettings();
  std::string timestampedName(const char* ext) const;
  /// Writes `bytes` to `path` whole or not at all; with no path, to a new
  /// timestamped .ext file that replaces none. *written: the name used.
  bool writeWhole(const std::string& path, std::string_view bytes, const char* ext, std::string* written,
                  std::string* why);
  void later(std::function<void()> f) { deferred_.push_back(std::move(f)); }

  std::unique_ptr<SimHost> host_;
  render::GlRenderer renderer_;
  render::Camera2D camera_;
  render::RenderOptions options_;
  render::SceneGeometry geometry_;
  render::Mesh sceneMesh_, overlay_;
  float sceneMeshZoom_ = -1;
  std::vector<render::AgentInstance> instances_;
  Recorder recorder_;
  GapTracker gap_;
  BackendKind backendKind_ = BackendKind::Cpu;
  render::CudaInterop interop_;
  bool interopBroken_ = false, lastDrawInterop_ = false;
  float maxRadius_ = 1e30f;  ///< the largest walker radius at the last rebuild
  std::vector<SettingWidget> settingWidgets_;  ///< the panel's settings, remade at each rebuild (ranges per radius)

  // The marker layer. The markers are read, packed and uploaded again only
  // when what they show may have changed (MarkerKey: a step, a rebuild, the
  // view, the selection, the model's settings), so a paused crowd costs
  // nothing per frame, on any backend.
  struct MarkerKey {
    std::uint64_t step = 0, generation = 0;
    std::uint64_t selected = ~0ull;  ///< the teaching view's walker: its explain may find the owners anew
    glm::vec2 center{};
    float zoom = 0, spacing = 0, personalSpace = 0;
    int width = 0, height = 0;
    std::string model;  ///< an explain under a new model or R lays or finds the markers anew
    bool operator==(const MarkerKey&) const = default;
  };
  bool showMarkers_ = true;
  struct MarkerLayer {
    std::vector<render::Vertex> points;
    render::MarkerPack pack;
    CacheKey<MarkerKey> key;
  };
  MarkerLayer markers_, twinMarkers_;  ///< the run's; side by side, the second run's
  std::uint64_t generation_ = 0;  ///< counts rebuilds (a new crowd may reuse the old one's memory)

  // The field overlay: fieldImage_ is rebuilt when FieldKey changes (a
  // step, a rebuild, the overlay's options) and the fields were refreshed
  // since; the arrows when the image or the view changes.
  struct FieldKey {
    std::uint64_t step = 0, generation = 0;
    FieldOverlay overlay;
    glm::vec2 center{};  ///< the view, while the range follows it
    float zoom = 0;
    int width = 0, height = 0;
    bool operator==(const FieldKey&) const = default;
  };
  struct ArrowKey {
    std::uint64_t image = 0;  ///< counts images built
    glm::vec2 center{};
    float zoom = 0;
    int width = 0, height = 0, every = 0;
    bool operator==(const ArrowKey&) const = default;
  };
  FieldOverlay fieldOverlay_;
  CacheKey<FieldKey> fieldKey_;
  CacheKey<ArrowKey> arrowKey_;
  std::uint64_t fieldImages_ = 0, fieldImageGeneration_ = ~0ull;
  render::FieldLayerImage fieldImage_;
  render::FieldArrows fieldArrows_;
  render::Mesh fieldMesh_;
  bool fieldTooLarge_ = false;
  // The field grid the teaching view's cell counts in (read at most once a
  // step): keyed by the step and the rebuild.
  struct TeachingGridKey {
    std::uint64_t step = 0, generation = 0;
    bool operator==(const TeachingGridKey&) const = default;
  };
  CacheKey<TeachingGridKey> teachingGridKey_;
  FieldView teachingGrid_;  ///< origin, cell, cols only (its spans are not kept)

  bool fitPending_ = true;
  bool playing_ = true, uiHidden_ = false, showGeometry_ = true, teaching_ = true;
  bool presenting_ = false;
  std::unique_ptr<SimHost> twin_;       ///< side by side's second run; null: one run
  std::vector<std::string> twinSets_;   ///< its "name=value" settings over the first's
  PlotHistory twinPlots_;
  std::vector<render::AgentInstance> twinInstances_;
  char twinInput_[160] = "model=biocrowds";  ///< the panel's field
  render::RenderOptions runOptions() const;  ///< options_, in the left half side by side
  void drawTwin();
  std::string twinLabel() const;             ///< "B: model=biocrowds"
  bool plotPngPending_ = false;  ///< Save PNG was asked: afterFrame writes it
  std::string plotPng_;          ///< where (empty: a timestamped name)
  void writePlotsPng();
  Presenter presenter_;  ///< presentation mode's text, its own ImGui context
  StepClock clock_;
  int stepsLastFrame_ = 0;
  double msPerStep_ = 0, lastStepMs_ = 0, frameMs_ = 0;
  double phaseMs_[kStepPhases] = {};  ///< Crowd::profile per phase, smoothed, ms
  bool phaseMsSeen_ = false;
  float velocityScale_ = 1;
  std::uint64_t selectedId_ = ~0ull;
  bool hasSelection_ = false;
  AgentExplain explain_;
  PlotHistory plots_;
  ReplayBuffer replay_;
  std::size_t replayBack_ = 0;  ///< steps back from the newest kept; 0: live
  float appliedUiScale_ = 0;    ///< the uiScale the style was last scaled to; 0: none yet
  std::shared_ptr<ImGuiStyle> baseStyle_;  ///< the style at scale 1 (ImGui's type stays out of this header)
  std::vector<std::string> insetLabels_;
  std::int64_t hoveredWalker_ = -1;  ///< the walker whose line the inset's cursor is on; -1: none
  /// The settings as the scene gave them when it was opened: what a right
  /// click on a setting goes back to.
  Settings sceneSettings_;

  // Mouse.
  bool pressed_ = false, dragging_ = false;
  glm::vec2 pressAt_{}, lastMouse_{};

  // Edit mode.
  std::unique_ptr<edit::Editor> editor_;
  bool editing_ = false, playingBeforeEdit_ = false;
  std::string scenePath_;
  std::uint64_t builtRevision_ = 0;  ///< the editor's revision the run was built from
  bool editorCaptured_ = false;      ///< a tool took the mouse press: the drag is the tool's
  bool panning_ = false;
  bool cursorInCanvas_ = false;
  glm::vec2 cursorScreen_{};
  render::Mesh editMesh_, editOverlay_;
  std::uint64_t editMeshRevision_ = 0;
  float editMeshZoom_ = -1;
  edit::TerrainGrid terrainGrid_;
  std::uint64_t editFieldRevision_ = 0;
  render::FieldLayer editFieldLayer_ = render::FieldLayer::None;
  std::string question_;
  std::function<void()> questionAction_;
  bool quitConfirmed_ = false, saveAsOpen_ = false;
  char docPath_[512] = {}, savePath_[512] = {};
  struct KnobForm {
    std::string editing;  ///< the knob the form edits; empty: the form makes a new one
    char name[64] = {};
    double min = 0, max = 1, defaultValue = 0.5;
    char help[256] = {};
    bool integer = false;
  } knobForm_;
  edit::RecentFiles recent_{edit::defaultRecentStore()};
  std::map<std::string, std::array<float, 4>> widgetRects_;

  std::string status_;
  std::chrono::steady_clock::time_point statusAt_{};
  char openPath_[512] = {};
  char presetPath_[512] = {};
  std::vector<std::string> scenes_;
  std::vector<std::function<void()>> deferred_;  ///< run at the end of drawUi
};

}  // namespace throng::app
