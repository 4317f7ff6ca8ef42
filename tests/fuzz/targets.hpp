#pragma once
// The fuzz targets: the inputs people write, each taken from raw bytes to
// the end of what the program does with them.
//   scene: JSON text -> Scene::parse -> every knob at its ends -> SceneRun,
//          a few gated steps;
//   csv:   a trajectory file -> checkTrajectory (throng check's csv reader
//          and every check of the gate);
//   pedpy: a PedPy text trajectory -> its reader (runs merged by frame)
//          and the gate;
//   args:  one argument per line -> the parser of the subcommand the first
//          line names (run, check, scenes, record, campaign, or the
//          visualizer's);
//   name:  any bytes as a scene's (or a measurement's, a test's) name ->
//          pathComponent, the one way a name becomes part of a path.
// Every input must end in a result or in one clear line naming the file,
// line and field (or the option), within bounded time and memory. A
// broken promise calls violation(), which prints the input and aborts, so
// libFuzzer records it as a crash and the mutation test fails on it.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace throng::fuzz {

/// How an input ended: the program took it, or refused it with a message.
enum class Outcome { Accepted, Refused };

Outcome scene(const std::uint8_t* data, std::size_t size);
Outcome csv(const std::uint8_t* data, std::size_t size);
Outcome args(const std::uint8_t* data, std::size_t size);
Outcome pedpy(const std::uint8_t* data, std::size_t size);
Outcome name(const std::uint8_t* data, std::size_t size);

/// The walkers a fuzzed scene may make: enough for every shipped scene's
/// geometry to matter, few enough that an input runs in milliseconds.
inline constexpr std::size_t kSceneAgents = 2000;
/// Gated steps a fuzzed scene takes.
inline constexpr int kSceneSteps = 3;

}  // namespace throng::fuzz
