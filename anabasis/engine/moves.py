"""The moves, and what a move or a search comes to: the vocabulary the engines share.

Both engines (the fast :mod:`anabasis.engine.rules` and the plain
:mod:`anabasis.engine.reference`) and the solver take moves by these names and
answer with these values, so that the tests can compare them as plain
tuples.

>>> moves_for(hook=False)
('R', 'L', 'D', 'U')
"""

from __future__ import annotations

from typing import NamedTuple

from anabasis.engine.world import State
from anabasis.refusal import Refusal

#: The steps, as (dx, dy, dz, dw): right, left, down the page, up the page.
STEPS = {"R": (1, 0, 0, 0), "L": (-1, 0, 0, 0), "D": (0, 1, 0, 0), "U": (0, -1, 0, 0)}
#: The hook (engine only), fired along x, y, or w: A is ana, K is kata.
HOOKS = {
    "hR": (1, 0, 0, 0), "hL": (-1, 0, 0, 0), "hD": (0, 1, 0, 0), "hU": (0, -1, 0, 0),
    "hA": (0, 0, 0, 1), "hK": (0, 0, 0, -1),
}


# -- why a move lost, or did nothing (Result.why), in the game's words ---------

FELL_BELOW = "you fell out the bottom of the room"
FELL_KATA = "you fell out the kata end of the room: nothing held you in w"
FELL_FOR_EVER = "you fell kata for ever round the wrapped room"
ROOM_ENDS = "the room ends here"
CRATE_STUCK = "the crate has no room to move"
NO_HEADROOM = "there is no room above you to climb"
IN_YOUR_WAY = "a block is in your way, too high to climb"
HOOK_FLEW_OUT = "the hook flew out of the room"
HOOK_TOO_CLOSE = "the hook caught on something right beside you: nothing to pull"
HOOK_CAUGHT_NOTHING = "the hook went round the room and caught nothing"
FELL_BACK = "you fell back where you were"
ROOM_OVER = "the room is over: nothing more moves"


class Result(NamedTuple):
    """What one move (or a settle) comes to."""

    state: State  #: after the move (for a loss: as it was when the player fell out)
    status: str  #: "playing", "won" or "lost"
    moved: bool  #: False when the step changed nothing: not a move
    frames: tuple = ()  #: with trace: the state after the step, then after each settle round
    #: Why it lost (``FELL_*``) or why it did nothing (``ROOM_ENDS``, ``CRATE_STUCK``, ...),
    #: in the game's words; "" for a move that moved and did not lose.
    why: str = ""


class Replay(NamedTuple):
    """What a move string played from the start comes to (``anabasis replay``)."""

    state: State  #: where the movers are (for a loss: before the losing move)
    status: str  #: "playing", "won" or "lost"
    moves: int  #: moves taken, the losing one included; steps that did nothing are not moves
    why: str = ""  #: the last move's :attr:`Result.why`: why it lost or did nothing, or ""


def play_out(start, step, room, moves, *, gravity_w: bool = True) -> Replay:
    """Play ``moves`` from the settled start with an engine's ``start`` and ``step``.

    It stops at a win or a loss; a loss is not applied (the game undoes
    it), so the state is the room before the losing move.  A start that is
    already lost (only a room code can hold one) is shown as written.
    """
    first = start(room, gravity_w=gravity_w)
    state = room.start if first.status == "lost" else first.state
    status, taken, why = first.status, 0, first.why
    for move in moves:
        if status != "playing":
            break
        result = step(room, state, move, gravity_w=gravity_w)
        why = result.why
        if not result.moved:
            continue  # a step that did nothing is not a move
        taken += 1
        status = result.status
        if status != "lost":
            state = result.state
    return Replay(state, status, taken, why)


class Solution(NamedTuple):
    """What a search comes to."""

    status: str  #: "solved", "impossible" or "gave-up"
    moves: tuple[str, ...] | None  #: the shortest solution, when solved
    states: int  #: distinct states reached (the start included)

    @property
    def text(self) -> str:
        return "".join(self.moves or ())


def moves_for(hook: bool) -> tuple[str, ...]:
    """The moves the solvers try, in their fixed order (so both find the same solution)."""
    return tuple(STEPS) + (tuple(HOOKS) if hook else ())


class MoveError(Refusal):
    """A move string that is not one: says which character and why."""


def parse_moves(text: str, hook: bool = True) -> list[str]:
    """A move string (``RLDU``, hooks as ``hR`` .. ``hK``) as a list of moves.

    Spaces, commas and line breaks between moves are ignored.

    >>> parse_moves("RR hA, U")
    ['R', 'R', 'hA', 'U']
    """
    moves, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch in STEPS:
            moves.append(ch)
            i += 1
        elif hook and text[i : i + 2] in HOOKS:
            moves.append(text[i : i + 2])
            i += 2
        elif ch in " ,\t\r\n":
            i += 1
        else:
            what = (f"{ch!r} is not a move" if ch != "h"
                    else f"'h' is a hook only before {' '.join(h[1] for h in HOOKS)}")
            raise MoveError(f"the move string, character {i + 1}: {what} "
                            f"(moves are {' '.join(STEPS)}; hooks {' '.join(HOOKS)})")
    return moves
