#pragma once
// The counter-based hash under every deterministic choice of a step (the
// jitter, the split of coincident walkers, hashed spots): no state, the same
// bits on every thread, CPU and GPU.
#include <cmath>
#include <cstdint>

#include "throng/hd.hpp"
#include "throng/vec2.hpp"

namespace throng {

/// 64-bit mix (splitmix64 finaliser): the counter-based hash under jitter
/// and every other deterministic choice.
THRONG_HD constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A float in [-1, 1) from the top 24 bits of h: exact, no rounding.
THRONG_HD constexpr float unitFromBits(std::uint64_t h) {
  return static_cast<float>(static_cast<std::int32_t>(h >> 40) - (1 << 23)) * (1.0f / (1 << 23));
}

/// A unit vector hashed from h, with no transcendental functions.
THRONG_HD Vec2 hashedDirection(std::uint64_t h) {
  Vec2 d{unitFromBits(h), unitFromBits(mix64(h))};
  const float len2 = d.lengthSquared();
  if (len2 < 1e-6f) return {1, 0};
  return d / std::sqrt(len2);
}

}  // namespace throng
