// The run panel as a person tuning the door scene meets it, on the default
// 1280x720 window: the scene's knobs without scrolling, no label cut, and
// the flow plotted live, rising when the door is widened (app/viz/
// run_panel.cpp, plots.hpp). Saves the window as PNGs.
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <SDL.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName, SetScrollY(window)

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include <stb_image.h>

#include "gl_fixture.hpp"
#include "render/gl_renderer.hpp"
#include "render/pack.hpp"
#include "throng/diagram.hpp"
#include "viz/plots.hpp"
#include "viz/viz_app.hpp"

using namespace throng;

namespace {

/// The mean of the plotted flow through line 0 over the samples after `from`.
double meanFlowAfter(const app::PlotHistory& p, double from) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < p.time().size(); ++i)
    if (p.time()[i] > from) {
      sum += p.flows()[0].y[i];
      ++n;
    }
  return n ? sum / static_cast<double>(n) : 0;
}

}  // namespace

TEST_CASE("tuning the door: knobs in view, no label cut, the flow plotted and rising with the door's width") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  SDL_Window* win = SDL_GL_GetCurrentWindow();
  REQUIRE(win != nullptr);
  // The default window. The GL surface takes the new size once the X
  // server has answered and a frame has been swapped.
  SDL_SetWindowSize(win, 1280, 720);
  for (int k = 0; k < 10; ++k) {
    SDL_PumpEvents();
    SDL_GL_SwapWindow(win);
    SDL_Delay(10);
  }
  test::ImGuiSession imgui;
  REQUIRE(imgui.ok);
  {
    auto host = app::openScene("door", &err);
    REQUIRE_MESSAGE(host, err);
    app::VizApp viz(std::move(host));
    REQUIRE_MESSAGE(viz.initGl(&err), err);
    viz.setPlaying(false);
    int w = 0, h = 0;
    auto frame = [&](float scrollTo = -1) {
      SDL_GL_GetDrawableSize(win, &w, &h);
      viz.drawCanvas(w, h);
      viz.renderer().present(w, h);
      test::imguiFrame([&] { viz.drawUi(); }, [&] {
        if (scrollTo >= 0)
          if (ImGuiWindow* panel = ImGui::FindWindowByName("throng")) ImGui::SetScrollY(panel, scrollTo);
      });
    };
    for (int k = 0; k < 3; ++k) frame();  // the first frames only lay out
    REQUIRE(w == 1280);
    REQUIRE(h == 720);
    CHECK(render::writePng(test::outPath("tuning_door_panel.png"), w, h, test::readWindow(w, h)));

    const auto panel = viz.widgetRect("panel");
    REQUIRE(panel);
    // The knobs come first, above the panel's bottom edge: no scroll.
    for (const char* knob : {"knob:doorWidth", "knob:density"}) {
      const auto r = viz.widgetRect(knob);
      REQUIRE_MESSAGE(r, knob);
      CHECK((*r)[3] <= (*panel)[3]);
    }
    // Every label shown ends inside the panel: the widget's rectangle holds
    // its label. Those the model reads are shown, the rest wait folded.
    std::size_t shown = 0;
    for (const SettingInfo& s : settingsTable()) {
      const auto r = viz.widgetRect("setting:" + std::string(s.name));
      if (!r) continue;
      ++shown;
      CHECK_MESSAGE((*r)[2] <= (*panel)[2] + 0.5f, std::string(s.name));
    }
    for (const char* read : {"setting:model", "setting:timeHorizon", "setting:jitter", "setting:paceTimeGap"})
      CHECK_MESSAGE(viz.widgetRect(read), read);
    CHECK_FALSE(viz.widgetRect("setting:markerDensity"));  // BioCrowds': folded under ORCA
    CHECK(shown >= 8);
    CHECK(shown < settingsTable().size());
    // The model first, then what changes the picture most.
    CHECK((*viz.widgetRect("setting:model"))[1] < (*viz.widgetRect("setting:timeHorizon"))[1]);
    CHECK((*viz.widgetRect("setting:timeHorizon"))[1] < (*viz.widgetRect("setting:perceptionRadius"))[1]);

    // At a larger UI scale the panel widens with it, and the labels still fit.
    viz.uiScale = 1.5f;
    for (int k = 0; k < 2; ++k) frame();
    const auto scaled = viz.widgetRect("panel");
    REQUIRE(scaled);
    CHECK((*scaled)[2] - (*scaled)[0] > 1.4f * ((*panel)[2] - (*panel)[0]));
    for (const SettingInfo& s : settingsTable())
      if (const auto r = viz.widgetRect("setting:" + std::string(s.name))) CHECK_MESSAGE((*r)[2] <= (*scaled)[2] + 0.5f, std::string(s.name));
    CHECK(render::writePng(test::outPath("tuning_door_panel_scaled.png"), w, h, test::readWindow(w, h)));
    viz.uiScale = 1;
    for (int k = 0; k < 2; ++k) frame();

    // Run 20 s (the scene steps 0.05 s) through the 1.2 m door, then widen
    // it to 2.4 m as the slider does on release, and run 20 s more; compare
    // the flow plotted from 5 s on, while the room still holds a crowd.
    const int steps = static_cast<int>(std::lround(20 / viz.host().dt()));
    for (int k = 0; k < steps; ++k) viz.stepOnce();
    const double narrow = meanFlowAfter(viz.plots(), 5);
    REQUIRE(viz.setKnob("doorWidth", 2.4, &err));
    const double widenedAt = viz.plots().time().back();
    for (int k = 0; k < steps; ++k) viz.stepOnce();
    const double wide = meanFlowAfter(viz.plots(), widenedAt + 5);
    MESSAGE("plotted flow through the door: " << narrow << " /s at 1.2 m, " << wide << " /s at 2.4 m");
    CHECK(narrow > 0.5);
    CHECK(wide > 1.3 * narrow);
    REQUIRE(!viz.plots().marks().empty());
    CHECK(viz.plots().marks().back().text == "doorWidth = 2.4");
    CHECK(viz.plots().time().size() == static_cast<std::size_t>(2 * steps));
    // The plot itself, scrolled into view: its line drawn in the flow's colour.
    frame();
    const auto plot = viz.widgetRect("plot:flow");
    REQUIRE(plot);
    frame(std::max(0.0f, (*plot)[1] - (*panel)[1] - 40));
    frame();
    const auto shownPlot = viz.widgetRect("plot:flow");
    REQUIRE(shownPlot);
    const auto px = test::readWindow(w, h);
    CHECK(render::writePng(test::outPath("tuning_door_plots.png"), w, h, px));
    std::size_t line = 0;
    for (int y = static_cast<int>((*shownPlot)[1]); y < static_cast<int>((*shownPlot)[3]) && y < h; ++y)
      for (int x = static_cast<int>((*shownPlot)[0]); x < static_cast<int>((*shownPlot)[2]) && x < w; ++x) {
        if (y < 0 || x < 0) continue;
        const std::uint8_t* p = px.data() + (static_cast<std::size_t>(y) * w + x) * 4;
        line += p[2] > 200 && p[0] < 140 && p[1] > 120;  // the first line's blue (90, 170, 255)
      }
    CHECK(line > 50);
    // The samples save as CSV: a header naming the line, a row a step.
    const std::filesystem::path csv = test::outPath("tuning_door_plots.csv");
    REQUIRE(viz.savePlotsCsv(csv.string()));
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    CHECK(header.find("\"flow per_s door\"") != std::string::npos);
    CHECK(header.find("\"density before the door\"") != std::string::npos);
    std::size_t rows = 0;
    for (std::string row; std::getline(in, row);) ++rows;
    CHECK(rows == static_cast<std::size_t>(2 * steps));
    // Save PNG: the plots as drawn, read from the window after the frame.
    const std::filesystem::path plotPng = test::outPath("tuning_door_plots_saved.png");
    std::filesystem::remove(plotPng);
    viz.savePlotsPng(plotPng.string());
    frame();
    viz.afterFrame();
    REQUIRE(std::filesystem::exists(plotPng));
    int pw = 0, ph = 0, pc = 0;
    unsigned char* img = stbi_load(plotPng.string().c_str(), &pw, &ph, &pc, 4);
    REQUIRE(img != nullptr);
    const auto plotsRect = viz.widgetRect("plots");
    REQUIRE(plotsRect);
    CHECK(std::abs(pw - static_cast<int>((*plotsRect)[2] - (*plotsRect)[0])) <= 1);
    CHECK(ph > 200);  // five plots, their titles and Weidmann's diagram
    std::size_t blue = 0;
    for (int k = 0; k < pw * ph; ++k) blue += img[4 * k + 2] > 200 && img[4 * k] < 140 && img[4 * k + 1] > 120;
    stbi_image_free(img);
    CHECK(blue > 50);
    CHECK(viz.status().find("plots: ") == 0);
    // A preset keeps the knobs and the settings changed from the scene's,
    // and brings them back.
    REQUIRE(viz.host().assign("jitter=0", &err));
    const std::filesystem::path preset = test::outPath("tuning_door.preset");
    REQUIRE(viz.savePreset(preset.string()));
    std::stringstream text;
    text << std::ifstream(preset).rdbuf();
    CHECK(text.str().find("\ndoorWidth=2.4\n") != std::string::npos);
    CHECK(text.str().find("\ndensity=1\n") != std::string::npos);
    CHECK(text.str().find("\njitter=0\n") != std::string::npos);
    CHECK(text.str().find("timeHorizon") == std::string::npos);  // as the scene has it
    REQUIRE(viz.setKnob("doorWidth", 1.2, &err));
    REQUIRE(viz.host().assign("jitter=0.05", &err));
    REQUIRE(viz.loadPreset(preset.string()));
    CHECK(viz.host().crowd().settings.jitter == 0);
    bool wide2 = false;
    for (const app::KnobInfo& k : viz.host().knobs()) wide2 |= k.name == "doorWidth" && k.value == 2.4;
    CHECK(wide2);
    CHECK_FALSE(viz.loadPreset(test::outPath("no-such.preset")));
    CHECK(viz.status().find("no-such.preset: cannot read it") != std::string::npos);
  }
  SDL_SetWindowSize(win, 800, 600);
  for (int k = 0; k < 10; ++k) {
    SDL_PumpEvents();
    SDL_GL_SwapWindow(win);
    SDL_Delay(10);
  }
}

