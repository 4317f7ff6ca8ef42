// `throng check FILE`: the separation gate over an exported csv trajectory.
// Streams the file two steps at a time (memory stays flat), aligns walkers
// present in both steps by id, and runs checkStep on each pair of steps.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "cli.hpp"
#include "throng/scene.hpp"
#include "throng/verify.hpp"

namespace throng::cli {

namespace {

constexpr const char* kHeader = "step,time,id,x,y,vx,vy,jammed,group";

struct Row {
  std::uint64_t id;
  Vec2 p;
  std::uint8_t jammed;
};

struct BadFile {
  std::string message;
};

/// A csv field as a number: the whole field, else nullopt.
std::optional<double> toDouble(std::string_view s) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> toUnsigned(std::string_view s) {
  std::uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

/// Parses one data line into row and step; throws BadFile with the reason.
void parseLine(const std::string& line, std::uint64_t& step, Row& row) {
  static const char* names[] = {"step", "time", "id", "x", "y", "vx", "vy", "jammed", "group"};
  std::string_view fields[9];
  std::size_t n = 0, b = 0;
  for (;;) {
    const std::size_t e = line.find(',', b);
    if (n == 9) throw BadFile{"expected 9 comma-separated fields (" + std::string(kHeader) + "), got more"};
    fields[n++] = std::string_view(line).substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (e == std::string::npos) break;
    b = e + 1;
  }
  if (n != 9) throw BadFile{"expected 9 comma-separated fields (" + std::string(kHeader) + "), got " + std::to_string(n)};
  auto whole = [&](std::size_t k) {
    const auto v = toUnsigned(fields[k]);
    if (!v) throw BadFile{"field " + std::string(names[k]) + ": expected a whole number, got '" + std::string(fields[k]) + "'"};
    return *v;
  };
  auto real = [&](std::size_t k) {
    const auto v = toDouble(fields[k]);
    if (!v || !std::isfinite(*v) || std::fabs(*v) > 1e15)
      throw BadFile{"field " + std::string(names[k]) + ": expected a finite number, got '" + std::string(fields[k]) + "'"};
    return static_cast<float>(*v);
  };
  step = whole(0);
  real(1);
  row.id = whole(2);
  row.p = {real(3), real(4)};
  real(5);
  real(6);
  const std::uint64_t jam = whole(7);
  if (jam > 1) throw BadFile{"field jammed: expected 0 or 1, got '" + std::string(fields[7]) + "'"};
  row.jammed = static_cast<std::uint8_t>(jam);
  if (fields[8].empty() || !toDouble(fields[8])) throw BadFile{"field group: expected an integer, got '" + std::string(fields[8]) + "'"};
}

int check(const CheckOptions& o) {
  const std::string& file = o.file;
  const auto radius = static_cast<float>(o.radius), tolerance = static_cast<float>(o.tolerance);
  std::optional<Scene> scene;
  if (!o.scene.empty()) {
    std::string err;
    const auto path = findScene(o.scene, &err);
    if (path) scene = Scene::load(*path, &err);
    if (!scene) {
      std::fprintf(stderr, "throng check: %s\n", err.c_str());
      return 1;
    }
    for (const std::string& s : o.sets)
      if (!scene->assign(s, &err)) {
        std::fputs(usageError("throng check", "--set " + s + ": " + err).c_str(), stderr);
        return 2;
      }
  }
  GateGeometry geometry;
  if (scene) geometry = GateGeometry{scene->spec().obstacles, scene->spec().walls};

  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "throng check: %s: cannot open (%s)\n", file.c_str(), std::strerror(errno));
    return 1;
  }
  std::string line;
  std::size_t lineNo = 0;
  GateReport total;
  std::vector<Row> prev, cur;
  std::uint64_t curStep = 0, steps = 0, rows = 0;
  bool havePrev = false, haveCur = false;
  std::vector<Vec2> from, to;
  std::vector<float> radii;
  std::vector<std::uint8_t> jammed;
  std::vector<std::uint64_t> ids;

