// Presentation mode's overlay (present.hpp).
#include "viz/present.hpp"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "render/gl_renderer.hpp"

namespace throng::app {

namespace {

constexpr const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kBakedPx = 48;      ///< the font's size in the atlas; drawn scaled
constexpr float kReferencePx = 720; ///< the canvas height the sizes below are for
constexpr std::size_t kMaxCaption = 240;  ///< characters of the caption shown

const ImU32 kInk = IM_COL32(32, 32, 32, 255);
const ImU32 kBackdrop = IM_COL32(255, 255, 255, 214);
const ImU32 kPlotLine = IM_COL32(222, 110, 20, 255);  // the jam ring's orange
const ImU32 kPlotLineB = IM_COL32(40, 110, 220, 255);  // side by side's second run

/// ImGui's context switched in for a scope, and back.
struct UseContext {
  ImGuiContext* prev;
  explicit UseContext(ImGuiContext* c) : prev(ImGui::GetCurrentContext()) { ImGui::SetCurrentContext(c); }
  ~UseContext() { ImGui::SetCurrentContext(prev); }
};

}  // namespace

double scaleBarLength(double most) {
  if (!(most > 0) || !std::isfinite(most)) return 0;
  const double p = std::pow(10.0, std::floor(std::log10(most)));
  for (const double k : {5.0, 2.0, 1.0})
    if (k * p <= most) return k * p;
  return p;
}

Presenter::~Presenter() {
  if (!ctx_) return;
  {
    UseContext use(ctx_);
    if (backend_) ImGui_ImplOpenGL3_Shutdown();
  }
  ImGuiContext* prev = ImGui::GetCurrentContext();
  ImGui::DestroyContext(ctx_);
  if (prev != ctx_) ImGui::SetCurrentContext(prev);
}

bool Presenter::start(std::string* error) {
  if (!ctx_) {
    ImGuiContext* prev = ImGui::GetCurrentContext();
    ctx_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(ctx_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    std::error_code ec;
    ImFont* font = nullptr;
    if (std::filesystem::is_regular_file(kFontFile, ec)) font = io.Fonts->AddFontFromFileTTF(kFontFile, kBakedPx);
    if (!font) {
      ImFontConfig c;
      c.SizePixels = kBakedPx;
      io.Fonts->AddFontDefault(&c);
    }
    ImGui::SetCurrentContext(prev);
  }
  UseContext use(ctx_);
  backend_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!backend_ && error) *error = "presentation mode: ImGui's OpenGL 3 backend did not start";
  return backend_;
}

bool Presenter::draw(render::GlRenderer& canvas, int w, int h, const PresentFrame& f, std::string* error) {
  if (!backend_ && !start(error)) return false;
  UseContext use(ctx_);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = 1.0f / 60;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  ImDrawList* d = ImGui::GetForegroundDrawList();
  ImFont* font = io.Fonts->Fonts[0];
  const float s = static_cast<float>(h) / kReferencePx, m = 24 * s, pad = 10 * s;
  const float W = static_cast<float>(w), H = static_cast<float>(h);
  const auto box = [](float* out, ImVec2 a, ImVec2 b) { out[0] = a.x, out[1] = a.y, out[2] = b.x, out[3] = b.y; };
  const auto backdrop = [&](ImVec2 a, ImVec2 b) { d->AddRectFilled(a, b, kBackdrop, 8 * s); };
  boxes_ = Boxes{};

  // Side by side: the line between the runs, and each run's label.
  float labelsY = m;
  if (f.divider > 0) d->AddLine(ImVec2(f.divider, 0), ImVec2(f.divider, H), kInk, 2 * s);

  // Title and caption, top left.
  if (f.full && !f.title.empty()) {
    const float titlePx = 34 * s, captionPx = 17 * s, wrap = std::max(0.55f * W, 200 * s);
    std::string caption = f.caption;
    if (caption.size() > kMaxCaption) {
      std::size_t cut = caption.rfind(' ', kMaxCaption);
      caption.resize(cut == std::string::npos ? kMaxCaption : cut);
      caption += " ...";
    }
    const ImVec2 t = font->CalcTextSizeA(titlePx, FLT_MAX, 0, f.title.c_str());
    const ImVec2 c = caption.empty() ? ImVec2(0, 0) : font->CalcTextSizeA(captionPx, FLT_MAX, wrap, caption.c_str());
    const ImVec2 a(m, m), b(m + std::max(t.x, c.x) + 2 * pad, m + t.y + (c.y > 0 ? c.y + 4 * s : 0) + 2 * pad);
    backdrop(a, b);
    d->AddText(font, titlePx, ImVec2(a.x + pad, a.y + pad), kInk, f.title.c_str());
    if (!caption.empty())
      d->AddText(font, captionPx, ImVec2(a.x + pad, a.y + pad + t.y + 4 * s), kInk, caption.c_str(), nullptr, wrap);
    box(boxes_.title, a, b);
    labelsY = b.y + 8 * s;
  }
  for (const auto& [x, text] : f.labels) {
    const float px = 20 * s;
    const ImVec2 t = font->CalcTextSizeA(px, FLT_MAX, 0, text.c_str());
    const ImVec2 a(x + m, labelsY), b(x + m + t.x + 2 * pad, labelsY + t.y + 2 * pad);
    backdrop(a, b);
    d->AddText(font, px, ImVec2(a.x + pad, a.y + pad), kInk, text.c_str());
  }

  // The clock, top right.
  if (f.full) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f s", f.time);
    const float px = 28 * s;
    const ImVec2 t = font->CalcTextSizeA(px, FLT_MAX, 0, text);
    const ImVec2 a(W - m - t.x - 2 * pad, m), b(W - m, m + t.y + 2 * pad);
    backdrop(a, b);
    d->AddText(font, px, ImVec2(a.x + pad, a.y + pad), kInk, text);
    box(boxes_.clock, a, b);
  }

