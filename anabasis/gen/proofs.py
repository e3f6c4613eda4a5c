"""The proofs a made room must carry: impossible without its ramps, without its crates.

The quick proof that a room needs its ramps is a flood (no search); when
it cannot prove it, the exhaustive search decides instead of dropping the
room (asked of :mod:`anabasis.engine.proofs`, the one home for proofs).
:func:`spare_crates` finds the crates a room could do without, and
:func:`walk_through` replays a solution and counts what it does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from anabasis.engine import proofs as home
from anabasis.engine import rules, solver
from anabasis.engine.cells import EMPTY, RAMP_LEAN
from anabasis.engine.world import Room, State

#: A ramp's code -> the step (0 R, 1 L, 2 D, 3 U) along which it rises ana.
_RAMP_TOWARD = {code: (0 if sign > 0 else 1) if axis == 0 else (2 if sign > 0 else 3)
                for code, (axis, sign) in RAMP_LEAN.items()}


def out_of_reach_without_ramps(room: Room) -> bool:
    """A quick proof that ``room`` is impossible with its ramps as blocks.

    Without ramps nothing takes the player ana: walking, pushing and
    climbing keep w, and settling only lowers it.  So the player is always
    in an open (empty) cell at a w no higher than where it is placed.  Flood
    those cells from the start, stepping along x, y and z and kata in w,
    walking through crates as if they were not there: if the goal is not
    among them, no play reaches it.  (The flood over-estimates; when it
    says "reachable" nothing is proved.)  Not for wrapped rooms.
    """
    if room.wrap:
        return False
    start = room.start.player  # unsettled: settling only lowers w, and the flood falls too
    top = start[3]
    if room.goal[3] > top:
        return True
    X, Y, Z, W = room.size
    seen = {start}
    todo = [start]
    steps = ((1, 0, 0, 0), (-1, 0, 0, 0), (0, 1, 0, 0), (0, -1, 0, 0),
             (0, 0, 1, 0), (0, 0, -1, 0), (0, 0, 0, -1))
    cells = room.cells
    while todo:
        x, y, z, w = todo.pop()
        for dx, dy, dz, dw in steps:
            p = (x + dx, y + dy, z + dz, w + dw)
            if p in seen:
                continue
            px, py, pz, pw = p
            if not (0 <= px < X and 0 <= py < Y and 0 <= pz < Z and 0 <= pw <= top):
                continue
            if cells[room.index(p)] != EMPTY:
                continue
            if p == room.goal:
                return False
            seen.add(p)
            todo.append(p)
    return True


def needs_ramps(room: Room, max_states: int | None = None) -> bool:
    """Whether ``room`` is impossible without its ramps: the flood, else the exhaustive search."""
    if out_of_reach_without_ramps(room):
        return True
    return home.needs(room, "ramps", max_states) == "impossible"


def out_of_reach_without_gravity_w(room: Room) -> bool:
    """A quick proof that ``room`` is impossible when nothing falls kata.

    Without w's gravity only a ramp changes the player's w (up one, or down
    one), so play moves over columns at one w.  Flood ``(x, y, w)`` from the
    start: a step in the plane goes to any column where the player could
    stand at that w at *some* z (an open cell with something solid below
    it), whatever z it takes to get there; a step off a ramp along its lean
    goes one slice ana, and a step onto a ramp's high side one slice kata,
    each to where it could stand.  Crates are left out (they move no one in
    w, and a crate stands only where something solid is below it, where the
    player could stand anyway).  The flood over-estimates; if it never
    reaches the goal's column at the goal's w, no play does.  Not for
    wrapped or hook rooms.
    """
    if room.wrap:
        return False
    X, Y, Z, W = room.size
    cells = room.cells
    sy, sz, sw = X, X * Y, X * Y * Z  # the flat index's strides in y, z and w
    # per (x, y, w): can the player stand there at some z; and is it on a ramp (its lean)
    stand: set[tuple[int, int, int]] = set()
    lean: dict[tuple[int, int, int], int] = {}
    for w in range(W):
        for y in range(Y):
            for x in range(X):
                i = x + sy * y + sw * w
                for z in range(1, Z):
                    if cells[i + sz * z] == EMPTY and cells[i + sz * (z - 1)] != EMPTY:
                        stand.add((x, y, w))
                        d = _RAMP_TOWARD.get(cells[i + sz * (z - 1)])
                        if d is not None:
                            lean[(x, y, w)] = d
    # unsettled is as good: without w's gravity settling keeps x, y and w
    start = room.start.player
    first = (start[0], start[1], start[3])
    goal = (room.goal[0], room.goal[1], room.goal[3])
    seen = {first}
    todo = [first]
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    while todo:
        here = todo.pop()
        if here == goal:
            return False
        x, y, w = here
        on = lean.get(here)
        for d, (dx, dy) in enumerate(steps):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < X and 0 <= ny < Y):
                continue
            for p in ((nx, ny, w),  # a step at one w
                      (nx, ny, w + 1) if on == d else None,  # off a ramp along its lean
                      (nx, ny, w - 1) if lean.get((nx, ny, w - 1)) == d ^ 1 else None):
                if p is not None and p in stand and p not in seen:
                    seen.add(p)
                    todo.append(p)
    return True


def needs_gravity_w(room: Room, max_states: int | None = None) -> bool:
    """Whether ``room`` is impossible without w's gravity (nothing falls kata): the flood,
    else the exhaustive search."""
    if out_of_reach_without_gravity_w(room):
        return True
    return home.needs(room, "gravity-w", max_states) == "impossible"


def needs_crates(room: Room, max_states: int | None = None) -> bool:
    """Whether ``room`` has crates and is impossible without them (the exhaustive search)."""
    if not room.start.crates:
        return False
    return home.needs(room, "crates", max_states) == "impossible"


def spare_crates(room: Room, max_states: int | None = None) -> list[tuple]:
    """The crates ``room`` can still be solved without, one at a time (their start cells)."""
    spare = []
    for c in room.start.crates:
        rest = [d for d in room.start.crates if d != c]
        fewer = replace(room, start=State.of(room.start.player, rest))
        if solver.solve(fewer, max_states=max_states).status != "impossible":
            spare.append(c)
    return spare


def decoy(graph: solver.Graph, live: list[bool], crate: tuple, start: int = 0) -> bool:
    """Whether moving the crate that starts at ``crate`` alone can leave the room dead.

    True when some reachable state from which no win can be reached has
    every other crate still where it started and this one moved (or
    gone): a spare crate that is a trap, not a help.  ``start`` is the room's start
    state in the graph (the graph may have been explored from another).
    """
    t = graph.tables
    cell = t.index(crate)
    first = graph.crates(start)
    others = [c for c in first if c != cell]
    for i in range(len(graph)):
        if live[i]:
            continue
        now = graph.crates(i)
        if cell not in now and all(c in now for c in others):
            return True
    return False


@dataclass(frozen=True)
class Walkthrough:
    """What a solution does, replayed move by move with the rules' trace."""

    won: bool
    ramps: int
    slips: int
    pushes: int
    heights: tuple[int, ...]
    downs: int = 0  #: ramps taken down (the step itself lowers the player's w)


def walk_through(room: Room, moves) -> Walkthrough:
    """Replay ``moves`` and count its ramps up, slips and pushes.

    A move is a ramp up when the step itself (before settling) raises the
    player's w, and a ramp down when it lowers it; a slip when settling
    then lowers the player's w (however many slices it falls); a push when
    the step moves a crate.
    """
    state = rules.start(room).state
    ramps = slips = pushes = downs = 0
    heights = {state.player[3]}
    status = "playing"
    for move in moves:
        result = rules.step(room, state, move, trace=True)
        stepped = result.frames[0] if result.frames else result.state
        if stepped.player[3] > state.player[3]:
            ramps += 1
        elif stepped.player[3] < state.player[3]:
            downs += 1
        if result.state.player[3] < stepped.player[3]:
            slips += 1
        if stepped.crates != state.crates:
            pushes += 1
        for frame in result.frames:
            heights.add(frame.player[3])
        heights.add(result.state.player[3])
        state, status = result.state, result.status
        if status != "playing":
            break
    return Walkthrough(status == "won", ramps, slips, pushes, tuple(sorted(heights)), downs)
