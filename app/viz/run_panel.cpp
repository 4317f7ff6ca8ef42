// The run panel's tuning sections (VizApp): the scene's knobs, the
// settings, and the live plots.
//
// Design note. The panel leads with what people tune: the scene's knobs,
// then the settings the current model and routing read, the ones that
// change what one sees most first (kSeenMost), then the rest of those in
// the table's order; settings nothing reads now wait, dimmed, under "All
// settings". A section's sliders leave a column as wide as its longest
// label, so no label is cut at any panel width the labels fit in; help shows
// on hover. A right click on a knob or a setting resets it to the scene's
// value. Every change marks the plots with the new value.
#include <epoxy/gl.h>

#include <imgui.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "cli/preset.hpp"
#include "throng/diagram.hpp"
#include "viz/ui_help.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {
namespace {

/// The settings that change what one sees most, in the order shown.
constexpr std::string_view kSeenMost[] = {"model",       "timeHorizon", "jitter",   "paceTimeGap",
                                          "paceLength",  "maxAccel",    "maxDecel", "routing"};

int seenRank(std::string_view name) {
  for (std::size_t k = 0; k < std::size(kSeenMost); ++k)
    if (kSeenMost[k] == name) return static_cast<int>(k);
  return static_cast<int>(std::size(kSeenMost));
}

/// Leaves a label column as wide as the widest of `labels` (pixels) beside
/// the next widgets; pair with ImGui::PopItemWidth.
template <class Labels>
void pushLabelColumn(const Labels& labels) {
  float widest = 0;
  for (const auto& l : labels) widest = std::max(widest, ImGui::CalcTextSize(l.c_str()).x);
  ImGui::PushItemWidth(-(widest + ImGui::GetStyle().ItemInnerSpacing.x + 2));
}

std::string shortValue(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

void VizApp::markPanel() {
  // The panel's visible inside, for tests: what a person sees without scrolling.
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  widgetRects_["panel"] = {pos.x, pos.y, pos.x + ImGui::GetWindowContentRegionMax().x, pos.y + size.y};
}

void VizApp::drawKnobs() {
  const auto knobs = host_->knobs();
  if (knobs.empty() || !ImGui::CollapsingHeader("Scene knobs", ImGuiTreeNodeFlags_DefaultOpen)) return;
  std::vector<std::string> labels;
  for (const KnobInfo& k : knobs) labels.push_back(k.name);
  pushLabelColumn(labels);
  for (const KnobInfo& k : knobs) {
    // Geometry and population knobs rebuild from the same seed on release.
    double v = k.value;
    if (k.integer) {
      int iv = static_cast<int>(std::lround(v));
      ImGui::SliderInt(k.name.c_str(), &iv, static_cast<int>(k.min), static_cast<int>(k.max), "%d",
                       k.max / std::max(1.0, k.min) > 100 ? ImGuiSliderFlags_Logarithmic : 0);
      v = iv;
    } else {
      float fv = static_cast<float>(v);
      ImGui::SliderFloat(k.name.c_str(), &fv, static_cast<float>(k.min), static_cast<float>(k.max), "%.3f");
      v = fv;
    }
    const bool done = ImGui::IsItemDeactivatedAfterEdit();
    mark("knob:" + k.name);
    hoverHelp((k.help.empty() ? std::string("right click: the scene's value") : k.help + "\nRight click: the scene's value").c_str());
    if (ImGui::BeginPopupContextItem(("##reset" + k.name).c_str())) {
      if (ImGui::MenuItem(("reset to " + shortValue(k.defaultValue)).c_str())) {
        v = k.defaultValue;
        later([this, name = k.name, v] {
          std::string err;
          if (!setKnob(name, v, &err)) setStatus(err);
        });
      }
      ImGui::EndPopup();
    }
    if (done && v != k.value) {
      later([this, name = k.name, v] {
        std::string err;
        if (!setKnob(name, v, &err)) setStatus(err);
      });
    }
  }
  ImGui::PopItemWidth();
}

void VizApp::drawSettingWidget(const SettingWidget& w, Settings& s, bool dim) {
  const std::string_view name = w.info->name;
  const std::string before = getSettingText(s, name);
  bool released = false;
  if (dim) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  switch (w.kind) {
    case SettingWidget::Kind::Combo: {
      if (ImGui::BeginCombo(w.label.c_str(), before.c_str())) {
        for (const std::string& c : w.choices)
          if (ImGui::Selectable(c.c_str(), c == before) && c != before) {
            std::string why;
            if (!setSettingText(s, name, c, &why)) setStatus(why);
            released = true;
          }
        ImGui::EndCombo();
      }
      break;
    }
    case SettingWidget::Kind::SeedInput: {
      ImU64 seed = s.seed;
      if (ImGui::InputScalar(w.label.c_str(), ImGuiDataType_U64, &seed, nullptr, nullptr, "%llu",
                             ImGuiInputTextFlags_EnterReturnsTrue)) {
        s.seed = seed;
        released = true;
        later([this] { reset(); });
      }
      break;
    }
    case SettingWidget::Kind::Slider: {
      const ImGuiSliderFlags flags = w.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None;
      bool changed = false;
      double v = getSetting(s, name);
      if (w.integer) {
        int iv = static_cast<int>(std::lround(v));
        changed = ImGui::SliderInt(w.label.c_str(), &iv, static_cast<int>(w.min), static_cast<int>(w.max),
                                   w.format.c_str(), flags);
        v = iv;
      } else {
        changed = ImGui::SliderScalar(w.label.c_str(), ImGuiDataType_Double, &v, &w.min, &w.max, w.format.c_str(), flags);
      }
      std::string why;
      if (changed && !setSetting(s, name, v, &why)) setStatus(why);
      released = ImGui::IsItemDeactivatedAfterEdit();
      // The step of a scene run belongs to its spec: on release, the host
      // rebuilds the run with it (a built-in steps with it as is).
      if (name == "maxStep" && released && host_->dt() != s.maxStep) {
        const double step = s.maxStep;
        s.maxStep = host_->dt();
        later([this, step] {
          std::string err;
          if (!setKnob("maxStep", step, &err)) setStatus(err);
        });
      }
      break;
    }
  }
  if (dim) ImGui::PopStyleColor();
  mark("setting:" + std::string(name));
  hoverHelp((w.tooltip + "\nRight click: the scene's value").c_str());
  const std::string sceneValue = getSettingText(sceneSettings_, name);
  if (ImGui::BeginPopupContextItem(("##reset" + std::string(name)).c_str())) {
    if (ImGui::MenuItem(("reset to " + sceneValue).c_str()) && sceneValue != before) {
      std::string why;
      if (name == "seed" || name == "maxStep") {
        if (setSettingText(s, name, sceneValue, &why)) later([this] { reset(); });
      } else if (!setSettingText(s, name, sceneValue, &why)) {
        setStatus(why);
      }
      released = true;
    }
    ImGui::EndPopup();
  }
  if (released && getSettingText(s, name) != before) plots_.mark(std::string(name) + " = " + getSettingText(s, name));
}

void VizApp::drawSettings() {
  if (!ImGui::CollapsingHeader("Settings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // A change goes through setSetting, which refuses a value outside the
  // limits, and takes effect at the next step.
  Settings& s = host_->crowd().settings;
  std::vector<const SettingWidget*> now, rest;
  std::vector<std::string> labels;
  for (const SettingWidget& w : settingWidgets_) {
    (settingReadNow(*w.info, s) ? now : rest).push_back(&w);
    labels.push_back(w.label);
  }
  std::stable_sort(now.begin(), now.end(), [](const SettingWidget* a, const SettingWidget* b) {
    return seenRank(a->info->name) < seenRank(b->info->name);
  });
  pushLabelColumn(labels);
  for (const SettingWidget* w : now) drawSettingWidget(*w, s, false);
  if (!rest.empty()) {
    const std::string title = "All settings (" + std::to_string(rest.size()) + " not read by " + s.model +
                              (s.routing == "field" ? " with field routing" : "") + ")###allSettings";
    if (ImGui::TreeNode(title.c_str())) {
      // Still editable: a setting takes effect once the model or the routing reads it.
      for (const SettingWidget* w : rest) drawSettingWidget(*w, s, true);
      ImGui::TreePop();
    }
  }
  ImGui::PopItemWidth();
  if (ImGui::Button("Save preset")) later([this] { savePreset(presetPath_); });
  hoverHelp("The knobs and the settings changed from the scene's, one NAME=VALUE a line, to the path given (else a "
            "new file here): throng run SCENE --set-file FILE runs with them.");
  ImGui::SameLine();
  if (ImGui::Button("Load")) later([this] { loadPreset(presetPath_); });
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##preset", "preset file", presetPath_, sizeof presetPath_);
}

bool VizApp::savePreset(const std::string& path) {
  std::vector<std::string> lines;
  char buf[64];
  for (const KnobInfo& k : host_->knobs()) {
    // The shortest text that reads back to the same double.
    const auto r = std::to_chars(buf, buf + sizeof buf, k.value);
    lines.push_back(k.name + "=" + std::string(buf, r.ptr));
  }
  const Settings& s = host_->crowd().settings;
  for (const SettingInfo& info : settingsTable()) {
    const std::string now = getSettingText(s, info.name);
    if (now != getSettingText(sceneSettings_, info.name)) lines.push_back(std::string(info.name) + "=" + now);
  }
  std::string why, written;
  const bool ok = writeWhole(path, cli::presetText(lines, "throng preset for " + host_->name()), "preset", &written, &why);
  setStatus(ok ? "preset: " + written : "preset not saved: " + why);
  return ok;
}

bool VizApp::loadPreset(const std::string& path) {
  std::vector<cli::PresetLine> lines;
  std::string why;
  if (path.empty()) why = "give the preset's path first";
  else if (cli::readPreset(path, lines, &why)) {
    for (const cli::PresetLine& l : lines) {
      std::string err;
      if (!host_->assign(l.assignment, &err)) {
        setStatus(l.where + ": " + err);
        afterRebuild(false);
        return false;
      }
      plots_.mark(l.assignment);
    }
    afterRebuild(false);
    setStatus("loaded " + path);
    return true;
  }
  setStatus("preset not loaded: " + why);
  return false;
}


namespace {

constexpr ImU32 kPlotColours[] = {IM_COL32(90, 170, 255, 255), IM_COL32(255, 170, 60, 255), IM_COL32(120, 220, 120, 255),
                                  IM_COL32(230, 100, 230, 255), IM_COL32(240, 230, 90, 255)};
constexpr double kPlotSpan = 120;  ///< s of the plots' clock shown, the newest at the right

/// One plot: `lines` against `t` over the last kPlotSpan s, 0 at the bottom,
/// the marks as labelled verticals; hovering reads the values off. Returns
/// the plot's box (x0, y0, x1, y1, pixels).
std::array<float, 4> plotLines(const char* id, const char* title, const std::vector<double>& t,
               const std::vector<const PlotLine*>& lines, const std::vector<PlotMark>& marks, float height) {
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::TextWrapped("%s", title);
  const ImVec2 a = ImGui::GetCursorScreenPos(), b{a.x + width, a.y + height};
  const std::array<float, 4> box{a.x, a.y, b.x, b.y};
  ImGui::InvisibleButton(id, ImVec2(std::max(width, 1.0f), height));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(a, b, IM_COL32(20, 22, 28, 255));
  dl->AddRect(a, b, IM_COL32(90, 90, 100, 255));
  if (t.empty()) return box;
  const double t1 = t.back(), t0 = std::max(t.front(), t1 - kPlotSpan);
  const std::size_t first = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), t0) - t.begin());
  float top = 0;
  for (const PlotLine* l : lines)
    for (std::size_t i = first; i < l->y.size(); ++i)
      if (std::isfinite(l->y[i])) top = std::max(top, l->y[i]);
  top = top > 0 ? top * 1.1f : 1.0f;
  const double span = std::max(t1 - t0, 1e-6);
  auto X = [&](double x) { return a.x + static_cast<float>((x - t0) / span) * width; };
  auto Y = [&](float y) { return b.y - y / top * height; };
  for (const PlotMark& m : marks) {
    if (m.t < t0) continue;
    const float x = X(m.t);
    dl->AddLine({x, a.y}, {x, b.y}, IM_COL32(200, 200, 200, 140));
    dl->AddText({x + 3, a.y + 2}, IM_COL32(220, 220, 220, 220), m.text.c_str());
  }
  // At most one point a pixel column: the last sample in it.
  for (std::size_t k = 0; k < lines.size(); ++k) {
    std::vector<ImVec2> pts;
    float column = -1e9f;  ///< where the last point's column began
    for (std::size_t i = first; i < t.size() && i < lines[k]->y.size(); ++i) {
      const float y = lines[k]->y[i];
      if (!std::isfinite(y)) {
        if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), kPlotColours[k % 5], 0, 1.5f);
        pts.clear();
        continue;
      }
      const ImVec2 p{X(t[i]), Y(y)};
      if (!pts.empty() && p.x - column < 1) {
        pts.back() = p;
      } else {
        pts.push_back(p);
        column = p.x;
      }
    }
    if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), kPlotColours[k % 5], 0, 1.5f);
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", top);
  dl->AddText({a.x + 3, a.y + 2}, IM_COL32(160, 160, 170, 255), buf);
  if (ImGui::IsItemHovered()) {
    const double at = t0 + (ImGui::GetIO().MousePos.x - a.x) / width * span;
    const std::size_t i = std::min(t.size() - 1, static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), at) - t.begin()));
    ImGui::BeginTooltip();
    ImGui::Text("t = %.1f s", t[i]);
    for (const PlotLine* l : lines)
      if (i < l->y.size()) ImGui::Text("%s  %.3f", l->name.c_str(), l->y[i]);
    ImGui::EndTooltip();
  }
  // The legend, in the lines' colours.
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k > 0) ImGui::SameLine();
    const ImU32 c = kPlotColours[k % 5];
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c), "%s", lines[k]->name.c_str());
  }
  return box;
}

