#!/usr/bin/env python3
"""Writes assets/plans/office.dxf, the small floor plan the DXF import's
tests read (`throng import`, tests/python/test_python.py's import cases).

    scripts/make_office_plan.py [--out assets/plans/office.dxf]

Needs ezdxf (pip install ezdxf). The file is written with ezdxf's fixed
metadata (no time stamps, no fresh GUIDs), so running this again gives the
same bytes for the same ezdxf version.

The plan, in metres ($INSUNITS 6), 24 m x 14 m:

    y=14 +--------+--------+--------+
         | room 1 | room 2 | room 3 |      three rooms to the north, each
         |   (o)  |        |        |      with a 1 m door onto the corridor;
    y=8  +--- ----+--- ----+--- ----+      a round table in room 1
    exit   corridor, 2 m wide          exit  open at both ends: the exits
    y=6  +----- ------+----- ------+
         |  room 4    |  room 5 [] |      two rooms to the south, each with
    y=0  +--\____/----+------------+      a door; a bay in room 4's wall,
         x=0          x=12     x=24       two desks in room 5

What each layer holds, and which kind of entity draws it:
- WALLS: the outline as two LWPOLYLINEs (west and east of the exits' gaps;
  the bay is a bulge, an arc of 1 m sagitta), the north corridor wall and
  the room dividers as LINEs, the south corridor wall as two INSERTs of a
  block PARTITION (a 12 m wall with a 1 m door gap, drawn on layer 0 so it
  takes the INSERT's layer);
- FURNITURE: the table as a CIRCLE, and the desks as an INSERT of block
  DESKS that itself inserts block DESK twice (nested; DESK's outline is on
  layer 0, so it lands on FURNITURE);
- EXITS: two closed rectangles, 1 m deep, across the corridor's open ends;
- TEXT and DIMENSIONS: room names and a dimension of the width, which an
  import leaves out (a dimension line across the plan would cut the floor).
"""
import argparse
import pathlib
import sys

import ezdxf

ROOT = pathlib.Path(__file__).resolve().parents[1]


def build():
    doc = ezdxf.new("R2000", setup=True)
    doc.units = ezdxf.units.M  # $INSUNITS 6: metres
    for name, color in (("WALLS", 7), ("FURNITURE", 3), ("EXITS", 1), ("TEXT", 5), ("DIMENSIONS", 8)):
        doc.layers.add(name, color=color)
    msp = doc.modelspace()

    # The outline, open at the corridor's ends (y 6 to 8 at x = 0 and x = 24).
    # South side: from (0, 6) down, along the south wall with a bay between
    # x = 8 and x = 2 (bulge 1/3: an arc of 6 m chord and 1 m sagitta, bowing
    # south), to the south-east corner and up to (24, 6).
    msp.add_lwpolyline([(24, 6, 0), (24, 0, 0), (8, 0, -1 / 3), (2, 0, 0), (0, 0, 0), (0, 6, 0)],
                       format="xyb", dxfattribs={"layer": "WALLS"})
    msp.add_lwpolyline([(0, 8), (0, 14), (24, 14), (24, 8)], dxfattribs={"layer": "WALLS"})

    # The north corridor wall, with a 1 m door into each north room.
    for x0, x1 in ((0, 3.5), (4.5, 11.5), (12.5, 19.5), (20.5, 24)):
        msp.add_line((x0, 8), (x1, 8), dxfattribs={"layer": "WALLS"})
    # Room dividers.
    for x in (8, 16):
        msp.add_line((x, 8), (x, 14), dxfattribs={"layer": "WALLS"})
    msp.add_line((12, 0), (12, 6), dxfattribs={"layer": "WALLS"})

    # The south corridor wall: a 12 m partition with a 1 m door in the
    # middle, as a block on layer 0, inserted twice on WALLS.
    partition = doc.blocks.new("PARTITION")
    partition.add_line((0, 0), (5.5, 0))
    partition.add_line((6.5, 0), (12, 0))
    msp.add_blockref("PARTITION", (0, 6), dxfattribs={"layer": "WALLS"})
    msp.add_blockref("PARTITION", (12, 6), dxfattribs={"layer": "WALLS"})

    # The furniture: a round table 1.2 m across in room 1, and two desks
    # (1.6 m x 0.8 m) in room 5 through a nested block.
    msp.add_circle((4, 11), 0.6, dxfattribs={"layer": "FURNITURE"})
    desk = doc.blocks.new("DESK")
    desk.add_lwpolyline([(0, 0), (1.6, 0), (1.6, 0.8), (0, 0.8)], close=True)
    desks = doc.blocks.new("DESKS")
    desks.add_blockref("DESK", (0, 0))
    desks.add_blockref("DESK", (0, 2))
    msp.add_blockref("DESKS", (19, 1.5), dxfattribs={"layer": "FURNITURE"})

    # The exits: closed rectangles across the corridor's open ends, 1 m deep
    # outside the building.
    msp.add_lwpolyline([(-1, 6), (0, 6), (0, 8), (-1, 8)], close=True, dxfattribs={"layer": "EXITS"})
    msp.add_lwpolyline([(24, 6), (25, 6), (25, 8), (24, 8)], close=True, dxfattribs={"layer": "EXITS"})

    # What an import leaves out: the room names, and a dimension below the plan.
    for i, (x, y) in enumerate([(2, 13), (10, 13), (18, 13), (2, 1.5), (14, 1.5)], start=1):
        msp.add_text(f"room {i}", height=0.4, dxfattribs={"layer": "TEXT", "insert": (x, y)})
    msp.add_text("corridor", height=0.4, dxfattribs={"layer": "TEXT", "insert": (10, 6.8)})
    dim = msp.add_linear_dim(base=(0, -2.5), p1=(0, 0), p2=(24, 0), dxfattribs={"layer": "DIMENSIONS"})
    dim.render()
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "assets" / "plans" / "office.dxf"))
    a = ap.parse_args()
    ezdxf.options.write_fixed_meta_data_for_testing = True  # the same bytes every time
    doc = build()
    out = pathlib.Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    doc.saveas(partial)
    partial.replace(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
