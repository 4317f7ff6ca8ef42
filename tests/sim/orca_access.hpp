#pragma once
// The tests' way into a crowd's ORCA model (models/orca/fast/orca_model.hpp): its
// switches and what it keeps across steps.
#include "core/world.hpp"
#include "models/orca/fast/orca_model.hpp"
#include "pipeline/step.hpp"
#include "throng/crowd.hpp"

namespace throng::test {

/// The crowd's ORCA model, made now if it has not stepped yet.
inline OrcaModel& orca(Crowd& c) { return static_cast<OrcaModel&>(*modelFor(c.world(), "orca")); }
/// What it kept (the crowd must have stepped with it).
inline const OrcaScratch& orcaScratch(const Crowd& c) {
  return static_cast<const OrcaModel&>(*c.world().model).scratch;
}
/// The world's agent grid built from its positions now.
inline void buildGrid(World& w, const Settings& s) {
  w.scratch.grid.build(w.px.data(), w.py.data(), w.size(), s.perceptionRadius, s.maxNeighbors, nullptr);
}

}  // namespace throng::test
