#include "viz/editor/tools.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace throng::app::edit {

std::string_view toolName(Tool t) {
  switch (t) {
    case Tool::Select: return "select";
    case Tool::Wall: return "wall";
    case Tool::ObstacleRect: return "obstacle rect";
    case Tool::ObstacleOutline: return "obstacle outline";
    case Tool::Walker: return "walker";
    case Tool::Group: return "group";
    case Tool::Source: return "source";
    case Tool::Sink: return "sink";
    case Tool::Target: return "target";
    case Tool::Gate: return "route gate";
    case Tool::Goal: return "goal";
    case Tool::Discomfort: return "discomfort region";
    case Tool::PaintDiscomfort: return "discomfort brush";
    case Tool::PaintHeight: return "height brush";
    case Tool::MeasureLine: return "measurement line";
    case Tool::MeasureArea: return "measurement area";
    case Tool::SpeedZone: return "speed zone";
    case Tool::Stairs: return "stairs";
  }
  return "?";
}

std::string_view toolHelp(Tool t) {
  switch (t) {
    case Tool::Select:
      return "Click to select; drag to move it, or drag a vertex of the selected element. Double-click (or Ctrl+click) "
             "an edge to insert a vertex. Delete removes the vertex or the element, Ctrl+D duplicates. Drag empty "
             "ground to pan.";
    case Tool::Wall: return "Click the wall's points; double-click or Enter ends it, Esc drops it.";
    case Tool::ObstacleRect: return "Drag a rectangle.";
    case Tool::ObstacleOutline:
      return "Click the outline's points; double-click, Enter or a click on the first point closes it.";
    case Tool::Walker: return "Click where the walker stands, then its goal (with the goal mode \"point\").";
    case Tool::Group:
      return "Drag the region the group fills, then click its goal (or drag its goal region), as the goal mode says.";
    case Tool::Source: return "Drag the region walkers appear in, then click their goal (or drag a goal region).";
    case Tool::Sink: return "Drag the region that removes walkers whose centre enters it.";
    case Tool::Target: return "Drag a goal region the fields are solved for (continuum, routing = field).";
    case Tool::Gate: return "Drag from one post of the gate to the other; it joins the route named below.";
    case Tool::Goal: return "Click the goal of the selected walker, group or source.";
    case Tool::Discomfort:
      return "Drag a region of one discomfort (continuum, routing = field): above 0 walkers avoid it, below 0 they "
             "prefer it, as a crosswalk.";
    case Tool::PaintDiscomfort:
      return "Paint discomfort (continuum, routing = field): walkers avoid it. Shift or \"erase\" takes it back to 0.";
    case Tool::PaintHeight: return "Paint the ground's height (slopes slow walkers). Shift or \"erase\" takes it back to 0.";
    case Tool::MeasureLine:
      return "Drag from one end of a measurement line to the other: it counts crossings, forward to the right of "
             "the way you dragged (the tick shows it).";
    case Tool::MeasureArea: return "Drag a measurement area: it counts the walkers in it, their density and speed.";
    case Tool::SpeedZone: return "Drag a speed zone: walkers inside walk at its factor of the speed they wish for.";
    case Tool::Stairs:
      return "Drag a flight of stairs: walkers heading uphill (the direction below) walk at most its up speed, "
             "others at most its down speed.";
  }
  return "";
}

std::vector<int> parseGroups(std::string_view text) {
  std::vector<int> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t') ++j;
    if (j > i) {
      int v = 0;
      const auto r = std::from_chars(text.data() + i, text.data() + j, v);
      if (r.ec == std::errc() && r.ptr == text.data() + j) out.push_back(v);
    }
    i = j;
  }
  return out;
}

