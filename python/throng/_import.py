"""Floor plans in: a DXF drawing's walls, obstacles and exits, by layer, as a
scene that loads and runs (``throng import``, ``throng.import_dxf``).

Design note.

Reading. ezdxf reads the file (ASCII or binary DXF, any version). Only model
space is read. A block INSERT is expanded through ezdxf's virtual entities,
nested blocks and MINSERT arrays included, so a block drawn once and placed
many times lands where it is placed; an entity inside a block on layer "0"
takes the layer of the INSERT that places it (the DXF rule), any other keeps
its own. Every curve (LINE, LWPOLYLINE and POLYLINE with their bulges, ARC,
CIRCLE, ELLIPSE, SPLINE, and the loops of a HATCH) is flattened to straight
segments no further than ``tolerance`` (metres) from the curve. Text,
dimensions and the like are left out and counted. Coordinates are scaled to
metres by the file's $INSUNITS, else by ``units``, and snapped to a 1 mm
grid, on which every operation below is done, so lines that meet to the
millimetre meet exactly.

The walkable area. The scene's "geometry" is the floor: the area the walls
enclose, with the exits where they close the outline's gaps, less the
obstacles. With shapely:

1. Node every wall line with the outlines of the exits and the obstacles
   (their union splits each line where another crosses it), and polygonize
   the result: the faces, every bounded area no line crosses. A partition
   with a door gap is a dangle inside one face, so rooms joined by doors are
   one face; a wall with no way round it splits two faces.
2. Drop the faces that are not floor, unless an exit overlaps them: those
   no walker fits in (no disc of ``WALKER_RADIUS`` inside: the body of a
   wall drawn as two lines, the slot between a desk and the wall), and the
   islands, faces inside a hole of another face (a column drawn on a wall
   layer, a closed room with no door, a courtyard). The rest, unioned, less
   the obstacles (as holes, or as notches where they touch a wall), is the
   floor.
3. A wall line on the floor's boundary is the boundary: the loader walls
   every ring of the geometry. A wall line inside the floor, a partition
   with its doors, is a "walls" polyline of its own. Wall lines outside the
   floor (outside the building, inside an obstacle) are left out.
4. Each exit is a target region and a sink, both its bounding box; walkers
   route by field (``"routing": "field"``), down one potential to the
   nearest exit round the walls, so a walker in a room finds its door: a
   straight line to the exit would walk it into its room's wall. The
   field's cells are 0.25 m (SETTINGS), so the grid keeps every door a
   walker fits through open. Where an exit meets the floor along one
   straight line, that line is a measurement line, forward into the exit,
   so a run reports each exit's count and flow.

Refusals are :class:`PlanError`, one line naming the file: a layer the file
does not have (with the ones it has), a file that is not a whole DXF, walls
that enclose nothing, an exit layer with no closed shape, an exit that
touches no floor.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ._files import write_whole

PathLike = Union[str, "os.PathLike[str]"]

#: Coordinates are snapped to this grid, m (1 mm).
GRID = 0.001
#: An overlap or a leftover smaller than this, m², is the overlay's rounding
#: on the grid, not area.
SLIVER = 1e-3
#: The walkers' radius, m, and their top speed, m/s (the shipped metric scenes').
WALKER_RADIUS = 0.2
WALKER_SPEED = 1.34
#: The density knob's range, walkers per m² (widened to take a default
#: outside it), and the most a default may be: a fill generator places each
#: walker in a cell of its own, which holds a 0.4 m disc up to 6.25 per m².
DENSITY_MIN, DENSITY_MAX, DENSITY_LIMIT = 0.1, 3, 6
#: The chord tolerance, m: no flattened curve strays further from the curve.
TOLERANCE = 0.05
#: The largest coordinate kept where it is, m; a plan further out (a survey's
#: coordinates) is moved to the origin, since the simulation's floats are a
#: millimetre apart near 1e4 m and nearly a centimetre near 1e5 m.
FAR = 1e5
#: Blocks nested deeper than this are refused (a block that inserts itself).
MAX_NESTING = 32
#: The settings of the shipped metric ORCA scenes (evacuation.json): the pace,
#: the kinematic envelope and the right of way; field routing's cell at 0.25 m
#: so a door as narrow as a walker's shoulders still has an open face.
SETTINGS = {"timeHorizon": 1, "obstacleTimeHorizon": 0.5, "perceptionRadius": 3, "maxNeighbors": 10, "maxStep": 0.05,
            "maxAccel": 2, "maxDecel": 4, "paceLength": 0.36, "paceTimeGap": 1.2, "personalSpace": 0.8,
            "markerDensity": 24, "markerGain": 1.1, "rightOfWay": 1, "fieldCell": 0.25}
#: A door's specific flow for the duration's estimate, walkers per m per s.
SPECIFIC_FLOW = 1.3

#: What --units means, metres per drawing unit.
UNITS = {"m": 1.0, "cm": 0.01, "mm": 0.001}


class PlanError(ValueError):
    """A plan that cannot become a scene: one line (a control character
    from the file, in a layer's name, is shown escaped)."""

    def __init__(self, message: str):
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


class MissingDependency(ImportError):
    """ezdxf or shapely is not installed in this Python."""


def _need(name: str) -> Any:
    """The module ``name`` (ezdxf or shapely), imported only when an import
    runs; MissingDependency saying how to get it if this Python lacks it."""
    try:
        module = __import__(name)
    except ImportError:
        raise MissingDependency(f"throng import needs {name}: pip install {name}") from None
    if name == "shapely" and int(module.__version__.split(".")[0]) < 2:
        raise MissingDependency(f"throng import needs shapely 2 (this is {module.__version__}): "
                                "pip install 'shapely>=2'")
    return module


# ---- reading the drawing -----------------------------------------------------------

@dataclass
class _Shape:
    """One flattened piece of the drawing, in metres."""
    layer: str                         # the effective layer, as the file spells it
    points: List[Tuple[float, float]]  # m
    closed: bool


@dataclass
class _Drawing:
    shapes: List[_Shape] = field(default_factory=list)
    skipped: Dict[str, int] = field(default_factory=dict)   # "TEXT on WALLS" -> how many left out
    layers: Dict[str, str] = field(default_factory=dict)    # upper-case name -> as spelled
    scale: float = 1.0                                      # metres per drawing unit
    units_said: str = ""                                    # where the scale came from


def _read(path: Path) -> Any:
    ezdxf = _need("ezdxf")
    if path.is_dir():
        raise PlanError(f"{path}: is a folder, not a DXF file")
    try:
        return ezdxf.readfile(str(path))
    except FileNotFoundError:
        raise PlanError(f"{path}: no such file") from None
    except PermissionError:
        raise PlanError(f"{path}: cannot be read (permission denied)") from None
    except ezdxf.DXFStructureError as e:
        why = str(e).removeprefix("DXFStructureError: ").rstrip(".")
        raise PlanError(f"{path}: not a whole DXF file, truncated or damaged ({why})") from None
    except OSError as e:  # ezdxf's "File ... is not a DXF file." for anything else
        raise PlanError(f"{path}: not a DXF file" + (f" ({e.strerror})" if e.strerror else "")) from None
    except (MemoryError, KeyboardInterrupt):
        raise
    except StopIteration:
        raise PlanError(f"{path}: not a whole DXF file, truncated or damaged (it ends early)") from None
    except Exception as e:  # noqa: BLE001: a damaged file ends ezdxf's reader in many ways
        why = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        raise PlanError(f"{path}: not a whole DXF file, truncated or damaged ({why})") from None


def _scale(doc: Any, units: Optional[str]) -> Tuple[float, str]:
    """Metres per drawing unit, and a phrase saying where it came from."""
    import ezdxf.units
    code = doc.header.get("$INSUNITS", 0)
    if code:
        try:
            factor = ezdxf.units.conversion_factor(code, ezdxf.units.M)
            name = ezdxf.units.decode(code)
        except (KeyError, IndexError, TypeError, ValueError):
            factor, name = 0.0, ""
        if factor > 0:
            return factor, f"{name} ($INSUNITS {code})"
    u = units or "m"
    return UNITS[u], f"{u} ({'--units' if units else 'the default'}; the file's $INSUNITS says none)"


def _walk(entities: Iterable[Any], parent: Optional[str], depth: int,
          skipped: Dict[str, int]) -> Iterator[Tuple[str, Any]]:
    """(effective layer, entity) for every entity, INSERTs expanded; an
    INSERT ezdxf cannot expand (a missing block) is counted in ``skipped``."""
    for e in entities:
        layer = e.dxf.get("layer", "0") or "0"
        if layer == "0" and parent is not None:
            layer = parent
        if e.dxftype() != "INSERT":
            yield layer, e
            continue
        name = e.dxf.get("name", "?")
        if depth >= MAX_NESTING:
            raise PlanError(f"blocks nested deeper than {MAX_NESTING} (a block that inserts itself?): block {name!r}")
        try:
            placed = [list(one.virtual_entities()) for one in (e.multi_insert() if e.mcount > 1 else [e])]
        except (MemoryError, KeyboardInterrupt, PlanError):
            raise
        except Exception:  # noqa: BLE001: a damaged or missing block
            key = f"INSERT of block {name} on {layer} (it cannot be expanded)"
            skipped[key] = skipped.get(key, 0) + 1
            continue
        for children in placed:
            yield from _walk(children, layer, depth + 1, skipped)


def _flatten(e: Any, tolerance: float) -> Optional[List[Tuple[List[Tuple[float, float]], bool]]]:
    """An entity's curves as point lists in drawing units, each with whether
    it is closed; None for an entity with no outline (text, a dimension) or
    one ezdxf cannot trace (a spline without its points)."""
    from ezdxf import path as ezpath
    try:
        p = ezpath.make_path(e)
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception:  # noqa: BLE001: TypeError for a type with no outline, others for damaged entities
        return None
    out = []
    for sub in p.sub_paths():
        pts = [(v.x, v.y) for v in sub.flattening(tolerance, segments=4)]
        if len(pts) < 2:
            continue
        closed = sub.is_closed or (len(pts) > 3 and pts[0] == pts[-1])
        out.append((pts, closed))
    return out


def _drawing(path: Path, wanted: Sequence[str], units: Optional[str], tolerance: float) -> _Drawing:
    doc = _read(path)
    d = _Drawing()
    d.scale, d.units_said = _scale(doc, units)
    for layer in doc.layers:
        d.layers.setdefault(layer.dxf.name.upper(), layer.dxf.name)
    msp = doc.modelspace()
    pieces: List[Tuple[str, Any]] = []
    try:
        for layer, e in _walk(msp, None, 0, d.skipped):
            d.layers.setdefault(layer.upper(), layer)
            pieces.append((layer, e))
    except PlanError as e:
        raise PlanError(f"{path}: {e}") from None
    missing = [w for w in wanted if w.upper() not in d.layers]
    if missing:
        has = ", ".join(sorted(d.layers.values(), key=str.upper))
        names = ", ".join(repr(m) for m in missing)
        raise PlanError(f"{path}: no layer {names} (the file has: {has})")
    keep = {w.upper() for w in wanted}
    for layer, e in pieces:
        if layer.upper() not in keep:
            continue
        curves = _flatten(e, tolerance / d.scale)
        if curves is None:
            key = f"{e.dxftype()} on {layer}"
            d.skipped[key] = d.skipped.get(key, 0) + 1
            continue
        for pts, closed in curves:
            d.shapes.append(_Shape(layer, [(x * d.scale, y * d.scale) for x, y in pts], closed))
    return d


# ---- the floor ---------------------------------------------------------------------

def _number(v: float) -> Union[int, float]:
    """A whole number as an int, so the file reads [0, 6], not [0.0, 6.0]."""
    return int(v) if float(v).is_integer() else v


def _rounded(v: float) -> Union[int, float]:
    """v on the grid (1 mm), as _number writes it."""
    r = round(round(v / GRID) * GRID, 3)
    return _number(0.0 if r == 0 else r)


def _xy(coords: Iterable[Sequence[float]]) -> List[List[float]]:
    """Points rounded to the grid, consecutive repeats dropped."""
    out: List[List[float]] = []
    for c in coords:
        p = [_rounded(c[0]), _rounded(c[1])]
        if not out or p != out[-1]:
            out.append(p)
    return out


def _polygons(g: Any) -> List[Any]:
    """The polygons of any geometry (a collection's polygonal parts)."""
    shapely = _need("shapely")
    return [p for p in shapely.get_parts(g) if p.geom_type == "Polygon" and not p.is_empty] + \
        [q for p in shapely.get_parts(g) if p.geom_type in ("MultiPolygon", "GeometryCollection")
         for q in _polygons(p)]


def _closed_polygon(points: List[Tuple[float, float]]) -> Any:
    """A closed outline as a valid polygon (a self-crossing one made valid),
    or None for one that encloses nothing."""
    shapely = _need("shapely")
    if len(set(points)) < 3:
        return None
    poly = shapely.Polygon(points)
    if not poly.is_valid:
        poly = shapely.make_valid(poly)
    poly = shapely.set_precision(poly, GRID)
    parts = [p for p in _polygons(poly) if p.area > SLIVER * GRID]
    return shapely.union_all(parts) if parts else None


def _bbox(g: Any) -> List[float]:
    x0, y0, x1, y1 = g.bounds
    return [_rounded(x0), _rounded(y0), _rounded(x1 - x0), _rounded(y1 - y0)]


def _entry_line(exit_poly: Any, rest: Any, walls: Any) -> Optional[List[List[float]]]:
    """Where an exit meets the rest of the floor, as a measurement line
    (forward into the exit), when that is one straight segment; else None."""
    shapely = _need("shapely")
    edge = shapely.intersection(exit_poly.boundary, rest, grid_size=GRID)
    if walls is not None and not walls.is_empty:
        edge = shapely.difference(edge, walls, grid_size=GRID)
    lines = [g for g in shapely.get_parts(shapely.line_merge(edge))
             if g.geom_type == "LineString" and g.length > 2 * WALKER_RADIUS]
    if len(lines) != 1:
        return None
    line = lines[0]
    a, b = line.coords[0], line.coords[-1]
    chord = shapely.LineString([a, b])
    if chord.length <= 0 or shapely.hausdorff_distance(line, chord) > 0.01:
        return None
    dx, dy = (b[0] - a[0]) / chord.length, (b[1] - a[1]) / chord.length
    mid = ((a[0] + b[0]) / 2 + 0.01 * dy, (a[1] + b[1]) / 2 - 0.01 * dx)  # a step to the line's right
    if not exit_poly.contains(shapely.Point(mid)):
        a, b = b, a
    return _xy([a, b])


@dataclass
class _Floor:
    walkable: Any                   # Polygon or MultiPolygon, m
    walls: List[List[List[float]]]  # the interior wall polylines
    exits: List[Any]                # one polygon per exit, in file order


def _floor(d: _Drawing, path: Path, walls: Sequence[str], obstacles: Sequence[str], exits: Sequence[str]) -> _Floor:
    shapely = _need("shapely")
    up = lambda names: {n.upper() for n in names}  # noqa: E731
    wall_set, obstacle_set, exit_set = up(walls), up(obstacles), up(exits)
    wall_lines, obstacle_polys, exit_polys = [], [], []
    for s in d.shapes:
        layer = s.layer.upper()
        # A layer named under several flags is each: an exit first, then an
        # obstacle, then a wall.
        if layer in exit_set:
            poly = _closed_polygon(s.points) if s.closed else None
            if poly is not None:
                exit_polys.append(poly)
            else:
                key = f"an open or empty shape on {s.layer} (an exit is a closed one)"
                d.skipped[key] = d.skipped.get(key, 0) + 1
            continue
        if layer in obstacle_set and s.closed:
            poly = _closed_polygon(s.points)
            if poly is not None:
                obstacle_polys.append(poly)
            continue
        if layer in wall_set or layer in obstacle_set:  # an open shape on an obstacle layer is a wall
            line = shapely.set_precision(shapely.LineString(s.points), GRID)
            if not line.is_empty and line.length > 0:
                wall_lines.append(line)
    if exits and not exit_polys:
        raise PlanError(f"{path}: no closed shape on the exit layers {', '.join(exits)} "
                        "(an exit is a closed outline drawn across a gap in the walls)")

    # 1. Node and polygonize.
    outlines = [shapely.get_exterior_ring(p) for p in _flat(exit_polys + obstacle_polys)]
    linework = shapely.union_all(wall_lines + outlines, grid_size=GRID)
    faces = _polygons(shapely.polygonize(list(shapely.get_parts(linework))))
    exit_union = shapely.union_all(exit_polys, grid_size=GRID) if exit_polys else None
    obstacle_union = shapely.union_all(obstacle_polys, grid_size=GRID) if obstacle_polys else None

    # 2. The faces that are floor, less the obstacles. A face an exit
    # overlaps is floor; else one no walker fits in is not (a wall's body),
    # nor is an island, a face inside a hole of another (a column, a closed
    # room with no door, a courtyard).
    holes = shapely.union_all([shapely.Polygon(r) for f in faces for r in f.interiors], grid_size=GRID)
    kept = []
    for f in faces:
        if exit_union is not None and shapely.intersection(f, exit_union, grid_size=GRID).area > SLIVER:
            kept.append(f)
        elif not f.buffer(-WALKER_RADIUS).is_empty and not holes.contains(f.representative_point()):
            kept.append(f)
    walkable = shapely.union_all(kept, grid_size=GRID) if kept else shapely.Polygon()
    if obstacle_union is not None and not walkable.is_empty:
        walkable = shapely.difference(walkable, obstacle_union, grid_size=GRID)
    parts = [p for p in _polygons(walkable) if p.area >= math.pi * WALKER_RADIUS ** 2]
    if not parts:
        raise PlanError(f"{path}: the walls on layers {', '.join(walls)} enclose no area; close the outline "
                        "or draw the exits across its gaps")
    # normalize: each ring from its least point, the same text whatever
    # order the overlay made it in.
    walkable = shapely.normalize(shapely.MultiPolygon(parts) if len(parts) > 1 else parts[0])

    # Each exit must join some floor beyond itself.
    for i, e in enumerate(exit_polys, start=1):
        joined = [p for p in parts if shapely.intersection(p, e, grid_size=GRID).area > SLIVER]
        if not joined or all(shapely.difference(p, e, grid_size=GRID).area < SLIVER for p in joined):
            x, y, w, h = _bbox(e)
            raise PlanError(f"{path}: exit {i} (at x {x} to {_rounded(x + w)}, y {y} to {_rounded(y + h)}) touches no "
                            "floor: draw it across a gap in the walls")

    # 3. Wall lines inside the floor, off its boundary.
    inner: List[List[List[float]]] = []
    if wall_lines:
        net = shapely.union_all(wall_lines, grid_size=GRID)
        off = shapely.difference(net, walkable.boundary, grid_size=GRID)
        inside = shapely.intersection(off, walkable, grid_size=GRID)
        merged = shapely.line_merge(shapely.union_all(
            [g for g in shapely.get_parts(inside) if g.geom_type in ("LineString", "MultiLineString")],
            grid_size=GRID))
        for g in shapely.get_parts(merged):
            if g.geom_type == "LineString" and g.length >= 0.01:
                pts = _xy(g.coords)
                if len(pts) >= 2:
                    inner.append(pts)
    return _Floor(walkable, sorted(inner), exit_polys)


def _flat(polys: List[Any]) -> List[Any]:
    return [q for p in polys for q in _polygons(p)]


# ---- the scene ---------------------------------------------------------------------

def _wkt(g: Any) -> str:
    shapely = _need("shapely")
    return shapely.to_wkt(g, rounding_precision=3, trim=True)


def _shift(g: Any, dx: float, dy: float) -> Any:
    shapely = _need("shapely")
    return shapely.transform(g, lambda c: c - [dx, dy])


def import_dxf(path: PathLike, walls: Union[str, Sequence[str]], obstacles: Union[str, Sequence[str]] = (),
               exits: Union[str, Sequence[str]] = (), units: Optional[str] = None, density: float = 1.0,
               tolerance: float = TOLERANCE) -> Dict[str, Any]:
    """A DXF floor plan as a scene (a dict, ready for ``json.dump`` or
    ``throng.Scene.parse(json.dumps(...))``).

    ``walls``, ``obstacles`` and ``exits`` are layer names, or one name
    (case does not matter, as in DXF): every line, polyline, arc, circle, ellipse, spline
    and hatch on them, blocks expanded, flattened to ``tolerance`` metres.
    The floor the walls enclose (with the exits across its gaps, less the
    obstacles) is the scene's "geometry"; walls inside it are its "walls";
    each closed shape on an exit layer is a target and a sink. ``units`` (m,
    cm or mm) is the drawing's unit when its $INSUNITS header says none
    (default m). ``density`` is the "density" knob's default, walkers per
    m² at the start.

    Raises PlanError (a ValueError) with one line for a plan that cannot
    become a scene, MissingDependency (an ImportError) without ezdxf or
    shapely.
    """
    return _import(path, walls, obstacles, exits, units, density, tolerance)[0]


def _import(path: PathLike, walls: Sequence[str], obstacles: Sequence[str], exits: Sequence[str],
            units: Optional[str], density: float, tolerance: float) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """import_dxf's scene, and what main says about it (the floor's area,
    its holes, what was left out, where the plan was moved)."""
    _need("ezdxf")
    shapely = _need("shapely")
    path = Path(path)
    walls, obstacles, exits = ([n] if isinstance(n, str) else list(n) for n in (walls, obstacles, exits))
    if not walls:
        raise PlanError("walls: name at least one layer")
    for what, names in (("walls", walls), ("obstacles", obstacles), ("exits", exits)):
        if not all(isinstance(n, str) for n in names):
            raise PlanError(f"{what}: expects layer names, got {names!r}")
    if units is not None and units not in UNITS:
        raise PlanError(f"units: expects one of {', '.join(UNITS)}, got {units!r}")
    if not (isinstance(density, (int, float)) and math.isfinite(density) and 0 < density <= DENSITY_LIMIT):
        raise PlanError(f"density: expects a number in (0, {DENSITY_LIMIT:g}] walkers per m², got {density!r}")
    if not (isinstance(tolerance, (int, float)) and math.isfinite(tolerance) and 0.001 <= tolerance <= 1):
        raise PlanError(f"tolerance: expects a number in [0.001, 1] m, got {tolerance!r}")

    d = _drawing(path, walls + obstacles + exits, units, tolerance)
    floor = _floor(d, path, walls, obstacles, exits)
    walkable, exit_polys = floor.walkable, floor.exits

    # Far from the origin: move the plan there (the simulation's floats).
    x0, y0, x1, y1 = walkable.bounds
    moved = ""
    if max(abs(x0), abs(y0), abs(x1), abs(y1)) > FAR:
        dx, dy = _rounded(x0), _rounded(y0)
        walkable = _shift(walkable, dx, dy)
        exit_polys = [_shift(e, dx, dy) for e in exit_polys]
        floor.walls = [[[_rounded(x - dx), _rounded(y - dy)] for x, y in w] for w in floor.walls]
        moved = f"; moved by ({_rounded(-dx)}, {_rounded(-dy)}) m to the origin"

    # Each exit's entry line, where one is straight: its measurement line,
    # and its width for the duration's estimate (else the box's short side).
    lines, exit_width = [], 0.0
    if exit_polys:
        rest = shapely.difference(walkable, shapely.union_all(exit_polys, grid_size=GRID), grid_size=GRID)
        wall_net = shapely.union_all([shapely.LineString(w) for w in floor.walls] + [walkable.boundary],
                                     grid_size=GRID)
        for i, e in enumerate(exit_polys, start=1):
            line = _entry_line(e, rest, wall_net)
            if line is not None:
                lines.append({"name": f"exit {i}", "line": line})
                exit_width += math.dist(*line)
            else:
                ex0, ey0, ex1, ey1 = e.bounds
                exit_width += max(min(ex1 - ex0, ey1 - ey0), 2 * WALKER_RADIUS)
    area = walkable.area
    x0, y0, x1, y1 = walkable.bounds
    # Long enough for everyone out at the knob's highest density through the
    # exits' total width, plus three crossings of the plan; a run stops early
    # once everyone is out.
    knob_max = max(DENSITY_MAX, density)
    walk = 3 * math.hypot(x1 - x0, y1 - y0) / WALKER_SPEED
    queue = knob_max * area / (SPECIFIC_FLOW * exit_width) if exit_width > 0 else 0

    scene: Dict[str, Any] = {
        "name": path.stem,
        "description": (f"Imported from {path.name} by throng import: walls on {', '.join(walls)}"
                        + (f", obstacles on {', '.join(obstacles)}" if obstacles else "")
                        + (f", exits on {', '.join(exits)}" if exits else "")
                        + f"; drawn in {d.units_said}{moved}."),
        "model": "orca",
        "units": "m",
        "duration": int(max(60, math.ceil((walk + queue) / 10) * 10)),
        "settings": dict(SETTINGS),
    }
    if exit_polys:
        scene["routing"] = "field"
    scene["knobs"] = {"density": {"min": min(DENSITY_MIN, density), "max": knob_max, "default": _number(density),
                                  "help": "walkers per m² in the walkable area at the start"}}
    scene["agentDefaults"] = {"radius": WALKER_RADIUS, "maxSpeed": WALKER_SPEED}
    scene["geometry"] = {"wkt": _wkt(walkable)}
    if floor.walls:
        scene["walls"] = floor.walls
    if exit_polys:
        scene["targets"] = [{"name": "exits", "regions": [_bbox(e) for e in exit_polys]}]
    scene["generators"] = [{"type": "fill", "region": _bbox(walkable), "density": {"knob": "density"}}]
    if exit_polys:
        scene["sinks"] = [{"region": _bbox(e)} for e in exit_polys]
    if lines:
        scene["measurements"] = lines
    holes = sum(len(p.interiors) for p in shapely.get_parts(walkable))
    return scene, {"area": area, "holes": holes, "skipped": d.skipped, "moved": moved.lstrip("; ")}


# ---- writing -----------------------------------------------------------------------

def scene_text(scene: Dict[str, Any]) -> str:
    """A scene as the shipped files lay it out: a key a line, a list's
    elements a line each, every value compact."""
    def compact(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    lines = []
    for k, v in scene.items():
        if isinstance(v, list) and v:
            body = ",\n".join("    " + compact(x) for x in v)
            lines.append(f"  {json.dumps(k)}: [\n{body}\n  ]")
        elif isinstance(v, dict) and k == "knobs":
            body = ",\n".join(f"    {json.dumps(n)}: {compact(x)}" for n, x in v.items())
            lines.append(f"  {json.dumps(k)}: {{\n{body}\n  }}")
        else:
            lines.append(f"  {json.dumps(k)}: {compact(v)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: Optional[List[str]] = None, prog: str = "python -m throng import") -> int:
    ap = argparse.ArgumentParser(
        prog=prog, description="Turns a DXF floor plan into a scene: the floor its walls enclose, the obstacles "
                               "as holes, each closed exit shape a target and a sink, walkers filling the floor.")
    ap.add_argument("plan", metavar="PLAN.dxf")
    # "extend": --walls A B and --walls=A --walls=B alike (throng import
    # passes each name attached, so a name may start with '-').
    ap.add_argument("--walls", nargs="+", action="extend", required=True, metavar="LAYER",
                    help="the layers the walls are on")
    ap.add_argument("--obstacles", nargs="+", action="extend", default=[], metavar="LAYER",
                    help="the layers of obstacles: a closed shape is a hole in the floor, an open one a wall")
    ap.add_argument("--exits", nargs="+", action="extend", default=[], metavar="LAYER",
                    help="the layers of exits: each closed shape becomes a target and a sink")
    ap.add_argument("--units", choices=sorted(UNITS),
                    help="the drawing's unit when its $INSUNITS says none (default m)")
    ap.add_argument("--density", type=float, default=1.0, metavar="D",
                    help="walkers per m² at the start, the density knob's default (default 1)")
    ap.add_argument("--out", required=True, metavar="SCENE.json", help="the scene file to write")
    a = ap.parse_args(argv)
    out = Path(a.out)
    try:
        if out.exists() and Path(a.plan).exists() and out.resolve() == Path(a.plan).resolve():
            raise PlanError(f"--out {out} is the plan itself")
        scene, notes = _import(a.plan, a.walls, a.obstacles, a.exits, a.units, a.density, TOLERANCE)
        write_whole(out, scene_text(scene))
    except MissingDependency as e:
        sys.stderr.write(f"{e} (into {sys.executable}, or set THRONG_PYTHON to a Python that has it)\n")
        return 1
    except PlanError as e:
        sys.stderr.write(f"{prog}: {e}\n")
        return 1
    except OSError as e:
        sys.stderr.write(f"{prog}: cannot write {out}: {e.strerror or e}\n")
        return 1

    def count(n: int, what: str) -> str:
        return f"{n} {what}{'' if n == 1 else 's'}"

    print(f"{prog}: wrote {out}: {notes['area']:.1f} m² of floor, {count(notes['holes'], 'hole')}, "
          f"{count(len(scene.get('walls', [])), 'interior wall')}, {count(len(scene.get('sinks', [])), 'exit')}")
    if notes["moved"]:
        print(f"{prog}: the plan lies far from the origin: {notes['moved']}")
    if notes["skipped"]:
        left = ", ".join(f"{n} {k}" for k, n in sorted(notes["skipped"].items()))
        print(f"{prog}: left out: {left}")
    if not scene.get("sinks"):
        print(f"{prog}: no exits (--exits): the walkers have nowhere to go")
    return 0
