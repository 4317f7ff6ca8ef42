#pragma once
// Shared between the scene sources; not installed.
#include <cstdint>
#include <span>
#include <vector>

#include "throng/vec2.hpp"

namespace throng::detail {

/// How far a disc at c of radius r reaches into closed outlines (inside
/// counts fully) or across polylines; 0 when clear.
float discIntrusion(std::span<const std::vector<Vec2>> outlines, std::span<const std::vector<Vec2>> walls, Vec2 c,
                    float r);
/// A uniform double in [0, 1) hashed from (seed, what, a, b).
double unit01(std::uint64_t seed, std::uint64_t what, std::uint64_t a, std::uint64_t b);
/// A hashed point in the rectangle [x, y, w, h].
Vec2 pointIn(const Rect& r, std::uint64_t seed, std::uint64_t what, std::uint64_t which);

}  // namespace throng::detail
