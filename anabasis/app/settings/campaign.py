"""The campaign as the launcher shows it: each chapter's levels, what is won, what is open.

No drawing here, and no pygame: the launcher lists what :func:`campaign`
gives, the app asks :func:`first_unsolved` where to put the selection and
:func:`every_level_done` what to say after a chapter's last level.

- A level's best is kept under :func:`~anabasis.app.settings.progress.level_key`:
  ``level:N`` in chapter 1 (the keys of every earlier release, so old save
  files keep their progress), ``level:C.N`` in chapter ``C``.
- A chapter opens once ``Chapter.needed(len(the chapter before))`` of the
  chapter before are *won*, with or without hints (its ``opens:`` share,
  2/3 by default: 5 of the tutorial's 7).  A win with hints moves a stuck
  player on; it stays marked as hinted, and it is not a solve of their own.
- "Every level done" is true only when every level of every chapter is won
  without hints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from anabasis.app.settings.progress import level_key


@dataclass(frozen=True)
class ChapterState:
    """One chapter against the player's progress."""

    number: int
    title: str
    count: int  #: its levels
    solved: int  #: won without hints
    won: int  #: won at all (with hints or without)
    open: bool
    needed: int  #: wins in the chapter before that open it (0 for chapter 1)
    before_count: int  #: the chapter before's levels (0 for chapter 1)
    before_won: int  #: the chapter before's levels won so far
    opens: str  #: the share as the chapter file gives it ("2/3")
    playable: bool = True  #: every level loads with this engine
    before_number: int = 0  #: the chapter before's number (0 for chapter 1)
    chapter: object = None  #: its :class:`anabasis.formats.levels.Chapter`

    def keys(self) -> list[str]:
        return [level_key(n, self.number) for n in range(1, self.count + 1)]

    @property
    def progress_text(self) -> str:
        """``"5 of 7 solved"`` (and the hinted wins, if any)."""
        text = f"{self.solved} of {self.count} solved"
        if self.won > self.solved:
            text += f", {self.won - self.solved} with hints"
        return text

    @property
    def lock_text(self) -> str:
        """What opens it, in the launcher's words."""
        return (f"opens when {self.needed} of chapter {self.before_number}'s {self.before_count} "
                f"levels are won ({self.before_won} so far)")


def campaign(progress, chapters=None, check: bool = False) -> list[ChapterState]:
    """Every chapter, in order, against ``progress`` (``chapters``: another list of
    :class:`anabasis.formats.levels.Chapter`, for tests).  Only the folders are read;
    ``check`` loads every level too, to tell a chapter this engine cannot read (its
    ``playable``; otherwise its levels show as unreadable lines once it opens)."""
    from anabasis.formats import levels

    chapters = levels.chapters() if chapters is None else chapters
    out: list[ChapterState] = []
    before = None
    for ch in chapters:
        keys = [level_key(n, ch.number) for n in range(1, len(ch) + 1)]
        solved = sum(1 for k in keys if k in progress.solved)
        won = sum(1 for k in keys if k in progress.solved or k in progress.hinted)
        if before is None:
            needed, is_open = 0, True
        else:
            needed = ch.needed(before.count)
            # a chapter opens on the one before's wins, and only once that one is open
            is_open = before.open and before.won >= needed
        try:
            playable = ch.playable() if check else True
        except Exception:  # a folder this engine cannot read: listed, not opened
            playable = False
        out.append(ChapterState(ch.number, ch.title, len(ch), solved, won, is_open, needed,
                                before.count if before else 0, before.won if before else 0,
                                str(ch.opens), playable, before.number if before else 0,
                                ch))
        before = out[-1]
    return out


def every_level_done(progress, states: list[ChapterState] | None = None) -> bool:
    """Every level of every chapter won without hints (and no chapter is left closed)."""
    states = campaign(progress) if states is None else states
    return bool(states) and all(s.solved == s.count for s in states)


def layout(states: list[ChapterState]) -> list[tuple[int, int | None]]:
    """The launcher's level column, line by line: ``(chapter, n)`` for a level of an open
    chapter, ``(chapter, None)`` for a chapter still closed (one line that says what opens
    it)."""
    out: list[tuple[int, int | None]] = []
    for s in states:
        if s.open and s.playable:
            out += [(s.number, n) for n in range(1, s.count + 1)]
        else:
            out.append((s.number, None))
    return out


def first_unsolved(progress, states: list[ChapterState] | None = None):
    """Where the launcher opens: ``(chapter, n)`` of the first level not yet won at all,
    else the first won only with hints, chapter by chapter among the open ones (a chapter's
    hinted levels come before a later chapter's); None when every level is done."""
    states = campaign(progress) if states is None else states
    for s in states:
        if not (s.open and s.playable):
            continue
        keys = s.keys()
        for wins in (progress.solved | progress.hinted, progress.solved):
            for n, key in enumerate(keys, 1):
                if key not in wins:
                    return s.number, n
    return None


def chapter_end_text(progress, number: int) -> str:
    """What the launcher says after the last level of chapter ``number`` is won: "every
    level done" only when it is true, else how the chapter stands and what comes next."""
    states = campaign(progress)
    if every_level_done(progress, states):
        return "every level done: try a room made to order"
    at = [i for i, s in enumerate(states) if s.number == number]
    if not at:
        return "back to the levels"
    this = states[at[0]]
    # (its last level won is not the chapter done: a blind player, one of eight solved,
    # read "the end of chapter 2" as finished)
    head = (f"the end of chapter {number}" if this.won >= this.count
            else f"chapter {number}'s last level won")
    parts = [f"{head}: {this.progress_text}"]
    nxt = states[at[0] + 1] if at[0] + 1 < len(states) else None
    if nxt is not None and nxt.open:
        parts.append(f"chapter {nxt.number}, {nxt.title}, is open")
    elif nxt is not None:
        parts.append(f"chapter {nxt.number} {nxt.lock_text}")
    else:
        left = sum(s.count - s.solved for s in states)
        parts.append(f"{left} level{'s' if left != 1 else ''} still to solve without hints")
    return "; ".join(parts)


def level_room(state: ChapterState, n: int):
    """Level ``n`` of a chapter, as the launcher lists it: parsed once per version of its
    file (a launcher opened again does not parse every chapter's levels again)."""
    from anabasis.formats import levels

    if state.number == 1 or state.chapter is None:
        return levels.load_level(n) if state.number == 1 else levels.load_from(state.number, n)
    path = state.chapter.level_path(n)
    return _room_at(str(path), os.stat(path).st_mtime_ns)


@lru_cache(maxsize=256)
def _room_at(path: str, mtime_ns: int):
    from anabasis.formats import levels

    return levels.load(path)
