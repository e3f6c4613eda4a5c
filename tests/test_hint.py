"""Hints and lost causes: the solver's search from any position (``solver.way_on``).

The window's side (the hint key, the arrow, the HUD line, hinted records)
is in ``test_hints_window.py`` and ``test_progress.py``; here are the engine and
``anabasis hint``.
"""

from __future__ import annotations

import random

import pytest

from anabasis import cli, gen
from anabasis.bench.solver import bench_room
from anabasis.engine import rules, solver
from anabasis.engine.world import State
from anabasis.formats import codes, levelfile, levels

#: A corridor with a bypass below it: push the crate onto the goal and nothing moves it again.
CORNER = (
    "###### ######\n###### ######\n\n"
    "###### #@$.*#\n###### #....#\n"
)


def brute_force(room, state, history):
    """The answer by the plain way: one full search per position, back along the stack."""
    here = solver.solve_from(room, state, max_states=None)
    if here.status == "solved":
        return ("won" if not here.moves else "solvable"), len(here.moves), None
    for undo, earlier in enumerate(reversed(history), 1):
        if solver.solve_from(room, earlier, max_states=None).status == "solved":
            return "lost", None, undo
    return "lost", None, None


@pytest.mark.parametrize("number", range(1, levels.count() + 1))
def test_hints_from_the_start_win_each_level_in_par(number):
    room = levels.load_level(number)
    game = rules.Game(room)
    while game.status == "playing":
        way = solver.way_on(room, game.state, game.history)
        assert way.status == "solvable" and len(way.moves) == room.par - game.moves
        assert game.play(way.moves[0]).moved
    assert game.status == "won" and game.moves == room.par
    assert solver.way_on(room, game.state, game.history).status == "won"


def test_a_crate_on_the_goal_is_lost_and_says_how_far_back():
    room = levelfile.parse(CORNER)
    game = rules.Game(room)
    for move in "RRD":  # the crate onto the goal, then a step away from it
        game.play(move)
    way = solver.way_on(room, game.state, game.history)
    assert (way.status, way.undo) == ("lost", 2)
    game.undo()
    game.undo()
    assert solver.way_on(room, game.state, game.history).status == "solvable"


def test_a_lost_position_whose_only_live_one_is_the_start():
    room = levelfile.parse("##### #####\n##### #####\n\n##### #@$*#\n##### #...#\n")
    # the first push puts the crate on the goal, against the wall
    game = rules.Game(room)
    for move in "RRDL":
        game.play(move)
    game.restart()  # the dead positions stay on the stack, below the start
    game.play("R")
    game.play("D")
    way = solver.way_on(room, game.state, game.history)
    assert (way.status, way.undo) == ("lost", 2) and game.history[-2] == game.first


@pytest.mark.parametrize("source", ["5", "6", "hard.3", "hard.11", "medium.2"])
def test_lost_answers_agree_with_a_brute_force_over_the_undo_stack(source):
    """Random play (moves, undos, restarts): every position's answer, checked the plain way."""
    room = (levels.load_level(int(source)) if source.isdigit()
            else gen.build(*gen.parse_spec(source)).room)
    rng = random.Random(source)
    seen = set()
    for _walk in range(6):
        game = rules.Game(room)
        for _ in range(25):
            roll = rng.random()
            if roll < 0.1:
                game.undo()
            elif roll < 0.15:
                game.restart()
            else:
                game.play(rng.choice("RLDU"))
            if game.status == "won":
                break
            way = solver.way_on(room, game.state, game.history)
            want = brute_force(room, game.state, game.history)
            got = (way.status, len(way.moves) if way.moves is not None else None, way.undo)
            assert got == want, (source, game.state, game.history)
            seen.add(way.status)
    assert "lost" in seen or source in ("hard.3", "hard.11", "medium.2")


def test_lost_with_no_live_position_on_the_stack():
    room = levelfile.parse(CORNER.replace("#....#", "######"))  # no bypass: never solvable
    game = rules.Game(room)
    game.play("R")
    way = solver.way_on(room, game.state, game.history)
    assert (way.status, way.undo) == ("lost", None)


def test_too_big_to_tell_past_the_cap():
    room = bench_room()
    way = solver.way_on(room, rules.start(room).state, max_states=1_000)
    assert way.status == "too-big" and way.states == 1_000


def test_solve_from_the_start_is_solve():
    room = levels.load_level(6)
    assert solver.solve_from(room, room.start) == solver.solve(room)


# -- anabasis hint ------------------------------------------------------------------


