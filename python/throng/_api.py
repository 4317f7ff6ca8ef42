"""Scenes and runs: the C++ API (sim/include/throng/scene.hpp) in Python's idiom.

Everything here is a thin layer over the extension module ``throng._throng``:
the stepping, the export and the summary are the C++ ones that ``throng run``
uses, so the same scene, seed and steps give the same state hash, the same
export bytes and the same summary fields.
"""
from __future__ import annotations

import json
import numbers
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

import numpy as np

from . import _throng

PathLike = Union[str, "os.PathLike[str]"]


def _value_text(name: str, value: Any) -> str:
    """A value as ``throng run --set name=TEXT`` spells it (the same number back)."""
    if isinstance(value, bool) or value is None:
        raise TypeError(f"{name}: expects a number or a name, got {value!r}")
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))  # the shortest text that reads back to the same double
    if isinstance(value, str):
        return value
    raise TypeError(f"{name}: expects a number or a name, got {type(value).__name__}")


class Scene:
    """A scene file with its knob and setting values (``throng::Scene``).

    Load one by name or path, set knobs (``doorWidth``) and settings
    (``model``, ``timeHorizon``, ``seed``, ...), then make a :class:`Run`::

        scene = throng.Scene.load("door").set(doorWidth=1.6, model="biocrowds")

    Errors are exceptions with the command line's one-line messages:
    FileNotFoundError for a scene that is not found, ValueError for a file
    that does not load or a value a knob or setting refuses.
    """

    __slots__ = ("_core",)

    def __init__(self, core: "_throng.Scene"):
        if not isinstance(core, _throng.Scene):
            raise TypeError("use Scene.load(name_or_path) or Scene.parse(text)")
        self._core = core

    @classmethod
    def load(cls, name_or_path: PathLike) -> "Scene":
        """A shipped scene by name (``"door"``, see :func:`scenes`) or a scene file."""
        return cls(_throng.Scene.load(os.fspath(name_or_path)))

    @classmethod
    def parse(cls, text: str, file_name: str = "<string>") -> "Scene":
        """A scene from JSON text; ``file_name`` only labels messages."""
        return cls(_throng.Scene.parse(text, file_name))

    @property
    def name(self) -> str:
        return self._core.name

    @property
    def file(self) -> str:
        """The file it was loaded from (as ``throng run --summary`` names it)."""
        return self._core.file

    @property
    def description(self) -> str:
        return self._core.description

    @property
    def units(self) -> str:
        """The world unit, ``"m"`` for metric scenes (PedPy expects metres)."""
        return self._core.units

    @property
    def duration(self) -> float:
        """Seconds: how long ``throng run`` runs it by default."""
        return self._core.duration

    @property
    def agent_count(self) -> int:
        """Walkers at the start (sources may add more)."""
        return self._core.agent_count

    @property
    def knobs(self) -> Dict[str, float]:
        """Each knob's current value."""
        return {k["name"]: k["value"] for k in self._core.knobs}

    @property
    def knob_info(self) -> List[Dict[str, Any]]:
        """Each knob: name, help, min, max, default, value, integer."""
        return self._core.knobs

    @property
    def settings(self) -> Dict[str, str]:
        """Every setting's current value, as text (``--set`` reads it back)."""
        return self._core.settings

    @property
    def walls(self) -> List[np.ndarray]:
        """The walls as resolved with the current knobs, each an (n, 2) array of its points."""
        return self._core.walls

    @property
    def obstacles(self) -> List[np.ndarray]:
        """The obstacles' outlines (a rectangle as its four corners), each an (n, 2) array."""
        return self._core.obstacles

    @property
    def walkable_area_wkt(self) -> str:
        """The walkable area as WKT, as the PedPy and JuPedSim exports carry it:
        the file's "geometry" polygons, or the box round the scene less its
        walls and obstacles when it names none."""
        return self._core.walkable_area_wkt

    @property
    def measurements(self) -> List[Dict[str, Any]]:
        """The measurement lines and areas: name, kind ("line" or "area") and points, in file order."""
        return self._core.measurements

    def set(self, **values: Any) -> "Scene":
        """Sets knobs and settings by name, in order, all or none; returns self.

        Numbers go through exactly (an int as its digits, a float as its
        shortest round-trip text), names as given (``model="biocrowds"``).
        """
        return self.assign(*(f"{k}={_value_text(k, v)}" for k, v in values.items()))

    def assign(self, *assignments: str) -> "Scene":
        """``"name=value"`` strings, as ``throng run --set`` takes them; all or none."""
        trial = self._core.copy()
        for a in assignments:
            trial.assign(a)
        self._core = trial
        return self

    def reset(self) -> "Scene":
        """Every knob to its default, every setting to the file's."""
        self._core.reset()
        return self

    def copy(self) -> "Scene":
        return Scene(self._core.copy())

    __copy__ = copy

    def __deepcopy__(self, memo: Any) -> "Scene":
        return self.copy()

    def __repr__(self) -> str:
        knobs = ", ".join(f"{k}={v:g}" for k, v in self.knobs.items())
        return f"<throng.Scene {self.name!r} ({self.agent_count} walkers{'; ' + knobs if knobs else ''})>"


