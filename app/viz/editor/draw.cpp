#include "viz/editor/draw.hpp"

#include <algorithm>
#include <cmath>

namespace throng::app::edit {
namespace {

using render::addCircle;
using render::addCross;
using render::addDisc;
using render::addPolygonFill;
using render::addPolyline;
using render::addSegment;

void dashed(render::Mesh& m, Vec2 a, Vec2 b, float width, float on, float off, std::uint32_t rgba) {
  const Vec2 d = b - a;
  const float len = d.length();
  if (len <= 0) return;
  const Vec2 u = d / len;
  for (float t = 0; t < len; t += on + off) addSegment(m, a + u * t, a + u * std::min(len, t + on), width, rgba);
}

void handle(render::Mesh& m, Vec2 p, float pixel, std::uint32_t fill) {
  addDisc(m, p, 5 * pixel, render::packRgba(30, 30, 30), 16);
  addDisc(m, p, 3.5f * pixel, fill, 16);
}

Vec2 centreOf(const DocShape& s) {
  const Rect b = boundsOf(s);
  return {b.x + 0.5f * b.width, b.y + 0.5f * b.height};
}

}  // namespace

void buildDocMesh(const std::vector<DocShape>& shapes, float pixel, render::Mesh& out) {
  // Maps and regions first, then solid things, then walkers and marks on top.
  for (const DocShape& s : shapes) {
    switch (s.kind) {
      case DocShapeKind::heightMap:
      case DocShapeKind::discomfortMap:
        for (std::size_t k = 0; k < s.points.size(); ++k)
          dashed(out, s.points[k], s.points[(k + 1) % s.points.size()], 1 * pixel, 4 * pixel, 4 * pixel, kMapColor);
        break;
      case DocShapeKind::discomfort:
        addPolygonFill(out, s.points, render::packRgba(200, 90, 40, 45));
        addPolyline(out, s.points, 1.5f * pixel, kDiscomfortColor, true);
        break;
      case DocShapeKind::speedZone: render::addSpeedZone(out, s.points, pixel); break;
      case DocShapeKind::stairs: render::addStairs(out, s.points, s.up, pixel); break;
      case DocShapeKind::hill:
        if (!s.points.empty()) {
          addCircle(out, s.points[0], s.radius, 1.5f * pixel, kHillColor, 64);
          addCross(out, s.points[0], 3 * pixel, 1.5f * pixel, kHillColor);
        }
        break;
      case DocShapeKind::generator:
        if (s.closed && s.points.size() >= 3) {
          addPolygonFill(out, s.points, kGeneratorFill);
          addPolyline(out, s.points, 1.5f * pixel, kGeneratorColor, true);
        } else {
          for (Vec2 p : s.points) addCircle(out, p, std::max(s.radius, 3 * pixel), 1.5f * pixel, kGeneratorColor, 16);
        }
        break;
      case DocShapeKind::source: addPolyline(out, s.points, 2 * pixel, kSourceColor, true); break;
      case DocShapeKind::sink: addPolyline(out, s.points, 2 * pixel, kSinkColor, true); break;
      case DocShapeKind::measureArea:
        addPolygonFill(out, s.points, kMeasureFill);
        for (std::size_t k = 0; k < s.points.size(); ++k)
          dashed(out, s.points[k], s.points[(k + 1) % s.points.size()], 2 * pixel, 6 * pixel, 4 * pixel, kMeasureColor);
        break;
      case DocShapeKind::measureLine:
        if (s.points.size() >= 2) {
          // The line, and a tick from its middle towards its forward side
          // (the right of first -> second: where a crossing counts forward).
          const Vec2 a = s.points[0], b = s.points[1], mid = (a + b) * 0.5f, d = (b - a).normalized();
          addSegment(out, a, b, 2.5f * pixel, kMeasureColor);
          addSegment(out, mid, mid + Vec2{d.y, -d.x} * (12 * pixel), 2 * pixel, kMeasureColor);
        }
        break;
      case DocShapeKind::target:
        for (std::size_t k = 0; k < s.points.size(); ++k)
          dashed(out, s.points[k], s.points[(k + 1) % s.points.size()], 2 * pixel, 6 * pixel, 4 * pixel, kTargetColor);
        break;
      default: break;
    }
  }
  for (const DocShape& s : shapes) {
    if (s.kind == DocShapeKind::obstacle) {
      addPolygonFill(out, s.points, kObstacleFill);
      addPolyline(out, s.points, 1.5f * pixel, kObstacleEdge, true);
    } else if (s.kind == DocShapeKind::wall) {
      addPolyline(out, s.points, 3 * pixel, kWallColor, false);
    } else if (s.kind == DocShapeKind::gate && s.points.size() >= 2) {
      dashed(out, s.points[0], s.points[1], 2 * pixel, 8 * pixel, 6 * pixel, kGateColor);
      addDisc(out, s.points[0], 3 * pixel, kGateColor, 10);
      addDisc(out, s.points[1], 3 * pixel, kGateColor, 10);
    }
  }
  for (const DocShape& s : shapes) {
    if (s.kind == DocShapeKind::agent && !s.points.empty()) {
      const float r = std::max(s.radius, 2 * pixel);
      addDisc(out, s.points[0], r, kAgentColor, 24);
      addCircle(out, s.points[0], r, 1 * pixel, render::packRgba(20, 40, 90), 24);
    } else if (s.kind == DocShapeKind::goal && !s.points.empty()) {
      addCross(out, s.points[0], 5 * pixel, 2 * pixel, kGoalColor);
    }
  }
}

std::optional<Vec2> problemSpot(const std::vector<DocShape>& shapes, std::string_view pointer) {
  // The vertex itself when the pointer names one.
  for (const DocShape& s : shapes)
    for (std::size_t k = 0; k < s.vertexPointers.size() && k < s.points.size(); ++k)
      if (!s.vertexPointers[k].empty() && s.vertexPointers[k] == pointer) return s.points[k];
  // Else the element named by the pointer or its longest prefix.
  std::string_view p = pointer;
  while (!p.empty()) {
    for (const DocShape& s : shapes)
      if (s.pointer == p) return centreOf(s);
    p = parentPointer(p);
  }
  return std::nullopt;
}

void buildEditOverlay(const OverlayInput& in, float pixel, render::Mesh& out) {
  static const std::vector<DocShape> none;
  const std::vector<DocShape>& shapes = in.shapes ? *in.shapes : none;

  // The grid, faint, where its lines are far enough apart to help.
  if (in.grid && in.grid->grid && in.camera && in.grid->step > 0 && in.grid->step / pixel >= 8) {
    const render::Camera2D& cam = *in.camera;
    const glm::vec2 lo = cam.screenToWorld({0, static_cast<float>(cam.height)});
    const glm::vec2 hi = cam.screenToWorld({static_cast<float>(cam.width), 0});
    const double step = in.grid->step;
    const double x0 = std::floor(lo.x / step) * step, y0 = std::floor(lo.y / step) * step;
    int lines = 0;
    for (double x = x0; x <= hi.x && lines < 600; x += step, ++lines)
      addSegment(out, {static_cast<float>(x), lo.y}, {static_cast<float>(x), hi.y}, 1 * pixel, kGridColor);
    for (double y = y0; y <= hi.y && lines < 1200; y += step, ++lines)
      addSegment(out, {lo.x, static_cast<float>(y)}, {hi.x, static_cast<float>(y)}, 1 * pixel, kGridColor);
  }

  // Problems: a ring about each element that has one.
  if (in.problems)
    for (const DocProblem& p : *in.problems)
      if (const auto at = problemSpot(shapes, p.pointer))
        addCircle(out, *at, 11 * pixel, 2.5f * pixel, p.blocking ? kProblemColor : kWarningColor, 32);

  // The hovered element, thin; the selected one, thick, with its handles.
  for (const DocShape& s : shapes) {
    const bool sel = !in.selected.empty() && s.pointer == in.selected;
    const bool hov = !sel && !in.hovered.empty() && s.pointer == in.hovered;
    if (!sel && !hov) continue;
    const std::uint32_t c = sel ? kSelectColor : render::packRgba(255, 150, 0, 120);
    const float w = (sel ? 2.5f : 1.5f) * pixel;
    if (s.points.size() == 1) {
      addCircle(out, s.points[0], std::max(s.radius, 4 * pixel) + 3 * pixel, w, c, 32);
    } else {
      addPolyline(out, s.points, w, c, s.closed);
    }
    if (sel)
      for (std::size_t k = 0; k < s.points.size(); ++k) {
        const bool v = k < s.vertexPointers.size() && !s.vertexPointers[k].empty();
        if (!v && s.points.size() == 1) continue;
        const bool chosen = v && s.vertexPointers[k] == in.selectedVertex;
        handle(out, s.points[k], pixel, chosen ? kSelectColor : v ? kVertexColor : render::packRgba(160, 160, 160));
      }
  }

  // The gesture being drawn.
  if (in.preview) {
    const Preview& pv = *in.preview;
    if (!pv.points.empty()) {
      std::vector<Vec2> pts = pv.points;
      if (in.cursorInCanvas) pts.push_back(pv.cursor);
      addPolyline(out, pts, 2 * pixel, kPreviewColor, false);
      if (pv.closed && pts.size() >= 3) dashed(out, pts.back(), pts.front(), 1.5f * pixel, 5 * pixel, 4 * pixel, kPreviewColor);
      for (Vec2 p : pv.points) handle(out, p, pixel, kPreviewColor);
    }
    if (pv.rect) addPolyline(out, rectCorners(*pv.rect), 2 * pixel, kPreviewColor, true);
    if (pv.anchorRect) addPolyline(out, rectCorners(*pv.anchorRect), 2 * pixel, kPreviewColor, true);
    if (pv.segmentFrom) addSegment(out, *pv.segmentFrom, pv.cursor, 2 * pixel, kPreviewColor);
    if (pv.anchor) {
      addDisc(out, *pv.anchor, 5 * pixel, kPreviewColor, 16);
      if (in.cursorInCanvas) dashed(out, *pv.anchor, pv.cursor, 1.5f * pixel, 5 * pixel, 4 * pixel, kPreviewColor);
    }
    if (pv.anchorRect && in.cursorInCanvas) {
      const Rect& r = *pv.anchorRect;
      dashed(out, {r.x + 0.5f * r.width, r.y + 0.5f * r.height}, pv.cursor, 1.5f * pixel, 5 * pixel, 4 * pixel,
             kPreviewColor);
    }
    if (in.cursorInCanvas) {
      if (pv.brushRadius > 0) {
        addCircle(out, pv.cursor, pv.brushRadius, 1.5f * pixel, render::packRgba(20, 20, 20, 200), 64);
        addCircle(out, pv.cursor, 0.5f * pv.brushRadius, 1 * pixel, render::packRgba(20, 20, 20, 90), 48);
      } else if (pv.snapKind == Snapped::Kind::Vertex) {
        addCircle(out, pv.cursor, 7 * pixel, 2 * pixel, kSnapVertexColor, 24);
      } else if (pv.snapKind == Snapped::Kind::Grid) {
        addCross(out, pv.cursor, 5 * pixel, 1.5f * pixel, kSnapGridColor);
      }
    }
  }
}

}  // namespace throng::app::edit
