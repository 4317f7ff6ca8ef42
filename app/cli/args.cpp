// Every subcommand's flags, declared once with CLI11 (Debian's libcli11-dev);
// the --help of each is generated from these declarations.
//
// Numbers go through number() rather than CLI::Range or CLI::PositiveNumber:
// those compare with < and >, so NaN passes them, and CLI11 reads integers
// with strtoull in base 0 ("010" is 8, "-1" wraps to 2^64 - 1). number()
// checks the whole text with std::from_chars (decimal only), refuses
// non-finite values and values outside the bounds, and then rewrites the text
// in a form CLI11's own conversion reads back exactly (decimal digits for
// integers, hex-float for reals), so the value stored is the value checked.
#include "args.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <type_traits>

#include "preset.hpp"
#include "throng/settings.hpp"

namespace throng::cli {

namespace {

// ---- numbers -----------------------------------------------------------------

/// A bound for messages and help: integers exactly, reals short ("1e6", "0.25").
template <class T>
std::string show(T v) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    char b[32];
    std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
    std::string s = b;
    const std::size_t e = s.find('e');
    if (e == std::string::npos) return s;
    std::string exp = s.substr(e + 1);  // "+06" or "-06"
    const bool negative = exp[0] == '-';
    exp.erase(0, exp.find_first_not_of("+-0"));
    return s.substr(0, e) + "e" + (negative ? "-" : "") + exp;
  }
}

/// A closed range, or half-open below ((lo, hi]: "positive" when lo is 0).
template <class T>
struct Bounds {
  T lo, hi;
  bool openBelow = false;
  std::string text() const { return (openBelow ? "(" : "[") + show(lo) + ", " + show(hi) + "]"; }
  bool contains(T v) const { return (openBelow ? v > lo : v >= lo) && v <= hi; }
};

/// Checks and rewrites a number option's text; see the note at the top.
template <class T>
CLI::Validator numberIn(Bounds<T> b) {
  return CLI::Validator(
      [b](std::string& in) -> std::string {
        T v{};
        const char* end = in.data() + in.size();
        const auto r = std::from_chars(in.data(), end, v);
        bool ok = !in.empty() && r.ec == std::errc() && r.ptr == end && b.contains(v);
        if constexpr (std::is_floating_point_v<T>) ok = ok && std::isfinite(v);
        if (!ok)
          return std::string("expects ") + (std::is_integral_v<T> ? "a whole number" : "a finite number") + " in " +
                 b.text() + ", got '" + in + "'";
        if constexpr (std::is_integral_v<T>) {
          in = std::to_string(v);
        } else {
          char hex[64];
          std::snprintf(hex, sizeof hex, "%a", static_cast<double>(v));
          in = hex;
        }
        return {};
      },
      "");
}

/// Sets the placeholder shown after the flag in --help (option_text) and in
/// CLI11's own messages (type_name), e.g. "--steps: 1 required N missing".
CLI::Option* placeholder(CLI::Option* o, const std::string& value) { return o->type_name(value)->option_text(value); }

/// A number option; "{}" in help becomes the bounds, e.g. "[0, 1000000000]".
template <class T, class Target>
CLI::Option* number(CLI::App& app, const std::string& name, Target& target, Bounds<T> b, const std::string& value,
                    std::string help) {
  if (const std::size_t at = help.find("{}"); at != std::string::npos) help.replace(at, 2, b.text());
  return placeholder(app.add_option(name, target, help), value)->transform(numberIn(b));
}

// ---- options several subcommands share ---------------------------------------

/// A setting's limits as flag bounds (a setting whose lower end is open or
/// closed, and whose upper end is closed).
template <class T>
Bounds<T> settingBounds(std::string_view name) {
  const SettingLimits& l = findSetting(name)->limits;
  return Bounds<T>{static_cast<T>(l.min), static_cast<T>(l.max), l.minOpen};
}

