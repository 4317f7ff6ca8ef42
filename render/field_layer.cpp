#include "render/field_layer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace throng::render {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Rgb {
  float r, g, b;
};

// Viridis (matplotlib's default map, public domain) at ten even stops.
constexpr Rgb kViridis[10] = {{68, 1, 84},    {72, 40, 120},   {62, 74, 137},  {49, 104, 142},  {38, 130, 142},
                              {31, 158, 137}, {53, 183, 121},  {109, 205, 89}, {180, 222, 44}, {253, 231, 37}};
// Blue to red through near-white (ColorBrewer's RdBu, reversed).
constexpr Rgb kDiverging[7] = {{33, 102, 172},  {103, 169, 207}, {209, 229, 240}, {247, 247, 247},
                               {253, 219, 199}, {239, 138, 98},  {178, 24, 43}};

template <std::size_t N>
std::uint32_t lerpStops(const Rgb (&stops)[N], float t) {
  const float u = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(N - 1);
  const std::size_t k = std::min(static_cast<std::size_t>(u), N - 2);
  const float f = u - static_cast<float>(k);
  const Rgb a = stops[k], b = stops[k + 1];
  auto byte = [](float x) { return static_cast<std::uint32_t>(std::lround(std::clamp(x, 0.0f, 255.0f))); };
  return packRgba(byte(a.r + (b.r - a.r) * f), byte(a.g + (b.g - a.g) * f), byte(a.b + (b.b - a.b) * f));
}

bool finite(float v) { return std::isfinite(v); }

std::uint32_t shadeColor(std::uint32_t c, float shade) {
  auto ch = [&](int k) {
    const float v = static_cast<float>((c >> (8 * k)) & 255u) * shade;
    return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0f, 255.0f)));
  };
  return packRgba(ch(0), ch(1), ch(2), c >> 24);
}

// The hill-shade of cell (x, y) from heights at cell centres.
float cellShade(std::span<const float> height, int cols, int rows, float h, int x, int y) {
  auto at = [&](int i, int j) { return height[static_cast<std::size_t>(j) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(i)]; };
  auto slope = [&](int x0, int y0, int x1, int y1) {
    const float a = at(x0, y0), b = at(x1, y1);
    const int n = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    return n > 0 && finite(a) && finite(b) ? (b - a) / (static_cast<float>(n) * h) : 0.0f;
  };
  const float dzdx = slope(std::max(x - 1, 0), y, std::min(x + 1, cols - 1), y);
  const float dzdy = slope(x, std::max(y - 1, 0), x, std::min(y + 1, rows - 1));
  return hillShade(dzdx, dzdy);
}

}  // namespace

std::string_view fieldLayerName(FieldLayer layer) {
  switch (layer) {
    case FieldLayer::None: return "none";
    case FieldLayer::Density: return "density";
    case FieldLayer::Speed: return "speed";
    case FieldLayer::Cost: return "cost";
    case FieldLayer::Potential: return "potential";
    case FieldLayer::Discomfort: return "discomfort";
    case FieldLayer::Height: return "height";
  }
  return "?";
}

std::string_view fieldLayerUnit(FieldLayer layer) {
  switch (layer) {
    case FieldLayer::Density: return "walkers per cell";
    case FieldLayer::Speed: return "units/s";
    case FieldLayer::Cost: return "per unit of path";
    case FieldLayer::Potential: return "path cost";
    case FieldLayer::Height: return "units";
    default: return "";
  }
}

std::string_view fieldDirectionName(int direction) {
  switch (direction) {
    case kEast: return "east";
    case kNorth: return "north";
    case kWest: return "west";
    case kSouth: return "south";
    default: return "mean";
  }
}

std::uint32_t sequentialColor(float t) { return lerpStops(kViridis, std::isnan(t) ? 0.0f : t); }
std::uint32_t divergingColor(float t) { return lerpStops(kDiverging, std::isnan(t) ? 0.5f : t); }

ColorMap fieldColorMap(FieldLayer layer) {
  return layer == FieldLayer::Discomfort ? ColorMap::Diverging : ColorMap::Sequential;
}

float FieldRange::position(float v) const {
  if (!(max > min)) return map == ColorMap::Diverging ? 0.5f : 0.0f;
  return std::clamp((v - min) / (max - min), 0.0f, 1.0f);
}

std::uint32_t FieldRange::color(float v) const {
  if (!finite(v)) return kFieldNoValueColor;
  const float t = position(v);
  return map == ColorMap::Diverging ? divergingColor(t) : sequentialColor(t);
}

