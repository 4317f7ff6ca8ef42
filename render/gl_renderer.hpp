#pragma once
// GlRenderer: draws a crowd snapshot into an offscreen canvas with OpenGL
// 3.3 core (through libepoxy; a context must be current). It sees only
// instance records, overlay meshes and a camera, never the sim.
//
// A frame:
//  1. trails (when on): fade the trail buffer toward the background (the
//     translucent sheet, as a shader pass between two RGBA8 targets that
//     always fades all the way out; see shaders/fade.frag), then stamp
//     small dots at every walker;
//  2. canvas: the trail buffer (or the background), the field overlay
//     (when set: one textured quad over the field grid, a texel per cell,
//     render/field_layer.hpp), scene mesh, field arrows (when set), ground
//     markers (when set: round points, one draw call), walker discs,
//     overlay mesh (teaching view).
// The canvas is what screenshots and videos read (no UI in it); present()
// copies it to the default framebuffer, under the UI.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/instance.hpp"
#include "render/overlay.hpp"

namespace throng::render {

struct RenderOptions {
  bool trails = true;
  /// Opacity of the sheet laid over the trail buffer each frame [Limit: 0..1]:
  /// larger fades faster (a mark falls to (1 - fade)^n after n frames).
  float trailFade = 0.04f;
  float trailDotScale = 0.35f;  ///< trail dot radius / walker radius
  std::uint32_t background = packRgba(246, 246, 243);
  /// Opacity of the field overlay over the ground and trails [Limit: 0..1].
  float fieldOpacity = 0.8f;
  /// Side by side: draw into the canvas's columns [viewportX, viewportX +
  /// viewportWidth) only, leaving the rest as it is (the camera's width
  /// should be viewportWidth). Each column keeps its own trails. 0 wide:
  /// the whole canvas.
  int viewportX = 0, viewportWidth = 0;
  /// The run's field (its overlay and arrows); off for a second run drawn
  /// beside the first (the field is the first run's).
  bool runLayers = true;
  /// Which set of ground markers to draw (setMarkers): 0 the first run's,
  /// 1 a second run's beside it; another value, none.
  int markerSet = 0;
};

class GlRenderer {
 public:
  GlRenderer() = default;
  ~GlRenderer();
  GlRenderer(const GlRenderer&) = delete;
  GlRenderer& operator=(const GlRenderer&) = delete;

  /// Compiles the shaders and makes the buffers. Returns false with a
  /// message when the GL is too old or a shader fails.
  bool init(std::string* error);
  /// Sets the canvas size in pixels (clears the trails when it changes).
  void resize(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }

  /// Replaces the static scene mesh (obstacles, walls, marks).
  void setSceneMesh(const Mesh& mesh);
  /// Forgets the trails (after a reset, a camera move or a resize).
  void clearTrails() { trailColumns_.clear(); }
  /// Replaces the ground markers drawn by every draw() from now on: points
  /// in world units with their colours (render/markers.hpp's packMarkers),
  /// round dots `dotPx` pixels across, under the walkers. Uploads at once;
  /// an empty span draws none and uploads nothing. `set` 1 is a second
  /// run's, drawn with RenderOptions::markerSet 1.
  void setMarkers(std::span<const Vertex> points, float dotPx, int set = 0);
  std::size_t markerCount(int set = 0) const { return markers_[set == 1 ? 1 : 0].count; }
  /// Replaces the field overlay drawn by every draw() from now on: `texels`
  /// (cols * rows RGBA, row 0 at origin.y; render/field_layer.hpp's
  /// buildFieldLayer) stretched over the grid's cols x rows cells of side
  /// `cell` from `origin`, one texel per cell, under the scene and the
  /// walkers. Uploads at once. An empty span draws none. False (none drawn)
  /// when the grid is wider than the GL's largest texture.
  bool setField(std::span<const std::uint32_t> texels, int cols, int rows, Vec2 origin, float cell);
  bool hasField() const { return fieldCols_ > 0; }
  /// Replaces the field's arrows (a triangle mesh in world units, over the
  /// scene mesh and under the markers and walkers); empty: none.
  void setFieldMesh(const Mesh& mesh);

