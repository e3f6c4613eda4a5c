"""Out-of-slice markers: where the goal and the crates are when the slice on screen misses them.

The picture is one 3D slice of a 4D room: a goal or a crate a slice ana of
you (in the stand view, where w is hidden) is simply not drawn.  In the
manner of 4D Golf's ball finder and 4D Miner's compass, the HUD marks
each such thing at the place on screen where it *would* be, were it in
the slice (its cell with the hidden coordinate made the player's), with a
line that says which way and how far along the hidden axis it lies:
``2 ana`` / ``1 kata`` for w, ``1 up in z`` / ``2 down in z`` for z,
``1 +y`` / ``1 -y`` for y.  A mark that would fall off the window is
pinned to its edge, with an arrow pointing out toward it.

The projection here is the ray tracer's own camera model (``slice.frag``:
``ndc = (2 px - size) / height``), so an object in the slice projects onto
the pixel where it is drawn (the tests hold it to that).
"""

from __future__ import annotations

import functools
import math
import re
from typing import NamedTuple

import numpy as np
import pygame

from anabasis.app.viewer.projection import projector, to_slice
from anabasis.engine import rules
from anabasis.engine.cells import BLOCK, RAMPS
from anabasis.engine.world import State
from anabasis.picture import pose, views

#: The words for each side of each hidden axis: (toward -, toward +).
#: The words of each side of each axis.  z's say the axis: in the w-up view, where the
#: screen's up is w, a blind player read "above" as up the screen.
SIDES = {0: ("-x", "+x"), 1: ("-y", "+y"), 2: ("down in z", "up in z"), 3: ("kata", "ana")}

GOAL_COLOUR = (255, 214, 102)
RING_S = 0.9  #: how long the ring that marks a crate's landing shows, in seconds
CRATE_COLOUR = (214, 156, 92)
#: The colour-blind-safe palette's goal and crate (Okabe and Ito's yellow and vermillion);
#: they differ in shape too (a diamond, a square) and the words say how far and which way.
SAFE_COLOURS = {"goal": (240, 228, 66), "crate": (213, 94, 0)}


def colour_of(what: str, palette: str = "standard") -> tuple[int, int, int]:
    """A marker's colour: the goal's or a crate's, in ``palette``."""
    if palette == "safe":
        return SAFE_COLOURS[what]
    return GOAL_COLOUR if what == "goal" else CRATE_COLOUR


class Marker(NamedTuple):
    """One thing out of the slice on screen."""

    what: str  #: "goal" or "crate"
    cell: tuple[int, int, int, int]
    axis: int  #: the hidden axis (0..3: x y z w)
    offset: int  #: cells from the player's slice along it (the short way round a wrapped w)
    at: tuple[float, float]  #: where on screen it would be drawn, in window pixels
    inside: bool  #: ``at`` is within the window (else it is pinned to the edge)
    #: it is in the pawn's own column along the hidden axis (a crate just kata of you): its
    #: place on screen is the pawn's, so the HUD says it in its panel (:func:`of_you`)
    yours: bool = False
    #: its cell's footprint on the pawn's floor (four window points), where it lies at
    #: another height: a blind player read a goal drawn high in the both-downs view as a
    #: row further on (height and depth both go up the screen); empty: none drawn
    foot: tuple = ()
    #: in the slice but out of sight: what hides it from the eye ("wall", "crate"), or
    #: "above" for a crate over the ceiling's cut (``above``); the goal behind tall walls
    #: was found only in the plan view
    hidden: str = ""
    #: where its place is inside a block, a ramp or a crate that the slice draws: the face of
    #: that cell in sight (four window points: its top where that shows, else the face the
    #: view looks at, else a side), drawn dashed and faintly filled, the shape on it (``at``
    #: is its middle).  Drawn at the cell's centre, on the block's face, a goal marker lay
    #: on the line between two cells, and round the cell's whole cube it reached over the
    #: floor in front: two blind players read it as the next cell's.  Empty: not inside one,
    #: or none of its faces shows.
    face: tuple = ()
    #: what hides its footprint's floor from the eye ("wall", "crate"; "" where that floor
    #: is in sight, or there is no footprint): the dashed frame then lies over what hides it,
    #: and a blind player read it as that cell's, a row nearer the eye; the words say so
    foot_behind: str = ""
    #: the goal only: where a pawn standing in it now would not rest there, what it would do
    #: (:func:`goal_holds`: "slip kata", "fall", "fall out"; "" where it rests): a blind
    #: player read 3.7's goal over a pit in w as a floor to walk onto, and slipped round;
    #: the words say so
    slips: str = ""
    #: the height it stands at (its cell's z), where the hidden axis is w (:func:`words_of`
    #: says it, and its slice: ``· z 3 w 4``); else None.  Drawn at its height, a goal up on
    #: a ledge read to blind players as a floor a row on, or sunk in a pit; said only where it
    #: was not the pawn's, a blind player took a crate whose words had none for one at
    #: another height
    height: int | None = None
    #: what the slice draws where its place is, where it is drawn on a face of that cell
    #: (``face``): "block", "ramp" or "crate" ("" for none).  Drawn on a wall's top, a crate
    #: of another slice read as standing on that wall to blind players in every round, and
    #: 2.7's goal, drawn on its ledge's foot, as on the floor in front; the words say so
    inside_of: str = ""
    #: where it is drawn above its footprint (``foot``) and stands on blocks, ramps or crates
    #: in its own slice: the window corners of those cells' column, from the footprint up to
    #: its floor (eight points: its floor's four, then the lowest cell's floor's four), drawn
    #: as a pillar.  With a dashed line alone down to its footprint, 2.1's goal two up
    #: a slice kata, over a pit of your slice, read to a blind player as floating outside
    #: the room.  Empty: it stands on your slice's ground, or on nothing in its own.
    post: tuple = ()
    #: hidden (``hidden``), but a part of its floor in sight: its glow shows by what hides
    #: it (said "hidden by a wall" by a goal glowing in plain view, a blind player was lost)
    glimpsed: bool = False
    #: where ``hidden`` is ``"above"``: how far it lies up the view's up axis, over the
    #: ceiling's cut (with w up, a crate in the slice some slices ana: not drawn)
    above: int = 0
    #: its slice is reached round a wrapped w's ends (the short way): from w 0, level 7's
    #: goal in w 3, "goal ↓ 1 kata", read to two blind players as the wrong way to go
    #: (t343, t345); the words say "round the wrap"
    wraps: bool = False

    @property
    def label(self) -> str:
        """Which way and how far: ``2 ana``, ``1 down in z``, ``1 +y``; ``1 kata of you`` for
        one in the pawn's own column (a blind player read such a marker, moved off the
        pawn, as the next cell's); ``hidden by a wall`` for one in the slice hidden from the
        eye (said "behind a wall", blind players read it as walled off, out of reach)."""
        if self.hidden == "above":  # (up the screen: w where z is hidden, else z)
            return f"\u2191 {self.above} ana" if self.axis == 2 else f"{self.above} up in z"
        if self.hidden:
            return ("partly " if self.glimpsed else "") + f"hidden by a {self.hidden}"
        return (f"{abs(self.offset)} {across(self.axis, abs(self.offset))}"
                f"{SIDES[self.axis][self.offset > 0]}" + (" of you" if self.yours else ""))


def across(axis: int, most: int) -> str:
    """The unit said before a distance's way along ``axis``: "rows " along y, "columns "
    along x (one of them where ``most`` is 1), none along z or w.  Said "crate 6 +y", the
    both view's words read to a blind player as crate number 6 (t364).

    >>> across(1, 2), across(0, 1), across(3, 2)
    ('rows ', 'column ', '')
    """
    if axis >= 2:
        return ""
    return ("column", "row")[axis] + ("s " if most > 1 else " ")


def project(point, player, b: np.ndarray, camera: views.Camera,
            size: tuple[int, int]) -> tuple[float, float, float]:
    """Window pixel (x, y) of 4D ``point``'s cell centre, and its depth along the view.

    ``player`` is the player's drawn position (the camera's centre), ``b`` the
    slice's basis; the hidden coordinate is dropped (the point is put into the
    slice).  Depth <= 0: behind the camera.
    """
    return projecting(player, b, camera, size)(point)


def projecting(player, b: np.ndarray, camera: views.Camera, size: tuple[int, int]):
    """:func:`project` for many points from one ``player`` and camera: the camera's frame
    worked out once (the room's 16 corners, every badge), the same pixels."""
    at = projector(camera, size)
    origin = np.asarray(player, float)
    return lambda point: at(to_slice(np.asarray(point, float) - origin, b))


def _offset(a: int, b: int, n: int, wrap: bool) -> int:
    """b - a along an axis of ``n`` cells, the short way round where it wraps."""
    d = b - a
    if wrap and abs(d) > n // 2:
        d -= n if d > 0 else -n
    return d


