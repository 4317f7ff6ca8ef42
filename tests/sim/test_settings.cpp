// The settings table (throng/settings.hpp): every setting described once,
// setSetting / setSettingText / sanitized() agreeing with its limits at
// every end, and the user guide's table (docs/guide.md) and the header's
// [Limit: ...] notes printed from it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

#include "../common/setting_probes.hpp"
#include "throng/settings.hpp"

using namespace throng;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// For a float or double field: the value of its type nearest the limits
/// on the outside of the end at `low` (the lower end when true), and the
/// nearest on the inside.
template <class T>
std::pair<T, T> fieldEdge(const SettingLimits& l, bool low) {
  const T out = low ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  T inside = static_cast<T>(low ? l.min : l.max);
  while (!l.contains(static_cast<double>(inside))) inside = std::nextafter(inside, -out);
  while (l.contains(static_cast<double>(std::nextafter(inside, out)))) inside = std::nextafter(inside, out);
  return {std::nextafter(inside, out), inside};
}

}  // namespace

TEST_CASE("the settings table describes every Settings field once, with a field of its kind") {
  std::set<std::string_view> names;
  const Settings d;
  for (const SettingInfo& i : settingsTable()) {
    INFO(i.name);
    CHECK(names.insert(i.name).second);
    CHECK(findSetting(i.name) == &i);
    CHECK_FALSE(i.help.empty());
    CHECK(i.help.find('\n') == std::string_view::npos);
    const bool kindMatches = std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(d.*member)>;
          switch (i.kind) {
            case SettingKind::Real: return std::is_floating_point_v<T>;
            case SettingKind::Integer: return std::is_same_v<T, int>;
            case SettingKind::Seed: return std::is_same_v<T, std::uint64_t>;
            case SettingKind::Choice: return std::is_same_v<T, std::string> && i.choices != nullptr;
          }
          return false;
        },
        i.field);
    CHECK(kindMatches);
    // The default is inside the limits, and a slider's range inside them.
    if (i.kind == SettingKind::Real || i.kind == SettingKind::Integer) {
      CHECK(i.limits.contains(getSetting(d, i.name)));
      if (i.ui.given() && !i.ui.perRadius) {
        CHECK(i.limits.contains(i.ui.min));
        CHECK(i.limits.contains(i.ui.max));
      }
    }
    for (std::string_view m : i.models) {
      const auto known = modelNames();
      // A model's name, or the routing that reads it under any model.
      CHECK((std::find(known.begin(), known.end(), m) != known.end() || m == "routing = field"));
    }
  }
  // Every field of Settings: 30 of them, each a different member.
  CHECK(names.size() == 30);
  for (const char* n : {"model", "timeHorizon", "obstacleTimeHorizon", "perceptionRadius", "maxNeighbors",
                        "personalSpace", "markerDensity", "markerGain", "slowingRadius", "jitter", "maxStep", "seed", "threads",
                        "routing", "fieldCell", "fieldInterval", "costDistance", "costTime", "costDiscomfort",
                        "densityExponent", "densityMin", "densityMax", "slopeMin", "slopeMax", "slopeSpeed",
                        "maxAccel", "maxDecel", "rightOfWay", "paceLength", "paceTimeGap"})
    CHECK_MESSAGE(findSetting(n) != nullptr, n);
  CHECK(findSetting("timehorizon") == nullptr);
  CHECK(d.model == "orca");
  // The built-ins first (a test may register more after them).
  const std::vector<std::string> models = modelNames();
  REQUIRE(models.size() >= 3);
  CHECK(std::vector<std::string>(models.begin(), models.begin() + 3) ==
        std::vector<std::string>{"orca", "biocrowds", "continuum"});
  CHECK(routingNames() == std::vector<std::string>{"goals", "field"});
}

