#!/usr/bin/env python3
"""Tests of the Python package (issue 31), one case per ctest entry:

    test_python.py CASE --throng PATH --work DIR [--source DIR] [--pip-venv DIR --pip-build DIR]

Run by the tests' virtual environment's Python (tests/python/venv.py) with
PYTHONPATH at the build's package (build/release/python), except the pip
case, which installs the package with `pip install .` and imports that.
Each case asserts, and fails loudly (exit 1) with what it saw. The
reference is always the real `throng run` command.
"""
import gc
import json
import math
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # tests/casekit.py
import casekit  # noqa: E402
from casekit import Failure, check, show, work  # noqa: E402,F401
from casekit import throng as throng_cli  # noqa: E402  (`throng` is the package here)

ARGS = None  # set by casekit.main


def cli_summary(scene, *flags, export=None, fmt="pedpy"):
    """`throng run SCENE FLAGS --summary`: the summary dict (and the export's bytes)."""
    s = work(f"cli-{abs(hash((scene, flags, export, fmt)))}.json")
    extra = ["--export", export, "--format", fmt] if export else []
    p = throng_cli("run", scene, *flags, "--quiet", "--summary", s, *extra)
    check(p.returncode == 0, f"throng run {scene} {' '.join(map(str, flags))}", show(p))
    return json.loads(s.read_text())


def cli_error(*args):
    """The one-line message `throng run` prints for a usage or load error, without its prefix."""
    p = throng_cli("run", *args, "--quiet")
    check(p.returncode in (1, 2) and p.stderr.count("\n") == 1, "a one-line error from throng run", show(p))
    line = p.stderr.strip()
    line = re.sub(r"^throng run: ", "", line)
    return re.sub(r" \(see throng run --help\)$", "", line)


def raises(exc, fn, *a, **k):
    try:
        fn(*a, **k)
    except exc as e:
        return e
    except Exception as e:  # noqa: BLE001
        raise Failure(f"expected {exc.__name__}, got {type(e).__name__}: {e}")
    raise Failure(f"expected {exc.__name__}, nothing raised")


# ---- the API against `throng run` --------------------------------------------------

# (scene, settings and knobs, seed, steps): ORCA, BioCrowds, Continuum, sources and sinks.
CASES = [
    ("door", {"doorWidth": 1.6}, 3, 120),
    ("door", {"model": "biocrowds", "density": 0.6}, 7, 60),
    ("continuum-lanes", {"rate": 2}, 1, 80),
    ("corridor", {"timeHorizon": 2.5}, 2**64 - 1, 100),
]


def sets(values):
    out = []
    for k, v in values.items():
        out += ["--set", f"{k}={v}"]
    return out


def case_api_hash():
    import throng
    for scene, values, seed, steps in CASES:
        ref = cli_summary(scene, "--seed", seed, "--steps", steps, *sets(values))
        run = throng.Run(throng.Scene.load(scene).set(**values), seed=seed)
        run.step(steps)
        got = run.summary()
        check(f"{run.state_hash:016x}" == ref["hash"], f"{scene} {values} seed {seed}: the hash of throng run",
              f"python {run.state_hash:016x}", f"cli    {ref['hash']}")
        check(list(got) == list(ref), "summary(): the fields of --summary, in order", list(got), list(ref))
        for k in ref:
            if not k.startswith("msPer"):  # timings
                check(got[k] == ref[k], f"{scene}: summary()[{k!r}] as throng run's", got[k], ref[k])
        print(f"{scene:16} seed {seed}: {ref['hash']} == python; summary equal")
    # advance(seconds) is --seconds; until_done() is throng run's default length.
    ref = cli_summary("door", "--seconds", "3.3", "--seed", "5")
    check(throng.Run("door", seed=5).advance(3.3).summary()["hash"] == ref["hash"], "advance(3.3) is --seconds 3.3")
    ref = cli_summary("headon")
    r = throng.Run("headon")
    r.until_done()
    check(r.summary()["hash"] == ref["hash"] and r.step_count == ref["steps"], "until_done() is throng run's length",
          r.summary(), ref)
    # A scene not all of whose walkers arrive runs to its duration, counted
    # from the start: steps already taken are not added to it.
    ref = cli_summary("crossing")
    r = throng.Run("crossing")
    r.step(100)
    taken = r.until_done()
    check(r.step_count == ref["steps"] and taken == ref["steps"] - 100 and r.summary()["hash"] == ref["hash"],
          "until_done() after step(100) stops at the scene's duration", (r.step_count, taken), ref["steps"])
    # throng.run(), the whole command as a call, and the dt and threads flags.
    ref = cli_summary("door", "--seed", "9", "--steps", "50", "--dt", "0.025", "--threads", "1", "--set", "density=0.5")
    got = throng.run("door", seed=9, steps=50, dt=0.025, threads=1, density=0.5)
    check(got["hash"] == ref["hash"] and got["dt"] == ref["dt"], "throng.run() is throng run", got, ref)
    # Threads and the backend do not change a run.
    a = throng.Run("corridor", seed=4, threads=1, backend="cpu").step(90).state_hash
    b = throng.Run("corridor", seed=4, threads=2).step(90).state_hash
    check(a == b, "threads=1 and threads=2 give the same run")


def case_export_bytes():
    import throng
    for fmt in ("pedpy", "csv"):
        cli_out, py_out, call_out = work(f"cli.{fmt}"), work(f"py.{fmt}"), work(f"call.{fmt}")
        ref = cli_summary("corridor", "--seed", "2", "--steps", "60", "--set", "rate=2", export=cli_out, fmt=fmt)
        run = throng.Run(throng.Scene.load("corridor").set(rate=2), seed=2, record=True)
        run.step(60)
        run.export(py_out, format=fmt)
        check(py_out.read_bytes() == cli_out.read_bytes(), f"Run.export({fmt}): the bytes of throng run --export")
        s = throng.run("corridor", seed=2, steps=60, rate=2, export=call_out, format=fmt, summary=work("call.json"))
        check(call_out.read_bytes() == cli_out.read_bytes(), f"throng.run(export=, format={fmt}): the same bytes")
        check(json.loads(work("call.json").read_text())["hash"] == ref["hash"] == s["hash"], "the summary file")
        check(not list(pathlib.Path(ARGS.work).glob("*.partial")), "no partial left")
        print(f"{fmt}: {cli_out.stat().st_size} bytes, equal")
    t = run.trajectory()
    check(set(t) == {"id", "frame", "time", "x", "y", "vx", "vy", "jammed", "group"}, "trajectory() columns", list(t))
    check(t["frame"].max() == 60 and t["frame"].min() == 0, "frames 0..60")
    e = raises(RuntimeError, throng.Run("door").export, work("x.txt"))
    check("record=True" in str(e), "export without record says how", e)
    raises(ValueError, run.export, work("x.txt"), format="xml")
    e = raises(OSError, run.export, work("no/such/dir/x.txt"))
    check("cannot write" in str(e), "an unwritable export is an OSError with the command's message", e)


def case_errors():
    import throng
    e = raises(FileNotFoundError, throng.Scene.load, "no-such-scene")
    check(str(e) == cli_error("no-such-scene"), "a missing scene: throng run's message", e, cli_error("no-such-scene"))
    bad = work("bad.json")
    bad.write_text('{\n  "name": "bad",\n  "agents": [ {"at": [0, "x"]} ]\n}\n')
    e = raises(ValueError, throng.Scene.load, bad)
    check(str(e) == cli_error(bad), "a bad scene file: the loader's one line", e, cli_error(bad))
    check("\n" not in str(e), "one line", e)
    scene = throng.Scene.load("door")
    e = raises(ValueError, scene.set, doorWidth=99)
    ref = cli_error("door", "--set", "doorWidth=99")
    check(ref.endswith(str(e)) and ref.startswith("--set doorWidth=99: "), "a knob out of range", e, ref)
    e = raises(ValueError, scene.set, nope=1)
    check(cli_error("door", "--set", "nope=1").endswith(str(e)), "an unknown knob", e)
    e = raises(ValueError, scene.set, model="fluid")
    check(cli_error("door", "--set", "model=fluid").endswith(str(e)), "an unknown model", e)
    # All or none: a refused second value leaves the first unapplied.
    raises(ValueError, scene.set, doorWidth=2, density=99)
    check(scene.knobs["doorWidth"] == 1.2, "set() is all or none", scene.knobs)
    raises(TypeError, scene.set, doorWidth=True)
    raises(TypeError, scene.set, doorWidth=None)
    raises(ValueError, scene.set, doorWidth=float("nan"))
    raises(ValueError, throng.Run, "door", backend="gpu")
    if not throng.cuda_available():
        e = raises(RuntimeError, throng.Run, "door", backend="cuda")
        p = throng_cli("run", "door", "--backend", "cuda", "--steps", "1")
        check(str(e) in p.stderr, "no CUDA: the command's reason", e, show(p))
    raises(ValueError, throng.Run, "door", seed=-1)
    raises(TypeError, throng.Run, "door", seed=1.5)
    raises(ValueError, throng.Run, "door", threads=5000)
    run = throng.Run("door")
    raises(ValueError, run.step, -1)
    e = raises(ValueError, run.advance, float("inf"))
    check("seconds: expects a finite number in (0, 1e6], got inf" in str(e), "advance(inf): the bound", e)
    e = raises(ValueError, throng.run, "door", steps=throng._throng.MAX_RUN_STEPS + 1)
    check("steps: expects a whole number in [0, 1000000000]" in str(e), "steps past the most: the bound", e)
    raises(ValueError, run.advance, 0)
    e = raises(ValueError, throng.run, "door", seconds=1e6, dt=1e-5)
    check("more than" in str(e), "too many steps", e)
    print("every error is an exception with the command's message; the interpreter is fine")


