#pragma once
// The headless subcommands of `throng`: run, check, scenes, campaign, import, verify. Each takes the
// arguments after `throng` (argv[0] is the subcommand name) and returns the
// exit code: 0 ok, 1 failure (bad file, failed gate, runtime error), 2 usage
// error (one line on stderr with a hint), 130 interrupted. None throws.
#include <string>
#include <vector>

namespace throng::cli {

int runRun(int argc, char** argv);
int runCheck(int argc, char** argv);
int runScenes(int argc, char** argv);
/// `throng campaign`: parses, then execs Python's throng.campaign (campaign.cpp).
int runCampaign(int argc, char** argv);
/// `throng import`: parses, then execs Python's throng.import_dxf (import.cpp).
int runImport(int argc, char** argv);
/// Puts build/X/python first on PYTHONPATH when this executable is
/// build/X/app/throng and the Python package was built there
/// (python_main.cpp), for the Python throng starts next.
void preferBuildTreePackage();
/// Replaces this process with $THRONG_PYTHON (default python3) running
/// throng.<module>'s main(args, prog=command), the build tree's package first
/// (python_main.cpp). Returns 1, with one line on stderr, only when that
/// Python cannot start; `needs` says what it must have ("campaigns need
/// Python 3 with the throng package and dask").
int execPythonMain(const std::string& command, const std::string& module, const std::vector<std::string>& args,
                   const std::string& needs);
/// execPythonMain in a child process, its output on this one's stderr;
/// waits for it and returns its exit status (128 + the signal that ended
/// it), or -1 with *why when it could not be started or waited for.
int runPythonMain(const std::string& command, const std::string& module, const std::vector<std::string>& args,
                  const std::string& needs, std::string* why);

/// `throng verify`: the verification suite (verify.cpp).
int runVerify(int argc, char** argv);

}  // namespace throng::cli
