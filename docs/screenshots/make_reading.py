"""Window screenshots with the slice map on, for docs/game.md's "Reading a room".

    python docs/screenshots/make_reading.py

Opens the game in a 800 x 450 window (under its own Xvfb where there is no display),
plays to each position by key presses, and keeps the window as drawn (F12's picture):
level 1, level 3 on a ramp, level 7 in each view, and a hard made room, its map large (as
a made room opens) and in the corner (B).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZE = (800, 450)


def main() -> int:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    proc = None
    if not os.environ.get("DISPLAY"):
        from anabasis.bench import xvfb

        proc, name = xvfb.start()
        os.environ["DISPLAY"] = name
    try:
        shots(Path(tempfile.mkdtemp()))
    finally:
        if proc is not None:
            from anabasis.bench import xvfb

            xvfb.stop(proc)
    return 0


def shots(data: Path) -> None:
    import pygame

    from anabasis import gen
    from anabasis.app.play.session import open_level, opened_made
    from anabasis.app.routes import App
    from anabasis.picture import views

    (data / "progress.json").write_text('{"version": 1, "slice_map": "on"}')
    app = App(size=SIZE, data_dir=data)
    app.view_tips = 0  # (a tip's panel over the room: not what these show)

    def tick(n=1):
        for _ in range(n):
            app.tick(1 / 30)

    def key(k):
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=k, mod=0, unicode="", scancode=0))
        tick()

    def settle():
        for _ in range(400):
            if not app.scene.busy:
                break
            tick()
        tick(4)

    def moves(text):
        arrows = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT,
                  "right": pygame.K_RIGHT}
        for move in text:
            play = app.scene
            arrow = next(a for a in arrows if views.arrow_to_move(
                play.sight.basis(), play.sight.camera.yaw, a) == move)
            key(arrows[arrow])
            settle()

    def keep(name):
        app.scene.message_left = 0.0
        tick(12)  # (at rest a while: the room drawn sharp, at the window's own size)
        shutil.copy(app.screenshot(), HERE / f"{name}.png")
        print(name, file=sys.stderr)

    app.open(open_level(1))
    settle()
    keep("reading-level1")
    app.open(open_level(3))
    settle()
    moves("RR")
    keep("reading-level3-on-a-ramp")
    app.open(open_level(7))
    settle()
    for view in ("stand", "w-up", "both"):
        keep(f"reading-level7-{view}")
        key(pygame.K_v)
        settle()
    app.open(opened_made(gen.build("hard", 1)))
    settle()
    keep("reading-hard-room-large-map")  # (a made room opens on it)
    key(pygame.K_b)  # the room, the map in its corner
    settle()
    keep("reading-hard-room")
    app.close()


if __name__ == "__main__":
    sys.exit(main())
