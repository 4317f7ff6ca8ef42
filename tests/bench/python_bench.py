#!/usr/bin/env python3
"""Figures for the Python package (issue 31); not a pass/fail test.

    PYTHONPATH=build/release/python build/release/python-venv/bin/python \\
        tests/bench/python_bench.py [campaign|overhead|all] [--throng build/release/app/throng]

campaign: runs per minute for a campaign of 48 short runs (door and
    evacuation x 12 seeds x 2 densities, 20 s each, PedPy trajectories
    written), serially in this process and on a LocalCluster of 2 worker
    processes (one thread each, as every run); the scaling efficiency is
    (parallel rate / serial rate) / 2. The cluster's start is timed apart;
    the serial `throng run` loop is given for scale.
overhead: the cost per step of stepping from Python, one step() call a
    step, against the same steps in one C++ loop (run.step(K)) and against
    the `throng run` command (its wall time for K steps less its time for 0,
    which is the scene's loading), at 1k and 100k walkers (a fill of the
    square, each heading 20 m east), ORCA with the gate on, as `throng run`
    steps. Best of --repeat, the variants interleaved.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import throng


def campaign_figures(a, tmp):
    spec = {"scenes": ["door", "evacuation"], "seeds": {"start": 0, "count": 12},
            "knobs": {"density": [0.9, 1.2]}, "seconds": 20, "trajectory": "pedpy", "threads": 1}
    n = len(throng._campaign.points(throng.load_spec(spec)))
    print(f"campaign: {n} runs (door, evacuation x 12 seeds x 2 densities, 20 s each, pedpy trajectories)")

    # Serial, in this process.
    serial = throng.campaign(spec, out=tmp / "serial", serial=True, progress=False)
    rate_serial = 60 * serial.ran / serial.wall
    print(f"  serial, in-process:     {serial.wall:6.2f} s  {rate_serial:6.1f} runs/min")

    # The same points as 48 `throng run` commands (each loads its scene).
    t0 = time.perf_counter()
    for p in throng._campaign.points(throng.load_spec(spec)):
        out = tmp / "cli" / p["id"]
        out.mkdir(parents=True)
        subprocess.run([a.throng, "run", p["file"], "--seed", str(p["seed"]), "--seconds", "20", "--threads", "1",
                        "--set", f"density={p['knobs']['density']}", "--export", str(out / "t.txt"), "--format",
                        "pedpy", "--summary", str(out / "s.json"), "--quiet"], capture_output=True)
        if not (out / "s.json").exists():  # 1 with a summary is a run the gate flagged, not a failure
            raise SystemExit(f"throng run failed on {p['id']}")
    cli_wall = time.perf_counter() - t0
    print(f"  serial, throng run x{n}: {cli_wall:6.2f} s  {60 * n / cli_wall:6.1f} runs/min")

    # A LocalCluster of 2 workers: its start, then the campaign on it.
    from distributed import Client, LocalCluster
    t0 = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(lambda: __import__("throng"))  # the workers import the package before the clock
        start = time.perf_counter() - t0
        par = throng.campaign(spec, client=client, out=tmp / "dask", progress=False)
    rate_par = 60 * par.ran / par.wall
    total = start + par.wall
    print(f"  LocalCluster, 2 workers: {par.wall:6.2f} s  {rate_par:6.1f} runs/min "
          f"(+ {start:.2f} s to start it: {60 * n / total:.1f} runs/min end to end)")
    print(f"  scaling efficiency: {rate_par / rate_serial / 2:.0%} (end to end {60 * n / total / rate_serial / 2:.0%})")
    same = {r["point"]: r["hash"] for r in serial.rows} == {r["point"]: r["hash"] for r in par.rows}
    print(f"  serial and parallel hashes equal: {same}")
    return {"runs": n, "serial_s": serial.wall, "serial_rpm": rate_serial, "cli_s": cli_wall,
            "dask_s": par.wall, "dask_rpm": rate_par, "dask_start_s": start,
            "efficiency": rate_par / rate_serial / 2, "hashes_equal": same}


def big_scene(n, tmp):
    side = (n / 1.0) ** 0.5
    text = json.dumps({"name": f"fill-{n}", "units": "m", "agentDefaults": {"radius": 0.25, "maxSpeed": 1.3},
                       "generators": [{"type": "fill", "region": [0, 0, side, side], "density": 1.0,
                                       "goalOffset": [20, 0]}]})
    path = tmp / f"fill-{n}.json"
    path.write_text(text)
    return path


def overhead_figures(a, tmp):
    out = {}
    print(f"overhead: ORCA, gate on, threads={a.threads}; best of {a.repeat}")
    for n, steps in ((1000, a.steps_1k), (100_000, a.steps_100k)):
        path = big_scene(n, tmp)
        scene = throng.Scene.load(path)
        walkers = scene.agent_count
        best = {"python": 1e9, "c++ loop": 1e9, "throng run": 1e9}
        hashes = set()
        for _ in range(a.repeat):
            r = throng.Run(scene, threads=a.threads)
            t0 = time.perf_counter()
            for _ in range(steps):
                r.step(1)
            best["python"] = min(best["python"], time.perf_counter() - t0)
            hashes.add(r.state_hash)
            r.close()

            r = throng.Run(scene, threads=a.threads)
            t0 = time.perf_counter()
            r.step(steps)
            best["c++ loop"] = min(best["c++ loop"], time.perf_counter() - t0)
            hashes.add(r.state_hash)
            r.close()

            walls = []
            for k in (0, steps):
                t0 = time.perf_counter()
                p = subprocess.run([a.throng, "run", str(path), "--steps", str(k), "--threads", str(a.threads),
                                    "--quiet", "--summary", str(tmp / "s.json")], capture_output=True, text=True)
                walls.append(time.perf_counter() - t0)
                if p.returncode not in (0, 1):
                    raise SystemExit(p.stderr)
            hashes.add(int(json.loads((tmp / "s.json").read_text())["hash"], 16))
            best["throng run"] = min(best["throng run"], walls[1] - walls[0])
        per = {k: 1000 * v / steps for k, v in best.items()}
        over_loop = per["python"] / per["c++ loop"] - 1
        over_cli = per["python"] / per["throng run"] - 1
        print(f"  {walkers:>7} walkers, {steps} steps: python step(1) {per['python']:.4f} ms/step, "
              f"C++ loop {per['c++ loop']:.4f}, throng run {per['throng run']:.4f}; "
              f"overhead {over_loop:+.2%} vs the C++ loop, {over_cli:+.2%} vs throng run; "
              f"one hash: {len(hashes) == 1}")
        out[walkers] = {**per, "overhead_vs_loop": over_loop, "overhead_vs_cli": over_cli,
                        "hashes_equal": len(hashes) == 1}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", default="all", choices=["campaign", "overhead", "all"])
    here = pathlib.Path(__file__).resolve().parents[2]
    ap.add_argument("--throng", default=str(here / "build" / "release" / "app" / "throng"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps-1k", type=int, default=400)
    ap.add_argument("--steps-100k", type=int, default=20)
    ap.add_argument("--json", help="also write the figures here")
    a = ap.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="throng-bench-"))
    figures = {}
    try:
        if a.what in ("campaign", "all"):
            figures["campaign"] = campaign_figures(a, tmp)
        if a.what in ("overhead", "all"):
            figures["overhead"] = overhead_figures(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
