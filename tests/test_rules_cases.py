"""The rules auditor's cases: RULES.md's corners, each worked out by hand from the rule book.

Every case is a tiny room in the level text format (one block per w-slice,
w = 0 first; a row per y; the z layers side by side, z = 0 leftmost), the
outcome derived from RULES.md alone, and that outcome asserted on both
engines (the fast one and the reference).  Positions are ``(x, y, z, w)``.
"""

from __future__ import annotations

import subprocess
import sys
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


def test_load_lets_a_crate_fall_out(engine):
    room = parse("""
        ### ###

        #.# @$*
    """)
    assert engine.start(room).state == S((0, 0, 1, 1))


def test_a_room_of_one_slice_without_wrap_is_void_kata(engine):
    # W = 1 and no wrap: w < 0 is the void, so only a ramp under you holds you
    with pytest.raises(levelfile.LevelError):
        parse("""
            ### @.*
        """)
    room = parse("""
        >## @.*
    """)
    assert engine.start(room).state == room.start
    result = last(engine, room, "R")  # off the ramp: nothing holds you kata
    assert result.status == "lost"


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


def test_ramp_up_blocked_ana_falls_through_to_climb(engine):
    room = parse(RAMP_BEFORE_A_BLOCK.replace("### ### ... ..*", "### ### .#. ..*"))
    result = last(engine, room, "R")
    assert result.state.player == (1, 0, 3, 1)


def test_ramp_up_at_the_w_edge_is_no_ramp_step(engine):
    # the ramp is in the last slice, w = W - 1, and w does not wrap: w >= W is solid
    room = parse("""
        ### ### ### .#*

        ### >## @#. ...
    """)
    result = last(engine, room, "R")
    assert result.state.player == (1, 0, 3, 1)  # it climbs instead


def test_ramp_does_not_take_you_when_the_way_is_clear(engine):
    room = parse("""
        ### ### ### ###

        ### >## @.. ...

        ### ### ... ..*
    """)
    result = last(engine, room, "R")
    assert result.state.player == (1, 0, 2, 1)  # a walk: p + d is free and has a floor


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


def test_ramp_up_pushes_a_crate_that_can_be_pushed(engine):
    room = parse("""
        ### ### ### ###

        ### >## @$. ...

        ### ### ... ..*
    """)
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 2, 1), (2, 0, 2, 1))


def test_ramp_up_round_a_crate_that_cannot_be_pushed(engine):
    room = parse("""
        ### ### ### ###

        ### >## @$# ...

        ### ### ... ..*
    """)
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 2, 2), (1, 0, 2, 1))


RAMP_ACROSS_THE_WRAP = """
    wrap: w

    ### ### #.*

    ### ### ###

    ### >## @#.
"""


def test_ramp_up_across_the_wrap(engine):
    room = parse(RAMP_ACROSS_THE_WRAP)
    result = last(engine, room, "R")
    # t = p + d + w is at w = 3, which is w = 0; the block at w = 2 holds it from kata
    assert result.state.player == (1, 0, 2, 0) and result.status == "playing"


def test_ramp_down_across_the_wrap(engine):
    room = parse(RAMP_ACROSS_THE_WRAP)
    result = last(engine, room, "RL")
    # back: p + d - w is at w = -1, which is w = 2, over the ramp (leaning against d)
    assert result.state.player == (0, 0, 2, 2)


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


def test_ramp_down_off_a_ledge(engine):
    room = parse("""
        ### >## .#. ...

        ### .## .@. ..*
    """)
    result = last(engine, room, "L")
    # p + d is free with no floor; the ramp below p + d - w leans +x, against d: down it
    assert result.state.player == (0, 0, 2, 0)
    assert result.frames == (S((0, 0, 2, 0)),)


# -- walk, push, climb ------------------------------------------------------------


def test_push_a_crate_over_a_ledge_onto_a_floor(engine):
    room = parse("""
        #### #### ####

        ###. @$.. ...*
    """)
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 1, 1), (2, 0, 1, 1))


def test_push_a_crate_against_the_wall(engine):
    room = parse("""
        ### ###

        ### .@$

        ### ..*
    """)
    result = last(engine, room, "R")
    # the wall is beyond: not pushable, in your way; no head room under the ceiling to climb
    assert not result.moved and result.state == room.start


