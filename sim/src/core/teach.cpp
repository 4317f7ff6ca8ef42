// Shared teaching shapes (teach.hpp).
#include "core/teach.hpp"

#include <algorithm>
#include <cmath>

#include "throng/fields.hpp"

namespace throng {

std::vector<Vec2> clipToPermitted(std::span<const Vec2> poly, const HalfPlane& line) {
  // Sutherland-Hodgman against one half-plane. side(v) <= 0 is permitted.
  auto side = [&](Vec2 v) { return det(line.direction, line.point - v); };
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
    const float sa = side(a), sb = side(b);
    if (sa <= 0) out.push_back(a);
    if ((sa <= 0) != (sb <= 0)) out.push_back(a + (b - a) * (sa / (sa - sb)));
  }
  return out;
}

void teachWishAndChoice(TeachingView& view, float maxSpeed, Vec2 preferred, Vec2 chosen) {
  view.ring(TeachRole::TopSpeed, TeachFrame::Velocity, {0, 0}, std::max(maxSpeed, 0.0f), "top speed");
  view.arrow(TeachRole::Preferred, TeachFrame::Velocity, {0, 0}, preferred, "wish");
  view.arrow(TeachRole::Chosen, TeachFrame::Velocity, {0, 0}, chosen, "chosen");
}

void teachFieldCell(TeachingView& view, Vec2 origin, float h, int cols, std::int32_t cell, const float speed[4],
                    const float cost[4], Vec2 flow, float maxSpeed) {
  if (cell < 0 || !(h > 0) || cols <= 0) return;
  const Vec2 c = fieldCellCentre(origin, h, cols, cell);
  view.add(TeachKind::Loop, TeachRole::FieldCell, TeachFrame::World,
           {c + Vec2{-h, -h} * 0.5f, c + Vec2{h, -h} * 0.5f, c + Vec2{h, h} * 0.5f, c + Vec2{-h, h} * 0.5f});
  const float top = std::max(maxSpeed, 1e-6f);
  static constexpr Vec2 kDir[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (int d = 0; d < 4; ++d) {
    const Vec2 u = kDir[d], side{-u.y, u.x};
    if (!std::isfinite(cost[d])) {
      const Vec2 face = c + u * (0.5f * h);
      view.add(TeachKind::Path, TeachRole::FieldClosed, TeachFrame::World,
               {face - side * (0.35f * h), face + side * (0.35f * h)});
      continue;
    }
    const float len = 0.45f * h * std::clamp(speed[d] / top, 0.0f, 1.0f);
    view.arrow(TeachRole::FieldSpeed, TeachFrame::World, c, c + u * len);
  }
  if (flow.length() > 0) view.arrow(TeachRole::FieldFlow, TeachFrame::Velocity, {0, 0}, flow);
}

}  // namespace throng
