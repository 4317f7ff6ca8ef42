#pragma once
// Four-lane GCC vector types (vector_size; GCC and Clang both take them, with
// the same arithmetic, comparisons and selects) and the one way the library
// moves them to and from memory: loadU and storeU, through memcpy, which
// both compilers make a single unaligned load or store (movups / vmovups on
// x86-64) at any address aligned to the element.
//
// Never dereference a pointer to a vector type over a float or int32 array:
// what alignment such an access may assume is an extension each compiler
// reads its own way. An aligned(4) on the typedef lowers it for GCC, but
// Clang keeps 16 bytes and emits movaps, which faults on an address that
// is only 4-byte aligned. Internal to the library.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace throng {

/// Four floats, one a lane (16 bytes).
using Float4 = float __attribute__((vector_size(16)));
/// Four int32s, one a lane (16 bytes); also the mask of a Float4 comparison.
using Int4 = std::int32_t __attribute__((vector_size(16)));

/// The vector V whose lanes lie at p, p + 1, ... (p aligned to a lane's
/// element at least; any further alignment is not assumed).
template <class V>
inline V loadU(const void* p) {
  static_assert(std::is_trivially_copyable_v<V>);
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// v's lanes stored at p, p + 1, ... (alignment as loadU).
template <class V>
inline void storeU(void* p, V v) {
  static_assert(std::is_trivially_copyable_v<V>);
  std::memcpy(p, &v, sizeof v);
}

}  // namespace throng