def test_push_a_crate_on_the_goal_is_not_a_win(engine):
    room = parse("""
        ### ###

        ### @$*
    """)
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 1, 1), (2, 0, 1, 1)) and result.status == "playing"
    assert levelfile.write_map(room, result.state).splitlines()[-1] == "### .@%"


def test_push_the_bottom_of_a_stack_leaves_the_top_on_your_head(engine):
    room = parse("""
        #### #### ####

        #### @$.. .$.*
    """)
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 1, 1), (1, 0, 2, 1), (2, 0, 1, 1))
    assert result.frames == (S((1, 0, 1, 1), (1, 0, 2, 1), (2, 0, 1, 1)),)


def test_holding_a_crate_up_you_cannot_climb(engine):
    room = parse("""
        ### ### ###

        ### @#. $.*
    """)
    result = last(engine, room, "R")
    assert not result.moved and result.state == room.start


def test_climb_at_the_ceiling(engine):
    room = parse("""
        ### ###

        ### @#*
    """)
    assert not last(engine, room, "R").moved


def test_climb_onto_a_ramp(engine):
    room = parse("""
        ### #.. ...

        ### @>. ..*
    """)
    result = last(engine, room, "R")
    # no ramp rule applies (none under you, none below p + d - w); the ramp is climbed,
    # and standing on it holds you from kata although w = 0 is free there
    assert result.state.player == (1, 0, 2, 1) and result.frames == (S((1, 0, 2, 1)),)
    # and back: a walk off the ramp, down into the cell the climb left
    assert engine.step(room, result.state, "L").state.player == (0, 0, 1, 1)


def test_climb_onto_a_crate_stuck_behind_a_crate(engine):
    room = parse("""
        #### #### ####

        #### @$$# ...*
    """)
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 2, 1), (1, 0, 1, 1), (2, 0, 1, 1))


def test_walk_off_a_ledge_falls_through_the_goal_and_out(engine):
    room = parse("""
        ### ### ###

        #.# @*. ...
    """)
    result = last(engine, room, "R")
    assert result.status == "lost"


def test_won_after_a_fall_into_the_goal(engine):
    room = parse("""
        ### ### ###

        ### #*. @..
    """)
    result = last(engine, room, "R")
    assert result.status == "won" and result.state.player == (1, 0, 1, 1)
    assert [f.player for f in result.frames] == [(1, 0, 2, 1), (1, 0, 1, 1)]


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


def test_hook_pulls_a_crate_to_you_and_it_falls(engine):
    room = parse("""
        ##### #####

        #.### @..$#

        ##### ....*
    """)
    result = last(engine, room, ["hR"])
    # the crate comes to p + d = (1, 0, 1, 1), which has no floor: it falls out
    assert result.moved and result.state == S((0, 0, 1, 1))


def test_hook_stops_at_the_first_solid_cell(engine):
    room = parse("""
        ###### ######

        ###### @.$.#.

        ###### .....*
    """)
    result = last(engine, room, ["hR"])
    assert result.state == S((0, 0, 1, 1), (1, 0, 1, 1))


def test_hook_flying_out_of_the_grid_is_not_a_move(engine):
    room = parse("""
        #### ####

        #### @..*
    """)
    for hook in ("hR", "hL", "hU", "hD", "hA", "hK"):
        assert not last(engine, room, [hook]).moved, hook


def test_hook_ana_onto_a_ramp_stays(engine):
    # pulled ana to w = 2, over a ramp: the ramp holds it from kata
    room = parse("""
        ### ### ###

        ### @.. ...

        >## ... ..*

        ### #.. ...
    """)
    result = last(engine, room, ["hA"])
    assert result.moved and result.state.player == (0, 0, 1, 2)


def test_hook_ana_pulls_a_crate_over_you(engine):
    room = parse("""
        ### ### ###

        ### @.. ...

        ### ... ..*

        >## $.. ...
    """)
    result = last(engine, room, ["hA"])
    # the crate comes to p + w = w 2, stands on the floor there, held from kata by you
    assert result.moved and result.state == S((0, 0, 1, 1), (0, 0, 1, 2))


