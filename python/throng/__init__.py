"""throng from Python: scenes, runs and campaigns of many runs on Dask.

    import throng
    scene = throng.Scene.load("door").set(doorWidth=1.6)
    run = throng.Run(scene, seed=3)
    run.advance(10)                      # seconds, the GIL released
    run.positions, run.summary()["hash"]

The stepping, the export and the summary are the C++ ones ``throng run``
uses (the same hash for the same scene, seed and steps). Campaigns:
``throng.campaign(spec)`` (help(throng.campaign) describes the spec). Floor
plans: ``throng.import_dxf("plan.dxf", walls=["WALLS"], exits=["EXITS"])``
is a scene dict (it needs ezdxf and shapely, imported only when it runs).
"""
# The shipped scenes a wheel carries (throng/scenes, beside _throng's
# library) are found by the library itself, after $THRONG_SCENES's own
# directories; a build from the source tree also finds the tree's assets/scenes.
from ._api import Run, Scene, cuda_available, models, run, scenes, settings
from ._campaign import campaign, job_script, load_spec
from ._import import PlanError, import_dxf

__version__ = "0.1.0"
__all__ = ["Scene", "Run", "run", "scenes", "settings", "models", "cuda_available", "campaign", "load_spec",
           "job_script", "import_dxf", "PlanError", "__version__"]
