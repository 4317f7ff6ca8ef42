#pragma once
// How far the walkers moved since the last step, for the candidate lists'
// bounds: the largest displacement, and its box per square tile (relative
// motion). One at a time here; trackMotionBatch eight at a time
// (neighbors/lanes.cpp, AVX2).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "neighbors/agents_view.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The tile a position is in (TileShape).
inline std::int32_t tileOf(const TileShape& t, float x, float y) {
  float fx = (x - t.originX) * t.invWidth, fy = (y - t.originY) * t.invWidth;
  fx = fx > 0.0f ? fx : 0.0f;  // also NaN
  fy = fy > 0.0f ? fy : 0.0f;
  fx = fx < t.lastColumn ? fx : t.lastColumn;
  fy = fy < t.lastRow ? fy : t.lastRow;
  return static_cast<std::int32_t>(fy) * t.cols + static_cast<std::int32_t>(fx);
}

/// Tiles `width` wide (at most 2^20 across, cols * rows within an int32)
/// over the bounds w by h from
/// (minX, minY); `side` takes how near two points must be, in x and in y,
/// to land in tiles at most one apart in each, inside the bounds or out
/// (tileOf clamps): the float tile coordinates of the two are off by at
/// most a few ulps of the larger, with 1 / width off by one of its own.
inline TileShape tilesOver(float minX, float minY, double w, double h, double width, float& side) {
  const auto cols = static_cast<std::int32_t>(std::floor(w / width)) + 1;
  const auto rows = static_cast<std::int32_t>(std::floor(h / width)) + 1;
  side = static_cast<float>(width * (1 - std::ldexp(static_cast<double>(std::max(cols, rows) + 2), -20)) *
                            (1 - 1e-6));
  return {minX, minY, static_cast<float>(1 / width), static_cast<float>(cols - 1), static_cast<float>(rows - 1),
          cols, rows};
}

/// Where trackMotion boxes displacements by tile: `box` holds four floats
/// a tile, how far its box reaches to -x, +x, -y and +y (the lowest x
/// negated, the highest x, and so for y; -inf when empty), so that boxes
/// merge by their largest.
struct TileBoxes {
  TileShape shape;
  float* box = nullptr;
};

/// One displacement into its tile's box (TileBoxes).
inline void boxMove(float* box, std::int32_t tile, float dx, float dy) {
  float* const b = box + 4 * static_cast<std::size_t>(tile);
  b[0] = -dx > b[0] ? -dx : b[0];
  b[1] = dx > b[1] ? dx : b[1];
  b[2] = -dy > b[2] ? -dy : b[2];
  b[3] = dy > b[3] ? dy : b[3];
}

/// World::trackMotion's work on agents [0, count), one at a time: lastX and
/// lastY take px and py, kin the AgentKin records, and the largest
/// displacement squared since lastX/lastY (in double, from the float
/// differences) is returned; NaN when one is. With `tiles`, each record
/// also takes the tile the agent started in (at lastX, lastY; else 0), and
/// its displacement goes into that tile's box.
inline double trackMotionOneByOne(const float* px, const float* py, const float* vx, const float* vy,
                                  const float* radius, float* lastX, float* lastY, AgentKin* kin, std::size_t count,
                                  const TileBoxes* tiles = nullptr) {
  double m = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const float fx = px[i] - lastX[i], fy = py[i] - lastY[i];  // exact or 1 ulp
    const double dx = fx, dy = fy;
    const double d = dx * dx + dy * dy;
    m = d > m || d != d ? d : m;
    std::int32_t tile = 0;
    if (tiles) {
      tile = tileOf(tiles->shape, lastX[i], lastY[i]);
      boxMove(tiles->box, tile, fx, fy);
    }
    lastX[i] = px[i];
    lastY[i] = py[i];
    kin[i] = {px[i], py[i], vx[i], vy[i], radius[i], tile};
  }
  return m;
}
/// trackMotionOneByOne eight agents at a time, the same values (a NaN may
/// be another NaN; eight that start in one tile, as neighbours by index
/// mostly do, update its box once). Only where lanesAvailable().
double trackMotionBatch(const float* px, const float* py, const float* vx, const float* vy, const float* radius,
                    float* lastX, float* lastY, AgentKin* kin, std::size_t count, const TileBoxes* tiles = nullptr);

}  // namespace throng
