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
//        read as PedPy's frame rate or unit. So does the walkable area:
//        "# walkable area: POLYGON ((x y, ...))" (walkableAreaWkt).
// jupedsim: JuPedSim's SQLite trajectory, as jupedsim 1.4 writes and reads
//        it and PedPy 1.5 loads it (its version 2; both refuse any other):
//        trajectory_data(frame, id, pos_x, pos_y, ori_x, ori_y), frame the
//        step; metadata(key, value) with version, fps, xmin, xmax, ymin,
//        ymax (the walkable area's bounds); geometry(hash, wkt) holding the
//        walkable area; frame_data(frame, geometry_hash). The orientation is
//        the walker's heading: its velocity's direction, kept while it
//        stands. Written in one transaction into the partial, which is
//        renamed on commit like every export; never to a pipe or device.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "throng/crowd.hpp"
#include "throng/measure.hpp"
#include "throng/output_file.hpp"
#include "throng/scene.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace throng::cli {

enum class ExportFormat { Csv, Pedpy, Jupedsim };

/// "csv", "pedpy" or "jupedsim" as a format; nullopt for anything else.
inline std::optional<ExportFormat> exportFormatFromName(std::string_view name) {
  if (name == "csv") return ExportFormat::Csv;
  if (name == "pedpy") return ExportFormat::Pedpy;
  if (name == "jupedsim") return ExportFormat::Jupedsim;
  return std::nullopt;
}

class Exporter {
 public:
  Exporter() = default;
  ~Exporter() { discard(); }
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;

  /// Opens FILE's partial and writes the header (pedpy: with the
  /// measurements and the walkable area as WKT; jupedsim: the tables, the
  /// metadata and the walkable area) for frames `dt` s apart; false with
  /// *error on failure.
  bool open(const std::string& path, ExportFormat format, double dt, const SceneSpec& scene, std::string* error);
  bool isOpen() const { return out_.isOpen(); }
  /// Appends every walker of the frame; false once a write has failed,
  /// with *error ("writing FILE.XXXXXXXX.partial failed: REASON", the reason of the
  /// write that failed).
  bool write(const FrameView& f, std::string* error = nullptr);
  /// Flushes, closes and renames to FILE; false with *error on failure (the
  /// partial is then removed).
  bool commit(std::string* error);
  /// Closes and removes the partial (no-op when not open).
  void discard() {
    closeDatabase();
    out_.discard();
  }

 private:
  bool openDatabase(double dt, const std::string& wkt, const Rect& bounds, std::string* error);
  bool writeDatabase(const FrameView& f);
  bool finishDatabase(std::string* error);
  void closeDatabase();
  /// Runs one statement of SQL; false with writeError_ set.
  bool exec(const char* sql);
  bool fail(const std::string& what);

  OutputFile out_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt *row_ = nullptr, *frame_ = nullptr;
  std::int64_t geometryHash_ = 0;
  std::unordered_map<std::uint64_t, Vec2> heading_;  ///< id -> last heading (jupedsim)
  ExportFormat format_ = ExportFormat::Csv;
  bool failed_ = false;
  std::string writeError_;  ///< the failed write's message
};

}  // namespace throng::cli
