// Floor-plan geometry as text (plan_text.hpp) and the scene's geometry as
// WKT (scene.hpp's sceneGeometryWkt and walkableAreaWkt), through GEOS's
// reentrant C API.
#include "scene/plan_text.hpp"

#include "scene/scene_internal.hpp"

#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

namespace throng {

namespace detail {

namespace {

/// One GEOS context for one call, with its error messages kept: GEOS
/// reports a parse error through the handler and returns null.
class Geos {
 public:
  Geos() : ctx_(GEOS_init_r()) {
    GEOSContext_setErrorMessageHandler_r(ctx_, &Geos::onError, this);
    GEOSContext_setNoticeMessageHandler_r(ctx_, nullptr, nullptr);
  }
  ~Geos() { GEOS_finish_r(ctx_); }
  Geos(const Geos&) = delete;
  Geos& operator=(const Geos&) = delete;

  GEOSContextHandle_t operator*() const { return ctx_; }
  const std::string& lastError() const { return error_; }

  /// An owning pointer to a geometry of this context.
  struct Free {
    GEOSContextHandle_t ctx;
    void operator()(GEOSGeometry* g) const {
      if (g) GEOSGeom_destroy_r(ctx, g);
    }
  };
  using Geom = std::unique_ptr<GEOSGeometry, Free>;
  Geom own(GEOSGeometry* g) const { return Geom(g, Free{ctx_}); }

 private:
  static void onError(const char* message, void* self) {
    static_cast<Geos*>(self)->error_ = message ? message : "unknown GEOS error";
  }
  GEOSContextHandle_t ctx_;
  std::string error_;
};

/// GEOS's message without its exception class ("ParseException: " ...).
std::string reason(std::string s) {
  for (std::string_view tag : {"ParseException: ", "IllegalArgumentException: "})
    if (s.starts_with(tag)) s.erase(0, tag.size());
  if (s.size() > 200) s = s.substr(0, 197) + "...";
  return s;
}

/// Reads shapes out of a parsed geometry; false with *error.
class Reader {
 public:
  Reader(const Geos& geos, PlanShapes* out, std::size_t maxPoints) : geos_(geos), out_(out), left_(maxPoints) {}

  bool take(const GEOSGeometry* g, std::string* error, int depth = 0) {
    GEOSContextHandle_t c = *geos_;
    const int type = GEOSGeomTypeId_r(c, g);
    switch (type) {
      case GEOS_POLYGON: {
        if (GEOSisEmpty_r(c, g) == 1) return fail(error, "an empty polygon");
        if (GEOSisValid_r(c, g) != 1) {
          char* why = GEOSisValidReason_r(c, g);
          const std::string text = why ? why : "invalid";
          if (why) GEOSFree_r(c, why);
          return fail(error, "an invalid polygon (GEOS: " + reason(text) + ")");
        }
        WalkableArea a;
        if (!ring(GEOSGetExteriorRing_r(c, g), &a.outline, error)) return false;
        const int holes = GEOSGetNumInteriorRings_r(c, g);
        for (int h = 0; h < holes; ++h) {
          a.holes.emplace_back();
          if (!ring(GEOSGetInteriorRingN_r(c, g, h), &a.holes.back(), error)) return false;
        }
        out_->areas.push_back(std::move(a));
        return true;
      }
      case GEOS_LINESTRING: {
        if (GEOSisEmpty_r(c, g) == 1) return fail(error, "an empty line");
        std::vector<Vec2> line;
        if (!points(g, &line, error)) return false;
        if (line.size() < 2) return fail(error, "a line of fewer than two points");
        out_->lines.push_back(std::move(line));
        return true;
      }
      case GEOS_MULTIPOLYGON:
      case GEOS_MULTILINESTRING:
      case GEOS_GEOMETRYCOLLECTION: {
        if (depth > 8) return fail(error, "collections nested more than 8 deep");
        const int n = GEOSGetNumGeometries_r(c, g);
        if (n <= 0 && depth == 0) return fail(error, "an empty geometry");
        for (int i = 0; i < n; ++i)
          if (!take(GEOSGetGeometryN_r(c, g, i), error, depth + 1)) return false;
        return true;
      }
      default: {
        char* name = GEOSGeomType_r(c, g);
        const std::string text = name ? name : "unknown";
        if (name) GEOSFree_r(c, name);
        return fail(error, "a " + text + " (expected polygons for the walkable area and lines for walls)");
      }
    }
  }

