"""The legend in the help: every mark the game draws, each one line with a small picture.

Where a colour says something (which axis, which slice), the line says it in
words too, or the picture has its own shape: never colour alone.  Each entry
is ``(name, words)``; :func:`draw` draws the picture named beside the words.
"""

from __future__ import annotations

import pygame

from anabasis.app.play import markers, stepmarks
from anabasis.app.viewer import slicemap
from anabasis.picture import pose, views

TITLE = "What the marks mean"

ENTRIES = [
    # (one mark a line, in short words: packed three or four to a line, with semicolons,
    # the pages read to nearly every blind player of five rounds as dense, t298 to t312)
    ("lanes", "lighter tiles: your row and your column, the room across (not a route)"),
    ("height", "\u201cz 2\u201d on a top near you (w up: \u201cw 2\u201d): you'd stand there, at"
               " that height"),
    ("lip", "a top's edge dark, or lit with a shadow past it: a step down past it"),
    ("pit", "a dark pit with a light rim: step on it and you slip kata, a slice"),
    ("shaft", "a rim inside a pit, darker past it: you slip two slices or more"),
    # (level 6's shaft: its bars were said only by the large map's key, t353, t357, t360)
    ("bars", "bars in a pit on the map: you slip 2 slices or more, a bar a slice"),
    ("out", "a red \u2715 on a pit: step there and you fall out of the room (undone)"),
    ("bare", "a dark pit with no rim: a ramp's step carries you over it"),
    ("held", "crate planks flush in a floor: a crate one slice kata fills it, holds you up"),
    ("slices", "a block's tone: its slice (w 0, w 1, w 2, w 3 \u2026); the map has a square"
               " by each w"),
    ("wall", "dark and hatched: a wall to the room's top (on the map too, with no number)"),
    ("rise", "w up: a block's side hatched: it rises over your floor; no step climbs it"),
    ("cut", "dark stripes on a face: blocks cut away so you see in; they are there"),
    ("ramp", "a teal ramp, its high edge lit: it rises ana that way"),
    ("ramp floor", "a ramp is a floor too: you can walk onto it from any side"),
    ("ramp w up", "w up: a ramp is a teal slope, one slice high"),
    ("landing", "a dashed lavender cell with chevrons: where a ramp's step lands you"),
    ("window", "a lavender round window in a wall: a landing, where no wall is in its slice"),
    ("ghost", "a dashed blue outline: the floor one slice ana"),
    ("ghost ramp", "a dashed teal outline with chevrons up it: a ramp one slice ana"),
    ("axes", "the axes: x red, y green, z blue, w gold, each named beside it"),
    ("outline", "you in a round window in a block, pink-rimmed: you stand behind it"),
    ("feet", "pink dashes round you: your floor, where a crate in front hides your feet"),
    ("crate", "a crate, drawn in from its cell's sides; its cell's floor dashed round it"),
    ("push", "a dashed orange cell with arrows: where a pushed crate comes to rest"),
    ("ring", "a spreading ring: a crate just came to rest there"),
    ("goal", "a gold-framed floor and a glow: the goal"),
    ("halo", "a soft halo round the goal: it is slices away from you"),
    ("marker", "a gold diamond, or a crate's square, \u201c2 ana\u201d: out of your slice or"
               " sight"),
    ("footprint", "a marker's framed cell: the floor under it (out of sight: dashed)"),
    ("pillar", "a dashed gold ghost of a pillar under a marker: what holds it in its slice"),
    ("inside", "a marker in a dark round window on a block: in that cell, another slice"),
    ("badge", "a badge on a cell, or lined to it: what a step there does"
              " ({step_marks} held: all four)"),
    ("walk", "\u2022 on a badge: a plain walk"),
    ("stays", "\u201cstays\u201d or \u2298: that step does not move you"),
    ("no climb", "\u201cwall to the ceiling\u201d, \u201cw 2 \u00b7 up only by a ramp\u201d:"
                 " no step gets you up there"),
    ("slip to", "\u201cslip to w 1\u201d on a pit: the slice you would land in"),
    ("behind", "a dashed cell over a wall or a crate: a step's cell, hidden behind it"),
    ("hint", "the green arrow: a hint, the next move of a shortest way"),
    ("plan", "{plan_view} or the middle button: the plan view, straight down"
             " \u00b7 {settings}: settings"),
    ("map", "the slice map ({slice_map}): w 0, w 1 \u2026 side by side, seen from above"),
    ("large", "{large_map}: the map large; there {slice_map}: three slices, nearer"),
    ("number", "a number on the map: the z you'd stand at; lighter cells are higher"),
    ("frame", "the gold frame and \u201cyou\u201d on the map: your slice"),
    ("wraps", "\u21bb on the map: w wraps round, the last slice to the first"),
    ("tag", "a tag on a map cell's corner, the cell outlined: a step goes there"),
    ("tag slips", "\u201c\u2193 2\u201d in a tag: that step slips you 2 slices;"
                  " \u2298: no move"),
    ("lands", "a dashed crate square on the map, an arrow in it: where a pushed crate rests"),
    ("wedge", "a light wedge on the map: a ramp, tip on its high side, its z on it"),
    ("lift", "a gold wedge with a lit tip: off that tip you go ana"),
    ("gap", "dark with \u2715 on the map: you fall out"),
    ("dim wedge", "a dim wedge on the map: a ramp 1 slice kata: step in at its tip, or fall"
                  " out"),
    ("dark", "dark and bare on the map: a ramp's step carries you over it"),
    ("hollow", "a dark notch with a number on the map: a floor under the top, at that z"),
    ("hollow rim", "a notch rimmed: that floor under the top slips you kata"),
]



