// The separation gate: swept-segment pair gaps and obstacle intrusion.
#include "throng/verify.hpp"

#include "pipeline/registry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace throng {

namespace {
float pointSegmentDistance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float len2 = ab.lengthSquared();
  float t = len2 > 0 ? dot(p - a, ab) / len2 : 0;
  t = std::clamp(t, 0.0f, 1.0f);
  return (p - (a + t * ab)).length();
}

bool segmentsCross(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1) {
  const float d1 = det(a1 - a0, b0 - a0), d2 = det(a1 - a0, b1 - a0);
  const float d3 = det(b1 - b0, a0 - b0), d4 = det(b1 - b0, a1 - b0);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

bool insidePolygon(Vec2 p, const std::vector<Vec2>& poly) {
  bool inside = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/// How far a disc of radius r swept from `from` to `to` reaches into the geometry.
float intrusion(Vec2 from, Vec2 to, float r, const GateGeometry& g) {
  float worst = 0;
  const float lox = std::min(from.x, to.x) - r, hix = std::max(from.x, to.x) + r;
  const float loy = std::min(from.y, to.y) - r, hiy = std::max(from.y, to.y) + r;
  auto edge = [&](Vec2 a, Vec2 b) {
    if (std::max(a.x, b.x) < lox || std::min(a.x, b.x) > hix || std::max(a.y, b.y) < loy || std::min(a.y, b.y) > hiy)
      return;
    worst = std::max(worst, r - segmentDistance(from, to, a, b));
  };
  for (const auto& poly : g.outlines) {
    if (poly.size() < 2) continue;
    for (std::size_t i = 0; i < poly.size(); ++i) edge(poly[i], poly[(i + 1) % poly.size()]);
    if (poly.size() >= 3 && insidePolygon(to, poly)) {
      float d = std::numeric_limits<float>::max();
      for (std::size_t i = 0; i < poly.size(); ++i) d = std::min(d, pointSegmentDistance(to, poly[i], poly[(i + 1) % poly.size()]));
      worst = std::max(worst, r + d);
    }
  }
  for (const auto& wall : g.walls)
    for (std::size_t i = 0; i + 1 < wall.size(); ++i) edge(wall[i], wall[i + 1]);
  return worst;
}
}  // namespace

float segmentDistance(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1) {
  if (segmentsCross(a0, a1, b0, b1)) return 0;
  return std::min({pointSegmentDistance(a0, b0, b1), pointSegmentDistance(a1, b0, b1),
                   pointSegmentDistance(b0, a0, a1), pointSegmentDistance(b1, a0, a1)});
}

void GateReport::merge(const GateReport& o) {
  if (o.minGapUnjammed < minGapUnjammed) {
    minGapUnjammed = o.minGapUnjammed;
    worstA = o.worstA;
    worstB = o.worstB;
    step = o.step;
  }
  minGap = std::min(minGap, o.minGap);
  maxOverlap = std::max(maxOverlap, o.maxOverlap);
  maxWallIntrusion = std::max(maxWallIntrusion, o.maxWallIntrusion);
  pairsChecked += o.pairsChecked;
  unjammedOverlaps += o.unjammedOverlaps;
}

OverlapPromise overlapPromiseOf(std::string_view model) {
  const ModelEntry* e = findModel(model);
  const float none = std::numeric_limits<float>::infinity();
  return e ? e->overlap : OverlapPromise{none, none};
}

GateReport checkStep(const GateStep& s, const GateGeometry& geometry, float tolerance, OverlapPromise promise) {
  GateReport rep;
  const std::size_t n = s.from.size();
  if (n == 0) return rep;
  // Pairs within reach: a grid over start positions with a cell of the
  // largest possible contact distance, so 3x3 cells hold every candidate.
  float rmax = 0, dmax = 0;
  Vec2 lo = s.from[0], hi = s.from[0];
  for (std::size_t i = 0; i < n; ++i) {
    rmax = std::max(rmax, s.radius[i]);
    dmax = std::max(dmax, (s.to[i] - s.from[i]).length());
    lo = {std::min(lo.x, s.from[i].x), std::min(lo.y, s.from[i].y)};
    hi = {std::max(hi.x, s.from[i].x), std::max(hi.y, s.from[i].y)};
  }
  const float cell = std::max(2 * rmax + 2 * dmax, 1e-6f);
  auto key = [&](Vec2 p) {
    const auto cx = static_cast<std::int64_t>(std::floor((p.x - lo.x) / cell));
    const auto cy = static_cast<std::int64_t>(std::floor((p.y - lo.y) / cell));
    return std::pair{cx, cy};
  };
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> cells;
  auto pack = [](std::int64_t x, std::int64_t y) { return (x << 32) ^ (y & 0xffffffff); };
  for (std::size_t i = 0; i < n; ++i) {
    const auto [cx, cy] = key(s.from[i]);
    cells[pack(cx, cy)].push_back(static_cast<std::uint32_t>(i));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto [cx, cy] = key(s.from[i]);
    for (std::int64_t dy = -1; dy <= 1; ++dy)
      for (std::int64_t dx = -1; dx <= 1; ++dx) {
        const auto it = cells.find(pack(cx + dx, cy + dy));
        if (it == cells.end()) continue;
        for (const std::uint32_t j : it->second) {
          if (j <= i) continue;
          const float rr = s.radius[i] + s.radius[j];
          const float startGap = (s.from[i] - s.from[j]).length() - rr;
          if (startGap > cell) continue;
          ++rep.pairsChecked;
          const float gap = sweptDistance(s.from[i], s.to[i], s.from[j], s.to[j]) - rr;
          rep.minGap = std::min(rep.minGap, gap);
          if (s.jammed[i] || s.jammed[j]) continue;
          // The floor (verify.hpp): apart stays apart (or within the
          // model's promise), contact within its contact overlap, a deeper
          // overlap carried in from a jam never deepens.
          const float allowed =
              startGap >= 0 ? -promise.fromApart * rr : std::min(startGap, -promise.inContact * rr);
          if (gap < allowed - tolerance * rr) ++rep.unjammedOverlaps;
          const float excess = gap - allowed;
          if (excess < rep.minGapUnjammed) {
            rep.minGapUnjammed = excess;
            rep.worstA = s.id.empty() ? i : s.id[i];
            rep.worstB = s.id.empty() ? j : s.id[j];
          }
        }
      }
  }
  rep.maxOverlap = std::max(0.0f, -rep.minGap);
  if (!geometry.outlines.empty() || !geometry.walls.empty())
    for (std::size_t i = 0; i < n; ++i)
      rep.maxWallIntrusion = std::max(rep.maxWallIntrusion, intrusion(s.from[i], s.to[i], s.radius[i], geometry));
  return rep;
}

}  // namespace throng