def case_views():
    import numpy as np
    import throng
    run = throng.Run(throng.Scene.load("corridor").set(rate=4), seed=1, record=True)
    run.step(10)
    n = run.count
    for name, dtype in [("x", np.float32), ("y", np.float32), ("vx", np.float32), ("vy", np.float32),
                        ("radii", np.float32), ("groups", np.int32), ("jammed", np.bool_), ("ids", np.uint64)]:
        a = getattr(run, name)
        check(a.shape == (n,) and a.dtype == dtype, f"{name}: ({n},) {dtype}", a.shape, a.dtype)
        check(not a.flags.writeable, f"{name} is read-only")
        raises(ValueError, a.__setitem__, 0, 1)
        check(type(a.base).__name__ == "FrameLease", f"{name} is a view (its base the frame's lease)", a.base)
    p, v = run.positions, run.velocities
    check(p.shape == (n, 2) and v.shape == (n, 2) and not p.flags.writeable, "positions, velocities: (n, 2)")
    check(np.array_equal(p[:, 0], run.x) and np.array_equal(p[:, 1], run.y), "positions are x, y")
    check(np.array_equal(v[:, 0], run.vx) and np.array_equal(v[:, 1], run.vy), "velocities are vx, vy")
    check(run.positions is p, "positions: one copy per frame")
    # The views are the trajectory's last frame.
    t = run.trajectory()
    last = t["frame"] == run.step_count
    check(np.array_equal(t["x"][last], run.x) and np.array_equal(t["id"][last], run.ids), "views = the last frame")

    # No copy while no array outlives its frame: the memory stays where it is.
    still = throng.Run("door", seed=1)  # no sources: nothing grows
    addr = still.x.__array_interface__["data"][0]
    still.step(3)
    check(still.x.__array_interface__["data"][0] == addr, "a step with no view alive moves nothing")
    held = still.x
    still.step(1)
    check(still.x.__array_interface__["data"][0] != addr, "with a view alive the crowd goes on in a copy")
    del held
    # A view alive across steps keeps its frame, while the crowd grows
    # (sources: its vectors reallocate) and shrinks (sinks).
    keep = {k: getattr(run, k) for k in ("x", "y", "ids", "jammed")}
    copies = {k: a.copy() for k, a in keep.items()}
    run.step(400)
    check(run.count != n, "the crowd changed size", run.count, n)
    for k, a in keep.items():
        check(np.array_equal(a, copies[k]), f"{k}: a view keeps its frame after 400 steps")
    check(run.x.__array_interface__["data"][0] != keep["x"].__array_interface__["data"][0],
          "the crowd went on in new memory; the old frame stayed with its views")
    # Freed: close() and deletion never free what a view reads; the run's
    # accessors raise.
    now = run.x
    now_copy = now.copy()
    run.close()
    for k in ("x", "positions", "ids", "summary", "step"):
        e = raises(RuntimeError, lambda: getattr(run, k)() if k in ("summary", "step") else getattr(run, k))
        check("closed" in str(e), f"{k} after close()", e)
    run.close()  # twice is fine
    check(np.array_equal(now, now_copy), "a view of the last frame reads it after close()")
    r2 = throng.Run("door", seed=2)
    r2.step(5)
    x2, ref = r2.x, r2.x.copy()
    del r2
    gc.collect()
    junk = [np.full(100_000, 7.0, np.float32) for _ in range(50)]  # reuse freed memory, were any freed
    check(np.array_equal(x2, ref), "a view reads its frame after its run is freed")
    del junk
    # Empty crowd.
    r3 = throng.Run(throng.Scene.parse('{"name": "empty"}'))
    r3.step(2)
    check(r3.x.shape == (0,) and r3.positions.shape == (0, 2), "an empty crowd gives empty arrays")
    print("views: read-only, no copy, each keeps its frame; closed runs raise")


# Five thousand walkers in a 100 m square, each heading 30 m east: steps of
# a few ms, long enough to watch another thread.
BIG = ('{"name": "big", "generators": [{"type": "fill", "region": [0, 0, 100, 100], "density": 0.5, '
       '"goalOffset": [30, 0]}]}')


