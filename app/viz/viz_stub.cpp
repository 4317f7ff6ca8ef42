// Placeholder until the visualizer lands (issue 4).
#include <cstdio>

#include "viz.hpp"

namespace throng::app {
int runVisualizer(int, char**) {
  std::puts("throng: the visualizer is not built yet; try `throng run ring`");
  return 0;
}
int runRecord(int, char**) {
  std::fputs("throng record: not built yet\n", stderr);
  return 1;
}
}  // namespace throng::app
