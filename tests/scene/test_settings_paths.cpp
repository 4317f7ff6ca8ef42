// Every way a scene takes a setting (the file's "settings" object, its
// top-level "model", Scene::set, Scene::assign as --set uses it) takes it
// from the settings table: for each setting, the value just inside each
// limit is accepted and the one just outside refused, by every path.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "../common/setting_probes.hpp"
#include "helpers.hpp"
#include "throng/scene.hpp"

using namespace throng;

namespace {

/// A one-walker scene with `settings` as its settings object's body.
std::optional<Scene> withSettings(const std::string& settings, std::string* err) {
  return Scene::parse(settingtest::cat({"{\"settings\": {", settings, "}, \"agents\": [{\"at\": [0, 0], \"goal\": [1, 0]}]}"}),
                      "s.json", err);
}

}  // namespace

TEST_CASE("the loader, Scene::set and Scene::assign accept and refuse each setting at the table's limits") {
  const Scene door = scenetest::load("door");
  for (const SettingInfo& i : settingsTable()) {
    for (const settingtest::Probe& p : settingtest::probes(i)) {
      INFO(i.name, " = ", p.text, (p.inside ? " (inside)" : " (outside)"));
      // What the table itself makes of it: the value a path must end with.
      Settings want;
      const bool ok = setSettingText(want, i.name, p.text, nullptr);
      REQUIRE(ok == p.inside);

      std::string err;
      const auto file = withSettings(settingtest::cat({"\"", i.name, "\": ", settingtest::json(i, p)}), &err);
      CHECK(file.has_value() == p.inside);
      if (file) CHECK(getSettingText(file->spec().settings, i.name) == getSettingText(want, i.name));
      else CHECK(err.find(settingtest::cat({"s.json:1: /settings/", i.name, ": "})) == 0);

      Scene a = door;
      CHECK(a.assign(settingtest::cat({i.name, "=", p.text}), &err) == p.inside);
      CHECK(getSettingText(a.spec().settings, i.name) ==
            getSettingText(p.inside ? want : door.spec().settings, i.name));
      if (!p.inside) CHECK(err.find(i.name) != std::string::npos);

      if (!std::isnan(p.value)) {
        Scene s = door;
        CHECK(s.set(i.name, p.value, &err) == p.inside);
        if (p.inside) CHECK(getSettingText(s.spec().settings, i.name) == getSettingText(want, i.name));
      }
    }
    // A name takes no number.
    if (i.kind == SettingKind::Choice) {
      Scene s = door;
      std::string err;
      CHECK_FALSE(s.set(i.name, 0, &err));
    }
  }
}

TEST_CASE("a scene's top-level model is the model setting, checked against modelNames()") {
  std::string err;
  // The names the message lists are modelNames(), in its order.
  std::string names;
  for (const std::string& n : modelNames()) names += (names.empty() ? "" : ", ") + n;
  CHECK(names.find("orca, biocrowds") == 0);
  auto s = Scene::parse("{\"model\": \"orca\", \"agents\": [{\"at\": [0, 0]}]}", "m.json", &err);
  REQUIRE(s);
  CHECK(s->spec().settings.model == "orca");
  CHECK_FALSE(Scene::parse("{\"model\": \"bio\"}", "m.json", &err));
  CHECK(err == "m.json:1: /model: unknown model \"bio\" (expected one of: " + names + ")");
  CHECK_FALSE(Scene::parse("{\"model\": 1}", "m.json", &err));
  CHECK(err.find("/model: expected a string") != std::string::npos);
  CHECK_FALSE(Scene::parse("{\"model\": \"orca\", \"settings\": {\"model\": \"orca\"}}", "m.json", &err));
  CHECK(err.find("/settings/model: the model is given twice") != std::string::npos);
  // --set model= overrides the file's, and reset() brings the file's back.
  Scene door = scenetest::load("door");
  CHECK(door.spec().settings.model == "orca");
  REQUIRE(door.assign("model=orca", &err));
  CHECK_FALSE(door.assign("model=nosuch", &err));
  CHECK(err == "unknown model \"nosuch\" (expected one of: " + names + ")");
}

TEST_CASE("a setting in a scene file may be a knob expression, and then only the table limits it") {
  std::string err;
  auto s = Scene::parse("{\"knobs\": {\"k\": {\"min\": 0, \"max\": 200, \"default\": 10}},"
                        " \"settings\": {\"timeHorizon\": \"k / 4\", \"maxNeighbors\": \"k / 4\", \"perceptionRadius\": 1e20},"
                        " \"agents\": [{\"at\": [0, 0]}]}",
                        "k.json", &err);
  INFO(err);
  REQUIRE(s);
  CHECK(s->spec().settings.timeHorizon == 2.5f);
  CHECK(s->spec().settings.maxNeighbors == 3);  // 2.5 rounds away from zero, as integer fields do
  CHECK(s->spec().settings.perceptionRadius == 1e20f);
  REQUIRE(s->set("k", 100, &err));  // maxNeighbors 25
  CHECK(s->spec().settings.maxNeighbors == 25);
  CHECK_FALSE(s->set("k", 200, &err));  // maxNeighbors 50
  CHECK(err.find("k.json:1: /settings/maxNeighbors: maxNeighbors = 50 is out of range") == 0);
  CHECK(s->spec().settings.maxNeighbors == 25);
}
