#pragma once
// The ground an edited document paints, as the field overlay draws it: the
// discomfort (regions plus the painted map) and the height (hills plus the
// map) sampled at the cells of a grid over the scene, with the cells inside
// obstacles blocked, as a FieldView. Edit mode hands it to the same
// buildFieldLayer and heatmap as run mode, so a brush stroke shows at once
// in the colours the run will show, without building a run.
#include <cstdint>
#include <vector>

#include "throng/fields.hpp"
#include "throng/scene_doc.hpp"

namespace throng::app::edit {

struct TerrainGrid {
  Terrain terrain;                 ///< as read from the document (no targets)
  std::vector<std::uint8_t> blocked;
  std::vector<float> discomfort, height;  ///< at cell centres
  FieldView view;                  ///< spans over the vectors above (valid while this lives, unmoved)
};

/// Samples the document's ground on a grid over its shapes: the cell is
/// the painted map's node spacing (the discomfort's, else the height's),
/// else 1/128 of the scene's extent, raised until the grid is at most
/// `maxSide` cells a side. `stamp` goes to view.refreshStep (the overlay
/// packs again when it changes).
void buildTerrainGrid(const SceneDoc& doc, const std::vector<DocShape>& shapes, std::uint64_t stamp, TerrainGrid& out,
                      int maxSide = 512);

/// The document's painted map (a "heightMap" or "discomfortMap" object) as
/// a lattice; false when the document has none.
bool readLattice(const SceneDoc& doc, const char* key, const char* valuesKey, Vec2& origin, float& cell, int& cols,
                 int& rows, std::vector<float>& values);

}  // namespace throng::app::edit
