"""``anabasis bench`` section ``gen``: how long a made room takes, and what it asks of a player.

Build time: each tier builds the rooms of :data:`SEEDS`, one at a time,
timed with ``perf_counter``; the figures are the median and the 95th
percentile per tier (targets for hard: ``gen.hard_median_ms <= 150``,
``gen.hard_p95_ms <= 600``), and the same in CPU time (``_cpu_``), which
other work on a shared machine does not stretch.

Depth (``gen.depth.TIER.*``): the same rooms, each measured on its whole
state graph; the medians over the seeds of reachable states, the dead-state
share, the share of 200 random walkers (300 moves each) that win, box lines
and box changes in the shortest solution, and forks on it; and the share
of rooms with a dead state and of rooms that end higher than they start.

What every shortest solution does (GEN 3), as shares of the rooms whose
*every* shortest solution has it, checked on the whole graph
(:func:`anabasis.gen.depth.every_shortest`): ``slip_share`` (a deliberate
slip kata), ``climb_z_share`` (a climb in z), ``crate_climb_share`` (a
climb onto a crate), ``crate_fall_w_share`` (a crate falling kata),
``ramp_down_share`` (a ramp taken down); ``needs_gravity_w``, the share
of rooms the exhaustive search proves impossible without w's gravity;
``motif_sets`` and ``shapes``, how many distinct motif sets and distinct
chains (motifs in order) the seeds gave; ``route_share``, the share of
rooms with a route (two ways up a slice, the other one longer);
``after_last_fork`` and ``after_last_push`` and ``after_last_trap``, the
medians of the moves of the shortest solution after its last real fork
(:func:`anabasis.gen.depth.real_fork`: another way on at most two moves
longer, where one of the two pushes a crate or changes the slice), after
its last push, and after the last state on it where some move leads to a
dead state.  And today's
room over the two weeks of :data:`DAYS` (``gen.depth.daily.*``): distinct
shapes and motif sets, how many share a shape with a hard room above, and
the slip and climb shares.  The targets are in
``docs/gen.md``.
"""

from __future__ import annotations

import datetime
import statistics
import time
from collections.abc import Iterator

from anabasis import gen
from anabasis.engine import solver
from anabasis.gen import proofs

SEEDS = range(30)


def percentile(sorted_values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 1) of sorted values."""
    rank = max(1, -(-int(q * 100) * len(sorted_values) // 100))  # ceil(q * n), at least 1
    return sorted_values[min(rank, len(sorted_values)) - 1]


def built(tier: str, seeds=SEEDS) -> tuple[list[float], list[float], list[gen.Made]]:
    """Build times in milliseconds, wall and CPU (each sorted), and the rooms, one per seed.

    The wall time is what a player waits; the CPU time is this process's
    own, which a machine busy with other work does not stretch.
    """
    times, cpu, rooms = [], [], []
    for seed in seeds:
        t0, c0 = time.perf_counter(), time.process_time()
        rooms.append(gen.build(tier, seed))
        times.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return sorted(times), sorted(cpu), rooms


def depth(rooms: list[gen.Made]) -> dict[str, float]:
    """The depth figures of some made rooms (medians and shares)."""
    walks = []
    for made in rooms:
        graph = solver.explore(made.room, max_states=gen.TIER[made.tier].max_states,
                               losses=True)
        walks.append(gen.random_walk(graph, 200, 300, seed=made.seed))
    ds = [m.depth for m in rooms]
    n = len(ds)
    return {
        "states": statistics.median(d.states for d in ds),
        "dead_share": statistics.median(d.dead_share for d in ds),
        "with_dead": sum(d.dead > 0 for d in ds) / n,
        "walker_wins": statistics.median(walks),
        "box_lines": statistics.median(d.lines for d in ds),
        "box_changes": statistics.median(d.changes for d in ds),
        "forks": statistics.median(d.forks for d in ds),
        "solution": statistics.median(d.solution for d in ds),
        "higher": sum(d.climb >= 1 for d in ds) / n,
        "slip_share": sum(d.does("slip") for d in ds) / n,
        "climb_z_share": sum(d.does("climb") for d in ds) / n,
        "crate_climb_share": sum(d.does("crate climb") for d in ds) / n,
        "crate_fall_w_share": sum(d.does("crate falls in w") for d in ds) / n,
        "ramp_down_share": sum(d.does("ramp down") for d in ds) / n,
        "needs_gravity_w": sum(proofs.needs_gravity_w(m.room) for m in rooms) / n,
        "motif_sets": len({m.motifs for m in rooms}),
        "shapes": len({m.chain for m in rooms}),
        "route_share": sum(bool(m.routes) for m in rooms) / n,
        "after_last_fork": statistics.median(d.after_fork for d in ds),
        "after_last_push": statistics.median(d.after_push for d in ds),
        "after_last_trap": statistics.median(d.after_trap for d in ds),
    }


#: Today's rooms the bench builds: two weeks from this day.
DAYS = [datetime.date(2026, 12, 1) + datetime.timedelta(days=k) for k in range(14)]


def bench() -> Iterator[tuple[str, float]]:
    chains = {}
    for tier in gen.TIERS:
        ms, cpu, rooms = built(tier)
        chains[tier] = {m.chain for m in rooms}
        yield f"gen.{tier}_median_ms", percentile(ms, 0.5)
        yield f"gen.{tier}_p95_ms", percentile(ms, 0.95)
        yield f"gen.{tier}_cpu_median_ms", percentile(cpu, 0.5)
        yield f"gen.{tier}_cpu_p95_ms", percentile(cpu, 0.95)
        for name, value in depth(rooms).items():
            yield f"gen.depth.{tier}.{name}", float(value)
    # today's room: a hard room, each day its own mix (not the shape of a hard room above)
    days = [gen.build("hard", gen.daily_seed(day)) for day in DAYS]
    ds = [m.depth for m in days]
    yield "gen.depth.daily.shapes", float(len({m.chain for m in days}))
    yield "gen.depth.daily.motif_sets", float(len({m.motifs for m in days}))
    yield "gen.depth.daily.same_shape_as_hard", float(sum(m.chain in chains["hard"] for m in days))
    yield "gen.depth.daily.slip_share", sum(d.does("slip") for d in ds) / len(ds)
    yield "gen.depth.daily.climb_z_share", sum(d.does("climb") for d in ds) / len(ds)
