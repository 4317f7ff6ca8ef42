// runVisualizer and runRecord: the window loop, the headless fallback, the
// benchmark mode and offscreen recording.
#include <epoxy/gl.h>  // before SDL's and ImGui's GL headers

#include "viz/viz.hpp"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImGuiSettingsHandler: the UI scale in the layout's ini
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/preset.hpp"
#include "throng/output_file.hpp"
#include "viz/editor/recent.hpp"
#include "viz/gl_window.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {
namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t gStop = 0;
void onSignal(int) { gStop = 1; }

using cli::RecordOptions;
using cli::ViewOptions;
using cli::VizOptions;

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// The scene with --agents and --set applied; nullptr (message printed) on error.
std::unique_ptr<SimHost> makeHost(const ViewOptions& o, const char* prog) {
  std::string err;
  std::unique_ptr<SimHost> h = o.agents > 0 ? makeBuiltin("blocks") : openScene(o.scene, &err);
  if (!h) {
    std::fprintf(stderr, "%s: %s\n", prog, err.c_str());
    return nullptr;
  }
  if (o.agents > 0 && !h->set("count", static_cast<double>(o.agents), &err)) {
    std::fprintf(stderr, "%s: --agents: %s\n", prog, err.c_str());
    return nullptr;
  }
  if (!o.setFile.empty()) {
    std::vector<cli::PresetLine> lines;
    if (!cli::readPreset(o.setFile, lines, &err)) {
      std::fprintf(stderr, "%s: --set-file %s\n", prog, err.c_str());
      return nullptr;
    }
    for (const cli::PresetLine& l : lines)
      if (!h->assign(l.assignment, &err)) {
        std::fprintf(stderr, "%s: %s: %s\n", prog, l.where.c_str(), err.c_str());
        return nullptr;
      }
  }
  for (const std::string& s : o.sets)
    if (!h->assign(s, &err)) {
      std::fprintf(stderr, "%s: --set %s: %s\n", prog, s.c_str(), err.c_str());
      return nullptr;
    }
  return h;
}

// --backend cuda needs a device: say so and stop rather than quietly
// stepping on the CPU.
bool backendUsable(const ViewOptions& o, const char* prog) {
  std::string why;
  if (o.backend != BackendKind::Cuda || cudaAvailable(&why)) return true;
  std::fprintf(stderr, "%s: --backend cuda: CUDA backend unavailable: %s\n", prog, why.c_str());
  return false;
}

