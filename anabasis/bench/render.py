"""``anabasis bench``, render section: frame times of the slice shader on a headless context.

- ``render.plain_ms_640x360``: the baseline, a bare 4D DDA with flat shading (``PLAIN``);
- ``render.full_ms_640x360`` and ``render.full_ms_1280x720``: the real shader with
  everything on (shading, occlusion, fog, goal, cutaways, the player), mid-turn from
  stand to w-up so that the slice is oblique; the ghost as the game draws it (left out:
  the player stands in the last slice ana, so it has nothing to show);
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

from anabasis.engine.world import Room
from anabasis.picture.render import NoGLError, Offscreen, Pose, Renderer, headless_context
from anabasis.picture.views import Camera

FRAMES = 25
WARMUP = 3


def bench_room() -> Room:
    """The 12x10x6x8 room of terraces (``rooms/render.txt``): ground whose height in z and w
    varies, ramps, a crate."""
    from anabasis.bench import room

    return room("render")


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
