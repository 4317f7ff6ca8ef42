// The CUDA backend's entry points when this build has no CUDA compiler.
#include "pipeline/backend.hpp"

namespace throng {

bool cudaAvailable(std::string* why) {
  if (why) *why = "this build of throng has no CUDA support (nvcc was not found at configure time)";
  return false;
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why) {
  cudaAvailable(why);
  return nullptr;
}

}  // namespace throng
