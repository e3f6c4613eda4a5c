"""Moves as animations: a step glides, a fall goes one cell per tick.

The engine answers a move with the state after the step and after each
settle round (``Result.frames``).  A :class:`Timeline` turns that list into
timed segments and, for any moment, the movers' positions as floats (the
*pose* the renderer draws).  It decides nothing about the rules: every
position it shows is one the engine produced, and between two of them it
only interpolates.

Crates are a sorted tuple in a state, so a crate has no identity from one
state to the next; :func:`match_crates` pairs them up by the one-cell moves
that are all a step or a settle round can make.

>>> from anabasis.engine.world import State
>>> a = State.of((0, 0, 0, 1)); b = State.of((1, 0, 0, 1))
>>> t = Timeline([Segment(a, b, "step", 0.2)], W=4, wrap=False)
>>> t.pose(0.1).player
(0.5, 0.0, 0.0, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from anabasis.engine.world import Pos, State

#: Seconds per kind of segment, at normal speed.
STEP_S = 0.14
RAMP_S = 0.26  #: a ramp step: long enough to see the slice cross-fade
FALL_S = 0.085  #: one cell of a fall: one "tick"
#: one slice of a slip (the player falls kata) while w is hidden: the whole slice
#: cross-fades, and at a tick's pace it would only flicker
SLIP_S = 0.22
PAUSE_S = 0.35  #: a lost player hangs in the void this long before it is undone
BUMP_S = 0.16  #: a step that is not a move: a short half-step toward it and back
BUMP_REACH = 0.3  #: how far toward the cell a bump goes, in cells


class Movers(NamedTuple):
    """The movers where they are drawn this frame."""

    player: tuple[float, float, float, float]
    crates: tuple[tuple[float, float, float, float], ...]
    #: 0..1 through a ramp step (the slice cross-fades), else 0
    ramp: float = 0.0
    #: the kind of segment playing: "still", "step", "push", "ramp", "fall", "bump"
    kind: str = "still"
    #: the engine state the renderer should hold now (the segment's end)
    state: State | None = None
    #: the crate drawn on its way: (its cell in ``state``, offset from there), or None
    moving: tuple | None = None


@dataclass
class Segment:
    """One engine state to the next, drawn over ``duration`` seconds."""

    before: State
    after: State
    kind: str  #: "step", "push", "ramp", "fall", "pause", "bump" (``after``: the cell bumped)
    duration: float


def _delta(a: int, b: int, n: int, wrap: bool) -> float:
    """b - a, the short way round where the axis wraps."""
    d = b - a
    if wrap and abs(d) > n // 2:
        d -= n if d > 0 else -n
    return d


def lerp_pos(a: Pos, b: Pos, t: float, W: int, wrap: bool) -> tuple[float, float, float, float]:
    """``a`` toward ``b`` by ``t``, taking w the short way round a wrapped room."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
            a[2] + (b[2] - a[2]) * t, a[3] + _delta(a[3], b[3], W, wrap) * t)


def _distance(a: Pos, b: Pos, W: int, wrap: bool) -> float:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])
            + abs(_delta(a[3], b[3], W, wrap)))


def match_crates(before: State, after: State, W: int, wrap: bool):
    """Pairs (from, to) for every crate; ``to`` is None for a crate that fell out.

    Crates that stayed put pair with themselves; the rest pair greedily with
    the nearest unclaimed cell (a step or settle round moves each at most one).
    """
    stay = set(before.crates) & set(after.crates)
    pairs = [(c, c) for c in before.crates if c in stay]
    gone = [c for c in before.crates if c not in stay]
    new = [c for c in after.crates if c not in stay]
    for c in gone:
        if new:
            best = min(new, key=lambda n: _distance(c, n, W, wrap))
            new.remove(best)
            pairs.append((c, best))
        else:
            pairs.append((c, None))
    # a crate with no origin (should not happen): appears where it is
    pairs.extend((n, n) for n in new)
    return pairs