def _scene(scene: Union[Scene, PathLike]) -> Scene:
    return scene if isinstance(scene, Scene) else Scene.load(scene)


class Run:
    """A scene running (``throng::SceneRun``), stepped by a fixed dt.

    ``Run(scene, seed=3)`` is ``throng run SCENE --seed 3``: the separation
    gate checks every step (``gate=False`` skips it, and the summary's gap
    figures with it), ``backend`` is ``"auto"`` (CUDA when there is a device),
    ``"cpu"`` or ``"cuda"``. With ``record=True`` every frame is kept, for
    :meth:`export`, :meth:`trajectory` and :meth:`to_pedpy`.

    The state arrays (``x``, ``y``, ``vx``, ``vy``, ``radii``, ``groups``,
    ``jammed``, ``ids``) are read-only numpy views of the crowd's own memory,
    no copy. An array keeps the frame it was taken from: a later step moves
    that frame's memory to the array instead of changing it, and closing or
    freeing the run never frees memory an array still reads. ``positions``
    and ``velocities`` are (n, 2) copies (the memory is by column), made once
    per frame. After :meth:`close`, every property raises RuntimeError.

    Stepping releases the GIL; Ctrl-C stops a long step() at a step boundary.
    """

    def __init__(self, scene: Union[Scene, PathLike], seed: Optional[int] = None, backend: str = "auto", *,
                 threads: Optional[int] = None, dt: Optional[float] = None, gate: bool = True,
                 record: bool = False):
        s = _scene(scene)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)):
            raise TypeError(f"seed: expects a whole number, got {seed!r}")
        if seed is not None and not 0 <= int(seed) < 2**64:
            raise ValueError(f"seed: expects a whole number in [0, 2^64), got {seed}")
        self._core = _throng.Run(s._core, None if seed is None else int(seed), backend,
                                 None if threads is None else int(threads), None if dt is None else float(dt),
                                 bool(gate), bool(record))

    # ---- stepping ----
    def step(self, n: int = 1) -> "Run":
        """Takes n steps of dt (the GIL released); returns self."""
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 0 <= n <= _throng.MAX_RUN_STEPS:
            raise ValueError(f"n: expects a whole number in [0, {_throng.MAX_RUN_STEPS}], got {n!r}")
        self._core.step(int(n))
        return self

    def advance(self, seconds: float) -> "Run":
        """Steps ``seconds`` of simulated time, rounded up to whole steps (``--seconds``)."""
        self._core.step(self._core.steps_for(float(seconds)))
        return self

    def until_done(self) -> int:
        """Steps up to the scene's duration, stopping once all arrived (``throng
        run`` without --steps or --seconds); returns the steps taken."""
        return self._core.until_done()

    def close(self) -> None:
        """Frees the run; arrays taken before keep their frame."""
        self._core.close()

    @property
    def closed(self) -> bool:
        return self._core.closed

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- state ----
    @property
    def positions(self) -> np.ndarray:
        """(n, 2) float32, world units; a read-only copy made once per frame."""
        return self._core.positions

    @property
    def velocities(self) -> np.ndarray:
        """(n, 2) float32, units/s; a read-only copy made once per frame."""
        return self._core.velocities

    @property
    def x(self) -> np.ndarray:
        """(n,) float32 view, read-only."""
        return self._core.x

    @property
    def y(self) -> np.ndarray:
        return self._core.y

    @property
    def vx(self) -> np.ndarray:
        return self._core.vx

    @property
    def vy(self) -> np.ndarray:
        return self._core.vy

    @property
    def radii(self) -> np.ndarray:
        return self._core.radii

    @property
    def groups(self) -> np.ndarray:
        """(n,) int32 view."""
        return self._core.groups

    @property
    def jammed(self) -> np.ndarray:
        """(n,) bool view: no permitted velocity in the last step."""
        return self._core.jammed

    @property
    def ids(self) -> np.ndarray:
        """(n,) uint64 view: stable ids, as the export writes them."""
        return self._core.ids

    @property
    def count(self) -> int:
        """Walkers present now."""
        return self._core.count

    @property
    def step_count(self) -> int:
        return self._core.step_count

    @property
    def time(self) -> float:
        """Simulated seconds."""
        return self._core.time

    @property
    def dt(self) -> float:
        return self._core.dt

    @property
    def arrived(self) -> int:
        return self._core.arrived

    @property
    def agents_ever(self) -> int:
        return self._core.agents_ever

    @property
    def all_arrived_time(self) -> Optional[float]:
        return self._core.all_arrived_time

    @property
    def backend(self) -> str:
        return self._core.backend

    @property
    def state_hash(self) -> int:
        """The 64-bit hash of the whole state; ``summary()["hash"]`` is its hex."""
        return self._core.state_hash

    @property
    def scene(self) -> Scene:
        """The scene as this run was made from it (seed and settings applied)."""
        return Scene(self._core.scene)

    def summary(self) -> Dict[str, Any]:
        """The same fields, in the same order, as ``throng run --summary``."""
        return json.loads(self._core.summary_json())

    # ---- trajectories ----
    def export(self, path: PathLike, format: str = "pedpy") -> None:
        """Writes every recorded frame as ``throng run --export PATH --format F``
        would, byte for byte (needs ``record=True``); complete or absent."""
        self._core.export(os.fspath(path), format)

    def trajectory(self) -> Dict[str, np.ndarray]:
        """The recorded frames by column (copies): id, frame, time, x, y, vx, vy,
        jammed, group, one row per walker per frame (needs ``record=True``)."""
        return self._core.trajectory()

    def to_pedpy(self, with_area: bool = False):
        """The recorded trajectory as a PedPy ``TrajectoryData`` (needs PedPy and
        ``record=True``). Coordinates are the float32 values, widened. With
        ``with_area=True``, the pair (trajectory, :meth:`walkable_area`), so
        PedPy's methods need no geometry by hand."""
        try:
            import pandas as pd
            import pedpy
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(f"to_pedpy needs PedPy: pip install pedpy ({e})") from e
        t = self.trajectory()
        data = pd.DataFrame({"id": t["id"].astype(np.int64), "frame": t["frame"].astype(np.int64),
                             "x": t["x"].astype(np.float64), "y": t["y"].astype(np.float64)})
        traj = pedpy.TrajectoryData(data=data, frame_rate=1.0 / self.dt)
        return (traj, self.walkable_area()) if with_area else traj

    def walkable_area(self, margin: float = 1.0, wall_width: float = 0.01):
        """The scene's walkable area as a PedPy ``WalkableArea`` (needs PedPy),
        for PedPy's Voronoi methods with no geometry by hand; its WKT is
        ``walkable_area().polygon.wkt``.

        It is the box around the walls, the obstacles, the measurements and
        every recorded position (the current ones without ``record=True``),
        ``margin`` units wider on each side, less the obstacles and the walls
        (each ``wall_width`` units wide, flat at its ends, so a door keeps its
        width). Where walls cut the box in pieces, the piece that holds the
        most positions. A scene that names its walkable area (its "geometry")
        gives that instead, as it is."""
        try:
            import pedpy
            import shapely
            from shapely.geometry import LineString, Polygon, box
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(f"walkable_area needs PedPy: pip install pedpy ({e})") from e
        scene = self._core.scene
        if scene.has_walkable_area:
            return pedpy.WalkableArea(scene.walkable_area_wkt)
        if self._core.recording:
            t = self.trajectory()
            xs, ys = t["x"].astype(np.float64), t["y"].astype(np.float64)
        else:
            xs, ys = np.asarray(self.x, dtype=np.float64), np.asarray(self.y, dtype=np.float64)
        shapes = list(scene.walls) + list(scene.obstacles) + [m["points"] for m in scene.measurements]
        every = np.concatenate([np.column_stack([xs, ys])] + shapes) if shapes or len(xs) else np.zeros((0, 2))
        if len(every) == 0:
            raise ValueError("walkable_area: the scene has no walls, obstacles, measurements or walkers")
        lo, hi = every.min(axis=0) - margin, every.max(axis=0) + margin
        area = box(lo[0], lo[1], hi[0], hi[1])
        cuts = [Polygon(o).buffer(0) for o in scene.obstacles]
        cuts += [LineString(w).buffer(wall_width / 2, cap_style="flat", join_style="mitre") for w in scene.walls]
        if cuts:
            area = area.difference(shapely.union_all(cuts))
        if area.geom_type == "MultiPolygon":
            area = max(area.geoms, key=lambda g: int(shapely.contains_xy(g, xs, ys).sum()))
        return pedpy.WalkableArea(area)

    def pedpy_measurements(self) -> Dict[str, Any]:
        """The scene's measurement lines and areas as PedPy ``MeasurementLine``
        and ``MeasurementArea`` (PedPy wants its areas convex), by name."""
        try:
            import pedpy
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(f"pedpy_measurements needs PedPy: pip install pedpy ({e})") from e
        out = {}
        for m in self._core.scene.measurements:
            points = [tuple(map(float, p)) for p in m["points"]]
            out[m["name"]] = pedpy.MeasurementLine(points) if m["kind"] == "line" else pedpy.MeasurementArea(points)
        return out

    def measurements(self) -> Dict[str, Dict[str, Any]]:
        """The scene's measurement lines and areas since the start, by name,
        as numpy arrays (copies), a value per step: ``time`` (s, each step's
        end) and ``points``; a line's ``forward``, ``backward`` (crossings in
        the step) and ``crossed`` (every crossing so far, N(t)), with
        ``crossings`` (``time``, ``id``, ``direction``: +1 forward, from the
        line's left to its right); an area's ``inside``, ``density`` (per
        square unit), ``mean_speed`` and ``specific_flow``, with its ``area``."""
        return self._core.measurements()

    def fields(self, target: int = 0) -> Optional[Dict[str, Any]]:
        """The fields of the last refresh (continuum, or routing = field) as 2-D
        arrays (copies): density, velocity_x, velocity_y, height, discomfort,
        potential (of ``target``), blocked (rows, cols), speed and cost (rows,
        cols, 4: east, north, west, south), with origin and cell. None when no
        field was built."""
        return self._core.fields(int(target))

    def __repr__(self) -> str:
        if self.closed:
            return "<throng.Run (closed)>"
        return (f"<throng.Run {self._core.scene.name!r} step {self.step_count}, t={self.time:g} s, "
                f"{self.count} walkers, {self.backend}>")


