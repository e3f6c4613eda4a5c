"""Each screen's HUD is drawn from one frozen value made per frame, and drawn again exactly
when that value changes: the editor's (``EditorShown``), the keys screen's (``KeysShown``),
the plain menus' (``MenuShown``), as play's (``Shown``) and the launcher's
(``LauncherShown``) are in ``test_play_window.py`` and ``test_launcher.py``.

Real window, real events, as in the other window tests.
"""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from conftest import DT
from window import press

from anabasis.app.editor import hud as editor_hud
from anabasis.app.editor.draft import Draft
from anabasis.app.editor.scene import Editor, EditTarget
from anabasis.app.menus import keys_screen, menu


def _ticks(app, n=3):
    for _ in range(n):  # (a frame that traced or warmed leaves a new HUD to the next)
        app.tick(DT)


@pytest.mark.parametrize("value", [editor_hud.EditorShown, keys_screen.KeysShown,
                                   menu.MenuShown])
def test_each_hud_value_is_frozen(value):
    assert dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen


def test_the_editors_hud_redraws_for_a_message_and_when_it_goes(make_app):
    app = make_app()
    app.edit(EditTarget(Draft.new(), None))
    ed = app.scene
    assert isinstance(ed, Editor)
    for _ in range(int(8 / DT)):  # the opening line has gone: the HUD at rest
        app.tick(DT)
    ed.prover.wait()  # (the proofs, worked out in a process of their own: done)
    _ticks(app)
    drawn = app.overlay.version
    _ticks(app)
    assert app.overlay.version == drawn  # at rest: not drawn again
    ed.say("fresh words in the editor", "info", 0.5)
    _ticks(app)
    assert "fresh words in the editor" in app.overlay.written
    for _ in range(int(1 / DT)):
        app.tick(DT)
    assert "fresh words in the editor" not in app.overlay.written  # gone with its time
    press(app, pygame.K_RIGHT)  # the cursor moves: the panel's x redrawn
    _ticks(app)
    assert f"x {ed.cursor[0]}" in app.overlay.written


def test_the_editors_hud_redraws_mid_turn(make_app):
    app = make_app()
    app.edit(EditTarget(Draft.new(), None))
    ed = app.scene
    _ticks(app)
    press(app, pygame.K_v)
    versions = []
    for _ in range(6):
        app.tick(DT)
        versions.append(app.overlay.version)
    assert ed.sight.turning and len(set(versions)) > 2  # the outlines follow the turn


def test_the_keys_screen_redraws_for_its_status_line(make_app):
    app = make_app()
    app.show_keys(0)
    screen = app.scene
    assert isinstance(screen, keys_screen.KeysScreen)
    _ticks(app)
    screen.say("a status line on the keys screen")
    _ticks(app)
    assert "a status line on the keys screen" in app.overlay.written
    screen.say("another status line")
    _ticks(app)
    assert "another status line" in app.overlay.written
    assert "a status line on the keys screen" not in app.overlay.written


def test_the_make_a_room_menu_redraws_for_its_error_line(make_app):
    from anabasis.app.menus.rooms import RoomsMenu

    app = make_app()
    rooms = RoomsMenu(app)
    app.switch(rooms)
    _ticks(app)
    assert any("saves one here" in t for t in app.overlay.written)
    rooms.say("an error to read")
    _ticks(app)
    assert "an error to read" in app.overlay.written
