#pragma once
// One hidden GL 3.3 window shared by the GL tests, and pixel helpers.
#include <cstdint>
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

}  // namespace throng::test
