"""The proofs a made room must carry: impossible without its ramps, without its crates.

The quick proof that a room needs its ramps is a flood (no search); when
it cannot prove it, the exhaustive search decides instead of dropping the
room.  :func:`spare_crates` finds the crates a room could do without, and
:func:`walk_through` replays a solution and counts what it does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from anabasis.engine import rules, solver
from anabasis.engine.cells import EMPTY
from anabasis.engine.world import Room, State


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
    return solver.solve(room, without=("ramps",), max_states=max_states).status == "impossible"


def needs_gravity_w(room: Room, max_states: int | None = None) -> bool:
    """Whether ``room`` is impossible without w's gravity (nothing falls kata): the search."""
    return solver.solve(room, without=("gravity-w",),
                        max_states=max_states).status == "impossible"


def needs_crates(room: Room, max_states: int | None = None) -> bool:
    """Whether ``room`` has crates and is impossible without them (the exhaustive search)."""
    if not room.start.crates:
        return False
    return solver.solve(room, without=("crates",), max_states=max_states).status == "impossible"


def spare_crates(room: Room, max_states: int | None = None) -> list[tuple]:
    """The crates ``room`` can still be solved without, one at a time (their start cells)."""
    spare = []
    for c in room.start.crates:
        rest = [d for d in room.start.crates if d != c]
        fewer = replace(room, start=State.of(room.start.player, rest))
        if solver.solve(fewer, max_states=max_states).status != "impossible":
            spare.append(c)
    return spare


def decoy(graph: solver.Graph, live: list[bool], crate: tuple) -> bool:
    """Whether moving the crate that starts at ``crate`` alone can leave the room dead.

    True when some reachable state from which no win can be reached has
    every other crate still where it started and this one moved (or
    gone): a spare crate that is a trap, not a help.
    """
    t = graph.tables
    cell = t.index(crate)
    first = graph.crates(0)
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
