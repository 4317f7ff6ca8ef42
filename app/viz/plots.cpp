// The live plots' data (plots.hpp).
#include "viz/plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace throng::app {

void PlotHistory::clear() { *this = PlotHistory{}; }

void PlotHistory::restart() {
  for (auto& r : recent_) r.clear();
  std::fill(inWindow_.begin(), inWindow_.end(), 0);
  runStart_ = -1;
}

void PlotHistory::fit(const MeasureSeries& series) {
  std::vector<std::size_t> lines, areas;
  for (std::size_t m = 0; m < series.measurements.size(); ++m)
    (series.measurements[m].kind == MeasureKind::Line ? lines : areas).push_back(m);
  auto names = [&](const std::vector<std::size_t>& idx, const std::vector<PlotLine>& have) {
    if (idx.size() != have.size()) return false;
    for (std::size_t k = 0; k < idx.size(); ++k)
      if (series.measurements[idx[k]].name != have[k].name) return false;
    return true;
  };
  if (names(lines, flows_) && names(areas, density_)) {
    lineIndex_ = lines;
    areaIndex_ = areas;
    return;
  }
  // Other measurements (another scene, or the editor changed them): their
  // series start here, earlier samples padded with NaN (not drawn).
  const std::size_t n = t_.size();
  auto build = [&](const std::vector<std::size_t>& idx) {
    std::vector<PlotLine> out;
    for (std::size_t m : idx) out.push_back({series.measurements[m].name, std::vector<float>(n, NAN)});
    return out;
  };
  flows_ = build(lines);
  density_ = build(areas);
  areaSpeed_ = build(areas);
  lineIndex_ = lines;
  areaIndex_ = areas;
  recent_.assign(lines.size(), {});
  inWindow_.assign(lines.size(), 0);
}

void PlotHistory::sample(const Crowd& crowd, std::size_t agentsEver, double stepSeconds) {
  const MeasureSeries& series = crowd.measurements();
  fit(series);
  clock_ += stepSeconds;
  const double now = crowd.time();
  if (runStart_ < 0 || now <= lastNow_) {  // the first sample, or a new run (its time began again)
    restart();
    runStart_ = now - stepSeconds;
  }
  lastNow_ = now;
  t_.push_back(clock_);
  const std::size_t last = series.steps();
  for (std::size_t k = 0; k < lineIndex_.size(); ++k) {
    std::uint32_t crossed = 0;
    if (last > 0) {
      const MeasureSample& s = series.at(last - 1, lineIndex_[k]);
      crossed = s.forward + s.backward;
    }
    recent_[k].push_back({now, crossed});
    inWindow_[k] += crossed;
    while (!recent_[k].empty() && recent_[k].front().first <= now - kFlowWindow) {
      inWindow_[k] -= recent_[k].front().second;
      recent_[k].pop_front();
    }
    const double span = std::min(kFlowWindow, now - runStart_);
    flows_[k].y.push_back(span > 0 ? static_cast<float>(inWindow_[k] / span) : 0.0f);
  }
  for (std::size_t k = 0; k < areaIndex_.size(); ++k) {
    const bool have = last > 0;
    density_[k].y.push_back(have ? static_cast<float>(series.density(last - 1, areaIndex_[k])) : 0.0f);
    areaSpeed_[k].y.push_back(have ? static_cast<float>(series.at(last - 1, areaIndex_[k]).meanSpeed) : 0.0f);
  }
  // The mean speed reads every walker: on the CPU it is there; a device run
  // would copy its state back each step for it, so there it is not plotted.
  const std::size_t n = crowd.count();
  if (std::string_view(crowd.backendName()) == "cpu") {
    const FrameView f = crowd.frame();
    double speed = 0;
    for (std::size_t i = 0; i < f.px.size(); ++i) speed += std::hypot(f.vx[i], f.vy[i]);
    speed_.y.push_back(n ? static_cast<float>(speed / static_cast<double>(n)) : 0.0f);
  } else {
    speed_.y.push_back(NAN);
  }
  const StepStats st = crowd.lastStats();
  jammed_.y.push_back(static_cast<float>(st.jammed));
  const std::size_t left = agentsEver > n ? agentsEver - n : 0;
  out_.y.push_back(static_cast<float>(left + st.arrived));
  trim();
}

void PlotHistory::mark(std::string text) { marks_.push_back({clock_, std::move(text)}); }

void PlotHistory::trim() {
  if (t_.size() <= kMaxSamples) return;
  const std::size_t drop = t_.size() / 2;
  auto cut = [&](std::vector<float>& y) { y.erase(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(drop)); };
  t_.erase(t_.begin(), t_.begin() + static_cast<std::ptrdiff_t>(drop));
  for (auto* group : {&flows_, &density_, &areaSpeed_})
    for (PlotLine& l : *group) cut(l.y);
  cut(out_.y);
  cut(speed_.y);
  cut(jammed_.y);
  const double first = t_.front();
  std::erase_if(marks_, [&](const PlotMark& m) { return m.t < first; });
}

std::string PlotHistory::csv() const {
  // Names are quoted, a quote doubled (RFC 4180), so a measurement's name
  // cannot break the columns.
  std::string out = "\"t_s\"";
  auto column = [&](const char* what, const std::string& name) {
    out.push_back(',');
    out.push_back('"');
    out.append(what);
    for (char c : name) {
      if (c == '"') out.push_back('"');
      out.push_back(c);
    }
    out.push_back('"');
  };
  for (const PlotLine& l : flows_) column("flow per_s ", l.name);
  out.append(",\"out\",\"mean_speed\",\"jammed\"");
  for (const PlotLine& l : density_) column("density ", l.name);
  for (const PlotLine& l : areaSpeed_) column("speed ", l.name);
  out += "\n";
  char cell[32];
  auto put = [&](double v) {
    if (std::isfinite(v)) std::snprintf(cell, sizeof cell, ",%.6g", v);
    else std::snprintf(cell, sizeof cell, ",");
    out += cell;
  };
  for (std::size_t i = 0; i < t_.size(); ++i) {
    std::snprintf(cell, sizeof cell, "%.6g", t_[i]);
    out += cell;
    for (const PlotLine& l : flows_) put(l.y[i]);
    put(out_.y[i]);
    put(speed_.y[i]);
    put(jammed_.y[i]);
    for (const PlotLine& l : density_) put(l.y[i]);
    for (const PlotLine& l : areaSpeed_) put(l.y[i]);
    out += "\n";
  }
  return out;
}

}  // namespace throng::app