def landing_colour(palette: str = "standard") -> tuple[int, int, int]:
    """The landing marks' colour in ``palette``: the picture's own (``pose.PALETTES``)."""
    return tuple(round(255 * c) for c in pose.PALETTES[palette]["mark"])


TILE = (196, 178, 140)
#: the planks the picture lays in a floor a crate holds up (its CRATE_COLOUR), and their frame
HELD_PLANKS = (199, 128, 61)
HELD_EDGE = (76, 38, 13)  #: (the crate face's frame, slice_shading.glsl)
LANE = (222, 206, 170)
BLUE = (110, 150, 230)
PINK = (240, 120, 160)
PUSH = (255, 178, 107)  #: the push marks' colour (the shader's PUSH_COLOUR)
RAMP_TEAL = (52, 170, 150)  #: a ramp, as the room draws one
RIM = (150, 146, 150)  #: a pit's light rim, as the room draws one


def _chevron(surface, colour, at) -> None:
    """A small chevron pointing up, its tip just over ``at``: a landing's, or a ramp's."""
    x, y = at
    pygame.draw.lines(surface, colour, False, [(x - 3, y + 2), (x, y - 2), (x + 3, y + 2)], 2)


def _diamond(surface, at, half: int) -> None:
    """A marker's gold diamond, outlined, round ``at``, ``half`` its half-width."""
    x, y = at
    pygame.draw.polygon(surface, slicemap.YOU,
                        [(x, y - half), (x + half, y), (x, y + half), (x - half, y)], 1)


def _corners(rect: pygame.Rect) -> list[tuple[int, int]]:
    """A rectangle's four corners, round it, for :func:`markers.dashed_outline`."""
    return [rect.topleft, (rect.right - 1, rect.top), (rect.right - 1, rect.bottom - 1),
            (rect.left, rect.bottom - 1)]


