// GL render tests: draw known scenes to the offscreen canvas, read the
// pixels back and assert on them. Each test saves its PNG in the build
// folder (tests/render/*.png) for a person to look at.
#include <epoxy/gl.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "gl_fixture.hpp"
#include "render/gl_renderer.hpp"
#include "render/pack.hpp"
#include "throng/backend.hpp"
#include "viz/viz_app.hpp"

using namespace throng;
using namespace throng::render;
using throng::test::colorDistance;
using throng::test::Image;

namespace {

constexpr int W = 200, H = 200;

// 1 pixel per world unit, world origin at the canvas centre:
// world (x, y) -> pixel (100 + x, 100 - y) in top-row-first order.
Camera2D unitCamera() {
  Camera2D c;
  c.width = W;
  c.height = H;
  c.center = {-0.5f, 0.5f};  // pixel centres land on whole world units
  c.zoom = 1;
  return c;
}
int px(float x) { return static_cast<int>(std::lround(100 + x)); }
int py(float y) { return static_cast<int>(std::lround(100 - y)); }

Image read(GlRenderer& r) {
  Image im;
  im.w = r.width();
  im.h = r.height();
  r.readCanvas(im.px);
  return im;
}
void save(const Image& im, const char* name) { CHECK(writePng(test::outPath(name), im.w, im.h, im.px)); }

bool isOrange(const Image& im, int x, int y) { return colorDistance(im, x, y, kJamOrange) < 60; }

int orangeInAnnulus(const Image& im, float cx, float cy, float r0, float r1) {
  int n = 0;
  for (int y = 0; y < im.h; ++y)
    for (int x = 0; x < im.w; ++x) {
      const float dx = static_cast<float>(x) - px(cx), dy = static_cast<float>(y) - py(cy);
      const float d = std::sqrt(dx * dx + dy * dy);
      if (d >= r0 && d <= r1 && isOrange(im, x, y)) ++n;
    }
  return n;
}

}  // namespace

TEST_CASE("discs are drawn where the positions say, background elsewhere, orange rings only around the jammed") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  GlRenderer r;
  REQUIRE_MESSAGE(r.init(&err), err);
  r.resize(W, H);
  RenderOptions opt;
  opt.trails = false;
  std::vector<AgentInstance> a = {
      packInstance(-50, 0, 0, 0, 10, 0, 0),   // still, unjammed, group 0
      packInstance(50, 40, 0, 0, 8, 1, 0),    // still, unjammed, group 1
      packInstance(40, -50, 0, 0, 10, 2, 1),  // still, jammed, group 2
  };
  r.draw(unitCamera(), a, nullptr, opt);
  const Image im = read(r);
  save(im, "render_discs.png");
  // Disc centres and points well inside carry the group colour.
  for (const AgentInstance& ai : a)
    for (auto [dx, dy] : {std::pair{0, 0}, std::pair{4, 0}, std::pair{0, -4}, std::pair{-3, 3}})
      CHECK(colorDistance(im, px(ai.x) + dx, py(ai.y) + dy, ai.rgba) < 12);
  // Background: corners, the centre, and just outside the unjammed discs.
  for (auto [x, y] : {std::pair{2, 2}, std::pair{197, 197}, std::pair{100, 100}, std::pair{px(-50) + 14, py(0)},
                      std::pair{px(50), py(40) - 12}})
    CHECK(colorDistance(im, x, y, opt.background) < 6);
  // The jammed walker is ringed in orange; the others are not.
  const int ringJam = orangeInAnnulus(im, 40, -50, 10.5f, 16);
  CHECK(ringJam > 60);
  CHECK(orangeInAnnulus(im, -50, 0, 0, 16) == 0);
  CHECK(orangeInAnnulus(im, 50, 40, 0, 16) == 0);
  // All orange in the picture belongs to that ring.
  CHECK(orangeInAnnulus(im, 0, 0, 0, 1000) == ringJam);
  // Inside the jammed disc it is the group colour, not orange.
  CHECK(colorDistance(im, px(40), py(-50), groupColor(2)) < 12);
  // Anti-aliased rim: a pixel half way across the edge is a blend.
  const int edge = colorDistance(im, px(-50) + 10, py(0), groupColor(0));
  CHECK(edge > 20);
  CHECK(colorDistance(im, px(-50) + 10, py(0), opt.background) > 20);
}

