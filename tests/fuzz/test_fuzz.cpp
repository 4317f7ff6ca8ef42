// A fixed run of the fuzz targets (targets.hpp) in the ordinary suite, so
// every build (GCC, its ASan+UBSan build, Clang) exercises them without a
// fuzzing engine: the checked-in corpus first (every crasher found so far,
// and the seeds), then a deterministic mutation of the seeds: the same
// inputs on every run and machine. libFuzzer (fuzz_*, Clang builds) goes
// further, guided by coverage, from the same corpus.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "targets.hpp"
#include "base/hash.hpp"  // mix64

namespace fs = std::filesystem;
using throng::fuzz::Outcome;

namespace {

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The files of a corpus folder (and, for scenes, the shipped scenes), sorted.
std::vector<std::string> corpus(const std::string& target) {
  std::vector<fs::path> paths;
  for (const std::string& dir : {std::string(THRONG_FUZZ_CORPUS) + "/" + target,
                                target == "scene" ? std::string(THRONG_FUZZ_SCENES) : std::string()})
    if (!dir.empty() && fs::is_directory(dir))
      for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> out;
  for (const fs::path& p : paths) out.push_back(readFile(p));
  return out;
}

/// A deterministic mutator: byte flips, insertions, deletions, copies of a
/// stretch, tokens from a dictionary, numbers at the edges, truncation.
class Mutator {
 public:
  explicit Mutator(std::vector<std::string> dictionary) : dict_(std::move(dictionary)) {}

  std::string mutate(std::string s) {
    // Mostly one edit, so that many mutants still parse and reach a run.
    const int rounds = next() % 4 == 0 ? 2 + static_cast<int>(next() % 3) : 1;
    for (int r = 0; r < rounds; ++r) {
      const std::size_t at = s.empty() ? 0 : next() % (s.size() + 1);
      const std::uint64_t kind = next() % 11;
      switch (kind >= 8 ? 6 : kind) {  // numbers at their edges, three times as often
        case 0:
          if (!s.empty()) s[std::min(at, s.size() - 1)] ^= static_cast<char>(1u << (next() % 8));
          break;
        case 1: s.insert(at, 1, static_cast<char>(next() % 256)); break;
        case 2: s.erase(at, std::min<std::size_t>(next() % 16, s.size() - std::min(at, s.size()))); break;
        case 3: {  // copy a stretch elsewhere
          const std::size_t from = s.empty() ? 0 : next() % s.size();
          const std::string piece = s.substr(from, next() % 64);
          s.insert(at, piece);
          break;
        }
        case 4:
        case 5: s.insert(at, dict_[next() % dict_.size()]); break;
        case 6: {  // the digits around `at` become an extreme number
          std::size_t b = at, e = at;
          while (b > 0 && std::isdigit(static_cast<unsigned char>(s[b - 1]))) --b;
          while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
          static const char* edges[] = {"0", "-1", "1e308", "1e-320", "4294967296", "9223372036854775808",
                                        "1e12", "99999999", "0.000001", "-0", "2147483647", "1e999"};
          s.replace(b, e - b, edges[next() % (sizeof edges / sizeof *edges)]);
          break;
        }
        default: s.resize(at); break;
      }
    }
    return s;
  }

