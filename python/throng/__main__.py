"""``python -m throng campaign SPEC.json [--scheduler ADDRESS] [--workers N]``:
the same as ``throng campaign``."""
import sys

from ._campaign import main

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "campaign":
        sys.stderr.write("usage: python -m throng campaign SPEC.json [--scheduler ADDRESS] [--workers N]\n")
        sys.exit(2)
    sys.exit(main(sys.argv[2:]))