#: The help's pages of marks, each a group a player looks in for one kind of mark, named at
#: the foot of the page before.  (Every mark of the room on one page, 25 lines, blind
#: players found it hard to scan: "split it into groups", t283; three pages of 13 packed
#: lines were still dense to nearly every player of five rounds, who asked for the marks
#: grouped by what they are on, t298 to t312.)
PAGES = (
    ("floors and pits", frozenset({"lanes", "height", "lip", "pit", "shaft", "bars", "out",
                                   "bare", "held", "slices"})),
    ("walls and ramps", frozenset({"wall", "rise", "cut", "ramp", "ramp floor", "ramp w up",
                                   "landing", "window", "ghost", "ghost ramp", "axes"})),
    ("you, crates, the goal", frozenset({"outline", "feet", "crate", "push", "ring", "goal",
                                         "halo", "marker", "footprint", "pillar", "inside"})),
    ("your steps", frozenset({"badge", "walk", "stays", "no climb", "slip to", "behind",
                              "hint", "plan"})),
    ("the slice map", frozenset({"map", "large", "number", "frame", "wraps", "tag",
                                 "tag slips", "lands", "wedge", "lift", "gap", "dim wedge",
                                 "dark", "hollow", "hollow rim"})),
)
#: The titles of the help's pages of marks.
PAGE_TITLES = tuple(f"{TITLE}: {name}" for name, _ in PAGES)


def on_page(entries, page: int) -> tuple:
    """The entries (:func:`lines`') on the help's page of marks ``page`` (:data:`PAGES`)."""
    return tuple(e for e in entries if e[0] in PAGES[page][1])


def lines(keys) -> list[tuple[str, str]]:
    """The entries with the keys bound now named in them (``keys``: the
    :class:`~anabasis.app.settings.keymap.Keymap`)."""
    return [(name, keys.text(words)) for name, words in ENTRIES]


def fits(ov, entries, size: int, width: int) -> bool:
    """Whether every entry's words, at text ``size``, fit a legend ``width`` wide beside
    their pictures (as :func:`draw` lays them out: a line ``size`` × 1.4 high)."""
    room = width - _picture_width(int(size * 1.4)) - 10
    return all(ov.width_of(words, size) <= room for _, words in entries)


def _picture_side(line_h: int) -> int:
    """The height of an entry's picture in lines ``line_h`` high (:func:`draw`)."""
    return max(10, int(line_h * 0.9))


def _picture_width(line_h: int) -> int:
    """The width of an entry's picture in lines ``line_h`` high (:func:`draw`)."""
    return int(_picture_side(line_h) * 1.6)


