// Preset files (preset.hpp).
#include "preset.hpp"

#include <fstream>
#include <iterator>

#include "args.hpp"
#include "throng/settings.hpp"

namespace throng::cli {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
}  // namespace

std::string assignmentProblem(std::string_view a) {
  const std::size_t eq = a.find('=');
  if (eq != std::string_view::npos && eq > 0 && findSetting(a.substr(0, eq))) {
    Settings probe;
    std::string why;
    return setSettingText(probe, a.substr(0, eq), a.substr(eq + 1), &why) ? std::string() : why;
  }
  if (splitAssignment(a)) return {};
  return "expected name=value with a finite number, got '" + std::string(a) + "'";
}

bool readPreset(const std::string& path, std::vector<PresetLine>& out, std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = path + ": cannot read it";
    return false;
  }
  std::string text;
  text.resize(kMaxPresetBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxPresetBytes) {
    *why = path + ": larger than " + std::to_string(kMaxPresetBytes) + " bytes; a preset is a few lines";
    return false;
  }
  if (text.find('\0') != std::string::npos) {
    *why = path + ": not a text file";
    return false;
  }
  out.clear();
  std::size_t lineNo = 0, start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    ++lineNo;
    if (lineNo > kMaxPresetLines) {
      *why = path + ": more than " + std::to_string(kMaxPresetLines) + " lines";
      return false;
    }
    const std::string_view line = trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const std::size_t eq = line.find('=');
    std::string a = eq == std::string_view::npos
                        ? std::string(line)
                        : std::string(trim(line.substr(0, eq))) + "=" + std::string(trim(line.substr(eq + 1)));
    const std::string where = path + ":" + std::to_string(lineNo);
    if (const std::string problem = assignmentProblem(a); !problem.empty()) {
      *why = where + ": " + problem;
      return false;
    }
    out.push_back({where, std::move(a)});
  }
  return true;
}

std::string presetText(const std::vector<std::string>& assignments, std::string_view comment) {
  std::string out = "# ";
  for (char c : comment) out.push_back(c == '\n' || c == '\r' ? ' ' : c);
  out.push_back('\n');
  for (const std::string& a : assignments) {
    out += a;
    out.push_back('\n');
  }
  return out;
}

}  // namespace throng::cli