TEST_CASE("the heading tick points along the velocity") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  GlRenderer r;
  REQUIRE_MESSAGE(r.init(&err), err);
  r.resize(W, H);
  RenderOptions opt;
  opt.trails = false;
  std::vector<AgentInstance> a = {packInstance(0, 0, 30, 0, 20, 1, 0)};  // moving +x
  r.draw(unitCamera(), a, nullptr, opt);
  const Image im = read(r);
  save(im, "render_heading.png");
  CHECK(colorDistance(im, px(12), py(0), groupColor(1)) > 80);  // the dark tick ahead
  CHECK(colorDistance(im, px(-12), py(0), groupColor(1)) < 12);  // plain behind
  CHECK(colorDistance(im, px(0), py(12), groupColor(1)) < 12);   // plain beside
}

TEST_CASE("trails fade back to the background") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  GlRenderer r;
  REQUIRE_MESSAGE(r.init(&err), err);
  r.resize(W, H);
  RenderOptions opt;
  opt.trails = true;
  opt.trailFade = 0.1f;
  const Camera2D cam = unitCamera();
  // A walker crossing from left to right at 4 units per frame, then standing still far right.
  std::vector<AgentInstance> a(1);
  for (int f = 0; f <= 20; ++f) {
    a[0] = packInstance(-80.0f + 4.0f * f, 0, 240, 0, 10, 3, 0);
    r.draw(cam, a, nullptr, opt);
  }
  Image fresh = read(r);
  save(fresh, "render_trail_fresh.png");
  // Behind it: a trail from the recent positions, strongest nearest the walker.
  const int bgRecent = colorDistance(fresh, px(-16), py(0), opt.background);  // 4 frames ago
  const int bgOlder = colorDistance(fresh, px(-64), py(0), opt.background);   // 16 frames ago
  CHECK(bgRecent > 40);
  CHECK(bgOlder > 2);
  CHECK(bgRecent > bgOlder);
  // Off the path: background.
  CHECK(colorDistance(fresh, px(-40), py(30), opt.background) < 6);
  // The walker stands still at x = 0; the rest of the trail fades frame by frame.
  int previous = bgRecent;
  for (int f = 0; f < 60; ++f) {
    r.draw(cam, a, nullptr, opt);
    if (f % 10 == 9) {
      const Image im = read(r);
      const int d = colorDistance(im, px(-16), py(0), opt.background);
      CHECK(d <= previous);
      previous = d;
    }
  }
  const Image faded = read(r);
  save(faded, "render_trail_faded.png");
  CHECK(colorDistance(faded, px(-16), py(0), opt.background) <= 3);
  CHECK(colorDistance(faded, px(-64), py(0), opt.background) <= 3);
  // The standing walker is still drawn.
  CHECK(colorDistance(faded, px(0), py(6), groupColor(3)) < 12);
  // Turning trails off gives a clean background behind.
  opt.trails = false;
  r.draw(cam, a, nullptr, opt);
  CHECK(colorDistance(read(r), px(-16), py(0), opt.background) < 3);
}

TEST_CASE("side by side, each half keeps its own trails: the pixels of a canvas of its own") {
  // Two walkers, one a half: the left crosses to the right, the right
  // climbs. Drawn into the halves of one canvas, frame by frame left then
  // right, each half must be what a canvas of half the width draws for its
  // walker alone, trails and all, pixel for pixel (within 3 levels).
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  RenderOptions opt;
  opt.trails = true;
  opt.trailFade = 0.1f;
  Camera2D half = unitCamera();
  half.width = W / 2;
  const auto walker = [](int side, int f) {
    return side == 0 ? packInstance(-40.0f + 3.0f * f, 0, 240, 0, 6, 3, 0)
                     : packInstance(0, -60.0f + 4.0f * f, 0, 240, 6, 1, 0);
  };
  GlRenderer both;
  REQUIRE_MESSAGE(both.init(&err), err);
  both.resize(W, H);
  GlRenderer alone[2];
  for (GlRenderer& r : alone) {
    REQUIRE_MESSAGE(r.init(&err), err);
    r.resize(W / 2, H);
  }
  for (int f = 0; f <= 24; ++f)
    for (int side = 0; side < 2; ++side) {
      const std::vector<AgentInstance> a{walker(side, f)};
      RenderOptions o = opt;
      o.viewportX = side * W / 2;
      o.viewportWidth = W / 2;
      both.draw(half, a, nullptr, o);
      alone[side].draw(half, a, nullptr, opt);
    }
  const Image im = read(both);
  save(im, "render_trails_side_by_side.png");
  for (int side = 0; side < 2; ++side) {
    const Image own = read(alone[side]);
    int differ = 0, trail = 0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W / 2; ++x) {
        // (A disc's anti-aliased rim may round one level apart in a column.)
        const std::uint8_t* p = im.at(side * W / 2 + x, y);
        differ += colorDistance(own, x, y, packRgba(p[0], p[1], p[2])) > 3;
        trail += colorDistance(own, x, y, opt.background) > 10;
      }
    CAPTURE(side);
    CHECK(differ == 0);
    CHECK(trail > 400);  // a trail, not just the disc (about 110 pixels)
  }
  // Whole again: one canvas's trails, started afresh (nothing of the halves' left behind).
  GlRenderer whole;
  REQUIRE_MESSAGE(whole.init(&err), err);
  whole.resize(W, H);
  const std::vector<AgentInstance> a{walker(0, 0)};
  both.draw(unitCamera(), a, nullptr, opt);
  whole.draw(unitCamera(), a, nullptr, opt);
  CHECK(read(both).px == read(whole).px);
}

