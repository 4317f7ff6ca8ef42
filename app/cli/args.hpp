#pragma once
// The command line of every `throng` subcommand, parsed in one place (args.cpp)
// with CLI11. Each parse function turns the arguments after `throng` (argv[0]
// is the subcommand's name) into an options struct, or into what to print and
// the exit code: the help on stdout and 0, or a one-line usage error on
// stderr and 2. Nothing here runs a scene, opens a file or prints, so the
// parsers are tested without the app (tests/cli/test_args.cpp).
//
// Every number is checked whole (no trailing junk), finite and within the
// bounds its --help states; a flag given twice keeps its last value, --set
// repeats.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "export.hpp"
#include "throng/backend.hpp"

namespace throng::cli {

/// The most steps one `throng run` takes (--steps, or --seconds and the
/// scene's duration in steps of dt).
inline constexpr std::uint64_t kMaxRunSteps = 1'000'000'000;
/// The most simulated seconds one run is asked for (--seconds), s.
inline constexpr double kMaxRunSeconds = 1e6;

/// `throng run SCENE [options]`.
struct RunOptions {
  std::string scene;
  std::optional<std::uint64_t> steps;   ///< exact step count, [0, kMaxRunSteps]
  std::optional<double> seconds;        ///< exact simulated time, s, (0, kMaxRunSeconds]
  std::optional<double> dt;             ///< the fixed step (maxStep), s, in maxStep's limits
  std::optional<std::uint64_t> seed;    ///< any 64-bit value
  std::optional<std::uint64_t> threads; ///< in threads' limits, 0 = every core
  std::vector<std::string> sets;        ///< "name=value" in order: a setting's text, else a finite number
  std::string setFile;                  ///< a preset (preset.hpp) applied before `sets`; empty: none
  BackendKind backend = BackendKind::Auto;
  std::string exportPath, summaryPath, measurePath, crossingsPath;  ///< empty: none
  ExportFormat format = ExportFormat::Csv;
  bool quiet = false;
};

/// `throng check FILE [options]`.
struct CheckOptions {
  std::string file;
  std::string scene;              ///< empty: no walls checked
  std::vector<std::string> sets;  ///< knobs of scene; needs scene
  double radius = 0.25;           ///< every walker's radius, world units, (0, 1e6]
  bool radiusGiven = false;
  double tolerance = 1e-4;        ///< relative slack on r_A + r_B, [0, 1]
  std::string format = "auto";    ///< auto, csv, pedpy or jupedsim
  double fps = 0;                 ///< frames per second when the file does not say; 0: the file's
  std::string units;              ///< a PedPy file's unit when its header does not say: m or cm
  double maxSpeed = 0;            ///< the teleport bound, units/s; 0: the scene's, else 10
  double maxAccel = 0, maxDecel = 0;  ///< the envelope, units/s^2; 0: reported, not judged
};

/// `throng scenes [--settings-markdown]`.
struct ScenesOptions {
  bool settingsMarkdown = false;  ///< print the user guide's settings table only
};

/// `throng verify [TESTS...] [--models M,...] [--seeds N] [--threads N] [--report DIR]`.
/// Where runs go on Dask (throng campaign, throng verify): a LocalCluster
/// here of `workers` processes, or the scheduler at `scheduler`.
struct DaskOptions {
  std::string scheduler;   ///< a Dask scheduler's address; empty: a LocalCluster here
  int workers = 0;         ///< the LocalCluster's workers, [1, 1024]; 0: the spec's, else the cores
  std::string tlsCaFile, tlsCert, tlsKey;  ///< PEM files for a tls:// scheduler
  bool given() const { return !scheduler.empty() || workers > 0; }
  /// The flags that pass these to Python's throng._campaign main.
  std::vector<std::string> args() const;
};

struct VerifyOptions {
  std::vector<std::string> tests;  ///< test names (scene file stems); empty: every one
  std::vector<std::string> models{"orca", "biocrowds", "continuum"};
  int seeds = 0;                   ///< runs per test and model, [1, 1000]; 0: each test's own
  std::optional<std::uint64_t> threads;  ///< in threads' limits, 0 = every core
  std::string report;              ///< a folder for the report (report.md, results.json, img/); empty: none
  DaskOptions dask;                ///< given: the runs go to Dask first, as one campaign
};

/// `throng campaign SPEC.json [options]`: many runs on Dask, through the
/// Python package's throng.campaign (app/cli/campaign.cpp starts it).
struct CampaignOptions {
  std::string spec;        ///< the campaign's JSON file
  DaskOptions dask;
  std::string out;         ///< the output folder; empty: the spec's
  bool quiet = false;      ///< no progress bar
};

/// `throng import PLAN.dxf --walls LAYER... --out SCENE.json [options]`: a
/// DXF floor plan as a scene, through the Python package's throng.import_dxf
/// (app/cli/import.cpp starts it).
struct ImportOptions {
  std::string plan;                    ///< the DXF file
  std::vector<std::string> walls;      ///< layer names, at least one
  std::vector<std::string> obstacles;  ///< layer names; may be empty
  std::vector<std::string> exits;      ///< layer names; may be empty
  std::string units;                   ///< m, cm or mm, when the file's $INSUNITS says none; empty: m
  double density = 1;                  ///< the density knob's default, walkers per m², (0, 6]
  std::string out;                     ///< the scene file to write
};

/// What the visualizer and `throng record` share: the scene and how it looks.
struct ViewOptions {
  std::string scene = "ring";     ///< a scene file, shipped name or built-in
  bool sceneGiven = false;
  std::vector<std::string> sets;  ///< "name=value" in order: a setting's text, else a finite number
  std::string setFile;            ///< a preset (preset.hpp) applied before `sets`; empty: none
  int width = 1280, height = 720; ///< pixels, each [16, 16384]
  long long agents = 0;           ///< 0: the scene; else the built-in "blocks" with this many walkers, [2, 1e7]
  bool trails = true;
  BackendKind backend = BackendKind::Auto;
};

/// `throng [SCENE] [options]`; its --help is also the top-level help (`throng
/// --help`, `throng help`), listing the subcommands.
struct VizOptions : ViewOptions {
  int benchFrames = 0;  ///< 0: interactive; else render this many frames and exit, [1, 1e6]
  long long select = -1;  ///< the walker (by id) selected at the start, [0, 1e8]; -1: none
  bool paused = false, headless = false;
};

/// `throng record SCENE --seconds S --out FILE [options]`.
struct RecordOptions : ViewOptions {
  std::string out;
  double seconds = 0;  ///< of video, s, (0, 3600]
  int fps = 30;        ///< frames per second of video, [1, 240]
  double rate = 1;     ///< sim seconds per video second, [0.25, 8]
  bool present = false;  ///< presentation mode (app/viz/present.hpp) in every frame
};

/// The options, or what to print instead of running.
template <class T>
struct Parsed {
  std::optional<T> options;  ///< set: run the command with these
  int exitCode = 0;          ///< without options: 0 after --help, 2 for a usage error
  std::string text;          ///< without options: the help (stdout) or the one-line error (stderr)

  /// Prints text where it belongs and returns exitCode (only without options).
  int finish() const {
    std::fputs(text.c_str(), exitCode == 0 ? stdout : stderr);
    return exitCode;
  }
};

Parsed<RunOptions> parseRun(int argc, const char* const* argv);
Parsed<CheckOptions> parseCheck(int argc, const char* const* argv);
Parsed<ScenesOptions> parseScenes(int argc, const char* const* argv);
Parsed<CampaignOptions> parseCampaign(int argc, const char* const* argv);
Parsed<ImportOptions> parseImport(int argc, const char* const* argv);
Parsed<VerifyOptions> parseVerify(int argc, const char* const* argv);
Parsed<VizOptions> parseViz(int argc, const char* const* argv);
Parsed<RecordOptions> parseRecord(int argc, const char* const* argv);

/// The one-line usage error of a subcommand ("throng run", "throng", ...) for
/// a problem found after parsing (an unknown knob in --set): "COMMAND:
/// message (see COMMAND --help)\n". The exit code that goes with it is 2.
std::string usageError(std::string_view command, std::string_view message);

/// "name=value" split, the value a finite number; nullopt when it is not.
std::optional<std::pair<std::string, double>> splitAssignment(std::string_view assignment);

}  // namespace throng::cli
