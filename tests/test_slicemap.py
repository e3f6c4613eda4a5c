"""The slice map, read back pixel by pixel: cells, the pawn, crates, the goal and the frame
where the room says they are; a click's pixel back to its cell; the headless PNG."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pygame
import pytest
from conftest import DT

from anabasis.app.viewer import slicemap
from anabasis.engine import rules
from anabasis.engine.cells import RAMPS
from anabasis.formats import levels


def rgb_at(surface, xy):
    return tuple(surface.get_at((int(xy[0]), int(xy[1])))[:3])


def room_and_state(source):
    room = levels.load_from(*source) if isinstance(source, tuple) else levels.load_level(source)
    return room, rules.start(room).state


@pytest.mark.parametrize("source", [1, 2, 3, 4, 7, (2, 3), (3, 2)])
def test_every_column_of_every_slice_is_drawn_where_the_room_has_it(source):
    room, state = room_and_state(source)
    smap = slicemap.SliceMap(room, (900, 500))
    pic = smap.picture(state.player, state.crates)
    lay = smap.layout
    X, Y, Z, W = room.size
    assert pic.get_size() == lay.size and lay.size[0] <= 900 and lay.size[1] <= 500
    movers = {(p[0], p[1], p[3]) for p in (state.player, *state.crates, room.goal)}
    for w in range(W):
        for y in range(Y):
            for x in range(X):
                if (x, y, w) in movers:
                    continue
                rect = lay.cell_rect(x, y, w)
                top = smap.top(x, y, w)
                corner = (rect.x + 1, rect.y + 1)  # clear of the digit and the wedge
                if top is None:
                    assert rgb_at(pic, corner) in (slicemap.GAP, slicemap.GAP_HATCH)
                else:
                    assert rgb_at(pic, corner) == slicemap.shade(top[0], Z)
                    if top[1] in RAMPS:  # the wedge's colour at the cell's centre
                        assert rgb_at(pic, rect.center) == slicemap.RAMP_MARK
    # the pawn, in its slice, framed
    px, py, _, pw = state.player
    assert rgb_at(pic, lay.cell_rect(px, py, pw).center) == slicemap.PAWN
    frame = lay.slice_rect(pw).inflate(6, 6)
    assert rgb_at(pic, (frame.centerx, frame.y)) == slicemap.YOU
    assert rgb_at(pic, (frame.x, frame.centery)) == slicemap.YOU
    for w in range(W):  # no other slice is framed
        if w != pw:
            other = lay.slice_rect(w).inflate(6, 6)
            assert rgb_at(pic, (other.x, other.centery)) != slicemap.YOU
    for c in state.crates:
        r = lay.cell_rect(c[0], c[1], c[3])
        assert rgb_at(pic, (r.centerx, r.y + 4)) == slicemap.CRATE
    gx, gy, _, gw = room.goal
    if (gx, gy, gw) != (px, py, pw):
        r = lay.cell_rect(gx, gy, gw)
        assert rgb_at(pic, (r.centerx, r.y + 2)) == slicemap.YOU


def test_a_pixel_of_the_map_names_its_cell_and_a_gap_between_slices_none():
    room, _ = room_and_state(7)
    lay = slicemap.SliceMap(room, (640, 300)).layout
    X, Y, _, W = room.size
    for w in range(W):
        for y in range(Y):
            for x in range(X):
                r = lay.cell_rect(x, y, w)
                assert lay.cell_at(r.x, r.y) == lay.cell_at(r.right - 1, r.bottom - 1) == (x, y, w)
    between = lay.slice_rect(0).right + lay.gap // 2
    assert lay.cell_at(between, lay.slice_rect(0).centery) is None


def test_the_map_follows_the_movers_and_draws_only_when_they_move():
    room, state = room_and_state(1)
    smap = slicemap.SliceMap(room, (640, 300))
    first = smap.picture(state.player, state.crates)
    assert smap.picture(state.player, state.crates) is first  # the same movers: not redrawn
    moved = next(r.state for m in rules.STEPS
                 if (r := rules.step(room, state, m)).moved and r.status == "playing")
    after = smap.picture(moved.player, moved.crates)
    lay = smap.layout
    x, y, _, w = moved.player
    assert rgb_at(after, lay.cell_rect(x, y, w).center) == slicemap.PAWN
    x0, y0, _, w0 = state.player
    assert rgb_at(after, lay.cell_rect(x0, y0, w0).center) != slicemap.PAWN


def test_a_wrapped_room_says_so_and_many_slices_take_more_rows():
    room, _ = room_and_state(7)
    assert room.wrap
    wide = slicemap.Layout(room.size, (2000, 400), wrap=True)
    narrow = slicemap.Layout(room.size, (300, 600), wrap=True)
    assert wide.rows == 1 and narrow.rows > 1


def test_render_map_writes_the_map_headless(tmp_path):
    out = tmp_path / "map.png"
    done = subprocess.run([sys.executable, "-m", "anabasis", "render", "3", "--map", "--size",
                           "640x360", "-o", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    room, state = room_and_state(3)
    expected = slicemap.image(room, state, (640, 360))
    got = np.transpose(pygame.surfarray.array3d(pygame.image.load(str(out))), (1, 0, 2))
    assert got.shape == expected.shape and np.array_equal(got, expected)
    lay = slicemap.Layout(room.size, (640, 360), room.wrap)
    px, py, _, pw = state.player
    cx, cy = lay.cell_rect(px, py, pw).center
    assert tuple(got[cy, cx]) == slicemap.PAWN


def test_the_editor_shows_its_draft_on_the_map_and_a_click_there_moves_the_cursor(make_app):
    from anabasis.app.editor.draft import Draft
    from anabasis.app.editor.scene import Editor, EditTarget

    app = make_app()
    app.edit(EditTarget(Draft.of_room(levels.load_level(6)), None))
    app.tick(DT)
    ed = app.scene
    assert isinstance(ed, Editor)
    dm = ed.draft_map
    assert dm.rect is not None and dm.rect.width > 0
    lay = dm._map.layout
    z = ed.cursor[2]
    X, Y, _, W = ed.draft.size
    target = (X - 1, Y - 1, 0)
    assert (ed.cursor[0], ed.cursor[1], ed.cursor[3]) != target
    r = lay.cell_rect(*target).move(dm.rect.topleft)
    assert dm.cell_at(r.center) == target
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=r.center, button=1))
    app.tick(DT)
    assert ed.cursor == (X - 1, Y - 1, z, 0)
    before = ed.draft
    assert ed.draft == before  # the click moved the cursor and painted nothing
    for _ in range(3):  # (a frame that traced the room leaves the new HUD to the next)
        app.tick(DT)
    shot = pygame.image.load(str(app.screenshot()))
    # the cursor is boxed on the map, in the window
    edge = (r.x - 1, r.centery)
    assert tuple(shot.get_at(edge))[:3] == slicemap.CURSOR
    # the draft's pawn is on its cell of the map drawn (the editor's own panels may lie over
    # part of it in the window: the editor's HUD places those)
    players, _, _ = ed.draft.movers()
    px, py, _, pw = players[0]
    pr = lay.cell_rect(px, py, pw)
    assert tuple(dm._map._picture.get_at(pr.center))[:3] == slicemap.PAWN


def test_every_glyph_the_marks_and_the_legend_use_is_in_the_shipped_font():
    from anabasis.app.play import legend, stepmarks
    from anabasis.app.settings.keymap import DEFAULT_KEYS, Keymap
    from anabasis.app.shell.overlay import shipped_font

    pygame.font.init()
    font = shipped_font(30)

    def drawn(ch):
        return pygame.surfarray.array_alpha(font.render(ch, True, (255, 255, 255))).tobytes()

    missing = drawn("\ue000")  # a private-use character: the font's "no such glyph" box
    words = legend.lines(Keymap(DEFAULT_KEYS))
    text = "".join(stepmarks.GLYPH.values()) + "".join(w for _, w in words)
    text += "↻×↑↓◀▶"
    for ch in sorted(set(text) - {" "}):
        assert drawn(ch) != missing, f"{ch!r} (U+{ord(ch):04X}) is not in the font"


def test_the_colour_blind_safe_palette_redraws_the_frame_goal_crates_and_ramps():
    room, state = room_and_state((2, 3))
    plain = slicemap.SliceMap(room, (900, 500))
    safe = slicemap.SliceMap(room, (900, 500), "safe")
    a, b = plain.picture(state.player, state.crates), safe.picture(state.player, state.crates)
    frame = plain.layout.slice_rect(state.player[3]).inflate(6, 6)
    assert rgb_at(a, (frame.centerx, frame.y)) == slicemap.YOU
    assert rgb_at(b, (frame.centerx, frame.y)) == slicemap.SAFE["YOU"]
    c = state.crates[0]
    r = plain.layout.cell_rect(c[0], c[1], c[3])
    assert rgb_at(b, (r.centerx, r.y + 4)) == slicemap.SAFE["CRATE"]
