"""The game at rest: an idle launcher draws nothing, and an unseen run keeps no window size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pygame
from conftest import DT


def _idle_until_warm(app, most: int = 600) -> None:
    """Tick the launcher, idle, until the ray tracer's variants are all compiled."""
    for _ in range(most):
        if app.warm_done:
            return
        app.tick(DT)
    raise AssertionError("the launcher's warm-up did not finish")


def _frames_drawn(app, seconds: float) -> tuple[int, int]:
    """Live ticks for ``seconds`` of wall time: (frames ticked, frames that swapped)."""
    ticked = drawn = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.tick()
        ticked += 1
        drawn += app.window.swapped
    return ticked, drawn


def test_the_idle_launcher_draws_nothing_when_nothing_changes(make_app):
    app = make_app()
    assert app.scene.name == "launcher"
    _idle_until_warm(app)
    app.tick(DT)  # the frame after the last compile shows its backdrop again
    ticked, drawn = _frames_drawn(app, 1.0)
    assert ticked >= 20, ticked  # the loop ran on, paced, for the whole second
    assert drawn == 0, f"{drawn} of {ticked} idle frames were drawn"
    # a key that changes what it shows is drawn at once, and then it rests again
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0,
                                         unicode="", scancode=0))
    app.tick(DT)
    assert app.window.swapped
    ticked, drawn = _frames_drawn(app, 0.5)
    assert drawn == 0, f"{drawn} of {ticked} idle frames were drawn after a key"


def test_a_resize_draws_the_launcher_again_once(make_app):
    app = make_app()
    _idle_until_warm(app)
    app.tick(DT)
    app.window.dirty = True  # as a resize or an expose leaves it
    app.tick(DT)
    assert app.window.swapped
    app.tick(DT)
    assert not app.window.swapped


def test_an_unseen_run_keeps_the_saved_window_size(tmp_path):
    # the game's own no-display message suggests SDL_VIDEODRIVER=offscreen; a run so
    # must leave the size the player's real window was saved at
    (tmp_path / "progress.json").write_text(json.dumps({"window": [800, 600]}))
    env = dict(os.environ, ANABASIS_DATA_DIR=str(tmp_path), SDL_VIDEODRIVER="offscreen",
               SDL_AUDIODRIVER="dummy", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-m", "anabasis", "--level", "1", "--demo",
                           "--size", "1024x720"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("won: ")
    saved = json.loads((tmp_path / "progress.json").read_text())
    assert saved["window"] == [800, 600]
