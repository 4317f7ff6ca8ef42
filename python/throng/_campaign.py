"""Campaigns: many runs (scenes x seeds x knob and setting grids), each an
independent task on Dask, from a laptop's LocalCluster to an HPC cluster.

Each run writes ``OUT/runs/SCENE/POINT/summary.json`` (the fields of
``throng run --summary``) and its trajectory (``trajectory.txt`` in PedPy's
format, or ``trajectory.csv``, or none), each to a temporary name renamed
into place; the driver, the only writer of the manifest, then appends one
line to ``OUT/manifest.jsonl`` (JSON lines): the point's parameters, the
state hash, the figures, the wall time and the worker, or the error of a
run that failed after its retries. A rerun skips every point whose row says
ok and whose outputs exist with that hash, and retries the rest.

The runs are deterministic: a point run twice (a retry after its worker
died, a rerun) writes the same bytes, and its hash equals ``throng run``'s.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import shutil
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Union

from . import _throng
from ._api import Scene, _value_text, run
from ._files import open_append, output_file, path_component

SPEC_KEYS = {
    "name": "a label for people",
    "scenes": "required: names or files, or objects {\"scene\": NAME, \"knobs\": {...}, \"settings\": {...}}",
    "seeds": "a list of whole numbers, or {\"start\": K, \"count\": N} (default [0])",
    "knobs": "name -> list of values: a grid over every scene's knob (a scene's own entry adds to it)",
    "settings": "name -> list of values: a grid over settings (model, timeHorizon, ...)",
    "steps": "exact steps a run takes",
    "seconds": "exact simulated seconds a run takes (rounded up to steps)",
    "dt": "the fixed step, s (maxStep)",
    "trajectory": "pedpy (default), csv or none",
    "out": "the output folder (default: campaign-out); relative to the spec file",
    "retries": "how often a run that errs is tried again before its row records the error (default 2)",
    "threads": "threads per run (default 1: the workers are the parallelism)",
    "backend": "cpu (default), cuda or auto",
    "workers": "the LocalCluster's worker processes when no client is given (default: the cores)",
    "cluster": "for HPC: {\"kind\": \"slurm\" or \"pbs\", \"jobs\": N, cores, memory, walltime, queue, account, "
               "processes, job_extra_directives, job_script_prologue, python}",
}

#: The summary's fields a manifest row carries as its figures.
FIGURES = ("steps", "simTime", "agents", "arrived", "allArrivedTime", "minGap", "minGapUnjammed", "maxOverlap",
           "unjammedOverlaps", "jammedAgentSteps", "infeasibleSteps", "maxWallIntrusion", "msPerStepMedian",
           "msPerStepP95", "gatePassed", "backend", "measurements")


class SpecError(ValueError):
    """A campaign spec that cannot run: one line naming the key (a control
    character from the spec, a newline in a key, is shown escaped)."""

    def __init__(self, message: str):
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


# ---- the spec --------------------------------------------------------------------

def load_spec(spec: Union[Mapping[str, Any], str, "os.PathLike[str]"]) -> Dict[str, Any]:
    """A spec as a dict: a dict as given, or a JSON file read (its folder then
    anchors a relative ``out`` and relative scene files)."""
    if isinstance(spec, Mapping):
        d = dict(spec)
        d.setdefault("_base", os.getcwd())
        return d
    path = Path(spec)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    return spec_from_text(text, str(path), str(path.resolve().parent))


def spec_from_text(text: str, file: str = "spec", base: Optional[str] = None) -> Dict[str, Any]:
    """A spec from JSON text, named ``file`` in messages; ``base`` anchors
    relative paths (default: the working folder)."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise SpecError(f"{file}:{e.lineno}: {e.msg}") from None
    except RecursionError:
        raise SpecError(f"{file}: nested too deeply") from None
    if not isinstance(d, dict):
        raise SpecError(f"{file}: expected a JSON object")
    d["_base"] = base if base is not None else os.getcwd()
    d["_file"] = file
    return d


def _where(spec: Mapping[str, Any]) -> str:
    return spec.get("_file", "spec")


