// checkTrajectory (trajectory.hpp): the csv reader and the gate over it.
#include "trajectory.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <string_view>
#include <vector>

namespace throng::cli {

namespace {

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

/// A field as a message quotes it: its first 40 characters, bytes outside
/// printable ASCII as \xNN, in single quotes.
std::string quoted(std::string_view f) {
  std::string out = "'";
  for (const char c : f.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 32 && u < 127) {
      out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    }
  }
  return out + (f.size() > 40 ? "...'" : "'");
}

/// Parses one data line into row and step; throws BadFile with the reason.
void parseLine(const std::string& line, std::uint64_t& step, Row& row) {
  static const char* names[] = {"step", "time", "id", "x", "y", "vx", "vy", "jammed", "group"};
  std::string_view fields[9];
  std::size_t n = 0, b = 0;
  for (;;) {
    const std::size_t e = line.find(',', b);
    if (n == 9) throw BadFile{"expected 9 comma-separated fields (" + std::string(kTrajectoryHeader) + "), got more"};
    fields[n++] = std::string_view(line).substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (e == std::string::npos) break;
    b = e + 1;
  }
  if (n != 9) throw BadFile{"expected 9 comma-separated fields (" + std::string(kTrajectoryHeader) + "), got " + std::to_string(n)};
  auto whole = [&](std::size_t k) {
    const auto v = toUnsigned(fields[k]);
    if (!v) throw BadFile{"field " + std::string(names[k]) + ": expected a whole number, got " + quoted(fields[k])};
    return *v;
  };
  auto real = [&](std::size_t k) {
    const auto v = toDouble(fields[k]);
    if (!v || !std::isfinite(*v) || std::fabs(*v) > 1e15)
      throw BadFile{"field " + std::string(names[k]) + ": expected a finite number, got " + quoted(fields[k])};
    return static_cast<float>(*v);
  };
  step = whole(0);
  real(1);
  row.id = whole(2);
  row.p = {real(3), real(4)};
  real(5);
  real(6);
  const std::uint64_t jam = whole(7);
  if (jam > 1) throw BadFile{"field jammed: expected 0 or 1, got " + quoted(fields[7])};
  row.jammed = static_cast<std::uint8_t>(jam);
  if (fields[8].empty() || !toDouble(fields[8])) throw BadFile{"field group: expected an integer, got " + quoted(fields[8])};
}

}  // namespace

std::optional<TrajectoryCheck> checkTrajectory(std::istream& in, float radius, float tolerance,
                                               const GateGeometry& geometry, OverlapPromise promise,
                                               std::string* error) {
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
      GateReport r = checkStep(GateStep{from, to, radii, jammed, ids}, geometry, tolerance, promise);
      r.step = curStep;
      total.merge(r);
    }
    std::swap(prev, cur);
    cur.clear();
    havePrev = true;
  };

  try {
    ++lineNo;  // the header's
    if (!std::getline(in, line)) throw BadFile{"empty file: expected the header " + std::string(kTrajectoryHeader)};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line != kTrajectoryHeader) throw BadFile{"expected the header " + std::string(kTrajectoryHeader) + ", got " + quoted(line)};
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
    if (error) *error = std::to_string(lineNo) + ": " + e.message;
    return std::nullopt;
  }
  return TrajectoryCheck{total, steps, rows};

}

}  // namespace throng::cli
