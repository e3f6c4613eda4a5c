"""The hand-made levels shipped in ``levels/``, in chapters: find them by number, load them.

Chapter 1 is the tutorial, the level files at the top of ``levels/``
(``01-held.txt`` ...); every further chapter is a folder ``levels/NN-slug/``
holding its level files ``NN-name.txt`` and a small ``chapter.txt``
(``name:`` and ``opens:``; see ``docs/format.md``).  A chapter is numbered
by its folder's ``NN``, a level by its place in its chapter's sorted files,
and a level is named ``C.N`` (``2.4``: chapter 2, level 4), or ``N`` alone
for chapter 1.

Nothing here parses a level until it is asked for: listing the chapters
reads only the chapter files and the folder listings, so that the game
starts as fast as before, and a folder whose levels this engine cannot read
yet (a rule still to come) lists, and refuses only when a level is loaded.

>>> [c.number for c in chapters()][:3]
[1, 2, 3]
>>> parse_number("2.4"), parse_number("3")
((2, 4), (1, 3))

The older calls (:func:`level_paths`, :func:`count`, :func:`level_path`,
:func:`load_level`) mean chapter 1, as they always have.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from importlib.resources import files
from pathlib import Path

from anabasis.engine.world import Room
from anabasis.formats.levelfile import LevelError, load

#: ``levels/`` at the project's top level, installed as the package data ``anabasis.levels``.
LEVELS_DIR = Path(str(files("anabasis.levels")))
#: A chapter's own file in its folder (chapter 1's is ``levels/chapter.txt``).
CHAPTER_FILE = "chapter.txt"
#: The share of the chapter before that opens a chapter whose file does not say.
DEFAULT_OPENS = Fraction(2, 3)
#: The keys a chapter file may hold.
CHAPTER_KEYS = ("name", "opens")
#: The largest chapter file read (a few lines; anything bigger is no chapter file).
_MAX_CHAPTER_BYTES = 4096
_LEVEL_FILE = re.compile(r"[0-9]{2}-.+\.txt")
_CHAPTER_DIR = re.compile(r"([0-9]{2})-([A-Za-z0-9][A-Za-z0-9_-]*)")
_NUMBER = re.compile(r"(-?)0*([0-9]{1,9})(?:\.0*([0-9]{1,9}))?")


@dataclass(frozen=True)
class Chapter:
    """One chapter: its number, title, folder, level files, and what opens it."""

    number: int  #: 1 for the tutorial, else the folder's ``NN``
    title: str  #: the chapter file's ``name:`` (else the folder's slug, dashes as spaces)
    folder: Path  #: where its level files are (``levels/`` itself for chapter 1)
    paths: tuple[Path, ...]  #: its level files, in order: level 1 first
    opens: Fraction  #: the share of the chapter before that must be solved to open it

    def __len__(self) -> int:
        return len(self.paths)

    def level_path(self, n: int) -> Path:
        """Level ``n`` (1-based) of this chapter; ``IndexError`` if it has none."""
        if not 1 <= n <= len(self.paths):
            raise IndexError(f"no level {self.source(n)}: chapter {self.number} has levels "
                             f"1 to {len(self.paths)}")
        return self.paths[n - 1]

    def load(self, n: int) -> Room:
        """Level ``n`` as a room: ``IndexError`` if there is none, ``LevelError`` if it is bad
        (or uses a rule this engine does not have yet)."""
        return load(self.level_path(n))

    def source(self, n: int) -> str:
        """How level ``n`` of this chapter is named in a SOURCE: ``3``, or ``2.4``."""
        return str(n) if self.number == 1 else f"{self.number}.{n}"

    def needed(self, before: int) -> int:
        """How many of the ``before`` levels of the chapter before open this one
        (``opens`` of them, rounded up; chapter 1 is always open)."""
        if self.number == 1:
            return 0
        return math.ceil(self.opens * before)

    def playable(self) -> bool:
        """True when every level of the chapter loads with this engine."""
        try:
            for n in range(1, len(self.paths) + 1):
                self.load(n)
        except LevelError:
            return False
        return True


def chapters(root: Path | None = None) -> list[Chapter]:
    """Every chapter, in order: the tutorial, then ``levels/NN-slug/`` by ``NN``.

    A folder with no level files is left out; of two folders with one ``NN``,
    the first by name is the chapter.  Nothing is parsed but the chapter files.
    ``root`` is the levels folder (default: the shipped one, :data:`LEVELS_DIR`).
    """
    return list(_chapters(LEVELS_DIR if root is None else Path(root)))


def chapter(number: int) -> Chapter:
    """Chapter ``number``; ``IndexError`` if there is none."""
    found = {c.number: c for c in chapters()}
    if number not in found:
        raise IndexError(f"no chapter {number}: the chapters are "
                         f"{', '.join(str(n) for n in sorted(found))}")
    return found[number]


def parse_number(text: str) -> tuple[int, int] | None:
    """A level's name as (chapter, level): ``3`` is (1, 3), ``2.4`` is (2, 4); None if it
    is not one.  Numbers need not be in range here (leading zeros and a minus are read)."""
    m = _NUMBER.fullmatch(text)
    if not m:
        return None
    sign, first, second = m.groups()
    if second is None:
        return 1, int(sign + first)
    if sign:
        return None  # "-2.4" names no chapter
    return int(first), int(second)


def find(chapter_number: int, n: int) -> Path:
    """Level ``n`` of chapter ``chapter_number``'s file; ``IndexError`` if there is none."""
    if chapter_number == 1:
        return level_path(n)  # without listing the other chapters
    return chapter(chapter_number).level_path(n)


