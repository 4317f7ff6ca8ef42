// The visualizer's pure parts for settings, without GL: the panel's widgets
// (app/viz/settings_panel.hpp) and the built-in scenes' set/assign
// (app/viz/sim_host.cpp) take every setting from the settings table, with
// its limits.
#include <doctest/doctest.h>

#include <cmath>

#include "../common/setting_probes.hpp"
#include "viz/settings_panel.hpp"
#include "viz/sim_host.hpp"

using namespace throng;
using namespace throng::app;

TEST_CASE("the panel has one widget per setting, in table order, its slider range inside the limits") {
  for (const float radius : {0.25f, 8.0f}) {
    const std::vector<SettingWidget> widgets = settingWidgets(radius);
    const auto table = settingsTable();
    REQUIRE(widgets.size() == table.size());
    for (std::size_t k = 0; k < table.size(); ++k) {
      const SettingInfo& i = table[k];
      const SettingWidget& w = widgets[k];
      INFO(i.name, " radius ", radius);
      CHECK(w.info == &i);
      CHECK(w.label == i.name);
      CHECK(w.tooltip.find(formatLimits(i)) != std::string::npos);
      CHECK(w.tooltip.find(i.help) != std::string::npos);
      switch (i.kind) {
        case SettingKind::Choice:
          CHECK(w.kind == SettingWidget::Kind::Combo);
          CHECK(w.choices == i.choices());
          break;
        case SettingKind::Seed: CHECK(w.kind == SettingWidget::Kind::SeedInput); break;
        case SettingKind::Real:
        case SettingKind::Integer: {
          CHECK(w.kind == SettingWidget::Kind::Slider);
          CHECK(w.integer == (i.kind == SettingKind::Integer));
          CHECK(w.min < w.max);
          // Both ends are values the setting takes.
          Settings s;
          std::string why;
          CHECK_MESSAGE(setSetting(s, i.name, w.min, &why), why);
          CHECK_MESSAGE(setSetting(s, i.name, w.max, &why), why);
          if (i.ui.given()) {
            const double scale = i.ui.perRadius ? radius : 1.0;
            CHECK(w.min == i.ui.min * scale);
            CHECK(w.max == i.ui.max * scale);
          } else {
            // Without a ui range the slider spans the limits: the probes just inside.
            const auto p = settingtest::probes(i);
            CHECK(w.min == p[0].value);
            CHECK(w.max == p[2].value);
          }
          CHECK(w.logarithmic == (w.max >= 50 * std::max(w.min, w.integer ? 1.0 : 0.001)));
          break;
        }
      }
    }
  }
  // The ones whose range spans decades drag logarithmically; a short integer range does not.
  const auto widgetOf = [](float radius, std::string_view n) {
    for (const SettingWidget& w : settingWidgets(radius))
      if (w.label == n) return w;
    FAIL("no widget ", n);
    return SettingWidget{};
  };
  const auto of = [&](std::string_view n) { return widgetOf(0.25f, n); };
  CHECK(of("timeHorizon").logarithmic);
  CHECK(of("threads").logarithmic);
  CHECK_FALSE(of("maxNeighbors").logarithmic);
  CHECK(of("maxStep").format == "%.4f s");
  CHECK(of("perceptionRadius").max == 10.0);  // 40 radii of 0.25
  CHECK(widgetOf(std::nanf(""), "perceptionRadius").max == 40.0);  // no radius known: 40 world units
}

TEST_CASE("a built-in scene takes each setting by set and assign at the table's limits, and refuses beyond them") {
  for (const SettingInfo& i : settingsTable()) {
    for (const settingtest::Probe& p : settingtest::probes(i)) {
      INFO(i.name, " = ", p.text, (p.inside ? " (inside)" : " (outside)"));
      Settings want;
      REQUIRE(setSettingText(want, i.name, p.text, nullptr) == p.inside);
      auto ring = makeBuiltin("ring");
      REQUIRE(ring);
      std::string err;
      CHECK(ring->assign(settingtest::cat({i.name, "=", p.text}), &err) == p.inside);
      // Refused: the built-in's own value stays (its BioCrowds scale).
      const Settings initial = makeBuiltin("ring")->crowd().settings;
      CHECK(getSettingText(ring->crowd().settings, i.name) == getSettingText(p.inside ? want : initial, i.name));
      if (!p.inside) CHECK(err.find(i.name) != std::string::npos);
      if (!std::isnan(p.value)) {
        auto other = makeBuiltin("ring");
        CHECK(other->set(std::string(i.name), p.value, &err) == p.inside);
        if (p.inside) CHECK(getSettingText(other->crowd().settings, i.name) == getSettingText(want, i.name));
      }
    }
  }
  auto ring = makeBuiltin("ring");
  std::string err;
  CHECK_FALSE(ring->assign("nosuch=1", &err));
  CHECK(err.find("unknown knob or setting \"nosuch\" (knobs: count ringRadius; settings: model timeHorizon") == 0);
  CHECK_FALSE(ring->assign("count", &err));
  CHECK(ring->assign("count=10", &err));
  CHECK(ring->crowd().count() == 10);
}

TEST_CASE("BioCrowds' settings are sliders: personalSpace in walker radii, markerDensity over decades") {
  // The panel draws every widget whatever the model (a setting another
  // model reads says so in its tooltip), so these show under biocrowds.
  for (const float radius : {0.25f, 8.0f}) {
    const auto widgets = settingWidgets(radius);
    const auto find = [&](std::string_view n) {
      for (const SettingWidget& w : widgets)
        if (w.label == n) return w;
      FAIL("no widget ", n);
      return SettingWidget{};
    };
    INFO("radius ", radius);
    const SettingWidget space = find("personalSpace"), density = find("markerDensity");
    CHECK(space.kind == SettingWidget::Kind::Slider);
    CHECK_FALSE(space.integer);
    CHECK(space.min == doctest::Approx(radius));       // 1 to 16 radii
    CHECK(space.max == doctest::Approx(16 * radius));
    CHECK(space.tooltip.find("read by biocrowds") != std::string::npos);
    CHECK(density.kind == SettingWidget::Kind::Slider);
    CHECK(density.min == 1);
    CHECK(density.max == 64);
    CHECK(density.logarithmic);
    CHECK(density.tooltip.find("read by biocrowds") != std::string::npos);
  }
  // And a built-in scene takes them, with the model, as --set does.
  auto ring = makeBuiltin("ring");
  std::string err;
  CHECK(ring->assign("model=biocrowds", &err));
  CHECK(ring->set("personalSpace", 24, &err));
  CHECK(ring->set("markerDensity", 0.5, &err));
  CHECK(ring->crowd().settings.model == "biocrowds");
  CHECK(ring->crowd().settings.personalSpace == 24);
  CHECK(ring->crowd().settings.markerDensity == 0.5f);
}
