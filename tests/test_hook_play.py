"""The hook in the game: its keys, its flight on screen, its sounds (a real window, real keys).

The hook chapter's rooms (``levels/04-hook/``) are opened as a player opens
a room, and played by key presses: Shift held with an arrow fires the hook
the way the arrow means on screen, T and G fire it ana and kata.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest
from conftest import DT
from window import KEYS, arrow_for, press, settle

import anabasis
from anabasis.app.play import hook, hud, markers
from anabasis.app.play.scene import Play
from anabasis.app.play.session import Opened, open_level
from anabasis.engine import moves as why
from anabasis.engine import rules, solver
from anabasis.engine.moves import parse_moves
from anabasis.formats import levelfile
from anabasis.picture import views

HOOK_DIR = Path(anabasis.__file__).parent.parent / "levels" / "04-hook"


def hook_level(name: str) -> Opened:
    path = next(HOOK_DIR.glob(f"{name}*.txt"))
    room = levelfile.parse(path.read_text(), str(path))
    return Opened(room, "room", room.name)


def key_down(app, key):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.tick(DT)


def key_up(app, key):
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
    app.tick(DT)


def hook_arrow_for(play, move):
    """The arrow key that fires the hook ``move`` on screen now."""
    for arrow, key in KEYS.items():
        if hook.arrow_to_hook(play.sight.basis(), play.sight.camera.yaw, arrow) == move:
            return key
    raise AssertionError(f"no arrow fires {move} in view {play.sight.view}")


def fire(app, move):
    """Fire the hook ``move`` as a player does: T or G along w, else Shift and an arrow."""
    play = app.scene
    if move == "hA":
        press(app, pygame.K_t)
    elif move == "hK":
        press(app, pygame.K_g)
    else:
        key_down(app, pygame.K_LSHIFT)
        press(app, hook_arrow_for(play, move))
        key_up(app, pygame.K_LSHIFT)


def play_moves(app, moves):
    for move in moves:
        if move in rules.HOOKS:
            fire(app, move)
        else:
            press(app, arrow_for(app.scene, move))
        settle(app)


@pytest.mark.parametrize("name", ["01", "04", "07"])
def test_a_hook_level_is_won_by_keys_in_par(make_app, name):
    opened = hook_level(name)
    app = make_app(opened)
    play = app.scene
    assert isinstance(play, Play) and play.game.hook
    moves = solver.solve(play.room).moves
    assert any(m in rules.HOOKS for m in moves)
    play_moves(app, moves)
    assert play.won and play.game.moves == opened.room.par == len(moves)
    assert {"throw", "catch"} <= set(app.sound.played)
    # won: the hook's keys fire nothing more
    thrown = list(app.sound.played).count("throw")
    press(app, pygame.K_t)
    fire(app, "hR")
    settle(app)
    assert list(app.sound.played).count("throw") == thrown and play.won


def test_the_hook_is_fired_by_shift_and_an_arrow_in_every_view(make_app):
    """01 reach: hooked to the tower along +x, in each view the arrow that means +x fires it."""
    for turns in range(3):
        app = make_app(hook_level("03"))
        play = app.scene
        for _ in range(turns):
            press(app, pygame.K_v)
            settle(app)
        before = play.game.state
        fire(app, "hR")
        settle(app)
        assert play.game.moves == 1 and play.game.state == rules.step(play.room, before, "hR").state
        app.close()


def test_an_arrow_that_means_w_fires_the_hook_ana_or_kata(make_app):
    app = make_app(hook_level("04"))
    play = app.scene
    press(app, arrow_for(play, "R"))
    settle(app)
    for _ in range(3):
        if play.sight.view != "both":
            press(app, pygame.K_v)
            settle(app)
    assert play.sight.view == "both"
    key = hook_arrow_for(play, "hA")
    assert views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw,
                               next(a for a, k in KEYS.items() if k == key)) == "w"
    before = play.game.state
    key_down(app, pygame.K_RSHIFT)
    press(app, key)
    key_up(app, pygame.K_RSHIFT)
    settle(app)
    assert play.game.state == rules.step(play.room, before, "hA").state != before
    # the crate now rests on your head in w: said, and tagged
    assert hook.on_head(play) is not None
    assert hook.HEAD_TEXT in play.message


def test_a_hook_room_says_how_the_hook_is_fired_as_it_opens(make_app):
    app = make_app(hook_level("01"))
    assert app.scene.message.startswith("this room has the hook: hold Left Shift and press")
    app.open(open_level(1))
    assert "hook" not in app.scene.message


def test_a_tap_of_the_hook_key_makes_it_ready_for_the_next_arrow(make_app):
    app = make_app(hook_level("03"))
    play = app.scene
    key_down(app, pygame.K_LSHIFT)
    key_up(app, pygame.K_LSHIFT)
    assert play.hook_keys.ready and hook.READY_TEXT in play.message
    press(app, arrow_for(play, "R"))
    settle(app)
    assert play.game.moves == 1 and not play.hook_keys.ready
    assert play.game.history[-1] == play.game.first
    assert play.game.state == rules.step(play.room, play.game.first, "hR").state
    # a tap and a tap again: put away, and the arrow steps
    key_down(app, pygame.K_LSHIFT)
    key_up(app, pygame.K_LSHIFT)
    key_down(app, pygame.K_LSHIFT)
    key_up(app, pygame.K_LSHIFT)
    assert not play.hook_keys.ready


def test_outside_hook_rooms_shift_and_an_arrow_step(make_app):
    app = make_app(open_level(1))
    play = app.scene
    assert not play.game.hook
    move = solver.solve(play.room).moves[0]
    key_down(app, pygame.K_LSHIFT)
    press(app, arrow_for(play, move))
    key_up(app, pygame.K_LSHIFT)
    press(app, pygame.K_t)
    settle(app)
    assert play.game.moves == 1 and play.game.state == rules.step(
        play.room, play.game.first, move).state
    # T and G are not silent here (a blind player found them so): they say where the hook is
    assert play.message == hook.NO_HOOK_TEXT and play.message_left > 0
    play.message_left = 0
    press(app, pygame.K_g)
    assert play.message == hook.NO_HOOK_TEXT and play.message_left > 0
    assert play.game.moves == 1
    assert "throw" not in app.sound.played
    # the HUD says nothing of the hook here, and the help only where it is (not here)
    assert "hook" not in hud.key_line(play).lower()
    said = [line for line in hud.help_lines(play) if "hook" in line.lower()]
    assert said == [hud.HOOK_ELSEWHERE] and "not in this one" in said[0]


def test_the_hooks_keys_are_shown_in_a_hook_room_its_help_and_the_keys_screen(make_app):
    from anabasis.app.menus.keys_screen import WHAT, KeysScreen

    app = make_app(hook_level("01"))
    play = app.scene
    line = hud.key_line(play)
    assert line.startswith("Left Shift+arrow hook · T hook ana · G hook kata · arrows move")
    helped = [app.keymap.text(line) for line in hud.help_lines(play)]
    assert hud.HOOK_HEADING in helped and any(line.startswith("Left Shift + an arrow")
                                              for line in helped)
    screen = KeysScreen(app)
    for action in hook.ACTIONS:
        assert action in screen.items and WHAT[action]


def test_the_hook_keys_are_rebindable(make_app):
    app = make_app(hook_level("03"))
    play = app.scene
    app.progress.bind_key("hook", "j")
    app.keys_changed()
    assert hud.key_line(play).startswith("J+arrow hook")
    key_down(app, pygame.K_LSHIFT)  # no longer the hook: Shift and the arrow step
    press(app, arrow_for(play, "R"))
    key_up(app, pygame.K_LSHIFT)
    settle(app)
    assert play.game.state == rules.step(play.room, play.game.first, "R").state
    press(app, pygame.K_z)
    key_down(app, pygame.K_j)
    press(app, arrow_for(play, "R"))
    key_up(app, pygame.K_j)
    settle(app)
    assert play.game.state == rules.step(play.room, play.game.first, "hR").state


def test_a_hook_key_pressed_mid_turn_fires_the_way_it_means_in_the_view_turned_to(make_app):
    app = make_app(hook_level("04"))
    play = app.scene
    play_moves(app, ["R"])
    before = play.game.state
    while views.next_view(play.sight.view) != "both":
        press(app, pygame.K_v)
        settle(app)
    # the arrow that will mean ana once turned (where the "both" view draws w along the floor)
    arrow = hook.hook_to_arrow(views.view_basis("both"), play.sight.camera.yaw, "hA")
    assert views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, arrow) != "w"
    press(app, pygame.K_v)
    assert play.sight.turning
    key_down(app, pygame.K_LSHIFT)
    press(app, KEYS[arrow])
    key_up(app, pygame.K_LSHIFT)
    assert play.game.state == before  # it waits for the turn
    settle(app)
    assert play.sight.view == "both"
    assert play.game.moves == 2
    assert play.game.state == rules.step(play.room, before, "hA").state


def test_undo_and_restart_take_hook_moves_back(make_app):
    app = make_app(hook_level("01"))
    play = app.scene
    moves = parse_moves("UUhRhL")
    seen = [play.game.state]
    play_moves(app, moves)
    assert play.game.moves == 4
    for m in moves:
        seen.append(rules.step(play.room, seen[-1], m).state)
    assert play.game.state == seen[-1]
    press(app, pygame.K_z)
    settle(app)
    assert play.game.state == seen[-2] and play.game.moves == 3
    press(app, pygame.K_r)
    settle(app)
    assert play.game.state == seen[0] and play.game.moves == 0
    press(app, pygame.K_z)  # the restart undone: back to the hooked position
    assert play.game.state == seen[-2] and play.game.moves == 3


def test_a_hint_that_is_a_hook_move_is_shown_and_named(make_app):
    app = make_app(hook_level("03"))
    play = app.scene
    for _ in range(60):
        if play.hints.answer is not None:
            break
        app.tick(DT)
    assert play.hints.plan and play.hints.plan[0] == "hR"
    press(app, pygame.K_SLASH)
    assert play.hints.revealed() == ("hR",)
    words = play.hints.words(lambda m: hud.hint_arrow_key(play, m))
    assert words.startswith("hint: press Left Shift+Right (the hook)")
    line = hud.hint_arrow(play, app.overlay.size)  # an arrow along +x, the hook's head on it
    assert line is not None
    app.tick(DT)
    assert _near(_screen(app), line[1], hook.HEAD_COLOUR)
    # the hint played by keys: the plan goes on
    fire(app, "hR")
    settle(app)
    assert play.hints.plan == ("D", "R")


def test_the_no_way_on_line_after_a_hook_move(make_app):
    """04 fetch: the crate fetched onto your head, then a step the wrong way loses it."""
    app = make_app(hook_level("04"))
    play = app.scene
    play_moves(app, ["R", "hA", "R"])
    assert play.game.moves == 3
    for _ in range(60):
        if play.hints.answer is not None:
            break
        app.tick(DT)
    assert play.hints.lost
    assert play.message.startswith("no way on from here: undo 1 move")


def test_a_hook_that_catches_nothing_comes_back_and_says_why(make_app):
    room = levelfile.parse("hook: yes\n\n###### ######\n\n###### #@..*.\n")
    app = make_app(Opened(room, "room", "open"))
    play = app.scene
    fire(app, "hL")  # beside you: the wall of the room's own
    settle(app)
    fire(app, "hR")  # out of the room's grid at its far end
    settle(app)
    assert play.game.moves == 0
    assert list(app.sound.played).count("miss") == 2
    assert play.message == hook.MISS_WORDS[why.HOOK_FLEW_OUT]


def turned_s(sight) -> float:
    """The seconds a turn takes (read off the sight: advanced until it stops)."""
    t, s = 0.0, sight
    while s.turning and t < 5:
        s, t = s.advanced(0.05), t + 0.05
    return t


def _screen(app):
    return pygame.surfarray.array3d(app.window.read_screen()).astype(int)  # (W, H, 3)


def _near(rgb, at, colour, r=6, tol=40):
    x, y = int(at[0]), int(at[1])
    W, H, _ = rgb.shape
    patch = rgb[max(0, x - r):min(W, x + r + 1), max(0, y - r):min(H, y + r + 1)]
    return bool((np.abs(patch - np.array(colour)).sum(axis=2) <= tol).any())


#: (a room, the moves before, the hook, what it does): a block pulls you, a crate comes to
#: you, and a hook that catches nothing comes back
FLIGHTS = {"pulls you": ("03", "", "hR", "you"), "pulls a crate": ("01", "UUhR", "hL", "crate"),
           "comes back": (None, "", "hR", "")}


@pytest.mark.parametrize("turns", [0, 1, 2])
@pytest.mark.parametrize("what", FLIGHTS)
def test_the_hooks_flight_is_drawn_in_every_view(make_app, turns, what):
    """Mid-flight, the line and its head are on screen where the flight projects, frame
    by frame: out, then pulling you or the crate, or back; gone once it is over."""
    name, before, move, pulled = FLIGHTS[what]
    if name is None:
        room = levelfile.parse("hook: yes\nview: stand\n\n###### ######\n\n###### #@..*.\n")
        opened = Opened(room, "room", "open")
    else:
        opened = hook_level(name)
    app = make_app(opened)
    app.view_tips = 0  # no tip of the new view over the picture
    play = app.scene
    play_moves(app, parse_moves(before))
    for _ in range(turns):
        press(app, pygame.K_v)
        settle(app)
    play.message_left = 0.0
    arrow = hook.hook_to_arrow(play.sight.basis(), play.sight.camera.yaw, move)
    if arrow is None:
        pytest.skip(f"no arrow fires {move} in the {play.sight.view} view")
    moves = play.game.moves
    play.queue.append(("hook", arrow))
    app.tick(DT)
    assert play.flight is not None and play.animating
    assert play.flight.pulled == pulled and play.flight.back is (not pulled)
    seen = 0
    while play.animating:
        app.tick(DT)  # then the line as it was drawn on that frame
        line = hook.screen_line(play, app.overlay.size)
        if line is None:
            continue
        a, z, _ = line
        rgb = _screen(app)
        if _near(rgb, z, hook.HEAD_COLOUR):
            seen += 1
        mid = ((a[0] + z[0]) / 2, (a[1] + z[1]) / 2)
        if np.hypot(z[0] - a[0], z[1] - a[1]) > 20:
            assert _near(rgb, mid, hook.LINE_COLOUR, tol=60) or _near(rgb, mid, hook.W_GOLD)
    assert seen >= 2
    assert hook.screen_line(play, app.overlay.size) is None
    assert play.game.moves == moves + (1 if pulled else 0)


def test_mid_turn_the_flight_turns_with_the_view(make_app):
    """04 fetch, the hook fired ana: in the stand view w is hidden, so the line is drawn up
    the screen in w's gold; turning to w up, it leans over as w comes into the slice."""
    app = make_app(hook_level("04"))
    play = app.scene
    play_moves(app, ["R"])
    while play.sight.view != "stand":
        press(app, pygame.K_v)
        settle(app)
    press(app, pygame.K_t)
    app.tick(DT)
    assert play.animating and play.flight.move == "hA"
    rest = hook.screen_line(play, app.overlay.size)
    assert rest is not None and rest[2] == 1  # along the hidden axis: drawn up, said ana
    assert abs(rest[0][0] - rest[1][0]) < 1 and rest[1][1] < rest[0][1]
    app.tick(DT)  # drawn: in w's gold, up the screen, the head at its end
    rest = hook.screen_line(play, app.overlay.size)
    rgb = _screen(app)
    (x0, y0), (x1, y1), _ = rest
    assert _near(rgb, (x1, y1), hook.HEAD_COLOUR)
    if y0 - y1 > 20:
        assert _near(rgb, (x0, (y0 + y1) / 2), hook.W_GOLD)
    turned = play.sight.turned()
    assert turned.view == "w-up"
    play.sight = turned.advanced(0.5 * turned_s(turned))
    assert play.sight.turning
    oblique = hook.screen_line(play, app.overlay.size)
    assert oblique is not None and oblique[2] == 0  # the line itself, projected
    assert abs(oblique[1][0] - rest[1][0]) + abs(oblique[1][1] - rest[1][1]) > 2


