#pragma once
// The scene format's keys (scene.hpp describes them): for each kind of
// object, the keys it takes, in the canonical order the scene document
// writes them. The loader refuses any other key with this list, and the
// document orders its keys by it, so a key added here is known to both.
// Not installed.
#include <span>
#include <string_view>

namespace throng::detail {

/// The keys the object at a pointer pattern takes ("" the root, "/settings",
/// "/knobs/*", "/agentDefaults", "/agents/#", "/generators/#" (every type's),
/// "/sources/#", "/sinks/#", "/obstacles/#", "/discomfort/#", "/routes/*",
/// "/streams/#", "/targets/#", "/hills/#", "/heightMap", "/discomfortMap");
/// empty for a pattern that is no such object.
std::span<const std::string_view> sceneKeys(std::string_view pattern);

/// The keys a generator of `type` ("ring", "grid", "region") takes; empty
/// for another type.
std::span<const std::string_view> generatorKeys(std::string_view type);

}  // namespace throng::detail
