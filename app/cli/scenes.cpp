// `throng scenes`: the shipped scenes with their knobs.
#include <cstdio>
#include <string>

#include "args.hpp"
#include "cli.hpp"
#include "throng/scene.hpp"

namespace throng::cli {

int runScenes(int argc, char** argv) {
  if (const Parsed<ScenesOptions> p = parseScenes(argc, argv); !p.options) return p.finish();
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
  return bad ? 1 : 0;
}

}  // namespace throng::cli
