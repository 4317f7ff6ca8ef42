#pragma once
// Shapes the models share in their teaching views (throng/teaching.hpp):
// a convex polygon clipped to one constraint's permitted side, the wish and
// the chosen velocity over the top-speed circle, and the fields' part that
// the step adds under any model that reads the fields.
#include <cstdint>
#include <span>
#include <vector>

#include "throng/teaching.hpp"
#include "throng/types.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// The part of convex polygon `poly` on the permitted side of `line`
/// (det(direction, point - v) <= 0); empty when none is.
std::vector<Vec2> clipToPermitted(std::span<const Vec2> poly, const HalfPlane& line);

/// The top-speed circle, then the wish and the chosen velocity as arrows
/// (velocity frame).
void teachWishAndChoice(TeachingView& view, float maxSpeed, Vec2 preferred, Vec2 chosen);

/// The fields' part (world frame) for a walker in cell `cell` of a grid of
/// `cols` columns from `origin`, side `h`: the cell's outline; from its
/// centre toward each of its four neighbours (east, north, west, south) an
/// arrow 0.45 of the cell long at `maxSpeed`, or a bar across a closed face
/// (cost +inf); then the field's flow at the walker (velocity frame). Nothing
/// for cell < 0.
void teachFieldCell(TeachingView& view, Vec2 origin, float h, int cols, std::int32_t cell, const float speed[4],
                    const float cost[4], Vec2 flow, float maxSpeed);

}  // namespace throng
