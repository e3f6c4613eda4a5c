"""Reading a room in the game's window: the slice map, the step marks, the plan view and the
settings screen, driven by key presses and read back from the window's pixels."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pygame
import pytest
from conftest import DT
from window import (
    arrow_for,
    in_the_room,
    made_in_stand,
    marked,
    press,
    rests_along,
    safe_palette_in_play,
    settle,
    walk,
)

from anabasis.app.menus.launcher import Launcher
from anabasis.app.menus.settings import SettingsScreen
from anabasis.app.play import reading, stepmarks
from anabasis.app.play.scene import Play
from anabasis.app.play.session import open_level
from anabasis.app.settings import progress as progress_mod
from anabasis.app.viewer import slicemap
from anabasis.engine import cells, rules, solver
from anabasis.engine.cells import BLOCK, EMPTY
from anabasis.picture import views


def window_pixels(app):
    """The window as shown, (W, H, 3)."""
    image = pygame.image.load(str(app.screenshot()))
    return pygame.surfarray.array3d(image)


def near(a, b, tol=6):
    return all(abs(int(p) - int(q)) <= tol for p, q in zip(a, b, strict=True))


def pawn_on_map(app, play):
    """The window pixel at the centre of the pawn's cell on the map."""
    rect = play.reading.map_rect
    lay = play.reading.shown_map().layout
    x, y, _, w = play.game.state.player
    cx, cy = lay.cell_rect(x, y, w).center
    return rect.x + cx, rect.y + cy


def test_the_slice_map_shows_every_slice_and_follows_moves_and_undo(make_app):
    app = make_app(open_level(3))
    play = app.scene
    assert play.reading.show_map  # three slices: on where it helps
    app.tick(DT)
    seen = [play.game.state]
    for move in solver.solve(play.room).moves[:2]:
        press(app, arrow_for(play, move))
        settle(app)
        seen.append(play.game.state)
    for state in (seen[-1], *reversed(seen[:-1])):
        assert play.game.state == state
        app.tick(DT)
        pixels = window_pixels(app)
        x, y = pawn_on_map(app, play)
        assert near(pixels[x, y], slicemap.PAWN), pixels[x, y]
        # the pawn's slice is framed in gold, and no other
        lay = play.reading.shown_map().layout
        for w in range(play.room.size[3]):
            frame = lay.slice_rect(w).inflate(6, 6).move(play.reading.map_rect.topleft)
            gold = near(pixels[frame.centerx, frame.y], slicemap.YOU)
            assert gold == (w == state.player[3])
        if state is not seen[0]:
            press(app, pygame.K_z)
            settle(app)


def test_tab_turns_the_map_off_and_the_choice_is_kept(make_app, tmp_path):
    app = make_app(open_level(3))
    play = app.scene
    x, y = pawn_on_map(app, play)
    press(app, pygame.K_TAB)
    app.tick(DT)
    assert not play.reading.show_map
    assert not near(window_pixels(app)[x, y], slicemap.PAWN)
    assert progress_mod.Progress.load(tmp_path).slice_map == "off"
    app.open(open_level(4))
    assert not app.scene.reading.show_map  # off everywhere now, until it is turned on
    press(app, pygame.K_TAB)
    assert app.scene.reading.show_map
    assert progress_mod.Progress.load(tmp_path).slice_map == "on"
    app.open(open_level(1))  # two slices: "on" shows it even here
    assert app.scene.reading.show_map


def test_auto_shows_the_map_where_it_helps():
    room1, room3 = (open_level(n).room for n in (1, 3))
    assert not reading.map_wanted("auto", room1, "level")
    assert reading.map_wanted("auto", room3, "level")
    assert reading.map_wanted("auto", room1, "gen") and reading.map_wanted("auto", room1, "room")


def test_the_step_marks_are_the_engines_and_drawn_before_a_key_is_pressed(make_app):
    app = make_app(open_level(2))
    play = app.scene
    assert play.reading.showing_marks  # the first chapter: on
    app.tick(DT)
    shown = play.reading.step_marks()
    assert shown == stepmarks.marks(play.room, play.game.state)
    for mark in shown:  # each is what the engine then does
        result = rules.step(play.room, play.game.state, mark.move, trace=True)
        assert stepmarks.classify(play.room, play.game.state, mark.move, result) == mark
    # the badges are in the window: the pixels under a walk's badge carry its colour
    before = window_pixels(app)
    press(app, pygame.K_x)  # (held or not, they are on here)
    moves = solver.solve(play.room).moves
    press(app, arrow_for(play, moves[0]))
    assert play.reading.step_marks() == ()  # not while the move plays
    settle(app)
    assert play.reading.step_marks() == stepmarks.marks(play.room, play.game.state)
    assert before.shape == window_pixels(app).shape


def test_no_step_marks_glyph_is_an_arrow_keys_arrow():
    """A blind player read a climb's badge, "↑ climb", as "press Up": a badge's glyph says
    what the step does, never which key to press, so none is one of the arrow keys' arrows
    (and each kind has its own)."""
    glyphs = {kind: stepmarks.GLYPH[kind] for kind in stepmarks.KINDS}
    assert not set(glyphs.values()) & set("←↑→↓"), glyphs
    assert len(set(glyphs.values())) == len(glyphs)


def test_the_maps_column_under_the_pointer_is_said_and_lined_through_every_slice(make_app):
    """Blind players planning big rooms on the large map counted 11-wide slices' cells on
    enlarged screenshots and decoded its glyphs one by one.  With the pointer over a map
    cell, its row and column are lined through every slice, the same cell boxed in each,
    and a line over the map says what the map draws there (``SliceMap.describe``); off the
    map, neither."""
    app = make_app(open_level(3))
    play = app.scene
    settle(app)
    press(app, pygame.K_b)  # the large map
    settle(app)
    rd = play.reading
    assert rd.large
    smap, rect = rd.drawn_map, rd.map_rect
    lay = smap.layout

    def at(x, y, w):
        r = lay.cell_rect(x, y, w)
        return rect.x + r.centerx, rect.y + r.centery

    def edge(x, y, w):  # a pixel of the cell's box, on its left edge
        r = lay.cell_rect(x, y, w)
        return rect.x + r.x, rect.y + r.centery

    before = window_pixels(app)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at(1, 1, 2), rel=(1, 1),
                                         buttons=(0, 0, 0)))
    for _ in range(3):
        app.tick(DT)
    assert rd.hovered() == (1, 1, 2)
    words = smap.describe(1, 1, 2, play.game.state.crates, play.game.state.player)
    assert words.startswith("w 2 · x 1, y 1: ") and words in app.overlay.written
    pixels = window_pixels(app)
    for w in range(play.room.size[3]):  # the cell boxed in every slice
        assert near(pixels[edge(1, 1, w)], reading.GUIDE_CELL, 20), w
        assert not near(before[edge(1, 1, w)], reading.GUIDE_CELL, 20), w
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(1, 1),
                                         buttons=(0, 0, 0)))
    for _ in range(3):
        app.tick(DT)
    assert rd.hovered() is None and words not in app.overlay.written
    assert not near(window_pixels(app)[edge(1, 1, 0)], reading.GUIDE_CELL, 20)
    # a key pressed with the pointer resting on the map: its words wait till it moves (left
    # resting where the window opened, blind players read them as a warning of their move)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at(1, 1, 2), rel=(1, 1),
                                         buttons=(0, 0, 0)))
    for _ in range(3):
        app.tick(DT)
    assert rd.hovered() == (1, 1, 2) and words in app.overlay.written
    press(app, pygame.K_TAB)  # (a key that changes nothing on the large map of a small room)
    settle(app)
    app.tick(DT)
    assert rd.hovered() is None and words not in app.overlay.written


def test_the_pointer_on_a_steps_cell_says_what_the_step_does(make_app):
    """On the map a step that is no move is tagged ⊘ with no reason, and a blind player
    took a wall for a crate's way on.  With the pointer on the cell a step goes toward, the
    words say what the step does, as its badge in the room does ("stays · a wall")."""
    app = make_app(open_level(7))
    play = app.scene
    settle(app)
    press(app, pygame.K_b)
    settle(app)
    rd = play.reading
    smap, rect = rd.drawn_map, rd.map_rect
    said = 0
    for mark in rd.step_marks():
        x, y, _, w = mark.cell
        if not (0 <= x < play.room.size[0] and 0 <= y < play.room.size[1]):
            continue
        r = smap.layout.cell_rect(x, y, w % play.room.size[3])
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(rect.x + r.centerx,
                                                                      rect.y + r.centery),
                                             rel=(1, 1), buttons=(0, 0, 0)))
        for _ in range(3):
            app.tick(DT)
        assert any(t.endswith(f" · your step here: {mark.label}") for t in app.overlay.written)
        said += mark.kind == "nothing"
    assert said  # (level 7's start: a wall beside you)


def test_held_marks_show_only_while_their_key_is_down(make_app, tmp_path):
    import json

    (tmp_path / progress_mod.FILE_NAME).write_text(json.dumps({"version": 1,
                                                               "step_marks": "held"}))
    app = make_app(open_level(2))
    play = app.scene
    assert not play.reading.showing_marks and play.reading.step_marks() == ()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="x",
                                         scancode=0))
    app.tick(DT)
    assert play.reading.step_marks() == stepmarks.marks(play.room, play.game.state)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_x, mod=0, unicode="x",
                                         scancode=0))
    app.tick(DT)
    assert play.reading.step_marks() == ()


def test_p_looks_straight_down_and_back(make_app):
    app = make_app(open_level(5))
    play = app.scene
    before = play.sight.camera
    press(app, pygame.K_p)
    cam = play.sight.camera
    assert cam.pitch == views.Camera.MAX_PITCH and cam.yaw == 0.0
    # straight down: the slice's up axis points (nearly) along the line of sight
    assert cam.forward()[2] < -0.99
    # the arrows still mean what they show: up the screen is -y in the plan of the stand view
    assert views.arrow_to_move(play.sight.basis(), cam.yaw, "up") == "U"
    press(app, pygame.K_p)
    assert play.sight.camera == before


def test_the_settings_screen_from_the_launcher_changes_and_saves_each_setting(make_app,
                                                                             tmp_path):
    app = make_app()
    assert isinstance(app.scene, Launcher)
    press(app, pygame.K_o)  # the settings key, in the launcher too
    screen = app.scene
    assert isinstance(screen, SettingsScreen)
    names = [line.name for line in screen.items]
    for name in ("volume", "slice_map", "step_marks", "text_size", "reduced_motion", "palette",
                 "fullscreen"):
        assert name in names
    def choose(name):
        while screen.items[screen.selected].name != name:
            press(app, pygame.K_DOWN)
    choose("slice_map")
    press(app, pygame.K_RIGHT)
    choose("step_marks")
    press(app, pygame.K_LEFT)
    choose("text_size")
    press(app, pygame.K_RIGHT)
    choose("reduced_motion")
    press(app, pygame.K_RETURN)
    choose("palette")
    press(app, pygame.K_RIGHT)
    choose("volume")
    press(app, pygame.K_LEFT)
    saved = progress_mod.Progress.load(tmp_path)
    assert (saved.slice_map, saved.step_marks, saved.text_size, saved.reduced_motion,
            saved.palette) == ("on", "held", 1.1, True, "safe")
    assert saved.volume == pytest.approx(progress_mod.DEFAULT_VOLUME - 0.1)
    assert app.overlay.text_scale == 1.1
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, Launcher)


@pytest.mark.parametrize("text_size", [1.0, 1.6])
def test_every_settings_line_stays_above_the_keys_line_in_a_small_window(make_app, tmp_path,
                                                                        text_size):
    # (the window is conftest's 640 x 360: the board's line made "back" fall off the bottom)
    (tmp_path / "progress.json").write_text(f'{{"version": 1, "text_size": {text_size}}}')
    app = make_app()
    press(app, pygame.K_o)
    screen = app.scene
    assert isinstance(screen, SettingsScreen)
    app.tick(DT)
    W, H = app.overlay.size
    s = app.overlay.scale
    assert len(screen.rects) == len(screen.items) and screen.items[-1].label == "back"
    for rect in screen.rects:
        assert 0 <= rect.top and rect.bottom <= H - int(70 * s), (rect, H)
    assert all(a.bottom <= b.top + 4 for a, b in zip(screen.rects, screen.rects[1:], strict=False))
    while screen.items[screen.selected].label != "back":  # and the last line is reachable
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, Launcher)


def test_the_settings_key_in_play_comes_back_to_the_room_as_it_was(make_app):
    app = make_app(open_level(1))
    play = app.scene
    moves = solver.solve(play.room).moves
    press(app, arrow_for(play, moves[0]))
    settle(app)
    state = play.game.state
    press(app, pygame.K_o)
    assert isinstance(app.scene, SettingsScreen)
    screen = app.scene
    while screen.items[screen.selected].name != "slice_map":
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)  # auto -> on: the room behind takes it
    press(app, pygame.K_ESCAPE)
    assert app.scene is play and play.game.state == state and play.game.moves == 1
    assert play.reading.show_map


def test_reduced_motion_plays_a_turn_in_fewer_frames(make_app, tmp_path):
    def frames_of_a_turn(app):
        play = app.scene
        press(app, pygame.K_v)
        n = 1
        while play.busy:
            app.tick(DT)
            n += 1
        return n

    app = make_app(open_level(1))
    plain = frames_of_a_turn(app)
    app.progress.reduced_motion = True
    quick = frames_of_a_turn(app)
    assert quick * 2 <= plain, (quick, plain)
    assert isinstance(app.scene, Play)


def test_the_help_has_a_legend_line_with_a_picture_for_every_mark(make_app):
    from anabasis.app.play import legend
    from anabasis.app.settings.keymap import DEFAULT_KEYS, Keymap

    words = dict(legend.lines(Keymap(DEFAULT_KEYS)))
    assert "{" not in "".join(words.values())
    assert "Tab" in words["map"] and "X" in words["badge"]  # the keys bound, by the keymap
    for name in ("lanes", "pit", "landing", "ghost", "outline", "marker", "badge", "gap", "wedge",
                 "frame", "axes"):
        assert name in words
    # colours are said in words too: every axis by name, the map's slices by number
    assert all(f"{a} " in words["axes"] for a in "xyzw") and "w 0" in words["map"]
    # and the blocks' tones, slice by slice (two blind players asked what the blue floors
    # were with w up: t250, t252)
    assert all(f"w {k}" in words["slices"] for k in range(4))
    app = make_app(open_level(7), size=(1280, 720))
    press(app, pygame.K_h)
    assert app.scene.help
    ov = app.overlay
    entries = legend.lines(app.keymap)
    named = []
    for page in range(len(legend.PAGES)):  # a page at a time, as the help draws them
        ov.surface.fill((0, 0, 0, 0))
        drawn = legend.draw(ov, 10, 4, 19, 13, 600, legend.on_page(entries, page))
        named += [name for name, _, _ in drawn]
        pixels = pygame.surfarray.pixels_alpha(ov.surface)
        try:
            for name, pic, text in drawn:
                assert pic.bottom <= ov.size[1], name  # (on the surface)
                assert pixels[pic.x:pic.right, pic.y:pic.bottom].any(), name  # a picture
                assert pixels[text.x:text.right, text.y:text.bottom].any(), name  # its words
                assert not pic.colliderect(text)
            for (_, a, _), (_, b, _) in zip(drawn, drawn[1:], strict=False):
                assert a.bottom <= b.top  # one line each, none over the next
        finally:
            del pixels
    assert sorted(named) == sorted(name for name, _ in legend.ENTRIES)


