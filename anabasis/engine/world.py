"""The room and its state: the static 4D grid, and the movers in it.

A room is ``X x Y x Z x W`` cells, ``(x, y, z, w)``, z up and w the second
up (ana is +w, kata is -w).  Its static cells are one flat ``bytes`` array
indexed ``x + X*(y + Y*(z + Z*w))``; the movers (the player and the
crates) are a :class:`State`, a small hashable value.  Reading outside the
grid goes through :meth:`Room.cell`, the one place that knows what RULES.md
says is there: walls and ceiling (solid), or the void below and kata.

>>> room = Room.empty((3, 1, 2, 2), player=(0, 0, 0, 1), goal=(2, 0, 0, 1))
>>> room.cell((0, 0, 0, 0)), room.cell((5, 0, 0, 0)), room.cell((0, 0, -1, 0))
(0, -1, -2)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

from anabasis.engine.cells import BLOCK, EMPTY, RAMPS, STATIC

Pos = tuple[int, int, int, int]

#: What :meth:`Room.cell` reads outside the grid.
WALL = -1  #: x or y out of range, the ceiling, and w >= W unless w wraps: solid
VOID = -2  #: z < 0, and w < 0 unless w wraps: movers that fall here fall out

#: The proofs' switches of every room, as named in a level's ``needs:`` line.
SWITCHES = ("gravity-w", "ramps", "crates", "wrap")
#: What a ``needs:`` line may name: the switches, and in a hook room the hook.
NEEDS = (*SWITCHES, "hook")
#: The views, in the order V (or Space) turns through them.
VIEWS = ("stand", "w-up", "both")

MAX_SIZE = (16, 16, 8, 8)  #: the largest room the room codes carry


def flat_index(size, pos: Pos) -> int:
    """Where ``pos`` sits in a room's flat cells: x fastest, then y, z, w.

    >>> flat_index((3, 2, 2, 2), (1, 0, 1, 1))
    19
    """
    x, y, z, w = pos
    X, Y, Z, _ = size
    return x + X * (y + Y * (z + Z * w))


class State(NamedTuple):
    """Where the movers are: the player, and the crates in sorted order.

    Build one with :meth:`of` so that equal states compare equal.
    """

    player: Pos
    crates: tuple[Pos, ...]

    @classmethod
    def of(cls, player: Pos, crates: Iterable[Pos] = ()) -> State:
        """The state of ``player`` and ``crates`` (any order), crates sorted."""
        return cls(tuple(player), tuple(sorted(tuple(c) for c in crates)))


@dataclass(frozen=True)
class Room:
    """A room: its size, static cells, goal, the start as written, and its header."""

    size: tuple[int, int, int, int]
    cells: bytes
    goal: Pos
    start: State
    wrap: bool = False
    name: str = ""
    teaches: str = ""
    par: int | None = None
    needs: tuple[str, ...] = ()
    view: str = "stand"
    #: A hook room: the hook is a move the player has (RULES.md's "The hook").
    hook: bool = False

    def __post_init__(self):
        X, Y, Z, W = self.size
        if min(self.size) < 1:
            raise ValueError(f"room size {self.size} has an empty axis")
        if len(self.cells) != X * Y * Z * W:
            raise ValueError(f"room of size {self.size} needs {X * Y * Z * W} cells")
        if self.wrap and W < 2:
            raise ValueError("a room whose w wraps needs W >= 2")
        for name, pos in [("goal", self.goal), ("player", self.start.player), *(
                ("crate", c) for c in self.start.crates)]:
            if not self.inside(pos):
                raise ValueError(f"{name} at {pos} is outside the room")
            if self.cells[self.index(pos)] != EMPTY:
                raise ValueError(f"{name} at {pos} is inside a solid cell")

    # -- geometry ---------------------------------------------------------

    @classmethod
    def empty(cls, size, player: Pos, goal: Pos, crates=(), **kw) -> Room:
        """An all-empty room of ``size`` (handy in tests)."""
        X, Y, Z, W = size
        return cls(tuple(size), bytes(X * Y * Z * W), tuple(goal), State.of(player, crates), **kw)

    def index(self, pos: Pos) -> int:
        """The flat index of ``pos`` in :attr:`cells` (see :func:`flat_index`)."""
        return flat_index(self.size, pos)

    def pos(self, index: int) -> Pos:
        X, Y, Z, _ = self.size
        x, index = index % X, index // X
        y, index = index % Y, index // Y
        z, w = index % Z, index // Z
        return (x, y, z, w)

    def inside(self, pos: Pos) -> bool:
        return all(0 <= c < n for c, n in zip(pos, self.size, strict=True))

    def norm(self, pos: Pos) -> Pos:
        """``pos`` with w taken modulo W where w wraps."""
        if self.wrap:
            x, y, z, w = pos
            return (x, y, z, w % self.size[3])
        return pos

    def on_head(self, player: Pos, crates: Iterable[Pos]) -> Pos | None:
        """The crate resting on the head of a player at rest at ``player`` (RULES.md, "The
        hook"): the crate just ana of it, held from kata by the player alone; None if there
        is none there, or a ramp under it holds it too (it stays when the player steps
        away)."""
        x, y, z, w = player
        up = self.norm((x, y, z, w + 1))
        if up not in set(crates):
            return None
        return None if self.cell((x, y, z - 1, up[3])) in RAMPS else up

    def cell(self, pos: Pos) -> int:
        """The static cell at ``pos``, or :data:`WALL` / :data:`VOID` outside the grid."""
        x, y, z, w = pos
        X, Y, Z, W = self.size
        if self.wrap:
            w %= W
        if z < 0 or w < 0:
            return VOID
        if not (0 <= x < X and 0 <= y < Y and z < Z and w < W):
            return WALL
        return self.cells[flat_index(self.size, (x, y, z, w))]

    def positions(self):
        """Every position in the grid, in index order."""
        X, Y, Z, W = self.size
        for w in range(W):
            for z in range(Z):
                for y in range(Y):
                    for x in range(X):
                        yield (x, y, z, w)

    # -- the proofs' variants ----------------------------------------------

    def without(self, switches) -> Room:
        """This room with the room-side rules switched off.

        ``ramps``: every ramp is a plain block; ``crates``: every crate is
        removed; ``wrap``: w no longer wraps; ``hook``: the hook is not a
        move (the room is no longer a hook room).  ``gravity-w`` is a rule of
        motion, not of the room: pass it to the engine as ``gravity_w=False``.
        """
        switches = set(switches)
        unknown = switches - set(NEEDS)
        if unknown:
            known = ", ".join(NEEDS)
            raise ValueError(f"unknown rule {sorted(unknown)[0]!r}: known are {known}")
        room = self
        if "ramps" in switches:
            cells = bytes(BLOCK if c in RAMPS else c for c in room.cells)
            room = replace(room, cells=cells)
        if "crates" in switches:
            room = replace(room, start=State.of(room.start.player))
        if "wrap" in switches:
            room = replace(room, wrap=False)
        if "hook" in switches and room.hook:
            room = replace(room, hook=False)
        return room

    def validate_cells(self) -> None:
        """Refuse a cells array holding a code that is not a static cell (a decoded room code)."""
        for i, c in enumerate(self.cells):
            if c not in STATIC:
                raise ValueError(f"cell {self.pos(i)} holds unknown code {c}")
