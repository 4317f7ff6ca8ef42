#!/usr/bin/env python3
"""The fundamental diagram of each model in the ring corridor against
Weidmann's, as a plot: runs the scene tests' measurement
(tests/scene/test_walking.cpp) and draws what it prints.

    build/release/python-venv/bin/python scripts/fundamental_diagram.py [OUT.png]

Needs matplotlib (the build's python-venv has it). The default output is
docs/img/fundamental-diagram.png."""
import math
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
TESTS = ROOT / "build" / "release" / "tests" / "scene" / "test_scene"


def weidmann(d):
    return 1.34 * (1 - math.exp(-1.913 * (1 / d - 1 / 5.4)))


def tables():
    """{label: [(density, speed)]} from the test's messages."""
    out = {}
    for pattern in ("walking: *fundamental diagram*", "figures: *"):
        text = subprocess.run([str(TESTS), "-tc=" + pattern, "--no-skip", "-s"], capture_output=True, text=True).stdout
        label = None
        for line in text.splitlines():
            m = re.search(r"MESSAGE: (.+): density", line)
            if m:
                label = m.group(1)
                out[label] = []
                continue
            m = re.match(r"\s+([0-9.]+)\s+(-?[0-9.]+)\s+[0-9.]+\s+[-+0-9]+%$", line)
            if m and label:
                out[label].append((float(m.group(1)), float(m.group(2))))
    return out


def main():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    dest = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img" / "fundamental-diagram.png"
    data = tables()
    if not data:
        print(f"{TESTS}: no tables printed (build first: make build)", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    ds = [0.3 + 0.05 * k for k in range(103)]
    ax.plot(ds, [weidmann(d) for d in ds], "k-", label="Weidmann (1993)")
    for label, points in sorted(data.items()):
        ax.plot([p[0] for p in points], [max(p[1], 0) for p in points], "o-" if "pace off" not in label else "s--",
                label=label)
    ax.set_xlabel("density (walkers per m²)")
    ax.set_ylabel("mean speed (m/s)")
    ax.set_title("Ring corridor 2 m wide, walkers of 0.2 m wishing 1.34 m/s")
    ax.set_xlim(0, 5.5)
    ax.set_ylim(0, 1.45)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dest)
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
