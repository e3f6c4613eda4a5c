"""Saved progress and settings: solved levels, best moves, window size, keys.

One JSON file, ``progress.json``, in the user's data directory
(``platformdirs.user_data_dir("anabasis")``, or ``$ANABASIS_DATA_DIR`` so that
tests and portable installs can point it elsewhere).

Writes are atomic: the new text goes to a temporary file in the same
directory, is flushed and fsynced, and only then renamed over the old file
with ``os.replace``.  A crash at any point leaves either the old file or the
new one, never half of one.  A file that cannot be read (corrupt, or the
wrong shape) is moved aside as ``progress.json.corrupt-<time>`` with a
warning on stderr, and the game starts clean: it never crashes on its own
save.

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

import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

FILE_NAME = "progress.json"
VERSION = 1

#: The actions a player can rebind, and their default keys (pygame key names).
DEFAULT_KEYS: dict[str, list[str]] = {
    "up": ["up", "w"],
    "down": ["down", "s"],
    "left": ["left", "a"],
    "right": ["right", "d"],
    "turn": ["v", "space"],
    "orbit_left": ["q"],
    "orbit_right": ["e"],
    "undo": ["z", "backspace"],
    "restart": ["r"],
    "back": ["escape"],
    "copy": ["c"],
    "screenshot": ["f12"],
    "help": ["h", "f1"],
    "hint": ["/", "?"],
    "fullscreen": ["f11"],
    "new_room": ["n"],
    "next": ["return", "enter"],
}

#: Esc always goes back (and Ctrl+Q always quits, in the loop): the keys screen
#: never binds Esc to anything else, so nobody can lock themselves out.
FIXED_KEYS: dict[str, str] = {"back": "escape"}


def data_dir() -> Path:
    """Where progress and screenshots live: ``$ANABASIS_DATA_DIR`` or the platform's place."""
    env = os.environ.get("ANABASIS_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("anabasis", appauthor=False))


def level_key(n: int) -> str:
    """The key a tutorial level's best is kept under."""
    return f"level:{n}"


def room_key(code: str) -> str:
    """The key a made or shared room's best is kept under (its room code)."""
    return f"room:{code}"


@dataclass
class Progress:
    """What the player has done, and how they like the game set up."""

    path: Path
    solved: set[str] = field(default_factory=set)
    best: dict[str, int] = field(default_factory=dict)
    #: rooms won after a hint, and their best moves: kept apart from the clean ones
    hinted: set[str] = field(default_factory=set)
    best_hinted: dict[str, int] = field(default_factory=dict)
    window: tuple[int, int] | None = None
    fullscreen: bool = False
    keys: dict[str, list[str]] = field(default_factory=lambda: {
        k: list(v) for k, v in DEFAULT_KEYS.items()})
    #: set when the file on disk was unreadable and moved aside (for the UI to say so)
    warning: str = ""

    # -- loading ------------------------------------------------------------

    @classmethod
    def load(cls, directory: str | os.PathLike | None = None) -> Progress:
        """Read the saved file, or start clean (moving a corrupt one aside)."""
        directory = Path(directory) if directory is not None else data_dir()
        path = directory / FILE_NAME
        _sweep_leftovers(directory)
        progress = cls(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return progress
        except OSError as e:
            progress.warning = f"could not read {path}: {e}; starting clean"
            print(f"anabasis: warning: {progress.warning}", file=sys.stderr)
            return progress
        try:
            progress._absorb(json.loads(text))
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            aside = path.with_name(f"{FILE_NAME}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(path, aside)
                where = f"moved aside to {aside.name}"
            except OSError:
                where = "left where it is"
            progress = cls(path)
            progress.warning = f"{path} was unreadable ({e}); {where}; starting clean"
            print(f"anabasis: warning: {progress.warning}", file=sys.stderr)
        return progress

    def _absorb(self, data) -> None:
        """Take the fields from parsed JSON, checking each one's shape."""
        if not isinstance(data, dict):
            raise TypeError("the file is not a JSON object")
        solved = data.get("solved", [])
        if not isinstance(solved, list) or not all(isinstance(s, str) for s in solved):
            raise TypeError("'solved' is not a list of names")
        best = data.get("best", {})
        if not isinstance(best, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and v >= 0 for k, v in best.items()):
            raise TypeError("'best' is not a map of names to move counts")
        hinted = data.get("hinted", [])
        if not isinstance(hinted, list) or not all(isinstance(s, str) for s in hinted):
            raise TypeError("'hinted' is not a list of names")
        best_hinted = data.get("best_hinted", {})
        if not isinstance(best_hinted, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and v >= 0
                for k, v in best_hinted.items()):
            raise TypeError("'best_hinted' is not a map of names to move counts")
        window = data.get("window")
        if window is not None:
            if (not isinstance(window, list) or len(window) != 2
                    or not all(isinstance(v, int) and 64 <= v <= 16384 for v in window)):
                raise TypeError("'window' is not [width, height]")
            window = (window[0], window[1])
        keys = data.get("keys", {})
        if not isinstance(keys, dict) or not all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(n, str) for n in v)
                for k, v in keys.items()):
            raise TypeError("'keys' is not a map of actions to key names")
        self.solved = set(solved)
        self.best = dict(best)
        self.hinted = set(hinted)
        self.best_hinted = dict(best_hinted)
        self.window = window
        self.fullscreen = bool(data.get("fullscreen", False))
        # unknown actions are dropped; missing ones keep their defaults
        for action, names in keys.items():
            if action in DEFAULT_KEYS:
                self.keys[action] = list(names)

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
        >>> p.bind_key("back", "b"), p.keys["back"]
        ([], ['b', 'escape'])
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
            self.keys = {k: list(v) for k, v in DEFAULT_KEYS.items()}
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
        return {
            "version": VERSION,
            "solved": sorted(self.solved),
            "best": dict(sorted(self.best.items())),
            "hinted": sorted(self.hinted),
            "best_hinted": dict(sorted(self.best_hinted.items())),
            "window": list(self.window) if self.window else None,
            "fullscreen": self.fullscreen,
            "keys": self.keys,
        }

    # -- saving ---------------------------------------------------------------

    def save(self) -> None:
        """Write atomically: a temporary file beside the real one, then a rename."""
        atomic_write(self.path, json.dumps(self.to_json(), indent=1) + "\n")


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


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new one."""
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
