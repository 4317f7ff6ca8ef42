#pragma once
// The marker layer: the points a model lays on the ground (BioCrowds'
// markers, Crowd::markers()) as round dots under the walkers, each in the
// colour of the walker that owns it, so every walker's territory shows as a
// patch of its own colour. Pure (no GL): packMarkers turns a MarkerView into
// the vertices the renderer draws as points in one call; tests inspect them.
//
// Design note. A crowd of 100k walkers stands on ~1.6M markers (16 per m²),
// far more than a frame can upload and draw on a software GL. So packing
//  - keeps only the markers in view (one pass over the spans, no copies of
//    the rest), and
//  - draws none when the markers are packed tighter than kMinMarkerSpacingPx
//    on screen (zoomed out so far that they are sub-pixel: they would only
//    tint the ground at a cost of one point per marker), nor when more than
//    one per kPixelsPerMarker pixels of the view would be drawn (a guard for
//    when the spacing is not what the settings say).
// The spacing is the lattice's (throng::markerSpacing, from the settings).
// Whoever calls packMarkers decides when to call it again (the app: when the
// crowd, the view or the selection changed), so a paused crowd uploads
// nothing.
//
// Colours. A walker's colour comes from its id, which it keeps for life
// (indices shift when walkers leave): hues step by the golden angle from one
// id to the next, so walkers added one after another, as scenes lay out
// their neighbours, differ by at least 120 degrees, and any run of ids spreads
// evenly round the wheel; three tiers of saturation and value set apart the
// few ids whose hues land close. Hues near the jam ring's orange are never
// used. A marker nobody owns is a dim grey.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "render/camera.hpp"
#include "render/overlay.hpp"
#include "throng/types.hpp"

namespace throng::render {

/// Below this many pixels between neighbouring markers none are drawn.
inline constexpr float kMinMarkerSpacingPx = 2.0f;
/// At most one marker drawn per this many pixels of the view.
inline constexpr float kPixelsPerMarker = 2.0f;
/// A marker nobody owns: a dim grey on the light background.
inline constexpr std::uint32_t kUnownedMarkerColor = 0xFFBDBFC2u;  // (194, 191, 189)

/// The colour of the markers owned by the walker with id `id` (opaque).
std::uint32_t ownerColor(std::uint64_t id);

/// A marker dot's diameter in pixels for markers `spacingPx` apart on
/// screen: 45% of the spacing, within [1.5, 6].
float markerDotPx(float spacingPx);

/// What packMarkers did.
struct MarkerPack {
  enum class Result {
    None,      ///< the view holds no markers (or the model lays none)
    Drawn,     ///< `drawn` markers are in `out`
    TooDense,  ///< zoomed out past kMinMarkerSpacingPx or kPixelsPerMarker: none drawn
  };
  Result result = Result::None;
  std::size_t total = 0;  ///< markers the model holds
  std::size_t drawn = 0;  ///< markers in `out`
  float spacingPx = 0;    ///< pixels between neighbouring markers (0: spacing unknown)
  float dotPx = 0;        ///< the dots' diameter, pixels
};

/// Packs the markers of `m` that lie in `camera`'s view (widened by a dot)
/// into `out` as points in world units with their owners' colours: owner k
/// is walker k of the frame, coloured by ids[k]; -1, an index past the ids
/// (the walkers changed since the step) or no owners at all draw
/// kUnownedMarkerColor. `spacing`: the lattice spacing, world units (0:
/// unknown, only the count guard applies).
MarkerPack packMarkers(const MarkerView& m, std::span<const std::uint64_t> ids, const Camera2D& camera, float spacing,
                       std::vector<Vertex>& out);

}  // namespace throng::render