/// "a knob of the scene or a setting (model, timeHorizon, ...)", wrapped.
std::string setsHelp(std::string_view tail) {
  std::string out = "a knob of the scene or a setting (";
  std::size_t lineStart = 0;
  for (const SettingInfo& i : settingsTable()) {
    const std::string word = std::string(i.name) + (&i == &settingsTable().back() ? ")" : ",");
    if (out.size() + 1 + word.size() - lineStart > 72) {
      out += '\n';
      lineStart = out.size();
    } else if (out.back() != '(') {
      out += ' ';
    }
    out += word;
  }
  return out + std::string(tail);
}

/// --set NAME=VALUE, repeatable, kept in order. A setting's value is checked
/// against the settings table here (text: a model by name, a seed exactly);
/// anything else must be a finite number, for a knob of the scene (what it
/// may be is the scene's business, checked when it loads).
CLI::Option* addSets(CLI::App& app, std::vector<std::string>& sets, const std::string& help) {
  CLI::Option* o = app.add_option("--set", sets, help)
                       ->allow_extra_args(false)  // one value per --set: `--set a=1 SCENE` leaves SCENE alone
                       ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                       ->check([](const std::string& a) { return assignmentProblem(a); }, "");
  return placeholder(o, "NAME=VALUE");
}

/// --set-file FILE: a preset (preset.hpp), read and checked here, applied
/// before the --set flags.
CLI::Option* addSetFile(CLI::App& app, std::string& path) {
  CLI::Option* o = app.add_option("--set-file", path,
                                  "knobs and settings from FILE, one NAME=VALUE a line ('#' comments),\n"
                                  "applied before the --set flags (a preset the visualizer saves)")
                       ->check(
                           [](const std::string& p) {
                             std::vector<PresetLine> lines;
                             std::string why;
                             return readPreset(p, lines, &why) ? std::string() : why;
                           },
                           "");
  return placeholder(o, "FILE");
}

/// --backend cpu|cuda|auto.
CLI::Option* addBackend(CLI::App& app, BackendKind& kind, const std::string& help) {
  const auto set = [&kind](const std::string& v) { kind = backendFromName(v).value_or(BackendKind::Auto); };
  return placeholder(app.add_option_function<std::string>("--backend", set, help)
                         ->check(CLI::IsMember({"cpu", "cuda", "auto"})),
                     "KIND");
}

/// "WxH", each side in bounds.
bool splitSize(const std::string& s, Bounds<int> b, int& w, int& h) {
  const std::size_t x = s.find('x');
  if (x == std::string::npos) return false;
  const char* end = s.data() + s.size();
  const auto rw = std::from_chars(s.data(), s.data() + x, w);
  const auto rh = std::from_chars(s.data() + x + 1, end, h);
  return x > 0 && rw.ec == std::errc() && rw.ptr == s.data() + x && rh.ec == std::errc() && rh.ptr == end &&
         b.contains(w) && b.contains(h);
}

constexpr Bounds<int> kSide{16, 16384};              // a window's or video's side, pixels
constexpr Bounds<long long> kAgents{2, 10'000'000};  // the range of the built-in "blocks" scene's count knob

/// What the visualizer and record share: SCENE, --set, --size, --agents,
/// --no-trails, --backend. Returns the --size option (record adds a check).
CLI::Option* addView(CLI::App& app, ViewOptions& o) {
  app.add_option("SCENE", o.scene, "a scene file, the name of a shipped scene (see `throng scenes`) or a built-in\n"
                                   "(ring, blocks)");
  addSets(app, o.sets, "a knob of the scene or a setting, as in `throng run`; repeatable");
  addSetFile(app, o.setFile);
  CLI::Option* size =
      app.add_option_function<std::string>(
             "--size", [&o](const std::string& s) { splitSize(s, kSide, o.width, o.height); },
             "the window or video, pixels, each side in " + kSide.text() + " (default 1280x720)")
          ->check(
              [](const std::string& s) -> std::string {
                int w = 0, h = 0;
                if (splitSize(s, kSide, w, h)) return {};
                return "expects WxH, e.g. 1280x720, each side a whole number in " + kSide.text() + ", got '" + s + "'";
              },
              "");
  placeholder(size, "WxH");
  number(app, "--agents", o.agents, kAgents, "N", "the built-in 'blocks' scene with N walkers, N in {} (for figures)");
  app.add_flag_callback("--no-trails", [&o] { o.trails = false; }, "draw no trails behind the walkers");
  addBackend(app, o.backend,
             "where the crowd steps: cpu, cuda, or auto (default: cuda when there is a\n"
             "device, else cpu; both give the same run)");
  return size;
}

