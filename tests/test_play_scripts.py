"""Recorded play as data: each ``tests/play/*.txt`` opens a room, presses keys, and says
what must follow (PuzzleScript's way of keeping a game's behaviour: a run of inputs and
what they lead to, as text).

A script is lines of ``word: value`` (``#`` starts a comment):

- ``open: level N`` (or ``open: code CODE``): the room to play;
- ``press: R D <z>``: in turn, an arrow that means move ``R`` on screen now (the
  engine's move letters), or the key of that pygame name in ``<...>``; each is played
  to rest;
- ``cues: step fall``: the cues the last press fired (a press of several: each of them);
- ``message: ...``, ``message starts: ...``, ``no message``: the line on screen;
- ``quiet``: the message of the moment cleared (so that the next line is seen anew);
- ``status: won``, ``moves: 5``, ``at start``: the game's state.

One runner plays them all in the real window, as a player would.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from anabasis.app.play import cues
from anabasis.app.play.scene import Play
from anabasis.app.play.session import open_code, open_level
from anabasis.picture import views

DT = 1 / 30
SCRIPTS = sorted((Path(__file__).parent / "play").glob("*.txt"))
ARROWS = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT,
          "right": pygame.K_RIGHT}


def read(path: Path) -> list[tuple[int, str, str]]:
    """The script's steps: (line number, word, value)."""
    steps = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, value = line.partition(":")
        steps.append((n, word.strip(), value.strip()))
    return steps


def _key(play: Play, token: str) -> int:
    if token.startswith("<") and token.endswith(">"):
        return pygame.key.key_code(token[1:-1])
    for arrow, key in ARROWS.items():
        if views.arrow_to_move(play.sight.basis(), play.sight.camera.yaw, arrow) == token:
            return key
    raise AssertionError(f"no arrow means {token} in view {play.sight.view}")


def _press(app, key: int) -> list[str]:
    """One key pressed and released, played to rest; the cues it fired."""
    play = app.scene
    play.fired.clear()
    played = len(app.sound.played)
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
    app.tick(DT)
    for _ in range(400):
        if not (isinstance(app.scene, Play) and app.scene.busy):
            break
        app.tick(DT)
    else:
        raise AssertionError("the game never came to rest")
    fired = list(play.fired)
    # every cue is heard too (or would be: the sounds asked for are the cues' own)
    assert list(app.sound.played)[played:] == [cues.SOUND.get(k, k) for k in fired]
    return fired


def run(app, path: Path) -> None:
    play = None
    start = None
    fired: list[list[str]] = []
    for n, word, value in read(path):
        where = f"{path.name}:{n}"
        if word == "open":
            kind, _, what = value.partition(" ")
            app.open(open_level(int(what)) if kind == "level" else open_code(what))
            app.tick(DT)
            play = app.scene
            start = play.game.state
        elif word == "press":
            fired = [_press(app, _key(play, token)) for token in value.split()]
        elif word == "cues":
            want = value.split()
            assert all(f == want for f in fired), f"{where}: fired {fired}, not {want}"
        elif word == "message":
            assert play.message == value and play.message_left > 0, f"{where}: {play.message!r}"
        elif word == "message starts":
            assert play.message.startswith(value) and play.message_left > 0, \
                f"{where}: {play.message!r}"
        elif word == "no message":
            assert play.message_left <= 0, f"{where}: said {play.message!r}"
        elif word == "quiet":
            play.message_left = 0
        elif word == "status":
            assert play.game.status == value, f"{where}: {play.game.status}"
        elif word == "moves":
            assert play.game.moves == int(value), f"{where}: {play.game.moves} moves"
        elif word == "at start":
            assert play.game.state == start, f"{where}: not at the start"
        else:
            raise AssertionError(f"{where}: no such step {word!r}")


def test_there_are_scripts_and_every_step_is_one_the_runner_knows():
    assert len(SCRIPTS) >= 4
    known = {"open", "press", "cues", "message", "message starts", "no message", "quiet",
             "status", "moves", "at start"}
    for path in SCRIPTS:
        steps = read(path)
        assert steps and steps[0][1] == "open", path.name
        assert {word for _, word, _ in steps} <= known, path.name


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_a_recorded_play(make_app, path):
    app = make_app()
    run(app, path)


def test_the_runner_fails_a_script_whose_expectation_is_wrong(make_app, tmp_path):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("open: level 1\npress: R\ncues: step\n")  # it is step, then fall
    app = make_app()
    with pytest.raises(AssertionError, match="wrong.txt:3"):
        run(app, wrong)
