#pragma once
// One hidden GL 3.3 window shared by the GL tests, and pixel helpers.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace throng::test {

/// Makes the shared context current; false (with a message) without GL.
bool glContext(std::string* error = nullptr);
/// Where the tests save their PNGs (the build folder).
std::string outPath(const std::string& name);

struct Image {
  int w = 0, h = 0;
  std::vector<std::uint8_t> px;  ///< RGBA, top row first
  const std::uint8_t* at(int x, int y) const { return px.data() + (static_cast<std::size_t>(y) * w + x) * 4; }
};
/// Sum of absolute RGB differences between pixel (x, y) and colour c (R low byte).
int colorDistance(const Image& im, int x, int y, std::uint32_t c);

/// The shared window's pixels (its default framebuffer), RGBA, top row first.
std::vector<std::uint8_t> readWindow(int w, int h);

/// An ImGui context on the shared window's SDL2 and OpenGL3 backends (dark
/// style, no ini file) for the scope of a test; ok is false when a backend
/// would not start. Needs glContext() first.
struct ImGuiSession {
  bool ok = false;
  ImGuiSession();
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;
};
/// One ImGui frame on the window: new frame, `build` (the widgets), then
/// `beforeRender` (a test's scroll or cursor), render and draw.
void imguiFrame(const std::function<void()>& build, const std::function<void()>& beforeRender = {});
/// As imguiFrame, with the cursor at (x, y) for the frame.
void imguiFrameWithMouse(float x, float y, const std::function<void()>& build);

}  // namespace throng::test
