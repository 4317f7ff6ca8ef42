// The run panel's other sections (VizApp), one function each, in the order
// drawUi lays them out: the recording indicator, the scene, the transport,
// then, after the tuning sections (run_panel.cpp), View, Stats, the
// selected walker, Side by side, Capture and Keys.
#include <epoxy/gl.h>  // before SDL's and ImGui's GL headers

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "viz/ui_help.hpp"
#include "viz/viz_app.hpp"

namespace throng::app {

using Clock = std::chrono::steady_clock;

/// The recording indicator, top right: it shows even with the UI hidden, and is
/// never in the footage.
void VizApp::drawRecordingIndicator() {
  if (!recorder_.active()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 12, vp->WorkPos.y + 12), ImGuiCond_Always, ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("##rec", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  const bool blink = std::fmod(ImGui::GetTime(), 1.0) < 0.6;
  ImGui::TextColored(blink ? ImVec4(1, 0.15f, 0.15f, 1) : ImVec4(0.5f, 0.1f, 0.1f, 1), "\xe2\x97\x8f REC");
  ImGui::SameLine();
  ImGui::Text("%s  %d frames  %.1f s%s", recorder_.path().c_str(), recorder_.frames(),
              recorder_.frames() / static_cast<double>(recordFps), recorder_.toPng() ? "  (PNG)" : "");
  ImGui::End();
}

/// The scene: the shipped ones, or a file by its path.
void VizApp::drawScenePicker() {
  if (ImGui::BeginCombo("scene", host_->name().c_str())) {
    for (const std::string& s : scenes_)
      if (ImGui::Selectable(s.c_str(), s == host_->name())) later([this, s] { openScenePrompted(s); });
    ImGui::EndCombo();
  }
  ImGui::InputTextWithHint("##path", "path/to/scene.json", openPath_, sizeof openPath_);
  ImGui::SameLine();
  if (ImGui::Button("Open")) later([this, path = std::string(openPath_)] { openScenePrompted(path); });
}

/// Play, step, reset and fit; the replay slider while paused; the rate.
void VizApp::drawTransport() {
  const Crowd& crowd = host_->crowd();
  if (ImGui::Button(playing_ ? "Pause" : "Play ")) togglePlay();
  ImGui::SameLine();
  if (ImGui::Button("Step")) stepOnce();
  ImGui::SameLine();
  if (ImGui::Button("Reset")) later([this] { reset(); });
  ImGui::SameLine();
  if (ImGui::Button("Fit")) fit();
  if (!playing_ && replay_.size() > 1) {
    // Back over the last steps kept, while paused (Left and Right step).
    int back = -static_cast<int>(replayBack_);
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("replay").x - ImGui::GetStyle().ItemInnerSpacing.x - 2);
    if (ImGui::SliderInt("replay", &back, -static_cast<int>(replay_.size() - 1), 0, back == 0 ? "live" : "%d steps"))
      replayTo(static_cast<std::size_t>(-back));
    mark("replay");
    hoverHelp("Steps back over the last steps kept (Left, Right): the crowd as it was. Play goes on from the live "
              "state.");
    if (replayBack_ > 0) ImGui::TextDisabled("replaying t = %.2f s of %.2f s", replay_.before(replayBack_).time, crowd.time());
  }
  float rate = static_cast<float>(clock_.rate);
  if (ImGui::SliderFloat("rate", &rate, 0.25f, 8.0f, "x%.2f", ImGuiSliderFlags_Logarithmic)) setRate(rate);
  help("Sim seconds per wall second; fixed steps of dt from an accumulator, clamped so a slow frame never spirals.");
}

/// View: trails, the scene's geometry, the teaching views, the UI scale, the markers.
void VizApp::drawViewSection() {
  if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("trails", &options_.trails);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(150);
    ImGui::SliderFloat("fade", &options_.trailFade, 0.002f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
    if (ImGui::Checkbox("scene geometry", &showGeometry_)) sceneMeshZoom_ = -1;
    ImGui::SameLine();
    ImGui::Checkbox("teaching view", &teaching_);
    ImGui::SameLine();
    ImGui::Checkbox("velocity inset", &velocityInset);
    ImGui::Checkbox("spatial hash", &showGridQuery);
    hoverHelp("Teaching view: the neighbour grid's cells the selected walker's query scans (columns one perception "
              "radius wide, one each side) and every walker found in them, ringed; its neighbours are the nearest.");
    ImGui::SliderFloat("UI scale", &uiScale, kMinUiScale, kMaxUiScale, "%.2f");
    hoverHelp("Fonts and spacing, for projectors and high-DPI screens; remembered with the window layout.");
    hoverHelp("The selected walker's velocity plane in a window of its own, labelled; off: drawn over the crowd.");
    ImGui::SliderFloat("velocity scale", &velocityScale_, 0.1f, 5.0f, "%.2f s", ImGuiSliderFlags_Logarithmic);
    help("Teaching view: a velocity is drawn as where the walker would be after this long.");
    ImGui::Checkbox("markers", &showMarkers_);
    help("BioCrowds' markers, each in the colour of the walker that owns it in the last step (grey: nobody), under "
         "the walkers. Drawn only while they are at least 2 pixels apart on screen: zoom in to see them. Key M.");
    ImGui::SameLine();
    const render::MarkerPack& mp = markers_.pack;
    if (!showMarkers_) ImGui::TextDisabled("hidden");
    else if (mp.total == 0) ImGui::TextDisabled("none (the model lays none)");
    else if (mp.result == render::MarkerPack::Result::TooDense)
      ImGui::TextDisabled("%.2f px apart: too dense, zoom in", mp.spacingPx);
    else ImGui::TextDisabled("%zu of %zu in view", mp.drawn, mp.total);
  }
}

/// Stats: the frame's and the step's times, the backend, the counts, the
/// measurements, the gate's smallest gap, the clock.
void VizApp::drawStats() {
  Crowd& crowd = host_->crowd();
  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) {
    const StepStats st = crowd.lastStats();
    ImGui::Text("fps %.1f   frame %.2f ms", frameMs_ > 0 ? 1000.0 / frameMs_ : 0.0, frameMs_);
    ImGui::Text("ms/step %.3f   steps/frame %d   (%s%s)", msPerStep_, stepsLastFrame_, crowd.backendName(),
                lastDrawInterop_ ? ", drawn from the device" : "");
    if (phaseMsSeen_) {
      ImGui::TextUnformatted("phases ms");
      for (const StepPhaseEntry& e : kStepPlan) {
        ImGui::SameLine();
        ImGui::Text(" %s %.3f", e.name, phaseMs_[static_cast<std::size_t>(e.phase)]);
      }
      help("What each phase of the step took, smoothed over the last steps: the fields (when the model or the "
           "routing builds them), the wishes, the model's solve and the integration. On cuda, the GPU's time.");
    }
    int backend = backendKind_ == BackendKind::Cuda ? 1 : 0;
    if (ImGui::Combo("backend", &backend, "cpu\0cuda\0")) {
      const BackendKind k = backend == 1 ? BackendKind::Cuda : BackendKind::Cpu;
      later([this, k] { setBackend(k); });
    }
    help("Where the crowd steps. Both give the same run, bit for bit; cuda needs an NVIDIA GPU.");
    ImGui::Text("agents %zu (%zu ever)   jammed %zu   arrived %zu", crowd.count(), host_->agentsEver(), st.jammed,
                host_->arrived());
    drawMeasurements(crowd.measurements());
    if (const auto& flag = gap_.lastFlag())
      ImGui::TextColored(ImVec4(0.9f, 0.15f, 0.15f, 1), "the gate: two walkers %.4f deep into each other this step", -flag->gap);
    if (gap_.minGap() < GateReport::kNone) ImGui::Text("smallest gap so far %.4f", gap_.minGap());
    else if (crowd.count() > gap_.maxAgents) ImGui::TextDisabled("smallest gap: off above %zu agents", gap_.maxAgents);
    else ImGui::TextDisabled("smallest gap: none yet");
    ImGui::Text("t = %.2f s   step %llu   dt %.4f s", crowd.time(), static_cast<unsigned long long>(crowd.stepCount()),
                host_->dt());
  }
}

