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
from anabasis.engine import rules, solver
from anabasis.engine.cells import RAMP_LEAN, RAMPS
from anabasis.engine.world import State
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
                    assert rgb_at(pic, corner) == slicemap.GAP
                elif smap.wall(x, y, w):
                    assert rgb_at(pic, corner) in (slicemap.WALL_FILL, slicemap.WALL_HATCH)
                else:
                    assert rgb_at(pic, corner) == slicemap.shade(top[0], Z)
                    if top[1] in RAMPS:  # the wedge's colour halfway from its middle to its
                        # tip (its height is written at its middle)
                        tip = slicemap.wedge_points(rect, RAMP_LEAN[top[1]])[0]
                        half = ((rect.centerx + tip[0]) // 2, (rect.centery + tip[1]) // 2)
                        lit = smap.lifts(x, y, w, state.crates)
                        assert rgb_at(pic, half) == (slicemap.LIFT if lit else slicemap.RAMP_MARK)
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
        assert any(rgb_at(pic, (x, y)) == slicemap.YOU for x in range(r.left, r.right)
                   for y in range(r.top, r.bottom))  # the goal's diamond in its cell


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


@pytest.mark.parametrize("source", [(2, 3), (2, 5), 6])
def test_the_movers_sprites_over_the_still_map_are_the_map_itself(source):
    """While a move plays, the map is its still part (no pawn, the crates at rest) with each
    mover a small layer over it, placed each frame.  At any rest, those layers over that part
    are pixel for pixel the map drawn whole, whichever crates count as moving."""
    room, state = room_and_state(source)
    assert state.crates
    smap = slicemap.SliceMap(room, (640, 300))
    # at the start and after each move of a shortest way
    from anabasis.engine import solver

    states, compared = [state], 0
    for move in solver.solve(room).moves[:6]:
        states.append(rules.step(room, states[-1], move).state)
    for st in states:
        if room.on_head(st.player, st.crates) is not None:
            continue  # (the tag of a crate on your head is drawn at rest only)
        top = smap.top(st.player[0], st.player[1], st.player[3])
        if any(c[:2] == st.player[:2] for c in st.crates) or (top and top[1] in RAMPS):
            continue  # (a pawn in a crate's or a ramp's column is drawn small at rest only)
        whole = smap.picture(st.player, st.crates)
        for moving in (st.crates, st.crates[:1], ()):
            if any(c[3] + 1 < room.size[3] and smap.slips(c[0], c[1], c[3] + 1)
                   for c in moving):
                continue  # (a crate at rest kata of a pit fills it: one moving does not)
            still = [c for c in st.crates if c not in moving]
            laid = smap.still(still).copy()
            for sprite, at in smap.sprites(st.player, moving):
                laid.blit(sprite, at)
            assert pygame.image.tobytes(laid, "RGBA") == pygame.image.tobytes(whole, "RGBA")
            compared += bool(moving)
    assert compared >= 2  # (rests with crates moving were looked at)
    # the same sprites each time (kept): only where they lie changes
    a = smap.sprites(state.player, state.crates)
    b = smap.sprites(states[-1].player, states[-1].crates)
    assert [p for p, _ in a][:1] == [p for p, _ in b][:1] and a[-1][0] is b[-1][0]


def test_a_pawn_on_a_crate_leaves_the_crate_in_sight():
    """A blind player lost the crate the pawn stood on: on the map the pawn, drawn over the
    crate's square, covered it.  Where a crate shares the pawn's column the pawn is drawn
    small and the crate's square shows round it."""
    room, state = room_and_state(1)
    smap = slicemap.SliceMap(room, (640, 300))
    lay = smap.layout
    x, y, z, w = state.player
    cell = lay.cell_rect(x, y, w)
    beside = (cell.centerx + round(lay.cell * 0.3), cell.centery)  # inside the crate's square
    on = smap.picture((x, y, z + 1, w), [(x, y, z, w)])
    assert rgb_at(on, cell.center) == slicemap.PAWN
    assert rgb_at(on, beside) == slicemap.CRATE
    alone = smap.picture(state.player, [])
    assert rgb_at(alone, beside) == slicemap.PAWN  # the pawn's own size, with no crate
    elsewhere = smap.picture(state.player, [(x + 1, y, z, w)])
    assert rgb_at(elsewhere, beside) == slicemap.PAWN


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
    text += "↻×↑↓◀▶" + slicemap.axes_line(3, True)
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


def test_a_crate_resting_on_your_head_in_w_is_tagged_on_the_map():
    """04 fetch: hooked down from ana, the crate rests on your head, one slice up: on the
    map it is ringed in the pawn's white, a white line joins it to the pawn, and "on your
    head" is written over its slice; step away and it falls kata, and the tag is gone."""
    from anabasis.engine.moves import parse_moves
    from anabasis.formats import levelfile

    room = levelfile.load(levels.LEVELS_DIR / "04-hook" / "04-fetch.txt")
    smap = slicemap.SliceMap(room, (900, 500))
    lay = smap.layout
    start = rules.start(room).state
    fetched = rules.replay(room, parse_moves("RhA")).state
    (crate,) = fetched.crates
    x, y, z, w = fetched.player
    assert crate == (x, y, z, w + 1)  # just ana of you, held there by you
    assert smap.on_head(start.player, start.crates) is None
    assert smap.on_head(fetched.player, fetched.crates) == crate

    def white_in(pic, rect):
        px = pygame.surfarray.pixels3d(pic)[rect.left:rect.right, rect.top:rect.bottom]
        return int((np.abs(px.astype(int) - slicemap.PAWN).sum(axis=2) <= 20).sum())

    plain = smap.picture(fetched.player, fetched.crates, head=False).copy()
    pic = smap.picture(fetched.player, fetched.crates)
    cr = lay.cell_rect(crate[0], crate[1], crate[3])
    ring = cr.inflate(4, 4)
    # the ring round the crate, in the pawn's white, and the crate inside it
    assert rgb_at(pic, (ring.centerx, ring.y)) == slicemap.PAWN
    assert rgb_at(pic, (ring.x, ring.centery)) == slicemap.PAWN
    assert rgb_at(pic, (cr.centerx, cr.y + 4)) == slicemap.CRATE
    assert rgb_at(plain, (ring.centerx, ring.y)) != slicemap.PAWN
    # the line between the pawn's cell and the crate's: white halfway along it
    pc = lay.cell_rect(x, y, w).center
    mid = ((pc[0] + cr.centerx) // 2, (pc[1] + cr.centery) // 2)
    assert rgb_at(pic, mid) == slicemap.PAWN and rgb_at(plain, mid) != slicemap.PAWN
    # the words over the crate's slice (white in its label band, none without the tag)
    r = lay.slice_rect(crate[3])
    band = pygame.Rect(r.x, r.y - lay.label, r.width, lay.label)
    assert white_in(pic, band) > 20 and white_in(plain, band) == 0
    # stepped away, it fell kata where you stood: no tag
    away = rules.replay(room, parse_moves("RhAL")).state
    assert smap.on_head(away.player, away.crates) is None
    again = smap.picture(away.player, away.crates)
    assert white_in(again, band) == 0


def test_a_crate_ana_of_you_held_by_a_ramp_is_not_on_your_head():
    from anabasis.formats import levelfile

    # the crate one slice ana stands on a ramp: the ramp holds it, not you
    room = levelfile.parse("hook: yes\n\n### ### ###\n\n### @.. ..*\n\n>## $.. ...\n")
    state = rules.start(room).state
    assert state.crates == ((0, 0, 1, 2),) and state.player == (0, 0, 1, 1)
    smap = slicemap.SliceMap(room, (600, 300))
    assert smap.on_head(state.player, state.crates) is None
    moved = rules.step(room, state, "R").state  # and it stays where it is when you go
    assert moved.crates == state.crates


def test_the_map_and_the_picture_agree_on_a_crate_on_your_head_in_every_hook_state():
    """Every reachable state of every hook level: the map tags a crate on your head exactly
    where the main picture's tag (``hook.on_head``'s rule) does, and such a crate falls
    kata when you step away from under it, where a step takes you."""
    from anabasis.app.play import hook
    from anabasis.engine import solver

    tagged = 0
    for chapter in levels.chapters():
        for n in range(1, len(chapter) + 1):
            room = chapter.load(n)
            if not room.hook:
                continue
            smap = slicemap.SliceMap(room, (600, 300))
            graph = solver.explore(room, max_states=50_000)
            t = graph.tables
            for i in range(len(graph)):
                state = t.state(graph.player(i), list(graph.crates(i)))
                on = hook._on_head(room, state)
                assert smap.on_head(state.player, state.crates) == on
                if on is None:
                    continue
                tagged += 1
                for m in rules.STEPS:
                    r = rules.step(room, state, m)
                    if r.moved and r.status != "lost" and r.state.player[:2] != state.player[:2]:
                        assert on not in r.state.crates  # it did not stay up there
    assert tagged >= 2


def test_a_columns_number_is_the_height_the_hud_says_you_stand_at_there():
    """A blind player could not read the map's numbers: one said 0 under a pawn the HUD
    said stood at z 1.  Along the shortest way of every level of chapters 1 to 3, wherever
    the pawn stands on its column's top block, the number written there is its z."""
    from anabasis.app.play.session import open_level
    from anabasis.engine import solver
    from anabasis.engine.cells import BLOCK

    checked = 0
    for chapter, count in ((1, 7), (2, 8), (3, 8)):
        for n in range(1, count + 1):
            room = open_level(n, chapter=chapter).room
            smap = slicemap.SliceMap(room, (600, 300))
            moves = solver.solve(room).moves
            for k in range(len(moves) + 1):
                x, y, z, w = rules.replay(room, moves[:k]).state.player
                top = smap.top(x, y, w)
                if top is None or top[1] != BLOCK or top[0] != z - 1:
                    continue  # on a crate or a ramp, or under an overhang
                assert smap.number(x, y, w) == z, (chapter, n, k)
                checked += 1
    assert checked > 100


def test_a_step_mark_on_the_map_leaves_the_crate_and_the_number_in_sight():
    """A blind player lost a crate under a push's mark on the map, and a number under the
    goal's: a mark sits in its cell's top left corner, the crate's square and the number
    (bottom right) still show."""
    from anabasis.app.play import stepmarks

    room, state = room_and_state(7)
    smap = slicemap.SliceMap(room, (900, 500))
    lay = smap.layout
    assert lay.cell >= slicemap.DIGITS_CELL
    x, y, z, w = state.player
    cell = (x + 1, y, z, w)
    rect = lay.cell_rect(x + 1, y, w)
    push = stepmarks.Mark("R", "push", cell=cell)
    corner = pygame.Rect(rect.centerx + 2, rect.centery + 2, rect.width // 2 - 4,
                         rect.height // 2 - 4)  # the bottom right quarter, inside the crate
    with_crate = smap.picture(state.player, [cell], (push,)).copy()
    colours = {tuple(with_crate.get_at((i, j)))[:3] for i in range(corner.left, corner.right)
               for j in range(corner.top, corner.bottom)}
    assert slicemap.CRATE in colours
    plain = smap.picture(state.player, [], ()).copy()
    marked = smap.picture(state.player, [], (push,)).copy()
    number = pygame.Rect(rect.right - rect.width // 3, rect.bottom - rect.height // 3,
                         rect.width // 3 - 2, rect.height // 3 - 2)  # where its number is
    # written (the cell's edge aside: the mark outlines the cell it goes toward)
    assert (pygame.image.tobytes(plain.subsurface(number), "RGB")
            == pygame.image.tobytes(marked.subsurface(number), "RGB"))
    assert (pygame.image.tobytes(plain.subsurface(rect), "RGB")
            != pygame.image.tobytes(marked.subsurface(rect), "RGB"))  # (the mark is drawn)
    # clear above the number's ink: at half the cell, the tag's foot met the number's top,
    # and three blind players read "•1" as "-1" (level 5: a plain floor right of the pawn)
    room, state = room_and_state(5)
    smap = slicemap.SliceMap(room, (900, 500))
    x, y, z, w = state.player
    cell, rect = (x + 1, y, z, w), smap.layout.cell_rect(x + 1, y, w)
    assert smap.layout.cell >= slicemap.DIGITS_CELL and smap.number(x + 1, y, w) == 1
    plain = smap.picture(state.player, [], ()).copy()
    for kind in ("walk", "push", "climb", "slip kata"):
        mark = stepmarks.Mark("R", kind, cell=cell, slip=1 if kind == "slip kata" else 0)
        marked = smap.picture(state.player, [], (mark,)).copy()
        a = pygame.surfarray.array3d(plain.subsurface(rect)).astype(int)
        b = pygame.surfarray.array3d(marked.subsurface(rect)).astype(int)
        ground = a[1, rect.height // 2]  # (the column's shade, by its left edge)
        ink = np.abs(a - ground).sum(axis=2) > 150  # the number's (x, y)
        tag = np.abs(b - a).sum(axis=2) > 0
        # (less the cell's outline in the mark's colour, along its edge)
        tag[:2], tag[-2:], tag[:, :2], tag[:, -2:] = False, False, False, False
        assert ink.any() and tag.any()
        assert np.flatnonzero(tag.any(axis=0))[-1] < np.flatnonzero(ink.any(axis=0))[0], kind


def test_a_column_you_would_slip_kata_off_is_drawn_as_a_pit_and_a_crate_kata_fills_it():
    """A blind player read a numbered cell with nothing kata of it as a floor, walked on and
    slipped a slice: on the map a column whose standing cell has nothing kata (the rule
    book's "held from kata") has a dark pit in it, as the room's own picture draws one; a
    block kata holds (no pit), and so does a crate resting kata of it."""
    from dataclasses import replace

    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room

    size = (3, 1, 3, 2)
    cells = bytearray(3 * 1 * 3 * 2)
    room = Room.empty(size, (2, 0, 1, 1), (2, 0, 1, 0))
    for pos in ((0, 0, 0, 1), (1, 0, 0, 1), (2, 0, 0, 1),  # w 1: a floor of three
                (1, 0, 0, 0), (1, 0, 1, 0), (0, 0, 0, 0)):  # w 0: one column two high
        cells[room.index(pos)] = BLOCK
    room = replace(room, cells=bytes(cells))
    smap = slicemap.SliceMap(room, (600, 300))
    lay = smap.layout
    assert smap.slips(0, 0, 1) and not smap.slips(1, 0, 1)  # nothing kata / a block kata
    assert smap.slips(2, 0, 1)
    assert not smap.slips(0, 0, 1, crates=[(0, 0, 1, 0)])  # a crate kata holds

    def centre(pic, x, w):  # (over the middle: a pit you fall out from has a ✕ there)
        rect = lay.cell_rect(x, 0, w)
        return rgb_at(pic, (rect.centerx, rect.centery - rect.height // 5))

    bare = smap.picture(None, []).copy()
    assert centre(bare, 0, 1) == slicemap.PIT and centre(bare, 1, 1) != slicemap.PIT
    with_crate = smap.picture(None, [(0, 0, 1, 0)]).copy()
    assert centre(with_crate, 0, 1) != slicemap.PIT  # the crate resting kata of it holds it
    assert centre(with_crate, 2, 1) == slicemap.PIT
    # and says so: framed in the crate's colour (drawn as any floor, it turned into a pit
    # when the crate moved, and four blind players were caught out)
    def bar(pic, x, w):
        rect = lay.cell_rect(x, 0, w)
        return all(rgb_at(pic, p) == slicemap.CRATE for p in (
            (rect.x + 2, rect.centery), (rect.right - 3, rect.centery),
            (rect.centerx, rect.y + 2), (rect.centerx, rect.bottom - 3)))
    assert bar(with_crate, 0, 1) and not bar(bare, 0, 1) and not bar(with_crate, 1, 1)


@pytest.mark.parametrize("source", [1, 2, 3, 4, 7, (2, 3), (2, 8), (3, 2)])
def test_the_maps_pits_are_where_the_reference_engine_slips_you(source):
    """Every column the map draws as a pit is one the reference engine's settle takes you
    kata off (stood on its top, no crates), and every other block column holds you there."""
    from anabasis.engine import reference
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import State

    room, _ = room_and_state(source)
    smap = slicemap.SliceMap(room, (900, 500))
    X, Y, Z, W = room.size
    checked = 0
    for w in range(W):
        for y in range(Y):
            for x in range(X):
                top = smap.top(x, y, w)
                if top is None or top[1] != BLOCK or top[0] + 1 >= Z:
                    continue
                stand = (x, y, top[0] + 1, w)
                if room.cell(stand) != 0:
                    continue
                settled = reference.settle(room, State.of(stand, ()))
                slipped = settled.status == "lost" or settled.state.player[3] != w
                assert smap.slips(x, y, w) == slipped, (stand, settled.status)
                # and the pits it crosses are those you fall out of the room from
                assert smap.out(x, y, w) == (settled.status == "lost"), stand
                # and a pit's bars are the slices the settle slips you (two blind players
                # traced each pit's drop slice by slice)
                if settled.status != "lost":
                    down = w - settled.state.player[3]
                    assert smap.depth(x, y, w) == (down % W if room.wrap else down), stand
                checked += 1
    assert checked > 0


def test_a_pit_two_slices_deep_or_more_has_a_bar_a_slice():
    """hard.wombat's pits slip you one slice, two or three: each one two or more has that
    many light bars in it (most four); one a slice, none; the key says so."""
    from anabasis import gen

    room = gen.build(*gen.parse_spec("hard.wombat")).room
    smap = slicemap.SliceMap(room, (1230, 600), most=slicemap.LARGE_CELL)
    pic = smap.picture(None, [])
    seen = set()
    for (x, y, w), (out, deep) in smap._pits.items():
        rect = smap.layout.cell_rect(x, y, w)
        column = [rgb_at(pic, (rect.centerx, yy)) for yy in range(rect.y, rect.bottom)]
        runs = sum(1 for a, b in zip(column, column[1:], strict=False)
                   if b == slicemap.DEEP_INK and a != slicemap.DEEP_INK)
        assert runs == (0 if out or deep < 2 else min(deep, 4)), (x, y, w, deep)
        if runs and rect.width >= 18:  # (on the large map, bars two pixels thick or more:
            # a pixel each, t280 told two from three only by zooming a screenshot)
            assert sum(c == slicemap.DEEP_INK for c in column) >= 2 * runs, (x, y, w)
        if runs:  # (as wide as three fifths of the cell, as light as the pit's rim: a
            # pit with two bars read as a plain one at a hard room's size, t340, t348)
            row = [rgb_at(pic, (xx, rect.centery)) for xx in range(rect.x, rect.right)]
            mid = rect.y + (rect.height - 1) // 2
            rows = [[rgb_at(pic, (xx, yy)) for xx in range(rect.x, rect.right)]
                    for yy in range(mid - 3, mid + 4)]
            widest = max(sum(c == slicemap.DEEP_INK for c in r) for r in [row, *rows])
            assert widest >= rect.width * 3 // 5 - 1, (x, y, w, widest)
        seen.add(deep)
    assert {1, 2, 3} <= seen and "deep" in smap.kinds and slicemap.DEEP_WORDS
    assert sum(slicemap.DEEP_INK) >= sum(slicemap.PIT_RIM)  # (as light as the pit's rim)


def big_map(source):
    """The room of ``source`` and its map, big enough for every number, with no movers."""
    room, _ = room_and_state(source)
    smap = slicemap.SliceMap(room, (1400, 700))
    return room, smap, smap.picture(None)


def columns(room):
    """Every column ``(x, y, w)`` of ``room``."""
    X, Y, _, W = room.size
    return [(x, y, w) for w in range(W) for y in range(Y) for x in range(X)]


@pytest.mark.parametrize("source", [(2, 4), (2, 6), (3, 5), 7])
def test_a_floor_under_a_columns_top_is_notched_with_its_height(source):
    """A blind player lost a floor under a shelf: the map's shade and number say only a
    column's top.  Each column with room to stand under its top, as the engine has it (a
    pawn put there stays at that height in z), has a dark notch with the lowest such height;
    no other column has one.  Where a pawn put at that height slips kata (the engine, with
    w's gravity), the notch is a pit's, rimmed, with no number (a later player took a
    notched floor that holds and one that slips alike)."""
    from anabasis.engine.world import State

    room, smap, pic = big_map(source)
    lay = smap.layout
    assert lay.cell >= slicemap.DIGITS_CELL
    notched = slipping = 0
    for x, y, w in columns(room):
        top = smap.top(x, y, w)
        stays = [] if top is None else [
            z for z in range(top[0]) if room.cell((x, y, z, w)) == 0
            and rules.settle(room, State.of((x, y, z, w)), gravity_w=False).state.player[2] == z]
        assert list(smap.hollows(x, y, w)) == stays
        rect = lay.cell_rect(x, y, w)
        corner = rgb_at(pic, (rect.x + 1, rect.bottom - 2))
        slips = bool(stays) and rules.settle(
            room, State.of((x, y, stays[0], w))).state.player != (x, y, stays[0], w)
        assert (corner == slicemap.HOLLOW) == (bool(stays) and not slips), (x, y, w)
        assert (corner == slicemap.PIT_RIM) == slips, (x, y, w)
        notched += bool(stays)
        slipping += slips
        if stays and room.goal[:2] + room.goal[3:] != (x, y, w):  # (the goal's diamond)
            # its height written in it, where it holds
            side = lay.cell // 2
            # (inside its round corner; the rim's grey sums to 396, the number's ink to 450
            # and more)
            notch = pygame.Rect(rect.x, rect.bottom - side, side, side).inflate(-4, -4)
            ink = max(sum(rgb_at(pic, (px, py))) for px in range(notch.x, notch.right)
                      for py in range(notch.y, notch.bottom))
            assert (ink <= sum(slicemap.PIT_RIM)) if slips else (ink > 450), (x, y, w, ink)
    assert notched > 0 or source == 7  # level 7 has none: it is there as the control
    assert slipping > 0 or source != (3, 5)  # 3.5 has both kinds


@pytest.mark.parametrize("source", [(2, 8), (2, 6), 3])
def test_a_column_full_to_the_rooms_top_is_drawn_as_a_wall_with_no_number(source):
    """A blind player read 2.8's "2" columns as steps to climb: they reach the room's top,
    and each climb was refused.  A column of blocks up to the room's top has no number and
    is drawn dark and hatched light, as the room's picture draws a wall's top (framed on its
    top's light shade, blind players read the map's walls as floor, and the hatched gaps as
    the room's walls); a column with room over it has its number, its shade and no hatch;
    none of them is a place the engine leaves a pawn (on top of it is out of the room)."""
    room, smap, pic = big_map(source)
    lay = smap.layout
    walls = 0
    goal = (room.goal[0], room.goal[1], room.goal[3])
    for x, y, w in columns(room):
        top = smap.top(x, y, w)
        if top is None or top[1] in RAMPS or (x, y, w) == goal:
            continue
        full = top[0] == room.size[2] - 1
        assert smap.wall(x, y, w) == full
        assert (smap.number(x, y, w) is None) == full
        rect = lay.cell_rect(x, y, w)
        block = pygame.surfarray.pixels3d(pic)[rect.x + 1:rect.right - 1,
                                               rect.y + 1:rect.bottom - 1].reshape(-1, 3)
        colours = {tuple(int(v) for v in c) for c in np.unique(block, axis=0)}
        del block
        hatched = slicemap.WALL_HATCH in colours and slicemap.WALL_FILL in colours
        assert hatched == full, (x, y, w)
        assert (slicemap.shade(top[0], room.size[2]) in colours) != full, (x, y, w)
        walls += full
    assert walls > 0


def test_a_pawn_on_a_ramps_column_leaves_the_wedge_in_sight():
    """A blind player did not know he stood on a ramp (level 7's start) until he moved off
    it: the pawn's disc covered the wedge.  On a ramp's column the pawn is drawn small and
    the wedge shows round it; on a block's, it is drawn full size."""
    room, state = room_and_state(7)
    smap = slicemap.SliceMap(room, (900, 500))
    px, py, _, pw = state.player
    assert smap.top(px, py, pw)[1] in RAMPS
    rect = smap.layout.cell_rect(px, py, pw)

    def wedge(pic):  # the wedge's pixels in the pawn's cell
        return sum(rgb_at(pic, (x, y)) in (slicemap.RAMP_MARK, slicemap.LIFT)
                   for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom))

    assert wedge(smap.picture(state.player)) > 0.3 * wedge(smap.picture(None))  # (full: 8%)
    # on a block's column: the pawn full size
    room1, state1 = room_and_state(1)
    plain = slicemap.SliceMap(room1, (900, 500))
    x, y, _, w = state1.player
    assert plain.top(x, y, w)[1] not in RAMPS
    r = plain.layout.cell_rect(x, y, w)
    edge = r.centerx + round(plain.layout.cell * (slicemap.PAWN_SIZE - 0.05))
    assert rgb_at(plain.picture(state1.player), (edge, r.centery)) == slicemap.PAWN


def _luma(colour) -> float:
    r, g, b = colour[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("box", [(900, 300), (1230, 600)])
@pytest.mark.parametrize("source", [(2, 4), (3, 5)])
def test_a_columns_number_is_big_and_stands_out_from_its_shade(source, box):
    """Three blind players could not read the map's numbers at 1280 x 720 (a glyph a third
    of a cell, dark ink on the darkest shade).  In every numbered column (not a pit, not a
    notched one), the number's ink is at least 0.4 of a cell high and stands out from the
    column's shade by a contrast of 100 of 255 in luma."""
    room, _ = room_and_state(source)
    smap = slicemap.SliceMap(room, box)
    pic = smap.picture(None)
    cell = smap.layout.cell
    assert cell >= slicemap.DIGITS_CELL
    checked = 0
    for x, y, w in columns(room):
        if (smap.top(x, y, w) is None or smap.number(x, y, w) is None
                or smap.slips(x, y, w) or smap.hollows(x, y, w)):
            continue
        if room.goal[:2] == (x, y) and room.goal[3] == w:
            continue  # (the goal's diamond lies over it)
        rect = smap.layout.cell_rect(x, y, w)
        ground = slicemap.shade(smap.top(x, y, w)[0], room.size[2])
        block = pygame.surfarray.pixels3d(pic)[rect.x:rect.right, rect.y:rect.bottom]
        luma = block @ np.array([0.299, 0.587, 0.114])
        ink = np.abs(luma - _luma(ground)) >= 100
        del block
        rows = np.flatnonzero(ink.any(axis=0))
        assert rows.size, (x, y, w)
        assert rows[-1] - rows[0] + 1 >= 0.4 * cell, (x, y, w, cell)
        checked += 1
    assert checked > 5


def test_a_pit_on_the_map_has_no_number_so_it_never_reads_as_a_floor():
    """A blind player read the map's pits, a light number on black, as floors to stand on
    (and as the notches of a floor under a top).  In every pit of 2.7's and 2.8's maps no
    pixel has a number's light ink; in the numbered columns round them, the ink is there."""
    for source in [(2, 7), (2, 8)]:
        room, _ = room_and_state(source)
        smap = slicemap.SliceMap(room, (1230, 600))
        pic = smap.picture(None)
        pits = numbered = 0
        for x, y, w in columns(room):
            if smap.top(x, y, w) is None or smap.number(x, y, w) is None or smap.hollows(
                    x, y, w) or (room.goal[:2] == (x, y) and room.goal[3] == w):
                continue
            rect = smap.layout.cell_rect(x, y, w)
            block = pygame.surfarray.pixels3d(pic)[rect.x:rect.right, rect.y:rect.bottom]
            light = int((block.astype(int).sum(axis=2) > 3 * 200).sum())
            del block
            if smap.slips(x, y, w):
                assert light == 0, (source, x, y, w)
                pits += 1
            elif slicemap.ink_on(slicemap.shade(smap.top(x, y, w)[0], room.size[2])) == (
                    slicemap.LIGHT_INK):
                assert light > 5, (source, x, y, w)
                numbered += 1
        assert pits >= 2 and numbered >= 2, (source, pits, numbered)


def test_the_goals_diamond_on_a_pit_is_small_so_the_pit_shows_round_it():
    """A blind player walked onto 3.4's goal and slipped: the map's diamond covered its pit.
    On a pit the diamond is drawn small, in the middle, inside the pit's rim.  On a floor
    two blind players could not read the number under it, and drawn small in the cell's
    upper part, two more took it for the row's above: there it goes round the cell's
    middle, most of the cell wide, and the number is written smaller inside it, clear of
    its line."""
    for source, in_pit in (((3, 4), True), (1, False), ((2, 4), False), (6, False)):
        room, _ = room_and_state(source)
        smap = slicemap.SliceMap(room, (900, 400))
        assert smap.layout.cell >= slicemap.DIGITS_CELL
        gx, gy, _, gw = room.goal
        assert smap.slips(gx, gy, gw) == in_pit
        rect = smap.layout.cell_rect(gx, gy, gw)
        block = pygame.surfarray.pixels3d(smap.picture(None))[rect.x:rect.right,
                                                               rect.y:rect.bottom]
        gold = (np.abs(block.astype(int) - slicemap.YOU).sum(axis=2) < 40)  # (x, y)
        ground = slicemap.shade(smap.top(gx, gy, gw)[0], room.size[2])
        ink = np.abs(block @ np.array([0.299, 0.587, 0.114]) - _luma(ground)) >= 100
        block_copy = np.array(block)
        del block
        cols = np.flatnonzero(gold.any(axis=1))
        rows = np.flatnonzero(gold.any(axis=0))
        wide = (cols[-1] - cols[0] + 1) / rect.width
        if in_pit:
            assert wide <= 0.6, (source, wide)
            continue
        assert smap.hollows(gx, gy, gw) == ()
        # on a dark edge (thin gold on a high column's light shade read as grey, another
        # thing, to a blind player)
        assert np.all(block_copy == slicemap.GOAL_EDGE, axis=2).sum() > rect.width, source
        assert wide >= 0.8 and (rows[-1] - rows[0] + 1) / rect.height >= 0.8, source
        mid = rect.width / 2  # the diamond round the middle, the cell's
        assert abs((cols[0] + cols[-1]) / 2 - mid) <= 1.5 and abs((rows[0] + rows[-1]) / 2
                                                                    - mid) <= 1.5, source
        edge = np.all(block_copy == slicemap.GOAL_EDGE, axis=2)  # (the gold's dark edge)
        digits = ink & ~gold & ~edge
        xs, ys = np.nonzero(digits[2:-2, 2:-2])
        assert len(xs) > 5, source
        # the number inside the diamond: each of its ink pixels nearer the middle, along
        # the diamond's own measure (|dx| + |dy|), than the line
        inside = np.abs(xs + 2 - mid) + np.abs(ys + 2 - mid)
        assert inside.max() < mid - 2, (source, inside.max(), mid)


def test_a_notched_columns_two_numbers_stand_apart():
    """A notch's number ("1", the floor under the top, lower left) beside the top's number
    ("3", lower right) read as one number, "13".  Over a notch the top's number is at the
    cell's top right, its ink starting in the cell's top fifth (the notch is in the lower
    left); in a column with no notch the number stays low, starting below the top third.
    2.6's map has eight notched columns with a number."""
    room, _ = room_and_state((2, 6))
    smap = slicemap.SliceMap(room, (1400, 700))
    pic = smap.picture(None)
    cell = smap.layout.cell
    assert cell >= slicemap.DIGITS_CELL
    notched = plain = 0
    for x, y, w in columns(room):
        if (smap.top(x, y, w) is None or smap.number(x, y, w) is None or smap.slips(x, y, w)
                or smap.wall(x, y, w) or (room.goal[:2] == (x, y) and room.goal[3] == w)):
            continue
        rect = smap.layout.cell_rect(x, y, w)
        ground = slicemap.shade(smap.top(x, y, w)[0], room.size[2])
        block = pygame.surfarray.pixels3d(pic)[rect.x:rect.right, rect.y:rect.bottom]
        luma = block @ np.array([0.299, 0.587, 0.114])
        del block
        ink = np.abs(luma - _luma(ground)) >= 100  # (x, y): the number's ink, the notch's too
        half = cell // 2
        right = ink[half + 1:, :]  # the right half, clear of the notch (lower left)
        rows = np.flatnonzero(right.any(axis=0))
        if smap.hollows(x, y, w):
            assert rows.size and rows.min() < 0.2 * cell, (x, y, w, rows)
            notched += 1
        else:
            assert rows.size and rows.min() > cell / 3, (x, y, w, rows)
            plain += 1
    assert notched >= 1 and plain >= 5, (notched, plain)


def test_a_crate_on_a_ramps_column_is_small_so_the_ramp_shows_round_it():
    """A blind player, a crate pushed onto 3.8's ramp, took the ramp for gone: the crate's
    square covered its wedge.  On a ramp's column the crate is drawn small, the ramp's
    colour round it in its cell; a crate on a plain floor fills its cell as before."""
    from anabasis.engine import solver

    room, state = room_and_state((3, 8))
    for move in solver.solve(room).moves[:6]:
        state = rules.step(room, state, move).state
    smap = slicemap.SliceMap(room, (1000, 400))
    pic = smap.picture(state.player, state.crates)
    checked = set()
    for c in state.crates:
        rect = smap.layout.cell_rect(c[0], c[1], c[3])
        block = pygame.surfarray.pixels3d(pic)[rect.x:rect.right, rect.y:rect.bottom]
        crate = int((np.abs(block.astype(int) - slicemap.CRATE).sum(axis=2) < 30).sum())
        ramp = int(sum((block == ink).all(axis=2).sum() for ink in (slicemap.RAMP_MARK,
                                                                     slicemap.LIFT)))
        del block
        on_ramp = smap.top(c[0], c[1], c[3])[1] in RAMPS
        if on_ramp:
            assert crate < 0.2 * rect.width * rect.height and ramp > 10, (c, crate, ramp)
        else:
            assert crate > 0.35 * rect.width * rect.height, (c, crate)
        checked.add(on_ramp)
    assert checked == {True, False}


def test_a_pits_rim_shows_on_every_columns_shade():
    """Two blind players read the large map's pits on a light column (a high floor) as
    another kind of square, "dark squares without a rim": the rim's grey was the shade of
    such columns.  The rim is lighter than every column's shade, in rooms of every height."""
    rim = sum(slicemap.PIT_RIM)
    for Z in range(1, 9):
        for z in range(Z):
            assert rim > sum(slicemap.shade(z, Z)) + 60, (z, Z)


def test_a_pushs_tag_on_the_map_points_the_way_the_crate_goes_on_the_plan():
    """Blind players read the map's "▶" push tag as a push to the right for every push.  The
    tag points the way the step's move goes on the plan (x to the right, y down)."""
    from anabasis.engine.moves import STEPS

    arrows = {(1, 0): "▶", (-1, 0): "◀", (0, 1): "▼", (0, -1): "▲"}
    on_map = {m: slicemap.ARROW_GLYPH[slicemap.MOVE_ON_PLAN[m]] for m in STEPS}
    assert {m: arrows[d[:2]] for m, d in STEPS.items()} == on_map


@pytest.mark.parametrize("source", [3, 4, 7, (3, 3), (3, 8)])
def test_a_ramps_column_says_the_height_you_stand_at_on_it(source):
    """Two blind players planned a hard room guessing a ramp's height from its shade: the
    map wrote a number on every block's column but none on a ramp's.  Where the cells are
    big enough for numbers, each ramp's column has its height (one over the ramp) on its
    wedge, in the wedge's dark ink, inside the cell (written in a corner by the tip, a
    blind player read it as the next cell's)."""
    room, _ = room_and_state(source)
    smap = slicemap.SliceMap(room, (1230, 600))
    pic = smap.picture(None)
    cell = smap.layout.cell
    assert cell >= slicemap.DIGITS_CELL
    checked = 0
    for x, y, w in columns(room):
        top = smap.top(x, y, w)
        if top is None or top[1] not in RAMPS:
            continue
        rect = smap.layout.cell_rect(x, y, w)
        ink = slicemap.RAMP_INK
        at = smap.ramp_number_at(rect, RAMP_LEAN[top[1]])
        assert rect.inflate(-cell // 3, -cell // 3).collidepoint(at)  # well inside its cell
        box = pygame.Rect(0, 0, cell // 3, cell // 3)
        box.center = at
        block = pygame.surfarray.pixels3d(pic)[box.x:box.right, box.y:box.bottom]
        inked = int((block == np.array(ink[:3])).all(axis=-1).sum())
        del block
        assert inked >= 4, (source, x, y, w, inked)  # (the wedge's edge is out of the box)
        checked += 1
    assert checked >= 1


def test_a_gap_a_ramps_step_may_cross_has_no_fall_out_cross():
    """The map marked every empty column "you would fall out" (hatched, then a ✕), and three
    blind players took it as the whole truth: at level 7's corners and in hard.egret's start
    a step into such a column goes down onto a ramp one slice kata, or ana off a ramp beside
    it, and a start area read as sealed in.  A gap a ramp's step may cross is dark alone; one
    no ramp reaches keeps its ✕.  Held to the engine: wherever a step from a ramp into a gap
    column moves the pawn to another slice, that gap is drawn crossed."""
    from anabasis.engine.world import State

    def crosses_drawn(smap, pic, x, y, w):
        rect = smap.layout.cell_rect(x, y, w)
        block = pygame.surfarray.pixels3d(pic)[rect.x:rect.right, rect.y:rect.bottom]
        marked = bool((block == np.array(slicemap.GAP_MARK)).all(axis=-1).any())
        del block
        return marked

    checked = {True: 0, False: 0}
    stepped = 0
    for source in (1, 3, 4, 7, (2, 3), (3, 3), (3, 8)):
        room, _ = room_and_state(source)
        smap = slicemap.SliceMap(room, (1230, 600))
        pic = smap.picture(None)
        X, Y, Z, W = room.size
        for x, y, w in columns(room):
            if smap.top(x, y, w) is not None:
                continue
            crossed = smap.ramp_crosses(x, y, w)
            assert crosses_drawn(smap, pic, x, y, w) != crossed, (source, x, y, w)
            checked[crossed] += 1
            # the engine: a pawn on a ramp beside the gap, stepping in, changes slice
            for move, (dx, dy, _, _) in rules.STEPS.items():
                px, py = x - dx, y - dy
                if not (0 <= px < X and 0 <= py < Y):
                    continue
                for z in range(1, Z):
                    if room.cells[room.index((px, py, z - 1, w))] not in RAMPS:
                        continue
                    if room.cells[room.index((px, py, z, w))] != 0:
                        continue
                    state = State.of((px, py, z, w), room.start.crates)
                    result = rules.step(room, state, move)
                    if result.moved and result.status != "lost" \
                            and result.state.player[3] != w:
                        assert crossed, (source, x, y, w, move)
                        stepped += 1
    assert checked[True] and checked[False] and stepped >= 4, (checked, stepped)


def test_a_big_map_has_a_key_along_its_foot_and_a_small_one_none():
    """Blind players met the map's ✕ and pits with no word of what they were, learning them
    by stepping or never (none opened the help's legend).  A map wide enough (the large one)
    has a key along its foot, right of the axes line: a picture of each kind of cell the
    map shows and its words (``KEY``), in those cells' own colours; a kind the room has not
    is left out; a corner map too small for it has none."""

    def key_colours(smap):
        pic = smap.picture(None)
        k = smap.keyed
        block = pygame.surfarray.pixels3d(pic)[k.x:k.right, k.y:k.bottom].reshape(-1, 3)
        colours = {tuple(int(v) for v in c) for c in np.unique(block, axis=0)}
        del block
        return colours

    room, _ = room_and_state(7)  # (every gap crossed by a ramp: no ✕ in its key)
    big = slicemap.SliceMap(room, (1230, 600), most=slicemap.LARGE_CELL)
    assert big.keyed is not None and {"crossed", "ramp", "wall"} <= big.kinds
    assert "gap" not in big.kinds
    colours = key_colours(big)
    assert {slicemap.WALL_HATCH, slicemap.RAMP_MARK} <= colours
    assert slicemap.GAP_MARK not in colours
    # level 4 has all three kinds of gap: each in the key (four blind players met a dark
    # cell with no ✕ on the large map, its key silent on it, and took it for a hole)
    room, _ = room_and_state(4)
    big = slicemap.SliceMap(room, (1230, 600), most=slicemap.LARGE_CELL)
    assert {"gap", "below", "crossed"} <= big.kinds
    assert {slicemap.GAP_MARK, slicemap.RAMP_BELOW} <= key_colours(big)
    words = dict(slicemap.KEY)
    assert "kata" in words["below"] and "steps over" in words["crossed"]
    k = big.keyed
    assert k.bottom <= big.layout.size[1] and k.right <= big.layout.size[0]
    for x, y, w in columns(room):  # clear of every cell
        assert not k.colliderect(big.layout.cell_rect(x, y, w))
    room, _ = room_and_state(5)  # (no gap, no ramp: no ✕, no wedge in its key)
    big = slicemap.SliceMap(room, (1230, 600), most=slicemap.LARGE_CELL)
    colours = key_colours(big)
    assert slicemap.WALL_HATCH in colours
    assert slicemap.GAP_MARK not in colours and slicemap.RAMP_MARK not in colours
    small = slicemap.SliceMap(room, (260, 110))
    assert small.keyed is None


def test_a_slips_tag_on_the_map_says_its_arrow_with_its_slices():
    """Two blind players read a slip's tag on the map, a bare orange "1" in the numbers'
    font, as a height.  It says the slip's arrow with its slices ("↓2"), in a tag as wide
    as that takes, wider than a one-glyph tag."""
    from anabasis.app.play import stepmarks

    room, state = room_and_state(7)
    smap = slicemap.SliceMap(room, (900, 500))
    x, y, z, w = state.player
    cell = (x + 1, y, z, w)
    rect = smap.layout.cell_rect(x + 1, y, w)

    def tag_right(mark):
        pic = smap.picture(state.player, [], (mark,)).copy()
        row = rect.y + max(9, smap.layout.cell // 2 + 2) // 2
        dark = [i for i in range(rect.x - 1, rect.right + 20)
                if tuple(pic.get_at((i, row)))[:3] == (12, 14, 20)]
        return max(dark)

    walk = tag_right(stepmarks.Mark("R", "walk", cell=cell))
    slip = tag_right(stepmarks.Mark("R", "slip kata", slip=2, cell=cell))
    assert slip > walk + 3, (walk, slip)


def crossed(surface, rect) -> int:
    """How many pixels of a pit's ✕ (:data:`slicemap.OUT_MARK`) lie in ``rect``."""
    return sum(rgb_at(surface, (x, y)) == slicemap.OUT_MARK
               for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom))


def test_a_pit_you_fall_out_from_is_crossed_and_one_you_slip_through_is_not():
    """Level 1's pits (you slip kata and fall out of the room) and level 5's bridge gap (you
    slip onto the floor a slice kata) were drawn alike, and blind players took the bridge's
    gap for a death.  On the map a pit you fall out from has a ✕ in it; one you slip through
    to a floor has none; the key says which is which."""
    one, _ = room_and_state(1)
    smap = slicemap.SliceMap(one, (900, 500), most=slicemap.LARGE_CELL)
    pic = smap.picture(None, [])
    pits = [(x, 0, 1) for x in (1, 2)]
    assert all(smap.slips(*p) and smap.out(*p) for p in pits)
    assert all(crossed(pic, smap.layout.cell_rect(*p)) > 4 for p in pits)
    assert "out" in smap.kinds and not crossed(pic, smap.layout.cell_rect(0, 1, 1))
    five, state = room_and_state(5)
    smap = slicemap.SliceMap(five, (900, 500), most=slicemap.LARGE_CELL)
    pic = smap.picture(None, state.crates)
    pits = [(x, y, w) for w in range(five.size[3]) for y in range(five.size[1])
            for x in range(five.size[0]) if smap.slips(x, y, w)]
    assert pits and not any(smap.out(*p) for p in pits)
    assert not any(crossed(pic, smap.layout.cell_rect(*p)) for p in pits)
    assert "out" not in smap.kinds and "pit" in smap.kinds


def test_a_crate_in_a_pits_fall_crosses_it_or_clears_it():
    """Whether you fall out from a pit may hang on a crate: one that a fall lands on, where
    nothing holds you kata, sends you on kata and out of the room.  The map's pits are drawn
    with no crates once; where the crates at rest change a pit's answer, it is drawn again."""
    from anabasis.formats import levelfile

    room = levelfile.parse("### ### ...\n\n### .## .##\n\n### ### .@*\n")
    smap = slicemap.SliceMap(room, (900, 500), most=slicemap.LARGE_CELL)
    rect = smap.layout.cell_rect(0, 0, 2)
    crate = (0, 0, 1, 1)  # (rests: a block under it, a block kata of it)
    assert smap.slips(0, 0, 2) and smap.slips(0, 0, 2, [crate])
    assert not smap.out(0, 0, 2) and smap.out(0, 0, 2, [crate])
    assert rules.falls_out(room, (0, 0, 2, 2), [crate])
    assert not crossed(smap.picture(None, []), rect)
    assert crossed(smap.picture(None, [crate]), rect) > 4
    assert not crossed(smap.picture(None, []), rect)  # (and back)


@pytest.mark.parametrize("source", [1, 6, (3, 2), (3, 8), (2, 7), (4, 8), "medium.dunlin"])
def test_the_maps_fall_out_walk_is_the_rule_books_settling_with_the_crates_at_rest(source):
    """The map walks a fall itself (an editor's draft need not be a room the engine takes):
    on every pit of the room, with its crates at rest, it says what the engine's settling
    says (an endless fall round a wrapped w included)."""
    from anabasis.gen.builder import resolve_source

    room = resolve_source(source) if isinstance(source, str) else room_and_state(source)[0]
    state = rules.start(room).state
    smap = slicemap.SliceMap(room, (900, 500))
    X, Y, Z, W = room.size
    seen = {True: 0, False: 0}
    for w in range(W):
        for y in range(Y):
            for x in range(X):
                if smap.slips(x, y, w, state.crates):
                    top = smap.top(x, y, w)[0]
                    out = rules.falls_out(room, (x, y, top + 1, w), state.crates)
                    assert smap.out(x, y, w, state.crates) == out, (x, y, w)
                    seen[out] += 1
    assert seen[True] > 0 if source in (1, (3, 2), (3, 8)) else seen[True] == 0, seen
    assert seen[False] > 0 or source == 1, seen


def test_only_a_notch_that_slips_is_rimmed():
    """The help says a notch (a floor under a column's top) that slips is rimmed; the notch
    that holds had a light edge of its own, and a blind player took every notch of 2.6's map
    for one that slips (with no edge, two more did not find them on a dark shade).  A notch
    that holds has a dim edge, seen on the darkest shade; one that slips has the pit's
    light rim, well lighter."""
    def edge(slips, z=2):
        surface = pygame.Surface((40, 40))
        surface.fill(slicemap.shade(z, 4))
        box = slicemap.notch(surface, pygame.Rect(0, 0, 40, 40), 24, slips)
        # along its top, clear of the round corner
        return [_luma(surface.get_at((x, box.top))[:3]) for x in range(box.x + 2, box.x + 12)]

    assert max(edge(False)) < 120 and min(edge(True)) > 150
    assert min(edge(False, 0)) > _luma(slicemap.shade(0, 4)) + 20


def _ink(pic, rect: pygame.Rect, colour, near: int = 40) -> np.ndarray:
    """The pixels of ``rect`` in ``pic`` within ``near`` of ``colour`` (a mask, rows first)."""
    part = pygame.surfarray.array3d(pic.subsurface(rect)).transpose(1, 0, 2).astype(int)
    return np.abs(part - np.array(colour)).sum(axis=2) < near


@pytest.mark.parametrize("spec", ["hard.gemsbok", "medium.topi"])
def test_the_large_map_numbers_each_slices_columns_under_it_and_rows_left_of_it(spec):
    from anabasis import gen

    room = gen.build(*gen.parse_spec(spec)).room
    X, Y, _, W = room.size
    large = slicemap.SliceMap(room, (1100, 560), most=slicemap.LARGE_CELL)
    lay = large.layout
    assert lay.ruled and lay.ruler_w > 0 and lay.ruler_h > 0
    pic = large.base
    cell = lay.cell
    for w in range(W):
        r = lay.slice_rect(w)
        assert lay.panel_rect(w).contains(r)
        # under each column, its number: ink in the ruler's band within the column's span,
        # none between two columns' numbers
        band = pygame.Rect(r.x, r.bottom + 2, r.width, lay.ruler_h - 2)
        ink = _ink(pic, band, slicemap.RULER).any(axis=0)
        for x in range(X):
            span = ink[x * cell + 2:(x + 1) * cell - 2]
            assert span.any(), (w, x)
            xs = np.flatnonzero(ink[x * cell:(x + 1) * cell])
            assert abs(xs.mean() - cell / 2) < cell / 4, (w, x)  # centred under it
        # left of each row, its number
        side = pygame.Rect(r.x - lay.ruler_w, r.y, lay.ruler_w - 2, r.height)
        ink = _ink(pic, side, slicemap.RULER).any(axis=1)
        for y in range(Y):
            ys = np.flatnonzero(ink[y * cell:(y + 1) * cell])
            assert ys.size and abs(ys.mean() - cell / 2) < cell / 4, (w, y)
    # the corner map has none: its cells take the room
    corner = slicemap.SliceMap(room, (400, 200))
    assert not corner.layout.ruled and corner.layout.ruler_w == corner.layout.ruler_h == 0
    r = corner.layout.slice_rect(0)
    assert r.x == corner.layout.pad


def _nearer(app):
    """hard.gemsbok open in ``app``, its nearer map drawn: (the play, the part shown)."""
    from anabasis import gen
    from anabasis.app.play import reading
    from anabasis.app.play.session import opened_made

    app.open(opened_made(gen.build(*gen.parse_spec("hard.gemsbok"))))
    app.tick(DT)
    play, ov = app.scene, app.overlay
    reading.draw_near(ov, play, play.reading.large_box(), reading.large_top(ov),
                      reading.key_bar_top(ov))
    return play, ov.shown[-1][0]


def test_the_nearer_map_shows_the_row_numbers_of_its_first_slice(make_app):
    """Tab's nearer map shows whole slices: the first shown keeps its row numbers (cut
    where the cells begin, they were lost)."""
    play, part = _nearer(make_app())
    lay = play.reading.near_map().layout
    assert part.get_width() < lay.size[0]  # (a part: not every slice fits)
    top = lay.slice_rect(0).y
    strip = pygame.Rect(0, top, lay.pad + lay.ruler_w - 3, play.room.size[1] * lay.cell)
    ink = _ink(part, strip, slicemap.RULER)
    for y in range(play.room.size[1]):
        rows = ink[y * lay.cell:(y + 1) * lay.cell]
        assert rows.any(axis=0).sum() >= 4, y  # the whole number, not a sliver of it


def test_the_nearer_maps_key_is_whole(make_app):
    """The nearer map shows a part of the map of every slice; its key, laid out along the
    whole map's foot, was cut off there (its first band lost, half a glyph left).  The part
    has a key of its own, laid out for its width: every kind of cell the map shows has its
    picture there."""
    from anabasis.app.play import reading

    play, part = _nearer(make_app(size=(1280, 720)))
    smap = play.reading.near_map()
    assert part.get_width() < smap.size[0]
    # the axes line at its left, as on the whole map
    axes = pygame.Rect(0, smap.foot_top, 3 * smap.layout.cell, part.get_height() - smap.foot_top)
    assert _ink(part, axes, slicemap.LABEL).sum() > 20
    foot = pygame.Rect(0, smap.foot_top, part.get_width(), part.get_height() - smap.foot_top)
    own = smap.foot(part.get_width())
    assert set(smap.foot_kinds) == {kind for kind, _ in slicemap.KEY if kind in smap.kinds}
    ground = pygame.Surface(own.get_size(), pygame.SRCALPHA, 32)
    ground.fill((*reading.LARGE_GROUND, 255))
    ground.blit(own, (0, 0))
    assert np.array_equal(pygame.surfarray.array3d(part.subsurface(foot)),
                          pygame.surfarray.array3d(ground))
    # the slices above it as the whole map has them
    assert part.get_at((part.get_width() // 2, smap.layout.slice_rect(0).centery)) != (0, 0, 0, 0)


def test_a_notch_a_crate_kata_holds_is_drawn_held_not_rimmed():
    """2.4: the crate pushed down the shaft rests at (2, 2) of w 1, kata of the notch (a floor
    under the column's top) at (2, 2) of w 2.  A blind player stood there, held, and the map
    still drew the notch rimmed, one that slips.  Among the crates at rest the notch is drawn
    as one that holds (its dim edge), with the crate's bar; with the crate gone, rimmed."""
    room = levels.load_from(2, 4)
    crate = (2, 2, 1, 1)
    smap = slicemap.SliceMap(room, (900, 500), most=slicemap.LARGE_CELL)
    assert smap.hollows(2, 2, 2) and smap.hollows(2, 2, 2)[0] == 1
    assert not smap.held_at(2, 2, 1, 2) and smap.held_at(2, 2, 1, 2, [crate])
    assert rules.settle(room, State.of((2, 2, 1, 2), (crate,))).state.player == (
        2, 2, 1, 2)  # (the engine holds a pawn there too)
    rect = smap.layout.cell_rect(2, 2, 2)
    side = max(3, rect.width // 2)
    # along its top, clear of the crate's bar down the cell's left and of the round corner
    top = [(x, rect.bottom - side) for x in range(rect.x + rect.width // 8 + 2,
                                                  rect.x + side - side // 3)]

    def rim(pic):
        return max(sum(pic.get_at(p)[:3]) for p in top)

    bare, held = smap.picture(None, []), smap.picture(None, [crate])
    assert rim(bare) > 3 * 150 and rim(held) < 3 * 120
    bar = (rect.x + 1, rect.y + rect.height * 2 // 3 - side // 2 - 2)
    assert rgb_at(held, bar) == slicemap.CRATE and rgb_at(bare, bar) != slicemap.CRATE


def _every_level():
    for ch in levels.chapters():
        for n in range(1, len(ch.paths) + 1):
            yield levels.load_from(ch.number, n)


def _every_column():
    """Every column of every level and of two made rooms: (the room, its crates at the
    start, its map, (x, y, w))."""
    from anabasis import gen

    for room in (*_every_level(), *(gen.build(*gen.parse_spec(s)).room
                                    for s in ("hard.gemsbok", "medium.topi"))):
        crates = rules.start(room).state.crates
        smap = slicemap.SliceMap(room, (900, 500))
        X, Y, _, W = room.size
        for w in range(W):
            for y in range(Y):
                for x in range(X):
                    yield room, crates, smap, (x, y, w)


def test_a_ramps_lit_tip_is_where_the_engines_step_off_it_goes_ana():
    """Off a ramp's tip onto open floor or the next ramp you walk in your slice; round what
    is in your way, or over no floor, you go ana.  Blind players in every round could not
    tell from the map which of level 7's ramps lift them.  The map lights the tip of each
    ramp a step off which goes ana: on every ramp on a column's top in every level and two
    made rooms, with the crates at rest, where the engine's step off it (along its lean)
    lands one slice ana, and only there."""
    from anabasis.engine.cells import EMPTY

    seen = {True: 0, False: 0}
    moves = {(0, 1): "R", (0, -1): "L", (1, 1): "D", (1, -1): "U"}
    for room, crates, smap, (x, y, w) in _every_column():
        Z = room.size[2]
        top = smap.top(x, y, w)
        if top is None or top[1] not in RAMPS:
            continue
        p = (x, y, top[0] + 1, w)
        if top[0] + 1 >= Z or room.cell(p) != EMPTY or p in crates:
            assert not smap.lifts(x, y, w, crates)
            continue
        axis, sign = RAMP_LEAN[top[1]]
        d = [0, 0, 0, 0]
        d[axis] = sign
        ana = room.norm((x + d[0], y + d[1], p[2], w + 1))
        got = rules.step(room, State.of(p, crates), moves[(axis, sign)], trace=True)
        engine = bool(got.moved and got.frames[0].player == ana)
        assert smap.lifts(x, y, w, crates) == engine, (room.name, (x, y, w))
        seen[engine] += 1
    assert seen[True] > 10 and seen[False] > 5, seen


def test_level_7s_map_lights_the_tips_that_lift_you_and_not_the_corners():
    """Level 7: round the room the ramps climb, but at each corner a step off a tip goes onto
    the next ramp, flat.  The lit tips are drawn in the ramp-ana badge's colour along the
    cell's edge at the tip; the key says so; a corner ramp's tip is not lit."""
    room = levels.load_level(7)
    smap = slicemap.SliceMap(room, (1230, 600), most=slicemap.LARGE_CELL)
    pic = smap.picture(None, [])
    lit = unlit = 0
    for (x, y, w), up in smap._ramps.items():
        rect = smap.layout.cell_rect(x, y, w)
        axis, sign = RAMP_LEAN[smap.top(x, y, w)[1]]
        edge = ((rect.right - 2 if sign > 0 else rect.x + 1), rect.centery) if axis == 0 else \
            (rect.centerx, (rect.bottom - 2 if sign > 0 else rect.y + 1))
        assert (rgb_at(pic, edge) == slicemap.LIFT) == up, (x, y, w)
        # the wedge itself is gold too, toward its tip (a bar alone, on the cell's edge, a
        # blind player read as the next cell's)
        inside = (rect.centerx + sign * rect.width // 5, rect.centery) if axis == 0 else \
            (rect.centerx, rect.centery + sign * rect.height // 5)
        assert rgb_at(pic, inside) == (slicemap.LIFT if up else slicemap.RAMP_MARK), (x, y, w)
        lit, unlit = lit + up, unlit + (not up)
    assert lit and unlit and "lifts" in smap.kinds


def test_a_steps_tag_outlines_the_cell_it_goes_toward():
    """A step's tag lies over its cell's top left corner, and three blind players of five
    could not tell which of the cells round the corner it was for: the cell it goes toward is
    outlined in the mark's colour, and only that cell."""
    from anabasis.app.play import stepmarks

    room, state = room_and_state(5)
    smap = slicemap.SliceMap(room, (900, 500))
    x, y, z, w = state.player
    lay = smap.layout
    for kind in ("walk", "slip kata", "push"):
        mark = stepmarks.Mark("R", kind, cell=(x + 1, y, z, w), slip=1)
        pic = smap.picture(state.player, [], (mark,))

        def edges(cx, cy, pic=pic):
            r = lay.cell_rect(cx, cy, w)
            return [rgb_at(pic, p) for p in ((r.right - 2, r.centery), (r.centerx, r.bottom - 2))]

        assert all(c == mark.colour for c in edges(x + 1, y)), kind
        assert not any(c == mark.colour for c in edges(x + 2, y)), kind


def test_where_a_pushed_crate_comes_to_rest_is_boxed_on_the_map():
    """hard.vole after its first 11 moves: a push takes the crate into a pit, and it slips a
    slice kata.  Planning on the large map, a blind player saw the push's arrow alone there,
    and needed two hints to learn that the crate drops and holds the floor over it.  The
    push's mark says where the crate comes to rest (the engine's settle), and the map boxes
    that cell, dashed in the crates' colour; a push whose crate stays has no such box."""
    from anabasis import gen
    from anabasis.app.play import stepmarks

    room = gen.build(*gen.parse_spec("hard.vole")).room
    state = rules.replay(room, "RRULULUUUUR").state
    marks = stepmarks.marks(room, state)
    (push,) = [m for m in marks if m.kind == "push"]
    result = rules.step(room, state, push.move)
    assert push.then == "slips kata 1"
    assert set(result.state.crates) - set(state.crates) == {push.lands}
    assert push.lands[3] == push.cell[3] - 1
    smap = slicemap.SliceMap(room, (1200, 700))
    lay = smap.layout
    x, y, _, w = push.lands
    r = lay.cell_rect(x, y, w)
    crate = smap.colours["CRATE"]

    def crate_pixels(pic):
        sub = pygame.surfarray.array3d(pic.subsurface(r))
        return ((np.abs(sub - np.asarray(crate)).sum(axis=2)) < 20).sum()

    boxed = crate_pixels(smap.picture(state.player, state.crates, marks))
    stays = push._replace(lands=())
    plain = crate_pixels(smap.picture(state.player, state.crates,
                                      tuple(stays if m is push else m for m in marks)))
    assert boxed > plain + 10, (boxed, plain)
    # every push's landing, where it has one, is the engine's, along the crate chapter's
    # solutions
    from anabasis.app.play.session import open_level

    landed = 0
    for level in range(1, 9):
        room = open_level(level, chapter=2).room
        state = room.start
        for move in solver.solve(room).moves:
            for m in stepmarks.marks(room, state):
                if m.kind == "push":
                    after = rules.step(room, state, m.move).state
                    moved = set(after.crates) - set(state.crates)
                    assert not m.lands or moved == {m.lands}, (level, m)
                    assert bool(m.lands) == bool(m.then and m.then != "falls out")
                    landed += bool(m.lands)
            state = rules.step(room, state, move).state
    assert landed

def test_a_step_that_is_no_move_is_tagged_on_the_map():
    """A blind player planning hard.stoat on the large map (which hides the room's badges)
    walked to a ramp two up and was refused "too high": the map tagged only the steps that
    move.  A step that is no move, inside the room, has its tag too (⊘, in the stays badge's
    grey, its cell outlined); one past the room's edge has none."""
    from anabasis.app.play import stepmarks

    room, state = room_and_state(3)
    marks = stepmarks.marks(room, state)
    stays = [m for m in marks if m.kind == "nothing"
             and all(0 <= v < n for v, n in zip(m.cell, room.size, strict=True))]
    assert stays, marks
    smap = slicemap.SliceMap(room, (900, 500))
    lay = smap.layout
    moving = tuple(m for m in marks if m.kind != "nothing")
    tagged, untagged = smap.picture(state.player, [], marks), \
        smap.picture(state.player, [], moving)
    for m in stays:
        x, y, _, w = m.cell
        r = lay.cell_rect(x, y, w)
        edge = (r.right - 2, r.centery)
        assert rgb_at(tagged, edge) == m.colour and rgb_at(untagged, edge) != m.colour
        corner = pygame.Rect(r.x - r.width // 2, r.y - r.height // 2, r.width, r.height)
        sub = pygame.surfarray.array3d(tagged.subsurface(corner.clip(tagged.get_rect())))
        assert ((np.abs(sub - np.asarray(m.colour)).sum(axis=2)) < 30).sum() > 6  # its glyph


@pytest.mark.parametrize("spec", ["medium.kob", "hard.gemsbok", "hard.nyala", "hard.banteng",
                                  "hard.urial"])
def test_the_large_maps_key_names_every_kind_its_room_shows(make_app, spec):
    """medium.kob's large map, narrow, had room in its foot for part of its key only, and a
    blind player met the lit tips and the crate's frame with no word of them.  At the
    window's usual size the large map of a big room keys every kind of cell it shows: where
    its words do not fit, they are drawn smaller first (hard.banteng's and hard.urial's keys
    lost their last two items, and their blind players took the crate-held floors for
    targets or pressure plates)."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made

    app = make_app(size=(1280, 720))
    app.open(opened_made(gen.build(*gen.parse_spec(spec))))
    app.tick(DT)
    play = app.scene
    smap = play.reading.slice_map(play.reading.large_box(), slicemap.LARGE_CELL)
    assert set(smap.key_kinds) == {kind for kind, _ in slicemap.KEY if kind in smap.kinds}
    assert {"lifts", "held", "tag"} & smap.kinds
    # the crate itself is keyed beside the floor one holds up (with the frame alone in the
    # key, two blind players of a round read the crates as held floors)
    assert ("crate" in smap.key_kinds) == bool(play.room.start.crates)
    # with the rule that makes it a stair (planning on the large map, blind players found a
    # goal two up out of reach: the rule was on the help's first page alone, t355), and
    # that it is pushed ("stuck: a step up" read as crates not moving, t358)
    assert dict(slicemap.KEY)["crate"] == "crate: push, or climb if stuck"
    # and the climb itself (said of the crate alone, it read as the only way up, t359)
    assert "1 up: climb" in dict(slicemap.KEY)["number"]


def test_a_wall_over_a_ramp_one_slice_kata_shows_its_wedge_where_a_step_in_goes_down():
    """2.8's way down is a step into a wall of w 2 from its side, down onto the ramp one slice
    kata (the rule book's ramp down: what is in your way in your slice, a ramp under it kata
    whose high side faces you).  Drawn as a wall alone, two blind players read it as no way,
    one of them after five hints.  The map draws the ramp's dim wedge over such a column, as
    over a gap; from the tip's side the engine's step goes down onto the ramp, in every
    level and two made rooms."""
    from anabasis.engine.cells import EMPTY

    moves = {(0, 1): "R", (0, -1): "L", (1, 1): "D", (1, -1): "U"}
    seen = 0
    for room, crates, smap, (x, y, w) in _every_column():
        W = room.size[3]
        lean = smap.ramp_under(x, y, w) if smap.top(x, y, w) else None
        if lean is None:
            continue
        axis, sign = lean
        kata = (w - 1) % W if room.wrap else w - 1
        z = smap.top(x, y, kata)[0] + 1
        n = [x, y, z, w]
        n[axis] += sign  # the tip's side
        n = tuple(n)
        if not room.inside(room.norm(n)) or room.cell(n) != EMPTY or n in crates:
            continue
        step = moves[(axis, -sign)]
        got = rules.step(room, State.of(n, crates), step, trace=True)
        assert got.moved and got.frames[0].player == room.norm((x, y, z, kata)), (
            room.name, (x, y, w))
        seen += 1
    assert seen >= 1
    # and 2.8's is drawn: the wedge's edge over the wall's hatch
    room = levels.load_from(2, 8)
    smap = slicemap.SliceMap(room, (900, 500), most=slicemap.LARGE_CELL)
    assert smap.ramp_under(2, 3, 2) is not None
    rect = smap.layout.cell_rect(2, 3, 2)
    tip = slicemap.wedge_points(rect, smap.ramp_under(2, 3, 2))[0]
    near = {rgb_at(smap.base, (tip[0] + dx, tip[1] + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    assert slicemap.RAMP_BELOW in near


def test_a_push_that_throws_the_crate_out_of_the_room_is_boxed_and_crossed_on_the_map():
    """A blind player planning on the large map took a push that sent the crate out of the
    room for a safe one (the tag alike) and lost the crate.  Where a push's crate falls
    out, the cell it is pushed to is boxed in the crates' colour and crossed in the
    fall-out red; a safe push's is not."""
    from dataclasses import replace

    from anabasis.app.play import stepmarks
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room

    def room_with(floor_to: int):  # (w 0 solid: what holds slice w 1 from kata)
        room = Room.empty((4, 1, 3, 2), (0, 0, 1, 1), (0, 0, 2, 1), crates=[(1, 0, 1, 1)])
        cells = bytearray(room.cells)
        for x in range(4):
            for z in range(3):
                cells[room.index((x, 0, z, 0))] = BLOCK
        for x in range(floor_to + 1):
            cells[room.index((x, 0, 0, 1))] = BLOCK
        return replace(room, cells=bytes(cells))

    for floor_to, lost in ((1, True), (3, False)):
        room = room_with(floor_to)
        marks = stepmarks.marks(room, room.start)
        push = next(m for m in marks if m.kind == "push")
        assert (push.then == "falls out") == lost
        # its tag and its badge in the fall-out colour, not the push's (two blind players lost
        # a crate to a push they took for a safe one)
        assert (push.tint() == stepmarks.colour_of("fall out")) == lost
        assert (push.tint("safe") == stepmarks.colour_of("fall out", "safe")) == lost
        smap = slicemap.SliceMap(room, (600, 300), most=slicemap.LARGE_CELL)
        pic = smap.picture(room.start.player, room.start.crates, marks)
        rect = smap.layout.cell_rect(2, 0, 1)
        red = sum(rgb_at(pic, (x, y)) == slicemap.OUT_MARK for x in range(rect.x, rect.right)
                  for y in range(rect.y, rect.bottom))
        assert (red > 5) == lost, (floor_to, red)


@pytest.mark.parametrize("palette", ["standard", "safe"])
def test_each_slices_name_on_the_map_has_a_square_of_its_tone(palette):
    """A block's tone in the room is its slice, and blind players read the tones as a
    material or a height, learning them from the help's second page if at all (t325,
    t332).  By each slice's name on the map, a square in the tone its blocks are drawn in
    (the palette's, as the shader's); nowhere else in that row of names is it."""
    room = levels.load_level(6)
    state = rules.start(room).state
    smap = slicemap.SliceMap(room, (1280, 720), palette)
    img = slicemap.image(room, state, (1280, 720), palette)
    lay = smap.layout
    for w in range(room.size[3]):
        r = lay.slice_rect(w)
        row = img[max(r.y - lay.label - lay.lift, 0):r.y, r.x:r.right]
        tone = np.asarray(slicemap.tone(w, palette))
        near = (np.abs(row.astype(int) - tone) <= 2).all(axis=2)
        assert near.sum() >= 9, (w, near.sum())
    assert slicemap.tone(1, palette) != slicemap.tone(2, palette)


def _ink_box(img, band: tuple[int, int, int, int], colour) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) of the pixels near ``colour`` in ``band`` of ``img``."""
    x0, y0, x1, y1 = band
    part = img[max(y0, 0):y1, max(x0, 0):x1].astype(int)
    near = (np.abs(part - np.asarray(colour)) <= 40).all(axis=2)
    if not near.any():
        return None
    rows, cols = np.flatnonzero(near.any(axis=1)), np.flatnonzero(near.any(axis=0))
    return (max(x0, 0) + cols[0], max(y0, 0) + rows[0], max(x0, 0) + cols[-1] + 1,
            max(y0, 0) + rows[-1] + 1)


@pytest.mark.parametrize("level", range(1, 8))
def test_no_steps_tag_on_the_map_lies_on_a_slices_name_or_on_you(level):
    """A step's tag on a cell of a slice's top row reached over the slice's name, and
    three blind players read "w 1" as "w J" (t343, t350, t351); one lost "you" under a tag.
    Along each level's shortest solution, on the corner map and the large one, the tags
    leave every pixel of the slices' names and of "you" as the map draws them without."""
    from anabasis.app.play import stepmarks
    from anabasis.app.play.reading import corner_box, large_size

    room = levels.load_level(level)
    state = rules.start(room).state
    states = [state]
    for move in solver.solve(room).moves:
        state = rules.step(room, state, move).state
        states.append(state)
    tagged = 0
    for box, most in ((corner_box(_Size((1280, 720))), slicemap.MAX_CELL),
                      (large_size(1280, 680, 0), slicemap.LARGE_CELL)):
        smap = slicemap.SliceMap(room, box, most=most)
        lay = smap.layout
        for st in states:
            marks = stepmarks.marks(room, st)
            crates = tuple(st.crates)
            plain = pygame.surfarray.array3d(smap.picture(st.player, crates, ()).copy())
            plain = plain.transpose(1, 0, 2)
            marked = pygame.surfarray.array3d(smap.picture(st.player, crates, marks).copy())
            marked = marked.transpose(1, 0, 2)
            pw = st.player[3]
            for w in range(room.size[3]):
                r = lay.slice_rect(w)
                band = (r.x, r.y - lay.label - 12, r.right + 4, r.y - 3)
                words = [_ink_box(plain, band, slicemap.LABEL)]
                if w == pw:
                    words.append(_ink_box(plain, band, smap.colours["YOU"]))
                for ink in words:
                    assert ink is not None, (level, w)
                    x0, y0, x1, y1 = ink
                    assert (plain[y0:y1, x0:x1] == marked[y0:y1, x0:x1]).all(), \
                        (level, box, st.player, w)
            tagged += any(m.cell is not None and m.cell[1] == 0 for m in marks)
    assert tagged  # (a tag in a slice's top row was drawn)


class _Size:
    def __init__(self, size):
        self.size = size


def test_a_ramp_one_slice_kata_under_nothing_says_that_from_elsewhere_you_fall_out():
    """A dim wedge on the map is a column with nothing in it and a ramp one slice kata:
    its words said "step in at its tip", and two blind players planning on the map took any
    step into it for one down the ramp (t352, t353).  Its words and the legend say that from
    elsewhere you fall out; and you do: put anywhere in such a column, of every level of the
    first three chapters, the pawn falls out of the room."""
    from dataclasses import replace

    from anabasis.app.play import legend
    from anabasis.engine.world import State

    (said,) = [words for name, words in legend.ENTRIES if name == "dim wedge"]
    assert "fall out" in said and "fall out" in dict(slicemap.KEY)["below"]  # (and the key:
    # a blind player planning on the large map counted a step in from its side, t363)
    found = 0
    for number in (1, 2, 3):
        for n in range(1, len(levels.chapter(number)) + 1):
            room = levels.load_from(number, n)
            smap = slicemap.SliceMap(room, (600, 300))
            X, Y, Z, W = room.size
            for x, y, w in ((x, y, w) for w in range(W) for y in range(Y) for x in range(X)):
                if smap.top(x, y, w) is not None or smap.ramp_below(x, y, w) is None:
                    continue
                found += 1
                assert smap.describe(x, y, w).endswith("from elsewhere you fall out")
                for z in range(Z):
                    put = replace(room, start=State.of((x, y, z, w), ()))
                    assert rules.start(put).status == "lost", (number, n, (x, y, z, w))
    assert found
