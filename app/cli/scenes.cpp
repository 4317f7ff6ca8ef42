// `throng scenes`: the shipped scenes with their knobs, then the settings
// every scene takes, from the settings table.
#include <cstdio>
#include <string>

#include "args.hpp"
#include "cli.hpp"
#include "throng/scene.hpp"
#include "throng/settings.hpp"

namespace throng::cli {

namespace {

/// The settings, one line each: name, limits and unit, default, the models
/// that read it, help.
void printSettings() {
  std::printf("\nsettings (every scene; a scene file's \"settings\", --set NAME=VALUE):\n");
  for (const SettingInfo& i : settingsTable()) {
    std::string models;
    for (std::string_view m : i.models) models += (models.empty() ? "" : ", ") + std::string(m);
    std::printf("  %-20s %s%s%s, default %s (%s): %s\n", std::string(i.name).c_str(), formatLimits(i).c_str(),
                i.unit.empty() ? "" : " ", std::string(i.unit).c_str(), formatDefault(i).c_str(),
                models.empty() ? "all models" : models.c_str(), std::string(i.help).c_str());
  }
}

}  // namespace

int runScenes(int argc, char** argv) {
  const Parsed<ScenesOptions> p = parseScenes(argc, argv);
  if (!p.options) return p.finish();
  if (p.options->settingsMarkdown) {
    std::fputs(settingsMarkdown().c_str(), stdout);
    return 0;
  }
  const auto scenes = listScenes();
  if (scenes.empty()) {
    std::fputs("throng scenes: no scene directory found (set THRONG_SCENES)\n", stderr);
    return 1;
  }
  int bad = 0;
  for (const auto& [name, path] : scenes) {
    std::string err;
    const auto scene = Scene::load(path, &err);
    if (!scene) {
      std::fprintf(stdout, "%-12s (does not load: %s)\n", name.c_str(), err.c_str());
      ++bad;
      continue;
    }
    std::printf("%-12s %s\n", name.c_str(), scene->spec().description.c_str());
    std::printf("%-12s %zu agents at the start, %zu sources, %zu sinks, %g s; %s\n", "", scene->spec().agents.size(),
                scene->spec().sources.size(), scene->spec().sinks.size(), scene->spec().duration, path.c_str());
    for (const Knob& k : scene->knobs())
      std::printf("%-12s   knob %-10s [%g, %g] default %g%s%s\n", "", k.name.c_str(), k.min, k.max, k.defaultValue,
                  k.help.empty() ? "" : ": ", k.help.c_str());
  }
  printSettings();
  return bad ? 1 : 0;
}

}  // namespace throng::cli