// ---- help and errors ---------------------------------------------------------

/// --help as the commands always printed it: the usage line(s) first, then
/// the description, the arguments and options (each with its placeholder),
/// and the footer.
class Help : public CLI::Formatter {
 public:
  explicit Help(std::string usage) : usage_(std::move(usage)) {
    column_width(22);
    label("Positionals", "Arguments");
  }
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    const std::string footer = make_footer(app);
    return make_usage(app, name) + make_description(app) + make_positionals(app) + make_groups(app, mode) +
           (footer.empty() ? "" : "\n" + footer);
  }
  std::string make_usage(const CLI::App*, std::string) const override { return usage_; }
  std::string make_option_opts(const CLI::Option* o) const override {
    return o->get_option_text().empty() || o->get_positional() ? "" : " " + o->get_option_text();
  }

 private:
  std::string usage_;
};

/// A command's App: its help, `-h, --help`, and a flag given twice keeping
/// the last value (as most commands do).
void setUp(CLI::App& app, std::string usage, std::string footer) {
  app.formatter(std::make_shared<Help>(std::move(usage)));
  app.set_help_flag("-h,--help", "this help");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.footer(std::move(footer));
}

/// Parses; on --help or a usage error, returns what to print instead.
/// check (after a good parse) returns a usage error message, or "".
template <class T, class Check>
Parsed<T> parse(CLI::App& app, std::string_view command, int argc, const char* const* argv, T& options, Check check) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return {std::nullopt, 0, app.help()};
  } catch (const CLI::ExtrasError&) {
    // CLI11 2.1 lists the leftovers last first; name the first one instead.
    const std::vector<std::string> left = app.remaining();
    const std::string first = left.empty() ? std::string() : left.front();
    return {std::nullopt, 2,
            usageError(command, (first.starts_with("-") ? "unknown option '" : "unexpected argument '") + first + "'")};
  } catch (const CLI::ParseError& e) {
    return {std::nullopt, 2, usageError(command, e.what())};
  }
  if (const std::string problem = check(); !problem.empty()) return {std::nullopt, 2, usageError(command, problem)};
  return {std::move(options), 0, {}};
}

constexpr auto kNoCheck = [] { return std::string(); };

}  // namespace

std::string usageError(std::string_view command, std::string_view message) {
  std::string line = std::string(command) + ": " + std::string(message) + " (see " + std::string(command) + " --help)";
  for (char& c : line)
    if (c == '\n') c = ' ';  // one line, whatever the message
  return line + '\n';
}

std::optional<std::pair<std::string, double>> splitAssignment(std::string_view a) {
  const std::size_t eq = a.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  const std::string_view v = a.substr(eq + 1);
  double x = 0;
  const auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || !std::isfinite(x)) return std::nullopt;
  return std::pair{std::string(a.substr(0, eq)), x};
}

