// ORCA's teaching view (teach.hpp).
#include "models/orca/teach.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/teach.hpp"
#include "models/orca/solve.hpp"

namespace throng {

namespace {
constexpr float kTau = 6.28318530718f;

/// "#j": how the view names neighbour j.
std::string neighbourLabel(std::size_t j) {
  std::string s(1, '#');
  s.append(std::to_string(j));
  return s;
}
}  // namespace

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
  // The near arc of the cut-off disc runs from the right tangent point to
  // the left one through the direction -w.
  const Vec2 tR = apex + legR * tangentLen, tL = apex + legL * tangentLen;
  const float aR = std::atan2(tR.y - centre.y, tR.x - centre.x);
  const float aL = std::atan2(tL.y - centre.y, tL.x - centre.x);
  const float aMid = std::atan2(-w.y, -w.x);
  auto wrap = [](float a) {
    while (a < 0) a += kTau;
    while (a >= kTau) a -= kTau;
    return a;
  };
  // Counter-clockwise from aR to aL when -w lies on that side, else clockwise.
  const float ccwSpan = wrap(aL - aR), midFromR = wrap(aMid - aR);
  const bool ccw = midFromR <= ccwSpan;
  const float span = ccw ? ccwSpan : -(kTau - ccwSpan);
  const float far = std::max(legLength, tangentLen * 1.01f);
  out.push_back(apex + legR * far);
  for (int k = 0; k <= arcSegments; ++k) {
    const float a = aR + span * k / arcSegments;
    out.push_back(centre + Vec2{std::cos(a), std::sin(a)} * cutR);
  }
  out.push_back(apex + legL * far);
  return out;
}

void teachGridQuery(const World& w, const AgentGrid& grid, const Settings& s, std::size_t i, TeachingView& view) {
  const AgentGridView g = grid.view();
  if (g.cols <= 0 || g.rows <= 0 || g.cellStart == nullptr) return;
  const Vec2 p{w.px[i], w.py[i]};
  const float cw = 1 / g.invCell, rh = 1 / g.invRow, reach = s.perceptionRadius;
  const int cx = gridCoord(p.x, g.origin.x, g.invCell, g.cols);
  const int y0 = gridCoord(p.y - reach, g.origin.y, g.invRow, g.rows), y1 = gridCoord(p.y + reach, g.origin.y, g.invRow, g.rows);
  const int x0 = std::max(cx - 1, 0), x1 = std::min(cx + 1, g.cols - 1);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const Vec2 lo{g.origin.x + static_cast<float>(x) * cw, g.origin.y + static_cast<float>(y) * rh};
      view.add(TeachKind::Loop, TeachRole::GridCell, TeachFrame::World,
               {lo, lo + Vec2{cw, 0}, lo + Vec2{cw, rh}, lo + Vec2{0, rh}}, 0, 0,
               x == cx && y == gridCoord(p.y, g.origin.y, g.invRow, g.rows) ? "own cell" : "");
      const int cell = y * g.cols + x;
      for (std::int32_t k = g.cellStart[cell]; k < g.cellStart[cell + 1]; ++k) {
        const auto j = static_cast<std::size_t>(g.sortedIndex[k]);
        if (j != i) view.ring(TeachRole::Candidate, TeachFrame::World, {w.px[j], w.py[j]}, w.radius[j]);
      }
    }
}