def test_the_room_stays_still_on_screen_as_the_pawn_walks(make_app):
    from anabasis.app.play import markers

    app = make_app(open_level(5))
    play = app.scene
    settle(app)

    def corners():
        X, Y, Z, _ = play.room.size
        w = play.game.state.player[3]
        return [markers.project((x, y, z, w), play.pose().player, play.sight.basis(),
                                play.sight.camera, app.overlay.size)[:2]
                for x in (0, X) for y in (0, Y) for z in (0, Z)]

    first = corners()
    moves = solver.solve(play.room).moves
    walked = 0
    for move in moves[:4]:
        before = play.game.state
        press(app, arrow_for(play, move))
        settle(app)
        if play.game.state.player[3] != before.player[3]:
            break  # (another slice: the stand view shows another room's slice)
        walked += 1
        for a, b in zip(first, corners(), strict=True):
            assert abs(a[0] - b[0]) < 0.5 and abs(a[1] - b[1]) < 0.5
    assert walked >= 1


def test_markers_of_one_thing_merge_their_shapes_stay_put_and_no_words_overlap(make_app):
    """Markers of one thing on one spot are one shape whose words list them; every shape
    stays on its thing's place (a blind player read a marker moved off the pawn as the next
    cell's); words never cover each other, a shape, the map or the key bar, they name their
    thing, and where they had to move off their shape a line joins them."""
    from anabasis.app.play import markers

    app = make_app(open_level(1))
    ov = app.overlay
    W, H = ov.size
    crowd = [markers.Marker("crate", (i, 0, 0, 1), 3, 1, (300 + i % 3, 200), True)
             for i in range(5)]  # five crates a slice ana, all on one spot: one mark, ×5
    crowd += [markers.Marker("crate", (i, 1, 0, 2), 3, 2, (302, 204), True) for i in range(2)]
    crowd += [markers.Marker("goal", (0, 0, 0, 3), 3, 3, (305, 198), True)]
    crowd += [markers.Marker("crate", (9, 9, 0, 1), 3, 1, (320, H - 5), True)]  # on the bar
    crowd += [markers.Marker("crate", (8, 9, 0, -1), 3, -1, (500, 300), True),
              markers.Marker("crate", (8, 9, 0, 2), 3, 2, (503, 301), True)]
    band = H - 40
    mapped = pygame.Rect(0, H - 140, 200, 100)
    got = markers.place(ov, crowd, ov.scale, top=20, bottom=band, avoid=[mapped])
    texts = sorted((p.marker.what, p.text, p.count) for p in got)
    # (how many, where more than one: three blind players read "crate ↓ 1, 2 kata" as one
    # crate both 1 and 2 slices kata)
    assert texts == [("crate", "2 crates \u2191 2 ana \u00b7 \u2193 1 kata", 2),
                     ("crate", "7 crates \u2191 1, 2 ana", 7), ("crate", "crate \u2191 1 ana", 1),
                     ("goal", "goal \u2191 3 ana", 1)], texts
    for p in got:  # the words name the thing, moved or not (a blind player found a crate
        # named here, not there)
        assert p.text.startswith((p.marker.what + " ", f"{p.count} {p.marker.what}s ")), p.text
    assert {p.moved for p in got} == {True, False}  # (some words moved off their shape)
    r = int(11 * ov.scale)
    shapes = [markers.shape_box(p.at, r) for p in got]
    for p in got:
        if p.marker.at[1] < H - r - 1:  # on its place, over the key bar too (pulled off
            # it, a shape lay a cell off the face framed for it, and read as a second goal)
            assert p.at == tuple(int(c) for c in p.marker.at)
        else:  # at the window's very edge: brought just in
            assert p.at[1] == H - r - 1
    words = [p.words for p in got]
    for i, a in enumerate(words):
        assert a.bottom <= band and a.top >= 20 and not a.colliderect(mapped)
        assert a.collidelist(shapes) < 0
        for b in words[i + 1:]:
            assert not a.colliderect(b)
    # the goal's words, in the crates' way, were moved: a line joins them to its diamond
    ov.begin(("a test", 1))
    ov.surface.fill((0, 0, 0, 0))
    markers.draw_words(ov, got, ov.scale)
    (goal,) = [p for p in got if p.marker.what == "goal"]
    assert goal.moved
    shape = markers.shape_box(goal.at, r)
    between = [ov.surface.get_at((x, y))[:3]
               for x in range(min(shape.centerx, goal.words.centerx) - 30,
                              max(shape.centerx, goal.words.centerx) + 30)
               for y in range(min(shape.bottom, goal.words.top) - 30,
                              max(shape.top, goal.words.bottom) + 30)
               if not goal.words.collidepoint(x, y) and not shape.collidepoint(x, y)
               and 0 <= x < W and 0 <= y < H]
    assert markers.GOAL_COLOUR in between


def test_a_panel_over_the_room_fades_and_one_clear_of_it_does_not(make_app):
    from anabasis.app.play import markers

    app = make_app(open_level(7))
    play = app.scene
    b, cam = play.sight.basis(), play.sight.camera
    rect = reading.room_rect(play, b, cam, app.overlay.size)
    x, y, _ = markers.project(play.game.state.player, play.pose().player, b, cam,
                              app.overlay.size)
    assert rect is not None and rect.collidepoint(x, y)  # the pawn is in the room's box
    band = (10, 12, 18, 150)
    over = pygame.Rect(rect.centerx, rect.centery, 40, 20)
    clear = pygame.Rect(rect.right + 5, rect.bottom + 5, 40, 20)
    assert reading.band_over(band, over, rect)[3] == reading.FADED_ALPHA
    assert reading.band_over(band, clear, rect) == band


def test_the_last_win_says_every_level_done_only_when_each_was_solved_without_a_hint(
        make_app, tmp_path):
    import json

    from anabasis.app.play import hud
    from anabasis.formats import levels

    last = levels.count()
    keys = [progress_mod.level_key(n) for n in range(1, last + 1)]
    (tmp_path / progress_mod.FILE_NAME).write_text(json.dumps(
        {"version": 1, "solved": keys[:-1], "hinted": keys[-1:]}))
    app = make_app(open_level(last))
    play = app.scene
    # the last level won only with a hint before: its win panel would not say "every level"
    text = hud._win_texts("level", last, None, app.keymap, 1, play.every_level_done)[0]
    assert "every level done" not in text
    for move in solver.solve(play.room).moves:
        press(app, arrow_for(play, move))
        settle(app)
    assert play.won
    # solved without a hint now (this win was): chapter 1 is done, but not every level of
    # the campaign (the later chapters are not), and the panel says so
    assert keys[-1] in app.progress.solved
    done = hud._win_texts("level", last, None, app.keymap, 1, play.every_level_done)[0]
    assert "every level done" not in done and "chapter 1's last level" in done


def test_step_badges_are_for_steps_an_arrow_takes_and_never_cover_each_other_or_the_pawn(
        make_app):
    from anabasis.app.play import markers

    app = make_app(open_level(7))
    app.view_tips = 0
    play = app.scene
    for view in ("stand", "w-up", "both"):
        assert play.sight.view == view
        b, cam = play.sight.basis(), play.sight.camera
        ov = app.overlay
        along = [m for m in play.reading.step_marks()
                 if views.move_to_arrow(b, cam.yaw, m.move) is not None]
        assert view != "both" or len(along) == 2
        # (a step off the room's edge that is no move has no badge)
        keyed = [m for m in along
                 if not (m.kind == "nothing" and reading.off_room(play.room, m.cell))]
        rects = reading.draw_marks(ov, play, b, cam, ov.scale)
        assert len(rects) == len(keyed)
        px, py, _ = markers.project(play.game.state.player, play.pose().player, b, cam,
                                    ov.size)
        for i, a in enumerate(rects):
            assert not a.collidepoint(px, py)
            for other in rects[i + 1:]:
                assert not a.colliderect(other)
        press(app, pygame.K_v)
        settle(app)


