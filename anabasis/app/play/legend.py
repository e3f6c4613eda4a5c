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
    ("lanes", "lighter tiles: your row and column, the whole room across (not a route)"),
    ("pit", "a dark pit, rimmed: you slip kata (a rim in it, darker past it: 2+ slices;"
            " map: bars);"
            " \u2715: you fall out; no rim: a ramp steps over it"),
    ("ramp", "a ramp (teal): its high side's edge lit, it rises ana that way; a floor from"
             " any side; w up: a teal slope up one slice"),
    ("landing", "dashed lavender cell, chevrons: a ramp step lands there; a round window"
                " in a wall: no wall there"),
    ("ghost", "dashed outline: the floor one slice ana (blue; teal, chevrons up it: a ramp);"
              " under the goal: its floor, out of sight"),
    ("outline", "you in a round window cut in a block, pink-rimmed, the block's top edged"
                " across it: you stand behind the block"),
    ("cut", "dark stripes on a face: blocks cut away so you see in; they stand there"),
    ("feet", "pink dashes round you: your floor, where a crate in front hides your feet"),
    ("crate", "a crate, in from its cell's sides: its cell's floor round it, dark, dashed"),
    ("push", "dashed light orange cell, arrows: where a push takes the crate beside you"),
    ("goal", "gold-framed floor and a glow: the goal; a halo: it is slices away"),
    ("marker", "a gold diamond, or a crate's square, with \u201c2 ana\u201d: out of the slice"
               " or out of sight"),
    ("footprint", "a marker's framed cell: the floor under it; a pillar up to it: what"
                  " holds it in its own slice"),
    ("inside", "a marker in a dark round window on a block: its place is inside that"
               " block, in another slice"),
    ("ring", "a spreading ring: a crate just came to rest there"),
    ("behind", "a dashed cell over a wall, or behind a crate (\u201chidden by the crate\u201d):"
               " a step's cell out of sight behind it"),
    ("hint", "the green arrow: a hint, the next move of a shortest way"),
    ("badge", "a badge on a cell, or lined to it: what a step does (\u2022: walk);"
              " \u201cstays\u201d, \u2298: no move ({step_marks} held: all)"),
    ("height", "\u201cz 2\u201d on a top near you (w up: \u201cw 2\u201d): you'd stand there;"
               " \u201cwall \u00b7 z 2\u201d, \u201cw 2 \u00b7 no step up\u201d: no step can;"
               " a pit: slip to"),
    ("map", "slice map ({slice_map}; large: {large_map}, there {slice_map}: nearer): w 0 …;"
            " a number: the z you'd stand at; lighter: higher"),
    ("tag", "a tag on a map cell's corner, the cell outlined: a step goes there"
            " (\u2193 N: slips N; \u2298: no move)"),
    ("lands", "a dashed crate square on the map, an arrow into it: where a push's crate"
              " comes to rest"),
    ("wedge", "a light wedge on the map: a ramp, tip on its high side, its z on it; gold"
              " with a lit tip: off it you go ana"),
    ("gap", "dark on the map: \u2715 fall out; dim wedge: a ramp 1 kata, step in at its tip;"
            " alone: a ramp steps over it"),
    ("lip", "a top's edge dark, or lit with a shadow past it: a step down past it"),
    ("wall", "a wall to the room's top: dark, hatched, in the room and on the map (there with"
             " no number)"),
    ("rise", "w up: a block's side hatched: it rises over your floor, and no step climbs it"
             " (only a ramp takes you ana)"),
    ("hollow", "a dark notch with a number on the map: a floor under the top at that z"
               " (rimmed: it slips)"),
    ("held", "a floor framed in crate-brown, in the room and on the map: a crate 1 kata"
             " holds it up"),
    ("frame", "gold frame and \u201cyou\u201d on the map: your slice; \u21bb: w wraps"),
    ("slices", "a block's tone: the slice it is in (beside: w 0, w 1, w 2, w 3 …);"
               " the tops near you say it in words"),
    ("axes", "the axes: x red, y green, z blue, w gold, each named beside it"),
    ("plan", "{plan_view} or the middle button: the plan view, straight down"
             " · {settings}: settings"),
]



def landing_colour(palette: str = "standard") -> tuple[int, int, int]:
    """The landing marks' colour in ``palette``: the picture's own (``pose.PALETTES``)."""
    return tuple(round(255 * c) for c in pose.PALETTES[palette]["mark"])


TILE = (196, 178, 140)
#: the frame the picture draws round a floor a crate holds up (its CRATE_COLOUR)
HELD_FRAME = (199, 128, 61)
LANE = (222, 206, 170)
BLUE = (110, 150, 230)
PINK = (240, 120, 160)
PUSH = (255, 178, 107)  #: the push marks' colour (the shader's PUSH_COLOUR)