/// The areas' speed against their density (the last kPlotSpan s, a dot a
/// sample) over Weidmann's curve, per m² and m/s.
void plotDiagram(const PlotHistory& h, float height) {
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::TextWrapped("the areas' speed against their density, m/s and per m², over Weidmann's curve");
  const ImVec2 a = ImGui::GetCursorScreenPos(), b{a.x + width, a.y + height};
  ImGui::InvisibleButton("##diagram", ImVec2(std::max(width, 1.0f), height));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(a, b, IM_COL32(20, 22, 28, 255));
  dl->AddRect(a, b, IM_COL32(90, 90, 100, 255));
  constexpr float kRho = 6, kSpeed = 1.6f;  // axes: per m², m/s
  auto P = [&](double rho, double v) {
    return ImVec2(a.x + static_cast<float>(rho / kRho) * width, b.y - static_cast<float>(v / kSpeed) * height);
  };
  std::vector<ImVec2> curve;
  for (int k = 1; k <= 60; ++k) curve.push_back(P(0.1 * k, weidmannSpeed(0.1 * k)));
  dl->AddPolyline(curve.data(), static_cast<int>(curve.size()), IM_COL32(200, 200, 200, 200), 0, 1.5f);
  const std::vector<double>& t = h.time();
  if (t.empty()) return;
  const double t0 = t.back() - kPlotSpan;
  for (std::size_t k = 0; k < h.densities().size(); ++k)
    for (std::size_t i = 0; i < t.size(); ++i) {
      const float rho = h.densities()[k].y[i], v = h.areaSpeeds()[k].y[i];
      if (t[i] < t0 || !std::isfinite(rho) || !(rho > 0)) continue;
      dl->AddCircleFilled(P(std::min<double>(rho, kRho), std::min<double>(v, kSpeed)), 1.5f, kPlotColours[k % 5]);
    }
  dl->AddText({a.x + 3, a.y + 2}, IM_COL32(160, 160, 170, 255), "1.6 m/s");
  dl->AddText({b.x - 52, b.y - 16}, IM_COL32(160, 160, 170, 255), "6 /m2");
}

}  // namespace

