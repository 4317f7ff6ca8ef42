// lanesAvailable (base/lanes.hpp).
#include "base/lanes.hpp"

namespace throng {

bool lanesAvailable() {
#if THRONG_LANES
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return avx2;
#else
  return false;
#endif
}

}  // namespace throng