TEST_CASE("the plots' history: a clock that runs on across a rebuild, flows over the last 5 s, a cap") {
  Crowd c;
  c.settings.jitter = 0;
  c.addMeasurement({"x", MeasureKind::Line, {{0, -50}, {0, 50}}});
  c.add({-30, 0}, Vec2{300, 0});
  app::PlotHistory p;
  for (int k = 0; k < 60; ++k) {
    c.advance();
    p.sample(c, 1, 1.0 / 60);
  }
  REQUIRE(p.flows().size() == 1);
  // One crossing in the first second: a flow of 1 per s over the second run so far.
  CHECK(p.flows()[0].y.back() == doctest::Approx(1.0).epsilon(0.02));
  p.mark("a = 1");
  CHECK(p.marks().back().t == doctest::Approx(1.0));
  // A new run (time back to 0): the clock goes on, the window starts empty.
  Crowd again;
  again.addMeasurement({"x", MeasureKind::Line, {{0, -50}, {0, 50}}});
  again.add({100, 0}, Vec2{200, 0});
  again.advance();
  p.sample(again, 1, 1.0 / 60);
  CHECK(p.time().back() == doctest::Approx(61.0 / 60));
  CHECK(p.flows()[0].y.back() == 0);
  CHECK(p.out().y.size() == 61);
  CHECK(throng::weidmannSpeed(0) == doctest::Approx(1.34));
  CHECK(throng::weidmannSpeed(1) == doctest::Approx(1.34 * (1 - std::exp(-1.913 * (1 - 1 / 5.4)))));
  CHECK(throng::weidmannSpeed(6) == 0);
}

