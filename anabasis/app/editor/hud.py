"""The editor's 2D layer: the cursor, the marked box and the room's own box outlined over the
slice, the room's header, the proof panel, the palette and the keys.

Drawn from one frozen value made each frame (:class:`EditorShown`: the
draft, the cursor, the sight, every line of text with its keys written in,
the proofs, the spinner's phase, the message), into the overlay only when
that value changes (``Overlay.begin``).  The cursor is a box of lines
projected with the renderer's own camera, so it sits exactly on the cell
drawn beneath it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pygame

from anabasis.app.editor.draft import BRUSH_KEYS, BRUSH_NAMES, BRUSHES, KIND_NAMES, Draft
from anabasis.app.settings.rooms import plain
from anabasis.app.shell.overlay import DIM, GOLD, GOOD, INK, WARN
from anabasis.picture import views

#: The editor's keys, as the help strip shows them (each ``{action}`` written as its key).
HELP = [
    ("{cursor_arrows}", "cursor x, y"), ("{cursor_z+} {cursor_z-}", "cursor z"),
    ("{cursor_w-} {cursor_w+}", "cursor w"),
    ("{put_0}-{put_8}", "put a cell"), ("click", "put · right-click: empty"),
    ("{mark}", "box corner"), ("{fill} / {clear_box}", "fill / clear the box"),
    ("{size_arrows}", "room size"), ("{wrap}", "wrap"), ("{hook_switch}", "hook room"),
    ("{name} / {teaches}", "name / teaches"),
    ("{opening_view}", "opening view"), ("{turn:v}", "turn"), ("{undo} / {redo}", "undo / redo"),
    ("{play}", "play it"), ("{solution}", "show the solution"), ("{save}", "save"),
    ("{copy}", "copy code"), ("{show_code}", "show the code"),
    ("{floor_brush} / {column_brush}", "floor / column brush"), ("{help}", "help"),
    ("{back}", "leave"),
]

#: What "the hook saves N moves" means, in the help and on the proof panel's line.
HOOK_TEXT = ("the hook: a move of hook rooms only (fired along x, y or w, it pulls you to "
             "the first block, or a crate to you). \"The hook saves N moves\": with it, this "
             "room's shortest solution would be N moves shorter, so a player given the hook "
             "could skip part of your puzzle; \"saves nothing\": it is no shortcut here")

#: The help over the editor (H or F1): how a room is built, a paragraph a line (each
#: ``{action}`` written as its key, ``Keymap.text``).
HELP_LINES = [
    "Build a room cell by cell; the proof panel (top right) proves it as you go.",
    "A player stands on a block only where something also holds them from the other "
    "gravity: the block kata of where they stand (w - 1), or a ramp under them. A floor "
    "drawn as a dark pit has nothing kata of it. The floor brush ({floor_brush}) puts both "
    "blocks; the column brush ({column_brush}) puts blocks from w 0 up to the cursor's w, a "
    "landscape's hills.",
    "The box: {mark} marks a corner, move to the other, {fill} fills it with the brush, "
    "{clear_box} clears "
    "it; then it is unmarked. Where it reaches slices not shown, the message says so.",
    "The mouse: the pink cell is where a click paints (beside the face you point at); "
    "right-click clears the cell pointed at; a drag paints a line; drag the background, or "
    "with the middle button, to turn the camera; the wheel zooms.",
    "The proofs: the par and its moves, \"the only shortest solution\" or how many there "
    "are, the rules the room needs; an impossible room says why where a simple proof tells. "
    "{save} or {copy} on an impossible room warns first, and acts when pressed again.",
    HOOK_TEXT[0].upper() + HOOK_TEXT[1:] + ".",
    "{copy} copies the room's code, its name and teaches line in it; with no clipboard, or "
    "with {show_code}, the code is shown whole and written to a file beside the save. "
    "{save} saves, {play} plays the room, {solution} shows the solution, {back} leaves.",
    "Any key closes this help ({help*} open it).",
]
_COLOUR = {"good": GOOD, "warn": WARN, "dim": DIM, "info": INK}
#: The 12 edges of a box, as pairs of corner numbers (bit k of a corner: axis k's high side).
_EDGES = [(a, b) for a, b in itertools.combinations(range(8), 2) if bin(a ^ b).count("1") == 1]


def _box_corners(ed, lo4, hi4):
    """The 8 slice-space corners of the 4D box [lo4, hi4) as the slice shows it."""
    import numpy as np

    b = ed.sight.basis()
    centre = np.asarray(ed.cursor, float) + 0.5
    pts = []
    for corner in itertools.product(*zip(lo4, hi4, strict=True)):
        pts.append(b[:, :3].T @ (np.asarray(corner, float) - centre))
    pts = np.array(pts)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    return [np.array([hi[k] if n >> k & 1 else lo[k] for k in range(3)]) for n in range(8)]


def _outline(ov, ed, corners, colour, width) -> int:
    """Draw a projected box; how many of its edges were drawn."""
    at = ed.projector(ov.size)
    pts = [at(c) for c in corners]
    drawn = 0
    for a, b in _EDGES:
        if pts[a] is not None and pts[b] is not None:
            pygame.draw.line(ov.surface, (0, 0, 0), pts[a], pts[b], width + 2)
            drawn += 1
    for a, b in _EDGES:
        if pts[a] is not None and pts[b] is not None:
            pygame.draw.line(ov.surface, colour, pts[a], pts[b], width)
    return drawn


def cursor_pixel(ed, size):
    """Where the cursor cell's centre lands in the window (the tests look there)."""
    return ed.project((0.0, 0.0, 0.0), size)


