// Which scenes the visualizer can open. Built-ins always; scene files once
// the scene loader (throng/scene.hpp, issue 3) is in the sim library.
#include <algorithm>

#include "viz/viz_app.hpp"

namespace throng::app {

std::unique_ptr<SimHost> openScene(const std::string& nameOrPath, std::string* error) {
  if (auto h = makeBuiltin(nameOrPath)) return h;
  if (error) {
    *error = "no scene '" + nameOrPath + "' (built-in scenes:";
    for (const auto& n : builtinNames()) *error += " " + n;
    *error += "; scene files arrive with the scene loader)";
  }
  return nullptr;
}

std::vector<std::string> pickableScenes() { return builtinNames(); }

}  // namespace throng::app