void VizApp::drawPlots() {
  if (!ImGui::CollapsingHeader("Plots", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const PlotHistory& h = plots_;
  const std::vector<PlotMark>& marks = h.marks();
  // Side by side: each plot shows the right run's lines too, named "B ...".
  const PlotHistory* b = twin_ && twinPlots_.time().size() == h.time().size() ? &twinPlots_ : nullptr;
  std::vector<PlotLine> named;  // the right run's lines under their "B" names (reserved: pointers stay)
  named.reserve(b ? 3 + 3 * b->flows().size() + 2 * b->densities().size() : 0);
  const auto both = [&](std::vector<const PlotLine*> mine, const std::vector<const PlotLine*>& theirs) {
    if (!b) return mine;
    for (const PlotLine* l : theirs) {
      named.push_back(PlotLine{"B " + l->name, l->y});
      mine.push_back(&named.back());
    }
    return mine;
  };
  const auto all = [](const std::vector<PlotLine>& lines) {
    std::vector<const PlotLine*> out;
    for (const PlotLine& l : lines) out.push_back(&l);
    return out;
  };
  const ImVec2 top = ImGui::GetCursorScreenPos();
  if (!h.flows().empty()) {
    widgetRects_["plot:flow"] = plotLines("##flow", "flow through each line, per s (last 5 s)", h.time(),
                                          both(all(h.flows()), b ? all(b->flows()) : std::vector<const PlotLine*>{}),
                                          marks, 70);
  }
  plotLines("##out", "walkers out (through a sink or on their goal)", h.time(),
            both({&h.out()}, b ? std::vector<const PlotLine*>{&b->out()} : std::vector<const PlotLine*>{}), marks, 50);
  plotLines("##speed", "mean speed, units/s", h.time(),
            both({&h.meanSpeed()}, b ? std::vector<const PlotLine*>{&b->meanSpeed()} : std::vector<const PlotLine*>{}),
            marks, 50);
  plotLines("##jammed", "jammed walkers", h.time(),
            both({&h.jammed()}, b ? std::vector<const PlotLine*>{&b->jammed()} : std::vector<const PlotLine*>{}), marks, 40);
  if (!h.densities().empty()) {
    std::vector<const PlotLine*> d = both(all(h.densities()), b ? all(b->densities()) : std::vector<const PlotLine*>{});
    std::vector<const PlotLine*> v = both(all(h.areaSpeeds()), b ? all(b->areaSpeeds()) : std::vector<const PlotLine*>{});
    plotLines("##density", "density in each area, per square unit", h.time(), d, marks, 50);
    plotLines("##areaSpeed", "speed in each area, units/s", h.time(), v, marks, 50);
    // Weidmann's curve is in metres: drawn for scenes whose walkers are
    // people-sized in metres (radius under a metre).
    if (maxRadius_ > 0 && maxRadius_ < 1) plotDiagram(h, 110);
  }
  // The plots as drawn, for Save PNG: from the first plot's title to the last plot.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  widgetRects_["plots"] = {top.x, top.y, right, ImGui::GetCursorScreenPos().y};
  if (ImGui::Button("Save CSV")) savePlotsCsv();
  hoverHelp("Every plot's samples, one row a step, into a new file beside the screenshots.");
  ImGui::SameLine();
  if (ImGui::Button("Save PNG")) savePlotsPng();
  hoverHelp("The plots as they are drawn here, as an image, into a new file beside the screenshots.");
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    plots_.clear();
    twinPlots_.clear();
  }
}

void VizApp::drawVelocityInset() {
  insetLabels_.clear();
  const std::ptrdiff_t sel = selectedIndex();
  if (!teaching_ || !velocityInset || sel < 0) return;
  const TeachingView& view = explain_.teaching;
  bool any = false;
  for (const TeachShape& sh : view.shapes) any |= sh.frame == TeachFrame::Velocity;
  if (!any) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  constexpr float kSide = 300;
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - kSide - 30, vp->WorkPos.y + 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kSide + 16, kSide + 60), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("velocity space")) {
    ImGui::End();
    return;
  }
  const float side = std::max(40.0f, std::min(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y - 20));
  const ImVec2 a = ImGui::GetCursorScreenPos(), b{a.x + side, a.y + side};
  ImGui::InvisibleButton("##plane", ImVec2(side, side));
  widgetRects_["inset"] = {a.x, a.y, b.x, b.y};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(a, b, true);
  const std::uint32_t bg = options_.background;
  dl->AddRectFilled(a, b, bg);
  // The plane spans 1.6 top speeds each way (as ORCA's view draws its lines).
  const float vmax = std::max(host_->crowd().agent(static_cast<std::size_t>(sel)).maxSpeed, 1e-6f);
  const float scale = 0.5f * side / (1.6f * vmax);  // pixels per unit/s
  const ImVec2 c{0.5f * (a.x + b.x), 0.5f * (a.y + b.y)};
  auto screen = [&](float x, float y) { return ImVec2(c.x + x * scale, c.y - y * scale); };
  dl->AddLine(screen(-1.6f * vmax, 0), screen(1.6f * vmax, 0), IM_COL32(0, 0, 0, 40));
  dl->AddLine(screen(0, -1.6f * vmax), screen(0, 1.6f * vmax), IM_COL32(0, 0, 0, 40));
  render::Mesh mesh;
  render::buildTeachingMesh(view, {0, 0}, 1, 1 / scale, mesh, render::TeachLayer::Velocity);
  const int n = static_cast<int>(mesh.tris.size());
  if (n > 0) {
    // render's packed colours are ImGui's (R in the lowest byte).
    dl->PrimReserve(n, n);
    const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
    for (int k = 0; k < n; ++k) {
      const render::Vertex& v = mesh.tris[static_cast<std::size_t>(k)];
      dl->PrimWriteVtx(screen(v.x, v.y), uv, v.rgba);
      dl->PrimWriteIdx(static_cast<ImDrawIdx>(dl->_VtxCurrentIdx - 1));
    }
  }
  // Hovering a neighbour's line picks that neighbour out in the world view
  // (the line nearest the cursor, within 5 pixels).
  hoveredWalker_ = -1;
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    float best = 5;
    for (const TeachShape& sh : view.shapes) {
      if (sh.frame != TeachFrame::Velocity || sh.kind != TeachKind::Path || sh.walker < 0 || sh.points.size() < 2) continue;
      const ImVec2 p0 = screen(sh.points[0].x, sh.points[0].y), p1 = screen(sh.points[1].x, sh.points[1].y);
      const Vec2 d{p1.x - p0.x, p1.y - p0.y}, r{m.x - p0.x, m.y - p0.y};
      const float t = std::clamp(dot(r, d) / std::max(d.lengthSquared(), 1e-6f), 0.0f, 1.0f);
      const float dist = (r - d * t).length();
      if (dist < best) {
        best = dist;
        hoveredWalker_ = sh.walker;
      }
    }
  }
  for (const TeachShape& sh : view.shapes) {
    if (sh.frame != TeachFrame::Velocity || sh.label.empty()) continue;
    const Vec2 at = render::teachLabelAnchor(sh);
    const ImVec2 p = screen(at.x, at.y);
    const ImVec2 size = ImGui::CalcTextSize(sh.label.c_str());
    const ImVec2 q{std::clamp(p.x + 3, a.x + 2, b.x - size.x - 2), std::clamp(p.y - size.y - 1, a.y + 2, b.y - size.y - 2)};
    std::uint32_t colour = render::teachColour(sh.role) | 0xFF000000u;
    dl->AddRectFilled(ImVec2(q.x - 1, q.y), ImVec2(q.x + size.x + 1, q.y + size.y), (bg & 0x00FFFFFFu) | 0xC0000000u);
    dl->AddText(q, colour, sh.label.c_str());
    insetLabels_.push_back(sh.label);
  }
  dl->PopClipRect();
  ImGui::TextDisabled("velocities, units/s; centre: standing");
  ImGui::End();
}