def test_hook_along_a_wrapped_w_flies_at_most_w_minus_one(engine):
    # the column along w holds nothing but the player; ramps hold every cell of it from
    # kata, so a hook that flew W cells, round to the player, would leave it a slice over
    room = parse("""
        wrap: w

        >## ..*

        >## @..

        >## ...
    """)
    assert engine.start(room).state == room.start
    for hook in ("hA", "hK"):
        assert not last(engine, room, [hook]).moved, hook


def test_hook_kata_across_the_wrap_pulls_a_crate(engine):
    room = parse("""
        wrap: w

        >## ... ..*

        >## @.. ...

        ### ... ...

        >## $.. ...
    """)
    # W = 4: kata of w 1 is w 0, then w 3 (the crate, k = 2): it comes to p - w = w 0
    result = last(engine, room, ["hK"])
    assert result.moved and result.state.crates == ((0, 0, 1, 0),)


def test_ramp_leaning_in_y_up_and_back_down(engine):
    # 'v' rises ana toward +y (D); the way back, U, takes the ramp down again
    room = parse("""
        ### v## @.. ...
        ### ### #.. ...
        ### ### ... ...

        ### ### ### ...
        ### ### .## ...
        ### ### ### ..*
    """)
    result = last(engine, room, "D")
    assert result.state.player == (0, 1, 2, 1) and result.frames == (S((0, 1, 2, 1)),)
    back = engine.step(room, result.state, "U", trace=True)
    assert back.state.player == (0, 0, 2, 0) and back.frames == (S((0, 0, 2, 0)),)


# -- the start as written: '+' and '%' ------------------------------------------------


def test_a_player_written_in_the_goal_who_falls_away_is_accepted(engine):
    room = parse("""
        ### ### ###

        ### ..# +..
    """)
    first = engine.start(room)
    assert first.state.player == (0, 0, 1, 1) and first.status == "playing"


def test_a_crate_written_in_the_goal_is_no_win(engine):
    room = parse("""
        ### ###

        ### @.%
    """)
    assert engine.start(room).status == "playing"
    result = last(engine, room, "R")
    assert result.state == S((1, 0, 1, 1), (2, 0, 1, 1)) and result.status == "playing"


# -- the proofs' switches -------------------------------------------------------------


def test_without_gravity_w_held_from_kata_always_holds(engine):
    room = parse("""
        ### ### ###

        ### ... ...

        ### $@* ...
    """)
    first = engine.start(room, trace=True)
    # with gravity: both slide kata, the crate first (lower x)
    assert first.state == S((1, 0, 1, 1), (0, 0, 1, 1))
    still = engine.start(room, gravity_w=False)
    assert not still.moved and still.state == room.start
    # and a step off a ledge still falls in z
    result = last(engine, room, "R", gravity_w=False)
    assert result.state.player == (2, 0, 1, 2) and result.status == "won"


def test_without_ramps_a_ramp_no_longer_holds_from_kata(engine):
    room = parse("""
        ### ... ...

        ### >## @.*
    """)
    assert engine.start(room).state == room.start
    plain = room.without(["ramps"])
    first = engine.start(plain, trace=True)
    assert first.status == "lost"  # slips kata off the block into the void


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


# -- the command line on these cases --------------------------------------------------