  /// Draws a frame into the canvas.
  void draw(const Camera2D& camera, std::span<const AgentInstance> agents, const Mesh* overlay,
            const RenderOptions& options);
  /// Uploads instance records into the instance buffer (the CPU path; a
  /// CUDA-GL interop path may fill instanceBuffer() instead and call
  /// draw with an empty span and `count`).
  void uploadInstances(std::span<const AgentInstance> agents);
  /// For CUDA-GL interop: makes the instance buffer hold at least `count`
  /// records (reallocating, so register it with CUDA after this call) and
  /// draws `count` of them from then on. Fill it with packInstance per
  /// walker (render/instance.hpp), then call draw() with an empty span.
  /// `maxRadius` (world units) lets small discs be drawn as point sprites;
  /// leave it infinite when unknown.
  void useInstanceBuffer(std::size_t count, float maxRadius = 1e30f);
  unsigned instanceBuffer() const { return instanceVbo_; }
  std::size_t instanceCapacity() const { return instanceCapacity_; }

  /// Discs at most this many pixels across (ring included) are drawn as
  /// point sprites, larger ones as instanced quads. Points are clipped by
  /// their centre, so a small disc at the very edge may pop; hence the cap.
  static constexpr float kMaxPointDiscPx = 32;
  bool forceQuads = false;  ///< always instanced quads (tests compare both)
  bool lastDrawUsedPoints() const { return lastDrawUsedPoints_; }

  /// Binds the canvas as the draw target, its size the viewport, for
  /// drawing over a frame (presentation mode's text).
  void bindCanvas() const;
  /// Copies the canvas to the default framebuffer of `w` x `h` pixels.
  void present(int w, int h);
  /// The canvas as RGBA8, top row first (PNG order).
  void readCanvas(std::vector<std::uint8_t>& rgba) const;
  /// The canvas as GL gives it, bottom row first (for `ffmpeg -vf vflip`).
  void readCanvasBottomUp(std::vector<std::uint8_t>& rgba) const;

 private:
  void destroyTargets();
  void drawInstances(const Camera2D& cam, std::size_t count, float radiusScale, bool tick);
  void drawDots(const Camera2D& cam, std::size_t count, float radiusScale);
  void drawMesh(const Camera2D& cam, unsigned vao, unsigned vbo, std::size_t vertexCount);
  struct MarkerSet;
  void drawMarkers(const Camera2D& cam, const MarkerSet& set);
  void drawField(const Camera2D& cam, float opacity);

  int width_ = 0, height_ = 0;
  unsigned canvasFbo_ = 0, canvasTex_ = 0, trailFbo_[2] = {}, trailTex_[2] = {};
  unsigned discProg_ = 0, flatProg_ = 0, fadeProg_ = 0, blitProg_ = 0, dotProg_ = 0, markerProg_ = 0;
  unsigned dotVao_ = 0, discPointProg_ = 0;
  float maxPointSize_ = 1, maxRadius_ = 0;
  bool lastDrawUsedPoints_ = false;
  unsigned quadVbo_ = 0, instanceVbo_ = 0, discVao_ = 0;
  unsigned sceneVbo_ = 0, sceneVao_ = 0, overlayVbo_ = 0, overlayVao_ = 0, emptyVao_ = 0;
  std::size_t sceneVertices_ = 0, instanceCapacity_ = 0, instanceCount_ = 0;
  /// A set of ground markers: its buffer, how many it holds and has room for, their size.
  struct MarkerSet {
    unsigned vbo = 0, vao = 0;
    std::size_t count = 0, capacity = 0;
    float dotPx = 2;
  };
  MarkerSet markers_[2];
  unsigned fieldProg_ = 0, fieldTex_ = 0, fieldMeshVbo_ = 0, fieldMeshVao_ = 0;
  int fieldCols_ = 0, fieldRows_ = 0, fieldTexCols_ = 0, fieldTexRows_ = 0, maxTextureSize_ = 0;
  Vec2 fieldOrigin_;
  float fieldCell_ = 0;
  std::size_t fieldMeshVertices_ = 0;
  /// The trails of one column of the canvas (the whole of it, or one half
  /// side by side): which of the two trail targets holds its current
  /// trails, and the camera they were drawn with. A column's pixels in the
  /// targets are its own; a column overlapping another's forgets it.
  struct TrailColumn {
    int x = 0, width = 0;
    int cur = 0;
    Camera2D camera{};
  };
  std::vector<TrailColumn> trailColumns_;
  /// The column [x, x + width), made (and its pixels cleared by the caller) when new.
  TrailColumn& trailColumn(int x, int width, bool& fresh);
};

/// Top-row-first RGBA8 pixels encoded as a PNG file's bytes; empty on failure.
std::string encodePng(int width, int height, const std::vector<std::uint8_t>& rgba);
/// Writes top-row-first RGBA8 pixels as a PNG, whole or not at all (through
/// throng::writeFileWhole: a fresh partial renamed over `path`). False with
/// *error on failure.
bool writePng(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
              std::string* error = nullptr);

}  // namespace throng::render
