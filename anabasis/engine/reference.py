"""The reference engine: RULES.md written out as plainly as possible.

Tuples, sets and straight-line code, no tricks and no speed.  It exists so
that the tests (and ``anabasis bench``) can hold the fast engine
(``anabasis.engine.rules`` and ``anabasis.engine.solver``) to it state by state.  Each
function follows a section of RULES.md in the same order; read them side by
side.  It shares with the fast engine only :mod:`anabasis.engine.world` (the room and
the outside-the-grid reading), the cell codes, and :mod:`anabasis.engine.moves` (the
move names and the result types).

It is the project's one plain reading of the rules.  The tests once kept a
third, an oracle written from the rule book alone inside the rules cases;
read side by side it took every rule as this module does (the same held,
fall, land and hook), so it is folded in here, and the shapes of room it
drew (random cells, ramps anywhere, one-slice rooms) now hold the two
engines together in ``tests/test_agreement.py``.  Each engine also says
why a move lost or did nothing (``Result.why``), and the two must agree.
"""

from __future__ import annotations

from collections import deque

from anabasis.engine import moves as why
from anabasis.engine.cells import EMPTY, RAMP_LEAN, RAMPS
from anabasis.engine.moves import HOOKS, STEPS, Replay, Result, Solution, moves_for, play_out  # noqa: F401
from anabasis.engine.world import VOID, WALL, Pos, Room, State

DOWN = (0, 0, -1, 0)
UP = (0, 0, 1, 0)
KATA = (0, 0, 0, -1)
ANA = (0, 0, 0, 1)


def add(p: Pos, d: Pos, k: int = 1) -> Pos:
    return (p[0] + k * d[0], p[1] + k * d[1], p[2] + k * d[2], p[3] + k * d[3])


class _Movers:
    """The movers during one move: the player and a list of crates (None once gone)."""

    def __init__(self, room: Room, state: State, gravity_w: bool):
        self.room = room
        self.gravity_w = gravity_w
        self.player = state.player
        self.crates: list[Pos | None] = list(state.crates)
        self.lost = ""  #: why the player fell out, once it has
        self.still = ""  #: why the move did nothing, when it did

    def state(self) -> State:
        return State.of(self.player, [c for c in self.crates if c is not None])

    # -- what a cell holds -------------------------------------------------

    def solid(self, p: Pos) -> bool:
        """A block, ramp, wall or ceiling, a crate or the player."""
        cell = self.room.cell(p)
        if cell == VOID:
            return False
        if cell != EMPTY:  # WALL, block or ramp
            return True
        p = self.room.norm(p)
        return p == self.player or p in self.crates

    def free(self, p: Pos) -> bool:
        """Inside the world and holding no block, ramp, crate or player."""
        return self.room.cell(p) == EMPTY and not self.solid(p)

    def ramp(self, p: Pos):
        """The lean of the ramp at ``p`` as a direction, or None."""
        cell = self.room.cell(p)
        if cell in RAMPS:
            axis, sign = RAMP_LEAN[cell]
            d = [0, 0, 0, 0]
            d[axis] = sign
            return tuple(d)
        return None

    # -- held, and settling -----------------------------------------------

    def fall(self, p: Pos):
        """Where a mover at ``p`` falls this round: (cell, 'z' or 'w'), or None."""
        below = add(p, DOWN)
        if not self.solid(below):
            return below, "z"
        if not self.gravity_w:
            return None
        kata = add(p, KATA)
        held_from_kata = self.solid(kata) or self.ramp(below) is not None
        if not held_from_kata:
            return kata, "w"
        return None

    def land(self, target: Pos, axis: str, run: int):
        """Move a mover to ``target``: its new position (None if it fell out) and its kata run."""
        run = 0 if axis == "z" else run + 1
        if self.room.cell(target) == VOID:
            return None, run
        if self.room.wrap and run >= self.room.size[3]:
            return None, run  # the endless fall
        return self.room.norm(target), run

    def settle(self, frames: list | None) -> None:
        runs = [0] * len(self.crates)
        player_run = 0
        while True:
            moved = False
            order = sorted(
                (i for i, c in enumerate(self.crates) if c is not None),
                key=lambda i: (self.crates[i][2], self.crates[i][3],
                               self.crates[i][1], self.crates[i][0]),
            )
            for i in order:
                fall = self.fall(self.crates[i])
                if fall:
                    moved = True
                    self.crates[i], runs[i] = self.land(*fall, runs[i])
            fall = self.fall(self.player)
            if fall:
                moved = True
                target, player_run = self.land(*fall, player_run)
                if target is None:
                    drop = fall[0]
                    if self.room.cell(drop) != VOID:
                        self.lost = why.FELL_FOR_EVER
                    else:
                        self.lost = why.FELL_BELOW if fall[1] == "z" else why.FELL_KATA
                    self.player = drop if self.room.cell(drop) == VOID else self.room.norm(drop)
                    if frames is not None:
                        frames.append(self.state())
                    return
                self.player = target
            if not moved:
                return
            if frames is not None:
                frames.append(self.state())

    # -- moves --------------------------------------------------------------

    def step(self, d: Pos) -> None:
        p = self.player
        ahead = add(p, d)
        beyond = add(p, d, 2)
        pushable = self.room.norm(ahead) in self.crates and self.free(beyond)
        in_way = self.solid(ahead) and not pushable
        no_floor = self.free(ahead) and not self.solid(add(ahead, DOWN))
        blocked = in_way or no_floor
        neg = tuple(-c for c in d)
        if self.ramp(add(p, DOWN)) == d and blocked and self.free(add(ahead, ANA)):
            self.player = self.room.norm(add(ahead, ANA))  # 1. ramp up
        elif (self.ramp(add(add(ahead, KATA), DOWN)) == neg and blocked
              and self.free(add(ahead, KATA))):
            self.player = self.room.norm(add(ahead, KATA))  # 2. ramp down
        elif self.free(ahead):
            self.player = ahead  # 3. walk
        elif pushable:
            i = self.crates.index(self.room.norm(ahead))  # 4. push
            self.crates[i] = self.room.norm(beyond)
            self.player = self.room.norm(ahead)
        elif self.solid(ahead) and self.free(add(ahead, UP)) and self.free(add(p, UP)):
            self.player = add(ahead, UP)  # 5. climb
        elif self.room.cell(ahead) == WALL:  # 6. otherwise nothing happens
            self.still = why.ROOM_ENDS
        elif self.room.norm(ahead) in self.crates:
            self.still = why.CRATE_STUCK
        elif not self.free(add(p, UP)):
            self.still = why.NO_HEADROOM
        else:
            self.still = why.IN_YOUR_WAY

    def hook(self, d: Pos) -> None:
        p = self.player
        limit = self.room.size[3] - 1 if (self.room.wrap and d[3]) else max(self.room.size)
        for k in range(1, limit + 1):
            c = add(p, d, k)
            cell = self.room.cell(c)
            if cell in (WALL, VOID):
                self.still = why.HOOK_FLEW_OUT
                return  # flew out of the grid: it catches only on the room
            if self.solid(c):
                if k < 2:
                    self.still = why.HOOK_TOO_CLOSE
                    return
                c = self.room.norm(c)
                if c in self.crates:
                    self.crates[self.crates.index(c)] = self.room.norm(add(p, d))
                else:
                    self.player = self.room.norm(add(p, d, k - 1))
                return
        self.still = why.HOOK_CAUGHT_NOTHING