def _corners(rect: pygame.Rect) -> list[tuple[int, int]]:
    """A rectangle's four corners, round it, for :func:`markers.dashed_outline`."""
    return [rect.topleft, (rect.right - 1, rect.top), (rect.right - 1, rect.bottom - 1),
            (rect.left, rect.bottom - 1)]


#: The help's pages of marks, each a group a player looks in for one kind of mark: the
#: room's floors, walls and ramps; the pawn, crates, the goal and what a step does; the
#: slice map.  (Every mark of the room on one page, 25 lines, four blind players of four
#: found it hard to scan: "split it into groups", t283.)
PAGES = (
    ("floors, walls, ramps", frozenset({"lanes", "pit", "ramp", "landing", "ghost", "cut", "lip",
                                        "wall", "rise", "held", "height", "slices", "axes"})),
    ("you, crates, the goal, your steps",
     frozenset({"outline", "feet", "crate", "push", "goal", "marker", "footprint", "inside",
                "ring", "behind", "hint", "badge", "plan"})),
    ("the slice map", frozenset({"map", "tag", "lands", "wedge", "gap", "hollow", "frame"})),
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
    elif name == "held":  # a floor framed in the crate's colour; a map cell framed so too
        tile = pygame.Rect(r.x, r.y, r.width // 2 - 2, h)
        pygame.draw.rect(s, TILE, tile)
        pygame.draw.rect(s, HELD_FRAME, tile.inflate(-max(4, h // 4), -max(4, h // 4)),
                         max(2, h // 8))
        cell = pygame.Rect(0, 0, h, h)
        cell.midright = r.midright
        pygame.draw.rect(s, slicemap.shade(1, 3), cell)
        slicemap.held(s, cell, markers.colour_of("crate", palette))
    elif name == "pit":  # one you slip through, one you fall out from (crossed)
        pygame.draw.rect(s, TILE, r)
        for k, half in enumerate((r.inflate(-r.width // 2, 0).move(-r.width // 4, 0),
                                  r.inflate(-r.width // 2, 0).move(r.width // 4, 0))):
            hole = half.inflate(-max(2, half.width // 4), -h // 3)
            pygame.draw.rect(s, (25, 22, 30), hole)
            pygame.draw.rect(s, (90, 80, 70), hole, 1)
            if k:
                slicemap.cross(s, hole, stepmarks.colour_of("fall out", palette))
    elif name == "ramp":
        pygame.draw.polygon(s, (210, 200, 170), [r.bottomleft, r.bottomright, r.topright])
        pygame.draw.line(s, (255, 250, 230), r.bottomleft, r.topright, 2)
    elif name == "landing":
        # a dashed box with its chevrons up; beside it, a wall with the landing's round
        # window in its face
        mark = landing_colour(palette)
        box = pygame.Rect(r.x + 1, r.y + 1, r.width // 2 - 3, h - 2)
        markers.dashed_outline(s, mark, _corners(box), 2, 3)
        x = box.centerx
        pygame.draw.lines(s, mark, False, [(x - 3, c[1] + 2), (x, c[1] - 2), (x + 3, c[1] + 2)], 2)
        wall = box.move(r.width // 2 + 1, 0)
        pygame.draw.rect(s, (150, 140, 120), wall)
        markers.dashed_outline(s, mark, _corners(wall), 1, 3)
        hole = markers.window_in(_corners(wall), 0.7, 20)
        pygame.draw.polygon(s, (10, 12, 18), hole)
        pygame.draw.polygon(s, mark, hole, 1)
    elif name == "ghost":
        box = r.inflate(-2, -2)
        for k in range(0, box.width, 5):
            pygame.draw.line(s, BLUE, (box.x + k, box.y), (box.x + min(k + 2, box.width), box.y))
            pygame.draw.line(s, BLUE, (box.x + k, box.bottom), (box.x + min(k + 2, box.width),
                                                                box.bottom))
        for k in range(0, box.height, 5):
            pygame.draw.line(s, BLUE, (box.x, box.y + k), (box.x, box.y + min(k + 2, box.height)))
            pygame.draw.line(s, BLUE, (box.right, box.y + k), (box.right, box.y + min(
                k + 2, box.height)))
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
    elif name == "marker":
        pts = [(r.x + h // 2, r.y), (r.x + h, c[1]), (r.x + h // 2, r.bottom), (r.x, c[1])]
        pygame.draw.polygon(s, slicemap.YOU, pts, 2)
        ov.text("2", (r.x + h + 2, c[1]), max(8, size - 3), slicemap.YOU, anchor="midleft")
    elif name == "footprint":
        foot = pygame.Rect(r.x + h // 3, r.bottom - h // 3, r.width - h // 2, h // 3)
        pygame.draw.rect(s, slicemap.YOU, foot, 1)
        top = (r.x + h // 2, r.y + h // 6)
        pygame.draw.polygon(s, slicemap.YOU, [(top[0], top[1] - h // 6), (top[0] + h // 6, top[1]),
                                              (top[0], top[1] + h // 6), (top[0] - h // 6, top[1])],
                            1)
        pillar = pygame.Rect(foot.x, top[1] + h // 6, foot.width, foot.bottom - top[1] - h // 6)
        shade = pygame.Surface(pillar.size, pygame.SRCALPHA)
        shade.fill((*slicemap.YOU, 60))
        s.blit(shade, pillar.topleft)
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
    elif name == "badge":
        pygame.draw.rect(s, (12, 14, 20), r, border_radius=4)
        pygame.draw.rect(s, stepmarks.colour_of("climb", palette), r, 1, border_radius=4)
        ov.text(stepmarks.GLYPH["climb"], c, max(8, size - 2),
                stepmarks.colour_of("climb", palette), anchor="center", shadow=False)
    elif name == "height":  # (a top's height tag, as the room writes one)
        pygame.draw.rect(s, TILE, r)
        tag = r.inflate(-max(2, r.width // 8), -max(2, h // 3))
        pygame.draw.rect(s, (12, 14, 20), tag, border_radius=3)
        ov.text("z", tag.center, max(8, size - 3), views.AXIS_COLOURS["z"], anchor="center",
                shadow=False)
    elif name == "map":
        half = r.width // 2
        pygame.draw.rect(s, slicemap.shade(0, 3), pygame.Rect(r.x, r.y, half, h))
        pygame.draw.rect(s, slicemap.shade(2, 3), pygame.Rect(r.x + half, r.y, half, h))
    elif name == "wedge":
        pygame.draw.rect(s, slicemap.shade(1, 3), r)
        tip, back = (r.right - 3, c[1]), r.x + r.width // 4
        pygame.draw.polygon(s, slicemap.RAMP_MARK, [tip, (back, r.y + 2), (back, r.bottom - 2)])
        lit = slicemap.SAFE["LIFT"] if palette == "safe" else slicemap.LIFT
        pygame.draw.rect(s, lit, (r.right - max(2, h // 6), r.y + h // 5, max(2, h // 6),
                                  h - 2 * (h // 5)))
    elif name == "gap":
        slicemap.gap(s, pygame.Rect(r.x, r.y, h, h))
    elif name == "tag":
        pygame.draw.rect(s, slicemap.shade(1, 3), r)
        tag = pygame.Rect(r.x, r.y, max(8, h * 2 // 3), max(8, h * 2 // 3))
        colour = stepmarks.colour_of("walk", palette)
        pygame.draw.rect(s, (12, 14, 20), tag, border_radius=tag.height // 3)
        pygame.draw.line(s, colour, (tag.x + 2, tag.bottom - 2), (tag.right - 3, tag.bottom - 2), 2)
        ov.text("1", tag.center, max(8, tag.height - 1), colour, anchor="center", shadow=False)
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
    elif name == "hollow":
        pygame.draw.rect(s, slicemap.shade(2, 3), r)
        side = max(6, h * 2 // 3)
        notch = pygame.Rect(r.x, r.bottom - side, side, side)
        pygame.draw.rect(s, slicemap.HOLLOW, notch, border_top_right_radius=max(1, side // 3))
        ov.text("1", notch.center, max(8, side - 1), slicemap.HOLLOW_INK, anchor="center",
                shadow=False)
        pit = notch.move(r.width - side, 0)  # and one that slips, rimmed
        pygame.draw.rect(s, slicemap.PIT, pit, border_top_right_radius=max(1, side // 3))
        pygame.draw.rect(s, slicemap.PIT_RIM, pit, 1, border_top_right_radius=max(1, side // 3))
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
        tones = pose.PALETTES.get(palette, pose.PALETTES["standard"])["tones"]
        side = r.width // 4
        for k in range(4):
            cell = pygame.Rect(r.x + k * side, r.y, side - 1, h)
            pygame.draw.rect(s, tuple(round(255 * v) for v in tones[k]), cell)
            ov.text(str(k), cell.center, max(8, size - 3), (20, 20, 28), anchor="center",
                    shadow=False)
    elif name == "axes":
        for k, axis in enumerate("xyzw"):
            x = r.x + k * r.width // 4
            pygame.draw.line(s, views.AXIS_COLOURS[axis], (x + 2, r.bottom), (x + 2, r.y), 3)
