#pragma once
// Camera2D: the world-to-screen map of the visualizer. Pure math (GLM, no
// GL): world is y-up in world units; screen is pixels with the origin at
// the top left and y down (SDL's mouse coordinates).
//
//   screen.x = (world.x - center.x) * zoom + width / 2
//   screen.y = height / 2 - (world.y - center.y) * zoom
#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace throng::render {

/// An axis-aligned box in world units; empty until something is added.
struct Bounds {
  glm::vec2 lo{1e30f, 1e30f}, hi{-1e30f, -1e30f};
  bool empty() const { return lo.x > hi.x || lo.y > hi.y; }
  void add(glm::vec2 p) { lo = glm::min(lo, p); hi = glm::max(hi, p); }
  void add(glm::vec2 p, float r) { add(p - glm::vec2(r)); add(p + glm::vec2(r)); }
};

struct Camera2D {
  glm::vec2 center{0, 0};  ///< world point at the middle of the viewport
  float zoom = 1;          ///< pixels per world unit [Limit: kMinZoom..kMaxZoom]
  int width = 1, height = 1;  ///< viewport, pixels [Limit: >= 1]

  static constexpr float kMinZoom = 1e-5f, kMaxZoom = 1e5f;

  glm::vec2 worldToScreen(glm::vec2 w) const {
    return {(w.x - center.x) * zoom + 0.5f * width, 0.5f * height - (w.y - center.y) * zoom};
  }
  glm::vec2 screenToWorld(glm::vec2 s) const {
    return {(s.x - 0.5f * width) / zoom + center.x, (0.5f * height - s.y) / zoom + center.y};
  }
  /// World units per pixel: how wide a one-pixel line is in the world.
  float pixelSize() const { return 1.0f / zoom; }

  /// Drag by `deltaPixels` (screen, y down): the world follows the cursor.
  void pan(glm::vec2 deltaPixels) { center -= glm::vec2(deltaPixels.x, -deltaPixels.y) / zoom; }

  /// Zooms by `factor` keeping the world point under `cursor` (pixels) fixed.
  void zoomAt(glm::vec2 cursor, float factor) {
    const glm::vec2 before = screenToWorld(cursor);
    zoom = std::clamp(zoom * factor, kMinZoom, kMaxZoom);
    const glm::vec2 after = screenToWorld(cursor);
    center += before - after;
  }

  /// Centres `b` and zooms so it fills the viewport less `marginPixels` on
  /// every side. An empty box leaves the camera as it is; a point-sized
  /// one is shown as a box of 1 world unit.
  void fit(const Bounds& b, float marginPixels = 24) {
    if (b.empty()) return;
    center = 0.5f * (b.lo + b.hi);
    const glm::vec2 size = glm::max(b.hi - b.lo, glm::vec2(1e-6f));
    const float w = std::max(1.0f, width - 2 * marginPixels), h = std::max(1.0f, height - 2 * marginPixels);
    zoom = std::clamp(std::min(w / size.x, h / size.y), kMinZoom, kMaxZoom);
  }

  /// World to clip space, for the shaders (GL's y up matches world y up).
  glm::mat4 viewProjection() const {
    const float hw = 0.5f * width / zoom, hh = 0.5f * height / zoom;
    return glm::ortho(center.x - hw, center.x + hw, center.y - hh, center.y + hh, -1.0f, 1.0f);
  }
};

}  // namespace throng::render
