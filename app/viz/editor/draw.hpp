#pragma once
// What edit mode draws, as triangle meshes in world units (render/overlay's
// primitives): the document's elements, and over them the selection, the
// gesture being drawn, the snap mark, the brush, the checker's problems and
// the grid. Pure (no GL): the app hands the meshes to the renderer; the
// tests count their colours.
#include <cstdint>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/instance.hpp"
#include "render/overlay.hpp"
#include "throng/scene_doc.hpp"
#include "viz/editor/tools.hpp"

namespace throng::app::edit {

// Colours (R in the lowest byte). Walls and obstacles as run mode draws them.
inline constexpr std::uint32_t kWallColor = render::packRgba(40, 40, 48);
inline constexpr std::uint32_t kObstacleFill = render::packRgba(150, 150, 158);
inline constexpr std::uint32_t kObstacleEdge = render::packRgba(70, 70, 78);
inline constexpr std::uint32_t kAgentColor = render::packRgba(60, 110, 200);
inline constexpr std::uint32_t kGoalColor = render::packRgba(40, 150, 60);
inline constexpr std::uint32_t kGeneratorColor = render::packRgba(60, 110, 200, 220);
inline constexpr std::uint32_t kGeneratorFill = render::packRgba(60, 110, 200, 40);
inline constexpr std::uint32_t kSourceColor = render::packRgba(40, 150, 60, 230);
inline constexpr std::uint32_t kSinkColor = render::packRgba(200, 60, 60, 220);
inline constexpr std::uint32_t kTargetColor = render::packRgba(0, 150, 160, 220);
inline constexpr std::uint32_t kGateColor = render::packRgba(60, 120, 200, 230);
inline constexpr std::uint32_t kDiscomfortColor = render::packRgba(200, 90, 40, 200);
inline constexpr std::uint32_t kHillColor = render::packRgba(140, 100, 50, 200);
inline constexpr std::uint32_t kMeasureColor = render::packRgba(150, 60, 200, 230);
inline constexpr std::uint32_t kMeasureFill = render::packRgba(150, 60, 200, 35);
inline constexpr std::uint32_t kZoneColor = render::kSpeedZoneEdge;  // the run view's (render/overlay.hpp)
inline constexpr std::uint32_t kStairsColor = render::kStairsEdge;
inline constexpr std::uint32_t kMapColor = render::packRgba(120, 120, 120, 120);
inline constexpr std::uint32_t kSelectColor = render::packRgba(255, 150, 0);
inline constexpr std::uint32_t kVertexColor = render::packRgba(255, 255, 255);
inline constexpr std::uint32_t kPreviewColor = render::packRgba(230, 60, 150);
inline constexpr std::uint32_t kProblemColor = render::packRgba(220, 30, 30);
inline constexpr std::uint32_t kWarningColor = render::packRgba(230, 170, 0);
inline constexpr std::uint32_t kGridColor = render::packRgba(0, 0, 0, 22);
inline constexpr std::uint32_t kSnapVertexColor = render::packRgba(255, 150, 0);
inline constexpr std::uint32_t kSnapGridColor = render::packRgba(90, 90, 90);

/// The document's elements: obstacles filled, walls as lines, agents as
/// discs, goals as crosses, regions outlined by
/// kind, gates dashed, hills and maps outlined. `pixel`: the world size of
/// a screen pixel (line widths).
void buildDocMesh(const std::vector<DocShape>& shapes, float pixel, render::Mesh& out);

struct OverlayInput {
  const std::vector<DocShape>* shapes = nullptr;
  std::string selected, selectedVertex, hovered;
  const Preview* preview = nullptr;
  bool cursorInCanvas = false;
  const std::vector<DocProblem>* problems = nullptr;
  const SnapOptions* grid = nullptr;       ///< draws the grid when set and its lines are at least 8 px apart
  const render::Camera2D* camera = nullptr;  ///< the view (the grid's extent)
};

/// The selection (its outline and its vertices as handles), the hovered
/// element, the gesture being drawn, the snap mark, the brush, the problems
/// (a ring about each element that has one: red when blocking) and the grid.
void buildEditOverlay(const OverlayInput& in, float pixel, render::Mesh& out);

/// Where a problem at `pointer` is drawn: the centre of the element it
/// names, or of the nearest element above it ("/walls/2/1" -> that point;
/// "/agents/3/radius" -> the agent); nullopt when none.
std::optional<Vec2> problemSpot(const std::vector<DocShape>& shapes, std::string_view pointer);

}  // namespace throng::app::edit