Parsed<RunOptions> parseRun(int argc, const char* const* argv) {
  RunOptions o;
  CLI::App app{"Runs a scene headless, checks every step with the separation gate and prints a summary.", "throng run"};
  setUp(app, "usage: throng run SCENE [options]\n",
        "Exit codes: 0 done, 1 error or an unjammed overlap or wall intrusion, 2 usage, 130 interrupted.");
  app.add_option("SCENE", o.scene, "a scene file or the name of a shipped scene (see `throng scenes`)")->required();
  CLI::Option* steps = number(app, "--steps", o.steps, Bounds<std::uint64_t>{0, kMaxRunSteps}, "N",
                              "run exactly N steps, N in {}");
  number(app, "--seconds", o.seconds, Bounds<double>{0, kMaxRunSeconds, true}, "S",
         "run exactly S simulated seconds, S in {} (rounded up to whole steps)\n"
         "(default: the scene's duration, stopping early once all arrived)")
      ->excludes(steps);
  number(app, "--dt", o.dt, settingBounds<double>("maxStep"), "S", "the fixed step, s, in {} (sets maxStep)");
  number(app, "--seed", o.seed, Bounds<std::uint64_t>{0, std::numeric_limits<std::uint64_t>::max()}, "K",
         "the seed of jitter and of generated layouts, a whole number below 2^64");
  addSets(app, o.sets,
          setsHelp("; repeatable,\napplied in order after --seed, --dt and --threads (the settings' units\n"
                   "and limits: `throng scenes`)"));
  addSetFile(app, o.setFile);
  number(app, "--threads", o.threads, settingBounds<std::uint64_t>("threads"), "N",
         "worker threads, N in {}, 0 = every core (results do not depend on it)");
  addBackend(app, o.backend, "cpu, cuda or auto (default auto: cuda when there is a device)");
  CLI::Option* exportPath =
      app.add_option("--export", o.exportPath, "write every step to FILE (complete or absent, even on Ctrl-C)");
  placeholder(exportPath, "FILE");
  const auto format = [&o](const std::string& f) { o.format = exportFormatFromName(f).value_or(ExportFormat::Csv); };
  placeholder(app.add_option_function<std::string>("--format", format,
                                                   "csv (default): step,time,id,x,y,vx,vy,jammed,group\n"
                                                   "pedpy: PedPy's text trajectory (id frame x y z) with the walkable area\n"
                                                   "jupedsim: JuPedSim's SQLite (frames, the walkable area as WKT);\n"
                                                   "needs --export")
                  ->check(CLI::IsMember({"csv", "pedpy", "jupedsim"}))
                  ->needs(exportPath),
              "F");
  placeholder(app.add_option("--summary", o.summaryPath, "write the summary as JSON"), "FILE");
  placeholder(app.add_option("--measure", o.measurePath,
                             "write the scene's measurement lines and areas, step by step, to FILE\n"
                             "(CSV; complete or absent, even on Ctrl-C)"),
              "FILE");
  placeholder(app.add_option("--crossings", o.crossingsPath,
                             "write every crossing of the scene's measurement lines to FILE: time, line,\n"
                             "walker id, direction (CSV; complete or absent)"),
              "FILE");
  app.add_flag("-q,--quiet", o.quiet, "no progress bar and no summary on stdout");
  return parse(app, "throng run", argc, argv, o, kNoCheck);
}

