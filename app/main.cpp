// throng: one executable. `run`, `check`, `scenes`, `campaign`, `import` and
// `verify` are headless (app/cli/; campaign and import start Python);
// `record` and no subcommand belong to the visualizer (app/viz/).
// Every command's flags are parsed in app/cli/args.cpp. Nothing throws out of
// main.
#include <cstdio>
#include <exception>
#include <string_view>

#include "cli/cli.hpp"
#include "viz/viz.hpp"

int main(int argc, char** argv) {
  try {
    if (argc > 1) {
      const std::string_view sub = argv[1];
      if (sub == "run") return throng::cli::runRun(argc - 1, argv + 1);
      if (sub == "check") return throng::cli::runCheck(argc - 1, argv + 1);
      if (sub == "scenes") return throng::cli::runScenes(argc - 1, argv + 1);
      if (sub == "campaign") return throng::cli::runCampaign(argc - 1, argv + 1);
      if (sub == "import") return throng::cli::runImport(argc - 1, argv + 1);
      if (sub == "verify") return throng::cli::runVerify(argc - 1, argv + 1);
      if (sub == "record") return throng::app::runRecord(argc - 1, argv + 1);
      if (sub == "help") {  // the visualizer's help lists the subcommands too
        const char* helpArgs[] = {argv[0], "--help", nullptr};
        return throng::app::runVisualizer(2, helpArgs);
      }
    }
    return throng::app::runVisualizer(argc, argv);  // `throng [SCENE] [options]`, `throng --help`
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng: internal error: %s\n", e.what());
  } catch (...) {
    std::fputs("throng: internal error\n", stderr);
  }
  return 70;
}
