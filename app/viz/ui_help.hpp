#pragma once
// Small ImGui helpers the panels share.
#include <imgui.h>

#include <cstdint>

namespace throng::app {

/// A "(?)" after the last widget that shows `text` when hovered.
inline void help(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

/// `text` as the last widget's tooltip while it is hovered (no marker: the
/// label keeps the room).
inline void hoverHelp(const char* text) {
  if (*text && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text);
}

/// A packed colour (R in the lowest byte, as render's) as ImGui's, opaque: for text.
inline ImVec4 rgbaToImVec4(std::uint32_t rgba) {
  auto c = [&](int shift) { return static_cast<float>((rgba >> shift) & 0xFFu) / 255.0f; };
  return ImVec4(c(0), c(8), c(16), 1);
}

}  // namespace throng::app
