"""One test per rule of RULES.md, each checked on both engines (fast and reference).

Rooms are written in the level text format: one block per w-slice (w = 0
first), a row per y, the z layers side by side (z = 0 leftmost).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from anabasis.engine import moves, rules
from anabasis.engine.world import State
from anabasis.formats import levelfile


def parse(text: str):
    return levelfile.parse(textwrap.dedent(text).strip("\n") + "\n", "<test>")


def play(engine, room, moves, gravity_w=True):
    """Play ``moves`` (a string of steps, or a list) from the settled start; the last Result."""
    state = engine.start(room, gravity_w=gravity_w).state
    result = None
    for n, move in enumerate(moves, 1):
        result = engine.step(room, state, move, gravity_w=gravity_w, trace=True)
        assert result.status != "lost" or n == len(moves)  # only the last move may lose
        state = result.state
    return result


def players(result):
    return [frame.player for frame in result.frames]


# -- rules cases as data: tests/rules/*.txt --------------------------------------
#
# PuzzleScript-style: each file is a room in the level text format (its
# ``teaches:`` line says what it shows), then a ``moves:`` line, optionally
# ``without:`` (rules switched off, as ``--without`` names them), the expected
# ``status:`` and, where the last move lost or did nothing, its ``why:``
# (Result.why), a blank line, and the expected map as ``anabasis replay``
# prints it.  Each runs on both engines through ``replay``.

CASES = sorted((Path(__file__).parent / "rules").glob("*.txt"))
CASE_KEYS = {"moves", "without", "status", "why"}


def read_case(path: Path):
    """A case file as (room, expected keys, expected map)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("moves:"))
    room = levelfile.parse("\n".join(lines[:at]) + "\n", str(path))
    expect, rest = {}, lines[at:]
    while rest and rest[0].strip():
        key, _, value = rest.pop(0).partition(":")
        expect[key.strip()] = value.strip()
    assert set(expect) <= CASE_KEYS and {"moves", "status"} <= set(expect), path
    return room, expect, "\n".join(rest).strip("\n") + "\n"


def test_the_rules_cases_are_there():
    assert len(CASES) >= 30 and all(read_case(path) for path in CASES)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_rules_case(engine, path):
    room, expect, expected_map = read_case(path)
    off = {name.strip() for name in expect.get("without", "").split(",") if name.strip()}
    room = room.without(off - {"gravity-w"})
    played = engine.replay(room, moves.parse_moves(expect["moves"]),
                           gravity_w="gravity-w" not in off)
    assert played.status == expect["status"]
    assert played.why == expect.get("why", "")
    assert levelfile.write_map(room, played.state) == expected_map


#: RULES.md's consequences of the hook, each a case in a hook room (``hook: yes``).
HOOK_CONSEQUENCES = [
    "hook-pulls-a-crate-to-you-and-it-falls",  # pull a crate toward you
    "hook-pulls-a-crate-over-a-gap-it-falls-into",  # ... over a gap it then falls into
    "hook-pulls-a-crate-out-of-a-corner",  # ... out of a corner no push can reach
    "hook-crosses-a-gap-to-a-block-and-you-stay",  # cross a gap
    "hook-crosses-a-gap-and-nothing-holds-you",  # ... else you fall as ever
    "hook-fetches-a-crate-from-ana-it-falls-where-you-step-away",  # fetch a crate from ana
    "hook-ana-at-a-block-cannot-lift-you",  # it cannot lift you
    "hook-ana-onto-a-ramp-stays",  # ... only a ramp under your feet keeps you up
]


def test_each_consequence_of_the_hook_has_its_case():
    stems = {path.stem for path in CASES}
    for name in HOOK_CONSEQUENCES:
        assert name in stems, name
        room, expect, _ = read_case(Path(__file__).parent / "rules" / f"{name}.txt")
        assert "h" in expect["moves"]
    hook_rooms = [p.stem for p in CASES if read_case(p)[0].hook]
    assert len(hook_rooms) >= 6


@pytest.mark.parametrize("path", [p for p in CASES if read_case(p)[0].hook],
                         ids=lambda p: p.stem)
