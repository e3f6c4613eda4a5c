"""The tutorial levels shipped in ``levels/``: find them by number, load them."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

from anabasis.engine.world import Room
from anabasis.formats.levelfile import load

#: ``levels/`` at the project's top level, installed as the package data ``anabasis.levels``.
LEVELS_DIR = Path(str(files("anabasis.levels")))


def level_paths() -> list[Path]:
    """The level files in order: ``01-held.txt``, ``02-slip.txt``, ..."""
    return sorted(p for p in LEVELS_DIR.iterdir() if re.fullmatch(r"[0-9]{2}-.+\.txt", p.name))


def count() -> int:
    """How many levels there are."""
    return len(level_paths())


def level_path(n: int) -> Path:
    """Level ``n`` (1-based); ``IndexError`` if there is no such level."""
    paths = level_paths()
    if not 1 <= n <= len(paths):
        raise IndexError(f"no level {n}: the levels are 1 to {len(paths)}")
    return paths[n - 1]


def load_level(n: int) -> Room:
    """Level ``n`` (1-based) as a room; ``IndexError`` if there is none, ``LevelError`` if bad."""
    return load(level_path(n))
