"""Rooms made to order: seeds, terrain, crate placements searched on state graphs, proofs.

One idea per module:

- :mod:`~anabasis.gen.seeds`: GEN, the tiers and their texts, seeds and specs, today's room;
- :mod:`~anabasis.gen.prng`: the random numbers (SplitMix64);
- :mod:`~anabasis.gen.terrain`: plazas, ramps, dips, shafts, decoys, holes; the 4D room;
- :mod:`~anabasis.gen.depth`: the state-graph measures and the depth score;
- :mod:`~anabasis.gen.proofs`: impossible without ramps, without crates; spare crates;
- :mod:`~anabasis.gen.builder`: the search, the gates, :class:`Made`;
- :mod:`~anabasis.gen.pool`: building off the game's thread.

See ``docs/gen.md``.
"""

from anabasis.gen.builder import MAX_TRIES, Made, build, build_spec, gates, subtitle
from anabasis.gen.depth import Depth, live_states, measure, random_walk
from anabasis.gen.pool import build_async, shutdown
from anabasis.gen.proofs import (
    Walkthrough,
    decoy,
    needs_crates,
    needs_ramps,
    out_of_reach_without_ramps,
    spare_crates,
    walk_through,
)
from anabasis.gen.seeds import (
    GEN,
    MAX_SEED,
    SEED_DIGITS,
    TIER,
    TIER_TEXT,
    TIERS,
    GenError,
    Tier,
    daily_seed,
    parse_seed,
    parse_spec,
    room_name,
    seed_text,
    today,
)

__all__ = [
    "GEN", "MAX_SEED", "MAX_TRIES", "SEED_DIGITS", "TIER", "TIER_TEXT", "TIERS", "Depth",
    "GenError", "Made", "Tier", "Walkthrough", "build", "build_async", "build_spec",
    "daily_seed", "decoy", "gates", "live_states", "measure", "needs_crates", "needs_ramps",
    "out_of_reach_without_ramps", "parse_seed", "parse_spec", "random_walk", "room_name",
    "seed_text", "shutdown", "spare_crates", "subtitle", "today", "walk_through",
]
