// The ground's host side: the terrain's speed zones and stairs flattened
// into the arrays the step reads (geometry/ground.hpp).
#include "geometry/ground.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "throng/fields.hpp"

namespace throng {

namespace {

/// Appends one region over `outline`; false (nothing added) under three points.
bool addRegion(GroundShapes& g, const std::vector<Vec2>& outline, GroundRegion r) {
  if (outline.size() < 3) return false;
  r.first = static_cast<std::int32_t>(g.x.size());
  r.box[0] = r.box[1] = std::numeric_limits<float>::infinity();
  r.box[2] = r.box[3] = -std::numeric_limits<float>::infinity();
  for (const Vec2 p : outline) {
    g.x.push_back(p.x);
    g.y.push_back(p.y);
    r.box[0] = std::min(r.box[0], p.x); r.box[1] = std::min(r.box[1], p.y);
    r.box[2] = std::max(r.box[2], p.x); r.box[3] = std::max(r.box[3], p.y);
  }
  r.end = static_cast<std::int32_t>(g.x.size());
  g.regions.push_back(r);
  return true;
}

}  // namespace

void GroundShapes::build(const Terrain& t) {
  regions.clear();
  x.clear();
  y.clear();
  for (const SpeedZone& z : t.speedZones) {
    if (z.factor == 1.0f) continue;  // flat ground (and a flight's mark)
    GroundRegion r;
    r.factor = z.factor;
    addRegion(*this, z.outline, r);
  }
  for (const Stairs& s : t.stairs) {
    const float len = s.up.length();
    if (!(len > 0.0f)) continue;
    GroundRegion r;
    r.up = s.up / len;
    r.upSpeed = s.upSpeed;
    r.downSpeed = s.downSpeed;
    addRegion(*this, s.outline, r);
  }
}

}  // namespace throng
