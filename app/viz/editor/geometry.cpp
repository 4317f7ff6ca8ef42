#include "viz/editor/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace throng::app::edit {

float distanceToSegment(Vec2 p, Vec2 a, Vec2 b, float* t) {
  const Vec2 d = b - a;
  const float len2 = d.lengthSquared();
  float s = len2 > 0 ? dot(p - a, d) / len2 : 0;
  s = std::clamp(s, 0.0f, 1.0f);
  if (t) *t = s;
  return (a + d * s - p).length();
}

bool insidePolygon(Vec2 p, std::span<const Vec2> poly) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() ? poly.size() - 1 : 0; i < poly.size(); j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
  }
  return in;
}

Rect rectBetween(Vec2 a, Vec2 b) {
  return {std::min(a.x, b.x), std::min(a.y, b.y), std::abs(b.x - a.x), std::abs(b.y - a.y)};
}

std::vector<Vec2> rectCorners(const Rect& r) {
  return {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
}

Rect boundsOf(const DocShape& s) {
  if (s.points.empty()) return {};
  Vec2 lo = s.points[0], hi = s.points[0];
  for (Vec2 p : s.points) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  const float r = std::max(0.0f, s.radius);
  return {lo.x - r, lo.y - r, hi.x - lo.x + 2 * r, hi.y - lo.y + 2 * r};
}

std::string_view lastSegment(std::string_view pointer) {
  const std::size_t k = pointer.rfind('/');
  return k == std::string_view::npos ? pointer : pointer.substr(k + 1);
}

std::string_view parentPointer(std::string_view pointer) {
  const std::size_t k = pointer.rfind('/');
  return k == std::string_view::npos ? std::string_view{} : pointer.substr(0, k);
}

bool isMapShape(const DocShape& s) {
  return s.kind == DocShapeKind::heightMap || s.kind == DocShapeKind::discomfortMap;
}

namespace {

bool pointLike(const DocShape& s) { return s.points.size() == 1; }

bool movable(const DocShape& s, std::size_t k) {
  return k < s.vertexPointers.size() && !s.vertexPointers[k].empty();
}

float area(const Rect& r) { return r.width * r.height; }

}  // namespace

Hit hitTest(const std::vector<DocShape>& shapes, Vec2 p, float pixel, const HitOptions& o) {
  const float tol = o.tolerancePx * pixel;
  Hit best;
  auto consider = [&](Hit::Part part, int shape, int vertex, Vec2 at, float d) {
    if (best.part == Hit::Part::None || d < best.distance) best = {part, shape, vertex, at, d};
  };
  const int n = static_cast<int>(shapes.size());

  // 1. A vertex of the selected element.
  if (!o.preferred.empty())
    for (int i = 0; i < n; ++i) {
      const DocShape& s = shapes[static_cast<std::size_t>(i)];
      if (s.pointer != o.preferred || pointLike(s)) continue;
      for (std::size_t k = 0; k < s.points.size(); ++k) {
        const float d = (s.points[k] - p).length();
        if (d <= tol && movable(s, k)) consider(Hit::Part::Vertex, i, static_cast<int>(k), s.points[k], d);
      }
    }
  if (best.part != Hit::Part::None) return best;

  // 2. Point-like shapes (agents, goals, hills): the last drawn on top.
  for (int i = n - 1; i >= 0; --i) {
    const DocShape& s = shapes[static_cast<std::size_t>(i)];
    if (!pointLike(s)) continue;
    const float reach = std::max(tol, s.kind == DocShapeKind::hill ? tol : s.radius);
    const float d = (s.points[0] - p).length();
    if (d <= reach) return {Hit::Part::Body, i, 0, p, d};
  }

  // 3. The nearest vertex that moves alone, then 4. the nearest edge.
  for (int i = 0; i < n; ++i) {
    const DocShape& s = shapes[static_cast<std::size_t>(i)];
    if (pointLike(s) || isMapShape(s)) continue;
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      const float d = (s.points[k] - p).length();
      if (d <= tol && movable(s, k)) consider(Hit::Part::Vertex, i, static_cast<int>(k), s.points[k], d);
    }
  }
  if (best.part != Hit::Part::None) return best;
  for (int i = 0; i < n; ++i) {
    const DocShape& s = shapes[static_cast<std::size_t>(i)];
    if (pointLike(s) || s.points.size() < 2) continue;
    const std::size_t edges = s.closed ? s.points.size() : s.points.size() - 1;
    for (std::size_t k = 0; k < edges; ++k) {
      const Vec2 a = s.points[k], b = s.points[(k + 1) % s.points.size()];
      float t = 0;
      const float d = distanceToSegment(p, a, b, &t);
      if (d <= tol) consider(Hit::Part::Edge, i, static_cast<int>(k), a + (b - a) * t, d);
    }
  }
  if (best.part != Hit::Part::None) return best;

  // 5. The smallest closed shape holding p (maps never: they cover everything).
  float smallest = std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) {
    const DocShape& s = shapes[static_cast<std::size_t>(i)];
    if (!s.closed || s.points.size() < 3 || isMapShape(s) || !insidePolygon(p, s.points)) continue;
    const float a = area(boundsOf(s));
    if (a < smallest) {
      smallest = a;
      best = {Hit::Part::Body, i, -1, p, 0};
    }
  }
  return best;
}

Vec2 snapToGrid(Vec2 p, const SnapOptions& o) {
  if (!o.grid || !(o.step > 0)) return p;
  const double s = o.step;
  return {static_cast<float>(std::round(p.x / s) * s), static_cast<float>(std::round(p.y / s) * s)};
}

Snapped snap(Vec2 p, const std::vector<DocShape>& shapes, float pixel, const SnapOptions& o, std::string_view skip,
             std::span<const Vec2> extra) {
  if (o.vertices) {
    const float reach = o.radiusPx * pixel;
    float bestD = reach;
    std::optional<Vec2> best;
    for (Vec2 q : extra) {
      const float d = (q - p).length();
      if (d <= bestD) bestD = d, best = q;
    }
    for (const DocShape& s : shapes) {
      if (isMapShape(s) || (!skip.empty() && s.pointer == skip)) continue;
      for (std::size_t k = 0; k < s.points.size(); ++k) {
        if (!skip.empty() && k < s.vertexPointers.size() && s.vertexPointers[k] == skip) continue;
        const float d = (s.points[k] - p).length();
        if (d <= bestD) bestD = d, best = s.points[k];
      }
    }
    if (best) return {*best, Snapped::Kind::Vertex};
  }
  if (o.grid && o.step > 0) return {snapToGrid(p, o), Snapped::Kind::Grid};
  return {p, Snapped::Kind::None};
}

}  // namespace throng::app::edit
