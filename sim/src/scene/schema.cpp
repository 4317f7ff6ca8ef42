// The scene format's keys (schema.hpp), written once.
#include "scene/schema.hpp"

#include <vector>

#include "throng/settings.hpp"

namespace throng::detail {

namespace {

using Keys = std::vector<std::string_view>;

/// What every agent-making object takes (PROPS in scene.hpp).
const Keys kProps{"radius",     "maxSpeed",   "premovement", "maxAccel", "maxDecel",
                  "group",      "goal",       "goalOffset",  "goalRegion", "route"};

Keys join(std::initializer_list<Keys> parts) {
  Keys out;
  for (const Keys& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

const Keys kRing{"type", "count", "center", "ringRadius"};
const Keys kGrid{"type", "origin", "rows", "cols", "spacing"};
const Keys kRegion{"type", "region", "density"};

}  // namespace

std::span<const std::string_view> generatorKeys(std::string_view type) {
  static const Keys ring = join({kRing, kProps}), grid = join({kGrid, kProps}), region = join({kRegion, kProps});
  if (type == "ring") return ring;
  if (type == "grid") return grid;
  if (type == "region") return region;
  return {};
}

std::span<const std::string_view> sceneKeys(std::string_view p) {
  static const Keys root{"name",   "description", "units",   "model",  "duration", "settings",  "knobs",
                         "agentDefaults", "agents", "generators", "sources", "sinks", "geometry", "obstacles", "walls",
                         "routes", "streams",     "routing", "targets", "discomfort", "hills", "heightMap",
                         "discomfortMap", "speedZones", "stairs", "measurements", "verify"};
  static const Keys knob{"min", "max", "default", "help", "integer"};
  static const Keys defaults{"radius", "maxSpeed", "premovement", "maxAccel", "maxDecel", "group"};
  static const Keys draw{"distribution", "mean", "sd", "min", "max", "ages"};
  static const Keys agent = join({{"at"}, kProps});
  // Every type's keys, each once, in the order the types list them.
  static const Keys generator = join({kRing, {kGrid.begin() + 1, kGrid.end()}, {kRegion.begin() + 1, kRegion.end()},
                                      kProps});
  static const Keys source = join({{"region", "rate", "start", "stop", "max"}, kProps});
  static const Keys sink{"region", "groups"};
  static const Keys obstacle{"rect", "outline"};
  static const Keys discomfort{"rect", "outline", "value"};
  static const Keys speedZone{"rect", "outline", "factor"};
  static const Keys stairs{"rect", "outline", "up", "upSpeed", "downSpeed"};
  static const Keys route{"gates", "goal", "goalRegion"};
  static const Keys stream{"group", "velocity"};
  static const Keys measurement{"name", "line", "rect", "outline"};
  static const Keys verify{"test", "says", "checks", "seeds", "verdict", "diagram"};
  static const Keys check{"figure", "min", "max", "ratioTo", "over", "percentile"};
  static const Keys target{"name", "region", "regions", "group", "groups", "route"};
  static const Keys hill{"at", "radius", "height"};
  static const Keys heights{"origin", "cell", "heights"};
  static const Keys values{"origin", "cell", "values"};
  static const Keys plan{"wkt", "geojson", "file"};
  static const Keys settings = [] {
    Keys v;
    for (const SettingInfo& i : settingsTable()) v.push_back(i.name);
    return v;
  }();
  if (p.empty()) return root;
  if (p == "/settings") return settings;
  if (p == "/knobs/*") return knob;
  if (p == "/agentDefaults") return defaults;
  if (p == "/agents/#") return agent;
  if (p == "/generators/#") return generator;
  if (p == "/sources/#") return source;
  if (p == "/sinks/#") return sink;
  if (p == "/obstacles/#") return obstacle;
  if (p == "/discomfort/#") return discomfort;
  if (p == "/speedZones/#") return speedZone;
  if (p == "/stairs/#") return stairs;
  if (p == "/routes/*") return route;
  if (p == "/streams/#") return stream;
  if (p == "/measurements/#") return measurement;
  if (p == "/verify") return verify;
  if (p == "/verify/checks/#") return check;
  if (p == "/draw") return draw;  // a distribution, wherever PROPS take one
  if (p == "/targets/#") return target;
  if (p == "/hills/#") return hill;
  if (p == "/heightMap") return heights;
  if (p == "/discomfortMap") return values;
  if (p == "/geometry") return plan;
  return {};
}

}  // namespace throng::detail
