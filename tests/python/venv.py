#!/usr/bin/env python3
"""The Python tests' virtual environment (ctest fixture "python: venv").

    venv.py --venv DIR --requirements FILE

Makes DIR a virtual environment of this Python with FILE's packages from
PyPI, unless it already imports them all (then it takes about a second).
Needs PyPI the first time, and fails (never passes) when it cannot install:
the tests that need it then do not run.
"""
import argparse
import pathlib
import shutil
import subprocess
import sys

# The modules that show each requirement is there.
MODULES = ["numpy", "dask", "distributed", "dask_jobqueue", "pedpy", "tqdm", "cryptography", "atheris", "jupedsim",
           "ezdxf", "shapely"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--venv", required=True)
    ap.add_argument("--requirements", required=True)
    a = ap.parse_args()
    venv = pathlib.Path(a.venv)
    py = venv / "bin" / "python"
    check = "import " + ", ".join(MODULES)
    if py.exists() and subprocess.run([py, "-c", check], capture_output=True).returncode == 0:
        print(f"{venv}: has {', '.join(MODULES)}")
        return 0
    shutil.rmtree(venv, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAILED to create the virtual environment", r.stdout, r.stderr)
        return 1
    r = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", a.requirements],
                       capture_output=True, text=True, timeout=1500)
    if r.returncode != 0 or subprocess.run([py, "-c", check], capture_output=True).returncode != 0:
        shutil.rmtree(venv, ignore_errors=True)
        print("FAILED to install the Python tests' packages from PyPI (is PyPI reachable?)",
              r.stdout[-3000:], r.stderr[-3000:])
        return 1
    print(f"{venv}: installed {a.requirements}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
