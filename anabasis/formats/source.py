"""A SOURCE: what names a room on the command line and in the game.

A level number (``3``, or ``2.4``: chapter 2, level 4), a level file, a made
room's name (``hard.k3x9``, ``daily``, as the game shows it and its code box
takes it), or a room code, told apart by their look.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from anabasis.engine.world import Room
from anabasis.formats import levelfile
from anabasis.refusal import Refusal, shorten


class SourceError(Refusal):
    """A SOURCE that names no room: no such level, not a file nor a code."""


def resolve(source: str) -> Room:
    """A SOURCE: a level number, a level file, a made room's name, or a room code.

    A string of digits (with a minus, or not) is a level number of chapter 1;
    two, joined by a dot (``2.4``), are a chapter and a level of it; one that
    names a file, ends in ``.txt`` or holds a path separator is a level
    file; anything else must be a room code.  A made room's name (a tier and
    a seed, ``hard.k3x9``, or ``daily[.YYYY-MM-DD]``) is built by the generator, a
    layer above this one: :func:`anabasis.gen.resolve_source` reads it, and hands
    every other SOURCE to this.
    """
    from anabasis.formats import codes, levels

    if not source:  # Path("") is the current folder: say what is wrong instead
        raise SourceError("the SOURCE is empty: give a level number, a level file or a room code")
    number = levels.parse_number(source)
    if number is None and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", source):
        # digits past nine: no level, and past 4300 digits int() refuses them
        raise SourceError(f"no level {shorten(source)}: the levels are 1 to {levels.count()}")
    if number is not None:
        try:
            path = levels.find(*number)
        except IndexError as e:
            raise SourceError(str(e)) from None
        return _load(path)
    path = Path(source)
    if path.suffix == ".txt" or "/" in source or os.sep in source or _exists(path):
        return _load(path)
    if source.strip()[:1] not in codes.LETTERS:
        raise SourceError(f"{shorten(source)!r} is not a level number, a level file, "
                          "a made room (hard.k3x9) or a room code (codes start with "
                          f"{', '.join(codes.LETTERS)})")
    return _decode(source)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a long room code is too long for a file name
        return False


def _load(path: Path) -> Room:
    try:
        return levelfile.load(path)
    except levelfile.LevelError as e:
        raise SourceError(str(e)) from None


def _decode(code: str) -> Room:
    from anabasis.formats import codes

    try:
        return codes.decode(code)
    except codes.CodeError as e:
        where = shorten(code.strip())
        raise SourceError(f"room code {where}: {e}" if where else str(e)) from None