def case_gil():
    import throng
    # A long step() in a thread: this thread goes on running Python meanwhile
    # (it could not if step() held the GIL), and may not touch the run.
    run = throng.Run(throng.Scene.parse(BIG), threads=1)
    done = threading.Event()
    def stepper():
        run.step(300)
        done.set()
    t = threading.Thread(target=stepper)
    start = time.perf_counter()
    t.start()
    time.sleep(0.05)
    busy = None
    ticks = 0
    while not done.is_set():
        ticks += 1
        if busy is None and not done.is_set():
            try:
                run.x
                busy = False
            except RuntimeError as e:
                busy = str(e)
    t.join()
    took = time.perf_counter() - start
    check(took > 0.3, "the step took long enough to tell", took)
    check(ticks > 10_000, "Python ran while another thread stepped: step() releases the GIL", ticks, took)
    check(busy and "another thread" in busy, "touching a run that another thread steps raises", busy)
    check(run.step_count == 300, "the step finished")
    print(f"{ticks} loop turns here during a {took:.2f} s step() in another thread")
    # Two runs in two threads give the runs they give alone.
    ref = [throng.Run("door", seed=s).step(150).state_hash for s in (1, 2)]
    out = [None, None]
    def one(i):
        out[i] = throng.Run("door", seed=i + 1, threads=1).step(150).state_hash
    ts = [threading.Thread(target=one, args=(i,)) for i in (0, 1)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    check(out == ref, "two runs stepped at once, each as alone", out, ref)


def case_interrupt():
    # Ctrl-C during a long step() stops it at a step boundary with KeyboardInterrupt.
    script = """
import signal, threading, os, throng
run = throng.Run(throng.Scene.parse(%r), threads=1)
threading.Timer(0.4, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    run.step(100000)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted at", run.step_count, run.summary()["steps"] == run.step_count)
""" % BIG
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    check(p.returncode == 0 and re.search(r"interrupted at \d+ True", p.stdout), "KeyboardInterrupt mid-step",
          show(p))
    print(p.stdout.strip())


def case_measurements():
    import numpy as np
    import throng
    run = throng.Run("door", seed=2)
    run.advance(40)
    m = run.measurements()
    check(list(m) == ["door", "before the door"], "the scene's measurements, in file order", list(m))
    door, area = m["door"], m["before the door"]
    steps = run.step_count
    check(door["kind"] == "line" and door["points"].shape == (2, 2), "a line of two points", door["points"])
    check(door["time"].shape == (steps,) and abs(door["time"][-1] - run.time) < 1e-12, "a value per step, to now")
    check(np.array_equal(door["crossed"], np.cumsum(door["forward"] + door["backward"])), "crossed is N(t)")
    c = door["crossings"]
    check(len(c["time"]) == door["crossed"][-1] > 20, "a crossing listed for each counted", door["crossed"][-1])
    net = int(door["forward"].sum() - door["backward"].sum())
    check(len(set(c["id"][c["direction"] > 0])) >= net, "no walker out twice without coming back", net)
    check(np.all(np.diff(c["time"]) >= 0), "crossings in time order")
    figures = {f["name"]: f for f in run.summary()["measurements"]}
    check(figures["door"]["forward"] == int(door["forward"].sum()), "the summary's count", figures["door"])
    check(area["kind"] == "area" and abs(area["area"] - 6) < 1e-9, "a 2 m x 3 m area", area["area"])
    check(np.allclose(area["density"], area["inside"] / 6), "density = inside / area")
    check(np.allclose(area["specific_flow"], area["density"] * area["mean_speed"]), "specific flow = density x speed")
    check(throng.Run("ring").step(2).measurements() == {}, "a scene without measurements has none")
    print(f"measurements: {door['crossed'][-1]} crossings, peak density {area['density'].max():.2f}/m²")


def case_fields():
    import numpy as np
    import throng
    run = throng.Run("continuum-lanes", seed=1)
    check(run.fields() is None, "no field before the first step")
    run.step(8)
    f = run.fields()
    rows, cols = f["density"].shape
    check(rows > 0 and cols > 0, "a density grid", f["density"].shape)
    for k in ("velocity_x", "velocity_y", "potential", "blocked"):
        check(f[k].shape == (rows, cols), f"{k}: (rows, cols)", f[k].shape)
    check(f["speed"].shape == (rows, cols, 4) and f["cost"].shape == (rows, cols, 4), "speed, cost: 4 a cell")
    check(f["density"].sum() > 0 and np.isfinite(f["potential"]).any(), "density and a potential")
    check(f["targets"] >= 2 and run.fields(1)["potential"] is not None, "the second target's potential")
    check(not np.array_equal(f["potential"], run.fields(1)["potential"]), "two targets, two potentials")
    check(throng.Run("door").step(3).fields() is None, "orca with goals builds none")
    print(f"fields: {rows} x {cols} cells, {f['targets']} targets")


def case_pedpy():
    import numpy as np
    import pedpy
    import throng
    run = throng.Run("door", seed=4, record=True)
    run.advance(5)
    out = work("door.txt")
    run.export(out)
    loaded = pedpy.load_trajectory_from_txt(trajectory_file=out)
    direct = run.to_pedpy()
    check(isinstance(direct, pedpy.TrajectoryData), "to_pedpy() is a TrajectoryData")
    check(direct.frame_rate == loaded.frame_rate == 20.0, "the frame rate", direct.frame_rate, loaded.frame_rate)
    a = loaded.data.sort_values(["frame", "id"]).reset_index(drop=True)
    b = direct.data.sort_values(["frame", "id"]).reset_index(drop=True)
    check(len(a) == len(b) and (a["id"].values == b["id"].values).all() and (a["frame"].values == b["frame"].values).all(),
          "the same walkers in the same frames")
    check(np.allclose(a["x"], b["x"], atol=1e-5) and np.allclose(a["y"], b["y"], atol=1e-5), "the same places")
    area = pedpy.MeasurementArea([(2, 2), (8, 2), (8, 8), (2, 8)])
    density = pedpy.compute_classic_density(traj_data=direct, measurement_area=area)
    check(len(density) == run.step_count + 1 and density["density"].max() > 0, "PedPy measures it", density)
    print(f"pedpy: {len(b)} rows; classic density up to {density['density'].max():.2f} /m²")


def case_pedpy_measure():
    """PedPy measures the scene's own lines and areas over its own walkable
    area, with no geometry written by hand, and finds throng's figures."""
    import numpy as np
    import pedpy
    import throng
    run = throng.Run("door", seed=5, record=True)
    run.advance(45)
    traj, walkable, ms = run.to_pedpy(), run.walkable_area(), run.pedpy_measurements()
    mine = run.measurements()
    check(sorted(ms) == ["before the door", "door"], "the scene's measurements", sorted(ms))
    check(isinstance(walkable, pedpy.WalkableArea) and walkable.polygon.wkt.startswith("POLYGON"),
          "a walkable area, as WKT", walkable.polygon.wkt[:80])
    # The room's inside and the open space past the door are walkable; the wall is not.
    import shapely
    check(shapely.contains_xy(walkable.polygon, [5, 11.5, 10.0], [5, 5, 5.0]).all(), "room, outside and the doorway")
    check(not shapely.contains_xy(walkable.polygon, 10.0, 2.0), "the wall beside the door is not")
    # N(t) at the door: PedPy's count (each walker's first crossing) is throng's, frame by frame.
    nt, crossing = pedpy.compute_n_t(traj_data=traj, measurement_line=ms["door"])
    door = mine["door"]
    check(door["backward"].sum() == 0, "nobody came back through the door (PedPy counts a first crossing only)")
    theirs = nt.set_index("frame")["cumulative_pedestrians"]
    frames = np.arange(1, run.step_count + 1)
    ours = door["crossed"]
    theirs = theirs.reindex(frames, method="ffill").fillna(0).to_numpy()
    off = int(np.abs(theirs - ours).max())
    check(off == 0, "PedPy's N(t) is throng's, frame by frame", off, theirs[-1], ours[-1])
    check(ours[-1] > 30, "walkers went through", ours[-1])
    # The classic density over the area before the door: throng's, frame by frame.
    classic = pedpy.compute_classic_density(traj_data=traj, measurement_area=ms["before the door"])
    # (A frame with no walker anywhere has no rows, so PedPy has no density for it: 0.)
    rho = np.nan_to_num(classic.set_index("frame")["density"].reindex(frames).to_numpy())
    check(np.allclose(rho, mine["before the door"]["density"]), "PedPy's classic density is throng's")
    # Voronoi density over the same area: from the walkable area alone.
    voronoi = pedpy.compute_individual_voronoi_polygons(traj_data=traj, walkable_area=walkable)
    vrho, _ = pedpy.compute_voronoi_density(individual_voronoi_data=voronoi, measurement_area=ms["before the door"])
    check(np.isfinite(vrho["density"]).all() and vrho["density"].max() > 1, "PedPy's Voronoi density", vrho.describe())
    print(f"pedpy measures: {ours[-1]} through the door; density up to {rho.max():.2f} (classic), "
          f"{vrho['density'].max():.2f} (Voronoi) per m²")


# ---- campaigns -----------------------------------------------------------------------

SPEC = {
    "name": "test",
    "scenes": ["door", "corridor"],
    "seeds": [1, 2, 3],
    "knobs": {"density": [1.0, 1.5]},
    "seconds": 30,
    "trajectory": "pedpy",
    "retries": 1,
}


def reference_hashes(points):
    """Each point's `throng run`, serially."""
    out = {}
    for p in points:
        flags = ["--seed", p["seed"], "--seconds", SPEC["seconds"]]
        for k, v in p["knobs"].items():
            flags += ["--set", f"{k}={v}"]
        out[p["id"]] = cli_summary(p["scene"], *flags)["hash"]
    return out


def check_manifest(result, refs, out):
    from throng._campaign import read_manifest
    rows = read_manifest(pathlib.Path(out) / "manifest.jsonl")
    ids = [r["point"] for r in rows]
    check(len(rows) == 12 and len(set(ids)) == 12, "12 rows, no duplicates", ids)
    check(len({r["hash"] for r in rows}) == 12, "12 different states (walkers remain in each)", rows)
    for r in rows:
        check(r["status"] == "ok", "every run ok", r)
        check(r["hash"] == refs[r["point"]], f"{r['point']}: the hash of a serial throng run", r["hash"],
              refs[r["point"]])
        s = json.loads((pathlib.Path(out) / r["summary"]).read_text())
        check(s["hash"] == r["hash"] and s["seed"] == r["seed"] and s["knobs"]["density"] == r["knobs"]["density"],
              "the summary file is the row's", s, r)
        check(r["worker"] and r["wall"] > 0 and r["figures"]["gatePassed"] is True, "worker, wall, figures", r)
    leftovers = [p for p in pathlib.Path(out).rglob("*") if ".attempt-" in p.name or p.name.endswith(".partial")]
    check(not leftovers, "no temporary file left", leftovers)
    return rows


def case_campaign():
    import throng
    from throng._campaign import points
    pts = points(throng.load_spec(SPEC))
    check(len(pts) == 12, "2 scenes x 3 seeds x 2 densities", len(pts))
    refs = reference_hashes(pts)
    out = work("campaign")
    seen = []
    r = throng.campaign(SPEC, workers=2, out=out, progress=False, on_row=seen.append)
    print(r.text())
    check(r.ran == 12 and r.skipped == 0 and r.failed == 0 and r.workers == 2, "12 run on 2 workers", r.text())
    rows = check_manifest(r, refs, out)
    check(len({row["worker"] for row in rows}) == 2, "both workers ran points", {row["worker"] for row in rows})
    # PedPy loads every exported trajectory.
    import pedpy
    for row in rows:
        t = pedpy.load_trajectory_from_txt(trajectory_file=pathlib.Path(out) / row["trajectory"])
        check(t.frame_rate == 20.0 and t.data["frame"].max() == row["figures"]["steps"], "pedpy reads it", row)
    print("pedpy loaded all 12 trajectories")
    # Rerun: every point is done, with its hash; nothing runs (not even a cluster).
    r2 = throng.campaign(SPEC, out=out, progress=False)
    check(r2.ran == 0 and r2.skipped == 12 and r2.failed == 0, "a rerun skips all 12", r2.text())
    check(len(check_manifest(r2, refs, out)) == 12, "still 12 rows")
    # A damaged output is run again; a torn manifest line is dropped.
    victim = rows[5]
    (pathlib.Path(out) / victim["trajectory"]).unlink()
    with open(pathlib.Path(out) / "manifest.jsonl", "a") as f:
        f.write('{"point": "torn')
    r3 = throng.campaign(SPEC, out=out, progress=False, serial=True)
    check(r3.ran == 1 and r3.skipped == 11, "only the damaged point runs again", r3.text())
    check_manifest(r3, refs, out)
    # The command line runs the same code: it finds all done.
    spec = work("spec.json")
    spec.write_text(json.dumps({**SPEC, "out": "campaign"}))
    env = {"THRONG_PYTHON": sys.executable}
    p = throng_cli("campaign", spec, "--workers", "2", env=env)
    check(p.returncode == 0 and "12 skipped" in p.stdout, "throng campaign SPEC: all 12 skipped", show(p))
    print(p.stdout.strip())


def case_campaign_kill():
    import throng
    from distributed import Client, LocalCluster
    from throng._campaign import points
    pts = points(throng.load_spec(SPEC))
    refs = reference_hashes(pts)
    out = work("campaign-kill")
    killed = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = client.run(os.getpid)

        def on_row(row):
            if len(killed) == 0 and row["status"] == "ok":
                busy = {w: ts for w, ts in client.processing().items() if ts}
                victim = next(iter(busy)) if busy else next(iter(pids))
                os.kill(pids[victim], signal.SIGKILL)
                killed.append((victim, sorted(busy.get(victim, []))))

        r = throng.campaign(SPEC, client=client, out=out, progress=False, on_row=on_row)
    print(r.text())
    print("killed", killed)
    check(killed and killed[0][1], "a worker was killed while it ran a point", killed)
    check(r.ran == 12 and r.failed == 0, "the campaign still completes", r.text())
    check_manifest(r, refs, out)


def case_campaign_failures():
    import throng
    spec = {"scenes": ["door"], "seeds": [1], "knobs": {"doorWidth": [1.0, 3.0]}, "settings": {"model": ["orca"]},
            "steps": 5, "trajectory": "none", "retries": 1}
    # A point whose combination the scene refuses is a failed row, after its retries.
    scene = work("odd.json")
    scene.write_text(json.dumps({
        "name": "odd", "knobs": {"w": {"min": 0, "max": 10, "default": 1}, "h": {"min": 0, "max": 10, "default": 1}},
        "obstacles": [{"rect": [0, 0, "w", "h"]}], "agents": [{"at": [5, 5]}]}))
    spec2 = {"scenes": [str(scene)], "seeds": [1], "knobs": {"w": [1, 6], "h": [1, 6]}, "steps": 3,
             "trajectory": "none", "retries": 1}
    r = throng.campaign(spec2, out=work("fail"), progress=False, serial=True)
    print(r.text())
    check(r.points == 4 and r.failed == 1 and r.ran == 4, "one of four points fails", r.text())
    bad = [row for row in r.rows if row["status"] == "failed"]
    check(bad[0]["knobs"] == {"w": 6, "h": 6} and bad[0]["error"].startswith("ValueError: ") and
          bad[0]["retries"] == 1, "the failed row has its parameters and the scene's message", bad)
    # On Dask too: the error comes back as a row.
    r = throng.campaign(spec2, out=work("fail-dask"), workers=1, progress=False)
    check(r.failed == 1 and r.ran == 4, "a failed row on Dask", r.text())
    # A rerun retries the failure only.
    r = throng.campaign(spec2, out=work("fail"), progress=False, serial=True)
    check(r.ran == 1 and r.skipped == 3 and r.failed == 1, "the rerun retries only the failure", r.text())
    from throng._campaign import read_manifest
    check(len(read_manifest(work("fail") / "manifest.jsonl")) == 4, "one row a point")
    # A bad spec is refused before anything runs, naming the key.
    for bad_spec, what in [({"scenes": []}, "scenes"), ({"scenes": ["door"], "knobs": {"nope": [1]}}, "nope"),
                           ({"scenes": ["door"], "knobs": {"doorWidth": [99]}}, "out of range"),
                           ({"scenes": ["door"], "steps": 1, "seconds": 1}, "not both"),
                           ({"scenes": ["door"], "trajectory": "xml"}, "trajectory"),
                           ({"scenes": ["no-such"]}, "no-such"), ({"scenes": ["door"], "sedes": [1]}, "sedes")]:
        e = raises(ValueError, throng.campaign, bad_spec, out=work("never"), progress=False)
        check(what in str(e) and "\n" not in str(e), f"a bad spec: {what}", e)
    r = throng.campaign(spec, out=work("ok"), progress=False, serial=True)
    check(r.ran == 2 and r.failed == 0 and all(row["trajectory"] is None for row in r.rows), "trajectory none")
    print("failures are rows; bad specs are refused")


def case_slurm():
    import throng
    # The scheduler listens on loopback only here (on a cluster: the node's address, the default).
    spec = {"scenes": ["door"], "cluster": {"kind": "slurm", "cores": 4, "memory": "8GB", "walltime": "01:30:00",
                                            "scheduler_options": {"host": "127.0.0.1", "dashboard_address": None},
                                            "queue": "compute", "account": "crowds",
                                            "job_extra_directives": ["--exclusive"],
                                            "job_script_prologue": ["module load python/3.11"]}}
    s = throng.job_script(spec)
    print(s)
    for want in [r"^#!/usr/bin/env bash", r"^#SBATCH -J dask-worker", r"^#SBATCH -p compute$", r"^#SBATCH -A crowds$",
                 r"^#SBATCH -n 1$", r"^#SBATCH --cpus-per-task=4$", r"^#SBATCH --mem=\d+G$", r"^#SBATCH -t 01:30:00$",
                 r"^#SBATCH --exclusive$", r"^module load python/3.11$",
                 re.escape(sys.executable) + r" -m distributed\.cli\.dask_worker tcp://\S+ ",
                 r" --nthreads 1 ", r" --nworkers 4 ", r" --memory-limit \S+"]:
        check(re.search(want, s, re.M), f"the Slurm script has {want!r}", s)
    mem = int(re.search(r"--mem=(\d+)G", s).group(1))
    check(7 <= mem <= 8, "8 GB of memory", mem)
    pbs = throng.job_script({**spec, "cluster": {**spec["cluster"], "kind": "pbs", "account": None,
                                                  "job_extra_directives": []}})
    for want in [r"^#PBS -q compute$", r"^#PBS -l select=1:ncpus=4:mem=\S+$", r"^#PBS -l walltime=01:30:00$",
                 r"-m distributed\.cli\.dask_worker tcp://", r"--nworkers 4"]:
        check(re.search(want, pbs, re.M), f"the PBS script has {want!r}", pbs)
    # The same cluster from a campaign's JSON.
    f = work("hpc.json")
    f.write_text(json.dumps(spec))
    check("--cpus-per-task=4" in throng.job_script(f), "from a JSON file")


def case_hostile():
    # Names are names, paths are paths: a scene named "../../x" stays in the
    # campaign's folder, under the one name function the C++ side uses.
    import resource
    import throng
    from throng._campaign import SpecError, count_points
    from throng._files import output_file, path_component
    for name in ["../../x", "../../../../tmp/pwned_by_name", "/abs", "..", ".", "", "a\nb", "x" * 300]:
        c = path_component(name)
        check(c and "/" not in c and not c.startswith(".") and len(c) <= 80 and c.isprintable(), f"{name!r} -> {c!r}")
    check(path_component("door") == "door" and path_component("a/b") != path_component("a_b"), "kept, and no collision")
    root = work("hostile")
    outside = work("outside")
    for evil in ["../../x", f"../../../../{outside}/pwned_by_name"]:
        scene = work("evil.json")
        scene.write_text(json.dumps({"name": evil, "agents": [{"at": [0, 0], "goal": [3, 0]}]}))
        r = throng.campaign({"scenes": [str(scene)], "steps": 5, "trajectory": "csv"}, out=root / "out",
                            serial=True, progress=False)
        check(r.ran == 1 and r.failed == 0, "the evil scene runs", r.text())
        row = r.rows[0]
        check(row["scene"] == evil, "the row keeps the scene's real name", row)
        for key in ("summary", "trajectory"):
            f = (root / "out" / row[key]).resolve()
            check(f.is_file() and f.is_relative_to((root / "out").resolve()), f"the {key} stays in the folder", f)
    # (Inside the folder, the names keep "pwned" when the work path is short enough.)
    escaped = [p for p in work(".").parent.rglob("*")
               if ("pwned" in p.name or p.name == "x") and not p.resolve().is_relative_to(root.resolve())]
    check(not escaped and not outside.exists(), "nothing written outside the campaign's folder", escaped)
    # A link planted in the campaign's folder is never followed: the run's folder, the manifest.
    victim = work("victim.txt")
    victim.write_text("secret\n")
    out2 = root / "links"
    (out2 / "runs").mkdir(parents=True)
    (out2 / "runs" / "door").symlink_to(outside.parent)  # runs/SCENE -> elsewhere
    (out2 / "manifest.jsonl").symlink_to(victim)
    r = throng.campaign({"scenes": ["door"], "steps": 5, "trajectory": "none"}, out=out2, serial=True,
                        progress=False)
    check(r.failed == 1 and "leads out of the campaign's folder" in r.rows[0]["error"], "runs/door as a link: refused",
          r.text())
    check(victim.read_text() == "secret\n" and not (out2 / "manifest.jsonl").is_symlink(),
          "the manifest replaced the link, not its target")
    # One helper writes whole or not at all.
    target = work("whole.txt")
    try:
        with output_file(target) as f:
            f.write("half")
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    check(not target.exists() and not list(work(".").glob("whole.txt.*.partial")), "an interrupted write leaves nothing")

    # A spec is counted from its shape before anything is expanded: 10^9 seeds are
    # refused in well under a second, in flat memory.
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    huge = {"scenes": ["door"], "seeds": {"start": 0, "count": 10**9}, "knobs": {"density": [0.5, 1, 1.5]}}
    e = raises(SpecError, throng.campaign, huge, out=work("never"), progress=False)
    took = time.perf_counter() - t0
    grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print(f"10^9-point spec refused in {took * 1000:.1f} ms, resident memory grew {grew:.1f} MB: {e}")
    check("3000000000 points" in str(e) and "limit of 100000" in str(e), "the refusal gives the count", e)
    check(took < 1.0 and grew < 20, "in under a second, flat memory", took, grew)
    check(not work("never").exists(), "nothing made")
    check(count_points({"scenes": ["door", "corridor"], "seeds": {"count": 7}, "knobs": {"density": [1, 1.5]}}) == 28,
          "counted from the shape")
    for bad, what in [({"scenes": ["door"], "seeds": {"count": -5}}, "\"count\": expected a whole number >= 1"),
                      ({"scenes": ["door"], "seeds": {"start": 1.5, "count": 2}}, "\"start\""),
                      ({"scenes": ["door"], "seeds": {"count": 2, "step": 2}}, "unknown key \"step\""),
                      ({"scenes": ["door"], "knobs": {"density": []}}, "\"density\" has no values"),
                      ({"scenes": ["door"], "knobs": {"density": [1, 1]}}, "repeats a value"),
                      ({"scenes": ["door"], "knobs": {"density": [None]}}, "expects a number or a name"),
                      ({"scenes": ["door"], "knobs": [1]}, "\"knobs\": expected an object"),
                      ({"scenes": ["door"], "steps": "10"}, "\"steps\": expected a whole number"),
                      ({"scenes": ["door"], "threads": 0}, "\"threads\""),
                      ({"scenes": ["door"], "retries": -1}, "\"retries\""),
                      ({"scenes": ["door"], "dt": 0}, "\"dt\""),
                      ({"scenes": ["door"], "out": 3}, "\"out\": expected a string"),
                      ({"scenes": ["door"], "cluster": "slurm"}, "\"cluster\": expected an object"),
                      ({"scenes": "door"}, "\"scenes\": expected a list"),
                      ({"scenes": ["door"], "seeds": [1, 1]}, "a seed is given twice"),
                      ({"scenes": ["door"], "colour": 1}, "unknown key \"colour\"")]:
        e = raises(SpecError, count_points, bad)
        check(what in str(e) and "\n" not in str(e), f"refused: {what}", e)


def case_tls():
    # A campaign over TLS: a LocalCluster whose scheduler and workers need
    # certificates, reached by address with a Security (throng.campaign's
    # security=), gives the same rows as a serial run; the command line
    # refuses tls:// without certificates and certificates without tls://.
    import throng
    from distributed import LocalCluster
    from distributed.security import Security
    sec = Security.temporary()
    spec = {"scenes": ["headon"], "seeds": [1, 2], "steps": 20, "trajectory": "none"}
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      security=sec) as cluster:
        check(cluster.scheduler_address.startswith("tls://"), "the scheduler speaks TLS", cluster.scheduler_address)
        r = throng.campaign(spec, client=cluster.scheduler_address, security=sec, out=work("tls"), progress=False)
    ref = throng.campaign(spec, out=work("serial"), serial=True, progress=False)
    check(r.ran == 2 and r.failed == 0, "two runs over TLS", r.text())
    check([row["hash"] for row in r.rows] == [row["hash"] for row in ref.rows], "the hashes of serial runs")
    f = work("t.json")
    f.write_text(json.dumps(spec))
    for args, msg in [(("--scheduler", "tls://127.0.0.1:1"), r"give --tls-ca-file and --tls-cert"),
                      (("--tls-cert", "x.pem"), r"are for a --scheduler tls://")]:
        p = throng_cli("campaign", f, *args, env={"THRONG_PYTHON": sys.executable})
        check(p.returncode == 2 and p.stderr.count("\n") == 1 and re.search(msg, p.stderr), f"refused: {msg}", show(p))
    p = throng_cli("campaign", "--help")
    check("runs whatever any client" in p.stdout and "--tls-ca-file" in p.stdout, "--help says it plainly", show(p))


