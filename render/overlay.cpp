#include "render/overlay.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "render/instance.hpp"
#include "render/markers.hpp"

namespace throng::render {
namespace {

constexpr float kTau = 6.28318530718f;

void tri(Mesh& m, Vec2 a, Vec2 b, Vec2 c, std::uint32_t rgba) {
  m.tris.push_back({a.x, a.y, rgba});
  m.tris.push_back({b.x, b.y, rgba});
  m.tris.push_back({c.x, c.y, rgba});
}

// Fan from the centroid: right for convex polygons.
void fillConvex(Mesh& m, std::span<const Vec2> p, std::uint32_t rgba) {
  if (p.size() < 3) return;
  Vec2 c{};
  for (Vec2 v : p) c += v;
  c = c / static_cast<float>(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) tri(m, c, p[i], p[(i + 1) % p.size()], rgba);
}

bool pointInTriangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
  const float d1 = det(b - a, p - a), d2 = det(c - b, p - b), d3 = det(a - c, p - c);
  return d1 >= 0 && d2 >= 0 && d3 >= 0;
}

}  // namespace

float signedArea(std::span<const Vec2> p) {
  float a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) a += det(p[i], p[(i + 1) % p.size()]);
  return 0.5f * a;
}

void addPolygonFill(Mesh& m, std::span<const Vec2> poly, std::uint32_t rgba) {
  // Ear clipping on a counter-clockwise copy: O(n^2), fine for outlines.
  if (poly.size() < 3) return;
  std::vector<std::size_t> idx(poly.size());
  std::iota(idx.begin(), idx.end(), 0);
  if (signedArea(poly) < 0) std::reverse(idx.begin(), idx.end());
  std::size_t guard = 0;
  while (idx.size() > 3 && guard++ < 4 * poly.size() * poly.size()) {
    bool clipped = false;
    for (std::size_t k = 0; k < idx.size(); ++k) {
      const std::size_t ip = idx[(k + idx.size() - 1) % idx.size()], ic = idx[k], in = idx[(k + 1) % idx.size()];
      const Vec2 a = poly[ip], b = poly[ic], c = poly[in];
      if (det(b - a, c - b) <= 0) continue;  // reflex or straight
      bool ear = true;
      for (std::size_t j : idx)
        if (j != ip && j != ic && j != in && pointInTriangle(poly[j], a, b, c)) { ear = false; break; }
      if (!ear) continue;
      tri(m, a, b, c, rgba);
      idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(k));
      clipped = true;
      break;
    }
    if (!clipped) break;  // degenerate outline: fill what is left as a fan
  }
  std::vector<Vec2> rest;
  for (std::size_t j : idx) rest.push_back(poly[j]);
  if (rest.size() == 3) tri(m, rest[0], rest[1], rest[2], rgba);
  else fillConvex(m, rest, rgba);
}

void addSegment(Mesh& m, Vec2 a, Vec2 b, float width, std::uint32_t rgba) {
  Vec2 d = b - a;
  const float len = d.length();
  if (len <= 0) return;
  const Vec2 n = perpLeft(d / len) * (0.5f * width);
  tri(m, a - n, b - n, b + n, rgba);
  tri(m, a - n, b + n, a + n, rgba);
}

void addPolyline(Mesh& m, std::span<const Vec2> pts, float width, std::uint32_t rgba, bool closed) {
  if (pts.size() < 2) return;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) addSegment(m, pts[i], pts[i + 1], width, rgba);
  if (closed && pts.size() > 2) addSegment(m, pts.back(), pts.front(), width, rgba);
  // Round the joints so bends have no notch.
  for (std::size_t i = 1; i + (closed ? 0 : 1) < pts.size(); ++i) addDisc(m, pts[i], 0.5f * width, rgba, 8);
}

