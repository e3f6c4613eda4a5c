"""Starting the game: rooms named on the command line, the demo, no display.

Every test drives :class:`anabasis.app.routes.App` the way a player does:
it posts pygame events and steps the loop a frame at a time with a fixed
time step.  Nothing is mocked.  Without a display or GL these tests skip,
unless ANABASIS_REQUIRE_GL=1 (CI), where that is a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from anabasis.app import OpenError
from anabasis.cli import build_parser
from anabasis.formats import levels


def test_a_bad_level_or_code_is_refused_before_any_window(display):
    from anabasis import app as game

    for argv in (["--level", "99"], ["--room", "Dxyz"], ["--level", "1", "--size", "big"]):
        with pytest.raises(OpenError):
            game.main(build_parser().parse_args(argv))
        assert not pygame.display.get_init()
    run = subprocess.run([sys.executable, "-m", "anabasis", "--level", "99"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "no level 99" in run.stderr


def test_the_demo_wins_level_1(display, tmp_path):
    env = dict(os.environ, ANABASIS_DATA_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "anabasis", "--level", "1", "--demo"],
                         capture_output=True, text=True, timeout=90, env=env)
    par = levels.load_level(1).par
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == f"won: {par} moves (par {par})"
    assert "warning" not in run.stderr


def test_the_command_line_names_rooms_before_any_window():
    from anabasis.app import opened_from_args
    from anabasis.formats import codes

    def opened(*argv):
        return opened_from_args(build_parser().parse_args(list(argv)))

    assert opened() is None  # the launcher
    assert opened("--level", "3").level == 3
    two = opened("--level", "2.4")  # a later chapter's level, by chapter and number
    assert (two.chapter, two.level) == (2, 4)
    assert two.room == levels.load_from(2, 4)
    room = levels.load_level(4)
    by_code = opened("--room", codes.encode(room))
    assert by_code.kind == "room" and by_code.room.cells == room.cells
    with pytest.raises(OpenError):
        opened("--level", "2", "--room", codes.encode(room))
    made = opened("--gen", "easy.k")
    assert made.kind == "gen" and made.tier == "easy" and made.room.view == "stand"
    daily = opened("--daily", "2026-11-29")
    assert daily.kind == "daily" and "2026-11-29" in daily.title
    for bad in (("--gen", "weird.1"), ("--gen", "easy"), ("--daily", "2026-13-45")):
        with pytest.raises(OpenError):
            opened(*bad)
    with pytest.raises(OpenError, match="YYYY-MM-DD, or nothing for today"):
        opened("--daily", " ")
    with pytest.raises(OpenError, match="^the room code is empty"):
        opened("--room", "  ")
    assert not pygame.display.get_init()


def test_without_a_display_the_game_says_so_instead_of_running_unseen():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    run = subprocess.run([sys.executable, "-m", "anabasis", "--level", "1"],
                         capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2
    assert "no display" in run.stderr or "OpenGL" in run.stderr