@pytest.mark.parametrize("turns", [0, 1, 2])
def test_a_crate_on_your_head_is_tagged_in_every_view(make_app, turns):
    app = make_app(hook_level("04"))
    app.view_tips = 0  # no tip of the new view over the picture
    play = app.scene
    play_moves(app, ["R", "hA"])
    play.message_left = 0.0  # nor the words of the crate on your head
    for _ in range(turns):
        press(app, pygame.K_v)
        settle(app)
    assert hook.on_head(play) in play.game.state.crates
    for _ in range(3):
        app.tick(DT)
    rgb = _screen(app)
    drawn = play.pose().player
    x, y, _ = markers.project(drawn, drawn, play.sight.basis(), play.sight.camera,
                              app.overlay.size)
    cell = hook._cell_pixels(drawn, play.sight.basis(), play.sight.camera, app.overlay.size)
    # the crate's square over the player, in the crate's colour
    top = y - cell * 0.9
    box = rgb[int(x - cell):int(x + cell), max(0, int(top - cell)):int(top) + 4]
    assert (np.abs(box - np.array(markers.CRATE_COLOUR)).sum(axis=2) <= 30).any()
    # step away: it falls kata where you stood, and the tag is gone
    play_moves(app, ["L"])
    assert hook.on_head(play) is None