def settle(room: Room, state: State, *, gravity_w: bool = True, trace: bool = False) -> Result:
    """Let everything fall until nothing moves."""
    movers = _Movers(room, state, gravity_w)
    frames: list | None = [] if trace else None
    movers.settle(frames)
    return _result(room, movers, frames, moved=movers.state() != state or bool(movers.lost))


def start(room: Room, *, gravity_w: bool = True, trace: bool = False) -> Result:
    """The room's start, settled, as when it is loaded."""
    return settle(room, room.start, gravity_w=gravity_w, trace=trace)


def step(room: Room, state: State, move: str, *, gravity_w: bool = True,
         trace: bool = False) -> Result:
    """Play one move (``R L D U``, or a hook ``hR hL hD hU hA hK``) and settle."""
    movers = _Movers(room, state, gravity_w)
    if move in STEPS:
        movers.step(STEPS[move])
    elif move in HOOKS:
        movers.hook(HOOKS[move])
    else:
        raise ValueError(f"unknown move {move!r}")
    frames: list | None = [movers.state()] if trace else None
    movers.settle(frames)
    after = movers.state()
    moved = bool(movers.lost) or after != state
    if not moved:
        return Result(state, "won" if state.player == room.goal else "playing", False, (),
                      movers.still or why.FELL_BACK)
    return _result(room, movers, frames, moved=True)


def _result(room, movers, frames, moved) -> Result:
    after = movers.state()
    if movers.lost:
        status = "lost"
    elif after.player == room.goal:
        status = "won"
    else:
        status = "playing"
    return Result(after, status, moved, tuple(frames or ()), movers.lost)


def replay(room: Room, moves, *, gravity_w: bool = True) -> Replay:
    """Play ``moves`` from the settled start, as ``anabasis replay`` does."""
    return play_out(start, step, room, moves, gravity_w=gravity_w)


def solve(room: Room, *, without=(), hook: bool | None = None,
          max_states: int | None = None) -> Solution:
    """Breadth-first search for the shortest solution, or prove there is none.

    ``hook``: None takes the room's word (a hook room has the hook), True adds
    it anywhere; ``hook`` among ``without`` takes it away.
    """
    gravity_w = "gravity-w" not in without
    if "hook" in without:
        hook = False
    elif hook is None:
        hook = room.hook
    room = room.without(set(without) - {"gravity-w"})
    first = start(room, gravity_w=gravity_w)
    if first.status == "lost":
        return Solution("impossible", None, 0)
    if first.status == "won":
        return Solution("solved", (), 1)
    parents = {first.state: None}
    queue = deque([first.state])
    moves = moves_for(hook)
    while queue:
        state = queue.popleft()
        for move in moves:
            result = step(room, state, move, gravity_w=gravity_w)
            if not result.moved or result.status == "lost" or result.state in parents:
                continue
            parents[result.state] = (state, move)
            if result.status == "won":
                path = []
                s = result.state
                while parents[s] is not None:
                    s, m = parents[s]
                    path.append(m)
                return Solution("solved", tuple(reversed(path)), len(parents))
            if max_states is not None and len(parents) >= max_states:
                return Solution("gave-up", None, len(parents))
            queue.append(result.state)
    return Solution("impossible", None, len(parents))
