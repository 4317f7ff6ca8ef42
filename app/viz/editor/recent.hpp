#pragma once
// The scene files opened and saved lately, newest first, kept in a small
// text file (one path a line) so the editor's open field offers them again
// next time. Pure (no SDL, GL or ImGui).
#include <cstddef>
#include <string>
#include <vector>

namespace throng::app::edit {

class RecentFiles {
 public:
  static constexpr std::size_t kMax = 8;
  /// `store`: the file the list is kept in ("" keeps it in memory only).
  explicit RecentFiles(std::string store = {}) : store_(std::move(store)) {}
  /// Reads the store (a missing file is an empty list).
  void load();
  /// Puts `path` (made absolute) first, dropping an older copy and the
  /// oldest past kMax, and writes the store.
  void add(const std::string& path);
  const std::vector<std::string>& list() const { return paths_; }
  const std::string& store() const { return store_; }

 private:
  bool save() const;
  std::string store_;
  std::vector<std::string> paths_;
};

/// A file of the user's throng settings: $overrideVar when set, else
/// $XDG_CONFIG_HOME/throng/NAME, else ~/.config/throng/NAME; "" when none
/// of these is set.
std::string userConfigFile(const char* overrideVar, const char* name);

/// Where the visualizer keeps its recent scenes: $THRONG_RECENT_FILES, else
/// $XDG_CONFIG_HOME/throng/recent-scenes, else ~/.config/throng/recent-scenes;
/// "" when none of these is set.
std::string defaultRecentStore();

}  // namespace throng::app::edit
