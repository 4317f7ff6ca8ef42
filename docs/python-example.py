# %% [markdown]
# # throng from Python, with PedPy
#
# A notebook in plain Python (the `# %%` cells open as a notebook in VS Code
# or Jupyter with jupytext; `python docs/python-example.py` runs it whole and
# writes `python-example.png`). It needs the package (`pip install .` from
# the repository), PedPy and matplotlib (`pip install pedpy`), and for the
# campaign, Dask (`pip install 'dask[distributed]'`).
#
# The scene is `door`: a 10 m room of walkers draining through one door in
# its east wall (x = 10 m, centred at y = 5 m).

# %%
import os
import pathlib

import matplotlib
import matplotlib.pyplot as plt
import pedpy

import throng

out = pathlib.Path(os.environ.get("THRONG_EXAMPLE_OUT", "python-example-out"))
out.mkdir(parents=True, exist_ok=True)
print(sorted(throng.scenes()))

# %% [markdown]
# ## One run
# Knobs and settings by name; the run is `throng run door --seed 3 --set
# doorWidth=1.6 --seconds 40`, step for step (the same state hash).

# %%
scene = throng.Scene.load("door").set(doorWidth=1.6, density=1.2)
run = throng.Run(scene, seed=3, record=True)   # record: keep every frame for PedPy
run.advance(10)                                  # simulated seconds; the GIL is released
print(run)

# %% [markdown]
# The state is numpy: read-only views of the crowd's memory, no copy.

# %%
print(run.positions.shape, run.x.dtype, run.ids[:5], int(run.jammed.sum()), "jammed")
near = (run.x > 8) & (abs(run.y - 5) < 2)
print(f"{int(near.sum())} walkers within 2 m of the door")

# %%
run.advance(30)
summary = run.summary()                          # the fields of `throng run --summary`
print({k: summary[k] for k in ("agents", "arrived", "allArrivedTime", "minGapUnjammed", "gatePassed", "hash")})

# %% [markdown]
# ## PedPy
# `to_pedpy()` gives PedPy's `TrajectoryData` directly (`run.export(path)`
# writes the file `throng run --export --format pedpy` writes, which
# `pedpy.load_trajectory_from_txt` reads).

# %%
traj = run.to_pedpy()
run.export(out / "door.txt")
# The room, its east wall (5 cm thick here) with the door, and the ground beyond up to the sink at x = 12 m.
walkable = pedpy.WalkableArea([(0, 0), (10, 0), (10, 4.2), (10.05, 4.2), (10.05, 0), (13, 0), (13, 10),
                               (10.05, 10), (10.05, 5.8), (10, 5.8), (10, 10), (0, 10)])
door_line = pedpy.MeasurementLine([(10.0, 4.2), (10.0, 5.8)])
area = pedpy.MeasurementArea([(7, 3), (10, 3), (10, 7), (7, 7)])
nt, crossing = pedpy.compute_n_t(traj_data=traj, measurement_line=door_line)
density = pedpy.compute_classic_density(traj_data=traj, measurement_area=area)
print(f"{int(nt['cumulative_pedestrians'].max())} walkers through the door, "
      f"density before it up to {density['density'].max():.2f} /m²")

# %% [markdown]
# ## A campaign
# Two door widths, three seeds each, every run a task on Dask (a
# LocalCluster of two workers here; any `distributed.Client` on a cluster).
# Each run writes its trajectory, its summary and a row of the manifest;
# run it again and the done points are skipped.

# %%
spec = {"scenes": ["door"], "seeds": [1, 2, 3], "knobs": {"doorWidth": [0.8, 1.6], "density": [1.2]},
        "seconds": 40, "trajectory": "pedpy", "out": str(out / "campaign")}
try:
    result = throng.campaign(spec, workers=2, progress=False)
except ImportError:  # no Dask: the same points, one after another
    result = throng.campaign(spec, serial=True, progress=False)
print(result.text())

curves = {}
for row in result.rows:
    t = pedpy.load_trajectory_from_txt(trajectory_file=pathlib.Path(result.out) / row["trajectory"])
    n, _ = pedpy.compute_n_t(traj_data=t, measurement_line=door_line)
    curves.setdefault(row["knobs"]["doorWidth"], []).append(n)

# %%
fig, ax = plt.subplots(1, 3, figsize=(15, 4.6))
pedpy.plot_trajectories(traj=traj, walkable_area=walkable, axes=ax[0], traj_alpha=0.4, traj_width=0.6)
ax[0].plot(*door_line.coords.xy, color="red", lw=3)
ax[0].set_title("door, 1.6 m wide: trajectories (PedPy)")
pedpy.plot_density(density=density, axes=ax[1], title="classic density before the door (PedPy)")
for (width, ns), colour in zip(sorted(curves.items()), ("tab:orange", "tab:blue")):
    for k, n in enumerate(ns):
        ax[2].plot(n["time"], n["cumulative_pedestrians"], color=colour,
                   label=f"door {width:g} m" if k == 0 else None)
ax[2].set_xlabel("t / s")
ax[2].set_ylabel("walkers through the door")
ax[2].set_title("N-t at the door, 3 seeds each (campaign)")
ax[2].legend()
fig.tight_layout()
fig.savefig(out / "python-example.png", dpi=90)
print("wrote", out / "python-example.png")
if matplotlib.get_backend().lower() != "agg":
    plt.show()