namespace {

constexpr float kDragThresholdPx = 3;

Action commit(Op op) {
  Action a;
  a.kind = Action::Kind::Commit;
  a.op = std::move(op);
  return a;
}

Action simple(Action::Kind k) {
  Action a;
  a.kind = k;
  return a;
}

Action update(Op op, bool onBase) {
  Action a;
  a.kind = Action::Kind::Update;
  a.op = std::move(op);
  a.onBase = onBase;
  return a;
}

Action selectAction(std::string pointer, std::string vertex = {}) {
  Action a;
  a.kind = Action::Kind::Select;
  a.pointer = std::move(pointer);
  a.vertex = std::move(vertex);
  return a;
}

bool isRegionTool(Tool t) {
  return t == Tool::ObstacleRect || t == Tool::Sink || t == Tool::Target || t == Tool::Discomfort || t == Tool::Group ||
         t == Tool::Source || t == Tool::MeasureArea || t == Tool::SpeedZone || t == Tool::Stairs;
}

const std::vector<DocShape>& shapesOf(const ToolContext& c) {
  static const std::vector<DocShape> none;
  return c.shapes ? *c.shapes : none;
}

}  // namespace

bool ToolMachine::busy() const { return phase_ != Phase::Idle; }

void ToolMachine::reset() {
  phase_ = Phase::Idle;
  const Vec2 cursor = preview_.cursor;
  const Snapped::Kind kind = preview_.snapKind;
  preview_ = Preview{};
  preview_.cursor = cursor;
  preview_.snapKind = kind;
  anchor_.reset();
  anchorRect_.reset();
  dragPointer_.clear();
  dragStarted_ = false;
}

ToolMachine::Result ToolMachine::cancel() {
  Result r;
  if (dragStarted_ || phase_ == Phase::Paint) r.actions.push_back(simple(Action::Kind::Cancel));
  reset();
  return r;
}

ToolMachine::Result ToolMachine::setTool(Tool t) {
  Result r = cancel();
  tool_ = t;
  return r;
}

Snapped ToolMachine::place(Vec2 p, const ToolContext& c, std::string_view skip) const {
  return snap(p, shapesOf(c), c.pixel, c.snap, skip, preview_.points);
}

DocWalkerProps ToolMachine::props() const {
  DocWalkerProps p;
  p.group = options.group;
  if (options.radius > 0) p.radius = options.radius;
  if (options.maxSpeed > 0) p.maxSpeed = options.maxSpeed;
  if (options.goalMode == GoalMode::Route) p.route = options.route;
  return p;
}

void ToolMachine::finishPoints(Result& r) {
  std::vector<Vec2> pts = preview_.points;
  if (tool_ == Tool::ObstacleOutline && pts.size() >= 2 && pts.front() == pts.back()) pts.pop_back();
  if (tool_ == Tool::Wall && pts.size() >= 2) r.actions.push_back(commit(OpAddWall{pts}));
  if (tool_ == Tool::ObstacleOutline && pts.size() >= 3) r.actions.push_back(commit(OpAddObstacleOutline{pts}));
  reset();
}

void ToolMachine::commitWalkers(const std::optional<Vec2>& goal, const std::optional<Rect>& goalRegion, Result& r) {
  DocWalkerProps p = props();
  p.goal = goal;
  p.goalRegion = goalRegion;
  if (tool_ == Tool::Walker && anchor_) r.actions.push_back(commit(OpAddAgent{*anchor_, p}));
  if (tool_ == Tool::Group && anchorRect_)
    r.actions.push_back(commit(OpAddGroup{*anchorRect_, options.density, options.byCount ? options.count : 0, p}));
  if (tool_ == Tool::Source && anchorRect_)
    r.actions.push_back(commit(OpAddSource{*anchorRect_, options.rate, options.start, options.stop, options.max, p}));
  reset();
}

