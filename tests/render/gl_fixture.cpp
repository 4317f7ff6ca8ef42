#include "gl_fixture.hpp"

#include <epoxy/gl.h>

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "viz/gl_window.hpp"

namespace throng::test {

bool glContext(std::string* error) {
  static std::unique_ptr<app::GlWindow> win;
  static std::string err;
  static bool tried = false;
  if (!tried) {
    tried = true;
    win = std::make_unique<app::GlWindow>();
    if (!win->create("throng tests", 800, 600, true, false, &err)) win.reset();
  }
  if (error) *error = err;
  return win != nullptr;
}

// THRONG_TEST_OUT in the environment overrides the build folder baked in
// (scripts/gpu_check.sh runs a binary built elsewhere and collects its PNGs).
std::string outPath(const std::string& name) {
  const char* dir = std::getenv("THRONG_TEST_OUT");
  return std::string(dir && *dir ? dir : THRONG_TEST_OUT) + "/" + name;
}

int colorDistance(const Image& im, int x, int y, std::uint32_t c) {
  const std::uint8_t* p = im.at(x, y);
  int d = 0;
  for (int k = 0; k < 3; ++k) d += std::abs(static_cast<int>(p[k]) - static_cast<int>((c >> (8 * k)) & 255u));
  return d;
}

std::vector<std::uint8_t> readWindow(int w, int h) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4), flipped(px.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y) std::copy_n(px.data() + row * (h - 1 - y), row, flipped.data() + row * y);
  return flipped;
}

ImGuiSession::ImGuiSession() {
  SDL_Window* win = SDL_GL_GetCurrentWindow();
  if (win == nullptr) return;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ok = ImGui_ImplSDL2_InitForOpenGL(win, SDL_GL_GetCurrentContext()) && ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiSession::~ImGuiSession() {
  if (ImGui::GetCurrentContext() == nullptr) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
}

namespace {
void frame(const std::function<void()>& build, const std::function<void()>& beforeNew,
           const std::function<void()>& beforeRender) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  if (beforeNew) beforeNew();
  ImGui::NewFrame();
  build();
  if (beforeRender) beforeRender();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}
}  // namespace

void imguiFrame(const std::function<void()>& build, const std::function<void()>& beforeRender) {
  frame(build, {}, beforeRender);
}

void imguiFrameWithMouse(float x, float y, const std::function<void()>& build) {
  frame(build, [&] { ImGui::GetIO().MousePos = ImVec2(x, y); }, {});
}

}  // namespace throng::test
