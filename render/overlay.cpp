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

std::vector<Vec2> velocityObstacle(Vec2 relPos, float combinedRadius, float tau, Vec2 apex, float legLength,
                                   int arcSegments) {
  std::vector<Vec2> out;
  const float dist = relPos.length();
  const Vec2 centre = apex + relPos / tau;
  const float cutR = combinedRadius / tau;
  if (dist <= combinedRadius || dist <= 0) {
    for (int k = 0; k < 2 * arcSegments; ++k) {
      const float a = kTau * k / (2 * arcSegments);
      out.push_back(centre + Vec2{std::cos(a), std::sin(a)} * cutR);
    }
    return out;
  }
  const Vec2 w = relPos / dist;
  const float s = combinedRadius / dist, c = std::sqrt(std::max(0.0f, 1 - s * s));  // sin, cos of half-angle
  const Vec2 legL{w.x * c - w.y * s, w.x * s + w.y * c};   // counter-clockwise leg
  const Vec2 legR{w.x * c + w.y * s, -w.x * s + w.y * c};  // clockwise leg
  const float tangentLen = std::sqrt(dist * dist - combinedRadius * combinedRadius) / tau;
  // Tangent points lie at angle +-(90deg + half-angle) from -w... walk the
  // near arc from the right tangent point to the left one through -w.
  const Vec2 tR = apex + legR * tangentLen, tL = apex + legL * tangentLen;
  const float aR = std::atan2(tR.y - centre.y, tR.x - centre.x);
  float aL = std::atan2(tL.y - centre.y, tL.x - centre.x);
  // The near arc passes through angle(-w); go from aR to aL the way that does.
  const float aMid = std::atan2(-w.y, -w.x);
  auto wrap = [](float a) { while (a < 0) a += kTau; while (a >= kTau) a -= kTau; return a; };
  // Decide direction: clockwise from aR to aL if -w is on that side.
  const float ccwSpan = wrap(aL - aR), midFromR = wrap(aMid - aR);
  const bool ccw = midFromR <= ccwSpan;
  const float span = ccw ? ccwSpan : -(kTau - ccwSpan);
  (void)aL;
  const float far = std::max(legLength, tangentLen * 1.01f);
  out.push_back(apex + legR * far);
  for (int k = 0; k <= arcSegments; ++k) {
    const float a = aR + span * k / arcSegments;
    out.push_back(centre + Vec2{std::cos(a), std::sin(a)} * cutR);
  }
  out.push_back(apex + legL * far);
  return out;
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

// BioCrowds' teaching view (see overlay.hpp).
void buildBioCrowdsTeaching(const TeachingInput& in, float pixel, Mesh& out) {
  const AgentExplain& ex = *in.explain;
  const Vec2 o = in.position;
  const float s = in.velocityScale;
  addCircle(out, o, in.personalSpace, 1.5f * pixel, kPersonalSpaceColor, 96);
  addCircle(out, o, std::max(in.maxSpeed, 0.0f) * s, 1.0f * pixel, packRgba(90, 90, 90, 160), 64);
  // Dots kWeightDotMinPx (the lightest usable marker) to kWeightDotMaxPx
  // (the heaviest) in radius, both grown to cover the marker layer's own dot
  // (so no owner colour shows round the edge), and kept within half the
  // spacing so neighbours seldom merge.
  float heaviest = 0;
  for (float f : ex.markerWeights) heaviest = std::max(heaviest, f);
  const float layerDot = in.markerSpacing > 0 ? 0.5f * markerDotPx(in.markerSpacing / pixel) + 0.75f : 0;  // px
  const float cap = in.markerSpacing > 0 ? 0.5f * in.markerSpacing : 1e30f;
  const float r0 = std::min(std::max(kWeightDotMinPx, layerDot) * pixel, cap);
  const float r1 = std::min((kWeightDotMaxPx + std::max(0.0f, layerDot - kWeightDotMinPx)) * pixel, cap);
  for (std::size_t k = 0; k < ex.markers.size() && k < ex.markerWeights.size(); ++k) {
    const float f = ex.markerWeights[k];
    if (f > 0) addDisc(out, ex.markers[k], r0 + (r1 - r0) * (heaviest > 0 ? f / heaviest : 0), kOwnedMarkerColor, 12);
    else addCircle(out, ex.markers[k], r0, 1.0f * pixel, kUnusableMarkerColor, 10);
  }
  addArrow(out, o, o + ex.preferred * s, 2.5f * pixel, 10 * pixel, kPreferredColor);
  addArrow(out, o, o + ex.chosen * s, 2.5f * pixel, 10 * pixel, kChosenColor);
  // Last and wider, so where it runs along the chosen velocity (M sets its
  // direction) it shows as a green band over the black.
  addArrow(out, o, o + ex.motion, 4.5f * pixel, 11 * pixel, kMotionColor);
}

// Continuum Crowds' view (see overlay.hpp): no velocity program, so no
// lines and no feasible region; the wish, the field's choice and the push.
void buildContinuumTeaching(const TeachingInput& in, float pixel, Mesh& out) {
  const AgentExplain& ex = *in.explain;
  const Vec2 o = in.position;
  const float s = in.velocityScale;
  addCircle(out, o, std::max(in.maxSpeed, 0.0f) * s, 1.0f * pixel, packRgba(90, 90, 90, 160), 64);
  addArrow(out, o, o + ex.preferred * s, 2.5f * pixel, 10 * pixel, kPreferredColor);
  addArrow(out, o, o + ex.chosen * s, 2.5f * pixel, 10 * pixel, kChosenColor);
  // The push is a displacement (world units, at most half a radius): drawn
  // to scale from the walker, only where there is one.
  if (ex.motion.length() > 0.5f * pixel) addArrow(out, o, o + ex.motion, 2.5f * pixel, 8 * pixel, kMotionColor);
}

// The fields' part (see overlay.hpp), over the model's own.
void buildFieldTeaching(const TeachingInput& in, float pixel, Mesh& out) {
  const AgentExplain& ex = *in.explain;
  if (ex.fieldCell < 0 || !(in.fieldCellSize > 0) || in.fieldCols <= 0) return;
  const float h = in.fieldCellSize;
  const Vec2 c = fieldCellCentre(in.fieldOrigin, h, in.fieldCols, ex.fieldCell);
  const Vec2 corners[4] = {c + Vec2{-h, -h} * 0.5f, c + Vec2{h, -h} * 0.5f, c + Vec2{h, h} * 0.5f, c + Vec2{-h, h} * 0.5f};
  addPolyline(out, corners, 1.5f * pixel, kFieldCellOutline, true);
  const float top = std::max(in.maxSpeed, 1e-6f);
  static constexpr Vec2 kDir[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (int d = 0; d < 4; ++d) {
    const Vec2 u = kDir[d], side{-u.y, u.x};
    if (!std::isfinite(ex.fieldCost[d])) {
      const Vec2 face = c + u * (0.5f * h);
      addSegment(out, face - side * (0.35f * h), face + side * (0.35f * h), 3 * pixel, kFieldClosedColor);
      continue;
    }
    const float len = 0.45f * h * std::clamp(ex.fieldSpeed[d] / top, 0.0f, 1.0f);
    if (len > 2 * pixel) addArrow(out, c, c + u * len, 2 * pixel, std::min(8 * pixel, 0.5f * len), kFieldSpeedColor);
  }
  if (ex.fieldFlow.length() > 0)
    addArrow(out, in.position, in.position + ex.fieldFlow * in.velocityScale, 3.5f * pixel, 10 * pixel, kFieldFlowColor);
}

}  // namespace

Vec2 fieldCellCentre(Vec2 origin, float h, int cols, std::int32_t index) {
  if (cols <= 0 || index < 0) return origin;
  const std::int32_t x = index % cols, y = index / cols;
  return {origin.x + (static_cast<float>(x) + 0.5f) * h, origin.y + (static_cast<float>(y) + 0.5f) * h};
}

void buildTeachingMesh(const TeachingInput& in, float pixel, Mesh& out) {
  if (!in.explain) return;
  if (in.model == "biocrowds") {
    buildBioCrowdsTeaching(in, pixel, out);
    buildFieldTeaching(in, pixel, out);
    return;
  }
  if (in.model == "continuum") {
    buildContinuumTeaching(in, pixel, out);
    buildFieldTeaching(in, pixel, out);
    return;
  }
  const AgentExplain& ex = *in.explain;
  const float s = in.velocityScale;
  const Vec2 o = in.position;
  auto toWorld = [&](Vec2 v) { return o + v * s; };
  const float vmax = std::max(in.maxSpeed, 1e-6f);
  const float box = 1.6f * vmax;  // velocity-space half extent drawn
  const Vec2 square[4] = {{-box, -box}, {box, -box}, {box, box}, {-box, box}};

  // Velocity obstacles, under everything else.
  const float tau = std::max(in.timeHorizon, 1e-6f);
  for (std::size_t k = 0; k < in.neighbourPos.size() && k < in.neighbourVel.size() && k < in.neighbourRadius.size(); ++k) {
    auto vo = velocityObstacle(in.neighbourPos[k] - in.position, in.radius + in.neighbourRadius[k], tau, in.neighbourVel[k],
                               2.5f * box);
    // Keep it inside the drawn box.
    for (const HalfPlane& edge : {HalfPlane{{box, 0}, {0, 1}}, HalfPlane{{0, box}, {-1, 0}}, HalfPlane{{-box, 0}, {0, -1}}, HalfPlane{{0, -box}, {1, 0}}})
      vo = clipToPermitted(vo, edge);
    for (Vec2& v : vo) v = toWorld(v);
    fillConvex(out, vo, kVoShade);
  }
  // Permitted sides, then the lines themselves.
  auto shadeLine = [&](const HalfPlane& l, std::uint32_t lineColor) {
    auto part = clipToPermitted(square, l);
    for (Vec2& v : part) v = toWorld(v);
    fillConvex(out, part, kPermittedShade);
    // The line across the box: clip a long segment by the box.
    const Vec2 a = l.point - l.direction * (4 * box), b = l.point + l.direction * (4 * box);
    float t0 = 0, t1 = 1;
    const Vec2 d = b - a;
    const float lo[2] = {-box, -box}, hi[2] = {box, box}, p0[2] = {a.x, a.y}, dd[2] = {d.x, d.y};
    for (int ax = 0; ax < 2; ++ax) {
      if (std::fabs(dd[ax]) < 1e-12f) {
        if (p0[ax] < lo[ax] || p0[ax] > hi[ax]) return;
        continue;
      }
      float ta = (lo[ax] - p0[ax]) / dd[ax], tb = (hi[ax] - p0[ax]) / dd[ax];
      if (ta > tb) std::swap(ta, tb);
      t0 = std::max(t0, ta);
      t1 = std::min(t1, tb);
    }
    if (t0 < t1) addSegment(out, toWorld(a + d * t0), toWorld(a + d * t1), 1.5f * pixel, lineColor);
  };
  for (const HalfPlane& l : ex.obstacleLines) shadeLine(l, kObstacleLineColor);
  for (const HalfPlane& l : ex.agentLines) shadeLine(l, kOrcaLineColor);
  // The feasible region: the top-speed disc (a 48-gon) cut by every line.
  std::vector<Vec2> feasible;
  for (int k = 0; k < 48; ++k) {
    const float a = kTau * static_cast<float>(k) / 48;
    feasible.push_back(Vec2{std::cos(a), std::sin(a)} * vmax);
  }
  for (const HalfPlane& l : ex.obstacleLines) feasible = clipToPermitted(feasible, l);
  for (const HalfPlane& l : ex.agentLines) feasible = clipToPermitted(feasible, l);
  for (Vec2& v : feasible) v = toWorld(v);
  fillConvex(out, feasible, kFeasibleShade);

  addCircle(out, o, vmax * s, 1.0f * pixel, packRgba(90, 90, 90, 160), 64);
  for (std::size_t k = 0; k < in.neighbourPos.size() && k < in.neighbourRadius.size(); ++k) {
    addCircle(out, in.neighbourPos[k], in.neighbourRadius[k] + 2.5f * pixel, 2 * pixel, kNeighbourColor, 24);
    addSegment(out, o, in.neighbourPos[k], 1 * pixel, packRgba(0, 160, 192, 110));
  }
  addArrow(out, o, toWorld(ex.preferred), 2.5f * pixel, 10 * pixel, kPreferredColor);
  addArrow(out, o, toWorld(ex.chosen), 2.5f * pixel, 10 * pixel, kChosenColor);
  buildFieldTeaching(in, pixel, out);
}

}  // namespace throng::render
