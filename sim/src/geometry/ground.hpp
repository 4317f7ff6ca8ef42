#pragma once
// The ground under a walker's feet: speed zones and stairs (throng/fields.hpp)
// as the pace phase and the fields' cost read them. THRONG_HD: the CPU step,
// the CUDA kernels and the host mirror take the same bits.
//
// Design note. A walker's wished speed v becomes, inside the regions that
// hold its position, min(v * the product of the zones' factors, the least
// of the stairs' limits for its heading): uphill (the wish within 90
// degrees of the flight's `up`) upSpeed, else downSpeed. The direction is
// the wish's, so a walker turning on a flight takes the other limit at
// once. A slower wish is what every model then avoids with, so the models
// and the kinematic envelope need no ground of their own; the fields' cost
// reads the same speed for each face (a slow zone costs time to cross, so
// field routing goes round it where that is shorter in time), while the
// fields' own speed, which Continuum Crowds walks at, stays the flat
// ground's: the wish already carries the zone.
//
// Each region is tested in the order the terrain lists it, so the product
// is the same on every backend.
#include <cmath>
#include <cstdint>
#include <vector>

#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

struct Terrain;

/// A speed zone or a flight of stairs, flattened: its outline is points
/// [first, end) of the view's arrays; a flight has a factor of exactly 1
/// (a zone of factor 1 changes nothing and is left out).
struct GroundRegion {
  std::int32_t first = 0, end = 0;
  float box[4] = {0, 0, 0, 0};  ///< x0, y0, x1, y1 of the outline
  float factor = 1;
  Vec2 up;                      ///< unit; a flight's
  float upSpeed = 0, downSpeed = 0;
};

/// The regions as the step reads them (count 0: flat ground everywhere).
struct GroundView {
  const GroundRegion* regions = nullptr;
  const float *x = nullptr, *y = nullptr;
  std::int32_t count = 0;
  THRONG_HD bool on() const { return count > 0; }
};

/// Whether p is inside region r's outline (even-odd rule).
THRONG_HD bool onGround(const GroundView& g, const GroundRegion& r, Vec2 p) {
  if (!(p.x >= r.box[0] && p.x <= r.box[2] && p.y >= r.box[1] && p.y <= r.box[3])) return false;
  bool in = false;
  for (std::int32_t k = r.first, j = r.end - 1; k < r.end; j = k++) {
    const float yk = g.y[k], yj = g.y[j];
    if ((yk > p.y) != (yj > p.y) && p.x < (g.x[j] - g.x[k]) * (p.y - yk) / (yj - yk) + g.x[k]) in = !in;
  }
  return in;
}

/// The product of the factors of the zones that hold p (1: none).
THRONG_HD float zoneFactor(const GroundView& g, Vec2 p) {
  float factor = 1.0f;
  for (std::int32_t k = 0; k < g.count; ++k)
    if (g.regions[k].factor != 1.0f && onGround(g, g.regions[k], p)) factor *= g.regions[k].factor;
  return factor;
}

/// The least limit of the flights that hold p for a walker heading along
/// unit e, units/s (+inf: none).
THRONG_HD float stairsLimit(const GroundView& g, Vec2 p, Vec2 e) {
  float limit = __builtin_huge_valf();
  for (std::int32_t k = 0; k < g.count; ++k) {
    const GroundRegion& r = g.regions[k];
    if (r.factor != 1.0f || !onGround(g, r, p)) continue;
    const float most = dot(e, r.up) >= 0.0f ? r.upSpeed : r.downSpeed;
    limit = most < limit ? most : limit;
  }
  return limit;
}

/// The speed a walker at p heading along unit e walks at on this ground
/// when it wishes for `speed`.
THRONG_HD float groundSpeed(const GroundView& g, Vec2 p, Vec2 e, float speed) {
  const float v = speed * zoneFactor(g, p), limit = stairsLimit(g, p, e);
  return v < limit ? v : limit;
}

/// `wish` at its ground's speed (groundSpeed) for a walker at p; `slowed`
/// says whether the ground changed it. A zero or NaN wish is left alone.
THRONG_HD Vec2 groundWish(const GroundView& g, Vec2 p, Vec2 wish, bool& slowed) {
  slowed = false;
  const float speedSq = wish.lengthSquared();
  if (!g.on() || !(speedSq > 0.0f)) return wish;
  const float speed = std::sqrt(speedSq);
  const Vec2 e = wish / speed;
  const float v = groundSpeed(g, p, e, speed);
  if (!(v < speed)) return wish;
  slowed = true;
  return e * v;
}

/// The host's copy of the regions (World::ground), rebuilt from the terrain.
struct GroundShapes {
  std::vector<GroundRegion> regions;
  std::vector<float> x, y;
  /// Every speed zone, then every flight, in the terrain's order; outlines
  /// with fewer than three points are left out (the scene refuses them).
  void build(const Terrain& t);
  GroundView view() const {
    return GroundView{regions.data(), x.data(), y.data(), static_cast<std::int32_t>(regions.size())};
  }
};

}  // namespace throng
