// The registry of models (registry.hpp): the built-ins, and any a program
// adds.
#include "pipeline/registry.hpp"

#include <cmath>
#include <mutex>

#include "core/pace.hpp"
#include "models/biocrowds/biocrowds_model.hpp"
#include "models/continuum/continuum_model.hpp"
#include "models/orca/orca.hpp"
#include "models/orca/fast/orca_model.hpp"
#include "models/spring/spring_model.hpp"

namespace throng {

namespace {
std::mutex& lock() {
  static std::mutex m;
  return m;
}
std::vector<ModelEntry>& entries() {
  static std::vector<ModelEntry> all = [] {
    std::vector<ModelEntry> v;
    v.push_back({"orca",
                 "ORCA (RVO2's optimal reciprocal collision avoidance): each walker takes the permitted velocity "
                 "nearest its wish",
                 OverlapPromise{0.0f, kContactOverlap}, "no velocity keeps it clear of every neighbour and wall",
                 [] { return std::unique_ptr<Model>(new OrcaModel()); }});
    v.push_back({"biocrowds",
                 "BioCrowds (space colonization): markers on the ground, each owned by its nearest walker; each "
                 "walker moves towards the markers it owns that lie towards its goal",
                 OverlapPromise{kBioOverlap, kBioOverlap},
                 "it owns no marker it can use, they balance out, or its neighbours leave it no room",
                 [] { return std::unique_ptr<Model>(new BioCrowdsModel()); }, /*ownPace=*/true});
    v.push_back({"continuum",
                 "Continuum Crowds: density, speed and cost fields and a potential per target; each walker "
                 "follows its potential's gradient at the speed the crowd and the ground allow",
                 OverlapPromise{kContinuumOverlap, kContinuumOverlap},
                 "it makes no headway: the walkers and walls around it push it back as far as it walks",
                 [] { return std::unique_ptr<Model>(new ContinuumModel()); }, /*ownPace=*/false, /*readsFields=*/true});
    v.push_back({SpringModel::kName,
                 "the naive baseline, for teaching: walk at the wish, then once overlapping push away at top speed "
                 "(a position spring); it overlaps, tunnels and bounces, and promises nothing",
                 OverlapPromise{INFINITY, INFINITY}, "never: it always walks or pushes",
                 [] { return std::unique_ptr<Model>(new SpringModel()); }});
    return v;
  }();
  return all;
}
}  // namespace

const std::vector<ModelEntry>& registeredModels() { return entries(); }

std::vector<std::string> modelNames() {
  std::lock_guard<std::mutex> guard(lock());
  std::vector<std::string> names;
  for (const ModelEntry& e : entries()) names.push_back(e.name);
  return names;
}

const ModelEntry* findModel(std::string_view name) {
  std::lock_guard<std::mutex> guard(lock());
  for (const ModelEntry& e : entries())
    if (e.name == name) return &e;
  return nullptr;
}

bool paceTaken(const Settings& s) {
  if (!paceOn(s)) return false;
  const ModelEntry* e = findModel(s.model);
  return e == nullptr || !e->ownPace;
}

bool fieldsTaken(const Settings& s) {
  if (s.routing == "field") return true;
  const ModelEntry* e = findModel(s.model);
  return e != nullptr && e->readsFields;
}

void registerModel(ModelEntry entry) {
  std::lock_guard<std::mutex> guard(lock());
  for (ModelEntry& e : entries())
    if (e.name == entry.name) {
      e = std::move(entry);
      return;
    }
  entries().push_back(std::move(entry));
}

}  // namespace throng