void addCircle(Mesh& m, Vec2 c, float r, float width, std::uint32_t rgba, int segments) {
  const float ri = std::max(0.0f, r - 0.5f * width), ro = r + 0.5f * width;
  for (int k = 0; k < segments; ++k) {
    const float a0 = kTau * k / segments, a1 = kTau * (k + 1) / segments;
    const Vec2 u0{std::cos(a0), std::sin(a0)}, u1{std::cos(a1), std::sin(a1)};
    tri(m, c + u0 * ri, c + u0 * ro, c + u1 * ro, rgba);
    tri(m, c + u0 * ri, c + u1 * ro, c + u1 * ri, rgba);
  }
}

void addDisc(Mesh& m, Vec2 c, float r, std::uint32_t rgba, int segments) {
  for (int k = 0; k < segments; ++k) {
    const float a0 = kTau * k / segments, a1 = kTau * (k + 1) / segments;
    tri(m, c, c + Vec2{std::cos(a0), std::sin(a0)} * r, c + Vec2{std::cos(a1), std::sin(a1)} * r, rgba);
  }
}

void addArrow(Mesh& m, Vec2 from, Vec2 to, float width, float head, std::uint32_t rgba) {
  const Vec2 d = to - from;
  const float len = d.length();
  if (len <= 1e-9f) {
    addDisc(m, from, width, rgba, 8);
    return;
  }
  const Vec2 u = d / len, n = perpLeft(u);
  head = std::min(head, len);
  const Vec2 base = to - u * head;
  addSegment(m, from, base, width, rgba);
  tri(m, to, base + n * (0.45f * head), base - n * (0.45f * head), rgba);
}

void addCross(Mesh& m, Vec2 c, float s, float width, std::uint32_t rgba) {
  addSegment(m, c + Vec2{-s, -s}, c + Vec2{s, s}, width, rgba);
  addSegment(m, c + Vec2{-s, s}, c + Vec2{s, -s}, width, rgba);
}

void addSpeedZone(Mesh& m, std::span<const Vec2> outline, float pixel) {
  addPolygonFill(m, outline, kSpeedZoneFill);
  addPolyline(m, outline, 1.5f * pixel, kSpeedZoneEdge, true);
}

void addStairs(Mesh& m, std::span<const Vec2> outline, Vec2 up, float pixel) {
  addPolygonFill(m, outline, kStairsFill);
  addPolyline(m, outline, 1.5f * pixel, kStairsEdge, true);
  if (outline.empty() || !(up.length() > 0)) return;
  Vec2 mid;
  for (Vec2 p : outline) mid = mid + p;
  mid = mid / static_cast<float>(outline.size());
  const Vec2 u = up.normalized();
  addArrow(m, mid - u * (24 * pixel), mid + u * (24 * pixel), 2 * pixel, 9 * pixel, kStairsEdge);
}

void buildSceneMesh(const SceneGeometry& g, float pixel, Mesh& out) {
  const std::uint32_t fill = packRgba(150, 150, 158), edge = packRgba(70, 70, 78);
  const std::uint32_t wall = packRgba(40, 40, 48), goal = packRgba(40, 150, 60, 200), gate = packRgba(60, 120, 200, 220);
  for (const auto& o : g.obstacles) {
    addPolygonFill(out, o, fill);
    addPolyline(out, o, 1.5f * pixel, edge, true);
  }
  for (const auto& w : g.walls) addPolyline(out, w, 3 * pixel, wall, false);
  for (Vec2 p : g.goals) addCross(out, p, 4 * pixel, 1.5f * pixel, goal);
  for (const Waypoint& wp : g.gates) {
    // Dashed: 8 px on, 6 px off.
    const Vec2 d = wp.b - wp.a;
    const float len = d.length();
    if (len <= 0) continue;
    const Vec2 u = d / len;
    for (float t = 0; t < len; t += 14 * pixel) addSegment(out, wp.a + u * t, wp.a + u * std::min(len, t + 8 * pixel), 2 * pixel, gate);
    addDisc(out, wp.a, 3 * pixel, gate, 10);
    addDisc(out, wp.b, 3 * pixel, gate, 10);
  }
  auto box = [&](const Rect& r, std::uint32_t rgba) {
    const Vec2 c[4] = {{r.x, r.y}, {r.x + r.width, r.y}, {r.x + r.width, r.y + r.height}, {r.x, r.y + r.height}};
    addPolyline(out, c, 1.5f * pixel, rgba, true);
  };
  for (const Rect& r : g.goalRegions) box(r, packRgba(40, 150, 60, 110));
  for (const Rect& r : g.sources) box(r, packRgba(40, 150, 60, 220));
  for (const Rect& r : g.sinks) box(r, packRgba(200, 60, 60, 200));
  for (const auto& z : g.speedZones) addSpeedZone(out, z, pixel);
  for (const Stairs& s : g.stairs) addStairs(out, s.outline, s.up, pixel);
  const std::uint32_t measure = packRgba(150, 60, 200, 230);
  for (const auto& a : g.measureAreas) addPolyline(out, a, 1.5f * pixel, measure, true);
  for (const auto& l : g.measureLines) {
    if (l.size() < 2) continue;
    const Vec2 mid = (l[0] + l[1]) * 0.5f, d = (l[1] - l[0]).normalized();
    addSegment(out, l[0], l[1], 2.5f * pixel, measure);
    addSegment(out, mid, mid + Vec2{d.y, -d.x} * (10 * pixel), 2 * pixel, measure);
  }
}