 private:
  std::uint64_t next() { return state_ = throng::mix64(state_); }
  std::vector<std::string> dict_;
  std::uint64_t state_ = 0x5eed;
};

struct Tally {
  int accepted = 0, refused = 0;
};

/// The corpus, then `mutations` mutants of it, through `target`.
template <class Target>
Tally runTarget(const std::string& name, Target target, const std::vector<std::string>& seeds,
                std::vector<std::string> dictionary, int mutations) {
  REQUIRE_FALSE(seeds.empty());
  Tally t;
  const auto feed = [&](const std::string& in) {
    const Outcome o = target(reinterpret_cast<const std::uint8_t*>(in.data()), in.size());
    (o == Outcome::Accepted ? t.accepted : t.refused) += 1;
    return o;
  };
  const auto t0 = std::chrono::steady_clock::now();
  // The mutants grow from the inputs the target takes (the crashers, once
  // fixed, are refused: their mutants would mostly be refused too).
  std::vector<std::string> pool;
  for (const std::string& s : seeds)
    if (feed(s) == Outcome::Accepted) pool.push_back(s);
  if (pool.empty()) pool = seeds;
  Mutator m(std::move(dictionary));
  std::uint64_t pick = 1;
  for (int k = 0; k < mutations; ++k) {
    pick = throng::mix64(pick);
    feed(m.mutate(pool[pick % pool.size()]));
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(name << ": " << seeds.size() << " corpus inputs and " << mutations << " mutants: " << t.accepted
               << " accepted, " << t.refused << " refused, in " << s << " s");
  return t;
}

}  // namespace

TEST_CASE("fuzz: scene files, from the shipped scenes and the crashers, end in a run or one clear line") {
  const Tally t = runTarget("scene", throng::fuzz::scene, corpus("scene"),
                            {"{", "}", "[", "]", "\"", ",", ":", "null", "true", "-", "(", ")", "\"((((((\"",
                             "\"--------1\"", "{\"knob\": \"x\"}", "\"count\": ", "\"rate\": ", "1e308", "NaN",
                             "\"radius\": 0", "\"maxSpeed\": -1", "[0, 0]", "[1e30, -1e30]", "\"doorWidth * 0\"",
                             "\"settings\": {\"maxStep\": 10}", "\\u0000", "\"agents\": [{\"at\": [0, 0]}]"},
                            THRONG_FUZZ_SCENE_MUTANTS);
  // Both kinds happen: the mutants reach past the parser into runs (about
  // 14% are accepted, 86% refused).
  CHECK(t.accepted > THRONG_FUZZ_SCENE_MUTANTS / 16);
  CHECK(t.refused > THRONG_FUZZ_SCENE_MUTANTS / 3);
}

TEST_CASE("fuzz: trajectory files end in a verdict or one clear line naming the line") {
  std::vector<std::string> seeds = corpus("csv");
  const Tally t = runTarget("csv", throng::fuzz::csv, seeds,
                            {",", "\n", "\r\n", "-", "1e999", "nan", "inf", "0", "18446744073709551616", ".",
                             "step,time,id,x,y,vx,vy,jammed,group\n", "0,0,1,0,0,0,0,1,0\n", " "},
                            20000);
  CHECK(t.accepted > 1000);
  CHECK(t.refused > 5000);
}

TEST_CASE("fuzz: command lines end in options, help, or one clear line naming the option") {
  const Tally t = runTarget("args", throng::fuzz::args, corpus("args"),
                            {"\n", "--steps\n", "--seconds\n", "--dt\n", "--set\n", "--size\n", "--agents\n", "inf\n",
                             "nan\n", "-1\n", "1e999\n", "0x10\n", "=", "10x", "--help\n", "a=b\n", "640x480\n",
                             "--backend\ncuda\n", "--export\n", "--", "\xff"},
                            20000);
  CHECK(t.accepted > 1000);
  CHECK(t.refused > 5000);
}

TEST_CASE("fuzz: names become one safe path component, stable, and never a separator or a dot folder") {
  const Tally t = runTarget("name", throng::fuzz::name, corpus("name"),
                            {"/", "..", ".", "\\", "\n", "\r", "\t", " ", "\x7f", "\xc3\xa9", "%2e%2e", "~",
                             "-", "_", "\x00", "../../", std::string(90, 'x')},
                            20000);
  CHECK(t.accepted > 100);
  CHECK(t.refused > 5000);
}

TEST_CASE("fuzz: PedPy text trajectories end in a verdict or one clear line naming the line") {
  const Tally t = runTarget("pedpy", throng::fuzz::pedpy, corpus("pedpy"),
                            {" ", "\t", "\n", "\r\n", "#", "# framerate: 0\n", "# x/cm\n", "# in m\n", "-1", "1e999",
                             "nan", "18446744073709551616", "0 0 0 0\n", "1 5 0.5 0.5 1.7\n", "\xef\xbb\xbf"},
                            5000);
  CHECK(t.accepted > 200);
  CHECK(t.refused > 500);
}