def test_hook_room_cases_play_the_same_as_the_game_plays_them(path):
    # in a hook room the hook is the player's: the game takes it without being asked
    room, expect, expected_map = read_case(path)
    game = rules.Game(room)
    status = game.status
    for move in moves.parse_moves(expect["moves"]):
        if game.status != "playing":
            break
        result = game.play(move)
        status = "lost" if result.status == "lost" else game.status
        if status == "lost":
            break
    assert status == expect["status"]
    assert levelfile.write_map(room, game.state) == expected_map


# -- the world ----------------------------------------------------------------

CORRIDOR = """
    ##### ##### #####
    ##### ##### #####
    ##### ##### #####

    ##### ##### .....
    ##### #@..* .....
    ##### ##### .....
"""


def test_held_from_below_and_from_kata(engine):
    room = parse(CORRIDOR)
    first = engine.start(room, trace=True)
    assert first.state == room.start and first.frames == () and not first.moved
    result = play(engine, room, "RRR")
    assert result.status == "won" and result.state.player == (4, 1, 1, 1)


def test_the_grid_edge_is_a_wall(engine):
    room = parse("""
        ### ###

        ### @.*
    """)
    for move in "LUD":  # x or y out of range: the wall, and no rule steps round it
        result = play(engine, room, move)
        assert not result.moved and result.state == room.start


# -- held, and settling ---------------------------------------------------------

SLIP = """
    #### ####

    #### ##.*

    #### @...
"""


def test_slip(engine):
    room = parse(SLIP)
    assert play(engine, room, "R").state.player == (1, 0, 1, 2)
    result = play(engine, room, "RR")
    # the block kata of you ends: you slip one slice, kata, and land on the next
    assert players(result) == [(2, 0, 1, 2), (2, 0, 1, 1)]
    assert result.status == "playing"
    assert play(engine, room, "RRR").status == "won"


STAIRCASE = """
    .... ....

    >... @...

    .>.. ...#

    ..># ...*
"""


def test_staircase_over_nothing(engine):
    room = parse(STAIRCASE)
    result = play(engine, room, "R")
    # no floor ahead (nothing under it), so the ramp carries you ana; the next ramp holds you
    assert result.state.player == (1, 0, 1, 2) and players(result) == [(1, 0, 1, 2)]
    assert play(engine, room, "RR").state.player == (2, 0, 1, 3)
    assert play(engine, room, "RRR").status == "won"


def test_held_from_kata_by_a_ramp(engine):
    room = parse(STAIRCASE)
    # the start stands over nothing in w: the ramp under it holds it
    assert engine.start(room).state == room.start
    # with the ramps made blocks, the same start slips kata and falls out below
    plain = room.without(["ramps"])
    first = engine.start(plain, trace=True)
    assert first.status == "lost"
    assert players(first) == [(0, 0, 1, 0), (0, 0, 0, 0), (0, 0, -1, 0)]


def test_crate_held_from_kata_by_a_ramp(engine):
    room = parse("""
        ### .##

        >## $@*
    """)
    assert engine.start(room).state == room.start
    assert engine.start(room.without(["ramps"])).state.crates == ()  # falls out kata


def test_settle_order_lowest_first(engine):
    room = parse("""
        ## ## ## ##

        ## .@ $* $.
    """)
    first = engine.start(room, trace=True)
    # the lower crate moves first, and the upper one sees its cell free in the same round
    assert first.frames == (State((1, 0, 1, 1), ((0, 0, 1, 1), (0, 0, 2, 1))),)


def test_settle_order_z_before_w(engine):
    room = parse("""
        ## ## ##

        ## .@ $.

        ## $. .*
    """)
    # A (z=1, w=2) falls kata and B (z=2, w=1) falls down, into the same cell: the lower z wins
    result = engine.start(room, trace=True)
    assert result.state.crates == ((0, 0, 1, 1), (0, 0, 2, 1))


def test_settle_order_kata_first_along_w(engine):
    room = parse("""
        ## ##

        ## .@

        ## $*

        ## $.
    """)
    # two crates in a column along w: the one kata goes first, the one ana follows at once
    result = engine.start(room, trace=True)
    assert result.frames == (State((1, 0, 1, 1), ((0, 0, 1, 1), (0, 0, 1, 2))),)


