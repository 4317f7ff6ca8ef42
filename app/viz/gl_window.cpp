#include <epoxy/gl.h>  // before SDL's GL headers

#include "viz/gl_window.hpp"

#include <SDL.h>

#include <cstdlib>

namespace throng::app {

bool GlWindow::create(const char* title, int w, int h, bool hidden, bool offscreen, std::string* error) {
  destroy();
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");  // our own SIGINT handler finishes recordings
  auto tryInit = [&]() -> bool {
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return false;
    sdlInit_ = true;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI;
    flags |= hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE;
    window_ = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
    if (!window_) return false;
    context_ = SDL_GL_CreateContext(window_);
    if (!context_) return false;
    SDL_GL_MakeCurrent(window_, context_);
    return true;
  };
  const bool driverChosen = std::getenv("SDL_VIDEODRIVER") != nullptr;
  if (offscreen && !driverChosen) {
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    if (tryInit()) return true;
    destroy();
    unsetenv("SDL_VIDEODRIVER");
  }
  if (tryInit()) return true;
  if (error) *error = SDL_GetError();
  destroy();
  return false;
}

void GlWindow::destroy() {
  if (context_) SDL_GL_DeleteContext(context_);
  if (window_) SDL_DestroyWindow(window_);
  if (sdlInit_) SDL_QuitSubSystem(SDL_INIT_VIDEO);
  context_ = nullptr;
  window_ = nullptr;
  sdlInit_ = false;
}

void GlWindow::drawableSize(int& w, int& h) const { SDL_GL_GetDrawableSize(window_, &w, &h); }

std::string GlWindow::describe() const {
  const char* v = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return std::string(v ? v : "?") + ", " + (r ? r : "?");
}

const char* GlWindow::videoDriver() const {
  const char* d = SDL_GetCurrentVideoDriver();
  return d ? d : "none";
}

}  // namespace throng::app
