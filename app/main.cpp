// throng: one executable. No subcommand opens the visualizer.
#include <cstdio>
#include <cstring>

#include "viz/viz.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "record") == 0) return throng::app::runRecord(argc - 1, argv + 1);
  return throng::app::runVisualizer(argc, argv);
}
