// Runs the visualizer's ImGui frame (panel and all) on the SDL2 + OpenGL3
// backends from libimgui.a, and saves the window as a PNG.
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <SDL.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName, SetScrollY(window): to scroll the panel

#include "gl_fixture.hpp"
#include "render/gl_renderer.hpp"
#include "viz/viz_app.hpp"

using namespace throng;

TEST_CASE("an ImGui frame of the panel renders over the canvas") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  SDL_Window* win = SDL_GL_GetCurrentWindow();
  REQUIRE(win != nullptr);
  test::ImGuiSession imgui;
  REQUIRE(imgui.ok);
  {
    app::VizApp viz(app::makeBuiltin("ring"));
    REQUIRE_MESSAGE(viz.initGl(&err), err);
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(win, &w, &h);
    for (int frame = 0; frame < 3; ++frame) {  // the first frame only lays out
      viz.advance(1.0 / 60);
      viz.drawCanvas(w, h);
      viz.renderer().present(w, h);
      test::imguiFrame([&] { viz.drawUi(); });
    }
    const ImDrawData* dd = ImGui::GetDrawData();
    REQUIRE(dd != nullptr);
    CHECK(dd->CmdListsCount >= 1);
    CHECK(dd->TotalVtxCount > 500);  // a panel full of widgets
    CHECK(glGetError() == GL_NO_ERROR);
    // The window holds the panel (dark) over the canvas (light).
    const std::vector<std::uint8_t> flipped = test::readWindow(w, h);
    CHECK(render::writePng(test::outPath("imgui_frame.png"), w, h, flipped));
    const std::uint8_t* panel = flipped.data() + (static_cast<std::size_t>(60) * w + 60) * 4;  // inside the panel
    const std::uint8_t* canvas = flipped.data() + (static_cast<std::size_t>(h / 2) * w + w - 20) * 4;
    CHECK(panel[0] + panel[1] + panel[2] < 300);
    CHECK(canvas[0] + canvas[1] + canvas[2] > 600);
    // Keys reach the app when ImGui does not want them: Space pauses.
    SDL_Event e{};
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = SDLK_SPACE;
    const bool wasPlaying = viz.isPlaying();
    CHECK(viz.handleEvent(e, false, false, 1));
    CHECK(viz.isPlaying() != wasPlaying);
    e.key.keysym.sym = SDLK_h;
    viz.handleEvent(e, false, false, 1);
    CHECK(viz.uiHidden());
  }
}

TEST_CASE("under BioCrowds the panel shows the marker toggle and the selected walker's markers") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  SDL_Window* win = SDL_GL_GetCurrentWindow();
  REQUIRE(win != nullptr);
  test::ImGuiSession imgui;
  REQUIRE(imgui.ok);
  {
    // A small ring in the built-in's units (radius 8): a personal space of
    // three radii and a marker every 2 units.
    auto host = app::makeBuiltin("ring");
    for (const char* a : {"count=16", "ringRadius=100", "model=biocrowds", "personalSpace=24", "markerDensity=0.25"})
      REQUIRE_MESSAGE(host->assign(a, &err), err);
    app::VizApp viz(std::move(host));
    REQUIRE_MESSAGE(viz.initGl(&err), err);
    viz.renderOptions().trails = false;
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(win, &w, &h);
    viz.drawCanvas(w, h);
    viz.stepOnce();
    viz.select(0);
    for (int frame = 0; frame < 4; ++frame) {
      viz.drawCanvas(w, h);
      viz.renderer().present(w, h);
      test::imguiFrame([&] { viz.drawUi(); }, [] {
        // Scrolled to the bottom, where the selected walker's section is.
        if (ImGuiWindow* panel = ImGui::FindWindowByName("throng")) ImGui::SetScrollY(panel, panel->ScrollMax.y);
      });
    }
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(viz.markerPack().result == render::MarkerPack::Result::Drawn);
    CHECK(ImGui::GetDrawData()->TotalVtxCount > 500);
    const std::vector<std::uint8_t> flipped = test::readWindow(w, h);
    CHECK(render::writePng(test::outPath("imgui_frame_biocrowds.png"), w, h, flipped));
  }
}
