"""``anabasis bench`` section ``rules``: the engine in the most crowded room a code holds.

:func:`crowded_room` is the largest room a room code can hold
(:data:`~anabasis.engine.world.MAX_SIZE`, 16 x 16 x 8 x 8 = 16,384 cells)
with a floor in z and in w and every other cell a crate but one row the
player walks along, pushing one crate: 12,513 crates.

- ``rules.crowded_step_ms``: the median time of one :func:`rules.step`
  there, each from the state the step before returned, as the game plays
  (walks, pushes, and steps into the wall that do nothing).  Target 20 ms.
- ``rules.crowded_open_ms``: decoding its room code and settling its start
  (the tables compiled too), as opening the room from a code does.  Target
  1,000 ms (with the window's own work).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

from anabasis.engine.cells import BLOCK
from anabasis.engine.world import MAX_SIZE, Room, State


def crowded_room() -> Room:
    """The largest room a code holds, full of crates (see the module's docstring)."""
    X, Y, Z, W = MAX_SIZE
    player = (0, 0, Z - 1, W - 1)
    shell = Room.empty(MAX_SIZE, player=player, goal=(X - 1, Y - 1, 1, 1))
    cells = bytearray(shell.cells)
    crates = []
    for i, (x, y, z, w) in enumerate(shell.positions()):
        if z == 0 or w == 0:
            cells[i] = BLOCK
        elif (y, z, w) == (0, Z - 1, W - 1):
            if x == 2:
                crates.append((x, y, z, w))  # the one crate in the player's row
        else:
            crates.append((x, y, z, w))
    return Room(MAX_SIZE, bytes(cells), shell.goal, State.of(player, crates))


#: The moves timed: along the row pushing the crate to the wall, and back.
MOVES = "R" * 15 + "L" * 14


def bench() -> Iterator[tuple[str, float]]:
    from anabasis.engine import rules
    from anabasis.formats import codes

    room = crowded_room()
    code = codes.encode(room)
    rules._tables.cache_clear()
    t0 = time.perf_counter()
    opened = codes.decode(code)
    state = rules.start(opened).state
    open_ms = (time.perf_counter() - t0) * 1000
    times = []
    for move in MOVES:
        t0 = time.perf_counter()
        result = rules.step(opened, state, move)
        times.append((time.perf_counter() - t0) * 1000)
        if result.status == "playing":
            state = result.state
    yield "rules.crowded_step_ms", statistics.median(times)
    yield "rules.crowded_open_ms", open_ms
