// Presentation mode as a viewer of the video sees it (app/viz/present.hpp):
// on the door scene's 1280x720 canvas, the title and the clock in ink, a
// scale bar as long as its label says, the flow plotted in the jam ring's
// orange, and no panel. Saves the canvas as present_door.png.
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <SDL.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName

#include <cmath>

#include "gl_fixture.hpp"
#include "render/gl_renderer.hpp"
#include "viz/present.hpp"
#include "viz/viz_app.hpp"

using namespace throng;

namespace {

struct Canvas {
  int w = 0, h = 0;
  std::vector<std::uint8_t> rgba;  ///< top row first
  const std::uint8_t* at(int x, int y) const { return rgba.data() + (static_cast<std::size_t>(y) * w + x) * 4; }
  /// The share of the pixels in box (x0, y0, x1, y1) that pass `test`.
  template <class F>
  double share(const float* box, F test) const {
    std::size_t yes = 0, all = 0;
    for (int y = static_cast<int>(box[1]); y < static_cast<int>(box[3]); ++y)
      for (int x = static_cast<int>(box[0]); x < static_cast<int>(box[2]); ++x, ++all) yes += test(at(x, y)) ? 1 : 0;
    return all ? static_cast<double>(yes) / static_cast<double>(all) : 0;
  }
};

bool ink(const std::uint8_t* p) { return p[0] < 90 && p[1] < 90 && p[2] < 90; }
bool orange(const std::uint8_t* p) { return p[0] > 190 && p[1] > 70 && p[1] < 150 && p[2] < 80; }

}  // namespace

TEST_CASE("present: the scale bar is 1, 2 or 5 times a power of ten, the longest that fits") {
  CHECK(app::scaleBarLength(7.3) == 5);
  CHECK(app::scaleBarLength(2) == 2);
  CHECK(app::scaleBarLength(19.99) == 10);
  CHECK(app::scaleBarLength(0.9) == doctest::Approx(0.5));
  CHECK(app::scaleBarLength(450) == 200);
  CHECK(app::scaleBarLength(0) == 0);
}

TEST_CASE("present: the door in presentation mode carries its title, clock, scale bar and flow, and no panel") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  test::ImGuiSession imgui;
  REQUIRE(imgui.ok);
  auto host = app::openScene("door", &err);
  REQUIRE_MESSAGE(host, err);
  app::VizApp viz(std::move(host));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.setPlaying(false);
  viz.setPresenting(true);
  for (int k = 0; k < 240; ++k) viz.stepOnce();  // 12 s: the first walkers are through the door
  viz.drawCanvas(1280, 720);
  test::imguiFrame([&] { viz.drawUi(); });
  CHECK(ImGui::FindWindowByName("throng") == nullptr);  // the panel is hidden
  CHECK(viz.presenting());

  Canvas c;
  c.w = viz.renderer().width();
  c.h = viz.renderer().height();
  REQUIRE(c.w == 1280);
  REQUIRE(c.h == 720);
  viz.renderer().readCanvas(c.rgba);
  CHECK(render::writePng(test::outPath("present_door.png"), c.w, c.h, c.rgba));
  const app::Presenter::Boxes& b = viz.presenter().boxes();

  // The title and caption sit top left, the clock top right, in ink on a light backdrop.
  CHECK(b.title[0] < 60);
  CHECK(b.title[1] < 60);
  CHECK(b.title[2] > 400);  // the caption is a full line
  const double titleInk = c.share(b.title, ink);
  CHECK(titleInk > 0.03);
  CHECK(titleInk < 0.4);
  CHECK(b.clock[2] > 1200);
  CHECK(c.share(b.clock, ink) > 0.03);
  // The bar: solid ink, as long as its length says at the camera's scale.
  CHECK(c.share(b.bar, ink) > 0.95);
  const double barPx = b.bar[2] - b.bar[0];
  const double metres = barPx * viz.camera().pixelSize();
  CHECK(metres == doctest::Approx(app::scaleBarLength(0.2 * 1280 * viz.camera().pixelSize())).epsilon(0.01));
  CHECK(barPx >= 0.4 * 0.2 * 1280 - 1);  // 2 of a most just under 5, at the least
  CHECK(barPx <= 0.2 * 1280 + 1);
  // The flow at the door, drawn in orange in the bottom right corner.
  CHECK(b.plot[2] > 1200);
  CHECK(b.plot[3] > 650);
  CHECK(c.share(b.plot, orange) > 0.002);
  MESSAGE("title ink ", titleInk, ", bar ", barPx, " px = ", metres, " m");

  // Leaving it: the canvas is the scene alone again.
  viz.setPresenting(false);
  viz.drawCanvas(1280, 720);
  viz.renderer().readCanvas(c.rgba);
  CHECK(c.share(b.bar, ink) < 0.5);
}