def test_the_map_moves_off_the_room_where_it_would_cover_it(make_app):
    app = make_app(open_level(3))
    play = app.scene
    ov = app.overlay
    W, H = ov.size
    band = H - 40
    at_rest = reading.draw_map(ov, play, band, 16, top=60)
    assert play.reading.map_corner == "bottom left" and at_rest.bottom == band
    room = pygame.Rect(0, H // 2, W // 2, H // 2)  # a room under the bottom left
    moved = reading.draw_map(ov, play, band, 16, top=60, room=room)
    assert play.reading.map_corner != "bottom left"
    over = moved.clip(room)  # (a sliver at most, faded: reading.MAP_SLIVER)
    assert over.width * over.height <= reading.MAP_SLIVER * moved.width * moved.height
    assert moved.top >= 60 and moved.bottom <= band
    # and it stays there while that place is clear (no jumping back and forth)
    again = reading.draw_map(ov, play, band, 16, top=60, room=room)
    assert again == moved


def test_the_safe_palette_set_in_play_retints_the_picture_and_the_markers(make_app):
    """The colour-blind-safe palette, chosen in play, changes the room's own picture (the
    slices' tones, striped odd slices) and the markers' colours, not only the map's."""
    from anabasis.app.play import markers

    app = make_app(open_level(7))
    app.view_tips = 0
    play = app.scene
    for _ in range(2):  # to the both view: the four slices side by side
        press(app, pygame.K_v)
        settle(app)
    assert play.sight.view == "both"

    def shown():  # the window, with no message over it (a screenshot says it was saved)
        play.message_left = 0.0
        app.tick(DT)
        return window_pixels(app).astype(int)

    before = shown()
    safe_palette_in_play(app, play)
    settle(app)
    after = shown()
    b, cam = play.sight.basis(), play.sight.camera
    rect = reading.room_rect(play, b, cam, app.overlay.size)
    room = (slice(max(rect.left, 0), rect.right), slice(max(rect.top, 0), rect.bottom))
    changed = np.abs(after - before).sum(axis=2) > 30
    if play.reading.map_rect is not None:  # (the map's own colours change too: not this)
        m = play.reading.map_rect
        changed[m.left:m.right, m.top:m.bottom] = False
    assert changed[room].mean() > 0.1, changed[room].mean()
    # the goal's marker (a slice away) in the palette's yellow, drawn with its words
    ov = app.overlay
    ov.surface.fill((0, 0, 0, 0))
    goal = markers.Marker("goal", (0, 0, 0, 3), 3, 3, (200, 150), True)
    for palette, colour in (("safe", markers.SAFE_COLOURS["goal"]),
                            ("standard", markers.GOAL_COLOUR)):
        ov.surface.fill((0, 0, 0, 0))
        (box,) = markers.draw(ov, [goal], ov.scale, palette=palette)
        seen = {ov.surface.get_at((i, j))[:3] for i in range(box.left, box.right)
                for j in range(box.top, box.bottom)}
        assert colour in seen, palette


@pytest.mark.parametrize("size", [(800, 450), (1280, 720)])
def test_a_hard_made_room_is_framed_whole_in_every_view_and_nothing_hides_the_pawn(
        display, tmp_path, size):
    """A hard made room (and level 7), at the two window sizes: in each view the camera frames
    the whole room's box inside the window (not just the pawn), the pawn is on screen and no
    panel, map or badge covers it, and the panels and the slice map over the room are faded."""
    from anabasis import gen
    from anabasis.app.play import markers
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    app = App(size=size, opened=opened_made(gen.build("hard", 1)), data_dir=tmp_path)
    try:
        app.view_tips = 0
        map_over = set()  # (the hard room?, the view) where the map lies over the room
        for opened in (None, open_level(7)):
            if opened is not None:
                app.open(opened)
            settle(app)
            in_the_room(app)
            play = app.scene
            W, H = app.overlay.size
            for _ in range(3):
                app.tick(DT)
                b, cam = play.sight.basis(), play.sight.camera
                rect = reading.room_rect(play, b, cam, (W, H))
                assert rect is not None and rect.left >= 0 and rect.top >= 0, rect
                assert rect.right <= W and rect.bottom <= H, (rect, play.sight.view)
                px, py, depth = markers.project(play.game.state.player, play.pose().player, b,
                                                cam, (W, H))
                assert depth > 0 and 0 <= px < W and 0 <= py < H
                if play.reading.map_rect is not None:
                    assert not play.reading.map_rect.collidepoint(px, py), play.sight.view
                # the slice map never hides the room: where the room's box lies under it
                # (no corner is clear of it), the map is faded there and the room shows
                # through; beside the room it is drawn whole
                # (the map's layer alone: a marker's shape on its thing's place lies over
                # the room, and so over a map faded there)
                layer = pygame.Surface(app.overlay.size, pygame.SRCALPHA, 32)
                for picture, at in app.overlay.shown:
                    layer.blit(picture, at)
                shown = layer.get_at
                m = play.reading.map_rect
                over = m.clip(rect) if m is not None else pygame.Rect(0, 0, 0, 0)
                if over.width and over.height:
                    alphas = [shown((x, y))[3] for x in range(over.left, over.right, 3)
                              for y in range(over.top, over.bottom, 3)]
                    assert max(alphas) <= 150, (play.sight.view, max(alphas))
                    if m.left < rect.left:
                        beside = [shown((x, y))[3] for x in range(m.left, rect.left)
                                  for y in range(m.top, m.bottom, 3)]
                        assert max(beside) == 255, (play.sight.view, max(beside))
                    map_over.add((opened is None, play.sight.view))
                # the key bar along the bottom, where the room's box reaches under it, is
                # faded (its ground between the words lets the room show through)
                ground = app.overlay.surface.get_at
                bar_y = H - 1
                while bar_y > H // 2 and ground((1, bar_y - 1))[3] > 0:
                    bar_y -= 1  # up to the bar's top edge, at the window's left
                bar_y += 2
                if rect.bottom > bar_y:
                    alphas = [ground((x, bar_y))[3]
                              for x in range(max(rect.left, 0), min(rect.right, W), 7)]
                    assert min(alphas) <= reading.FADED_ALPHA, (play.sight.view, min(alphas))
                press(app, pygame.K_v)
                settle(app)
        # the hard room, whose room fills the window in the both view when framed in all of
        # it, is framed beside the map: the map lies over the room in no view (it lay there
        # faded, and a blind player read neither it nor the room under it)
        assert not map_over, map_over
    finally:
        app.close()


def test_a_big_room_is_framed_beside_the_corner_map_and_in_the_whole_window_without_it(
        display, tmp_path):
    """A blind player found the corner map of a hard room faded over the room (no corner was
    clear) and could read neither.  With the map on, the room is framed beside it: in each
    view the map's rectangle and the room's box on screen do not meet, and the map is drawn
    whole.  The map toggled off (Tab), the room is framed in the whole window again, larger;
    on again, beside it."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    (tmp_path / progress_mod.FILE_NAME).write_text('{"version": 1, "slice_map": "on"}')
    app = App(size=(1280, 720), opened=opened_made(gen.build("hard", 1)), data_dir=tmp_path)
    try:
        app.view_tips = 0
        in_the_room(app)
        play = app.scene
        beside = 0
        for view in ("both", "stand", "w-up"):
            while play.sight.view != view:
                press(app, pygame.K_v)
                settle(app)
            app.tick(DT)
            b, cam = play.sight.basis(), play.sight.camera
            room = reading.room_rect(play, b, cam, app.overlay.size)
            m = play.reading.map_rect
            assert m is not None and not m.colliderect(room), (view, m, room)
            whole = views.frame_room(cam, b, play.room.size, play.state.player,
                                     app.window.scene_size[0] / app.window.scene_size[1],
                                     play.room.wrap, area=reading.ROOM_AREA)
            beside += whole.distance < cam.distance - 0.2  # (framed in part of the window)
        # (the big room's views: one fills more of the window without the map; the others
        # are as large beside it, bounded by the room's height)
        assert beside >= 1
        near = play.sight.camera.distance
        press(app, pygame.K_TAB)
        settle(app)
        # (in the whole window, but for the panels' bands: larger, or as large where the
        # room's height bounds it, as in this w-up view)
        cam = play.sight.camera
        whole = views.frame_room(cam, play.sight.basis(), play.room.size, play.state.player,
                                 app.window.scene_size[0] / app.window.scene_size[1],
                                 play.room.wrap, area=reading.ROOM_AREA)
        assert not play.reading.show_map and cam.distance <= near + 1e-6
        assert abs(cam.distance - whole.distance) < 1e-6
        press(app, pygame.K_TAB)
        settle(app)
        assert play.reading.show_map and abs(play.sight.camera.distance - near) < 1e-6
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 450), (1280, 720)])
def test_the_map_never_covers_the_pawn_its_steps_the_goal_or_a_crate_along_a_solution(
        display, tmp_path, size):
    """A blind player found the slice map over the pawn (level 7, a hard room), the goal's
    corner and a crate, mid-play.  Along a shortest solution of level 7 (stand view, as it
    opens) and of a hard made room (stand, as it opens), at every rest: where some place of the map
    is clear of the pawn's box (the pawn and the cells its steps go to), of the goal and
    of each crate in the slice, the map is in such a place."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    app = App(size=size, opened=open_level(7), data_dir=tmp_path)
    try:
        app.view_tips = 0
        covered = [0, 0]  # rests with the map clear of the goal and the crates, and not
        for opened in (None, opened_made(gen.build("hard", 7))):
            if opened is not None:
                app.open(opened)
            in_the_room(app)
            play = app.scene
            play.reading.show_map = True
            moves = solver.solve(play.room).moves
            for k in range(len(moves) + 1):
                settle(app)
                app.tick(DT)
                b, cam = play.sight.basis(), play.sight.camera
                keep = reading.keep_clear(play, b, cam, app.overlay.size)
                m = play.reading.map_rect
                assert m is not None and keep
                pawn, things = keep[0], keep[1:]
                assert not m.colliderect(pawn), (play.opened.title, k, m, pawn)
                covered[m.collidelist(things) >= 0] += 1
                if k < len(moves):
                    play.move(moves[k])
        assert covered[1] <= covered[0] // 10, covered  # the goal and crates: nearly always
    finally:
        app.close()


def test_no_off_slice_marker_is_drawn_over_the_pawn(make_app):
    """3.5 drew the goal's diamond and "1 kata" on the pawn (the goal one slice kata, at
    the pawn's x and y).  Along 3.5's and level 7's shortest ways, at every rest, no pixel
    of the HUD over the pawn has a marker's colour."""
    from anabasis.app.play import markers

    app = make_app(open_level(5, chapter=3), size=(1280, 720))
    app.view_tips = 0
    app.progress.step_marks = "held"  # no badges (they share the markers' colours)
    app.scene.reading.settings_changed()
    seen = 0
    for play, move in rests_along(app, open_level(7)):
        play.rings.clear()  # (a crate's landing ring, in the crates' colour, is no marker)
        app.tick(DT)
        b, cam = play.sight.basis(), play.sight.camera
        pawn = reading.keep_clear(play, b, cam, app.overlay.size)[0]
        seen += bool(markers.find(play.room, play.game.state, play.pose().player, b, cam,
                                  app.overlay.size))
        surface = app.overlay.surface
        colours = {markers.colour_of(w, app.progress.palette) for w in ("goal", "crate")}
        hit = [(x, y) for x in range(pawn.left, pawn.right, 2)
               for y in range(pawn.top, pawn.bottom, 2)
               if surface.get_rect().collidepoint(x, y)
               and tuple(surface.get_at((x, y)))[:3] in colours]
        assert not hit, (play.opened.title, move, hit[:3])
    assert seen >= 5  # markers were there to keep off it


def test_no_stays_badge_floats_past_the_rooms_edge(make_app):
    """A step off the room that is no move drew a "stays" badge in the empty space past
    the edge (a blind player took those for marks of something there).  Along level 1's
    and level 3's shortest ways every badge's cell is in the room, or the step moves."""
    app = make_app(open_level(1))
    app.progress.step_marks = "on"
    app.scene.reading.settings_changed()
    past = 0
    for play, _ in rests_along(app, open_level(3)):
        b, cam = play.sight.basis(), play.sight.camera
        marks = play.reading.step_marks()
        past += sum(m.kind == "nothing" and reading.off_room(play.room, m.cell)
                    for m in marks)
        for m in play.reading.badged(marks, b, cam.yaw):
            assert m.kind != "nothing" or not reading.off_room(play.room, m.cell), m
    assert past > 0  # there were steps off the edge to leave unbadged


def room_in_window(app, play) -> pygame.Rect:
    """The room's box on screen, asserted wholly in the window and above the key bar."""
    W, H = app.overlay.size
    key_bar = int(18 * app.overlay.scale) + 2 * int(18 * app.overlay.scale) - 4
    rect = reading.room_rect(play, play.sight.basis(), play.sight.camera, (W, H))
    assert rect is not None and rect.top >= 0 and rect.left >= 0, (
        play.opened.title, play.sight.view, rect)
    assert rect.right <= W and rect.bottom <= H - key_bar, (play.sight.view, rect)
    return rect


@pytest.mark.parametrize("size", [(800, 450), (1280, 720)])
def test_the_plan_view_shows_the_whole_room_above_the_key_bar(display, tmp_path, size):
    """A blind player found a hard room's last rows under the key bar in the plan view, and
    a later one a medium room's side over the axes gizmo and the view's name.  In each view
    of two hard rooms, a medium one and level 7, the plan view's room lies wholly in the
    window, above the key bar and clear of the gizmo."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    app = App(size=size, opened=opened_made(gen.build("hard", 7)), data_dir=tmp_path)
    try:
        app.view_tips = 0
        for opened in (None, opened_made(gen.build("hard", 1)),
                       opened_made(gen.build("medium", int("narwhal", 36))), open_level(7)):
            if opened is not None:
                app.open(opened)
            play = app.scene
            for _ in range(3):
                settle(app)
                play.reading.toggle_plan()
                settle(app)
                rect = room_in_window(app, play)
                assert not rect.colliderect(reading.gizmo_rect(app.overlay)), (
                    play.opened.title, play.sight.view, rect)
                play.reading.toggle_plan()
                press(app, pygame.K_v)
    finally:
        app.close()


def test_leaving_the_plan_view_frames_the_room_in_the_view_on_screen(make_app):
    """A blind player turned level 7's view while looking straight down, and leaving the
    plan view put back the framing of the view it began in: the room lay half off the
    window's top, under the moves panel.  In level 7 and a hard room, the plan view left in
    each view after a turn (and after a move) shows the whole room above the key bar, the
    camera's turn and tilt as they were before it."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made

    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    checked = 0
    for opened in (None, opened_made(gen.build("hard", 1))):
        if opened is not None:
            app.open(opened)
        play = app.scene
        for _ in range(3):
            settle(app)
            before = play.sight.camera
            play.reading.toggle_plan()
            settle(app)
            press(app, pygame.K_v)
            settle(app)
            if checked % 2:  # a move made while looking down
                assert any(play.move(m) for m in "RLDU")
                settle(app)
            play.reading.toggle_plan()
            settle(app)
            cam = play.sight.camera
            assert (cam.yaw, cam.pitch) == (before.yaw, before.pitch)
            room_in_window(app, play)
            checked += 1
    assert checked == 6


def test_the_message_of_the_moment_keeps_off_the_pawn(make_app):
    """A blind player found a view's tip and "no way on from here" over the pawn and its
    badges.  Along level 7's and 3.5's shortest ways, at 1280x720, a message said at each
    rest is drawn clear of the pawn's box wherever the band above the key bar is clear."""
    from anabasis.app.play import hud

    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    moved = 0
    for opened in (None, open_level(5, chapter=3)):
        if opened is not None:
            app.open(opened)
        play = app.scene
        for move in solver.solve(play.room).moves:
            settle(app)
            play.say("no way on from here: undo 1 move or restart", "warn", 5.0)
            app.tick(DT)
            b, cam = play.sight.basis(), play.sight.camera
            pawn = reading.keep_clear(play, b, cam, app.overlay.size)[0]
            surface = app.overlay.surface
            ground = [(x, y) for x in range(pawn.left, pawn.right, 3)
                      for y in range(pawn.top, pawn.bottom, 3)
                      if surface.get_rect().collidepoint(x, y)
                      and tuple(surface.get_at((x, y))) == hud.MESSAGE_GROUND]
            assert not ground, (play.opened.title, move)
            moved += pawn.top < app.overlay.size[1] * 0.3
            play.message_left = 0
            press(app, arrow_for(play, move))
    assert moved  # the pawn was up where the message goes, at least once


def test_a_message_lies_between_the_top_panels_not_over_the_room(make_app):
    """A blind player found a view's tip lying over the back of the room for several moves,
    and over the large map.  A message that fits between the top panels (in two lines at
    most) is drawn there, clear of the box of the room's drawn blocks (a few pixels into it
    at most), in levels and a made room; with the large map up it is drawn clear of the
    map."""
    from anabasis import gen
    from anabasis.app.play import hud
    from anabasis.app.play.session import opened_made

    tip = "stand: z is up and w is hidden; a dark pit in the floor has nothing kata of it"

    def message_box() -> pygame.Rect:  # the message's panel, as the HUD's own layer has it
        ground = pygame.surfarray.pixels3d(app.overlay.surface)
        alpha = pygame.surfarray.pixels_alpha(app.overlay.surface)
        where = (np.all(ground == hud.MESSAGE_GROUND[:3], axis=2)
                 & (alpha == hud.MESSAGE_GROUND[3]))
        del ground, alpha
        xs, ys = np.nonzero(where)
        assert xs.size > 5000  # its panel, drawn
        return pygame.Rect(int(xs.min()), int(ys.min()), int(np.ptp(xs)) + 1,
                           int(np.ptp(ys)) + 1)

    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    for opened in (None, open_level(6, chapter=2), open_level(4, chapter=3),
                   opened_made(gen.build("medium", int("narwhal", 36)))):
        if opened is not None:
            app.open(opened)
        in_the_room(app)
        play = app.scene
        settle(app)
        play.say(tip, "info", 4.0)
        app.tick(DT)
        W, H = app.overlay.size
        box = message_box()
        b, cam = play.sight.basis(), play.sight.camera
        room = reading.drawn_rect(play, b, cam, (W, H))
        assert box.top < 0.1 * H and box.bottom < 0.16 * H, (play.opened.title, box)
        # (the box's top edge is the room's far corner, under the right panel: the slanted
        # silhouette is lower where the message lies; 6 pixels: level 7 in the steeper
        # camera of a low room, its top edge at the message's last row but five)
        assert box.clip(room).height <= 6, (play.opened.title, box, room)
    press(app, pygame.K_b)  # the large map, over the room
    settle(app)
    play.say(tip, "info", 4.0)
    app.tick(DT)
    assert play.reading.large
    assert not message_box().colliderect(play.reading.map_rect)


def test_the_large_map_of_a_small_room_is_larger_than_its_corner_map(make_app):
    """A blind player found the large map's key did nothing in 2.6: its corner map's cells
    were at their largest already, and the large map had the same.  The large map's cells
    may grow to slicemap.LARGE_CELL: in 2.6 they are half again the corner's, at least."""
    app = make_app(open_level(6, chapter=2), size=(1280, 720))
    app.view_tips = 0
    app.progress.slice_map = "on"
    app.scene.reading.settings_changed()
    settle(app)
    for _ in range(3):
        app.tick(DT)
    play = app.scene
    corner = play.reading.shown_map().layout.cell
    press(app, pygame.K_b)
    for _ in range(3):
        app.tick(DT)
    assert play.reading.large
    large = play.reading.shown_map().layout.cell
    assert large >= 1.5 * corner, (corner, large)
    # the pawn drawn where the large map's layout says
    x, y, _, w = play.game.state.player
    at = play.reading.shown_map().layout.cell_rect(x, y, w).move(
        play.reading.map_rect.topleft).center
    assert tuple(app.overlay.flat().get_at(at))[:3] == slicemap.PAWN


def test_the_large_map_on_its_key_reads_a_big_room_and_its_key_again_gives_the_room_back(
        display, tmp_path):
    """A blind player found a hard room's map too small to carry its numbers in the corner,
    and faded where it lay over the room, and asked for a large one on a key: B draws it
    large between the panels and the key bar, opaque, each column's number written, the
    pawn on it where it stands (and it follows a move); the room's own badges and markers
    are not drawn over it.  B again puts it back in its corner; the map's setting is not
    changed by it."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    app = App(size=(1280, 720), opened=opened_made(gen.build("hard", 1)), data_dir=tmp_path)
    try:
        app.view_tips = 0
        settle(app)
        in_the_room(app)
        play = app.scene
        W, H = app.overlay.size
        for _ in range(3):
            app.tick(DT)
        corner = pygame.Rect(play.reading.map_rect)
        small_cell = play.reading.shown_map().layout.cell
        setting = app.progress.slice_map
        press(app, pygame.K_b)
        for _ in range(3):
            app.tick(DT)
        assert play.reading.large and app.progress.slice_map == setting
        big = play.reading.map_rect
        assert big.width * big.height > 4 * corner.width * corner.height
        assert big.width > W * 0.6 or big.height > H * 0.5
        lay = play.reading.shown_map().layout
        assert lay.cell >= 14 > small_cell  # big enough for the numbers, which the corner's
        flat = app.overlay.flat()
        alphas = pygame.surfarray.pixels_alpha(flat)[big.left:big.right, big.top:big.bottom]
        assert alphas.min() == 255  # opaque: nothing of the room through it
        del alphas
        # the pawn's column on the large map, in the pawn's white
        x, y, _, w = play.game.state.player
        at = lay.cell_rect(x, y, w).move(big.topleft).center
        assert tuple(flat.get_at(at))[:3] == slicemap.PAWN
        # no badge or off-slice marker over it (their words are not written)
        assert not any(t.startswith(("▶", "◀", "▲", "▼", "↑", "↓")) for t in app.overlay.written)
        # a move: the pawn moves on the large map too
        move = next(m for m in rules.STEPS
                    if rules.step(play.room, play.game.state, m).moved)
        press(app, arrow_for(play, move))
        settle(app)
        for _ in range(3):
            app.tick(DT)
        x2, y2, _, w2 = play.game.state.player
        at2 = lay.cell_rect(x2, y2, w2).move(play.reading.map_rect.topleft).center
        assert tuple(app.overlay.flat().get_at(at2))[:3] == slicemap.PAWN
        press(app, pygame.K_b)  # B again: back, in every room
        for _ in range(3):
            app.tick(DT)
        assert not play.reading.large and play.reading.map_rect.size == corner.size
    finally:
        app.close()


def test_the_large_maps_own_key_shows_the_slices_near_yours_larger(display, tmp_path):
    """Three blind players in big made rooms (seven slices of 10 x 11) read the large map's
    24-pixel cells only by enlarging screenshots.  In such a room the map's key (Tab) while
    it is large shows the pawn's slice and one each side, in one row, each cell a third
    larger at least, the pawn on it where it stands; again: every slice.  It was B's second
    press, and five blind players, pressing B to get back to the room, met the nearer map
    instead: B gives the room back from either, in every room.  The key line says "Tab
    3 slices, larger" before it and "Tab all slices" after; in a small room (every slice large
    already) it says neither, and Tab does nothing there."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    app = App(size=(1280, 720), opened=opened_made(gen.build(*gen.parse_spec("hard.kestrel"))),
              data_dir=tmp_path)
    try:
        app.view_tips = 0
        settle(app)
        in_the_room(app)
        play = app.scene
        setting = app.progress.slice_map
        press(app, pygame.K_b)
        for _ in range(3):
            app.tick(DT)
        every = play.reading.shown_map().layout.cell
        assert play.reading.large and not play.reading.near
        assert any("B back to the room · Tab 3 slices, larger" in t for t in app.overlay.written)
        press(app, pygame.K_TAB)
        for _ in range(3):
            app.tick(DT)
        assert play.reading.large and play.reading.near
        assert app.progress.slice_map == setting  # (the corner map's setting untouched)
        smap = play.reading.near_map()
        assert smap.layout.cell >= every * 4 / 3
        shown = play.reading.map_rect
        assert shown.width <= 3 * smap.layout.panel_rect(0).width + 4 * smap.layout.gap + 20
        assert any("B back to the room · Tab all slices" in t for t in app.overlay.written)
        # the pawn on it: its slice's cell, where the shown part begins
        x, y, _, w = play.game.state.player
        first = max(0, min(w - 1, play.room.size[3] - 3))
        left = smap.layout.panel_rect(first).left - smap.layout.pad  # (its row numbers too)
        at = smap.layout.cell_rect(x, y, w).move(shown.left - left, shown.top).center
        assert tuple(app.overlay.flat().get_at(at))[:3] == slicemap.PAWN
        press(app, pygame.K_TAB)
        assert play.reading.large and not play.reading.near
        press(app, pygame.K_TAB)
        press(app, pygame.K_b)  # back to the room from the nearer map too
        assert not play.reading.large and not play.reading.near
        # and the large map opens again nearer, as it was left (t293 found it all slices)
        press(app, pygame.K_b)
        assert play.reading.large and play.reading.near
        press(app, pygame.K_TAB)
        press(app, pygame.K_b)
        press(app, pygame.K_b)
        assert play.reading.large and not play.reading.near
    finally:
        app.close()
    app = App(size=(1280, 720), opened=open_level(2), data_dir=tmp_path)
    try:
        settle(app)
        play = app.scene
        press(app, pygame.K_b)
        assert play.reading.large
        assert not any("3 slices, larger" in t for t in app.overlay.written)
        press(app, pygame.K_TAB)
        assert play.reading.large and not play.reading.near
        press(app, pygame.K_b)
        assert not play.reading.large and not play.reading.near
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_legend_line_is_written_whole_in_the_help(display, tmp_path, size):
    """A blind player found the slice map's legend line cut off ("lighter is…"), the only
    place its numbers are explained: at the usual window sizes every line is whole."""
    from anabasis.app.play import hud, legend
    from anabasis.app.routes import App

    app = App(size=size, opened=open_level(7), data_dir=tmp_path)
    try:
        settle(app)
        written = set()
        for _ in range(hud.HELP_PAGES):  # (the help's key turns its pages)
            press(app, pygame.K_h)
            for _ in range(3):
                app.tick(DT)
            assert app.scene.help
            written |= set(app.overlay.written)
        cut = [(name, words) for name, words in legend.lines(app.keymap) if words not in written]
        assert not cut, cut
    finally:
        app.close()


