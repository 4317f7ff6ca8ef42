#pragma once
// The scene editor's edits as data: what a finished gesture asks of the
// document, one struct per edit function of throng/scene_doc.hpp. The tools
// (tools.hpp) make them from mouse and key events without touching a
// document, so their tests need none; apply() (ops.cpp) hands one to the
// document's edit function.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "throng/scene_doc.hpp"
#include "throng/vec2.hpp"

namespace throng::app::edit {

struct OpAddWall { std::vector<Vec2> points; };
struct OpAddObstacleRect { Rect rect; };
struct OpAddObstacleOutline { std::vector<Vec2> outline; };
struct OpAddAgent { Vec2 at; DocWalkerProps props; };
/// density walkers per square unit, or about `count` when count > 0.
struct OpAddGroup { Rect region; double density = 1; int count = 0; DocWalkerProps props; };
struct OpAddSource {
  Rect region;
  double rate = 1, start = 0, stop = 30;
  std::int64_t max = -1;  ///< -1: no cap
  DocWalkerProps props;
};
struct OpAddSink { Rect region; std::vector<int> groups; };
struct OpAddTarget { std::string name; Rect region; std::vector<int> groups; };
struct OpAddGate { std::string route; Vec2 a, b; };
struct OpAddDiscomfort { Rect region; double value = 1; };
struct OpAddMeasureLine { Vec2 a, b; };
struct OpAddMeasureArea { Rect region; };
struct OpAddSpeedZone { Rect region; double factor = 0.5; };
struct OpAddStairs { Rect region; Vec2 up{0, 1}; double upSpeed = 0.61, downSpeed = 0.694; };
struct OpMoveElement { std::string pointer; Vec2 by; };
struct OpMovePoint { std::string pointer; Vec2 to; };
struct OpInsertVertex { std::string pointer; std::size_t before = 0; Vec2 at; };
struct OpRemoveVertex { std::string pointer; };
struct OpRemoveElement { std::string pointer; };
struct OpDuplicate { std::string pointer; Vec2 by; };
struct OpSetGoal { std::string pointer; Vec2 goal; };
/// A dab of the height or discomfort brush.
struct OpPaint {
  bool height = false;  ///< the height map, else the discomfort map
  Vec2 at;
  double radius = 1, strength = 0.2, cell = 0.5;
  bool erase = false;
};

using Op = std::variant<OpAddWall, OpAddObstacleRect, OpAddObstacleOutline, OpAddAgent, OpAddGroup, OpAddSource,
                        OpAddSink, OpAddTarget, OpAddGate, OpAddDiscomfort, OpAddMeasureLine, OpAddMeasureArea,
                        OpAddSpeedZone, OpAddStairs, OpMoveElement, OpMovePoint, OpInsertVertex, OpRemoveVertex,
                        OpRemoveElement, OpDuplicate, OpSetGoal, OpPaint>;

/// For people and the status line: "add a wall of 3 points", "move /walls/2".
std::string describe(const Op& op);

/// The document after `op` (ops.cpp: calls the document's edit function).
DocEdit apply(const SceneDoc& doc, const Op& op);

}  // namespace throng::app::edit
