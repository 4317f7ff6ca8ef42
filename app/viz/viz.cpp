// runVisualizer and runRecord: the window loop, the headless fallback, the
// benchmark mode and offscreen recording.
#include <epoxy/gl.h>  // before SDL's and ImGui's GL headers

#include "viz/viz.hpp"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "viz/gl_window.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {
namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t gStop = 0;
void onSignal(int) { gStop = 1; }

struct Options {
  std::string scene = "ring";
  std::vector<std::string> sets;
  int width = 1280, height = 720;
  int benchFrames = 0;
  long long agents = -1;  // --agents: the built-in "blocks" scene with this many
  bool paused = false;
  std::string out;
  double seconds = 0;
  int fps = 30;
  double rate = 1;
  bool trails = true;
  bool headless = false;
  BackendKind backend = BackendKind::Auto;
};

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

bool parseSize(const char* s, int& w, int& h) {
  int a = 0, b = 0;
  if (std::sscanf(s, "%dx%d", &a, &b) != 2 || a < 16 || b < 16 || a > 16384 || b > 16384) return false;
  w = a;
  h = b;
  return true;
}

const char* kVizUsage =
    "usage: throng [SCENE] [--set k=v]... [--size WxH] [--paused] [--agents N]\n"
    "              [--bench-frames N] [--no-trails] [--headless] [--backend cpu|cuda|auto]\n"
    "Opens the visualizer on SCENE (default: ring). Without a display it runs headless.\n"
    "  --backend KIND    where the crowd steps: cpu, cuda, or auto (default: cuda when\n"
    "                    there is a device, else cpu; both give the same run)\n"
    "  --agents N        the built-in 'blocks' scene with N walkers (for figures)\n"
    "  --bench-frames N  render N frames with the UI, one step each, print frame time\n"
    "                    and ms/step, and exit (offscreen when there is no display)\n";
const char* kRecordUsage =
    "usage: throng record SCENE --seconds S --out FILE.mp4 [--size 1280x720] [--fps 30]\n"
    "                     [--rate R] [--set k=v]... [--no-trails] [--agents N]\n"
    "                     [--backend cpu|cuda|auto]\n"
    "Renders SCENE offscreen (no window) to an H.264 MP4 through ffmpeg; without ffmpeg,\n"
    "a numbered PNG sequence. Each frame is rate/fps seconds of sim time.\n";

// Parses argv[1..]; returns -1 to go on, else an exit code.
int parse(int argc, char** argv, Options& o, bool record) {
  const char* usage = record ? kRecordUsage : kVizUsage;
  const char* prog = record ? "throng record" : "throng";
  bool sceneGiven = false;
  auto need = [&](int& i) -> const char* {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s: %s needs a value (try --help)\n", prog, argv[i]);
      return nullptr;
    }
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = nullptr;
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a == "--set") {
      if (!(v = need(i))) return 2;
      o.sets.push_back(v);
    } else if (a.rfind("--set=", 0) == 0) {
      o.sets.push_back(a.substr(6));
    } else if (a == "--size") {
      if (!(v = need(i))) return 2;
      if (!parseSize(v, o.width, o.height)) {
        std::fprintf(stderr, "%s: --size wants WxH, e.g. 1280x720 (got '%s')\n", prog, v);
        return 2;
      }
    } else if (a == "--bench-frames" && !record) {
      if (!(v = need(i))) return 2;
      o.benchFrames = std::atoi(v);
      if (o.benchFrames <= 0) {
        std::fprintf(stderr, "%s: --bench-frames wants a positive count\n", prog);
        return 2;
      }
    } else if (a == "--agents") {
      if (!(v = need(i))) return 2;
      o.agents = std::atoll(v);
      if (o.agents < 2) {
        std::fprintf(stderr, "%s: --agents wants at least 2\n", prog);
        return 2;
      }
    } else if (a == "--paused" && !record) {
      o.paused = true;
    } else if (a == "--headless" && !record) {
      o.headless = true;
    } else if (a == "--out" && record) {
      if (!(v = need(i))) return 2;
      o.out = v;
    } else if (a == "--seconds" && record) {
      if (!(v = need(i))) return 2;
      o.seconds = std::atof(v);
      if (!(o.seconds > 0)) {
        std::fprintf(stderr, "%s: --seconds wants a positive number\n", prog);
        return 2;
      }
    } else if (a == "--fps" && record) {
      if (!(v = need(i))) return 2;
      o.fps = std::atoi(v);
      if (o.fps < 1 || o.fps > 240) {
        std::fprintf(stderr, "%s: --fps wants 1..240\n", prog);
        return 2;
      }
    } else if (a == "--rate" && record) {
      if (!(v = need(i))) return 2;
      o.rate = std::atof(v);
      if (!(o.rate >= 0.25 && o.rate <= 8)) {
        std::fprintf(stderr, "%s: --rate wants 0.25..8\n", prog);
        return 2;
      }
    } else if (a == "--no-trails") {
      o.trails = false;
    } else if (a == "--backend") {
      if (!(v = need(i))) return 2;
      const std::optional<BackendKind> k = backendFromName(v);
      if (!k) {
        std::fprintf(stderr, "%s: --backend wants cpu, cuda or auto (got '%s')\n", prog, v);
        return 2;
      }
      o.backend = *k;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "%s: unknown option %s (try --help)\n", prog, a.c_str());
      return 2;
    } else if (!sceneGiven) {
      o.scene = a;
      sceneGiven = true;
    } else {
      std::fprintf(stderr, "%s: one scene only (got '%s' after '%s')\n", prog, a.c_str(), o.scene.c_str());
      return 2;
    }
  }
  if (record && (!sceneGiven && o.agents < 0)) {
    std::fprintf(stderr, "throng record: which scene? (try --help)\n");
    return 2;
  }
  if (record && (o.seconds <= 0 || o.out.empty())) {
    std::fprintf(stderr, "throng record: --seconds and --out are required (try --help)\n");
    return 2;
  }
  return -1;
}

