#pragma once
// The run built from an edited document: a SimHost over a Scene (its
// SceneRun), as the scene files' host in scenes.cpp, but made from a Scene
// the editor built (SceneDoc::build) rather than from a path, so what runs
// is what was edited, saved or not.
#include <memory>

#include "throng/scene.hpp"
#include "viz/sim_host.hpp"

namespace throng::app::edit {

/// A host running `scene` from its start. Knob changes re-resolve it and
/// rebuild from the same seed, as a scene file's host does.
std::unique_ptr<SimHost> makeDocHost(Scene scene);

}  // namespace throng::app::edit