#: The most points one campaign may have, counted from the spec's shape
#: (scenes x knob values x setting values x seeds) before anything is
#: expanded or run. A spec past it is refused in one line giving its count.
MAX_POINTS = 100_000


def _q(text: Any) -> str:
    """A key or name from the spec, quoted for a message."""
    return json.dumps(str(text), ensure_ascii=False)


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _grid(spec: Mapping[str, Any], key: str, value: Any) -> Dict[str, List[Any]]:
    """A grid ("knobs" or "settings"): name -> a non-empty list of distinct
    numbers or names (a lone value is a list of one)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SpecError(f"{_where(spec)}: \"{key}\": expected an object of name -> list of values")
    out = {}
    for name, values in value.items():
        vs = values if isinstance(values, list) else [values]
        if not vs:
            raise SpecError(f"{_where(spec)}: \"{key}\": {_q(name)} has no values")
        texts = []
        for v in vs:
            try:
                texts.append(_value_text(name, v))  # a number or a name
            except TypeError as e:
                raise SpecError(f"{_where(spec)}: \"{key}\": {e}") from None
        if len(set(texts)) != len(texts):
            raise SpecError(f"{_where(spec)}: \"{key}\": {_q(name)} repeats a value")
        out[name] = vs
    return out


def _seeds(spec: Mapping[str, Any]) -> range | List[int]:
    """The seeds: a range for {"start": K, "count": N} (never expanded), else
    the list given."""
    s = spec.get("seeds", [0])
    where = f"{_where(spec)}: \"seeds\""
    if isinstance(s, Mapping):
        extra = sorted(set(s) - {"start", "count"})
        if extra:
            raise SpecError(f"{where}: unknown key {_q(extra[0])} (start, count)")
        start, count = s.get("start", 0), s.get("count")
        if not _whole(count) or count < 1:
            raise SpecError(f"{where}: \"count\": expected a whole number >= 1, got {count!r}")
        if not _whole(start) or not 0 <= start < 2**64:
            raise SpecError(f"{where}: \"start\": expected a whole number in [0, 2^64), got {start!r}")
        if start + count > 2**64:
            raise SpecError(f"{where}: start + count passes 2^64")
        return range(start, start + count)
    if _whole(s):
        s = [s]
    if not isinstance(s, list) or not s or not all(_whole(k) and 0 <= k < 2**64 for k in s):
        raise SpecError(f"{where}: expected whole numbers in [0, 2^64), or {{\"start\": K, \"count\": N}}")
    if len(set(s)) != len(s):
        raise SpecError(f"{where}: a seed is given twice")
    return s


def _scene_file(spec: Mapping[str, Any], name: str) -> str:
    """The file of a scene entry: a file relative to the spec's folder, else
    what ``throng run`` finds for the name."""
    p = Path(spec.get("_base", ".")) / name
    if p.is_file():
        return str(p.resolve())
    try:
        return _throng.find_scene(name)
    except FileNotFoundError as e:
        raise SpecError(f"{_where(spec)}: \"scenes\": {e}") from None


def _number(spec: Mapping[str, Any], key: str, lo: float, hi: float, whole: bool, lo_open: bool = False) -> Any:
    """spec[key] (None when absent), checked to be a number in its range."""
    v = spec.get(key)
    if v is None:
        return None
    ok = _whole(v) if whole else (isinstance(v, (int, float)) and not isinstance(v, bool))
    if not ok or not (lo < v if lo_open else lo <= v) or not v <= hi:
        kind = "a whole number" if whole else "a number"
        span = f"({lo:g}, {hi:g}]" if lo_open else f"[{lo:g}, {hi:g}]"
        raise SpecError(f"{_where(spec)}: \"{key}\": expected {kind} in {span}, got {v!r}")
    return v


@dataclass
class _Shape:
    """A spec checked but not expanded: what the points are made of."""
    entries: List[Dict[str, Any]]  # each {"file", "name", "knobs", "settings"}
    seeds: Any
    fixed: Dict[str, Any]
    count: int


def _shape(spec: Mapping[str, Any]) -> _Shape:
    """Checks every key of the spec and counts its points from the shape alone
    (no scene loaded, no point made), refusing a spec past MAX_POINTS; then
    checks each scene loads and takes each knob and setting value on its own
    (a combination a scene refuses becomes a failed row)."""
    unknown = sorted(k for k in spec if k not in SPEC_KEYS and not k.startswith("_"))
    if unknown:
        raise SpecError(f"{_where(spec)}: unknown key {_q(unknown[0])} (keys: {', '.join(SPEC_KEYS)})")
    for key in ("name", "out"):
        if key in spec and not isinstance(spec[key], str):
            raise SpecError(f"{_where(spec)}: \"{key}\": expected a string, got {type(spec[key]).__name__}")
    scenes = spec.get("scenes")
    if not isinstance(scenes, list) or not scenes:
        raise SpecError(f"{_where(spec)}: \"scenes\": expected a list of scene names or files")
    if "steps" in spec and "seconds" in spec:
        raise SpecError(f"{_where(spec)}: give \"steps\" or \"seconds\", not both")
    steps = _number(spec, "steps", 0, _throng.MAX_RUN_STEPS, True)
    seconds = _number(spec, "seconds", 0, _throng.MAX_RUN_SECONDS, False, lo_open=True)
    dt = _number(spec, "dt", 0, 1e9, False, lo_open=True)
    threads = _number(spec, "threads", 1, 1024, True)
    _number(spec, "retries", 0, 100, True)
    _number(spec, "workers", 1, 4096, True)
    if "cluster" in spec and not isinstance(spec["cluster"], Mapping):
        raise SpecError(f"{_where(spec)}: \"cluster\": expected an object")
    trajectory = spec.get("trajectory", "pedpy")
    if trajectory not in ("pedpy", "csv", "none"):
        raise SpecError(f"{_where(spec)}: \"trajectory\": {trajectory!r} not in {{pedpy,csv,none}}")
    backend = spec.get("backend", "cpu")
    if backend not in ("cpu", "cuda", "auto"):
        raise SpecError(f"{_where(spec)}: \"backend\": {backend!r} not in {{cpu,cuda,auto}}")
    seeds = _seeds(spec)
    nseeds = seeds.stop - seeds.start if isinstance(seeds, range) else len(seeds)  # len() of a range stops at 2^63
    knobs, settings = _grid(spec, "knobs", spec.get("knobs")), _grid(spec, "settings", spec.get("settings"))

    # The count, from the lengths alone.
    raw, count = [], 0
    for entry in scenes:
        if isinstance(entry, str):
            entry = {"scene": entry}
        if not isinstance(entry, Mapping) or not isinstance(entry.get("scene"), str):
            raise SpecError(f"{_where(spec)}: \"scenes\": each is a name or file, or {{\"scene\": NAME, ...}}")
        extra = sorted(set(entry) - {"scene", "knobs", "settings"})
        if extra:
            raise SpecError(f"{_where(spec)}: \"scenes\": unknown key {_q(extra[0])} (scene, knobs, settings)")
        k = {**knobs, **_grid(spec, "knobs", entry.get("knobs"))}
        s = {**settings, **_grid(spec, "settings", entry.get("settings"))}
        n = nseeds
        for values in (*k.values(), *s.values()):
            n *= len(values)
        count += n
        raw.append((entry["scene"], k, s))
    if count > MAX_POINTS:
        raise SpecError(f"{_where(spec)}: {count} points (scenes x knob values x setting values x seeds), more than "
                        f"the limit of {MAX_POINTS}")

    fixed = {"steps": steps, "seconds": seconds, "dt": dt, "threads": 1 if threads is None else threads,
             "backend": backend, "trajectory": trajectory}
    entries = []
    seen = set()
    for name, k, s in raw:
        file = _scene_file(spec, name)
        try:
            scene = Scene.load(file)
            base = scene.copy()
            base.set(**{"seed": seeds[0], **({"maxStep": dt} if dt is not None else {}), "threads": fixed["threads"]})
            for key, values in {**k, **s}.items():
                for v in values:
                    base.copy().set(**{key: v})
        except (ValueError, TypeError, FileNotFoundError) as e:
            raise SpecError(f"{_where(spec)}: scene {_q(name)}: {e}") from None
        key = json.dumps([file, k, s], sort_keys=True)
        if key in seen:
            raise SpecError(f"{_where(spec)}: \"scenes\": {_q(name)} is given twice with the same grid")
        seen.add(key)
        entries.append({"file": file, "name": scene.name, "knobs": k, "settings": s})
    return _Shape(entries=entries, seeds=seeds, fixed=fixed, count=count)


def count_points(spec: Union[Mapping[str, Any], str, "os.PathLike[str]"]) -> int:
    """How many points a spec has, from its shape (checked as campaign() does)."""
    return _shape(load_spec(spec)).count


def _iter_points(shape: _Shape) -> Iterator[Dict[str, Any]]:
    """Every point of the campaign, made one at a time, in order: scene, knob
    values, setting values, seed."""
    for e in shape.entries:
        kn, sn = list(e["knobs"]), list(e["settings"])
        for kv in itertools.product(*(e["knobs"][n] for n in kn)):
            for sv in itertools.product(*(e["settings"][n] for n in sn)):
                for seed in shape.seeds:
                    p = {"scene": e["name"], "file": e["file"], "seed": seed, "knobs": dict(zip(kn, kv)),
                         "settings": dict(zip(sn, sv)), **shape.fixed}
                    p["id"] = point_id(p)
                    yield p


def points(spec: Mapping[str, Any]) -> List[Dict[str, Any]]:
    """Every point of the campaign as a list, each a dict that run_point
    takes, in order (the spec checked first, as campaign() does)."""
    return list(_iter_points(_shape(spec)))


def point_id(p: Mapping[str, Any]) -> str:
    """A stable name for a point: the scene's name (as a path component) and
    a hash of what the run depends on (not where it runs)."""
    key = json.dumps({k: p[k] for k in ("scene", "seed", "knobs", "settings", "steps", "seconds", "dt",
                                        "trajectory")}, sort_keys=True, separators=(",", ":"))
    return f"{path_component(p['scene'])}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def _trajectory_name(fmt: str) -> Optional[str]:
    return {"pedpy": "trajectory.txt", "csv": "trajectory.csv"}.get(fmt)


# ---- one run (on a worker) ----------------------------------------------------------

def _worker_name() -> str:
    try:
        from distributed import get_worker
        w = get_worker()
        return str(w.address)
    except (ImportError, ValueError):
        return f"local:{socket.gethostname()}:{os.getpid()}"


def run_point(p: Mapping[str, Any], out: str) -> Dict[str, Any]:
    """Runs one point and writes its outputs; returns its manifest row. Raises
    on failure (Dask retries it). Safe to run twice at once: each attempt
    writes under its own temporary names and renames the same bytes into
    place, the summary last (its presence marks the run done)."""
    t0 = time.perf_counter()
    rel = Path("runs") / path_component(p["scene"]) / p["id"]
    root = Path(out).resolve()
    final = root / rel
    final.mkdir(parents=True, exist_ok=True)
    if not final.resolve().is_relative_to(root):
        raise OSError(f"{final} leads out of the campaign's folder {root} (a link there?): not writing")
    tmp = Path(tempfile.mkdtemp(prefix=".attempt-", dir=final))
    try:
        traj_name = _trajectory_name(p["trajectory"])
        summary = run(p["file"], seed=p["seed"], dt=p["dt"], threads=p["threads"], steps=p["steps"],
                      seconds=p["seconds"], backend=p["backend"], export=tmp / traj_name if traj_name else None,
                      format=p["trajectory"] if traj_name else "pedpy", summary=tmp / "summary.json",
                      **{**p["knobs"], **p["settings"]})
        if traj_name:
            os.replace(tmp / traj_name, final / traj_name)
        os.replace(tmp / "summary.json", final / "summary.json")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {
        **_point_fields(p, "ok"), "hash": summary["hash"], "figures": {k: summary.get(k) for k in FIGURES},
        "summary": str(rel / "summary.json"), "trajectory": str(rel / traj_name) if traj_name else None,
        "wall": round(time.perf_counter() - t0, 6), "worker": _worker_name(), "error": None,
    }


def _point_fields(p: Mapping[str, Any], status: str) -> Dict[str, Any]:
    """A manifest row's first fields: the point as run, and how it ended."""
    return {"point": p["id"], "status": status, "scene": p["scene"], "file": p["file"], "seed": p["seed"],
            "knobs": p["knobs"], "settings": p["settings"], "steps": p["steps"], "seconds": p["seconds"],
            "dt": p["dt"]}


