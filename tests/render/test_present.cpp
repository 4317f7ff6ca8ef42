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
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "throng/scene.hpp"

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

/// A GL context first: ImGui's session (below) starts its backends on it.
struct GlContext {
  GlContext() {
    std::string err;
    REQUIRE_MESSAGE(test::glContext(&err), err);
  }
};

/// The door scene in the app, paused, with ImGui's session for its panel.
struct DoorApp : GlContext {
  test::ImGuiSession imgui;
  std::unique_ptr<app::VizApp> viz;
  DoorApp() {
    REQUIRE(imgui.ok);
    std::string err;
    auto host = app::openScene("door", &err);
    REQUIRE_MESSAGE(host, err);
    viz = std::make_unique<app::VizApp>(std::move(host));
    REQUIRE_MESSAGE(viz->initGl(&err), err);
    viz->setPlaying(false);
  }
};

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
  DoorApp door;
  app::VizApp& viz = *door.viz;
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

namespace {

/// Walker pixels (the discs' grey) in the canvas's columns [x0, x1).
std::size_t walkerPixels(const Canvas& c, int x0, int x1) {
  std::size_t n = 0;
  for (int y = 0; y < c.h; ++y)
    for (int x = x0; x < x1; ++x) {
      const std::uint8_t* p = c.at(x, y);
      n += p[0] > 70 && p[0] < 130 && std::abs(p[0] - p[2]) < 40 && p[2] > p[0];  // the discs' blue-grey
    }
  return n;
}

}  // namespace

