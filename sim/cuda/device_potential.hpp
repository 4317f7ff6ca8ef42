#pragma once
// The device's tiled potential solve alone, host arrays in and out, for the
// device test (it must equal solvePotential bit for bit) and gpu_bench (its
// time on a 1024² grid). CUDA builds only (field_refresh.cu); no CUDA types
// here, so plain C++ includes it.
#include <cstddef>
#include <cstdint>

#include "fields/field_math.hpp"

namespace throng {

/// The potential over g (unit costs `cost`, 4 per cell; `blocked` per cell;
/// zero on `goals`) by DeviceFields::solve into phi (cols * rows). *rounds:
/// the rounds that had work (solvePotential's count); *ms: the solve's
/// kernels alone, timed by events. False after a CUDA error (reported).
bool devicePotential(const FieldGridView& g, const float* cost, const std::uint8_t* blocked, const std::int32_t* goals,
                     std::size_t goalCount, float* phi, int* rounds, double* ms);

}  // namespace throng
