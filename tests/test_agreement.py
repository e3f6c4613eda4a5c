"""The fast engine and solver agree with the reference, exactly, on random small rooms.

Hypothesis builds rooms of up to 5 x 4 x 3 x 4 cells (blocks, ramps, up to
three crates, wrapped or not), mostly with a floor in z and in w so that the
movers have somewhere to stand, and random move strings, hooks included.
Every step must give the same Result (state, status, moved, frames, why); every
search the same Solution (status, moves, states counted).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from conftest import REPRODUCIBLE
from hypothesis import event, given, settings
from hypothesis import strategies as st

from anabasis.bench.solver import bench_room
from anabasis.engine import reference, rules, solver
from anabasis.engine.world import NEEDS, SWITCHES, Room, State

MOVES = list(reference.STEPS) + list(reference.HOOKS)

AGREE = settings(REPRODUCIBLE, max_examples=2000)


@st.composite
def rooms(draw) -> Room:
    """A random small room; the player and crates mostly off the bottom layer and kata slice."""
    X, Y = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    # one layer or one slice is mostly a lost start (movers at z = 0 or w = 0 fall out): rare
    Z, W = draw(st.sampled_from([2, 3, 2, 3, 1])), draw(st.sampled_from([2, 3, 4, 2, 3, 1]))
    wrap = W >= 2 and draw(st.booleans())
    floored = draw(st.integers(0, 9)) < 8
    raw = draw(st.lists(st.integers(0, 99), min_size=X * Y * Z * W, max_size=X * Y * Z * W))
    shell = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    cells = bytearray()
    for (_, _, z, w), u in zip(shell.positions(), raw, strict=True):
        # hypothesis favours 0: make it a block in the floors, empty elsewhere
        solid = u < 93 if floored and (z == 0 or w == 0) else u >= 85
        if solid:
            cells.append(2 + (u // 4) % 4 if u % 4 == 3 else 1)  # mostly blocks, some ramps
        else:
            cells.append(0)

    def position(low: bool) -> tuple[int, int, int, int]:
        zmin = 0 if low or Z == 1 else 1
        wmin = 0 if low or W == 1 else 1
        return (draw(st.integers(0, X - 1)), draw(st.integers(0, Y - 1)),
                draw(st.integers(zmin, Z - 1)), draw(st.integers(wmin, W - 1)))

    low = draw(st.integers(0, 9)) >= 8
    movers = draw(st.lists(st.just(None), min_size=1, max_size=4))
    places: list = []
    for _ in movers:
        p = position(low)
        if p not in places:
            places.append(p)
    goal = position(True)
    for p in [*places, goal]:
        cells[shell.index(p)] = 0
    return Room((X, Y, Z, W), bytes(cells), goal, State.of(places[0], places[1:]), wrap=wrap)


@st.composite
def terraces(draw) -> Room:
    """A room like the levels: ground whose height in w varies by column, with ramps.

    Column (x, y) is solid up to slice ``h - 1`` at z = 1, so a mover stands
    on it in slice ``h``; the floor at z = 0 is sometimes a ramp (rising
    toward a random side), sometimes missing; a few blocks lie about at z = 2.
    """
    X, Y = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    Z, W = draw(st.sampled_from([2, 3])), draw(st.integers(2, 4))
    wrap = draw(st.integers(0, 3)) == 3
    heights = draw(st.lists(st.integers(1, W - 1), min_size=X * Y, max_size=X * Y))
    floor = draw(st.lists(st.integers(0, 19), min_size=X * Y * W, max_size=X * Y * W))
    # 0-9 a block, 10-17 a ramp, 18-19 a hole: the floor under each column, per slice
    shell = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    cells = bytearray(X * Y * Z * W)
    for (x, y, z, w) in shell.positions():
        h = heights[x + X * y]
        u = floor[x + X * (y + Y * w)]
        if z == 0:
            code = 1 if u < 10 else (2 + u % 4 if u < 18 else 0)  # a block, a ramp or a hole
        elif z == 1:
            code = 1 if w < h or (w > h and u == 9) else 0  # now and then an overhang
        else:
            code = 1 if u == 0 and w > h else 0
        cells[shell.index((x, y, z, w))] = code

    def ground() -> tuple[int, int, int, int]:
        x, y = draw(st.integers(0, X - 1)), draw(st.integers(0, Y - 1))
        return (x, y, 1, heights[x + X * y])

    places: list = []
    for _ in draw(st.lists(st.just(None), min_size=1, max_size=4)):
        p = ground()
        if p not in places:
            places.append(p)
    # the goal in another column than the player's (hypothesis would often draw the same)
    x, y = places[0][0], places[0][1]
    column = (x + X * y + draw(st.integers(1, X * Y - 1))) % (X * Y)
    goal = (column % X, column // X, 1, heights[column])
    return Room((X, Y, Z, W), bytes(cells), goal, State.of(places[0], places[1:]), wrap=wrap)


ROOMS = st.one_of(rooms(), terraces())


def walk(room: Room, moves, gravity_w: bool = True) -> Room:
    """The room with its goal moved to where a walk from its start comes to rest (if it does)."""
    first = reference.start(room, gravity_w=gravity_w)
    if first.status != "playing":
        return room
    state = first.state
    for move in moves:
        result = reference.step(room, state, move, gravity_w=gravity_w)
        if result.status == "playing":
            state = result.state
    if state.player == first.state.player:
        return room
    return replace(room, goal=state.player)


@AGREE
@given(ROOMS, st.lists(st.sampled_from(MOVES), max_size=24), st.integers(0, 9))
def test_engines_agree_on_every_step(room, moves, rule):
    gravity_w = rule != 0
    if rule == 1:
        room = room.without(["ramps"])
    first = reference.start(room, gravity_w=gravity_w, trace=True)
    assert rules.start(room, gravity_w=gravity_w, trace=True) == first
    event(f"start {first.status}")
    if first.status != "playing":
        return
    state = first.state
    for move in moves:
        expected = reference.step(room, state, move, gravity_w=gravity_w, trace=True)
        assert rules.step(room, state, move, gravity_w=gravity_w, trace=True) == expected
        if expected.status == "won":
            return
        if expected.status == "playing":  # a lost move is undone, as the game does
            state = expected.state
        event(f"step {expected.status}, moved {expected.moved}")


@settings(REPRODUCIBLE, max_examples=800)
@given(ROOMS, st.lists(st.sampled_from(MOVES), max_size=30),
       st.sets(st.sampled_from(SWITCHES), max_size=2), st.booleans())
def test_solvers_agree(room, moves, without, hook):
    room = walk(room, moves if hook else [m for m in moves if len(m) == 1])
    expected = reference.solve(room, without=without, hook=hook, max_states=1500)
    assert solver.solve(room, without=without, hook=hook, max_states=1500) == expected
    event(f"{expected.status}, {'over' if expected.states > 100 else 'under'} 100 states")
    if expected.status == "solved":
        gravity_w = "gravity-w" not in without
        plain = room.without(set(without) - {"gravity-w"})
        state = rules.start(plain, gravity_w=gravity_w).state
        for move in expected.moves:
            result = rules.step(plain, state, move, gravity_w=gravity_w)
            state = result.state
        assert result.status == "won" if expected.moves else state.player == room.goal


@settings(REPRODUCIBLE, max_examples=500)
@given(ROOMS, st.lists(st.sampled_from(MOVES), max_size=30),
       st.sets(st.sampled_from(NEEDS), max_size=2))
def test_solvers_agree_in_hook_rooms(room, moves, without):
    # a hook room (hook: yes): the hook is a move unless it is switched off
    room = replace(walk(room, moves), hook=True)
    expected = reference.solve(room, without=without, max_states=1500)
    assert solver.solve(room, without=without, max_states=1500) == expected
    # the room's word is the same as asking for the hook in its plain twin
    twin = replace(room, hook=False)
    assert expected == reference.solve(twin, without=set(without) - {"hook"},
                                       hook="hook" not in without, max_states=1500)
    event(f"{expected.status}, {'with' if 'hook' not in without else 'without'} the hook")
    if expected.status == "solved" and not without:
        # the whole graph holds the hook's moves too, numbered in the search's order
        graph = solver.explore(room, max_states=1500)
        if expected.moves:
            assert graph.won.index(True) + 1 == expected.states
        assert set(graph.names) == set(MOVES)


def test_solvers_agree_on_the_bench_room_capped():
    room = bench_room()
    for cap in (500, 4000):
        expected = reference.solve(room, max_states=cap)
        assert expected.status == "gave-up"
        assert solver.solve(room, max_states=cap) == expected


def random_cells_room(rng):
    """A room of random cells (ramps anywhere, W = 1 too): a shape hypothesis rarely draws."""
    X, Y, Z, W = rng.randint(1, 4), rng.randint(1, 3), rng.randint(2, 4), rng.randint(1, 4)
    wrap = W >= 2 and rng.random() < 0.4
    cells = bytearray()
    shell = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    for _, _, z, w in shell.positions():
        u = rng.random()
        solid = u < 0.8 if (z == 0 or (w == 0 and not wrap)) else u < 0.2
        cells.append(rng.choice([2, 3, 4, 5]) if solid and rng.random() < 0.25 else int(solid))
    empty = [p for p in shell.positions() if cells[shell.index(p)] == 0]
    if len(empty) < 2:
        return None
    rng.shuffle(empty)
    n = min(len(empty) - 1, 1 + rng.randint(0, 3))
    goal = empty[n]
    return Room((X, Y, Z, W), bytes(cells), goal, State.of(empty[0], empty[1:n]), wrap=wrap)


@pytest.mark.parametrize("gravity_w", [True, False], ids=["gravity-w", "without-gravity-w"])
def test_engines_agree_on_rooms_of_random_cells(gravity_w):
    rng = random.Random(20261129 + gravity_w)
    checked = 0
    while checked < 400:
        room = random_cells_room(rng)
        if room is None:
            continue
        first = reference.start(room, gravity_w=gravity_w, trace=True)
        assert rules.start(room, gravity_w=gravity_w, trace=True) == first, room
        if first.status != "playing":
            continue
        checked += 1
        state = first.state
        for _ in range(15):
            move = rng.choice(MOVES)
            expected = reference.step(room, state, move, gravity_w=gravity_w, trace=True)
            assert rules.step(room, state, move, gravity_w=gravity_w, trace=True) == expected, (
                room, state, move)
            if expected.status != "playing":
                break
            state = expected.state


# -- crowded rooms: the crowded path of the rules ------------------------------------------

from crowded import crowded_rooms  # noqa: E402

FUZZ = settings(REPRODUCIBLE, max_examples=150)


@FUZZ
@given(crowded_rooms(), st.lists(st.sampled_from(MOVES), max_size=20), st.booleans())
def test_a_crowded_settle_is_the_rule_book_s(room, moves, gravity_w):
    """The crowded path (a set of crates, only near what changed) agrees with the reference,
    step by step, on its own states (so that it knows they are settled)."""
    few = rules.FEW_CRATES
    rules.FEW_CRATES = 0  # every room crowded
    try:
        first = rules.start(room, gravity_w=gravity_w, trace=True)
        assert first == reference.start(room, gravity_w=gravity_w, trace=True)
        if first.status != "playing":
            return
        state = first.state
        for move in moves:
            got = rules.step(room, state, move, gravity_w=gravity_w, trace=True)
            assert got == reference.step(room, state, move, gravity_w=gravity_w, trace=True)
            if got.status == "won":
                return
            if got.status == "playing":
                state = got.state
    finally:
        rules.FEW_CRATES = few


@FUZZ
@given(crowded_rooms(), st.booleans())
def test_the_solver_agrees_with_the_reference_in_a_crowded_room(room, hook):
    """Past FEW_CRATES crates a push's settle goes through the crowded path's sets, not the
    solver's quick look for what falls: the same searches, state for state."""
    from anabasis.engine import solver

    expected = reference.solve(room, hook=hook, max_states=200)  # half of them crowded
    assert solver.solve(room, hook=hook, max_states=200) == expected


def test_a_crate_on_the_player_falls_when_it_walks_away_in_a_crowded_room():
    from anabasis.formats import levelfile

    # two slices; the player carries a crate on its head in slice w=1, many crates about
    text = ("##### ##### #####\n##### ##### #####\n\n"
            "##### #@..$ #$...\n##### #$$$$ #$$$*\n")
    room = levelfile.parse(text)
    few = rules.FEW_CRATES
    rules.FEW_CRATES = 0
    try:
        state = rules.start(room).state
        got = rules.step(room, state, "R", trace=True)
        assert got == reference.step(room, state, "R", trace=True)
        assert (1, 0, 2, 1) not in got.state.crates  # the crate on the player fell
    finally:
        rules.FEW_CRATES = few