@pytest.mark.parametrize("turns", [0, 1, 2])
def test_the_step_marks_show_each_hooks_outcome_in_a_hook_room(make_app, turns):
    """X held in 04 fetch: beside the steps' badges, a badge on what each hook would catch,
    saying what it does (the engine's own outcome), in every view; on the map too."""
    from anabasis.app.play import reading, stepmarks

    app = make_app(hook_level("04"))
    app.view_tips = 0
    play = app.scene
    play_moves(app, ["R"])  # under the crate two slices ana: the hook ana fetches it
    play.message_left = 0.0  # the room's greeting is not over the badges
    for _ in range(turns):
        press(app, pygame.K_v)
        settle(app)
    key_down(app, pygame.K_x)
    state = play.game.state
    shown = play.reading.step_marks()
    hooks = stepmarks.hook_marks(play.room, state)
    assert shown == stepmarks.marks(play.room, state) + hooks
    fetch = next(m for m in hooks if m.move == "hA")
    assert fetch.kind == "hook fetch" and fetch.label == "hook ana: fetches the crate"
    assert fetch.cell in state.crates
    b, cam, ov = play.sight.basis(), play.sight.camera, app.overlay
    # (a step off the room's edge that is no move has no badge)
    drawn = [m for m in shown if stepmarks.shown_in(m, b, cam.yaw)
             and not (m.kind == "nothing" and reading.off_room(play.room, m.cell))]
    assert fetch in drawn  # ana and kata have their keys in every view
    assert not any(m.kind == "hook nothing" for m in drawn)
    rects = reading.draw_marks(ov, play, b, cam, ov.scale)
    assert len(rects) == len(drawn)
    for i, a in enumerate(rects):  # none over another
        for other in rects[i + 1:]:
            assert not a.colliderect(other)
    for _ in range(3):
        app.tick(DT)
    rgb = _screen(app)
    # (as the HUD placed it: clear of its panels too, which the call above does not know)
    badge = play.reading.badge_rects[drawn.index(fetch)]
    # the fetch badge's border, in its colour, in the window
    assert _near(rgb, (badge.centerx, badge.top), stepmarks.COLOUR["hook fetch"], r=2, tol=30)
    # and on the map: the hook's badge on the crate it would fetch
    smap = play.reading.shown_map()
    lay = smap.layout
    pic = smap.picture(play.pose().player, play.pose().crates, shown)
    cell = lay.cell_rect(fetch.cell[0], fetch.cell[1], fetch.cell[3])
    if lay.cell >= 9:  # (its ring, in its colour, in the cell's top left)
        ring = {tuple(pic.get_at((i, j)))[:3] for i in range(cell.x - 1, cell.centerx)
                for j in range(cell.y - 1, cell.centery)}
        assert stepmarks.COLOUR["hook fetch"] in ring
    key_up(app, pygame.K_x)
    assert play.reading.step_marks() == () or play.reading.marks_on


@pytest.mark.parametrize("turns", [0, 1, 2])
def test_no_step_badge_covers_the_tag_of_a_crate_on_your_head(make_app, turns):
    from anabasis.app.play import reading

    app = make_app(hook_level("04"))
    app.view_tips = 0
    play = app.scene
    play_moves(app, ["R", "hA"])
    for _ in range(turns):
        press(app, pygame.K_v)
        settle(app)
    key_down(app, pygame.K_x)
    ov = app.overlay
    tag = hook.head_rects(ov, play, ov.scale)
    assert len(tag) == 2  # the crate's square and the words
    rects = reading.draw_marks(ov, play, play.sight.basis(), play.sight.camera, ov.scale)
    assert rects
    for r in rects:
        assert not any(r.colliderect(t) for t in tag), (r, tag)
    key_up(app, pygame.K_x)
