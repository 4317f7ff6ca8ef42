#include "gl_fixture.hpp"

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

}  // namespace throng::test
