"""Files the Python side writes, and the names it builds them from: the same
rules as the C++ side's ``throng/output_file.hpp``.

Every file is written under a fresh name of its own in the target's folder
(``TARGET.XXXXXXXX.partial``, created with O_CREAT | O_EXCL | O_NOFOLLOW, so a
link or file planted there beforehand is never opened), then renamed over the
target once complete; on an error or Ctrl-C it is removed. A name that comes
from a person (a scene's "name") becomes a path component only through
``path_component``, the C++ function itself.
"""
from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import IO, Iterator, Union

from . import _throng

PathLike = Union[str, "os.PathLike[str]"]


def path_component(name: str) -> str:
    """``name`` as one safe path component (no separator, no "." or "..", no
    leading dot, no control character, at most 80 bytes; a name that had to
    change gets a hash of the original, so two names never collide)."""
    return _throng.path_component(name)


def _create_partial(path: Path) -> "tuple[int, Path]":
    for _ in range(100):
        partial = path.with_name(f"{path.name}.{secrets.token_hex(4)}.partial")
        try:
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        return fd, partial
    raise FileExistsError(f"cannot write {path}: no free temporary name")


@contextlib.contextmanager
def output_file(path: PathLike, mode: str = "w") -> Iterator[IO]:
    """A file written whole or not at all: ``with output_file(p) as f:
    f.write(...)`` leaves ``p`` complete, or (on any exception, Ctrl-C
    included) as it was before, and no temporary behind."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"cannot write {path}: it is a folder")
    fd, partial = _create_partial(path)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def write_whole(path: PathLike, text: str) -> None:
    """Writes ``text`` to ``path`` through output_file."""
    with output_file(path) as f:
        f.write(text)


def open_append(path: PathLike) -> IO:
    """``path`` opened to append lines (created if missing), refusing a
    symbolic link there."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    return os.fdopen(fd, "a")
