"""The editor's 2D layer: the cursor, the marked box and the room's own box outlined over the
slice, the room's header, the proof panel, the palette and the keys.

Drawn into the overlay only when what it shows changes (``Overlay.begin``'s
key): the draft, the cursor, the sight, the proofs, the spinner's phase, the
message.  The cursor is a box of lines projected with the renderer's own
camera, so it sits exactly on the cell drawn beneath it.
"""

from __future__ import annotations

import itertools

import pygame

from anabasis.app.editor.draft import KIND_NAMES, KINDS
from anabasis.app.shell.overlay import DIM, GOLD, GOOD, INK, WARN
from anabasis.picture import views

#: The editor's keys, as the help strip shows them (each ``{action}`` written as its key).
HELP = [
    ("arrows", "cursor x, y"), ("{cursor_z+} {cursor_z-}", "cursor z"),
    ("{cursor_w-} {cursor_w+}", "cursor w"),
    ("{put_0}-{put_8}", "put a cell"), ("click", "put · right-click: empty"),
    ("{mark}", "box corner"), ("{fill} / {clear_box}", "fill / clear the box"),
    ("Ctrl+cursor keys", "room size"), ("{wrap}", "wrap"), ("{name} / {teaches}", "name / teaches"),
    ("{opening_view}", "opening view"), ("{turn:v}", "turn"), ("{undo} / {redo}", "undo / redo"),
    ("{play}", "play it"), ("{solution}", "show the solution"), ("{save}", "save"),
    ("{copy}", "copy code"), ("{back}", "leave"),
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


def draw(ov, ed) -> None:
    sight = ed.sight
    cam = sight.camera
    proofs = ed.proofs
    phase = int(ed.clock * 8) % 4 if ed.prover.busy else -1
    key = ("editor", ov.size, ed.draft, ed.cursor, ed.mark, ed.brush, sight.view,
           sight.turn_from, round(sight.turn_t, 3), round(cam.yaw, 3), round(cam.pitch, 3),
           round(cam.distance, 3), proofs, phase,
           ed.message if ed.message_left > 0 else "", ed.field, ed.field_text, ed.field_fresh,
           ed.unsaved, ed.app.keymap,
           ed.history.depth)
    if not ov.begin(key):
        return
    W, H = ov.size
    s = ov.scale
    big, mid, small = int(28 * s), int(21 * s), int(17 * s)
    pad = int(16 * s)
    band = (10, 12, 18, 160)
    draft = ed.draft

    # the room's own box (where cells can go: an empty room shows nothing else), the marked
    # box and the cursor, over the picture
    _outline(ov, ed, _box_corners(ed, (0, 0, 0, 0), draft.size), ROOM_COLOUR, max(1, int(s)))
    if ed.mark is not None:
        lo = [min(a, b) for a, b in zip(ed.mark, ed.cursor, strict=True)]
        hi = [max(a, b) + 1 for a, b in zip(ed.mark, ed.cursor, strict=True)]
        _outline(ov, ed, _box_corners(ed, lo, hi), BOX_COLOUR, max(2, int(2 * s)))
    c = ed.cursor
    _outline(ov, ed, _box_corners(ed, c, [v + 1 for v in c]), CURSOR_COLOUR, max(2, int(3 * s)))

    # top left: the room's header
    X, Y, Z, Wd = draft.size
    keys = ed.app.keymap
    lines = [
        (f"size {X} x {Y} x {Z} x {Wd}" + ("   w wraps" if draft.wrap else "")
         + f"   opens in {draft.view}   ·   view: {sight.view}"
         + keys.text(" ({turn:v} turns)"), INK),
        ("teaches: " + (draft.teaches or keys.text("({teaches} to write it)")), DIM),
        (save_line(ed), DIM),
    ]
    width = max([ov.width_of(t, small) for t, _ in lines] + [int(300 * s)]) + 2 * pad
    ov.panel(pygame.Rect(pad // 2, pad // 2, min(width, int(W * 0.6)),
                         big + 3 * (small + 4) + pad), band, 10)
    ov.text((draft.name or "a room with no name") + keys.text("  ({name} names it)"), (pad, pad),
            big, GOLD)
    for i, (text, colour) in enumerate(lines):
        ov.text(text, (pad, pad + big + 4 + i * (small + 4)), small, colour)

    # top right: the cursor, what is under it, and the proofs
    panel_w = int(330 * s)
    x0 = W - panel_w - pad // 2
    proof_lines = proofs.lines()
    panel_h = mid * 2 + 16 + (len(proof_lines) + 1) * (small + 5) + pad
    ov.panel(pygame.Rect(x0, pad // 2, panel_w, panel_h), band, 10)
    x = x0 + pad
    for axis, value in zip("xyzw", c, strict=True):
        rect = ov.text(f"{axis} {value}", (x, pad), mid, views.AXIS_COLOURS[axis])
        x = rect.right + int(14 * s)
    ov.text(f"on {KIND_NAMES.get(_kind_of(draft.at(c)), draft.at(c))}", (x, pad + 2), small,
            DIM)
    y = pad + mid + 8
    ov.text("proofs" + ("  ·  proving…" if phase >= 0 else ""), (x0 + pad, y), mid, GOLD)
    if phase >= 0:
        _spinner(ov, (x0 + panel_w - pad - int(10 * s), y + mid // 2), int(8 * s), ed.clock)
    y += mid + 6
    for kind, text in proof_lines:
        for line in ov.wrap(text, small, panel_w - 2 * pad)[:3]:
            ov.text(line, (x0 + pad, y), small, _COLOUR.get(kind, INK))
            y += small + 5

    # the palette along the bottom, and the keys
    ed.palette_rects = []
    cell_w = int(min(96 * s, (W - 2 * pad) / len(KINDS)))
    py = H - int(3 * small + 3 * pad)
    ov.panel(pygame.Rect(0, py - pad // 2, W, H - py + pad // 2), band, 0)
    ed.draft_map.draw(ov, ed, py - pad)  # the slice map of the draft (a click moves the cursor)
    for n, kind in enumerate(KINDS):
        rect = pygame.Rect(pad + n * cell_w, py, cell_w - 6, small + 10)
        ed.palette_rects.append((rect, kind))
        if kind == ed.brush:
            ov.panel(rect, (70, 80, 120, 230), 6)
        ov.text(f"{n} {kind} {KIND_NAMES[kind]}", (rect.x + 5, rect.y + 5), small,
                GOLD if kind == ed.brush else INK)
    strip = " · ".join(f"{keys.text(k)} {what}" for k, what in HELP)
    for i, line in enumerate(ov.wrap(strip, small, W - 2 * pad)[:2]):
        ov.text(line, (pad, py + small + 14 + i * (small + 4)), small, DIM)

    if ed.message and ed.message_left > 0:
        colour = _COLOUR.get(ed.message_kind, INK)
        wrapped = ov.wrap(ed.message, mid, W - 2 * pad - 40)[:3]
        rect = pygame.Rect(0, 0, max(ov.width_of(t, mid) for t in wrapped) + 40,
                           (mid + 6) * len(wrapped) + 14)
        rect.midbottom = (W // 2, py - pad)
        ov.panel(rect, (12, 14, 20, 200), 8)
        for i, line in enumerate(wrapped):
            ov.text(line, (W // 2, rect.y + 8 + i * (mid + 6)), mid, colour, anchor="midtop")

    if ed.field is not None:
        box = pygame.Rect(0, 0, int(W * 0.7), int(130 * s))
        box.center = (W // 2, H // 2)
        ov.panel(box, (20, 24, 34, 240), 12)
        ov.text(f"The room's {ed.field}", (box.x + 20, box.y + 14), mid, GOLD)
        shown = ed.field_text[-70:]
        rect = ov.text(shown, (box.x + 20, box.y + 24 + mid), mid, INK)
        if ed.field_fresh and shown:  # selected: typing replaces it
            ov.panel(rect.inflate(6, 2), (90, 110, 170, 120), 3)
        ov.text("_", (rect.right + 2, rect.y), mid, INK)
        ov.text("Enter keeps it · Esc cancels", (box.x + 20, box.bottom - small - 12), small,
                DIM)
    ov.upload()


CURSOR_COLOUR = (255, 236, 120)
BOX_COLOUR = (120, 220, 255)
ROOM_COLOUR = (120, 128, 160)


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
