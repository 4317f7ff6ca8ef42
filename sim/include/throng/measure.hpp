#pragma once
// Measurement lines and areas: where a crowd is measured, as the field
// measures experiments (Zhang et al. 2011; PedPy's "classic" method).
//
// A line counts crossings: a walker's centre going, within one step, from
// one side of the segment to the other through a point of the segment, its
// ends included. Forward is from the line's left to its right as one looks
// from its first point to its second: for a line from (0, -1) to (0, 1),
// walking towards +x. A walker that crosses back counts again, backward.
// Only steps cross: positions as a step began and as it ended, so an edit
// between steps (setAgent, a walker added or removed) crosses nothing.
// A crossing's time is where along its step the centre met the line.
//
// An area counts the walkers whose centre is inside its polygon after each
// step (even-odd rule), their mean speed, and so its density (walkers per
// square unit) and the classic specific flow, density times mean speed.
//
// Deterministic on any thread count and backend: counts are integers,
// speeds are summed in fixed point (2^-20 units/s, exact in any order), and
// a step's crossings are listed by walker index, then measurement.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "throng/vec2.hpp"

namespace throng {

enum class MeasureKind : std::uint8_t { Line, Area };

/// A named line (two points) or area (a polygon of three or more).
struct Measurement {
  std::string name;
  MeasureKind kind = MeasureKind::Line;
  std::vector<Vec2> points;
  /// An area's part on the floor, square units: what its density divides
  /// by. 0: all of the polygon (a scene naming no walkable area).
  double floorArea = 0;
};

/// One walker crossing one line.
struct Crossing {
  std::uint64_t step = 0;       ///< the step it happened in (Crowd::stepCount before it)
  double time = 0;              ///< s: within the step, where the centre met the line
  std::uint64_t id = 0;         ///< the walker's stable id
  std::uint32_t measurement = 0;
  std::int8_t direction = 1;    ///< +1 forward, -1 backward
};

/// One measurement over one step.
struct MeasureSample {
  std::uint32_t forward = 0, backward = 0;  ///< a line's crossings in the step
  std::uint32_t inside = 0;                 ///< an area's walkers after the step
  double meanSpeed = 0;                     ///< units/s, of those inside (0 when none)
};

/// Every measurement's series since it was added (Crowd::measurements).
struct MeasureSeries {
  std::vector<Measurement> measurements;
  std::vector<double> area;        ///< square units, by measurement (0 for a line)
  std::vector<double> time;        ///< s, the end of each step measured
  std::vector<MeasureSample> samples;  ///< time.size() rows of measurements.size()
  std::vector<Crossing> crossings;     ///< in order of time
  std::size_t steps() const { return time.size(); }
  const MeasureSample& at(std::size_t step, std::size_t m) const { return samples[step * measurements.size() + m]; }
  double density(std::size_t step, std::size_t m) const {
    return area[m] > 0 ? at(step, m).inside / area[m] : 0;
  }
};

/// A measurement's figures over a whole series (`throng run --summary`).
struct MeasureFigures {
  std::string name;
  MeasureKind kind = MeasureKind::Line;
  // A line's, over its crossings either way:
  std::size_t forward = 0, backward = 0;
  double firstTime = 0, lastTime = 0;  ///< s, of the first and last crossing
  double meanFlow = 0;  ///< crossings/s between the first and the last (0 with fewer than two)
  double peakFlow = 0;  ///< crossings/s, the most in any window of `window` s, over it
  double time95 = 0;    ///< s, by which 95% of them had happened
  // An area's, over the steps measured:
  double peakDensity = 0, meanDensity = 0;  ///< walkers per square unit
  double meanSpeed = 0;                     ///< units/s, over the walker-steps inside
  double meanSpecificFlow = 0;              ///< per unit per s: mean over steps of density x mean speed
};

/// The figures of every measurement; `window` s for a line's peak flow.
std::vector<MeasureFigures> measureFigures(const MeasureSeries& series, double window = 5);

/// Why a measurement cannot be measured, or empty: a line needs two
/// distinct finite ends, an area three or more finite points enclosing a
/// nonzero area.
std::string measurementProblem(const Measurement& m);

}  // namespace throng
