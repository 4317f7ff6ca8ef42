// The field overlay's UI (VizApp's "Fields" panel section, the legend and
// the teaching view's numbers at the selected walker's cell). What is drawn
// is render/field_layer.hpp's; this file only picks and labels it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "viz/ui_help.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {
namespace {

std::uint32_t mapColor(render::ColorMap map, float t) {
  return map == render::ColorMap::Diverging ? render::divergingColor(t) : render::sequentialColor(t);
}

// ImGui's colours pack as render's do: R in the lowest byte.
ImU32 imColor(std::uint32_t rgba) { return static_cast<ImU32>(rgba); }

void swatch(std::uint32_t rgba, const char* label) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float s = ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + s, p.y + s), imColor(rgba));
  ImGui::Dummy(ImVec2(s, s));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

}  // namespace

void VizApp::drawFieldPanel() {
  FieldOverlay& o = fieldOverlay_;
  const Crowd& crowd = host_->crowd();
  int layer = static_cast<int>(o.layer);
  if (ImGui::BeginCombo("layer", std::string(render::fieldLayerName(o.layer)).c_str())) {
    for (int k = 0; k < render::kFieldLayerCount; ++k)
      if (ImGui::Selectable(std::string(render::fieldLayerName(static_cast<render::FieldLayer>(k))).c_str(), k == layer))
        o.layer = static_cast<render::FieldLayer>(k);
    ImGui::EndCombo();
  }
  help("A layer of the fields (Continuum Crowds, or routing = field) as a heatmap under the walkers, one square per "
       "field cell: density (walkers per cell), speed and cost (each of a cell's four directions, or their mean), "
       "the potential of one target (its path cost: low near the target), the discomfort and the height. Grey: "
       "inside an obstacle (dark) or no value (light: no path, every face closed). Key L.");
  if (o.layer == render::FieldLayer::Speed || o.layer == render::FieldLayer::Cost) {
    if (ImGui::BeginCombo("direction", std::string(render::fieldDirectionName(o.direction)).c_str())) {
      for (int d = render::kFieldMean; d < 4; ++d)
        if (ImGui::Selectable(std::string(render::fieldDirectionName(d)).c_str(), d == o.direction)) o.direction = d;
      ImGui::EndCombo();
    }
    help("mean: over the directions a walker can take from the cell (finite cost); or the speed and cost toward one "
         "neighbour.");
  }
  if (o.layer == render::FieldLayer::Potential || o.arrows) {
    const auto& targets = crowd.terrain().targets;
    if (targets.empty()) {
      ImGui::TextDisabled("target: the crowd has no targets");
    } else {
      o.target = std::clamp(o.target, 0, static_cast<int>(targets.size()) - 1);
      const auto label = [&](int k) {
        const std::string& n = targets[static_cast<std::size_t>(k)].name;
        return (n.empty() ? "target " + std::to_string(k) : n) + "##" + std::to_string(k);
      };
      if (ImGui::BeginCombo("target", label(o.target).c_str())) {
        for (int k = 0; k < static_cast<int>(targets.size()); ++k)
          if (ImGui::Selectable(label(k).c_str(), k == o.target)) o.target = k;
        ImGui::EndCombo();
      }
      help("Whose potential the potential layer and the arrows show (Crowd::terrain().targets).");
    }
  }
  ImGui::SetNextItemWidth(150);
  ImGui::SliderFloat("opacity", &options_.fieldOpacity, 0.1f, 1.0f, "%.2f");
  ImGui::SameLine();
  ImGui::Checkbox("range in view", &o.rangeInView);
  help("The colours span the values of the cells in view (pan and zoom to compare a part), else those of the whole "
       "grid, which reaches a tile beyond the scene.");
  ImGui::Checkbox("arrows", &o.arrows);
  help("Down the potential (-grad phi, from its finite neighbours) at every k-th cell centre, thinned to at least 14 "
       "pixels apart.");
  if (o.arrows) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120);
    ImGui::SliderInt("every", &o.arrowEvery, 1, 16, "%d cells");
    o.arrowEvery = std::clamp(o.arrowEvery, 1, 64);
  }
  ImGui::SameLine();
  ImGui::Checkbox("hill-shading", &o.shading);
  help("The ground's slopes lit from the north-west (heights exaggerated twice), under any layer; the height layer "
       "is always shaded.");

  const render::FieldLayerImage& im = fieldImage_;
  using R = render::FieldLayerImage::Result;
  if (o.layer == render::FieldLayer::None && !o.arrows && !o.shading) {
    ImGui::TextDisabled("off");
  } else if (im.result == R::NoField) {
    ImGui::TextDisabled("no fields: the continuum model or routing = field builds them, at the next step");
  } else if (im.result == R::NoPotential || (o.arrows && im.potential.empty() && im.cols > 0)) {
    ImGui::TextDisabled("no potential for this target: no walker takes it (or no step yet)");
  }
  if (fieldTooLarge_) ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.2f, 1), "the grid is wider than this GL's textures");
  if (im.cols > 0)
    ImGui::TextDisabled("%d x %d cells of %.3g, refreshed at step %llu", im.cols, im.rows, static_cast<double>(im.cell),
                        static_cast<unsigned long long>(im.refreshStep));
}

