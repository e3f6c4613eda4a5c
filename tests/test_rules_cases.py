"""The rules auditor's cases that need more than an end state: RULES.md's corners, each
worked out by hand from the rule book.

The cases an end state settles (status, why, map) are data, in
``tests/rules/*.txt``, run by ``test_rules.py``; these assert the frames of a
settle, a load refused, or a search.  Each is a tiny room in the level text
format (one block per w-slice, w = 0 first; a row per y; the z layers side
by side, z = 0 leftmost), asserted on both engines (the fast one and the
reference).  Positions are ``(x, y, z, w)``.
"""

from __future__ import annotations

import textwrap

import pytest

from anabasis.engine import reference, rules, solver
from anabasis.engine.world import State
from anabasis.formats import levelfile


def parse(text: str):
    return levelfile.parse(textwrap.dedent(text).strip("\n") + "\n", "<case>")


def play(engine, room, moves, gravity_w=True):
    """Play ``moves`` from the settled start; every Result, in order."""
    state = engine.start(room, gravity_w=gravity_w).state
    results = []
    for move in moves:
        result = engine.step(room, state, move, gravity_w=gravity_w, trace=True)
        results.append(result)
        state = result.state
    return results


def last(engine, room, moves, gravity_w=True):
    return play(engine, room, moves, gravity_w)[-1]


def S(player, *crates):
    return State.of(player, crates)


# -- held, and settling ---------------------------------------------------------

# A crate rides on a player who is falling in z.  The crates settle before the
# player, so in round 1 the crate is held from below (by the player) and,
# nothing holding it from kata, slides kata; the player then falls.
CRATE_ON_A_FALLING_HEAD = """
    ## ## ## ##

    ## ## ## .#

    ## .# @# $*
"""


def test_crate_on_a_falling_players_head_slides_kata_first(engine):
    room = parse(CRATE_ON_A_FALLING_HEAD)
    first = engine.start(room, trace=True)
    assert first.status == "playing"
    assert first.frames == (S((0, 0, 1, 2), (0, 0, 3, 1)),)
    assert first.state == S((0, 0, 1, 2), (0, 0, 3, 1))


STACK_OVER_A_GAP = """
    ## ## ## ## ##

    ## .@ .. $. $*
"""


def test_stacked_crates_fall_together_one_cell_a_round(engine):
    room = parse(STACK_OVER_A_GAP)
    first = engine.start(room, trace=True)
    # the lower crate goes first, so the upper one follows it in the same round
    assert first.frames == (S((1, 0, 1, 1), (0, 0, 2, 1), (0, 0, 3, 1)),
                            S((1, 0, 1, 1), (0, 0, 1, 1), (0, 0, 2, 1)))


# Two crates slide kata along z = 1 in a wrapped w (W = 4): one at w = 0, one
# at w = 3, a block at w = 1.  w is ordered as a plain number, so the crate at
# w = 0 goes first and finds its kata cell (w = 3, across the wrap) taken; the
# one at w = 3 then slides to w = 2.  Only in round 2 does the first follow.
KATA_ACROSS_THE_WRAP_ORDER = """
    wrap: w

    ## $. .*

    ## #. ..

    ## .# ..

    ## $@ ##
"""


def test_settle_order_w_is_a_plain_number_across_the_wrap(engine):
    room = parse(KATA_ACROSS_THE_WRAP_ORDER)
    first = engine.start(room, trace=True)
    assert first.frames == (S((1, 0, 1, 3), (0, 0, 1, 0), (0, 0, 1, 2)),
                            S((1, 0, 1, 3), (0, 0, 1, 2), (0, 0, 1, 3)))
    assert first.status == "playing"


# The kata run counts only kata steps in a row: a z step starts it again.
# W = 3, and the player makes four kata steps in one settle, a z step between
# each pair, and lands at (z 1, w 1).
FOUR_KATA_STEPS_WITH_Z_STEPS_BETWEEN = """
    wrap: w

    ## ## .# .# .*

    ## .# ## .# .#

    ## .# .# ## @#
"""


