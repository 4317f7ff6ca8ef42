#!/usr/bin/env python3
"""Bottleneck flow against the door's width: the shipped `door` scene at
1.5 walkers per m², each width run headless (`throng run --export`), the
flow taken between the 10th and the 10th-last walker through the door
(x = 10 m), in walkers per second and per metre of width.

    scripts/bottleneck_flow.py [--throng build/release/app/throng] [--set NAME=VALUE ...]

Prints one line per width; the figures are in docs/walking.md."""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

WIDTHS = [0.6, 0.7, 0.8, 1.0, 1.2, 1.6, 2.0, 2.4]


def passages(path):
    """The time each walker's centre first crosses x = 10 m, sorted."""
    last, crossed = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            i, x, t = row["id"], float(row["x"]), float(row["time"])
            if i in last and last[i] < 10 <= x and i not in crossed:
                crossed[i] = t
            last[i] = x
    return sorted(crossed.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throng", default="build/release/app/throng")
    ap.add_argument("--scene", default="door", help="a scene with doorWidth and density knobs")
    ap.add_argument("--widths", default=",".join(map(str, WIDTHS)), help="comma-separated door widths, m")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    args = ap.parse_args()
    print("width (m)  walkers through  flow (1/s)  specific flow (1/m/s)")
    with tempfile.TemporaryDirectory() as tmp:
        for w in [float(x) for x in args.widths.split(",")]:
            out = os.path.join(tmp, "door.csv")
            cmd = [args.throng, "run", args.scene, "--seconds", "120", "-q", "--export", out,
                   "--set", f"doorWidth={w}", "--set", "density=1.5"]
            for s in args.sets:
                cmd += ["--set", s]
            subprocess.run(cmd, check=False)
            t = passages(out)
            if len(t) < 25:
                print(f"{w:9.1f}  {len(t):15d}  (too few through to measure)")
                continue
            flow = (len(t) - 21) / (t[-11] - t[10])
            print(f"{w:9.1f}  {len(t):15d}  {flow:10.2f}  {flow / w:21.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