TEST_CASE("obstacles are filled and walls drawn") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  GlRenderer r;
  REQUIRE_MESSAGE(r.init(&err), err);
  r.resize(W, H);
  SceneGeometry g;
  g.obstacles.push_back({{-80, -80}, {-20, -80}, {-20, -40}, {-80, -40}});
  g.walls.push_back({{20, 80}, {20, 20}, {80, 20}});
  g.goals.push_back({60, -60});
  g.measureLines.push_back({{-60, 60}, {-20, 60}});  // forward is -y: its tick points down
  g.measureAreas.push_back({{30, -90}, {90, -90}, {90, -70}, {30, -70}});
  g.speedZones.push_back({{-95, -20}, {-65, -20}, {-65, 20}, {-95, 20}});
  g.stairs.push_back({{{-15, -40}, {15, -40}, {15, 0}, {-15, 0}}, Vec2{0, 1}});
  Mesh m;
  buildSceneMesh(g, 1, m);
  r.setSceneMesh(m);
  RenderOptions opt;
  opt.trails = false;
  r.draw(unitCamera(), {}, nullptr, opt);
  const Image im = read(r);
  save(im, "render_scene.png");
  CHECK(colorDistance(im, px(-50), py(-60), packRgba(150, 150, 158)) < 12);  // inside the obstacle
  CHECK(colorDistance(im, px(20), py(50), packRgba(40, 40, 48)) < 30);       // on the wall
  CHECK(colorDistance(im, px(50), py(20), packRgba(40, 40, 48)) < 30);
  CHECK(colorDistance(im, px(50), py(50), opt.background) < 6);              // the corner it bounds
  CHECK(colorDistance(im, px(60), py(-60), opt.background) > 30);            // the goal mark
  // A measurement line in purple, its tick below its middle and not above;
  // an area outlined, its inside left clear.
  const std::uint32_t purple = packRgba(150, 60, 200);
  CHECK(colorDistance(im, px(-50), py(60), purple) < 60);
  CHECK(colorDistance(im, px(-40), py(55), purple) < 60);
  CHECK(colorDistance(im, px(-40), py(65), opt.background) < 6);
  CHECK(colorDistance(im, px(60), py(-90), purple) < 60);
  CHECK(colorDistance(im, px(60), py(-80), opt.background) < 6);
  // A speed zone tinted teal inside; a flight of stairs tinted brown, its
  // arrow up the middle, its head at the top.
  const auto greenness = [&](int x, int y) { return int(im.at(x, y)[1]) - int(im.at(x, y)[0]); };
  CHECK(colorDistance(im, px(-80), py(0), opt.background) > 4);
  CHECK(greenness(px(-80), py(0)) > greenness(px(-50), py(0)));  // greener than the ground outside
  const std::uint32_t brown = packRgba(120, 90, 40);
  CHECK(colorDistance(im, px(0), py(-20), brown) < 60);       // the arrow's shaft
  CHECK(colorDistance(im, px(8), py(-30), opt.background) > 4);  // the flight's fill
  CHECK(colorDistance(im, px(8), py(-30), brown) > 60);
  CHECK(colorDistance(im, px(0), py(-50), opt.background) < 6);  // below the flight: clear
}