TEST_CASE("the velocity inset: the head-on walker's plane in its own window, a labelled line per neighbour") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  SDL_Window* win = SDL_GL_GetCurrentWindow();
  REQUIRE(win != nullptr);
  test::ImGuiSession imgui;
  REQUIRE(imgui.ok);
  {
    auto host = app::openScene("headon", &err);
    REQUIRE_MESSAGE(host, err);
    app::VizApp viz(std::move(host));
    REQUIRE_MESSAGE(viz.initGl(&err), err);
    viz.renderOptions().trails = false;
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(win, &w, &h);
    for (int k = 0; k < 240; ++k) {  // until the two are near: a line between them
      viz.stepOnce();
      const FrameView f = viz.host().crowd().frame();
      if (f.px.size() == 2 && std::fabs(f.px[0] - f.px[1]) < 6 * (f.radius[0] + f.radius[1])) break;
    }
    viz.select(0);
    for (int frame = 0; frame < 3; ++frame) {
      viz.drawCanvas(w, h);
      viz.renderer().present(w, h);
      test::imguiFrame([&] { viz.drawUi(); });
    }
    const auto px = test::readWindow(w, h);
    CHECK(render::writePng(test::outPath("velocity_inset.png"), w, h, px));
    const auto inset = viz.widgetRect("inset");
    REQUIRE(inset);
    const AgentExplain ex = viz.host().crowd().explain(0);
    REQUIRE(ex.agentLines.size() == 1);
    // Labelled: the neighbour's line by its index, the region, the arrows.
    const std::vector<std::string>& labels = viz.insetLabels();
    for (const char* want : {"#1 takes 50%", "feasible", "wish", "chosen", "top speed"})
      CHECK_MESSAGE(std::find(labels.begin(), labels.end(), want) != labels.end(), want);
    // The line is drawn there, in its colour, and its permitted side shaded.
    std::size_t line = 0, green = 0;
    for (int y = static_cast<int>((*inset)[1]); y < static_cast<int>((*inset)[3]) && y < h; ++y)
      for (int x = static_cast<int>((*inset)[0]); x < static_cast<int>((*inset)[2]) && x < w; ++x) {
        const std::uint8_t* p = px.data() + (static_cast<std::size_t>(y) * w + x) * 4;
        line += std::abs(p[0] - 0x20) < 20 && std::abs(p[1] - 0x80) < 20 && std::abs(p[2] - 0x20) < 20;
        green += p[1] > p[0] + 6 && p[1] > p[2] + 6;
      }
    CHECK(line > 30);
    CHECK(green > 2000);
    // Hovering the neighbour's line picks the neighbour out.
    CHECK(viz.hoveredNeighbour() == -1);
    const TeachShape* agentLine = nullptr;
    for (const TeachShape& sh : ex.teaching.shapes)
      if (sh.role == TeachRole::AgentLine) agentLine = &sh;
    REQUIRE(agentLine != nullptr);
    CHECK(agentLine->walker == 1);
    const float side = (*inset)[2] - (*inset)[0];
    const float scale = 0.5f * side / (1.6f * viz.host().crowd().agent(0).maxSpeed);
    const Vec2 mid = (agentLine->points[0] * 0.75f + agentLine->points[1] * 0.25f);
    const ImVec2 at{0.5f * ((*inset)[0] + (*inset)[2]) + mid.x * scale, 0.5f * ((*inset)[1] + (*inset)[3]) - mid.y * scale};
    viz.drawCanvas(w, h);
    test::imguiFrameWithMouse(at.x, at.y, [&] { viz.drawUi(); });
    CHECK(viz.hoveredNeighbour() == 1);

    // The spatial hash, asked for: the cells the query scans, over the crowd.
    auto gridPixels = [&] {
      viz.drawCanvas(w, h);
      viz.renderer().present(w, h);
      const auto canvas = test::readWindow(w, h);
      std::size_t n = 0;
      for (std::size_t k = 0; k + 3 < canvas.size(); k += 4)
        n += std::abs(canvas[k] - 110) < 12 && std::abs(canvas[k + 1] - 110) < 12 && std::abs(canvas[k + 2] - 150) < 14;
      return std::pair{n, canvas};
    };
    const std::size_t off = gridPixels().first;
    viz.showGridQuery = true;
    const auto [on, canvas] = gridPixels();
    CHECK(render::writePng(test::outPath("spatial_hash.png"), w, h, canvas));
    CHECK(on > off + 200);
  }
}