bool haveDisplay() {
  const char* drv = std::getenv("SDL_VIDEODRIVER");
  if (drv && *drv) return true;  // the user picked a driver: let SDL try it
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

// No display: step the scene for its length and print what happened.
int runHeadless(SimHost& h, const char* why, BackendKind backend) {
  std::printf("throng: no display (%s), so no window. Running '%s' headless instead.\n", why, h.name().c_str());
  std::printf("        For scenes without a window use `throng run SCENE`; for video, `throng record SCENE "
              "--seconds S --out FILE.mp4`.\n");
  Crowd& c = h.crowd();
  std::string msg;
  if (!c.setBackend(backend, &msg)) {
    std::fprintf(stderr, "throng: %s\n", msg.c_str());
    return 1;
  }
  if (!msg.empty()) std::printf("        %s\n", msg.c_str());
  GapTracker gap;
  const double seconds = 15;
  const auto steps = static_cast<long>(seconds / std::max(h.dt(), 1e-6));
  double total = 0;
  std::size_t maxJam = 0;
  for (long s = 0; s < steps && !gStop; ++s) {
    gap.before(c);
    const auto t0 = Clock::now();
    h.step();
    total += ms(Clock::now() - t0);
    gap.after(c);
    maxJam = std::max(maxJam, c.lastStats().jammed);
  }
  const auto n = static_cast<double>(std::max<std::uint64_t>(1, c.stepCount()));
  std::printf("        %llu steps, %.2f s simulated, %zu agents (%zu ever), %zu arrived, most jammed at once %zu, smallest "
              "gap %.4f, %.3f ms/step\n",
              static_cast<unsigned long long>(c.stepCount()), c.time(), c.count(), h.agentsEver(), h.arrived(), maxJam,
              gap.minGap() < GateReport::kNone ? gap.minGap() : 0.0f, total / n);
  return 0;
}

/// Where the window layout and the UI scale are remembered:
/// $THRONG_UI_LAYOUT, else $XDG_CONFIG_HOME/throng/imgui.ini, else
/// ~/.config/throng/imgui.ini; empty: nowhere (no home).
std::string layoutFile() { return edit::userConfigFile("THRONG_UI_LAYOUT", "imgui.ini"); }

/// The app's own line in ImGui's ini ("[Throng][App]" then "UIScale=1.5").
void addScaleHandler(VizApp& app) {
  ImGuiSettingsHandler h;
  h.TypeName = "Throng";
  h.TypeHash = ImHashStr("Throng");
  h.UserData = &app;
  h.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler*, const char* name) -> void* {
    return std::strcmp(name, "App") == 0 ? reinterpret_cast<void*>(1) : nullptr;
  };
  h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler* self, void*, const char* line) {
    float s = 0;
    if (std::sscanf(line, "UIScale=%f", &s) == 1 && s >= VizApp::kMinUiScale && s <= VizApp::kMaxUiScale)
      static_cast<VizApp*>(self->UserData)->uiScale = s;
  };
  h.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* self, ImGuiTextBuffer* out) {
    out->appendf("[Throng][App]\nUIScale=%.3g\n\n", static_cast<double>(static_cast<VizApp*>(self->UserData)->uiScale));
  };
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
}

struct ImGuiSession {
  bool ok = false;
  std::string layout;  ///< the remembered layout's file; empty: none
  ImGuiSession(const GlWindow& w, VizApp& app, bool remember) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    // ImGui never writes its ini itself (it would write imgui.ini here, and
    // not atomically); the session loads and saves it whole.
    io.IniFilename = nullptr;
    ImGui::StyleColorsDark();
    addScaleHandler(app);
    if (remember) layout = layoutFile();
    if (!layout.empty()) {
      std::ifstream in(layout, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!text.empty() && text.size() < (1u << 20)) ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
    }
    ok = ImGui_ImplSDL2_InitForOpenGL(w.window(), w.context()) && ImGui_ImplOpenGL3_Init("#version 330 core");
  }
  ~ImGuiSession() {
    if (!layout.empty()) {
      std::size_t size = 0;
      const char* text = ImGui::SaveIniSettingsToMemory(&size);
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(layout).parent_path(), ec);
      std::string why;
      if (!writeFileWhole(layout, std::string_view(text, size), &why))
        std::fprintf(stderr, "throng: the window layout was not saved: %s\n", why.c_str());
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// How a frame moves the crowd, and what it does at each boundary it times:
/// the live loop advances by the wall time since the last frame and marks
/// nothing; a benchmark steps once a frame and lets the GPU finish at each
/// mark, so the times are the work's and not the queue's.
struct FramePace {
  std::function<void()> advance;
  std::function<void()> mark;
};

/// Wall times of one frame's parts, ms.
struct FrameTimes {
  double step = 0, canvas = 0, render = 0, frame = 0;
};

/// One frame of the window: events, the crowd moved, the canvas, the UI
/// over it, the swap. False once the window is closed (or Escape quits).
bool frame(GlWindow& win, VizApp& app, const FramePace& pace, FrameTimes& t) {
  const auto t0 = Clock::now();
  bool running = true;
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    const ImGuiIO& io = ImGui::GetIO();
    int ww = 1, wh = 1, dw = 1, dh = 1;
    SDL_GetWindowSize(win.window(), &ww, &wh);
    win.drawableSize(dw, dh);
    if (!app.handleEvent(e, io.WantCaptureMouse, io.WantCaptureKeyboard, static_cast<float>(dw) / std::max(1, ww)))
      running = false;
  }
  pace.advance();
  const auto t1 = Clock::now();
  int dw = 1, dh = 1;
  win.drawableSize(dw, dh);
  app.drawCanvas(dw, dh);
  pace.mark();
  const auto tCanvas = Clock::now();
  app.renderer().present(dw, dh);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  app.drawUi();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  app.afterFrame();  // reads the canvas (or the window) before the swap
  pace.mark();
  SDL_GL_SwapWindow(win.window());
  const auto t2 = Clock::now();
  t = {app.lastStepMs(), ms(tCanvas - t1), ms(t2 - t1), ms(t2 - t0)};
  return running;
}

