#include "render/markers.hpp"

#include <algorithm>
#include <cmath>

#include "render/instance.hpp"

namespace throng::render {
namespace {

// Hues, degrees: the band left after cutting out the jam ring's orange
// (33 degrees) with 15 degrees either side.
constexpr double kHueStart = 48, kHueSpan = 330;

std::uint32_t hsv(double hueDeg, double s, double v) {
  const double h = std::fmod(hueDeg, 360.0) / 60.0;
  const double f = h - std::floor(h);
  const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  const double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  const double* c = rgb[static_cast<int>(h) % 6];
  auto byte = [](double x) { return static_cast<std::uint32_t>(std::lround(std::clamp(x, 0.0, 1.0) * 255)); };
  return packRgba(byte(c[0]), byte(c[1]), byte(c[2]));
}

}  // namespace

std::uint32_t ownerColor(std::uint64_t id) {
  // frac(id / golden ratio), exactly for every id: Fibonacci hashing, the
  // product by 2^64 / golden ratio wrapping modulo 2^64.
  const double turn = static_cast<double>((id * 0x9E3779B97F4A7C15ull) >> 11) * 0x1p-53;
  static constexpr double kSat[3] = {0.72, 0.55, 0.88}, kVal[3] = {0.86, 0.74, 0.62};
  const int tier = static_cast<int>(id % 3);
  return hsv(kHueStart + turn * kHueSpan, kSat[tier], kVal[tier]);
}

float markerDotPx(float spacingPx) { return std::clamp(0.45f * spacingPx, 1.5f, 6.0f); }

MarkerPack packMarkers(const MarkerView& m, std::span<const std::uint64_t> ids, const Camera2D& cam, float spacing,
                       std::vector<Vertex>& out) {
  out.clear();
  MarkerPack r;
  r.total = std::min(m.x.size(), m.y.size());
  if (r.total == 0) return r;
  r.spacingPx = spacing > 0 ? spacing * cam.zoom : 0;
  r.dotPx = markerDotPx(r.spacingPx > 0 ? r.spacingPx : 2 * kMinMarkerSpacingPx);
  if (spacing > 0 && r.spacingPx < kMinMarkerSpacingPx) {
    r.result = MarkerPack::Result::TooDense;
    return r;
  }
  const std::size_t cap = static_cast<std::size_t>(static_cast<double>(cam.width) * cam.height / kPixelsPerMarker) + 1;
  // The view in world units, widened by a dot so one half off the edge is kept.
  const float pad = r.dotPx * cam.pixelSize();
  const glm::vec2 lo = cam.screenToWorld({0, static_cast<float>(cam.height)}) - glm::vec2(pad);
  const glm::vec2 hi = cam.screenToWorld({static_cast<float>(cam.width), 0}) + glm::vec2(pad);
  // One colour per walker, looked up per marker.
  const bool owned = m.owner.size() == r.total;
  std::vector<std::uint32_t> colours;
  if (owned) {
    colours.resize(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) colours[i] = ownerColor(ids[i]);
  }
  const std::size_t walkers = colours.size();
  for (std::size_t k = 0; k < r.total; ++k) {
    const float x = m.x[k], y = m.y[k];
    if (!(x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y)) continue;
    if (out.size() == cap) {
      out.clear();
      r.result = MarkerPack::Result::TooDense;
      return r;
    }
    std::uint32_t c = kUnownedMarkerColor;
    if (owned) {
      const std::int32_t o = m.owner[k];
      if (o >= 0 && static_cast<std::size_t>(o) < walkers) c = colours[static_cast<std::size_t>(o)];
    }
    out.push_back({x, y, c});
  }
  r.drawn = out.size();
  r.result = out.empty() ? MarkerPack::Result::None : MarkerPack::Result::Drawn;
  return r;
}

}  // namespace throng::render