namespace {

// How a role is drawn: its colour, a line's or a ring's width (pixels), an
// arrow's head (pixels), segments round a circle, and how much a ring grows
// past its radius (pixels).
struct RoleStyle {
  std::uint32_t rgba = 0;
  float widthPx = 1.5f, headPx = 10;
  int segments = 24;
  float growPx = 0;
  /// An arrow no longer than this (pixels) is not drawn; 0: every arrow,
  /// a zero one as a dot.
  float minLengthPx = 0;
  /// An arrow's head is at most half its length.
  bool headAtMostHalf = false;
};

RoleStyle styleOf(TeachRole role) {
  switch (role) {
    case TeachRole::Forbidden: return {kVoShade};
    case TeachRole::Permitted: return {kPermittedShade};
    case TeachRole::ObstacleLine: return {kObstacleLineColor, 1.5f};
    case TeachRole::AgentLine: return {kOrcaLineColor, 1.5f};
    case TeachRole::Feasible: return {kFeasibleShade};
    case TeachRole::TopSpeed: return {kTopSpeedColor, 1.0f, 0, 64};
    case TeachRole::Reach: return {kPersonalSpaceColor, 1.5f, 0, 96};
    case TeachRole::Neighbour: return {kNeighbourColor, 2.0f, 0, 24, 2.5f};
    case TeachRole::NeighbourLink: return {kNeighbourLinkColor, 1.0f};
    case TeachRole::Marker: return {kOwnedMarkerColor, 0, 0, 12};
    case TeachRole::MarkerUnusable: return {kUnusableMarkerColor, 1.0f, 0, 10};
    case TeachRole::Preferred: return {kPreferredColor, 2.5f, 10};
    case TeachRole::Chosen: return {kChosenColor, 2.5f, 10};
    case TeachRole::Motion: return {kMotionColor, 4.5f, 11};
    case TeachRole::Push: return {kMotionColor, 2.5f, 8, 24, 0, 0.5f};
    case TeachRole::FieldCell: return {kFieldCellOutline, 1.5f};
    case TeachRole::FieldSpeed: return {kFieldSpeedColor, 2.0f, 8, 24, 0, 2.0f, true};
    case TeachRole::FieldClosed: return {kFieldClosedColor, 3.0f};
    case TeachRole::FieldFlow: return {kFieldFlowColor, 3.5f, 10};
    case TeachRole::GridCell: return {kGridCellColor, 1.0f};
    case TeachRole::Candidate: return {kCandidateColor, 1.5f, 0, 20, 4.5f};
    case TeachRole::Text:
    case TeachRole::Legend: break;
  }
  return {};
}

}  // namespace

