"""The tutorial levels shipped in ``levels/``: find them by number, load them."""

from __future__ import annotations

from pathlib import Path

from anabasis import data_dir
from anabasis.levelfile import load
from anabasis.world import Room

#: ``levels/`` at the project's top level (or where a wheel installed it).
LEVELS_DIR = data_dir("levels")


def level_paths() -> list[Path]:
    """The level files in order: ``01-held.txt``, ``02-slip.txt``, ..."""
    return sorted(LEVELS_DIR.glob("[0-9][0-9]-*.txt"))


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