def load_from(chapter_number: int, n: int) -> Room:
    """Level ``n`` of chapter ``chapter_number`` as a room (see :meth:`Chapter.load`)."""
    return chapter(chapter_number).load(n)


# -- chapter 1, as the game has always called it ---------------------------------------


def level_paths() -> list[Path]:
    """Chapter 1's level files in order: ``01-held.txt``, ``02-slip.txt``, ..."""
    return _level_files(LEVELS_DIR)


def count() -> int:
    """How many levels chapter 1 has."""
    return len(level_paths())


def level_path(n: int) -> Path:
    """Chapter 1's level ``n`` (1-based); ``IndexError`` if there is no such level."""
    paths = level_paths()
    if not 1 <= n <= len(paths):
        raise IndexError(f"no level {n}: the levels are 1 to {len(paths)}")
    return paths[n - 1]


def load_level(n: int) -> Room:
    """Chapter 1's level ``n`` (1-based) as a room; ``IndexError`` if there is none,
    ``LevelError`` if bad."""
    return load(level_path(n))


# -- reading the folders ---------------------------------------------------------------


def _level_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if _LEVEL_FILE.fullmatch(p.name) and p.is_file())


def _chapters(root: Path):
    title, opens = _chapter_file(root / CHAPTER_FILE, "the tutorial")
    yield Chapter(1, title, root, tuple(_level_files(root)), opens)
    seen = {1}
    for folder in sorted(root.iterdir()):
        m = _CHAPTER_DIR.fullmatch(folder.name)
        if not m or not folder.is_dir():
            continue
        number = int(m.group(1))
        paths = tuple(_level_files(folder))
        if number in seen or not paths:
            continue
        seen.add(number)
        title, opens = _chapter_file(folder / CHAPTER_FILE, m.group(2).replace("-", " "))
        yield Chapter(number, title, folder, paths, opens)


def _chapter_file(path: Path, default_title: str) -> tuple[str, Fraction]:
    """A chapter file's ``name:`` and ``opens:``, with the defaults where it is silent."""
    try:
        text = _read_chapter_file(path)
    except FileNotFoundError:
        return default_title, DEFAULT_OPENS
    return parse_chapter(text, str(path), default_title)


def _read_chapter_file(path: Path) -> str:
    with open(path, "rb") as f:
        raw = f.read(_MAX_CHAPTER_BYTES + 1)
    if len(raw) > _MAX_CHAPTER_BYTES:
        raise LevelError(str(path), 0, 0, f"a chapter file is at most {_MAX_CHAPTER_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LevelError(str(path), 0, 0, "not UTF-8 text") from None


def parse_chapter(text: str, path: str = "<chapter>",
                  default_title: str = "") -> tuple[str, Fraction]:
    """A chapter file's text: ``key: value`` lines (``name``, ``opens``), ``#`` comments and
    blank lines skipped.  ``opens`` is a share, ``2/3`` or ``0.75``, from 0 to 1.

    >>> parse_chapter("name: the wrap\\nopens: 3/4\\n")
    ('the wrap', Fraction(3, 4))
    """
    title, opens = default_title, DEFAULT_OPENS
    seen: set[str] = set()
    for lineno, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or key not in CHAPTER_KEYS:
            raise LevelError(path, lineno, 1, f"a chapter file holds only "
                             f"{', '.join(k + ':' for k in CHAPTER_KEYS)} lines")
        if key in seen:
            raise LevelError(path, lineno, 1, f"{key!r} repeated")
        seen.add(key)
        if key == "name":
            title = value
        else:
            try:
                opens = Fraction(value)
            except (ValueError, ZeroDivisionError):
                opens = Fraction(-1)
            if not 0 <= opens <= 1:
                raise LevelError(path, lineno, line.index(":") + 2,
                                 f"opens is a share from 0 to 1 (such as 2/3), not {value!r}")
    return title, opens
