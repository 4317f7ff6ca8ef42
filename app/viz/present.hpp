#pragma once
// Presentation mode: a clean frame for video and the projector, drawn into
// the canvas itself so that screenshots, recordings and `throng record
// --present` carry it. Over the scene: its title and caption (the scene
// file's "name" and "description"), the clock, a scale bar in the scene's
// units, and one plot in a corner (the first measurement line's flow, else
// the walkers out). The panel is hidden while it is on.
//
// The text is drawn by a Dear ImGui context of its own, rendered into the
// canvas framebuffer outside the app's ImGui frame, so it never disturbs the
// panel's context or its layout. Sizes follow the canvas height (720 px is
// the reference), so a 1080p recording looks like the 720p window. The font
// is DejaVu Sans (Debian's fonts-dejavu-core) when it is installed, ImGui's
// own otherwise.
#include <string>
#include <utility>
#include <vector>

struct ImGuiContext;

namespace throng::render {
class GlRenderer;
}

namespace throng::app {

/// What one presentation frame shows.
struct PresentFrame {
  std::string title, caption;
  double time = 0;          ///< s of simulated time
  float pixelSize = 1;      ///< world units per canvas pixel
  std::string units = "m";  ///< the scene's length unit
  std::string plotName;     ///< the corner plot's title; empty: no plot
  std::vector<float> plot;  ///< its values, oldest first
  std::vector<float> plotB; ///< side by side: the second run's, drawn over it
  /// false: only the side-by-side labels and divider (presentation mode off).
  bool full = true;
  float divider = 0;        ///< side by side: the x of the line between the runs; 0: none
  std::vector<std::pair<float, std::string>> labels;  ///< (left edge x, text) of each run's label
};

/// The scale bar's length: 1, 2 or 5 times a power of ten world units,
/// the longest at most `most` units.
double scaleBarLength(double most);

class Presenter {
 public:
  Presenter() = default;
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  /// Draws `f` over the canvas (bound as the draw target), `w` x `h` px.
  /// Needs a current GL 3.3 context; false with *error when ImGui's GL
  /// backend cannot start.
  bool draw(render::GlRenderer& canvas, int w, int h, const PresentFrame& f, std::string* error);
  /// The pixel rectangles (x0, y0, x1, y1, top row 0) the last draw filled:
  /// title, clock, scale bar, plot; for the tests.
  struct Boxes {
    float title[4] = {}, clock[4] = {}, bar[4] = {}, plot[4] = {};
  };
  const Boxes& boxes() const { return boxes_; }

 private:
  bool start(std::string* error);
  ImGuiContext* ctx_ = nullptr;
  bool backend_ = false;
  Boxes boxes_;
};

}  // namespace throng::app