TEST_CASE("the app draws the ring with its teaching view") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  app::VizApp viz(app::makeBuiltin("ring"));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.velocityInset = false;  // the velocity plane over the crowd, as before the inset
  viz.renderOptions().trails = true;
  viz.drawCanvas(640, 480);
  viz.fit();
  for (int k = 0; k < 200; ++k) {  // 200 steps of 1/60 s: converging on the middle
    viz.advance(1.0 / 60);
    if (k % 4 == 0) viz.drawCanvas(640, 480);
  }
  viz.drawCanvas(640, 480);
  const Image plain = read(viz.renderer());
  save(plain, "app_ring_trails.png");
  // Walkers the sim says are jammed are ringed in orange in the picture.
  const std::size_t jammed = viz.host().crowd().lastStats().jammed;
  int orange = 0;
  for (int y = 0; y < plain.h; ++y)
    for (int x = 0; x < plain.w; ++x) orange += isOrange(plain, x, y);
  if (jammed > 0) CHECK(orange > 10 * static_cast<int>(jammed));
  else CHECK(orange == 0);
  viz.select(0);
  REQUIRE(viz.selectedIndex() == 0);
  viz.camera().zoom *= 2.5f;
  const FrameView f = viz.host().crowd().frame();
  viz.camera().center = {f.px[0], f.py[0]};
  viz.drawCanvas(640, 480);
  const Image teach = read(viz.renderer());
  save(teach, "app_ring_teaching.png");
  CHECK(viz.screenshot(test::outPath("app_screenshot.png")));
  // The selected walker sits mid-canvas with a dark selection ring around it.
  const int r = static_cast<int>(std::lround(f.radius[0] * viz.camera().zoom));
  int dark = 0;
  for (int y = 240 - 2 * r; y <= 240 + 2 * r; ++y)
    for (int x = 320 - 2 * r; x <= 320 + 2 * r; ++x) {
      const std::uint8_t* p = teach.at(x, y);
      dark += p[0] < 40 && p[1] < 40 && p[2] < 40;
    }
  CHECK(dark > 10);
  // Green shading of the permitted sides covers part of the view.
  int greenish = 0;
  for (int y = 0; y < 480; y += 2)
    for (int x = 0; x < 640; x += 2) {
      const std::uint8_t* p = teach.at(x, y);
      greenish += p[1] > p[0] + 6 && p[1] > p[2] + 6;
    }
  CHECK(greenish > 200);
}

TEST_CASE("the teaching view of the head-on pair, as in the figure") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto host = app::openScene("headon", &err);
  REQUIRE_MESSAGE(host != nullptr, err);
  app::VizApp viz(std::move(host));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.renderOptions().trails = true;
  for (int k = 0; k < 240; ++k) {
    viz.drawCanvas(640, 480);
    viz.advance(1.0 / 60);
    const FrameView f = viz.host().crowd().frame();
    if (f.px.size() == 2 && std::fabs(f.px[0] - f.px[1]) < 6 * (f.radius[0] + f.radius[1])) break;
  }
  viz.select(0);
  REQUIRE(viz.selectedIndex() == 0);
  viz.drawCanvas(640, 480);
  const Image im = read(viz.renderer());
  save(im, "app_headon_teaching.png");
  // Both walkers and the overlay are in view: the picture is not just background.
  int nonBg = 0;
  for (int y = 0; y < im.h; y += 2)
    for (int x = 0; x < im.w; x += 2) nonBg += colorDistance(im, x, y, viz.renderOptions().background) > 30;
  CHECK(nonBg > 500);
}

TEST_CASE("a buffer filled outside the renderer (the interop path) draws the same pixels as an upload") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  std::vector<AgentInstance> a = {packInstance(-30, 10, 5, 5, 12, 4, 1), packInstance(35, -20, -3, 0, 9, 5, 0)};
  RenderOptions opt;
  opt.trails = false;
  GlRenderer up;
  REQUIRE_MESSAGE(up.init(&err), err);
  up.resize(W, H);
  up.draw(unitCamera(), a, nullptr, opt);
  const Image viaUpload = read(up);
  GlRenderer ext;
  REQUIRE_MESSAGE(ext.init(&err), err);
  ext.resize(W, H);
  ext.useInstanceBuffer(a.size());
  REQUIRE(ext.instanceCapacity() >= a.size());
  // What a CUDA pack kernel would write into the mapped buffer.
  glBindBuffer(GL_ARRAY_BUFFER, ext.instanceBuffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(a.size() * sizeof(AgentInstance)), a.data());
  ext.draw(unitCamera(), {}, nullptr, opt);
  const Image viaBuffer = read(ext);
  CHECK(viaUpload.px == viaBuffer.px);
}