def test_the_helps_key_turns_its_pages_each_larger_than_the_help_on_one(make_app):
    """Nearly every blind player found the help dense: at 1280 x 720 its controls, rules and
    legend shared one page, at 14 pixels and less; on a page of their own, the room's 25
    marks were still hard to scan (t280 to t283).  The help's key turns its pages (the
    controls, views and rules; then the marks, a group a page: floors, walls and ramps;
    you, crates, the goal and your steps; the slice map) and closes it after the last; any
    other key closes it, and does nothing else; each page's text is larger than all on one
    was, and every mark is on one page."""
    from anabasis.app.play import hud, legend

    app = make_app(open_level(7), size=(1280, 720))
    settle(app)
    play = app.scene
    seen = []
    for _ in range(hud.HELP_PAGES):
        press(app, pygame.K_h)
        app.tick(DT)
        assert play.help
        seen.append(" ".join(app.overlay.written))
    words = dict(legend.lines(app.keymap))
    assert hud.HELP_PAGES == 6
    assert "The rules" in seen[0] and "Controls" in seen[0] and legend.TITLE not in seen[0]
    for k, title in enumerate(legend.PAGE_TITLES):
        assert title in seen[k + 1]
    assert words["pit"] in seen[1] and words["crate"] not in seen[1]
    assert words["ramp"] in seen[2] and words["pit"] not in seen[2]
    assert words["crate"] in seen[3] and words["wedge"] not in seen[3]
    assert words["badge"] in seen[4] and words["wedge"] in seen[5]
    assert "page 1 of 6" in seen[0] and "page 6 of 6" in seen[5]
    assert sorted(n for _, names in legend.PAGES for n in names) == sorted(
        n for n, _ in legend.ENTRIES)  # every mark on one page, once
    press(app, pygame.K_h)  # past the last page: closed
    assert not play.help
    press(app, pygame.K_h)
    press(app, pygame.K_h)
    # the arrows turn its pages either way, and stop at its ends; nothing moves (a player
    # looking for a mark had no way back, t315)
    assert play.help_page == 1
    press(app, pygame.K_RIGHT)
    assert play.help and play.help_page == 2
    for _ in range(3):
        press(app, pygame.K_LEFT)
    assert play.help and play.help_page == 0
    for _ in range(hud.HELP_PAGES + 1):
        press(app, pygame.K_RIGHT)
    assert play.help and play.help_page == hud.HELP_PAGES - 1 and play.game.moves == 0
    app.tick(DT)
    assert "\u2190 back" in " ".join(app.overlay.written)
    press(app, pygame.K_z)  # another key closes it from any page, and does nothing else
    assert not play.help and play.game.moves == 0
    press(app, pygame.K_h)
    press(app, pygame.K_k)  # one bound to nothing too (t314 pressed K, and it stayed)
    assert not play.help and play.game.moves == 0
    # the text sizes: all on one page (the legend's rows set it) against each page's own
    ov = app.overlay
    lines = tuple(app.keymap.text(line) for line in hud.help_lines(play))
    entries = tuple(legend.lines(app.keymap))
    H = ov.size[1]
    one_page = int((H - 60) / ((len(entries) + 1) * 1.4 + 3))
    for page in range(hud.HELP_PAGES):
        assert ov.begin(("help page", page))
        assert hud.help_panel(ov, ov.scale, lines, entries, page=page) > one_page, page


def test_the_legend_says_one_mark_a_line_and_the_first_page_names_where_each_group_is(
        make_app):
    """Three pages of 13 lines, three or four marks packed into a line with semicolons, were
    dense to nearly every blind player of five rounds (t298 to t312), who asked for the marks
    grouped by what they are on, or a way to find one.  Each legend line says one mark, in
    at most 80 characters; a page of marks has at most 15 lines; and the foot of the help's
    first page names every page of marks, in turn."""
    from anabasis.app.play import legend

    app = make_app(open_level(7), size=(1280, 720))
    settle(app)
    entries = legend.lines(app.keymap)
    long = [(name, len(words)) for name, words in entries if len(words) > 80]
    assert not long, long
    assert all(len(legend.on_page(entries, k)) <= 15 for k in range(len(legend.PAGES)))
    press(app, pygame.K_h)
    app.tick(DT)
    first = " ".join(app.overlay.written)
    names = [name for name, _ in legend.PAGES]
    at = [first.find(name) for name in names]
    assert -1 not in at and at == sorted(at), (names, first[-300:])


def test_the_help_veils_the_room_round_its_panel(make_app):
    """Round the help's panel the room showed through a faint veil, cut by the panel
    differently from page to page, and two blind players found it distracting (t316,
    t324).  On every page, the window's corners, outside the panel, are nearly opaque."""
    from anabasis.app.play import hud

    app = make_app(open_level(7), size=(1280, 720))
    settle(app)
    for _ in range(hud.HELP_PAGES):
        press(app, pygame.K_h)
        app.tick(DT)
        W, H = app.overlay.size
        for corner in ((2, 2), (W - 3, 2), (2, H - 3), (W - 3, H - 3)):
            assert app.overlay.surface.get_at(corner)[3] >= 200, corner


@pytest.mark.parametrize("size", [(1280, 800), (1280, 1024), (1024, 768), (1440, 900)])
def test_the_helps_legend_is_whole_at_other_window_shapes(make_app, size):
    """At 1280 x 800 two blind players met legend lines cut ("with a ×: you f…"): the
    text grew with the window's height, the legend's column did not.  The help drawn on
    the game's own overlay at other window shapes writes every legend line whole."""
    from anabasis.app.play import hud, legend

    app = make_app(open_level(7))
    settle(app)
    press(app, pygame.K_h)
    assert app.scene.help
    ov = app.overlay
    ov.resize(size)
    lines = tuple(app.keymap.text(line) for line in hud.help_lines(app.scene))
    entries = tuple(legend.lines(app.keymap))
    written: list[str] = []
    for page in range(hud.HELP_PAGES):
        assert ov.begin(("help at", size, page))
        hud.help_panel(ov, ov.scale, lines, entries, page=page)
        written += ov.written
    assert not [words for _, words in entries if words not in written]
    # the first page's lines, broken to their column, are written whole in turn
    assert not [line for line in lines if line and line not in " ".join(written)]


def test_no_step_badge_covers_the_pawn_in_a_hard_rooms_corridor(make_app):
    """A blind player found four badges piled on the pawn deep in a hard room's corridor
    (hard.lynx), and no pawn; another a "ramp ana" badge over the pawn's body.  Along
    hard.lynx's shortest way in the stand view, at every rest, no badge lies over the pawn's
    box (a cell's size on screen round it, as the map keeps clear of it)."""
    app, made = made_in_stand(make_app, "hard.lynx")
    play = app.scene
    badged = 0
    for k, move in enumerate(made.moves):
        settle(app)
        b, cam = play.sight.basis(), play.sight.camera
        pawn = reading.keep_clear(play, b, cam, app.overlay.size)[0]
        placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
        badged += len(placed)
        over = [text for rect, text, *_ in placed if rect.colliderect(pawn)]
        assert not over, (k, over)
        press(app, arrow_for(play, move))
    assert badged > 3 * len(made.moves)  # badges were there to keep off it


def test_a_markers_shape_under_the_top_panels_stays_on_its_place(make_app):
    """medium.bison: the goal's place, inside a wall one slice ana, lay by the window's top,
    under the panels' band; its diamond was brought down clear of the band, a cell and a half
    below the face framed for it, a dashed line between, and a blind player read two goals.
    The shape stays on its place; only its words keep clear of the band."""
    from anabasis.app.play import markers

    app = make_app(open_level(1))
    ov = app.overlay
    top = int(0.16 * ov.size[1])
    x = ov.size[0] // 2
    goal = markers.Marker("goal", (0, 0, 0, 3), 3, 1, (float(x), top - 40.0), True)
    (p,) = markers.place(ov, [goal], ov.scale, top=top, bottom=ov.size[1] - 40)
    assert p.at == (x, top - 40)
    assert p.words.top >= top


