#pragma once
// The models a crowd may step with, by name: the one place a new model is
// registered (registry.cpp), besides its own folder.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"

namespace throng {

struct ModelEntry {
  std::string name;  ///< as Settings::model and scene files give it
  std::string help;  ///< one line, for users
  /// How deep two walkers that are not jammed may overlap, as a fraction of
  /// r_A + r_B: the model's promise, which the separation gate holds it to.
  float contactOverlap = 0;
  std::function<std::unique_ptr<Model>()> make;
};

/// Every registered model, in registration order (the built-ins first).
const std::vector<ModelEntry>& registeredModels();
/// The entry of `name`, or null.
const ModelEntry* findModel(std::string_view name);
/// Adds a model (tests register theirs); replaces one of the same name.
void registerModel(ModelEntry entry);

}  // namespace throng