void VizApp::drawMeasurements(const MeasureSeries& series) {
  if (series.measurements.empty()) return;
  const std::vector<MeasureFigures> figures = measureFigures(series);
  const std::size_t last = series.steps();
  for (std::size_t m = 0; m < figures.size(); ++m) {
    const MeasureFigures& f = figures[m];
    if (f.kind == MeasureKind::Line) {
      ImGui::Text("%s: %zu forward, %zu back; %.2f/s mean, %.2f/s peak", f.name.c_str(), f.forward, f.backward,
                  f.meanFlow, f.peakFlow);
    } else {
      const double now = last ? series.density(last - 1, m) : 0;
      ImGui::Text("%s: density %.2f now, %.2f peak; speed %.2f", f.name.c_str(), now, f.peakDensity, f.meanSpeed);
    }
  }
  help("The scene's measurement lines (crossings each way, flow between the first and the last, and the most in "
       "any 5 s) and areas (walkers per square unit, and their mean speed), since the run began: purple on the "
       "scene, a line's tick on its forward side. throng run --measure writes them step by step.");
}

/// The selected walker: its speeds, the model's own account of its step, and
/// under Continuum Crowds its field cell.
void VizApp::drawSelectedWalker() {
  Crowd& crowd = host_->crowd();
  const std::ptrdiff_t sel = selectedIndex();
  if (sel >= 0 && ImGui::CollapsingHeader("Selected walker", ImGuiTreeNodeFlags_DefaultOpen)) {
    const Agent a = crowd.agent(static_cast<std::size_t>(sel));
    ImGui::Text("#%td  id %llu  group %d  %s", sel, static_cast<unsigned long long>(selectedId_), a.group,
                explain_.jammed ? "JAMMED next step" : "");
    ImGui::Text("speed %.3f / %.3f", a.velocity.length(), a.maxSpeed);
    ImGui::TextColored(rgbaToImVec4(render::teachColour(TeachRole::Preferred)), "preferred (%.2f, %.2f)",
                       explain_.preferred.x, explain_.preferred.y);
    ImGui::SameLine();
    ImGui::Text("chosen (%.2f, %.2f)", explain_.chosen.x, explain_.chosen.y);
    // The model's own lines, as it explains itself.
    for (const TeachNote& note : explain_.teaching.notes) {
      if (note.role == TeachRole::Legend) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", note.text.c_str());
        ImGui::PopStyleColor();
      } else if (const std::uint32_t rgba = render::teachColour(note.role); rgba != 0) {
        ImGui::TextColored(rgbaToImVec4(rgba), "%s", note.text.c_str());
      } else {
        ImGui::TextUnformatted(note.text.c_str());
      }
    }
    if (explain_.fieldCell >= 0) {
      const int cols = std::max(teachingGrid_.cols, 1);
      ImGui::Text("field cell (%d, %d)   flow (%.2f, %.2f) |%.2f|", explain_.fieldCell % cols, explain_.fieldCell / cols,
                  explain_.fieldFlow.x, explain_.fieldFlow.y, explain_.fieldFlow.length());
      if (ImGui::BeginTable("##cell", 3, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("toward");
        ImGui::TableSetupColumn("speed, units/s");
        ImGui::TableSetupColumn("cost per unit");
        ImGui::TableHeadersRow();
        for (int d = 0; d < 4; ++d) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(std::string(render::fieldDirectionName(d)).c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(render::formatFieldNumber(explain_.fieldSpeed[d]).c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(std::isfinite(explain_.fieldCost[d]) ? render::formatFieldNumber(explain_.fieldCost[d]).c_str()
                                                                      : "inf (closed)");
        }
        ImGui::EndTable();
      }
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("at its cell: blue arrows as long as the speed each way (0.45 of the cell at top speed), red bars "
                         "across closed faces; teal: the field's flow at the walker");
      ImGui::PopStyleColor();
    }
    if (ImGui::Button("Deselect")) hasSelection_ = false;
  }
}

/// Side by side: the second run's settings over the first's.
void VizApp::drawSideBySideSection() {
  if (ImGui::CollapsingHeader("Side by side")) {
    // Two runs of this scene, one seed: the left with the settings above,
    // the right with these over them.
    ImGui::SetNextItemWidth(-1);
    const bool enter = ImGui::InputText("##twin", twinInput_, sizeof twinInput_, ImGuiInputTextFlags_EnterReturnsTrue);
    hoverHelp("The right run's settings over the left's, name=value by spaces: model=biocrowds, timeHorizon=3, ... "
              "Both start again from the same seed and step together; the plots show both.");
    if (ImGui::Button(twin_ ? "Compare again" : "Compare") || enter) {
      std::string why;
      if (!setSideBySide(twinInput_, &why)) setStatus("side by side: " + why);
    }
    if (twin_) {
      ImGui::SameLine();
      if (ImGui::Button("One run")) {
        std::string ignored;
        setSideBySide("", &ignored);
      }
    }
  }
}

/// Capture: screenshot, recording, presentation, the video's rate and size.
void VizApp::drawCaptureSection() {
  if (ImGui::CollapsingHeader("Capture", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (ImGui::Button("Screenshot")) screenshot();
    ImGui::SameLine();
    if (ImGui::Button(recorder_.active() ? "Stop recording" : "Record")) {
      if (recorder_.active()) stopRecording();
      else startRecording("", recordFps, nullptr);
    }
    ImGui::SameLine();
    ImGui::Checkbox("UI in footage", &recordUi);
    if (ImGui::Button("Presentation")) setPresenting(true);
    hoverHelp("P: the scene with its title, caption, clock, scale bar and a plot, the panel hidden, for video "
              "and the projector; P again to leave");
    if (!recorder_.active()) {
      ImGui::SliderInt("video fps", &recordFps, 10, 60);
      ImGui::Combo("video size", &recordSize, "the window's\0" "1280 x 720\0" "1920 x 1080\0");
      hoverHelp("The video's size: the window's, or a size of its own (the canvas alone, not with the UI in footage)");
    }
  }
}

/// Keys: every shortcut, or a one-line reminder when folded.
void VizApp::drawKeys() {
  if (ImGui::CollapsingHeader("Keys", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::TextUnformatted(
        "Space  play / pause\n"
        ".      single step\n"
        "R      reset (same seed)\n"
        "F      fit the scene\n"
        "S      screenshot (PNG)\n"
        "V      start / stop recording\n"
        "H      hide the UI\n"
        "P      presentation mode (title, clock, scale, plot)\n"
        "M      show / hide the markers (BioCrowds)\n"
        "L      next field layer\n"
        "E      edit the scene (and back to run)\n"
        "Esc    deselect\n"
        "Left, Right   replay: step back and forth (paused)\n"
        "drag: pan   wheel: zoom at cursor   click: select");
  } else {
    ImGui::TextDisabled("Space . R F S V H P M L: see Keys");
  }
}

}  // namespace throng::app
