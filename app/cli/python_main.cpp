// What the subcommands that are Python's share (campaign.cpp, import.cpp,
// and verify.cpp's runs on Dask): exec $THRONG_PYTHON (default python3) on
// a short bootstrap that imports throng.<module>'s main, saying plainly when
// the throng package is missing, and runs it on the already-parsed flags. A build tree's package
// (build/X/python, beside build/X/app/throng) goes first on PYTHONPATH.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "cli.hpp"

namespace throng::cli {

namespace fs = std::filesystem;

void preferBuildTreePackage() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return;
  const fs::path package = exe.parent_path().parent_path() / "python";  // .../app/throng -> .../python
  if (!fs::is_regular_file(package / "throng" / "__init__.py", ec)) return;
  const char* old = std::getenv("PYTHONPATH");
  setenv("PYTHONPATH", (old && *old ? package.string() + ":" + old : package.string()).c_str(), 1);
}

int execPythonMain(const std::string& command, const std::string& module, const std::vector<std::string>& args,
                   const std::string& needs) {
  // The package imports (a plain message if it is not there); main checks
  // for its own dependencies (dask, ezdxf) and says which is missing.
  const std::string bootstrap =
      "import sys\n"
      "try:\n"
      "    from throng." + module + " import main\n"
      "except ImportError as e:\n"
      "    sys.stderr.write('" + command + ": the throng Python package is not importable by %s (%s); '\n"
      "                     '`pip install .` from the repository into that Python, or set THRONG_PYTHON to one '\n"
      "                     'that has it\\n' % (sys.executable, e))\n"
      "    sys.exit(1)\n"
      "sys.exit(main(sys.argv[1:], prog='" + command + "'))\n";
  const char* env = std::getenv("THRONG_PYTHON");
  const std::string python = env && *env ? env : "python3";
  std::vector<std::string> all = {python, "-c", bootstrap};
  all.insert(all.end(), args.begin(), args.end());

  preferBuildTreePackage();
  std::vector<char*> cargs;
  for (std::string& a : all) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::fflush(nullptr);
  execvp(cargs[0], cargs.data());
  // Only on failure.
  const int e = errno;
  if (e == ENOENT)
    std::fprintf(stderr, "%s: no Python: %s was not found%s; %s (set THRONG_PYTHON to that Python)\n",
                 command.c_str(), python.c_str(), env && *env ? " (THRONG_PYTHON)" : " on PATH", needs.c_str());
  else
    std::fprintf(stderr, "%s: cannot start %s: %s\n", command.c_str(), python.c_str(), std::strerror(e));
  return 1;
}

int runPythonMain(const std::string& command, const std::string& module, const std::vector<std::string>& args,
                  const std::string& needs, std::string* why) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    *why = std::string("cannot start Python: ") + std::strerror(errno);
    return -1;
  }
  if (pid == 0) {
    dup2(STDERR_FILENO, STDOUT_FILENO);  // this process's stdout is its own table
    _exit(execPythonMain(command, module, args, needs));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      *why = std::string("waiting for Python: ") + std::strerror(errno);
      return -1;
    }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace throng::cli
