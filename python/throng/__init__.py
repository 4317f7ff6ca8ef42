"""throng from Python: scenes, runs and campaigns of many runs on Dask.

    import throng
    scene = throng.Scene.load("door").set(doorWidth=1.6)
    run = throng.Run(scene, seed=3)
    run.advance(10)                      # seconds, the GIL released
    run.positions, run.summary()["hash"]

The stepping, the export and the summary are the C++ ones ``throng run``
uses (the same hash for the same scene, seed and steps). Campaigns:
``throng.campaign(spec)`` (help(throng.campaign) describes the spec).
"""
import os as _os

from . import _throng

# The shipped scenes a wheel carries (throng/scenes), looked for after
# $THRONG_SCENES's own directories; a build from the source tree also finds
# the tree's assets/scenes.
_here = _os.path.join(_os.path.dirname(__file__), "scenes")
if _os.path.isdir(_here):
    _dirs = [d for d in _os.environ.get("THRONG_SCENES", "").split(":") if d]
    if _here not in _dirs:
        _os.environ["THRONG_SCENES"] = ":".join(_dirs + [_here])

from ._api import Run, Scene, cuda_available, models, run, scenes, settings  # noqa: E402
from ._campaign import campaign, job_script, load_spec  # noqa: E402

__version__ = "0.1.0"
__all__ = ["Scene", "Run", "run", "scenes", "settings", "models", "cuda_available", "campaign", "load_spec",
           "job_script", "__version__"]
