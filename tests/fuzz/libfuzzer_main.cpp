// libFuzzer's entry (clang -fsanitize=fuzzer): one binary per target,
// chosen at compile time by THRONG_FUZZ_TARGET (scene, csv or args).
#include <cstddef>
#include <cstdint>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)throng::fuzz::THRONG_FUZZ_TARGET(data, size);
  return 0;
}