void ToolMachine::regionDone(Rect region, Result& r) {
  switch (tool_) {
    case Tool::ObstacleRect: r.actions.push_back(commit(OpAddObstacleRect{region})); break;
    case Tool::Sink: r.actions.push_back(commit(OpAddSink{region, parseGroups(options.groups)})); break;
    case Tool::Target:
      r.actions.push_back(commit(OpAddTarget{options.targetName, region, parseGroups(options.groups)}));
      break;
    case Tool::Discomfort: r.actions.push_back(commit(OpAddDiscomfort{region, options.discomfortValue})); break;
    case Tool::MeasureArea: r.actions.push_back(commit(OpAddMeasureArea{region})); break;
    case Tool::SpeedZone: r.actions.push_back(commit(OpAddSpeedZone{region, options.speedFactor})); break;
    case Tool::Stairs:
      r.actions.push_back(
          commit(OpAddStairs{region, options.stairsUp, options.stairsUpSpeed, options.stairsDownSpeed}));
      break;
    case Tool::Group:
    case Tool::Source:
      anchorRect_ = region;
      if (options.goalMode == GoalMode::Point || options.goalMode == GoalMode::Region) {
        phase_ = Phase::AwaitGoal;
        preview_.rect.reset();
        preview_.anchorRect = region;
        preview_.prompt = options.goalMode == GoalMode::Point ? "click the goal (Esc drops the region)"
                                                              : "drag the goal region (Esc drops the region)";
        return;
      }
      commitWalkers(std::nullopt, std::nullopt, r);
      return;
    default: break;
  }
  reset();
}

ToolMachine::Result ToolMachine::select(const PointerEvent& e, const ToolContext& c) {
  Result r;
  const std::vector<DocShape>& shapes = shapesOf(c);
  if (e.type == PointerEvent::Type::Press) {
    const Hit h = hitTest(shapes, e.world, c.pixel, HitOptions{7, c.selected});
    if (h.part == Hit::Part::None) {
      r.actions.push_back(selectAction({}));
      return r;  // not captured: the app pans
    }
    r.captured = true;
    const DocShape& s = shapes[static_cast<std::size_t>(h.shape)];
    const std::size_t v = static_cast<std::size_t>(std::max(h.vertex, 0));
    const bool hasVertex = h.vertex >= 0 && v < s.vertexPointers.size() && !s.vertexPointers[v].empty();
    pressAt_ = e.world;
    dragStarted_ = false;
    if (h.part == Hit::Part::Edge && (e.clicks >= 2 || e.ctrl) && hasVertex &&
        (s.kind == DocShapeKind::wall || s.kind == DocShapeKind::obstacle)) {
      const std::size_t before = v + 1;
      r.actions.push_back(commit(OpInsertVertex{s.pointer, before, h.at}));
      r.actions.push_back(
          selectAction(s.pointer, std::string(parentPointer(s.vertexPointers[v])) + "/" + std::to_string(before)));
      phase_ = Phase::Idle;
      return r;
    }
    if (h.part == Hit::Part::Vertex || (h.part == Hit::Part::Body && s.points.size() == 1 && hasVertex)) {
      r.actions.push_back(selectAction(s.pointer, h.part == Hit::Part::Vertex ? s.vertexPointers[v] : std::string{}));
      phase_ = Phase::DragVertex;
      dragPointer_ = s.vertexPointers[v];
      return r;
    }
    r.actions.push_back(selectAction(s.pointer));
    phase_ = Phase::DragElement;
    dragPointer_ = s.pointer;
    return r;
  }
  if (e.type == PointerEvent::Type::Move && (phase_ == Phase::DragVertex || phase_ == Phase::DragElement)) {
    r.captured = true;
    if (!dragStarted_) {
      if ((e.world - pressAt_).length() <= kDragThresholdPx * c.pixel) return r;
      dragStarted_ = true;
      r.actions.push_back(simple(Action::Kind::Begin));
    }
    if (phase_ == Phase::DragVertex) {
      r.actions.push_back(update(OpMovePoint{dragPointer_, place(e.world, c, dragPointer_).at}, true));
    } else {
      const Vec2 by = snapToGrid(e.world, c.snap) - snapToGrid(pressAt_, c.snap);
      r.actions.push_back(update(OpMoveElement{dragPointer_, by}, true));
    }
    return r;
  }
  if (e.type == PointerEvent::Type::Release && (phase_ == Phase::DragVertex || phase_ == Phase::DragElement)) {
    r.captured = true;
    if (dragStarted_) r.actions.push_back(simple(Action::Kind::End));
    dragStarted_ = false;
    reset();
  }
  return r;
}

