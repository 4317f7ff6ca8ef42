#pragma once
// Values at the edges of each setting's limits, from settingsTable(): for
// every end, the value just inside (accepted) and the value just outside
// (refused). Every path that takes a setting (setSetting, scene files,
// Scene::set and assign, --set, the built-in scenes, the panel) is tested
// against the same probes, so none can keep limits of its own.
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "throng/settings.hpp"

namespace settingtest {

struct Probe {
  std::string text;  ///< the text form (--set, setSettingText)
  double value = std::numeric_limits<double>::quiet_NaN();  ///< the number (NaN: a name, which takes no number)
  bool inside = false;
};

inline std::vector<Probe> probes(const throng::SettingInfo& info) {
  using throng::SettingKind;
  const auto num = [](double v, bool inside) { return Probe{throng::formatSettingNumber(v), v, inside}; };
  const throng::SettingLimits& l = info.limits;
  const double up = std::numeric_limits<double>::infinity();
  switch (info.kind) {
    case SettingKind::Real:
      return {num(l.minOpen ? std::nextafter(l.min, up) : l.min, true),
              num(l.minOpen ? l.min : std::nextafter(l.min, -up), false),
              num(l.maxOpen ? std::nextafter(l.max, -up) : l.max, true),
              num(l.maxOpen ? l.max : std::nextafter(l.max, up), false)};
    case SettingKind::Integer:  // whole numbers: the nearest outside is one away
      return {num(l.min, true), num(l.min - 1, false), num(l.max, true), num(l.max + 1, false)};
    case SettingKind::Seed:
      return {{"0", 0, true},
              {"18446744073709551615", std::nan(""), true},  // exact as text; no double is 2^64 - 1
              {"18446744073709549568", 0x1p64 - 2048, true},  // the largest double below 2^64
              {"-1", -1, false},
              {"18446744073709551616", 0x1p64, false}};
    case SettingKind::Choice: {
      std::vector<Probe> out;
      for (const std::string& name : info.choices()) out.push_back({name, std::nan(""), true});
      out.push_back({"nosuch", std::nan(""), false});
      out.push_back({"", std::nan(""), false});
      return out;
    }
  }
  return {};
}

/// The pieces joined (GCC 12 warns wrongly, -Wrestrict, on some chains of
/// + that start with a literal).
inline std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

/// A scene file's "settings" value for a probe: the number, or the name as
/// a JSON string.
inline std::string json(const throng::SettingInfo& info, const Probe& p) {
  return info.kind == throng::SettingKind::Choice ? cat({"\"", p.text, "\""}) : p.text;
}

}  // namespace settingtest
