#pragma once
// Vec2 and Rect: the public value types, in world units (the seed's points,
// or metres in metric scenes). Layer 1: includes nothing of throng's.
#include <cmath>

#include "throng/hd.hpp"

namespace throng {

struct Vec2 {
  float x = 0, y = 0;

  THRONG_HD constexpr Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
  THRONG_HD constexpr Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
  THRONG_HD constexpr Vec2 operator-() const { return {-x, -y}; }
  THRONG_HD constexpr Vec2 operator*(float s) const { return {x * s, y * s}; }
  /// As RVO2's Vector2 divides: by one reciprocal, then two products (so
  /// ORCA here repeats RVO2's arithmetic bit for bit where the rules agree).
  THRONG_HD constexpr Vec2 operator/(float s) const {
    const float inv = 1.0f / s;
    return {x * inv, y * inv};
  }
  THRONG_HD constexpr Vec2& operator+=(Vec2 o) { x += o.x; y += o.y; return *this; }
  THRONG_HD constexpr Vec2& operator-=(Vec2 o) { x -= o.x; y -= o.y; return *this; }
  THRONG_HD constexpr Vec2& operator*=(float s) { x *= s; y *= s; return *this; }
  constexpr bool operator==(const Vec2&) const = default;  // defaulted: implicitly host+device under nvcc

  THRONG_HD float length() const { return std::sqrt(x * x + y * y); }
  THRONG_HD constexpr float lengthSquared() const { return x * x + y * y; }
  /// Unit vector in the same direction; the zero vector stays zero.
  THRONG_HD Vec2 normalized() const {
    const float len = length();
    return len > 0 ? *this / len : Vec2{};
  }
};

THRONG_HD constexpr Vec2 operator*(float s, Vec2 v) { return {v.x * s, v.y * s}; }
THRONG_HD constexpr float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// The 2-D cross product a.x*b.y - a.y*b.x: > 0 when b is counter-clockwise of a.
THRONG_HD constexpr float det(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
THRONG_HD float length(Vec2 v) { return v.length(); }
THRONG_HD Vec2 normalized(Vec2 v) { return v.normalized(); }
/// Rotated a quarter turn counter-clockwise.
THRONG_HD constexpr Vec2 perpLeft(Vec2 v) { return {-v.y, v.x}; }

/// An axis-aligned rectangle: corner (x, y), extent width by height (>= 0).
struct Rect {
  float x = 0, y = 0, width = 0, height = 0;
};

}  // namespace throng