void VizApp::savePlotsPng(const std::string& path) {
  plotPng_ = path;
  plotPngPending_ = true;
}

void VizApp::writePlotsPng() {
  plotPngPending_ = false;
  const auto r = widgetRect("plots");
  const ImGuiIO& io = ImGui::GetIO();
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const int fbH = static_cast<int>(io.DisplaySize.y * sy);
  if (!r || (*r)[3] - (*r)[1] < 2) {
    setStatus("plots not saved: open the Plots section first");
    return;
  }
  // ImGui's points to the window's pixels, clipped to the window; GL rows
  // count from the bottom.
  const int x0 = std::max(0, static_cast<int>((*r)[0] * sx)), x1 = std::min(static_cast<int>(io.DisplaySize.x * sx),
                                                                            static_cast<int>((*r)[2] * sx));
  const int y0 = std::max(0, static_cast<int>((*r)[1] * sy)), y1 = std::min(fbH, static_cast<int>((*r)[3] * sy));
  const int w = x1 - x0, h = y1 - y0;
  if (w < 2 || h < 2) {
    setStatus("plots not saved: they are off the window");
    return;
  }
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4), rows(px.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x0, fbH - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y) std::copy_n(px.data() + row * static_cast<std::size_t>(h - 1 - y), row, rows.data() + row * y);
  const std::string png = render::encodePng(w, h, rows);
  std::string why = "cannot encode the plots as PNG", written;
  const bool ok = !png.empty() && writeWhole(plotPng_, png, "png", &written, &why);
  setStatus(ok ? "plots: " + written : "plots not saved: " + why);
}

bool VizApp::savePlotsCsv(const std::string& path) {
  std::string why, written;
  const bool ok = writeWhole(path, plots_.csv(), "csv", &written, &why);
  setStatus(ok ? "plots: " + written : "plots not saved: " + why);
  return ok;
}

}  // namespace throng::app
