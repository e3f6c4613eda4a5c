"""The daily board's line in the settings screen, in a real window: none, this machine or a
typed URL, saved with the progress at once, and the session's link to the board remade."""

from __future__ import annotations

import pygame
from window import press

from anabasis.app.menus.launcher import Launcher
from anabasis.app.menus.settings import SettingsScreen
from anabasis.app.settings import progress as progress_mod


def type_text(app, text: str) -> None:
    """What SDL's text input sends for ``text``, then a frame."""
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.tick(1 / 60)


def board_line(app) -> SettingsScreen:
    press(app, pygame.K_o)  # the settings key, in the launcher too
    screen = app.scene
    assert isinstance(screen, SettingsScreen)
    while screen.items[screen.selected].name != "board":
        press(app, pygame.K_DOWN)
    return screen


def saved(tmp_path) -> str:
    return progress_mod.Progress.load(tmp_path).board


def test_the_board_line_cycles_none_and_this_machine_saved_at_once(make_app, tmp_path):
    app = make_app()
    assert isinstance(app.scene, Launcher)
    screen = board_line(app)
    assert screen.shown("board") == "none" and app.daily_board.url is None
    first = app.daily_board
    press(app, pygame.K_RIGHT)
    assert saved(tmp_path) == "local" and screen.shown("board") == "this machine"
    assert app.daily_board is not first and app.daily_board.url == "http://127.0.0.1:8765"
    press(app, pygame.K_RIGHT)  # no URL known yet: back to none
    assert saved(tmp_path) == "none" and app.daily_board.url is None
    press(app, pygame.K_LEFT)
    assert saved(tmp_path) == "local"
    # the other lines are as they were: one board line, before "back"
    names = [line.name for line in screen.items]
    assert names.count("board") == 1 and names[-1] == "back"
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, Launcher)


def test_a_typed_url_is_kept_if_it_is_one_and_offered_among_the_choices(make_app, tmp_path):
    app = make_app()
    screen = board_line(app)
    press(app, pygame.K_RETURN)  # Enter on the board's line: type a URL
    assert screen.typing and screen.shown("board") == "https://_"
    muted = app.sound.muted
    press(app, pygame.K_m, unicode="m")  # M is text while typing, not the mute key
    assert app.sound.muted == muted
    for _ in range(len("https://")):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "ftp://board.example.org")
    press(app, pygame.K_RETURN)  # not a board: said, still typing, nothing saved
    assert screen.typing and screen.status.startswith("not a board")
    assert saved(tmp_path) == "none" and app.daily_board.url is None
    for _ in range(len("ftp://board.example.org")):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "https://board.example.org/")
    press(app, pygame.K_RETURN)
    assert not screen.typing
    assert saved(tmp_path) == "https://board.example.org"
    assert app.daily_board.url == "https://board.example.org"
    assert screen.shown("board") == "https://board.example.org"
    # the URL is now a choice beside none and this machine
    press(app, pygame.K_RIGHT)
    assert saved(tmp_path) == "none"
    press(app, pygame.K_RIGHT)
    assert saved(tmp_path) == "local"
    press(app, pygame.K_RIGHT)
    assert saved(tmp_path) == "https://board.example.org"
    # Esc while typing leaves the setting as it was, and the screen open
    press(app, pygame.K_RETURN)
    type_text(app, "/elsewhere")
    press(app, pygame.K_ESCAPE)
    assert not screen.typing and app.scene is screen
    assert saved(tmp_path) == "https://board.example.org"
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, Launcher)
