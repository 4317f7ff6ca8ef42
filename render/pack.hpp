#pragma once
// Host packing of a FrameView into instance records (the CPU upload path).
#include <cstddef>
#include <span>
#include <vector>

#include "render/instance.hpp"
#include "throng/crowd.hpp"

namespace throng::render {

/// Packs every walker of `frame` into `out` (resized to the walker count).
/// Walker i lands at out[i]; the same result as a CUDA kernel running
/// packInstance once per thread.
void packInstances(const FrameView& frame, std::vector<AgentInstance>& out);

/// Marks the teaching view's walker and its neighbours (indices past the
/// end are ignored).
void markSelection(std::span<AgentInstance> instances, std::ptrdiff_t selected,
                   std::span<const std::size_t> neighbours);

}  // namespace throng::render