def test_a_room_framed_beside_the_corner_map_is_slid_toward_the_windows_middle(make_app):
    """Level 7 at 1280 x 720 with its map: framed in the part of the window right of the map,
    the room lay against the right edge, the pawn by the gizmo, and a blind player saw it
    "slide to the right edge".  The room, kept as large, is slid toward the middle until
    it nearly meets the map: centred, or its box just clear of the map."""
    app = make_app(open_level(7), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    app.tick(DT)
    W, H = app.overlay.size
    b, cam = play.sight.basis(), play.sight.camera
    room = reading.room_rect(play, b, cam, (W, H))
    m = play.reading.map_rect
    assert m is not None and not m.colliderect(room), (m, room)
    assert abs(room.centerx - W // 2) < 4 or room.left - m.right < 40, (room, m)
    assert room.right <= W


def test_the_corner_map_stays_put_as_the_pawn_moves_faded_where_it_covers_the_pawn(make_app):
    """Four blind players saw level 6's map jump from the bottom left to the top left and
    back mid-level, as the pawn's steps' cells came under it, and lost it each time; moved
    only off the pawn itself, it still jumped, and blind players of three more rounds lost it
    (t221, t228 the last).  Chosen for the view and framing, the map stays where it is as
    the pawn moves; where the pawn comes under it, the map is faded there, so the pawn shows
    through.  The tutorial's levels and a chapter level, played through; level 7, whose
    room wraps, in each view too (with w up the room's box on screen changes with the
    pawn's slice, and it jumped for t240 as the pawn came to the bottom left: the map is
    chosen for the view, the window and the camera's turn, not for the room's box)."""
    from anabasis.engine import solver

    app = make_app(open_level(6), size=(1280, 720))
    for opened, moves, turns in ((None, None, 0), (open_level(7), None, 0),
                                 (open_level(7), None, 1),
                                 (open_level(6, chapter=2), None, 0),
                                 (open_level(5), "DRLD", 0)):  # (it jumped, the pawn near it)
        if opened is not None:
            app.open(opened)
        app.view_tips = 0
        play = app.scene
        settle(app)
        for _ in range(turns):
            press(app, pygame.K_v)
            settle(app)
        app.tick(DT)
        for move in moves or solver.solve(play.room).moves:
            before = play.reading.map_corner
            press(app, arrow_for(play, move))
            settle(app)
            app.tick(DT)
            if play.won:
                break
            assert play.reading.map_corner == before, (play.opened.title, move)
            place = play.reading.map_rect
            b, cam = play.sight.basis(), play.sight.camera
            pawn = reading.keep_clear(play, b, cam, app.overlay.size)[0]
            pawn = pawn.inflate(-pawn.width * 2 // 5, -pawn.height * 2 // 5)  # (its margin off)
            if place.colliderect(pawn):  # faded over the pawn: what is shown is faded
                (shown,) = [pic for pic, r in app.overlay.shown if r == place]
                part, faded, _ = play.reading._faded
                assert shown is faded
                assert pygame.Rect(part).contains(place.clip(pawn).move(-place.x, -place.y))


def test_each_crate_in_sight_has_the_floor_it_stands_on_dashed_over_it(make_app):
    """Every blind player of a round read a crate a row further up the screen than it
    stood (its top, a cell up, lies over the row behind), and the pawn behind one as standing
    on it.  Level 5 with the pawn beside its crate: the HUD dashes the crate's floor, in the
    crates' colour, round the cell it stands in (the edge behind it drawn over its body);
    mid-move, none."""
    from anabasis.app.play import markers

    app = make_app(open_level(5), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    press(app, arrow_for(play, "D"))
    settle(app)
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    (crate,) = play.state.crates
    floors = reading.crate_floors(play, b, cam, app.overlay.size)
    project = markers.projecting(play.pose().player, b, cam, app.overlay.size)
    assert floors == [markers.floor_of(crate, b, project)]
    colour = markers.colour_of("crate", app.progress.palette)
    surface = app.overlay.surface
    corners = floors[0]
    on = 0
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        for k in range(1, 20):
            x, y = round(ax + (bx - ax) * k / 20), round(ay + (by - ay) * k / 20)
            on += surface.get_at((x, y))[:3] == colour
    assert on >= 20, on  # dashed: about half of the points along its four edges
    play.move("U")  # a move playing: nothing drawn for it
    app.tick(DT)
    assert reading.crate_floors(play, b, cam, app.overlay.size) == []


def test_a_steps_cell_behind_a_crate_is_dashed_behind_it_not_over_it(make_app):
    """Blind players of four rounds read a crate as a row further on: a tall wall in front
    hid its floor and front, its top alone showed, over the row behind on screen, and the
    step badge "walk · hidden by the crate" dashed that row's cell round it.  hard.chital
    after "U": the crate diagonal in front of the pawn hides the walk's cell; the cell's
    floor is dashed behind the crate (no dash over its box), the badge still says so."""
    from anabasis.app.play import markers

    app, _ = made_in_stand(make_app, "hard.chital")
    play = app.scene
    press(app, arrow_for(play, "U"))
    settle(app)
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    assert play.state.player == (1, 1, 1, 3) and (2, 2, 1, 3) in play.state.crates
    project = markers.projecting(play.pose().player, b, cam, app.overlay.size)
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    (walk,) = [p for p in placed if "hidden by the crate" in p.text]
    assert walk.floor and walk.under
    hull = reading.crate_outline((2, 2, 1, 3), b, project)
    assert hull in walk.under
    cx = sum(x for x, _ in hull) / len(hull)
    cy = sum(y for _, y in hull) / len(hull)
    inner = [(cx + 0.8 * (x - cx), cy + 0.8 * (y - cy)) for x, y in hull]
    xs, ys = [x for x, _ in inner], [y for _, y in inner]
    over = [(x, y) for x in range(int(min(xs)), int(max(xs)) + 1)
            for y in range(int(min(ys)), int(max(ys)) + 1)
            if markers.inside_convex((x, y), inner)
            and app.overlay.surface.get_at((x, y))[:3] == walk.colour]
    assert not over, over[:5]
    # (and the rest of its floor is dashed: some of the badge's colour round the cell)
    floor = walk.floor
    fx = [x for x, _ in floor]
    fy = [y for _, y in floor]
    dashes = [(x, y) for x in range(min(fx), max(fx) + 1) for y in range(min(fy), max(fy) + 1)
              if app.overlay.surface.get_at((x, y))[:3] == walk.colour
              and not walk.rect.inflate(4, 4).collidepoint(x, y)]  # (not the badge's words)
    assert len(dashes) > 20


def test_a_wall_with_the_goal_on_it_says_how_far_up_the_goal_is(make_app):
    """Beside hard.takin8's goal at z 3, two over him, a blind player (t281) met a "⊘" alone
    on the step onto it, could not tell why he could not go there, and spent six moves
    finding out.  A step a wall stops, with the goal on that wall's top, says how far up the
    goal is; a wall with no goal on it keeps its "⊘" alone."""
    from anabasis.app.play.session import Opened
    from anabasis.formats import levelfile

    text = "name: t\nwrap: no\nview: stand\n\n### ### ### ###\n\n### @## .## {}\n"
    for top, words in ((".*.", "\u2298 too high: the goal is 2 up in z"), ("..*", "\u2298")):
        room = levelfile.parse(text.format(top))
        app = marked(make_app, Opened(room, "room", "t"))
        play = app.scene
        b, cam = play.sight.basis(), play.sight.camera
        texts = [p.text for p in reading.place_marks(app.overlay, play, b, cam,
                                                      app.overlay.scale)]
        assert words in texts and sum("the goal is" in t for t in texts) == (top == ".*."), \
            texts
        app.tick(DT)
        app.tick(DT)
        assert words in app.overlay.written
        app.close()


def test_a_step_badge_keeps_off_the_crates_top(make_app):
    """"push" and "climb", laid on the crate they name, hid it, and blind players of two
    rounds lost the crate they were about to push.  Level 5 beside its crate: no badge lies
    over a crate's top in sight; the push's is lined back to its cell."""
    from anabasis.app.play import markers

    app = marked(make_app, open_level(5))
    play = app.scene
    press(app, arrow_for(play, "D"))
    settle(app)
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    project = markers.projecting(play.pose().player, b, cam, app.overlay.size)
    tops = [reading.crate_top(c.cell, b, project)
            for c in reading.crates_in_sight(play, b, cam, app.overlay.size)]
    assert tops and all(tops)
    placed = reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)
    (push,) = [p for p in placed if "push" in p.text]
    assert push.at is not None  # moved off its cell, lined back to it
    assert not any(p.rect.colliderect(t) for p in placed for t in tops)


def test_a_crate_sunk_level_with_your_floor_has_no_floor_dashed_under_it(make_app):
    """Level 5 with w up: pushed into the trench, the crate's top lies level with the
    pawn's floor, and its own floor, dashed a slice lower, showed half a cell from it; two
    blind players read the crate as lying across two cells (t315, t316).  A crate whose top
    is no higher than the pawn's floor has no dashed floor; one on the pawn's floor keeps
    it, in either view."""
    app = marked(make_app, open_level(5), size=(1280, 720))
    play = app.scene

    def seen():
        b, cam = play.sight.basis(), play.sight.camera
        return {c.cell: c.sunk for c in reading.crates_in_sight(play, b, cam, app.overlay.size)}

    assert play.sight.view == "stand" and seen() == {(1, 1, 1, 2): False}
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up"
    assert seen() == {(1, 1, 1, 2): False}
    walk(app, "DRR")
    assert play.state.crates == ((3, 1, 1, 1),)
    assert seen() == {(3, 1, 1, 1): True}
    (crate,) = reading.crates_in_sight(play, play.sight.basis(), play.sight.camera,
                                       app.overlay.size)
    app.tick(DT)
    from anabasis.app.play import markers

    colour = markers.colour_of("crate")
    (x0, y0), (x1, y1) = crate.floor[1], crate.floor[2]  # (its near edge, under the crate)
    edge = [tuple(app.overlay.surface.get_at((round(x0 + (x1 - x0) * t),
                                              round(y0 + (y1 - y0) * t))))[:3]
            for t in np.linspace(0.1, 0.9, 20)]
    assert colour not in edge, edge


def test_with_w_up_a_crate_a_slice_ana_is_marked_not_dashed_as_a_floor(make_app):
    """With w up nothing ana of your slice is drawn.  hard.reedbuck's crates one slice ana
    of the pawn's start, at its z, were drawn as nothing but their floors' dashes, and a
    blind player read them as holes rimmed in orange.  There they have no dashed floor, and
    each has a marker, "crate ↑ 1 ana"; in the stand view, out of the slice, they have their
    usual markers."""
    from anabasis.app.play import markers

    app, _ = made_in_stand(make_app, "hard.reedbuck")
    play = app.scene
    ana = {(7, 6, 1, 2), (8, 1, 1, 2)}
    assert play.state.player == (7, 8, 1, 1) and ana <= set(play.state.crates)
    while play.sight.view != "w-up":
        press(app, pygame.K_v)
        settle(app)
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    seen = {crate.cell for crate in reading.crates_in_sight(play, b, cam, app.overlay.size)}
    assert not seen & ana
    found = markers.find(play.room, play.state, play.pose().player, b, cam, app.overlay.size)
    over = [m for m in found if m.cell in ana]
    assert {m.cell for m in over} == ana
    assert all(m.hidden == "above" and m.above == 1 for m in over)
    assert {markers.words_of([m]) for m in over} == {"crate \u2191 1 ana"}
    while play.sight.view != "stand":
        press(app, pygame.K_v)
        settle(app)
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    found = markers.find(play.room, play.state, play.pose().player, b, cam, app.overlay.size)
    assert all(not m.hidden for m in found if m.cell in ana)


def test_a_restart_mid_turn_leaves_the_room_framed(make_app):
    """Level 3 won, V, and R while the view turned: the turn's framing was for the pawn on
    the goal, and the room, held still on screen from the turn's end, lay framed for it with
    the pawn back at the start: a blind player found it at the window's foot, cut off.  The
    room ends where it does when R comes after the turn."""
    from anabasis.engine import solver

    def framed(restart_mid_turn: bool) -> pygame.Rect:
        app.open(open_level(3))
        settle(app)
        play = app.scene
        for move in solver.solve(play.room).moves:
            press(app, arrow_for(play, move))
            settle(app)
        assert play.won
        press(app, pygame.K_v)
        if restart_mid_turn:
            app.tick(DT)
            assert play.sight.turning
            press(app, pygame.K_r)
        settle(app)
        if not restart_mid_turn:
            press(app, pygame.K_r)
            settle(app)
        app.tick(DT)
        assert play.state == rules.start(play.room).state and play.sight.view == "w-up"
        return reading.room_rect(play, play.sight.basis(), play.sight.camera,
                                 app.overlay.size)

    app = make_app(open_level(3), size=(1280, 720))
    app.view_tips = 0
    after, mid = framed(False), framed(True)
    assert abs(mid.centerx - after.centerx) <= 3 and abs(mid.centery - after.centery) <= 3, \
        (mid, after)


def test_no_markers_words_or_badge_runs_into_the_gizmo_or_its_view_caption(make_app):
    """A blind player read "goal ↑ 2 ana" run into the gizmo's caption as "goal ↑ 2view:
    stand" (medium.dingo).  With the room slid under the gizmo (the camera aimed away), in
    each place where a marker lies by the gizmo, no marker's words and no badge meet the
    gizmo's box, its caption in it."""
    from anabasis import gen
    from anabasis.app.play import markers
    from anabasis.app.play.session import opened_made

    app = make_app(opened_made(gen.build(*gen.parse_spec("medium.dingo"))), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    in_the_room(app)
    W, H = app.overlay.size
    base = play.sight.camera
    right, up = base.right(), np.cross(base.forward(), base.right())
    near = 0
    for dx in np.linspace(-9, 0, 10):
        for dy in np.linspace(-6, 6, 9):
            target = tuple(float(v) for v in np.asarray(base.target) + dx * right + dy * up)
            play.sight = replace(play.sight, camera=replace(base, target=target))
            app.tick(DT)
            app.tick(DT)
            giz = play.reading.gizmo_rect
            b, cam = play.sight.basis(), play.sight.camera
            found = markers.find(play.room, play.state, play.pose().player, b, cam, (W, H))
            if not any(m.inside and giz.inflate(60, 60).collidepoint(m.at) for m in found):
                continue
            near += 1
            hits = [r for r in (*play.reading.word_rects, *play.reading.badge_rects)
                    if r.colliderect(giz)]
            assert not hits, (dx, dy, hits, giz)
    assert near >= 2


def test_no_markers_words_lie_on_a_crate_in_sight(make_app):
    """hard.osprey: a crate pushed into a pit had its words ("crate ↓ 2 kata") moved off
    its place onto another crate, one in the slice, and a blind player read that crate as
    two slices kata.  Along the room's shortest way, at every rest, no marker's words meet
    a crate in sight (its floor and top on screen)."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.engine import solver

    app = make_app(opened_made(gen.build(*gen.parse_spec("hard.osprey"))), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    in_the_room(app)
    both = 0
    for move in solver.solve(play.room).moves:
        app.tick(DT)
        b, cam = play.sight.basis(), play.sight.camera
        crates = reading.crate_boxes(play, b, cam, app.overlay.size)
        words = play.reading.word_rects
        both += bool(crates and words)
        hits = [(w, c) for w in words for c in crates if w.colliderect(c)]
        assert not hits, (move, hits)
        press(app, arrow_for(play, move))
        settle(app)
    assert both > 5


def test_a_markers_words_take_a_walks_dot_before_drifting_cells_off_their_shape(make_app):
    """Blind players found a goal's words and a crate's two cells off their shapes, and read
    them as another cell's: every place near the shape was taken by badges.  Where the words
    would go farther than ``MOST_DRIFT`` text heights, they take a place within that reach
    over a plain walk's dot badge (``soft``) instead; over a badge with words, never."""
    from anabasis.app.play import markers

    app = make_app(open_level(1), size=(1280, 720))
    ov = app.overlay
    s = ov.scale
    at = (640.0, 300.0)
    goal = markers.Marker("goal", (0, 0, 0, 3), 3, 1, at, True)
    # badges all round the shape but for a pocket just under it, a walk's dot in it
    x, y = int(at[0]), int(at[1])
    walls = [pygame.Rect(x - 300, y - 300, 600, 310), pygame.Rect(x - 300, y + 10, 250, 300),
             pygame.Rect(x + 50, y + 10, 250, 300), pygame.Rect(x - 50, y + 50, 100, 260)]
    dot = pygame.Rect(0, 0, 24, 21)
    dot.midtop = (x, y + 18)
    reach = markers.MOST_DRIFT * int(17 * s)
    (far,) = markers.place(ov, [goal], s, 0, 720, [*walls, dot])
    (near,) = markers.place(ov, [goal], s, 0, 720, walls, soft=[dot])

    def off(p):
        return math.hypot(p.words.centerx - at[0], p.words.top - at[1])

    assert off(far) > reach, off(far)  # (the old way: off past the ring)
    assert off(near) <= reach + int(17 * s), off(near)
    assert not any(near.words.colliderect(w) for w in walls)


def test_a_markers_words_shorten_before_drifting_rows_off_their_shape(make_app):
    """Blind players read words drifted two rows off their shape (a leader line back) as
    another cell's: 2.8's goal words under another cell's badge, a crate's two rows below its
    shaft.  Where the whole words find no place within ``MOST_DRIFT`` text heights, shorter
    words are placed there instead: without what follows " · ".  Never without the thing's
    name: a bare "↓ 1 kata" left a blind player asking what it was of, and a bare "↑ 3 ana"
    read to another as nobody's; where the named words do not fit near, they go where they
    fit, a line back."""
    from anabasis.app.play import markers

    app = make_app(open_level(1), size=(1280, 720))
    ov = app.overlay
    s = ov.scale
    at = (640.0, 300.0)
    goal = markers.Marker("goal", (0, 0, 0, 3), 3, 1, at, True, foot_behind="wall")
    x, y = int(at[0]), int(at[1])
    # badges all round the shape but for a pocket under it, too narrow for the named words
    whole = "goal ↑ 1 ana · hidden by a wall"
    bare = ov.width_of("↑ 1 ana", int(17 * s)) + 6
    half = (bare + 2 * markers.SPACE + 4) // 2
    assert ov.width_of("goal ↑ 1 ana", int(17 * s)) + 6 + 2 * markers.SPACE > 2 * half
    walls = [pygame.Rect(x - 300, y - 300, 600, 310),
             pygame.Rect(x - 300, y + 10, 300 - half, 300),
             pygame.Rect(x + half, y + 10, 300, 300), pygame.Rect(x - half, y + 60, 2 * half, 260)]
    (p,) = markers.place(ov, [goal], s, 0, 720, walls)
    assert p.text.startswith("goal ↑ 1 ana"), p.text
    assert p.moved  # (drawn with its line back to the shape)
    assert not any(p.words.colliderect(w) for w in walls)
    # a pocket wide enough for the name and the distance: the tail alone goes
    named = ov.width_of("goal ↑ 1 ana", int(17 * s)) + 6
    assert ov.width_of(whole, int(17 * s)) + 6 > named + 2 * markers.SPACE + 4
    half = (named + 2 * markers.SPACE + 4) // 2
    walls = [walls[0], pygame.Rect(x - 300, y + 10, 300 - half, 300),
             pygame.Rect(x + half, y + 10, 300, 300), pygame.Rect(x - half, y + 60, 2 * half, 260)]
    (p,) = markers.place(ov, [goal], s, 0, 720, walls)
    assert p.text == "goal ↑ 1 ana", p.text
    assert not any(p.words.colliderect(w) for w in walls)


def test_a_markers_words_lie_under_its_shape_in_sight_by_a_badges_edge(make_app):
    """medium.kiwi: the crate's square lay by the right edge of a "↓ slip kata 1" badge,
    and its words, joined under the badge as one label, put the crate in the badge's cell
    for a blind player (and three more, in other rooms, read such pairs as one).  A shape
    whose middle is in sight has its words under it, clear of the badge, as anywhere; only
    a badge over the shape's middle takes them, just under it, a label of its own."""
    from anabasis.app.play import markers

    app = make_app(open_level(1), size=(1280, 720))
    ov = app.overlay
    s = ov.scale
    at = (640.0, 300.0)
    shape = markers.shape_box((640, 300), int(11 * s))
    crate = markers.Marker("crate", (0, 0, 0, 3), 3, -1, at, True)
    badge = pygame.Rect(520, 290, 112, 19)  # its right end on the square's left edge
    assert not badge.collidepoint(at) and badge.colliderect(shape)
    (p,) = markers.place(ov, [crate], s, 100, 660, [badge], beside=[badge])
    assert p.words.centerx == 640 and p.words.top > shape.bottom, p.words
    assert markers.free_of(p.words, [badge])
    badge = pygame.Rect(590, 291, 100, 19)  # over the square's middle: just under it
    (p,) = markers.place(ov, [crate], s, 100, 660, [badge], beside=[badge])
    assert p.words.top == badge.bottom + markers.SPACE and p.words.left == badge.left, p.words


def test_a_markers_words_by_a_stays_badge_go_beside_it_where_under_and_over_are_taken(
        make_app):
    """By a "stays" badge over their shape, a marker's words lie just under or over it, a
    label of their own; where both are taken (the pawn under it, another's words over it),
    beside it, three times as far off (two labels on one line read as one sentence),
    rather than rows away."""
    from anabasis.app.play import markers

    app = make_app(open_level(1), size=(1280, 720))
    ov = app.overlay
    s = ov.scale
    at = (640.0, 300.0)
    goal = markers.Marker("goal", (0, 0, 0, 3), 3, -1, at, True)
    stays = pygame.Rect(600, 292, 120, 19)
    (p,) = markers.place(ov, [goal], s, 100, 660, [stays], beside=[stays])
    assert p.words.top == stays.bottom + markers.SPACE and not p.moved, p.words
    under = pygame.Rect(590, 330, 140, 80)   # (the pawn)
    over = pygame.Rect(590, 222, 140, 48)    # (another's words)
    (p,) = markers.place(ov, [goal], s, 100, 660, [stays, under, over], beside=[stays])
    assert p.words.centery == stays.centery, p.words
    assert p.words.left == stays.right + markers.SIDE_SPACE \
        or p.words.right == stays.left - markers.SIDE_SPACE, p.words
    assert p.moved  # (beside a wide badge: a line back to the shape)


def test_a_line_from_moved_words_to_a_shape_behind_the_pawn_runs_to_the_pawns_edge(make_app):
    """2.7, 13 moves in: the goal's shape lies behind the pawn and its words were moved
    under it; the line back was cut at the pawn's edge on the shape's side, inside the
    pawn's box, and so never drawn: a blind player read the words as the cell's they lay
    on.  The line runs from the words to the pawn's edge, and not over the pawn."""
    from anabasis.app.play import markers

    app = make_app(open_level(1), size=(1280, 720))
    ov = app.overlay
    s = ov.scale
    pawn = pygame.Rect(600, 260, 80, 90)
    goal = markers.Marker("goal", (0, 0, 0, 3), 3, -1, (640.0, 290.0), True)
    words = pygame.Rect(600, 420, 110, 21)
    placed = [markers.Placed(goal, (640, 290), "goal ↓ 1 kata", 1, words, True)]
    ov.surface.fill((0, 0, 0, 0))
    markers.draw_lines(ov, placed, s, "standard", pawn)
    colour = markers.colour_of("goal")
    drawn = [(x, y) for x in range(560, 720) for y in range(240, 440)
             if tuple(ov.surface.get_at((x, y)))[:3] == colour]
    assert any(pawn.bottom + 2 < y < words.top for _, y in drawn), "no line"
    assert not any(pawn.collidepoint(p) for p in drawn)


def test_a_room_says_what_its_maps_new_kinds_of_cell_are_once_a_session(make_app):
    """The corner map has no key, and blind players read its dark cells (a ramp crosses, a
    ramp 1 kata) as pits until they opened the large map.  As a room opens with its map in
    the corner, it says what the kinds of cell its map shows and no room has said this
    session mean, two at most, and names the key that shows the large map's key; a kind
    said is not said again."""
    app = make_app(open_level(4))
    play = app.scene
    assert play.reading.show_map
    said = play.message
    assert said.startswith("on the map: ") and "a ramp beside steps you over it" in said, said
    assert "a ramp 1 kata" in said and said.endswith("B: its key"), said
    assert {"crossed", "below"} <= app.map_told and "gap" not in app.map_told
    app.open(open_level(7))  # (a ramp crosses there too: said already; its lit tips not)
    settle(app)
    assert app.scene.message == ("on the map: a ramp's lit tip: off it you go ana · a dark tag"
                                 " at a cell's corner: where a step goes · B: its key")
    app.open(open_level(7))  # (all said)
    settle(app)
    assert not app.scene.message.startswith("on the map"), app.scene.message
    app.open(open_level(4))  # the fall out ✕ left over from the first time
    settle(app)
    assert app.scene.message == "on the map: \u2715: fall out · B: its key"
    # the large map opened: its own key says it, and the words no longer lie over its middle
    # (a blind player waited for them to fade)
    assert app.scene.message_left > 0
    press(app, pygame.K_b)
    assert app.scene.reading.large and app.scene.message_left == 0
    app.progress.slice_map = "off"  # (no map: nothing to say of it)
    app.map_told.clear()
    app.open(open_level(4))
    assert not app.scene.reading.show_map and not app.scene.message.startswith("on the map")


def test_level_6s_map_says_what_a_pits_bars_are(make_app):
    """Level 6's shaft, two slices deep, has bars on the map, and blind players learnt what
    they meant from the level's subtitle, or not at all: the large map's key said it, the
    corner map has none (t353, t357).  Its opening words say them, once the kinds said
    before are said, and the map has that kind."""
    app = make_app(open_level(5))
    app.map_told.update(kind for kind, _ in reading.MAP_NEWS if kind != "deep")
    app.open(open_level(6))
    settle(app)
    play = app.scene
    assert "deep" in play.reading.slice_map(reading.corner_box(app.overlay)).kinds
    assert play.message.startswith("on the map: bars in a pit: you slip 2 slices or more"), \
        play.message
    assert "deep" in app.map_told
    # and the help's legend draws them, as the map does, and says them (t360 looked there)
    from anabasis.app.play import legend

    (words,) = [w for name, w in legend.ENTRIES if name == "bars"]
    assert "2 slices or more" in words
    assert any("bars" in names for _, names in legend.PAGES)
    ov = app.overlay
    ov.surface.fill((0, 0, 0, 0))
    ((_, pic, _),) = legend.draw(ov, 10, 4, 19, 13, 600, [("bars", words)])
    colours = {tuple(ov.surface.get_at((x, y)))[:3] for x in range(pic.x, pic.right)
               for y in range(pic.y, pic.bottom)}
    assert slicemap.DEEP_INK in colours


def test_a_made_room_opens_on_the_large_map_and_b_gives_the_room(display, tmp_path):
    """In two rounds every blind player of a made room pressed B at once (its 3D slice
    "mostly walls") and planned it there.  A made room opens on the large map, saying so
    and that B gives the room; the arrows move the pawn there; B gives the room, framed
    as a room opened on it is.  A level opens on its room.  The setting ``map_opens``
    ("corner") opens made rooms on the room; it is saved."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    made = gen.build(*gen.parse_spec("hard.stoat"))
    app = App(size=(1280, 720), opened=opened_made(made), data_dir=tmp_path)
    try:
        app.view_tips = 0
        settle(app)
        play = app.scene
        assert play.reading.large and app.progress.map_opens == "large"
        assert play.message == reading.LARGE_OPENING.format(back="B: ")
        assert play.message_left > 0
        press(app, pygame.K_b)  # the room: the words, of the large map, go with it
        settle(app)
        assert not play.reading.large and play.message_left == 0.0
        press(app, pygame.K_b)
        settle(app)
        start = play.state.player
        press(app, arrow_for(play, solver.solve(play.room).moves[0]))
        settle(app)
        assert play.state.player != start and play.reading.large
        z, w = play.state.player[2:]
        gz, gw = play.room.goal[2:]
        assert any(t.startswith(f"moves 1 / par 45 · you: z {z} w {w} · goal: z {gz} w {gw}"
                                " · B back to the room")
                   for t in app.overlay.written), "the key line says the moves, par, z and w"
        press(app, pygame.K_b)
        settle(app)
        assert not play.reading.large
        app.open(open_level(3))
        settle(app)
        assert not app.scene.reading.large
        app.progress.map_opens = "corner"
        app.save_progress()
        app.open(opened_made(made))
        settle(app)
        assert not app.scene.reading.large
        assert progress_mod.Progress.load(tmp_path).map_opens == "corner"
    finally:
        app.close()


def test_a_wall_in_your_slice_with_w_up_says_its_top_is_the_floor_ana(make_app):
    """Level 3 with w up: the wall in the pawn's slice is drawn one high over its floor (its
    top is the floor of w 2), and three blind players of a round read it as a step to
    climb, or, told "a wall", could not tell a wall from a floor.  Its badge says both; in
    the stand view, where it is drawn as a wall, only "a wall"."""
    app = make_app(open_level(3))
    app.view_tips = 0
    play = app.scene
    settle(app)
    app.tick(DT)
    stand = [line for line in app.overlay.written if "stays" in line]
    assert stand and not any("its top" in line for line in stand), stand
    press(app, pygame.K_v)
    settle(app)
    app.tick(DT)
    assert play.sight.view == "w-up"
    # (not "a wall": a floor called a wall read backwards to two more, t253 and t254)
    assert any("stays · no step up in w · its top: w 2's floor" in line
               for line in app.overlay.written), app.overlay.written


def test_a_tops_height_is_written_on_it_round_the_pawn(make_app):
    """Seen from above, level 2's hatched wall, one over the walkway with its side away from
    the eye, read to five blind players of eight as level with their walkway.  With the step
    marks on, each block's top in sight round the pawn says the z you would stand at, as the
    HUD says yours: "z 2" on the wall, "z 1" on the walkway.  The slip pit, read by two as a
    drop in z, says instead where you would slip to ("slip to w 1").  None lies over a
    badge, a marker or the pawn."""
    app = marked(make_app, open_level(2))
    play = app.scene
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    room, state = play.room, play.state
    tops = every_top = reading.top_heights(play, b, cam, app.overlay.size)
    assert state.player[2] == 1
    pit = (2, 2)  # the slip pit: its floor is in sight; it says where you would slip to
    assert reading.SliceMap(room, (600, 300)).slips(*pit, state.player[3])
    (slip,) = [t for t in tops if t.cell[:2] == pit]
    assert slip.slip == state.player[3] - 1 == 1
    assert slip.others == ()  # (on its middle alone: moved, it read as the next cell's)
    tops = [t for t in tops if t is not slip]
    assert all(t.slip is None for t in tops)
    walls = [t for t in tops if t.cell[2] + 1 >= room.size[2]]
    # (the wall beside the pawn is named once, by the badge of the step it stops, "stays ·
    # a wall · z 2": a tag on its next cell too read to a blind player as a second wall)
    assert not walls and tops
    assert {t.z for t in tops} == {1}
    for t in tops:  # each on its own block's top, in the pawn's slice
        assert room.cell(t.cell) == BLOCK and t.cell[3] == state.player[3]
        over = (*t.cell[:2], t.cell[2] + 1, t.cell[3])
        assert not room.inside(over) or room.cell(over) != BLOCK
    written = play.reading.height_rects
    assert written and len(written) <= len(every_top)
    # (the wall, to the room's top, named by its badge: its "z 2" alone read as a floor to
    # climb onto)
    assert {"z 1", "slip to w 1"} <= set(app.overlay.written)
    assert "z 2" not in app.overlay.written and "wall to the ceiling" not in app.overlay.written
    assert [t for t in app.overlay.written if t.endswith("a wall to the ceiling")]
    taken = [*play.reading.badge_rects, *play.reading.word_rects]
    assert not any(r.collidelist(taken) >= 0 for r in written)
    # nor on the goal's face, drawn on the wall that is where it is in your slice (a "z 2"
    # there read as the goal's height)
    faces = [reading.points_box(p.marker.face) for p in play.reading.placed if p.marker.face]
    assert faces and not any(r.collidelist(faces) >= 0 for r in written)
    # nor on the pawn's floor, where a height reads as the pawn's own
    floor = reading.pawn_floor_box(play, b, cam, app.overlay.size)
    assert floor and floor.collidelist(written) < 0


def test_a_tops_height_keeps_to_the_marks_and_says_w_with_w_up(make_app):
    """The tops' heights are the step marks' company: off with them.  Written with z up the
    screen as z; with w up as w (the slice you would stand in on the top), where w does not
    wrap.  Blind players read the w-up view's walls as steps and
    its walkways as walls (t229, t234, t235, t237).  Level 3 with w up: at the start, the
    front row's floor says "w 1", the pawn's own w, and the wall row, named by the badge
    in front of the pawn ("its top: w 2's floor"), is named by no tag beside it; from the
    slice ana, after "RRD", the walls beside the pawn, as high as the pawn, are named
    walls (no step climbs in w), and none is said on the ramps' cells (their badges say
    where the steps go)."""
    app = marked(make_app, open_level(3))
    play = app.scene
    app.tick(DT)
    assert play.reading.height_rects
    while play.sight.view != "w-up":
        press(app, pygame.K_v)
        settle(app)
    app.tick(DT)

    def said():
        tops = reading.top_heights(play, play.sight.basis(), play.sight.camera,
                                   app.overlay.size)
        assert all(top.axis == "w" for top in tops)
        assert len(play.reading.height_rects) == len(tops) > 0
        return {top.cell[:2]: (top.z, top.wall) for top in tops}

    start = said()
    assert start[(0, 2)] == (1, False)  # (the front row's floor: standing on it, at w 1)
    assert not any(wall for _, wall in start.values())  # (the badge names the wall row)
    for move in "RRD":
        press(app, arrow_for(play, move))
        settle(app)
    app.tick(DT)
    assert play.game.state.player == (2, 1, 1, 2)
    ana = said()
    assert ana[(1, 0)] == (3, True) and ana[(1, 2)] == (3, True)
    assert (2, 0) not in ana and (2, 2) not in ana
    press(app, pygame.K_v)  # (the both view: z up the screen, as in the stand view)
    settle(app)
    app.tick(DT)
    assert all(top.axis == "z" for top in reading.top_heights(
        play, play.sight.basis(), play.sight.camera, app.overlay.size))
    while play.sight.view != "stand":
        press(app, pygame.K_v)
        settle(app)
    app.tick(DT)
    assert play.reading.height_rects
    app.progress.step_marks = "held"  # (the marks only while their key is held)
    play.reading.settings_changed()
    for _ in range(3):
        app.tick(DT)
    assert not play.reading.badge_rects and play.reading.height_rects == []


def test_with_w_up_a_top_says_its_w_only_where_you_would_stand_held_in_z(make_app):
    """With w up, z is hidden: a top where you would fall along z (nothing solid under you
    in z) says no height, or its words would lie; one as high as the pawn or higher is a
    wall.  Level 3 and level 6 with w up, played through: every top said is the w you
    would stand in on it, held in z there."""
    app = marked(make_app, open_level(3))
    count = rises = 0
    for opened in (None, open_level(6)):
        if opened is not None:
            app.open(opened)
            app.view_tips = 0
            settle(app)
        play = app.scene
        while play.sight.view != "w-up":
            press(app, pygame.K_v)
            settle(app)
        for move in solver.solve(play.room).moves:
            app.tick(DT)
            room, state = play.room, play.game.state
            for top in reading.top_heights(play, play.sight.basis(), play.sight.camera,
                                           app.overlay.size):
                x, y, z, w = top.cell
                assert top.axis == "w" and top.z == w + 1
                assert top.wall == (w >= state.player[3] or w + 1 >= room.size[3])
                # (a floor of a slice ana, not the room's top: "w 2 · up only by a ramp", not
                # "wall · w 2", which read to blind players as a wall in their slice, or
                # the ramp that carries you there as leading into a wall: t259, t262, t263)
                assert top.rise == (top.wall and w + 1 < room.size[3])
                if top.rise:
                    rises += 1
                    assert f"w {top.z} · up only by a ramp" in app.overlay.written, \
                        app.overlay.written
                    assert f"wall · w {top.z}" not in app.overlay.written
                if not top.wall:
                    assert z > 0 and room.cell((x, y, z - 1, w + 1)) in (cells.BLOCK,
                                                                          *cells.RAMPS)
                count += 1
            press(app, arrow_for(play, move))
            settle(app)
    assert count > 10 and rises > 0


def test_a_step_whose_badge_says_its_fall_in_z_has_no_height_tag_too(make_app):
    """Round the pawn on a crate in hard.takin2, "walk · 1 down in z" and a "z 1" tag said
    one height twice, side by side with the other badges, and blind players of every round
    said a hard room's labels pile up there (t262, t263).  Where a step's badge says the
    fall in z it ends in, no tag on that cell says the height again; the other tops round
    the pawn still say theirs (hard.dama, where a walk first drops one)."""
    app, made = made_in_stand(make_app, "hard.dama")
    play = app.scene
    walk(app, made.moves[:11])
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    dropped = [m for m in play.reading.step_marks() if m.drop]
    assert dropped
    tops = reading.top_heights(play, b, cam, app.overlay.size)
    assert tops
    for m in dropped:
        assert not [t for t in tops if t.cell[:2] == m.cell[:2]], (m, tops)


def test_no_height_tag_lies_in_a_hidden_steps_outlined_cell(make_app):
    """Level 7, in the stand view: the ramp a step walks onto lay behind a wall, outlined
    over it, and a "wall · z 2" tag sat in that outline; a blind player could not tell
    which cell was the wall (t264).  Along its shortest way, at every rest, no height tag
    lies in a step's hidden cell's outline."""
    app = marked(make_app, open_level(7))
    play = app.scene
    outlined = 0
    for move in solver.solve(play.room).moves:
        app.tick(DT)
        b, cam = play.sight.basis(), play.sight.camera
        floors = [reading.points_box(m.floor) for m in reading.place_marks(
            app.overlay, play, b, cam, app.overlay.scale) if m.floor]
        outlined += len(floors)
        for tag in play.reading.height_rects:
            assert tag.collidelist(floors) < 0, (move, tag, floors)
        press(app, arrow_for(play, move))
        settle(app)
    assert outlined


def test_a_tall_wall_round_the_pawn_has_no_height_written(make_app):
    """A wall to the room's top two or more over you is hatched and tall: hard.impala's
    corridor had a dozen "z 4" round the pawn.  Only a wall one over you (which looks a
    step) says its height; every other top in sight round the pawn says its own."""
    from anabasis.app.play import markers

    app, _ = made_in_stand(make_app, "hard.impala")
    play = app.scene
    app.tick(DT)
    room, (px, py, pz, pw) = play.room, play.state.player
    b, cam = play.sight.basis(), play.sight.camera
    reach = reading.TOP_REACH
    tall = [(x, y, room.size[2] - 1, pw)
            for x in range(max(0, px - reach), min(room.size[0], px + reach + 1))
            for y in range(max(0, py - reach), min(room.size[1], py + reach + 1))
            if markers.top_shows(room, play.state, (x, y, room.size[2] - 1, pw),
                                 play.pose().player, b, cam)]
    assert len(tall) >= 6 and room.size[2] - 1 - pz >= 1  # walls two or more over you
    tops = reading.top_heights(play, b, cam, app.overlay.size)
    assert not {t.cell for t in tops} & set(tall)


def test_past_the_tutorial_a_wall_in_the_way_is_the_maps_no_move_alone(make_app):
    """hard.steenbok opens with the pawn in a pocket, three of its steps stopped by walls:
    three "stays · too high" badges among the markers there, and a blind player could not
    tell which words were whose cell's.  Past the tutorial such a badge is ⊘ alone (the
    map's "no move"); the tutorial's levels keep the words, where they are learnt."""
    from anabasis.app.viewer import slicemap

    app, _ = made_in_stand(make_app, "hard.steenbok")
    play = app.scene
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    marks = play.reading.step_marks()
    walls = [m for m in marks if m.label in reading.PLAIN_STAYS]
    assert len(walls) >= 2
    texts = [p.text for p in reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)]
    assert texts.count(slicemap.STAYS_GLYPH) == len(walls)
    assert not any("too high" in t for t in texts)
    app = marked(make_app, open_level(2))  # (the tutorial: "stays · a wall")
    play = app.scene
    app.tick(DT)
    texts = [p.text for p in reading.place_marks(app.overlay, play, play.sight.basis(),
                                                 play.sight.camera, app.overlay.scale)]
    # (with its height: level 2's wall beside the pawn, cut by the round window and its
    # top's words kept off the pawn's floor, read to blind players of two rounds as a floor)
    assert any(t.endswith("stays · a wall to the ceiling") for t in texts)
    assert slicemap.STAYS_GLYPH not in texts


def test_no_height_on_a_cell_a_ramps_step_carries_you_over(make_app):
    """Level 3 in w 2, by the ramps back kata: the cells their steps carry you over are
    walls of your slice, and "z 2" on them read to a blind player as walls, though their
    badges said "ramp kata to w 1".  They have no height; the walls beside them do."""
    app = marked(make_app, open_level(3))
    play = app.scene
    walk(app, "RRD")
    app.tick(DT)
    assert play.state.player[3] == 2
    b, cam = play.sight.basis(), play.sight.camera
    ramps = {m.cell[:2] for m in play.reading.step_marks()
             if m.kind in ("ramp ana", "ramp kata")}
    assert ramps
    tops = reading.top_heights(play, b, cam, app.overlay.size)
    assert tops and not {t.cell[:2] for t in tops} & ramps
    assert 2 in {t.z for t in tops}  # (the walls beside them still say theirs)


def test_a_wall_one_over_you_says_so_only_beside_you(make_app):
    """Level 7 is walls one over the pawn nearly everywhere: each said "wall · z 2", seven
    round the pawn.  A wall to the room's top says its height only beside the pawn (a
    cell away, diagonals too); the walls further off have the hatching alone."""
    app = marked(make_app, open_level(7))
    play = app.scene
    app.tick(DT)
    from anabasis.app.play import markers

    room, (px, py, _, pw) = play.room, play.state.player
    b, cam = play.sight.basis(), play.sight.camera
    tops = reading.top_heights(play, b, cam, app.overlay.size)
    walls = [t for t in tops if t.cell[2] + 1 >= room.size[2]]
    # (the tutorial's: a wall whose step's badge names it, "stays · a wall · z 2", has no tag
    # on it or beside it)
    named = [m.cell for m in play.reading.step_marks() if reading.names_its_wall(play, m, b)]
    assert walls or named
    assert all(max(abs(t.cell[0] - px), abs(t.cell[1] - py)) <= 1 for t in walls)
    far = [(x, y) for x in range(room.size[0]) for y in range(room.size[1])
           if max(abs(x - px), abs(y - py)) == 2
           and room.cell((x, y, room.size[2] - 1, pw)) == BLOCK
           and markers.top_shows(room, play.state, (x, y, room.size[2] - 1, pw),
                                 play.pose().player, b, cam)]
    assert far  # (walls two off in sight, in reach of a floor's height, with none said)


def test_a_ramps_step_over_a_gap_says_so(make_app):
    """Level 7's ramps step you ana over gaps of your slice, drawn dark: in its w-up view
    blind players of three rounds read "ramp ana to w 2" on one as a pit to fall in.  The
    badge says "over the gap"; a ramp's step onto a block of your slice does not."""
    app = marked(make_app, open_level(7))
    play = app.scene
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    texts = [p.text for p in reading.place_marks(app.overlay, play, b, cam, app.overlay.scale)]
    assert any(t.endswith("ramp ana to w 1 · over the gap") for t in texts), texts
    for mark in play.reading.step_marks():
        if mark.kind in ("ramp ana", "ramp kata"):
            x, y, _, w = mark.cell
            assert reading.over_gap(play, mark) == (
                all(play.room.cell((x, y, z, w)) == EMPTY for z in range(play.room.size[2])))


def test_a_ramps_step_into_a_walls_place_says_the_wall_is_not_there(make_app):
    """Level 3 on its ramp, in the stand view: the step ana lands in the wall's cell of your
    slice (w is hidden), drawn as a round window in the wall.  Blind players read the wall
    as a step to climb, or a ramp (t250, t254, t259): the badge says the wall is not in the
    slice it takes you to.  With w up the landing is drawn in its own slice: no such words;
    nor on level 7's steps over gaps."""
    app = marked(make_app, open_level(3))
    play = app.scene
    walk(app, "RR")
    app.tick(DT)

    def texts():
        b, cam = play.sight.basis(), play.sight.camera
        return [p.text for p in reading.place_marks(app.overlay, play, b, cam,
                                                    app.overlay.scale)]

    assert any(t.endswith("ana: you land here in w 2 · no wall there") for t in texts()), \
        texts()
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up"
    assert not any("no wall" in t for t in texts()), texts()
    app = marked(make_app, open_level(7))
    app.tick(DT)
    play = app.scene
    assert not any("no wall" in t for t in texts()), texts()


def test_pits_beside_each_other_that_slip_as_far_say_it_once(make_app):
    """In hard.oribi3 three "slip to w 2" stood down a column of pits beside the pawn, with
    a badge and a crate's words by them, and a blind player could not tell which label was
    whose cell's.  Pits beside each other that slip to one slice have one tag; a pit that
    slips elsewhere, or a pit apart, has its own."""
    app = marked(make_app, open_level(2))
    ov = app.overlay

    def pit(x, y, slip, at):
        return reading.TopHeight((x, y, 0, 2), 1, at, slip)

    heights = [pit(0, 0, 2, (100, 100)), pit(0, 1, 2, (100, 160)), pit(0, 2, 2, (100, 220)),
               pit(1, 2, 1, (200, 220)), pit(3, 0, 2, (400, 100)), reading.TopHeight(
                   (1, 0, 0, 2), 1, (200, 100))]
    before = len(ov.written)
    rects = reading.paint_top_heights(ov, heights, app.overlay.scale, [])
    written = ov.written[before:]
    assert sorted(written) == ["slip to w 1", "slip to w 2", "slip to w 2", "z 1"]
    assert len(rects) == 4


def test_a_wall_is_named_once_not_by_a_tag_and_a_badge(make_app):
    """Level 2's start: one 2x2 wall in front of the pawn.  Its step's badge said "stays · a
    wall · z 2" and a tag on it "wall · z 2", and a blind player (t212) read two walls, one
    per label.  Where a badge names a wall (the tutorial's, with z up), no tag names it
    again, on its cell or beside it; a wall no badge names keeps its tag (level 7, from
    the middle of its first row, turned)."""
    app = marked(make_app, open_level(2))
    play = app.scene
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    (named,) = [m.cell for m in play.reading.step_marks() if reading.names_its_wall(play, m, b)]
    tops = reading.top_heights(play, b, cam, app.overlay.size)
    assert not [t for t in tops if t.wall and abs(t.cell[0] - named[0])
                + abs(t.cell[1] - named[1]) <= 1]
    said = [t for t in app.overlay.written if "z 2" in t or "wall" in t]
    assert len(said) == 1 and said[0].endswith("stays · a wall to the ceiling"), said
    # with w up, the badge says its w and no tag names it again (level 2's wall was three
    # labels, "stays · a wall" and "wall · w 3" twice)
    press(app, pygame.K_v)
    settle(app)
    app.overlay.written.clear()
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    assert play.sight.view == "w-up"
    (named,) = [m.cell for m in play.reading.step_marks() if reading.names_its_wall(play, m, b)]
    said = [t for t in app.overlay.written if t.startswith("wall ·") or "stays · a wall" in t]
    assert len(said) == 1 and said[0].endswith("stays · a wall · w 3"), said
    # past the tutorial, ⊘ names nothing: the tag says the wall's height
    app, _ = made_in_stand(make_app, "hard.steenbok")
    play = app.scene
    app.tick(DT)
    b, cam = play.sight.basis(), play.sight.camera
    assert not [m for m in play.reading.step_marks() if reading.names_its_wall(play, m, b)]


def test_with_w_up_a_goal_over_the_ceilings_cut_says_how_far_ana_it_is(make_app):
    """Level 4 with w up: the goal, three slices ana at the pawn's z, glows over the pits of
    the pawn's slice, and what holds it up and the ramps up to it are over the ceiling's
    cut, not drawn.  Blind players of three rounds (t206, t215, t216, t218, t222) said it
    floated, out of reach.  Like a crate there, it has a marker that says where it is:
    "goal ↑ 3 ana"; in the stand view it has its usual one, out of the slice."""
    from anabasis.app.play import markers

    app = marked(make_app, open_level(4))
    play = app.scene

    def goal_in(view):
        while play.sight.view != view:
            press(app, pygame.K_v)
            settle(app)
        app.tick(DT)
        b, cam = play.sight.basis(), play.sight.camera
        found = markers.find(play.room, play.state, play.pose().player, b, cam,
                             app.overlay.size)
        (goal,) = [m for m in found if m.what == "goal"]
        return goal

    goal = goal_in("w-up")
    assert goal.hidden == "above" and goal.above == 3
    assert markers.words_of([goal]) == "goal \u2191 3 ana"
    assert any(t.startswith("goal \u2191 3 ana") for t in app.overlay.written)
    goal = goal_in("stand")
    assert goal.hidden != "above" and goal.offset == 3


def test_nothing_of_the_room_shows_round_the_large_map(display, tmp_path):
    """hard.chamois on the large map's slices near yours (Tab): a sliver of the 3D room
    showed over the map's top, through the words' panel there, and a blind player (t220)
    took it for a glitch.  Round the large map, above the key bar, the window is the same
    whatever the room behind it shows (the camera orbited a quarter turn)."""
    from anabasis import gen
    from anabasis.app.play.session import opened_made
    from anabasis.app.routes import App

    made = gen.build(*gen.parse_spec("hard.chamois"))
    app = App(size=(1280, 720), opened=opened_made(made), data_dir=tmp_path)
    try:
        settle(app)
        play = app.scene
        assert play.reading.large
        press(app, pygame.K_TAB)
        settle(app)
        app.tick(DT)
        shots = []
        assert play.message  # (the large map's words: their panel over the map's top, but
        # their text fades, and the orbit's words take their place: none in either shot)
        for _ in range(2):
            play.message_left = 0.0
            app.tick(DT)
            rect = play.reading.map_rect
            band = window_pixels(app)[:, :rect.top].copy()
            shots.append((rect, band, list(app.overlay.written)))
            for _ in range(20):  # (Q held: the camera orbits)
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0,
                                                     unicode="q", scancode=0))
                app.tick(DT)
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_q, mod=0,
                                                     unicode="q", scancode=0))
                app.tick(DT)
            settle(app)
            app.tick(DT)
        (r0, a, t0), (r1, b, t1) = shots
        assert t0 == t1, (t0, t1)
        assert r0 == r1 and r0.top > 20
        diff = (a != b).any(axis=2)
        xs, ys = np.nonzero(diff)
        assert not diff.any(), (int(diff.sum()), xs.min(), xs.max(), ys.min(), ys.max())
    finally:
        app.close()


