#pragma once
// The visualizer panel's settings, as data: which widget shows each setting
// of settingsTable(), over what range and in what format. Pure (no ImGui, no
// GL), so a test checks the panel against the table without a window.
#include <string>
#include <vector>

#include "throng/settings.hpp"

namespace throng::app {

struct SettingWidget {
  enum class Kind {
    Slider,     ///< Real and Integer settings
    SeedInput,  ///< the 64-bit seed: typed, exactly
    Combo,      ///< a Choice: one of `choices`
  };
  const SettingInfo* info = nullptr;
  Kind kind = Kind::Slider;
  std::string label;             ///< the setting's name
  double min = 0, max = 0;       ///< Slider: its range, inside the limits (the ui range, else the limits)
  bool integer = false;          ///< Slider: whole numbers
  bool logarithmic = false;      ///< Slider: the range spans decades (see settingWidgets)
  std::string format;            ///< Slider: printf format of the value, "%d" or "%.3f s"
  std::vector<std::string> choices;  ///< Combo: the names
  std::string tooltip;           ///< help, limits and unit, default, the models that read it
};

/// One widget per setting, in table order. A slider spans the setting's ui
/// range when the table gives one (times `maxRadius` for a range per
/// radius), else its limits (an open end moved to the nearest double
/// inside). It is logarithmic when max >= 50 x max(min, r), r = 1 for an
/// integer and 0.001 for a real (the smallest step the format shows).
/// `maxRadius` is the largest walker radius, world units; 1 when it is not
/// positive and finite.
std::vector<SettingWidget> settingWidgets(float maxRadius);

/// Whether a step with settings `s` reads setting `info`: every model's
/// (models empty), or one of its models is s.model, or one of them is a
/// condition "NAME = VALUE" on another setting that holds ("routing =
/// field": the fields' settings are read under any model then). The panel
/// dims the others.
bool settingReadNow(const SettingInfo& info, const Settings& s);

}  // namespace throng::app