Parsed<CheckOptions> parseCheck(int argc, const char* const* argv) {
  CheckOptions o;
  CLI::App app{"The gate for a trajectory set: throng's csv (`throng run --export FILE`), PedPy's text\n"
               "format (the Juelich archive's `id frame x y z`, metres or centimetres) or JuPedSim's SQLite.\n"
               "For every pair of consecutive frames: the swept-segment separation of every pair of walkers\n"
               "present in both; the time stamps (frames one at a time, no walker twice in a frame, no hole\n"
               "in a walker's frames); the speed (no teleport); the envelope (acceleration and braking).\n"
               "Reports each check's worst case with its frame and walkers. Streams a file of any size.",
               "throng check"};
  setUp(app, "usage: throng check FILE [options]\n",
        "Exit codes: 0 passed, 1 a check failed (an overlap outside a jam, an intrusion, a time stamp, a\n"
        "teleport, the envelope) or a bad file, 2 usage.");
  app.add_option("FILE", o.file, "a trajectory: csv, PedPy text or JuPedSim SQLite")->required();
  CLI::Option* radius = number(app, "--radius", o.radius, Bounds<double>{0, 1e6, true}, "R",
                               "every walker's radius, world units, R in {}\n"
                               "(default: the largest of --scene's walkers, else 0.25)");
  CLI::Option* scene = placeholder(
      app.add_option("--scene", o.scene, "also check intrusion into SCENE's obstacles and walls, and take its\n"
                                         "walkers' top speed for the teleport bound"),
      "SCENE");
  addSets(app, o.sets, "a knob of SCENE (its geometry); repeatable; needs --scene")->needs(scene);
  number(app, "--tolerance", o.tolerance, Bounds<double>{0, 1}, "T",
         "relative slack on r_A + r_B, T in {} (default 1e-4)");
  placeholder(app.add_option("--format", o.format, "auto (default: by the file), csv, pedpy or jupedsim")
                  ->check(CLI::IsMember({"auto", "csv", "pedpy", "jupedsim"})),
              "F");
  number(app, "--fps", o.fps, Bounds<double>{0, 1e6, true}, "F",
         "frames per second, F in {}, for a file that does not say (PedPy, JuPedSim)");
  placeholder(app.add_option("--units", o.units, "a PedPy file's unit when its header does not say: m or cm")
                  ->check(CLI::IsMember({"m", "cm"})),
              "U");
  number(app, "--max-speed", o.maxSpeed, Bounds<double>{0, 1e6, true}, "V",
         "the fastest move between two frames, units/s, V in {}; faster is a teleport\n"
         "(default: 1.5 times the scene's fastest walker with --scene, else 10 for PedPy's\n"
         "and JuPedSim's files, in metres; a csv without a scene: reported, not judged)");
  number(app, "--max-accel", o.maxAccel, Bounds<double>{0, 1e6, true}, "A",
         "the largest acceleration speeding up and turning, units/s^2, A in {}\n"
         "(default: the loosest of the --scene's walkers', 1% over for the file's rounding;\n"
         "without a scene, or one with no envelope: reported, not judged)");
  number(app, "--max-decel", o.maxDecel, Bounds<double>{0, 1e6, true}, "B",
         "the largest braking, units/s^2, B in {} (default: as --max-accel's)");
  return parse(app, "throng check", argc, argv, o, [&] {
    o.radiusGiven = radius->count() > 0;
    return std::string();
  });
}

Parsed<ScenesOptions> parseScenes(int argc, const char* const* argv) {
  ScenesOptions o;
  CLI::App app{"Lists the shipped scenes with their knobs (name [min, max] default), and where they were found,\n"
               "then the settings every scene takes (name, limits, unit, default, the models that read it).\n"
               "Scenes are looked for in $THRONG_SCENES (colon-separated), scenes/ next to the executable,\n"
               "../share/throng/scenes from it, and the source tree's assets/scenes.",
               "throng scenes"};
  setUp(app, "usage: throng scenes [--settings-markdown]\n", "");
  app.add_flag("--settings-markdown", o.settingsMarkdown,
               "print only the settings, as the user guide's markdown table (docs/guide.md), and exit");
  return parse(app, "throng scenes", argc, argv, o, kNoCheck);
}

std::vector<std::string> DaskOptions::args() const {
  std::vector<std::string> out;
  if (!scheduler.empty()) out.insert(out.end(), {"--scheduler", scheduler});
  if (workers > 0) out.insert(out.end(), {"--workers", std::to_string(workers)});
  if (!tlsCaFile.empty()) out.insert(out.end(), {"--tls-ca-file", tlsCaFile});
  if (!tlsCert.empty()) out.insert(out.end(), {"--tls-cert", tlsCert});
  if (!tlsKey.empty()) out.insert(out.end(), {"--tls-key", tlsKey});
  return out;
}