def find(room, state, player, b: np.ndarray, camera: views.Camera,
         size: tuple[int, int]) -> list[Marker]:
    """A :class:`Marker` for the goal and each crate that the slice ``b`` misses (the
    nearest :data:`MOST_CRATE_MARKS` crates, where more are out of it), and, at rest, for
    the goal or a crate in the slice where something in the slice hides it from the eye
    (a crate only where a wall does), or where it lies over the ceiling's cut.

    Only at rest (``b``'s hidden axis is a 4D axis): mid-turn the slice is
    oblique and nothing is cleanly in or out of it.  ``player`` is the drawn
    position; a thing is in the slice when its hidden coordinate is the
    player's, rounded.
    """
    key = (state, tuple(float(v) for v in player), b.tobytes(), camera, tuple(size))
    if _find_memo[0] is room and _find_memo[1] == key:
        return list(_find_memo[2])  # (each frame at rest asks again: the same answer)
    found = _find(room, state, player, b, camera, size)
    _find_memo[:] = [room, key, tuple(found)]
    return found


#: :func:`find`'s last answer: (its room, the rest of its key, the markers)
_find_memo: list = [None, None, ()]


def _find(room, state, player, b: np.ndarray, camera: views.Camera,
          size: tuple[int, int]) -> list[Marker]:
    axis, _ = views.axis_of(b[:, 3])
    if abs(b[axis, 3]) < 0.999:
        return []
    here = math.floor(player[axis] + 0.5)
    n = room.size[axis]
    wrap = room.wrap and axis == 3
    if wrap:
        here %= n
    out = []
    project = projecting(player, b, camera, size)
    w, h = size
    crates = _nearest_out(state.crates, axis, here, n, wrap, player)
    # at rest, the crates in the slice too (the nearest): those the walls hide are marked
    at_rest = all(float(v) == math.floor(float(v)) for v in player)
    mine = sorted((c for c in state.crates if _offset(here, c[axis], n, wrap) == 0),
                  key=lambda c: sum(abs(a - p) for a, p in zip(c, player, strict=True))
                  )[:MOST_CRATE_MARKS] if at_rest else []
    things = [("goal", room.goal)] + [("crate", c) for c in (*crates, *mine)]
    solid = _drawn_solid(room, state, player, b)
    for what, cell in things:
        offset = _offset(here, cell[axis], n, wrap)
        put = list(cell)
        put[axis] = player[axis]  # into the slice: only where it is across it matters
        if room.wrap and axis != 3 and what == "goal":
            # w in the slice of a wrapped room: the goal's copy the picture draws, the nearest
            # the pawn (picture.pose.goal_copy: put in the band kata of the pawn, level 7's
            # goal marker lay three slices under its glow, read as a second goal)
            put[3] = pose.goal_copy(room, player[3])[3]
        elif room.wrap and axis != 3:
            # a crate's: the copy that is drawn, in the band of one turn kata of the pawn
            # (picture.pose.wrap_band), not the cell's own w beyond it
            put[3] = pose.drawn_w(cell[3], math.floor(player[3] + 0.5), room.size[3])
        hidden, seen, above = "", False, 0
        if offset == 0:
            if not at_rest:
                continue  # (looked for at rest: a move's frames keep their time)
            if touches(put, player):
                continue  # by the pawn: in its window, and its badges name it ("walk · goal")
            lift = np.asarray(put, float) - np.asarray(player, float)
            if not pose.under_ceiling(lift, b):
                # over the ceiling's cut, not drawn (with w up, a crate some slices ana: in
                # neither picture nor marker, its floor's dashes alone read as a hole); the
                # goal's glow is drawn there, but not what holds it up nor the way to it (with
                # w up, level 4's goal three slices ana, over the pits of yours, read to
                # blind players of three rounds as floating, out of reach): its words say
                # where it is
                hidden, above = "above", round(float(lift @ b[:, 2]))
            else:
                hidden, above = hidden_by(room, state, put, player, b, camera, what), 0
            if what == "goal" and not hidden:
                # a corner of its floor hidden too: the part in sight, a gold triangle, read
                # as a ramp's bright side
                hidden = hidden_by(room, state, put, player, b, camera, "part")
            if not hidden or (what == "crate" and hidden == "crate"):
                continue  # in sight (or a crate under another: a stack shows as one)
            # its centre hidden, a goal whose floor shows in part: its glow is in sight
            seen = what == "goal" and glimpsed(room, state, put, player, b, camera)
        x, y, depth = project(put)
        inside = depth > 0 and 0 <= x < w and 0 <= y < h
        yours = not hidden and all(
            math.floor(float(a) + 0.5) == math.floor(float(p) + 0.5)
            for i, (a, p) in enumerate(zip(put, player, strict=True)) if i != axis)
        foot, ground = _footprint(room, put, b, project, solid) if inside and not hidden \
            else ((), None)
        if axis < 2 and ground is not None and ground == tuple(math.floor(float(v) + 0.5)
                                                              for v in put):
            # out along x or y (the both view's y) at the height it would stand: its ground is
            # the cell it is drawn on, and framed, that cell beside the pawn read to two blind
            # players of a round as the goal itself, one step away (the words say it is not)
            foot, ground = (), None
        # (at rest, as the slice's hidden things are: a move's frames keep their time)
        foot_behind = hidden_by(room, state, ground, player, b, camera, "step") \
            if foot and at_rest else ""
        face, inside_of = (), ""
        if inside and not hidden and solid([math.floor(float(v) + 0.5) for v in put]):
            face, middle = _face_in_sight(room, put, player, b, camera, project, solid)
            over = list(put)
            while not face:
                # none of its cell's faces shows (a wall's inside, under its top and behind
                # the next): the window in the top of the column over it that shows (its
                # pillar drawn on that top instead read to blind players as a stain on the
                # wall, or a crate standing on it: t263, t264)
                over = [float(v) + float(u) for v, u in zip(over, np.round(b[:, 2]),
                                                             strict=True)]
                c = room.norm(tuple(math.floor(v + 0.5) for v in over))
                if not room.inside(c) or not solid(c):
                    break
                face, middle = _face_in_sight(room, tuple(over), player, b, camera, project,
                                              solid)
            if face:  # on the face of its cell that shows
                x, y, _ = project(middle)
                inside_of = solid_kind(room, state, put)
        height = cell[2] if axis == 3 and not yours else None  # (yours: the pawn's own z)
        # (with no ground under it in your slice, a post down its own slice's column: level
        # 4's goal, three slices ana over a fall-out cross of yours, read to blind players as
        # floating over nothing, out of reach)
        post = _post(room, state, cell, put, ground, b, project) \
            if (foot or (inside and not hidden and axis >= 2 and ground is None)) \
            and not face else ()
        out.append(Marker(what, tuple(cell), axis, offset, (x, y), inside, yours, foot,
                          hidden, face, foot_behind,
                          goal_holds(room, state.crates) if what == "goal" else "", height,
                          inside_of, post, seen, above,
                          wrap and not 0 <= here + offset < n))
    return out


def solid_kind(room, state, put) -> str:
    """What the slice draws in the cell of 4D point ``put``: "crate", "ramp" or "block"."""
    c = room.norm(tuple(math.floor(float(v) + 0.5) for v in put))
    if c in {room.norm(k) for k in state.crates}:
        return "crate"
    return "ramp" if room.cell(c) in RAMPS else "block"


@functools.lru_cache(maxsize=64)
def goal_holds(room, crates) -> str:
    """What a pawn put in the goal among ``crates`` does, as the rule book's settling has
    it (``rules.settle``): ``""`` where it rests there (or a crate is in the goal: nothing to
    say), ``"slip kata"`` where it leaves the goal's slice, ``"fall"`` where it falls in z
    only, ``"fall out"`` where it falls out of the room."""
    if room.goal in crates:
        return ""
    settled = rules.settle(room, State.of(room.goal, crates))
    if settled.status == "lost":
        return "fall out"
    end = settled.state.player
    if end == room.goal:
        return ""
    return "slip kata" if end[3] != room.goal[3] else "fall"


def _drawn_solid(room, state, player, b: np.ndarray, crates=None):
    """Whether a cell holds a block, a ramp or a crate (in ``state``) that the picture draws:
    not one over the ceiling's cut (``pose.ceiling``, above the pawn's centre ``player``
    along the slice's up).  A marker put inside a block the ceiling took had its cube drawn
    floating in the air, and no footprint under it.  ``crates``: the state's crates,
    normalised, where the caller has them (a crowded room holds thousands)."""
    if crates is None:
        crates = {room.norm(c) for c in state.crates}
    origin = np.asarray(player, float)

    def solid(c):
        c = tuple(c)
        if not (room.cell(c) == BLOCK or room.cell(c) in RAMPS or room.norm(c) in crates):
            return False
        return bool(pose.under_ceiling(np.asarray(c, float) - origin, b))
    return solid