float fieldValue(const FieldView& f, FieldLayer layer, int direction, std::size_t c) {
  auto one = [&](std::span<const float> s) { return c < s.size() ? s[c] : kInf; };
  switch (layer) {
    case FieldLayer::Density: return one(f.density);
    case FieldLayer::Potential: return one(f.potential);
    case FieldLayer::Discomfort: return one(f.discomfort);
    case FieldLayer::Height: return one(f.height);
    case FieldLayer::Speed:
    case FieldLayer::Cost: {
      const std::span<const float> s = layer == FieldLayer::Speed ? f.speed : f.cost;
      if (4 * c + 3 >= s.size() || 4 * c + 3 >= f.cost.size()) return kInf;
      // A direction is open where its cost is finite (a closed face: speed 0, cost +inf).
      if (direction >= 0 && direction < 4) return finite(f.cost[4 * c + direction]) ? s[4 * c + direction] : kInf;
      double sum = 0;
      int n = 0;
      for (int d = 0; d < 4; ++d)
        if (finite(f.cost[4 * c + d]) && finite(s[4 * c + d])) {
          sum += s[4 * c + d];
          ++n;
        }
      return n > 0 ? static_cast<float>(sum / n) : kInf;
    }
    default: return kInf;
  }
}

float hillShade(float dzdx, float dzdy, float exaggeration) {
  // Normal (-e dz/dx, -e dz/dy, 1), light (-1/2, 1/2, 1/sqrt 2): dot over the flat ground's.
  const float nx = -exaggeration * dzdx, ny = -exaggeration * dzdy;
  if (!finite(nx) || !finite(ny)) return 1;
  const float norm = std::sqrt(nx * nx + ny * ny + 1);
  const float lit = (-0.5f * nx + 0.5f * ny + 0.70710678f) / norm;
  // Diffuse over an ambient of kHillAmbient, so no slope goes black.
  return kHillAmbient + (1 - kHillAmbient) * std::max(0.0f, lit) / 0.70710678f;
}

