"""The exact solver: shortest solutions, proofs, the state cap, the hook, the switches."""

from __future__ import annotations

import textwrap

import pytest

from anabasis.bench.solver import BENCH_STATES, bench_room
from anabasis.engine import reference, rules, solver
from anabasis.engine.world import SWITCHES
from anabasis.formats import levelfile


def parse(text: str):
    return levelfile.parse(textwrap.dedent(text).strip("\n") + "\n", "<test>")


def replay(room, moves, without=()):
    """Play a solution with the fast engine: the last status."""
    gravity_w = "gravity-w" not in without
    room = room.without(set(without) - {"gravity-w"})
    state = rules.start(room, gravity_w=gravity_w).state
    status = "playing"
    for move in moves:
        result = rules.step(room, state, move, gravity_w=gravity_w)
        assert result.moved and result.status != "lost"
        state, status = result.state, result.status
    return status


SLIP = """
    #### ####

    #### ##.*

    #### @...
"""

RAMP = """
    ### ###

    >## @##

    ### #.*
"""

GAP = """
    ##### #####

    ##### ##.##

    ##### @$..*
"""

ACROSS_THE_WRAP = """
    wrap: w

    ### @..

    ### ###

    ### #.*
"""

DETOUR = """
    ###### ######
    ###### ######
    ###### ######

    ###### ......
    ###### .@##*.
    ###### ......
"""

HOOKED = """
    ###### ######

    ###### @...*#
"""

ROOMS = {"slip": SLIP, "ramp": RAMP, "gap": GAP, "across the wrap": ACROSS_THE_WRAP,
         "detour": DETOUR, "hooked": HOOKED}


@pytest.mark.parametrize("text,moves", [
    (SLIP, "RRR"), (RAMP, "RR"), (GAP, "RRRR"), (ACROSS_THE_WRAP, "RR"), (HOOKED, "RRRR"),
])
def test_shortest_solution(text, moves):
    room = parse(text)
    found = solver.solve(room)
    assert found.status == "solved" and found.text == moves
    assert replay(room, found.moves) == "won"


def test_shortest_solution_goes_round():
    room = parse(DETOUR)
    found = solver.solve(room)
    # round the wall, above or below it: five moves; breadth-first, R L D U, finds below first
    assert found.text == "DRRRU"
    assert replay(room, found.moves) == "won"


def test_solution_string_is_the_references():
    for name, text in ROOMS.items():
        room = parse(text)
        for hook in (False, True):
            assert solver.solve(room, hook=hook) == reference.solve(room, hook=hook), name


@pytest.mark.parametrize("text,rule", [
    (SLIP, "gravity-w"), (RAMP, "ramps"), (GAP, "crates"), (ACROSS_THE_WRAP, "wrap"),
])
def test_impossible_without(text, rule):
    room = parse(text)
    found = solver.solve(room, without=(rule,))
    assert found.status == "impossible" and found.moves is None
    assert found == reference.solve(room, without=(rule,))


def test_impossible_counts_every_state():
    room = bench_room()
    found = solver.solve(room)
    assert found == ("impossible", None, BENCH_STATES)


def test_impossible_without_the_wrap_at_the_start():
    found = solver.solve(parse(ACROSS_THE_WRAP), without=("wrap",))
    assert found == ("impossible", None, 0)  # the start falls out kata: lost at load


def test_gave_up():
    room = bench_room()
    found = solver.solve(room, max_states=1000)
    assert found == ("gave-up", None, 1000)
    assert found == reference.solve(room, max_states=1000)


def test_default_cap():
    assert solver.DEFAULT_MAX_STATES >= 1_000_000
    room = parse(SLIP)
    assert solver.solve(room, max_states=None) == solver.solve(room)


def test_hook_option():
    room = parse(HOOKED)
    assert solver.solve(room).text == "RRRR"
    hooked = solver.solve(room, hook=True)
    assert hooked.moves == ("hR",)  # pulled to the cell before the block: the goal
    assert hooked == reference.solve(room, hook=True)
    assert replay(room, hooked.moves) == "won"


def test_hook_pulls_a_crate_into_the_gap():
    room = parse("""
        ####### #######

        ####### ###.###

        ####### @..*.$.
    """)
    # the crate is out of reach beyond the gap; only the hook fetches it
    assert solver.solve(room).status == "impossible"
    found = solver.solve(room, hook=True)
    assert found.text == "RRhRR"  # pulled over the gap, it falls in: a bridge
    assert found == reference.solve(room, hook=True)


@pytest.mark.parametrize("name", sorted(ROOMS))
@pytest.mark.parametrize("rule", SWITCHES)
def test_switches_agree_with_the_reference(name, rule):
    room = parse(ROOMS[name])
    for hook in (False, True):
        found = solver.solve(room, without=(rule,), hook=hook)
        assert found == reference.solve(room, without=(rule,), hook=hook)


def test_start_already_won():
    room = parse("""
        ### ###

        ### @.*
    """)
    from dataclasses import replace

    won = replace(room, goal=room.start.player)
    assert solver.solve(won) == ("solved", (), 1) == reference.solve(won)


def test_unknown_switch():
    with pytest.raises(ValueError, match="unknown rule"):
        solver.solve(parse(SLIP), without=("magic",))


def test_crate_on_the_players_head_moves_in_the_search():
    # the player holds a crate up; stepping away drops it, which the search must see
    room = parse("""
        #### #### ####

        #### @.*. $...
    """)
    found = solver.solve(room)
    assert found == reference.solve(room) and found.text == "RR"
    assert found.states == 3  # start, then the player at x=1 with the crate dropped, then won
