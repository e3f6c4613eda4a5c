"""Out-of-slice markers: where the goal and the crates are when the slice on screen misses them.

The picture is one 3D slice of a 4D room: a goal or a crate a slice ana of
you (in the stand view, where w is hidden) is simply not drawn.  In the
manner of 4D Golf's ball finder and 4D Miner's compass, the HUD marks
each such thing at the place on screen where it *would* be, were it in
the slice (its cell with the hidden coordinate made the player's), with a
line that says which way and how far along the hidden axis it lies:
``2 ana`` / ``1 kata`` for w, ``1 above`` / ``2 below`` for z,
``1 +y`` / ``1 -y`` for y.  A mark that would fall off the window is
pinned to its edge, with an arrow pointing out toward it.

The projection here is the ray tracer's own camera model (``slice.frag``:
``ndc = (2 px - size) / height``), so an object in the slice projects onto
the pixel where it is drawn (the tests hold it to that).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pygame

from anabasis.app.viewer.projection import projector, to_slice
from anabasis.picture import views

#: The words for each side of each hidden axis: (toward -, toward +).
SIDES = {0: ("-x", "+x"), 1: ("-y", "+y"), 2: ("below", "above"), 3: ("kata", "ana")}

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
    #: place on screen is the pawn's, so the marker stands beside the pawn, and says "of you"
    yours: bool = False

    @property
    def label(self) -> str:
        """Which way and how far: ``2 ana``, ``1 below``, ``1 +y``; ``1 kata of you`` for
        one in the pawn's own column (a blind player read such a marker, moved off the
        pawn, as the next cell's)."""
        return (f"{abs(self.offset)} {SIDES[self.axis][self.offset > 0]}"
                + (" of you" if self.yours else ""))


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
    nearest :data:`MOST_CRATE_MARKS` crates, where more are out of it).

    Only at rest (``b``'s hidden axis is a 4D axis): mid-turn the slice is
    oblique and nothing is cleanly in or out of it.  ``player`` is the drawn
    position; a thing is in the slice when its hidden coordinate is the
    player's, rounded.
    """
    axis, _ = views.axis_of(b[:, 3])
    if abs(b[axis, 3]) < 0.999:
        return []
    here = math.floor(player[axis] + 0.5)
    n = room.size[axis]
    wrap = room.wrap and axis == 3
    if wrap:
        here %= n
    out = []
    crates = _nearest_out(state.crates, axis, here, n, wrap, player)
    things = [("goal", room.goal)] + [("crate", c) for c in crates]
    for what, cell in things:
        offset = _offset(here, cell[axis], n, wrap)
        if offset == 0:
            continue
        put = list(cell)
        put[axis] = player[axis]  # into the slice: only where it is across it matters
        if room.wrap and axis != 3:
            # w in the slice of a wrapped room: the copy that is drawn, in the band of one turn
            # kata of the pawn (picture.pose.wrap_band), not the cell's own w beyond it
            W, pw = room.size[3], math.floor(player[3] + 0.5)
            put[3] = pw - (pw - cell[3]) % W
        x, y, depth = project(put, player, b, camera, size)
        w, h = size
        inside = depth > 0 and 0 <= x < w and 0 <= y < h
        yours = all(math.floor(float(a) + 0.5) == math.floor(float(p) + 0.5)
                    for i, (a, p) in enumerate(zip(put, player, strict=True)) if i != axis)
        out.append(Marker(what, tuple(cell), axis, offset, (x, y), inside, yours))
    return out


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


def place(ov, markers: list[Marker], s: float, top: int = 0, bottom: int | None = None,
          avoid=()) -> list[tuple[Marker, pygame.Rect, int]]:
    """Where each marker is drawn: ``(marker, its box with its words, how many it stands
    for)``.  Markers of the same thing and words within a marker's size of each other are
    merged into one (said ``×2``); the rest never overlap: a marker that would cover one
    placed before it (or a rectangle of ``avoid``, or reach below ``bottom`` or above
    ``top``) is stacked clear of it."""
    W, H = ov.size
    bottom = H if bottom is None else bottom
    small = int(17 * s)
    r = int(11 * s)
    margin = int(34 * s)
    placed: list[list] = []  # [marker, rect, count, (x, y) wanted]
    for m in markers:
        x, y = m.at
        if not m.inside:
            # pinned to the window's edge, on the line from the centre toward it
            dx, dy = x - W / 2, y - H / 2
            if abs(dx) + abs(dy) < 1e-6:
                dx = 1.0
            k = min((W / 2 - margin) / max(abs(dx), 1e-6), (H / 2 - margin) / max(abs(dy), 1e-6))
            x, y = W / 2 + dx * k, H / 2 + dy * k
        same = next((p for p in placed if p[0].what == m.what and p[0].label == m.label
                     and math.hypot(p[3][0] - x, p[3][1] - y) < 2 * r), None)
        if same is not None:
            same[2] += 1
            continue
        width = max(2 * r + 2, ov.width_of(f"↑ ×9 {m.label}", small) + 4)
        rect = pygame.Rect(0, 0, width, 2 * r + small + 4)
        rect.midtop = (int(x), int(y) - r)
        rect.top = max(rect.top, top + 2)
        rect.bottom = min(rect.bottom, bottom - 2)
        rect = clear_of(rect, [*(p[1] for p in placed), *avoid], top + 2, bottom - 2, W)
        placed.append([m, rect, 1, (x, y)])
    return [(m, rect, n) for m, rect, n, _ in placed]


def clear_of(rect: pygame.Rect, taken: list, top: int, bottom: int, width: int) -> pygame.Rect:
    """``rect``, or the nearest place to it (above, below or beside what it would cover)
    that covers nothing in ``taken`` and lies between ``top`` and ``bottom``."""
    def free(r):
        return (r.top >= top and r.bottom <= bottom and r.left >= 0 and r.right <= width
                and r.collidelist(taken) < 0)

    if free(rect):
        return rect
    tries = []
    for o in taken:
        tries += [rect.move(0, o.bottom + 2 - rect.top), rect.move(0, o.top - 2 - rect.bottom),
                  rect.move(o.right + 2 - rect.left, 0), rect.move(o.left - 2 - rect.right, 0)]
    # and past two in a row (stacked under or over a stack)
    tries += [t.move(0, o.bottom + 2 - t.top) for t in list(tries) for o in taken
              if t.colliderect(o)]
    tries = [t for t in tries if free(t)]
    if not tries:
        return rect
    return min(tries, key=lambda t: abs(t.x - rect.x) + abs(t.y - rect.y))


def draw(ov, markers: list[Marker], s: float, top: int = 0, bottom: int | None = None,
         avoid=(), palette: str = "standard") -> list[pygame.Rect]:
    """Draw ``markers`` into overlay ``ov`` (``s``: the UI scale; nothing above ``top`` or
    below ``bottom``, nothing over ``avoid``; ``palette``: the settings' colours); merged and
    stacked by :func:`place`.  Returns the boxes drawn."""
    W, H = ov.size
    small = int(17 * s)
    r = int(11 * s)
    out = []
    for m, rect, count in place(ov, markers, s, top, bottom, avoid):
        colour = colour_of(m.what, palette)
        axis_colour = views.axis_colours(palette)[views.AXES[m.axis]]
        cx, cy = rect.centerx, rect.top + r
        # a hollow shape of the thing (a diamond for the goal, a square for a crate)
        if m.what == "goal":
            pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
            pygame.draw.polygon(ov.surface, (10, 12, 18, 170), pts)
            pygame.draw.polygon(ov.surface, colour, pts, max(2, int(3 * s)))
        else:
            box = pygame.Rect(0, 0, int(r * 1.6), int(r * 1.6))
            box.center = (cx, cy)
            pygame.draw.rect(ov.surface, (10, 12, 18, 170), box)
            pygame.draw.rect(ov.surface, colour, box, max(2, int(3 * s)))
        if not m.inside:
            # an arrow beyond it, pointing off the window toward where it is
            ang = math.atan2(m.at[1] - H / 2, m.at[0] - W / 2)
            tip = (cx + math.cos(ang) * r * 2.2, cy + math.sin(ang) * r * 2.2)
            left = (cx + math.cos(ang + 2.6) * r * 0.9 + math.cos(ang) * r * 2.2,
                    cy + math.sin(ang + 2.6) * r * 0.9 + math.sin(ang) * r * 2.2)
            right = (cx + math.cos(ang - 2.6) * r * 0.9 + math.cos(ang) * r * 2.2,
                     cy + math.sin(ang - 2.6) * r * 0.9 + math.sin(ang) * r * 2.2)
            pygame.draw.polygon(ov.surface, colour, [tip, left, right])
        # which way along the hidden axis, and how far: an arrow up for ana/above/+
        arrow = "\u2191" if m.offset > 0 else "\u2193"
        many = f"\u00d7{count} " if count > 1 else ""
        ov.text(f"{arrow} {many}{m.label}", (cx, cy + r + 2), small, axis_colour,
                anchor="midtop")
        out.append(rect)
    return out


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