TEST_CASE("replay: paused, the canvas steps back over the last steps as they were drawn, and Play goes on live") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto host = app::openScene("door", &err);
  REQUIRE_MESSAGE(host, err);
  app::VizApp viz(std::move(host));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.renderOptions().trails = false;
  std::vector<render::AgentInstance> at30;
  for (int k = 1; k <= 60; ++k) {
    viz.stepOnce();
    viz.drawCanvas(640, 480);
    if (k == 30) at30 = viz.drawnWalkers();
  }
  REQUIRE(viz.replay().size() == 60);
  const std::vector<render::AgentInstance> live = viz.drawnWalkers();
  const double liveTime = viz.host().crowd().time();
  viz.replayTo(30);  // 30 steps before the newest: the state after step 30
  viz.drawCanvas(640, 480);
  REQUIRE(viz.drawnWalkers().size() == at30.size());
  bool same = true, moved = false;
  for (std::size_t i = 0; i < at30.size(); ++i) {
    same &= viz.drawnWalkers()[i].x == at30[i].x && viz.drawnWalkers()[i].y == at30[i].y;
    moved |= live[i].x != at30[i].x;
  }
  CHECK(same);
  CHECK(moved);  // the live crowd has walked on since
  CHECK(viz.host().crowd().time() == liveTime);  // the run stays where it was
  // A step goes forward through the replay, not the run.
  viz.stepOnce();
  CHECK(viz.replayBack() == 29);
  CHECK(viz.host().crowd().time() == liveTime);
  // Farther back than kept: the oldest kept.
  viz.replayTo(1000);
  CHECK(viz.replayBack() == 59);
  // Play goes on from the live state.
  viz.togglePlay();
  CHECK(viz.replayBack() == 0);
  viz.drawCanvas(640, 480);
  CHECK(viz.drawnWalkers()[0].x == live[0].x);
}