namespace {

/// --scheduler, the --tls-* files and --workers (whose default `workersDefault` says).
void daskOptions(CLI::App& app, DaskOptions& o, const std::string& workersDefault) {
  placeholder(app.add_option("--scheduler", o.scheduler,
                             "a Dask scheduler's address, e.g. tls://10.0.0.1:8786 with the --tls-* files\n"
                             "(default: a LocalCluster). A plain tcp:// scheduler runs whatever any client\n"
                             "that reaches it sends: on a shared machine or network, use tls://"),
              "ADDRESS");
  placeholder(app.add_option("--tls-ca-file", o.tlsCaFile, "the certificate authority of a tls:// scheduler"), "PEM");
  placeholder(app.add_option("--tls-cert", o.tlsCert, "this client's certificate, for a tls:// scheduler"), "PEM");
  placeholder(app.add_option("--tls-key", o.tlsKey, "this client's private key (default: in --tls-cert)"), "PEM");
  number(app, "--workers", o.workers, Bounds<int>{1, 1024}, "N",
         "the LocalCluster's worker processes, N in {} " + workersDefault);
}

/// What is wrong with a set of Dask flags, or empty.
std::string daskProblem(const DaskOptions& o) {
  if (!o.scheduler.empty() && o.workers != 0) return "--workers is for the LocalCluster; a --scheduler has its own";
  const bool tls = !o.tlsCaFile.empty() || !o.tlsCert.empty() || !o.tlsKey.empty();
  if (o.scheduler.rfind("tls://", 0) == 0 && (o.tlsCaFile.empty() || o.tlsCert.empty()))
    return "--scheduler tls://...: give --tls-ca-file and --tls-cert";
  if (tls && o.scheduler.rfind("tls://", 0) != 0) return "--tls-ca-file, --tls-cert and --tls-key are for a --scheduler tls://";
  return {};
}

}  // namespace

Parsed<VerifyOptions> parseVerify(int argc, const char* const* argv) {
  VerifyOptions o;
  CLI::App app{"Runs the verification suite: every shipped scene with a \"verify\" (the RiMEA guideline's tests\n"
               "that a 2-D crowd can hold), under each model and seed, and prints a table of each test's figures\n"
               "against its bounds. Exits 1 when a test fails.",
               "throng verify"};
  setUp(app, "usage: throng verify [TESTS...] [--models M,...] [--seeds N] [--threads N] [--report DIR]\n"
             "                     [--workers N | --scheduler ADDRESS]\n", "");
  app.add_option("TESTS", o.tests, "the tests to run, by name (rimea-1, ...); default: all");
  app.add_option_function<std::string>(
         "--models",
         [&o](const std::string& list) {
           o.models.clear();
           std::size_t b = 0;
           while (b <= list.size()) {
             const std::size_t e = std::min(list.find(',', b), list.size());
             if (e > b) o.models.push_back(list.substr(b, e - b));
             b = e + 1;
           }
         },
         "the models, comma-separated (default orca,biocrowds,continuum)")
      ->type_name("M,...");
  number(app, "--seeds", o.seeds, Bounds<int>{1, 1000}, "N", "runs per test and model, N in {} (default: each test's)");
  number(app, "--threads", o.threads, settingBounds<std::uint64_t>("threads"), "N",
         "worker threads, N in {}, 0 = every core (results do not depend on it)");
  placeholder(app.add_option("--report", o.report,
                             "write a report to the folder DIR (made if missing): report.md, results.json, and with "
                             "matplotlib in $THRONG_PYTHON (default python3) the figures in DIR/img"),
              "DIR");
  daskOptions(app, o.dask,
              "(default: none, the runs stay\nin this process; given, or with --scheduler, they go first to Dask, each on one thread\n"
              "unless --threads says; the table is the same)");
  return parse(app, "throng verify", argc, argv, o, [&] { return daskProblem(o.dask); });
}

