#pragma once
// Step backends: where a Crowd's step runs. The CPU backend is the
// reference; the CUDA backend (sim/cuda/, built when nvcc is found) keeps
// the state on the device and must give bit-identical results.
//
// Protocol with Crowd: before any host read of the state Crowd calls
// pull(); after any host write it calls pushed() so the next step uploads.
#include <functional>
#include <memory>
#include <string>

#include "throng/backend.hpp"
#include "throng/fields.hpp"
#include "throng/settings.hpp"
#include "throng/types.hpp"

namespace throng {

class World;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  /// One step of dt seconds (the caller advances world.step and time).
  virtual void step(World& world, const Settings& s, float dt,
                    const std::function<Vec2(const Agent&)>& closure) = 0;
  /// Brings the host arrays up to date (no-op on the CPU).
  virtual void pull(World&) {}
  /// The host arrays changed: upload before the next step.
  virtual void pushed() {}
  /// Fills `out` with the device arrays when they hold the current state
  /// (false on the CPU, and while the host copy is newer than the device).
  virtual bool deviceFrame(DeviceFrame&) { return false; }
  /// The model's ground points and their owners as of the last step (the
  /// CPU: the model's own; a device backend copies its owners back).
  virtual MarkerView markers(World& world);
  /// The fields of the last refresh with target `target`'s potential (the
  /// CPU: World::fields; a device backend copies them back first).
  virtual FieldView fields(World& world, int target);
  /// The last step's cost by phase (the CPU: World::profile; a device
  /// backend times its stream).
  virtual StepProfile profile(const World& world);
};

std::unique_ptr<Backend> makeCpuBackend();
/// The CUDA backend, or nullptr (with `why`) when unavailable.
std::unique_ptr<Backend> makeCudaBackend(std::string* why = nullptr);

}  // namespace throng
