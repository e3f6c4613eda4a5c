"""``anabasis bench`` startup section: process start to the first frame drawn.

Each launch is a fresh ``python -m anabasis`` with ``ANABASIS_FIRST_FRAME=1``:
the game opens its window, draws one frame, waits for the GL to finish it
(``ctx.finish()``), prints ``first-frame`` and exits.  The figure is the
wall time in this process from just before the spawn to reading that line,
so it covers the interpreter's own start, the imports, the window, the GL
context, the shader compile and the draw.  Median of 5.  Where there is no
display, an Xvfb is started for the bench (and stopped after).

- ``startup.first_frame_ms``: ``anabasis`` (the launcher), what a player runs;
- ``startup.level_first_frame_ms``: ``anabasis --level 1``, which also compiles
  the ray tracer and uploads the room.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

LAUNCHES = 5


def first_frame_ms(args: list[str], env: dict) -> float:
    """One launch: milliseconds from spawn to the ``first-frame`` line."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "anabasis", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    t1 = time.perf_counter()
    _, err = proc.communicate(timeout=60)
    if line.strip() != "first-frame":
        raise RuntimeError(f"the game did not draw a first frame: {err.strip()[-300:]}")
    return (t1 - t0) * 1000.0


def bench():
    """Yield ``(name, value)`` figures for ``anabasis bench``."""
    from anabasis.bench import xvfb

    with xvfb.display_for(dict(os.environ)) as env, tempfile.TemporaryDirectory() as data:
        if env is None:
            print("startup: skipped (no DISPLAY and no Xvfb)", file=sys.stderr)
            return
        env.update(ANABASIS_FIRST_FRAME="1", ANABASIS_DATA_DIR=data,
                   SDL_AUDIODRIVER=env.get("SDL_AUDIODRIVER", "dummy"),
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        for name, args in (("startup.first_frame_ms", []),
                           ("startup.level_first_frame_ms", ["--level", "1"])):
            first_frame_ms(args, env)  # warm the file cache: the figure is a warm start
            times = [first_frame_ms(args, env) for _ in range(LAUNCHES)]
            yield name, statistics.median(times)

if __name__ == "__main__":
    for name, value in bench():
        print(f"{name}: {value:.4g}")
