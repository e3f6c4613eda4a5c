"""``anabasis bench`` section ``solver``: how fast the exact solver searches.

- ``solver.states_per_s``: states reached per second by :func:`anabasis.engine.solver.solve`
  in a full, exhaustive search of the bench room ``rooms/solver.txt`` (10 x 8 x 4 x 5 cells,
  3 crates, 120,699 reachable states; its goal is sealed in, so the search
  must visit every state to prove it impossible).  Best of a few runs.
- ``solver.vs_reference``: that figure over the reference solver's
  (:func:`anabasis.engine.reference.solve`) states per second on the same room in
  the same run; the reference, about 30 times slower, is stopped after
  :data:`REFERENCE_STATES` states to keep the bench short.

- ``solver.hook_states_per_s``: the same room searched with the hook a move
  (``solve --hook``): exhaustive too, :data:`HOOK_STATES` states, one run (it
  takes some 10 to 15 s).  ``solver.hook_vs_plain``: that figure over
  the plain search's, side by side in the same run and in CPU time (this
  process's own: on a shared machine the long search loses more wall time
  than the short one): how fast a hook search goes per state, as a share
  of a plain one's speed.  Both sides are means, not bests: the plain
  search's over its runs before the hook's and as many after it (a best of
  short runs against one long run would pick the plain side's luckiest
  moment on a machine whose speed drifts).

Targets: 400,000 states/s or more, 10 times the reference or more, and a
hook search at least 0.5 times a plain one per state.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from anabasis.engine.world import Room

#: The reachable states of the bench room: the search must find exactly these.
BENCH_STATES = 120_699
REFERENCE_STATES = 25_000  #: where the reference's search is stopped
#: The reachable states of the bench room with the hook a move.
HOOK_STATES = 4_194_275


def bench_room() -> Room:
    """The benchmark room (``rooms/solver.txt``): terraces in w (you stand on the slice
    where a column's blocks end), ramps up them, two crates on the lowest terrace and one
    on a higher one.  The goal, in the top slice's corner, is out of reach."""
    from anabasis.bench import room

    return room("solver")


def _timed(search, room: Room, **kw) -> tuple[float, object]:
    began = time.perf_counter()
    found = search(room, **kw)
    return time.perf_counter() - began, found


def _cpu_timed(search, room: Room, **kw) -> tuple[float, float, object]:
    """Wall and CPU seconds of one search: the CPU time is this process's alone, so a
    ratio of two is fair on a shared machine, where a long search loses more wall time."""
    wall, cpu = time.perf_counter(), time.process_time()
    found = search(room, **kw)
    return time.perf_counter() - wall, time.process_time() - cpu, found


def bench(runs: int = 3) -> Iterator[tuple[str, object]]:
    """Yield ``solver.states_per_s``, ``solver.vs_reference``, ``solver.hook_states_per_s``
    and ``solver.hook_vs_plain``."""
    from anabasis.engine import reference, solver

    room = bench_room()
    cpus: list[float] = []  # the plain searches' CPU seconds, before and after the hook's

    def plain() -> float:
        seconds, cpu, found = _cpu_timed(solver.solve, room)
        if found.status != "impossible" or found.states != BENCH_STATES:
            raise AssertionError(f"the bench room's search found {found}, "
                                 f"not {BENCH_STATES} states and no solution")
        cpus.append(cpu)
        return seconds

    best = min(plain() for _ in range(runs))
    fast = BENCH_STATES / best
    yield "solver.states_per_s", round(fast)
    seconds, found = _timed(reference.solve, room, max_states=REFERENCE_STATES)
    if found.status != "gave-up":
        raise AssertionError(f"the reference's capped search found {found}")
    yield "solver.vs_reference", fast / (found.states / seconds)
    seconds, cpu, found = _cpu_timed(solver.solve, room, hook=True)
    if found.status != "impossible" or found.states != HOOK_STATES:
        raise AssertionError(f"the bench room's hook search found {found}, "
                             f"not {HOOK_STATES} states and no solution")
    yield "solver.hook_states_per_s", round(HOOK_STATES / seconds)
    for _ in range(runs):
        plain()
    # per state, in CPU time: (hook states / hook CPU s) over (plain states / plain CPU s)
    yield "solver.hook_vs_plain", (HOOK_STATES / cpu) / (BENCH_STATES / (sum(cpus) / len(cpus)))