TEST_CASE("each setting takes the value just inside each limit and refuses the one just outside, as number and text") {
  for (const SettingInfo& i : settingsTable()) {
    for (const settingtest::Probe& p : settingtest::probes(i)) {
      INFO(i.name, " = ", p.text, (p.inside ? " (inside)" : " (outside)"));
      std::string why;
      Settings s;
      CHECK(setSettingText(s, i.name, p.text, &why) == p.inside);
      if (p.inside) {
        // The value kept is the one given (to the field's precision).
        Settings t;
        if (!std::isnan(p.value)) {
          REQUIRE(setSetting(t, i.name, p.value, &why));
          CHECK(getSettingText(s, i.name) == getSettingText(t, i.name));
        }
        if (i.kind != SettingKind::Real) CHECK(getSettingText(s, i.name) == p.text);
        // Text reads back to the same value.
        Settings back;
        REQUIRE(setSettingText(back, i.name, getSettingText(s, i.name), &why));
        CHECK(getSettingText(back, i.name) == getSettingText(s, i.name));
        // and sanitized() leaves an accepted value alone.
        CHECK(getSettingText(sanitized(s), i.name) == getSettingText(s, i.name));
      } else {
        INFO(why);
        CHECK(why.find(i.name) != std::string::npos);
        CHECK(why.find(i.kind == SettingKind::Choice ? i.choices().front() : formatLimits(i)) != std::string::npos);
        CHECK(getSettingText(s, i.name) == getSettingText(Settings{}, i.name));  // unchanged
      }
      if (!std::isnan(p.value) && i.kind != SettingKind::Choice) {
        Settings u;
        CHECK(setSetting(u, i.name, p.value, &why) == p.inside);
      }
    }
  }
  // Numbers the text form refuses whatever the limits: junk, non-finite, fractions of a whole.
  Settings s;
  std::string why;
  for (const char* bad : {"", "1x", " 1", "+1", "inf", "nan", "0x10"}) {
    INFO(bad);
    CHECK_FALSE(setSettingText(s, "timeHorizon", bad, &why));
  }
  CHECK_FALSE(setSettingText(s, "maxNeighbors", "2.5", &why));
  CHECK(why.find("maxNeighbors = 2.5 is out of range (expected a whole number in [0, 32])") != std::string::npos);
  CHECK_FALSE(setSetting(s, "seed", 1.5, &why));
  CHECK_FALSE(setSetting(s, "model", 0, &why));
  CHECK(why.find("takes a name") != std::string::npos);
  CHECK_FALSE(setSetting(s, "nosuch", 1, &why));
  CHECK(why.find("unknown setting \"nosuch\" (settings: model, timeHorizon") == 0);
  // A seed is exact as text; as a double, below 2^64.
  REQUIRE(setSettingText(s, "seed", "18446744073709551615", &why));
  CHECK(s.seed == 18446744073709551615ull);
  REQUIRE(setSetting(s, "seed", 0x1p64 - 2048, &why));
  CHECK(s.seed == 18446744073709549568ull);
}

TEST_CASE("sanitized clamps each field to the nearest value of its type inside the limits, NaN to the default") {
  const Settings d;
  for (const SettingInfo& i : settingsTable()) {
    INFO(i.name);
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(d.*member)>;
          if constexpr (std::is_floating_point_v<T>) {
            for (bool low : {true, false}) {
              // Not a structured binding: INFO captures it, which Clang before 16 cannot.
              const std::pair<T, T> edge = fieldEdge<T>(i.limits, low);
              const T outside = edge.first, inside = edge.second;
              INFO((low ? "low end: " : "high end: "), outside, " -> ", inside);
              CHECK_FALSE(i.limits.contains(static_cast<double>(outside)));
              Settings s;
              s.*member = outside;
              CHECK(sanitized(s).*member == inside);
              s.*member = inside;
              CHECK(sanitized(s).*member == inside);
              s.*member = low ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
              CHECK(sanitized(s).*member == inside);
            }
            Settings s;
            s.*member = std::numeric_limits<T>::quiet_NaN();
            CHECK(sanitized(s).*member == d.*member);
          } else if constexpr (std::is_same_v<T, int>) {
            const int lo = static_cast<int>(i.limits.min), hi = static_cast<int>(i.limits.max);
            Settings s;
            for (auto [given, kept] : {std::pair{lo - 1, lo}, std::pair{lo, lo}, std::pair{hi, hi}, std::pair{hi + 1, hi},
                                       std::pair{std::numeric_limits<int>::min(), lo},
                                       std::pair{std::numeric_limits<int>::max(), hi}}) {
              s.*member = given;
              CHECK(sanitized(s).*member == kept);
            }
          }
        },
        i.field);
  }
  // A model name is not clamped: an unknown one is the step's to report.
  Settings s;
  s.model = "nosuch";
  CHECK(sanitized(s).model == "nosuch");
  s.seed = ~0ull;
  CHECK(sanitized(s).seed == ~0ull);
  // The defaults are a fixed point.
  CHECK(getSettingText(sanitized(d), "maxStep") == getSettingText(d, "maxStep"));
  for (const SettingInfo& i : settingsTable()) CHECK(getSettingText(sanitized(d), i.name) == getSettingText(d, i.name));
}

