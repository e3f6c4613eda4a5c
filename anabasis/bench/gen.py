"""``anabasis bench`` section ``gen``: how long a made room takes to build and prove.

Each tier builds the rooms of seeds 0 to 29, one at a time, timed with
``perf_counter``; the figures are the median per tier and, for hard, the
95th percentile (the 29th of 30, sorted).  The targets are
``gen.hard_median_ms <= 100`` and ``gen.hard_p95_ms <= 500``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from anabasis import gen

SEEDS = range(30)


def times_ms(tier: str, seeds=SEEDS) -> list[float]:
    """Build times in milliseconds, sorted, one per seed."""
    out = []
    for seed in seeds:
        t0 = time.perf_counter()
        gen.build(tier, seed)
        out.append((time.perf_counter() - t0) * 1000.0)
    return sorted(out)


def percentile(sorted_values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 1) of sorted values."""
    rank = max(1, -(-int(q * 100) * len(sorted_values) // 100))  # ceil(q * n), at least 1
    return sorted_values[min(rank, len(sorted_values)) - 1]


def bench() -> Iterator[tuple[str, float]]:
    for tier in gen.TIERS:
        ms = times_ms(tier)
        yield f"gen.{tier}_median_ms", percentile(ms, 0.5)
        if tier == "hard":
            yield "gen.hard_p95_ms", percentile(ms, 0.95)