def case_jupedsim():
    # throng check reads a real JuPedSim run (PyPI's jupedsim, its collision-
    # free speed model) from the SQLite file JuPedSim itself wrote, and
    # passes it: apart, consistently time-stamped, no teleport.
    import itertools
    import jupedsim as jps
    import shapely
    out = work("jupedsim.sqlite")
    if out.exists():
        out.unlink()
    sim = jps.Simulation(model=jps.CollisionFreeSpeedModel(), geometry=shapely.box(0, 0, 12, 3),
                         trajectory_writer=jps.SqliteTrajectoryWriter(output_file=out, every_nth_frame=5))
    exit_id = sim.add_exit_stage([(11, 0.5), (11.9, 0.5), (11.9, 2.5), (11, 2.5)])
    journey = sim.add_journey(jps.JourneyDescription([exit_id]))
    for x, y in itertools.product([0.5, 1.2, 1.9, 2.6], [0.6, 1.5, 2.4]):
        sim.add_agent(jps.CollisionFreeSpeedModelAgentParameters(journey_id=journey, stage_id=exit_id, position=(x, y),
                                                                 radius=0.2))
    while sim.agent_count() > 0 and sim.iteration_count() < 5000:
        sim.iterate()
    del sim  # closes the writer
    p = throng_cli("check", out, "--radius", "0.2")
    print(p.stdout)
    check(p.returncode == 0 and p.stdout.rstrip().endswith("PASSED"), "throng check passes JuPedSim's run", show(p))
    check(re.search(r"frames     jupedsim, frames 0 to \d+ at 20 fps, 12 walkers", p.stdout), "its frames", show(p))
    m = re.search(r"speed      max ([\d.]+) m/s", p.stdout)
    check(m and 0.8 < float(m.group(1)) < 2.0, "walking speeds", show(p))
    # PedPy reads the same file to the same frames.
    import pedpy
    t = pedpy.load_trajectory_from_jupedsim_sqlite(trajectory_file=out)
    frames = re.search(r"frames 0 to (\d+)", p.stdout).group(1)
    check(t.data["frame"].max() == int(frames) and t.frame_rate == 20, "PedPy reads the same frames", t.data)