TEST_CASE("limits and numbers print short and exact") {
  CHECK(formatLimits(*findSetting("timeHorizon")) == "[0.001, 1e6]");
  CHECK(formatLimits(*findSetting("maxStep")) == "(1e-6, 10]");
  CHECK(formatLimits(*findSetting("maxNeighbors")) == "[0, 32]");
  CHECK(formatLimits(*findSetting("seed")) == "[0, 18446744073709551615]");
  CHECK(formatLimits(*findSetting("model")) == "{orca, biocrowds, continuum, spring}");
  CHECK(formatSettingNumber(1e30) == "1e30");
  CHECK(formatSettingNumber(2.5) == "2.5");
  CHECK(formatSettingNumber(std::nextafter(0.001, 0.0)) == "0.0009999999999999998");
  CHECK(formatDefault(*findSetting("maxStep")) == "0.0166667");
  CHECK(formatDefault(*findSetting("jitter")) == "0.05");
  CHECK(getSettingText(Settings{}, "jitter") == "0.05");
  CHECK(getSettingText(Settings{}, "nosuch").empty());
  CHECK(std::isnan(getSetting(Settings{}, "model")));
}

TEST_CASE("docs/guide.md's Settings table is the one settingsMarkdown() prints") {
  const std::string guide = readFile(THRONG_TEST_GUIDE);
  const std::size_t section = guide.find("\n## Settings\n");
  REQUIRE(section != std::string::npos);
  const std::size_t start = guide.find("\n|", section);
  REQUIRE(start != std::string::npos);
  std::size_t end = start + 1;
  while (end < guide.size() && guide[end] == '|') end = guide.find('\n', end) + 1;
  const std::string table = guide.substr(start + 1, end - start - 1);
  INFO("docs/guide.md has:\n", table, "\nthe table prints (throng scenes --settings-markdown):\n", settingsMarkdown());
  CHECK(table == settingsMarkdown());
}

TEST_CASE("each field's [Limit: ...] note in settings.hpp is the table's") {
  const std::string header = readFile(THRONG_TEST_SETTINGS_HPP);
  for (const SettingInfo& i : settingsTable()) {
    if (i.kind == SettingKind::Choice) continue;  // its names come from modelNames(), noted as such
    INFO(i.name);
    // The declaration "  float timeHorizon = 1;" and the comment above it.
    std::string key = " ";  // built with += : GCC 12 warns wrongly (-Wrestrict) on " " + name
    key += i.name;
    key += " = ";
    const std::size_t decl = header.find(key);
    REQUIRE(decl != std::string::npos);
    const std::size_t commentStart = header.rfind(";", decl);
    const std::string comment = header.substr(commentStart, decl - commentStart);
    std::string note = "[Limit: ";
    note += formatLimits(i);
    CHECK_MESSAGE(comment.find(note) != std::string::npos, comment);
  }
}
