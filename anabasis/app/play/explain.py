"""What the proofs can say beyond "solvable" or "impossible": why, and how many ways.

:func:`why_impossible` gives one line for a room the search found
impossible, where a simple argument proves it on its own (each is a proof,
never a guess: it looks at more than the player can do, so when it says
"out of reach", no search could reach it either):

- the goal is out of reach even walking freely (any step of one cell along
  any of the four axes, through every cell that is not a block or a ramp);
- the player cannot get above slice w = m (only a ramp takes you ana, one
  slice a ramp: without a ramp in slice m nothing lifts you to m + 1);
- no crate can come to rest where the player needs a floor, since the
  room has none and the goal has no floor.

:func:`count_shortest` counts the shortest solutions (one, or several)
from the room's whole state graph (:func:`anabasis.engine.solver.explore`).
No pygame here; it runs in the proofs' worker.
"""

from __future__ import annotations

import itertools
from collections import deque

from anabasis.engine.cells import EMPTY, RAMPS

#: The most states :func:`count_shortest` explores before it gives up (None: not counted).
COUNT_STATES = 80_000
#: Rooms whose shortest solution took more states than this to find are not counted: the
#: whole graph is several times that, and would cost more than every other proof.
COUNT_FROM = 20_000


def _walk_freely(room) -> set:
    """Every cell the player could reach stepping one cell along any axes at once (a king's
    step in 4D) through cells that are not blocks or ramps: more than the rules allow."""
    X, Y, Z, W = room.size
    start = room.start.player
    seen = {start}
    todo = deque([start])
    steps = [d for d in itertools.product((-1, 0, 1), repeat=4) if any(d)]
    while todo:
        p = todo.popleft()
        for d in steps:
            q = [a + b for a, b in zip(p, d, strict=True)]
            if room.wrap:
                q[3] %= W
            q = tuple(q)
            if q in seen or not room.inside(q) or room.cells[room.index(q)] != EMPTY:
                continue
            seen.add(q)
            todo.append(q)
    return seen


def highest_w(room) -> int | None:
    """The highest slice the player can reach: up from the start one slice for each slice
    with a ramp in it (None where w wraps: round the tower every slice is above)."""
    if room.wrap:
        return None
    X, Y, Z, W = room.size
    with_ramp = {w for w in range(W) for z in range(Z) for y in range(Y) for x in range(X)
                 if room.cells[room.index((x, y, z, w))] in RAMPS}
    top = room.start.player[3]
    while top in with_ramp:
        top += 1
    return top


def why_impossible(room) -> str:
    """One line saying why ``room`` cannot be won, where a simple proof shows it; else ""."""
    if room.goal not in _walk_freely(room):
        return "the goal is out of reach even walking freely: blocks and ramps wall it off"
    top = None if getattr(room, "hook", False) else highest_w(room)  # the hook pulls you ana
    if top is not None and room.goal[3] > top:
        return (f"the player cannot get above slice w = {top}: only a ramp takes you ana, "
                f"and slice w = {top} has none")
    x, y, z, w = room.goal
    below = (x, y, z - 1, w)
    if not room.start.crates and (z == 0 or room.cells[room.index(below)] == EMPTY):
        return ("nothing can hold the player in the goal: it has no floor, and the room has "
                "no crate to make one")
    return ""


def count_shortest(room, par: int, max_states: int = COUNT_STATES) -> int | None:
    """How many move strings of length ``par`` win ``room`` (None: too many states to
    tell)."""
    from anabasis.engine import solver

    if getattr(room, "hook", False):  # par counts hook moves there; the graph has steps only
        return None
    graph = solver.explore(room, max_states=max_states)
    if not graph.complete or not len(graph):
        return None
    n = len(graph)
    dist = [-1] * n
    ways = [0] * n
    dist[0], ways[0] = 0, 1
    for i in range(n):  # the states are numbered in breadth-first order
        if dist[i] < 0 or dist[i] >= par:
            continue
        for child in graph.children[i]:
            if child < 0:
                continue
            if dist[child] < 0:
                dist[child] = dist[i] + 1
            if dist[child] == dist[i] + 1:
                ways[child] += ways[i]
    return sum(ways[i] for i in range(n) if graph.won[i] and dist[i] == par)
