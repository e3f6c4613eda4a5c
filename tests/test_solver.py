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


def test_a_hook_room_takes_the_hook_unless_switched_off():
    from dataclasses import replace

    room = replace(parse(HOOKED), hook=True)
    assert solver.solve(room).moves == ("hR",)  # its par counts hook moves
    assert solver.solve(room) == reference.solve(room)
    plain = solver.solve(room, without=("hook",))
    assert plain.text == "RRRR" and plain == reference.solve(room, without=("hook",))
    assert solver.solve(room, hook=False) == plain  # asked not to, it does not
    assert solver.solve(room, hook=True, without=("hook",)) == plain  # without wins
    # the way on and the whole graph take the room's word too
    assert solver.way_on(room, rules.start(room).state).moves == ("hR",)
    assert solver.explore(room).names[-1] == "hK"
    assert solver.explore(parse(HOOKED)).names == ("R", "L", "D", "U")


def test_uses_hook_says_what_a_search_takes():
    from dataclasses import replace

    room = parse(HOOKED)
    hooked = replace(room, hook=True)
    assert [solver.uses_hook(room), solver.uses_hook(hooked)] == [False, True]
    assert solver.uses_hook(room, hook=True) and not solver.uses_hook(hooked, hook=False)
    assert not solver.uses_hook(hooked, ("hook", "ramps"))


def test_the_hook_search_of_the_bench_room_is_exhaustive_and_agrees_capped():
    room = bench_room()
    for cap in (3000, 20_000):
        found = solver.solve(room, hook=True, max_states=cap)
        assert found == reference.solve(room, hook=True, max_states=cap)
        assert found.status == "gave-up"


def test_proofs_is_the_one_home_for_a_rooms_proofs():
    from dataclasses import replace

    from anabasis.engine import proofs

    room = parse(HOOKED)
    found = proofs.prove(room)
    assert (found.par, found.hook, found.hook_saves) == (4, 1, 3)
    assert proofs.refusals(replace(room, par=4), found) == ["the hook saves 3 moves"]
    assert proofs.hook_saves(room) == 3
    hooked = replace(room, hook=True, par=1, needs=("hook",))
    found = proofs.prove(hooked)
    assert found.needs == (("hook", "solved"),)  # it walks there too: hook is no need here
    assert proofs.refusals(hooked, found) == ["needs hook: without it the search is solved"]
    assert found.par == 1 and found.hook == 1 and proofs.hook_saves(hooked) == 0
    assert proofs.without(hooked, ["hook"]).text == "RRRR"
    with pytest.raises(ValueError, match="hook rooms only"):
        proofs.without(room, ["hook"])
    with pytest.raises(ValueError, match="unknown rule"):
        proofs.without(room, ["magic"])
    # a claim the proofs do not bear out is named
    wrong = replace(hooked, par=2, needs=("ramps", "hook"))
    said = proofs.refusals(wrong, proofs.prove(wrong))
    assert said[0].startswith("par is 2, the shortest solution 1")
    assert any(s.startswith("needs ramps: without it the search is solved") for s in said)
