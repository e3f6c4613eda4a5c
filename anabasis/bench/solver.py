"""``anabasis bench`` section ``solver``: how fast the exact solver searches.

- ``solver.states_per_s``: states reached per second by :func:`anabasis.engine.solver.solve`
  in a full, exhaustive search of the bench room ``rooms/solver.txt`` (10 x 8 x 4 x 5 cells,
  3 crates, 120,699 reachable states; its goal is sealed in, so the search
  must visit every state to prove it impossible).  Best of a few runs.
- ``solver.vs_reference``: that figure over the reference solver's
  (:func:`anabasis.engine.reference.solve`) states per second on the same room in
  the same run; the reference, about 30 times slower, is stopped after
  :data:`REFERENCE_STATES` states to keep the bench short.

Targets: 400,000 states/s or more, and 10 times the reference or more.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from anabasis.engine.world import Room

#: The reachable states of the bench room: the search must find exactly these.
BENCH_STATES = 120_699
REFERENCE_STATES = 25_000  #: where the reference's search is stopped


def bench_room() -> Room:
    """The benchmark room (``rooms/solver.txt``): terraces in w (you stand on the slice
    where a column's blocks end), ramps up them, two crates on the lowest terrace and one
    on a higher one.  The goal, in the top slice's corner, is out of reach."""
    from anabasis.bench import room

    return room("solver")


def _timed(search, room: Room, **kw) -> tuple[float, int]:
    began = time.perf_counter()
    found = search(room, **kw)
    return time.perf_counter() - began, found


def bench(runs: int = 3) -> Iterator[tuple[str, object]]:
    """Yield ``solver.states_per_s`` and ``solver.vs_reference``."""
    from anabasis.engine import reference, solver

    room = bench_room()
    best = float("inf")
    for _ in range(runs):
        seconds, found = _timed(solver.solve, room)
        if found.status != "impossible" or found.states != BENCH_STATES:
            raise AssertionError(f"the bench room's search found {found}, "
                                 f"not {BENCH_STATES} states and no solution")
        best = min(best, seconds)
    fast = BENCH_STATES / best
    yield "solver.states_per_s", round(fast)
    seconds, found = _timed(reference.solve, room, max_states=REFERENCE_STATES)
    if found.status != "gave-up":
        raise AssertionError(f"the reference's capped search found {found}")
    yield "solver.vs_reference", fast / (found.states / seconds)