def case_jupedsim_export():
    # `throng run --format jupedsim` writes JuPedSim's own SQLite: JuPedSim's
    # Recording and PedPy's loaders open it with the same frames, ids and
    # places as the CSV export, and the walkable area the scene names (its
    # "geometry") rides along; throng check reads it back.
    import numpy as np
    import jupedsim as jps
    import pedpy
    import shapely
    import throng
    plan = work("plan")
    plan.mkdir(parents=True, exist_ok=True)
    (plan / "room.wkt").write_text("POLYGON ((0 0, 10 0, 10 4, 12 4, 12 6, 10 6, 10 10, 0 10, 0 0), "
                                   "(4 4, 6 4, 6 6, 4 6, 4 4))\n")
    scene = plan / "room.json"
    scene.write_text(json.dumps({
        "name": "room", "duration": 8, "agentDefaults": {"radius": 0.2},
        "geometry": {"file": "room.wkt"},
        "generators": [{"type": "fill", "region": [0, 0, 12, 10], "density": 0.5, "goalRegion": [11, 4.5, 0.8, 1]}],
        "sinks": [{"region": [11, 4, 1, 2]}]}))
    sql, csv = work("room.sqlite"), work("room.csv")
    for out, fmt in ((sql, "jupedsim"), (csv, "csv")):
        p = throng_cli("run", scene, "--quiet", "--export", out, "--format", fmt)
        check(p.returncode == 0 and out.exists(), f"throng run --format {fmt}", show(p))
    check(not list(sql.parent.glob("*.partial")), "no partial left")
    rows = np.genfromtxt(csv, delimiter=",", names=True)
    rec = jps.Recording(str(sql))
    check(rec.num_frames == int(rows["step"].max()) + 1 and rec.fps == 60, "JuPedSim: every frame at the step's rate",
          rec.num_frames, rec.fps)
    last = int(rows["step"].max())
    mine = rows[rows["step"] == last]
    theirs = rec.frame(last).agents
    check(sorted(a.id for a in theirs) == sorted(int(i) for i in mine["id"]), "JuPedSim: the same walkers")
    where = {int(r["id"]): (r["x"], r["y"]) for r in mine}
    check(all(np.allclose(a.position, where[a.id], atol=1e-6) for a in theirs), "JuPedSim: the same places")
    area = shapely.from_wkt(rec.geometry().wkt) if hasattr(rec.geometry(), "wkt") else rec.geometry()
    check(abs(shapely.area(area) - 100) < 1e-6, "JuPedSim: the walkable area, the hole cut out", shapely.area(area))
    t = pedpy.load_trajectory_from_jupedsim_sqlite(trajectory_file=sql)
    w = pedpy.load_walkable_area_from_jupedsim_sqlite(trajectory_file=sql)
    check(len(t.data) == len(rows) and t.frame_rate == 60, "PedPy: every row at the step's rate", len(t.data), len(rows))
    check(abs(w.polygon.area - 100) < 1e-6, "PedPy: the walkable area", w.polygon.wkt)
    # The Python API: the scene's area as it was given, and with the trajectory.
    run = throng.Run(str(scene), record=True)
    run.step(30)
    traj, walkable = run.to_pedpy(with_area=True)
    check(isinstance(traj, pedpy.TrajectoryData) and walkable.polygon.equals(w.polygon), "to_pedpy(with_area=True)")
    # JuPedSim's rows say nothing of jams, so the jammed walkers' few
    # millimetres of overlap need the slack (1% of r_A + r_B).
    p = throng_cli("check", sql, "--scene", scene, "--tolerance", "0.01")
    check(p.returncode == 0 and p.stdout.rstrip().endswith("PASSED") and "frames 0 to 480 at 60 fps" in p.stdout,
          "throng check reads it back", show(p))
    # To a pipe: refused in one line, nothing written.
    p = throng_cli("run", scene, "--quiet", "--steps", "3", "--export", "/dev/null", "--format", "jupedsim")
    check(p.returncode == 1 and p.stderr.count("\n") == 1 and "a pipe or device cannot hold one" in p.stderr,
          "jupedsim to a device", show(p))
    # A truncated SQLite file: one line from throng check.
    cut = work("cut.sqlite")
    cut.write_bytes(sql.read_bytes()[:3000])
    p = throng_cli("check", cut)
    check(p.returncode != 0 and p.stderr.count("\n") == 1 and "cut.sqlite" in p.stderr, "a truncated file", show(p))
    print(f"jupedsim export: {rec.num_frames} frames, {len(rows)} rows; pedpy area {w.polygon.area:.0f} m²")