  // The scale bar, bottom left: at most a fifth of the width.
  if (f.full && f.pixelSize > 0) {
    const double length = scaleBarLength(0.2 * W * f.pixelSize);
    const float bar = static_cast<float>(length / f.pixelSize);
    char text[48];
    std::snprintf(text, sizeof text, "%g %s", length, f.units.c_str());
    const float px = 18 * s, thick = 6 * s;
    const ImVec2 t = font->CalcTextSizeA(px, FLT_MAX, 0, text);
    const ImVec2 a(m, H - m - t.y - thick - 2 * pad - 4 * s), b(m + std::max(bar, t.x) + 2 * pad, H - m);
    backdrop(a, b);
    d->AddText(font, px, ImVec2(a.x + pad, a.y + pad), kInk, text);
    const float y1 = b.y - pad, y0 = y1 - thick;
    d->AddRectFilled(ImVec2(a.x + pad, y0), ImVec2(a.x + pad + bar, y1), kInk);
    box(boxes_.bar, ImVec2(a.x + pad, y0), ImVec2(a.x + pad + bar, y1));
  }

  // One plot, bottom right (side by side: the second run's over it, in blue).
  if (f.full && !f.plotName.empty() && f.plot.size() >= 2) {
    const float bw = 0.28f * W, bh = 0.2f * H, px = 16 * s;
    const ImVec2 a(W - m - bw, H - m - bh), b(W - m, H - m);
    backdrop(a, b);
    const bool twin = f.plotB.size() == f.plot.size();
    float top = 0;
    for (const std::vector<float>* line : {&f.plot, &f.plotB})
      for (float v : *line) top = std::max(top, std::isfinite(v) ? v : 0.0f);
    if (top <= 0) top = 1;
    char text[128];
    if (twin) std::snprintf(text, sizeof text, "%s: A %.2f, B %.2f", f.plotName.c_str(), f.plot.back(), f.plotB.back());
    else std::snprintf(text, sizeof text, "%s: %.2f", f.plotName.c_str(), f.plot.back());
    d->AddText(font, px, ImVec2(a.x + pad, a.y + pad), kInk, text);
    const float x0 = a.x + pad, x1 = b.x - pad, y0 = a.y + 2 * pad + px, y1 = b.y - pad;
    d->AddLine(ImVec2(x0, y1), ImVec2(x1, y1), kInk, 1.5f * s);
    // At most one point a pixel: the last samples that fit.
    const std::size_t most = static_cast<std::size_t>(std::max(2.0f, x1 - x0));
    const auto polyline = [&](const std::vector<float>& line, ImU32 colour) {
      const std::size_t n = std::min(line.size(), most), first = line.size() - n;
      std::vector<ImVec2> pts;
      pts.reserve(n);
      for (std::size_t k = 0; k < n; ++k) {
        const float v = std::isfinite(line[first + k]) ? line[first + k] : 0.0f;
        pts.emplace_back(x0 + (x1 - x0) * static_cast<float>(k) / static_cast<float>(n - 1), y1 - (y1 - y0) * v / top);
      }
      d->AddPolyline(pts.data(), static_cast<int>(pts.size()), colour, 0, 2.5f * s);
    };
    polyline(f.plot, kPlotLine);
    if (twin) polyline(f.plotB, kPlotLineB);
    box(boxes_.plot, a, b);
  }

  ImGui::Render();
  canvas.bindCanvas();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  return true;
}

}  // namespace throng::app