void buildFieldLayer(const FieldView& f, const FieldLayerOptions& o, FieldLayerImage& out) {
  out.result = FieldLayerImage::Result::Off;
  out.layer = o.layer;
  out.direction = o.direction;
  out.texels.clear();
  out.values.clear();
  out.perDirection.clear();
  out.blocked.clear();
  out.potential.clear();
  out.range = FieldRange{};
  out.range.map = fieldColorMap(o.layer);
  if (o.layer == FieldLayer::None && !o.shading && !o.keepPotential) return;
  out.origin = f.origin;
  out.cell = f.cell;
  out.cols = f.cols;
  out.rows = f.rows;
  out.refreshStep = f.refreshStep;
  const std::size_t n = out.cells();
  if (f.cols <= 0 || f.rows <= 0 || !(f.cell > 0)) {
    out.cols = out.rows = 0;
    out.result = FieldLayerImage::Result::NoField;
    return;
  }
  // The potential layer without a potential shows nothing; nor do arrows
  // alone (a layer or the shading still show without their arrows).
  if (f.potential.size() < n &&
      (o.layer == FieldLayer::Potential || (o.layer == FieldLayer::None && !o.shading))) {
    out.result = FieldLayerImage::Result::NoPotential;
    return;
  }
  out.blocked.assign(n, 0);
  for (std::size_t c = 0; c < n && c < f.blocked.size(); ++c) out.blocked[c] = f.blocked[c];
  if (o.keepPotential && f.potential.size() >= n) out.potential.assign(f.potential.begin(), f.potential.begin() + static_cast<std::ptrdiff_t>(n));

  const bool shadeAll = o.shading && f.height.size() >= n;
  const bool shadeLayer = (o.layer == FieldLayer::Height || o.shading) && f.height.size() >= n;
  if (o.layer != FieldLayer::None) {
    out.values.resize(n);
    if (o.layer == FieldLayer::Speed || o.layer == FieldLayer::Cost) out.perDirection.assign(4 * n, kInf);
    const std::span<const float> dirs = o.layer == FieldLayer::Speed ? f.speed : f.cost;
    // The cells the range spans: those whose centres lie in the view, if any.
    int rx0 = 0, ry0 = 0, rx1 = f.cols - 1, ry1 = f.rows - 1;
    if (o.rangeView) {
      const glm::vec2 lo = o.rangeView->screenToWorld({0, static_cast<float>(o.rangeView->height)});
      const glm::vec2 hi = o.rangeView->screenToWorld({static_cast<float>(o.rangeView->width), 0});
      // Cell k's centre is origin + (k + 1/2) h.
      auto first = [&](float w, float origin) { return std::ceil(static_cast<double>((w - origin) / f.cell) - 0.5); };
      auto last = [&](float w, float origin) { return std::floor(static_cast<double>((w - origin) / f.cell) - 0.5); };
      const double x0 = std::max(0.0, first(lo.x, f.origin.x)), x1 = std::min(f.cols - 1.0, last(hi.x, f.origin.x));
      const double y0 = std::max(0.0, first(lo.y, f.origin.y)), y1 = std::min(f.rows - 1.0, last(hi.y, f.origin.y));
      if (x0 <= x1 && y0 <= y1) {
        rx0 = static_cast<int>(x0);
        rx1 = static_cast<int>(x1);
        ry0 = static_cast<int>(y0);
        ry1 = static_cast<int>(y1);
      }
    }
    float lo = kInf, hi = -kInf;
    for (std::size_t c = 0; c < n; ++c) {
      const float v = fieldValue(f, o.layer, o.direction, c);
      out.values[c] = v;
      if (!out.perDirection.empty())
        for (std::size_t d = 0; d < 4; ++d)
          out.perDirection[4 * c + d] =
              4 * c + d < dirs.size() && 4 * c + d < f.cost.size() && finite(f.cost[4 * c + d]) ? dirs[4 * c + d] : kInf;
      const int x = static_cast<int>(c % static_cast<std::size_t>(f.cols)), y = static_cast<int>(c / static_cast<std::size_t>(f.cols));
      if (!out.blocked[c] && finite(v) && x >= rx0 && x <= rx1 && y >= ry0 && y <= ry1) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    out.range.any = lo <= hi;
    if (out.range.any) {
      if (out.range.map == ColorMap::Diverging) {
        const float a = std::max(std::fabs(lo), std::fabs(hi));
        out.range.min = -a;
        out.range.max = a;
      } else {
        out.range.min = lo;
        out.range.max = hi;
      }
    }
    out.texels.resize(n);
    for (int y = 0; y < f.rows; ++y)
      for (int x = 0; x < f.cols; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(f.cols) + static_cast<std::size_t>(x);
        std::uint32_t col = out.blocked[c] ? kFieldBlockedColor : out.range.color(out.values[c]);
        if (shadeLayer && !out.blocked[c]) col = shadeColor(col, cellShade(f.height, f.cols, f.rows, f.cell, x, y));
        out.texels[c] = col;
      }
  } else if (shadeAll) {
    // The shading alone: black where the ground faces away from the light,
    // white where it faces it, clear where it is flat.
    out.texels.resize(n);
    for (int y = 0; y < f.rows; ++y)
      for (int x = 0; x < f.cols; ++x) {
        const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(f.cols) + static_cast<std::size_t>(x);
        const float s = cellShade(f.height, f.cols, f.rows, f.cell, x, y);
        const auto alpha = static_cast<std::uint32_t>(std::lround(std::clamp(std::fabs(s - 1) * 0.8f, 0.0f, 0.6f) * 255));
        out.texels[c] = s < 1 ? packRgba(0, 0, 0, alpha) : packRgba(255, 255, 255, alpha);
      }
  }
  out.result = FieldLayerImage::Result::Drawn;
}

FieldSample sampleField(const FieldLayerImage& im, Vec2 p) {
  FieldSample s;
  if (im.cols <= 0 || im.rows <= 0 || !(im.cell > 0)) return s;
  const float fx = (p.x - im.origin.x) / im.cell, fy = (p.y - im.origin.y) / im.cell;
  if (!(fx >= 0 && fy >= 0 && fx < static_cast<float>(im.cols) && fy < static_cast<float>(im.rows))) return s;
  s.inside = true;
  s.x = std::min(static_cast<int>(fx), im.cols - 1);
  s.y = std::min(static_cast<int>(fy), im.rows - 1);
  const std::size_t c = static_cast<std::size_t>(s.y) * static_cast<std::size_t>(im.cols) + static_cast<std::size_t>(s.x);
  s.blocked = c < im.blocked.size() && im.blocked[c] != 0;
  s.value = c < im.values.size() ? im.values[c] : kInf;
  for (std::size_t d = 0; d < 4; ++d) s.perDirection[d] = 4 * c + d < im.perDirection.size() ? im.perDirection[4 * c + d] : kInf;
  return s;
}

std::string formatFieldNumber(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(v));
  return buf;
}