namespace {
// The ring after 150 steps on `kind`, as the app draws it.
Image ringOn(BackendKind kind, bool* interop, std::string* status) {
  std::string err;
  app::VizApp viz(app::makeBuiltin("ring"));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.setBackend(kind);
  *status = viz.status();
  viz.renderOptions().trails = true;
  viz.drawCanvas(480, 360);
  viz.fit();
  for (int k = 0; k < 150; ++k) {
    viz.stepOnce();
    if (k % 10 == 0) viz.drawCanvas(480, 360);
  }
  viz.drawCanvas(480, 360);
  *interop = viz.lastDrawUsedInterop();
  return read(viz.renderer());
}
}  // namespace

TEST_CASE("the app draws the same pixels stepping on the CUDA backend as on the CPU") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  bool interop = true;
  std::string status;
  const Image cpu = ringOn(BackendKind::Cpu, &interop, &status);
  CHECK_FALSE(interop);  // the CPU backend always uploads
  save(cpu, "app_ring_cpu.png");
  std::string why;
  if (!cudaAvailable(&why)) {
    // auto says plainly that it took the CPU, and draws the same.
    const Image autoIm = ringOn(BackendKind::Auto, &interop, &status);
    CHECK(status.find("using the CPU backend") != std::string::npos);
    CHECK(autoIm.px == cpu.px);
    MESSAGE("SKIPPED the CUDA half (no device: " << why << ")");
    return;
  }
  const Image gpu = ringOn(BackendKind::Cuda, &interop, &status);
  save(gpu, "app_ring_cuda.png");
  const std::string how = interop ? "through CUDA-GL interop" : "by host upload (no NVIDIA GL context)";
  MESSAGE("CUDA backend drew " << how);
  CHECK(gpu.px == cpu.px);
  // On a GPU machine with EGL on the NVIDIA driver (scripts/gpu_check.sh)
  // the interop path itself must have drawn, not the upload fallback.
  if (const char* e = std::getenv("THRONG_EXPECT_INTEROP"); e && *e == '1') CHECK_MESSAGE(interop, status);
}

TEST_CASE("small discs drawn as point sprites match the instanced quads") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  std::vector<AgentInstance> a;
  for (int k = 0; k < 12; ++k)
    a.push_back(packInstance(-80.0f + 14.0f * k, 10.0f * std::sin(0.7f * k), 3.0f * std::cos(0.5f * k), 2.0f,
                             3.0f + 0.25f * k, k, k % 3 == 0));
  RenderOptions opt;
  opt.trails = false;
  GlRenderer pts, quads;
  REQUIRE_MESSAGE(pts.init(&err), err);
  REQUIRE_MESSAGE(quads.init(&err), err);
  pts.resize(W, H);
  quads.resize(W, H);
  quads.forceQuads = true;
  pts.draw(unitCamera(), a, nullptr, opt);
  quads.draw(unitCamera(), a, nullptr, opt);
  CHECK(pts.lastDrawUsedPoints());
  CHECK(!quads.lastDrawUsedPoints());
  const Image p = read(pts), q = read(quads);
  save(p, "render_points.png");
  long diff = 0;
  int worst = 0;
  for (std::size_t i = 0; i < p.px.size(); ++i) {
    const int d = std::abs(static_cast<int>(p.px[i]) - static_cast<int>(q.px[i]));
    diff += d;
    worst = std::max(worst, d);
  }
  CHECK(static_cast<double>(diff) / static_cast<double>(p.px.size()) < 0.05);
  CHECK(worst < 48);
  // Jammed ones keep their orange ring as points too.
  CHECK(orangeInAnnulus(p, a[0].x, a[0].y, a[0].radius, a[0].radius + 8) > 5);
}

