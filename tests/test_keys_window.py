"""Keys in the real window: saved bindings used in play, the keys screen rebinding them.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import pygame
from conftest import DT
from window import arrow_for, in_the_room, press, settle

from anabasis.app.menus.launcher import Launcher
from anabasis.app.play.scene import Play
from anabasis.app.play.session import open_level
from anabasis.app.settings import progress as progress_mod
from anabasis.engine import solver


def assert_u_undoes_and_z_does_not(app, play):
    """After one move, Z (undo's default) does nothing and U undoes it."""
    press(app, arrow_for(play, solver.solve(play.room).moves[0]))
    settle(app)
    assert play.game.moves == 1
    press(app, pygame.K_z)  # no longer undo
    assert play.game.moves == 1
    press(app, pygame.K_u)
    assert play.game.moves == 0


def test_saved_key_bindings_are_used(make_app, tmp_path):
    saved = progress_mod.Progress.load(tmp_path)
    saved.keys["undo"] = ["u"]
    saved.keys["turn"] = ["t"]
    saved.save()
    app = make_app(open_level(1))
    play = app.scene
    assert_u_undoes_and_z_does_not(app, play)
    press(app, pygame.K_t)
    settle(app)
    assert play.sight.view == "w-up"


# -- the keys screen -------------------------------------------------------------------


def open_keys_screen(app):
    """From the launcher, by keys: Up twice (past quit) to "keys…", Enter."""
    from anabasis.app.menus.keys_screen import KeysScreen

    launcher = app.scene
    assert isinstance(launcher, Launcher)
    launcher.selected = 0
    press(app, pygame.K_UP)
    press(app, pygame.K_UP)
    assert launcher.items[launcher.selected].action == ("keys",)
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, KeysScreen)
    return app.scene


def choose(app, action):
    """Down the keys screen's list to ``action``."""
    screen = app.scene
    for _ in range(len(screen.items)):
        if screen.items[screen.selected] == action:
            return
        press(app, pygame.K_DOWN)
    raise AssertionError(f"no line for {action}")


def test_the_keys_screen_rebinds_undo_for_play_and_keeps_it(make_app, tmp_path):
    app = make_app()
    screen = open_keys_screen(app)
    assert screen.items[:len(progress_mod.DEFAULT_KEYS)] == list(progress_mod.DEFAULT_KEYS)
    choose(app, "undo")
    press(app, pygame.K_RETURN)
    assert screen.capturing
    press(app, pygame.K_u)
    assert not screen.capturing and "undo: U" in screen.status
    assert app.progress.keys["undo"] == ["u"]
    assert progress_mod.Progress.load(tmp_path).keys["undo"] == ["u"]  # saved at once
    press(app, pygame.K_ESCAPE)  # back to the launcher, on "keys…"
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    assert launcher.items[launcher.selected].action == ("keys",)
    launcher.activate(0)
    play = app.scene
    assert isinstance(play, Play)
    assert_u_undoes_and_z_does_not(app, play)
    # a restart of the game: the binding is read back from the data dir
    app.close()
    again = make_app(open_level(1))
    assert again.action_for(pygame.K_u) == "undo" and again.action_for(pygame.K_z) is None