def save_line(ed) -> str:
    """Where the room is saved: "saved to FILE" only once FILE holds it (a new room named
    for a file not there yet is unsaved until S writes it)."""
    to = ed.target.save_to
    if to and not ed.unsaved and to.exists():
        return f"saved to {to}"
    says = ed.app.keymap.text(" · {save} saves to ")
    return "unsaved" + (says + str(ed.save_path()) if ed.unsaved or to else "")


@dataclass(frozen=True)
class EditorShown:
    """Everything the editor's HUD shows, made once a frame (:meth:`of`): drawn from this
    value alone (:func:`draw_shown`), and again only when it changes."""

    size: tuple[int, int]
    scale: float
    draft: Draft  #: the room as edited (the outlines, the slice map, the cell under the cursor)
    cursor: tuple
    box: tuple | None  #: the marked box, (lo, hi), if any
    hover: tuple | None  #: the cell a click would paint
    #: what the outlines are projected by: the view, a turn in progress and the camera, to a
    #: thousandth (a turn or an orbit moves them)
    sight: tuple
    title: str  #: the room's name line
    header: tuple  #: (text, colour) of each line under it
    cell: str  #: "on a block": what is under the cursor
    proofs: tuple  #: (kind, text) of each line of the proof panel
    phase: int  #: the spinner's quarter turn while proving, else -1
    palette: tuple  #: (label, chosen) of each brush along the bottom
    strip: str  #: the keys along the bottom
    message: tuple | None  #: (text, kind) of the message of the moment
    field: tuple | None  #: (title, text, selected, its keys) while a text field is open
    tip: tuple | None  #: (words, where the pointer is) over the proof panel's hook line
    code: tuple | None  #: (the code, where it was written) while the code is shown whole
    help: tuple | None  #: the help's lines, while it is open
    #: what draws the outlines and sets the click areas: (the editor, its clock for the
    #: spinner); not part of what is compared
    reader: tuple | None = field(default=None, compare=False)

    @classmethod
    def of(cls, ed, ov) -> EditorShown:
        sight, cam, draft, keys = ed.sight, ed.sight.camera, ed.draft, ed.app.keymap
        box = ed.box()
        X, Y, Z, Wd = draft.size
        c = tuple(ed.cursor)
        header = (
            (f"size {X} x {Y} x {Z} x {Wd}" + ("   w wraps" if draft.wrap else "")
             + ("   hook room" if draft.hook else "")
             + f"   opens in {draft.view}   ·   view: {sight.view}"
             + keys.text(" ({turn:v} turns)"), INK),
            ("teaches: " + (draft.teaches or keys.text("({teaches} to write it)")), DIM),
            (save_line(ed), DIM),
            (ed.box_line(), BOX_TEXT if box is not None else DIM),
        )
        palette = tuple(
            (f"{keys.label(BRUSH_KEYS[kind])} " + (f"{kind} {BRUSH_NAMES[kind]}"
                                                   if kind in KIND_NAMES else BRUSH_NAMES[kind]),
             kind == ed.brush) for kind in BRUSHES)
        field_shown = None
        if ed.field is not None:
            title = {"name": "The room's name", "teaches": "What the room teaches (one line)"}
            field_shown = (title.get(ed.field, ed.field), ed.field_text, ed.field_fresh,
                           keys.text(FIELD_KEYS))
        tip = _tip_of(ed)
        return cls(
            size=ov.size, scale=ov.scale, draft=draft, cursor=c,
            box=box, hover=ed.hover_cell,
            sight=(sight.view, sight.turn_from, round(sight.turn_t, 3), round(cam.yaw, 3),
                   round(cam.pitch, 3), round(cam.distance, 3),
                   tuple(round(t, 3) for t in cam.target)),
            title=(draft.name or "a room with no name") + keys.text("  ({name} names it)"),
            header=header,
            cell=f"on {KIND_NAMES.get(_kind_of(draft.at(c)), draft.at(c))}",
            proofs=tuple(ed.proofs.lines()),
            phase=int(ed.clock * 8) % 4 if ed.prover.busy else -1,
            palette=palette,
            strip=" · ".join(f"{keys.text(k)} {what}" for k, what in HELP),
            message=((ed.message, ed.message_kind)
                     if ed.message and ed.message_left > 0 else None),
            field=field_shown,
            tip=(tip, tuple(ed.pointer)) if tip else None,
            code=((ed.code_shown, str(ed.code_file) if ed.code_file else "",
                   keys.text(CODE_KEYS)) if ed.code_shown is not None else None),
            help=tuple(keys.text(line) for line in HELP_LINES) if ed.help else None,
            reader=(ed, ed.clock),
        )


