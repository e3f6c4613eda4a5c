"""``anabasis bench`` section ``hint``: how long a hint or a lost-cause check takes.

The game asks :func:`anabasis.engine.solver.way_on` after every move (off
the frame loop) and when the hint key is pressed.  Timed here:

- ``hint.median_ms``, ``hint.max_ms``: at every position on the shortest
  solution of the seven levels and of :data:`HARD_SEEDS`' hard rooms, with
  the solution's earlier positions as the undo stack;
- ``hint.lost_median_ms``, ``hint.lost_max_ms``: at every position one move
  off those solutions from which the goal cannot be reached (the check that
  walks back the undo stack);
- ``hint.positions``: how many positions the first two figures cover.

Each position is timed three times and the fastest kept, so that a busy
shared machine's stalls do not read as the search's cost.  Targets: median
50 ms or less, worst 200 ms or less.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

from anabasis import gen
from anabasis.engine import rules, solver
from anabasis.engine.moves import STEPS
from anabasis.formats import levels

HARD_SEEDS = range(20)  #: the hard rooms: ``gen.build("hard", seed)``
RUNS = 3


def rooms():
    """The seven levels, then the hard rooms."""
    for number in range(1, levels.count() + 1):
        yield levels.load_level(number)
    for seed in HARD_SEEDS:
        yield gen.build("hard", seed).room


def _ms(room, state, history) -> float:
    best = float("inf")
    for _ in range(RUNS):
        began = time.perf_counter()
        solver.way_on(room, state, history)
        best = min(best, time.perf_counter() - began)
    return best * 1000.0


def positions(room):
    """``(state, history, live)`` along the shortest solution and one dead move off it."""
    moves = solver.solve(room).moves or ()
    state, history = rules.start(room).state, []
    for move in (*moves, None):
        yield state, tuple(history), True
        for off in STEPS:
            result = rules.step(room, state, off)
            if result.moved and result.status == "playing" and \
                    solver.solve_from(room, result.state).status == "impossible":
                yield result.state, (*history, state), False
        if move is None:
            break
        history.append(state)
        state = rules.step(room, state, move).state


def bench() -> Iterator[tuple[str, object]]:
    on, off = [], []
    for room in rooms():
        for state, history, live in positions(room):
            (on if live else off).append(_ms(room, state, history))
    yield "hint.median_ms", statistics.median(on)
    yield "hint.max_ms", max(on)
    if off:
        yield "hint.lost_median_ms", statistics.median(off)
        yield "hint.lost_max_ms", max(off)
    yield "hint.positions", len(on)
