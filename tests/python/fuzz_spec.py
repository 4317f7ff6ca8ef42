#!/usr/bin/env python3
"""The campaign spec reader, fuzzed: any bytes as a spec file's text end in
the count of its points (within MAX_POINTS) or in one SpecError line naming
the file or the key, never in another exception, and quickly.

    fuzz_spec.py mutants N        a deterministic mutation run of N specs (the
                                  Python tests' "spec_fuzz" case runs it)
    fuzz_spec.py atheris [ARGS]   coverage-guided, with atheris (libFuzzer's
                                  engine for Python); ARGS are libFuzzer's
                                  (-runs=N, -max_total_time=S, a corpus folder)

Run by the tests' virtual environment with PYTHONPATH at the build's package.
"""
import json
import random
import sys
import time

MAX_POINTS = SpecError = _shape = spec_from_text = None  # the reader, imported by main (instrumented for atheris)


def _import_reader() -> None:
    global MAX_POINTS, SpecError, _shape, spec_from_text
    from throng._campaign import MAX_POINTS, SpecError, _shape, spec_from_text  # noqa: F811

#: Specs to grow mutants from: every key, both forms of "seeds", per-scene grids.
SEEDS = [
    {"scenes": ["headon"], "seeds": [1, 2], "steps": 20, "trajectory": "none"},
    {"name": "grid", "scenes": ["door", {"scene": "corridor", "knobs": {"density": [0.5, 1.0]}}],
     "seeds": {"start": 0, "count": 5}, "knobs": {"density": [1.0, 1.5]}, "settings": {"model": ["orca", "biocrowds"]},
     "seconds": 10, "dt": 0.05, "threads": 1, "retries": 1, "backend": "cpu", "workers": 2, "out": "o"},
    {"scenes": ["door"], "seeds": {"count": 1000}, "knobs": {"doorWidth": [0.8, 1.0, 1.2, 1.6]},
     "trajectory": "csv", "cluster": {"kind": "slurm", "jobs": 2}},
]
TOKENS = ["{", "}", "[", "]", ",", ":", "\"", "null", "true", "false", "-1", "0", "1e308", "NaN", "Infinity",
          "18446744073709551616", "1e999", "\"../../x\"", "\"count\"", "\"start\"", "\"seeds\"", "\"scenes\"",
          "\"knobs\"", "\"settings\"", "[[[[[[[[", "\"\\u0000\"", "\"door\"", "1000000000", "0.5", "[]", "{}"]
VALUES = [None, True, -1, 0, 1, 2**64, 10**9, 1.5, float("nan"), "", "x", "../../x", [], {}, [1, 1], [None],
          {"count": -5}, {"start": 2**64 - 1, "count": 2}, ["door"] * 3]


def check_one(data: bytes) -> str:
    """One input through the reader: "counted" or "refused"; raises on a broken promise."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "refused"  # a spec file is text: load_spec says "cannot read" before the reader sees it
    t0 = time.perf_counter()
    try:
        n = _shape(spec_from_text(text, "fuzz.json")).count
    except SpecError as e:
        msg = str(e)
        if not msg or "\n" in msg or len(msg) > 2000 or not msg.startswith("fuzz.json"):
            raise AssertionError(f"a refusal that is not one line naming the file: {msg!r}\ninput: {text[:2000]!r}")
        outcome = "refused"
    except Exception as e:  # noqa: BLE001 - any other exception is the bug
        raise AssertionError(f"{type(e).__name__}: {e}\ninput: {text[:2000]!r}") from e
    else:
        if not 0 < n <= MAX_POINTS:
            raise AssertionError(f"a count of {n}\ninput: {text[:2000]!r}")
        outcome = "counted"
    if time.perf_counter() - t0 > 5:
        raise AssertionError(f"{time.perf_counter() - t0:.1f} s for one spec\ninput: {text[:2000]!r}")
    return outcome


def _mutate_value(rng: random.Random, v):
    """A structural edit somewhere in a JSON value."""
    if isinstance(v, dict) and v and rng.random() < 0.7:
        k = rng.choice(sorted(v))
        v = dict(v)
        r = rng.random()
        if r < 0.2:
            del v[k]
        elif r < 0.3:
            v[k + rng.choice(["", "s", "_"])] = rng.choice(VALUES)
        else:
            v[k] = _mutate_value(rng, v[k])
        return v
    if isinstance(v, list) and v and rng.random() < 0.7:
        v = list(v)
        i = rng.randrange(len(v))
        r = rng.random()
        if r < 0.2:
            del v[i]
        elif r < 0.4:
            v.append(v[i])
        else:
            v[i] = _mutate_value(rng, v[i])
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool) and rng.random() < 0.5:
        return rng.choice([-v, v * 10**rng.randint(1, 12), v + 0.5, str(v), 0, 2**64])
    return rng.choice(VALUES)


def mutant(rng: random.Random) -> bytes:
    spec = rng.choice(SEEDS)
    for _ in range(rng.randint(1, 3)):
        spec = _mutate_value(rng, spec)
    text = json.dumps(spec)
    if rng.random() < 0.3:  # and at the byte level
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            r = rng.random()
            if r < 0.4:
                text = text[:at] + rng.choice(TOKENS) + text[at:]
            elif r < 0.7:
                text = text[:at] + text[at + rng.randint(1, 8):]
            else:
                text = text[:at]
    return text.encode()


def run_mutants(n: int) -> None:
    rng = random.Random(0x5eed)
    tally = {"counted": 0, "refused": 0}
    t0 = time.perf_counter()
    for s in SEEDS:
        tally[check_one(json.dumps(s).encode())] += 1
    for _ in range(n):
        tally[check_one(mutant(rng))] += 1
    print(f"spec reader: {len(SEEDS)} seeds and {n} mutants: {tally['counted']} counted, {tally['refused']} refused, "
          f"in {time.perf_counter() - t0:.1f} s")
    assert tally["counted"] > n // 20 and tally["refused"] > n // 3, tally


def run_atheris(argv) -> None:
    """libFuzzer through atheris, the reader's code instrumented for
    coverage; a corpus folder among ARGS gets the seeds first."""
    import atheris
    import pathlib
    for a in argv:
        if not a.startswith("-"):
            corpus = pathlib.Path(a)
            corpus.mkdir(parents=True, exist_ok=True)
            for i, spec in enumerate(SEEDS):
                (corpus / f"seed-{i}.json").write_text(json.dumps(spec))
            break
    with atheris.instrument_imports(include=["throng"]):
        _import_reader()
    atheris.Setup([sys.argv[0], *argv], lambda data: check_one(data))
    atheris.Fuzz()


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "mutants":
        _import_reader()
        run_mutants(int(sys.argv[2]))
    elif len(sys.argv) >= 2 and sys.argv[1] == "atheris":
        run_atheris(sys.argv[2:])
    else:
        sys.exit(__doc__)