def test_the_goal_in_sight_says_how_high_it_is_against_you(make_app):
    """With w up, level 5's goal stands on a column as high as the pawn's floor, across a
    trench: its side shows over the trench and its top lies higher up the screen, and blind
    players of every round read it as higher (t280, t284, t291, t292, t296, t297).  The
    goal in plain sight in the pawn's slice says its height and how it stands against the
    pawn's, as the HUD says both: "goal · w 2 · as high as you"; in the stand view its z.
    At every rest of levels 1 to 7 in the stand view, a goal's tag, where there is one,
    says what the engine has; a step from the goal, its badge names it and no tag does."""
    app = marked(make_app, open_level(5))
    play = app.scene

    def said():
        app.overlay.written.clear()
        app.tick(DT)
        return [t for t in app.overlay.written if t.startswith("goal ·")]

    assert said() == ["goal · z 1 · as high as you"]
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up"
    assert said() == ["goal · w 2 · as high as you"]
    (top,) = [t for t in reading.top_heights(play, play.sight.basis(), play.sight.camera,
                                             app.overlay.size) if t.goal is not None]
    assert top.goal == 0 and top.cell == (4, 2, 1, 1)  # (the block kata of the goal)
    tagged = ups = 0
    for play, _ in rests_along(app, *(open_level(n) for n in range(1, 8))):
        if play.sight.view != "stand":
            continue
        tags = said()
        player, goal = play.state.player, play.room.goal
        if sum(abs(a - g) for a, g in zip(player, goal, strict=True)) == 1:
            assert not tags  # (its badge says "· goal")
        for tag in tags:
            rel = goal[2] - player[2]
            how = "as high as you" if rel == 0 else f"{abs(rel)} {'up' if rel > 0 else 'down'}"
            assert tag == f"goal · z {goal[2]} · {how}", (tag, player, goal)
            assert reading.markers.in_slice(play.room, goal, play.pose().player,
                                            play.sight.basis())
            tagged += 1
            ups += rel > 0
    assert tagged >= 5
    # (the levels never climb in z: a made room whose goal is up a step in the pawn's slice)
    app, made = made_in_stand(make_app, "medium.dama")
    play = app.scene
    seen = []
    for move in made.moves:
        seen += said()
        press(app, arrow_for(play, move))
        settle(app)
    assert "goal · z 3 · 1 up" in seen and "goal · z 3 · as high as you" in seen, seen


