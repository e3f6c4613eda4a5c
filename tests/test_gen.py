"""The generator: seeds, the PRNG, determinism, frozen rooms, and every made room proved.

The proofs are re-checked here from scratch, from the room code, by the
exhaustive solver: the generator's own quick proof that a room needs its
ramps (a flood) is not trusted.
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
from anabasis.engine.cells import BLOCK
from anabasis.engine.world import MAX_SIZE, Room
from anabasis.formats import codes
from anabasis.gen.prng import MASK64, SplitMix64, derive, mix64

SEEDS = range(30)

#: Frozen vectors: spec -> (solution length, room code).  If one fails, the
#: generator now builds another room for that seed: bump gen.GEN, then
#: write the new vectors here (``anabasis gen SPEC`` prints them).
FROZEN = [
    ("easy.0", 6, "DBGU2ZmgLQo6mx-mQNWkW"),
    ("easy.k3x9", 9, "DCIU2M6cnHkjXNfetOOotgyuN5"),
    ("easy.zz", 7, "DBIU2ZThSmMZiqCcLwfoec"),
    ("medium.1", 14, "DCmW2Jm3yYCr6LMiXPJOFlu8aSZk"),
    ("medium.k3x9", 14, "DCqW2Jc5nECY6gc4cVAQr7YdW_anBoKDpY_O4g"),
    ("medium.anabasis", 12, "DCmW2Jm30h5x7gGcMoBlqB4_tz85o64"),
    ("hard.2", 23, "DCuW2JYYIu4Oy2SDMTbBWmK_srg3gTGCoEq4r_uICgd9s"),
    ("hard.k3x9", 18, "DDoY18qbHquuNosU9A-uA3JqlI--cxO1JelVkkgWuYbZ3"),
    ("hard.3w5e11264sgsf", 16, "DDKY2F8B5043PW9eZY5pXXJnvGhBvKJTSMHWptygBkgyxyX"),
    ("daily.2026-11-29", 19, "DCsW2FYsR_6XiQDFmNO5J4I-LcSesSQd47wzbe9tYkaI"),
    ("daily.2027-01-01", 19, "DDOY2GY7TDobapRroWeTf3aZk-mM_hJzh9NntMeSCpI39Selfpc"),
]
FROZEN_GEN = 1  #: the GEN the vectors above were written with


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


@pytest.mark.parametrize("tier", gen.TIERS)
def test_made_rooms_are_in_band_and_proved(tier):
    spec = gen.TIER[tier]
    lo, hi = spec.band
    need_crates = 0
    for seed in SEEDS:
        m = made(tier, seed)
        code = codes.encode(m.room)
        room = codes.decode(code)
        assert codes.encode(room) == code
        assert room == bare(m.room)
        assert all(n <= limit for n, limit in zip(room.size, MAX_SIZE, strict=True))
        assert room.view == "w-up" and m.room.name == f"{tier}.{gen.seed_text(seed)}"

        found = solver.solve(room)
        assert found.status == "solved"
        assert lo <= len(found.moves) <= hi, (tier, seed, len(found.moves))
        assert len(found.moves) == len(m.moves) == m.room.par
        assert solver.solve(room, without=("ramps",)).status == "impossible", (tier, seed)
        crates_needed = bool(room.start.crates) and (
            solver.solve(room, without=("crates",)).status == "impossible")
        assert crates_needed == ("crates" in m.proofs), (tier, seed)
        need_crates += crates_needed
        assert m.room.needs == m.proofs
        assert ("without its crate" in m.room.teaches) == crates_needed

        run = gen.walk_through(room, m.moves)
        assert run.won
        assert (run.ramps, run.slips) == (spec.ramps, spec.slips)
        assert (run.ramps, run.slips, run.pushes) == (m.ramps, m.slips, m.pushes)
    if tier == "medium":
        assert need_crates >= 20  # most
    if tier == "hard":
        assert need_crates >= 27  # nearly all


def test_made_room_is_a_landscape_in_w():
    room = made("hard", 5).room
    X, Y, Z, W = room.size
    assert Z == 2
    # the floor layer is solid (ramps set into it) except where it drops through
    floor = [room.cell((x, y, 0, w)) for x in range(X) for y in range(Y) for w in range(W)]
    assert sum(c != 0 for c in floor) > len(floor) * 0.8
    # the player stands on the z = 0 floor, held from kata by the ground in w
    x, y, z, w = rules.start(room).state.player
    assert z == 1 and room.cell((x, y, 1, w - 1)) == BLOCK


# -- the checks the generator trusts ------------------------------------------------------------


def test_walk_through_counts_ramps_slips_and_pushes():
    room = made("hard", 3).room
    run = gen.walk_through(room, made("hard", 3).moves)
    assert run.won and run.ramps == 3 and run.slips == 3
    assert min(run.heights) >= 1 and len(run.heights) >= 2
    # a solution cut short does not win, and counts only what it did
    part = gen.walk_through(room, made("hard", 3).moves[:2])
    assert not part.won and part.ramps + part.slips <= 2


def test_quick_ramp_proof_says_no_when_there_is_a_way_round():
    # Open a level path round every wall of a made room: without its ramps
    # the goal's slice is then within reach, and the quick proof must not claim otherwise.
    room = made("easy", 4).room
    assert gen.out_of_reach_without_ramps(room)
    X, Y, Z, W = room.size
    gw = room.goal[3]
    sw = rules.start(room).state.player[3]
    cells = bytearray(room.cells)
    for x in range(X):
        for y in range(Y):
            for w in range(W):
                cells[room.index((x, y, 0, w))] = BLOCK
                cells[room.index((x, y, 1, w))] = BLOCK if w < min(gw, sw) else 0
    flat = replace(room, cells=bytes(cells))
    assert solver.solve(flat, without=("ramps",)).status == "solved"
    assert not gen.out_of_reach_without_ramps(flat)


# -- the command line and building off the main thread ---------------------------------------------


def test_cli_gen_prints_the_room(capsys):
    assert cli.main(["gen", "hard.k3x9"]) == 0
    out = capsys.readouterr().out.splitlines()
    m = made("hard", int("k3x9", 36))
    assert out == [
        f"code: {codes.encode(m.room)}",
        f"solution: {len(m.moves)}",
        f"moves: {''.join(m.moves)}",
        "ramps: 3",
        "slips: 3",
        f"pushes: {m.pushes}",
        "proofs: without ramps, without crates",
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
