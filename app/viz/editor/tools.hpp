#pragma once
// The scene editor's tools: state machines that turn mouse and key events
// (in world units) into actions on the document. Pure: no SDL, GL, ImGui or
// document, only its shapes for picking and snapping, so every gesture is
// tested as a list of events in and actions out (tests/render/test_editor_unit.cpp).
//
// Design note.
//  - An action either commits one edit (Commit: one undo step), or is part
//    of a gesture: Begin, then Updates, then End (one undo step however long
//    the drag) or Cancel (back to where it began). An Update of a move is
//    relative to the document at Begin (onBase: the whole offset so far,
//    never a sum of per-frame offsets, so nothing drifts); a brush dab is
//    laid on the current document (onBase false: dabs accumulate).
//  - Select is the editor's to keep; the tools only ask for it.
//  - A left press that no tool wants (the select tool on empty ground) is
//    not captured: the app pans with it. Right and middle drags always pan.
//  - Snapping (geometry.hpp) applies to every point a tool places, and to
//    drags: a vertex snaps to the others and to the grid; an element moves
//    by whole grid steps.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/editor/geometry.hpp"
#include "viz/editor/ops.hpp"

namespace throng::app::edit {

enum class Tool : std::uint8_t {
  Select,           ///< pick, move, drag vertices, insert a vertex (double-click or Ctrl+click an edge)
  Wall,             ///< a polyline: click points, double-click or Enter ends
  ObstacleRect,     ///< drag a rectangle
  ObstacleOutline,  ///< click points, double-click, Enter or a click on the first point closes
  Walker,           ///< click the walker, then its goal
  Group,            ///< drag the region, then click the goal (or drag the goal region)
  Source,           ///< drag the region, then the goal as for a group
  Sink,             ///< drag the region
  Target,           ///< drag the region
  Gate,             ///< drag from one post to the other
  Goal,             ///< click the selected walker's, group's or source's goal
  Discomfort,       ///< drag a discomfort region (a rectangle of one value)
  PaintDiscomfort,  ///< the discomfort brush (Shift or "erase": toward 0)
  PaintHeight,      ///< the height brush
  MeasureLine,      ///< drag from one end of a measurement line to the other
  MeasureArea,      ///< drag a measurement area
  SpeedZone,        ///< drag a speed zone (a rectangle of one factor)
  Stairs,           ///< drag a flight of stairs, uphill as the options say
};
inline constexpr int kToolCount = 18;
std::string_view toolName(Tool t);
/// One line for people: what the tool does and how.
std::string_view toolHelp(Tool t);

/// How walkers made by the Walker, Group and Source tools find their way.
enum class GoalMode : std::uint8_t {
  Point,   ///< a goal point, clicked after the walker or region
  Region,  ///< a goal region, dragged after the region (each walker a hashed point in it)
  Route,   ///< the route named in `route` (its gates, then its goal)
  None,    ///< no goal (stands, or follows a stream or a target)
};

/// The tools' settings (the panel edits them).
struct ToolOptions {
  GoalMode goalMode = GoalMode::Point;
  std::string route;           ///< GoalMode::Route
  int group = 0;               ///< the walkers' group
  double radius = 0;           ///< world units; 0: the scene's agentDefaults
  double maxSpeed = 0;         ///< units/s; 0: the scene's agentDefaults
  bool byCount = true;         ///< a group of `count` walkers, else `density` per square unit
  int count = 20;              ///< [Limit: 1..kMaxSceneAgents]
  double density = 1;          ///< walkers per square unit [Limit: > 0]
  double rate = 1, start = 0, stop = 30;  ///< a source: walkers/s, s, s
  std::int64_t max = -1;       ///< a source's cap; -1: none
  std::string groups;          ///< sinks and targets: "1, 2"; empty: every group
  std::string targetName = "target";
  std::string gateRoute = "route";  ///< the route a gate is added to (made when missing)
  double discomfortValue = 1;  ///< a discomfort region's g: > 0 avoided, < 0 preferred (a crosswalk)
  double speedFactor = 0.5;    ///< a speed zone's factor [Limit: (0, 1]]
  Vec2 stairsUp{0, 1};         ///< a flight's uphill direction (the panel offers the four axes)
  double stairsUpSpeed = 0.61, stairsDownSpeed = 0.694;  ///< a flight's speeds, units/s [Limit: > 0]
  double brushRadius = 1;      ///< world units [Limit: > 0]
  double brushStrength = 0.25; ///< per dab: added at the brush's centre (discomfort units, or world units of height)
  bool erase = false;          ///< the brush takes values back toward 0
  double brushCell = 0.5;      ///< the node spacing of a map the brush makes, world units
};

/// "1, 2 3" -> {1, 2, 3}; words that are no whole number are skipped.
std::vector<int> parseGroups(std::string_view text);

struct PointerEvent {
  enum class Type : std::uint8_t { Press, Move, Release };
  Type type = Type::Move;
  Vec2 world;       ///< the cursor, world units (unsnapped)
  int button = 1;   ///< 1 left, 2 middle, 3 right (SDL's numbers)
  int clicks = 1;   ///< 2 on the second press of a double-click
  bool shift = false, ctrl = false, alt = false;
};

enum class Key : std::uint8_t {
  Enter,      ///< ends a polyline or an outline
  Escape,     ///< cancels what is being drawn, else deselects
  Delete,     ///< removes the selected vertex, else the selected element
  Duplicate,  ///< a copy of the selected element, one grid step right and down
};

struct Action {
  enum class Kind : std::uint8_t { Commit, Begin, Update, End, Cancel, Select };
  Kind kind = Kind::Commit;
  std::optional<Op> op;  ///< Commit and Update
  bool onBase = true;    ///< Update: apply to the document as it was at Begin (else to the current one)
  std::string pointer;   ///< Select: the element ("" none)
  std::string vertex;    ///< Select: the vertex ("" none)
};

/// What a tool needs to know of the document and the view.
struct ToolContext {
  const std::vector<DocShape>* shapes = nullptr;
  std::string selected, selectedVertex;
  float pixel = 1;  ///< world size of a screen pixel
  SnapOptions snap;
};

/// What is being drawn, for the overlay and the status line.
struct Preview {
  std::vector<Vec2> points;         ///< the polyline or outline so far
  bool closed = false;              ///< an outline
  std::optional<Rect> rect;         ///< the region being dragged
  std::optional<Vec2> segmentFrom;  ///< a gate being dragged: from here to the cursor
  std::optional<Vec2> anchor;       ///< a walker waiting for its goal
  std::optional<Rect> anchorRect;   ///< a group or source waiting for its goal
  Vec2 cursor;                      ///< snapped
  Snapped::Kind snapKind = Snapped::Kind::None;
  float brushRadius = 0;            ///< > 0: the brush at the cursor
  std::string prompt;               ///< what to do next, for people
};

class ToolMachine {
 public:
  struct Result {
    std::vector<Action> actions;
    bool captured = false;  ///< the tool took the event (else the app may pan with it)
  };

