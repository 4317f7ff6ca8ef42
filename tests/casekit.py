"""What the Python test scripts share (tests/cli/cli_test.py,
tests/python/test_python.py): one case per ctest entry, named on the command
line, that asserts with check() and fails loudly (exit 1) with what it saw.

    SCRIPT CASE --throng PATH --work DIR [the script's own options]

The work folder is emptied first; the script's globals get ARGS (and so
does this module, for work() and throng()).
"""
import argparse
import os
import pathlib
import shutil
import subprocess

ARGS = None  # set by main()


class Failure(Exception):
    pass


def check(cond, what, *context):
    if not cond:
        raise Failure(what + ("\n" + "\n".join(str(c) for c in context) if context else ""))


def show(p):
    """A finished process's exit status and output, for a failure's context."""
    return f"rc={p.returncode}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}"


def work(name):
    """A path in the case's work folder."""
    return pathlib.Path(ARGS.work) / name


def throng(*args, env=None, timeout=300):
    """The real `throng` command with `args`, run in the work folder; `env`
    is added to this process's environment."""
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([ARGS.throng, *map(str, args)], capture_output=True, text=True, env=e, timeout=timeout,
                          cwd=ARGS.work)


def main(namespace, options=()):
    """Runs the case `case_<CASE>` of `namespace` (a script's globals());
    `options` are (flag, argparse keywords) pairs. Returns the exit status."""
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--throng", required=True)
    ap.add_argument("--work", required=True)
    for flag, kw in options:
        ap.add_argument(flag, **kw)
    args = ap.parse_args()
    global ARGS
    ARGS = namespace["ARGS"] = args
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    fn = namespace.get("case_" + args.case)
    if not fn:
        print(f"no such case {args.case}")
        return 1
    try:
        fn()
    except Failure as f:
        print(f"FAIL {args.case}: {f}")
        return 1
    except subprocess.TimeoutExpired as t:
        print(f"FAIL {args.case}: timed out: {t}")
        return 1
    print(f"ok {args.case}")
    return 0
