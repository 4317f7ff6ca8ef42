"""The figures of `throng verify --report DIR`, from DIR/results.json (which
`throng verify` writes) into DIR/img, with matplotlib:

- TEST.png: each check's value under each model against its bounds (the
  band between them green; a value outside it red);
- TEST-curves.png: for a test with measurement lines, the walkers past each
  line over time (N(t), the evacuation curve), one panel a model;
- flow-width.png: the shipped door's specific flow against its width, per
  model, against people's 1.6 to 2.0 per m per s;
- fundamental-diagram.png: each model's mean speed in the ring corridor
  against its density, over Weidmann's (1993) curve.

Image names come from results.json, where throng made them safe. Each image
is written whole (to a temporary beside it, then renamed). Exit status 0,
or 3 with one line on stderr when matplotlib is missing."""
import json
import math
import os
import sys
import tempfile

PEOPLE_SPECIFIC_FLOW = (1.6, 2.0)  # per m per s, docs/walking.md


def _save(fig, path):
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".partial", dir=os.path.dirname(path))
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=100)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _checks_figure(plt, test, rows, models):
    """One panel a check: each model's value(s), the bounds as a band."""
    figures = []
    for r in rows:
        if r["figure"] not in figures:
            figures.append(r["figure"])
    fig, axes = plt.subplots(len(figures), 1, figsize=(7, 1.8 + 1.6 * len(figures)), squeeze=False)
    for ax, figure in zip(axes[:, 0], figures):
        mine = [r for r in rows if r["figure"] == figure]
        values = [v for r in mine for v in r["values"]]
        lo = next((r["min"] for r in mine if r["min"] is not None), None)
        hi = next((r["max"] for r in mine if r["max"] is not None), None)
        span = [v for v in values + [lo, hi] if v is not None and math.isfinite(v)]
        if not span:
            span = [0.0, 1.0]
        pad = 0.15 * (max(span) - min(span)) or 0.5 * (abs(max(span)) or 1)
        y0, y1 = min(span) - pad, max(span) + pad
        ax.axhspan(lo if lo is not None else y0, hi if hi is not None else y1, color="#c8e6c9", zorder=0,
                   label="bounds")
        for k, m in enumerate(models):
            for r in (r for r in mine if r["model"] == m):
                for v in r["values"]:
                    ax.plot(k, v, "o", color="#2e7d32" if r["verdict"] != "FAIL" else "#c62828", zorder=2)
                if not r["values"]:
                    ax.annotate(r["value"][:40], (k, y0 + 0.1 * (y1 - y0)), ha="center", fontsize=7, color="#c62828")
        ax.set_xticks(range(len(models)), models)
        ax.set_xlim(-0.5, len(models) - 0.5)
        ax.set_ylim(y0, y1)
        ax.set_title(figure, fontsize=9)
    fig.suptitle(test["test"] + " (" + test["name"] + ")", fontsize=10)
    fig.tight_layout()
    return fig


def _curves_figure(plt, test, models):
    """N(t) of each line, a panel a model; None when the test has no lines."""
    curves = test.get("curves", {})
    if not any(curves.get(m) for m in models):
        return None
    fig, axes = plt.subplots(1, len(models), figsize=(4 * len(models), 3.2), squeeze=False, sharey=True)
    for ax, m in zip(axes[0], models):
        for line, times in sorted(curves.get(m, {}).items()):
            t = sorted(times)
            ax.step([0.0] + t, range(len(t) + 1), where="post", label=line)
        ax.set_title(m, fontsize=9)
        ax.set_xlabel("time, s")
        if curves.get(m):
            ax.legend(fontsize=7)
    axes[0][0].set_ylabel("walkers past the line")
    fig.suptitle(test["test"] + ": walkers past each line", fontsize=10)
    fig.tight_layout()
    return fig


def _flow_width_figure(plt, flow_width):
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.axhspan(*PEOPLE_SPECIFIC_FLOW, color="#e0e0e0", label="people, 1.6–2.0 /m/s")
    for m, points in flow_width.items():
        if points:
            ax.plot([p["width"] for p in points], [p["flow"] / p["width"] for p in points], "o-", label=m)
    ax.set_xlabel("door width, m")
    ax.set_ylabel("specific flow, walkers per m per s")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    ax.set_title("door: specific flow against width")
    fig.tight_layout()
    return fig


def _weidmann(density):
    """Weidmann (1993), m/s at density per m² (throng/diagram.hpp's)."""
    if density <= 0:
        return 1.34
    if density >= 5.4:
        return 0.0
    return 1.34 * (1 - math.exp(-1.913 * (1 / density - 1 / 5.4)))


def _diagram_figure(plt, diagram):
    fig, ax = plt.subplots(figsize=(6, 4))
    ds = [0.3 + 0.05 * k for k in range(103)]
    ax.plot(ds, [_weidmann(d) for d in ds], "k-", label="Weidmann (1993)")
    for m, points in diagram.items():
        if points:
            ax.plot([p["density"] for p in points], [max(p["speed"], 0) for p in points], "o-", label=m)
    ax.set_xlabel("density, walkers per m²")
    ax.set_ylabel("mean speed, m/s")
    ax.set_xlim(0, 5.5)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    ax.set_title("ring corridor 2 m wide: the fundamental diagram")
    fig.tight_layout()
    return fig


def main(argv, prog="python -m throng._report"):
    if len(argv) != 1:
        sys.stderr.write(f"usage: {prog} DIR\n")
        return 2
    folder = argv[0]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        sys.stderr.write("throng verify: no figures: matplotlib is not importable by %s (%s); "
                         "`pip install matplotlib`, or set THRONG_PYTHON to a Python that has it\n"
                         % (sys.executable, e))
        return 3
    with open(os.path.join(folder, "results.json"), encoding="utf-8") as f:
        results = json.load(f)
    img = os.path.join(folder, "img")
    models = results["models"]
    for test in results["tests"]:
        rows = [r for r in results["rows"] if r["test"] == test["name"]]
        fig = _checks_figure(plt, test, rows, models)
        _save(fig, os.path.join(img, os.path.basename(test["image"])))
        plt.close(fig)
        fig = _curves_figure(plt, test, models)
        if fig is not None:
            _save(fig, os.path.join(img, os.path.basename(test["curvesImage"])))
            plt.close(fig)
    if results.get("flowWidth"):
        fig = _flow_width_figure(plt, results["flowWidth"])
        _save(fig, os.path.join(img, "flow-width.png"))
        plt.close(fig)
    if results.get("fundamentalDiagram"):
        fig = _diagram_figure(plt, results["fundamentalDiagram"])
        _save(fig, os.path.join(img, "fundamental-diagram.png"))
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