def case_cli():
    # `throng campaign`: the command line's parsing, then Python.
    p = throng_cli("campaign", "--help")
    check(p.returncode == 0 and "usage: throng campaign SPEC.json" in p.stdout and "--scheduler" in p.stdout and
          "--workers" in p.stdout, "--help", show(p))
    for args, msg in [((), r"SPEC is required"), (("s.json", "--workers", "0"), r"--workers: expects a whole number"),
                      (("s.json", "--scheduler", "tcp://x:1", "--workers", "2"), r"--workers is for the LocalCluster"),
                      (("s.json", "--bogus"), r"unknown option '--bogus'")]:
        p = throng_cli("campaign", *args)
        check(p.returncode == 2 and p.stderr.count("\n") == 1 and re.search(msg, p.stderr), f"usage: {msg}", show(p))
    spec = work("tiny.json")
    spec.write_text(json.dumps({"scenes": ["headon"], "seeds": [1, 2], "steps": 20, "out": "tiny",
                                "trajectory": "csv"}))
    # No Python.
    p = throng_cli("campaign", spec, env={"THRONG_PYTHON": str(work("no-python"))})
    check(p.returncode == 1 and "no Python" in p.stderr and p.stderr.count("\n") == 1, "no Python: said plainly",
          show(p))
    # A Python without dask (a stand-in dask that fails to import).
    fake = work("nodask")
    (fake / "dask").mkdir(parents=True)
    (fake / "dask" / "__init__.py").write_text("raise ImportError(\"No module named 'dask'\")\n")
    env = {"THRONG_PYTHON": sys.executable, "PYTHONPATH": f"{fake}:{os.environ.get('PYTHONPATH', '')}"}
    p = throng_cli("campaign", spec, env=env)
    check(p.returncode == 1 and "dask is not installed" in p.stderr, "no dask: said plainly", show(p))
    # A Python without the package: a copy of the command away from the build
    # tree (whose python/ it would otherwise put on PYTHONPATH).
    lone = work("bin") / "throng"
    lone.parent.mkdir()
    shutil.copy(ARGS.throng, lone)
    env = dict(os.environ, THRONG_PYTHON=sys.executable)
    env.pop("PYTHONPATH", None)
    p = subprocess.run([lone, "campaign", spec], capture_output=True, text=True, env=env, timeout=60)
    check(p.returncode == 1 and "the throng Python package is not importable" in p.stderr and
          p.stderr.count("\n") == 1, "no package: said plainly", show(p))
    # A bad spec: one line.
    bad = work("bad-spec.json")
    bad.write_text('{"scenes": ["door"], "seeds": "many"}')
    p = throng_cli("campaign", bad, env={"THRONG_PYTHON": sys.executable})
    check(p.returncode == 1 and "\"seeds\"" in p.stderr and p.stderr.count("\n") == 1, "a bad spec", show(p))
    # A real one, on a LocalCluster of one worker.
    p = throng_cli("campaign", spec, "--workers", "1", "--quiet", env={"THRONG_PYTHON": sys.executable})
    check(p.returncode == 0 and "2 points: 2 run" in p.stdout, "throng campaign runs it", show(p))
    rows = [json.loads(l) for l in (work("tiny") / "manifest.jsonl").read_text().splitlines()]
    check(len(rows) == 2 and all(r["trajectory"].endswith(".csv") for r in rows), "two rows, csv", rows)
    print(p.stdout.strip())


# ---- floor plans from DXF (throng import, throng.import_dxf) ----------------------

def office_plan():
    return pathlib.Path(ARGS.source) / "assets" / "plans" / "office.dxf"


OFFICE_LAYERS = {"walls": ["WALLS"], "obstacles": ["FURNITURE"], "exits": ["EXITS"]}


def office_import(out, *extra, env=None):
    """`throng import` of the shipped office plan to `out`: the process."""
    return throng_cli("import", office_plan(), "--walls", "WALLS", "--obstacles", "FURNITURE", "--exits", "EXITS",
                      "--out", out, *extra, env=env)


def small_plan(path, insunits, scale):
    """A 10 m x 5 m room drawn in other units: its outline open at x = 10,
    y 2 to 3, and a closed 1 m exit across the gap."""
    import ezdxf
    doc = ezdxf.new("R2000")
    doc.header["$INSUNITS"] = insunits
    m = doc.modelspace()
    m.add_lwpolyline([(10 * scale, 3 * scale), (10 * scale, 5 * scale), (0, 5 * scale), (0, 0), (10 * scale, 0),
                      (10 * scale, 2 * scale)], dxfattribs={"layer": "W"})
    m.add_lwpolyline([(10 * scale, 2 * scale), (11 * scale, 2 * scale), (11 * scale, 3 * scale),
                      (10 * scale, 3 * scale)], close=True, dxfattribs={"layer": "X"})
    doc.saveas(path)


