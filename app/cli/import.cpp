// `throng import PLAN.dxf --walls LAYER... --out SCENE.json`: a thin
// launcher. A DXF plan is read by ezdxf and its floor built by shapely, both
// Python libraries, so the work is Python's throng.import_dxf (python/throng/
// _import.py, whose design note says how the floor is made), the same code a
// notebook calls. This parses the flags (so --help and usage errors are the
// command line's own), then execs $THRONG_PYTHON (default python3) on
// throng._import's main (python_main.cpp), which says plainly when ezdxf or
// shapely is missing.
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "cli.hpp"

namespace throng::cli {

int runImport(int argc, char** argv) {
  const Parsed<ImportOptions> p = parseImport(argc, argv);
  if (!p.options) return p.finish();
  const ImportOptions& o = *p.options;

  // Every value attached to its flag and the plan after "--", so a layer or
  // a file whose name starts with '-' reads as a name.
  std::vector<std::string> args;
  for (const std::string& n : o.walls) args.push_back("--walls=" + n);
  for (const std::string& n : o.obstacles) args.push_back("--obstacles=" + n);
  for (const std::string& n : o.exits) args.push_back("--exits=" + n);
  if (!o.units.empty()) args.push_back("--units=" + o.units);
  char density[32];
  std::snprintf(density, sizeof density, "%.17g", o.density);  // decimal: Python's float() reads no hex
  args.insert(args.end(), {std::string("--density=") + density, "--out=" + o.out, "--", o.plan});
  return execPythonMain("throng import", "_import", args,
                        "throng import needs Python 3 with the throng package, ezdxf and shapely");
}

}  // namespace throng::cli
