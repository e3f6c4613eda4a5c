"""``anabasis bench`` play section: frame times while the seven levels are played.

A player's session, at the real clock: the launcher idles for two seconds
(as a player reads it), then each level is opened from the launcher and its
shortest solution is played by arrow keys, each move waiting for the last to
come to rest.  The figures are the game's own per-frame work (``App.frame_log``:
events, update, draw and buffer swap; frames that compiled a shader variant
excluded) in a 1280 x 720 window on this machine's GL:

- ``play.frame_median_ms``, ``play.frame_p99_ms``, ``play.frame_max_ms``;
- ``play.frames_over_16_7``: how many frames took longer than 1/60 s, of
  ``play.frames``.

- ``play.scene_part_min``: the least internal size the window fell to, as a part of its
  default pixels (1: it never lowered it).

The same session is then played twice more, side by side in the one run: with the slice
map and the step marks on in every level (``play.reading_on.*``), and with both off
(``play.reading_off.*``); the default session has them where the settings' "auto" puts
them.

It runs in a child process (``python -m anabasis.bench.play``), under the
bench's own Xvfb where there is no display, so that its window and GL
context never meet the render bench's headless one.  ``anabasis.bench.play_loaded``
plays the same session with a CPU-bound process running beside it (:func:`session`
with ``burners=1``).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ARROWS = ("up", "down", "left", "right")


#: The settings each reading run plays with: (slice map, step marks).
READING = {"on": ("on", "on"), "off": ("off", "held")}


def _play_session(reading: str | None = None) -> dict:
    import pygame

    from anabasis.app.routes import App
    from anabasis.engine import solver
    from anabasis.formats import levels
    from anabasis.picture import views

    keys = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT,
            "right": pygame.K_RIGHT}

    def press(key: int) -> None:
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))

    least = [1.0]

    def live(seconds: float, until_rest: bool = False) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if until_rest and not app.scene.busy:
                return
            app.tick()
            least[0] = min(least[0], app.window.pixel_budget / default)

    with tempfile.TemporaryDirectory() as data:
        app = App(size=(1280, 720), data_dir=data)
        if reading is not None:
            app.progress.slice_map, app.progress.step_marks = READING[reading]
        default = app.window.pixel_budget
        live(2.0)
        least[0] = 1.0
        app.frame_log.clear()
        frames: list[float] = []
        for n in range(1, levels.count() + 1):
            press(pygame.K_0 + n)
            app.tick()
            play = app.scene
            mark = len(app.frame_log)
            for move in solver.solve(play.room).moves:
                sight = play.sight
                arrow = next(a for a in ARROWS
                             if views.arrow_to_move(sight.basis(), sight.camera.yaw, a) == move)
                press(keys[arrow])
                app.tick()
                live(10.0, until_rest=True)
                live(0.05)
            live(0.3)
            frames += [ms for ms, warmed in list(app.frame_log)[mark:] if not warmed]
            app.frame_log.clear()
            press(pygame.K_ESCAPE)
            live(0.3)
        app.close()
    frames.sort()
    return {
        "play.frame_median_ms": statistics.median(frames),
        "play.frame_p99_ms": frames[min(len(frames) - 1, int(len(frames) * 0.99))],
        "play.frame_max_ms": frames[-1],
        "play.frames_over_16_7": sum(ms > 1000 / 60 for ms in frames),
        "play.frames": len(frames),
        "play.scene_part_min": round(least[0], 3),
    }


#: A process that only burns one core, for the loaded run.
BURNER = "while True: pass"


def session(prefix: str = "play", burners: int = 0, reading: str | None = None):
    """Play the session in a child process and yield its figures, named ``prefix.*``;
    ``burners`` CPU-bound processes run beside it all the while."""
    from anabasis.bench import xvfb

    with xvfb.display_for(dict(os.environ)) as env:
        if env is None:
            print(f"{prefix}: skipped (no DISPLAY and no Xvfb)", file=sys.stderr)
            return
        env.update(SDL_AUDIODRIVER=env.get("SDL_AUDIODRIVER", "dummy"),
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        burning = [subprocess.Popen([sys.executable, "-c", BURNER]) for _ in range(burners)]
        try:
            done = subprocess.run([sys.executable, "-m", "anabasis.bench.play",
                                   *([reading] if reading else [])], env=env,
                                  capture_output=True, text=True, timeout=300)
        finally:
            for p in burning:
                p.kill()
                p.wait()
    if done.returncode != 0:
        raise RuntimeError(f"the {prefix} bench failed: {done.stderr.strip()[-300:]}")
    for name, value in json.loads(done.stdout.strip().splitlines()[-1]).items():
        yield prefix + name[len("play"):], value


def bench():
    """Yield ``(name, value)`` figures for ``anabasis bench``."""
    yield from session()
    for reading in READING:
        yield from session(f"play.reading_{reading}", reading=reading)


if __name__ == "__main__":
    print(json.dumps(_play_session(sys.argv[1] if len(sys.argv) > 1 else None)))
