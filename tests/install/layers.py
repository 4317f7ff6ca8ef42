#!/usr/bin/env python3
"""The include graph of sim/ points down its layers, from the compiler's own
dependency output (ninja -t deps: every header each object was built with,
transitively). usage: layers.py BUILD_DIR SOURCE_DIR

Layers, bottom up (an object may include its own layer and those below;
a model never includes another model):
  1 sim/include/throng/{hd,vec2,settings,teaching,types,backend,fields,output_file}.hpp  value types
  2 sim/src/base/                                                   hashing, threads, lanes
  3 sim/src/geometry/, sim/src/neighbors/, sim/src/fields/          spatial structures and fields
  4 sim/src/core/; sim/cuda/{device_*,cuda_check}                   state, shared phases, the seams
  5 sim/src/models/NAME/ (host and device forms)                     the models
  6 sim/src/pipeline/; sim/cuda/*.cu                                the step, the registry, backends
  7 sim/src/*.cpp, sim/src/scene/;
    sim/include/throng/{crowd,scene,scene_doc,verify}.hpp           the facade
"""
import os
import re
import subprocess
import sys

build, source = sys.argv[1], os.path.realpath(sys.argv[2])
sim = os.path.join(source, "sim")


def layer(path):
    """(layer, model name or None) of a file of sim/, or None for others."""
    rel = os.path.relpath(os.path.realpath(path), sim)
    if rel.startswith(".."):
        return None
    parts = rel.split(os.sep)
    if parts[0] == "include":
        name = parts[-1]
        return (7, None) if name in ("crowd.hpp", "scene.hpp", "scene_doc.hpp", "verify.hpp") else (1, None)
    if parts[0] == "src":
        top = parts[1] if len(parts) > 2 else ""
        if top == "base":
            return (2, None)
        if top in ("geometry", "neighbors", "fields"):
            return (3, None)
        if top == "core":
            return (4, None)
        if top == "models":
            return (5, parts[2])
        if top == "pipeline":
            return (6, None)
        return (7, None)
    if parts[0] == "cuda":
        if parts[1].startswith("device_") and parts[1].endswith(".hpp") or parts[1] == "cuda_check.cuh":
            return (4, None)
        return (6, None)
    return None


out = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True, check=True).stdout
objects = re.split(r"\n(?=\S)", out)
checked, bad = 0, []
for block in objects:
    lines = block.strip().split("\n")
    if not lines or "#deps" not in lines[0]:
        continue
    deps = [l.strip() for l in lines[1:] if l.strip()]
    if not deps:
        continue
    src = deps[0]
    me = layer(src)
    if me is None or "/sim/" not in src:
        continue
    checked += 1
    for h in deps[1:]:
        them = layer(h)
        if them is None:
            continue
        if them[0] > me[0] or (me[0] == 5 and them[0] == 5 and me[1] != them[1]):
            bad.append(f"{os.path.relpath(src, source)} (layer {me[0]}) includes {os.path.relpath(h, source)} "
                       f"(layer {them[0]})")
if checked == 0:
    sys.exit(f"layers: no object of sim/ in {build}'s dependency log: build first")
for b in sorted(set(bad)):
    print("layers:", b)
if bad:
    sys.exit(f"layers: {len(set(bad))} includes point up (above)")
print(f"layers: {checked} objects of sim/, every include points down its layers")
