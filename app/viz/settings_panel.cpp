#include "viz/settings_panel.hpp"

#include <algorithm>
#include <cmath>

namespace throng::app {

std::vector<SettingWidget> settingWidgets(float maxRadius) {
  const double radius = maxRadius > 0 && std::isfinite(maxRadius) ? maxRadius : 1.0;
  std::vector<SettingWidget> out;
  for (const SettingInfo& info : settingsTable()) {
    SettingWidget w;
    w.info = &info;
    w.label = std::string(info.name);
    std::string models;
    for (std::string_view m : info.models) models += (models.empty() ? "" : ", ") + std::string(m);
    w.tooltip = std::string(info.help) + ".\n" + formatLimits(info) + (info.unit.empty() ? "" : " ") +
                std::string(info.unit) + ", default " + formatDefault(info) + "; read by " +
                (models.empty() ? "every model" : models) + ".";
    switch (info.kind) {
      case SettingKind::Choice:
        w.kind = SettingWidget::Kind::Combo;
        w.choices = info.choices();
        w.tooltip += "\nTakes effect at the next step.";
        break;
      case SettingKind::Seed:
        w.kind = SettingWidget::Kind::SeedInput;
        w.tooltip += "\nEnter rebuilds the scene from this seed.";
        break;
      case SettingKind::Real:
      case SettingKind::Integer: {
        const SettingLimits& l = info.limits;
        if (info.ui.given()) {
          const double scale = info.ui.perRadius ? radius : 1.0;
          w.min = info.ui.min * scale;
          w.max = info.ui.max * scale;
        } else {
          w.min = l.minOpen ? std::nextafter(l.min, l.max) : l.min;
          w.max = l.maxOpen ? std::nextafter(l.max, l.min) : l.max;
        }
        w.integer = info.kind == SettingKind::Integer;
        const double resolution = w.integer ? 1.0 : 0.001;
        w.logarithmic = w.max >= 50 * std::max(w.min, resolution);
        if (w.integer) {
          w.format = "%d";
        } else {
          // Enough decimals to show the bottom of the range: 0.05 -> 3, 0.002 -> 4.
          const int decimals = w.min > 0 ? std::max(2, 1 - static_cast<int>(std::floor(std::log10(w.min)))) : 3;
          w.format = "%." + std::to_string(decimals) + "f";
          if (!info.unit.empty() && info.unit.find(' ') == std::string_view::npos) w.format += " " + std::string(info.unit);
        }
        w.tooltip += "\nCtrl+click to type a value beyond the slider, within the limits.";
        break;
      }
    }
    out.push_back(std::move(w));
  }
  return out;
}

bool settingReadNow(const SettingInfo& info, const Settings& s) {
  if (info.models.empty()) return true;
  for (std::string_view m : info.models) {
    const auto eq = m.find(" = ");
    if (eq == std::string_view::npos) {
      if (m == s.model) return true;
    } else if (getSettingText(s, m.substr(0, eq)) == m.substr(eq + 3)) {
      return true;
    }
  }
  return false;
}

}  // namespace throng::app
