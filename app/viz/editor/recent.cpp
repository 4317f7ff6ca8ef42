#include "viz/editor/recent.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "throng/output_file.hpp"

namespace throng::app::edit {

void RecentFiles::load() {
  paths_.clear();
  if (store_.empty()) return;
  std::ifstream in(store_);
  std::string line;
  while (paths_.size() < kMax && std::getline(in, line))
    if (!line.empty() && std::find(paths_.begin(), paths_.end(), line) == paths_.end()) paths_.push_back(line);
}

void RecentFiles::add(const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  const std::string abs = ec ? path : p.lexically_normal().string();
  paths_.erase(std::remove(paths_.begin(), paths_.end(), abs), paths_.end());
  paths_.insert(paths_.begin(), abs);
  if (paths_.size() > kMax) paths_.resize(kMax);
  save();
}

bool RecentFiles::save() const {
  if (store_.empty()) return true;
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(store_).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  std::string text;
  for (const std::string& p : paths_) text += p + '\n';
  return writeFileWhole(store_, text, nullptr);
}

std::string userConfigFile(const char* overrideVar, const char* name) {
  auto env = [](const char* var) -> std::string {
    const char* v = std::getenv(var);
    return v && *v ? v : "";
  };
  if (std::string s = env(overrideVar); !s.empty()) return s;
  if (std::string s = env("XDG_CONFIG_HOME"); !s.empty()) return s + "/throng/" + name;
  if (std::string s = env("HOME"); !s.empty()) return s + "/.config/throng/" + name;
  return {};
}

std::string defaultRecentStore() { return userConfigFile("THRONG_RECENT_FILES", "recent-scenes"); }

}  // namespace throng::app::edit