def _face_in_sight(room, put, player, b: np.ndarray, camera: views.Camera, project, solid):
    """(the four window corners, the 4D middle) of the face of cell ``put`` that shows: one
    turned to the eye whose middle the eye sees past every drawn solid cell (``solid``:
    :func:`_drawn_solid`'s), its top where that shows (up the slice's up axis), else its
    face along the view's depth, else a side; ((), None) where none shows or a corner is
    behind the eye.  ``player``: the picture's centre, which the camera looks at."""
    centre = np.asarray(put, float)
    eye = np.asarray(player, float) + b[:, :3] @ camera.frame()[0]  # the eye, in 4D
    cell = [math.floor(float(v) + 0.5) for v in put]
    shown = []  # (is it the top, how far it turns to the eye, its normal, its axis)
    for k in range(3):
        for sign in (1, -1):
            n = sign * np.round(b[:, k])
            beyond = tuple(int(c + v) for c, v in zip(cell, n, strict=True))
            if room.inside(room.norm(beyond)) and solid(beyond):
                continue  # covered by the next drawn cell
            middle = centre + 0.5 * n
            to_eye = eye - middle
            toward = float(np.dot(to_eye, n)) / max(float(np.linalg.norm(to_eye)), 1e-9)
            if toward > 0.05 and _sees(room, middle + 0.02 * n, eye, solid):
                shown.append((k == 2 and sign > 0, toward, n, k))
    if not shown:
        return (), None
    # the top first, then the face the view looks at (along its depth), then a side
    _, _, n, k = max(shown, key=lambda f: (f[0], f[3] == 1, f[1]))
    middle = centre + 0.5 * n
    a, c = (np.round(b[:, j]) for j in range(3) if j != k)
    corners = []
    for s1, s2 in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
        x, y, z = project(middle + 0.5 * s1 * a + 0.5 * s2 * c)
        if z <= 0 or not (math.isfinite(x) and math.isfinite(y)):
            return (), None
        corners.append((round(x), round(y)))
    return tuple(corners), middle


def top_shows(room, state, cell, player, b: np.ndarray, camera: views.Camera,
              crates=None, corners: int = 4) -> bool:
    """Whether the top of the block or crate in ``cell`` (its face up the slice's up axis)
    shows: drawn (under the ceiling's cut), nothing drawn on it, and its middle and
    ``corners`` of four points round it (a tag's width) seen from the eye past every drawn
    solid cell.  ``player``: the picture's centre; ``crates``: the state's crates,
    normalised, where the caller has them (asked of many cells, they were gathered again
    for each).  (The floor of a trench a cell wide shows its middle and its far half: its
    near edge's wall hides the rest.)"""
    solid = _drawn_solid(room, state, player, b, crates)
    cell = tuple(int(v) for v in cell)
    up = np.round(b[:, 2])
    over = tuple(int(c + u) for c, u in zip(cell, up, strict=True))
    if not solid(cell) or (room.inside(room.norm(over)) and solid(over)):
        return False
    # (the lines to its top's middle and four points near its corners, walked at once and
    # kept for the state and camera: :func:`_sight_lines`)
    hidden = _sight_lines(room, state, cell, player, b, camera, False, False)[3][1:]
    return not hidden[0] and int(hidden[1:].sum()) <= 4 - corners


def _sees(room, point, eye, solid) -> bool:
    """Whether the line from 4D ``point`` to the ``eye`` meets no drawn solid cell of the
    room (``solid``), walked in steps of a quarter of a cell."""
    point, eye = np.asarray(point, float), np.asarray(eye, float)
    count = max(2, int(float(np.linalg.norm(eye - point)) * 4))
    for t in np.arange(1, count) / count:
        c = tuple(int(v) for v in np.floor(point + t * (eye - point) + 0.5))
        if room.inside(room.norm(c)) and solid(c):
            return False
    return True


def _footprint(room, put, b: np.ndarray, project, solid) -> tuple[tuple, tuple | None]:
    """(the four window corners, the cell) of the ground under cell ``put`` in the slice: the
    floor of the empty cell on the first block, ramp or crate below it along the slice's up
    axis, or ((), None) where ``put`` is inside a block, nothing is below it, or a corner is
    behind the eye.  A blind player found a footprint drawn at the pawn's height on a
    wall's face, and one past the room's edge."""
    up, sign = views.axis_of(b[:, 2])
    cell = [math.floor(float(v) + 0.5) for v in put]
    if solid(cell):
        return (), None
    for _ in range(room.size[up]):
        below = list(cell)
        below[up] -= sign
        if not room.inside(room.norm(tuple(below))):
            return (), None  # (nothing under it in the room: no ground to show)
        if solid(below):
            break
        cell = below
    else:
        return (), None
    corners = floor_of(cell, b, project)
    return corners, (tuple(cell) if corners else None)


def _post(room, state, cell, put, ground, b: np.ndarray, project) -> tuple:
    """:attr:`Marker.post`: the window corners of the column that holds ``cell`` up in its
    own slice, drawn at its place ``put`` in yours: its floor's four corners, then those of
    the floor of the lowest of the blocks, ramps or crates right under it there, no lower
    than ``ground`` (the footprint's cell; None where your slice has none under it: as low
    as they go); () where nothing of its own slice is under it, or it stands on the
    ground."""
    up, sign = views.axis_of(b[:, 2])
    crates = {room.norm(c) for c in state.crates}
    at = [math.floor(float(v) + 0.5) for v in put]
    here, own, low = list(at), list(cell), None
    while ground is None or (here[up] - ground[up]) * sign > 0:
        own[up] -= sign
        here[up] -= sign
        c = room.norm(tuple(own))
        if not room.inside(c) or not (room.cell(c) == BLOCK or room.cell(c) in RAMPS
                                      or c in crates):
            break
        low = list(here)
    if low is None:
        return ()
    top, bottom = floor_of(at, b, project), floor_of(low, b, project)
    return (*top, *bottom) if top and bottom else ()


def floor_of(cell, b: np.ndarray, project) -> tuple:
    """The four window corners of ``cell``'s floor (its face down the slice's up axis), or
    () where a corner is behind the eye."""
    centre = np.asarray(cell, float) - 0.5 * np.round(b[:, 2])
    across, depth = np.round(b[:, 0]), np.round(b[:, 1])
    corners = []
    for a, d in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
        x, y, z = project(centre + 0.5 * a * across + 0.5 * d * depth)
        if z <= 0 or not (math.isfinite(x) and math.isfinite(y)):
            return ()
        corners.append((round(x), round(y)))
    return tuple(corners)


#: :func:`_sight_lines`' walks for one room, state, pawn, basis and camera: (the room, the
#: rest of that key, {(the cell, floor, grid): the walk}, what every walk shares: the eye
#: (4D), and which cells hold a block, which a crate)
_hidden_memo: list = [None, None, {}, None]
#: the lines to a cell's centre and five points of one face, as offsets (centre, across,
#: depth): the centre, then the face's middle and four points near its corners
_SIGHTS = np.array([(0, 0, 0), (1, 0, 0), (1, 0.35, 0.35), (1, 0.35, -0.35), (1, -0.35, -0.35),
                    (1, -0.35, 0.35)])
#: the same for a finer look at a face: the centre, then a 5 x 5 grid of points over it
_GRID = np.array([(0, 0, 0)] + [(1, a, d) for a in np.linspace(-0.4, 0.4, 5)
                                for d in np.linspace(-0.4, 0.4, 5)])
#: "part": the goal's floor counts as partly hidden where this share of the grid's points is
PART_HIDDEN = 0.3
#: how much of a hidden goal's floor in sight says it "partly hidden" (its glow shows)
GLIMPSED = 0.2


def touches(cell, player) -> bool:
    """Whether ``cell`` is a face apart from the pawn's (beside, over or under it): a crate
    or the goal there shows in the pawn's round window or by it, and the step badges name
    it (blind players read "crate behind a wall" on one in plain view beside the pawn, and
    "goal behind a wall" beside a "walk · goal" badge)."""
    near = [abs(math.floor(float(a) + 0.5) - math.floor(float(p) + 0.5))
            for a, p in zip(cell, player, strict=True)]
    return sum(near) == 1


def hidden_by(room, state, cell, player, b: np.ndarray, camera: views.Camera,
              what: str = "goal") -> str:
    """What hides ``cell`` (in the slice) from the camera's eye: ``"wall"`` (a block of the
    slice) or ``"crate"``, the first along the line of sight to its centre; ``""`` where
    it is in sight: its centre, or two of five points of the face that shows of it (the
    goal's floor, where its frame and glow are drawn; a crate's top).  With ``what`` =
    ``"floor"`` it asks of the cell's floor alone (the pawn's feet: the pawn itself may
    show over what hides where it stands): hidden where two of its five points are, by
    what the first of those lines meets.  With ``"step"``, of the floor's middle alone,
    where a step's badge or a marker's footprint is centred: hidden there, the badge or
    the frame lies on what hides it.  With ``"part"``, of the floor's grid of 25 points:
    hidden where :data:`PART_HIDDEN` of them are, by what the first of those lines meets."""
    hit, crates, blocks, blocked = _sight_lines(room, state, cell, player, b, camera,
                                                what in ("goal", "floor", "step", "part"),
                                                what == "part")
    first_blocked = 1 + int(np.argmax(blocked[1:]))  # the first of the face's lines hidden
    if what == "part":  # a good part of the floor's grid hidden
        line = first_blocked if blocked[1:].mean() >= PART_HIDDEN else None
    elif what == "step":  # the floor's middle: a badge there lies on what hides it
        line = 1 if blocked[1] else None
    elif what == "floor":  # the feet partly hidden: read as on what hides them
        line = first_blocked if int(blocked[1:].sum()) >= 2 else None
    else:  # hidden: by what the line to its centre meets first
        line = 0 if blocked[0] and int((~blocked[1:]).sum()) < 2 else None
    if line is None:
        return ""
    first = int(np.argmax(hit[line]))
    return "crate" if crates[line, first] and not blocks[line, first] else "wall"


