"""The HUD over a room: name and lesson, moves and par, height, the axes, a hint.

Drawn into the overlay Surface only when what it shows changes (the key
passed to ``Overlay.begin``); during a turn or an orbit the axes move every
frame, so it is redrawn every frame then.

The axes gizmo shows where each 4D axis points on screen, in fixed colours
(x red, y green, z blue, w gold), projected through the slice's basis and
the camera; an axis that is mostly hidden (out of the slice) is drawn short
and dim, and the line under it says which axis is across, up and hidden.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pygame

from anabasis.app.play import daily_card, hook, legend, markers, reading, recipe
from anabasis.app.settings.keymap import key_label
from anabasis.app.shell.overlay import DIM, GOLD, GOOD, INK, WARN
from anabasis.app.viewer.projection import projector, to_slice
from anabasis.engine.moves import HOOKS, STEPS
from anabasis.picture import views

#: The key line at the bottom; each ``{action}`` is written as its key (``Keymap.text``).
HINT_HEAD = "{arrows} move · {turn} turn · {undo} undo · {restart} restart · {hint:?} hint"
#: The plan view's key is in it: blind players misread heights as rows in the slanted
#: camera, round which the plan view (straight down) is the way, and none found the key.
HINT_TAIL = (" · {plan_view} from above · {orbit_left}/{orbit_right} orbit · {copy} code"
             " · {help} help · {back} levels")
HINT = HINT_HEAD + HINT_TAIL
#: Where the step marks do not show by themselves (made rooms, by default), the key line
#: names the key that shows them: both blind playtesters looked for them there.
HINT_MARKS = " · {step_marks} held: marks"
#: Where the map is in its corner, its large form's key; and while it is large, first,
#: the way back to the room.
HINT_LARGE = " · {large_map} large map"
HINT_BACK = "{large_map} back to the room"
#: the map's key while the map is large, where it comes nearer (a big room), or goes back
#: to every slice
#: ("Tab nearer" read to a blind player as a camera's zoom: found only after two rooms)
HINT_NEARER = "{slice_map} 3 slices, larger"
HINT_ALL = "{slice_map} all slices"

HELP = [
    "Controls",
    "{arrows+wasd}: step the way it looks on screen",
    "{turn*}: turn to the next view (stand, w up, both downs)",
    "{orbit_left} / {orbit_right}: a tap turns the camera a step, holding turns it"
    " · mouse drag: orbit · wheel: zoom",
    "{undo*}: undo (as often as you like) · {restart}: restart",
    "{hint:?} or {hint:/}: a hint, the next move of a shortest solution (again: the one after)",
    "{copy}: copy the room code · {screenshot}: screenshot · {fullscreen}: fullscreen"
    " · {mute}: sound · {volume_down} / {volume_up}: volume",
    "{edit_room}: open this room in the editor (a level's edits are saved as a new room)",
    "{recipe}: in a made room, its recipe: what it is made of (it gives the puzzle away)",
    "",
    "The views, and what each is best for",
    "stand (z up, w hidden): walking, and what is in your way in your slice",
    "w up (w up, z hidden): what holds you in w, and where you would slip off it",
    "both downs (z up, w along the floor, y hidden): ramps and stairs; no step in y there",
    "\u201chidden -z\u201d by the gizmo: the axis the picture leaves out (the sign: which way)",
    "The ring at the gizmo's centre: that hidden axis, seen end on, pointing out of the screen",
    "A gold diamond or a crate's square marks the goal or a crate out of sight: \u2191 2 ana",
    "",
    "The rules",
    # (the rules' words unsaid: "ana", "kata" and "two downs" read to blind players of every
    # round as jargon, t286 to t294)
    "The room has four axes, x, y, z and w; each w is a slice. Ana is +w, kata is -w.",
    "Two downs: things fall in z (-z), and also kata; down in z first, where they can.",
    "You rest only where something holds you from below in z and from kata in w.",
    "Walk past the end of the block kata of you and you slip kata, a slice or more.",
    "Only a ramp takes you ana, and never a crate; a ramp under your feet holds you up.",
    "A ramp takes you ana only round what blocks its high side, or over a gap: onto open"
    " floor, or the next ramp, you walk in your slice.",
    "A step into something one high climbs onto it, if the cells above you and it are free.",
    # (said "then it is pushed, never climbed", a blind player read that crates are never
    # climbed, and planned a detour round one he could have climbed)
    "Push a crate where the cell beyond is free. Crates fall kata too.",
    # (a blind player took a red cross's cell for one a crate would not go into, and so for
    # a step: t350)
    "Pushed onto a red \u2715, a crate falls out of the room and is gone (Z undoes it).",
    # (one line with the push, a blind player found the climb "buried mid-paragraph", and
    # three of six stood under a goal two high with no idea a crate could be a step)
    "A crate that cannot move is a step: you climb onto it as onto a block.",
    "Reach the glowing cell. Falling out of the world is undone.",
    "A floor drawn as a dark pit has nothing kata of it: step on it and you slip.",
    "A hollow cell with arrows is where a step off a ramp lands: up ana, down kata.",
]

HEADINGS = ("Controls", "The views, and what each is best for", "The rules")

_SCALE_OF = {"dim": DIM, "info": INK, "warn": WARN, "good": GOOD}

#: The hint arrow's fill and outline: a green no cell of the room is drawn in.
HINT_COLOUR = (150, 255, 70)
HINT_EDGE = (10, 30, 0)
#: Where the hint arrow runs, in cells along the move from the player's centre.
HINT_FROM, HINT_TO = 0.3, 1.0
HINT_LOW = 0.4  #: how far below the player's centre it runs, in cells: near its feet


def _axis_screen(b: np.ndarray, camera: views.Camera) -> list[tuple[str, float, float, float]]:
    """(axis, screen x, screen y, in-slice fraction) of each 4D axis, for the gizmo."""
    _, fwd, right, up = camera.frame()
    out = []
    for k, name in enumerate(views.AXES):
        v = b[k, :3]  # the axis in slice coordinates (across, depth, up)
        out.append((name, float(v @ right), float(v @ up), float(np.linalg.norm(v))))
    return out


@dataclass(frozen=True)
class Shown:
    """Everything the HUD over a room shows, made once a frame from the scene: the HUD is
    drawn from this value alone, and drawn again only when it changes."""

    size: tuple[int, int]
    title: str
    teaches: str
    moves: str  #: "moves 3   par 5"
    best: str
    height: tuple[int, int]  #: the player's z and w as drawn
    goal: tuple[int, int]  #: the goal's z and w
    marks: tuple  #: the markers out of the slice (their places to a pixel), or () when hidden
    rings: tuple  #: ((x, y), age) of each crate that just landed
    axes: tuple  #: the gizmo: (axis, x, y, how much of it lies in the slice), to 1%
    labels: tuple  #: ("across", "+x"), ("up", ...), ("hidden", ...)
    view: tuple[str, ...]  #: the lines over the axes (:func:`view_words`)
    hint_line: str  #: the key line at the bottom
    no_renderer: bool
    message: tuple | None  #: (text, kind) of the message of the moment
    hint: tuple | None  #: (words, the arrow's (tail, tip) or None)
    building: str
    win: tuple | None  #: the win panel: (moves line, note, its colour, the way on, the keys)
    help: tuple | None  #: the help panel's lines, while it is open
    #: the help's page (0: controls, views, rules; then the marks, a group a page) and the
    #: key that turns it
    help_page: tuple = (0, "H")
    daily: tuple | None = None  #: after a win of today's room: its card (daily_card.shown)
    #: the hook's part, in a hook room (its line in flight, the crate on your head, ready):
    #: :func:`anabasis.app.play.hook.shown`
    hook: tuple | None = None
    legend: tuple | None = None  #: the help's legend: (name, words) of each mark
    #: the slice map, the step marks and the camera they are placed by (``reading.map_key``
    #: and the camera to a hundredth): what they depend on
    reading: tuple = ()
    palette: str = "standard"  #: the settings' palette (the off-slice markers' colours)
    #: what draws them: (the scene, the basis, the camera); not part of what is compared
    reader: tuple | None = field(default=None, compare=False)

    @classmethod
    def of(cls, play, size: tuple[int, int]) -> Shown:
        opened = play.opened
        app = play.app
        keys = app.keymap
        # the height as drawn: it changes cell by cell as the player falls or climbs
        drawn = play.pose().player
        z, w = math.floor(drawn[2] + 0.5), math.floor(drawn[3] + 0.5)
        extent = opened.room.size
        w = w % extent[3] if opened.room.wrap else min(max(w, 0), extent[3] - 1)
        # (a fall out of the room plays past its end before it is undone: "w -1" there read
        # to a blind player as where he was, t340; the panel stops at the room's edge)
        z = min(max(z, 0), extent[2] - 1)
        sight = play.sight
        camera = sight.camera
        b = sight.basis()
        title = f"{opened.number} · {opened.title}" if opened.kind == "level" else opened.title
        par = opened.par  # a shared room's par arrives once proved
        best = app.progress.best.get(opened.key)
        helped = app.progress.best_hinted.get(opened.key)
        if best is not None:  # (solved, said: the win panel stepped aside as the view
            # turned, and a blind player, "best 6" alone left, thought the room not won)
            best_text = f"solved · best {best}"
        else:  # a win with hints is not a solve of your own: said so
            best_text = f"with hints: best {helped}" if helped is not None else "not solved yet"
        marks = rings = ()
        if not play.won and not play.help:
            # the goal and crates out of the slice on screen, where they would be (to a pixel)
            marks = tuple(m._replace(at=(round(m.at[0]), round(m.at[1])))
                          for m in markers.find(opened.room, play.state, drawn, b, camera,
                                                size))
            if any(m.won for m in play.reading.badged(play.reading.step_marks(), b,
                                                      camera.yaw)):
                # a step's badge says "· goal": the goal is the next cell, and its marker
                # "goal behind a wall" beside that badge read as a second goal
                marks = tuple(m for m in marks if not (m.what == "goal" and m.hidden))
            # crates that just landed: a ring spreads where each came to rest
            rings = tuple(((round(x), round(y)), round(age * 30) / 30)
                          for (x, y, _), age in
                          ((markers.project(cell, drawn, b, camera, size),
                            (play.clock - at) / markers.RING_S) for cell, at in play.rings))
        labels = views.screen_labels(b, camera)  # (across: the right arrow's step)
        hint_line = key_line(play)
        return cls(
            size=size, title=title, teaches=opened.room.teaches,
            moves=f"moves {play.game.moves}" + (f"   par {par}" if par is not None else ""),
            best=best_text, height=(z, w), goal=(opened.room.goal[2], opened.room.goal[3]),
            marks=marks, rings=rings,
            axes=tuple((name, round(x, 2), round(y, 2), round(inside, 2))
                       for name, x, y, inside in _axis_screen(b, camera)),
            labels=(("across", labels["across"]), ("up", labels["up"]),
                    ("hidden", labels["hidden"])),
            view=view_words(sight, app.keymap),
            hint_line=hint_line, no_renderer=play.renderer is None,
            message=((play.message, play.message_kind)
                     if play.message and play.message_left > 0 else None),
            hint=_hint_shown(play, size), building=app.building,
            win=_win_shown(play) if play.won and play.daily is None and not play.win_aside
            else None,
            daily=daily_card.shown(play) if play.won and play.daily is not None else None,
            help=tuple(keys.text(line) for line in help_lines(play)) if play.help else None,
            help_page=((play.help_page, keys.label("help"), page_key(keys, "left"),
                        page_key(keys, "right")) if play.help else (0, "")),
            hook=hook.shown(play, size) if not play.won and not play.help else None,
            legend=tuple(legend.lines(keys)) if play.help else None,
            reading=(reading.map_key(play), round(camera.distance, 2),
                     tuple(round(t, 2) for t in camera.target), round(camera.yaw, 2),
                     round(camera.pitch, 2)) if not play.help else (),
            palette=app.progress.palette,
            reader=(play, b, camera),
        )


def draw(ov, play) -> None:
    """Draw the HUD of scene ``play`` into overlay ``ov`` (only when what it shows changed)."""
    shown = Shown.of(play, ov.size)
    if not ov.begin(shown):
        return
    draw_shown(ov, shown)


#: The ground of the message of the moment's panel.
MESSAGE_GROUND = (12, 14, 20, 190)


def title_place(ov, shown: Shown) -> tuple[list[str], pygame.Rect]:
    """The title panel's lines under the title (what the room teaches, two at most) and its
    rectangle, top left: as wide as the longest of them and the title (a made room's
    "medium room · medium.eland14" ran past a panel as wide as its name under it, and the
    message beside it hid its end, t344, t346)."""
    W, _ = ov.size
    s = ov.scale
    big, small, pad = int(30 * s), int(18 * s), int(18 * s)
    teach_lines = ov.wrap(shown.teaches, small, int(W * 0.55))[:2] if shown.teaches else []
    widest = max([ov.width_of(t, small) for t in teach_lines] + [int(260 * s)]
                 + [min(ov.width_of(shown.title, big), int(W * 0.55))])
    return teach_lines, pygame.Rect(pad // 2, pad // 2, widest + 2 * pad,
                                    big + 10 + len(teach_lines) * (small + 3) + pad)


def draw_shown(ov, shown: Shown) -> None:
    """Draw ``shown`` into overlay ``ov``: the HUD, read from the value alone."""
    W, H = ov.size
    s = ov.scale
    big, mid, small = int(30 * s), int(22 * s), int(18 * s)
    pad = int(18 * s)
    band = (10, 12, 18, 150)  # the panels that keep text readable over any scene
    teach_lines, title_panel = title_place(ov, shown)
    # what lies in your own column along the hidden axis (a crate just kata of you): said
    # in the panel, under your height, not by the pawn (read as the next cell's)
    yours = markers.of_you(shown.marks)
    right_panel = pygame.Rect(W - int(250 * s), pad // 2, int(250 * s) - pad // 2,
                              mid + small + 2 * mid + int(40 * s)
                              + len(yours) * (small + int(10 * s)))
    # a panel over the room fades, so that the room's top rows show through it
    play, b, camera = shown.reader if shown.reader else (None, None, None)
    corners = reading.room_corners(play, b, camera, ov.size) if play is not None else None
    room_rect = reading.corners_box(corners)
    key_bar = pygame.Rect(0, reading.key_bar_top(ov) + 4, W, small + 2 * pad)
    ov.panel(key_bar, reading.band_over(band, key_bar, room_rect), 0)
    large = play is not None and play.reading.large  # the map over the room, on its key
    if not large:  # (the large map takes the window's height: the panels wait for it)
        ov.panel(title_panel, reading.band_over(band, title_panel, room_rect), 10)
        ov.panel(right_panel, reading.band_over(band, right_panel, room_rect), 10)

        # top left: where you are and what it teaches
        ov.text(shown.title, (pad, pad), big, GOLD)
        for i, line in enumerate(teach_lines):
            ov.text(line, (pad, pad + big + 4 + i * (small + 3)), small, DIM)

        # top right: moves, par, best, height
        ov.text(shown.moves, (W - pad, pad), mid, INK, anchor="topright")
        ov.text(shown.best, (W - pad, pad + mid + 4), small, DIM, anchor="topright")
        z, w = shown.height
        hy = pad + mid + small + 12
        ov.text("height", (W - pad - int(150 * s), hy), small, DIM)
        ov.text(f"z {z}", (W - pad - int(70 * s), hy), mid, views.AXIS_COLOURS["z"],
                anchor="topright")
        ov.text(f"w {w}", (W - pad, hy), mid, views.AXIS_COLOURS["w"], anchor="topright")
        # where the goal is, on the same scale: it may lie slices away, out of sight
        gy = hy + mid + 6
        gz, gw = shown.goal
        ov.text("goal", (W - pad - int(150 * s), gy), small, DIM)
        ov.text(f"z {gz}", (W - pad - int(70 * s), gy), mid, _soft(views.AXIS_COLOURS["z"]),
                anchor="topright")
        ov.text(f"w {gw}", (W - pad, gy), mid, _soft(views.AXIS_COLOURS["w"]), anchor="topright")
        for i, (what, words) in enumerate(yours):
            _of_you_line(ov, what, words, (W - pad, gy + mid + 8 + i * (small + int(10 * s))),
                         small, shown.palette)

    map_rect, badges, badged, gizmo = None, [], [], None
    groups = None  # the markers' groups, where the badges were placed off their shapes
    tag = hook.head_rects(ov, play, s) if play is not None else []  # a crate on your head
    # a crate's landing ring first: the badges and markers over it stay whole (a blind
    # player read a ring cutting "walk" to "wal"); not over the large map, where its place in
    # the room lay on another slice's panel (a blind player read it as something there)
    for at, age in () if large else shown.rings:
        markers.draw_ring(ov, at, age, s)
    band_top = reading.key_bar_top(ov)
    marks_top = right_panel.bottom
    keep = (reading.keep_clear(play, b, camera, ov.size)
            if play is not None and shown.help is None else [])
    pawn = keep[:1]  # the off-slice markers keep off the pawn too
    if play is not None and shown.help is None:
        # the slice map, bottom left (moved off the room; a layer of its own, under all
        # drawn here); the step marks' badges on their cells, placed (drawn below)
        gizmo = pygame.Rect(W - pad - int(150 * s), H - pad - int(200 * s), int(150 * s),
                            int(200 * s))
        top = reading.large_top(ov) if large else title_panel.bottom
        map_rect = reading.draw_map(ov, play, band_top, pad, top, room_rect, [gizmo], keep,
                                    markers.convex_hull(corners) if corners else None)
        if not large:  # (the large map lies over the room: the marks are on it)
            # (off the markers' shapes: a badge over the goal's diamond hid it, t340)
            groups = markers.shape_groups(ov, list(shown.marks), s, marks_top, band_top)
            # (and a moved badge's line ends off the shapes and the round windows: ending in
            # the goal's window, level 7's "stays · a wall" read as the goal's words, t349)
            half = markers.shape_half(s)
            faces = [m.face for m in shown.marks if m.face]
            badged = reading.place_marks(
                ov, play, b, camera, s, [r for r in (map_rect, right_panel, gizmo) if r]
                + markers.shape_boxes(groups, s)
                + [reading.points_box(markers.window_in(f)).inflate(half, half) for f in faces],
                ends_off=([markers.shape_box(at, half) for _, at, _ in groups], faces))
            badges = [m.rect for m in badged]
            play.reading.badge_rects = badges
            play.reading.badge_ends = [m.at for m in badged if m.at]
            play.reading.gizmo_rect = gizmo
    marked = []  # the markers' boxes (their shapes and words)
    placed, seen = [], None
    if not large and play is not None and shown.help is None:
        # the floor each crate in sight stands on (its top lies over the row behind)
        seen = reading.crates_in_sight(play, b, camera, ov.size)  # (floors, then boxes)
        reading.paint_crate_floors(ov, seen, s, shown.palette, *pawn)
        # where the pawn stands, where a crate or a block in front hides its feet
        reading.paint_pawn_floor(ov, reading.pawn_floor(play, b, camera, ov.size), s)
    if not large:
        # the markers: their words placed clear of the badges; their shapes, and the lines
        # from moved words, under the badges (a badge stays whole over a marker on its cell)
        # (clear of the gizmo and its "view:" caption too: a blind player read "goal ↑ 2"
        # run into it as "goal ↑ 2view: stand")
        # (and off the crates in sight: a crate's words moved onto another read as its)
        crates = (reading.crate_boxes(play, b, camera, ov.size, seen)
                  if play is not None and shown.marks else [])
        # (over a plain walk's dot rather than two cells off their shape)
        dots = [m.rect for m in badged if m.text in reading.GLYPH_ALONE]
        firm = [m.rect for m in badged if m.text not in reading.GLYPH_ALONE]
        # (by a badge over its shape, the words lie just by it, a label of their own: never
        # joined to it as one label, read as one sentence by blind players)
        # (nor on the dot a moved badge's line ends in, on its cell: covered by a crate's
        # words, the line led nowhere, t346)
        ends = [pygame.Rect(m.at[0] - 5, m.at[1] - 5, 11, 11) for m in badged if m.at]
        placed = markers.place(ov, list(shown.marks), s, marks_top, band_top,
                               [r for r in (map_rect, *firm, *tag, gizmo, *crates, *ends)
                                if r],
                               *pawn, soft=dots, beside=firm, groups=groups)
        markers.draw_shapes(ov, placed, s, shown.palette, *pawn)
        markers.draw_lines(ov, placed, s, shown.palette, *pawn)
        marked = markers.boxes(placed, s)
        if play is not None:
            play.reading.word_rects = [p.words for p in placed if not p.shared]
            play.reading.placed = placed
            # the height of each top round the pawn, as the HUD says yours, with the step
            # marks: clear of all else (the tops' words are the first to go)
            heights = (reading.top_heights(play, b, camera, ov.size)
                       if shown.help is None and play.reading.showing_marks else [])
            # (nor on a marker's face, a thing of another slice drawn on a block: a height
            # there reads as that thing's; off the pawn's figure and its floor, where a
            # height reads as yours)
            taken = [] if not heights else [r for r in (
                map_rect, title_panel, right_panel, gizmo, *badges, *marked,
                *(p.words for p in placed),  # (a label's own box: kept apart at its ends)
                *(reading.points_box(p.marker.face) for p in placed if p.marker.face),
                # (nor in a step's cell hidden from the eye, outlined over what hides it: a
                # "wall · z 2" in level 7's read to a blind player as that cell's, t264)
                *(reading.points_box(m.floor) for m in badged if m.floor),
                *(p.inflate(-p.width // 4, -p.height // 4) for p in pawn),
                reading.pawn_floor_box(play, b, camera, ov.size), *tag, *crates,
                pygame.Rect(0, band_top, W, H - band_top)) if r]
            play.reading.height_rects = reading.paint_top_heights(
                ov, heights, s, taken, shown.palette)
    if shown.hint is not None and not large:
        # (under the badges, whose words stay whole; not over the large map, where it lay
        # on another slice's panel: a blind player read it as there)
        _hint_arrow(ov, shown.hint)
    elif shown.hint is not None and play is not None:
        # over the large map, on it: from the pawn's cell toward the step's (a blind player
        # planning there found the words alone, and no green arrow the help promised)
        line = map_hint_line(play)
        if line is not None:
            _arrow(ov.surface, *line[:2], line[2])
    reading.paint_marks(ov, badged)
    markers.draw_words(ov, placed, s, shown.palette, *pawn, lines=False)

    # bottom right: the axes gizmo, turning with the view and the camera (not over the
    # large map: the room is under it)
    r = int(46 * s)
    cx, cy = W - pad - r - int(20 * s), H - pad - r - int(56 * s)
    if not large:
        pygame.draw.circle(ov.surface, (10, 12, 18, 150), (cx, cy), r + int(14 * s))
    for name, sx, sy, inside in sorted(shown.axes if not large else (),
                                       key=lambda a: a[3]):
        colour = views.AXIS_COLOURS[name]
        if inside < 0.35:
            colour = tuple(int(c * 0.45) for c in colour)
        if inside < 0.15:
            # out of the slice: a ring round the centre, the axis's name beside it
            pygame.draw.circle(ov.surface, colour, (cx, cy), int(9 * s), max(1, int(2 * s)))
            ov.text(name, (cx - int(12 * s), cy + int(10 * s)), small, colour,
                    anchor="topright")
            continue
        ex, ey = cx + sx * r, cy - sy * r
        pygame.draw.line(ov.surface, colour, (cx, cy), (ex, ey), max(2, int(3 * s)))
        ov.text(name, (int(cx + sx * (r + 11 * s)), int(cy - sy * (r + 11 * s))), small,
                colour, anchor="center")
    lx = W - pad
    for word, lab in reversed(shown.labels if not large else ()):
        rect = ov.text(f"{word} {lab}", (lx, H - pad - small + 2), small,
                       views.AXIS_COLOURS[lab[1]], anchor="topright")
        lx = rect.left - int(12 * s)
    if not large:  # the view, and over it which the turn key goes to next: two lines, in
        # the gizmo's width (one, it reached into the room in a small window)
        for i, line in enumerate(reversed(shown.view)):
            ov.text(line, (cx, cy - r - int(34 * s) - i * (small + 2)), small, DIM,
                    anchor="center")

    # bottom: the one-line hint
    hint = shown.hint_line
    # (as wide as the bar over the large map, where no axes are named at its right: cut to
    # the room's width there, "R restart" went once the moves reached ten, t311)
    most = W - 2 * pad if large else W * 0.62
    while ov.width_of(hint, small) > most and " · " in hint:
        hint = hint.rsplit(" · ", 1)[0]  # a narrow window: drop the least needed keys
    ov.text(hint, (pad, H - pad - small + 2), small, INK)

    if shown.no_renderer:
        ov.text("(the 3D view is not available: no renderer)", (W // 2, H // 2), mid, WARN,
                anchor="center")

    # the message of the moment
    if shown.message is not None:
        text, kind = shown.message
        colour = _SCALE_OF.get(kind, INK)
        # in two lines at most, the width between the top panels, where it fits there
        gap = W - 2 * pad if large else right_panel.left - title_panel.right - 16
        lines = ov.wrap(text, mid, min(W - 2 * pad, gap) - 40)
        if len(lines) > 2:
            lines = ov.wrap(text, mid, W - 2 * pad - 40)
        line_h = mid + 6
        rect = _message_place(
            pygame.Rect(0, 0, max(ov.width_of(t, mid) for t in lines) + 40,
                        line_h * len(lines) + 14),
            (W, H), None if large else title_panel, right_panel, band_top,
            reading.drawn_rect(play, b, camera, ov.size) if play is not None else None,
            map_rect, [*pawn, *badges, *marked, *tag, *_hook_line_rect(shown.hook, s)])
        ov.panel(rect, MESSAGE_GROUND, 8)
        for i, line in enumerate(lines):
            ov.text(line, (rect.centerx, rect.y + 10 + i * line_h), mid, colour,
                    anchor="midtop")

    if shown.hook is not None:  # (over the message: where none is clear of the flight, as
        hook.draw(ov, shown.hook, s)  # in a small window, the flight shows whole)
    if shown.hint is not None:
        _hint(ov, shown.hint, pad, mid, small, large)
    if map_rect is not None and shown.win is None:  # the map's column under the pointer
        reading.draw_hover(ov, play, s, band_top)

    if shown.building:
        ov.text(f"building {shown.building}…", (W // 2, int(H * 0.24)), mid, GOLD,
                anchor="center")

    if shown.win is not None:
        _win_panel(ov, shown.win, s)
    if shown.daily is not None:
        daily_card.draw(ov, shown.daily, s)
    if shown.help is not None:
        help_panel(ov, s, shown.help, shown.legend or (), shown.palette, *shown.help_page)
    ov.upload()


def _message_place(rect: pygame.Rect, size: tuple[int, int], title: pygame.Rect | None,
                   right: pygame.Rect, band_top: int, room: pygame.Rect | None,
                   the_map: pygame.Rect | None, near: list) -> pygame.Rect:
    """Where the message of the moment (its box: ``rect``) is drawn: the first of three
    places clear of the room (``room``: what its drawn blocks cover), the map and ``near``
    (the pawn, the badges, the markers): between the top panels (``title``: None where
    they are not drawn), under them, over the key bar (a blind player found a view's tip
    over the back of the room for several moves, and over the large map: with that map up,
    the key bar's own place, where it fits there); where none is,
    between the panels if it fits there clear of the map and ``near``, a panel among them;
    else under the panels, or the nearest place to that clear of ``near`` and the map."""
    W, H = size
    between = rect.copy()
    if title is not None:
        between.midtop = ((title.right + right.left) // 2, title.top)
    else:
        between.midtop = (W // 2, right.top)
    fits = title is None or (between.left > title.right + 8 and between.right < right.left - 8)
    under = rect.copy()
    under.midtop = (W // 2, max(int(H * 0.16), right.bottom + 8))
    over_bar = rect.copy()
    over_bar.midbottom = (W // 2, band_top - 8)
    taken = [*near, *(r for r in (the_map,) if r)]
    spots = ([between] if fits else []) + [under, over_bar]
    if title is None:  # the large map over the room: over its top where it fits (over the
        # key bar, two blind players lost the key line under each ramp's "ana to w 2"),
        if the_map is not None:  # else over the key bar, where it fits
            over_map = rect.copy()
            over_map.midbottom = (W // 2, the_map.top - 2)
            if over_map.top >= 0:
                return over_map  # (nothing of the room shows: the map is all there is)
        over_keys = rect.copy()
        over_keys.midtop = (W // 2, band_top + 2)
        spots = [over_keys] if over_keys.bottom <= H else spots
    for spot in spots:
        if spot.collidelist([*taken, *(r for r in (room,) if r)]) < 0:
            return spot
    if fits and between.collidelist(taken) < 0:
        return between
    return markers.clear_of(under, taken, right.bottom + 4, band_top - 4, W)


def hint_arrow(play, size) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where the hint arrow runs on screen, tail to tip, in pixels of a ``size`` picture.

    None when no hint is shown, while a move plays, or when the move's axis
    is hidden or points along the line of sight (the words say what to do).
    """
    moves = play.hints.revealed()
    if not moves or play.animating:
        return None
    d = np.array({**STEPS, **HOOKS}[moves[0]], float)
    b, camera = play.sight.basis(), play.sight.camera
    feet = -HINT_LOW * b[:, 2]  # down the picture's up axis: on the floor the player stands on
    at = projector(camera, size)
    *a, tail_depth = at(to_slice(feet + HINT_FROM * d, b))
    *z, tip_depth = at(to_slice(feet + HINT_TO * d, b))
    if tail_depth <= 1e-6 or tip_depth <= 1e-6:  # at or behind the eye
        return None
    a, z = tuple(a), tuple(z)
    H = size[1]
    if math.hypot(z[0] - a[0], z[1] - a[1]) < 0.02 * H:
        return None
    return a, z


def map_hint_line(play) -> tuple[tuple[int, int], tuple[int, int], int] | None:
    """The hint's arrow on the large map, in window pixels: (tail, tip, half its width),
    from the middle of the pawn's cell toward the cell of its step in its slice; None where
    no step's hint is shown (a hook's is said in words), while a move plays, or where the
    pawn's cell is not on the map drawn (the nearer map shows a part)."""
    moves = play.hints.revealed()
    rd = play.reading
    smap, rect = rd.drawn_map, rd.map_rect
    if not moves or moves[0] not in STEPS or play.animating or smap is None or rect is None:
        return None
    x, y, _, w = play.room.norm(tuple(math.floor(float(v) + 0.5) for v in play.pose().player))
    lay = smap.layout
    cell = lay.cell_rect(x, y, w).move(rect.x - rd.drawn_from, rect.y)
    if not rect.collidepoint(cell.center):
        return None
    dx, dy = STEPS[moves[0]][:2]
    tail = cell.center
    tip = (round(tail[0] + dx * lay.cell * 0.95), round(tail[1] + dy * lay.cell * 0.95))
    return tail, tip, max(2, lay.cell // 10)


def hint_arrow_key(play, move: str) -> str | None:
    """The name of the key that plays ``move`` now (mid-turn: in the view turned to)."""
    if move in HOOKS:
        return hook.hint_words(play, move)
    b = views.view_basis(play.sight.view)  # a move waits for a turn to end: name its key then
    arrow = views.move_to_arrow(b, play.sight.camera.yaw, move)
    if arrow is None:
        return None
    return play.app.keymap.label(arrow) or key_label(arrow)


def _hint_shown(play, size) -> tuple | None:
    """The hint's part of the HUD: its words and its arrow (to a tenth of a pixel), or None."""
    from anabasis.app.play.hints import THINKING_TEXT

    hints = play.hints
    if hints.wanted:
        words = THINKING_TEXT
    else:
        words = hints.words(lambda move: hint_arrow_key(play, move),
                            play.app.keymap.label("turn"))
    if not words:
        return None
    line = hint_arrow(play, size)
    if line is not None:
        line = tuple(tuple(round(c, 1) for c in p) for p in line)
    revealed = hints.revealed()
    return words, line, bool(revealed) and revealed[0] in HOOKS


def _hint_arrow(ov, hint: tuple) -> None:
    """The hint's arrow on the player's cell (drawn under the step badges: a blind player
    found it over their words)."""
    line = hint[1]
    if line is not None:
        _arrow(ov.surface, *line, max(3, int(ov.size[1] * 0.008)))


def _hint(ov, hint: tuple, pad: int, mid: int, small: int, large: bool = False) -> None:
    """The hint's keys to press, in words, over the key bar (over the large map, in the key
    bar's right end, where the room's axis names are: over the map it hid the map's key),
    and for a hook move the hook's head at the arrow's tip, over all (:func:`_hint_arrow`
    draws the arrow)."""
    words, line, is_hook = hint
    W, H = ov.size
    if line is not None and is_hook and not large:
        pygame.draw.circle(ov.surface, hook.HEAD_COLOUR, (int(line[1][0]), int(line[1][1])),
                           max(4, int(H * 0.012)))
    width = min(ov.width_of(words, mid) + 40, W - 2 * pad)
    if large:
        box = pygame.Rect(0, 0, width, mid + 14)  # (a long hint: over the key line's end)
        box.bottomright = (W - pad // 2, H - pad // 2)
        ov.panel(box, (12, 14, 20, 230), 8)
        ov.text(words, box.center, mid, GOLD, anchor="center")
        return
    y = H - small - 2 * pad - mid - 14
    ov.panel(pygame.Rect(W // 2 - width // 2, y - 6, width, mid + 14), (12, 14, 20, 200), 8)
    ov.text(words, (W // 2, y), mid, GOLD, anchor="midtop")


def _arrow(surface, tail, tip, half: int) -> None:
    """A thick arrow from ``tail`` to ``tip``, outlined dark so it reads over any room."""
    ax, ay = tail
    ux, uy = tip[0] - ax, tip[1] - ay
    length = math.hypot(ux, uy)
    ux, uy = ux / length, uy / length
    nx, ny = -uy, ux
    head = min(length * 0.5, half * 5.0)
    bx, by = tip[0] - ux * head, tip[1] - uy * head
    wide = half * 2.6
    points = [(ax + nx * half, ay + ny * half), (bx + nx * half, by + ny * half),
              (bx + nx * wide, by + ny * wide), tip, (bx - nx * wide, by - ny * wide),
              (bx - nx * half, by - ny * half), (ax - nx * half, ay - ny * half)]
    pygame.draw.polygon(surface, HINT_COLOUR, points)
    pygame.draw.polygon(surface, HINT_EDGE, points, 2)


def _hook_line_rect(shown_hook: tuple | None, s: float) -> list[pygame.Rect]:
    """The box round the hook's line in flight and its head ([] with none in flight): the
    message of the moment keeps off it (at a small window it covered the head)."""
    if shown_hook is None or shown_hook[0] is None:
        return []
    (ax, ay), (zx, zy), _ = shown_hook[0]
    box = pygame.Rect(int(min(ax, zx)), int(min(ay, zy)), int(abs(zx - ax)) + 1,
                      int(abs(zy - ay)) + 1)
    return [box.inflate(int(24 * s), int(24 * s))]


def _of_you_line(ov, what: str, words: str, topright: tuple[int, int], size: int,
                 palette: str) -> None:
    """One line of the panel's "of you" part: the thing's shape (the goal's diamond, a
    crate's square, as its markers draw them) and its words (``crate ↓ 1 kata of you``),
    in its colour, right-aligned at ``topright``."""
    colour = markers.colour_of(what, palette)
    rect = ov.text(words, topright, size, colour, anchor="topright")
    r = max(4, size // 3)
    cx, cy = rect.left - r - 6, rect.centery
    if what == "goal":
        pygame.draw.polygon(ov.surface, colour, [(cx, cy - r), (cx + r, cy), (cx, cy + r),
                                                 (cx - r, cy)], 2)
    else:
        pygame.draw.rect(ov.surface, colour, pygame.Rect(cx - r, cy - r, 2 * r, 2 * r), 2)


def _soft(colour) -> tuple[int, int, int]:
    """A colour mixed halfway to grey: the same axis, read as secondary."""
    return tuple(int(c * 0.6 + 150 * 0.4) for c in colour)


@cache
def _win_texts(kind: str, level: int | None, tier: str | None, keys, chapter: int = 1,
               done_all: bool = False) -> tuple[str, str]:
    """After a win: what Enter does, in the win panel's words, and the hint line.

    Made once per room: the next level's name is read from its file, and the
    HUD is redrawn every frame of a turn or an orbit on the win screen.
    """
    from anabasis.formats import levels

    if kind == "level":
        try:
            count = len(levels.chapter(chapter))
        except IndexError:
            count = 0
        if level < count:
            try:
                name = levels.load_from(chapter, level + 1).name
            except Exception:
                name = ""
            number = f"{level + 1}" if chapter == 1 else f"{chapter}.{level + 1}"
            return (keys.text("{next}: next level, ") + number
                    + (f" · {name}" if name else ""),
                    keys.text("{next} next level · {undo} undo · {restart} play again"
                              " · {back} levels"))
        return (keys.text("{next}: back to the levels")
                + (" (every level done)" if done_all else f" (chapter {chapter}'s last level)"),
                keys.text("{next} or {back} levels · {undo} undo · {restart} play again"))
    if tier:
        hint = keys.text("{new_room} a new room · {undo} undo · {restart} play again"
                         " · {back} back")
        return ((keys.text("{next} or {new_room}: a new ") + f"{tier} room" if kind == "gen"
                 else keys.text("{next}: back")), hint)
    return keys.text("{next}: back"), keys.text("{undo} undo · {restart} play again · {back} back")


def _win_shown(play) -> tuple:
    """The win panel's words: the moves, the note under them and its colour, the way on,
    and the keys."""
    moves, par = play.game.moves, play.opened.par
    line = f"{moves} moves" + (f" · par {par}" if par is not None else "")
    if par is not None and moves <= par:
        # (not "perfect" after a hint: a blind player won 2.5 at par with five, was told
        # "perfect", and found the launcher counting it "with hints")
        line += " · at par" if play.hints.used else " · perfect"
    note, colour = "", GOOD
    if play.new_best:
        note = "a new best"
    if par is not None and moves > par:
        note = (note + " · " if note else "") + f"it can be done in {par}"
        colour = GOOD if play.new_best else DIM
    if play.hints.used:
        used = play.hints.used
        # (the moves a hint showed, each ? press one: "10 hints" for four asks read to two
        # blind players as more help than they had taken)
        note = f"solved with {used} move{'s' if used != 1 else ''} hinted" + (
            " · " + note if note else "")
        colour = DIM
    opened, keys = play.opened, play.app.keymap
    return (line, note, colour, _win_texts(opened.kind, opened.level, opened.tier, keys,
                                           opened.chapter, play.every_level_done)[0],
            keys.text("{undo} undo · {restart} play again · {back} levels"),
            recipe.text(opened))


#: The win panel's recipe words: lighter than the keys' line under them, darker than the
#: moves over them.
RECIPE_INK = (205, 211, 226)


def _win_panel(ov, win: tuple, s: float) -> None:
    line, note, colour, way_on, keys_line, made_of = win
    W, H = ov.size
    # a made room's recipe, under the note: what it was made of, now that it is solved
    size = int(18 * s)  # (small and dim, it read to blind players as fine print: t289, t297)
    wide = min(W - 40, int(700 * s))
    made_lines = ov.wrap(made_of, size, wide - int(40 * s))[:6] if made_of else []
    grow = len(made_lines) * (size + 4) + (int(10 * s) if made_lines else 0)
    box = pygame.Rect(0, 0, wide if made_lines else int(540 * s), int(214 * s) + grow)
    box.center = (W // 2, H // 2)
    ov.panel(box, (14, 18, 26, 225), 14)
    for i, text in enumerate(made_lines):
        ov.text(text, (box.centerx, box.y + int(134 * s) + i * (size + 4)), size, RECIPE_INK,
                anchor="midtop")
    ov.text("Solved!", (box.centerx, box.y + int(18 * s)), int(40 * s), GOLD, anchor="midtop")
    ov.text(line, (box.centerx, box.y + int(72 * s)), int(24 * s), INK, anchor="midtop")
    if note:
        ov.text(note, (box.centerx, box.y + int(104 * s)), int(18 * s), colour,
                anchor="midtop")
    # the way on, plain to see; the rest of the keys quieter below it
    ov.text(way_on, (box.centerx, box.bottom - int(70 * s)), int(21 * s), GOLD, anchor="midtop")
    ov.text(keys_line, (box.centerx, box.bottom - int(34 * s)), int(17 * s), DIM,
            anchor="midtop")


def key_line(play) -> str:
    """The one line of keys along the bottom (the hook's first, in a hook room only)."""
    opened, keys = play.opened, play.app.keymap
    if play.won:
        return _win_texts(opened.kind, opened.level, opened.tier, keys, opened.chapter,
                          play.every_level_done)[1]
    reading = play.reading
    marks = "" if reading.marks_on else HINT_MARKS
    large = HINT_LARGE if reading.map_cornered else ""
    head = HINT_HEAD
    dead = dead_arrows(play)
    if dead:  # (a blind player planned on the map, x → y ↓, and met "you can't step in w")
        live = " ".join(ARROW_GLYPHS[a] for a in ARROW_GLYPHS if a not in dead)
        head = head.replace("{arrows} move", f"{live} move · "
                            + " ".join(ARROW_GLYPHS[a] for a in dead)
                            + DEAD_WORDS.format(axis=views.AXES[play.sight.hidden]))
    hint = keys.text(head + large + marks + HINT_TAIL
                     + (" · {new_room} new room" if opened.tier else ""))
    if reading.large:  # (the panels wait under the large map: the moves said here)
        back = HINT_BACK + (" · " + HINT_ALL if reading.near else
                            " · " + HINT_NEARER if reading.nearer() else "")
        # (and par: a blind player who played two made rooms on it never saw their par)
        # and where you stand: two could not tell their own z on the map, standing on a crate
        par = play.opened.par
        # and the goal's: two more read the goal's number on the map, "3" in its diamond,
        # as a count or a slice, not the z it stands at (t248, t249)
        _, _, z, w = play.game.state.player
        _, _, gz, gw = play.room.goal
        hint = f"moves {play.game.moves}" + (f" / par {par}" if par is not None else "") \
            + f" · you: z {z} w {w} · goal: z {gz} w {gw}" + " · " + keys.text(back) \
            + " · " + hint
    if play.game.hook:
        hint = hook.keys_line(play) + " · " + hint
    return hint


def view_words(sight, keys) -> tuple[str, ...]:
    """The lines over the axes: the view, and under it which the turn key goes to next
    (``("view: stand", "V → w-up")``; "(turning)" while a turn plays).  Two blind players
    took V for a switch between two views, and were lost in the third."""
    if sight.turning:
        return (f"view: {sight.view}  (turning)",)
    key = keys.label("turn")
    return (f"view: {sight.view}",) + ((f"{key} → {views.next_view(sight.view)}",) if key else ())


#: The arrows as the key line writes them where some of them step along w.
ARROW_GLYPHS = {"left": "\u2190", "right": "\u2192", "up": "\u2191", "down": "\u2193"}


#: What the key line says of the arrows that point along w in the view on screen: said
#: "along w: no step", a blind player could not tell whether they step in w or do nothing
#: and "do nothing here (w runs that way)" to another as "they move you in w"
DEAD_WORDS = " do nothing: {axis} is hidden in this view"


def dead_arrows(play) -> tuple[str, ...]:
    """The arrows that, in the view on screen, point along w: no step (the both-downs
    view's up and down, mostly); () while a turn plays.  Three blind players planned a made
    room on the map (x across, y down) in the both view, pressed down, and were told "you
    can't step in w"; the key line now says which arrows move there."""
    sight = play.sight
    if sight.turning:
        return ()
    b = views.view_basis(sight.view)
    return tuple(a for a in ARROW_GLYPHS
                 if views.arrow_to_move(b, sight.camera.yaw, a) == "w")


HOOK_HEADING = "The hook"
#: The help's one line on the hook outside hook rooms (a blind player met the hook's keys
#: on the keys screen and found nothing that said what it is)
HOOK_WHERE = ("The hook, a second move (a line thrown to catch a crate or pull you on),"
              " is in hook rooms only (chapter 4)")
HOOK_ELSEWHERE = HOOK_WHERE + ": not in this one."


def launcher_help_lines() -> list[str]:
    """The help's lines as the launcher shows them (no room open: where the hook is)."""
    return [*HELP, HOOK_WHERE + "."]


def help_lines(play) -> list[str]:
    """The help's lines (``{action}`` templates): the hook's in a hook room, and one line
    on where it is in any other."""
    if not play.game.hook:
        return [*HELP, HOOK_ELSEWHERE]
    return [*HELP, "", HOOK_HEADING, *hook.HELP_LINES]


#: The help's pages: the controls, views and rules; then the marks, a group a page
#: (``legend.PAGES``).  (All on one, at 1280 x 720, its lines were 13 pixels high: "dense",
#: said nearly every blind player who opened it.)
HELP_PAGES = 1 + len(legend.PAGES)
#: The opacity of the veil the help lays over the whole window.
HELP_VEIL = 215


def help_after(page: int, action: str | None, back: str, on: str) -> int | None:
    """The help's page after ``action`` over it, open at ``page``, or None where it closes:
    its own key turns it on, and closes it after the last page; ``back`` and ``on`` (the
    room's arrows, the launcher's) turn it either way and stop at its ends; the fullscreen
    and screenshot keys leave it as it is; any other key closes it.

    >>> help_after(0, "help", "left", "right"), help_after(HELP_PAGES - 1, "help", "l", "r")
    (1, None)
    >>> help_after(0, "left", "left", "right"), help_after(2, "right", "left", "right")
    (0, 3)
    >>> help_after(2, "screenshot", "left", "right"), help_after(2, "undo", "left", "right")
    (2, None)
    """
    if action == "help":
        return page + 1 if page + 1 < HELP_PAGES else None
    if action in (back, on):
        return min(max(page + (1 if action == on else -1), 0), HELP_PAGES - 1)
    return page if action in ("fullscreen", "screenshot") else None


def page_key(keys, action: str) -> str:
    """The key that turns the help's page one way (``left`` back, ``right`` on), as its
    foot names it: an arrow where the arrow key is bound to it."""
    arrow = {"left": "\u2190", "right": "\u2192"}[action]
    return arrow if action in keys.keys(action) else keys.label(action)


def help_foot(page: int, key: str, back: str = "\u2190", on: str = "\u2192") -> str:
    """The foot of the help's page ``page``: which it is, and what its keys show (``key``
    the help's, which closes it after the last page; ``back`` and ``on`` the keys that turn
    its pages either way).

    >>> help_foot(HELP_PAGES - 1, "H")
    'page 6 of 6 · ← back · H or any other key closes this'
    """
    where = f"page {page + 1} of {HELP_PAGES}"
    if page == 0:  # (where each mark is: players asked for a way to find one, t298 to t312)
        pages = " · ".join(name for name, _ in legend.PAGES)
        return (f"{where} · {key} or {on}: the marks, a page each: {pages}"
                " · any other key closes this")
    if page + 1 < HELP_PAGES:
        return (f"{where} · {key} or {on}: the marks: {legend.PAGES[page][0]} · {back} back"
                " · any other key closes this")
    return f"{where} · {back} back · {key} or any other key closes this"


def help_columns(lines: tuple) -> tuple[tuple, tuple]:
    """The help's first page in two columns: the controls and the views; the rules on
    (and the hook's lines)."""
    rules = HEADINGS[-1]  # ("The rules")
    at = lines.index(rules) if rules in lines else len(lines)
    left, right = lines[:at], lines[at:]
    while left and not left[-1]:
        left = left[:-1]
    return tuple(left), tuple(right)


def help_panel(ov, s: float, lines: tuple, entries: tuple = (),
               palette: str = "standard", page: int = 0, key: str = "H", back: str = "\u2190",
               on: str = "\u2192") -> int:
    """The help over the room, its page ``page``: 0 the controls, views and rules
    (``lines``, in two columns, long lines broken); from 1, the legend's marks
    (``entries``), a group a page (``legend.PAGES``); each page's text as large as lets
    it be written whole in the window.  Returns that text size."""
    W, H = ov.size
    # a veil over the whole window (it replaces the HUD beneath: the help stands alone),
    # nearly opaque (faint, the room round the panel, cut by it differently from page to
    # page, read to two blind players as distracting: t316, t324)
    ov.panel(pygame.Rect(0, 0, W, H), (0, 0, 0, HELP_VEIL), 0)
    full = int(min(W - 40, 1300 * s))
    pad, gap = int(26 * s), int(30 * s)
    inner = full - 2 * pad
    page = min(page, HELP_PAGES - 1)
    columns = help_columns(lines)
    col_w = (inner - gap) // 2
    shown = legend.on_page(entries, page - 1) if page else ()

    def rows_at(size: int) -> int:
        if page == 0:
            return max(sum(len(ov.wrap(t, size, col_w - size)) if t else 1 for t in col)
                       for col in columns)
        return len(shown) + 1

    def fits(size: int) -> bool:
        if int(size * 1.4) * rows_at(size) + int(60 * s) > H - 40:
            return False
        return page == 0 or legend.fits(ov, shown, size, inner)

    # as large as fits the window: a small window gets smaller lines, never cut ones (at
    # 1280 x 800 two blind players met "with a ×: you f…": the text grew with the window's
    # height, the column did not)
    size = int(20 * s)
    while size > 9 and not fits(size):
        size -= 1
    line_h = int(size * 1.4)
    box = pygame.Rect(0, 0, full, line_h * rows_at(size) + int(60 * s))
    box.center = (W // 2, H // 2)
    ov.panel(box, (14, 18, 26, 255), 14)  # (see-through, the room behind its words
    # made them harder to read: t299)
    top = box.y + int(22 * s)
    if page == 0:
        for k, col in enumerate(columns):
            x, y = box.x + pad + k * (col_w + gap), top
            for line in col:
                heading = line in HEADINGS or line == HOOK_HEADING
                for k2, part in enumerate(ov.wrap(line, size, col_w - size) if line else ("",)):
                    if part:  # (a broken line's rest indented under its start)
                        ov.text(part, (x + (size if k2 else 0), y), size,
                                GOLD if heading else INK)
                    y += line_h
    else:
        legend.draw(ov, box.x + pad, top, line_h, size, inner, shown, palette,
                    legend.PAGE_TITLES[page - 1])
    foot = help_foot(page, key or "H", back, on)
    ov.text(foot, (box.right - int(20 * s), box.bottom - int(15 * s) - 10), int(15 * s), DIM,
            anchor="topright")
    return size
