#pragma once
// The per-agent instance record the disc shader reads, and the one pure
// function that fills it. Shared by the CPU upload (pack.hpp) and a CUDA
// pack kernel writing a mapped GL buffer: both call packInstance, so both
// produce byte-identical buffers. Includes nothing but hd.hpp.
//
// Layout (32 bytes, std430/std140-free: read as vertex attributes with
// divisor 1; offsets are part of the contract with shaders/disc.vert):
//   0  float x, y     centre, world units
//   8  float radius   world units [> 0]
//  12  float speed    |velocity|, world units per second
//  16  float hx, hy   unit heading; (0, 0) when standing (no tick drawn)
//  24  u32   rgba     colour, R in the lowest byte (read as 4 normalised u8)
//  28  u32   flags    kInstance* bits
#include <cmath>
#include <cstdint>

#include "throng/hd.hpp"

namespace throng::render {

struct AgentInstance {
  float x, y;
  float radius;
  float speed;
  float hx, hy;
  std::uint32_t rgba;
  std::uint32_t flags;
};
static_assert(sizeof(AgentInstance) == 32, "the shader reads a 32-byte stride");

inline constexpr std::uint32_t kInstanceJammed = 1u;     ///< ringed in orange
inline constexpr std::uint32_t kInstanceSelected = 2u;   ///< the teaching view's walker
inline constexpr std::uint32_t kInstanceNeighbour = 4u;  ///< one of its neighbours

/// Below this speed (world units per second) a walker is standing: no tick.
inline constexpr float kHeadingMinSpeed = 1e-4f;

THRONG_HD constexpr std::uint32_t packRgba(std::uint32_t r, std::uint32_t g, std::uint32_t b,
                                           std::uint32_t a = 255) {
  return r | (g << 8) | (b << 16) | (a << 24);
}

/// The jam ring's colour, (255, 140, 0): no group colour comes near it.
inline constexpr std::uint32_t kJamOrange = packRgba(255, 140, 0);

/// Colour by group: eight cool or neutral colours, cycled; never orange,
/// which means "jammed". Negative groups wrap like positive ones.
THRONG_HD constexpr std::uint32_t groupColor(std::int32_t group) {
  const std::uint32_t k = static_cast<std::uint32_t>(group) & 7u;
  switch (k) {
    case 0: return packRgba(96, 104, 118);   // slate gray (the seed's walkers)
    case 1: return packRgba(38, 110, 214);   // blue
    case 2: return packRgba(36, 150, 88);    // green
    case 3: return packRgba(146, 76, 192);   // purple
    case 4: return packRgba(20, 150, 160);   // teal
    case 5: return packRgba(200, 50, 110);   // raspberry
    case 6: return packRgba(110, 130, 30);   // olive
    default: return packRgba(60, 60, 140);   // indigo
  }
}

/// One walker's instance from its plain values.
THRONG_HD AgentInstance packInstance(float px, float py, float vx, float vy, float radius, std::int32_t group,
                                     std::uint8_t jammed) {
  AgentInstance a{};
  a.x = px;
  a.y = py;
  a.radius = radius;
  const float speed = std::sqrt(vx * vx + vy * vy);
  a.speed = speed;
  if (speed > kHeadingMinSpeed) {
    a.hx = vx / speed;
    a.hy = vy / speed;
  } else {
    a.hx = 0;
    a.hy = 0;
  }
  a.rgba = groupColor(group);
  a.flags = jammed ? kInstanceJammed : 0u;
  return a;
}

}  // namespace throng::render
