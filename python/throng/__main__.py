"""``python -m throng campaign SPEC.json [--scheduler ADDRESS] [--workers N]``
and ``python -m throng import PLAN.dxf --walls LAYER... --out SCENE.json``:
the same as ``throng campaign`` and ``throng import``."""
import sys

USAGE = ("usage: python -m throng campaign SPEC.json [--scheduler ADDRESS] [--workers N]\n"
         "       python -m throng import PLAN.dxf --walls LAYER... [--obstacles LAYER...] [--exits LAYER...] "
         "--out SCENE.json\n")

if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "campaign":
        from ._campaign import main
    elif command == "import":
        from ._import import main
    else:
        sys.stderr.write(USAGE)
        sys.exit(2)
    sys.exit(main(sys.argv[2:], prog=f"python -m throng {command}"))
