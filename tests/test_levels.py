"""The seven tutorial levels, each proved.

For every level: the solver's shortest solution is its par; the stored
solution (here and in ``docs/levels.md``) replays to a win in exactly par
moves; every rule its ``needs:`` line names is proved (no win exists with
that rule switched off), and every rule it does not name leaves it
solvable, so the line is exact; the hook saves nothing; and the level
round-trips through the text writer and through its room code.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from anabasis import cli
from anabasis.engine import rules
from anabasis.engine.cells import BLOCK, EMPTY, RAMPS
from anabasis.engine.solver import solve
from anabasis.engine.world import SWITCHES, Room
from anabasis.formats import codes, levelfile, levels

#: The table from the web readme's Levels section, with each level's solution:
#: number -> (file, par, needs, wrap, solution).
TABLE = {
    1: ("01-held.txt", 5, (), False, "DRRRU"),
    2: ("02-slip.txt", 6, ("gravity-w",), False, "DDRRUU"),
    3: ("03-around.txt", 5, ("ramps",), False, "RRDDL"),
    4: ("04-stair.txt", 4, ("ramps",), False, "RRRR"),
    5: ("05-bridge.txt", 6, ("crates",), False, "DRRRRD"),
    6: ("06-plumb.txt", 10, ("ramps", "crates"), False, "LLUURRRRDD"),
    7: ("07-ascending.txt", 11, ("ramps", "wrap"), True, "RRRDDDLLLUU"),
}
#: What each level teaches, word for word as the readme's table has it.
TEACHES = {
    1: "two downs: a floor holds you only with a block kata of it; the ✕ cells have none",
    2: "where the block kata of you ends, you slip a slice",
    3: "a wall in your slice; a ramp carries you round it, ana",
    4: "ramps hold you up over nothing",
    5: "a gap kata of you; push a crate in to fill it",
    6: "up a ramp to the crate, then drop it two slices down a shaft into the gap",
    7: "w wraps: ramps round the room climb ana for ever, to a goal one slice below you",
}
NUMBERS = sorted(TABLE)
DOCS = Path(__file__).resolve().parent.parent / "docs" / "levels.md"


@pytest.fixture(scope="module", params=NUMBERS, ids=lambda n: f"level{n}")
def level(request) -> tuple[int, Room]:
    return request.param, levels.load_level(request.param)


def play(room: Room, moves: str):
    """Replay ``moves`` from the settled start: (final status, moves that counted)."""
    first = rules.start(room)
    state, status, taken = first.state, first.status, 0
    for move in moves:
        result = rules.step(room, state, move)
        assert result.moved, f"move {taken + 1} ({move}) of {moves} changes nothing"
        assert status == "playing", f"{moves} goes on after the game ended ({status})"
        state, status = result.state, result.status
        taken += 1
    return status, taken


def test_there_are_seven_levels_in_the_tables_order():
    assert [p.name for p in levels.level_paths()] == [TABLE[n][0] for n in NUMBERS]


def test_header_matches_the_table(level):
    n, room = level
    name, par, needs, wrap, _ = TABLE[n]
    assert room.name == name[3:-4]
    assert room.par == par
    assert room.needs == needs
    assert room.wrap == wrap
    # level 4 opens in the both view, where its stair of ramps, x across and w along the
    # floor, shows whole: in the stand view the goal floated "↑ 3 ana" over nothing, and
    # blind players found it unreachable
    assert room.view == ("both" if n == 4 else "stand")
    assert room.teaches == TEACHES[n], "the game shows this line"


def test_room_is_small_enough_to_take_in_at_a_glance(level):
    _, room = level
    X, Y, _, W = room.size
    assert X <= 9 and Y <= 9 and W <= 6
    if room.wrap:
        assert W == 4


def test_start_is_neither_lost_nor_won(level):
    _, room = level
    assert rules.start(room).status == "playing"


def test_shortest_solution_is_par(level):
    n, room = level
    result = solve(room)
    assert result.status == "solved"
    assert len(result.moves) == room.par == TABLE[n][1]


def test_stored_solution_wins_in_exactly_par_moves(level):
    n, room = level
    moves = TABLE[n][4]
    assert play(room, moves) == ("won", room.par)
    # One move short of it is not yet a win.
    assert play(room, moves[:-1])[0] == "playing"


def test_each_needs_entry_is_proved_impossible(level):
    _, room = level
    for rule in room.needs:
        assert solve(room, without=(rule,)).status == "impossible", rule


def test_rules_not_listed_in_needs_leave_it_solvable(level):
    # The needs line is exact: the level is about what it lists, and nothing else.
    _, room = level
    for rule in SWITCHES:
        if rule not in room.needs:
            assert solve(room, without=(rule,)).status == "solved", rule


def test_hook_saves_nothing(level):
    _, room = level
    result = solve(room, hook=True)
    assert result.status == "solved"
    assert len(result.moves) == room.par


def test_round_trips_through_the_text_writer(level):
    n, room = level
    text = levelfile.write(room)
    assert levelfile.parse(text, TABLE[n][0]) == room
    assert levelfile.write(levelfile.parse(text)) == text


def test_file_is_in_canonical_form(level):
    n, room = level
    path = levels.level_path(n)
    assert path.read_text() == levelfile.write(room)


def test_round_trips_through_its_room_code(level):
    _, room = level
    code = codes.encode(room)
    assert len(code) <= 80
    assert code[0] == ("E" if room.wrap else "D")
    back = codes.decode(code)
    # A code carries the room, not the level file's name, par or needs.
    assert back == replace(room, name="", teaches="", par=None, needs=())
    assert codes.encode(back) == code
    assert len(solve(back).moves) == room.par


def test_cli_solve_prints_par(level, capsys):
    n, room = level
    assert cli.main(["solve", str(n)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"solution: {room.par}"
    assert out[1].startswith("moves: ") and len(out[1]) == len("moves: ") + room.par


def test_cli_solve_without_each_need_prints_impossible(level, capsys):
    n, room = level
    for rule in room.needs:
        assert cli.main(["solve", str(n), "--without", rule]) == 1
        assert capsys.readouterr().out.startswith("impossible: "), rule


def test_cli_replay_of_the_solution_wins(level, capsys):
    n, room = level
    assert cli.main(["replay", str(n), TABLE[n][4]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["status: won", f"moves: {room.par}"]


def test_docs_give_each_levels_solution():
    text = DOCS.read_text()
    for n in NUMBERS:
        name, par, _, _, moves = TABLE[n]
        title = name.split("-", 1)[1].removesuffix(".txt")
        heading = f"## {n}. {title} (par {par}): `{moves}`"
        assert heading in text.splitlines(), f"docs/levels.md lacks {heading!r}"


def test_bench_reports_the_proofs_time_and_that_all_seven_hold():
    # (and every other chapter's levels with them)
    from anabasis.bench import levels as bench_levels

    figures = dict(bench_levels.bench())
    assert isinstance(figures["levels.proofs_s"], float)
    assert 0 < figures["levels.proofs_s"] < 60
    # Every chapter's levels are proved (tests/test_chapters.py names them), the seven among them.
    assert figures["levels.proved"] == sum(len(c) for c in levels.chapters() if c.playable())
    for n in NUMBERS:
        room = levels.load_level(n)
        assert bench_levels.proves(room, bench_levels.prove(room)), n
    # A level whose header claims a par its room does not have is not proved.
    room = levels.load_level(4)
    assert not bench_levels.proves(replace(room, par=3), bench_levels.prove(room))


# -- each level's idea, as its table row describes it, traced along its solution ------


def trace(n: int) -> tuple[Room, list]:
    """Level ``n`` and the settled states along its stored solution, the start first."""
    room = levels.load_level(n)
    states = [rules.start(room).state]
    for move in TABLE[n][4]:
        states.append(rules.step(room, states[-1], move).state)
    return room, states


def ws(states) -> list[int]:
    return [s.player[3] for s in states]


def test_level_1_the_block_kata_of_you_shapes_the_path():
    # Without w's gravity the straight way is shorter: the U kata of you is why par is 5.
    room = levels.load_level(1)
    assert len(solve(room, without=("gravity-w",)).moves) < room.par
    _, states = trace(1)
    assert set(ws(states)) == {1}


def test_level_2_you_slip_a_slice_where_the_block_kata_of_you_ends():
    room, states = trace(2)
    assert ws(states) == [2] * 4 + [1] * 3
    x, y, z, w = states[3].player  # the last cell with a block kata of it
    assert room.cell((x, y, z, w - 1)) != EMPTY
    x, y, z, _ = states[4].player
    assert room.cell((x, y, z, 1)) == EMPTY  # where it ends you slip


def test_level_3_a_ramp_carries_you_round_the_wall_and_back():
    room, states = trace(3)
    assert ws(states) == [1, 1, 1, 2, 1, 1]
    x, y, z, w = states[3].player  # on top of the wall, ana
    assert room.cell((x, y, z, w - 1)) == BLOCK
    for on_ramp in (states[2], states[4]):  # before the rise, after the descent
        x, y, z, w = on_ramp.player
        assert room.cell((x, y, z - 1, w)) in RAMPS


def test_level_4_ramps_hold_you_up_over_nothing():
    room, states = trace(4)
    assert ws(states) == [1, 2, 3, 4, 4]
    for state in states[1:4]:
        x, y, z, w = state.player
        assert room.cell((x, y, z, w - 1)) == EMPTY, "nothing kata of you"
        assert room.cell((x, y, z - 1, w)) in RAMPS, "a ramp under you"


def test_level_5_the_crate_fills_the_gap_kata_of_you():
    _, states = trace(5)
    assert set(ws(states)) == {2}
    (crate,) = states[-1].crates
    assert crate[3] == 1  # it slipped into the gap
    assert any(s.player[:3] == crate[:3] and s.player[3] == 2 for s in states)


def test_level_6_the_crate_drops_two_slices_down_the_shaft():
    _, states = trace(6)
    crate_ws = [s.crates[0][3] for s in states]
    drops = [a - b for a, b in zip(crate_ws, crate_ws[1:], strict=False) if a != b]
    assert drops == [2]  # from w=3 to w=1 in one move
    assert 3 in ws(states) and ws(states)[-1] == 2  # you went up a ramp to it, and back


def test_level_7_seven_slices_ana_is_one_slice_kata():
    room, states = trace(7)
    W = room.size[3]
    rises = [(b - a) % W for a, b in zip(ws(states), ws(states)[1:], strict=False)]
    assert rises.count(1) == 7 and rises.count(0) == 4
    start, goal = states[0].player, room.goal
    assert goal[3] == (start[3] - 1) % W  # one slice below you
    assert abs(goal[0] - start[0]) + abs(goal[1] - start[1]) == 1  # just beside you
    assert room.cell((goal[0], goal[1], goal[2], start[3])) == BLOCK  # past a wall
    for before, after, rise in zip(states, states[1:], rises, strict=False):
        if rise:  # each rise is over a drop in the slice you leave
            x, y, z, _ = after.player
            assert room.cell((x, y, z - 1, before.player[3])) == EMPTY
