#pragma once
// An SDL2 window with an OpenGL 3.3 core context (via libepoxy), visible or
// hidden. Used by the visualizer, `throng record` (hidden, preferably on
// SDL's offscreen driver) and the GL tests.
#include <string>

struct SDL_Window;

namespace throng::app {

class GlWindow {
 public:
  ~GlWindow() { destroy(); }
  /// Opens the window and makes its context current. `offscreen` asks for
  /// no window at all: SDL's offscreen driver when SDL_VIDEODRIVER is not
  /// set (EGL, no display needed), else a hidden window.
  bool create(const char* title, int w, int h, bool hidden, bool offscreen, std::string* error);
  void destroy();
  SDL_Window* window() const { return window_; }
  void* context() const { return context_; }
  /// The drawable size in pixels (may differ from the window size on HiDPI).
  void drawableSize(int& w, int& h) const;
  /// What GL we got: "4.5 (Core Profile) Mesa ..., llvmpipe".
  std::string describe() const;
  const char* videoDriver() const;

 private:
  SDL_Window* window_ = nullptr;
  void* context_ = nullptr;
  bool sdlInit_ = false;
};

}  // namespace throng::app