/// --bench-frames: `frames` frames with the UI, one step each, and the
/// medians of each part's time past the first three (the warm-up), printed.
void benchmark(GlWindow& win, VizApp& app, int frames) {
  const FramePace bench{[&app] { app.stepOnce(), app.setPlaying(true); }, [] { glFinish(); }};
  std::vector<double> stepMs, canvasMs, renderMs, frameMs;
  FrameTimes t;
  for (int k = 0; k < frames && !gStop && frame(win, app, bench, t); ++k) {
    app.setFrameMs(t.frame);
    if (k < 3) continue;
    stepMs.push_back(t.step);
    canvasMs.push_back(t.canvas);
    renderMs.push_back(t.render);
    frameMs.push_back(t.frame);
  }
  const double f = median(frameMs);
  std::printf(
      "throng bench: agents %zu  ms/step %.3f  canvas %.3f ms  render+UI+swap %.3f ms  frame %.3f ms  (%.1f fps)  "
      "[medians; %s, %s]\n",
      app.host().crowd().count(), median(stepMs), median(canvasMs), median(renderMs), f, f > 0 ? 1000.0 / f : 0.0,
      app.host().crowd().backendName(), app.lastDrawUsedInterop() ? "drawn from the device" : "uploaded from the host");
}

}  // namespace

int runVisualizer(int argc, const char* const* argv) {
  const cli::Parsed<VizOptions> parsed = cli::parseViz(argc, argv);
  if (!parsed.options) return parsed.finish();
  const VizOptions& o = *parsed.options;
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  if (!backendUsable(o, "throng")) return 1;
  auto host = makeHost(o, "throng");
  if (!host) return 2;

  const bool bench = o.benchFrames > 0;
  if (o.headless) return runHeadless(*host, "--headless", o.backend);
  if (!haveDisplay() && !bench) return runHeadless(*host, "neither DISPLAY nor WAYLAND_DISPLAY is set", o.backend);

  GlWindow win;
  std::string err;
  if (!win.create("throng", o.width, o.height, bench, bench && !haveDisplay(), &err)) {
    if (bench) {
      std::fprintf(stderr, "throng: --bench-frames needs OpenGL 3.3: %s\n", err.c_str());
      return 1;
    }
    return runHeadless(*host, ("SDL could not open a GL 3.3 window: " + err).c_str(), o.backend);
  }
  SDL_GL_SetSwapInterval(bench ? 0 : 1);
  VizApp app(std::move(host));
  if (o.agents == 0) {  // the file edit mode opens and saves (a built-in has none)
    std::string ignored;
    if (auto path = findScene(o.scene, &ignored)) app.setScenePath(*path);
  }
  if (!app.initGl(&err)) {
    std::fprintf(stderr, "throng: %s\n", err.c_str());
    return 1;
  }
  app.setBackend(o.backend);
  if (o.select >= 0) {
    const FrameView f = app.host().crowd().frame();
    const auto at = std::find(f.id.begin(), f.id.end(), static_cast<std::uint64_t>(o.select));
    if (at == f.id.end()) {
      std::fprintf(stderr, "throng: --select: no walker with id %lld at the start (%zu walkers)\n", o.select, f.id.size());
      return 2;
    }
    app.select(at - f.id.begin());
  }
  if (bench) std::printf("throng bench: %s\n", app.status().c_str());
  app.setPlaying(!o.paused);
  app.renderOptions().trails = o.trails;
  ImGuiSession imgui(win, app, !bench);  // a benchmark neither reads nor keeps a layout
  if (!imgui.ok) {
    std::fprintf(stderr, "throng: ImGui could not start\n");
    return 1;
  }
  if (bench)
    std::printf("throng bench: %zu agents, %d frames at %dx%d with the UI, one step per frame; GL %s (%s)\n",
                app.host().crowd().count(), o.benchFrames, o.width, o.height, win.describe().c_str(), win.videoDriver());

  if (bench) {
    benchmark(win, app, o.benchFrames);
  } else {
    auto last = Clock::now();
    const FramePace live{[&app, &last] {
                           const auto now = Clock::now();
                           app.advance(std::chrono::duration<double>(now - last).count());
                           last = now;
                         },
                         [] {}};
    for (FrameTimes t; !gStop && frame(win, app, live, t);) app.setFrameMs(t.frame);
  }
  app.stopRecording();  // quit, close or Ctrl-C: the file is always finished
  if (!app.status().empty() && app.recorder().frames() > 0) std::printf("throng: %s\n", app.status().c_str());
  return gStop ? 130 : 0;
}