def test_endless_fall_counts_kata_steps_between_z_steps(engine):
    room = parse(FOUR_KATA_STEPS_WITH_Z_STEPS_BETWEEN)
    first = engine.start(room, trace=True)
    assert first.status == "playing"
    zw = [(f.player[2], f.player[3]) for f in first.frames]
    assert zw == [(4, 1), (3, 1), (3, 0), (2, 0), (2, 2), (1, 2), (1, 1)]


# W - 1 kata steps in a row, then held (by a ramp under the last cell): no endless fall.
W_MINUS_ONE_KATA_STEPS = """
    wrap: w

    >#. .#.

    ##. .#*

    ##. @#.
"""


def test_w_minus_one_kata_steps_is_not_endless(engine):
    room = parse(W_MINUS_ONE_KATA_STEPS)
    first = engine.start(room, trace=True)
    assert first.status == "playing"
    assert [f.player for f in first.frames] == [(0, 0, 1, 1), (0, 0, 1, 0)]


def test_w_minus_one_kata_steps_of_a_crate_keep_it(engine):
    room = parse("""
        wrap: w

        >#. .#.
        ### ###

        ##. .#.
        ### @.*

        ##. $#.
        ### ###
    """)
    first = engine.start(room, trace=True)
    assert [f.crates for f in first.frames] == [((0, 0, 1, 1),), ((0, 0, 1, 0),)]
    assert first.state == S((0, 1, 1, 1), (0, 0, 1, 0))


def test_crate_leaning_kata_on_the_player_follows_when_the_player_leaves(engine):
    # the crate at w = 2 is held from kata only by the player at w = 1
    room = parse("""
        ### ### ###

        ### @.. ...

        ### $.* ...
    """)
    first = engine.start(room)
    assert first.state == room.start
    result = last(engine, room, "R")
    assert result.frames == (S((1, 0, 1, 1), (0, 0, 1, 2)), S((1, 0, 1, 1), (0, 0, 1, 1)))


# -- load time ------------------------------------------------------------------


def test_load_settles_the_start(engine):
    room = parse("""
        ### ### ### ###

        ### ..* ... @..
    """)
    first = engine.start(room, trace=True)
    assert [f.player for f in first.frames] == [(0, 0, 2, 1), (0, 0, 1, 1)]
    assert first.status == "playing" and first.moved


def test_load_refuses_a_start_that_falls_out():
    with pytest.raises(levelfile.LevelError):
        parse("""
            ### ###

            .## @.*
        """)


def test_load_refuses_a_start_that_falls_into_the_goal():
    with pytest.raises(levelfile.LevelError):
        parse("""
            ### ### ###

            ### *.. @..
        """)


def test_a_room_of_one_slice_without_wrap_is_void_kata():
    # W = 1 and no wrap: w < 0 is the void, so only a ramp under you holds you
    with pytest.raises(levelfile.LevelError):
        parse("""
            ### @.*
        """)
    # (held by a ramp, and lost off it: tests/rules/one-slice-without-wrap-is-void-kata.txt)


# -- ramps ----------------------------------------------------------------------

# The player stands on a ramp '>' at (0, 0, 1, 1); ahead (+x) a block; the
# slice ana has a floor there.  Climbing would also apply, but the ramp is first.
RAMP_BEFORE_A_BLOCK = """
    ### ### ### ###

    ### >## @#. ...

    ### ### ... ..*
"""


def test_ramp_up_takes_precedence_over_climb(engine):
    room = parse(RAMP_BEFORE_A_BLOCK)
    result = last(engine, room, "R")
    assert result.state.player == (1, 0, 2, 2) and result.status == "playing"
    assert result.frames == (S((1, 0, 2, 2)),)


def test_ramp_up_over_a_ledge(engine):
    # p + d is free with no floor: the ramp, not a walk off the ledge
    room = parse("""
        ### ### ### ###

        ### >.# @.. ...

        ### ### ... ..*
    """)
    result = last(engine, room, "R")
    # t = (1, 0, 2, 2) has a floor, but nothing holds it from kata there (p + d is free):
    # it slips back kata and falls; a walk would have fallen from (1, 0, 2, 1) at once
    assert [f.player for f in result.frames] == [(1, 0, 2, 2), (1, 0, 2, 1), (1, 0, 1, 1)]


RAMP_ACROSS_THE_WRAP = """
    wrap: w

    ### ### #.*

    ### ### ###

    ### >## @#.
"""