Parsed<CampaignOptions> parseCampaign(int argc, const char* const* argv) {
  CampaignOptions o;
  CLI::App app{"Runs every point of a campaign (scenes x seeds x knob and setting grids) as a task on Dask:\n"
               "a LocalCluster here, or the scheduler at ADDRESS. Each run writes its summary, its trajectory\n"
               "(pedpy or none) and a row of OUT/manifest.jsonl; points already done with a matching hash\n"
               "are skipped. The same code as Python's throng.campaign(spec), run by $THRONG_PYTHON (default\n"
               "python3), which needs the throng package and dask; see docs/python-example.py.",
               "throng campaign"};
  setUp(app, "usage: throng campaign SPEC.json [options]\n",
        "Exit codes: 0 every run done, 1 a run failed or a bad spec, no Python or no dask, 2 usage.");
  app.add_option("SPEC", o.spec, "the campaign, a JSON file (its keys: python -m throng.campaign --help)")->required();
  daskOptions(app, o.dask, "(default: the spec's, else the cores)");
  placeholder(app.add_option("--out", o.out, "the output folder (default: the spec's \"out\")"), "DIR");
  app.add_flag("-q,--quiet", o.quiet, "no progress bar");
  return parse(app, "throng campaign", argc, argv, o, [&] { return daskProblem(o.dask); });
}

Parsed<ImportOptions> parseImport(int argc, const char* const* argv) {
  ImportOptions o;
  CLI::App app{"Turns a DXF floor plan into a scene. The lines, polylines, arcs, circles, ellipses, splines and\n"
               "hatches on the named layers (blocks expanded) are flattened to within 5 cm; the floor the walls\n"
               "enclose, with the exits across its gaps, less the obstacles, is the scene's walkable area\n"
               "(\"geometry\"), and walls inside it stay walls. Each closed shape on an exit layer is a target and\n"
               "a sink; walkers fill the floor at the density knob and route by field to the nearest exit.\n"
               "Layer names are matched without regard to case. The same code as Python's throng.import_dxf,\n"
               "run by $THRONG_PYTHON (default python3), which needs the throng package, ezdxf and shapely.",
               "throng import"};
  setUp(app, "usage: throng import PLAN.dxf --walls LAYER... [--obstacles LAYER...] [--exits LAYER...] --out SCENE.json\n",
        "Exit codes: 0 written, 1 a plan that makes no scene (a layer it lacks, a broken file, walls that\n"
        "enclose nothing), no Python or no ezdxf, 2 usage. SCENE.json is written whole or not at all.");
  app.add_option("PLAN", o.plan, "the floor plan, a DXF file (ASCII or binary, any version); give it first")
      ->required();
  const auto layers = [&app](const std::string& name, std::vector<std::string>& names, const std::string& help) {
    return placeholder(app.add_option(name, names, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll),
                       "LAYER...");
  };
  layers("--walls", o.walls, "the layers of the walls, one or more")->required();
  layers("--obstacles", o.obstacles,
         "the layers of obstacles: a closed shape is a hole in the floor, an open one a wall");
  layers("--exits", o.exits, "the layers of exits: each closed shape drawn across a gap in the walls\n"
                             "becomes a target and a sink");
  placeholder(app.add_option("--units", o.units,
                             "the drawing's unit when its $INSUNITS header says none: m (default), cm or mm;\n"
                             "the scene is in metres")
                  ->check(CLI::IsMember({"m", "cm", "mm"})),
              "U");
  number(app, "--density", o.density, Bounds<double>{0, 6, true}, "D",
         "walkers per m^2 at the start, the density knob's default, D in {} (default 1)");
  // --out is checked here, not by CLI11: a layer flag left without a name
  // takes the next flag as its value (CLI11 fills its minimum first), and
  // that should be the message rather than "--out is required".
  const CLI::Option* out = placeholder(app.add_option("--out", o.out, "the scene file to write"), "SCENE.json");
  return parse(app, "throng import", argc, argv, o, [&]() -> std::string {
    for (const auto& [flag, names] : {std::pair{"--walls", &o.walls}, std::pair{"--obstacles", &o.obstacles},
                                      std::pair{"--exits", &o.exits}})
      for (const std::string& n : *names) {
        if (n.empty()) return std::string(flag) + ": expects layer names, got ''";
        if (n.starts_with("-") && app.get_option_no_throw(n) != nullptr)
          return std::string(flag) + ": expects layer names, got the option '" + n + "'";
      }
    if (o.plan.empty()) return "PLAN: expects a file name, got ''";
    if (out->count() == 0) return "--out is required";
    if (o.out.empty()) return "--out: expects a file name, got ''";
    return {};
  });
}

