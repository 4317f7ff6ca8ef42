#pragma once
// A preset: the values of a scene's knobs and settings as a file, one
// NAME=VALUE a line, as `--set` takes them. `--set-file FILE` reads one
// before the command's own --set flags (so those win); the visualizer saves
// the current values to one and loads one back.
//
// The file is text: blank lines and lines whose first non-blank character is
// '#' are skipped; spaces round the name and the value are dropped. At most
// kMaxPresetBytes and kMaxPresetLines: a preset is a handful of lines, and a
// huge file is refused, not read.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace throng::cli {

inline constexpr std::size_t kMaxPresetBytes = 1 << 20;
inline constexpr std::size_t kMaxPresetLines = 10000;

struct PresetLine {
  std::string where;       ///< "FILE:LINE", for messages
  std::string assignment;  ///< "name=value"
};

/// Why `assignment` is not one --set takes, or empty: a setting's name with a
/// value it accepts (text: a model by name, a seed exactly), or any other
/// name with a finite number (a knob, which the scene checks when it loads).
std::string assignmentProblem(std::string_view assignment);

/// Reads the preset at `path`. False with *why, one line naming the file and
/// the line ("p.preset:3: expected name=value ...").
bool readPreset(const std::string& path, std::vector<PresetLine>& out, std::string* why);

/// A preset's text: `comment` as a '#' line, then each assignment on its own line.
std::string presetText(const std::vector<std::string>& assignments, std::string_view comment);

}  // namespace throng::cli