def _failed_row(p: Mapping[str, Any], error: BaseException, retries: int) -> Dict[str, Any]:
    msg = str(error).strip().splitlines()
    text = f"{type(error).__name__}: {msg[0] if msg else ''}".rstrip(": ")
    return {
        **_point_fields(p, "failed"), "hash": None, "figures": None, "summary": None, "trajectory": None,
        "wall": None, "worker": None, "error": text, "retries": retries,
    }


# ---- the manifest ------------------------------------------------------------------

def read_manifest(path: Path) -> List[Dict[str, Any]]:
    """The rows of a manifest; a torn last line (a driver killed mid-write) is dropped."""
    return list(iter_manifest(path))


def iter_manifest(path: Path) -> Iterator[Dict[str, Any]]:
    """The rows of a manifest, read one line at a time (as read_manifest)."""
    if not path.exists():
        return
    with open(path) as f:
        for line in f:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict) and "point" in row:
                yield row


def _done(out: Path, row: Mapping[str, Any]) -> bool:
    """A row whose outputs exist with its hash."""
    if row.get("status") != "ok" or not row.get("summary"):
        return False
    try:
        summary = json.loads((out / row["summary"]).read_text())
    except (OSError, json.JSONDecodeError):
        return False
    if summary.get("hash") != row.get("hash"):
        return False
    return not row.get("trajectory") or (out / row["trajectory"]).is_file()