def test_the_goal_across_the_wrap_is_not_a_resting_place(engine):
    room = parse(RAMP_ACROSS_THE_WRAP)
    results = play(engine, room, "RR")
    # into the goal at w = 0; nothing holds it kata there (w = 2 is free): it slips off
    assert [f.player for f in results[1].frames] == [(2, 0, 2, 0), (2, 0, 2, 2)]
    assert results[1].status == "playing"


def test_ramp_down_needs_the_way_blocked(engine):
    room = parse("""
        ### >## .#.

        ### ### .@*
    """)
    result = last(engine, room, "L")
    # p + d is free with a floor: a walk, although a ramp leans against d below p + d - w;
    # then nothing holds it from kata and it slips onto the ramp (one frame more than a ramp step)
    assert [f.player for f in result.frames] == [(0, 0, 2, 1), (0, 0, 2, 0)]


# -- the hook ---------------------------------------------------------------------


def test_hook_pulls_you_over_a_gap_and_you_fall(engine):
    room = parse("""
        ##### #####

        ##..# @...#

        ##### ....*
    """)
    result = last(engine, room, ["hR"])
    # pulled to (3, 0, 1, 1), the cell before the block; no floor there: down, then out
    assert result.status == "lost"
    assert [f.player for f in result.frames][:2] == [(3, 0, 1, 1), (3, 0, 0, 1)]


# -- the start as written: '+' and '%' ------------------------------------------------


# -- the proofs' switches -------------------------------------------------------------


def test_without_the_wrap_a_start_lost_at_load_is_impossible(engine):
    room = parse("""
        wrap: w

        ### ### @.*

        ### ### #..
    """)
    # wrapped, kata of w 0 is w 1, a block: held
    assert engine.start(room).status == "playing"
    assert engine.start(room.without(["wrap"])).status == "lost"
    impl = solver if engine is rules else reference
    assert impl.solve(room, without=("wrap",)) == impl.Solution("impossible", None, 0)


def _reachable(engine, room):
    """Every state reachable from the settled start by steps (losses excluded), by hand."""
    first = engine.start(room).state
    seen, todo = {first}, [first]
    while todo:
        state = todo.pop()
        for move in "RLDU":
            result = engine.step(room, state, move)
            if result.moved and result.status != "lost" and result.state not in seen:
                seen.add(result.state)
                todo.append(result.state)
    return seen


def test_impossible_means_every_reachable_state_searched(engine):
    room = parse("""
        ##### #####
        ##### #####

        ##### #$.#*
        ##### #.@.#
    """)
    impl = solver if engine is rules else reference
    result = impl.solve(room)
    reachable = _reachable(engine, room)
    assert all(s.player != room.goal for s in reachable)
    assert result.status == "impossible" and result.states == len(reachable)


def test_hook_ana_settles_like_any_move_down_first(engine):
    # RULES.md: "straight ana it lifts you a slice and you fall straight back, kata".
    # Read with "then everything settles": where the slice ana has no floor under
    # you, you fall in z first (here out of the room), not back kata.
    room = parse("""
        ### ### ###

        ### @.. ...

        .## ... ..*

        ### #.. ...
    """)
    result = last(engine, room, ["hA"])
    assert result.status == "lost"
    assert [f.player for f in result.frames][:2] == [(0, 0, 1, 2), (0, 0, 0, 2)]


def test_endless_fall_player_and_crate_chasing_round_the_wrap(engine):
    # nothing holds anything kata along z = 1 once the ramp is a block; the crate (w 1)
    # goes first, the player (w 2) one cell behind; each counts its own kata steps
    room = parse("""
        wrap: w

        ### ... ..*

        ### $.. ...

        >## @.. ...
    """).without(["ramps"])
    first = engine.start(room, trace=True)
    assert first.status == "lost"
    assert [f.crates for f in first.frames[:2]] == [((0, 0, 1, 0),), ((0, 0, 1, 2),)]
    assert [f.player for f in first.frames[:2]] == [(0, 0, 1, 1), (0, 0, 1, 0)]
    assert len(first.frames) == 3 and first.frames[2].crates == ()  # the crate's 3rd: gone
