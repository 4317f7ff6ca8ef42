#pragma once
// The headless subcommands of `throng`: run, check, scenes, campaign, verify. Each takes the
// arguments after `throng` (argv[0] is the subcommand name) and returns the
// exit code: 0 ok, 1 failure (bad file, failed gate, runtime error), 2 usage
// error (one line on stderr with a hint), 130 interrupted. None throws.
#include <string>

namespace throng::cli {

int runRun(int argc, char** argv);
int runCheck(int argc, char** argv);
int runScenes(int argc, char** argv);
/// `throng campaign`: parses, then execs Python's throng.campaign (campaign.cpp).
int runCampaign(int argc, char** argv);
/// Puts build/X/python first on PYTHONPATH when this executable is
/// build/X/app/throng and the Python package was built there (campaign.cpp),
/// for the Python throng starts next.
void preferBuildTreePackage();

/// `throng verify`: the verification suite (verify.cpp).
int runVerify(int argc, char** argv);

}  // namespace throng::cli
