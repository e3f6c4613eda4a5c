"""Fuzzing the game in a real window: any run of keys, text and the mouse, through play, the
launcher, the code field, the keys screen and the editor.  Real GL and events, as in
the other ``test_*_window.py`` files; apart so that they run beside them."""

from __future__ import annotations

import pygame
import pytest
from conftest import DT, SIZE
from window import press, settle

from anabasis.app.menus.launcher import Launcher
from anabasis.app.play.session import open_level
from anabasis.engine import rules
from anabasis.formats import levels


@pytest.mark.parametrize("level,seed", [(3, 1), (6, 2), (7, 3)])
def test_any_run_of_keys_in_a_room_keeps_the_game_to_its_rules(make_app, level, seed):
    """A fuzz of play in the window: moves, turns, the camera, undo, restart, hints, help,
    the sound keys, a mouse drag and the wheel, in any order, each key let to settle.  Nothing
    may raise, the room is always drawn, and each change of the game's state is one the rules
    make: a move the engine takes from the state before, an undo back to a state seen, or a
    restart to the start."""
    import random

    rng = random.Random(seed)
    room = levels.load_level(level)
    app = make_app(open_level(level))
    settle(app)
    play = app.scene
    names = (["up", "down", "left", "right"] * 6 + ["v", "q", "e", "z", "z", "r", "/", "h",
                                                     "m", "-", "=", "c"])
    seen = {(play.game.state, play.game.status)}
    before = (play.game.state, play.game.status, play.game.moves)
    for _ in range(70):
        if rng.random() < 0.08:
            pos = (rng.randrange(SIZE[0]), rng.randrange(SIZE[1]))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
            end = (rng.randrange(SIZE[0]), rng.randrange(SIZE[1]))
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=end, buttons=(1, 0, 0),
                                                 rel=(end[0] - pos[0], end[1] - pos[1])))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-1, 1])))
            app.tick(DT)
        else:
            press(app, pygame.key.key_code(rng.choice(names)))
        settle(app)
        assert app.scene is play and app._renderer is not None
        game = play.game
        now = (game.state, game.status, game.moves)
        if now[:2] != before[:2] or now[2] != before[2]:
            if now[2] == before[2] + 1:  # a move: one the engine takes from where it was
                assert any(
                    r.moved and (r.state, r.status) == now[:2]
                    for r in (rules.step(room, before[0], m) for m in rules.STEPS)), now
            elif now[2] == 0 and now[0] == game.first:
                pass  # a restart (or undone back to the start)
            else:  # an undo: back to a state the game was in
                assert now[2] < before[2] and now[:2] in seen, (before, now)
        seen.add(now[:2])
        before = now
        if game.status == "won":
            break


@pytest.mark.parametrize("seed", [11, 12])
def test_any_run_of_keys_and_text_from_the_launcher_keeps_the_game_up(make_app, seed):
    """A fuzz of the whole game from its launcher: the keys each screen takes, and some it
    does not, typed text of any kind (a room code, nonsense, other scripts), Backspace and
    Ctrl+V, through levels, made rooms, the code field, the keys screen and the editor, and
    back.  Nothing may raise; whenever the game quits (Esc at the launcher, or "quit"), it is
    opened again, as a player would."""
    import random

    from anabasis.formats import codes

    rng = random.Random(seed)
    app = make_app()
    texts = [codes.encode(levels.load_level(2)), "not a code", "ÅÄÖ ж 漢字 ✓", "%$#@!" * 9, ""]
    menu = ["up", "down"] * 6 + ["left", "right", "return", "return", "space", "escape", "3"]
    room = ["up", "down", "left", "right"] * 3 + list("zrvqeh/m") + ["escape"] * 3
    edit = (["up", "down", "left", "right", "page up", "[", "]"] + list("0123456789")
            + list("fxzywdvc") + ["space", "delete", "escape"])
    other = ["up", "down", "return", "escape", "a", "backspace"]
    visited = set()
    for _ in range(300):
        if not app.running:
            app = make_app()
        scene = type(app.scene).__name__
        visited.add(scene + ("/typing" if getattr(app.scene, "typing", False) else ""))
        keys_ = {"Launcher": menu, "Play": room, "Editor": edit}.get(scene, other)
        roll = rng.random()
        if roll < 0.08 or getattr(app.scene, "typing", False) and roll < 0.5:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=rng.choice(texts)))
            app.tick(DT)
        elif roll < 0.1:
            press(app, pygame.K_v, pygame.KMOD_CTRL)
        else:
            press(app, pygame.key.key_code(rng.choice(keys_)))
        for _ in range(rng.choice([0, 0, 1, 5])):  # sometimes let it run a little
            if app.running:
                app.tick(DT)
    assert {"Launcher", "Play", "Editor"} <= visited
    # and the code field, typed into at any length, pasted into, opened
    if not app.running or not isinstance(app.scene, Launcher):
        app = make_app()
    launcher = app.scene
    code = next(i for i, item in enumerate(launcher.items) if item.action == ("code",))
    for _ in range(40):
        if not isinstance(app.scene, Launcher):
            press(app, pygame.K_ESCAPE)
        if app.running and not app.scene.typing:
            app.scene.activate(code)
        roll = rng.random()
        if roll < 0.6:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=rng.choice(texts)))
            app.tick(DT)
        else:
            press(app, *rng.choice([(pygame.K_BACKSPACE,), (pygame.K_v, pygame.KMOD_CTRL),
                                    (pygame.K_RETURN,), (pygame.K_ESCAPE,)]))
        if not app.running:
            app = make_app()