def _rewrite_manifest(path: Path, out: Path, wanted: "set[str]") -> "set[str]":
    """Rewrites the manifest whole, streamed (a torn line or an old failure
    gone): the first row of each wanted point done with its outputs in
    place, and every other campaign's ok rows (they share the folder).
    Returns the wanted points done."""
    done: "set[str]" = set()
    with output_file(path) as f:
        for row in iter_manifest(path):
            if row["point"] in wanted:
                if row["point"] not in done and _done(out, row):
                    done.add(row["point"])
                    f.write(json.dumps(row) + "\n")
            elif row.get("status") == "ok":
                f.write(json.dumps(row) + "\n")
    return done


class _Manifest:
    """Appends rows, one line each, flushed to disk before the next."""

    def __init__(self, path: Path):
        self.f = open_append(path)

    def append(self, row: Mapping[str, Any]) -> None:
        self.f.write(json.dumps(row) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


# ---- progress ----------------------------------------------------------------------

class _Progress:
    def __init__(self, total: int, on: bool):
        self.bar = None
        self.on = on
        self.done = 0
        self.total = total
        if on:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit="run", desc="throng campaign", file=sys.stderr, dynamic_ncols=True)
            except ImportError:
                self.bar = None

    def update(self, failed: int) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix(failed=failed, refresh=False)
            self.bar.update(1)
        elif self.on:
            sys.stderr.write(f"\rthrong campaign: {self.done}/{self.total} runs, {failed} failed")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.on and self.done:
            sys.stderr.write("\n")