int runRecord(int argc, const char* const* argv) {
  const cli::Parsed<RecordOptions> parsed = cli::parseRecord(argc, argv);
  if (!parsed.options) return parsed.finish();
  const RecordOptions& o = *parsed.options;
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  if (!backendUsable(o, "throng record")) return 1;
  auto host = makeHost(o, "throng record");
  if (!host) return 2;
  GlWindow win;
  std::string err;
  if (!win.create("throng record", 64, 64, true, true, &err)) {
    std::fprintf(stderr,
                 "throng record: no OpenGL 3.3 offscreen (%s). Run under `xvfb-run -a`, or with "
                 "SDL_VIDEODRIVER=offscreen and Mesa's EGL.\n",
                 err.c_str());
    return 1;
  }
  VizApp app(std::move(host));
  if (!app.initGl(&err)) {
    std::fprintf(stderr, "throng record: %s\n", err.c_str());
    return 1;
  }
  app.setBackend(o.backend);
  std::fprintf(stderr, "throng record: %s\n", app.status().c_str());
  app.renderOptions().trails = o.trails;
  app.setRate(o.rate);
  app.setPresenting(o.present);
  app.renderer().resize(o.width, o.height);
  app.camera().width = o.width;
  app.camera().height = o.height;
  app.fit();
  app.drawCanvas(o.width, o.height);
  std::string msg;
  if (!app.startRecording(o.out, o.fps, &msg)) {
    std::fprintf(stderr, "throng record: %s\n", msg.c_str());
    return 1;
  }
  std::fprintf(stderr, "throng record: %s\n", msg.c_str());
  const long frames = std::max(1L, std::lround(o.seconds * o.fps));
  const bool tty = isatty(STDERR_FILENO);
  const auto t0 = Clock::now();
  long done = 0;
  for (; done < frames && !gStop; ++done) {
    if (done > 0) app.advance(0);  // frame 0 is the initial state
    app.drawCanvas(o.width, o.height);
    app.afterFrame();
    if (!app.recorder().active()) break;  // the writer failed; status says why
    if (tty && (done % 5 == 0 || done + 1 == frames)) {
      const int width = 30, fill = static_cast<int>(width * (done + 1) / frames);
      const double el = std::chrono::duration<double>(Clock::now() - t0).count();
      std::fprintf(stderr, "\r[%.*s%*s] %3ld%%  %ld/%ld frames  %.1f s", fill, "##############################",
                   width - fill, "", 100 * (done + 1) / frames, done + 1, frames, el);
      std::fflush(stderr);
    }
  }
  if (tty) std::fputc('\n', stderr);
  const bool wasActive = app.recorder().active();
  std::string fin;
  const bool ok = app.recorder().finish(&fin);
  if (!wasActive) fin = app.status();
  std::fprintf(stderr, "throng record: %s%s\n", gStop ? "interrupted; " : "", fin.c_str());
  if (gStop) return 130;
  return ok && wasActive ? 0 : 1;
}

}  // namespace throng::app