Parsed<VizOptions> parseViz(int argc, const char* const* argv) {
  VizOptions o;
  CLI::App app{"Opens the visualizer on SCENE (default: ring). Without a display it runs headless.", "throng"};
  setUp(app,
        "usage: throng [SCENE] [options]          the visualizer\n"
        "       throng run SCENE [options]        run a scene headless, export, summarise\n"
        "       throng check FILE [options]       the separation gate over an exported csv\n"
        "       throng scenes                     list the shipped scenes, their knobs and the settings\n"
        "       throng record SCENE [options]     record a video\n"
        "       throng campaign SPEC.json         many runs on Dask, through Python\n"
        "       throng import PLAN.dxf [options]  a DXF floor plan as a scene, through Python\n"
        "       throng verify [TESTS...]          the verification suite (RiMEA's tests), a table of verdicts\n"
        "Every subcommand takes --help.\n\n",
        "");
  addView(app, o);
  const CLI::Option* scene = app.get_option("SCENE");
  number(app, "--bench-frames", o.benchFrames, Bounds<int>{1, 1'000'000}, "N",
         "render N frames with the UI, one step each, N in {}; print frame time\n"
         "and ms/step, and exit (offscreen when there is no display)");
  number(app, "--select", o.select, Bounds<long long>{0, 100'000'000}, "ID",
         "select the walker with id ID at the start, ID in {}: its teaching view\n"
         "and velocity inset open (ids are given in order from 0)");
  app.add_flag("--paused", o.paused, "start paused");
  app.add_flag("--headless", o.headless, "no window: step the scene for 15 s and print what happened");
  return parse(app, "throng", argc, argv, o, [&] {
    o.sceneGiven = scene->count() > 0;
    return std::string();
  });
}

Parsed<RecordOptions> parseRecord(int argc, const char* const* argv) {
  RecordOptions o;
  CLI::App app{"Renders SCENE offscreen (no window) to an H.264 MP4 through ffmpeg; without ffmpeg,\n"
               "a numbered PNG sequence. Each frame is rate/fps seconds of sim time.",
               "throng record"};
  setUp(app, "usage: throng record SCENE --seconds S --out FILE.mp4 [options]\n", "");
  addView(app, o)->check(
      [](const std::string& s) -> std::string {
        const std::size_t x = s.find('x');
        const auto even = [](std::string_view n) { return !n.empty() && (n.back() - '0') % 2 == 0; };
        if (x != std::string::npos && even(std::string_view(s).substr(0, x)) && even(std::string_view(s).substr(x + 1)))
          return {};
        return "expects even numbers for H.264, got '" + s + "'";
      },
      "");
  const CLI::Option* scene = app.get_option("SCENE");
  number(app, "--seconds", o.seconds, Bounds<double>{0, 3600, true}, "S", "seconds of video, S in {}")->required();
  placeholder(app.add_option("--out", o.out, "the video, FILE.mp4 (without ffmpeg: PNG frames in FILE_frames/)"), "FILE")
      ->required();
  number(app, "--fps", o.fps, Bounds<int>{1, 240}, "N", "frames per second of video, N in {} (default 30)");
  number(app, "--rate", o.rate, Bounds<double>{0.25, 8}, "R", "sim seconds per video second, R in {} (default 1)");
  app.add_flag("--present", o.present,
               "presentation mode: the scene's title and caption, the clock, a scale bar and a plot in the frame");
  return parse(app, "throng record", argc, argv, o, [&]() -> std::string {
    o.sceneGiven = scene->count() > 0;
    if (!o.sceneGiven && o.agents == 0) return "missing SCENE (a scene, or --agents N for the built-in blocks)";
    return {};
  });
}

}  // namespace throng::cli