# ---- the campaign --------------------------------------------------------------------

@dataclass
class CampaignResult:
    """What a campaign did; ``rows`` are the manifest's rows for its points,
    read from the manifest when asked (the driver keeps none in memory)."""
    out: str
    manifest: str
    points: int
    ran: int
    skipped: int
    failed: int
    wall: float
    workers: int
    _ids: Optional[Callable[[], Iterable[str]]] = field(default=None, repr=False)

    @property
    def rows(self) -> List[Dict[str, Any]]:
        """The last row of each of the campaign's points, in the points' order."""
        by_id = {r["point"]: r for r in iter_manifest(Path(self.manifest))}
        return [by_id[i] for i in (self._ids() if self._ids else by_id) if i in by_id]

    @property
    def runs_per_minute(self) -> float:
        return 60.0 * self.ran / self.wall if self.wall > 0 else 0.0

    def text(self) -> str:
        """The summary printed at the end."""
        gate = sum(1 for r in self.rows if r.get("status") == "ok" and not (r.get("figures") or {}).get("gatePassed"))
        lines = [f"throng campaign: {self.points} points: {self.ran} run, {self.skipped} skipped (done before), "
                 f"{self.failed} failed"
                 + (f"; {self.wall:.1f} s on {self.workers} worker{'s' if self.workers != 1 else ''}, "
                    f"{self.runs_per_minute:.1f} runs/min" if self.ran else "")]
        if gate:
            lines.append(f"  {gate} run{'s' if gate != 1 else ''} failed the separation gate (figures.gatePassed)")
        for r in self.rows:
            if r.get("status") == "failed":
                lines.append(f"  failed: {r['point']}: {r['error']}")
        lines.append(f"  manifest: {self.manifest}")
        return "\n".join(lines)