def test_in_a_tutorial_room_every_top_in_sight_says_its_height(make_app):
    """With w up, level 5's trench lies three cells from the pawn: two cells round it, only
    the floor beside the pawn said "w 2", and the trench and the goal's column said
    nothing; blind players of every round read the column as higher than their floor.  In
    a room whose plan is small (the tutorial's), every top in sight says its height, the
    floor of a trench a cell wide too (its near wall hides its near half): level 5's
    trench "w 1", its floor and the goal's column "w 2".  A made room keeps two cells."""
    app = marked(make_app, open_level(5), size=(1280, 720))
    play = app.scene
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up"
    tops = {t.cell[:2]: (t.axis, t.z) for t in reading.top_heights(
        play, play.sight.basis(), play.sight.camera, app.overlay.size)}
    assert all(tops.get((3, y)) == ("w", 1) for y in range(3)), tops  # the trench
    assert all(tops.get((4, y)) == ("w", 2) for y in range(2)), tops  # the goal's column
    assert tops.get((2, 0)) == ("w", 2), tops  # three cells from the pawn, beside the trench
    app.overlay.written.clear()
    app.tick(DT)
    assert app.overlay.written.count("w 1") == 3, app.overlay.written
    assert reading.top_reach(play.room, 0, 1) >= 4
    app, _ = made_in_stand(make_app, "hard.impala")
    assert reading.top_reach(app.scene.room, 0, 1) == reading.TOP_REACH


