"""The keymap: one table of actions for play, the menus and the editor, and the keys on screen.

The window reads each key event once, through the keymap, and every key a
screen names is written from it: a rebound key shows as rebound in the
HUD, the help, the win panel and the editor alike.
"""

from __future__ import annotations

import pygame
import pytest
from window import open_code_box, press

from anabasis.app.editor.scene import Editor
from anabasis.app.play import hud
from anabasis.app.play.scene import Play
from anabasis.app.play.session import open_level
from anabasis.app.settings import keymap
from anabasis.app.settings.keymap import DEFAULT_KEYS, EDITOR, FIELD, GAME, MENU, Keymap

DT = 1 / 30


def written(app) -> str:
    """Every text the overlay drew for the picture on screen, one a line."""
    return "\n".join(app.overlay.written)


def test_the_default_keys_write_the_words_the_game_always_showed():
    keys = Keymap(DEFAULT_KEYS)
    assert keys.text(hud.HINT) == ("arrows move · V turn · Z undo · R restart · ? hint"
                                   " · P from above · Q/E orbit · C code · H help · Esc levels")
    assert keys.text(hud.HELP[1]) == "arrows / WASD: step the way it looks on screen"
    assert keys.text(hud.HELP[2]).startswith("V or Space: turn")
    assert keys.text(hud.HELP[5]).startswith("? or /: a hint")
    assert keys.text(hud.HELP[6]).endswith("M: sound · - / =: volume")
    assert keys.label("cursor_z+") == "PgUp" and keys.label("size_x+") == "Ctrl+Right"


def test_every_action_is_in_one_table_and_each_where_is_known():
    names = [a.name for a in keymap.ACTIONS]
    assert len(names) == len(set(names))
    assert {a.where for a in keymap.ACTIONS} == {GAME, EDITOR, MENU, FIELD} == set(keymap.WHERES)
    assert list(DEFAULT_KEYS) == [a.name for a in keymap.ACTIONS if a.where == GAME]
    assert set(keymap.WHAT) == set(names) and all(keymap.WHAT.values())


def _event(key, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)


def test_the_editor_reads_its_own_keys_first_then_the_games(make_app):
    make_app()  # (pygame's key names need it started)
    keys = Keymap(DEFAULT_KEYS)
    ctrl, shift = pygame.KMOD_LCTRL, pygame.KMOD_LSHIFT
    assert keys.action(EDITOR, _event(pygame.K_RIGHT)) == "cursor_x+"
    assert keys.action(EDITOR, _event(pygame.K_RIGHT, ctrl)) == "size_x+"
    assert keys.action(EDITOR, _event(pygame.K_RIGHT, ctrl | shift)) == "size_x+"
    assert keys.action(EDITOR, _event(pygame.K_z)) == "undo"
    assert keys.action(EDITOR, _event(pygame.K_z, shift)) == "undo"
    assert keys.action(EDITOR, _event(pygame.K_z, ctrl | shift)) == "redo"
    assert keys.action(EDITOR, _event(pygame.K_SPACE)) == "mark"  # the editor's, not turn
    assert keys.action(EDITOR, _event(pygame.K_v)) == "turn"  # the game's
    assert keys.action(EDITOR, _event(pygame.K_KP3)) == "put_3"
    assert keys.action(GAME, _event(pygame.K_RIGHT)) == "right"
    assert keys.action(GAME, _event(pygame.K_SPACE)) == "turn"
    assert keys.action(GAME, _event(pygame.K_ESCAPE)) == "back"


def test_a_rebound_key_shows_as_rebound_in_play_the_help_and_the_editor(make_app):
    app = make_app(open_level(1))
    assert "V turn" in written(app)
    app.progress.bind_key("turn", "g")
    app.keys_changed()
    app.tick(DT)
    app.tick(DT)  # (a frame that traced the room leaves a new HUD to the next)
    assert "G turn · Z undo" in written(app) and "V turn" not in written(app).split("\n")[-2]
    assert "V turn · Z undo" not in written(app)
    play = app.scene
    assert isinstance(play, Play)
    press(app, pygame.K_h)  # the help panel
    assert "G: turn to the next view" in written(app)
    press(app, pygame.K_ESCAPE)  # (any key but the help's closes it, and does nothing else)
    press(app, pygame.K_g)  # and G turns the view
    assert play.sight.turning
    # the editor: its strip names G, G turns, V no longer does
    app.edit()
    app.tick(DT)
    app.tick(DT)
    editor = app.scene
    assert isinstance(editor, Editor)
    assert "G turn · Z / Y" in written(app) and "V turn" not in written(app)
    assert "(G turns)" in written(app)
    press(app, pygame.K_v)
    assert not editor.sight.turning
    press(app, pygame.K_g)
    assert editor.sight.turning


