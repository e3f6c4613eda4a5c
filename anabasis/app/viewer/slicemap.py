"""The slice map: every w slice of the room side by side, each a small plan seen from above.

The 3D picture shows one slice of a 4D room; the map shows them all at once,
w = 0 leftmost (wrapping onto more rows where the room has many slices).  In
each slice's plan (x across, y down the page, as in the level file):

- a column's shade says how high its top solid cell is (darker low, lighter
  high), and the height you stand at on it (the HUD's "height z": one over the
  block's) is written in the cell where the cell is big enough;
- a column of blocks up to the room's top is dark, hatched light (as the room's
  picture draws a wall's top) and has no number: nothing stands on it (a wall);
- a column with room to stand under its top (a floor under a shelf) has a dark
  notch in its lower left, with that lower height written in it;
- a column with nothing solid in it is a gap, dark with a dim ✕: you would fall
  out; over a ramp one slice kata, dark with that ramp's wedge dim in it (a step in
  goes down onto it); dark alone where a ramp beside it leans toward it (a step off
  its high side goes ana over it);
- a ramp is a wedge whose tip is its high side (the way you walk up it, toward
  ana), with the height you stand at on it written on the wedge;
- a crate is a brown square with a cross; the goal a gold diamond; the pawn a
  white disc with a dark ring; the slice the pawn is in is framed in gold
  and its label says "you";
- a line under the map says which way x and y run (x across, y down); in a
  room where w wraps it says so too, and an arrow after the last slice points
  back to the first;
- a crate resting on your head in w (just ana of you, held there by you and
  nothing else) is ringed in the pawn's white, in its own slice, with a white
  line from the pawn to it and "on your head" over its slice.

Nothing here needs a window or GL: a :class:`SliceMap` draws into a pygame
Surface (the room's static part once, the movers over a copy of it when they
move), so the game blits it over the frame as a cached overlay, and
``anabasis render SOURCE --map`` writes it to a PNG headless.  The editor
uses the same class: :meth:`SliceMap.picture` for its draft and
:meth:`SliceMap.cell_at` to turn a click into a cell.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import NamedTuple

import pygame

from anabasis.engine.cells import BLOCK, EMPTY, RAMP_LEAN, RAMPS
from anabasis.engine.moves import STEPS
from anabasis.engine.world import VOID, WALL, Room
from anabasis.picture import pose

#: The map's colours (RGB, alpha where given).
BACK = (10, 12, 18, 215)
LABEL = (200, 206, 220)
GOAL_EDGE = (72, 50, 12)  #: the dark edge the goal's gold diamond is drawn on
RULER = (140, 148, 168)  #: the large map's row and column numbers: dimmer than the labels
YOU = (255, 214, 102)  #: the frame of the pawn's slice, and the goal
GAP = (22, 24, 30)
PIT = (9, 9, 17)  #: a column you would slip kata off: the room's own pit colour
#: a pit's rim: lighter than every column's shade (a rim on any ground), darker than a
#: number's ink
PIT_RIM = (190, 196, 212)
#: a gap's ✕ (the "fall out" badge's glyph, dim): hatched, a gap read as the 3D picture's
#: hatched walls (two blind players: "hatch on the map = open, hatch in 3D = wall")
GAP_MARK = (150, 70, 74)
#: a pit's ✕ where you would fall out from it: brighter than a gap's, on the pit's black
OUT_MARK = (220, 90, 90)
#: how many slices a deep pit slips you (a bar a slice), on its black
DEEP_INK = (196, 200, 204)  #: (as light as the rim, not a number's ink)
CRATE = (214, 156, 92)
CRATE_EDGE = (70, 40, 15)
PAWN = (245, 248, 255)
PAWN_EDGE = (20, 24, 40)
RAMP_MARK = (250, 245, 220)
RAMP_INK = (20, 24, 34)  #: a ramp's height, on its wedge
#: a ramp one slice kata of a gap, its wedge drawn in the gap: the edge only, dim
RAMP_BELOW = (120, 126, 146)
WALL_EDGE = (28, 32, 44)  #: the edge of a column full to the room's top
WALL_FILL = (36, 40, 54)  #: its ground, darker than every shade, as the room's wall tops ...
WALL_HATCH = (128, 136, 158)  #: ... and its hatch, light
HOLLOW, HOLLOW_INK = (16, 18, 26), (200, 206, 220)  #: a space to stand under a column's top
HOLLOW_EDGE = (104, 110, 128)  #: ... its edge: dimmer than a pit's rim, seen on the darkest shade
DARK_INK, LIGHT_INK = (14, 17, 26), (240, 243, 250)  #: a number's, on light and dark shades
CURSOR = (90, 230, 255)  #: the editor's cursor
HEAD_WORDS = "on your head"  #: over the slice of a crate resting on the pawn's head in w
#: The shades of a column's top, from the lowest height to the highest.
LOW, HIGH = (58, 66, 84), (150, 162, 186)
#: The colour-blind-safe palette swaps what differs only by hue for shapes and
#: contrasts in blue and orange (Okabe and Ito's).
SAFE = {"YOU": (230, 159, 0), "CRATE": (213, 94, 0), "RAMP_MARK": (86, 180, 233),
        "LIFT": (240, 228, 66)}
#: the tip of a ramp that lifts you ana off it: the ramp-ana badge's colour
LIFT = (255, 214, 102)

MIN_CELL, MAX_CELL = 3, 26  #: a cell's side on the map, in pixels
#: The largest cell of the large map (its key): a small room's large map was no bigger than
#: its corner map, and a blind player found the key did nothing there.
LARGE_CELL = 56


def shade(z_top: int, Z: int) -> tuple[int, int, int]:
    """The colour of a column whose top solid cell is at ``z_top`` (of ``Z`` heights).

    >>> shade(0, 3), shade(2, 3)
    ((58, 66, 84), (150, 162, 186))
    """
    f = z_top / (Z - 1) if Z > 1 else 1.0
    return tuple(round(a + (b - a) * f) for a, b in zip(LOW, HIGH, strict=True))


def tag_size(cell: int) -> int:
    """The height of a step's tag on a map of cells of ``cell`` pixels."""
    return max(9, cell // 2 + 2)


def tag_out(size: int) -> int:
    """How far a step's tag of ``size`` pixels lies out over its cell's top and left edges
    (a third of it, and the pixel of the cell's edge)."""
    return 1 + size // 3


def lift(cell: int) -> int:
    """How far over the top of its cell a step's tag reaches (:func:`tag_out`), and a pixel
    more: the room a slice's name and "you" keep over its plan.  Over a top row's cell the
    tag lay on the slice's name, and three blind players read "w 1" as "w J" (t343, t350,
    t351), or lost "you" under it.

    >>> lift(9), lift(30)
    (5, 7)
    """
    return tag_out(tag_size(cell)) + 1


class Layout:
    """Where each slice and each cell of a room of ``size`` sits on a map that fits ``box``.

    Slices run left to right, w = 0 first, in as many rows as let the cells be
    largest; each slice has a label band above it, and the map has :attr:`foot` bands
    at its foot (the axes line and the key: two on the large map, whose key is long).
    All positions are in the map's own pixels, its top-left (0, 0).
    """

    def __init__(self, size, box: tuple[int, int], wrap: bool = False, most: int = MAX_CELL):
        X, Y, _, W = size
        self.room_size = tuple(size)
        self.wrap = wrap
        large = most >= LARGE_CELL
        #: the bands at the map's foot: the large map's key takes two more (a narrow map of
        #: a big room dropped its last items, the lit tips and the crate's frame, with one)
        self.foot = foot = 3 if large else 1
        #: the large map numbers each slice's columns under it and its rows left of it (blind
        #: players counted the cells of 9-12-wide rooms on screenshots to line slices up,
        #: and asked for the numbers in every round); 0: no rulers
        self.ruled = large
        bw, bh = box
        best = None
        for rows in range(1, W + 1):
            cols = math.ceil(W / rows)
            for cell in range(most, MIN_CELL - 1, -1):
                gap, label, pad = self._spacing(cell)
                rw, rh = self._rulers(cell, X, Y)
                width = 2 * pad + cols * (X * cell + rw) + (cols - 1) * gap + (
                    gap if wrap else 0)
                height = 2 * pad + rows * (label + lift(cell) + Y * cell + rh) \
                    + (rows - 1) * gap + foot * label
                if width <= bw and height <= bh:
                    if best is None or cell > best[0]:
                        best = (cell, rows, cols, width, height)
                    break
        if best is None:  # nothing fits: the smallest cells, in one row
            cell, rows, cols = MIN_CELL, 1, W
            gap, label, pad = self._spacing(cell)
            rw, rh = self._rulers(cell, X, Y)
            best = (cell, rows, cols, 2 * pad + W * (X * cell + rw) + (W - 1) * gap + (
                gap if wrap else 0), 2 * pad + (1 + foot) * label + lift(cell) + Y * cell + rh)
        self.cell, self.rows, self.cols, w, h = best
        self.gap, self.label, self.pad = self._spacing(self.cell)
        #: the room between a slice's label band and its plan, where a step's tag on a cell
        #: of its top row reaches (:func:`lift`)
        self.lift = lift(self.cell)
        #: the band over each slice's plan: its label's, then the lift
        self.band = self.label + self.lift
        #: the rulers' width (left of each slice) and height (under it), and their numbers'
        #: size, in pixels (0 where the map has none)
        self.ruler_w, self.ruler_h = self._rulers(self.cell, X, Y)
        self.ruler_size = self._ruler_size(self.cell) if self.ruled else 0
        self.size = (w, h)

    @staticmethod
    def _spacing(cell: int) -> tuple[int, int, int]:
        """(the gap between slices, the label band's height, the margin) for cells of ``cell``."""
        label = max(11, min(18, cell + 4))
        return max(6, cell // 2 + 4), label, 6

    @staticmethod
    def _ruler_size(cell: int) -> int:
        """The size of a ruler's numbers for cells of ``cell`` pixels."""
        return max(10, min(14, cell // 3 + 6))

    def _rulers(self, cell: int, X: int, Y: int) -> tuple[int, int]:
        """(the width of the row numbers' band left of a slice, the height of the column
        numbers' band under it) for cells of ``cell`` pixels: (0, 0) on a map unruled."""
        if not self.ruled:
            return 0, 0
        size = self._ruler_size(cell)
        digits = len(str(max(X, Y) - 1))
        return round(size * 0.62 * digits) + 7, size + 3

    def panel_rect(self, w: int) -> pygame.Rect:
        """Slice ``w``'s plan with its rulers (the row numbers left of it, the column
        numbers under it), without the label above it."""
        r = self.slice_rect(w)
        return pygame.Rect(r.x - self.ruler_w, r.y, r.width + self.ruler_w,
                           r.height + self.ruler_h)

    def slice_rect(self, w: int) -> pygame.Rect:
        """The plan of slice ``w`` (its cells, without the label above it or its rulers)."""
        X, Y, _, _ = self.room_size
        row, col = divmod(w, self.cols)
        left = self.pad + col * (X * self.cell + self.ruler_w + self.gap) + self.ruler_w
        top = self.pad + row * (self.band + Y * self.cell + self.ruler_h + self.gap) + self.band
        return pygame.Rect(left, top, X * self.cell, Y * self.cell)

    def cell_rect(self, x: int, y: int, w: int) -> pygame.Rect:
        """Column ``(x, y)`` of slice ``w``."""
        r = self.slice_rect(w)
        return pygame.Rect(r.x + x * self.cell, r.y + y * self.cell, self.cell, self.cell)

    def centre(self, x: float, y: float, w: int) -> tuple[float, float]:
        """The map pixel of the centre of (possibly fractional) column ``(x, y)`` in slice ``w``."""
        r = self.slice_rect(w)
        return r.x + (x + 0.5) * self.cell, r.y + (y + 0.5) * self.cell

    def cell_at(self, px: float, py: float) -> tuple[int, int, int] | None:
        """The ``(x, y, w)`` column under map pixel ``(px, py)``, or None (between slices).

        >>> lay = Layout((3, 2, 1, 2), (400, 200))
        >>> r = lay.cell_rect(2, 1, 1)
        >>> lay.cell_at(r.centerx, r.centery)
        (2, 1, 1)
        """
        for w in range(self.room_size[3]):
            r = self.slice_rect(w)
            if r.collidepoint(px, py):
                return (int((px - r.x) // self.cell), int((py - r.y) // self.cell), w)
        return None


#: The least cell, in pixels, a column's number is written in.
DIGITS_CELL = 14
#: From this many pixels a cell, the goal's number in its diamond says its axis ("z3").
GOAL_Z_CELL = 28

#: The pawn's radius on the map, as a part of a cell; and where a crate shares its column
#: (the pawn stands on it, or it rests on the pawn in z), smaller: the crate shows round it.
PAWN_SIZE, PAWN_ON_CRATE = 0.36, 0.2
#: A crate's square on a ramp's column, as a part of the cell: the wedge shows round it.
CRATE_ON_RAMP = 0.5

#: The movers glide across the map in steps of this part of a cell: a move's map is drawn
#: anew at most five times, however many frames draw its HUD (a GPU's window draws one a
#: frame), each a copy of the map and its upload.
MOVER_STEP = 0.25


def dashed_box(surface, colour, rect: pygame.Rect) -> None:
    """``rect``'s outline, one pixel, in three dashes an edge: at both corners and over its
    middle (a fifth of the edge each)."""
    left, top, right, bottom = rect.left, rect.top, rect.right - 1, rect.bottom - 1
    corners = ((left, top), (right, top), (right, bottom), (left, bottom))
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        for start, end in ((0.0, 0.2), (0.4, 0.6), (0.8, 1.0)):
            pygame.draw.line(surface, colour,
                             (round(ax + (bx - ax) * start), round(ay + (by - ay) * start)),
                             (round(ax + (bx - ax) * end), round(ay + (by - ay) * end)))


def _way(lean) -> str:
    """A ramp's lean as the map's axes say it: ``+x``, ``-y``..."""
    axis, sign = lean
    return f"{'+' if sign > 0 else '-'}{'xy'[axis]}"


def _stepped(position) -> tuple[float, ...]:
    """``position`` (fractional while it moves) to the nearest :data:`MOVER_STEP`.

    >>> _stepped((1.0, 2.4, 0.0, 0.874))
    (1.0, 2.5, 0.0, 0.75)
    """
    return tuple(round(float(v) / MOVER_STEP) * MOVER_STEP for v in position)


@cache
def _font(size: int):
    """The map's font with glyphs of ``size`` pixels (the map's sizes are the glyphs' own,
    not the UI's, which draws at FONT_SCALE of its sizes: three blind players could not read
    the map's numbers at that)."""
    from anabasis.app.shell.overlay import FONT_SCALE, shipped_font

    if not pygame.font.get_init():
        pygame.font.init()
    return shipped_font(round(size / FONT_SCALE))


def gap(surface, rect: pygame.Rect, crossed: bool = False, below=None) -> None:
    """A column with nothing in it: dark, with a small dim ✕ in its middle (you would fall
    out), but for one a ramp's step may cross (``crossed``: :meth:`SliceMap.ramp_crosses`):
    dark alone, and over a ramp one slice kata (``below``: its lean) that ramp's wedge in
    it, dim (blind players took a dark cell with nothing in it for a hole, and a start area
    for sealed in: the way out was a step down onto such a ramp)."""
    pygame.draw.rect(surface, GAP, rect)
    if below is not None:
        pygame.draw.polygon(surface, RAMP_BELOW, wedge_points(rect, below), 1)
    if crossed or below is not None:
        return
    cross(surface, rect, GAP_MARK)


def wedge_points(rect: pygame.Rect, lean) -> list[tuple[float, float]]:
    """A ramp's wedge in cell ``rect``: (its tip, the two ends of its base); ``lean`` is
    the ramp's (axis, sign), the tip on its high side."""
    axis, sign = lean
    c = rect.center
    h = rect.width * 0.38
    if axis == 0:
        return [(c[0] + sign * h, c[1]), (c[0] - sign * h, c[1] - h), (c[0] - sign * h, c[1] + h)]
    return [(c[0], c[1] + sign * h), (c[0] - h, c[1] - sign * h), (c[0] + h, c[1] - sign * h)]


def wall(surface, rect: pygame.Rect) -> None:
    """A column full to the room's top (square ``rect``): dark, hatched light, edged."""
    pygame.draw.rect(surface, WALL_FILL, rect)
    cell = rect.width
    step = max(4, cell // 3)
    for k in range(-cell + step // 2, cell, step):
        pygame.draw.line(surface, WALL_HATCH, (rect.x + max(k, 0), rect.y + max(-k, 0)),
                         (rect.x + min(cell, cell + k) - 1, rect.y + min(cell, cell - k) - 1))
    pygame.draw.rect(surface, WALL_EDGE, rect, 1)


def pit(surface, rect: pygame.Rect, out: bool = False) -> None:
    """A column you would slip kata off (square ``rect``, its ground drawn): a dark pit with
    a rim inside it, as the room's own picture draws one; where that slip ends out of the
    room (``out``), a gap's ✕ in it, as the picture draws a cross in such a pit (level 1's
    pits and level 5's bridge gap, the one deadly and the other a way on, looked alike to
    blind players, in the picture and on the map)."""
    cell = rect.width
    hole = rect.inflate(-max(2, cell * 2 // 7), -max(2, cell * 2 // 7))
    pygame.draw.rect(surface, PIT, hole, border_radius=max(1, cell // 8))
    pygame.draw.rect(surface, PIT_RIM, hole, max(1, cell // 12), border_radius=max(1, cell // 8))
    if out:
        cross(surface, hole, OUT_MARK)


def depth_bars(surface, rect: pygame.Rect, slices: int) -> None:
    """In a pit (cell ``rect``) you slip ``slices`` slices kata from, two or more: a short
    light bar for each, stacked in its middle (at most four; four or more, four)."""
    cell = rect.width
    n = min(slices, 4)
    # (a pixel each on the large map, two bars and three were told apart only by zooming a
    # screenshot, t280)
    # (narrow and dimmer than the rim, at a hard room's map size a pit with two bars read
    # as a plain one, and one crate went down it where two were needed, t340, t348: wider,
    # and as light as the rim)
    thick = max(1, cell // 9)
    gap = max(1, cell // 10)
    width = max(4, cell * 3 // 5)
    height = n * thick + (n - 1) * gap
    top = rect.centery - height // 2
    for i in range(n):
        pygame.draw.rect(surface, DEEP_INK, (rect.centerx - width // 2, top + i * (thick + gap),
                                             width, thick))


def held(surface, rect: pygame.Rect, colour) -> None:
    """A floor that a crate one slice kata holds up (cell ``rect``): framed along its edge
    in the crate's ``colour``, as the room's picture frames it.  Drawn as any floor, it
    turned into a pit when the crate moved, and four blind players were caught out; marked
    by a bar down the cell's left edge, three of the next five read the bar as a thin wall
    between two cells."""
    # (along the cell's own edge, not inset: inset, it was a square inside the cell, as a
    # pit's rim is)
    pygame.draw.rect(surface, colour, rect.inflate(-2, -2), max(2, rect.width // 9))


def cross(surface, rect: pygame.Rect, colour) -> None:
    """A ✕ in the middle of ``rect``: a gap's, or a pit's you would fall out from."""
    k = max(2, round(rect.width * 0.22))
    c = rect.center
    width = max(1, rect.width // 12)
    pygame.draw.line(surface, colour, (c[0] - k, c[1] - k), (c[0] + k, c[1] + k), width)
    pygame.draw.line(surface, colour, (c[0] - k, c[1] + k), (c[0] + k, c[1] - k), width)


def notch(surface, rect: pygame.Rect, side: int, slips: bool = False) -> pygame.Rect:
    """A space to stand under a column's top: a dark notch ``side`` pixels square in cell
    ``rect``'s lower left; rimmed as a pit where standing there you would slip kata.  Its
    rect."""
    box = pygame.Rect(rect.x, rect.bottom - side, side, side)
    radius = max(1, side // 3)
    if slips:
        pygame.draw.rect(surface, PIT, box, border_top_right_radius=radius)
        pygame.draw.rect(surface, PIT_RIM, box, max(1, rect.width // 12),
                         border_top_right_radius=radius)
    else:  # (a dim edge: with a light one, as a pit's rim, a blind player took every notch
        # in 2.6's map for one that slips; with none, two missed the notches on a dark shade)
        pygame.draw.rect(surface, HOLLOW, box, border_top_right_radius=radius)
        pygame.draw.rect(surface, HOLLOW_EDGE, box, 1, border_top_right_radius=radius)
    return box


def ramp_number_size(cell: int) -> int:
    """The glyph size of a ramp's height, in its corner: smaller than a column's number.

    >>> ramp_number_size(20), ramp_number_size(40)
    (11, 20)
    """
    # (at 0.42 of a cell, blind players found a ramp's height "small and dark")
    return max(11, round(cell * 0.5))


def number_size(cell: int) -> int:
    """The glyph size, in pixels, of a column's number in cells of ``cell`` pixels.

    >>> number_size(14), number_size(20), number_size(26)
    (9, 12, 16)
    """
    return max(9, round(cell * 0.6))


def ink_on(colour) -> tuple[int, int, int]:
    """Dark or light ink, whichever reads on ``colour`` (a column's shade).

    >>> ink_on(shade(0, 3)) == LIGHT_INK, ink_on(shade(2, 3)) == DARK_INK
    (True, True)
    """
    r, g, b = colour[:3]
    return DARK_INK if 0.299 * r + 0.587 * g + 0.114 * b > 118 else LIGHT_INK


@lru_cache(maxsize=256)
def _rendered(text: str, size: int, colour) -> pygame.Surface:
    """``text`` drawn in the map's font: once, however often a map is drawn again (the
    movers' picture writes "you" each time the pawn moves)."""
    return _font(size).render(text, True, colour)


def tone(w: int, palette: str = "standard") -> tuple[int, int, int]:
    """The tone slice ``w``'s blocks are drawn in, in the room (the palette's, as the shader's
    ``slice_tone``), in 0..255.

    >>> tone(0), tone(9) == tone(1)
    ((133, 148, 184), True)
    """
    colours = pose.PALETTES.get(palette, pose.PALETTES["standard"])
    return tuple(round(255 * c) for c in colours["tones"][w & 7])


def _text(surface, text: str, pos, size: int, colour, anchor: str = "topleft") -> pygame.Rect:
    img = _rendered(text, size, tuple(colour))
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


#: The key's words for a pit where some pits are two slices deep or more (:func:`depth_bars`;
#: its picture a plain pit, as its first words say: drawn with bars, a blind player read the
#: plain pits of the room as not the key's)
DEEP_WORDS = "slip kata 1; bars: 2+ slices"
#: The smallest text the map's key is drawn in, where it must shrink to fit (pixels).
KEY_LEAST = 11
#: The map's key along its foot (:meth:`SliceMap._draw_key`): each kind of cell, its words.
KEY = (("number", "z you'd stand at (1 up: climb)"), ("hollow", "a floor under a roof"),
       ("wall", "wall"),
       # (with no word of the fall, a blind player counted a step into one from its side
       # as a way down, t363)
       ("gap", "fall out"), ("below", "a ramp 1 kata: in at its tip, or fall out"),
       ("crossed", "a ramp steps over it"),
       ("pit", "slip kata"), ("out", "slip, fall out"), ("ramp", "ramp (tip: high side)"),
       ("lifts", "lit tip: off it you go ana"),
       # (a crate's rule too: planning on the large map, blind players found a goal two up
       # out of reach, the crate-step rule said only on the help's first page (t355); said
       # "stuck: a step up", it read as the only way up (t359), and as crates not moving
       # (t358))
       ("crate", "crate: push, or climb if stuck"),
       ("held", "floor a crate 1 kata holds"),
       ("tag", "where a step goes (\u2298: no move)"))


def axes_line(W: int, wrap: bool) -> str:
    """The line under the map: which way x and y run on it (a blind player found the map's
    y by the badges that fell out of the room), and where w wraps, that it does.

    >>> axes_line(4, True)
    'x →  y ↓   w wraps: ana of w 3 is w 0'
    """
    line = "x →  y ↓"
    return line + f"   w wraps: ana of w {W - 1} is w 0" if wrap else line


class SliceMap:
    """The slice map of ``room``, fitting ``box`` pixels.

    :meth:`picture` is the map with the movers where they are (cached: asked
    again with the same movers, it draws nothing); the room's static part is
    drawn once, in :attr:`base`.
    """

    def __init__(self, room: Room, box: tuple[int, int], palette: str = "standard",
                 most: int = MAX_CELL):
        self.room = room
        self.layout = Layout(room.size, box, room.wrap, most)
        self.palette = palette
        self.colours = {"YOU": YOU, "CRATE": CRATE, "RAMP_MARK": RAMP_MARK, "LIFT": LIFT}
        if palette == "safe":
            self.colours.update(SAFE)
        #: the kinds of cell (:data:`KEY`'s) the map shows, found as it is drawn (a number's
        #: always: the key's first word is what the map's numbers say)
        self.kinds: set[str] = {"number", "tag"}
        #: where the map's key lies along its foot (:meth:`_draw_key`), or None where it did
        #: not fit
        self.keyed: pygame.Rect | None = None
        #: the pits the base draws, (x, y, w): whether you fall out from each, and how many
        #: slices you slip (no crates: :meth:`depth`)
        self._pits: dict[tuple[int, int, int], tuple[bool, int]] = {}
        self._among: tuple | None = None  #: (crates, :meth:`_pits_among`'s answer)
        #: the ramps on the columns' tops, (x, y, w): whether a step off each lifts you ana
        #: (no crates); and (crates, the ramps whose answer the crates at rest change)
        self._ramps: dict[tuple[int, int, int], bool] = {}
        self._lifts_for: tuple | None = None
        # (a room with crates: a floor one holds up has the crate's frame, said in the key; a
        # blind player met it with no word of it there, and took it for a wall)
        if room.start.crates:
            # (and the crate itself: with the frame alone in the key, two blind players of a
            # round read the crates as floors a crate holds up)
            self.kinds |= {"crate", "held"}
        self._foot: tuple | None = None  #: (a width, :meth:`foot`'s picture for it)
        #: the kinds :meth:`foot`'s key shows (as many as fit its width)
        self.foot_kinds: list[str] = []
        self.base = self._draw_base()
        self._key = None
        self._picture: pygame.Surface | None = None
        self._still: tuple | None = None  #: (its crates, the map under a move's sprites)
        self._sprites: dict[str, pygame.Surface] = {}  #: the movers' small pictures

    @property
    def size(self) -> tuple[int, int]:
        return self.layout.size

    def cell_at(self, px: float, py: float) -> tuple[int, int, int] | None:
        """The ``(x, y, w)`` under map pixel ``(px, py)`` (see :meth:`Layout.cell_at`)."""
        return self.layout.cell_at(px, py)

    def top(self, x: int, y: int, w: int) -> tuple[int, int] | None:
        """(the height, the cell) of column ``(x, y)``'s top solid cell in slice ``w``; None
        for a gap."""
        room = self.room
        for z in range(room.size[2] - 1, -1, -1):
            c = room.cells[room.index((x, y, z, w))]
            if c == BLOCK or c in RAMPS:  # (an editor's draft holds its players as cells)
                return z, c
        return None

    def _kata(self, w: int) -> int:
        """The slice one kata of slice ``w``: round a wrapped w, else ``w - 1`` (-1: none)."""
        return (w - 1) % self.room.size[3] if self.room.wrap else w - 1

    def _solid(self, c, taken) -> bool:
        """Whether cell ``c`` holds a block, a ramp, the room's wall or one of ``taken`` (the
        crates at rest, normalised): what is in your way, and what holds you up."""
        code = self.room.cell(c)
        return code not in (EMPTY, VOID) or self.room.norm(c) in taken

    def ramp_below(self, x: int, y: int, w: int):
        """The lean of the ramp topping column ``(x, y)`` one slice kata of slice ``w``
        (a step into the column here may go down onto it), or None."""
        kata = self._kata(w)
        if 0 <= kata < self.room.size[3]:
            below = self.top(x, y, kata)
            if below is not None and below[1] in RAMPS:
                return RAMP_LEAN[below[1]]
        return None

    def ramp_under(self, x: int, y: int, w: int):
        """The lean of the ramp topping column ``(x, y)`` one slice kata of slice ``w``, where
        that column here is solid at the height you stand on that ramp: a step in from its
        tip's side is in your way in your slice, and takes you down onto the ramp (the rule
        book's ramp down), or None.  Drawn as a wall alone, 2.8's way down read as no way to
        two blind players (one took five hints)."""
        lean = self.ramp_below(x, y, w)
        if lean is None:
            return None
        room = self.room
        kata = self._kata(w)
        z = self.top(x, y, kata)[0] + 1  # the height you stand at on it
        if z >= room.size[2]:
            return None
        here = room.cell((x, y, z, w))
        if not (here == BLOCK or here in RAMPS) or room.cell((x, y, z, kata)) != EMPTY:
            return None
        return lean

    def ramp_crosses(self, x: int, y: int, w: int) -> bool:
        """Whether a ramp's step may cross gap column ``(x, y)`` of slice ``w``, so that a
        step into it need not fall out: a ramp in the column one slice kata (a step in from
        its high side goes down onto it), or a ramp beside it in the slice leaning toward it
        (a step off its high side goes ana over it).  Three blind players read such a gap's
        "fall out" as the whole truth and took a start area for sealed in."""
        return self.ramp_below(x, y, w) is not None or self._ramp_beside(x, y, w)

    def _ramp_beside(self, x: int, y: int, w: int) -> bool:
        """A ramp beside gap column ``(x, y)`` of slice ``w`` leans toward it (a step off its
        high side goes ana over it): one of the gaps the picture leaves uncrossed too
        (:func:`anabasis.picture.pose.crossed_gaps`)."""
        room = self.room
        return (x, y, w) in pose.gaps_ramps_cross(room.size, room.cells, room.wrap)[0]

    def hollows(self, x: int, y: int, w: int) -> tuple[int, ...]:
        """The heights under column ``(x, y)``'s top in slice ``w`` where you could stand: an
        open cell with a block or a ramp under it in z, lowest first.  The shade and the
        number say only the top; a blind player lost a floor under a shelf."""
        top = self.top(x, y, w)
        if top is None:
            return ()
        room = self.room
        solid = (BLOCK, *RAMPS)
        column = [room.cells[room.index((x, y, z, w))] for z in range(top[0])]
        return tuple(z for z in range(1, top[0])
                     if column[z] not in solid and column[z - 1] in solid)

    def number(self, x: int, y: int, w: int) -> int | None:
        """The number of column ``(x, y)`` of slice ``w``: the height you stand at on its
        top block (the HUD's "height z", one over the block's); None for a gap, a ramp (a
        wedge says a ramp) or a column full to the room's top (a wall: framed).  It is
        written in the column but where the column is a pit (:meth:`slips`)."""
        top = self.top(x, y, w)
        return None if top is None or top[1] != BLOCK or self.wall(x, y, w) else top[0] + 1

    def number_words(self, x: int, y: int, w: int) -> str:
        """:meth:`number` as the map writes it: the digits, and in the goal's diamond, in
        cells of :data:`GOAL_Z_CELL` pixels or more, its axis too (``z3``): a bare "3" there
        read to blind players as three slices, as the next cell's, or not at all.

        >>> from anabasis.formats import levels
        >>> room = levels.load_level(3)
        >>> SliceMap(room, (600, 300), most=40).number_words(1, 2, 1)
        'z1'
        >>> SliceMap(room, (600, 300), most=40).number_words(0, 2, 1)
        '1'
        """
        text = str(self.number(x, y, w))
        return f"z{text}" if self.layout.cell >= GOAL_Z_CELL and self._ringed((x, y, w)) \
            else text

    def wall(self, x: int, y: int, w: int) -> bool:
        """Whether column ``(x, y)`` of slice ``w`` is a block to the room's top: nothing
        stands on it (the map frames it and writes no number)."""
        top = self.top(x, y, w)
        return top is not None and top[1] == BLOCK and top[0] + 1 >= self.room.size[2]

    def describe(self, x: int, y: int, w: int, crates=(), player=None) -> str:
        """Column ``(x, y)`` of slice ``w`` in words, as the map draws it: where you would
        stand there and what holds you, among ``crates`` at rest; the pawn, a crate and the
        goal in it.  Said under the pointer (:func:`~anabasis.app.play.reading.draw_hover`):
        blind players planning big rooms on the large map counted 11-wide slices' cells on
        enlarged screenshots and decoded its small glyphs one by one.

        >>> from anabasis.formats import levels
        >>> room = levels.load_level(3)
        >>> smap = SliceMap(room, (600, 300))
        >>> print(smap.describe(2, 0, 1).replace(": ", ":\\n"))
        w 1 · x 2, y 0:
        a ramp, its tip toward +y:
        a floor from any side, at z 1; off its tip you go ana
        >>> smap.describe(1, 2, 1)
        'w 1 · x 1, y 2: floor: you stand at z 1 · the goal'
        >>> print(SliceMap(levels.load_level(2), (600, 300)).describe(2, 2, 2))
        w 2 · x 2, y 2: a pit at z 1: nothing holds you kata, you slip to w 1, z 1
        >>> print(smap.describe(0, 0, 0))
        w 0 · x 0, y 0: a wall to the room's top
        >>> print(smap.describe(1, 0, 1, [(1, 0, 1, 1), (1, 0, 2, 1)]).split(" · ")[-1])
        2 crates
        """
        head = f"w {w} · x {x}, y {y}: "
        taken = tuple(tuple(int(v) for v in c) for c in crates)
        top = self.top(x, y, w)
        if top is None:
            lean = self.ramp_below(x, y, w)
            if lean is not None:
                # (from elsewhere you fall the column's height and out: planning on the
                # map, two blind players took any step into it for one down the ramp, t352,
                # t353)
                words = (f"nothing here; a ramp 1 kata, its tip toward {_way(lean)}: step in"
                         " at its tip, down onto it; from elsewhere you fall out")
            elif self._ramp_beside(x, y, w):
                words = "nothing here; a ramp beside steps you ana over it"
            else:
                words = "nothing to stand on: you fall out"
        elif self.wall(x, y, w):
            words = "a wall to the room's top"
        elif top[1] in RAMPS:
            lean = RAMP_LEAN[top[1]]
            # (walked onto from any side, as a floor: two blind players stepped onto ramps
            # from the side only once their count matched par)
            words = (f"a ramp, its tip toward {_way(lean)}: a floor from any side, at z"
                     f" {top[0] + 1}")
            if self.lifts(x, y, w, taken):
                words += "; off its tip you go ana"
        elif self.slips(x, y, w, taken):
            words = f"a pit at z {top[0] + 1}: nothing holds you kata, "
            end = self.rests(x, y, w, taken)
            words += ("you slip and fall out" if end is None else
                      f"you slip to w {end[3]}, z {end[2]}")
        else:
            words = f"floor: you stand at z {top[0] + 1}"
            if not self.held_at(x, y, top[0] + 1, w) and self.held_at(x, y, top[0] + 1, w, taken):
                words += ", held by a crate 1 kata"
        if top is not None:
            down = self.ramp_under(x, y, w)
            if down is not None:
                words += f" · a ramp 1 kata, its tip toward {_way(down)}: step in at its tip"
        for z in self.hollows(x, y, w):
            words += f" · under it, a floor at z {z}"
        here = [c for c in taken if (c[0], c[1]) == (x, y) and self._slice_of(c[3]) == w]
        if here:
            words += f" · a crate at z {here[0][2]}" if len(here) == 1 else f" · {len(here)} crates"
        if player is not None and self._map_cell(player) == (x, y, w):
            words += " · you"
        gx, gy, _, gw = self.room.goal
        if (gx, gy, gw) == (x, y, w):
            words += " · the goal"
        return head + words

    # -- drawing ------------------------------------------------------------------

    def _draw_base(self) -> pygame.Surface:
        lay, room = self.layout, self.room
        X, Y, Z, W = room.size
        surface = pygame.Surface(lay.size, pygame.SRCALPHA, 32)
        surface.fill(BACK)
        for w in range(W):
            r = lay.slice_rect(w)
            name = _text(surface, f"w {w}", (r.x, r.y - lay.band + 1), lay.label - 3, LABEL)
            # the tone its blocks are drawn in, in the room: a square by its name (read as a
            # material, or a height, the tones were learnt from the help's second page, if
            # at all: t325, t332)
            side = max(5, (lay.label - 3) * 2 // 3)
            swatch = pygame.Rect(name.right + side // 2, name.centery - side // 2, side, side)
            pygame.draw.rect(surface, tone(w, self.palette), swatch)
            pygame.draw.rect(surface, LABEL, swatch, 1)
            for y in range(Y):
                for x in range(X):
                    rect = lay.cell_rect(x, y, w)
                    top = self.top(x, y, w)
                    if top is None:
                        below = self.ramp_below(x, y, w)
                        crossed = below is None and self._ramp_beside(x, y, w)
                        gap(surface, rect, crossed, below)
                        self.kinds.add("below" if below is not None else
                                       "crossed" if crossed else "gap")
                        continue
                    slips = self.slips(x, y, w)
                    out, deep = self.fall(x, y, w) if slips else (False, 0)
                    if slips:
                        self._pits[(x, y, w)] = (out, deep)
                    if top[1] in RAMPS:
                        self._ramps[(x, y, w)] = self.lifts(x, y, w)
                    self.kinds |= self._draw_column(surface, x, y, w, slips, out, deep=deep)
            pygame.draw.rect(surface, (0, 0, 0), r.inflate(2, 2), 1)
            if lay.ruled:
                self._draw_rulers(surface, r)
        gx, gy, _, gw = room.goal
        # (an editor's draft may hold its goal outside the room: no pit to show it in)
        in_room = 0 <= gx < X and 0 <= gy < Y and 0 <= gw < W
        self._diamond(surface, lay.cell_rect(gx, gy, gw), in_room and self.slips(gx, gy, gw))
        if room.wrap:
            last = lay.slice_rect(W - 1)
            ax = last.right + lay.gap // 2
            pygame.draw.line(surface, LABEL, (ax - lay.gap // 3, last.centery),
                             (ax + lay.gap // 3, last.centery), 2)
            _text(surface, "↻", (ax, last.centery - 2), lay.label, LABEL, "midbottom")
        first = lay.size[1] - lay.pad - (lay.foot - 1) * lay.label  # the first foot band's foot
        axes = _text(surface, axes_line(W, room.wrap), (lay.pad, first), lay.label - 3, LABEL,
                     "bottomleft")
        # (the large map: as much of its key as fits; a corner map all of it, or none)
        #: the kinds the key shows (the large map's: as many as fit)
        self.key_kinds = self._draw_key(surface, axes.right + 3 * lay.pad,
                                        lay.size[0] - lay.pad, first, lay.label - 3,
                                        some=lay.ruled)
        return surface

    def _draw_rulers(self, surface, r: pygame.Rect) -> None:
        """Slice plan ``r``'s rulers: each column's x under it, each row's y left of it
        (every other one, where a cell is too narrow for two digits)."""
        lay = self.layout
        X, Y = self.room.size[:2]
        size, cell = lay.ruler_size, lay.cell
        every = 1 if cell >= lay.ruler_w - 5 or max(X, Y) <= 10 else 2
        for x in range(0, X, every):
            _text(surface, str(x), (r.x + x * cell + cell // 2, r.bottom + 3), size, RULER,
                  "midtop")
        for y in range(0, Y, every):
            _text(surface, str(y), (r.x - 5, r.y + y * cell + cell // 2), size, RULER,
                  "midright")

    @property
    def foot_top(self) -> int:
        """The top of the map's foot (its axes line and key), in its pixels."""
        lay = self.layout
        return lay.size[1] - lay.pad - lay.foot * lay.label

    def foot(self, width: int) -> pygame.Surface:
        """The map's foot drawn anew ``width`` pixels wide: its axes line and key, laid out
        for that width, as much of the key as fits (the nearer map shows a part of the map,
        and its key, laid out for the whole, was cut off there, a glyph's half left; the
        help's legend has every item).  Kept for the last width asked."""
        if self._foot is not None and self._foot[0] == width:
            return self._foot[1]
        lay = self.layout
        surface = pygame.Surface((width, lay.size[1] - self.foot_top), pygame.SRCALPHA, 32)
        surface.fill(BACK)
        first = surface.get_height() - lay.pad - (lay.foot - 1) * lay.label
        axes = _text(surface, axes_line(self.room.size[3], self.room.wrap), (lay.pad, first),
                     lay.label - 3, LABEL, "bottomleft")
        keyed = self.keyed  # (the whole map's key stays where it is)
        self.foot_kinds = self._draw_key(surface, axes.right + 3 * lay.pad, width - lay.pad,
                                         first, lay.label - 3, some=True)
        self.keyed = keyed
        self._foot = (width, surface)
        return surface

    def _key_rows(self, items, left: int, right: int, cell: int, space: int):
        """:meth:`_draw_key`'s items in rows of the foot's bands: the first right of the axes
        line (from ``left``), the next across the whole foot; None where they do not fit."""
        rows, row, x = [], [], left
        for item in items:
            wide = cell + space + item[1].get_width()
            if row and x + wide > right:
                rows.append(row)
                row, x = [], self.layout.pad
            if x + wide > right:
                return None
            row.append((x, item))
            x += wide + 3 * cell
        rows.append(row)
        return rows if len(rows) <= self.layout.foot else None

    def _draw_key(self, surface, left: int, right: int, bottom: int, size: int,
                  some: bool = False) -> list[str]:
        """The map's own key along its foot, right of the axes line (going on in the band
        under it, where the map has two: the large map), where it fits: a small picture of
        each kind of cell and what it says (:data:`KEY`).  Blind players met the ✕ and the
        pits with no word of what they were, learning them by stepping, or never (the help's
        legend was never opened).  ``bottom``: the first band's foot."""
        space = 4
        deep = "deep" in self.kinds  # (pits two slices deep or more: one item with the pit's)

        def laid(size: int):
            cell = max(8, size)
            items = [(kind, _rendered(DEEP_WORDS if deep and kind == "pit" else words, size,
                                      LABEL))
                     for kind, words in KEY if kind in self.kinds]
            return cell, items, self._key_rows(items, left, right, cell, space)

        cell, items, rows = laid(size)
        if rows is None and some:
            # smaller words before fewer items: the last items ("floor a crate 1 kata
            # holds", "where a step goes") fell off two hard rooms' large maps, and their
            # blind players took the crate-held floors for targets or pressure plates
            for smaller in range(size - 1, max(KEY_LEAST, size - 4) - 1, -1):
                smaller_laid = laid(smaller)
                if smaller_laid[2] is not None:
                    size, (cell, items, rows) = smaller, smaller_laid
                    break
        while rows is None and some and len(items) > 1:  # (the first that fit, where asked)
            items = items[:-1]
            rows = self._key_rows(items, left, right, cell, space)
        if rows is None:
            return []
        self.keyed = None
        for r, row in enumerate(rows):
            foot = bottom + r * self.layout.label
            last_x, last = row[-1]
            band = pygame.Rect(row[0][0], foot - cell,
                               last_x + cell + space + last[1].get_width() - row[0][0], cell)
            self.keyed = band if self.keyed is None else self.keyed.union(band)
            for x, (kind, img) in row:
                self._key_item(surface, pygame.Rect(x, foot - cell, cell, cell), kind, img,
                               space, size)
        return [kind for kind, _ in items]

    def _key_item(self, surface, box: pygame.Rect, kind: str, img, space: int,
                  size: int) -> None:
        """One of the key's items: the picture of its kind of cell in ``box``, its words."""
        cell = box.width
        if kind == "number":
            pygame.draw.rect(surface, shade(1, 3), box)
            _text(surface, "1", (box.centerx + 1, box.bottom + 1), size, ink_on(shade(1, 3)),
                  "midbottom")
        elif kind == "hollow":
            pygame.draw.rect(surface, shade(2, 3), box)
            notch(surface, box, max(6, cell * 3 // 5))
        elif kind == "wall":
            wall(surface, box)
        elif kind in ("gap", "below", "crossed"):
            gap_cell = box.inflate(4, 4)
            gap_cell.center = box.center
            gap(surface, gap_cell, kind == "crossed", (0, 1) if kind == "below" else None)
        elif kind == "tag":
            pygame.draw.rect(surface, shade(1, 3), box)
            self._mark(surface, box.inflate(-max(2, cell // 3), -max(2, cell // 3)).move(
                cell // 4, cell // 4), TAG_SAMPLE, size)
        elif kind == "lifts":
            pygame.draw.rect(surface, shade(0, 3), box)
            self._wedge(surface, box, (0, 1), lit=True)
            self._lit_tip(surface, box, (0, 1))
        elif kind == "held":
            pygame.draw.rect(surface, shade(1, 3), box)
            held(surface, box, self.colours["CRATE"])
        elif kind == "crate":  # as the movers' layer draws one
            pygame.draw.rect(surface, shade(1, 3), box)
            inner = box.inflate(-2, -2)
            pygame.draw.rect(surface, self.colours["CRATE"], inner)
            pygame.draw.rect(surface, CRATE_EDGE, inner, max(1, cell // 9))
            pygame.draw.line(surface, CRATE_EDGE, inner.topleft, inner.bottomright)
            pygame.draw.line(surface, CRATE_EDGE, inner.topright, inner.bottomleft)
        elif kind in ("pit", "out"):
            pygame.draw.rect(surface, shade(1, 3), box)
            pit(surface, box, kind == "out")
        else:  # a ramp's wedge
            pygame.draw.rect(surface, shade(0, 3), box)
            self._wedge(surface, box, (0, 1))
        surface.blit(img, img.get_rect(midleft=(box.right + space, box.centery)))

    def slips(self, x: int, y: int, w: int, crates=()) -> bool:
        """Standing on column ``(x, y)``'s top block in slice ``w`` you would slip kata: the
        cell kata of where you would stand holds nothing (no block, ramp or one of
        ``crates``), as the rule book's "held from kata" reads (a ramp top always holds).
        False for a gap, a ramp, or a column full to the ceiling."""
        top = self.top(x, y, w)
        if top is None or top[1] != BLOCK or top[0] + 1 >= self.room.size[2]:
            return False
        return not self.held_at(x, y, top[0] + 1, w, crates)

    def _pits_among(self, crates: tuple) -> list[tuple[int, int, int, bool, int]]:
        """The base's pits (``x, y, w``) that ``crates`` at rest leave pits but change
        whether you fall out from, or how deep, each with its answers among them (:meth:`fall`;
        kept for the last ``crates``: asked again each move)."""
        if self._among is None or self._among[0] != crates:
            changed = []
            for (x, y, w), was in self._pits.items():
                if self.slips(x, y, w, crates):
                    now = self.fall(x, y, w, crates)
                    if now != was:
                        changed.append((x, y, w, *now))
            self._among = (crates, changed)
        return self._among[1]

    def fall(self, x: int, y: int, w: int, crates=()) -> tuple[bool, int]:
        """(:meth:`out`, :meth:`depth`) of column ``(x, y)`` of slice ``w`` among ``crates``,
        from one walk of :meth:`rests`."""
        end = self.rests(x, y, w, crates)
        if end is None:
            return self.top(x, y, w) is not None, 0
        down = w - end[3]
        return False, down % self.room.size[3] if self.room.wrap else down

    def depth(self, x: int, y: int, w: int, crates=()) -> int:
        """How many slices kata a pawn put on column ``(x, y)``'s top in slice ``w`` slips
        before it comes to rest, among ``crates`` at rest (:meth:`rests`); 0 where it does
        not slip or falls out.

        >>> from anabasis.formats import levels
        >>> smap = SliceMap(levels.load_level(2), (600, 300))
        >>> smap.depth(2, 2, 2), smap.depth(0, 0, 2)
        (1, 0)
        """
        return self.fall(x, y, w, crates)[1]

    def out(self, x: int, y: int, w: int, crates=()) -> bool:
        """Standing on column ``(x, y)``'s top in slice ``w``, among ``crates`` at rest, you
        would fall out of the room; for a pit (:meth:`slips`).  The rule book's settling of
        one mover, walked here as the picture's shader walks it (``rules.falls_out`` says
        the same of a room; the editor's drafts, which need not be rooms, have their map
        too): down while the cell below is free, else kata while nothing holds you there and
        the cell kata is free, until you rest or leave the room (or, round a wrapped w, make
        W kata steps with no z step between: the endless fall)."""
        return self.fall(x, y, w, crates)[0]

    def rests(self, x: int, y: int, w: int, crates=()) -> tuple[int, int, int, int] | None:
        """Where a pawn put on column ``(x, y)``'s top in slice ``w`` comes to rest, among
        ``crates`` at rest (:meth:`out`'s walk); None where it falls out of the room, or
        the column is a gap."""
        top = self.top(x, y, w)
        if top is None:
            return None
        room = self.room
        taken = {room.norm(tuple(c)) for c in crates}

        def solid(c):
            return self._solid(c, taken)

        p, run, W = (x, y, top[0] + 1, w), 0, room.size[3]
        while True:
            below = (p[0], p[1], p[2] - 1, p[3])
            if room.cell(below) == VOID:
                return None
            if not solid(below):
                p, run = below, 0
                continue
            if room.cell(below) in RAMPS:
                return p  # a ramp under you holds you from kata
            kata = (p[0], p[1], p[2], p[3] - 1)
            if room.cell(kata) == VOID:
                return None
            if solid(kata):
                return p
            p, run = room.norm(kata), run + 1
            if room.wrap and run >= W:
                return None

    def held_at(self, x: int, y: int, z: int, w: int, crates=()) -> bool:
        """Whether a pawn at ``(x, y, z, w)`` is held from kata: a ramp under it in z, or a
        block, a ramp, the room's wall or one of ``crates`` kata of it."""
        room = self.room
        if z > 0 and room.cell((x, y, z - 1, w)) in RAMPS:
            return True
        kata = (x, y, z, self._kata(w))
        held = room.cell(kata)
        return held == BLOCK or held in RAMPS or held == WALL or kata in crates

    def _draw_column(self, surface, x: int, y: int, w: int, slips: bool,
                     out: bool = False, crates=(), deep: int | None = None) -> set[str]:
        """Column ``(x, y)`` of slice ``w`` (not a gap): its top's shade, a ramp's wedge or
        the block's number, and where you would slip kata off it (``slips``) a dark pit with a
        rim inside it and no number, as the room's own picture draws one (a blind player read
        a numbered cell with nothing kata as a floor).  The kinds of cell (:data:`KEY`'s) it
        drew."""
        lay = self.layout
        rect = lay.cell_rect(x, y, w)
        z, c = self.top(x, y, w)
        cell = lay.cell
        ground = shade(z, self.room.size[2])
        pygame.draw.rect(surface, ground, rect)
        numbered = False
        walled = self.wall(x, y, w)
        if c in RAMPS:
            lit = self.lifts(x, y, w, crates)
            self._wedge(surface, rect, RAMP_LEAN[c], lit)
            if lit:
                self._lit_tip(surface, rect, RAMP_LEAN[c])
                self.kinds.add("lifts")
            if cell >= DIGITS_CELL:
                # the height you stand at on it, small on the wedge (two blind players planned
                # a hard room guessing a ramp's height: the map wrote none; written by the
                # tip, in a corner of the cell, a blind player read it as the next cell's)
                _text(surface, str(z + 1), self.ramp_number_at(rect, RAMP_LEAN[c]),
                      ramp_number_size(cell), RAMP_INK, "center")
        elif walled:
            # full to the room's top: nothing stands on it, so no number (a blind player
            # took a column full to the top for a step and was refused each climb); dark,
            # hatched light, as the room's own picture draws a wall's top (drawn in the top's
            # light shade, framed, a blind player read the walls on the map as floor)
            wall(surface, rect)
        elif slips:
            # no number: nothing holds you there (a blind player read the pits' numbers,
            # light on black, as floors to stand on, and as the notches under a top); where
            # you slip two slices or more, a bar in it for each slice (two blind players
            # traced each pit's drop slice by slice, and asked for it; written "↓2", at the
            # map's size it read as "12")
            pit(surface, rect, out)
            if deep is None:  # (how many slices you slip, where the caller has not said)
                deep = 0 if out else self.depth(x, y, w, crates)
            if deep >= 2:
                depth_bars(surface, rect, deep)
                self.kinds.add("deep")
        else:
            numbered = cell >= DIGITS_CELL
        under = self.hollows(x, y, w)
        if numbered:
            # over a notch the top's number goes up to the top right, the notch's stays low
            # (side by side, a notch's "1" and a top's "3" read as "13")
            # (low and in the middle, not in the lower right: a blind player read a "1" by
            # the cell's right edge as the next cell's)
            corner, anchor = ((rect.right - 1, rect.top + 1), "topright") if under else \
                ((rect.centerx + 1, rect.bottom + 1), "midbottom")
            size = number_size(cell)
            if self._ringed((x, y, w)):  # the goal's: smaller, in the middle of its diamond
                corner, anchor, size = (rect.centerx + 1, rect.centery + 1), "center", \
                    max(9, round(size * 0.7))
            _text(surface, self.number_words(x, y, w), corner, size, ink_on(ground), anchor)
        if under:  # last, whole over a pit or a wall's frame (a blind player lost one under)
            self._hollow(surface, rect, under, not self.held_at(x, y, under[0], w, crates))
        kind = "ramp" if c in RAMPS else "wall" if walled else \
            ("out" if out else "pit") if slips else "number"
        kinds = {kind, "hollow"} if under else {kind}
        down = self.ramp_under(x, y, w)
        if down is not None:  # (over the column: a step in from the tip goes down onto it)
            pygame.draw.polygon(surface, RAMP_BELOW, wedge_points(rect, down), max(1, cell // 14))
            kinds.add("below")
        return kinds

    def _hollow(self, surface, rect: pygame.Rect, heights: tuple[int, ...],
                slips: bool = False) -> None:
        """A space to stand under the column's top: a dark notch in the cell's lower left
        (the top left is a step mark's; the top's number is at the top right), with the lowest
        such height written in it where the cell is big enough; where standing there you
        would slip kata (``slips``), a pit's rim round it and no number, as a pit has none (a
        blind player took a floor that holds and one that slips, both notched "1", alike)."""
        cell = self.layout.cell
        side = max(3, cell // 2 if cell >= DIGITS_CELL else cell * 2 // 5)
        box = notch(surface, rect, side, slips)
        if not slips and cell >= DIGITS_CELL:
            _text(surface, str(heights[0]), box.center, max(8, side), HOLLOW_INK, "center")

    @staticmethod
    def ramp_number_at(rect: pygame.Rect, lean) -> tuple[int, int]:
        """Where a ramp's height is written: the middle of its wedge (:func:`wedge_points`),
        a little toward the base, where the wedge is widest."""
        points = wedge_points(rect, lean)
        return (round(sum(p[0] for p in points) / 3), round(sum(p[1] for p in points) / 3))

    def _wedge(self, surface, rect: pygame.Rect, lean, lit: bool = False) -> None:
        """A ramp: a wedge whose tip is its high side (the way up it, toward ana); where its
        tip lifts you ana (``lit``), the wedge is filled in the lit tip's colour too (the bar
        alone, on the cell's edge, a blind player read as the next cell's)."""
        points = wedge_points(rect, lean)
        fill = self.colours["LIFT"] if lit else self.colours["RAMP_MARK"]
        pygame.draw.polygon(surface, fill, points)
        pygame.draw.polygon(surface, RAMP_INK, points, 1)

    def lifts(self, x: int, y: int, w: int, crates=()) -> bool:
        """Standing on column ``(x, y)``'s top in slice ``w``, a ramp, a step off its tip
        (along its lean) takes you one slice ana, among ``crates`` at rest: the rule book's
        ramp up, walked here (an editor's draft need not be a room the engine takes).  Off
        a tip onto open floor or the next ramp you walk in your slice, and blind players in
        every round could not tell from the map which of level 7's ramps lift you."""
        room = self.room
        top = self.top(x, y, w)
        if top is None or top[1] not in RAMPS:
            return False
        axis, sign = RAMP_LEAN[top[1]]
        here = [x, y, top[0] + 1, w]
        if top[0] + 1 >= room.size[2]:
            return False
        crates = {room.norm(tuple(int(v) for v in c)) for c in crates}

        def at(c, d=(0, 0, 0, 0)):
            return tuple(a + b for a, b in zip(c, d, strict=True))

        def solid(c):
            return self._solid(c, crates)

        def free(c):
            return room.cell(c) == EMPTY and room.norm(c) not in crates

        if not free(tuple(here)):
            return False
        step = [0, 0, 0, 0]
        step[axis] = sign
        ahead = at(here, step)
        pushable = room.norm(ahead) in crates and free(at(ahead, step)) \
            if room.cell(ahead) == EMPTY else False
        in_way = solid(ahead) and not pushable
        no_floor = free(ahead) and not solid(at(ahead, (0, 0, -1, 0)))
        return (in_way or no_floor) and free(at(ahead, (0, 0, 0, 1)))

    def _lit_tip(self, surface, rect: pygame.Rect, lean) -> None:
        """A ramp whose tip lifts you ana (:meth:`lifts`): a bar along the cell's edge at
        its tip, in the ramp-ana badge's colour."""
        axis, sign = lean
        width = max(2, rect.width // 7)
        end = rect.width // 5  # (the corners left clear: a step's tag lies on one)
        if axis == 0:
            x = rect.right - width if sign > 0 else rect.x
            bar = pygame.Rect(x, rect.y + end, width, rect.height - 2 * end)
        else:
            y = rect.bottom - width if sign > 0 else rect.y
            bar = pygame.Rect(rect.x + end, y, rect.width - 2 * end, width)
        pygame.draw.rect(surface, self.colours["LIFT"], bar)

    def _ringed(self, cell: tuple[int, int, int]) -> bool:
        """Whether ``cell`` (x, y, w) is the goal's, on a block's top with its number in the
        middle (no notch under it, no pit): the diamond goes round the number."""
        gx, gy, _, gw = self.room.goal
        x, y, w = cell
        if (x, y, w) != (gx, gy, gw) or self.layout.cell < DIGITS_CELL \
                or not self.room.inside(self.room.goal):  # (an editor's draft may have none)
            return False
        top = self.top(x, y, w)
        return (top is not None and top[1] == BLOCK and not self.wall(x, y, w)
                and not self.slips(x, y, w) and not self.hollows(x, y, w))

    def _diamond(self, surface, rect: pygame.Rect, in_pit: bool = False) -> None:
        """The goal's diamond in ``rect``; small in the middle of a pit (``in_pit``), so that
        the pit's rim shows round it: a blind player walked onto 3.4's goal, whose pit the
        diamond covered, and slipped.  Where the cell is big enough for its number, the
        diamond goes round the cell's middle, its number smaller inside it (:meth:`_ringed`;
        two blind players could not read the goal's floor under a diamond over the number,
        and drawn small in the cell's upper part, two took it for the row's above); over a
        notch or a ramp, small in the upper part, clear of the numbers."""
        c, h = rect.center, max(2, rect.width // 2 - 1)
        gx, gy, _, gw = self.room.goal
        ringed = not in_pit and self._ringed((gx, gy, gw))
        if in_pit:
            h = max(2, rect.width // 4)
        elif ringed:
            h = max(2, rect.width // 2 - 2)  # (round the middle: the number inside it)
        elif rect.width >= DIGITS_CELL:
            # (reaching half down the cell, its foot lay on the number's top: a blind player
            # could not tell the goal's floor under it)
            h = max(2, round(rect.width * 0.19))
            c = (rect.x + round(rect.width * 0.5), rect.y + round(rect.height * 0.23))
        points = [(c[0], c[1] - h), (c[0] + h, c[1]), (c[0], c[1] + h), (c[0] - h, c[1])]
        width = max(1, rect.width // (12 if ringed else 7))
        # on a dark edge: thin and gold on a high column's light shade, a blind player took
        # hard.okapi's goal for a grey diamond, some other thing
        if not in_pit:  # (a pit's black is edge enough)
            pygame.draw.polygon(surface, GOAL_EDGE, points, width + 2)
        pygame.draw.polygon(surface, self.colours["YOU"], points, width)

    def on_head(self, player, crates) -> tuple | None:
        """The crate resting on the head of a pawn at rest at ``player`` in w: the crate just
        ana of it, held from kata by the pawn alone (no ramp under it); None if none, or
        while anything is between cells."""
        if player is None:
            return None
        if any(float(v) != int(v) for v in player):
            return None
        at_rest = [tuple(int(v) for v in c) for c in crates
                   if all(float(v) == int(v) for v in c)]
        return self.room.on_head(tuple(int(v) for v in player), at_rest)

    def picture(self, player, crates=(), marks=(), cursor=None,
                head: bool = True) -> pygame.Surface:
        """The map with the pawn at ``player`` (None: no pawn) and ``crates`` (4D positions,
        fractional while they move), the step ``marks``
        (:class:`~anabasis.app.play.stepmarks.Mark`) on the cells they go toward, and the
        editor's ``cursor`` boxed; with ``head``, a crate resting on the pawn's head is
        tagged (:meth:`on_head`).  The same again: the same Surface, not redrawn."""
        if player is not None:
            player = _stepped(player)
        crates = tuple(_stepped(c) for c in crates)
        key = (player, crates, tuple(marks), cursor, head)
        if key == self._key and self._picture is not None:
            return self._picture
        lay = self.layout
        W = self.room.size[3]
        surface = self.base.copy()
        cell = lay.cell
        # a crate at rest kata of a pit's standing cell holds it: that column drawn held
        resting = [tuple(int(v) for v in c) for c in crates
                   if all(float(v) == int(v) for v in c)]
        for cx, cy, cz, cw in resting:
            w_ana = cw + 1
            if self.room.wrap:
                w_ana %= W
            if w_ana >= W:
                continue
            top_held = self.slips(cx, cy, w_ana) and not self.slips(cx, cy, w_ana, resting)
            # (or a notch under the column's top at the crate's height: a blind player stood
            # on 2.4's, held by the crate, and the map still drew it rimmed, a pit)
            under = self.hollows(cx, cy, w_ana)
            notch_held = bool(under) and under[0] == cz and not self.held_at(
                cx, cy, cz, w_ana) and self.held_at(cx, cy, cz, w_ana, resting)
            if top_held or notch_held:
                slips = self.slips(cx, cy, w_ana, resting)
                self._draw_column(surface, cx, cy, w_ana, slips,
                                  slips and self.out(cx, cy, w_ana, resting), resting)
                held(surface, lay.cell_rect(cx, cy, w_ana), self.colours["CRATE"])
                gx, gy, _, gw = self.room.goal
                if (gx, gy, gw) == (cx, cy, w_ana):
                    self._diamond(surface, lay.cell_rect(gx, gy, gw))
        key_crates = tuple(sorted(resting))
        if self._lifts_for is None or self._lifts_for[0] != key_crates:
            self._lifts_for = (key_crates, [c for c, up in self._ramps.items()
                                            if self.lifts(*c, resting) != up])
        for x, y, w in self._lifts_for[1]:  # a crate beyond a ramp's tip changes it
            self._draw_column(surface, x, y, w, self.slips(x, y, w, resting),
                              self.out(x, y, w, resting), resting)
        for x, y, w, out, deep in self._pits_among(key_crates):
            # a pit whose fall the crates stop, shorten, or send out of the room
            self._draw_column(surface, x, y, w, True, out, resting, deep)
            gx, gy, _, gw = self.room.goal
            if (gx, gy, gw) == (x, y, w):
                self._diamond(surface, lay.cell_rect(gx, gy, gw), True)
        X, Y = self.room.size[:2]
        for c in crates:
            w = self._slice_of(c[3])
            cx, cy = lay.centre(c[0], c[1], w)
            # in a ramp's column, small, the wedge round it (a blind player took the ramp
            # under a crate for gone)
            x, y = math.floor(c[0] + 0.5), math.floor(c[1] + 0.5)
            top = self.top(x, y, w) if 0 <= x < X and 0 <= y < Y else None
            side = max(3, round(cell * CRATE_ON_RAMP) if top and top[1] in RAMPS else cell - 4)
            box = pygame.Rect(0, 0, side, side)
            box.center = (round(cx), round(cy))
            pygame.draw.rect(surface, self.colours["CRATE"], box)
            pygame.draw.rect(surface, CRATE_EDGE, box, max(1, cell // 9))
            if cell >= 10:
                pygame.draw.line(surface, CRATE_EDGE, box.topleft, box.bottomright)
                pygame.draw.line(surface, CRATE_EDGE, box.topright, box.bottomleft)
        for m in marks:
            x, y, _, w = m.cell
            w = w % W if self.room.wrap else w
            if not (0 <= x < self.room.size[0] and 0 <= y < self.room.size[1] and 0 <= w < W):
                continue
            self._mark(surface, lay.cell_rect(x, y, w), m)
            lands = getattr(m, "lands", ())
            if lands and lay.cell >= 9:  # where a push's crate comes to rest: boxed
                self._landing(surface, lay.cell_rect(lands[0], lands[1],
                                                     self._slice_of(lands[3])))
            elif getattr(m, "then", "") == "falls out" and lay.cell >= 9:
                # where a push's crate is lost from: boxed, crossed (a blind player took a push
                # that threw the crate out of the room for a safe one, and lost the crate)
                dx, dy = STEPS[m.move][:2]
                if 0 <= x + dx < self.room.size[0] and 0 <= y + dy < self.room.size[1]:
                    lost = lay.cell_rect(x + dx, y + dy, w)
                    self._landing(surface, lost)
                    cross(surface, lost.inflate(-max(4, lost.width // 3),
                                                -max(4, lost.width // 3)), OUT_MARK)
        if cursor is not None:
            box = lay.cell_rect(cursor[0], cursor[1], self._slice_of(cursor[3]))
            pygame.draw.rect(surface, CURSOR, box.inflate(2, 2), 2)
        if player is None:
            self._key, self._picture = key, surface
            return surface
        pw = self._slice_of(player[3])
        frame = lay.slice_rect(pw).inflate(6, 6)
        pygame.draw.rect(surface, self.colours["YOU"], frame, 2)
        self._you(surface, frame)
        cx, cy = lay.centre(player[0], player[1], pw)
        # on a crate (or under one) in its column: the pawn small, the crate's square round it
        # (a blind player lost the crate under the pawn)
        shared = any(self._map_cell(c) == self._map_cell(player) for c in crates)
        # on a ramp's column too, its wedge round the pawn (a blind player did not know he
        # stood on a ramp until he moved off it)
        px, py, pw = self._map_cell(player)
        X, Y = self.room.size[:2]
        top = self.top(px, py, pw) if 0 <= px < X and 0 <= py < Y else None
        on_ramp = top is not None and top[1] in RAMPS
        radius = max(2, cell * (PAWN_ON_CRATE if shared or on_ramp else PAWN_SIZE))
        carried = self.on_head(player, crates) if head else None
        if carried is not None:
            self._head(surface, (cx, cy), carried)
        pygame.draw.circle(surface, PAWN_EDGE, (round(cx), round(cy)), round(radius) + 1)
        pygame.draw.circle(surface, PAWN, (round(cx), round(cy)), round(radius))
        self._key, self._picture = key, surface
        return surface

    # -- the movers as sprites, while a move plays -----------------------------------------

    def still(self, crates=()) -> pygame.Surface:
        """The map with no pawn and only ``crates`` (those at rest through the move playing),
        no step marks: what lies under the movers' sprites (:meth:`sprites`) while a move
        plays.  The same ``crates`` again: the same Surface (sent to the GL once a move)."""
        key = tuple(tuple(int(v) for v in c) for c in crates)
        if self._still is None or self._still[0] != key:
            self._still = (key, self.picture(None, key, head=False))
        return self._still[1]

    def sprites(self, player, crates=()) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The movers of a move playing, each a small picture kept from move to move and
        where it lies now, in the map's pixels: the pawn's slice frame (with "you"), each
        moving crate in ``crates``, and the pawn, in that order, at their drawn (fractional)
        places.  Laid over :meth:`still` they are the map :meth:`picture` draws, but that
        moving only changes where they lie: nothing is drawn again or sent to the GL."""
        lay = self.layout
        out = []
        if player is not None:
            frame = lay.slice_rect(self._slice_of(player[3])).inflate(6, 6)
            picture = self._sprite("frame")
            out.append((picture, picture.get_rect(bottomright=(frame.right, frame.bottom))))
        for c in crates:
            cx, cy = lay.centre(c[0], c[1], self._slice_of(c[3]))
            picture = self._sprite("crate")
            box = pygame.Rect(0, 0, max(3, lay.cell - 4), max(3, lay.cell - 4))
            box.center = (round(cx), round(cy))  # (as picture places it; its lines reach
            out.append((picture, picture.get_rect(topleft=box.topleft)))  # a pixel past it)
        if player is not None:
            cx, cy = lay.centre(player[0], player[1], self._slice_of(player[3]))
            picture = self._sprite("pawn")
            out.append((picture, picture.get_rect(center=(round(cx), round(cy)))))
        return out

    def _sprite(self, what: str) -> pygame.Surface:
        """The small picture of a mover (``pawn``, ``crate``, ``frame``), drawn once, in this
        map's cell size and colours, as :meth:`picture` draws it."""
        if what in self._sprites:
            return self._sprites[what]
        lay, cell = self.layout, self.layout.cell
        if what == "pawn":
            radius = round(max(2, cell * PAWN_SIZE))
            surface = pygame.Surface((2 * radius + 4, 2 * radius + 4), pygame.SRCALPHA, 32)
            c = (radius + 2, radius + 2)
            pygame.draw.circle(surface, PAWN_EDGE, c, radius + 1)
            pygame.draw.circle(surface, PAWN, c, radius)
        elif what == "crate":
            side = max(3, cell - 4)
            surface = pygame.Surface((side + 1, side + 1), pygame.SRCALPHA, 32)
            box = pygame.Rect(0, 0, side, side)
            pygame.draw.rect(surface, self.colours["CRATE"], box)
            pygame.draw.rect(surface, CRATE_EDGE, box, max(1, cell // 9))
            if cell >= 10:
                pygame.draw.line(surface, CRATE_EDGE, box.topleft, box.bottomright)
                pygame.draw.line(surface, CRATE_EDGE, box.topright, box.bottomleft)
        else:
            frame = lay.slice_rect(0).inflate(6, 6)
            above = lay.band
            surface = pygame.Surface((frame.width, frame.height + above), pygame.SRCALPHA, 32)
            box = pygame.Rect(0, above, *frame.size)
            pygame.draw.rect(surface, self.colours["YOU"], box, 2)
            self._you(surface, box)
        self._sprites[what] = surface
        return surface

    def _you(self, surface, frame: pygame.Rect) -> None:
        """"you" over the pawn's slice's ``frame``, at its right, clear of the tags."""
        lay = self.layout
        _text(surface, "you", (frame.right, frame.y + 2 - lay.lift), lay.label - 3,
              self.colours["YOU"], "bottomright")

    def _head(self, surface, pawn: tuple[float, float], crate: tuple) -> None:
        """The tag of a crate on the pawn's head: the crate ringed in the pawn's white, a
        white line from the pawn to it (slices apart on the map, one cell in w in the room),
        and "on your head" over the crate's slice."""
        lay = self.layout
        rect = lay.cell_rect(crate[0], crate[1], crate[3])
        ring = rect.inflate(4, 4)
        width = max(2, lay.cell // 8)
        pygame.draw.line(surface, PAWN_EDGE, pawn, ring.center, width + 2)
        pygame.draw.line(surface, PAWN, pawn, ring.center, width)
        box = pygame.Rect(0, 0, max(3, lay.cell - 4), max(3, lay.cell - 4))
        box.center = rect.center  # the crate again, over the line
        pygame.draw.rect(surface, self.colours["CRATE"], box)
        pygame.draw.rect(surface, CRATE_EDGE, box, max(1, lay.cell // 9))
        pygame.draw.rect(surface, PAWN_EDGE, ring.inflate(2, 2), width + 2)
        pygame.draw.rect(surface, PAWN, ring, width)
        above = lay.slice_rect(crate[3])
        _text(surface, HEAD_WORDS, (above.right, above.y - lay.band + 1), lay.label - 3, PAWN,
              "topright")

    def _map_cell(self, position) -> tuple[int, int, int]:
        """The map's cell ``position`` is drawn in: its (x, y) rounded, and its slice."""
        return (math.floor(float(position[0]) + 0.5), math.floor(float(position[1]) + 0.5),
                self._slice_of(position[3]))

    def _slice_of(self, w: float) -> int:
        w = math.floor(float(w) + 0.5)
        W = self.room.size[3]
        return w % W if self.room.wrap else min(max(w, 0), W - 1)

    def _landing(self, surface, rect: pygame.Rect) -> None:
        """Where a push's crate comes to rest after it slips or falls: a crate's square, dashed
        in the crates' colour, with a small arrow down into it (a blind player needed two
        hints to learn that the crate pushed into a pit drops a slice and holds the floor
        over it: the map showed the push's arrow alone)."""
        colour = self.colours["CRATE"]
        box = rect.inflate(-max(4, rect.width // 4), -max(4, rect.width // 4))
        dashed_box(surface, colour, box)
        dashed_box(surface, colour, box.inflate(-2, -2))
        head = max(2, rect.width // 8)
        cx, top = box.centerx, box.top + 2
        pygame.draw.polygon(surface, colour, [(cx - head, top), (cx + head, top),
                                              (cx, top + head + 1)])

    def _mark(self, surface, rect: pygame.Rect, mark, size: int | None = None) -> None:
        """A step mark on the map (anything with ``kind``, ``slip``, ``glyph`` and ``colour``,
        as :class:`~anabasis.app.play.stepmarks.Mark` has): its glyph, small, in the top left
        corner of the cell it goes toward, clear of the cell's number (bottom right) and of
        most of a crate there (a blind player lost a crate under a push's mark); in the map's
        palette where the mark can say its colour in one (``tint(palette)``, as a Mark can)."""
        if self.layout.cell < 9 or mark.kind == "hook nothing":
            return
        tint = getattr(mark, "tint", None)
        colour = tint(self.palette) if tint is not None else mark.colour
        size = size or tag_size(self.layout.cell)
        # a slip's tag says its slices with the slip's arrow (a bare orange digit, in the
        # numbers' font and place, read as a height to two blind players); a step that is no
        # move, STAYS_GLYPH (with no tag there, a blind player planning on the large map,
        # which hides the room's "stays · too high", walked to a ramp two up and was refused)
        glyph = mark.glyph if mark.kind != "slip kata" else f"{mark.glyph}{mark.slip}"
        if mark.kind == "nothing":
            glyph = STAYS_GLYPH
        dot = pygame.Rect(0, 0, max(size, _font(size - 3).size(glyph)[0] + 4), size)
        # over the cell's corner, a third of it out: in the cell, its foot met the top of the
        # cell's number, and three blind players read "•1" as "-1"; made smaller to stay in,
        # its glyph was too small to read ("↓1" read as "11")
        dot.topleft = (rect.x - tag_out(size), rect.y - tag_out(size))
        # the cell it goes toward outlined in its colour: over the corner, three blind
        # players of five could not tell which of the cells round it the tag was for;
        # dashed (drawn whole, thin and light, a blind player took a floor so outlined for
        # a pit's rim, and routed round it)
        dashed_box(surface, colour, rect.inflate(-2, -2))
        pygame.draw.rect(surface, (12, 14, 20), dot, border_radius=size // 3)
        if mark.kind == "push":  # the way the crate goes on the map (x right, y down): one
            # "▶" for every push read as a push to the right
            glyph = ARROW_GLYPH.get(MOVE_ON_PLAN.get(getattr(mark, "move", ""), ""), glyph)
        if mark.kind.startswith("hook"):  # a hook's: ringed, on the cell it catches on
            pygame.draw.rect(surface, colour, dot, 1, border_radius=size // 3)
        else:  # a step's: its colour in a bar along the top (a small glyph is mostly edge;
            # along the foot, by the number's top, it read as a minus sign)
            pygame.draw.line(surface, colour, (dot.x + 3, dot.y + 1), (dot.right - 4, dot.y + 1),
                             2)
        if mark.kind == "slip kata":
            # the arrow drawn, a head on a stem, then the digit: the font's "↓" at this size
            # is a thin stroke, and a blind player read "↓1" as "11"
            digit = str(mark.slip)
            head = max(2, (size - 4) // 3)
            ax, top, foot = dot.x + 3 + head, dot.y + 4, dot.bottom - 3
            pygame.draw.line(surface, colour, (ax, top), (ax, foot - head), max(1, size // 7))
            pygame.draw.polygon(surface, colour, [(ax - head, foot - head),
                                                  (ax + head, foot - head), (ax, foot)])
            _text(surface, digit, (ax + head + 1, dot.centery + 1), size - 3, colour, "midleft")
            return
        _text(surface, glyph, dot.center, size - 3, colour, "center")


class _Tag(NamedTuple):
    """A step mark as the map's key shows one (a plain walk's)."""

    kind: str
    glyph: str
    colour: tuple[int, int, int]
    slip: int = 0


#: A step that is no move, as its tag on the map says it (its badge's "·" is a dot, as a
#: walk's is): the cell it would go to, "no way".
STAYS_GLYPH = "⊘"

#: The key's sample of a step's tag: a plain walk's dot, in its badge's colour.
TAG_SAMPLE = _Tag("walk", "•", (170, 230, 255))

#: A way on screen or on the plan as an arrow: a push's badge (by the arrow key that
#: pushes) and its tag on the map (by :data:`MOVE_ON_PLAN`) point the way the crate goes.
ARROW_GLYPH = {"up": "▲", "down": "▼", "left": "◀", "right": "▶"}
#: Each move's way on the plan (x to the right, y down the page).
MOVE_ON_PLAN = {"R": "right", "L": "left", "D": "down", "U": "up"}


def image(room: Room, state, box: tuple[int, int] = (1280, 720), palette: str = "standard"):
    """The map of ``room`` with ``state``'s movers, as an (H, W, 3) RGB array over a dark
    ground: what ``anabasis render SOURCE --map`` writes."""
    import numpy as np

    smap = SliceMap(room, box, palette)
    picture = smap.picture(state.player, state.crates)
    ground = pygame.Surface(picture.get_size())
    ground.fill((16, 18, 24))
    ground.blit(picture, (0, 0))
    return np.transpose(pygame.surfarray.array3d(ground), (1, 0, 2)).copy()


class DraftMap:
    """The editor's slice map: the draft as it is, the cursor boxed; a click in it moves the
    cursor to that column (its height kept).

    The editor calls :meth:`draw` from its HUD (whose key already holds the draft and the
    cursor) and :meth:`click` first thing in its own click: True means the click was the
    map's.
    """

    SHARE = (0.36, 0.30)  #: the most of the window's width and height it takes

    def __init__(self):
        self._map: SliceMap | None = None
        self._for = None
        self.rect: pygame.Rect | None = None  #: where it was last drawn, in window pixels

    def draw(self, ov, ed, bottom: int | None = None) -> pygame.Rect:
        """The map of editor ``ed``'s draft, bottom left of overlay ``ov``, its lower edge at
        ``bottom`` (default: above the editor's bottom lines)."""
        W, H = ov.size
        room = ed.picture()
        box = (int(W * self.SHARE[0]), int(H * self.SHARE[1]))
        if self._map is None or self._for != (room, box):
            self._map = SliceMap(room, box)
            self._for = (room, box)
        players, crates, _ = ed.draft.movers()
        player = players[0] if players else None
        picture = self._map.picture(player, crates, cursor=tuple(ed.cursor), head=False)
        if bottom is None:
            bottom = H - int(64 * ov.scale)
        self.rect = picture.get_rect(bottomleft=(int(8 * ov.scale), bottom))
        ov.show(picture, self.rect)
        return self.rect

    def cell_at(self, pixel) -> tuple[int, int, int] | None:
        """The ``(x, y, w)`` under window ``pixel``, or None (off the map, between slices)."""
        if self._map is None or self.rect is None or not self.rect.collidepoint(pixel):
            return None
        return self._map.cell_at(pixel[0] - self.rect.x, pixel[1] - self.rect.y)

    def click(self, ed, pixel) -> bool:
        """A click at window ``pixel``: on the map, the cursor moves to that column (True)."""
        if self.rect is None or not self.rect.collidepoint(pixel):
            return False
        cell = self.cell_at(pixel)
        if cell is not None:
            x, y, w = cell
            ed.cursor = (x, y, ed.cursor[2], w)
        return True
