#pragma once
// The scene resolver: a parsed scene file (format in scene.hpp) and its
// knob values into a SceneSpec, plain data ready to build. Scene (scene.cpp)
// calls it on every load and knob change. Not installed.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "throng/scene.hpp"

namespace throng::detail {

/// The parsed file: key order kept (knobs list in file order).
using SceneJson = nlohmann::ordered_json;

/// The first problem found: where (the pointer's tokens) and what.
struct ResolveFailure {
  std::vector<std::string> tokens;
  std::string message;
};

/// The files a scene names ("geometry"'s "file"), read once when it is
/// loaded: the name as written -> the file's bytes.
using SceneFiles = std::map<std::string, std::string, std::less<>>;

/// Resolves `root` with `knobs` (read, and refreshed: new knobs at their
/// defaults, values kept) and the settings `overrides` (name -> text),
/// making at most `maxAgents` walkers. Throws ResolveFailure.
SceneSpec resolveScene(const SceneJson& root, std::vector<Knob>& knobs,
                       const std::map<std::string, std::string, std::less<>>& overrides, std::size_t maxAgents,
                       const SceneFiles& files = {});

/// The path of plan file `name` (a "geometry" "file") beside `sceneFile`:
/// relative, inside its folder (no ".."), ending in .wkt, .geojson or
/// .json; nullopt with *why otherwise.
std::optional<std::string> planFilePath(const std::string& name, const std::string& sceneFile, std::string* why);

/// Reads the files `root` names into *files, from `sceneFile`'s folder. A
/// name must be relative, stay inside that folder (no "..") and end in
/// .wkt, .geojson or .json; at most 64 MiB. Throws ResolveFailure.
void readSceneFiles(const SceneJson& root, const std::string& sceneFile, SceneFiles* files);

}  // namespace throng::detail