def test_a_key_another_action_has_is_moved_and_defaults_come_back(make_app, tmp_path):
    app = make_app()
    screen = open_keys_screen(app)
    choose(app, "undo")
    press(app, pygame.K_RETURN)
    press(app, pygame.K_r)  # restart's key
    assert app.progress.keys["undo"] == ["r"] and app.progress.keys["restart"] == []
    assert "R moved from restart" in screen.status and "no key" in screen.status
    assert app.action_for(pygame.K_r) == "undo"
    # Esc while waiting cancels and binds nothing; Esc itself cannot be taken from back
    press(app, pygame.K_RETURN)
    press(app, pygame.K_ESCAPE)
    assert not screen.capturing and isinstance(app.scene, type(screen))
    assert app.progress.keys["undo"] == ["r"] and app.action_for(pygame.K_ESCAPE) == "back"
    # F11 while waiting is a key to bind, not fullscreen; Ctrl is passed over (Ctrl+Q's)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_LCTRL)
    assert screen.capturing
    press(app, pygame.K_F11)
    assert not app.window.fullscreen and app.progress.keys["undo"] == ["f11"]
    assert "F11 moved from fullscreen" in screen.status
    # Backspace: undo back to its defaults (R is no one's now)
    press(app, pygame.K_BACKSPACE)
    assert app.progress.keys["undo"] == ["z", "backspace"]
    assert app.action_for(pygame.K_z) == "undo" and app.action_for(pygame.K_r) is None
    # "reset all" (by a click, as Enter) puts every action back, saved
    choose(app, "reset all")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=screen.rects[screen.selected].center))
    app.tick(DT)
    assert app.progress.keys == progress_mod.DEFAULT_KEYS
    assert progress_mod.Progress.load(tmp_path).keys == progress_mod.DEFAULT_KEYS
    assert app.action_for(pygame.K_r) == "restart" and app.action_for(pygame.K_F11) == "fullscreen"
    # a click on an action's line waits for its key, like Enter
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                         pos=screen.rects[1].center))
    app.tick(DT)
    assert screen.capturing and screen.selected == 1


def test_the_launcher_arrows_keep_their_meaning_when_rebound(make_app):
    app = make_app()
    open_keys_screen(app)
    choose(app, "up")
    press(app, pygame.K_RETURN)
    press(app, pygame.K_i)
    choose(app, "left")
    press(app, pygame.K_RETURN)
    press(app, pygame.K_j)
    assert app.action_for(pygame.K_UP) is None and app.action_for(pygame.K_LEFT) is None
    press(app, pygame.K_ESCAPE)
    launcher = app.scene
    launcher.selected = 1
    press(app, pygame.K_UP)
    assert launcher.selected == 0
    press(app, pygame.K_i)  # the new key moves too
    assert launcher.selected == len(launcher.items) - 1
    press(app, pygame.K_LEFT)  # to the levels' column
    assert launcher.items[launcher.selected].action[0] == "level"


def test_the_key_line_says_which_arrows_move_where_some_step_along_w(make_app):
    """Three blind players planned a made room on the map (x across, y down) in the both
    view, where y is hidden and the up and down arrows point along w, pressed down, and were
    told "you can't step in w".  There the key line says which arrows move and which do
    not; in the stand view, where every arrow moves, it says "arrows move"."""
    from anabasis import gen
    from anabasis.app.play import hud
    from anabasis.app.play.session import opened_made

    app = make_app(opened_made(gen.build(*gen.parse_spec("hard.gecko"))))
    play = app.scene
    settle(app)
    in_the_room(app)
    while play.sight.view != "both":  # (made rooms open in stand now)
        press(app, pygame.K_v)
        settle(app)
    assert hud.dead_arrows(play) == ("up", "down")
    line = hud.key_line(play)
    # ("↑ ↓ w: no step" read to two blind players as "no w step just now")
    # (and "↑ ↓ along w: no step" to another as either a step in w or none)
    # (and "do nothing here (w runs that way)" to another as "they move you in w")
    assert line.startswith("\u2190 \u2192 move \u00b7 \u2191 \u2193 do nothing: y is hidden in"
                           " this view"), line
    while play.sight.view != "stand":
        press(app, pygame.K_v)
        settle(app)
    assert hud.dead_arrows(play) == ()
    assert hud.key_line(play).startswith("arrows move"), hud.key_line(play)


def test_the_key_line_names_the_large_map_wherever_the_map_is_in_its_corner(make_app):
    """Blind players found the corner map of an 11 x 10 medium room too small to plan on,
    and never met B there: the key line named it only where the corner's cells were too
    small for their numbers.  It names it wherever the map is in its corner; while the map
    is large, the way back; with no map (level 1, two slices), not at all."""
    from anabasis.app.play import hud

    app = make_app(open_level(7))
    play = app.scene
    settle(app)
    assert play.reading.show_map and " · B large map" in hud.key_line(play)
    press(app, pygame.K_b)
    line = hud.key_line(play)
    assert "B back to the room" in line and "B large map" not in line
    app.open(open_level(1))
    settle(app)
    assert not app.scene.reading.show_map and "large map" not in hud.key_line(app.scene)
