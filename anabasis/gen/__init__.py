"""Rooms made to order: seeds, terrain, crate placements searched on state graphs, proofs.

One idea per module:

- :mod:`~anabasis.gen.seeds`: GEN, the tiers and their texts, seeds and specs, today's room;
- :mod:`~anabasis.gen.prng`: the random numbers (SplitMix64);
- :mod:`~anabasis.gen.motifs`: the motif library, each motif's trick, the tiers' recipes;
- :mod:`~anabasis.gen.terrain`: plazas at levels in w and z, the motifs laid as a chain; the room;
- :mod:`~anabasis.gen.depth`: the state-graph measures, the tricks of every shortest solution;
- :mod:`~anabasis.gen.proofs`: impossible without ramps, crates, w's gravity; spare crates;
- :mod:`~anabasis.gen.builder`: the search, the gates, :class:`Made`;
- :mod:`~anabasis.gen.pool`: building off the game's thread.

See ``docs/gen.md``.
"""

from anabasis.gen.builder import (
    MAX_TRIES,
    Made,
    build,
    build_spec,
    gates,
    recipe,
    resolve_source,
    subtitle,
)
from anabasis.gen.depth import TRICKS, Depth, every_shortest, live_states, measure, random_walk
from anabasis.gen.motifs import MOTIFS, TRICKS_OF, motif_set, recipe_for, recipes
from anabasis.gen.pool import build_async, shutdown
from anabasis.gen.proofs import (
    Walkthrough,
    decoy,
    needs_crates,
    needs_gravity_w,
    needs_ramps,
    out_of_reach_without_gravity_w,
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
    is_spec,
    parse_seed,
    parse_spec,
    room_name,
    seed_text,
    today,
)

__all__ = [
    "Depth", "GEN", "GenError", "MAX_SEED", "MAX_TRIES", "MOTIFS", "Made", "SEED_DIGITS", "TIER",
    "TIERS", "TIER_TEXT", "TRICKS", "TRICKS_OF", "Tier", "Walkthrough", "build", "build_async",
    "build_spec", "daily_seed", "decoy", "every_shortest", "gates", "live_states", "measure",
    "is_spec", "motif_set", "resolve_source", "needs_crates", "needs_gravity_w", "needs_ramps",
    "out_of_reach_without_gravity_w", "out_of_reach_without_ramps", "parse_seed", "parse_spec",
    "random_walk", "recipe", "recipe_for", "recipes", "room_name", "seed_text", "shutdown",
    "spare_crates", "subtitle", "today", "walk_through",
]