def test_settle_order_recomputed_each_round(engine):
    room = parse("""
        ## ## #. ..

        ## .@ .. $.

        ## #* .. ..

        ## #. $. ..
    """)
    # round 1: B (z 2, w 3) goes before A (z 3, w 1): B slides kata, A falls onto z 2.
    # Round 2, the order recomputed: A (z 2, w 1) now goes first and falls on, so B finds
    # A's cell free and slides into it in the same round (a stale order would make it wait)
    first = engine.start(room, trace=True)
    assert first.frames == (State((1, 0, 1, 1), ((0, 0, 2, 1), (0, 0, 2, 2))),
                            State((1, 0, 1, 1), ((0, 0, 1, 1), (0, 0, 2, 1))))


def test_player_settles_after_the_crates(engine):
    room = parse("""
        ## ## ##

        ## .. $.

        ## @* ..
    """)
    # the player (falling kata) and the crate (falling down) want the same cell: the crate wins
    result = engine.start(room, trace=True)
    assert result.state == State((0, 0, 1, 2), ((0, 0, 1, 1),))


def test_crate_falls_kata_into_a_gap(engine):
    room = parse("""
        ##### #####

        ##### ##.##

        ##### @$..*
    """)
    result = play(engine, room, "R")
    assert result.frames == (State((1, 0, 1, 2), ((2, 0, 1, 2),)),
                             State((1, 0, 1, 2), ((2, 0, 1, 1),)))
    assert play(engine, room, "RRRR").status == "won"  # across the crate in the gap


def test_crate_falls_down_a_shaft(engine):
    room = parse("""
        #### ####

        #### ##.#

        #### ##.#

        #### @$.*
    """)
    result = play(engine, room, "R")
    # the crate drops two slices down the shaft, one cell a round
    assert [f.crates for f in result.frames] == [((2, 0, 1, 3),), ((2, 0, 1, 2),),
                                                  ((2, 0, 1, 1),)]


def test_crate_on_the_players_head(engine):
    room = parse("""
        ### ### ###

        ### @.* $..
    """)
    assert engine.start(room).state == room.start  # the player holds the crate up
    result = play(engine, room, "R")
    # walk out from under it, and it falls into the cell you left
    assert result.frames == (State((1, 0, 1, 1), ((0, 0, 2, 1),)),
                             State((1, 0, 1, 1), ((0, 0, 1, 1),)))
    assert result.status == "playing"


def test_fall_out_below(engine):
    room = parse("""
        ### ###

        #.# @.*
    """)
    result = play(engine, room, "R")
    assert result.status == "lost" and result.moved and result.why == moves.FELL_BELOW
    assert players(result) == [(1, 0, 1, 1), (1, 0, 0, 1), (1, 0, -1, 1)]


def test_fall_out_kata(engine):
    room = parse("""
        ### #.#

        ### @.*
    """)
    result = play(engine, room, "R")
    assert result.status == "lost" and result.why == moves.FELL_KATA
    assert players(result) == [(1, 0, 1, 1), (1, 0, 1, 0), (1, 0, 1, -1)]


def test_crate_falls_out(engine):
    room = parse("""
        #### ####

        ##.# @$.*
    """)
    result = play(engine, room, "R")
    assert result.moved and result.status == "playing" and result.state == State((1, 0, 1, 1), ())
    assert result.why == ""  # a crate lost is no loss
    assert [f.crates for f in result.frames] == [((2, 0, 1, 1),), ((2, 0, 0, 1),), ()]


def test_endless_fall_in_a_wrap(engine):
    room = parse("""
        wrap: w

        ### #.#

        ### #.#

        ### @.*
    """)
    result = play(engine, room, "R")
    assert result.status == "lost" and result.why == moves.FELL_FOR_EVER
    # W = 3 kata steps without a z step: 2 -> 1 -> 0, and the third, round to 2, is the endless fall
    assert players(result) == [(1, 0, 1, 2), (1, 0, 1, 1), (1, 0, 1, 0), (1, 0, 1, 2)]


def test_endless_fall_of_a_crate(engine):
    room = parse("""
        wrap: w

        #### ##.#

        #### ##.#

        #### @$.*
    """)
    result = play(engine, room, "R")
    assert result.status == "playing" and result.state == State((1, 0, 1, 2), ())
    assert len(result.frames) == 4  # the push, then three kata steps: gone on the third


