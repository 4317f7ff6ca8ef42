// apply(Op): each op handed to its edit function of throng/scene_doc.hpp.
#include <type_traits>

#include "viz/editor/ops.hpp"

namespace throng::app::edit {

DocEdit apply(const SceneDoc& d, const Op& op) {
  return std::visit(
      [&d](const auto& o) -> DocEdit {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, OpAddWall>) return addWall(d, o.points);
        else if constexpr (std::is_same_v<T, OpAddObstacleRect>) return addObstacleRect(d, o.rect);
        else if constexpr (std::is_same_v<T, OpAddObstacleOutline>) return addObstacleOutline(d, o.outline);
        else if constexpr (std::is_same_v<T, OpAddAgent>) return addAgent(d, o.at, o.props);
        else if constexpr (std::is_same_v<T, OpAddGroup>) return addGroup(d, o.region, o.density, o.count, o.props);
        else if constexpr (std::is_same_v<T, OpAddSource>)
          return addSource(d, o.region, o.rate, o.start, o.stop, o.max, o.props);
        else if constexpr (std::is_same_v<T, OpAddSink>) return addSink(d, o.region, o.groups);
        else if constexpr (std::is_same_v<T, OpAddTarget>) return addTarget(d, o.name, o.region, o.groups);
        else if constexpr (std::is_same_v<T, OpAddGate>) return addRouteGate(d, o.route, o.a, o.b);
        else if constexpr (std::is_same_v<T, OpAddDiscomfort>) return addDiscomfortRect(d, o.region, o.value);
        else if constexpr (std::is_same_v<T, OpAddMeasureLine>) return addMeasureLine(d, o.a, o.b);
        else if constexpr (std::is_same_v<T, OpAddMeasureArea>) return addMeasureArea(d, o.region);
        else if constexpr (std::is_same_v<T, OpAddSpeedZone>) return addSpeedZoneRect(d, o.region, o.factor);
        else if constexpr (std::is_same_v<T, OpAddStairs>)
          return addStairsRect(d, o.region, o.up, o.upSpeed, o.downSpeed);
        else if constexpr (std::is_same_v<T, OpMoveElement>) return moveElement(d, o.pointer, o.by);
        else if constexpr (std::is_same_v<T, OpMovePoint>) return movePoint(d, o.pointer, o.to);
        else if constexpr (std::is_same_v<T, OpInsertVertex>) return insertVertex(d, o.pointer, o.before, o.at);
        else if constexpr (std::is_same_v<T, OpRemoveVertex>) return removeVertex(d, o.pointer);
        else if constexpr (std::is_same_v<T, OpRemoveElement>) return removeElement(d, o.pointer);
        else if constexpr (std::is_same_v<T, OpDuplicate>) return duplicateElement(d, o.pointer, o.by);
        else if constexpr (std::is_same_v<T, OpSetGoal>) return setGoal(d, o.pointer, o.goal);
        else
          return o.height ? paintHeight(d, o.at, o.radius, o.strength, o.erase, o.cell)
                          : paintDiscomfort(d, o.at, o.radius, o.strength, o.erase, o.cell);
      },
      op);
}

}  // namespace throng::app::edit