// Bottom right of the window (in edit mode, left of the scene panel when
// that stands in the corner): the colour bar with its range and unit, the
// greys, and the value under the cursor.
void VizApp::drawFieldLegend() {
  const render::FieldLayerImage& im = fieldImage_;
  if (im.result != render::FieldLayerImage::Result::Drawn || im.cols == 0) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  float right = vp->WorkPos.x + vp->WorkSize.x - 12;
  const float bottom = vp->WorkPos.y + vp->WorkSize.y - 12;
  constexpr float kLegendWidthPx = 300, kLegendHeightPx = 120;  // about: the bar is 280 wide
  if (const auto it = widgetRects_.find("scene.window"); editing_ && it != widgetRects_.end()) {
    const auto& r = it->second;  // x0, y0, x1, y1
    if (r[0] < right && r[2] > right - kLegendWidthPx && r[1] < bottom && r[3] > bottom - kLegendHeightPx)
      right = r[0] - 12;
  }
  ImGui::SetNextWindowPos(ImVec2(right, bottom), ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##fieldLegend", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  {
    const ImVec2 a = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    widgetRects_["legend.window"] = {a.x, a.y, a.x + size.x, a.y + size.y};
  }
  if (im.layer != render::FieldLayer::None) {
    std::string title(render::fieldLayerName(im.layer));
    if (im.layer == render::FieldLayer::Speed || im.layer == render::FieldLayer::Cost)
      title += im.direction >= 0 ? std::string(", toward the ") + std::string(render::fieldDirectionName(im.direction))
                                 : std::string(", mean of the open directions");
    if (im.layer == render::FieldLayer::Potential) {
      const auto& targets = host_->crowd().terrain().targets;
      const auto t = static_cast<std::size_t>(fieldOverlay_.target);
      if (t < targets.size()) title += " of " + (targets[t].name.empty() ? "target " + std::to_string(t) : targets[t].name);
    }
    const std::string_view unit = render::fieldLayerUnit(im.layer);
    if (!unit.empty()) title += " (" + std::string(unit) + ")";
    ImGui::TextUnformatted(title.c_str());
    const float w = 280, h = 14;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    constexpr int kSegments = 56;
    for (int k = 0; k < kSegments; ++k) {
      const float t0 = static_cast<float>(k) / kSegments, t1 = static_cast<float>(k + 1) / kSegments;
      const ImU32 c0 = imColor(mapColor(im.range.map, t0)), c1 = imColor(mapColor(im.range.map, t1));
      dl->AddRectFilledMultiColor(ImVec2(p.x + w * t0, p.y), ImVec2(p.x + w * t1 + 0.5f, p.y + h), c0, c1, c1, c0);
    }
    ImGui::Dummy(ImVec2(w, h));
    if (im.range.any) {
      const std::string lo = render::formatFieldNumber(im.range.min), hi = render::formatFieldNumber(im.range.max);
      const float x0 = ImGui::GetCursorPosX();
      ImGui::TextUnformatted(lo.c_str());
      if (im.range.map == render::ColorMap::Diverging) {
        ImGui::SameLine(x0 + 0.5f * w - 0.5f * ImGui::CalcTextSize("0").x);
        ImGui::TextUnformatted("0");
      }
      ImGui::SameLine(x0 + w - ImGui::CalcTextSize(hi.c_str()).x);
      ImGui::TextUnformatted(hi.c_str());
    } else {
      ImGui::TextDisabled("no finite value");
    }
    swatch(render::kFieldBlockedColor, "blocked");
    ImGui::SameLine();
    swatch(render::kFieldNoValueColor, im.layer == render::FieldLayer::Potential ? "no path" : "no value (closed)");
  }
  const bool overUi = ImGui::GetIO().WantCaptureMouse;
  const std::string at = overUi ? std::string() : fieldAt(lastMouse_);
  ImGui::TextUnformatted(at.empty() ? "cursor: -" : ("cursor: " + at).c_str());
  ImGui::End();
}

// The selected walker's cell, when it is at least 80 pixels wide on screen:
// its speed and cost each way as text by each face (the arrows are the
// renderer's).
void VizApp::drawFieldCellLabels() {
  if (!teaching_ || selectedIndex() < 0 || explain_.fieldCell < 0 || teachingGrid_.cols <= 0) return;
  const float h = teachingGrid_.cell;
  if (h * camera_.zoom < 80) return;
  const Vec2 c = render::fieldCellCentre(teachingGrid_.origin, h, teachingGrid_.cols, explain_.fieldCell);
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  static constexpr float kDx[4] = {1, 0, -1, 0}, kDy[4] = {0, 1, 0, -1};
  for (int d = 0; d < 4; ++d) {
    std::string text = "f ";
    text += render::formatFieldNumber(explain_.fieldSpeed[d]);
    text += "\nC ";
    text += render::formatFieldNumber(explain_.fieldCost[d]);
    // Inside the cell, a third of the way to the face, beside the arrow.
    const glm::vec2 sp = camera_.worldToScreen({c.x + kDx[d] * 0.32f * h - kDy[d] * 0.2f * h, c.y + kDy[d] * 0.32f * h + kDx[d] * 0.2f * h});
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 at(sp.x / std::max(scale.x, 1e-3f) - 0.5f * size.x, sp.y / std::max(scale.y, 1e-3f) - 0.5f * size.y);
    dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + size.x + 2, at.y + size.y + 1), IM_COL32(255, 255, 255, 190), 3);
    dl->AddText(at, IM_COL32(30, 40, 60, 255), text.c_str());
  }
}

}  // namespace throng::app