def test_landing_across_the_wrap(engine):
    room = parse("""
        wrap: w

        ### @..

        ### ###

        ### #.*
    """)
    result = play(engine, room, "R")
    assert players(result) == [(1, 0, 1, 0), (1, 0, 1, 2)]
    assert play(engine, room, "RR").status == "won"


def test_won_only_when_resting(engine):
    room = parse("""
        ### ### ###

        ### #.. @*.
    """)
    result = play(engine, room, "R")
    # the player passes through the goal and lands below it: not a win
    assert players(result) == [(1, 0, 2, 1), (1, 0, 1, 1)]
    assert result.status == "playing"


# -- moves ----------------------------------------------------------------------

RAMP = """
    ### ###

    >## @##

    ### #.*
"""


def test_ramp_up_round_a_wall(engine):
    room = parse(RAMP)
    result = play(engine, room, "R")
    # the wall in your slice is kata of you once you are past it, and holds you
    assert result.state.player == (1, 0, 1, 2) and players(result) == [(1, 0, 1, 2)]
    assert play(engine, room, "RR").status == "won"


def test_ramp_down(engine):
    room = parse(RAMP)
    result = play(engine, room, "RL")
    assert result.state.player == (0, 0, 1, 1) and players(result) == [(0, 0, 1, 1)]


def test_ramp_down_needs_the_cell_kata_free(engine):
    room = parse("""
        ### ###

        >## $##

        ### #@*
    """)
    # the crate on the ramp fills t = p + d - w: no ramp step, and nothing else applies
    assert not play(engine, room, "L").moved
    assert play(engine, room.without(["crates"]), "L").state.player == (0, 0, 1, 1)


def _lean_room(ramp: str) -> str:
    """The RAMP room laid along the ramp's lean: x for > <, y for v ^."""
    rows = [["###", "###"], [">##", "@##"], ["###", "#.*"]]
    if ramp in "<^":
        rows = [[layer[::-1] for layer in block] for block in rows]
        rows[1][0] = rows[1][0].replace(">", "<")
    if ramp in "v^":  # transpose x into y: each layer's characters become rows
        blocks = []
        for block in rows:
            lean = block[0].replace(">", "v").replace("<", "^")
            blocks.append("\n".join(f"{a} {b}" for a, b in zip(lean, block[1], strict=True)))
        return "\n\n".join(blocks)
    return "\n\n".join(" ".join(block) for block in rows)


@pytest.mark.parametrize("ramp,moves", [(">", "RR"), ("<", "LL"), ("v", "DD"), ("^", "UU")])
def test_ramp_up_every_lean(engine, ramp, moves):
    room = parse(_lean_room(ramp))
    result = play(engine, room, moves)
    assert result.status == "won"
    back = {"R": "L", "L": "R", "D": "U", "U": "D"}[moves[0]]
    assert play(engine, room, moves[0] + back).state.player == room.start.player


def test_ramp_up_only_along_its_lean(engine):
    room = parse(_lean_room(">"))
    mirrored = parse(_lean_room(">").replace(">", "<"))
    assert play(engine, room, "R").moved
    assert not play(engine, mirrored, "R").moved  # a ramp leaning the other way: nothing


def test_ramp_up_needs_the_cell_ana_free(engine):
    room = parse("""
        ### ###

        >## @##

        ### ##*
    """)
    assert not play(engine, room, "R").moved


def test_walk(engine):
    room = parse(CORRIDOR)
    result = play(engine, room, "R")
    assert result.state.player == (2, 1, 1, 1) and result.moved and result.status == "playing"


def test_steps_are_one_cell_along_x_and_y(engine):
    room = parse("""
        ### ###
        ### ###
        ### ###

        ### ...
        ### .@.
        ### ..*
    """)
    for move, player in [("R", (2, 1, 1, 1)), ("L", (0, 1, 1, 1)),
                         ("D", (1, 2, 1, 1)), ("U", (1, 0, 1, 1))]:
        assert engine.step(room, room.start, move).state.player == player, move


PUSH = """
    ##### #####

    ##### @$..*
"""