// The scene with --agents and --set applied; nullptr (message printed) on error.
std::unique_ptr<SimHost> makeHost(const Options& o, const char* prog) {
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
  for (const std::string& s : o.sets) {
    const auto eq = s.find('=');
    char* end = nullptr;
    const double v = eq == std::string::npos ? 0 : std::strtod(s.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq == 0 || !end || *end != '\0' || end == s.c_str() + eq + 1) {
      std::fprintf(stderr, "%s: --set wants name=number (got '%s')\n", prog, s.c_str());
      return nullptr;
    }
    if (!h->set(s.substr(0, eq), v, &err)) {
      std::fprintf(stderr, "%s: --set %s: %s\n", prog, s.c_str(), err.c_str());
      return nullptr;
    }
  }
  return h;
}

// --backend cuda needs a device: say so and stop rather than quietly
// stepping on the CPU.
bool backendUsable(const Options& o, const char* prog) {
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

struct ImGuiSession {
  bool ok = false;
  explicit ImGuiSession(const GlWindow& w) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // never litter the working directory with imgui.ini
    ImGui::StyleColorsDark();
    ok = ImGui_ImplSDL2_InitForOpenGL(w.window(), w.context()) && ImGui_ImplOpenGL3_Init("#version 330 core");
  }
  ~ImGuiSession() {
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

}  // namespace

int runVisualizer(int argc, char** argv) {
  Options o;
  if (const int rc = parse(argc, argv, o, false); rc >= 0) return rc;
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
  if (!app.initGl(&err)) {
    std::fprintf(stderr, "throng: %s\n", err.c_str());
    return 1;
  }
  app.setBackend(o.backend);
  if (bench) std::printf("throng bench: %s\n", app.status().c_str());
  app.setPlaying(!o.paused);
  app.renderOptions().trails = o.trails;
  ImGuiSession imgui(win);
  if (!imgui.ok) {
    std::fprintf(stderr, "throng: ImGui could not start\n");
    return 1;
  }
  if (bench)
    std::printf("throng bench: %zu agents, %d frames at %dx%d with the UI, one step per frame; GL %s (%s)\n",
                app.host().crowd().count(), o.benchFrames, o.width, o.height, win.describe().c_str(), win.videoDriver());

  std::vector<double> stepMs, renderMs, frameMs, canvasMs;
  auto last = Clock::now();
  bool running = true;
  for (int frame = 0; running && !gStop; ++frame) {
    if (bench && frame >= o.benchFrames) break;
    const auto t0 = Clock::now();
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
    const auto now = Clock::now();
    const double frameSeconds = std::chrono::duration<double>(now - last).count();
    last = now;
    if (bench) app.stepOnce(), app.setPlaying(true);
    else app.advance(frameSeconds);
    const auto t1 = Clock::now();

    int dw = 1, dh = 1;
    win.drawableSize(dw, dh);
    app.drawCanvas(dw, dh);
    if (bench) glFinish();
    const auto tCanvas = Clock::now();
    app.renderer().present(dw, dh);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    app.drawUi();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    app.afterFrame();  // reads the canvas (or the window) before the swap
    if (bench) glFinish();
    SDL_GL_SwapWindow(win.window());
    const auto t2 = Clock::now();
    app.setFrameMs(ms(t2 - t0));
    if (bench && frame >= 3) {  // skip warm-up frames
      stepMs.push_back(app.lastStepMs());
      renderMs.push_back(ms(t2 - t1));
      canvasMs.push_back(ms(tCanvas - t1));
      frameMs.push_back(ms(t2 - t0));
    }
  }
  app.stopRecording();  // quit, close or Ctrl-C: the file is always finished
  if (!app.status().empty() && app.recorder().frames() > 0) std::printf("throng: %s\n", app.status().c_str());
  if (bench) {
    const double f = median(frameMs);
    std::printf(
        "throng bench: agents %zu  ms/step %.3f  canvas %.3f ms  render+UI+swap %.3f ms  frame %.3f ms  (%.1f fps)  "
        "[medians; %s, %s]\n",
        app.host().crowd().count(), median(stepMs), median(canvasMs), median(renderMs), f, f > 0 ? 1000.0 / f : 0.0,
        app.host().crowd().backendName(), app.lastDrawUsedInterop() ? "drawn from the device" : "uploaded from the host");
  }
  return gStop ? 130 : 0;
}

int runRecord(int argc, char** argv) {
  Options o;
  if (const int rc = parse(argc, argv, o, true); rc >= 0) return rc;
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  if (o.width % 2 || o.height % 2) {
    std::fprintf(stderr, "throng record: --size wants even numbers for H.264 (got %dx%d)\n", o.width, o.height);
    return 2;
  }
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
