"""Where a picture goes: its kind from the file's extension, checked before any work is done.

``check_output`` is called by the CLI before it connects to Neo4j: an unknown extension, a missing directory or a
directory that cannot be written is reported at once (a usage error, exit 2), never after a long computation.
``write_atomically`` then writes through a temporary file in the same directory, so a failure never leaves a
half-written picture behind.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from graphmem.errors import UsageProblem

TOLD_KINDS = ("html", "png", "svg", "graphml", "gexf")
"""Output kinds of ``graphmem viz told``."""

DECAY_KINDS = ("png", "svg")
"""Output kinds of ``graphmem viz decay``."""

TRUST_KINDS = ("html", "png", "svg", "graphml", "gexf")
"""Output kinds of ``graphmem viz trust``."""


def output_kind(path: Path, allowed: Iterable[str]) -> str:
    """The kind of picture ``path`` asks for: its extension, lower-cased, without the dot.

    Raises UsageProblem when the extension is not one of ``allowed``.
    """
    kinds = tuple(allowed)
    kind = path.suffix.lower().lstrip(".")
    if kind not in kinds:
        shown = f"'.{kind}'" if kind else "no extension"
        raise UsageProblem(f"cannot write {path}: {shown} is not a known output kind "
                           f"(use one of {', '.join('.' + k for k in kinds)})")
    return kind


def check_output(path: Path, allowed: Iterable[str]) -> str:
    """Check that a picture can be written to ``path`` and return its kind (see :func:`output_kind`).

    The directory must exist and accept a new file (tested by creating and removing a temporary file, which also
    catches read-only file systems and root-owned paths that permission bits alone do not show); an existing
    ``path`` must be a writable regular file. Raises UsageProblem with the reason otherwise.
    """
    kind = output_kind(path, allowed)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise UsageProblem(f"cannot write {path}: directory {parent} does not exist")
    if not parent.is_dir():
        raise UsageProblem(f"cannot write {path}: {parent} is not a directory")
    if path.exists() and not path.is_file():
        raise UsageProblem(f"cannot write {path}: it exists and is not a regular file")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageProblem(f"cannot write {path}: the file is not writable")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".graphmem-", suffix=".probe"):
            pass
    except OSError as e:
        raise UsageProblem(f"cannot write {path}: directory {parent} is not writable ({e.strerror or e})") from e
    return kind


def write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then move it into place.

    The temporary file keeps ``path``'s extension (writers such as matplotlib choose the format by it) and is
    removed when ``write`` raises.
    """
    fd, name = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=".graphmem-",
                                suffix=path.suffix)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
