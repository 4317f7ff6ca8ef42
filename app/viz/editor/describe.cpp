// describe(Op): pure, apart from ops.cpp (which needs the document's edits).
#include <string>
#include <type_traits>

#include "viz/editor/ops.hpp"

namespace throng::app::edit {

std::string describe(const Op& op) {
  return std::visit(
      [](const auto& o) -> std::string {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, OpAddWall>) return "add a wall of " + std::to_string(o.points.size()) + " points";
        else if constexpr (std::is_same_v<T, OpAddObstacleRect>) return "add a rectangular obstacle";
        else if constexpr (std::is_same_v<T, OpAddObstacleOutline>)
          return "add an obstacle of " + std::to_string(o.outline.size()) + " points";
        else if constexpr (std::is_same_v<T, OpAddAgent>) return "add a walker";
        else if constexpr (std::is_same_v<T, OpAddGroup>) return "add a group";
        else if constexpr (std::is_same_v<T, OpAddSource>) return "add a source";
        else if constexpr (std::is_same_v<T, OpAddSink>) return "add a sink";
        else if constexpr (std::is_same_v<T, OpAddTarget>) return "add target \"" + o.name + "\"";
        else if constexpr (std::is_same_v<T, OpAddGate>) return "add a gate to route \"" + o.route + "\"";
        else if constexpr (std::is_same_v<T, OpAddDiscomfort>) return "add a discomfort region";
        else if constexpr (std::is_same_v<T, OpAddMeasureLine>) return "add a measurement line";
        else if constexpr (std::is_same_v<T, OpAddMeasureArea>) return "add a measurement area";
        else if constexpr (std::is_same_v<T, OpAddSpeedZone>) return "add a speed zone";
        else if constexpr (std::is_same_v<T, OpAddStairs>) return "add a flight of stairs";
        else if constexpr (std::is_same_v<T, OpMoveElement>) return "move " + o.pointer;
        else if constexpr (std::is_same_v<T, OpMovePoint>) return "move point " + o.pointer;
        else if constexpr (std::is_same_v<T, OpInsertVertex>) return "insert a vertex into " + o.pointer;
        else if constexpr (std::is_same_v<T, OpRemoveVertex>) return "remove vertex " + o.pointer;
        else if constexpr (std::is_same_v<T, OpRemoveElement>) return "delete " + o.pointer;
        else if constexpr (std::is_same_v<T, OpDuplicate>) return "duplicate " + o.pointer;
        else if constexpr (std::is_same_v<T, OpSetGoal>) return "set the goal of " + o.pointer;
        else return std::string(o.erase ? "erase " : "paint ") + (o.height ? "height" : "discomfort");
      },
      op);
}

}  // namespace throng::app::edit