 private:
  static bool fail(std::string* error, std::string why) {
    if (error) *error = std::move(why);
    return false;
  }
  bool points(const GEOSGeometry* g, std::vector<Vec2>* out, std::string* error) {
    GEOSContextHandle_t c = *geos_;
    const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(c, g);
    unsigned int n = 0;
    if (!seq || !GEOSCoordSeq_getSize_r(c, seq, &n)) return fail(error, "unreadable coordinates");
    if (n > left_) return fail(error, "more than " + std::to_string(left_) + " points");
    left_ -= n;
    out->reserve(n);
    for (unsigned int i = 0; i < n; ++i) {
      double x = 0, y = 0;
      if (!GEOSCoordSeq_getXY_r(c, seq, i, &x, &y)) return fail(error, "unreadable coordinates");
      if (!(std::fabs(x) <= 1e12 && std::fabs(y) <= 1e12))
        return fail(error, "a coordinate beyond 1e12 or not a number");
      out->push_back({static_cast<float>(x), static_cast<float>(y)});
    }
    return true;
  }
  /// A ring without its closing point (GEOS has checked that it closes).
  bool ring(const GEOSGeometry* g, std::vector<Vec2>* out, std::string* error) {
    if (!g || !points(g, out, error)) return false;
    if (out->size() > 1) out->pop_back();
    if (out->size() < 3) return fail(error, "a ring of fewer than three points");
    return true;
  }