void teachOrca(const World& w, const StepScratch& scratch, const Settings& s, std::size_t i, AgentExplain& out) {
  TeachingView& view = out.teaching;
  const Vec2 p{w.px[i], w.py[i]};
  const float vmax = std::max(w.maxSpeed[i], 1e-6f);
  const float box = 1.6f * vmax;  // velocity-space half extent drawn
  const Vec2 square[4] = {{-box, -box}, {box, -box}, {box, box}, {-box, box}};
  const HalfPlane edges[4] = {{{box, 0}, {0, 1}}, {{0, box}, {-1, 0}}, {{-box, 0}, {0, -1}}, {{0, -box}, {1, 0}}};

  // Velocity obstacles, under everything else, kept inside the box.
  const float tau = std::max(s.timeHorizon, 1e-6f);
  for (std::size_t j : out.neighbours) {
    auto vo = velocityObstacle(Vec2{w.px[j], w.py[j]} - p, w.radius[i] + w.radius[j], tau, Vec2{w.vx[j], w.vy[j]},
                               2.5f * box);
    for (const HalfPlane& edge : edges) vo = clipToPermitted(vo, edge);
    view.add(TeachKind::Fill, TeachRole::Forbidden, TeachFrame::Velocity, std::move(vo));
    view.shapes.back().walker = static_cast<std::int64_t>(j);
  }
  // Each line's permitted side within the box, then the line across it,
  // labelled with whom it keeps the walker from: "#j" for neighbour j.
  auto shadeLine = [&](const HalfPlane& l, TeachRole role, std::string label, std::int64_t walker) {
    view.add(TeachKind::Fill, TeachRole::Permitted, TeachFrame::Velocity, clipToPermitted(square, l));
    const Vec2 a = l.point - l.direction * (4 * box), d = l.direction * (8 * box);
    float t0 = 0, t1 = 1;
    const float p0[2] = {a.x, a.y}, dd[2] = {d.x, d.y};
    for (int ax = 0; ax < 2; ++ax) {
      if (std::fabs(dd[ax]) < 1e-12f) {
        if (p0[ax] < -box || p0[ax] > box) return;
        continue;
      }
      float ta = (-box - p0[ax]) / dd[ax], tb = (box - p0[ax]) / dd[ax];
      if (ta > tb) std::swap(ta, tb);
      t0 = std::max(t0, ta);
      t1 = std::min(t1, tb);
    }
    if (t0 < t1) {
      view.add(TeachKind::Path, role, TeachFrame::Velocity, {a + d * t0, a + d * t1}, 0, 0, std::move(label));
      view.shapes.back().walker = walker;
    }
  };
  // The walls' lines are many and alike: the first is named for them all.
  for (std::size_t k = 0; k < out.obstacleLines.size(); ++k)
    shadeLine(out.obstacleLines[k], TeachRole::ObstacleLine, k == 0 ? "walls" : "", -1);
  // Each neighbour's line says what share of the pair's change this walker
  // takes (half, unless right of way gives the one behind more).
  const StepBuffers& b = scratch.buffers;
  const bool wishes = b.wishX.size() == w.size();
  for (std::size_t k = 0; k < out.agentLines.size(); ++k) {
    std::string label;
    std::int64_t walker = -1;
    if (k < out.neighbours.size()) {
      const std::size_t j = out.neighbours[k];
      // As the solve reads them: both walkers' wishes of the last step.
      const float share = wishes ? wayShare(Vec2{w.px[j], w.py[j]} - p, Vec2{b.wishX[i], b.wishY[i]},
                                            Vec2{b.wishX[j], b.wishY[j]}, s.rightOfWay)
                                 : 0.5f;
      label = neighbourLabel(j);
      label.append(" takes ");
      label.append(std::to_string(static_cast<int>(std::lround(100 * share))));
      label.push_back('%');
      walker = static_cast<std::int64_t>(j);
    }
    shadeLine(out.agentLines[k], TeachRole::AgentLine, std::move(label), walker);
  }
  // The feasible region: the top-speed disc (a 48-gon) cut by every line.
  std::vector<Vec2> feasible;
  for (int k = 0; k < 48; ++k) {
    const float a = kTau * static_cast<float>(k) / 48;
    feasible.push_back(Vec2{std::cos(a), std::sin(a)} * vmax);
  }
  for (const HalfPlane& l : out.obstacleLines) feasible = clipToPermitted(feasible, l);
  for (const HalfPlane& l : out.agentLines) feasible = clipToPermitted(feasible, l);
  view.add(TeachKind::Fill, TeachRole::Feasible, TeachFrame::Velocity, std::move(feasible), 0, 0, "feasible");

  for (std::size_t j : out.neighbours) {
    const Vec2 q{w.px[j], w.py[j]};
    view.ring(TeachRole::Neighbour, TeachFrame::World, q, w.radius[j], neighbourLabel(j));
    view.add(TeachKind::Path, TeachRole::NeighbourLink, TeachFrame::World, {p, q});
  }
  teachWishAndChoice(view, w.maxSpeed[i], out.preferred, out.chosen);
  teachGridQuery(w, scratch.grid, s, i, view);

  view.note(TeachRole::Text, "neighbours " + std::to_string(out.neighbours.size()) + "   agent lines " +
                                 std::to_string(out.agentLines.size()) + "   obstacle lines " +
                                 std::to_string(out.obstacleLines.size()));
  view.note(TeachRole::Legend, "red: velocity obstacles  green: permitted side of each ORCA line");
}

}  // namespace throng