TEST_CASE("the gate flags the spring baseline's overlap live, in red, and ORCA's run not at all") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto redAfterApproach = [&](const char* model, bool& flagged) {
    auto host = app::openScene("headon", &err);
    REQUIRE_MESSAGE(host, err);
    REQUIRE(host->assign(std::string("model=") + model, &err));
    app::VizApp viz(std::move(host));
    REQUIRE_MESSAGE(viz.initGl(&err), err);
    viz.renderOptions().trails = false;
    flagged = false;
    std::size_t red = 0;
    for (int k = 0; k < 400 && !flagged; ++k) {
      viz.stepOnce();
      if (!viz.gapTracker().lastFlag()) continue;
      flagged = true;
      viz.drawCanvas(640, 480);
      viz.renderer().present(640, 480);
      const auto px = test::readWindow(640, 480);
      CHECK(render::writePng(test::outPath(std::string("gate_flag_") + model + ".png"), 640, 480, px));
      for (std::size_t i = 0; i + 3 < px.size(); i += 4) red += px[i] > 200 && px[i + 1] < 60 && px[i + 2] < 60;
    }
    return red;
  };
  bool springFlagged = false, orcaFlagged = true;
  const std::size_t red = redAfterApproach("spring", springFlagged);
  CHECK(springFlagged);
  CHECK(red > 100);
  redAfterApproach("orca", orcaFlagged);
  CHECK_FALSE(orcaFlagged);
}
