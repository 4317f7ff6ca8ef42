// `throng campaign SPEC.json ...`: a thin launcher. Campaigns run on Dask, a
// Python library, so the work is Python's throng.campaign (python/throng/
// _campaign.py), the same code as throng.campaign(spec) in a notebook. This
// parses the flags (so --help and usage errors are the command line's own),
// then execs $THRONG_PYTHON (default python3) on throng._campaign's main
// (python_main.cpp), which says plainly when dask is missing.
#include <string>
#include <vector>

#include "args.hpp"
#include "cli.hpp"

namespace throng::cli {

int runCampaign(int argc, char** argv) {
  const Parsed<CampaignOptions> p = parseCampaign(argc, argv);
  if (!p.options) return p.finish();
  const CampaignOptions& o = *p.options;

  std::vector<std::string> args = {o.spec};
  const std::vector<std::string> dask = o.dask.args();
  args.insert(args.end(), dask.begin(), dask.end());
  if (!o.out.empty()) args.insert(args.end(), {"--out", o.out});
  if (o.quiet) args.emplace_back("--quiet");
  return execPythonMain("throng campaign", "_campaign", args,
                        "campaigns need Python 3 with the throng package and dask");
}

}  // namespace throng::cli
