#!/usr/bin/env python3
"""ORCA here against RVO2 itself, on RVO2's own Circle (250 walkers).

RVO2 comes from PyPI as `pyrvo` (its C++ library with Python bindings), a
test tool only, into a virtual environment in the build folder. Our side is
`throng_count circle 250 STEPS 1 TRACE` (tests/bench/count_steps.cpp), with
RVO2's settings and jitter 0. Both start from the same float positions, and
both take RVO2's example wish: the way to the goal, normalised once farther
than 1 (by a reciprocal, as RVO2's Vector2 divides).

While the linear program is feasible its solution is unique, so ORCA here
must follow RVO2 exactly: the same floats, step for step, until a tie in
neighbour distance (ordered by index here, by kd-tree order in RVO2) moves
a last bit, and then within a centimetre until the crowd jams.
"""
import argparse
import pathlib
import subprocess
import sys


def fail(msg, *details):
    print("FAIL rvo2_circle:", msg)
    for d in details:
        print(d)
    sys.exit(1)


def ensure_venv(venv):
    py = venv / "bin" / "python"
    probe = [str(py), "-c", "import pyrvo, numpy"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    import shutil
    shutil.rmtree(venv, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if r.returncode != 0:
        fail("could not create the virtual environment for pyrvo", r.stdout, r.stderr)
    # pyrvo declares a simulator package it does not need for its bindings:
    # install it alone, with numpy.
    r = subprocess.run([str(py), "-m", "pip", "install", "--disable-pip-version-check", "--no-deps",
                        "pyrvo==0.4.3", "numpy"], capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        shutil.rmtree(venv, ignore_errors=True)
        fail("could not install pyrvo (RVO2) from PyPI (is PyPI reachable?); this test cannot pass "
             "without RVO2 to compare with", r.stdout[-3000:], r.stderr[-3000:])
    return py


COMPARE = r'''
import sys
import numpy as np
import pyrvo

n, steps, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
frame = n * 9
raw = np.fromfile(path, dtype=np.uint8)
if raw.size != frame * (steps + 1):
    sys.exit(f"trace has {raw.size} bytes, expected {frame * (steps + 1)}")
xy = [np.frombuffer(raw[f * frame:f * frame + 8 * n].tobytes(), dtype="<f4").reshape(n, 2)
      for f in range(steps + 1)]
jam = [raw[f * frame + 8 * n:(f + 1) * frame] for f in range(steps + 1)]
first_jam = next((f for f in range(steps + 1) if jam[f].any()), None)

# RVO2's Circle settings: timeStep 0.25, neighborDist 15, maxNeighbors 10,
# timeHorizon 10, timeHorizonObst 10, radius 1.5, maxSpeed 2.
sim = pyrvo.RVOSimulator(0.25, 15.0, 10, 10.0, 10.0, 1.5, 2.0)
goals = -xy[0]
for i in range(n):
    sim.add_agent((float(xy[0][i, 0]), float(xy[0][i, 1])))
one = np.float32(1)
first_diff, before_jam, worst = None, 0.0, 0.0
for f in range(1, steps + 1):
    for i in range(n):
        p = sim.get_agent_position(i)
        vx = np.float32(goals[i, 0]) - np.float32(p.x)
        vy = np.float32(goals[i, 1]) - np.float32(p.y)
        if vx * vx + vy * vy > one:
            inv = one / np.sqrt(vx * vx + vy * vy)
            vx, vy = vx * inv, vy * inv
        sim.set_agent_pref_velocity(i, (float(vx), float(vy)))
    sim.do_step()
    rvo = np.array([[sim.get_agent_position(i).x, sim.get_agent_position(i).y] for i in range(n)],
                   dtype=np.float32)
    d = float(np.abs(rvo - xy[f]).max())
    if d > 0 and first_diff is None:
        first_diff = f
    if first_jam is None or f < first_jam:
        before_jam = max(before_jam, d)
    worst = max(worst, d)
print(f"first step where ORCA here and RVO2 differ at all: {first_diff}")
print(f"our first jammed step: {first_jam}")
print(f"largest difference before it: {before_jam:.3g} (units: m; radius 1.5)")
print(f"largest difference in {steps} steps: {worst:.3g}")
ok = True
if first_diff is not None and first_diff <= 250:
    print("FAIL: ORCA here should repeat RVO2's floats exactly for at least 250 steps"); ok = False
if first_jam is None or first_jam < 300:
    print("FAIL: the Circle should run jam-free for at least 300 steps"); ok = False
if before_jam >= 0.01:
    print("FAIL: until the jam the two should agree within 1 cm"); ok = False
sys.exit(0 if ok else 1)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", required=True, help="the throng_count binary")
    ap.add_argument("--work", required=True)
    ap.add_argument("--venv", required=True)
    args = ap.parse_args()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    py = ensure_venv(pathlib.Path(args.venv))
    steps, trace = 460, work / "circle250.bin"
    r = subprocess.run([args.count, "circle", "250", str(steps), "1", str(trace)], capture_output=True, text=True)
    if r.returncode != 0:
        fail("throng_count failed", r.stdout, r.stderr)
    r = subprocess.run([str(py), "-c", COMPARE, "250", str(steps), str(trace)], capture_output=True, text=True,
                       timeout=600)
    print(r.stdout.strip())
    if r.returncode != 0:
        fail("ORCA here does not follow RVO2 on its Circle", r.stderr[-3000:])
    print("ok rvo2_circle")


if __name__ == "__main__":
    main()