#: The keys of the editor's text field and of the code shown whole (``Keymap.text``).
FIELD_KEYS = "{field_done} keeps it · {field_cancel} cancels"
CODE_KEYS = "{play:return} or {back} closes"


def draw(ov, ed) -> None:
    """Draw editor ``ed``'s HUD into overlay ``ov`` (only when what it shows changed)."""
    shown = EditorShown.of(ed, ov)
    if not ov.begin(shown):
        return
    draw_shown(ov, shown)


def draw_shown(ov, shown: EditorShown) -> None:
    """Draw ``shown`` into overlay ``ov``: the editor's HUD, read from the value (the
    outlines projected and the click areas set through its reader)."""
    ed, clock = shown.reader
    W, H = ov.size
    s = ov.scale
    big, mid, small = int(28 * s), int(21 * s), int(17 * s)
    pad = int(16 * s)
    band = (10, 12, 18, 160)
    draft = shown.draft

    # the room's own box (where cells can go: an empty room shows nothing else), the marked
    # box and the cursor, over the picture
    _outline(ov, ed, _box_corners(ed, (0, 0, 0, 0), draft.size), ROOM_COLOUR, max(1, int(s)))
    c = shown.cursor
    _outline(ov, ed, _box_corners(ed, c, [v + 1 for v in c]), CURSOR_COLOUR, max(2, int(3 * s)))
    box = shown.box
    if box is not None:  # a little outside its cells: a one-cell box shows round the cursor
        lo = [v - BOX_MARGIN for v in box[0]]
        hi = [v + 1 + BOX_MARGIN for v in box[1]]
        _outline(ov, ed, _box_corners(ed, lo, hi), BOX_COLOUR, max(2, int(2 * s)))
    if shown.hover is not None:
        h = shown.hover
        _outline(ov, ed, _box_corners(ed, h, [v + 1 for v in h]), HOVER_COLOUR,
                 max(1, int(2 * s)))

    # top left: the room's header
    lines = shown.header
    width = max([ov.width_of(t, small) for t, _ in lines] + [int(300 * s)]) + 2 * pad
    header = pygame.Rect(pad // 2, pad // 2, min(width, int(W * 0.6)),
                         big + len(lines) * (small + 4) + pad)
    ov.panel(header, band, 10)
    ov.text(shown.title, (pad, pad), big, GOLD)
    for i, (text, colour) in enumerate(lines):
        ov.text(text, (pad, pad + big + 4 + i * (small + 4)), small, colour)

    # top right: the cursor, what is under it, and the proofs
    panel_w = int(330 * s)
    x0 = W - panel_w - pad // 2
    proof_lines = shown.proofs
    phase = shown.phase
    panel_h = mid * 2 + 16 + (len(proof_lines) + 1) * (small + 5) + pad
    proofs_rect = pygame.Rect(x0, pad // 2, panel_w, panel_h)
    ov.panel(proofs_rect, band, 10)
    x = x0 + pad
    for axis, value in zip("xyzw", c, strict=True):
        rect = ov.text(f"{axis} {value}", (x, pad), mid, views.AXIS_COLOURS[axis])
        x = rect.right + int(14 * s)
    ov.text(shown.cell, (x, pad + 2), small, DIM)
    y = pad + mid + 8
    ov.text("proofs" + ("  ·  proving…" if phase >= 0 else ""), (x0 + pad, y), mid, GOLD)
    if phase >= 0:
        _spinner(ov, (x0 + panel_w - pad - int(10 * s), y + mid // 2), int(8 * s), clock)
    y += mid + 6
    ed.proof_rects = []
    for kind, text in proof_lines:
        top = y
        for line in ov.wrap(plain(text), small, panel_w - 2 * pad)[:3]:
            ov.text(line, (x0 + pad, y), small, _COLOUR.get(kind, INK))
            y += small + 5
        ed.proof_rects.append((pygame.Rect(x0, top, panel_w, y - top), kind, text))

    # the palette along the bottom, and the keys
    ed.palette_rects = []
    cell_w = int(min(96 * s, (W - 2 * pad) / len(BRUSHES)))
    py = H - int(3 * small + 3 * pad)
    bottom = pygame.Rect(0, py - pad // 2, W, H - py + pad // 2)
    ov.panel(bottom, band, 0)
    ed.draft_map.draw(ov, ed, py - pad)  # the slice map of the draft (a click moves the cursor)
    ed.panel_rects = [header, proofs_rect, bottom]  #: a click there paints nothing
    for n, (kind, (label, chosen)) in enumerate(zip(BRUSHES, shown.palette, strict=True)):
        rect = pygame.Rect(pad + n * cell_w, py, cell_w - 6, small + 10)
        ed.palette_rects.append((rect, kind))
        if chosen:
            ov.panel(rect, (70, 80, 120, 230), 6)
        ov.text(label, (rect.x + 5, rect.y + 5), small, GOLD if chosen else INK)
    for i, line in enumerate(ov.wrap(shown.strip, small, W - 2 * pad)[:2]):
        ov.text(line, (pad, py + small + 14 + i * (small + 4)), small, DIM)

    if shown.message is not None:
        text, kind = shown.message
        colour = _COLOUR.get(kind, INK)
        wrapped = ov.wrap(text, mid, W - 2 * pad - 40)[:3]
        rect = pygame.Rect(0, 0, max(ov.width_of(t, mid) for t in wrapped) + 40,
                           (mid + 6) * len(wrapped) + 14)
        rect.midbottom = (W // 2, py - pad)
        ov.panel(rect, (12, 14, 20, 200), 8)
        for i, line in enumerate(wrapped):
            ov.text(line, (W // 2, rect.y + 8 + i * (mid + 6)), mid, colour, anchor="midtop")

    if shown.field is not None:
        title, typed, fresh, field_keys = shown.field
        box = pygame.Rect(0, 0, int(W * 0.7), int(130 * s))
        box.center = (W // 2, H // 2)
        ov.panel(box, (20, 24, 34, 240), 12)
        ov.text(title, (box.x + 20, box.y + 14), mid, GOLD)
        typed = typed[-70:]
        rect = ov.text(typed, (box.x + 20, box.y + 24 + mid), mid, INK)
        if fresh and typed:  # selected: typing replaces it
            ov.panel(rect.inflate(6, 2), (90, 110, 170, 120), 3)
        ov.text("_", (rect.right + 2, rect.y), mid, INK)
        ov.text(field_keys, (box.x + 20, box.bottom - small - 12), small, DIM)
    if shown.tip is not None:
        _tip(ov, shown.tip[0], shown.tip[1], small)
    if shown.code is not None:
        _code_field(ov, shown.code, mid, small)
    if shown.help is not None:
        _help(ov, s, shown.help)
    ov.upload()


CURSOR_COLOUR = (255, 236, 120)
BOX_COLOUR = (120, 220, 255)
BOX_TEXT = (150, 225, 255)
ROOM_COLOUR = (120, 128, 160)
HOVER_COLOUR = (255, 140, 220)
BOX_MARGIN = 0.08  #: the box is drawn this far outside its cells
#: The code's characters by kind, so that look-alikes differ: capitals, small letters, digits.
CODE_COLOURS = {"upper": (240, 240, 240), "lower": (130, 200, 255), "digit": (255, 200, 90),
                "mark": (170, 170, 170)}


def _tip_of(ed) -> str:
    """The tip the mouse is over: what the hook's line of the proof panel means."""
    if ed.pointer is None:
        return ""
    for rect, _, text in ed.proof_rects:
        if rect.collidepoint(ed.pointer) and "the hook" in text:
            return HOOK_TEXT
    return ""


def _tip(ov, text: str, at, size: int) -> None:
    W, H = ov.size
    width = min(int(W * 0.45), 520)
    lines = ov.wrap(text, size, width - 20)
    rect = pygame.Rect(0, 0, width, len(lines) * (size + 4) + 14)
    rect.topright = (min(at[0], W - 4), at[1] + 16)
    rect.clamp_ip(pygame.Rect(0, 0, W, H))
    ov.panel(rect, (16, 18, 28, 235), 8)
    for i, line in enumerate(lines):
        ov.text(line, (rect.x + 10, rect.y + 7 + i * (size + 4)), size, INK)


def code_runs(code: str) -> list[tuple[str, str]]:
    """The code cut into runs of one kind of character (capitals, small letters, digits,
    marks), each drawn in its own colour: I, l and 1 (and O and 0) never look the same.

    >>> [run for _, run in code_runs("DIl1O0-a")], code_runs("l1")
    (['DI', 'l', '1', 'O', '0', '-', 'a'], [('lower', 'l'), ('digit', '1')])
    """
    runs: list[tuple[str, str]] = []
    for ch in code:
        kind = ("upper" if ch.isupper() else "lower" if ch.islower() else "digit"
                if ch.isdigit() else "mark")
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + ch)
        else:
            runs.append((kind, ch))
    return runs


def _code_field(ov, code_shown: tuple, mid: int, small: int) -> None:
    """No clipboard here: the code in a field of its own, coloured by kind of character
    (``code_shown``: the code, the file it was written to, the keys that close it)."""
    code, code_file, closes = code_shown
    W, H = ov.size
    box = pygame.Rect(0, 0, int(W * 0.8), int(mid * 7 + small * 4))
    box.center = (W // 2, H // 2)
    ov.panel(box, (20, 24, 34, 245), 12)
    ov.text("The room's code (no clipboard here)", (box.x + 20, box.y + 14), mid, GOLD)
    from anabasis.formats import codes

    shown = codes.display(code)
    x, y = box.x + 20, box.y + 24 + mid
    gap = ov.width_of("  ", mid)
    for group in shown.groups:  # in groups of four, each character coloured by its kind
        width = ov.width_of(group, mid)
        if x + width > box.right - 20:
            x, y = box.x + 20, y + mid + 8
        for kind, run in code_runs(group):
            rect = ov.text(run, (x, y), mid, CODE_COLOURS[kind])
            if kind == "lower":  # small letters underlined too: l is never I
                pygame.draw.line(ov.surface, CODE_COLOURS[kind], (rect.x, rect.bottom - 1),
                                 (rect.right, rect.bottom - 1), 1)
            x = rect.right + 1
        x += gap
    y += mid + 8
    legend = "white: capitals · blue, underlined: small letters · gold: digits"
    if shown.legend:
        legend = f"{shown.legend} · {legend}"
    ov.text(legend, (box.x + 20, y + 2), small, DIM)
    ov.text("the spaces are for reading: the code is written without them",
            (box.x + 20, y + small + 8), small, DIM)
    where = (f"written to {code_file}" if code_file else "printed on the terminal")
    ov.text(f"{where} · {closes}", (box.x + 20, box.bottom - small - 12), small, DIM)


def _help(ov, s: float, help_lines: tuple) -> None:
    """H or F1: the editor's help (its lines, keys written in), over everything."""
    W, H = ov.size
    ov.panel(pygame.Rect(0, 0, W, H), (8, 10, 16, 215), 0)
    width = int(min(W - 60, 900 * s))
    x = (W - width) // 2
    size = int(19 * s)
    while size > 9:  # the largest size at which it all fits
        parts = [ov.wrap(line, size, width) for line in help_lines]
        height = sum(len(p) for p in parts) * (size + 5) + len(parts) * size // 2
        if height + int(size * 1.4) + 40 <= H:
            break
        size -= 1
    y = 20
    ov.text("The editor", (x, y), int(size * 1.4), GOLD)
    y += int(size * 1.4) + 10
    for part in parts:
        for line in part:
            ov.text(line, (x, y), size, INK)
            y += size + 5
        y += size // 2


def _spinner(ov, centre, r: int, t: float) -> None:
    """A ring with a bright arc that goes round: the proofs are being worked out."""
    import math

    pygame.draw.circle(ov.surface, (90, 90, 110), centre, r, max(2, r // 3))
    a = t * 6.0
    rect = pygame.Rect(0, 0, 2 * r, 2 * r)
    rect.center = centre
    pygame.draw.arc(ov.surface, GOLD, rect, a, a + math.pi * 0.6, max(2, r // 3))


def _kind_of(ch: str) -> str:
    return {"+": "@", "%": "$"}.get(ch, ch)
