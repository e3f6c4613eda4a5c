"""What a step will do: the four steps' outcomes, read from the engine before a key is pressed.

Each mark is what :func:`anabasis.engine.rules.step` returns for that step,
put in one of eight words, so it can never say other than what the move
does (a test holds every mark to the engine, on every cell of every level):

| kind | when |
|---|---|
| ``walk`` | you end one cell along the step, in your slice and at your height |
| ``climb`` | the step took you one up (z) onto what was in your way |
| ``push`` | a crate moved with the step |
| ``ramp ana`` | a ramp carried you one slice ana |
| ``ramp kata`` | a ramp carried you one slice back down, kata |
| ``slip kata`` | after the step you fall kata ``slip`` slices (nothing held you in w) |
| ``fall out`` | the step loses: you fall out of the room (the game would undo it) |
| ``nothing`` | the step is not a move |

A step is named by what the step itself did (walk, climb, push, a ramp);
when the settle after it takes you kata, that slip is the word instead
(with how many slices), since it is the part a player misses.  A fall in z
alone is not named: the picture shows a drop, the map its height.
"""

from __future__ import annotations

from typing import NamedTuple

from anabasis.engine import rules
from anabasis.engine.cells import RAMP_LEAN
from anabasis.engine.world import Room, State

KINDS = ("walk", "climb", "push", "ramp ana", "ramp kata", "slip kata", "fall out", "nothing")

#: Each kind's glyph (drawn in its badge, with the word or number beside it: never colour
#: alone) and colour.
GLYPH = {"walk": "•", "climb": "↑", "push": "▶", "ramp ana": "⇗", "ramp kata": "⇘",
         "slip kata": "↓", "fall out": "✕", "nothing": "·"}
COLOUR = {"walk": (170, 230, 255), "climb": (140, 230, 150), "push": (214, 156, 92),
          "ramp ana": (255, 214, 102), "ramp kata": (230, 170, 255),
          "slip kata": (255, 150, 90), "fall out": (255, 90, 90), "nothing": (120, 126, 140)}
#: What each says in the help's legend.
MEANING = {
    "walk": "walk: you step onto this cell",
    "climb": "climb: you step up one onto it",
    "push": "push: the crate here moves one on",
    "ramp ana": "ramp ana: the ramp takes you one slice up in w",
    "ramp kata": "ramp kata: the ramp takes you one slice down in w",
    "slip kata": "slip kata N: nothing holds you in w there: you slip N slices",
    "fall out": "fall out: you fall out of the room (the move is undone)",
    "nothing": "nothing: the step does nothing",
}


class Mark(NamedTuple):
    """What one step will do."""

    move: str  #: "R", "L", "D" or "U"
    kind: str  #: one of :data:`KINDS`
    slip: int = 0  #: for "slip kata": how many slices
    won: bool = False  #: the step wins the room
    cell: tuple[int, int, int, int] = (0, 0, 0, 0)  #: the cell the step goes toward

    @property
    def label(self) -> str:
        """The words on the mark: ``walk``, ``slip kata 2``."""
        return f"slip kata {self.slip}" if self.kind == "slip kata" else self.kind

    @property
    def glyph(self) -> str:
        return GLYPH[self.kind]

    @property
    def colour(self) -> tuple[int, int, int]:
        return COLOUR[self.kind]

    @property
    def short(self) -> str:
        """The mark's few characters, drawn beside its glyph: ``2`` for a slip of two."""
        return {"slip kata": str(self.slip), "ramp ana": "ana", "ramp kata": "kata"}.get(
            self.kind, "")


def _axis(d) -> tuple[int, int]:
    axis = 0 if d[0] else 1
    return axis, d[axis]


def classify(room: Room, state: State, move: str, result=None) -> Mark:
    """The mark of ``move`` from ``state``: what :func:`rules.step` does with it."""
    if result is None:
        result = rules.step(room, state, move, trace=True)
    p = state.player
    d = rules.STEPS[move]
    toward = tuple(a + b for a, b in zip(p, d, strict=True))
    if not result.moved:
        return Mark(move, "nothing", cell=toward)
    if result.status == "lost":
        return Mark(move, "fall out", cell=toward)
    won = result.status == "won"
    frames = result.frames or (result.state,)
    stepped = frames[0]
    q = stepped.player
    # the settle after the step: each round moves the player at most one cell
    slip, at = 0, q
    for f in frames[1:]:
        if f.player[3] != at[3]:
            slip += 1
        at = f.player
    if slip:
        return Mark(move, "slip kata", slip, won, toward)
    if stepped.crates != state.crates:
        kind = "push"
    else:
        x, y, z, w = toward
        ana, kata = room.norm((x, y, z, w + 1)), room.norm((x, y, z, w - 1))
        under = room.cell((p[0], p[1], p[2] - 1, p[3]))
        if q == ana and (q != kata or RAMP_LEAN.get(under) == _axis(d)):
            kind = "ramp ana"  # (in a wrapped W of 2, ana and kata are one cell)
        elif q == kata:
            kind = "ramp kata"
        elif q[2] > p[2]:
            kind = "climb"
        else:
            kind = "walk"
    return Mark(move, kind, 0, won, toward)


def marks(room: Room, state: State) -> tuple[Mark, ...]:
    """The four steps' marks from ``state`` (R, L, D, U)."""
    return tuple(classify(room, state, m) for m in rules.STEPS)


class Cache:
    """The marks of the state last asked for: asked every frame, worked out once a state."""

    def __init__(self, room: Room):
        self.room = room
        self._state: State | None = None
        self._marks: tuple[Mark, ...] = ()

    def get(self, state: State) -> tuple[Mark, ...]:
        if state != self._state:
            self._marks = marks(self.room, state)
            self._state = state
        return self._marks