def cli(tmp_path, text, *args):
    path = tmp_path / "room.txt"
    path.write_text(textwrap.dedent(text).strip("\n") + "\n")
    proc = subprocess.run([sys.executable, "-m", "anabasis", *args[:1], str(path), *args[1:]],
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def test_cli_replay_a_loss_prints_the_room_before_the_losing_move(tmp_path):
    rc, out, err = cli(tmp_path, """
        #### #### ####

        ##.# @$.. ...*
    """, "replay", "RLRR")
    # R pushes the crate out; L walks back; R walks; R walks off into the hole and out
    assert (rc, err) == (0, "")
    assert out == ("status: lost\nmoves: 4\n\n#### #### ####\n\n"
                   "##.# .@.. ...*\n")


def test_cli_replay_a_crate_on_the_goal(tmp_path):
    rc, out, err = cli(tmp_path, """
        ### ###

        ### @$*
    """, "replay", "RR")
    assert (rc, err) == (0, "")
    assert out == "status: playing\nmoves: 1\n\n### ###\n\n### .@%\n"


def test_cli_solve_and_impossible(tmp_path):
    rc, out, err = cli(tmp_path, RAMP_ACROSS_THE_WRAP, "solve")
    assert (rc, out, err) == (1, "impossible: 3 states searched\n", "")
    text = """
        wrap: w

        ### ### #..

        ### ### ###

        ### >## @#*
    """
    rc, out, err = cli(tmp_path, text, "solve")
    # R ramps up across the wrap; R walks into the goal's slice, and slips kata into the goal
    assert (rc, out, err) == (0, "solution: 2\nmoves: RR\n", "")
    rc, out, err = cli(tmp_path, text, "solve", "--without", "wrap")
    assert rc == 1 and out.startswith("impossible: ") and err == ""


def test_cli_replay_refuses_a_bad_move(tmp_path):
    rc, out, err = cli(tmp_path, RAMP_ACROSS_THE_WRAP, "replay", "RQ")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1


# -- an oracle: RULES.md read once more, as slow and plain code ------------------------
#
# Written from the rule book alone (not from either engine), so that a reading
# both engines share can be caught where the two of them would agree.

_UNIT = {"x": (1, 0, 0, 0), "y": (0, 1, 0, 0), "z": (0, 0, 1, 0), "w": (0, 0, 0, 1)}
_LEANS = {">": (1, 0, 0, 0), "<": (-1, 0, 0, 0), "v": (0, 1, 0, 0), "^": (0, -1, 0, 0)}


def _plus(p, d, k=1):
    return tuple(a + k * b for a, b in zip(p, d, strict=True))


class Oracle:
    """One move of RULES.md: ``play(player, crates, move)`` -> (player, crates, status, frames)."""

    def __init__(self, room, gravity_w=True):
        self.room, self.size, self.wrap, self.gravity_w = room, room.size, room.wrap, gravity_w
        self.char = {p: levelfile.CHAR_OF[room.cells[room.index(p)]] for p in room.positions()}

    def where(self, p):
        """'void', 'wall', or the cell inside the grid (w taken round where it wraps)."""
        x, y, z, w = p
        X, Y, Z, W = self.size
        if self.wrap:
            w %= W
        if z < 0 or w < 0:
            return "void"
        if not (0 <= x < X and 0 <= y < Y) or z >= Z or w >= W:
            return "wall"
        return (x, y, z, w)

    def solid(self, p):
        q = self.where(p)
        if q == "void":
            return False
        return q == "wall" or self.char[q] != "." or q == self.player or q in self.crates

    def free(self, p):
        q = self.where(p)
        return not isinstance(q, str) and not self.solid(q)

    def lean(self, p):
        q = self.where(p)
        return None if isinstance(q, str) else _LEANS.get(self.char[q])

    def held_from_kata(self, p):
        kata, below = _plus(p, _UNIT["w"], -1), _plus(p, _UNIT["z"], -1)
        return self.solid(kata) or self.lean(below) is not None

    def fall_of(self, p):
        """(cell it falls into, 'z' or 'w') or None, by step 1 of a settle round."""
        below = _plus(p, _UNIT["z"], -1)
        if not self.solid(below):
            return below, "z"
        kata = _plus(p, _UNIT["w"], -1)
        if self.gravity_w and not self.held_from_kata(p) and not self.solid(kata):
            return kata, "w"
        return None

    def settle(self):
        """Rounds until none moves; returns (lost, frames)."""
        X, Y, Z, W = self.size
        frames = []
        crates = [[c, 0] for c in self.crates]  # position (None once gone), kata run
        player_run = 0
        while True:
            moved = False
            order = sorted((k for k in crates if k[0] is not None),
                           key=lambda k: (k[0][2], k[0][3], k[0][1], k[0][0]))
            for k in order:
                self.crates = [c[0] for c in crates if c[0] is not None]
                fall = self.fall_of(k[0])
                if fall:
                    moved = True
                    target, axis = fall
                    k[1] = 0 if axis == "z" else k[1] + 1
                    q = self.where(target)
                    k[0] = None if q == "void" or (self.wrap and k[1] >= W) else q
            self.crates = [c[0] for c in crates if c[0] is not None]
            fall = self.fall_of(self.player)
            if fall:
                moved = True
                target, axis = fall
                player_run = 0 if axis == "z" else player_run + 1
                q = self.where(target)
                if q == "void" or (self.wrap and player_run >= W):
                    return True, frames
                self.player = q
            if not moved:
                return False, frames
            frames.append(State.of(self.player, self.crates))

    def step(self, d):
        p = self.player
        ahead, beyond = _plus(p, d), _plus(p, d, 2)
        crate_ahead = self.where(ahead) in self.crates
        pushable = crate_ahead and self.free(beyond)
        in_way = self.solid(ahead) and not pushable
        no_floor = self.free(ahead) and not self.solid(_plus(ahead, _UNIT["z"], -1))
        up, ana = _UNIT["z"], _UNIT["w"]
        if (self.lean(_plus(p, up, -1)) == d and (in_way or no_floor)
                and self.free(_plus(ahead, ana))):
            self.player = self.where(_plus(ahead, ana))  # 1. ramp up
        elif (self.lean(_plus(_plus(ahead, ana, -1), up, -1)) == tuple(-c for c in d)
                and (in_way or no_floor) and self.free(_plus(ahead, ana, -1))):
            self.player = self.where(_plus(ahead, ana, -1))  # 2. ramp down
        elif self.free(ahead):
            self.player = ahead  # 3. walk
        elif pushable:
            self.crates = [beyond if c == ahead else c for c in self.crates]  # 4. push
            self.player = ahead
        elif self.solid(ahead) and self.free(_plus(ahead, up)) and self.free(_plus(p, up)):
            self.player = _plus(ahead, up)  # 5. climb

    def hook(self, d):
        p = self.player
        reach = self.size[3] - 1 if (self.wrap and d[3]) else 99
        for k in range(1, reach + 1):
            c = _plus(p, d, k)
            q = self.where(c)
            if isinstance(q, str):
                return  # out of the grid: it catches only on the room
            if self.solid(q):
                if k >= 2:
                    if q in self.crates:
                        self.crates = [self.where(_plus(p, d)) if x == q else x
                                       for x in self.crates]
                    else:
                        self.player = self.where(_plus(p, d, k - 1))
                return

    def play(self, state, move):
        self.player, self.crates = state.player, list(state.crates)
        if move is not None:
            d = rules.HOOKS[move] if move.startswith("h") else rules.STEPS[move]
            (self.hook if move.startswith("h") else self.step)(d)
        moved_state = State.of(self.player, self.crates)
        lost, frames = self.settle()
        after = State.of(self.player, self.crates)
        status = "lost" if lost else ("won" if self.player == self.room.goal else "playing")
        return after, status, [moved_state, *frames]


def _random_room(rng):
    from anabasis.engine.world import Room

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
def test_oracle_agrees_with_both_engines_on_random_rooms(engine, gravity_w):
    import random

    rng = random.Random(20261129 + gravity_w)
    moves = list(rules.STEPS) + list(rules.HOOKS)
    checked = 0
    while checked < 5000:
        room = _random_room(rng)
        if room is None:
            continue
        oracle = Oracle(room, gravity_w)
        state, status, frames = oracle.play(room.start, None)
        first = engine.start(room, gravity_w=gravity_w, trace=True)
        assert first.status == status, room
        if status == "lost":
            continue
        assert first.state == state and list(first.frames) == frames[1:], room
        checked += 1
        for _ in range(15):
            move = rng.choice(moves)
            state2, status2, frames2 = oracle.play(state, move)
            result = engine.step(room, state, move, gravity_w=gravity_w, trace=True)
            assert result.status == status2, (room, state, move)
            if status2 == "lost":
                assert result.moved
                # the frames up to the fall out agree (the last shows where it went)
                assert list(result.frames[:len(frames2)]) == frames2, (room, state, move)
                break
            moved = state2 != state
            assert result.moved == moved, (room, state, move)
            assert result.state == state2, (room, state, move)
            if moved:
                assert list(result.frames) == frames2, (room, state, move)
            state = state2
            if status2 == "won":
                break


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