  Tool tool() const { return tool_; }
  /// Switches tools, dropping what was being drawn (a drag in progress is cancelled).
  Result setTool(Tool t);
  ToolOptions options;

  Result pointer(const PointerEvent& e, const ToolContext& c);
  Result key(Key k, const ToolContext& c);
  /// Drops what is being drawn; a gesture in progress is cancelled.
  Result cancel();
  const Preview& preview() const { return preview_; }
  /// Mid-drawing or mid-drag.
  bool busy() const;

 private:
  enum class Phase : std::uint8_t {
    Idle,
    Points,        ///< a polyline or outline
    DragRect,      ///< a region (obstacle, group, source, sink, target, discomfort; a goal region)
    DragGate,
    AwaitGoal,     ///< a walker or region placed: click the goal (or drag a goal region)
    DragGoalRect,
    DragVertex,    ///< select: a vertex
    DragElement,   ///< select: a whole element
    Paint,
  };
  Snapped place(Vec2 p, const ToolContext& c, std::string_view skip = {}) const;
  DocWalkerProps props() const;
  void finishPoints(Result& r);
  void regionDone(Rect region, Result& r);
  void commitWalkers(const std::optional<Vec2>& goal, const std::optional<Rect>& goalRegion, Result& r);
  Result select(const PointerEvent& e, const ToolContext& c);
  void reset();

  Tool tool_ = Tool::Select;
  Phase phase_ = Phase::Idle;
  Preview preview_;
  Vec2 pressAt_, lastDab_;
  std::optional<Vec2> anchor_;         ///< walker spot
  std::optional<Rect> anchorRect_;     ///< region awaiting its goal
  std::string dragPointer_;            ///< the element or vertex being dragged
  bool dragStarted_ = false;           ///< moved past the threshold: a gesture is open
  bool buttonDown_ = false;
};

}  // namespace throng::app::edit
