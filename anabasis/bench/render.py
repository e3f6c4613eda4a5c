"""``anabasis bench``, render section: frame times of the slice shader on a headless context.

- ``render.plain_ms_640x360``: the baseline, a bare 4D DDA with flat shading (``PLAIN``);
- ``render.full_ms_640x360`` and ``render.full_ms_1280x720``: the real shader with
  everything on (shading, occlusion, fog, goal, ghosts, cutaways, the player),
  mid-turn from stand to w-up so that the slice is oblique;
- ``render.full_vs_plain``: full over plain at 640x360, in the same run.

Each figure is the median of ``FRAMES`` frames after a warm-up, each frame
timed to ``ctx.finish()``.  The room is a 12x10x6x8 terrace landscape
(the size the design's measurements used), the camera at its default.
Without a GL context the section yields ``render.skipped: 1``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import numpy as np

from anabasis.engine import cells
from anabasis.engine.world import Room, State
from anabasis.picture.render import NoGLError, Offscreen, Pose, Renderer, headless_context
from anabasis.picture.views import Camera

FRAMES = 25
WARMUP = 3


def bench_room() -> Room:
    """A 12x10x6x8 room of terraces: ground whose height in z and w varies, ramps, a crate."""
    X, Y, Z, W = 12, 10, 6, 8
    grid = np.zeros((W, Z, Y, X), np.uint8)  # indexed [w, z, y, x]: the room's flat order
    grid[:, 0] = cells.BLOCK
    for x in range(X):
        for y in range(Y):
            top_w = 2 + (x * 3 + y * 5) % 4          # the kata ground: solid up to this slice
            top_z = 1 + ((x // 3 + y // 2) % 3)      # and this high in z
            grid[:top_w, :top_z + 1, y, x] = cells.BLOCK
            if (x + 2 * y) % 7 == 0:
                grid[top_w, 1, y, x] = cells.RAMP_XP if x % 2 else cells.RAMP_YN
    player = (5, 4, 4, 6)
    grid[6, 1:, 4, 5] = cells.EMPTY  # the player's column, over a block at z = 3
    grid[6, 3, 4, 5] = cells.BLOCK
    grid[6, 4, 4, 6] = cells.EMPTY
    return Room((X, Y, Z, W), grid.tobytes(), (6, 4, 4, 6), State.of(player, [(5, 4, 5, 6)]))


def frame_times(ctx, renderer: Renderer, pose: Pose, size, variants) -> list[float]:
    """The median frame time (ms) at ``size`` of each ``#define`` variant, frames interleaved.

    The variants take turns frame by frame, so that a busy machine slows them alike.
    """
    target = Offscreen(ctx, size)
    target.fbo.use()
    times: list[list[float]] = [[] for _ in variants]
    for i in range(WARMUP + FRAMES):
        for k, variant in enumerate(variants):
            start = time.perf_counter()
            renderer.draw(pose, (0, 0, *size), variant=variant)
            ctx.finish()
            if i >= WARMUP:
                times[k].append((time.perf_counter() - start) * 1000.0)
    target.release()
    return [statistics.median(t) for t in times]


def bench() -> Iterator[tuple[str, float]]:
    """Yield the ``render.*`` figures (or ``render.skipped`` without a GL context)."""
    try:
        ctx = headless_context()
    except NoGLError:
        yield "render.skipped", 1
        return
    try:
        room = bench_room()
        renderer = Renderer(ctx, room)
        pose = Pose(tuple(float(c) for c in room.start.player), "stand", "w-up", 0.5, Camera())
        plain, full = frame_times(ctx, renderer, pose, (640, 360), [{"PLAIN"}, set()])
        yield "render.plain_ms_640x360", plain
        yield "render.full_ms_640x360", full
        yield "render.full_ms_1280x720", frame_times(ctx, renderer, pose, (1280, 720), [set()])[0]
        yield "render.full_vs_plain", full / plain
        renderer.release()
    finally:
        ctx.release()
