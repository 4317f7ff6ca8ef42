// The fuzz targets (targets.hpp). Each promise checked here is one the
// documentation (docs/guide.md, docs/security.md) makes to a person who
// mistypes a file or a flag.
#include "targets.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "args.hpp"
#include "throng/crowd.hpp"
#include "throng/output_file.hpp"
#include "throng/scene.hpp"
#include "trajectory.hpp"

namespace throng::fuzz {

namespace {

[[noreturn]] void violation(std::string_view target, std::string_view what, std::string_view input) {
  std::fprintf(stderr, "fuzz %.*s: %.*s\ninput (%zu bytes):\n", static_cast<int>(target.size()), target.data(),
               static_cast<int>(what.size()), what.data(), input.size());
  for (const char c : input.substr(0, 4000)) {
    const auto u = static_cast<unsigned char>(c);
    if (u == '\n' || (u >= 32 && u < 127)) std::fputc(c, stderr);
    else std::fprintf(stderr, "\\x%02x", u);
  }
  std::fputc('\n', stderr);
  std::abort();
}

/// A refusal must be one line, short enough to read, and start with `prefix`.
void oneLine(std::string_view target, const std::string& message, std::string_view prefix, std::string_view input) {
  if (message.empty()) violation(target, "refused without a message", input);
  if (message.find('\n') != std::string::npos && message.find('\n') + 1 != message.size())
    violation(target, "a message of more than one line: " + message, input);
  if (message.size() > 600)
    violation(target, "a message of " + std::to_string(message.size()) + " characters: " + message.substr(0, 300), input);
  if (message.compare(0, prefix.size(), prefix) != 0)
    violation(target, "a message that does not start with '" + std::string(prefix) + "': " + message, input);
}

/// "FILE:LINE[:COL]: ": where the loader says the problem is.
bool namesFileAndLine(const std::string& m, std::string_view file) {
  if (m.compare(0, file.size(), file) != 0 || m.size() <= file.size() + 1 || m[file.size()] != ':') return false;
  std::size_t k = file.size() + 1, digits = 0;
  while (k < m.size() && m[k] >= '0' && m[k] <= '9') ++k, ++digits;
  return digits > 0 && k < m.size() && m[k] == ':';
}

void stepAndCheck(const Scene& s, std::string_view input) {
  SceneRun run(s, SceneRun::Options{.gate = true});
  for (int k = 0; k < kSceneSteps; ++k) run.step();
  const FrameView f = run.crowd().frame();
  for (std::size_t i = 0; i < f.px.size(); ++i)
    if (!std::isfinite(f.px[i]) || !std::isfinite(f.py[i]) || !std::isfinite(f.vx[i]) || !std::isfinite(f.vy[i]))
      violation("scene", "a walker's state is not finite after " + std::to_string(kSceneSteps) + " steps", input);
  if (run.crowd().count() > s.spec().maxAgents) violation("scene", "more walkers than the cap", input);
}

}  // namespace

Outcome scene(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string err;
  std::optional<Scene> s = Scene::parse(std::string(input), "fuzz.json", &err, kSceneAgents);
  if (!s) {
    oneLine("scene", err, "fuzz.json:", input);
    if (!namesFileAndLine(err, "fuzz.json")) violation("scene", "no line number: " + err, input);
    return Outcome::Refused;
  }
  stepAndCheck(*s, input);
  // Every knob at both ends of its range: the run or one clear refusal.
  const std::vector<Knob> knobs = s->knobs();
  for (const Knob& k : knobs)
    for (const double v : {k.min, k.max}) {
      if (s->set(k.name, v, &err)) stepAndCheck(*s, input);
      else oneLine("scene", err, "", input);  // about the value, or FILE:LINE: when the scene no longer resolves
    }
  return Outcome::Accepted;
}

Outcome csv(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::istringstream in{std::string(input)};
  std::string err;
  cli::GateBounds bounds;
  bounds.promise = overlapPromiseOf("orca");
  bounds.maxAccel = bounds.maxDecel = 10;
  const auto checked = cli::checkTrajectory(in, bounds, &err);
  if (!checked) {
    oneLine("csv", err, "", input);
    if (err.empty() || err[0] < '1' || err[0] > '9' || err.find(": ") == std::string::npos)
      violation("csv", "no line number: " + err, input);
    return Outcome::Refused;
  }
  return Outcome::Accepted;
}

Outcome args(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // One argument a line, at most 64 (a shell passes no NUL bytes: a line
  // with one ends at it).
  std::vector<std::string> words;
  std::size_t b = 0;
  while (b <= input.size() && words.size() < 64) {
    std::size_t e = input.find('\n', b);
    if (e == std::string_view::npos) e = input.size();
    std::string w(input.substr(b, e - b));
    w = w.substr(0, w.find('\0'));
    words.push_back(std::move(w));
    b = e + 1;
  }
  const std::string sub = words.empty() ? "" : words[0];
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  const int argc = static_cast<int>(argv.size());
  const auto judge = [&](const auto& p, std::string_view command) {
    if (p.options) return Outcome::Accepted;
    if (p.exitCode == 0) {
      if (p.text.find("usage:") == std::string::npos) violation("args", "exit 0 without options or help", input);
      return Outcome::Accepted;
    }
    if (p.exitCode != 2) violation("args", "a refusal with exit " + std::to_string(p.exitCode), input);
    oneLine("args", p.text, command, input);
    return Outcome::Refused;
  };
  try {
    if (sub == "run") return judge(cli::parseRun(argc, argv.data()), "throng run: ");
    if (sub == "check") return judge(cli::parseCheck(argc, argv.data()), "throng check: ");
    if (sub == "scenes") return judge(cli::parseScenes(argc, argv.data()), "throng scenes: ");
    if (sub == "record") return judge(cli::parseRecord(argc, argv.data()), "throng record: ");
    if (sub == "campaign") return judge(cli::parseCampaign(argc, argv.data()), "throng campaign: ");
    if (sub == "import") return judge(cli::parseImport(argc, argv.data()), "throng import: ");
    std::vector<const char*> viz = argv;  // the visualizer: argv[0] is the program
    if (viz.empty()) viz.push_back("throng");
    else viz[0] = "throng";
    return judge(cli::parseViz(static_cast<int>(viz.size()), viz.data()), "throng: ");
  } catch (const std::exception& e) {
    violation("args", std::string("the parser threw: ") + e.what(), input);
  }
}

Outcome pedpy(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // The reader takes a path (it reads runs by offset): the bytes in a memory file.
  const int fd = ::memfd_create("fuzz-pedpy", MFD_CLOEXEC);
  if (fd < 0 || ::write(fd, data, size) != static_cast<ssize_t>(size)) violation("pedpy", "no memory file", input);
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  cli::GateBounds bounds;
  bounds.promise = overlapPromiseOf("orca");
  std::string err;
  std::optional<cli::TrajectoryCheck> checked;
  try {
    const auto reader = cli::openTrajectory(path, cli::TrajectoryFormat::Pedpy);
    checked = cli::checkFrames(*reader, bounds, &err);
  } catch (const cli::BadTrajectory& e) {
    err = e.where + ": " + e.message;
  }
  ::close(fd);
  if (!checked) {
    oneLine("pedpy", err, "", input);
    if (err.empty() || err[0] < '1' || err[0] > '9' || err.find(": ") == std::string::npos)
      violation("pedpy", "no line number: " + err, input);
    return Outcome::Refused;
  }
  return Outcome::Accepted;
}

Outcome name(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string c = pathComponent(input);
  if (c.empty() || c.size() > kMaxPathComponent) violation("name", "a component of " + std::to_string(c.size()) +
                                                                        " bytes: " + c, input);
  if (c == "." || c == ".." || c.front() == '.') violation("name", "a dot component: " + c, input);
  for (const char ch : c) {
    const auto u = static_cast<unsigned char>(ch);
    if (!(std::isalnum(u) || u == '-' || u == '_' || u == '.') || u >= 0x80)
      violation("name", "a byte outside [A-Za-z0-9._-]: " + c, input);
  }
  // Stable, and a fixed point: a component names itself.
  if (pathComponent(input) != c || pathComponent(c) != c) violation("name", "not stable: " + c, input);
  // A name kept as it is was already safe; one changed carries the hash of
  // the original, so it cannot equal a name that was kept.
  const bool kept = c == input;
  if (!kept && (c.size() < 9 || c[c.size() - 9] != '-')) violation("name", "changed without its hash: " + c, input);
  return kept ? Outcome::Accepted : Outcome::Refused;
}

}  // namespace throng::fuzz
