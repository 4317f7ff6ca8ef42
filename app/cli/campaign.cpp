// `throng campaign SPEC.json ...`: a thin launcher. Campaigns run on Dask, a
// Python library, so the work is Python's throng.campaign (python/throng/
// campaign.py), the same code as throng.campaign(spec) in a notebook. This
// parses the flags (so --help and usage errors are the command line's own),
// then execs $THRONG_PYTHON (default python3) on a short bootstrap that says
// plainly when the throng package or dask is missing. A build tree's package
// (build/X/python, beside build/X/app/throng) goes first on PYTHONPATH.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "args.hpp"
#include "cli.hpp"

namespace throng::cli {

namespace {

namespace fs = std::filesystem;

/// What the Python side runs: import the package (a plain message if it is
/// not there), then throng.campaign.main, which checks for dask itself.
constexpr const char* kBootstrap =
    "import sys\n"
    "try:\n"
    "    from throng._campaign import main\n"
    "except ImportError as e:\n"
    "    sys.stderr.write('throng campaign: the throng Python package is not importable by %s (%s); '\n"
    "                     '`pip install .` from the repository into that Python, or set THRONG_PYTHON to one '\n"
    "                     'that has it\\n' % (sys.executable, e))\n"
    "    sys.exit(1)\n"
    "sys.exit(main(sys.argv[1:], prog='throng campaign'))\n";

}  // namespace

void preferBuildTreePackage() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return;
  const fs::path package = exe.parent_path().parent_path() / "python";  // .../app/throng -> .../python
  if (!fs::is_regular_file(package / "throng" / "__init__.py", ec)) return;
  const char* old = std::getenv("PYTHONPATH");
  setenv("PYTHONPATH", (old && *old ? package.string() + ":" + old : package.string()).c_str(), 1);
}

int runCampaign(int argc, char** argv) {
  const Parsed<CampaignOptions> p = parseCampaign(argc, argv);
  if (!p.options) return p.finish();
  const CampaignOptions& o = *p.options;

  const char* env = std::getenv("THRONG_PYTHON");
  const std::string python = env && *env ? env : "python3";
  std::vector<std::string> args = {python, "-c", kBootstrap, o.spec};
  if (!o.scheduler.empty()) args.insert(args.end(), {"--scheduler", o.scheduler});
  if (o.workers > 0) args.insert(args.end(), {"--workers", std::to_string(o.workers)});
  if (!o.out.empty()) args.insert(args.end(), {"--out", o.out});
  if (o.quiet) args.emplace_back("--quiet");
  if (!o.tlsCaFile.empty()) args.insert(args.end(), {"--tls-ca-file", o.tlsCaFile});
  if (!o.tlsCert.empty()) args.insert(args.end(), {"--tls-cert", o.tlsCert});
  if (!o.tlsKey.empty()) args.insert(args.end(), {"--tls-key", o.tlsKey});

  preferBuildTreePackage();
  std::vector<char*> cargs;
  for (std::string& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::fflush(nullptr);
  execvp(cargs[0], cargs.data());
  // Only on failure.
  const int e = errno;
  if (e == ENOENT)
    std::fprintf(stderr,
                 "throng campaign: no Python: %s was not found%s; campaigns need Python 3 with the throng package "
                 "and dask (set THRONG_PYTHON to that Python)\n",
                 python.c_str(), env && *env ? " (THRONG_PYTHON)" : " on PATH");
  else
    std::fprintf(stderr, "throng campaign: cannot start %s: %s\n", python.c_str(), std::strerror(e));
  return 1;
}

}  // namespace throng::cli
