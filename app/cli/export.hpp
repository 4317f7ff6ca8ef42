#pragma once
// Trajectory export, streamed: one frame at a time into FILE.XXXXXXXX.partial
// (a fresh name each write, created exclusively: throng/output_file.hpp),
// renamed to FILE on commit(). Until then FILE is untouched (an older FILE is
// left alone); discard() (or the destructor) removes the partial, so an error
// or an interrupt leaves a complete file or none. Memory stays flat.
//
// csv:   step,time,id,x,y,vx,vy,jammed,group   (floats in shortest round-trip form)
// pedpy: PedPy's text trajectory: '#' comment lines with "framerate: F" and
//        the unit (x/m), then "id frame x y z" rows separated by spaces. The
//        scene's measurements ride in the comments as WKT, one a line:
//        "# measurement line NAME: LINESTRING (x y, x y)" and
//        "# measurement area NAME: POLYGON ((x y, ..., x y))", NAME kept to
//        letters, digits, '_', '-' and '.' (others '_'), so no comment can
//        read as PedPy's frame rate or unit.
#include <vector>
#include <cstdio>
#include <string>

#include "throng/crowd.hpp"
#include "throng/measure.hpp"
#include "throng/output_file.hpp"

namespace throng::cli {

enum class ExportFormat { Csv, Pedpy };

class Exporter {
 public:
  Exporter() = default;
  ~Exporter() { discard(); }
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;

  /// Opens FILE's partial and writes the header (pedpy: with the
  /// measurements as WKT); false with *error on failure.
  bool open(const std::string& path, ExportFormat format, double dt, const std::string& sceneName,
            const std::string& units, std::string* error, const std::vector<Measurement>& measurements = {});
  bool isOpen() const { return out_.isOpen(); }
  /// Appends every walker of the frame; false once a write has failed,
  /// with *error ("writing FILE.XXXXXXXX.partial failed: REASON", the reason of the
  /// write that failed).
  bool write(const FrameView& f, std::string* error = nullptr);
  /// Flushes, closes and renames to FILE; false with *error on failure (the
  /// partial is then removed).
  bool commit(std::string* error);
  /// Closes and removes the partial (no-op when not open).
  void discard() { out_.discard(); }

 private:
  OutputFile out_;
  ExportFormat format_ = ExportFormat::Csv;
  bool failed_ = false;
  std::string writeError_;  ///< the failed write's message
};

}  // namespace throng::cli