def glimpsed(room, state, cell, player, b: np.ndarray, camera: views.Camera) -> bool:
    """Whether :data:`GLIMPSED` of the floor of ``cell`` (its grid of 25 points, as
    :func:`hidden_by`'s ``"part"`` looks at it) is in sight: a goal hidden at its centre
    whose glow shows by what hides it."""
    blocked = _sight_lines(room, state, cell, player, b, camera, True, True)[3]
    return float((~blocked[1:]).mean()) >= GLIMPSED


def _sight_lines(room, state, cell, player, b: np.ndarray, camera: views.Camera,
                 floor: bool, grid: bool) -> tuple:
    """The lines of sight from the camera's eye to ``cell``'s centre and to points of one of
    its faces (its floor where ``floor``, else its top; five points, or a 5 x 5 grid where
    ``grid``), walked in steps of a quarter of a cell, all at once (a vector sum): for each
    line and step whether a block or a crate is there (``hit``, ``crates``, ``blocks``), and
    for each line whether anything is (``blocked``).  Only what the picture draws counts."""
    # (the room itself in the key, compared by identity: an id alone could be a dead room's)
    key = (state, tuple(float(v) for v in player), camera, b.tobytes())
    if _hidden_memo[0] is not room or _hidden_memo[1] != key:
        eye = np.asarray(player, float) + b[:, :3] @ camera.frame()[0]
        is_block = np.frombuffer(room.cells, np.uint8) == BLOCK
        is_crate = np.zeros(len(is_block), bool)
        is_crate[[room.index(room.norm(c)) for c in state.crates]] = True
        _hidden_memo[:] = [room, key, {}, (eye, is_block, is_crate)]
    asked = (tuple(float(v) for v in cell), floor, grid)
    if asked in _hidden_memo[2]:
        return _hidden_memo[2][asked]
    start, is_block, is_crate = _hidden_memo[3]
    centre = np.asarray(cell, float)
    face = (-0.45 if floor else 0.45) * np.round(b[:, 2])
    sights = _GRID if grid else _SIGHTS
    ends = centre + np.outer(sights[:, 0], face) + np.outer(sights[:, 1], np.round(b[:, 0])) \
        + np.outer(sights[:, 2], np.round(b[:, 1]))
    # every line at once: (line, step, axis) cells along each
    count = max(2, int(float(np.linalg.norm(centre - start)) * 4))
    t = np.arange(count) / count
    cells = np.floor(start + t[None, :, None] * (ends - start)[:, None, :] + 0.5).astype(
        np.int64)
    # only what the picture draws hides: nothing over the ceiling's cut (pose.ceiling), and
    # in a wrapped room nothing out of the band of w it draws (pose.wrap_band: a goal lit
    # beside the pawn in level 7's w-up view was said "hidden by a wall", by the slices ana
    # of the pawn, which are not drawn)
    drawn = pose.under_ceiling(cells - np.asarray(player, float), b)
    if room.wrap:
        lo, hi = pose.wrap_band(room, tuple(math.floor(float(v) + 0.5) for v in player))
        drawn &= (cells[..., 3] >= lo) & (cells[..., 3] < hi)
        cells[..., 3] %= room.size[3]
    X, Y, Z, W = room.size
    x, y, z, w = cells[..., 0], cells[..., 1], cells[..., 2], cells[..., 3]
    inside = (x >= 0) & (x < X) & (y >= 0) & (y < Y) & (z >= 0) & (z < Z) & (w >= 0) & (w < W)
    inside &= drawn
    flat = np.where(inside, x + X * (y + Y * (z + Z * w)), 0)
    inside &= flat != room.index(tuple(int(v) for v in np.floor(centre + 0.5)))  # not itself
    blocks = is_block[flat] & inside
    crates = is_crate[flat] & inside
    hit = blocks | crates
    walked = (hit, crates, blocks, hit.any(axis=1))
    _hidden_memo[2][asked] = walked
    return walked


#: The most crates marked at once: the nearest out of the slice.  A crowded room holds
#: 12,000 crates; marking each would cost seconds a frame and show nothing but marks.
MOST_CRATE_MARKS = 12
#: one state's crates: (the crates, as an array, the key of the last pick, that pick)
_cells_memo: list = [None, None, None, None]


