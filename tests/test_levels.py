"""The seven tutorial levels, each proved.

For every level: the solver's shortest solution is its par; the stored
solution (here and in ``docs/levels.md``) replays to a win in exactly par
moves; every rule its ``needs:`` line names is proved (no win exists with
that rule switched off), and every rule it does not name leaves it
solvable, so the line is exact; the hook saves nothing; and the level
round-trips through the text writer and through its room code.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

from anabasis import cli, levelfile, levels, rules
from anabasis.solver import solve
from anabasis.world import SWITCHES, Room

#: The table from the web readme's Levels section, with each level's solution:
#: number -> (file, par, needs, wrap, solution).
TABLE = {
    1: ("01-held.txt", 5, (), False, "DRRRU"),
    2: ("02-slip.txt", 6, ("gravity-w",), False, "RRDDLL"),
    3: ("03-around.txt", 5, ("ramps",), False, "RRDDL"),
    4: ("04-stair.txt", 4, ("ramps",), False, "RRRR"),
    5: ("05-bridge.txt", 6, ("crates",), False, "DRRRRD"),
    6: ("06-plumb.txt", 10, ("ramps", "crates"), False, "LLUURRRRDD"),
    7: ("07-ascending.txt", 11, ("ramps", "wrap"), True, "RRRDDDLLLUU"),
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
    assert room.view == "stand"
    assert room.teaches, "the game shows this line"


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


def test_level_1_needs_nothing():
    assert levels.load_level(1).needs == ()


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
    if importlib.util.find_spec("anabasis.codes") is None:
        pytest.skip("anabasis.codes is not written yet")
    from anabasis import codes

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
        assert f"`{moves}`" in text, f"docs/levels.md lacks level {n}'s solution"
        assert f"par {par}" in text, f"docs/levels.md lacks level {n}'s par"


def test_bench_reports_the_proofs_time_and_that_all_seven_hold():
    from anabasis import bench_levels

    figures = dict(bench_levels.bench())
    assert isinstance(figures["levels.proofs_s"], float)
    assert 0 < figures["levels.proofs_s"] < 60
    assert figures["levels.proved"] == len(TABLE)
    # A level whose header claims a par its room does not have is not proved.
    room = levels.load_level(4)
    assert not bench_levels.proves(replace(room, par=3), bench_levels.prove(room))
