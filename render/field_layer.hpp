#pragma once
// The field overlay: one layer of the fields a step built (Crowd::fields,
// throng/fields.hpp) as a heatmap under the walkers, one texel per cell, with
// gradient arrows down the potential and hill-shading of the ground. Pure
// (no GL): buildFieldLayer copies what the overlay shows out of a FieldView
// (whose spans die at the next step) and colours it; the renderer uploads the
// texels as a texture over the grid (GlRenderer::setField) and draws the
// arrows as a mesh; the app reads values under the cursor from the copy.
//
// Design note.
//  - Layers: density (ρ, walkers per cell), speed (f, units/s) and cost (C,
//    per unit of path) with four values per cell (east, north, west, south:
//    one of them, or the mean of the finite ones), the potential φ of one
//    target (path cost; +inf where no path reaches it), the discomfort g and
//    the height. A cell inside an obstacle is drawn kFieldBlockedColor, a
//    cell with no finite value (+inf potential, every face closed)
//    kFieldNoValueColor: two neutral greys no colour map reaches.
//  - Colour maps: a sequential one (viridis' ten stops, dark purple to
//    yellow, perceptually even and readable in grey) over [min, max] of the
//    finite values of unblocked cells (of the whole grid, or of those in
//    view: a room far smaller than the grid gets the whole map); a diverging one (blue, near-white at
//    0, red) for the discomfort, whose sign matters (a crosswalk is < 0),
//    over [-a, a], a the largest |g|.
//  - Hill-shading: the ground lit from the north-west at 45° (the
//    cartographers' convention) over an ambient light, slopes from central
//    differences of the heights at cell centres, exaggerated
//    kHillExaggeration times (crowd slopes are gentle): brightness 1 on flat
//    ground, never black. It tints the height
//    layer, and when asked any other layer; with no layer it is drawn alone as
//    translucent black and white over the ground.
//  - Arrows: −∇φ at every k-th cell centre (central differences of the
//    finite neighbours, one-sided where one is missing), as unit directions
//    drawn 0.8 k cells long; k is raised until they are kMinArrowSpacingPx
//    apart on screen, and only those in view are built.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "render/camera.hpp"
#include "render/instance.hpp"
#include "render/overlay.hpp"
#include "throng/fields.hpp"

namespace throng::render {

enum class FieldLayer : int { None, Density, Speed, Cost, Potential, Discomfort, Height };
inline constexpr int kFieldLayerCount = 7;

/// "none", "density", "speed", "cost", "potential", "discomfort", "height".
std::string_view fieldLayerName(FieldLayer layer);
/// The unit a layer's values are in ("walkers per cell", "units/s", ...; empty: none).
std::string_view fieldLayerUnit(FieldLayer layer);
/// Speed and cost have four values per cell: this picks their mean over the
/// finite ones; 0..3 (FieldDirection) pick one.
inline constexpr int kFieldMean = -1;
/// "mean", "east", "north", "west", "south".
std::string_view fieldDirectionName(int direction);

/// A cell inside an obstacle, and a cell with no finite value: neutral greys.
inline constexpr std::uint32_t kFieldBlockedColor = packRgba(104, 104, 108);
inline constexpr std::uint32_t kFieldNoValueColor = packRgba(184, 184, 188);

/// Viridis at t in [0, 1] (clamped; NaN is 0): dark purple to yellow, opaque.
std::uint32_t sequentialColor(float t);
/// Blue (0) through near-white (0.5) to red (1), opaque; t clamped, NaN 0.5.
std::uint32_t divergingColor(float t);

enum class ColorMap { Sequential, Diverging };
/// The colour map a layer is drawn with.
ColorMap fieldColorMap(FieldLayer layer);

/// The values a layer's colours span.
struct FieldRange {
  float min = 0, max = 0;  ///< of the finite values of unblocked cells (diverging: -a, a)
  bool any = false;        ///< some cell has a finite value
  ColorMap map = ColorMap::Sequential;
  /// Where v falls, 0 at min and 1 at max (0.5 for a diverging map with
  /// min == max, 0 for a sequential one).
  float position(float v) const;
  /// The colour of value v: kFieldNoValueColor when v is not finite.
  std::uint32_t color(float v) const;
};

/// The value `layer` shows at cell `c` of `f`: +inf where it has none (no
/// potential reaches it, every face of the cell is closed, the layer's
/// array is empty). Speed and cost take `direction` (kFieldMean: the mean
/// over the directions whose cost is finite; a closed face has none).
float fieldValue(const FieldView& f, FieldLayer layer, int direction, std::size_t c);

/// Vertical exaggeration of the hill-shading, and the light every slope gets.
inline constexpr float kHillExaggeration = 2;
inline constexpr float kHillAmbient = 0.4f;
/// Brightness of ground sloping by (dz/dx, dz/dy) (rise over run), lit
/// from the north-west at 45° over an ambient light: 1 when flat, above 1
/// facing the light, below facing away, within [kHillAmbient, kHillAmbient +
/// (1 - kHillAmbient) sqrt(2)] (0.4 to 1.25).
float hillShade(float dzdx, float dzdy, float exaggeration = kHillExaggeration);

struct FieldLayerOptions {
  FieldLayer layer = FieldLayer::None;
  int direction = kFieldMean;  ///< speed and cost (see kFieldMean)
  bool shading = false;        ///< hill-shade layers other than height (which is always shaded)
  bool keepPotential = false;  ///< copy the potential for arrows (buildFieldArrows)
  /// When set, the colours span the values of the cells whose centres lie
  /// in this view (all cells when none does), so a part of a large grid
  /// shows its own contrast; else the whole grid's.
  const Camera2D* rangeView = nullptr;
};

/// What the overlay shows of one refresh, copied out of its FieldView.
struct FieldLayerImage {
  enum class Result {
    Off,          ///< no layer, no shading and no arrows asked for
    NoField,      ///< the crowd builds no fields (cols == 0)
    NoPotential,  ///< the potential layer, or arrows alone, but the target has none
    Drawn,        ///< texels hold the layer or the shading, and/or `potential` the arrows' φ
  };
  Result result = Result::Off;
  FieldLayer layer = FieldLayer::None;
  int direction = kFieldMean;
  Vec2 origin;
  float cell = 0;
  int cols = 0, rows = 0;
  std::uint64_t refreshStep = 0;
  FieldRange range;
  std::vector<std::uint32_t> texels;   ///< cols * rows, row 0 at origin.y (GL's first row); empty: draw none
  std::vector<float> values;           ///< cols * rows: the layer's value (+inf: none); empty without a layer
  std::vector<float> perDirection;     ///< speed and cost: the four values per cell
  std::vector<std::uint8_t> blocked;   ///< cols * rows
  std::vector<float> potential;        ///< with keepPotential: φ per cell
  std::size_t cells() const { return static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows); }
};

