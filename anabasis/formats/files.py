"""Files the player names and files the game keeps: read bounded (only a regular file, at most
so many bytes), written whole (a crash leaves the old file or the new one).

A FIFO, a device (``/dev/zero``, a terminal) or a folder is refused before
it is read, never waited on; a file is opened without blocking (so that one
swapped for a FIFO after the check cannot hang either) and read no further
than its limit.  Each refusal is one line that names the file.

>>> import tempfile, os
>>> read_bounded(tempfile.gettempdir(), 10)
Traceback (most recent call last):
...
anabasis.formats.files.FileRefusal: ...: not a regular file (a folder)
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from anabasis.refusal import Refusal


class FileRefusal(Refusal):
    """A file that cannot be read, is not a regular file, or is too large."""

    def __init__(self, path, reason: str):
        self.path, self.reason = str(path), reason
        super().__init__(f"{path}: {reason}")


def read_bounded(path, limit: int, what: str = "this") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (else refused)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        raise FileRefusal(path, f"cannot read: {why(e)}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileRefusal(path, f"not a regular file ({file_kind(st.st_mode)})")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise FileRefusal(path, f"cannot read: {why(e)}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefusal(path, f"not a regular file ({file_kind(os.fstat(fd).st_mode)})")
        data = read_at_most(fd, limit + 1)
    except OSError as e:
        raise FileRefusal(path, f"cannot read: {why(e)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefusal(path, f"more than {_amount(limit)}: too large for {what}")
    return data


def read_at_most(fd: int, n: int) -> bytes:
    """Up to ``n`` bytes from the open file ``fd``: fewer only at its end."""
    chunks, size = [], 0
    while size < n:
        chunk = os.read(fd, n - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def why(e: Exception) -> str:
    """An OS error in the system's words."""
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return str(e)


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, what in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a file"


def _amount(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n} bytes"


def atomic_write(path: str | os.PathLike, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new one.

    A link is written through (the file it names is replaced), so a save
    kept elsewhere through a link stays there.
    """
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
