"""``anabasis bench`` section ``edit``: how soon the editor's proofs update after an edit.

Each figure is the time from handing a draft to the editor's
:class:`~anabasis.app.play.proofs.Prover` (as an edit does) to its last answer,
through the worker process the editor uses, best of a few runs:

- ``edit.proof_ms.N``: level N (its answer, each rule it uses switched
  off, and the hook);
- ``edit.proof_ms.bench``: the solver's bench room (10 x 8 x 4 x 5, three
  crates, 120,699 states, impossible: one exhaustive search);
- ``edit.proof_ms.bench_goal``: the same room with its goal where it can be
  reached in 39 moves, to the first answer (solvable, par, moves), and
  ``edit.proof_ms.bench_goal.all`` to the last (the rules switched off, and
  the hook, whose search is three times the room's);
- ``edit.proof_ms.hook``: that room again as a hook room (``hook: yes``: the
  hook a move, par 27, its par search some 295,000 states), to the first
  answer, and ``edit.proof_ms.hook.all`` to the last (the rules switched off
  with the hook a move, and ``needs: hook``, the search without it);
- ``edit.proof_ms``: the worst first answer of all these.

Target: 500 ms or less for all the proofs of a 10 x 8 x 4 x 5 room with
three crates (``edit.proof_ms.bench_goal.all``), a hook room's too
(``edit.proof_ms.hook.all``).  In the window an edit's
workers start once its frame is shown (``App.after_frame``): at most a
frame (1/60 s) after the edit, which these figures leave out.

And the editor's frames while it proves: a session at the real clock in a
1280 x 720 window on the ``bench_goal`` room, an edit (made inside a
frame, as a key press makes it) and a cursor step every 0.25 s (each edit
starts a proof, and ends the one before), the
camera orbiting (Q held) for a second of it.  The figures are the game's
own per-frame work (``App.frame_log``, frames that compiled a shader
variant left out), as ``play.frame_*`` are for play:
``edit.frame_median_ms``, ``edit.frame_p99_ms``, ``edit.frame_max_ms``,
``edit.frames_over_16_7`` of ``edit.frames``.  It runs in a child process
(``python -m anabasis.bench.edit``) under the bench's own Xvfb.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace

#: Where the bench room's goal goes for the solvable variant: par 39.
BENCH_GOAL = (4, 7, 1, 2)


def _timed(prover, text: str) -> tuple[float, float]:
    """(ms to the first answer, ms to the last) for proving ``text``."""
    prover.text = None  # prove it again, although the text is the same
    began = time.perf_counter()
    prover.start(text)
    first = None
    while prover.busy:
        prover.poll()
        if first is None and prover.proofs.status != "proving":
            first = time.perf_counter()
        time.sleep(0.001)
    last = time.perf_counter()
    if first is None:
        first = last
    return (first - began) * 1000.0, (last - began) * 1000.0


def _edit_session(seconds: float = 6.0) -> dict:
    import pygame

    from anabasis.app.editor.draft import Draft
    from anabasis.app.editor.scene import EditTarget
    from anabasis.app.routes import App
    from anabasis.bench.solver import bench_room

    def post(kind: int, key: int) -> None:
        pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))

    room = replace(bench_room(), goal=BENCH_GOAL)
    with tempfile.TemporaryDirectory() as data:
        app = App(size=(1280, 720), data_dir=data, edit=EditTarget(Draft.of_room(room)))
        ed = app.scene
        end = time.perf_counter() + 1.5  # the first frames compile the shader's variants
        while time.perf_counter() < end:
            app.tick()
        # each edit is made inside a frame, as a key press or a click is, so that what it
        # costs (the new draft, starting its proofs) counts in that frame's time
        edits: list = []
        update = ed.update

        def update_and_edit(dt: float) -> None:
            while edits:
                ed.put(*edits.pop())
            update(dt)

        ed.update = update_and_edit
        app.frame_log.clear()
        began = time.perf_counter()
        next_edit, n = began, 0
        while time.perf_counter() - began < seconds:
            now = time.perf_counter()
            if now >= next_edit:
                n += 1
                edits.append(("#" if n % 2 else ".", (9, 7, 3, 4)))  # far from the climb
                key = pygame.K_RIGHT if (n // 4) % 2 else pygame.K_LEFT
                post(pygame.KEYDOWN, key)
                post(pygame.KEYUP, key)
                next_edit = now + 0.25
            t = now - began
            if 2.0 <= t < 3.0 and "orbit_left" not in ed.camera_input.held:
                post(pygame.KEYDOWN, pygame.K_q)
            elif t >= 3.0 and "orbit_left" in ed.camera_input.held:
                post(pygame.KEYUP, pygame.K_q)
            app.tick()
        frames = sorted(ms for ms, warmed in app.frame_log if not warmed)
        app.close()
    return {
        "edit.frame_median_ms": round(statistics.median(frames), 2),
        "edit.frame_p99_ms": round(frames[min(len(frames) - 1, int(len(frames) * 0.99))], 2),
        "edit.frame_max_ms": round(frames[-1], 2),
        "edit.frames_over_16_7": sum(ms > 1000 / 60 for ms in frames),
        "edit.frames": len(frames),
    }


def _frames() -> Iterator[tuple[str, object]]:
    from anabasis.bench import xvfb

    with xvfb.display_for(dict(os.environ)) as env:
        if env is None:
            print("edit: frames skipped (no DISPLAY and no Xvfb)", file=sys.stderr)
            return
        env.update(SDL_AUDIODRIVER=env.get("SDL_AUDIODRIVER", "dummy"),
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
        done = subprocess.run([sys.executable, "-m", "anabasis.bench.edit"], env=env,
                              capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"the editor's frame bench failed: {done.stderr.strip()[-300:]}")
    yield from json.loads(done.stdout.strip().splitlines()[-1]).items()


def bench(runs: int = 3) -> Iterator[tuple[str, object]]:
    from anabasis.app.editor.draft import Draft
    from anabasis.app.play.proofs import Prover
    from anabasis.bench.solver import bench_room
    from anabasis.formats import levels

    rooms = [(f"edit.proof_ms.{n}", levels.load_level(n)) for n in range(1, levels.count() + 1)]
    rooms.append(("edit.proof_ms.bench", bench_room()))
    rooms.append(("edit.proof_ms.bench_goal", replace(bench_room(), goal=BENCH_GOAL)))
    rooms.append(("edit.proof_ms.hook", replace(bench_room(), goal=BENCH_GOAL, hook=True)))
    prover = Prover()
    try:
        prover.start("warm the fork server up")
        prover.wait()
        worst = 0.0
        for name, room in rooms:
            text = Draft.of_room(room).text()
            times = [_timed(prover, text) for _ in range(runs)]
            first = min(t[0] for t in times)
            last = min(t[1] for t in times)
            worst = max(worst, first)
            if prover.proofs.status not in ("solved", "impossible"):
                raise AssertionError(f"{name}: the proofs came to {prover.proofs}")
            if name.endswith(("bench_goal", ".hook")):
                yield name, round(first, 1)
                yield name + ".all", round(last, 1)
            else:
                yield name, round(last, 1)
        yield "edit.proof_ms", round(worst, 1)
    finally:
        prover.close()
    yield from _frames()


if __name__ == "__main__":
    print(json.dumps(_edit_session()))