def case_import():
    # The shipped plan (scripts/make_office_plan.py draws it) through the
    # API and the command: the floor, its holes and inner walls, the exits,
    # and every kind of entity it is drawn with.
    import shapely
    import throng
    scene = throng.import_dxf(office_plan(), **OFFICE_LAYERS)
    check(scene["name"] == "office" and scene["units"] == "m" and scene["model"] == "orca", "name, units, model",
          scene)
    check(scene["routing"] == "field", "walkers route by field (rooms behind doors)", scene.get("routing"))
    floor = shapely.from_wkt(scene["geometry"]["wkt"])
    check(floor.geom_type == "Polygon" and floor.is_valid, "the floor is one valid polygon", scene["geometry"])
    # 24 m x 14 m, the bay's segment (6 m chord, 1 m sagitta: 25 acos(0.8) - 12 m²), the two 2 m² exits, less
    # the table (0.6 m radius) and two 1.6 m x 0.8 m desks; flattening takes a little off the curves.
    expected = 24 * 14 + (25 * math.acos(0.8) - 12) + 4 - math.pi * 0.36 - 2 * 1.28
    check(abs(floor.area - expected) < 0.3, "the floor's area", floor.area, expected)
    check(floor.bounds == (-1, -1, 25, 14), "its bounds: the exits, the bay; no dimension or text", floor.bounds)
    # The bay (an LWPOLYLINE bulge) within 5 cm of its arc: centre (5, 4), radius 5.
    bay = [(x, y) for x, y in floor.exterior.coords if y < 0]
    check(len(bay) >= 4 and all(4.95 - 1e-3 <= math.dist((x, y), (5, 4)) <= 5 + 1e-3 for x, y in bay),
          "the bay flattened to within 5 cm", bay)
    holes = sorted((shapely.Polygon(h) for h in floor.interiors), key=lambda h: h.bounds)
    check(len(holes) == 3, "three holes: the table and the two desks", [h.bounds for h in holes])
    table = holes[0]
    check(all(0.6 - 0.05 - 1e-3 <= math.dist(c, (4, 11)) <= 0.6 + 1e-3 for c in table.exterior.coords),
          "the table (a CIRCLE) within 5 cm of its circle", table)
    # The desks: block DESK inside block DESKS, drawn on layer 0, placed on FURNITURE.
    check([tuple(round(v, 3) for v in h.bounds) for h in holes[1:]] == [(19, 1.5, 20.6, 2.3), (19, 3.5, 20.6, 4.3)],
          "the desks of the nested block", [h.bounds for h in holes[1:]])
    walls = [shapely.LineString(w) for w in scene["walls"]]
    check(all(floor.buffer(1e-6).contains(w) and not floor.exterior.buffer(1e-6).contains(w) for w in walls),
          "every wall is inside the floor, none on its outline", scene["walls"])
    # The corridor's south wall (two INSERTs of block PARTITION) with its doors, and the LINEs of the north one.
    south = shapely.union_all([w for w in walls if w.bounds[1] == w.bounds[3] == 6])
    north = shapely.union_all([w for w in walls if w.bounds[1] == w.bounds[3] == 8])
    check(abs(south.length - 22) < 1e-6 and abs(north.length - 21) < 1e-6, "the corridor's walls less their doors",
          south.length, north.length)
    boxes = [[-1, 6, 1, 2], [24, 6, 1, 2]]
    check(scene["targets"] == [{"name": "exits", "regions": boxes}], "one target, the two exits' boxes",
          scene["targets"])
    check(scene["sinks"] == [{"region": b} for b in boxes], "a sink per exit", scene["sinks"])
    check(scene["measurements"] == [{"name": "exit 1", "line": [[0, 8], [0, 6]]},
                                    {"name": "exit 2", "line": [[24, 6], [24, 8]]}],
          "a line where each exit meets the floor, forward out", scene.get("measurements"))
    check(scene["generators"] == [{"type": "fill", "region": [-1, -1, 26, 15], "density": {"knob": "density"}}],
          "a fill of the floor's box at the density knob", scene["generators"])
    check(scene["knobs"]["density"]["default"] == 1 and scene["knobs"]["density"]["max"] == 3, "the density knob",
          scene["knobs"])
    # Layer names as DXF takes them, without regard to case; one name as a string.
    again = throng.import_dxf(office_plan(), walls="walls", obstacles=["Furniture"], exits=["exits"], density=0.9)
    check(again["geometry"] == scene["geometry"] and again["knobs"]["density"]["default"] == 0.9,
          "case does not matter; density sets the knob's default", again["knobs"])
    # The command writes the same scene; text and dimensions named as walls are left out and said.
    out = work("office.json")
    p = office_import(out)
    check(p.returncode == 0 and "wrote" in p.stdout and "2 exits" in p.stdout, "throng import", show(p))
    check(json.loads(out.read_text()) == scene, "the command's scene is the API's")
    p = throng_cli("import", office_plan(), "--walls", "WALLS", "TEXT", "--walls", "DIMENSIONS", "--obstacles",
                   "FURNITURE", "--exits", "EXITS", "--out", work("labelled.json"))
    check(p.returncode == 0 and "left out: 1 DIMENSION on DIMENSIONS, 6 TEXT on TEXT" in p.stdout,
          "text and dimensions are left out, and said", show(p))
    check(json.loads(work("labelled.json").read_text())["geometry"] == scene["geometry"], "the same floor")
    # Units: $INSUNITS (mm here) wins; a drawing that says none takes --units.
    small_plan(work("mm.dxf"), 4, 1000)
    small_plan(work("cm.dxf"), 0, 100)
    for plan, extra in (("mm.dxf", ["--units", "cm"]), ("cm.dxf", ["--units", "cm"])):
        p = throng_cli("import", work(plan), "--walls", "W", "--exits", "X", "--out", work(plan + ".json"), *extra)
        check(p.returncode == 0, f"{plan} imports", show(p))
        g = shapely.from_wkt(json.loads(work(plan + ".json").read_text())["geometry"]["wkt"])
        check(g.bounds == (0, 0, 11, 5), f"{plan}: in metres", g.bounds)