def _nearest_out(crates, axis: int, here: int, n: int, wrap: bool, player) -> list:
    """The crates out of the slice nearest it (by the hidden axis, then in the slice),
    at most :data:`MOST_CRATE_MARKS` (a vector sum, not a loop, in a crowded room)."""
    if len(crates) <= MOST_CRATE_MARKS:
        return [c for c in crates if _offset(here, c[axis], n, wrap) != 0]
    key = (axis, here, n, wrap, tuple(math.floor(c + 0.5) for c in player))
    if _cells_memo[0] is not crates:
        _cells_memo[:] = [crates, np.array(crates, dtype=np.int64).reshape(-1, 4), None, None]
    elif _cells_memo[2] == key:
        return _cells_memo[3]
    cells = _cells_memo[1]
    d = cells[:, axis] - here
    if wrap:
        d = np.where(d > n // 2, d - n, np.where(d < -(n // 2), d + n, d))
    at = np.floor(np.asarray(player, float) + 0.5).astype(np.int64)
    spread = np.abs(cells - at).sum(axis=1) - np.abs(cells[:, axis] - at[axis])
    score = np.abs(d) * (1 << 20) + spread
    score[d == 0] = np.iinfo(np.int64).max  # in the slice: not marked
    k = min(MOST_CRATE_MARKS, int((d != 0).sum()))
    if k == 0:
        _cells_memo[2:] = [key, []]
        return []
    pick = np.argpartition(score, k - 1)[:k]
    pick = pick[np.argsort(score[pick], kind="stable")]
    _cells_memo[2:] = [key, [crates[i] for i in pick]]
    return _cells_memo[3]


class Placed(NamedTuple):
    """One marker as drawn: the markers of one thing on one spot, merged (its first five
    fields are :func:`gather`'s)."""

    marker: Marker  #: the first of them
    at: tuple[int, int]  #: its shape's centre: the place on screen (pinned to the edge, if off)
    text: str  #: the words: which way and how far (``\u2191 2 ana``, ``\u2193 1, 2 kata``)
    count: int  #: how many things it stands for
    words: pygame.Rect  #: the box of its words (moved clear of the rest, where it must be)
    moved: bool = False  #: its words were moved off their place under it (a line joins them)
    #: its words are another's, placed before it: one label said for them all
    #: (:func:`clusters`), a line from it to each shape; its own ``text`` is empty
    shared: bool = False


def gather(ov, markers: list[Marker], s: float, top: int = 0,
           bottom: int | None = None) -> list[tuple[Marker, tuple[int, int], str, int]]:
    """The markers merged by place: ``(the first, its shape's centre, its words, how many)``
    for each thing (the goal, a crate) on each spot.  The shape stays on its place,
    which is the thing's (a blind player read a marker moved a cell off the pawn as the next
    cell's), under the panels above ``top`` and the bar below ``bottom`` too (the words
    keep clear of them); one off the window is pinned to the edge of its free part, on the line
    from the centre toward it, and its arrow points on.  One in the pawn's own column
    (its place is the pawn's) is left out: the HUD says it in its panel (:func:`of_you`)."""
    return [(first, at, words_of(ms), len(ms))
            for first, at, ms in _groups(ov, markers, s, top, bottom)]


def _groups(ov, markers: list[Marker], s: float, top: int = 0,
            bottom: int | None = None) -> list[tuple[Marker, tuple[int, int], list[Marker]]]:
    """:func:`gather`'s groups: ``(the first, its shape's centre, the markers)``."""
    W, H = ov.size
    bottom = H if bottom is None else bottom
    r = shape_half(s)
    margin = int(34 * s)
    lo, hi = top + margin, bottom - margin
    groups: list[list] = []  # [first, (x, y), [markers]]
    for m in markers:
        if m.yours:
            continue
        x, y = m.at
        if m.inside:
            # on its place, even under a panel or the key bar (faded where the room lies
            # under them): brought clear of them, a goal's diamond lay a cell and a half
            # below the framed face it stands for, and a blind player read two goals; only
            # at the window's very edge brought in, never pinned as if off the window
            x = min(max(x, r + 1), W - r - 1)
            y = min(max(y, r + 1), H - r - 1)
        else:
            # pinned to the edge of the window's free part, toward where it is
            cx, cy = W / 2, (lo + hi) / 2
            dx, dy = x - cx, y - cy
            if abs(dx) + abs(dy) < 1e-6:
                dx = 1.0
            k = min((W / 2 - margin) / max(abs(dx), 1e-6), (hi - lo) / 2 / max(abs(dy), 1e-6))
            x, y = cx + dx * k, cy + dy * k
        same = next((g for g in groups if g[0].what == m.what
                     and g[0].inside == m.inside and g[0].hidden == m.hidden
                     and g[0].foot_behind == m.foot_behind
                     and math.hypot(g[1][0] - x, g[1][1] - y) < 2 * r), None)
        if same is not None:
            same[2].append(m)
            continue
        groups.append([m, (int(x), int(y)), [m]])
    return [(first, at, ms) for first, at, ms in groups]


def shape_groups(ov, markers: list[Marker], s: float, top: int = 0,
                 bottom: int | None = None) -> list[tuple[Marker, tuple[int, int], list[Marker]]]:
    """The markers as :func:`place` groups them, each group's shape on its place: ``(the
    first, its shape's centre, the markers)``.  Worked out once a HUD redraw, the step
    badges keeping off the shapes (:func:`shape_boxes`) before :func:`place` is handed
    them (``groups``)."""
    return _groups(ov, markers, s, top, bottom)


def shape_half(s: float) -> int:
    """A marker's shape's half size, in window pixels at scale ``s``."""
    return int(SHAPE_HALF * s)


def shape_boxes(groups, s: float) -> list[pygame.Rect]:
    """The boxes the step badges keep off round the shapes of ``groups``
    (:func:`shape_groups`), each a little wider than its shape: a badge laid over the
    goal's diamond hid it (level 3's landing words, level 7's "stays · a wall", t340,
    t341); and off the line under each where its words go."""
    r = shape_half(s)
    small = int(17 * s)
    out = []
    for _, at, _ in groups:
        box = shape_box(at, r).inflate(r, r)
        box.height += small + SPACE
        out.append(box)
    return out


#: A marker's round window in a block: this part of the way from its face's middle to the
#: middles of its sides.
WINDOW_K = 0.82


def in_window(face, point, k: float = WINDOW_K) -> bool:
    """Whether ``point`` lies in the round window (:func:`window_in`, ``k`` of the way to
    the sides) cut in ``face``, a cell's face on screen (its four corners in turn).

    >>> square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    >>> in_window(square, (5, 5)), in_window(square, (9, 9)), in_window(square, (20, 5))
    (True, False, False)
    """
    mid, u, v = _window_axes(face, k)
    m = np.array([u, v]).T
    if abs(np.linalg.det(m)) < 1e-9:
        return False
    p, q = np.linalg.solve(m, np.asarray(point, float) - mid)
    return bool(p * p + q * q < 1.0)


def tail_of(text: str, what: str) -> str:
    """``text`` (:func:`words_of`'s) without the thing's name and count at its head: what
    two labels must share to be said as one.

    >>> tail_of("2 crates ↑ 3 ana · z 3 w 6", "crate"), tail_of("crate ↑ 3 ana", "crate")
    ('↑ 3 ana · z 3 w 6', '↑ 3 ana')
    """
    return re.sub(rf"^(?:\d+ {re.escape(what)}s|{re.escape(what)}) ", "", text)


#: How near (in text heights) the words of things said alike must lie to be said as one.
ALIKE_ROWS = 3


def clusters(groups, label_box) -> list[list[int]]:
    """The indices of ``groups`` (:func:`_groups`'s) whose words say one thing of one kind
    but for how many (two crates both "↑ 3 ana · z 3 w 6"), each in sight of the window and
    out of the slice, and whose words, each under its own shape (``label_box(text, at)``),
    would lie within :data:`ALIKE_ROWS` text heights of each other: said as one label, a
    line to each shape.  Two such labels, one moved under the other, left blind players
    unable to tell which square was whose; two a few rows apart, one moved toward the other
    to clear a badge, read to another (t227) as one crate's words said twice."""
    out: list[list[int]] = []
    keys = []
    for first, at, ms in groups:
        text = words_of(ms)
        keys.append((first.what, tail_of(text, first.what), label_box(text, at))
                    if first.inside and not first.hidden else None)
    for i, key in enumerate(keys):
        joined = None
        if key is not None:
            for c in out:
                reach = 2 * (SPACE + ALIKE_ROWS * key[2].height)
                if any(keys[j] is not None and keys[j][:2] == key[:2]
                       and keys[j][2].inflate(reach, reach).colliderect(key[2])
                       for j in c):
                    joined = c
                    break
        if joined is None:
            out.append([i])
        else:
            joined.append(i)
    return out


def of_you(markers) -> list[tuple[str, str]]:
    """The things in the pawn's own column along the hidden axis (a crate just kata of
    you), as ``(what, words)`` for each kind of thing, the goal first: ``("crate",
    "crate ↓ 1 kata of you")``.  Their place on screen is the pawn's, so the HUD says them
    in its panel, beside your height, rather than in the room: four blind players read the
    words, drawn by the pawn, as the next cell's.

    >>> one = Marker("crate", (0, 0, 0, 1), 3, -1, (0, 0), True, yours=True)
    >>> of_you([one, one._replace(yours=False, offset=-2)])
    [('crate', 'crate ↓ 1 kata of you')]
    """
    out = []
    for what in ("goal", "crate"):
        ms = [m for m in markers if m.yours and m.what == what]
        if ms:
            out.append((what, words_of(ms)))
    return out


def words_of(ms: list[Marker]) -> str:
    """The words of markers merged on one spot: the thing named first, and how many where
    more than one (``goal ↓ 1 kata``, ``3 crates ↓ 1 kata``: a blind player found a crate's
    words naming it in one place and not in the next, and three read "crate ↓ 1, 2 kata"
    as one crate both 1 and 2 slices kata), then each side of the hidden axis once, its
    distances listed (``↑ 2 ana``; ``↓ 1, 2 kata``; ``↑ 1 ana · ↓ 1 kata``).

    Where each is at one height (out of the slice along w), it is said, and where they are
    in one slice, which, as the HUD says the goal's (``goal ↑ 2 ana · z 3 w 4``): blind
    players read a goal one slice kata, drawn on a wall beside the pawn, as one step away in
    their own slice.

    >>> one = Marker("crate", (0, 0, 0, 1), 3, -1, (0, 0), True)
    >>> words_of([one, one._replace(offset=-2)]), words_of([one, one])
    ('2 crates ↓ 1, 2 kata', '2 crates ↓ 1 kata')
    >>> words_of([one._replace(height=3)])
    'crate ↓ 1 kata · z 3 w 1'

    Reached round a wrapped w's ends, that is said (from w 0, "↓ 1 kata" to w 3 read as the
    wrong way to go).

    >>> words_of([one._replace(cell=(0, 0, 0, 3), height=1, wraps=True)])
    'crate ↓ 1 kata round the wrap · z 1 w 3'

    Where it is drawn on a face of what the slice has in its place, that is said: drawn on a
    wall's top, blind players read a crate of another slice as standing on the wall.

    >>> words_of([one._replace(height=1, inside_of="block")])
    'crate ↓ 1 kata · z 1 w 1 · inside the block you see'

    Out along x or y (the both view hides y), it is not here, wherever it is drawn: two
    blind players read a goal two rows +y, drawn on the cell beside them, as one step away.
    Out along z (the w-up view hides it), where it is, and that it is not at your z.

    >>> words_of([Marker("goal", (1, 2, 1, 1), 1, 2, (0, 0), True)])
    'goal 2 rows +y · not here: y hidden'
    >>> words_of([Marker("goal", (1, 2, 3, 1), 2, 2, (0, 0), True)])
    'goal z 3 w 1 · not at your z'

    In the picture's slice but hidden from the eye, it is here (a crate of the pawn's own
    slice "hidden by a wall" read to a blind player as one in another slice).

    >>> words_of([Marker("crate", (1, 2, 1, 1), 3, 0, (0, 0), True, hidden="wall")])
    'crate here, hidden by a wall'
    """
    if ms[0].hidden == "above":
        return f"{ms[0].what} {ms[0].label}"
    if ms[0].hidden:  # (in the picture's slice: "here"; "crate hidden by a wall" of one in
        # the pawn's own slice read to a blind player as one in another slice, t316)
        return f"{ms[0].what} here, {ms[0].label}"
    heights = {m.height for m in ms}
    height = ""
    if len(heights) == 1 and ms[0].height is not None:
        height = f" · z {ms[0].height}" + (
            f" w {ms[0].cell[3]}" if len({m.cell[3] for m in ms}) == 1 else "")
    head = ms[0].what if len(ms) == 1 else f"{len(ms)} {ms[0].what}s"
    kinds = {m.inside_of for m in ms}
    inside = f" · inside the {ms[0].inside_of} you see" if len(kinds) == 1 and ms[0].inside_of \
        else ""
    # out along x or y (the both view hides y): not here, wherever it is drawn
    away = f" · not here: {views.AXES[ms[0].axis]} hidden" \
        if ms[0].axis < 2 and not any(m.yours for m in ms) else ""
    sides = _sides(ms)
    if ms[0].axis == 2 and not any(m.yours for m in ms):
        # out along z (the w-up view hides it): where it is, as the HUD says the goal's,
        # and that it is not at your z ("goal 1 up in z" beside "crate ↑ 1 ana", w up the
        # screen, read to blind players of three rounds as up the screen, where w runs)
        spots = {(m.cell[2], m.cell[3]) for m in ms}
        sides = (f"z {ms[0].cell[2]} w {ms[0].cell[3]}" if len(spots) == 1 else sides) \
            + " · not at your z"
    return (f"{head} " + sides + away + height + behind_words(ms[0].foot_behind) + inside
            + next((f" · you'd {m.slips}" for m in ms if m.slips), ""))


def behind_words(hider: str) -> str:
    """The words a frame drawn over what hides its cell adds (``hidden_by``'s answer):
    ``" · hidden by the crate"``, ``" · hidden by a wall"``, or ``""`` for none (said
    "behind a wall", blind players read it as walled off, out of reach)."""
    return {"crate": " · hidden by the crate", "wall": " · hidden by a wall"}.get(hider, "")


def in_slice(room, cell, player, b: np.ndarray) -> bool:
    """Whether ``cell`` lies in the slice of basis ``b`` through ``player`` (along the
    hidden axis at the player's, rounded; round a wrapped w, in the same slice)."""
    axis, _ = views.axis_of(b[:, 3])
    here = math.floor(float(player[axis]) + 0.5)
    return _offset(here, int(cell[axis]), room.size[axis], room.wrap and axis == 3) == 0


def _sides(ms: list[Marker]) -> str:
    parts = []
    for side in (True, False):
        got = sorted({abs(m.offset) for m in ms if (m.offset > 0) == side})
        if not got:
            continue
        yours = " of you" if any(m.yours for m in ms if (m.offset > 0) == side) else ""
        axis = ms[0].axis
        # an arrow only along w: a blind player read "↓ 1 -y" in the both-downs view, z up
        # the screen, as lower in z, and one "↑ 1 up in z" in the w-up view, w up the
        # screen, as a slice ana (the words say which way in z)
        arrow = ("↑ " if side else "↓ ") if axis == 3 else ""
        far = ", ".join(str(d) for d in got)
        round_ = " round the wrap" if any(m.wraps for m in ms if (m.offset > 0) == side) \
            else ""
        parts.append(f"{arrow}{far} {across(axis, max(got))}{SIDES[axis][side]}{yours}"
                     f"{round_}")
    return " · ".join(parts)


def place(ov, markers: list[Marker], s: float, top: int = 0, bottom: int | None = None,
          avoid=(), pawn: pygame.Rect | None = None, soft=(), beside=(),
          groups=None) -> list[Placed]:
    """Where each marker is drawn (:class:`Placed`).  Markers of the same thing on one spot
    are merged (:func:`gather`); each shape stays on its place; the words go under it, or,
    where they would cover other words, a shape, a rectangle of ``avoid`` or ``soft`` or
    reach past ``top`` or ``bottom``, to the nearest place clear of them all, a line back to
    the shape crossing nothing if it can.  Where that place is farther than
    :data:`MOST_DRIFT` text heights from the shape, the nearest place within that reach
    clear of all but ``soft`` (a plain walk's dot badges) is taken instead: words pushed two
    cells off their shape, blind players read them as another cell's.  ``beside``: the
    step badges' boxes; a marker whose shape's middle lies under one (or whose words would
    land on one just under it) has its words just under or over that badge, :data:`SPACE`
    apart, or beside it twice as far, a label of their own, where they fit.  Never joined
    to the badge as one label of two lines: "stays · too high" over "goal ↑ 2 ana" read as
    "the goal stays too high", and "↓ slip kata 1" over "crate ↓ 1 kata", the crate's
    square by the badge's edge, put the crate in the badge's cell, to four blind players
    of five; a shape in sight by a badge's edge has its words under it, as any other."""
    W, H = ov.size
    bottom = H if bottom is None else bottom
    small = int(17 * s)
    r = shape_half(s)
    if groups is None:  # (:func:`shape_groups`' answer, where the caller has it)
        groups = _groups(ov, markers, s, top, bottom)
    shapes = [shape_box(at, r) for _, at, _ in groups]
    crossed = list(avoid)  # what a line from moved words to their place should not cross
    avoid = [*avoid, *((pawn,) if pawn is not None else ())]
    placed: list[Placed] = []
    def under(text, at):  # the words' own place: just under the shape, in the window
        box = pygame.Rect(0, 0, ov.width_of(text, small) + 6, small + 4)
        box.midtop = (at[0], at[1] + r + SPACE + 1)
        box.left = max(0, min(box.left, W - box.width))
        return box

    for members in clusters(groups, under):
        if len(members) > 1:  # one label for them all, under them, a line to each
            ms = [m for i in members for m in groups[i][2]]
            text = words_of(ms)
            ats = [groups[i][1] for i in members]
            anchor = (round(sum(x for x, _ in ats) / len(ats)), max(y for _, y in ats))
            wanted = under(text, anchor)
            taken = [*(p.words for p in placed), *shapes, *avoid]
            rect = clear_of(wanted, [*taken, *soft], top + 2, bottom - 2, W)
            for n, i in enumerate(members):
                first, at, group = groups[i]
                placed.append(Placed(first, at, text if n == 0 else "", len(group), rect,
                                     True, shared=n > 0))
            continue
        m, at, group = groups[members[0]]
        text, count = words_of(group), len(group)
        wanted = under(text, at)
        taken = [*(p.words for p in placed), *shapes, *avoid]
        to = shape_box(at, r)
        def by_shape(b, to=to, wanted=wanted, at=at, reach=2 * small):
            # a badge over the shape's middle, or one its words would land on just under it
            # (within ``reach`` of the shape)
            return b.collidepoint(at) or (b.colliderect(wanted) and b.left <= at[0] <= b.right
                                          and b.top - at[1] <= reach)

        # the badge over its shape, or the one its words would land on just under it (the
        # shape hidden by the pawn, level 7's goal: its words beside the badge read as the
        # next cell's; 2.8's goal words went two rows down, under the pawn, and a blind
        # player read them as the wall's there)
        near = next((b for b in beside if by_shape(b)), None)
        if near is not None:
            # what words by a badge keep clear of: all but the shape itself and a pawn over
            # it (level 7's goal); a crate in sight stays clear, the shape by it or not
            others = [*(t for t in taken if t != to and not (t == pawn and t.colliderect(to))),
                      *soft]
            words = by_badge(near, wanted, to, (top, bottom, W),
                             lambda w, others=others: free_of(w, others))
            if words is not None:
                # beside the badge (not under or over it): a line back to the shape (beside
                # a wide badge, a blind player read "crate behind a wall" as a crate three
                # cells off)
                aside = words.bottom > near.top and words.top < near.bottom
                placed.append(Placed(m, at, text, count, words, aside))
                continue

        def clear_line(t, to=to):
            start, end = leader(t, to)
            return not any(a.clipline(start, end) for a in crossed)

        rect = clear_of(wanted, [*taken, *soft], top + 2, bottom - 2, W, clear_line)
        def within(t, wanted=wanted, reach=MOST_DRIFT * small):
            return math.hypot(t.x - wanted.x, t.y - wanted.y) <= reach

        if soft and not within(rect):
            near = clear_of(wanted, taken, top + 2, bottom - 2, W, within)
            if within(near) and not crowds(near, taken):
                rect = near
        if not within(rect):
            # just over the shape, where under it is taken (by the pawn beside it, mostly),
            # rather than shorter: level 3's goal in the both view lost its "not here: y
            # hidden" in a small window once the step badge moved off its diamond
            # (or run on from the shape's left edge, or up to its right: its words still
            # start or end at it)
            over = wanted.copy()
            over.bottom = at[1] - r - SPACE - 1
            spots = [t.move(dx, 0) for t in (over, wanted)
                     for dx in (0, at[0] - r - t.left, at[0] + r - t.right)]
            spot = next((t for t in spots if t.top >= top + 2 and t.bottom <= bottom - 2
                         and t.left >= 0 and t.right <= W and free_of(t, [*taken, *soft])),
                        None)
            if spot is not None:
                placed.append(Placed(m, at, text, count, spot, spot != wanted))
                continue
        if not within(rect):
            # shorter words within reach rather than the whole two rows off: the tail after
            # " · " goes (blind players read words drifted two rows off, a leader line back,
            # as another cell's)
            for short in shorter(text, m.what):
                near_place = under(short, at)
                fits = clear_of(near_place, [*taken, *soft], top + 2, bottom - 2, W,
                                lambda t, w=near_place: within(t, w))
                if within(fits, near_place) and free_of(fits, [*taken, *soft]):
                    text, wanted, rect = short, near_place, fits
                    break
        placed.append(Placed(m, at, text, count, rect, rect != wanted))
    return placed


def by_badge(box: pygame.Rect, wanted: pygame.Rect, shape: pygame.Rect, band: tuple,
             fits) -> pygame.Rect | None:
    """A place for a marker's words (``wanted``'s size) just under step badge ``box`` or
    just over it, :data:`SPACE` pixels off, else beside it, twice that off (a label of its
    own, not read as one line with the badge), the one clear of the marker's ``shape``
    first: in the window and between the band's top and bottom (``band``: top, bottom, the
    window's width; by a badge over the band's top, clear of the panels there, above it
    too), and one ``fits`` accepts; None where none is."""
    top, bottom, W = band
    width, height = wanted.size
    spots = [pygame.Rect(box.left, box.bottom + SPACE, width, height),
             pygame.Rect(box.left, box.top - SPACE - height, width, height)]
    for x in (box.right + SIDE_SPACE, box.left - SIDE_SPACE - width):
        spots.append(pygame.Rect(x, box.centery - height // 2, width, height))
    spots.sort(key=lambda w: w.colliderect(shape))
    lo = top if box.top >= top else 0
    return next((w for w in spots if w.top >= lo and w.bottom <= bottom and w.left >= 0
                 and w.right <= W and fits(w)), None)


def shorter(text: str, what: str) -> list[str]:
    """Shorter words for a marker's ``text`` that cannot be placed near its shape: without
    what follows " · ".  Never without the thing's name: a bare "↓ 1 kata" left a blind
    player asking what it was of, and a bare "↑ 3 ana" beside another crate's whole words
    read to another (t207) as nobody's; such words go where they fit, a line back.

    >>> shorter("crate ↓ 2 kata · hidden by a wall", "crate")
    ['crate ↓ 2 kata']
    >>> shorter("goal ↑ 1 ana", "goal"), shorter("2 crates ↓ 1 kata", "crate")
    ([], [])
    """
    first = text.split(" · ")[0]
    return [first] if first != text else []


def free_of(rect: pygame.Rect, taken) -> bool:
    """``rect`` keeps the least gap from each of ``taken`` (:func:`crowds`)."""
    return not crowds(rect, taken)


def crowds(rect: pygame.Rect, taken) -> bool:
    """Whether label ``rect`` lies nearer any of ``taken`` than the least gap: :data:`SPACE`
    above and below, and at its ends :data:`SIDE_SPACE` from another label (a rectangle no
    more than twice its height; from the pawn's box, the map or a panel, :data:`SPACE`)."""
    near = rect.inflate(2 * SPACE, 2 * SPACE)
    wide = rect.inflate(2 * SIDE_SPACE, 2 * SPACE)
    return any(near.colliderect(o) or (o.height <= 2 * rect.height and wide.colliderect(o))
               for o in taken)


#: How far (in text heights) a marker's words may go from their shape before they take a
#: place over a plain walk's dot badge instead (:func:`place`'s ``soft``).
MOST_DRIFT = 3


def shape_box(at: tuple[int, int], r: int) -> pygame.Rect:
    """The box of a marker's shape round ``at`` (``r``: its half size), its arrow's reach."""
    box = pygame.Rect(0, 0, 2 * r + 2, 2 * r + 2)
    box.center = at
    return box


#: A marker's shape's half size at scale 1 (:func:`shape_half`), in pixels.
SHAPE_HALF = 11
#: The least gap, in pixels, between a placed label and what it keeps clear of.
SPACE = 7
#: The least gap at a label's ends: two labels on one line seven pixels apart read to
#: blind players as one sentence ("ramp ana to w 3 · over the gap goal ↑ 2 ana", t342, t345)
SIDE_SPACE = 3 * SPACE


def clear_of(rect: pygame.Rect, taken: list, top: int, bottom: int, width: int,
             ok=None) -> pygame.Rect:
    """``rect``, or the nearest place to it (above, below or beside what it would cover)
    that covers nothing in ``taken`` and lies between ``top`` and ``bottom``; where there is
    none, the nearest stacked past two of them; where none of those, ``rect`` itself.
    ``ok``, where given, is preferred too: the nearest free place it accepts, if any is.
    Free means :data:`SPACE` pixels clear of each: labels two or four pixels apart read as one
    stack to blind players, "touching"."""
    def free(r):
        return (r.top >= top and r.bottom <= bottom and r.left >= 0 and r.right <= width
                and not crowds(r, taken))

    if free(rect):
        return rect
    def near(t):
        return abs(t.x - rect.x) + abs(t.y - rect.y)

    g, side = SPACE + 1, SIDE_SPACE + 1
    # just inside the band (a shape left on its place by the band's edge: its words in it)
    tries = [rect.move(0, top - rect.top), rect.move(0, bottom - rect.bottom)]
    for o in taken:
        tries += [rect.move(0, o.bottom + g - rect.top), rect.move(0, o.top - g - rect.bottom),
                  rect.move(o.right + side - rect.left, 0),
                  rect.move(o.left - side - rect.right, 0)]
    tries.sort(key=near)  # the nearest free one: tried nearest first (this runs every HUD)
    if ok is not None:
        found = next((t for t in tries if free(t) and ok(t)), None)
        if found is not None:
            return found
    found = next((t for t in tries if free(t)), None)
    if found is not None:
        return found
    # else past two in a row (stacked under or over a stack)
    again = sorted((t.move(0, o.bottom + g - t.top) for t in tries for o in taken
                    if crowds(t, (o,))), key=near)
    return next((t for t in again if free(t)), rect)


def draw(ov, markers: list[Marker], s: float, top: int = 0, bottom: int | None = None,
         avoid=(), palette: str = "standard") -> list[pygame.Rect]:
    """Draw ``markers`` into overlay ``ov`` (``s``: the UI scale; words never above ``top``,
    below ``bottom`` or over ``avoid``; ``palette``: the settings' colours), placed by
    :func:`place`: each shape on its place, its footprint under it, its words by it.
    Returns each marker's box (its shape and words)."""
    placed = place(ov, markers, s, top, bottom, avoid)
    draw_shapes(ov, placed, s, palette)
    draw_words(ov, placed, s, palette)
    return boxes(placed, s)


def boxes(placed: list[Placed], s: float) -> list[pygame.Rect]:
    """Each placed marker's box on screen: its shape's and its words'."""
    r = shape_half(s)
    return [shape_box(p.at, r).union(p.words) for p in placed]


def draw_shapes(ov, placed: list[Placed], s: float, palette: str = "standard",
                pawn: pygame.Rect | None = None) -> None:
    """The markers' shapes (a hollow diamond for the goal, a square for a crate) on their
    places (``placed``: :func:`place`'s), with the footprint of each on
    the pawn's floor (a dashed drop line to it) and, for one pinned to the window's edge,
    an arrow pointing off it toward the thing.  Each is drawn on a small layer of its own,
    cut away where ``pawn`` (the pawn's box) is: nothing is drawn over the pawn, and a
    shape just behind it shows round it."""
    W, H = ov.size
    r = shape_half(s)
    thick = max(2, int(3 * s))
    reach = int(r * 2.2) + 2  # a pinned one's arrow
    for p in placed:
        m, (x, y) = p.marker, p.at
        colour = colour_of(m.what, palette)
        points = [*m.foot, *m.face, *m.post, (x - reach, y - reach), (x + reach, y + reach)]
        box = pygame.Rect(min(p[0] for p in points) - 4, min(p[1] for p in points) - 4, 0, 0)
        box.width = max(p[0] for p in points) - box.x + 5
        box.height = max(p[1] for p in points) - box.y + 5
        layer = pygame.Surface(box.size, pygame.SRCALPHA, 32)
        cx, cy = x - box.x, y - box.y
        if m.face:
            # inside a block: a round window cut in its cell's face in sight, dark, rimmed in
            # its colour, as the pawn behind a block is seen in one (dashed and faintly
            # filled, the face read to blind players of every round as a tile on the wall's
            # top, the goal or crate standing there within reach)
            face = [(fx - box.x, fy - box.y) for fx, fy in m.face]
            hole = window_in(face)
            pygame.draw.polygon(layer, (10, 12, 18, 200), hole)
            pygame.draw.polygon(layer, colour, hole, max(2, int(2 * s)))
        if m.post:  # what holds it up in its own slice: a pillar to its floor
            post = [(px - box.x, py - box.y) for px, py in m.post]
            hull = convex_hull(post)
            # A ghost: its edges dashed, its faces faintly tinted, what is behind it showing
            # through.  (Made opaque to hide your slice's fall-out cross behind it, which
            # blind players of two rounds read as the goal floating over a hole, level 4's
            # goal's pillar, filled in gold and then dark and lined in gold, read to eleven
            # of six rounds as a solid block in the way, or a crate, t301 to t318, and two
            # asked for an outline.  The pit is there, in your slice; its words say the goal
            # is slices ana.)  (One fill: the layer's pixels are written, not blended.)
            pygame.draw.polygon(layer, (*colour, POST_SIDES_ALPHA), hull)
            dashed_outline(layer, colour, hull, max(1, int(2 * s)), int(6 * s))
            for a, b in zip(post[:4], post[4:], strict=True):  # its edges up
                dashed(layer, colour, a, b, 1, int(4 * s))
            # its top more tinted than its sides, as a block's is lighter: one tint all
            # over, level 4's goal's pillar, seen from a slice kata, read as "a slanted gold
            # six-sided plate" (t288)
            pygame.draw.polygon(layer, (*colour, POST_TOP_ALPHA), post[:4])
            dashed_outline(layer, colour, post[:4], max(1, int(2 * s)), int(6 * s))
        if m.foot:
            # the cell's footprint on your floor, and a dashed line down (or up) to it
            # (dashed and faint: drawn solid and filled, a goal's footprint a row aside in the
            # both view read to two blind players as the goal itself)
            foot = [(fx - box.x, fy - box.y) for fx, fy in m.foot]
            pygame.draw.polygon(layer, (*colour, 35), foot)
            dashed_outline(layer, colour, foot, max(1, int(2 * s)), int(5 * s))
            mid = (sum(fx for fx, _ in foot) / 4, sum(fy for _, fy in foot) / 4)
            if not m.post:
                dashed(layer, colour, (cx, cy), mid, max(1, int(2 * s)), int(6 * s))
        if m.what == "goal":
            pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
            pygame.draw.polygon(layer, (10, 12, 18, 90), pts)
            pygame.draw.polygon(layer, colour, pts, thick)
        else:
            square = pygame.Rect(0, 0, int(r * 1.6), int(r * 1.6))
            square.center = (cx, cy)
            pygame.draw.rect(layer, (10, 12, 18, 90), square)
            pygame.draw.rect(layer, colour, square, thick)
        if not m.inside:
            # an arrow beyond it, pointing off the window toward where it is
            ang = math.atan2(m.at[1] - H / 2, m.at[0] - W / 2)
            far = r * 2.2
            tip = (cx + math.cos(ang) * far, cy + math.sin(ang) * far)
            left = (cx + math.cos(ang + 2.6) * r * 0.9 + math.cos(ang) * far,
                    cy + math.sin(ang + 2.6) * r * 0.9 + math.sin(ang) * far)
            right = (cx + math.cos(ang - 2.6) * r * 0.9 + math.cos(ang) * far,
                     cy + math.sin(ang - 2.6) * r * 0.9 + math.sin(ang) * far)
            pygame.draw.polygon(layer, colour, [tip, left, right])
        if pawn is not None:
            layer.fill((0, 0, 0, 0), pawn.move(-box.x, -box.y))
        ov.surface.blit(layer, box.topleft)


def window_in(quad, k: float = WINDOW_K, n: int = 28) -> list[tuple[float, float]]:
    """An ellipse's points (``n``) inside the four-cornered ``quad`` (a cell's face on
    screen, its corners in turn), ``k`` of the way from its middle to its sides' middles.

    >>> [(round(x, 3), round(y, 3)) for x, y in window_in([(0, 0), (2, 0), (2, 2), (0, 2)],
    ...                                                     1.0, 4)]
    [(2.0, 1.0), (1.0, 2.0), (0.0, 1.0), (1.0, 0.0)]
    """
    mid, u, v = _window_axes(quad, k)
    return [(float(x), float(y)) for x, y in (mid + math.cos(t) * u + math.sin(t) * v
                                              for t in (2 * math.pi * i / n for i in range(n)))]


def _window_axes(quad, k: float):
    """(the middle, the half-axis across, the half-axis down) of the round window ``k`` of
    the way to the sides of the four-cornered ``quad``: :func:`window_in`'s ellipse, and
    :func:`in_window`'s."""
    a, b, c, d = (np.asarray(p, float) for p in quad)
    return (a + b + c + d) / 4, ((b + c) - (d + a)) / 4 * k, ((c + d) - (a + b)) / 4 * k


def convex_hull(points) -> list:
    """The corners of the smallest convex shape round ``points``, in turn (a monotone
    chain).

    >>> convex_hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    """
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def half(seq):
        out: list = []
        for p in seq:
            while len(out) > 1 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]
    return half(pts) + half(reversed(pts))


def leader(words: pygame.Rect, to: pygame.Rect) -> tuple[tuple[int, int], tuple[int, int]]:
    """The line from moved words back to their place ``to`` (a shape's box, or the pawn's):
    from the point of ``to`` nearest the words to the point of the words nearest that."""
    end = (min(max(to.centerx, words.left), words.right - 1),
           min(max(to.centery, words.top), words.bottom - 1))
    start = (min(max(end[0], to.left), to.right - 1), min(max(end[1], to.top), to.bottom - 1))
    return start, end


def draw_lines(ov, placed: list[Placed], s: float, palette: str = "standard",
               pawn: pygame.Rect | None = None) -> None:
    """The line from each marker's moved words back to its shape; never over ``pawn`` (the
    pawn's box: a line to a shape just behind it runs from the words to the pawn's edge).
    Drawn before the step badges, which lie over any line that must cross one."""
    r = shape_half(s)
    for p in placed:
        if not p.moved:
            continue
        colour = colour_of(p.marker.what, palette)
        start, end = leader(p.words, shape_box(p.at, r))
        if pawn is not None:
            into = pawn.inflate(4, 4).clipline(start, end)
            if into:  # a shape just behind the pawn: from the pawn's edge on the words' side
                # (cut at the edge on the shape's side, the line lay inside the pawn's box,
                # and 2.7's goal words, moved under the pawn, had none a blind player saw)
                start = min(into, key=lambda q: math.dist(q, end))
        pygame.draw.line(ov.surface, colour, start, end, max(1, int(2 * s)))


def draw_words(ov, placed: list[Placed], s: float, palette: str = "standard",
               pawn: pygame.Rect | None = None, lines: bool = True) -> None:
    """The markers' words, each in its box (in the hidden axis's colour, on a dark ground),
    after their lines (:func:`draw_lines`)
    unless ``lines`` is False (the HUD draws those under the badges)."""
    if lines:
        draw_lines(ov, placed, s, palette, pawn)
    small = int(17 * s)
    for p in placed:
        if p.shared:
            continue  # (its words are drawn once, by the first of them)
        m = p.marker
        colour = colour_of(m.what, palette)
        words_colour = colour if m.hidden else views.axis_colours(palette)[views.AXES[m.axis]]
        ov.panel(p.words, (10, 12, 18, 150), 4)
        # rimmed in the thing's colour: a label of its own, by its shape or lined to it
        # (unrimmed, words just under a badge read as that badge's second line, and words
        # moved onto open floor as that floor's)
        pygame.draw.rect(ov.surface, colour, p.words, 1, border_radius=4)
        ov.text(p.text, p.words.center, small, words_colour, anchor="center")


#: The pawn's colour in the picture (the shaders' PLAYER_COLOUR): its hidden floor's dashes.
PAWN_COLOUR = (250, 77, 133)


#: The opacity of a marker's pillar's sides and top, in its colour (a ghost's: what is
#: behind it shows through).
POST_SIDES_ALPHA, POST_TOP_ALPHA = 40, 90


def dashed_outline(surface, colour, corners, width: int, dash: int,
                   avoid: pygame.Rect | None = None, hide=()) -> None:
    """The closed outline through ``corners`` (none where there are none), dashed; no dash
    inside ``avoid`` (the pawn's box), where given, nor with its middle in one of the convex
    polygons ``hide`` (what stands in front of the outline)."""
    for a, b in zip(corners, [*corners[1:], *corners[:1]], strict=True):
        dashed(surface, colour, a, b, width, dash, avoid, hide)


def inside_convex(point, polygon) -> bool:
    """Whether ``point`` lies inside the convex ``polygon`` (its corners in turn, either way
    round), or on its edge.

    >>> square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    >>> inside_convex((2, 2), square), inside_convex((5, 2), square)
    (True, False)
    """
    x, y = point
    sides = set()
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], *polygon[:1]], strict=True):
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if cross:
            sides.add(cross > 0)
    return len(sides) <= 1


