// Finding shipped scenes: THRONG_SCENES, next to the executable, next to the
// shared library this code is linked into (the Python module's throng/scenes),
// the source tree.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <unistd.h>

#include "throng/scene.hpp"

#ifndef THRONG_SOURCE_SCENES_DIR
#define THRONG_SOURCE_SCENES_DIR ""
#endif

namespace throng {

namespace fs = std::filesystem;

namespace {
bool isDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}
bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}
}  // namespace

std::vector<std::string> sceneDirectories() {
  std::vector<std::string> dirs;
  auto addDir = [&](const fs::path& p) {
    if (p.empty() || !isDir(p)) return;
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(p, ec);
    const std::string s = (ec ? p : c).string();
    for (const std::string& d : dirs)
      if (d == s) return;
    dirs.push_back(s);
  };
  if (const char* env = std::getenv("THRONG_SCENES")) {
    std::string list = env;
    std::size_t b = 0;
    while (b <= list.size()) {
      const std::size_t e = std::min(list.find(':', b), list.size());
      if (e > b) addDir(list.substr(b, e - b));
      b = e + 1;
    }
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    addDir(exe.parent_path() / "scenes");
    addDir(exe.parent_path() / ".." / "share" / "throng" / "scenes");
  }
  // The file holding this code, when that is a shared library (in a wheel,
  // throng/_throng*.so beside throng/scenes); for the executable it names
  // the directory just added.
  static const int anchor = 0;
  Dl_info info{};
  if (dladdr(&anchor, &info) != 0 && info.dli_fname && *info.dli_fname)
    addDir(fs::path(info.dli_fname).parent_path() / "scenes");
  addDir(THRONG_SOURCE_SCENES_DIR);
  return dirs;
}

std::optional<std::string> findScene(std::string_view nameOrPath, std::string* error) {
  const fs::path given{std::string(nameOrPath)};
  if (isFile(given)) return given.string();
  const bool bare = nameOrPath.find('/') == std::string_view::npos && !nameOrPath.empty();
  const std::vector<std::string> dirs = sceneDirectories();
  if (bare) {
    std::string file(nameOrPath);
    if (!file.ends_with(".json")) file += ".json";
    for (const std::string& d : dirs)
      if (isFile(fs::path(d) / file)) return (fs::path(d) / file).string();
  }
  if (error) {
    std::string where;
    for (const std::string& d : dirs) where += (where.empty() ? "" : ", ") + d;
    *error = "no scene \"" + std::string(nameOrPath) + "\": not a file" +
             (bare ? ", nor a shipped scene in " + (where.empty() ? std::string("(no scene directory found)") : where) +
                         " (set THRONG_SCENES to add one)"
                   : std::string());
  }
  return std::nullopt;
}

std::map<std::string, std::string> listScenes() {
  std::map<std::string, std::string> out;
  for (const std::string& d : sceneDirectories()) {
    std::error_code ec;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path p = it->path();
      if (p.extension() != ".json" || !isFile(p)) continue;
      out.emplace(p.stem().string(), p.string());  // the first directory wins
    }
  }
  return out;
}

}  // namespace throng