/// Fills `out` from `f` for `o` (reusing its storage). Texels are made for
/// a layer, or for the shading alone (translucent black and white, clear
/// on flat ground) with no layer; none when neither is asked for. With
/// keepPotential and a layer but no potential, the layer is drawn and
/// `potential` stays empty (no arrows).
void buildFieldLayer(const FieldView& f, const FieldLayerOptions& o, FieldLayerImage& out);

/// The field under world point p.
struct FieldSample {
  bool inside = false;  ///< p lies on the grid
  int x = -1, y = -1;   ///< the cell
  bool blocked = false;
  float value = 0;          ///< the layer's value (+inf: none)
  float perDirection[4] = {};  ///< speed and cost: each direction's
};
FieldSample sampleField(const FieldLayerImage& im, Vec2 p);
/// One line for people: "potential 12.2 path cost at cell (2, 1)", "cost
/// mean 2.17 (E 1.5, N 2, W inf, S 3) per unit of path at cell (2, 1)",
/// "cell (0, 2): blocked", "off the field grid".
std::string describeFieldSample(const FieldLayerImage& im, const FieldSample& s);
/// A number for the legend and the cursor line: 3 significant digits, "inf".
std::string formatFieldNumber(float v);

/// ∇φ at cell (x, y) of a potential over a cols x rows grid of side h:
/// central differences of the finite neighbours, one-sided where one is
/// missing, 0 along an axis with neither; (0, 0) where φ there is not finite.
Vec2 potentialGradient(const std::vector<float>& phi, int cols, int rows, float h, int x, int y);

/// Arrows at least this many pixels apart.
inline constexpr float kMinArrowSpacingPx = 14;
inline constexpr std::uint32_t kFieldArrowColor = packRgba(252, 252, 252, 235);
inline constexpr std::uint32_t kFieldArrowOutline = packRgba(24, 24, 28, 170);
/// What buildFieldArrows did.
struct FieldArrows {
  int stride = 0;          ///< cells between arrows (0: none built)
  std::size_t drawn = 0;   ///< arrows in the mesh
};
/// Arrows down the potential of `im` (keepPotential) at every `every`-th
/// cell centre in `camera`'s view (every raised until kMinArrowSpacingPx
/// apart), white over a dark outline, 0.8 stride cells long, into `out`
/// (appended).
FieldArrows buildFieldArrows(const FieldLayerImage& im, const Camera2D& camera, int every, Mesh& out);

}  // namespace throng::render
