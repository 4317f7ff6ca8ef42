#pragma once
// THRONG_CUDA_CHECK(expr): evaluates a CUDA runtime call, and on failure
// prints "throng: CUDA error at FILE:LINE: expr: cudaErrorName: text" to
// stderr and yields false. It never aborts and never throws (nothing throws
// through a step): callers decide what a failure means, and say so.
#include <cuda_runtime.h>

#include <cstdio>

namespace throng::cuda {

inline bool check(cudaError_t err, const char* expr, const char* file, int line) {
  if (err == cudaSuccess) return true;
  std::fprintf(stderr, "throng: CUDA error at %s:%d: %s: %s: %s\n", file, line, expr, cudaGetErrorName(err),
               cudaGetErrorString(err));
  return false;
}

}  // namespace throng::cuda

#define THRONG_CUDA_CHECK(expr) (::throng::cuda::check((expr), #expr, __FILE__, __LINE__))
