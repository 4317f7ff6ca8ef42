// `throng scenes`: the shipped scenes with their knobs.
#include <string>

#include "args.hpp"
#include "cli.hpp"
#include "throng/scene.hpp"

namespace throng::cli {

namespace {
constexpr const char* kScenesHelp =
    "usage: throng scenes\n"
    "Lists the shipped scenes with their knobs (name [min, max] default), and where they were found.\n"
    "Scenes are looked for in $THRONG_SCENES (colon-separated), scenes/ next to the executable,\n"
    "../share/throng/scenes from it, and the source tree's assets/scenes.\n"
    "\n"
    "  -h, --help   this help\n";
}

int runScenes(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kScenesHelp, stdout);
      return 0;
    }
    std::fprintf(stderr, "throng scenes: unexpected argument '%s' (see throng scenes --help)\n", a.c_str());
    return 2;
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
  return bad ? 1 : 0;
}

void printUsage(std::FILE* out) {
  std::fputs(
      "usage: throng [SCENE] [options]          the visualizer\n"
      "       throng run SCENE [options]        run a scene headless, export, summarise\n"
      "       throng check FILE [options]       the separation gate over an exported csv\n"
      "       throng scenes                     list the shipped scenes and their knobs\n"
      "       throng record SCENE [options]     record a video\n"
      "Every subcommand takes --help.\n",
      out);
}

}  // namespace throng::cli