TEST_CASE("a live recording takes a fixed slice of sim time per frame, whatever the frame took") {
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  auto host = app::openScene("headon", &err);
  REQUIRE_MESSAGE(host != nullptr, err);
  app::VizApp viz(std::move(host));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.drawCanvas(320, 240);
  const std::string out = test::outPath("live_record.mp4");
  std::string msg;
  REQUIRE_MESSAGE(viz.startRecording(out, 30, &msg), msg);
  const double t0 = viz.host().crowd().time();
  for (int f = 0; f < 45; ++f) {
    viz.advance(f % 2 ? 0.001 : 2.0);  // wildly uneven frames
    viz.drawCanvas(800, 600);         // size is locked while recording
    viz.afterFrame();
  }
  CHECK(viz.renderer().width() == 320);
  CHECK(viz.recorder().frames() == 45);
  viz.stopRecording();
  CHECK(!viz.recorder().active());
  CHECK(viz.host().crowd().time() - t0 == doctest::Approx(1.5).epsilon(1e-6));  // 45 frames at 30 fps
  const bool written = std::filesystem::exists(out) || std::filesystem::exists(test::outPath("live_record_frames"));
  CHECK(written);
}

TEST_CASE("screenshots and recordings: a hostile scene name stays in the folder, and no planted link is followed") {
  namespace fs = std::filesystem;
  std::string err;
  REQUIRE_MESSAGE(test::glContext(&err), err);
  const fs::path dir = test::outPath("hostile_names");
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  const fs::path scene = dir / "evil.json";
  {
    std::FILE* f = std::fopen(scene.c_str(), "w");
    REQUIRE(f);
    std::fputs(R"({"name": "../../x", "agents": [{"at": [0, 0], "goal": [3, 0]}, {"at": [3, 0], "goal": [0, 0]}]})", f);
    std::fclose(f);
  }
  auto host = app::openScene(scene.string(), &err);
  REQUIRE_MESSAGE(host != nullptr, err);
  app::VizApp viz(std::move(host));
  REQUIRE_MESSAGE(viz.initGl(&err), err);
  viz.drawCanvas(64, 48);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir / "sub");  // the timestamped names go in the working folder
  // Two screenshots in one second: the second takes -2, neither leaves the folder.
  REQUIRE(viz.screenshot());
  const std::string first = viz.status();
  REQUIRE(viz.screenshot());
  const std::string second = viz.status();
  // A recording without ffmpeg: a PNG sequence in a new folder of its own.
  setenv("THRONG_FFMPEG", "", 1);
  REQUIRE(viz.startRecording("", 30, &err));
  viz.afterFrame();
  viz.stopRecording();
  // Links planted at an explicit screenshot's name and at a recording's frames folder.
  {
    std::FILE* f = std::fopen("victim", "w");
    std::fputs("secret", f);
    std::fclose(f);
  }
  fs::create_symlink("victim", "shot.png");
  fs::create_directory(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", "rec_frames");
  REQUIRE(viz.screenshot("shot.png"));
  REQUIRE(viz.startRecording("rec.mp4", 30, &err));
  viz.afterFrame();
  viz.stopRecording();
  unsetenv("THRONG_FFMPEG");
  fs::current_path(cwd);
  INFO(first << " | " << second);
  std::vector<std::string> made;
  for (const auto& e : fs::recursive_directory_iterator(dir)) made.push_back(fs::relative(e.path(), dir).string());
  std::sort(made.begin(), made.end());
  for (const std::string& m : made) INFO(m);
  // Nothing above the folder: "x" is not where ../../x would have put it.
  CHECK(!fs::exists(dir.parent_path() / "x.png"));
  int shots = 0, frameDirs = 0;
  for (const auto& e : fs::directory_iterator(dir / "sub")) {
    const std::string n = e.path().filename().string();
    if (n.rfind("throng-", 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".png") {
      ++shots;
      CHECK(n.find("_.._x-") != std::string::npos);
    }
    if (n.rfind("throng-", 0) == 0 && n.find("_frames") != std::string::npos) ++frameDirs;
    CHECK(n.find(".partial") == std::string::npos);
  }
  CHECK(shots == 2);
  CHECK(frameDirs == 1);
  CHECK(first != second);
  CHECK(second.find("-2.png") != std::string::npos);
  std::FILE* v = std::fopen((dir / "sub" / "victim").c_str(), "r");
  char buf[16] = {};
  REQUIRE(v);
  CHECK(std::fread(buf, 1, sizeof buf - 1, v) == 6);
  std::fclose(v);
  CHECK(std::string(buf) == "secret");
  CHECK(!fs::is_symlink(dir / "sub" / "shot.png"));
  CHECK(fs::is_empty(dir / "elsewhere"));  // the planted folder got no frames
  CHECK(fs::exists(dir / "sub" / "rec_frames-2" / "frame_000001.png"));
}