def segments_for(before: State, frames, lost: bool, slip_s: float = FALL_S) -> list[Segment]:
    """The segments that show one move: the step, then each settle round.

    ``slip_s``: the seconds of a settle round that takes the player kata (the
    game passes :data:`SLIP_S` while w is hidden, where a slip is a cross-fade).
    """
    segs = []
    prev = before
    for i, frame in enumerate(frames):
        if frame == prev:
            continue
        if i == 0:
            if frame.player[3] != prev.player[3]:
                kind, dur = "ramp", RAMP_S
            elif frame.crates != prev.crates:
                kind, dur = "push", STEP_S
            elif frame.player[2] != prev.player[2]:
                kind, dur = "step", STEP_S * 1.3  # a climb takes a moment longer
            else:
                kind, dur = "step", STEP_S
        elif frame.player[3] != prev.player[3]:
            kind, dur = "fall", slip_s
        else:
            kind, dur = "fall", FALL_S
        segs.append(Segment(prev, frame, kind, dur))
        prev = frame
    if lost:
        segs.append(Segment(prev, prev, "pause", PAUSE_S))
    return segs


def bump(state: State, toward: Pos) -> list[Segment]:
    """The segments of a step that is not a move: toward the cell ``toward`` and back.

    >>> seg, = bump(State.of((0, 0, 0, 0)), (1, 0, 0, 0))
    >>> Timeline([seg], W=1, wrap=False).pose(BUMP_S / 2).player
    (0.3, 0.0, 0.0, 0.0)
    """
    return [Segment(state, State(tuple(toward), state.crates), "bump", BUMP_S)]


class Timeline:
    """Segments played one after another; ask it for the pose at any time."""

    def __init__(self, segments: list[Segment], W: int, wrap: bool):
        self.segments = segments
        self.W, self.wrap = W, wrap
        self.total = sum(s.duration for s in segments)
        # which crate goes where is fixed per segment: paired once per move, not per frame;
        # the crates that stay put are kept apart, as they are, so that a frame's work is
        # the crates that move (a crowded room holds 12,000 that do not)
        self._pairs = [_moving_apart(match_crates(s.before, s.after, W, wrap))
                       for s in segments]

    def pose(self, t: float) -> Movers:
        """The pose ``t`` seconds in (clamped to the end)."""
        if not self.segments:
            raise ValueError("an empty timeline has no pose")
        for seg, pairs in zip(self.segments, self._pairs, strict=True):
            if t < seg.duration:
                return self._within(seg, pairs, max(0.0, t) / seg.duration)
            t -= seg.duration
        return self._within(self.segments[-1], self._pairs[-1], 1.0)

    def _within(self, seg: Segment, split, f: float) -> Movers:
        rest, pairs = split
        W, wrap = self.W, self.wrap
        if seg.kind == "fall":
            g = f * f * 0.3 + f * 0.7  # a little acceleration, still one cell per tick
        elif seg.kind == "pause":
            g = 1.0
        elif seg.kind == "bump":
            g = BUMP_REACH * math.sin(math.pi * f)  # there and back: it ends where it began
        else:
            g = f * f * (3 - 2 * f)  # smoothstep: a glide that eases in and out
        player = lerp_pos(seg.before.player, seg.after.player, g, W, wrap)
        crates = []
        moving, farthest = None, 0.0
        for a, b in pairs:
            if b is None:
                # fell out: carry on one cell down and out of sight
                crates.append((a[0], a[1], a[2] - g * 1.5, a[3]))
                continue
            at = lerp_pos(a, b, g, W, wrap)
            crates.append(at)
            # the renderer draws one crate off its cell: the one with the farthest to go
            off = tuple(at[i] - b[i] for i in range(4))
            size = sum(abs(o) for o in off)
            if size > farthest + 1e-9:
                moving, farthest = (b, off), size
        ramp = g if seg.kind == "ramp" else 0.0
        # a bump never reaches its cell: the state drawn stays the one it began in
        state = seg.before if seg.kind == "bump" else seg.after
        return Movers(player, rest + tuple(crates), ramp, seg.kind, state, moving)


def _moving_apart(pairs) -> tuple[tuple, list]:
    """(the cells of the crates that stay put, the pairs of those that move)."""
    return (tuple(a for a, b in pairs if a == b), [(a, b) for a, b in pairs if a != b])


def still(state: State) -> Movers:
    """The pose of a state at rest (crates at rest are given as their cells)."""
    return Movers(tuple(float(c) for c in state.player), state.crates, state=state)