def case_import_errors():
    # What a plan that makes no scene gets: one line, exit 1, and no file
    # written (an old one left as it was).
    out = work("office.json")
    out.write_text("old")

    def refused(p, pattern, what):
        check(p.returncode == 1 and p.stderr.count("\n") == 1 and p.stderr.startswith("throng import") and
              re.search(pattern, p.stderr), what, show(p))
        check(out.read_text() == "old" and not list(pathlib.Path(ARGS.work).glob("*.partial")),
              f"{what}: nothing written", list(pathlib.Path(ARGS.work).iterdir()))

    p = throng_cli("import", office_plan(), "--walls", "WALL", "--exits", "EXITS", "--out", out)
    refused(p, r"no layer 'WALL' \(the file has: 0, Defpoints, DIMENSIONS, EXITS, FURNITURE, TEXT, WALLS\)",
            "a layer the file lacks, with the ones it has")
    data = office_plan().read_bytes()
    work("truncated.dxf").write_bytes(data[:len(data) // 2])
    refused(throng_cli("import", work("truncated.dxf"), "--walls", "WALLS", "--out", out),
            r"truncated\.dxf: not a whole DXF file, truncated or damaged", "a truncated DXF")
    work("scene.dxf").write_text('{"name": "not a plan"}\n')
    refused(throng_cli("import", work("scene.dxf"), "--walls", "WALLS", "--out", out), r"scene\.dxf: not a DXF file",
            "a file that is no DXF")
    refused(throng_cli("import", work("missing.dxf"), "--walls", "WALLS", "--out", out), r"missing\.dxf: no such file",
            "a plan that is not there")
    refused(throng_cli("import", office_plan(), "--walls", "WALLS", "--out", out),
            r"the walls on layers WALLS enclose no area; close the outline or draw the exits across its gaps",
            "an outline open at the exits, without them")
    refused(throng_cli("import", office_plan(), "--walls", "WALLS", "--exits", "TEXT", "--out", out),
            r"no closed shape on the exit layers TEXT", "an exit layer with no closed shape")
    # A Python without ezdxf (a stand-in that fails to import).
    fake = work("noezdxf")
    (fake / "ezdxf").mkdir(parents=True)
    (fake / "ezdxf" / "__init__.py").write_text("raise ImportError(\"No module named 'ezdxf'\")\n")
    refused(office_import(out, env={"PYTHONPATH": f"{fake}:{os.environ.get('PYTHONPATH', '')}"}),
            r"needs ezdxf: pip install ezdxf", "no ezdxf: said plainly")
    # The command line's own refusals: exit 2, one line.
    for args, msg in [((), r"PLAN is required"), (("p.dxf", "--out", "s.json"), r"--walls is required"),
                      (("p.dxf", "--walls", "W"), r"--out is required"),
                      (("p.dxf", "--walls", "W", "--out", "s.json", "--density", "0"), r"--density: expects"),
                      (("p.dxf", "--walls", "W", "--out", "s.json", "--units", "ft"), r"--units")]:
        p = throng_cli("import", *args)
        check(p.returncode == 2 and p.stderr.count("\n") == 1 and re.search(msg, p.stderr), f"usage: {msg}", show(p))
    p = throng_cli("import", "--help")
    check(p.returncode == 0 and p.stdout.startswith("usage: throng import PLAN.dxf --walls LAYER...") and
          "--exits LAYER..." in p.stdout, "--help", show(p))


def case_import_run():
    # End to end: the imported office runs, its walkers start on the floor,
    # and every one of them leaves through the exits, at the default density
    # and the knob's highest, by the command and by the API.
    import shapely
    import throng
    out = work("office.json")
    p = office_import(out)
    check(p.returncode == 0, "throng import", show(p))
    scene = json.loads(out.read_text())
    floor = shapely.from_wkt(scene["geometry"]["wkt"])
    sinks = [shapely.box(x, y, x + w, y + h) for x, y, w, h in (k["region"] for k in scene["sinks"])]
    for density in (1, 3):
        # Where the walkers start: the first frame of a one-step export.
        start = work(f"start-{density}.txt")
        cli_summary(out, "--set", f"density={density}", "--steps", "1", export=start)
        first = [shapely.Point(float(x), float(y)) for i, frame, x, y, _ in
                 (line.split() for line in start.read_text().splitlines() if not line.startswith("#")) if frame == "0"]
        check(len(first) > 0.8 * floor.area * density and all(floor.contains(q) for q in first),
              f"density {density}: the walkers fill the floor, and only the floor", len(first), floor.area)
        s = cli_summary(out, "--set", f"density={density}")
        print(f"density {density}: {s['agents']} walkers, {s['arrived']} out by {s['allArrivedTime']} s, "
              + ", ".join(f"{m['name']} {m['forward']}" for m in s["measurements"]))
        check(s["agents"] == len(first) and s["arrived"] == s["agents"] and s["allArrivedTime"] is not None,
              f"density {density}: everyone out", s)
        check(s["gatePassed"] and s["unjammedOverlaps"] == 0, f"density {density}: the gate passes", s)
        # Those placed inside an exit's sink leave at once; every other
        # walker crosses an exit's line on the way out.
        inside = sum(any(k.contains(q) for k in sinks) for q in first)
        crossed = sum(m["forward"] - m["backward"] for m in s["measurements"])
        check(crossed == s["agents"] - inside, "the exits' lines count the walkers out", crossed, s["agents"], inside)
    run = throng.Run(throng.Scene.parse(json.dumps(throng.import_dxf(office_plan(), **OFFICE_LAYERS))))
    run.until_done()
    check(run.count == 0 and run.arrived == run.agents_ever, "the API's scene runs everyone out", run.summary())


def case_verify_report():
    # `throng verify --report DIR`: report.md with the table and its figures,
    # results.json with every value, the PNGs drawn by matplotlib (this venv).
    out = work("report")
    p = throng_cli("verify", "rimea-1", "rimea-2", "--models", "orca", "--report", out, timeout=600)
    check(p.returncode == 0 and "report: " in p.stdout, "verify --report runs and says where", show(p))
    md = (out / "report.md").read_text()
    for row in ("| rimea-1 | orca | end.lastTime |", "| rimea-2 | orca | flight.meanSpeed |"):
        check(row in md, f"report.md has the row {row}", md)
    results = json.loads((out / "results.json").read_text())
    check([r["verdict"] for r in results["rows"]] == ["pass", "pass"], "results.json: each check's verdict", results)
    check(30 < results["rows"][0]["values"][0] < 31, "results.json: RiMEA 1's time", results["rows"][0])
    check(len(results["flowWidth"]["orca"]) == 7, "the door at seven widths", results["flowWidth"])
    # The fundamental diagram: the ring corridor at six densities, ORCA
    # within 15% of Weidmann's at 2 per m² (docs/walking.md), and slower as
    # the crowd packs.
    fd = results["fundamentalDiagram"]["orca"]
    check(len(fd) == 6 and all(abs(p["density"] - d) < 0.05 for p, d in zip(fd, (0.5, 1, 2, 3, 4, 5))),
          "the ring at six densities", fd)
    check(abs(fd[2]["speed"] / fd[2]["weidmann"] - 1) <= 0.15, "ORCA at 2 per m² walks Weidmann's speed", fd[2])
    check(all(a["speed"] > b["speed"] for a, b in zip(fd, fd[1:])), "slower as it packs", fd)
    check("## The fundamental diagram" in md and "| 2.00 | 0.61 |" in md, "report.md tabulates it", md)
    for image in ("rimea-1.png", "rimea-1-curves.png", "rimea-2.png", "flow-width.png", "fundamental-diagram.png"):
        check(f"(img/{image})" in md, f"report.md links {image}", md)
        data = (out / "img" / image).read_bytes()
        check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{image} is a PNG", data[:16])
        import matplotlib.image
        pixels = matplotlib.image.imread(out / "img" / image)
        check(pixels.shape[0] >= 300 and pixels.shape[1] >= 400 and pixels[..., :3].std() > 0.05,
              f"{image} has a figure in it", pixels.shape)
    check(not list((out / "img").glob("*.partial")), "no half-written image left", list((out / "img").iterdir()))
    # A Python without matplotlib: the table and results still, the figures said missing.
    fake = work("nompl")
    (fake / "matplotlib").mkdir(parents=True)
    (fake / "matplotlib" / "__init__.py").write_text("raise ImportError(\"No module named 'matplotlib'\")\n")
    bare = work("bare")
    p = throng_cli("verify", "rimea-1", "--models", "orca", "--report", bare,
                   env={"PYTHONPATH": f"{fake}:{os.environ.get('PYTHONPATH', '')}"})
    check(p.returncode == 0 and "no figures" in p.stderr and "matplotlib" in p.stderr, "no matplotlib: said plainly",
          show(p))
    md = (bare / "report.md").read_text()
    check("| rimea-1 | orca | end.lastTime |" in md and "No figures" in md and "img/" not in md,
          "no matplotlib: report.md without figures", md)
    # A report folder that cannot be made: one line, exit 1, nothing half-written.
    (work("taken")).write_text("a file")
    p = throng_cli("verify", "rimea-1", "--models", "orca", "--report", work("taken") / "sub")
    check(p.returncode == 1 and "cannot make" in p.stderr and p.stderr.count("\n") == 1, "an unwritable report", show(p))


def case_verify_dask():
    # `throng verify --workers 2`: the runs go to Dask first (one campaign),
    # and the table is the one the in-process runs print, seed by seed: RiMEA
    # 5's ten set-out times, RiMEA 15's ratios to two other scenes, IMO 4's
    # 95th percentile over three seeds.
    tests = ("rimea-5", "rimea-15", "imo-4", "--models", "orca,continuum", "--seeds", "3")
    here = throng_cli("verify", *tests, timeout=600)
    tmp = work("tmp")
    tmp.mkdir()
    dask = throng_cli("verify", *tests, "--workers", "2", timeout=600, env={"TMPDIR": str(tmp)})
    check(here.returncode == dask.returncode == 1, "both fail IMO 4's cap under ORCA, as documented", show(here), show(dask))
    check(dask.stdout == here.stdout, "the same table from Dask as from the runs here", here.stdout, dask.stdout)
    check(re.search(r"throng campaign: 30 points: 30 run, 0 skipped \(done before\), 0 failed", dask.stderr),
          "every run went to Dask: 5 scenes x 2 models x 3 seeds", show(dask))
    check("throng verify: 30 runs on Dask, 0 here" in dask.stderr, "and the table is made of them", show(dask))
    check(re.search(r"^rimea-5 +RiMEA 5 +orca +setOutLagMax +0\.\d+ \(0\.\d+ to 0\.\d+\) +<= 0\.1 +pass$",
                    dask.stdout, re.M), "RiMEA 5 over three seeds", dask.stdout)
    check(not list(tmp.glob("throng-verify-*")), "the campaign's folder is removed", list(tmp.iterdir()))
    bad = throng_cli("verify", "rimea-1", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    check(bad.returncode == 2 and "--workers is for the LocalCluster" in bad.stderr, "a usage error", show(bad))


def case_example():
    # docs/python-example.py runs as a script (its cells in order) and draws its figure.
    src = pathlib.Path(ARGS.source) / "docs" / "python-example.py"
    env = dict(os.environ, MPLBACKEND="Agg", THRONG_EXAMPLE_OUT=str(work("example")))
    p = subprocess.run([sys.executable, src], capture_output=True, text=True, env=env, timeout=600, cwd=ARGS.work)
    check(p.returncode == 0, "the example runs", show(p))
    png = work("example") / "python-example.png"
    check(png.exists() and png.stat().st_size > 10_000, "it draws its figure", png)
    print(p.stdout.strip()[-2000:])


def case_pip():
    # `pip install .` from the repository into a fresh virtual environment,
    # then the installed package (not the build tree's) against throng run.
    venv, build = pathlib.Path(ARGS.pip_venv), pathlib.Path(ARGS.pip_build)
    py = venv / "bin" / "python"
    if not py.exists():
        r = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
        check(r.returncode == 0, "a virtual environment", r.stdout, r.stderr)
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL="2")
    env.pop("PYTHONPATH", None)
    t0 = time.perf_counter()
    r = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q", ARGS.source,
                        "-C", f"build-dir={build}", "-C", "cmake.define.THRONG_CUDA=OFF"],
                       capture_output=True, text=True, timeout=1500, env=env, cwd=ARGS.work)
    check(r.returncode == 0, "pip install . (needs PyPI for scikit-build-core and numpy)", r.stdout[-4000:],
          r.stderr[-4000:])
    print(f"pip install . took {time.perf_counter() - t0:.0f} s")
    ref = cli_summary("door", "--seed", "3", "--steps", "40")
    script = """
import json, os, sys, throng
assert "site-packages" in throng._throng.__file__, throng._throng.__file__
assert os.path.isfile(os.path.join(os.path.dirname(throng.__file__), "scenes", "door.json"))
assert os.path.isfile(os.path.join(os.path.dirname(throng.__file__), "py.typed"))
# The package's own scenes before the source tree's, and no environment changed to find them.
assert "THRONG_SCENES" not in os.environ, os.environ["THRONG_SCENES"]
door = throng.Scene.load("door").file
assert os.path.dirname(door) == os.path.join(os.path.dirname(throng.__file__), "scenes"), door
run = throng.Run("door", seed=3)
run.step(40)
print(json.dumps({"hash": run.summary()["hash"], "module": throng._throng.__file__}))
"""
    p = subprocess.run([py, "-c", script], capture_output=True, text=True, env=env, timeout=120, cwd=ARGS.work)
    check(p.returncode == 0, "the installed package imports and runs", show(p))
    got = json.loads(p.stdout.strip().splitlines()[-1])
    check(got["hash"] == ref["hash"], "the installed package's hash is throng run's", got, ref)
    print(f"installed {got['module']}: hash {got['hash']} == throng run")


if __name__ == "__main__":
    sys.exit(casekit.main(globals(), [("--source", {"default": str(pathlib.Path(__file__).resolve().parents[2])}),
                                      ("--pip-venv", {"default": ""}), ("--pip-build", {"default": ""})]))