def test_a_won_room_turned_to_another_view_says_its_tops_heights(make_app):
    """All three blind players of a round turned level 1 to w up after its win, when the
    tops said no height, and read its front row as a wall and its back corners as pillars
    (t313, t314, t315); the "w 1" tags put one right once he played it again.  Won, with
    the win's panel set aside by the turn, every top in sight says its height (the pawn,
    on the goal, stands on the one that does not); not while the panel is up."""
    from window import win

    app = marked(make_app, open_level(1), size=(1280, 720))
    play = win(app)
    settle(app)
    assert not reading.top_heights(play, play.sight.basis(), play.sight.camera,
                                   app.overlay.size)  # (the win's panel up)
    press(app, pygame.K_v)
    settle(app)
    assert play.won and play.sight.view == "w-up"
    tops = reading.top_heights(play, play.sight.basis(), play.sight.camera, app.overlay.size)
    assert {(t.axis, t.z) for t in tops} == {("w", 1)} and len(tops) >= 5, tops
    assert all(t.goal is None for t in tops)
    app.overlay.written.clear()
    app.tick(DT)
    assert app.overlay.written.count("w 1") >= 5, app.overlay.written


def test_with_w_up_the_first_change_of_slice_says_why_the_walls_change(make_app):
    """With w up nothing ana of the pawn's slice is drawn: as the pawn slips kata in level
    2, its wall three slices high is drawn two high, and blind players of every round read
    it as the room changing (t298 to t315).  The first move of a session with w up that
    takes the pawn to another slice, past blocks of the one left or reached, says why;
    once a session; never in the stand view, where w is hidden."""
    from anabasis.app.play.scene import CUT_TIP

    app = make_app(open_level(2))
    play = app.scene
    settle(app)
    walk(app, "DDRR")  # (the slip, in the stand view)
    assert play.state.player[3] == 1 and play.message != CUT_TIP
    press(app, pygame.K_r)
    settle(app)
    press(app, pygame.K_v)
    settle(app)
    assert play.sight.view == "w-up"
    walk(app, "DD")
    assert play.message != CUT_TIP  # (no slice left yet)
    walk(app, "RR")
    assert play.state.player[3] == 1
    assert play.message == CUT_TIP and play.message_left > 0
    press(app, pygame.K_r)
    settle(app)
    walk(app, "DDRR")
    assert play.message != CUT_TIP  # (once a session)


def test_the_first_rest_by_a_crate_to_climb_says_a_stuck_crate_is_a_step(make_app):
    """Blind players of three rounds did not know, in made rooms, that a crate that cannot
    move is climbed (t308, t320, t321: one took six hints to find it); the tutorial never
    offers that step.  The first rest of a session where a step would climb onto a crate
    says so, in the words of the help's rule; not before, and once."""
    from anabasis.app.play.scene import CRATE_STEP_TIP

    app, made = made_in_stand(make_app, "hard.impala")
    play = app.scene
    walk(app, made.moves[:18])
    assert CRATE_STEP_TIP not in app.told and play.message != CRATE_STEP_TIP
    walk(app, made.moves[18])
    assert any(m.then == "onto the crate" for m in play.reading.step_marks())
    assert play.message == CRATE_STEP_TIP and play.message_left > 0
    for move in made.moves[19:42]:  # (said once a session: at no rest after)
        play.message, play.message_left = "", 0.0
        walk(app, move)
        assert play.message != CRATE_STEP_TIP, move


def test_the_first_rest_with_the_window_round_the_pawn_open_says_what_the_ring_is(make_app):
    """Something drawn between the eye and the pawn is cut round it, a window rimmed in
    pink: three blind players of two rounds never learnt what the ring was, and read it as
    a hole, a selection or a curved rail (level 3's wall before the pawn: t331, t335,
    t336).  The first rest of a session with the window open says what it is; not where
    nothing hides the pawn (level 1), and once."""
    from anabasis.app.play.scene import WINDOW_TIP

    app = make_app(open_level(1))
    play = app.scene
    settle(app)
    for move in solver.solve(play.room).moves:
        walk(app, move)
        assert not play.draw.renderer.window_open and play.message != WINDOW_TIP
    assert WINDOW_TIP not in app.told
    app.open(open_level(3))
    play = app.scene
    settle(app)
    said = []
    for move in solver.solve(play.room).moves:
        walk(app, move)
        said.append((play.draw.renderer.window_open, play.message == WINDOW_TIP))
        play.message, play.message_left = "", 0.0
    assert said[0] == (True, True), said  # (the wall of its middle row before the pawn)
    assert said[1][0] and not any(tip for _, tip in said[1:]), said  # (once a session)
    # over the large map no ring is drawn: the tip waits for a rest with the room in sight
    # (three blind players of a round met it over a made room's map, t349 to t351)
    app.told.discard(WINDOW_TIP)
    app.open(open_level(3))
    play = app.scene
    settle(app)
    press(app, pygame.K_b)
    settle(app)
    assert play.reading.large
    moves = solver.solve(play.room).moves
    walk(app, moves[0])
    assert play.draw.renderer.window_open and play.message != WINDOW_TIP
    press(app, pygame.K_b)
    settle(app)
    walk(app, moves[1])
    assert not play.reading.large and play.message == WINDOW_TIP


def test_with_w_up_the_first_way_round_the_seam_says_w_wraps(make_app):
    """Level 7 with w up: the ramp ana from w 3 to w 0 draws the pawn at the tower's foot
    again, and all three blind players of a round read it as a fall (t313, t314, t315).
    The first move round the seam with w up says that w wraps, and which way you went."""
    from anabasis.app.play.scene import CUT_TIP, WRAP_TIP

    app = make_app(open_level(7))
    play = app.scene
    settle(app)
    while play.sight.view != "w-up":
        press(app, pygame.K_v)
        settle(app)
    walk(app, "RRRD")
    assert play.state.player[3] == 3 and play.message != CUT_TIP
    walk(app, "D")
    assert play.state.player[3] == 0
    assert play.message == WRAP_TIP.format(last=3, ana="ana") and play.message_left > 0


def test_over_the_large_map_the_key_line_keeps_its_keys_past_ten_moves(make_app):
    """Over the large map the key line says the moves, par, your z and w and the goal's,
    then the keys; it was cut to the width it has beside the axes' names, which the large
    map does not show, and once the moves reached ten "R restart" was gone (t311).  Ten
    moves into hard.warthog8 at 1280 x 720, on the large map, the line drawn still has it."""
    from anabasis import gen
    from anabasis.app.play import hud
    from anabasis.app.play.session import opened_made

    made = gen.build(*gen.parse_spec("hard.warthog8"))
    app = make_app(opened_made(made), size=(1280, 720))
    app.view_tips = 0
    play = app.scene
    settle(app)
    assert play.reading.large
    walk(app, made.moves[:10])
    app.overlay.written.clear()
    app.tick(DT)
    assert play.game.moves == 10 and play.reading.large
    assert hud.key_line(play).startswith("moves 10 / par")
    (drawn,) = [t for t in app.overlay.written if t.startswith("moves 10 / par")]
    assert "R restart" in drawn.split(" · "), drawn


@pytest.mark.parametrize("size", [(1280, 720), (640, 360)])
def test_the_corner_map_keeps_its_corner_from_view_to_view(make_app, size):
    """Moved to another corner where the room in a view lay under its own (level 4 with w
    up, level 5 in the both view), the map was lost on a turn by blind players, all three
    of a round (t340 to t342).  In every level with a map, in each view, it stays bottom
    left, the room framed beside it, and never covers the pawn."""
    seen = 0
    for level in range(2, 8):
        app = make_app(open_level(level), size=size)
        app.view_tips = 0
        play = app.scene
        for _ in range(3):
            settle(app)
            app.tick(DT)
            if play.reading.map_rect is not None:
                seen += 1
                assert play.reading.map_corner == "bottom left", (level, play.sight.view)
                b, cam = play.sight.basis(), play.sight.camera
                pawn = reading.keep_clear(play, b, cam, app.overlay.size)[0]
                assert not play.reading.map_rect.colliderect(pawn), (level, play.sight.view)
            press(app, pygame.K_v)
        app.close()
    assert seen >= 3 * 5, seen  # (the map was on: levels 3 to 7 at least, each view)


@pytest.mark.parametrize("level", [2, 3, 7])
def test_no_words_give_a_wall_to_the_rooms_top_a_height_over_the_room(make_app, level):
    """A wall to the room's top was said "wall · z 2" and "stays · a wall · z 2": the height
    you would stand at on it, over the room's top.  A blind player took "z 2" to mean a wall,
    and a made room's floors at z 2, "2" on the map, for walls until a climb badge said not
    (t353).  Along each level's shortest solution no words written say a z over the room's
    top, and such walls are said to reach the ceiling; nor in a made room, at its start."""
    import re

    app = marked(make_app, open_level(level))
    Z = app.scene.room.size[2]
    ceiling = 0
    for _play, _move in rests_along(app):
        app.overlay.written.clear()
        app.tick(DT)
        for text in app.overlay.written:
            assert all(int(n) < Z for n in re.findall(r"\bz (\d+)", text)), (level, text)
            ceiling += "wall to the ceiling" in text
    assert ceiling  # (said of a wall, along the way)
    made, _ = made_in_stand(make_app, "hard.steenbok")
    made.overlay.written.clear()
    made.tick(DT)
    Z = made.scene.room.size[2]
    texts = list(made.overlay.written)
    assert not [t for t in texts if any(int(n) >= Z for n in re.findall(r"\bz (\d+)", t))]


def test_the_corner_map_fades_only_where_the_room_is_under_it(make_app):
    """medium.saiga16, its camera dragged round: the corner map moved to the top left, over
    the empty sky of the room's rectangle, and was faded there, a dark square over the
    goal's slice that a blind player took for a fault (t362).  Given the room's box's hull
    (as the HUD gives it, :func:`reading.room_hull`), the map is faded where the hull lies
    under it, and nowhere else of the room's rectangle."""
    app = marked(make_app, open_level(3))
    play, ov = app.scene, app.overlay
    b, cam = play.sight.basis(), play.sight.camera
    hull = reading.room_hull(play, b, cam, ov.size)
    assert hull and reading.room_rect(play, b, cam, ov.size).collidepoint(hull[0])
    here = play.reading.map_rect
    # a room's box over the map's right half, its hull a triangle in that box: its top
    # right half
    room = pygame.Rect(here.centerx, here.top - 40, here.width, here.height + 80)
    tri = [room.topleft, room.topright, room.bottomright]
    reading.draw_map(ov, play, here.bottom, int(18 * ov.scale), 0, room, [], (), tri)
    assert play.reading.map_rect == here
    key, faded, plain = play.reading._faded
    assert key[1] is not None
    lit = pygame.Surface(ov.size, pygame.SRCALPHA, 32)
    pygame.draw.polygon(lit, (255, 255, 255, 255), tri)
    inside = outside = 0
    under = here.clip(room)
    for x in range(under.left + 2, under.right - 2, 3):
        for y in range(under.top + 2, under.bottom - 2, 3):
            a = plain.get_at((x - here.left, y - here.top))[3]
            f = faded.get_at((x - here.left, y - here.top))[3]
            if lit.get_at((x, y))[3]:
                inside += a > 0 and f < a
            else:
                outside += a > 0
                assert f == a, (x, y)  # (the sky of the room's rectangle: unfaded)
    assert inside and outside
    left = here.left + 5, here.centery  # (and the map off the room's rectangle: unfaded)
    assert faded.get_at((5, here.height // 2)) == plain.get_at((5, here.height // 2)), left