std::uint32_t teachColour(TeachRole role) { return styleOf(role).rgba; }

Vec2 teachLabelAnchor(const TeachShape& sh) {
  if (sh.points.empty()) return {};
  switch (sh.kind) {
    case TeachKind::Arrow: return sh.points.back();
    case TeachKind::Path: {
      const std::size_t n = sh.points.size();
      return n % 2 ? sh.points[n / 2] : (sh.points[n / 2 - 1] + sh.points[n / 2]) * 0.5f;
    }
    case TeachKind::Fill:
    case TeachKind::Loop: {
      Vec2 c{};
      for (Vec2 p : sh.points) c += p;
      return c / static_cast<float>(sh.points.size());
    }
    case TeachKind::Ring: return sh.points[0] + Vec2{0.7071f, 0.7071f} * sh.size;
    case TeachKind::Dot: return sh.points[0];
  }
  return sh.points[0];
}

void buildTeachingMesh(const TeachingView& view, Vec2 origin, float velocityScale, float pixel, Mesh& out,
                       TeachLayer layer) {
  for (const TeachShape& sh : view.shapes) {
    const RoleStyle st = styleOf(sh.role);
    const bool velocity = sh.frame == TeachFrame::Velocity;
    const bool arrowOverCrowd = sh.kind == TeachKind::Arrow && (sh.role == TeachRole::Preferred ||
                                                                 sh.role == TeachRole::Chosen || sh.role == TeachRole::FieldFlow);
    if (layer == TeachLayer::World && velocity && !arrowOverCrowd) continue;
    if (layer == TeachLayer::Velocity && !velocity) continue;
    const float scale = velocity ? velocityScale : 1;
    std::vector<Vec2> pts(sh.points);
    if (velocity)
      for (Vec2& v : pts) v = origin + v * velocityScale;
    if (pts.empty()) continue;
    switch (sh.kind) {
      case TeachKind::Fill: fillConvex(out, pts, st.rgba); break;
      case TeachKind::Path:
      case TeachKind::Loop: addPolyline(out, pts, st.widthPx * pixel, st.rgba, sh.kind == TeachKind::Loop); break;
      case TeachKind::Arrow: {
        if (pts.size() < 2) break;
        const float len = (pts[1] - pts[0]).length();
        if (st.minLengthPx > 0 && len <= st.minLengthPx * pixel) break;
        const float head = st.headAtMostHalf ? std::min(st.headPx * pixel, 0.5f * len) : st.headPx * pixel;
        addArrow(out, pts[0], pts[1], st.widthPx * pixel, head, st.rgba);
        break;
      }
      case TeachKind::Ring:
        addCircle(out, pts[0], sh.size * scale + st.growPx * pixel, st.widthPx * pixel, st.rgba, st.segments);
        break;
      case TeachKind::Dot: {
        // Weight dots, kWeightDotMinPx (weight 0) to kWeightDotMaxPx (the
        // heaviest) in radius, both grown to cover the marker layer's own
        // dot for that spacing (so no owner colour shows round the edge),
        // and kept within half the spacing so neighbours seldom merge. An
        // unusable one is a ring of the lightest's radius.
        const float spacing = sh.size * scale;
        const float layerDot = spacing > 0 ? 0.5f * markerDotPx(spacing / pixel) + 0.75f : 0;  // px
        const float cap = spacing > 0 ? 0.5f * spacing : 1e30f;
        const float r0 = std::min(std::max(kWeightDotMinPx, layerDot) * pixel, cap);
        const float r1 = std::min((kWeightDotMaxPx + std::max(0.0f, layerDot - kWeightDotMinPx)) * pixel, cap);
        if (sh.role == TeachRole::MarkerUnusable) addCircle(out, pts[0], r0, st.widthPx * pixel, st.rgba, st.segments);
        else addDisc(out, pts[0], r0 + (r1 - r0) * std::clamp(sh.weight, 0.0f, 1.0f), st.rgba, st.segments);
        break;
      }
    }
  }
}

}  // namespace throng::render