def run(scene: Union[Scene, PathLike], *, seed: Optional[int] = None, steps: Optional[int] = None,
        seconds: Optional[float] = None, dt: Optional[float] = None, threads: Optional[int] = None,
        backend: str = "auto", export: Optional[PathLike] = None, format: str = "pedpy",
        summary: Optional[PathLike] = None, **values: Any) -> Dict[str, Any]:
    """``throng run`` as a call: the same steps (``steps``, else ``seconds``,
    else the scene's duration stopping once all arrived), export (streamed,
    complete or absent) and summary, which it returns (and writes to
    ``summary`` when given). ``values`` are knobs and settings, as ``--set``."""
    s = _scene(scene).copy()
    if seed is not None:
        s.set(seed=seed)
    if dt is not None:
        s.set(maxStep=dt)
    if threads is not None:
        s.set(threads=threads)
    s.set(**values)
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 0):
        raise ValueError(f"steps: expects a whole number, got {steps!r}")
    text = _throng.run_scene(s._core, None if steps is None else int(steps),
                             None if seconds is None else float(seconds), backend,
                             "" if export is None else os.fspath(export), format,
                             "" if summary is None else os.fspath(summary))
    return json.loads(text)


def scenes() -> Dict[str, str]:
    """The shipped scenes: name -> file."""
    return dict(_throng.list_scenes())


def settings() -> List[Dict[str, Any]]:
    """Every setting: name, unit, kind, limits, default, help, models."""
    return _throng.settings_table()


def models() -> List[str]:
    """The crowd models a scene may name."""
    return list(_throng.model_names())


def cuda_available() -> bool:
    """True when this build has the CUDA backend and a device is present."""
    return bool(_throng.cuda_available()[0])