  auto finishStep = [&]() {
    std::sort(cur.begin(), cur.end(), [](const Row& x, const Row& y) { return x.id < y.id; });
    for (std::size_t i = 1; i < cur.size(); ++i)
      if (cur[i].id == cur[i - 1].id)
        throw BadFile{"walker " + std::to_string(cur[i].id) + " appears twice in step " + std::to_string(curStep)};
    ++steps;
    if (havePrev) {
      from.clear(), to.clear(), jammed.clear(), ids.clear();
      for (std::size_t i = 0, k = 0; i < prev.size() && k < cur.size();) {
        if (prev[i].id < cur[k].id) ++i;
        else if (cur[k].id < prev[i].id) ++k;
        else {
          from.push_back(prev[i].p);
          to.push_back(cur[k].p);
          jammed.push_back(cur[k].jammed);
          ids.push_back(cur[k].id);
          ++i, ++k;
        }
      }
      radii.assign(from.size(), radius);
      GateReport r = checkStep(GateStep{from, to, radii, jammed, ids}, geometry, tolerance);
      r.step = curStep;
      total.merge(r);
    }
    std::swap(prev, cur);
    cur.clear();
    havePrev = true;
  };

  try {
    if (!std::getline(in, line)) throw BadFile{"empty file: expected the header " + std::string(kHeader)};
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line != kHeader) throw BadFile{"expected the header " + std::string(kHeader) + ", got '" + line.substr(0, 60) + "'"};
    while (std::getline(in, line)) {
      ++lineNo;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      std::uint64_t step = 0;
      Row row{};
      parseLine(line, step, row);
      if (haveCur && step != curStep) {
        if (step < curStep)
          throw BadFile{"step " + std::to_string(step) + " after step " + std::to_string(curStep) + ": steps must not go back"};
        finishStep();
      }
      curStep = step;
      haveCur = true;
      cur.push_back(row);
      ++rows;
    }
    if (in.bad()) throw BadFile{"read error"};
    if (haveCur) finishStep();
    if (rows == 0) throw BadFile{"no rows after the header"};
  } catch (const BadFile& e) {
    std::fprintf(stderr, "throng check: %s:%zu: %s\n", file.c_str(), lineNo, e.message.c_str());
    return 1;
  }

  auto gap = [](float v) {
    char b[32];
    if (std::isfinite(v)) std::snprintf(b, sizeof b, "%.4g", static_cast<double>(v));
    else std::snprintf(b, sizeof b, "n/a");
    return std::string(b);
  };
  std::printf("check      %s: %" PRIu64 " steps, %" PRIu64 " rows, %zu pair-steps, radius %g%s\n", file.c_str(), steps,
              rows, total.pairsChecked, static_cast<double>(radius), o.radiusGiven ? "" : " (default; see --radius)");
  std::printf("gap        min %s over all pairs, %s between unjammed walkers\n", gap(total.minGap).c_str(),
              gap(total.minGapUnjammed).c_str());
  if (std::isfinite(total.minGapUnjammed))
    std::printf("worst      walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64 ", gap %s\n", total.worstA, total.worstB,
                total.step, gap(total.minGapUnjammed).c_str());
  std::printf("overlap    max %.4g, %zu unjammed overlaps\n", static_cast<double>(total.maxOverlap), total.unjammedOverlaps);
  if (scene) std::printf("walls      max intrusion %.4g (scene %s)\n", static_cast<double>(total.maxWallIntrusion), scene->name().c_str());
  if (!total.passed()) {
    if (total.unjammedOverlaps > 0)
      std::printf("FAILED     %zu overlaps outside a jam; worst: walkers %" PRIu64 " and %" PRIu64 " at step %" PRIu64
                  ", gap %s\n",
                  total.unjammedOverlaps, total.worstA, total.worstB, total.step, gap(total.minGapUnjammed).c_str());
    else
      std::printf("FAILED     wall intrusion %.4g\n", static_cast<double>(total.maxWallIntrusion));
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

}  // namespace

int runCheck(int argc, char** argv) {
  try {
    const Parsed<CheckOptions> p = parseCheck(argc, argv);
    return p.options ? check(*p.options) : p.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "throng check: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace throng::cli
