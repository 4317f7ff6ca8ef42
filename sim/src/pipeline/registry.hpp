#pragma once
// The models a crowd may step with, by name: the one place a new model is
// registered (registry.cpp), besides its own folder.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "throng/types.hpp"

namespace throng {

struct ModelEntry {
  std::string name;  ///< as Settings::model and scene files give it
  std::string help;  ///< one line, for users
  /// What it promises about overlaps outside a jam (the gate holds it to it).
  OverlapPromise overlap;
  /// What a jammed walker is in this model (StepStats::jammed, the orange
  /// ring), one line for users.
  std::string jammed;
  std::function<std::unique_ptr<Model>()> make;
  /// It slows its walkers as their crowd packs by a rule of its own
  /// (BioCrowds: walkers share the markers around them), so the pace phase
  /// leaves its wishes alone: the pace on top would count the crowd twice.
  bool ownPace = false;
  /// It steers by the fields (Continuum Crowds): a step builds them under it
  /// whatever the routing.
  bool readsFields = false;
};

/// Every registered model, in registration order (the built-ins first).
const std::vector<ModelEntry>& registeredModels();
/// The entry of `name`, or null.
const ModelEntry* findModel(std::string_view name);
/// Whether the step's pace phase slows the wishes of a crowd under these
/// settings: the pace is on (paceOn) and the model takes it (not ownPace).
/// The ground (speed zones, stairs) is applied either way.
bool paceTaken(const Settings& s);
/// Whether a step with these settings builds fields: routing = field, or a
/// model that reads them (readsFields). The CPU's fields phase, the CUDA
/// backend's and the host mirror ask it.
bool fieldsTaken(const Settings& s);
/// Adds a model (tests register theirs); replaces one of the same name.
void registerModel(ModelEntry entry);

}  // namespace throng