@pytest.mark.parametrize("action, key", [("undo", pygame.K_u), ("restart", pygame.K_t)])
def test_the_win_panel_names_the_keys_as_bound(make_app, action, key):
    app = make_app(open_level(1))
    app.progress.bind_key(action, pygame.key.name(key))
    app.keys_changed()
    play = app.scene
    play.play_moves(levels_solution(1))
    for _ in range(600):
        app.tick(DT)
        if play.won:
            break
    app.tick(DT)
    assert play.won
    label = pygame.key.name(key).upper()
    word = {"undo": "undo", "restart": "play again"}[action]
    assert f"{label} {word}" in written(app)


def levels_solution(n: int):
    from anabasis.engine import solver
    from anabasis.formats import levels

    return solver.solve(levels.load_level(n)).moves


# -- the menus', the editor's and a text field's keys: one keymap, named as bound ------------


def rebind(app, **keys):
    """The app's keymap with ``keys`` (action -> its one key) bound, the rest as they are."""
    app.keymap = Keymap({**app.progress.keys, **{a: [k] for a, k in keys.items()}})
    for _ in range(3):  # (a frame that warmed or traced leaves a new HUD to the next)
        app.tick(DT)


def test_the_menus_keys_come_from_the_keymap_and_show_as_bound(make_app):
    from anabasis.app.menus.keys_screen import KeysScreen
    from anabasis.app.menus.launcher import Launcher

    app = make_app()
    launcher = app.scene
    assert isinstance(launcher, Launcher)
    app.tick(DT)
    app.tick(DT)
    assert "Up/Down choose · Left/Right columns · Enter open · 1-7 a level" in written(app)
    assert "Esc quit" in written(app)
    rebind(app, choose="k", menu_down="j", open_3="f8")
    hint = [t for t in app.overlay.written if "choose" in t][-1]
    assert "Up/J choose" in hint and "K open" in hint and "Enter open" not in hint
    assert "1-7 a level" in hint  # (the first and the last as bound)
    press(app, pygame.K_RETURN)  # no longer "choose" here: nothing opens
    assert app.scene is launcher
    launcher.selected = 0
    press(app, pygame.K_j)
    assert launcher.selected == 1
    press(app, pygame.K_k)  # K opens the chosen line: level 2
    assert isinstance(app.scene, Play) and app.scene.opened.level == 2
    app.to_launcher()
    press(app, pygame.key.key_code("f8"))
    assert isinstance(app.scene, Play) and app.scene.opened.level == 3
    # the keys screen: its line names the keys as bound, and they act
    app.to_launcher()
    app.show_keys(0)
    screen = app.scene
    assert isinstance(screen, KeysScreen)
    rebind(app, choose="k", default="f7", leave="f6")
    hint = [t for t in app.overlay.written if "rebind" in t][-1]
    assert hint == "Up/Down choose · K rebind · F7 default · F6 back"
    press(app, pygame.K_k)
    assert screen.capturing
    app.tick(DT)
    assert any("· Esc cancels ·" in t for t in app.overlay.written)  # Esc: always the way out
    press(app, pygame.K_ESCAPE)
    assert not screen.capturing and app.scene is screen
    press(app, pygame.key.key_code("f6"))
    assert isinstance(app.scene, Launcher)


def test_a_text_fields_keys_come_from_the_keymap_and_show_as_bound(make_app):
    app = make_app()
    launcher = open_code_box(app)
    rebind(app, field_done="f5", paste="f4")
    assert "F5 opens · F4 pastes · Esc cancels" in written(app)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="nonsense"))
    press(app, pygame.K_RETURN)  # no longer done here: the field stays
    assert launcher.typing and launcher.error == ""
    press(app, pygame.key.key_code("f5"))
    assert launcher.typing and launcher.error.startswith("not a room code")
    press(app, pygame.K_ESCAPE)
    assert not launcher.typing


def test_the_editors_keys_come_from_the_keymap_and_show_as_bound(make_app):
    from anabasis.app.editor.draft import Draft
    from anabasis.app.editor.scene import EditTarget

    app = make_app()
    app.edit(EditTarget(Draft.new(), None))
    app.tick(DT)
    editor = app.scene
    assert isinstance(editor, Editor)
    rebind(app, mark="f3", name="f9", fill="home", field_done="f5", **{"cursor_x+": "l"})
    text = written(app)
    assert "F3 box corner" in text and "Space box corner" not in text
    assert "no box: F3 marks a corner here" in text
    assert "(F9 names it)" in text
    assert "Up/Down/Left/L cursor x, y" in text and "Ctrl+cursor keys" not in text
    before = editor.cursor
    press(app, pygame.K_l)
    assert editor.cursor[0] == before[0] + 1
    press(app, pygame.key.key_code("f3"))
    assert editor.mark == editor.cursor
    assert "then Home fills it, X clears it" in editor.message
    press(app, pygame.key.key_code("f9"))  # the name's field, whose keys show as bound
    assert editor.field == "name"
    app.tick(DT)
    assert "F5 keeps it · Esc cancels" in written(app)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="mine"))
    press(app, pygame.key.key_code("f5"))
    assert editor.field is None and editor.draft.name == "mine"
