"""Cues: what the player is shown, told and played for each thing a move does.

A move's :class:`~anabasis.engine.moves.Result` (and the timeline that
animates it) is read into a list of :class:`Cue`, each at the moment of
the animation where it happens:

| cue | when | heard | seen, said |
|---|---|---|---|
| ``step`` | a walk or a climb | step | the glide |
| ``push`` | a crate pushed | push | the glide |
| ``ramp`` | a ramp carries you ana (or back down, kata) | ramp | "a ramp: ana to w 3" |
| ``slip`` | the settle takes you kata | slip | "you slipped kata to w 1" |
| ``land`` | a crate that fell comes to rest | land | a ring where it lands |
| ``crate-out`` | a crate falls out of the room | fall | "the crate fell out of the room" |
| ``fall`` | you fall out (the move is undone) | fall | the engine's why |
| ``bump`` | a step that is not a move | bump | a half-step and back; why (once a session) |
| ``throw`` ``catch`` ``miss`` | the hook (``app/play/hook.py``) | the same | its line |
| ``head`` | a crate fetched onto your head | land | "a crate rests on your head" |

The app decides nothing about the rules: every cue is read off states the
engine produced (and ``Result.why``), never worked out again here.
"""

from __future__ import annotations

from typing import NamedTuple

from anabasis.app.viewer import animation
from anabasis.engine import moves as why
from anabasis.engine.moves import Result
from anabasis.engine.world import State

#: What the player is told the first time each kind of bump happens in a session.
BUMP_WORDS = {
    # (it ended "and only a ramp steps round it through w": walked into a plain wall, a
    # blind player read it as a ramp nearby refusing him)
    why.IN_YOUR_WAY: "a block in your slice is in your way: too high to climb",
    why.NO_HEADROOM: "a block in your slice is in your way, and there is no room above you "
                     "to climb it",
    why.ROOM_ENDS: why.ROOM_ENDS,
    why.CRATE_STUCK: why.CRATE_STUCK,
    why.FELL_BACK: why.FELL_BACK,
}

#: The sound each cue plays.
SOUND = {"step": "step", "push": "push", "ramp": "ramp", "slip": "slip", "land": "land",
         "crate-out": "fall", "fall": "fall", "bump": "bump",
         # the hook (:mod:`anabasis.app.play.hook`): thrown, caught or missed; a crate
         # fetched onto your head is the catch's sound already
         "throw": "throw", "catch": "catch", "miss": "miss", "head": "land"}


class Cue(NamedTuple):
    """One thing a move did, ``at`` seconds into its animation."""

    kind: str  #: "step", "push", "ramp", "slip", "land", "crate-out", "fall", "bump"
    at: float = 0.0
    #: the words to show ("" for none): a ramp's or a slip's new w, a bump's reason
    text: str = ""
    #: the cell it concerns: where a crate landed (the ring is drawn there), else None
    cell: tuple | None = None
    #: a bump's reason (``Result.why``), said only the first time in a session
    why: str = ""


def _w(state: State, wrap_w: int | None) -> int:
    w = state.player[3]
    return w % wrap_w if wrap_w else w


#: A bump for want of headroom where nothing is over you but the room's top.
TOP_WORDS = ("a block in your slice is in your way, and it reaches the room's top: there is "
             "no room over it to climb onto")


def of_move(before: State, result: Result, timeline: animation.Timeline | None,
            W: int, wrap: bool, Z: int | None = None) -> list[Cue]:
    """The cues of a move from ``before`` (its ``result``, animated by ``timeline``) in a
    room ``W`` slices wide (``wrap``: w wraps) and ``Z`` high (None: not said)."""
    if not result.moved:
        if result.why == why.NO_HEADROOM and Z is not None and before.player[2] + 1 >= Z:
            return [Cue("bump", 0.0, TOP_WORDS, why=result.why)]
        if result.why in BUMP_WORDS:
            return [Cue("bump", 0.0, BUMP_WORDS[result.why], why=result.why)]
        return []
    segments = timeline.segments if timeline is not None else []
    wrap_w = W if wrap else None
    cues: list[Cue] = []
    t = 0.0
    falling: dict = {}  # a crate's cell -> when its fall began (crates have no identity)
    slipped = False
    for i, seg in enumerate(segments):
        if i == 0 and seg.kind in ("step", "push", "ramp"):
            if seg.kind == "ramp":
                dw = animation._delta(seg.before.player[3], seg.after.player[3], W, wrap)
                way = "ana" if dw > 0 else "back down, kata"
                cues.append(Cue("ramp", t, f"a ramp: {way} to w {_w(seg.after, wrap_w)}"))
            else:
                cues.append(Cue(seg.kind, t))
        elif seg.kind == "fall":
            if seg.after.player[3] != seg.before.player[3] and not slipped \
                    and result.status != "lost":
                slipped = True
                cues.append(Cue("slip", t, f"you slipped kata to w {_w(result.state, wrap_w)}"))
            for a, b in animation.match_crates(seg.before, seg.after, W, wrap):
                if b is None:
                    falling.pop(a, None)
                    cues.append(Cue("crate-out", t, "the crate fell out of the room"))
                elif a != b:  # (a fall segment: the push is a segment of its own)
                    falling[b] = falling.pop(a, t)
        t += seg.duration
        # a crate that fell and moves no more has landed: at the end of its last fall
        if seg.kind == "fall":
            nxt = segments[i + 1] if i + 1 < len(segments) else None
            still_moving = ({a for a, b in animation.match_crates(nxt.before, nxt.after, W, wrap)
                             if a != b} if nxt is not None and nxt.kind == "fall" else set())
            for cell in [c for c in falling if c not in still_moving]:
                falling.pop(cell)
                cues.append(Cue("land", t, "", cell=cell))
    if result.status == "lost":
        # the player leaving the world: from the first settle round that moves them
        start = 0.0
        t = 0.0
        for i, seg in enumerate(segments):
            if i > 0 and seg.kind == "fall" and seg.before.player != seg.after.player:
                start = t
                break
            t += seg.duration
        cues.append(Cue("fall", start))
    if not cues:
        cues.append(Cue("step", 0.0))
    return sorted(cues, key=lambda c: c.at)