@contextlib.contextmanager
def _workers_skip_main():
    """While a LocalCluster of ours lives: its worker processes are spawned,
    and a spawned process runs the parent's main script again (as
    __mp_main__) unless it is guarded by ``if __name__ == "__main__"``.
    Our workers run throng's own function only, so they need none of the
    script: hide its file from multiprocessing meanwhile, and a plain script
    (or a notebook exported to one) may call campaign() at its top level."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _cluster(spec: Mapping[str, Any]):
    """A dask-jobqueue cluster (no jobs submitted yet) from the spec's "cluster"."""
    c = dict(spec.get("cluster") or {})
    kind = c.pop("kind", "slurm")
    c.pop("jobs", None)
    try:
        import dask_jobqueue
    except ImportError:
        raise ImportError(f"a \"cluster\" of kind {kind} needs dask-jobqueue: pip install dask-jobqueue") from None
    classes = {"slurm": "SLURMCluster", "pbs": "PBSCluster"}
    if kind not in classes:
        raise SpecError(f"{_where(spec)}: \"cluster\": kind {kind!r} not in {{slurm,pbs}}")
    c.setdefault("cores", 1)
    c.setdefault("memory", "2GB")
    c.setdefault("python", sys.executable)
    # One thread a worker process: the runs are the parallelism (threads per run: the spec's "threads").
    c.setdefault("processes", c["cores"])
    c.setdefault("scheduler_options", {"dashboard_address": None})
    return getattr(dask_jobqueue, classes[kind])(**c)


def job_script(spec: Union[Mapping[str, Any], str, "os.PathLike[str]"]) -> str:
    """The batch script dask-jobqueue would submit for one job of the spec's
    "cluster" (Slurm or PBS): its resources and the worker command."""
    cluster = _cluster(load_spec(spec))
    try:
        return cluster.job_script()
    finally:
        cluster.close()