  const Geos& geos_;
  PlanShapes* out_;
  std::size_t left_;
};

GEOSGeometry* ringGeometry(const Geos& geos, const std::vector<Vec2>& pts) {
  GEOSContextHandle_t c = *geos;
  GEOSCoordSequence* seq = GEOSCoordSeq_create_r(c, static_cast<unsigned int>(pts.size() + 1), 2);
  for (std::size_t i = 0; i <= pts.size(); ++i) {
    const Vec2 p = pts[i % pts.size()];
    GEOSCoordSeq_setXY_r(c, seq, static_cast<unsigned int>(i), p.x, p.y);
  }
  return GEOSGeom_createLinearRing_r(c, seq);
}

GEOSGeometry* lineGeometry(const Geos& geos, const std::vector<Vec2>& pts) {
  GEOSContextHandle_t c = *geos;
  GEOSCoordSequence* seq = GEOSCoordSeq_create_r(c, static_cast<unsigned int>(pts.size()), 2);
  for (std::size_t i = 0; i < pts.size(); ++i) GEOSCoordSeq_setXY_r(c, seq, static_cast<unsigned int>(i), pts[i].x, pts[i].y);
  return GEOSGeom_createLineString_r(c, seq);
}

void appendRing(std::string& out, const std::vector<Vec2>& pts) {
  out += '(';
  for (std::size_t i = 0; i <= pts.size(); ++i) {
    if (i) out += ", ";
    appendWktPoint(out, pts[i % pts.size()]);
  }
  out += ')';
}

void appendPolygon(std::string& out, const WalkableArea& a) {
  out += '(';
  appendRing(out, a.outline);
  for (const std::vector<Vec2>& h : a.holes) {
    out += ", ";
    appendRing(out, h);
  }
  out += ')';
}

}  // namespace

bool readPlan(std::string_view text, PlanFormat format, PlanShapes* out, std::string* error, std::size_t maxPoints) {
  if (nestedPast(text, kMaxPlanDepth, format == PlanFormat::Wkt ? Nesting::Wkt : Nesting::Json) != std::string_view::npos) {
    if (error) *error = "nested more than " + std::to_string(kMaxPlanDepth) + " deep";
    return false;
  }
  Geos geos;
  GEOSContextHandle_t c = *geos;
  const std::string z(text);  // GEOS reads a NUL-terminated string
  Geos::Geom g = geos.own(nullptr);
  if (format == PlanFormat::Wkt) {
    GEOSWKTReader* r = GEOSWKTReader_create_r(c);
    g = geos.own(GEOSWKTReader_read_r(c, r, z.c_str()));
    GEOSWKTReader_destroy_r(c, r);
  } else {
    GEOSGeoJSONReader* r = GEOSGeoJSONReader_create_r(c);
    g = geos.own(GEOSGeoJSONReader_readGeometry_r(c, r, z.c_str()));
    GEOSGeoJSONReader_destroy_r(c, r);
  }
  if (!g) {
    if (error) *error = "not " + std::string(format == PlanFormat::Wkt ? "WKT" : "GeoJSON") + " (GEOS: " +
                        reason(geos.lastError()) + ")";
    return false;
  }
  PlanShapes shapes;
  Reader reader(geos, &shapes, maxPoints);
  if (!reader.take(g.get(), error)) return false;
  *out = std::move(shapes);
  return true;
}

double areaOnFloor(const std::vector<WalkableArea>& areas, const std::vector<Vec2>& outline) {
  Geos geos;
  GEOSContextHandle_t c = *geos;
  std::vector<GEOSGeometry*> parts;  // owned by the collection
  for (const WalkableArea& a : areas) {
    std::vector<GEOSGeometry*> holes;
    for (const std::vector<Vec2>& h : a.holes) holes.push_back(ringGeometry(geos, h));
    parts.push_back(GEOSGeom_createPolygon_r(c, ringGeometry(geos, a.outline), holes.data(),
                                             static_cast<unsigned int>(holes.size())));
  }
  Geos::Geom floor = geos.own(GEOSGeom_createCollection_r(c, GEOS_MULTIPOLYGON, parts.data(),
                                                          static_cast<unsigned int>(parts.size())));
  Geos::Geom shape = geos.own(GEOSGeom_createPolygon_r(c, ringGeometry(geos, outline), nullptr, 0));
  // A self-touching outline is mended first (the loader has refused a
  // crossing one already).
  Geos::Geom valid = geos.own(shape ? GEOSMakeValid_r(c, shape.get()) : nullptr);
  Geos::Geom on = geos.own(floor && valid ? GEOSIntersection_r(c, floor.get(), valid.get()) : nullptr);
  double size = 0;
  if (!on || !GEOSArea_r(c, on.get(), &size)) return 0;
  return size;
}

bool insideAreas(const std::vector<WalkableArea>& areas, Vec2 p) {
  bool in = false;
  const auto cross = [&](const std::vector<Vec2>& r) {
    for (std::size_t k = 0, j = r.size() - 1; k < r.size(); j = k++)
      if ((r[k].y > p.y) != (r[j].y > p.y) && p.x < (r[j].x - r[k].x) * (p.y - r[k].y) / (r[j].y - r[k].y) + r[k].x)
        in = !in;
  };
  for (const WalkableArea& a : areas) {
    cross(a.outline);
    for (const std::vector<Vec2>& h : a.holes) cross(h);
  }
  return in;
}

void appendWktPoint(std::string& out, Vec2 p) {
  char b[64];
  auto r = std::to_chars(b, b + sizeof b, p.x);
  *r.ptr++ = ' ';
  r = std::to_chars(r.ptr, b + sizeof b, p.y);
  out.append(b, r.ptr);
}

}  // namespace detail

std::optional<std::string> sceneGeometryWkt(const SceneSpec& spec, std::string* error) {
  std::size_t holes = 0;
  for (const WalkableArea& a : spec.walkable) holes += a.holes.size();
  if (spec.obstacles.size() > holes) {
    if (error) *error = "the scene has obstacles outside a walkable area, which WKT's polygons cannot tell from walkable area";
    return std::nullopt;
  }
  std::string out = "GEOMETRYCOLLECTION (";
  bool first = true;
  const auto sep = [&] {
    if (!first) out += ", ";
    first = false;
  };
  for (const WalkableArea& a : spec.walkable) {
    sep();
    out += "POLYGON ";
    detail::appendPolygon(out, a);
  }
  for (std::size_t w = spec.walkable.size(); w < spec.walls.size(); ++w) {
    sep();
    out += "LINESTRING (";
    for (std::size_t i = 0; i < spec.walls[w].size(); ++i) {
      if (i) out += ", ";
      detail::appendWktPoint(out, spec.walls[w][i]);
    }
    out += ')';
  }
  if (first) return std::string("GEOMETRYCOLLECTION EMPTY");
  out += ')';
  return out;
}

std::string walkableAreaWkt(const SceneSpec& spec, Rect* bounds) {
  if (!spec.walkable.empty() && bounds) {
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (const WalkableArea& a : spec.walkable)
      for (Vec2 p : a.outline) x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    *bounds = Rect{x0, y0, x1 - x0, y1 - y0};
  }
  if (spec.walkable.size() == 1) {
    std::string out = "POLYGON ";
    detail::appendPolygon(out, spec.walkable[0]);
    return out;
  }
  if (spec.walkable.size() > 1) {
    std::string out = "MULTIPOLYGON (";
    for (std::size_t i = 0; i < spec.walkable.size(); ++i) {
      if (i) out += ", ";
      detail::appendPolygon(out, spec.walkable[i]);
    }
    return out + ")";
  }
  // No area given: the box round everything, less obstacles and walls.
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  const auto grow = [&](Vec2 p, float r) {
    x0 = std::min(x0, p.x - r), y0 = std::min(y0, p.y - r), x1 = std::max(x1, p.x + r), y1 = std::max(y1, p.y + r);
  };
  const auto growRect = [&](const Rect& r) {
    grow({r.x, r.y}, 0);
    grow({r.x + r.width, r.y + r.height}, 0);
  };
  for (const auto& w : spec.walls)
    for (Vec2 p : w) grow(p, 0);
  for (const auto& o : spec.obstacles)
    for (Vec2 p : o) grow(p, 0);
  for (const SceneAgent& a : spec.agents) {
    grow(a.at, a.radius);
    if (a.goal) grow(*a.goal, a.radius);
  }
  for (const SceneSource& s : spec.sources) growRect(s.region);
  for (const SceneSink& s : spec.sinks) growRect(s.region);
  for (const Measurement& m : spec.measurements)
    for (Vec2 p : m.points) grow(p, 0);
  if (x0 > x1) x0 = y0 = 0, x1 = y1 = 1;
  constexpr float kMargin = 2, kWallThickness = 0.01f;
  x0 -= kMargin, y0 -= kMargin, x1 += kMargin, y1 += kMargin;

  detail::Geos geos;
  GEOSContextHandle_t c = *geos;
  detail::Geos::Geom area = geos.own(GEOSGeom_createRectangle_r(c, x0, y0, x1, y1));
  std::vector<GEOSGeometry*> solid;  // owned by the collection below
  for (const auto& o : spec.obstacles)
    if (o.size() >= 3) solid.push_back(GEOSGeom_createPolygon_r(c, detail::ringGeometry(geos, o), nullptr, 0));
  for (const auto& w : spec.walls) {
    if (w.size() < 2) continue;
    detail::Geos::Geom line = geos.own(detail::lineGeometry(geos, w));
    solid.push_back(GEOSBuffer_r(c, line.get(), kWallThickness / 2, 2));
  }
  solid.erase(std::remove(solid.begin(), solid.end(), nullptr), solid.end());
  if (!solid.empty()) {
    detail::Geos::Geom all = geos.own(GEOSGeom_createCollection_r(c, GEOS_GEOMETRYCOLLECTION, solid.data(),
                                                                  static_cast<unsigned int>(solid.size())));
    detail::Geos::Geom merged = geos.own(all ? GEOSUnaryUnion_r(c, all.get()) : nullptr);
    detail::Geos::Geom left = geos.own(merged ? GEOSDifference_r(c, area.get(), merged.get()) : nullptr);
    if (left) area = std::move(left);
  }
  // In parts (a closed room): the part most walkers start in, else the largest.
  if (GEOSGeomTypeId_r(c, area.get()) != GEOS_POLYGON) {
    const int n = GEOSGetNumGeometries_r(c, area.get());
    int best = -1;
    std::size_t bestCount = 0;
    double bestArea = -1;
    for (int i = 0; i < n; ++i) {
      const GEOSGeometry* part = GEOSGetGeometryN_r(c, area.get(), i);
      if (GEOSGeomTypeId_r(c, part) != GEOS_POLYGON) continue;
      const GEOSPreparedGeometry* prep = GEOSPrepare_r(c, part);
      std::size_t count = 0;
      for (const SceneAgent& a : spec.agents) {
        detail::Geos::Geom pt = geos.own(GEOSGeom_createPointFromXY_r(c, a.at.x, a.at.y));
        if (GEOSPreparedContains_r(c, prep, pt.get()) == 1) ++count;
      }
      GEOSPreparedGeom_destroy_r(c, prep);
      double size = 0;
      GEOSArea_r(c, part, &size);
      if (best < 0 || count > bestCount || (count == bestCount && size > bestArea)) best = i, bestCount = count, bestArea = size;
    }
    if (best >= 0) area = geos.own(GEOSGeom_clone_r(c, GEOSGetGeometryN_r(c, area.get(), best)));
  }
  if (bounds) {
    double bx0 = x0, by0 = y0, bx1 = x1, by1 = y1;
    GEOSGeom_getXMin_r(c, area.get(), &bx0), GEOSGeom_getYMin_r(c, area.get(), &by0);
    GEOSGeom_getXMax_r(c, area.get(), &bx1), GEOSGeom_getYMax_r(c, area.get(), &by1);
    *bounds = Rect{static_cast<float>(bx0), static_cast<float>(by0), static_cast<float>(bx1 - bx0), static_cast<float>(by1 - by0)};
  }
  GEOSWKTWriter* w = GEOSWKTWriter_create_r(c);
  GEOSWKTWriter_setTrim_r(c, w, 1);
  GEOSWKTWriter_setRoundingPrecision_r(c, w, 4);
  GEOSWKTWriter_setOutputDimension_r(c, w, 2);
  char* text = GEOSWKTWriter_write_r(c, w, area.get());
  std::string out = text ? text : "POLYGON EMPTY";
  if (text) GEOSFree_r(c, text);
  GEOSWKTWriter_destroy_r(c, w);
  return out;
}

}  // namespace throng