def draw(ov, left: int, top: int, line_h: int, size: int, width: int,
         entries, palette: str = "standard",
         title: str = TITLE) -> list[tuple[str, pygame.Rect, pygame.Rect]]:
    """The legend at ``(left, top)``: its ``title``, then a line per entry of ``entries``
    (:func:`lines`' (name, words)), its pictures in the settings' ``palette`` where the
    game draws those marks in it; returns each entry's (name, picture, words) rectangles."""
    from anabasis.app.shell.overlay import GOLD, INK

    ov.text(title, (left, top), size, GOLD)
    y = top + line_h
    pic = _picture_side(line_h)
    drawn = []
    for name, words in entries:
        rect = pygame.Rect(left, y + (line_h - pic) // 2, _picture_width(line_h), pic)
        _picture(ov, name, rect, size, palette)
        text = words
        room = width - rect.width - 10
        while ov.width_of(text, size) > room and len(text) > 8:
            text = text[:-2].rstrip() + "…"
        words_rect = ov.text(text, (rect.right + 8, y), size, INK)
        drawn.append((name, rect, words_rect))
        y += line_h
    return drawn


def _picture(ov, name: str, r: pygame.Rect, size: int, palette: str = "standard") -> None:
    s = ov.surface
    c = r.center
    h = r.height
    if name == "lanes":
        pygame.draw.rect(s, LANE, r)  # a row of lighter tiles
        for x in range(r.x + h, r.right - 1, h):
            pygame.draw.line(s, TILE, (x, r.y), (x, r.bottom - 1), 1)
    elif name == "held":  # a crate's planks laid flush in a floor; a map cell framed
        tile = pygame.Rect(r.x, r.y, r.width // 2 - 2, h)
        pygame.draw.rect(s, TILE, tile)
        lid = tile.inflate(-max(4, h // 4), -max(4, h // 4))
        pygame.draw.rect(s, HELD_PLANKS, lid)
        pygame.draw.rect(s, HELD_EDGE, lid, max(2, h // 8))
        cell = pygame.Rect(0, 0, h, h)
        cell.midright = r.midright
        pygame.draw.rect(s, slicemap.shade(1, 3), cell)
        slicemap.held(s, cell, markers.colour_of("crate", palette))
    elif name in ("pit", "shaft", "out", "bare"):
        # a floor with a dark pit in it, as the room draws one: rimmed (you slip), a rim
        # inside the rim and darker past it (two slices or more), crossed (you fall out),
        # or bare (a ramp's step carries you over it)
        pygame.draw.rect(s, TILE, r)
        hole = pygame.Rect(0, 0, h * 5 // 4, h - max(2, h // 5))
        hole.center = c
        pygame.draw.rect(s, (25, 22, 30), hole)
        if name != "bare":
            pygame.draw.rect(s, RIM, hole, max(1, h // 10))
        if name == "shaft":
            inner = hole.inflate(-h // 2, -h // 2)
            pygame.draw.rect(s, (8, 7, 12), inner)
            pygame.draw.rect(s, RIM, inner, 1)
        if name == "out":
            slicemap.cross(s, hole, stepmarks.colour_of("fall out", palette))
    elif name == "ramp":
        pygame.draw.polygon(s, RAMP_TEAL, [r.bottomleft, r.bottomright, r.topright])
        pygame.draw.line(s, (230, 255, 246), (r.right - 2, r.bottom), (r.right - 2, r.y), 3)
    elif name == "ramp floor":  # a ramp, and the pawn on its slope
        pygame.draw.polygon(s, RAMP_TEAL, [r.bottomleft, r.bottomright, r.topright])
        pygame.draw.circle(s, PINK, (c[0], c[1] - h // 8), max(2, h // 4))
    elif name == "ramp w up":  # a floor, and a teal slope up to the floor a slice ana
        low = pygame.Rect(r.x, r.y + h // 2, r.width // 3, h - h // 2)
        high = pygame.Rect(r.right - r.width // 3, r.y, r.width // 3, h)
        pygame.draw.rect(s, TILE, low)
        pygame.draw.rect(s, TILE, high)
        pygame.draw.polygon(s, RAMP_TEAL, [low.topright, high.topleft, high.bottomleft,
                                           low.bottomright])
    elif name == "landing":  # a dashed box with its chevrons up
        mark = landing_colour(palette)
        box = pygame.Rect(0, 0, h + h // 3, h - 2)
        box.center = c
        markers.dashed_outline(s, mark, _corners(box), 2, 3)
        x = box.centerx
        _chevron(s, mark, (x, c[1]))
    elif name == "window":  # a wall with the landing's round window in its face
        mark = landing_colour(palette)
        wall = pygame.Rect(0, 0, h + h // 3, h - 2)
        wall.center = c
        pygame.draw.rect(s, (150, 140, 120), wall)
        markers.dashed_outline(s, mark, _corners(wall), 1, 3)
        hole = markers.window_in(_corners(wall), 0.7, 20)
        pygame.draw.polygon(s, (10, 12, 18), hole)
        pygame.draw.polygon(s, mark, hole, 1)
    elif name in ("ghost", "ghost ramp"):
        box = r.inflate(-2, -2)
        colour = BLUE if name == "ghost" else RAMP_TEAL
        markers.dashed_outline(s, colour, _corners(box), 1, 3)
        if name == "ghost ramp":  # its chevrons, up the slope
            for k in (-1, 1):
                x = c[0] + k * h // 3
                _chevron(s, colour, (x, c[1]))
    elif name == "outline":
        # a block in front, a round window cut in it, and the pawn solid in the window on
        # the floor behind
        pygame.draw.rect(s, (150, 140, 120), r)
        radius = h // 2
        pygame.draw.circle(s, TILE, c, radius)
        pygame.draw.circle(s, (30, 26, 34), c, radius, max(1, h // 8))
        pygame.draw.circle(s, PINK, c, radius, 1)
        pygame.draw.circle(s, PINK, (c[0], c[1] + h // 8), max(2, h // 4))
        pygame.draw.circle(s, PINK, (c[0], c[1] - h // 5), max(1, h // 6))
    elif name == "feet":
        floor = pygame.Rect(r.x + 2, r.y + h // 2, r.width - 4, h // 2 - 1)
        corners = [floor.topleft, floor.topright, floor.bottomright, floor.bottomleft]
        markers.dashed_outline(s, markers.PAWN_COLOUR, corners, 1, 3)
        pygame.draw.circle(s, markers.PAWN_COLOUR, (c[0], c[1] + h // 8), max(2, h // 4))
        pygame.draw.circle(s, markers.PAWN_COLOUR, (c[0], c[1] - h // 5), max(1, h // 6))
        pygame.draw.rect(s, (200, 128, 60), pygame.Rect(r.x, r.bottom - h // 3, r.width, h // 3))
    elif name == "crate":
        body = pygame.Rect(r.x + r.width // 4, r.y + 1, r.width // 2, h * 2 // 3)
        pygame.draw.rect(s, (200, 128, 60), body)
        pygame.draw.rect(s, (80, 40, 14), body, 1)
        foot = pygame.Rect(body.x - 2, body.y + h // 3, body.width + 4, h * 2 // 3 - 2)
        markers.dashed_outline(s, markers.colour_of("crate", palette), _corners(foot), 1, 2)
    elif name == "push":
        crate = pygame.Rect(r.x, r.y + 1, r.width // 2 - 1, h - 2)
        pygame.draw.rect(s, (200, 128, 60), crate)
        pygame.draw.rect(s, (80, 40, 14), crate, 1)
        cell = pygame.Rect(crate.right + 2, crate.y, crate.width, crate.height)
        markers.dashed_outline(s, PUSH, _corners(cell), 1, 3)
        tip = cell.right - max(2, cell.width // 4)  # one chevron, the push's way
        pygame.draw.lines(s, PUSH, False, [(cell.x + 2, cell.y + 2), (tip, cell.centery),
                                           (cell.x + 2, cell.bottom - 3)], 1)
    elif name == "goal":
        pygame.draw.rect(s, (90, 80, 40), r)
        pygame.draw.rect(s, slicemap.YOU, r.inflate(-4, -4), 2)
    elif name == "halo":  # the goal's floor in a soft light round it
        glow = pygame.Surface(r.size, pygame.SRCALPHA)
        for k in range(4):
            pygame.draw.ellipse(glow, (*slicemap.YOU, 40 + 30 * k),
                                glow.get_rect().inflate(-k * h // 5, -k * h // 5))
        s.blit(glow, r.topleft)
        pygame.draw.rect(s, slicemap.YOU, r.inflate(-r.width // 2, -h // 2), 2)
    elif name == "marker":
        pts = [(r.x + h // 2, r.y), (r.x + h, c[1]), (r.x + h // 2, r.bottom), (r.x, c[1])]
        pygame.draw.polygon(s, slicemap.YOU, pts, 2)
        ov.text("2", (r.x + h + 2, c[1]), max(8, size - 3), slicemap.YOU, anchor="midleft")
    elif name == "footprint":  # the marker, its drop line, and its floor framed
        foot = pygame.Rect(r.x + h // 3, r.bottom - h // 3, r.width - h // 2, h // 3)
        markers.dashed_outline(s, slicemap.YOU, _corners(foot), 1, 2)
        top = (foot.centerx, r.y + h // 6)
        _diamond(s, top, h // 6)
        markers.dashed(s, slicemap.YOU, (top[0], top[1] + h // 6), (top[0], foot.y), 1, 2)
    elif name == "pillar":  # the marker on a dashed pillar
        top = (r.x + h // 2, r.y + h // 6)
        _diamond(s, top, h // 6)
        pillar = pygame.Rect(r.x + h // 6, top[1] + h // 6, h * 2 // 3 + 1,
                             r.bottom - top[1] - h // 6)
        ghost = pygame.Surface(pillar.size, pygame.SRCALPHA)
        ghost.fill((*slicemap.YOU, markers.POST_SIDES_ALPHA))
        s.blit(ghost, pillar.topleft)
        markers.dashed_outline(s, slicemap.YOU, _corners(pillar), 1, 2)
    elif name == "cut":
        pygame.draw.rect(s, (196, 186, 214), r)
        clip = s.get_clip()
        s.set_clip(r)
        for k in range(-h, r.width, max(4, h // 3)):  # as the room draws it: stripes across
            pygame.draw.line(s, (26, 26, 36), (r.x + k, r.bottom - 1), (r.x + k + h, r.y),
                             max(1, h // 6))
        s.set_clip(clip)
        pygame.draw.rect(s, (60, 56, 72), r, 1)
    elif name == "inside":
        k = h // 4
        block = pygame.Rect(0, 0, h, h)
        block.center = c
        pygame.draw.rect(s, (150, 140, 130), block)
        face = [block.topleft, block.topright, (block.right - 1, block.bottom - 1),
                (block.x, block.bottom - 1)]
        hole = markers.window_in(face, 0.9, 20)
        pygame.draw.polygon(s, (10, 12, 18), hole)
        pygame.draw.polygon(s, slicemap.YOU, hole, 1)
        pts = [(c[0], c[1] - k), (c[0] + k, c[1]), (c[0], c[1] + k), (c[0] - k, c[1])]
        pygame.draw.polygon(s, slicemap.YOU, pts, 1)
    elif name == "behind":  # (the crate in front of the cell's dashes, as in the room)
        crate = pygame.Rect(r.x + r.width // 4, r.y + h // 3, r.width // 2, h - h // 3)
        cell = pygame.Rect(r.x + r.width // 6, r.y + 1, r.width * 2 // 3, h // 2)
        corners = [cell.topleft, cell.topright, cell.bottomright, cell.bottomleft]
        markers.dashed_outline(s, stepmarks.colour_of("walk", palette), corners, 1, 2)
        pygame.draw.rect(s, (200, 128, 60), crate)
    elif name == "ring":
        pygame.draw.circle(s, slicemap.CRATE, c, h // 2, 2)
    elif name == "hint":
        pygame.draw.polygon(s, (150, 255, 70), [(r.x, c[1] - 2), (r.right - h // 2, c[1] - 2),
                                                (r.right - h // 2, r.y), (r.right, c[1]),
                                                (r.right - h // 2, r.bottom),
                                                (r.right - h // 2, c[1] + 2), (r.x, c[1] + 2)])
    elif name in ("badge", "walk", "stays"):  # a step's badge, as the room draws one
        what = {"badge": "climb", "walk": "walk", "stays": "nothing"}[name]
        colour = stepmarks.colour_of(what, palette)
        pygame.draw.rect(s, (12, 14, 20), r, border_radius=4)
        pygame.draw.rect(s, colour, r, 1, border_radius=4)
        glyph = {"walk": stepmarks.GLYPH["walk"], "stays": slicemap.STAYS_GLYPH}.get(
            name, stepmarks.GLYPH["climb"])
        ov.text(glyph, c, max(8, size - 2), colour, anchor="center", shadow=False)
    elif name in ("height", "no climb", "slip to"):  # a top's tag, as the room writes one:
        # on a floor, on a wall's top, on a pit
        ground, axis = {"height": (TILE, "z"), "no climb": ((74, 80, 70), "z"),
                        "slip to": ((25, 22, 30), "w")}[name]
        pygame.draw.rect(s, ground, r)
        if name == "slip to":
            pygame.draw.rect(s, RIM, r, 1)
        tag = r.inflate(-max(2, r.width // 8), -max(2, h // 3))
        pygame.draw.rect(s, (12, 14, 20), tag, border_radius=3)
        ov.text(axis, tag.center, max(8, size - 3), views.AXIS_COLOURS[axis], anchor="center",
                shadow=False)
    elif name in ("map", "large"):
        half = r.width // 2
        pygame.draw.rect(s, slicemap.shade(0, 3), pygame.Rect(r.x, r.y, half - 1, h))
        pygame.draw.rect(s, slicemap.shade(2, 3), pygame.Rect(r.x + half, r.y, half, h))
        if name == "large":
            pygame.draw.rect(s, (90, 96, 112), r, 1)
    elif name == "number":
        for k in range(2):
            cell = pygame.Rect(r.x + k * (r.width // 2), r.y, r.width // 2 - 1, h)
            pygame.draw.rect(s, slicemap.shade(1 + k, 3), cell)
            ov.text(str(1 + k), cell.center, max(8, size - 3), (20, 20, 28), anchor="center",
                    shadow=False)
    elif name == "wraps":
        pygame.draw.rect(s, slicemap.shade(1, 3), r)
        ov.text("\u21bb", c, max(8, size - 1), slicemap.YOU, anchor="center", shadow=False)
    elif name in ("wedge", "lift"):
        pygame.draw.rect(s, slicemap.shade(1, 3), r)
        tip, back = (r.right - 3, c[1]), r.x + r.width // 4
        lit = slicemap.SAFE["LIFT"] if palette == "safe" else slicemap.LIFT
        pygame.draw.polygon(s, lit if name == "lift" else slicemap.RAMP_MARK,
                            [tip, (back, r.y + 2), (back, r.bottom - 2)])
        if name == "lift":
            pygame.draw.rect(s, (255, 250, 230), (r.right - max(2, h // 6), r.y + h // 5,
                                                  max(2, h // 6), h - 2 * (h // 5)))
    elif name == "gap":
        slicemap.gap(s, pygame.Rect(r.x, r.y, h, h))
    elif name == "bars":
        cell = pygame.Rect(r.x, r.y, h, h)
        pygame.draw.rect(s, slicemap.shade(1, 3), cell)
        slicemap.pit(s, cell)
        slicemap.depth_bars(s, cell, 2)
    elif name == "dim wedge":
        slicemap.gap(s, pygame.Rect(r.x, r.y, h, h), below=(0, 1))
    elif name == "dark":
        slicemap.gap(s, pygame.Rect(r.x, r.y, h, h), crossed=True)
    elif name in ("tag", "tag slips"):
        pygame.draw.rect(s, slicemap.shade(1, 3), r)
        tag = pygame.Rect(r.x, r.y, max(8, h * 2 // 3), max(8, h * 2 // 3))
        if name == "tag slips":
            tag.width = max(12, h)
        colour = stepmarks.colour_of("walk", palette)
        pygame.draw.rect(s, (12, 14, 20), tag, border_radius=tag.height // 3)
        pygame.draw.line(s, colour, (tag.x + 2, tag.bottom - 2), (tag.right - 3, tag.bottom - 2), 2)
        ov.text("\u21932" if name == "tag slips" else "1", tag.center, max(8, tag.height - 1),
                colour, anchor="center", shadow=False)
    elif name == "lands":
        pygame.draw.rect(s, slicemap.shade(1, 3), r)
        box = pygame.Rect(0, 0, max(6, h * 2 // 3), max(6, h * 2 // 3))
        box.center = (r.x + h // 2, r.centery)
        crate = slicemap.SAFE["CRATE"] if palette == "safe" else slicemap.CRATE
        slicemap.dashed_box(s, crate, box)
        head = max(2, h // 6)
        pygame.draw.polygon(s, crate, [(box.centerx - head, box.top + 2),
                                       (box.centerx + head, box.top + 2),
                                       (box.centerx, box.top + 3 + head)])
    elif name == "lip":
        # a raised top (below, nearer the eye): its near edge a dark lip, its far edge lit,
        # and the lower floor past that (above) in its shadow
        far = pygame.Rect(r.x, r.y, r.width, h // 2)
        pygame.draw.rect(s, TILE, far)
        band = max(2, h // 5)
        pygame.draw.rect(s, (118, 107, 84), pygame.Rect(far.x, far.bottom - band, far.width, band))
        top = pygame.Rect(r.x + 2, far.bottom, r.width - 4, h - far.height)
        pygame.draw.rect(s, LANE, top)
        edge = max(2, h // 8)
        pygame.draw.rect(s, (250, 244, 226), pygame.Rect(top.x, top.y, top.width, edge))
        pygame.draw.rect(s, (70, 62, 50), pygame.Rect(top.x, top.bottom - edge, top.width, edge))
    elif name == "wall":
        half = r.width // 2  # the room's (dark, hatched light), then the map's (the same)
        slicemap.wall(s, pygame.Rect(r.x + half + 1, r.y, h, h))
        cap = pygame.Rect(r.x, r.y, half, h)
        pygame.draw.rect(s, (74, 80, 70), cap)
        clip = s.get_clip()
        s.set_clip(cap)
        for k in range(-h, cap.width, max(3, h // 3)):
            pygame.draw.line(s, (170, 182, 160), (cap.x + k, cap.y), (cap.x + k + h, cap.bottom))
        s.set_clip(clip)
    elif name == "rise":  # a top (a floor a slice ana), and under it its side, hatched
        top = pygame.Rect(r.x, r.y, r.width, h // 2)
        pygame.draw.rect(s, TILE, top)
        side = pygame.Rect(r.x, top.bottom, r.width, h - top.height)
        pygame.draw.rect(s, (96, 86, 66), side)
        clip = s.get_clip()
        s.set_clip(side)
        for k in range(-h, side.width, max(3, h // 3)):
            pygame.draw.line(s, (196, 186, 160), (side.x + k, side.bottom),
                             (side.x + k + side.height, side.y))
        s.set_clip(clip)
    elif name in ("hollow", "hollow rim"):
        pygame.draw.rect(s, slicemap.shade(2, 3), r)
        side = max(6, h * 2 // 3)
        notch = pygame.Rect(r.x, r.bottom - side, side, side)
        if name == "hollow":
            pygame.draw.rect(s, slicemap.HOLLOW, notch, border_top_right_radius=max(1, side // 3))
            ov.text("1", notch.center, max(8, side - 1), slicemap.HOLLOW_INK, anchor="center",
                    shadow=False)
        else:  # one that slips, rimmed
            pygame.draw.rect(s, slicemap.PIT, notch, border_top_right_radius=max(1, side // 3))
            pygame.draw.rect(s, slicemap.PIT_RIM, notch, 1,
                             border_top_right_radius=max(1, side // 3))
    elif name == "frame":
        pygame.draw.rect(s, slicemap.shade(1, 3), r.inflate(-4, -4))
        pygame.draw.rect(s, slicemap.YOU, r, 2)
    elif name == "plan":
        for k in range(3):
            for j in range(2):
                cell = pygame.Rect(r.x + k * r.width // 3, r.y + j * h // 2, r.width // 3 - 1,
                                   h // 2 - 1)
                pygame.draw.rect(s, slicemap.shade(k % 2, 2), cell)
    elif name == "slices":  # (each slice's tone, numbered: never colour alone)
        side = r.width // 4
        for k in range(4):
            cell = pygame.Rect(r.x + k * side, r.y, side - 1, h)
            pygame.draw.rect(s, slicemap.tone(k, palette), cell)
            ov.text(str(k), cell.center, max(8, size - 3), (20, 20, 28), anchor="center",
                    shadow=False)
    elif name == "axes":
        for k, axis in enumerate("xyzw"):
            x = r.x + k * r.width // 4
            pygame.draw.line(s, views.AXIS_COLOURS[axis], (x + 2, r.bottom), (x + 2, r.y), 3)