def campaign(spec: Union[Mapping[str, Any], str, "os.PathLike[str]"], client: Any = None, *,
             workers: Optional[int] = None, out: Optional[Union[str, "os.PathLike[str]"]] = None,
             progress: bool = True, serial: bool = False, security: Any = None,
             on_row: Optional[Callable[[Dict[str, Any]], None]] = None) -> CampaignResult:
    """Runs every point of ``spec`` (a dict or a JSON file) as a task on Dask.

    ``client``: a ``distributed.Client`` (a LocalCluster's, dask-jobqueue's
    SLURMCluster or PBSCluster's, any), or a scheduler's address; None makes
    a LocalCluster of ``workers`` processes (or the spec's "cluster", when it
    names one, with its "jobs"), closed at the end. ``security``: a
    ``distributed.security.Security`` for a ``tls://`` address (or for the
    LocalCluster made here). A plain ``tcp://`` scheduler runs whatever any
    client that reaches it sends: on a shared machine, use TLS. ``serial=True``
    runs the points one after another in this process, without Dask.
    ``on_row`` is called in this process with each new manifest row.

    The spec is checked whole before anything runs, and its points counted
    from its shape: more than MAX_POINTS is refused. Points are made one at a
    time and at most a few per worker are in flight, so the driver's memory
    does not grow with the campaign.

    The spec's keys (all but "scenes" optional)::

        {"scenes": ["door", {"scene": "corridor", "knobs": {"rate": [1, 2]}}],
         "seeds": [1, 2, 3],                   # or {"start": 0, "count": 50}
         "knobs": {"doorWidth": [1.0, 1.6]},   # a grid over every scene
         "settings": {"model": ["orca", "biocrowds"]},
         "seconds": 10,                        # or "steps"; neither: the scene's duration
         "trajectory": "pedpy",                # csv, none
         "out": "campaign-out", "retries": 2, "threads": 1, "backend": "cpu", "workers": 2}

    Returns a CampaignResult (its ``text()`` is the summary printed at the end).
    """
    spec = load_spec(spec)
    shape = _shape(spec)
    retries = spec.get("retries", 2)
    out_dir = Path(out) if out is not None else Path(spec.get("_base", ".")) / spec.get("out", "campaign-out")
    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = out_dir / "manifest.jsonl"

    def ids() -> Iterator[str]:
        return (p["id"] for p in _iter_points(shape))

    # Resume: the points done with their outputs in place are skipped; every
    # other point runs.
    wanted = set(ids())
    done = _rewrite_manifest(manifest, out_dir, wanted)
    ntodo = len(wanted) - len(done)
    del wanted

    def todo() -> Iterator[Dict[str, Any]]:
        return (p for p in _iter_points(shape) if p["id"] not in done)

    failed = 0
    t0 = time.perf_counter()
    nworkers = 1
    bar = _Progress(ntodo, progress and bool(ntodo))
    m = _Manifest(manifest)
    own: List[Any] = []
    hide = contextlib.ExitStack()
    try:
        def record(row: Dict[str, Any]) -> None:
            nonlocal failed
            failed += row["status"] != "ok"
            m.append(row)
            bar.update(failed)
            if on_row:
                on_row(row)

        if ntodo and serial:
            for p in todo():
                row = None
                for attempt in range(retries + 1):
                    try:
                        row = run_point(p, str(out_dir))
                        break
                    except Exception as e:  # noqa: BLE001 - a failure is a row
                        row = _failed_row(p, e, retries)
                record(row)
        elif ntodo:
            try:
                from distributed import Client, LocalCluster, as_completed
            except ImportError:
                raise ImportError("campaigns run on Dask: pip install 'dask[distributed]' "
                                  f"(into {sys.executable}), or pass serial=True") from None
            if client is None:
                if spec.get("cluster"):
                    cluster = _cluster(spec)
                    own.append(cluster)
                    cluster.scale(jobs=int(spec["cluster"].get("jobs", 1)))
                else:
                    n = workers or spec.get("workers") or os.cpu_count() or 1
                    hide.enter_context(_workers_skip_main())
                    cluster = LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True,
                                           dashboard_address=None, **({"security": security} if security else {}))
                    own.append(cluster)
                client = Client(cluster, **({"security": security} if security else {}))
                own.insert(0, client)
            elif isinstance(client, str):
                client = Client(client, **({"security": security} if security else {}))
                own.insert(0, client)
            nworkers = max(1, len(client.scheduler_info().get("workers", {})))
            # A window of points in flight, a few per worker: a new one is made
            # and submitted as each ends.
            pending = todo()
            futures: Dict[Any, Dict[str, Any]] = {}
            finished = as_completed()

            def submit_next() -> None:
                p = next(pending, None)
                if p is not None:
                    f = client.submit(run_point, p, str(out_dir), key=f"throng-run-{p['id']}", retries=retries,
                                      pure=False)
                    futures[f] = p
                    finished.add(f)

            for _ in range(max(4, 2 * nworkers)):
                submit_next()
            for f in finished:
                p = futures.pop(f)
                try:
                    row = f.result()
                except Exception as e:  # noqa: BLE001 - an error, or KilledWorker: a row
                    row = _failed_row(p, e, retries)
                f.release()  # its result is in the manifest: a worker lost later need not recompute it
                record(row)
                submit_next()
            nworkers = max(nworkers, len(client.scheduler_info().get("workers", {})))
    finally:
        bar.close()
        m.close()
        for c in own:
            try:
                c.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
        hide.close()
    wall = time.perf_counter() - t0
    # What attempts whose workers died left behind: every attempt of these
    # points has ended (its result, or its worker, is gone).
    if ntodo:
        for p in todo():
            d = out_dir / "runs" / path_component(p["scene"]) / p["id"]
            for tmp in d.glob(".attempt-*") if d.is_dir() else []:
                shutil.rmtree(tmp, ignore_errors=True)
    return CampaignResult(out=str(out_dir), manifest=str(manifest), points=shape.count, ran=ntodo,
                          skipped=len(done), failed=failed, wall=wall, workers=nworkers, _ids=ids)


