#pragma once
// The step: the plan of named phases (kStepPlan, throng/types.hpp), the
// same on the CPU (here) and on CUDA (sim/cuda); core/model.hpp's design
// note says what a model supplies.
#include <functional>
#include <string>

#include "core/model.hpp"
#include "core/world.hpp"
#include "throng/settings.hpp"
#include "throng/types.hpp"

namespace throng {

/// The user's preferred-velocity rule (Crowd::preferredVelocity), or empty.
using WishClosure = std::function<Vec2(const Agent&)>;

/// One step of dt seconds on the CPU, on s.threads workers: kStepPlan's
/// phases in order, each timed into w.profile. The caller advances w.step
/// and w.time.
void stepCpu(World& w, const Settings& s, float dt, const WishClosure& closure);

/// The fields phase: the fields, refreshed every s.fieldInterval steps (and when
/// none were built) while fieldsTaken(s); cleared when not.
void buildFields(World& w, const Settings& s);

/// The model named `name`, kept in w.model: the one there if it has that
/// name, else a new one (told to resume when it replaces another); null
/// (with *why) when no model is registered under it.
Model* modelFor(World& w, std::string_view name, std::string* why = nullptr);

/// Walker i's wish for the next step of dt (the closure's, when given).
Vec2 wishOf(const World& w, const Settings& s, float dt, std::size_t i, const WishClosure& closure);

/// What walker i does in the next step of dt: its wish, then the model's
/// answer (AgentExplain). Changes no state.
AgentExplain explainAgent(World& w, const Settings& s, float dt, std::size_t i, const WishClosure& closure);

}  // namespace throng