TEST_CASE("side by side: ORCA and BioCrowds through the same door, in lockstep, each run as it runs alone") {
  DoorApp door;
  app::VizApp& viz = *door.viz;
  std::string err;
  // What is not a setting, or is shared, is refused and changes nothing.
  CHECK_FALSE(viz.setSideBySide("doorWidth=2", &err));
  CHECK(err.find("\"doorWidth\" is not a setting") == 0);
  CHECK_FALSE(viz.setSideBySide("seed=3", &err));
  CHECK(err == "both runs share the seed and the step");
  CHECK_FALSE(viz.setSideBySide("model=nope", &err));
  CHECK(viz.twin() == nullptr);

  for (int k = 0; k < 20; ++k) viz.stepOnce();  // the first run has moved on: comparing starts both again
  REQUIRE_MESSAGE(viz.setSideBySide("model=biocrowds", &err), err);
  REQUIRE(viz.twin() != nullptr);
  CHECK(viz.host().crowd().stepCount() == 0);
  constexpr int kSteps = 200;  // 10 s
  for (int k = 0; k < kSteps; ++k) viz.stepOnce();
  CHECK(viz.host().crowd().stepCount() == kSteps);
  CHECK(viz.twin()->crowd().stepCount() == kSteps);
  CHECK(viz.host().crowd().settings.model == "orca");
  CHECK(viz.twin()->crowd().settings.model == "biocrowds");
  CHECK(viz.twinPlots().time().size() == viz.plots().time().size());

  // Each run is the run it would be alone: the same state, hash for hash.
  for (const char* model : {"orca", "biocrowds"}) {
    auto scene = Scene::load(*findScene("door", &err), &err);
    REQUIRE(scene);
    REQUIRE(scene->assign(std::string("model=") + model, &err));
    SceneRun alone(*scene);
    for (int k = 0; k < kSteps; ++k) alone.step();
    const Crowd& mine = std::string(model) == "orca" ? viz.host().crowd() : viz.twin()->crowd();
    CHECK_MESSAGE(alone.crowd().stateHash() == mine.stateHash(), model);
  }
  // A setting changed in the panel reaches both; the twin's own stays.
  viz.host().crowd().settings.jitter = 0;
  viz.stepOnce();
  CHECK(viz.twinSettings().jitter == 0);
  CHECK(viz.twin()->crowd().settings.jitter == 0);
  CHECK(viz.twin()->crowd().settings.model == "biocrowds");

  // The canvas: A on the left, B on the right, both crowds drawn, and different.
  viz.drawCanvas(1280, 720);
  Canvas c;
  c.w = 1280;
  c.h = 720;
  viz.renderer().readCanvas(c.rgba);
  CHECK(render::writePng(test::outPath("side_by_side_door.png"), c.w, c.h, c.rgba));
  const std::size_t left = walkerPixels(c, 0, 640), right = walkerPixels(c, 640, 1280);
  MESSAGE("walker pixels: ", left, " left (orca), ", right, " right (biocrowds)");
  CHECK(left > 2000);
  CHECK(right > 2000);
  bool differ = false;
  for (int y = 0; y < c.h && !differ; ++y)
    differ = std::memcmp(c.at(0, y), c.at(640, y), 640 * 4) != 0;
  CHECK(differ);
  // Each half draws its own run's markers: BioCrowds' on the right, none on
  // the left (ORCA lays none); hidden, the right half loses them.
  CHECK(viz.markerPack().total == 0);
  CHECK(viz.twinMarkerPack().drawn > 1000);
  CHECK(viz.renderer().markerCount(1) == viz.twinMarkerPack().drawn);
  CHECK(viz.renderer().markerCount(0) == 0);
  viz.setMarkersShown(false);
  viz.drawCanvas(1280, 720);
  Canvas bare;
  bare.w = 1280;
  bare.h = 720;
  viz.renderer().readCanvas(bare.rgba);
  std::size_t leftChanged = 0, rightChanged = 0;
  for (int y = 0; y < c.h; ++y)
    for (int x = 0; x < c.w; ++x)
      (x < 640 ? leftChanged : rightChanged) += std::memcmp(c.at(x, y), bare.at(x, y), 4) != 0;
  MESSAGE("pixels the markers made: ", leftChanged, " left, ", rightChanged, " right");
  CHECK(leftChanged == 0);
  CHECK(rightChanged > 2000);
  CHECK(viz.renderer().markerCount(1) == 0);
  viz.setMarkersShown(true);
  viz.drawCanvas(1280, 720);
  // Presented, the corner plot carries both runs: A in orange, B in blue.
  viz.setPresenting(true);
  viz.drawCanvas(1280, 720);
  viz.renderer().readCanvas(c.rgba);
  CHECK(render::writePng(test::outPath("side_by_side_present.png"), c.w, c.h, c.rgba));
  const app::Presenter::Boxes& b = viz.presenter().boxes();
  CHECK(c.share(b.plot, orange) > 0.002);
  CHECK(c.share(b.plot, [](const std::uint8_t* p) { return p[2] > 180 && p[0] < 90 && p[1] > 80 && p[1] < 150; }) > 0.002);
  viz.setPresenting(false);
  // One run again: the whole canvas is the first's, and the second's markers go.
  REQUIRE(viz.setSideBySide("", &err));
  CHECK(viz.twin() == nullptr);
  CHECK(viz.renderer().markerCount(1) == 0);
}

TEST_CASE("recording: a video size of its own, 1920 x 1080 from a smaller window, and back to the window's after") {
  DoorApp door;
  app::VizApp& viz = *door.viz;
  viz.setPresenting(true);
  viz.drawCanvas(640, 360);
  viz.recordSize = 2;
  const std::string out = test::outPath("record_1080p.mp4");
  std::filesystem::remove(out);
  std::string msg;
  REQUIRE_MESSAGE(viz.startRecording(out, 30, &msg), msg);
  CHECK(viz.recorder().width() == 1920);
  CHECK(viz.recorder().height() == 1080);
  for (int k = 0; k < 10; ++k) {
    viz.advance(0);
    viz.drawCanvas(640, 360);  // the window's size: the canvas keeps the video's
    CHECK(viz.renderer().width() == 1920);
    viz.afterFrame();
  }
  // The title is drawn at the video's scale: 1080 / 720 of the 720p sizes.
  CHECK(viz.presenter().boxes().title[3] > 1.4 * 116);
  viz.stopRecording();
  const bool written = std::filesystem::exists(out) || std::filesystem::exists(test::outPath("record_1080p_frames"));
  CHECK(written);
  viz.drawCanvas(640, 360);
  CHECK(viz.renderer().width() == 640);
}