# ---- the command line (`throng campaign`, `python -m throng campaign`) --------------

def _security(scheduler: Optional[str], ca: Optional[str], cert: Optional[str], key: Optional[str]) -> Any:
    """The Security for --scheduler and the --tls-* files: None for no TLS.
    TLS files without a tls:// address, or a tls:// one without them, are
    refused; a tcp:// scheduler off this machine gets a warning."""
    tls = bool(ca or cert or key)
    if scheduler and scheduler.startswith("tls://"):
        if not (ca and cert):
            raise SpecError("--scheduler tls://...: give --tls-ca-file and --tls-cert (and --tls-key unless the "
                            "certificate file holds the key)")
    elif tls:
        raise SpecError("--tls-ca-file, --tls-cert and --tls-key are for a --scheduler tls://HOST:PORT")
    if scheduler and not tls:
        host = scheduler.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
        if host not in ("127.0.0.1", "localhost", "::1") and not scheduler.startswith(("inproc://", "ucx://")):
            sys.stderr.write(f"throng campaign: note: {scheduler} is not encrypted or authenticated; a Dask scheduler "
                             "runs whatever any client that reaches it sends (use tls:// with certificates)\n")
    if not tls:
        return None
    for flag, path in (("--tls-ca-file", ca), ("--tls-cert", cert), ("--tls-key", key)):
        if path and not os.path.isfile(path):
            raise SpecError(f"{flag} {path}: no such file")
    from distributed.security import Security
    return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True)


def main(argv: Optional[List[str]] = None, prog: str = "python -m throng campaign") -> int:
    keys = "\n".join(f"  {k:<11} {v}" for k, v in SPEC_KEYS.items())
    ap = argparse.ArgumentParser(prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 description="Runs a campaign's points as tasks on Dask.",
                                 epilog="The spec, a JSON object:\n" + keys)
    ap.add_argument("spec", metavar="SPEC.json")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="a Dask scheduler (default: a LocalCluster here); tls://HOST:PORT with the --tls-* files. "
                         "A plain tcp:// scheduler runs whatever any client that reaches it sends")
    ap.add_argument("--tls-ca-file", metavar="PEM", help="the certificate authority a tls:// scheduler's is signed by")
    ap.add_argument("--tls-cert", metavar="PEM", help="this client's certificate, for a tls:// scheduler")
    ap.add_argument("--tls-key", metavar="PEM", help="this client's private key (default: in --tls-cert)")
    ap.add_argument("--workers", type=int, metavar="N", help="the LocalCluster's worker processes")
    ap.add_argument("--out", metavar="DIR", help="the output folder (default: the spec's \"out\")")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    a = ap.parse_args(argv)
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as e:
        sys.stderr.write(f"{prog}: dask is not installed for {sys.executable} ({e}); "
                         "pip install 'dask[distributed]' into that Python (or set THRONG_PYTHON to one with it)\n")
        return 1
    try:
        security = _security(a.scheduler, a.tls_ca_file, a.tls_cert, a.tls_key)
    except SpecError as e:
        sys.stderr.write(f"{prog}: {e}\n")
        return 2
    try:
        result = campaign(a.spec, a.scheduler, workers=a.workers, out=a.out, progress=not a.quiet,
                          security=security)
    except SpecError as e:
        sys.stderr.write(f"{prog}: {e}\n")
        return 1
    except OSError as e:
        sys.stderr.write(f"{prog}: {e}\n")
        return 1
    print(result.text())
    return 0 if result.failed == 0 else 1
