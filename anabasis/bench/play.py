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
- ``play.sharp_frames`` and ``play.sharp_frame_median_ms``: the frames that drew the room
  once more at the window's own size, at rest (software GL: ``Window.begin_sharp``), and
  their median work; apart from the frame figures above, which are frames of motion.

The same session is then played four times more, side by side in the one run: with the
slice map and the step marks on in every level (``play.reading_on.*``) and with both off
(``play.reading_off.*``), in the order on, off, off, on, so that neither setting has the
machine's earlier or later minutes to itself; each setting's figures pool the frames of
its two sessions.  Beside them:

- ``play.reading_on_over_off``: the median frame with both on over the median with both
  off;
- ``play.reading_noise``: the larger of the two settings' own spreads, the median of one
  session over its twin's, less 1: how far two runs of the same setting differ here.  A
  ratio whose distance from 1 is within it is within this machine's noise.

The default session has them where the settings' "auto" puts them.

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
        app.sharp_log.clear()
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
        sharp = list(app.sharp_log)
        app.close()
    return {**figures(frames), "play.scene_part_min": round(least[0], 3),
            "play.sharp_frames": len(sharp),
            "play.sharp_frame_median_ms": round(statistics.median(sharp), 2) if sharp else 0,
            "frames_ms": [round(ms, 3) for ms in frames]}


def figures(frames: list[float]) -> dict:
    """The frame figures of ``frames`` (each frame's work in ms).

    >>> figures([4.0, 20.0, 5.0])["play.frames_over_16_7"]
    1
    """
    frames = sorted(frames)
    return {
        "play.frame_median_ms": statistics.median(frames),
        "play.frame_p99_ms": frames[min(len(frames) - 1, int(len(frames) * 0.99))],
        "play.frame_max_ms": frames[-1],
        "play.frames_over_16_7": sum(ms > 1000 / 60 for ms in frames),
        "play.frames": len(frames),
    }


#: A process that only burns one core, for the loaded run.
BURNER = "while True: pass"


def session(prefix: str = "play", burners: int = 0, reading: str | None = None):
    """Play the session in a child process and yield its figures, named ``prefix.*``;
    ``burners`` CPU-bound processes run beside it all the while."""
    played = _played(prefix, burners, reading)
    if played is not None:
        for name, value in played.items():
            if name != "frames_ms":
                yield prefix + name[len("play"):], value


def _played(prefix: str, burners: int = 0, reading: str | None = None) -> dict | None:
    """The child's figures and frames (``frames_ms``); None where there is no display."""
    from anabasis.bench import xvfb

    with xvfb.display_for(dict(os.environ)) as env:
        if env is None:
            print(f"{prefix}: skipped (no DISPLAY and no Xvfb)", file=sys.stderr)
            return None
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
    return json.loads(done.stdout.strip().splitlines()[-1])


#: The order the reading sessions are played in: each setting once early and once late.
ORDER = ("on", "off", "off", "on")


def side_by_side(runs: list[tuple[str, dict]]) -> dict:
    """The reading figures of ``runs`` (``(setting, the child's figures)`` in the order
    played): each setting's figures over its sessions' frames pooled, the ratio of the
    medians and the noise (see the module's text).

    >>> a = {"frames_ms": [10.0, 10.0], "play.scene_part_min": 1.0}
    >>> b = {"frames_ms": [11.0, 11.0], "play.scene_part_min": 0.5}
    >>> out = side_by_side([("on", b), ("off", a), ("off", a), ("on", a)])
    >>> out["play.reading_on.frame_median_ms"], out["play.reading_on.scene_part_min"]
    (10.5, 0.5)
    >>> out["play.reading_on_over_off"], out["play.reading_noise"]
    (1.05, 0.1)
    """
    out: dict = {}
    medians: dict[str, list[float]] = {}
    for setting in dict.fromkeys(s for s, _ in runs):
        mine = [r for s, r in runs if s == setting]
        pooled = figures([ms for r in mine for ms in r["frames_ms"]])
        for name, value in pooled.items():
            out[f"play.reading_{setting}{name[len('play'):]}"] = value
        out[f"play.reading_{setting}.scene_part_min"] = min(
            r["play.scene_part_min"] for r in mine)
        medians[setting] = [statistics.median(r["frames_ms"]) for r in mine]
    on, off = (statistics.median([ms for s, r in runs if s == k for ms in r["frames_ms"]])
               for k in ("on", "off"))
    out["play.reading_on_over_off"] = round(on / off, 3)
    out["play.reading_noise"] = round(max(max(m) / min(m) - 1 for m in medians.values()), 3)
    return out


def bench():
    """Yield ``(name, value)`` figures for ``anabasis bench``."""
    yield from session()
    runs = []
    for setting in ORDER:
        played = _played(f"play.reading_{setting}", reading=setting)
        if played is None:
            return
        runs.append((setting, played))
    yield from side_by_side(runs).items()


if __name__ == "__main__":
    print(json.dumps(_play_session(sys.argv[1] if len(sys.argv) > 1 else None)))
