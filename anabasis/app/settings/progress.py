"""Saved progress and settings: solved levels, best moves, window size, keys, sound.

One JSON file, ``progress.json``, in the user's data directory
(``platformdirs.user_data_dir("anabasis")``, or ``$ANABASIS_DATA_DIR`` so that
tests and portable installs can point it elsewhere).

The file is treated as a database treats its own: nothing in it can stop
the game starting, and nothing the player did is thrown away.

- Writes are atomic: the new text goes to a temporary file in the same
  directory, is flushed and fsynced, and only then renamed over the old file
  with ``os.replace``.  A crash at any point leaves either the old file or
  the new one, never half of one.
- Reads are bounded: only a regular file is read (a FIFO, a device or a
  folder is not), opened without blocking, and at most :data:`MAX_BYTES`.
- Every field is checked by kind and range against :data:`FIELDS`, the one
  table of what the file holds (a bool is never a number).  A file whose
  content is not valid progress (bad bytes, not JSON, nested too deep, a
  value of the wrong kind or out of range) is moved aside under a name of
  its own, ``progress.json.corrupt-<time>[-n]``, with a one-line
  :attr:`Progress.warning`; what was valid in it is kept (a bad window size
  costs the window size, not the solved levels), and the game starts.
- A file that exists but cannot be read (no permission; held open by
  another program) is never overwritten: the session's progress is kept in
  memory, :attr:`Progress.warning` says where and why, and each save tries
  the file again; once it reads, the two are merged and written.

Adding a field is one line in :data:`FIELDS` (its kind, range and default).

This module imports no pygame, so the engine's tests can use it too.

>>> import tempfile
>>> p = Progress.load(tempfile.mkdtemp())
>>> p.record("level:1", 7), p.record("level:1", 9), p.record("level:1", 5)
(True, False, True)
>>> p.best["level:1"], "level:1" in p.solved
(5, True)

A win after a hint is kept apart, with its own best: it never counts as a
clean solve, and a clean solve never hides it.

>>> p.record("level:2", 6, hints=1), "level:2" in p.solved, p.best_hinted["level:2"]
(True, False, 6)
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anabasis.app.settings.keymap import DEFAULT_KEYS, FIXED_KEYS  # noqa: F401 (the API)
from anabasis.formats.files import atomic_write, file_kind, read_at_most

FILE_NAME = "progress.json"
VERSION = 1
#: The largest save file read (a player's progress is some kilobytes; thousands of
#: rooms stay far under this), and what a read may cost in memory is bounded by it.
MAX_BYTES = 4 << 20

DEFAULT_VOLUME = 0.7  #: the effects' volume, 0..1, until the player sets one



def data_dir() -> Path:
    """Where progress and screenshots live: ``$ANABASIS_DATA_DIR`` or the platform's place."""
    env = os.environ.get("ANABASIS_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("anabasis", appauthor=False))


def level_key(n: int, chapter: int = 1) -> str:
    """The key a level's best is kept under: ``level:N`` for the tutorial's (chapter 1,
    as it always was), ``level:C.N`` for level ``N`` of chapter ``C``.

    >>> level_key(3), level_key(4, 2)
    ('level:3', 'level:2.4')
    """
    return f"level:{n}" if chapter == 1 else f"level:{chapter}.{n}"


def room_key(code: str) -> str:
    """The key a made or shared room's best is kept under (its room code)."""
    return f"room:{code}"


# -- what the file holds: kinds, ranges, defaults ------------------------------------


class Invalid(ValueError):
    """A value in the file that is not what its field holds (the message says why)."""


def _whole(raw: Any, lo: int, hi: int, what: str) -> int:
    # bool is a subclass of int in Python, and JSON's true is not a count
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise Invalid(f"{what} is {_kind(raw)}, not a whole number")
    if not lo <= raw <= hi:
        raise Invalid(f"{what} is {raw}, outside {lo} to {hi}")
    return raw


def _kind(raw: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text",
            list: "a list", dict: "an object", type(None): "null"}.get(type(raw), "something else")


class Kind:
    """How one field is read from JSON, written back, and merged.

    ``take(raw, problems)`` returns the value to keep, or raises
    :class:`Invalid` when none of it is usable; records it drops (one bad
    entry in a map) are said in ``problems``.  ``merge(saved, session,
    default)`` joins a file that became readable with the session's value:
    settings keep the session's where it changed them.
    """

    def take(self, raw: Any, problems: list[str]) -> Any:
        raise NotImplementedError

    def give(self, value: Any) -> Any:
        return value

    def merge(self, saved: Any, session: Any, default: Any) -> Any:
        return saved if session == default else session


class Whole(Kind):
    """A whole number in ``lo..hi`` (never a bool)."""

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def take(self, raw, problems):
        return _whole(raw, self.lo, self.hi, "the value")


class Number(Kind):
    """A finite number in ``lo..hi``, whole or not (never a bool): a volume, say."""

    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi

    def take(self, raw, problems):
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise Invalid(f"the value is {_kind(raw)}, not a number")
        if not (math.isfinite(raw) and self.lo <= raw <= self.hi):
            raise Invalid(f"the value {raw} is outside {self.lo} to {self.hi}")
        return raw


class Flag(Kind):
    """``true`` or ``false``, and nothing else ("no" is not false)."""

    def take(self, raw, problems):
        if not isinstance(raw, bool):
            raise Invalid(f"the value is {_kind(raw)}, not true or false")
        return raw


class Choice(Kind):
    """One of a few words (``"auto"``, ``"on"``, ...): a setting with named choices."""

    def __init__(self, *choices: str):
        self.choices = choices

    def take(self, raw, problems):
        if raw not in self.choices:
            raise Invalid(f"the value is {str(raw)[:40]!r}, not one of {', '.join(self.choices)}")
        return raw


class Size(Kind):
    """``[width, height]`` in pixels, each in ``lo..hi``, or null (none saved)."""

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def take(self, raw, problems):
        if raw is None:
            return None
        if not isinstance(raw, list) or len(raw) != 2:
            raise Invalid(f"the value is {_kind(raw)}, not [width, height]")
        return (_whole(raw[0], self.lo, self.hi, "the width"),
                _whole(raw[1], self.lo, self.hi, "the height"))

    def give(self, value):
        return list(value) if value else None


def _name(raw: Any, longest: int) -> str:
    if not isinstance(raw, str):
        raise Invalid(f"a name is {_kind(raw)}, not text")
    if not 0 < len(raw) <= longest:
        raise Invalid(f"a name of {len(raw)} characters (1 to {longest})")
    return raw


class Text(Kind):
    """One line of text, at most ``longest`` characters, no control characters."""

    def __init__(self, longest: int):
        self.longest = longest

    def take(self, raw, problems):
        if not isinstance(raw, str):
            raise Invalid(f"the value is {_kind(raw)}, not text")
        if len(raw) > self.longest or not raw.isprintable():
            raise Invalid(f"the value is not one line of at most {self.longest} characters")
        return raw


class Names(Kind):
    """A set of names (a list of text in the file): solved rooms.  Merged by union."""

    def __init__(self, longest: int = 1 << 16):
        self.longest = longest

    def take(self, raw, problems):
        if not isinstance(raw, list):
            raise Invalid(f"the value is {_kind(raw)}, not a list of names")
        names = set()
        for item in raw:
            try:
                names.add(_name(item, self.longest))
            except Invalid as e:
                problems.append(str(e))
        return names

    def give(self, value):
        return sorted(value)

    def merge(self, saved, session, default):
        return saved | session


class Counts(Kind):
    """A map of names to whole numbers in ``lo..hi``: best move counts.  Merged by the least."""

    def __init__(self, lo: int, hi: int, longest: int = 1 << 16):
        self.lo, self.hi, self.longest = lo, hi, longest

    def take(self, raw, problems):
        if not isinstance(raw, dict):
            raise Invalid(f"the value is {_kind(raw)}, not a map of names to counts")
        counts = {}
        for key, value in raw.items():
            try:
                counts[_name(key, self.longest)] = _whole(value, self.lo, self.hi,
                                                          f"the count of {key[:40]!r}")
            except Invalid as e:
                problems.append(str(e))
        return counts

    def give(self, value):
        return dict(sorted(value.items()))

    def merge(self, saved, session, default):
        out = dict(saved)
        for key, n in session.items():
            out[key] = min(n, out.get(key, n))
        return out


class Keys(Kind):
    """Each action's key names; unknown actions are dropped, missing ones keep the defaults,
    less any key the file gives another action (an action new since the file was written
    never takes a key the player bound: a key is one action's only).

    >>> Keys().take({"recipe": ["b"]}, [])["large_map"], Keys().take({}, [])["large_map"]
    ([], ['b'])
    """

    def take(self, raw, problems):
        if not isinstance(raw, dict):
            raise Invalid(f"the value is {_kind(raw)}, not a map of actions to key names")
        keys = _default_keys()
        named = set()
        for action, names in raw.items():
            if action not in DEFAULT_KEYS:
                continue
            if (not isinstance(names, list) or len(names) > 8
                    or not all(isinstance(n, str) and 0 < len(n) <= 40 for n in names)):
                problems.append(f"the keys of {action!r} are not a list of key names")
                continue
            keys[action] = list(names)
            named.add(action)
        taken = {n for action in named for n in keys[action]}
        for action in DEFAULT_KEYS:
            if action not in named:
                keys[action] = [n for n in keys[action] if n not in taken]
        return keys

    def give(self, value):
        return {action: list(names) for action, names in value.items()}

    def merge(self, saved, session, default):
        return {action: session[action] if session[action] != default[action] else saved[action]
                for action in DEFAULT_KEYS}


def _default_keys() -> dict[str, list[str]]:
    return {k: list(v) for k, v in DEFAULT_KEYS.items()}


class Field:
    """One field of the file: its kind (with its range) and a fresh default."""

    def __init__(self, kind: Kind, default: Callable[[], Any]):
        self.kind, self.default = kind, default


#: Window sizes the file may hold (the app also fits a saved size to the display).
WINDOW_RANGE = (64, 8192)
#: The most moves a best may be (more is no count a player made).
MOST_MOVES = 1_000_000_000

#: The slice map: shown where it helps (more than two slices, a made room), always, never.
SLICE_MAP_CHOICES = ("auto", "on", "off")
#: The step marks: shown in the campaign's levels and the made rooms, and while their key
#: is held (a shared room); always; or only while the key is held.
STEP_MARK_CHOICES = ("auto", "on", "held")
#: What a made room opens on: the large map (every blind player of two rounds pressed B at
#: once in a made room, its 3D slice "mostly walls"), or the room with the map in its corner.
MAP_OPENS_CHOICES = ("large", "corner")
TEXT_SIZES = (0.8, 1.6)  #: the text size, a factor on the UI's scale
PALETTES = ("standard", "safe")  #: "safe": the colour-blind-safe palette

#: What the file holds: one entry per field, its kind, range and default.  The
#: attribute of :class:`Progress` has the field's name.
FIELDS: dict[str, Field] = {
    "solved": Field(Names(), set),
    "best": Field(Counts(0, MOST_MOVES), dict),
    # rooms won after a hint, and their best moves: kept apart from the clean ones
    "hinted": Field(Names(), set),
    "best_hinted": Field(Counts(0, MOST_MOVES), dict),
    "window": Field(Size(*WINDOW_RANGE), lambda: None),
    "fullscreen": Field(Flag(), lambda: False),
    "keys": Field(Keys(), _default_keys),
    "volume": Field(Number(0.0, 1.0), lambda: DEFAULT_VOLUME),
    "muted": Field(Flag(), lambda: False),
    # which daily board the game sends its wins to: "none" (the default: no board, the
    # game as it always was), "local" (``anabasis serve`` here), or an http(s):// URL
    "board": Field(Text(2000), lambda: "none"),
    # how the room is read (docs/game.md, "Reading a room"); "auto": where it helps
    "slice_map": Field(Choice(*SLICE_MAP_CHOICES), lambda: "auto"),
    "step_marks": Field(Choice(*STEP_MARK_CHOICES), lambda: "auto"),
    "map_opens": Field(Choice(*MAP_OPENS_CHOICES), lambda: "large"),
    "text_size": Field(Number(*TEXT_SIZES), lambda: 1.0),
    "reduced_motion": Field(Flag(), lambda: False),
    "palette": Field(Choice(*PALETTES), lambda: "standard"),
}


# -- reading the file, bounded ----------------------------------------------------------


class _Unreadable(Exception):
    """The file is there but cannot be read now: never overwrite it."""


class _NotProgress(Exception):
    """The file's content is not progress: set it aside."""


def _read_bytes(path: Path) -> bytes | None:
    """The file's bytes (None when there is none), read only from a regular file, bounded.

    Raises :class:`_Unreadable` (permissions, I/O) or :class:`_NotProgress`
    (not a regular file, or larger than :data:`MAX_BYTES`).
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _Unreadable(_why(e)) from None
    if not stat.S_ISREG(st.st_mode):
        raise _NotProgress(f"it is {file_kind(st.st_mode)}, not a regular file")
    # non-blocking, so that a FIFO put there after the check cannot hang the start
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _Unreadable(_why(e)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _NotProgress(f"it is {file_kind(st.st_mode)}, not a regular file")
        data = read_at_most(fd, MAX_BYTES + 1)
    except OSError as e:
        raise _Unreadable(_why(e)) from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise _NotProgress(f"it is larger than {MAX_BYTES >> 20} MiB")
    return data


def _why(e: OSError) -> str:
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return (e.strerror or str(e)).lower()


def _parse(raw: bytes) -> dict:
    """The JSON object in ``raw`` (a UTF-8 BOM is fine); :class:`_NotProgress` if none."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise _NotProgress(f"byte {e.start} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise _NotProgress("it is nested too deep") from None
    except ValueError as e:  # JSONDecodeError, and a number past Python's digit limit
        raise _NotProgress(f"it is not JSON ({str(e).splitlines()[0][:80]})") from None
    if not isinstance(data, dict):
        raise _NotProgress(f"it is {_kind(data)}, not a JSON object")
    return data


def _one_line(text: str) -> str:
    """``text`` with control characters escaped, for a one-line message."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


# -- the progress ------------------------------------------------------------------------


class Progress:
    """What the player has done, and how they like the game set up.

    The fields are :data:`FIELDS`' (``solved``, ``best``, ``window``,
    ``fullscreen``, ``keys``, ...), each an attribute of its name.
    """

    solved: set[str]
    best: dict[str, int]
    hinted: set[str]
    best_hinted: dict[str, int]
    window: tuple[int, int] | None
    fullscreen: bool
    keys: dict[str, list[str]]
    volume: float
    muted: bool
    board: str
    slice_map: str
    step_marks: str
    map_opens: str
    text_size: float
    reduced_motion: bool
    palette: str

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        for name, f in FIELDS.items():
            setattr(self, name, f.default())
        #: fields this release does not know (a later one wrote them): written back as they were
        self.extra: dict[str, Any] = {}
        #: one line, said on stderr: what was wrong with the file and what was done (or "")
        self.warning = ""
        #: the same, shorter, for the launcher to show (or "")
        self.notice = ""
        #: why the file is not written (it is there but could not be read), or ""
        self.held = ""
        #: where a bad file was moved, or None
        self.aside: Path | None = None

    def __repr__(self) -> str:
        return f"Progress({str(self.path)!r}, solved={len(self.solved)}, held={self.held!r})"

    # -- loading ------------------------------------------------------------

    @classmethod
    def load(cls, directory: str | os.PathLike | None = None) -> Progress:
        """Read the saved file; a bad one is set aside, an unreadable one left alone."""
        directory = Path(directory) if directory is not None else data_dir()
        path = directory / FILE_NAME
        _sweep_leftovers(directory)
        progress = cls(path)
        try:
            raw = _read_bytes(path)
            if raw is None:
                return progress
            data = _parse(raw)
        except _Unreadable as e:
            progress._hold(f"it could not be read ({e})")
            return progress
        except _NotProgress as e:
            progress._set_aside(str(e), kept=False)
            return progress
        problems = progress._absorb(data)
        version = data.get("version", VERSION)
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            progress._hold(f"a later release wrote it (version {version}, this reads {VERSION})")
        elif problems:
            more = f" and {len(problems) - 1} more" if len(problems) > 1 else ""
            if progress._set_aside(problems[0] + more, kept=True):
                try:  # the valid part, saved at once, so that the next start is quiet
                    progress.save()
                except OSError:
                    pass  # the game tries again at its next save
        return progress

    def _absorb(self, data: dict) -> list[str]:
        """Take each field's value from parsed JSON; what was not valid, said in words."""
        problems = []
        if "version" in data:
            try:
                _whole(data["version"], 0, 1 << 30, "the version")
            except Invalid as e:
                problems.append(str(e))
        for name, f in FIELDS.items():
            if name not in data:
                continue
            dropped: list[str] = []
            try:
                setattr(self, name, f.kind.take(data[name], dropped))
            except Invalid as e:
                dropped.append(str(e))
            problems += [f"{name}: {p}" for p in dropped]
        self.extra = {k: v for k, v in data.items() if k not in FIELDS and k != "version"}
        return problems

    def _hold(self, why: str) -> None:
        self.held = why
        self.warning = _one_line(
            f"{self.path}: {why}; this session's progress is kept in memory and the file is "
            "left as it is (each save tries it again)")
        self.notice = _one_line(
            f"your saved progress, {self.path}, is left as it is: {why}; this session's "
            "progress is kept in memory")

    def _set_aside(self, why: str, kept: bool) -> bool:
        """Move the file to a name of its own; False (and the file held) when it cannot be."""
        try:
            self.aside = _move_aside(self.path)
        except OSError as e:
            self._hold(f"{why}, and it could not be set aside ({_why(e)})")
            return False
        if kept:
            self.warning = (f"{self.path} held values that are not valid progress ({why}); "
                            f"it was moved aside to {self.aside.name} and the rest is kept")
            self.notice = (f"part of your saved progress was not valid; the file was set "
                           f"aside as {self.aside.name} and the rest is kept")
        else:
            self.warning = (f"{self.path} was unreadable ({why}); it was moved aside to "
                            f"{self.aside.name}; starting clean")
            self.notice = (f"your saved progress was unreadable ({why[:60]}); it was set "
                           f"aside as {self.aside.name}; starting clean")
        self.warning, self.notice = _one_line(self.warning), _one_line(self.notice)
        return True

    # -- changing -------------------------------------------------------------

    def record(self, key: str, moves: int, hints: int = 0) -> bool:
        """Note a solved room; True when ``moves`` is a new best (of its kind).

        With ``hints`` (how many hints the win took) it is a hinted win: it
        goes to ``hinted`` and ``best_hinted``, never to ``solved`` and ``best``.
        """
        solved, best = (self.hinted, self.best_hinted) if hints else (self.solved, self.best)
        solved.add(key)
        old = best.get(key)
        if old is None or moves < old:
            best[key] = moves
            return True
        return False

    def bind_key(self, action: str, name: str) -> list[str]:
        """Make ``name`` the key for ``action``; the actions it was taken from.

        A key is one action's only: taking it moves it.  Esc stays with "back".

        >>> import tempfile
        >>> p = Progress.load(tempfile.mkdtemp())
        >>> p.bind_key("undo", "r"), p.keys["undo"], p.keys["restart"]
        (['restart'], ['r'], [])
        >>> p.bind_key("back", "j"), p.keys["back"]
        ([], ['j', 'escape'])
        """
        if action not in DEFAULT_KEYS:
            raise KeyError(action)
        if name in FIXED_KEYS.values():
            raise ValueError(f"{name} cannot be bound")
        fixed = [FIXED_KEYS[action]] if action in FIXED_KEYS else []
        return self._set_keys(action, [name] + fixed)

    def reset_keys(self, action: str | None = None) -> list[str]:
        """Back to the default keys: one action's, or every one (None); the actions
        a default key was taken from.

        >>> import tempfile
        >>> p = Progress.load(tempfile.mkdtemp())
        >>> p.bind_key("restart", "z"), p.reset_keys("undo"), p.keys["restart"]
        (['undo'], ['restart'], [])
        >>> p.reset_keys(), p.keys == DEFAULT_KEYS
        ([], True)
        """
        if action is None:
            self.keys = _default_keys()
            return []
        return self._set_keys(action, list(DEFAULT_KEYS[action]))

    def _set_keys(self, action: str, names: list[str]) -> list[str]:
        taken = []
        for other, held in self.keys.items():
            if other != action and any(n in held for n in names):
                self.keys[other] = [n for n in held if n not in names]
                taken.append(other)
        self.keys[action] = names
        return taken

    def to_json(self) -> dict:
        out: dict[str, Any] = {"version": VERSION}
        out.update(self.extra)
        for name, f in FIELDS.items():
            out[name] = f.kind.give(getattr(self, name))
        return out

    # -- saving ---------------------------------------------------------------

    def save(self) -> bool:
        """Write atomically: a temporary file beside the real one, then a rename.

        While the file is held (it could not be read) it is read again
        first: once it reads, the two are merged and written; until then
        nothing is written and this returns False.
        """
        if self.held and not self._merge_saved():
            return False
        atomic_write(self.path, json.dumps(self.to_json(), indent=1) + "\n")
        return True

    def _merge_saved(self) -> bool:
        saved = Progress.load(self.path.parent)
        if saved.held:
            return False
        for name, f in FIELDS.items():
            setattr(self, name, f.kind.merge(getattr(saved, name), getattr(self, name),
                                             f.default()))
        self.extra = {**saved.extra, **self.extra}
        self.held = ""
        return True


def _move_aside(path: Path) -> Path:
    """Rename ``path`` to ``<name>.corrupt-<time>[-n]``, a name nothing else has."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        aside = path.with_name(f"{path.name}.corrupt-{stamp}" + (f"-{n}" if n > 1 else ""))
        try:  # claim the name first: two bad files in one second never share one
            os.close(os.open(aside, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                os.unlink(aside)  # a folder cannot be renamed over a file
            os.replace(path, aside)
        except OSError:
            try:
                os.unlink(aside)
            except OSError:
                pass
            raise
        return aside
    raise OSError(errno.EEXIST, "no free name to move it aside to")


def _sweep_leftovers(directory: Path, age_s: float = 60.0) -> None:
    """Remove temporary files a crashed save left behind (old ones only: another
    running copy of the game may be writing a fresh one)."""
    try:
        leftovers = list(directory.glob(f".{FILE_NAME}.*.tmp"))
    except OSError:
        return
    now = time.time()
    for tmp in leftovers:
        try:
            if now - tmp.stat().st_mtime > age_s:
                tmp.unlink()
        except OSError:
            pass