def run(capsys, *argv):
    code = cli.main(["hint", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_hint_next_and_the_rest(capsys):
    code, out, _ = run(capsys, "1")
    assert code == cli.DONE and out == "next: D\nmoves: DRRRU\n"
    code, out, _ = run(capsys, "1", "DRR")
    assert code == cli.DONE and out == "next: R\nmoves: RU\n"


def test_cli_hint_won_lost_and_too_big(capsys):
    assert run(capsys, "1", "DRRRU")[:2] == (cli.DONE, "won\n")
    code_of = codes.encode(levelfile.parse(CORNER))
    code, out, _ = run(capsys, code_of, "RRD")
    assert (code, out) == (cli.NEGATIVE, "lost: undo 2\n")
    code, out, _ = run(capsys, code_of, "RRDLL")  # the last L hits the wall: not a move
    assert (code, out) == (cli.NEGATIVE, "lost: undo 4\n")
    code, out, _ = run(capsys, codes.encode(bench_room()), "--max-states", "500")
    assert (code, out) == (cli.GAVE_UP, "too big to tell: over 500 states\n")


def test_cli_hint_a_room_with_no_way_from_its_start(capsys):
    dead = codes.encode(levelfile.parse(CORNER.replace("#....#", "######")))
    code, out, _ = run(capsys, dead, "R")
    assert code == cli.NEGATIVE and out.startswith("impossible: ")


@pytest.mark.parametrize("argv, says", [
    (["1", "RX"], "character 2"),
    (["nowhere.txt"], "nowhere.txt"),
    (["1", "--max-states", "0"], "--max-states"),
])
def test_cli_hint_refuses_bad_input(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert code == cli.BAD_INPUT and out == "" and says in err and err.count("\n") == 1


def test_a_losing_move_in_moves_is_not_applied(capsys):
    """As ``replay`` and the game do: the position is the one before the losing move."""
    room = levels.load_level(1)
    assert rules.step(room, rules.start(room).state, "R").status == "lost"
    assert run(capsys, "1", "RDRR") == run(capsys, "1")


def test_the_game_keeps_its_undo_stack_as_history():
    game = rules.Game(levels.load_level(1))
    game.play("D")
    assert game.history == (game.first,) and isinstance(game.first, State)


# -- the game's side, without a window --------------------------------------------------


def test_hints_reveal_the_plan_a_move_at_a_time_and_follow_it():
    from anabasis.app.play.hints import Hints

    room = levels.load_level(1)
    game = rules.Game(room)
    hints = Hints(room)  # answers in the caller's thread
    hints.ask(game)
    assert hints.poll().status == "solvable" and hints.poll() is None  # once
    assert hints.revealed() == () and hints.used == 0
    assert [hints.press(), hints.press()] == ["shown", "shown"]
    assert hints.revealed() == ("D", "R") and hints.used == 2
    game.play("D")
    hints.ask(game)  # the hinted move: the rest stays revealed
    assert hints.revealed() == ("R",)
    game.play("L")
    hints.ask(game)  # another move: the plan is dropped until the answer comes
    assert hints.revealed() == () and hints.press() in ("shown", "pending")


def test_a_hint_pressed_before_the_answer_is_kept_for_it():
    from concurrent.futures import ThreadPoolExecutor

    from anabasis.app.play.hints import Hints

    room = levels.load_level(6)
    with ThreadPoolExecutor(1) as pool:
        hints = Hints(room, pool.submit)
        game = rules.Game(room)
        hints.ask(game)
        first = hints.press()
        assert first in ("pending", "shown")
        pool.submit(lambda: None).result()  # the worker has answered by now
        answer = hints.poll()
        if first == "pending":
            assert hints.wanted and answer.status == "solvable"
        assert hints.plan == solver.solve(room).moves


def test_hints_name_a_lost_position_and_how_far_back():
    from anabasis.app.play.hints import Hints

    room = levelfile.parse("##### #####\n##### #####\n\n##### #@$*#\n##### #...#\n")
    game = rules.Game(room)
    hints = Hints(room)
    game.play("R")  # the crate onto the goal, against the wall
    hints.ask(game)
    hints.poll()
    assert hints.lost and hints.press() == "lost"
    assert hints.lost_line() == "no way on from here: undo 1 move or restart"


def test_a_room_past_the_cap_is_too_big_to_tell_and_never_lost():
    from anabasis.app.play.hints import Hints

    room = bench_room()
    hints = Hints(room, max_states=2_000)
    hints.ask(rules.Game(room))
    assert hints.poll().status == "too-big"
    assert not hints.lost and hints.press() == "too-big" and hints.used == 0


def test_a_question_past_the_quick_search_goes_on_to_a_worker_process():
    from concurrent.futures import ThreadPoolExecutor

    from anabasis.app.play import hints as hints_mod

    room = bench_room()
    try:
        with ThreadPoolExecutor(1) as pool:
            hints = hints_mod.Hints(room, pool.submit, max_states=hints_mod.QUICK_STATES + 500,
                                    apart=hints_mod.apart)
            hints.ask(rules.Game(room))
            for _ in range(10_000):
                if hints.poll() is not None:
                    break
                hints._future.result(timeout=60)  # the thread's, then the process's
            # the full cap's answer, not the quick search's
            assert hints.answer.status == "too-big"
            assert hints.answer.states == hints_mod.QUICK_STATES + 500
    finally:
        hints_mod.shutdown()
