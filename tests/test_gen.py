"""The generator: seeds, the PRNG, determinism, frozen rooms, and every made room proved.

The proofs and the gates are re-checked here from scratch, from the room
code, by the exhaustive solver and the state graph: the generator's own
quick checks (the flood, the placement filters) are not trusted.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from dataclasses import replace
from functools import cache

import pytest

from anabasis import cli, gen
from anabasis.engine import rules, solver
from anabasis.engine.cells import BLOCK, RAMP_LEAN
from anabasis.engine.world import MAX_SIZE, Room, State
from anabasis.formats import codes, levelfile
from anabasis.gen import builder, motifs, terrain
from anabasis.gen.prng import MASK64, SplitMix64, derive, mix64

#: A sample of seeds per tier, proved again from their codes (the bench measures 30).
SEEDS = range(6)

#: Frozen vectors: spec -> (solution length, room code).  If one fails, the
#: generator now builds another room for that seed: bump gen.GEN, then
#: write the new vectors here (``anabasis gen SPEC`` prints them).
FROZEN = [
    ("easy.0", 12, "DDK4WEzwUxOOTLkQOjN1Gg0uGudXrUuLmAxfMQe0xwQlY0duakrRNIo7gKLtu"),
    ("easy.k3x9", 17, "DCq4WD5jb5NEFeNr6Rh6uP15HES_xFuX3l3KMohNO8AIlE-kEmnPwlfQs"),
    ("easy.zz", 17, "DDq4WEVzq29ymY3WQCD7I2M8RXQdDMLpBLQiQBMlye7H9v-apeKdwHRRo1O"),
    ("medium.1", 26, "DDwoWDvxBlKHFNYUYsHSsToACzFsemjVG-rf_qCLlpq-__n-9XEC6-98vvr32A1bBdbuwM_Sc"),
    ("medium.k3x9", 19,
     "DEu4VU-3OAubEUn2695SEMRRjM5-qtNUxiH7zjpZ5amJnIxOfD19g2suAdyagMsH3wpT7eex6XJlV9tSxmcCPka"),
    ("medium.anabasis", 22,
     "DDu6WB8G1tq4Rq-KW86xajt6cgTguv2N_vblCeQkA_d0mPI5K24JPMVNG51-DV9xlyihX27ezjaCCg1u"),
    ("hard.2", 40,
     "DE28Vge2YcGc-A-7bJce_ECX-wj-b1fLw1b2Lqrt_oEpda4OpudGIn2GDXZK5eLQqkQkPh7dV95dTBLhQe9HU5qTCY-p"
     "3Ws3C95ks0h8KFU0T"),
    ("hard.k3x9", 39,
     "DFU6VSKAT7C8_6nfNq_HtCeX2_UL-ev4USwrhjR37jy_UPCgGdf_bCOO0-sHn8e4FEL8nR1G5vuwMqKzq3QHOvymcRWj"
     "dM7oN_bh-1hvfT5HuU_hI"),
    ("hard.3w5e11264sgsf", 39,
     "DEw4VqdfuJwISRpGWwphkSJs16QkrSmn5pDq8L_MiswB8jfMOTS8t2bi8IWWtEBAs_l2MZWlNCQ2vh_dyhK_PbAoFNia"
     "zAR"),
    ("daily.2026-11-29", 32,
     "DE06UpdDRbFj3_knQu1B2qHUiSMhn1iOuEen4aZRH4lmBkb4ZPSxmk1IH0SagOUk-tXH-deDAIfDWhwJs5zhVJEeS4fZ"
     "DkkQNGFiR-9FgtJwVluUJxVU"),
    ("daily.2027-01-01", 44,
     "DE24V_7TRGC3eF8TBVMakeZmx1O1PF0Q0t8VDwETj7RpN1M8RIRY4Jpj2DAjAL3Cc7Vggl4T-pJO8SEfPKZBj5Mn9jRt"
     "JElZVQTDrmlvRX4_fld-R"),
]
FROZEN_GEN = 3  #: the GEN the vectors above were written with

#: Codes GEN 2 made (the seeds named), with their pars: a code is the room, so it opens
#: the same room for good, whatever the generator now builds for that seed.
GEN2_CODES = [
    (12, "DDKXWF0r10L8-qywQz7g1c4pjKOBMmR7krkwJWAj"),  # easy.0
    (10, "DDIVWF4HcWZQnXYY0zOSyGazeaM1GlSa1"),  # easy.k3x9
    (11, "DCsZVVBxHyxgofIHQQQC4uEq_E2eDMGeKD__FaIjbwTjWn"),  # easy.zz
    (16, "DDMXWGxqvSEJqiF9zYZz8ANLk09D2KcdtL2V9bHO"),  # medium.1
    (20, "DDsZWDOQtrh67JeVFwzcd-rj1To9JMfA1Um93EaqLWOQ6dS4"),  # medium.k3x9
    (21, "DDsZVxf4BB84P0E9TeWSq7PM_ZGCn3b-nxxvkDyb196h7U3C3C"),  # medium.anabasis
    (34, "DDubWD-XwdThfT3lb_j4X81XDFktbz_yhw5xIYtev725oNyYgE0VydNFn"),  # hard.2
    (35, "DEQZTZYuaDzKv2p8OyjIaxG7LRZkE2UifHhbaeRJtt2bady4wxuWkE_Qse76gmvEaQXP"),  # hard.k3x9
    (40, "DEQbWCFsTfOud2ClzHq_YBja5_EvC6Zl9BEJ7oGPgYgodCpkWI4pqsb06TMip76"),  # hard.3w5e11264sgsf
    # daily.2026-11-29
    (38, "DEybWAR-899Nxg0nI-qlb0ZVnz5d3Qbk3pfhs3Ipnw9mn0_iAakJJkHWAIqhz1yk9m19lZtNDJheWTI"),
    # daily.2027-01-01
    (34, "DEybV-MAat7hjFiwistdzbBLKq9qjkkT89_h5Wx6O4S02v_lkHmotMLg08c4CLoJBqdMSPN-VQLT"),
]

#: Codes the first generator (GEN 1) made, with their pars: codes are the room,
#: so they open the same rooms for good, whatever the generator does now.
GEN1_CODES = [
    (6, "DBGU2ZmgLQo6mx-mQNWkW"),
    (14, "DCqW2Jc5nECY6gc4cVAQr7YdW_anBoKDpY_O4g"),
    (23, "DCuW2JYYIu4Oy2SDMTbBWmK_srg3gTGCoEq4r_uICgd9s"),
    (19, "DCsW2FYsR_6XiQDFmNO5J4I-LcSesSQd47wzbe9tYkaI"),
]


@cache
def made(tier: str, seed: int) -> gen.Made:
    return gen.build(tier, seed)


def bare(room: Room) -> Room:
    """The room as a code carries it: no name, hint, par or needs."""
    return replace(room, name="", teaches="", par=None, needs=())


# -- the PRNG ----------------------------------------------------------------------------


def test_splitmix64_known_values():
    rng = SplitMix64(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64(MASK64)  # the state wraps at 2**64
    assert rng.next_u64() == mix64((MASK64 + 0x9E3779B97F4A7C15) & MASK64)


def test_below_stays_in_range_and_hits_every_value():
    rng = SplitMix64(12345)
    seen = [rng.below(7) for _ in range(700)]
    assert set(seen) == set(range(7))
    assert all(40 < seen.count(v) < 160 for v in range(7))
    assert rng.between(3, 3) == 3
    with pytest.raises(ValueError):
        rng.below(0)


def test_draws_are_reproducible():
    a, b = SplitMix64(derive(1, 2, 3)), SplitMix64(derive(1, 2, 3))
    items_a, items_b = list(range(20)), list(range(20))
    a.shuffle(items_a)
    b.shuffle(items_b)
    assert items_a == items_b != list(range(20))
    assert sorted(items_a) == list(range(20))
    assert [a.pick((1, 0, 5)) for _ in range(50)] == [b.pick((1, 0, 5)) for _ in range(50)]
    assert derive(1, 2) != derive(2, 1)
    assert derive(1 << 70) != derive(0)


def test_chance_is_never_and_always_at_the_ends():
    rng = SplitMix64(9)
    assert not any(rng.chance(0.0) for _ in range(200))
    assert all(rng.chance(1.0) for _ in range(200))


# -- seeds and specs ------------------------------------------------------------------------


def test_seeds_are_base_36():
    assert gen.parse_seed("k3x9") == int("k3x9", 36)
    assert gen.parse_seed("K3X9") == int("k3x9", 36)
    assert gen.seed_text(int("k3x9", 36)) == "k3x9"
    assert gen.seed_text(gen.MAX_SEED) == "3w5e11264sgsf"
    for bad in ("", "k3-9", "3w5e11264sgsg", "1" * 14, "é"):
        with pytest.raises(gen.GenError):
            gen.parse_seed(bad)


def test_parse_spec():
    assert gen.parse_spec("easy.0") == ("easy", 0)
    assert gen.parse_spec("Medium.zz") == ("medium", 36 * 36 - 1)
    assert gen.parse_spec("hard.k3x9") == ("hard", int("k3x9", 36))
    assert gen.parse_spec("daily.2026-11-29") == ("hard", 20261129)
    assert gen.parse_spec("daily") == ("hard", gen.daily_seed(gen.today()))
    for bad in ("hard", "hard.", "extreme.1", "daily.2026-02-30", "daily.26-1-1", "easy.1.2"):
        with pytest.raises(gen.GenError):
            gen.parse_spec(bad)


def test_todays_room_is_a_hard_room_seeded_by_the_date():
    assert gen.daily_seed(dt.date(2026, 11, 29)) == 20261129
    assert gen.daily_seed("2027-01-01") == 20270101
    assert gen.today() == dt.datetime.now(dt.timezone.utc).date()
    daily = gen.build_spec("daily.2026-11-29")
    assert daily.tier == "hard"
    assert codes.encode(daily.room) == codes.encode(made("hard", 20261129).room)


# -- determinism and the frozen rooms -----------------------------------------------------------


@pytest.mark.parametrize("spec,length,code", FROZEN)
def test_frozen_rooms(spec, length, code):
    m = gen.build_spec(spec)
    if gen.GEN == FROZEN_GEN:
        assert (len(m.moves), codes.encode(m.room)) == (length, code), (
            f"{spec} now builds another room: bump gen.GEN and refreeze the vectors")
    else:
        pytest.fail(f"gen.GEN is {gen.GEN}: refreeze the vectors and set FROZEN_GEN")


def test_same_seed_same_room():
    for tier in gen.TIERS:
        a, b = gen.build(tier, 77), gen.build(tier, 77)
        assert a == b
        assert codes.encode(a.room) == codes.encode(b.room)
    assert gen.build("hard", 77) != gen.build("hard", 78)


def test_same_room_in_another_process_with_another_hash_seed():
    # Set iteration order changes with PYTHONHASHSEED for strings; the
    # generator must not depend on it (nor on anything but the seed).
    script = ("from anabasis import gen; from anabasis.formats import codes; "
              "print(codes.encode(gen.build('hard', 1234).room))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "4321"}, check=True).stdout
    assert out.strip() == codes.encode(made("hard", 1234).room)


# -- every made room, proved again from its code -------------------------------------------------


def spare_crates(room: Room) -> list:
    """The crates the room can be solved without, one at a time."""
    spare = []
    for c in room.start.crates:
        fewer = replace(room, start=State.of(room.start.player,
                                             [d for d in room.start.crates if d != c]))
        if solver.solve(fewer).status != "impossible":
            spare.append(c)
    return spare


def is_a_trap(room: Room, crate) -> bool:
    """Some dead state has ``crate`` moved and every other crate where it started."""
    graph = solver.explore(room)
    back: dict = {}
    for i, kids in enumerate(graph.children):
        for k in kids:
            back.setdefault(k, []).append(i)
    live = {i for i in range(len(graph)) if graph.won[i]}
    todo = list(live)
    while todo:
        for p in back.get(todo.pop(), ()):
            if p not in live:
                live.add(p)
                todo.append(p)
    pos = graph.tables.pos
    others = [c for c in room.start.crates if c != crate]
    for i in range(len(graph)):
        now = [pos[c] for c in graph.crates(i)]
        if i not in live and crate not in now and all(c in now for c in others):
            return True
    return False


def tricks_of_a_move(room: Room, state: State, after: State) -> set[str]:
    """What one move does, read off the two states (the generator's graph is not asked)."""
    (_x0, _y0, z0, w0), (x1, y1, z1, w1) = state.player, after.player
    out = set()
    below = (x1, y1, z1 - 1, w1)
    if w1 > w0:
        out.add("ramp up")
    elif w1 < w0:
        out.add("ramp down" if w1 == w0 - 1 and room.cell(below) in RAMP_LEAN else "slip")
    if z1 > z0:
        out.add("climb")
        if below in after.crates:
            out.add("crate climb")
    if len(after.crates) == len(state.crates) and (
            sum(c[3] for c in after.crates) < sum(c[3] for c in state.crates)):
        out.add("crate falls in w")
    return out


def every_shortest_solution(room: Room) -> tuple[int, int, set[str]]:
    """(par, the fewest moves that rise in w on any shortest solution, the tricks that every
    shortest solution does), by plain BFS over states.

    Played with rules.step on State values, not the generator's graph: the
    climb and the tricks are checked on every shortest path, not on the one
    solution found.
    """
    everything = {"ramp up", "ramp down", "slip", "climb", "crate climb", "crate falls in w"}
    first = rules.start(room).state
    layer = {first: (0, frozenset())}  # state -> (fewest rises, tricks on every way to it)
    depth = 0
    seen = {first}
    while layer:
        won = [v for s, v in layer.items() if s.player == room.goal]
        if won:
            common = set(everything)
            for _, tricks in won:
                common &= tricks
            return depth, min(r for r, _ in won), common
        nxt: dict = {}
        for state, (rises, tricks) in layer.items():
            for move in "RLDU":
                res = rules.step(room, state, move)
                if not res.moved or res.status == "lost" or res.state in seen:
                    continue
                r = rises + (res.state.player[3] > state.player[3])
                t = tricks | tricks_of_a_move(room, state, res.state)
                if res.state in nxt:
                    old_r, old_t = nxt[res.state]
                    nxt[res.state] = (min(r, old_r), old_t & t)
                else:
                    nxt[res.state] = (r, frozenset(t))
        seen.update(nxt)
        layer = nxt
        depth += 1
    raise AssertionError("no solution")


@pytest.mark.parametrize("tier", gen.TIERS)
def test_made_rooms_pass_their_gates_and_proofs_from_their_codes(tier):
    spec = gen.TIER[tier]
    for seed in SEEDS:
        m = made(tier, seed)
        code = codes.encode(m.room)
        room = codes.decode(code)
        assert codes.encode(room) == code
        assert room == bare(m.room)
        assert all(n <= limit for n, limit in zip(room.size, MAX_SIZE, strict=True))
        assert room.view == "stand" and m.room.name == f"{tier}.{gen.seed_text(seed)}"

        found = solver.solve(room)
        assert found.status == "solved"
        assert found.moves == m.moves and len(m.moves) == m.room.par
        assert spec.band[0] <= len(found.moves) <= spec.band[1] <= 60
        # the proofs, by the exhaustive search
        assert solver.solve(room, without=("ramps",)).status == "impossible", (tier, seed)
        assert solver.solve(room, without=("crates",)).status == "impossible", (tier, seed)
        assert solver.solve(room, without=("gravity-w",)).status == "impossible", (tier, seed)
        assert m.proofs == m.room.needs == ("gravity-w", "ramps", "crates")
        # no spare crate, unless it is a decoy: moved alone, it can leave the room dead
        spare = spare_crates(room)
        assert len(spare) <= 1 and all(is_a_trap(room, c) for c in spare), (tier, seed)
        assert bool(spare) == ("too many" in m.recipe)
        # the gates, measured again on the room's graph
        depth = gen.measure(solver.explore(room))
        assert depth == m.depth
        assert gen.gates(depth, spec) == "", (tier, seed)
        assert depth.states >= spec.min_states and depth.dead > 0
        assert depth.lines >= spec.min_lines and depth.changes >= spec.min_changes
        assert depth.forks >= spec.min_forks
        # the climb: the goal higher than the start, and more ramps than slips
        start = rules.start(room).state.player
        assert room.goal[3] - start[3] == depth.climb >= spec.climb
        run = gen.walk_through(room, m.moves)
        assert run.won and run.ramps - run.slips - run.downs == depth.climb >= spec.climb
        assert (run.ramps, run.slips, run.pushes) == (m.ramps, m.slips, m.pushes)
        # what every shortest solution does: the motifs' tricks and the tier's
        for trick in spec.tricks + gen.motifs.tricks_of(m.chain):
            assert depth.does(trick), (tier, seed, trick)
        assert depth.after_fork <= spec.max_after_fork


@pytest.mark.parametrize("tier", gen.TIERS)
def test_every_shortest_solution_takes_the_climb_and_the_tricks(tier):
    for seed in SEEDS[:2]:
        m = made(tier, seed)
        room = codes.decode(codes.encode(m.room))
        par, rises, tricks = every_shortest_solution(room)
        assert par == m.room.par
        assert rises >= gen.TIER[tier].climb and rises == m.depth.min_ramps
        # the generator's graph and the plain search agree on every trick
        assert tricks == set(m.depth.tricks), (tier, seed)
        assert set(gen.TIER[tier].tricks) | set(motifs.tricks_of(m.chain)) <= tricks


def test_the_subtitle_names_the_room_and_the_recipe_is_true():
    words = ("one", "two", "three", "four")
    for tier in gen.TIERS:
        names, recipes = set(), set()
        for seed in SEEDS:
            m = made(tier, seed)
            assert m.room.teaches == m.subtitle
            # the name spoils nothing: no crate, slip, ledge or count in it
            assert m.subtitle.startswith("the ") and len(m.subtitle.split()) == 3
            assert not any(w in m.subtitle for w in ("crate", "slip", "ledge", "%", "up "))
            d = m.depth
            assert m.recipe.startswith(f"up {words[d.climb - 1]} slice")
            # every claim of the recipe is true of the room
            assert ("slip kata you must take" in m.recipe) == d.does("slip")
            assert ("as a stair" in m.recipe) == ("stair" in m.chain and d.does("crate climb"))
            assert ("a step to climb in z" in m.recipe) == ("step" in m.chain and d.does("climb"))
            assert ("shaft" in m.recipe) == ("shaft" in m.chain) == (d.falls > 0)
            assert ("dip" in m.recipe) == ("dip" in m.chain)
            assert ("ramp to take down" in m.recipe) == ("descent" in m.chain)
            assert "descent" not in m.chain or d.does("ramp down")
            assert str(d.states) in m.recipe
            n = len(m.room.start.crates)
            assert ("too many" in m.recipe) == (n > sum(terrain.GAP_CRATES[k] for k in m.chain
                                                        if k in terrain.GAP_CRATES))
            assert ("ledge" in m.recipe) == bool(m.ledges)
            names.add(m.subtitle)
            recipes.add(m.recipe)
        assert len(recipes) == len(SEEDS), recipes  # not one line for every room of a tier
        assert len(names) >= len(SEEDS) - 2, names


def test_a_ledge_named_is_one_the_player_can_fall_onto_and_not_leave():
    named = 0
    for tier in gen.TIERS:
        for seed in SEEDS:
            m = made(tier, seed)
            if not m.ledges:
                continue
            named += 1
            graph = solver.explore(m.room)
            live = gen.live_states(graph)
            for ledge in m.ledges:
                on = [i for i in range(len(graph)) if graph.position(i)[:2] in ledge]
                assert on, (tier, seed, ledge)  # the player can get there
                assert not any(live[i] for i in on), (tier, seed, ledge)  # and it is a dead end
    assert named


def levels(room: Room) -> dict:
    """Each column's ground: (first open w at its first open z above the floor, that z)."""
    X, Y, Z, W = room.size
    out = {}
    for x in range(X):
        for y in range(Y):
            z = next((z for z in range(1, Z) if any(room.cell((x, y, z, w)) == 0
                                                     for w in range(W))), Z)
            w = next((w for w in range(W) if z < Z and room.cell((x, y, z, w)) == 0), W)
            out[(x, y)] = (w, z)
    return out


@pytest.mark.parametrize("tier", ["medium", "hard"])
def test_made_rooms_have_plazas_with_a_loop(tier):
    # a 2 x 2 square of ground at one level: a crate can be turned there, and walked round
    for seed in SEEDS:
        room = made(tier, seed).room
        h = levels(room)
        X, Y, _, W = room.size
        assert any(0 < h[(x, y)][0] < W and h[(x, y)] == h[(x + 1, y)] == h[(x, y + 1)]
                   == h[(x + 1, y + 1)] for x in range(X - 1) for y in range(Y - 1)), seed


def test_made_room_is_a_landscape_in_four_dimensions():
    for seed in SEEDS[:3]:
        room = made("hard", seed).room
        X, Y, Z, W = room.size
        assert Z >= 3
        # ground in z: columns whose first open cell above the floor is higher than z = 1
        assert any(z > 1 for _w, z in levels(room).values() if z < Z), seed
        # the player stands on the floor or a step, held from kata by the ground in w
        x, y, z, w = rules.start(room).state.player
        assert room.cell((x, y, z, w - 1)) == BLOCK and room.cell((x, y, z - 1, w)) != 0


def test_old_codes_still_open_the_same_rooms():
    for par, code in GEN1_CODES:
        room = codes.decode(code)
        assert codes.encode(room) == code
        found = solver.solve(room)
        assert found.status == "solved" and len(found.moves) == par


def test_gen2_codes_still_open_the_same_rooms():
    for par, code in GEN2_CODES:
        room = codes.decode(code)
        assert codes.encode(room) == code
        found = solver.solve(room)
        assert found.status == "solved" and len(found.moves) == par, code


# -- the motifs, each alone, and variety -----------------------------------------------------


def alone(recipe: tuple[str, ...]):
    """A small room laid along ``recipe`` alone (the easy tier's sizes), its crates placed
    as the builder places them, and its depth: the first of a few draws that lays."""
    spec = gen.TIER["easy"]
    for k in range(200):
        rng = SplitMix64(derive(99, k))
        land = terrain.make(rng, spec, recipe)
        if land is None or (land.gaps and land.goal in land.walkable()):
            continue  # with crates to place: the crates' crossings must be the only ways on
        crates = builder._place(rng, land) if land.gaps else []
        if crates is None:
            continue
        room = land.room("alone", land.start, crates)
        depth = gen.measure(solver.explore(room, max_states=20_000))
        if depth is not None:
            return land, room, depth
    raise AssertionError(f"{recipe}: no room laid")


@pytest.mark.parametrize("motif", ["ramp", "dip", "shaft", "drop", "step", "stair", "descent"])
def test_each_motif_alone_asks_its_trick_of_every_shortest_solution(motif):
    # after a ramp (so that a drop has a slice to fall and a ramp to leave it by)
    recipe = {"drop": ("ramp", "drop", "ramp")}.get(motif, ("ramp", motif))
    land, room, depth = alone(recipe)
    assert land.chain == recipe
    for trick in gen.TRICKS_OF[motif]:
        assert depth.does(trick), (motif, trick, depth.tricks)
    # and the plain search agrees
    _, _, tricks = every_shortest_solution(room)
    assert set(gen.TRICKS_OF[motif]) <= tricks
    if motif == "drop":  # nothing falls kata without w's gravity: the lower plaza is out of reach
        assert solver.solve(room, without=("gravity-w",)).status == "impossible"
        assert gen.out_of_reach_without_gravity_w(room)
    if motif == "stair":
        assert room.size[2] == 4  # the wall two high, and the player on it


def test_recipes_differ_from_seed_to_seed():
    for tier in gen.TIERS:
        listed = gen.recipes(tier)
        assert len(set(listed)) == len(listed) >= 30
        # any run of seeds as long as the list takes each recipe once
        run = [gen.recipe_for(tier, seed) for seed in range(1000, 1000 + len(listed))]
        assert len(set(run)) == len(listed)
        for recipe in listed:  # every recipe asks for the tier's climb, a drop, a crate motif
            downs = recipe.count("drop") + recipe.count("descent")
            ups = recipe.count("ramp") + recipe.count("route")  # a route's way up: a ramp
            assert ups - downs == gen.TIER[tier].climb
            assert "drop" in recipe and {"dip", "shaft", "stair"} & set(recipe)
            if tier != "easy":
                assert {"step", "stair"} & set(recipe)
    # today's room: the hard room of the day's seed, so days in a row take their own mixes
    days = [gen.recipe_for("hard", gen.daily_seed(dt.date(2026, 12, d))) for d in range(1, 15)]
    assert len(set(days)) == 14


def test_made_rooms_of_a_tier_differ():
    for tier in gen.TIERS:
        rooms = [made(tier, seed) for seed in SEEDS]
        assert len({m.chain for m in rooms}) == len(SEEDS)  # no two of the same shape
        assert len({m.motifs for m in rooms}) >= 3
        assert len({codes.encode(m.room) for m in rooms}) == len(SEEDS)


# -- the checks the generator trusts ------------------------------------------------------------


def test_walk_through_counts_ramps_slips_and_pushes():
    m = made("hard", 3)
    run = gen.walk_through(m.room, m.moves)
    assert run.won and run.ramps - run.slips - run.downs == m.depth.climb and run.pushes >= 3
    assert run.slips >= 1  # the drop
    assert min(run.heights) >= 1 and len(run.heights) >= 4
    # a solution cut short does not win, and counts only what it did
    part = gen.walk_through(m.room, m.moves[:2])
    assert not part.won and part.ramps + part.slips <= 2


def test_quick_ramp_proof_says_no_when_there_is_a_way_round():
    # Open a level path round every wall of a made room: without its ramps
    # the goal's slice is then within reach, and the quick proof must not claim otherwise.
    room = made("easy", 4).room
    assert gen.out_of_reach_without_ramps(room)
    X, Y, Z, W = room.size
    gw = room.goal[3]
    cells = bytearray(room.cells)
    for x in range(X):
        for y in range(Y):
            for w in range(W):
                cells[room.index((x, y, 0, w))] = BLOCK
                for z in range(1, Z):
                    cells[room.index((x, y, z, w))] = BLOCK if w < gw else 0
    start = room.start.player[:2] + (1, gw)
    flat = replace(room, cells=bytes(cells), start=State.of(start),
                   goal=room.goal[:2] + (1, gw))
    assert solver.solve(flat, without=("ramps",)).status == "solved"
    assert not gen.out_of_reach_without_ramps(flat)
    assert not gen.needs_ramps(flat)


def test_quick_gravity_proof_says_no_when_there_is_a_way():
    # a level walk to the goal needs nothing to fall kata: the flood must not claim otherwise
    walk = levelfile.parse("##### ##### #####\n\n##### #@..* .....\n")
    assert solver.solve(walk, without=("gravity-w",)).status == "solved"
    assert not gen.out_of_reach_without_gravity_w(walk) and not gen.needs_gravity_w(walk)
    # the goal a slice below, over a ledge: only a slip gets there
    slip = levelfile.parse("##### ##### #####\n\n##### #...* .....\n\n"
                           "##### #@### .....\n")
    assert solver.solve(slip).status == "solved"
    assert solver.solve(slip, without=("gravity-w",)).status == "impossible"
    assert gen.out_of_reach_without_gravity_w(slip) and gen.needs_gravity_w(slip)


def test_needs_ramps_searches_when_the_flood_cannot_prove_it():
    # The flood walks through crates; here the crate, pushed onto the goal,
    # is stuck there: only the exhaustive search proves the goal out of reach.
    room = levelfile.parse("##### #####\n\n##### #@.$*\n")
    assert not gen.out_of_reach_without_ramps(room)
    assert gen.needs_ramps(room)
    assert solver.solve(room).status == "impossible"


def test_a_spare_crate_is_a_decoy_only_if_it_can_shut_the_way():
    beside = "####### #######\n####### #######\n\n####### #@...*#\n####### #..$..#\n"
    in_line = "####### #######\n####### #######\n\n####### #@.$.*#\n####### #.....#\n"
    for text, trap in ((beside, False), (in_line, True)):
        room = levelfile.parse(text)
        assert gen.spare_crates(room) == list(room.start.crates)
        graph = solver.explore(room)
        assert gen.decoy(graph, gen.live_states(graph), room.start.crates[0]) == trap
        assert is_a_trap(room, room.start.crates[0]) == trap


def test_gates_say_what_fails():
    m = made("hard", 1)
    spec = gen.TIER["hard"]
    assert gen.gates(m.depth, spec) == ""
    assert gen.gates(replace(m.depth, min_ramps=2), spec) == "climb"
    assert gen.gates(replace(m.depth, states=10), spec) == "few states"
    assert gen.gates(replace(m.depth, dead=0), spec) == "no dead state"
    assert gen.gates(replace(m.depth, changes=0), spec) == "little crate play"
    assert gen.gates(replace(m.depth, forks=0), spec) == "few forks"
    assert gen.gates(replace(m.depth, solution=61), spec) == "out of band"
    # what every shortest solution must do: the tier's tricks, then the motifs'
    trick = gen.depth.TRICK
    assert gen.gates(replace(m.depth, every=0), spec) == "no ramp up"
    assert gen.gates(replace(m.depth, every=m.depth.every & ~trick["slip"]), spec) == "no slip"
    no_crate_climb = replace(m.depth, every=m.depth.every & ~trick["crate climb"])
    assert gen.gates(no_crate_climb, spec, ("crate climb",)) == "no crate climb"
    assert gen.gates(replace(m.depth, after_fork=spec.max_after_fork + 1), spec) == (
        "a free walk at the end")


def test_random_walk_is_reproducible_and_bounded():
    m = made("easy", 2)
    graph = solver.explore(m.room, losses=True)
    a = gen.random_walk(graph, 50, 300, seed=1)
    assert a == gen.random_walk(graph, 50, 300, seed=1)
    assert 0.0 <= a <= 1.0
    # with enough moves and no dead state a walker always wins: a corridor
    corridor = solver.explore(levelfile.parse("##### #####\n\n##### #@..*\n"), losses=True)
    assert gen.random_walk(corridor, 20, 300) == 1.0


# -- the command line and building off the main thread ---------------------------------------------


def test_cli_gen_prints_the_room(capsys):
    assert cli.main(["gen", "hard.k3x9"]) == 0
    out = capsys.readouterr().out.splitlines()
    m = made("hard", int("k3x9", 36))
    assert out == [
        f"code: {codes.encode(m.room)}",
        f"solution: {len(m.moves)}",
        f"moves: {''.join(m.moves)}",
        f"ramps: {m.ramps}",
        f"slips: {m.slips}",
        f"pushes: {m.pushes}",
        "proofs: without gravity-w, without ramps, without crates",
        f"climb: 3 (every shortest solution takes {m.depth.min_ramps} ramps up)",
        f"states: {m.depth.states} ({m.depth.dead} dead)",
        f"forks: {m.depth.forks}",
        f"box lines: {m.depth.lines}",
        f"box changes: {m.depth.changes}",
        f"score: {m.depth.score:.1f}",
        f"about: {m.subtitle}",
        f"recipe: {m.recipe}",
    ]


@pytest.mark.parametrize("spec", ["hard", "nope.1", "easy.!", "daily.2026-02-30"])
def test_cli_gen_refuses_a_bad_spec(spec, capsys):
    assert cli.main(["gen", spec]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and "gen:" in captured.err


def test_build_async_in_a_thread_and_in_a_process():
    try:
        future = gen.build_async("medium", 11, processes=False)
        assert future.result(timeout=60) == made("medium", 11)
    finally:
        gen.shutdown()
    try:
        future = gen.build_async("hard", 11)
        assert future.result(timeout=120) == made("hard", 11)
        assert gen.build_async("easy", 2).result(timeout=60) == made("easy", 2)  # reused
    finally:
        gen.shutdown()
    with pytest.raises(gen.GenError):
        gen.build_async("extreme", 1)


def test_build_async_does_not_run_the_callers_script_again(tmp_path):
    # A spawned worker re-imports the parent's script unless told not to: an
    # unguarded script (like this one) would run twice, or open a second window.
    script = tmp_path / "unguarded.py"
    script.write_text("print('script ran', flush=True)\n"
                      "from anabasis import gen\n"
                      "print(gen.build_async('easy', 3).result(timeout=60).name)\n"
                      "gen.shutdown()\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.splitlines() == ["script ran", "easy.3"]
