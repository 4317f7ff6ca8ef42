#include "viz/editor/terrain.hpp"

#include <algorithm>
#include <cmath>

#include "viz/editor/geometry.hpp"

namespace throng::app::edit {

bool readLattice(const SceneDoc& doc, const char* key, const char* valuesKey, Vec2& origin, float& cell, int& cols,
                 int& rows, std::vector<float>& values) {
  const DocValue* m = doc.root().find(key);
  if (!m || m->kind() != DocValue::Kind::object) return false;
  const std::string base = std::string("/") + key;
  origin = doc.point(base + "/origin").value_or(Vec2{});
  const auto c = doc.number(base + "/cell");
  if (!c || !(c->value > 0)) return false;
  cell = static_cast<float>(c->value);
  const DocValue* grid = m->find(valuesKey);
  if (!grid || grid->kind() != DocValue::Kind::array || grid->items().empty()) return false;
  rows = static_cast<int>(grid->items().size());
  cols = static_cast<int>(grid->items()[0].items().size());
  if (cols == 0) return false;
  values.assign(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows), 0.0f);
  for (int r = 0; r < rows; ++r) {
    const auto& row = grid->items()[static_cast<std::size_t>(r)].items();
    if (static_cast<int>(row.size()) != cols) return false;
    for (int k = 0; k < cols; ++k) {
      const DocValue& v = row[static_cast<std::size_t>(k)];
      double x = 0;
      if (v.kind() == DocValue::Kind::number) x = v.asNumber();
      else if (auto n = doc.number(base + "/" + valuesKey + "/" + std::to_string(r) + "/" + std::to_string(k))) x = n->value;
      values[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(k)] =
          static_cast<float>(x);
    }
  }
  return true;
}

void buildTerrainGrid(const SceneDoc& doc, const std::vector<DocShape>& shapes, std::uint64_t stamp, TerrainGrid& out,
                      int maxSide) {
  Terrain& t = out.terrain;
  t = Terrain{};
  {
    DiscomfortMap& m = t.discomfortMap;
    if (!readLattice(doc, "discomfortMap", "values", m.origin, m.cell, m.cols, m.rows, m.values)) m = DiscomfortMap{};
    HeightMap& h = t.heightMap;
    if (!readLattice(doc, "heightMap", "heights", h.origin, h.cell, h.cols, h.rows, h.heights)) h = HeightMap{};
  }
  std::vector<const DocShape*> obstacles;
  Vec2 lo{1e30f, 1e30f}, hi{-1e30f, -1e30f};
  for (const DocShape& s : shapes) {
    if (s.points.empty()) continue;
    const Rect b = boundsOf(s);
    lo = {std::min(lo.x, b.x), std::min(lo.y, b.y)};
    hi = {std::max(hi.x, b.x + b.width), std::max(hi.y, b.y + b.height)};
    if (s.kind == DocShapeKind::obstacle && s.closed) obstacles.push_back(&s);
    if (s.kind == DocShapeKind::discomfort && s.points.size() >= 3) {
      const auto v = doc.number(s.pointer + "/value");
      t.discomfort.push_back({s.points, v ? static_cast<float>(v->value) : 1.0f});
    }
    if (s.kind == DocShapeKind::hill && !s.points.empty()) {
      const auto h = doc.number(s.pointer + "/height");
      t.hills.push_back({s.points[0], s.radius, h ? static_cast<float>(h->value) : 0.0f});
    }
  }
  out.view = FieldView{};
  if (!(lo.x <= hi.x && lo.y <= hi.y)) {
    out.blocked.clear();
    out.discomfort.clear();
    out.height.clear();
    return;
  }
  const float extent = std::max({hi.x - lo.x, hi.y - lo.y, 1e-3f});
  float cell = t.discomfortMap.cell > 0 && !t.discomfortMap.values.empty() ? t.discomfortMap.cell
               : t.heightMap.cell > 0 && !t.heightMap.heights.empty()     ? t.heightMap.cell
                                                                          : extent / 128;
  cell = std::max(cell, extent / static_cast<float>(std::max(maxSide - 2, 1)));
  // Cell centres on the map's nodes when there is one, so a node's value is a cell's.
  const Vec2 anchor = !t.discomfortMap.values.empty() ? t.discomfortMap.origin : t.heightMap.origin;
  const float ox = anchor.x - 0.5f * cell + std::floor((lo.x - anchor.x) / cell) * cell - cell;
  const float oy = anchor.y - 0.5f * cell + std::floor((lo.y - anchor.y) / cell) * cell - cell;
  const int cols = std::clamp(static_cast<int>(std::ceil((hi.x - ox) / cell)) + 1, 1, maxSide);
  const int rows = std::clamp(static_cast<int>(std::ceil((hi.y - oy) / cell)) + 1, 1, maxSide);
  const std::size_t n = static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows);
  out.blocked.assign(n, 0);
  out.discomfort.assign(n, 0);
  out.height.assign(n, 0);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(x);
      const Vec2 p{ox + (static_cast<float>(x) + 0.5f) * cell, oy + (static_cast<float>(y) + 0.5f) * cell};
      for (const DocShape* o : obstacles)
        if (insidePolygon(p, o->points)) {
          out.blocked[c] = 1;
          break;
        }
      out.discomfort[c] = t.discomfortAt(p);
      out.height[c] = t.heightAt(p);
    }
  FieldView& v = out.view;
  v.origin = {ox, oy};
  v.cell = cell;
  v.cols = cols;
  v.rows = rows;
  v.blocked = out.blocked;
  v.discomfort = out.discomfort;
  v.height = out.height;
  v.refreshStep = stamp;
}

}  // namespace throng::app::edit