def test_push(engine):
    room = parse(PUSH)
    result = play(engine, room, "R")
    assert result.state == State((1, 0, 1, 1), ((2, 0, 1, 1),))
    assert play(engine, room, "RRR").state == State((3, 0, 1, 1), ((4, 0, 1, 1),))
    assert not play(engine, room, "RRRR").moved  # the grid's edge beyond the crate


def test_no_double_push(engine):
    room = parse("""
        ##### #####

        ##### @$$.*
    """)
    result = play(engine, room, "R")
    assert not result.moved and result.state == room.start and result.frames == ()


def test_climb(engine):
    room = parse("""
        #### #### ####

        #### @#.* ....
    """)
    assert players(play(engine, room, "R")) == [(1, 0, 2, 1)]
    result = play(engine, room, "RR")
    # a step one high, and down the other side
    assert players(result) == [(2, 0, 2, 1), (2, 0, 1, 1)]
    assert play(engine, room, "RRR").status == "won"


def test_climb_onto_a_crate_that_cannot_be_pushed(engine):
    room = parse("""
        #### #### ####

        #### @$#* ....
    """)
    result = play(engine, room, "R")
    assert result.state == State((1, 0, 2, 1), ((1, 0, 1, 1),))


def test_climb_blocked_by_a_ceiling(engine):
    low = parse("""
        #### ####

        #### @#.*
    """)
    assert not play(engine, low, "R").moved  # the room's ceiling over you
    over_you = parse("""
        #### #### ####

        #### @#.* #...
    """)
    assert not play(engine, over_you, "R").moved  # a block over your head
    over_it = parse("""
        #### #### ####

        #### @#.* .#..
    """)
    assert not play(engine, over_it, "R").moved  # a block on the step


def test_a_wall_is_in_your_way_not_stepped_round_through_w(engine):
    room = parse("""
        ### ###

        ### @#.

        ### ..*
    """)
    assert not play(engine, room, "R").moved  # the slice ana is clear, but only a ramp goes there


#: Why each of PUSH's moves does nothing (Result.why), as both engines say it.
NOT_A_MOVE_WHY = {
    "L": moves.ROOM_ENDS, "U": moves.ROOM_ENDS, "D": moves.ROOM_ENDS,
    "hR": moves.HOOK_TOO_CLOSE, "hK": moves.HOOK_TOO_CLOSE,
    "hL": moves.HOOK_FLEW_OUT, "hU": moves.HOOK_FLEW_OUT, "hA": moves.HOOK_FLEW_OUT,
}


def test_not_a_move(engine):
    room = parse(PUSH)
    for move in ["L", "U", "D", "hR", "hL", "hU", "hK", "hA"]:
        result = engine.step(room, room.start, move, trace=True)
        assert result[:4] == (room.start, "playing", False, ())
        assert result.why == NOT_A_MOVE_WHY[move]


def test_unknown_move(engine):
    room = parse(PUSH)
    with pytest.raises(ValueError):
        engine.step(room, room.start, "X")


# -- the hook -----------------------------------------------------------------


def test_hook_pulls_to_a_block(engine):
    room = parse("""
        ##### ##### #####

        ##### @...# ..*..
    """)
    result = play(engine, room, ["hR"])
    assert result.state.player == (3, 0, 1, 1)


def test_hook_pulls_to_a_ramp(engine):
    room = parse("""
        ##### ##### #####

        ##### @..>. ..*..
    """)
    result = play(engine, room, ["hR"])
    assert result.state.player == (2, 0, 1, 1)


def test_hook_pulls_a_crate(engine):
    room = parse("""
        ##### ##### #####

        ##### @..$. ..*..
    """)
    result = play(engine, room, ["hR"])
    assert result.state == State((0, 0, 1, 1), ((1, 0, 1, 1),))


def test_hook_catches_only_on_the_room(engine):
    room = parse("""
        ##### ##### #####

        ##### @.... ..*..
    """)
    assert not play(engine, room, ["hR"]).moved  # flies out of the grid: nothing
    adjacent = parse("""
        ##### ##### #####

        ##### @#... ..*..
    """)
    assert not play(engine, adjacent, ["hR"]).moved  # a block next to you: nothing


