"""``anabasis bench`` play_loaded section: the play session with a CPU-bound process beside it.

The same seven levels at the real clock as ``play.*`` (:mod:`anabasis.bench.play`), while
one other process burns a core the whole time, as a player's browser or build would:
``play_loaded.frame_median_ms``, ``.frame_p99_ms``, ``.frame_max_ms``,
``.frames_over_16_7`` of ``.frames``, and ``.scene_part_min`` (how far the window
lowered its internal size to keep up).
"""

from __future__ import annotations

from anabasis.bench import play


def bench():
    """Yield ``(name, value)`` figures for ``anabasis bench``."""
    yield from play.session("play_loaded", burners=1)
