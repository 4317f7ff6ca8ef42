// Checks, without a GPU and without cuobjdump, that a binary really carries
// the CUDA backend's device code: its .nv_fatbin section must hold
//  - an sm_<arch> ELF (cubin) in which every named kernel appears, and
//  - compute_<arch> PTX (for newer GPUs to JIT), built with --fmad=false
//    (nvcc records the option in the PTX entry's header for the JIT).
// Usage: fatbin_check BINARY ARCH KERNEL... ; exit 0 when all hold.
//
// Layouts (ELF64 little-endian; the fatbin container as nvcc 12-13 writes
// it): a fatbin is a 16-byte header {u32 magic 0xBA55ED50, u16 version,
// u16 headerSize, u64 fatSize} followed by entries {u16 kind (1 PTX,
// 2 ELF), u16, u32 headerSize, u64 payloadSize, ..., u32 arch at +28, ...}.
// A linked program holds one fatbin per CUDA translation unit, back to back.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

template <class T>
T read(const std::vector<char>& b, std::size_t at) {
  T v{};
  if (at + sizeof(T) <= b.size()) std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}

bool contains(const char* begin, std::size_t size, const std::string& what) {
  return std::search(begin, begin + size, what.begin(), what.end()) != begin + size;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fatbin_check BINARY ARCH [KERNEL...]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<char> bin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const unsigned arch = static_cast<unsigned>(std::stoul(argv[2]));
  if (bin.size() < 64 || std::memcmp(bin.data(), "\x7f" "ELF\x02\x01", 6) != 0) {
    std::printf("FAIL: %s is not a little-endian ELF64 file\n", argv[1]);
    return 1;
  }
  const auto shoff = read<std::uint64_t>(bin, 0x28);
  const auto shentsize = read<std::uint16_t>(bin, 0x3A), shnum = read<std::uint16_t>(bin, 0x3C);
  const auto shstrndx = read<std::uint16_t>(bin, 0x3E);
  const auto strOff = read<std::uint64_t>(bin, shoff + std::uint64_t{shstrndx} * shentsize + 24);
  std::uint64_t fbOff = 0, fbSize = 0;
  for (unsigned k = 0; k < shnum; ++k) {
    const std::uint64_t sh = shoff + std::uint64_t{k} * shentsize;
    const auto nameAt = strOff + read<std::uint32_t>(bin, sh);
    if (nameAt < bin.size() && std::strcmp(bin.data() + nameAt, ".nv_fatbin") == 0) {
      fbOff = read<std::uint64_t>(bin, sh + 24);
      fbSize = read<std::uint64_t>(bin, sh + 32);
    }
  }
  if (fbSize == 0 || fbOff + fbSize > bin.size()) {
    std::printf("FAIL: %s has no .nv_fatbin section: no device code was compiled in\n", argv[1]);
    return 1;
  }
  std::printf("%s: .nv_fatbin of %llu bytes\n", argv[1], static_cast<unsigned long long>(fbSize));

  std::vector<bool> found(static_cast<std::size_t>(argc - 3), false);
  bool elf = false, ptx = false, ptxFmadOff = false, compressedElf = false;
  for (std::uint64_t pos = fbOff; pos + 16 <= fbOff + fbSize;) {
    if (read<std::uint32_t>(bin, pos) != 0xBA55ED50u) {
      pos += 8;
      continue;
    }
    const std::uint64_t begin = pos + read<std::uint16_t>(bin, pos + 6);
    const std::uint64_t end = begin + read<std::uint64_t>(bin, pos + 8);
    for (std::uint64_t e = begin; e + 32 <= end;) {
      const auto kind = read<std::uint16_t>(bin, e);
      const auto headerSize = read<std::uint32_t>(bin, e + 4);
      const auto payload = read<std::uint64_t>(bin, e + 8);
      const auto entryArch = read<std::uint32_t>(bin, e + 28);
      const char* body = bin.data() + e + headerSize;
      if (headerSize == 0 || e + headerSize + payload > bin.size()) break;
      if (kind == 2 && entryArch == arch) {
        elf = true;
        if (std::memcmp(body, "\x7f" "ELF", 4) != 0) compressedElf = true;
        for (std::size_t k = 0; k < found.size(); ++k) found[k] = found[k] || contains(body, payload, argv[3 + k]);
      }
      if (kind == 1 && entryArch == arch) {
        ptx = true;
        ptxFmadOff = ptxFmadOff || contains(bin.data() + e, headerSize, "--fmad false");
      }
      e += headerSize + payload;
    }
    pos = end;
  }
  int fails = 0;
  auto report = [&](bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    fails += ok ? 0 : 1;
  };
  report(elf, "sm_" + std::to_string(arch) + " machine code (ELF cubin) is embedded");
  report(ptx, "compute_" + std::to_string(arch) + " PTX is embedded");
  report(ptxFmadOff, "the PTX was compiled with --fmad false (bit-identity under JIT too)");
  for (std::size_t k = 0; k < found.size(); ++k) {
    // A compressed cubin hides its symbol names; then fall back to the host
    // side's registration strings (weaker: says the stub was registered).
    const bool ok = found[k] || (compressedElf && contains(bin.data(), bin.size(), argv[3 + k]));
    report(ok, std::string("kernel ") + argv[3 + k] + (found[k] ? " is in the sm_ cubin" : " registered"));
  }
  return fails ? 1 : 0;
}