def test_hook_straight_ana_falls_back(engine):
    room = parse("""
        ## ##

        ## @*

        ## ..

        ## #.
    """)
    result = play(engine, room, ["hA"])
    # pulled a slice ana, and straight back kata the way it flew: not a move
    assert not result.moved and result.state == room.start
    lifted = play(engine, room, ["hA"], gravity_w=False)
    assert lifted.state.player == (0, 0, 1, 2)


def test_hook_in_a_wrap_flies_at_most_w_minus_one(engine):
    room = parse("""
        wrap: w

        ## #.

        ## @*

        ## ..
    """)
    # ana from w=1: w=2, then w=0 (the block under you in w) at W - 1 = 2 cells
    assert play(engine, room, ["hA"], gravity_w=False).state.player == (0, 0, 1, 2)
    alone = parse("""
        wrap: w

        ## ..

        >. @*

        ## ..
    """)
    # nothing in the column but yourself: the hook never catches on you
    assert not play(engine, alone, ["hA"], gravity_w=False).moved


# -- proofs: the rules switched off ---------------------------------------------------


def test_without_gravity_w(engine):
    room = parse(SLIP)
    result = play(engine, room, "RR", gravity_w=False)
    assert result.state.player == (2, 0, 1, 2)  # held from kata always holds: no slip
    result = play(engine, room, "RRR", gravity_w=False)
    assert result.state.player == (3, 0, 1, 2) and result.status == "playing"


def test_without_ramps(engine):
    room = parse(RAMP).without(["ramps"])
    assert not play(engine, room, "R").moved


def test_without_crates(engine):
    room = parse(PUSH).without(["crates"])
    assert play(engine, room, "R").state == State((1, 0, 1, 1), ())


def test_without_the_wrap(engine):
    room = parse("""
        wrap: w

        ### @..

        ### ###

        ### #.*
    """)
    plain = room.without(["wrap"])
    assert engine.start(plain).status == "lost"  # w < 0 is the void
    ascending = parse("""
        wrap: w

        ### #.*

        >## @##
    """)
    # wrapped, the ramp in the top slice carries you ana round to w = 0; unwrapped,
    # w >= W is solid and there is nowhere to go
    assert players(play(engine, ascending, "R")) == [(1, 0, 1, 0)]
    assert play(engine, ascending, "RR").status == "won"
    assert not play(engine, ascending.without(["wrap"]), "R").moved


# -- the game -----------------------------------------------------------------


def test_game_moves_and_undo():
    game = rules.Game(parse(SLIP))
    assert (game.moves, game.status, game.can_undo) == (0, "playing", False)
    assert game.play("L").moved is False and game.moves == 0  # not a move: not counted
    game.play("R")
    game.play("R")
    assert game.moves == 2 and game.state.player == (2, 0, 1, 1)
    assert game.undo() and game.moves == 1 and game.state.player == (1, 0, 1, 2)
    assert game.undo() and game.moves == 0 and game.state == game.room.start
    assert not game.undo()


def test_game_lost_move_is_not_applied():
    game = rules.Game(parse("""
        ### ###

        #.# @.*
    """))
    result = game.play("R")
    assert result.status == "lost" and len(result.frames) == 3
    assert game.state == game.room.start and game.moves == 0 and game.status == "playing"
    assert not game.can_undo


def test_game_won_and_restart():
    game = rules.Game(parse(SLIP))
    for move in "RRR":
        game.play(move)
    assert game.status == "won" and game.moves == 3
    assert not game.play("L").moved and game.moves == 3  # nothing moves once won
    assert game.restart() and game.moves == 0 and game.status == "playing"
    assert not game.restart()  # already at the start: nothing to undo
    assert game.undo() and game.status == "won" and game.moves == 3  # restart is undoable


def test_game_refuses_the_hook_unless_asked():
    room = parse(PUSH)
    with pytest.raises(ValueError):
        rules.Game(room).play("hR")
    assert rules.Game(room, hook=True).play("hR").moved is False


def test_in_a_hook_room_the_game_takes_the_hook_unless_told_not_to():
    from dataclasses import replace

    room = replace(parse(PUSH), hook=True)
    assert rules.Game(room).hook and rules.Game(room).play("hR").moved is False
    with pytest.raises(ValueError):
        rules.Game(room, hook=False).play("hR")
