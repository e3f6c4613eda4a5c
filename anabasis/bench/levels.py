"""``anabasis bench`` section ``levels``: every chapter's levels' proofs, timed.

A level's proofs are what ``tests/test_levels.py`` and ``tests/test_chapters.py``
pin: its par (the shortest solution), every rule of its ``needs:`` line
proved impossible without, and the hook finding nothing shorter.
``levels.proofs_s`` is the wall time of all the chapters' proofs together,
with the engine the game ships (``anabasis.engine.solver``); the target is
2 s or less.  A level this engine cannot read (a chapter written for a rule
still to come) is left out and counted in ``levels.unread``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from anabasis.engine.world import Room
from anabasis.formats import levels
from anabasis.formats.levelfile import LevelError


def prove(room: Room) -> dict[str, object]:
    """Run one level's proofs: ``{"par": n, "hooked": n, "<rule>": status, ...}``
    (``hooked``: the shortest solution's length with the hook a move; ``hook`` is a rule a
    hook room ``needs``, so it keeps its own key)
    (asked of :mod:`anabasis.engine.proofs`, the one home for proofs)."""
    from anabasis.engine import proofs as home

    found = home.prove(room)
    return {"par": found.par, **dict(found.needs), "hooked": found.hook}


def proves(room: Room, proofs: dict[str, object]) -> bool:
    """True when ``proofs`` (from :func:`prove`) hold what the level's header says."""
    from anabasis.engine import proofs as home

    found = home.Proofs("solved" if proofs["par"] is not None else "impossible",
                        proofs["par"], None,
                        tuple((rule, proofs[rule]) for rule in room.needs), proofs["hooked"])
    return not home.refusals(room, found)


def bench() -> Iterator[tuple[str, object]]:
    """Yield ``levels.proofs_s``: seconds for all the levels' proofs, loading excluded."""
    rooms, unread = [], 0
    for chapter in levels.chapters():
        for n in range(1, len(chapter) + 1):
            try:
                rooms.append(chapter.load(n))
            except LevelError:
                unread += 1
    # The best of a few runs: the machine is shared, and the floor is the figure.
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        results = [prove(room) for room in rooms]
        best = min(best, time.perf_counter() - start)
    yield "levels.proofs_s", best
    # How many levels' proofs held (all of them unless a level or the solver broke).
    yield "levels.proved", sum(proves(r, p) for r, p in zip(rooms, results, strict=True))
    yield "levels.unread", unread