def dashed(surface, colour, a, b, width: int, dash: int,
           avoid: pygame.Rect | None = None, hide=()) -> None:
    """A dashed line from ``a`` to ``b``; no dash that meets ``avoid``, where given (its
    width counted: a dash whose middle passed by the box's edge drew into it), nor one whose
    middle lies in a convex polygon of ``hide``."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1:
        return
    if avoid is not None:
        avoid = avoid.inflate(2 * width, 2 * width)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    d = 0.0
    while d < length:
        e = min(d + dash, length)
        start, end = (a[0] + ux * d, a[1] + uy * d), (a[0] + ux * e, a[1] + uy * e)
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        if (avoid is None or not avoid.clipline(start, end)) \
                and not any(inside_convex(middle, p) for p in hide):
            pygame.draw.line(surface, colour, start, end, width)
        d += 2 * dash


def draw_ring(ov, at: tuple[float, float], age: float, s: float) -> None:
    """The mark of a crate that just landed: a ring spreading from ``at`` and fading
    (``age``: 0 when it landed, 1 when the ring is gone)."""
    if not 0 <= age < 1:
        return
    r = int((12 + 34 * age) * s)
    alpha = int(255 * (1 - age) ** 0.7)
    layer = pygame.Surface((2 * r + 8, 2 * r + 8), pygame.SRCALPHA, 32)
    pygame.draw.circle(layer, (*CRATE_COLOUR, alpha), (r + 4, r + 4), r, max(2, int(4 * s)))
    ov.surface.blit(layer, (int(at[0]) - r - 4, int(at[1]) - r - 4))