ToolMachine::Result ToolMachine::pointer(const PointerEvent& e, const ToolContext& c) {
  Result r;
  const bool paint = tool_ == Tool::PaintDiscomfort || tool_ == Tool::PaintHeight;
  {
    const Snapped s = paint ? Snapped{e.world, Snapped::Kind::None}
                            : tool_ == Tool::Select && phase_ != Phase::DragVertex
                                ? Snapped{snapToGrid(e.world, c.snap), c.snap.grid ? Snapped::Kind::Grid : Snapped::Kind::None}
                                : place(e.world, c, phase_ == Phase::DragVertex ? std::string_view(dragPointer_) : std::string_view{});
    preview_.cursor = s.at;
    preview_.snapKind = s.kind;
    preview_.brushRadius = paint ? static_cast<float>(options.brushRadius) : 0.0f;
  }
  if (e.button != 1 && e.type != PointerEvent::Type::Move) return r;  // right and middle: the app's (pan)
  if (e.type == PointerEvent::Type::Press) buttonDown_ = true;
  if (e.type == PointerEvent::Type::Release) buttonDown_ = false;

  if (tool_ == Tool::Select) return select(e, c);
  const Vec2 at = preview_.cursor;

  if (paint) {
    const OpPaint dab{tool_ == Tool::PaintHeight, e.world, options.brushRadius, options.brushStrength, options.brushCell,
                      options.erase || e.shift};
    if (e.type == PointerEvent::Type::Press) {
      r.captured = true;
      phase_ = Phase::Paint;
      lastDab_ = e.world;
      r.actions.push_back(simple(Action::Kind::Begin));
      r.actions.push_back(update(dab, false));
    } else if (e.type == PointerEvent::Type::Move && phase_ == Phase::Paint) {
      r.captured = true;
      if ((e.world - lastDab_).length() >= 0.25f * static_cast<float>(options.brushRadius)) {
        lastDab_ = e.world;
        r.actions.push_back(update(dab, false));
      }
    } else if (e.type == PointerEvent::Type::Release && phase_ == Phase::Paint) {
      r.captured = true;
      r.actions.push_back(simple(Action::Kind::End));
      phase_ = Phase::Idle;
    }
    return r;
  }

  if (tool_ == Tool::Wall || tool_ == Tool::ObstacleOutline) {
    if (e.type == PointerEvent::Type::Press) {
      r.captured = true;
      std::vector<Vec2>& pts = preview_.points;
      if (phase_ == Phase::Points && e.clicks >= 2) {
        if (pts.empty() || !(pts.back() == at)) pts.push_back(at);
        finishPoints(r);
        return r;
      }
      if (tool_ == Tool::ObstacleOutline && pts.size() >= 3 && at == pts.front()) {
        finishPoints(r);
        return r;
      }
      if (pts.empty() || !(pts.back() == at)) pts.push_back(at);
      phase_ = Phase::Points;
      preview_.closed = tool_ == Tool::ObstacleOutline;
      preview_.prompt = tool_ == Tool::Wall ? "click the next point; double-click or Enter ends the wall"
                                            : "click the next point; double-click, Enter or the first point closes it";
    }
    if (phase_ == Phase::Points) r.captured = true;
    return r;
  }

  if (tool_ == Tool::Gate || tool_ == Tool::MeasureLine) {
    if (e.type == PointerEvent::Type::Press) {
      r.captured = true;
      phase_ = Phase::DragGate;
      pressAt_ = at;
      preview_.segmentFrom = at;
    } else if (phase_ == Phase::DragGate) {
      r.captured = true;
      if (e.type == PointerEvent::Type::Release) {
        if ((at - pressAt_).length() > 0) {
          if (tool_ == Tool::Gate) r.actions.push_back(commit(OpAddGate{options.gateRoute, pressAt_, at}));
          else r.actions.push_back(commit(OpAddMeasureLine{pressAt_, at}));
        }
        reset();
      }
    }
    return r;
  }

  if (tool_ == Tool::Goal) {
    if (e.type == PointerEvent::Type::Press) {
      r.captured = true;
      if (!c.selected.empty()) r.actions.push_back(commit(OpSetGoal{c.selected, at}));
      else preview_.prompt = "select a walker, a group or a source first";
    }
    return r;
  }

  // The walker tool and the region tools.
  if (e.type == PointerEvent::Type::Press) {
    r.captured = true;
    if (phase_ == Phase::AwaitGoal) {
      if (options.goalMode == GoalMode::Region) {
        phase_ = Phase::DragGoalRect;
        pressAt_ = at;
        preview_.rect = Rect{at.x, at.y, 0, 0};
      } else {
        commitWalkers(at, std::nullopt, r);
      }
      return r;
    }
    if (tool_ == Tool::Walker) {
      anchor_ = at;
      if (options.goalMode == GoalMode::Point || options.goalMode == GoalMode::Region) {
        phase_ = Phase::AwaitGoal;
        preview_.anchor = at;
        preview_.prompt = options.goalMode == GoalMode::Point ? "click the walker's goal (Esc drops it)"
                                                              : "drag the walker's goal region (Esc drops it)";
      } else {
        commitWalkers(std::nullopt, std::nullopt, r);
      }
      return r;
    }
    if (isRegionTool(tool_)) {
      phase_ = Phase::DragRect;
      pressAt_ = at;
      preview_.rect = Rect{at.x, at.y, 0, 0};
    }
    return r;
  }
  if (phase_ == Phase::DragRect || phase_ == Phase::DragGoalRect) {
    r.captured = true;
    const Rect region = rectBetween(pressAt_, at);
    preview_.rect = region;
    if (e.type == PointerEvent::Type::Release) {
      const bool empty = !(region.width > 0 && region.height > 0);
      if (phase_ == Phase::DragRect) {
        if (empty) reset();
        else regionDone(region, r);
      } else if (empty) {
        phase_ = Phase::AwaitGoal;  // a click, not a drag: still waiting for the region
        preview_.rect.reset();
      } else {
        commitWalkers(std::nullopt, region, r);
      }
    }
  }
  if (phase_ == Phase::AwaitGoal) r.captured = true;
  return r;
}

ToolMachine::Result ToolMachine::key(Key k, const ToolContext& c) {
  Result r;
  switch (k) {
    case Key::Enter:
      if (phase_ == Phase::Points) {
        r.captured = true;
        finishPoints(r);
      }
      break;
    case Key::Escape:
      r.captured = true;
      if (busy()) return cancel();
      r.actions.push_back(selectAction({}));
      break;
    case Key::Delete:
      if (busy()) break;
      r.captured = true;
      if (!c.selectedVertex.empty()) {
        r.actions.push_back(commit(OpRemoveVertex{c.selectedVertex}));
        r.actions.push_back(selectAction(c.selected));
      } else if (!c.selected.empty()) {
        r.actions.push_back(commit(OpRemoveElement{c.selected}));
        r.actions.push_back(selectAction({}));
      }
      break;
    case Key::Duplicate:
      if (busy() || c.selected.empty()) break;
      r.captured = true;
      {
        const float step = c.snap.grid && c.snap.step > 0 ? c.snap.step : 1.0f;
        r.actions.push_back(commit(OpDuplicate{c.selected, Vec2{step, -step}}));
      }
      break;
  }
  return r;
}

}  // namespace throng::app::edit
