"""The player's own rooms: where the editor saves them, and the list "make a room…" shows.

The rooms live in the data folder's ``rooms`` (beside the saved progress),
one level file each, with the code a save wrote beside it
(``my-room.code.txt``).  :func:`saved_rooms` lists them newest first, each
under its name; a file the format refuses is listed with the reason in
plain words (:func:`plain`).  No pygame here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


def rooms_dir(app) -> Path:
    """The data folder's ``rooms`` (beside the saved progress)."""
    from anabasis.app.settings.progress import data_dir

    path = getattr(app.progress, "path", None)
    return (Path(path).parent if path else data_dir()) / "rooms"


def plain(message: str) -> str:
    """A refusal in plain words: the parser's ``file:line:column:`` taken off (a draft was
    never that file).

    >>> plain("room.txt:4:1: the map has no player '@'")
    "the map has no player '@'"
    """
    return re.sub(r"^[^\n:]*:\d+(:\d+)?: ", "", message)


@dataclass
class Saved:
    """One line of the list: a saved room (``path``), or a new room (``path`` None)."""

    label: str
    path: Path | None = None
    detail: str = ""
    error: str = ""  #: why the file cannot be opened ("" when it can)


def saved_rooms(folder: Path) -> list[Saved]:
    """The level files in ``folder``, newest first, each named from its header."""
    from anabasis.formats import levelfile

    try:
        paths = [p for p in folder.glob("*.txt") if not p.name.endswith(".code.txt")]
    except OSError:
        return []
    out = []
    for path in sorted(paths, key=lambda p: (-p.stat().st_mtime, p.name)):
        try:
            room = levelfile.load(path)
        except (levelfile.LevelError, OSError, UnicodeDecodeError, ValueError) as e:
            out.append(Saved(path.name, path, error=plain(str(e))))
            continue
        X, Y, Z, W = room.size
        par = f"par {room.par}" if room.par is not None else "no par"
        out.append(Saved(room.name or path.stem, path,
                         f"{path.name} · {X} x {Y} x {Z} x {W} · {par}"))
    return out
