#pragma once
// Shared between the scene sources; not installed.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/vec2.hpp"

namespace throng::detail {

/// How far a disc at c of radius r reaches into closed outlines (inside
/// counts fully) or across polylines; 0 when clear.
float discIntrusion(std::span<const std::vector<Vec2>> outlines, std::span<const std::vector<Vec2>> walls, Vec2 c,
                    float r);
/// What nests in a text: JSON's brackets and braces (outside its strings),
/// or WKT's parentheses.
enum class Nesting { Json, Wkt };
/// The offset where `text` first nests deeper than `most`, or npos. The
/// loaders refuse such text before a parser that recurses can see it.
std::size_t nestedPast(std::string_view text, std::size_t most, Nesting kind);
/// A uniform double in [0, 1) hashed from (seed, what, a, b).
double unit01(std::uint64_t seed, std::uint64_t what, std::uint64_t a, std::uint64_t b);
/// A hashed point in the rectangle [x, y, w, h].
Vec2 pointIn(const Rect& r, std::uint64_t seed, std::uint64_t what, std::uint64_t which);
/// A normal draw of mean mu and sd sigma: attempt `attempt` of draw
/// (what, which) of this seed (libm's log and cos: scenes resolve on the
/// host, never in a step).
double drawNormal(double mu, double sigma, std::uint64_t seed, std::uint64_t what, std::uint64_t which,
                  std::uint64_t attempt);
/// The whole of the file at `path`, as bytes; nullopt with *error (when
/// given) "PATH: cannot open (why)" or "PATH: read error". Scene::load and
/// SceneDoc::load read through it, so their messages are the same.
std::optional<std::string> readFile(const std::string& path, std::string* error);

}  // namespace throng::detail
