"""The day's room, as the server builds it: the generator's hard room seeded by the date.

The server builds a day's room the first time the day is asked for and
keeps its code; after that it reads the code back and never builds again,
so a later ``GEN`` (a changed generator) never changes a past day.
"""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple

from anabasis import gen
from anabasis.formats import codes


class DayRoom(NamedTuple):
    """A day's room as the board keeps it."""

    code: str  #: the room code (what a run must send)
    par: int  #: the length of its shortest solution
    gen: int  #: the generator's version that made it


def build(date: _dt.date) -> DayRoom:
    """Build ``date``'s room as ``anabasis --daily DATE`` does (a hard room, seed YYYYMMDD).

    >>> day = build(_dt.date(2026, 11, 29))
    >>> day.par, day.gen == gen.GEN
    (32, True)
    """
    made = gen.build("hard", gen.daily_seed(date))
    return DayRoom(codes.encode(made.room), len(made.moves), gen.GEN)