std::string describeFieldSample(const FieldLayerImage& im, const FieldSample& s) {
  // Built by appending (GCC 12 warns falsely on chains of string + literal).
  if (!s.inside) return "off the field grid";
  std::string cell = "cell (";
  cell += std::to_string(s.x);
  cell += ", ";
  cell += std::to_string(s.y);
  cell += ")";
  if (s.blocked) return cell.append(": blocked");
  if (im.layer == FieldLayer::None || im.values.empty()) return cell;
  std::string out(fieldLayerName(im.layer));
  out += ' ';
  if (!im.perDirection.empty()) {
    out += fieldDirectionName(im.direction >= 0 && im.direction < 4 ? im.direction : kFieldMean);
    out += ' ';
    out += formatFieldNumber(s.value);
    static constexpr const char* kShort[4] = {" (E ", ", N ", ", W ", ", S "};
    for (int d = 0; d < 4; ++d) {
      out += kShort[d];
      out += formatFieldNumber(s.perDirection[d]);
    }
    out += ')';
  } else {
    out += formatFieldNumber(s.value);
    if (im.layer == FieldLayer::Potential && !std::isfinite(s.value)) out += " (no path)";
  }
  const std::string_view unit = fieldLayerUnit(im.layer);
  if (!unit.empty()) {
    out += ' ';
    out += unit;
  }
  out += " at ";
  out += cell;
  return out;
}

Vec2 potentialGradient(const std::vector<float>& phi, int cols, int rows, float h, int x, int y) {
  if (x < 0 || y < 0 || x >= cols || y >= rows || phi.size() < static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows))
    return {};
  auto at = [&](int i, int j) {
    if (i < 0 || j < 0 || i >= cols || j >= rows) return kInf;
    return phi[static_cast<std::size_t>(j) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(i)];
  };
  const float pc = at(x, y);
  if (!finite(pc)) return {};
  auto axis = [&](float lo, float hi) {
    const bool a = finite(lo), b = finite(hi);
    if (a && b) return (hi - lo) / (2 * h);
    if (b) return (hi - pc) / h;
    if (a) return (pc - lo) / h;
    return 0.0f;
  };
  return {axis(at(x - 1, y), at(x + 1, y)), axis(at(x, y - 1), at(x, y + 1))};
}

FieldArrows buildFieldArrows(const FieldLayerImage& im, const Camera2D& cam, int every, Mesh& out) {
  FieldArrows r;
  const std::size_t n = im.cells();
  if (n == 0 || im.potential.size() < n || !(im.cell > 0)) return r;
  const float cellPx = im.cell * cam.zoom;
  int stride = std::max(every, 1);
  if (cellPx * static_cast<float>(stride) < kMinArrowSpacingPx)
    stride = static_cast<int>(std::min(std::ceil(kMinArrowSpacingPx / std::max(cellPx, 1e-6f)), 1e6f));
  r.stride = stride;
  // The cells in view (and one stride beyond), on the stride's lattice from cell 0.
  const float pad = static_cast<float>(stride) * im.cell;
  const glm::vec2 lo = cam.screenToWorld({0, static_cast<float>(cam.height)}) - glm::vec2(pad);
  const glm::vec2 hi = cam.screenToWorld({static_cast<float>(cam.width), 0}) + glm::vec2(pad);
  auto cellIndex = [&](float w, float o) { return static_cast<double>(std::floor((w - o) / im.cell)); };
  const double x0 = std::max(0.0, cellIndex(lo.x, im.origin.x)), x1 = std::min(im.cols - 1.0, cellIndex(hi.x, im.origin.x));
  const double y0 = std::max(0.0, cellIndex(lo.y, im.origin.y)), y1 = std::min(im.rows - 1.0, cellIndex(hi.y, im.origin.y));
  if (x0 > x1 || y0 > y1) return r;
  const int sx = (static_cast<int>(x0) / stride) * stride, sy = (static_cast<int>(y0) / stride) * stride;
  const float pixel = cam.pixelSize();
  const float len = 0.8f * static_cast<float>(stride) * im.cell;
  const float head = std::min(0.4f * len, 9 * pixel);
  for (int y = sy; y <= static_cast<int>(y1); y += stride)
    for (int x = sx; x <= static_cast<int>(x1); x += stride) {
      const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(im.cols) + static_cast<std::size_t>(x);
      if (!im.blocked.empty() && im.blocked[c]) continue;
      const Vec2 g = potentialGradient(im.potential, im.cols, im.rows, im.cell, x, y);
      const float m = g.length();
      if (!(m > 0) || !finite(m)) continue;
      const Vec2 u = g * (-1.0f / m);
      const Vec2 centre{im.origin.x + (static_cast<float>(x) + 0.5f) * im.cell, im.origin.y + (static_cast<float>(y) + 0.5f) * im.cell};
      const Vec2 a = centre - u * (0.5f * len), b = centre + u * (0.5f * len);
      addArrow(out, a - u * pixel, b + u * pixel, 3.5f * pixel, head + 2 * pixel, kFieldArrowOutline);
      addArrow(out, a, b, 1.5f * pixel, head, kFieldArrowColor);
      ++r.drawn;
    }
  return r;
}

}  // namespace throng::render
