"""The ``anabasis`` command: solve, replay, code and show, their output and exit codes."""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from anabasis.cli import main, parse_moves
from anabasis.engine.world import MAX_SIZE, Room, State
from anabasis.formats import codes, levelfile, levels

CORRIDOR = """\
name: corridor
par: 3
wrap: no
view: stand

##### ##### #####
##### ##### #####
##### ##### #####

##### ##### .....
##### #@..* .....
##### ##### .....
"""

# RRR wins; the ceiling (Z = 2) stops every climb, so L and U do nothing.
LOW = "#### ####\n#### ####\n\n#### #@.*\n#### ####\n"

# R walks, a second R steps off the edge: the player falls out.
EDGE = "#### ####\n#### ####\n\n###. #@..\n#### #*..\n"

# Level 2 as first written: needs w's gravity (a copy, so that this test
# does not move when the level is retuned).
SLIP = """\
### ###
### ###
### ###

### ###
### ###
### *..

### @..
### ##.
### ##.
"""

WALLED = "#### ####\n\n#### #@#*\n"  # the wall cannot be climbed under the ceiling


@pytest.fixture
def level(tmp_path):
    """Write a level file and give its path."""

    def write(text: str, name: str = "room.txt") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def refused(capsys, *argv: str) -> str:
    """Run a command that must be refused: exit code 2, one line on stderr, nothing on stdout."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert out == ""
    assert err.startswith("anabasis: ") and err.endswith("\n") and err.count("\n") == 1
    return err


# -- solve ---------------------------------------------------------------------------


def test_solve_a_level_file(capsys, level):
    assert run(capsys, "solve", level(CORRIDOR)) == (0, "solution: 3\nmoves: RRR\n", "")


def test_solve_a_room_code(capsys):
    code = codes.encode(levelfile.parse(CORRIDOR))
    assert run(capsys, "solve", code) == (0, "solution: 3\nmoves: RRR\n", "")


def test_solve_a_start_already_won_with_a_rule_off_is_zero_moves(capsys, level):
    # With w's gravity the player lands in the goal and slips on, kata, onto a
    # ramp; without it the player rests in the goal at once: no moves at all.
    room = "> . #\n\n# * @\n"
    assert run(capsys, "solve", level(room)) == (1, "impossible: 1 state searched\n", "")
    assert run(capsys, "solve", level(room), "--without", "gravity-w") == (
        0, "solution: 0\nmoves:\n", "")


# R ramps up across the wrap; R walks into the goal's slice and slips kata into the goal.
WRAP_RAMP = "wrap: w\n\n### ### #..\n\n### ### ###\n\n### >## @#*\n"


def test_solve_across_the_wrap_and_impossible_without_it(capsys, level):
    path = level(WRAP_RAMP)
    assert run(capsys, "solve", path) == (0, "solution: 2\nmoves: RR\n", "")
    rc, out, err = run(capsys, "solve", path, "--without", "wrap")
    assert rc == 1 and out.startswith("impossible: ") and err == ""


def test_solve_a_level_number(capsys):
    rc, out, _ = run(capsys, "solve", "1")
    assert rc == 0 and out.startswith("solution: ")


def test_solve_proves_impossible_with_exit_code_1(capsys, level):
    assert run(capsys, "solve", level(WALLED)) == (1, "impossible: 1 state searched\n", "")


def test_solve_without_a_rule(capsys, level):
    path = level(SLIP)
    rc, out, _ = run(capsys, "solve", path)
    assert rc == 0 and out.startswith("solution: ")
    rc, out, _ = run(capsys, "solve", path, "--without", "gravity-w")
    assert rc == 1 and out.startswith("impossible: ") and out.endswith(" states searched\n")
    # switches that change nothing here leave the answer alone
    assert run(capsys, "solve", level(CORRIDOR), "--without", "ramps, crates,wrap")[:2] == (
        0, "solution: 3\nmoves: RRR\n")


def test_solve_with_the_hook_prints_hook_moves_as_h_and_a_direction(capsys, level):
    rc, out, _ = run(capsys, "solve", level(CORRIDOR), "--hook")
    lines = out.splitlines()
    assert rc == 0 and lines[0].startswith("solution: ") and lines[1].startswith("moves: ")
    moves = parse_moves(lines[1][len("moves: "):])
    assert len(moves) == int(lines[0][len("solution: "):]) <= 3
    assert all(m in ("R", "L", "D", "U") or (m[0] == "h" and m[1] in "RLDUAK") for m in moves)


def test_solve_gives_up_at_its_cap_with_exit_code_3(capsys, level):
    assert run(capsys, "solve", level(SLIP), "--max-states", "2") == (
        3, "gave up: 2 states searched\n", "")


def test_solve_refuses_an_unknown_rule(capsys, level):
    err = refused(capsys, "solve", level(CORRIDOR), "--without", "gravity,ramps")
    assert "--without: unknown rule 'gravity'" in err
    assert "unknown rule 'gravity w'" in refused(capsys, "solve", "1", "--without", "gravity w")
    for blank in (" ", ",", "ramps,,crates", "ramps,"):
        assert "--without: an empty rule name" in refused(capsys, "solve", "1", "--without", blank)
    # an empty --without switches nothing off; spaces round a name are fine
    assert run(capsys, "solve", "1", "--without", "") == run(capsys, "solve", "1")
    assert run(capsys, "solve", "2", "--without", " gravity-w ")[0] == 1


def test_solve_refuses_a_bad_cap(capsys, level):
    assert "--max-states" in refused(capsys, "solve", level(CORRIDOR), "--max-states", "0")


# -- replay --------------------------------------------------------------------------


def test_replay_a_win(capsys, level):
    rc, out, err = run(capsys, "replay", level(CORRIDOR), "RRR")
    assert (rc, err) == (0, "")
    assert out == ("status: won\nmoves: 3\n\n"
                   "##### ##### #####\n##### ##### #####\n##### ##### #####\n\n"
                   "##### ##### .....\n##### #...+ .....\n##### ##### .....\n")


def test_replay_counts_only_steps_that_did_something(capsys, level):
    rc, out, _ = run(capsys, "replay", level(LOW), "L U R, U D")
    assert out.splitlines()[:2] == ["status: playing", "moves: 1"]
    assert out.splitlines()[6] == "#### #.@*"


def test_replay_stops_at_a_win(capsys, level):
    rc, out, _ = run(capsys, "replay", level(LOW), "RRLLL")
    assert out.splitlines()[:3] == ["status: won", "moves: 2", ""]
    assert out.splitlines()[6] == "#### #..+"


def test_replay_a_loss_shows_the_room_before_the_losing_move(capsys, level):
    rc, out, _ = run(capsys, "replay", level(EDGE), "RRRR")
    assert rc == 0
    assert out == ("status: lost\nmoves: 2\n\n#### ####\n#### ####\n\n"
                   "###. #.@.\n#### #*..\n")


def test_replay_nothing(capsys, level):
    rc, out, _ = run(capsys, "replay", level(CORRIDOR), "")
    assert out.startswith("status: playing\nmoves: 0\n\n##### ")


def test_replay_plays_hooks(capsys, level):
    hooked = "##### #####\n##### #####\n\n##### #@..#\n##### #*...\n"
    rc, out, _ = run(capsys, "replay", level(hooked), "hL hR")
    assert out.splitlines()[:2] == ["status: playing", "moves: 1"]  # hL: adjacent, nothing
    assert out.splitlines()[6] == "##### #..@#"  # pulled to the cell before the block


def test_replay_refuses_a_bad_move_string_at_its_place(capsys, level):
    err = refused(capsys, "replay", level(CORRIDOR), "RRxR")
    assert "the move string, character 3: 'x' is not a move" in err
    assert "character 2: 'h'" in refused(capsys, "replay", level(CORRIDOR), "Rh")
    assert "character 1: 'r'" in refused(capsys, "replay", level(CORRIDOR), "rr")


def test_parse_moves():
    assert parse_moves("RLDU hR hL hD hU hA hK") == ["R", "L", "D", "U", "hR", "hL", "hD",
                                                    "hU", "hA", "hK"]
    assert parse_moves("R,R  U") == ["R", "R", "U"]


# -- code and show ------------------------------------------------------------------------


def test_code_then_show_is_the_room(capsys, level):
    rc, out, err = run(capsys, "code", level(CORRIDOR))
    code = out.strip()
    assert (rc, err) == (0, "") and out == code + "\n" and code[0] == "D"
    rc, shown, err = run(capsys, "show", code)
    assert (rc, err) == (0, "")
    assert shown == "wrap: no\nview: stand\n\n" + CORRIDOR.split("\n\n", 1)[1]
    assert levelfile.parse(shown).cells == levelfile.parse(CORRIDOR).cells


def test_code_of_a_wrapped_room_starts_with_e(capsys, level):
    text = CORRIDOR.replace("wrap: no", "wrap: w").replace("view: stand", "view: both")
    rc, out, _ = run(capsys, "code", level(text))
    assert out[0] == "E"
    rc, shown, _ = run(capsys, "show", out.strip())
    assert "wrap: w\nview: both\n" in shown


def test_code_takes_a_level_number(capsys):
    rc, out, _ = run(capsys, "code", "1")
    assert rc == 0 and codes.decode(out.strip()).cells == levels.load_level(1).cells


def test_code_refuses_a_room_too_large(capsys, level):
    path = level(f"{'#' * 17} {'#' * 17}\n\n{'#' * 17} #@*{'.' * 14}\n")
    assert "rooms are at most 16x16x8x8" in refused(capsys, "code", path)


def test_show_and_solve_take_the_longest_codes(capsys):
    # a 16x16x8x8 code is thousands of characters: too long to be a file name
    room = Room.empty(MAX_SIZE, (0, 0, 0, 0), (15, 15, 7, 7), wrap=True)
    code = codes.encode(room)
    assert "checksum" in refused(capsys, "show", code + "B" * 6000)
    assert "does not explain" in refused(capsys, "show", code + "A" * 6000)
    rng = random.Random(4)
    cells = bytes(rng.choice((0, 1, 2, 5)) for _ in range(len(room.cells)))
    big = Room(MAX_SIZE, cells[:-1] + b"\0", (15, 15, 7, 7), State.of((15, 15, 7, 7)))
    code = codes.encode(big)
    assert len(code) > 4000
    rc, out, _ = run(capsys, "show", code)
    assert rc == 0 and levelfile.write_map(big) in out
    rc, out, err = run(capsys, "solve", code, "--max-states", "1000")
    assert (rc, err) == (1, "") and out.startswith("impossible: ")  # it falls out at once


def test_show_refuses_a_changed_code(capsys):
    code = codes.encode(levelfile.parse(CORRIDOR))
    bad = code[:4] + ("A" if code[4] != "A" else "B") + code[5:]
    err = refused(capsys, "show", bad)
    assert err.startswith(f"anabasis: room code {bad}: the checksum does not match")


def test_show_refuses_a_character_not_in_codes_at_its_place(capsys):
    assert "character 3, '!'" in refused(capsys, "show", "DA!AAAAAA")


# -- bad sources -------------------------------------------------------------------------------


def test_a_bad_level_file_is_refused_with_its_place(capsys, level):
    path = level(CORRIDOR.replace("#@..*", "#@.x*"))
    err = refused(capsys, "solve", path)
    assert err == f"anabasis: {path}:11:10: unknown cell character 'x' (known: .#><v^$@*+%)\n"


def test_a_missing_file_is_refused(capsys, tmp_path):
    path = tmp_path / "nothing.txt"
    assert refused(capsys, "solve", str(path)) == (
        f"anabasis: {path}: cannot read: No such file or directory\n")


def test_a_bad_level_number_is_refused(capsys):
    assert "no level 999" in refused(capsys, "solve", "999")
    assert "no level 0" in refused(capsys, "replay", "0", "R")


def test_a_source_that_is_nothing_is_refused(capsys):
    err = refused(capsys, "solve", "hello")
    assert "'hello' is not a level number, a level file, a made room" in err


def test_a_made_rooms_name_is_a_source_as_in_the_games_code_box(capsys):
    """``hard.k3x9`` names the room the game builds for it (the launcher's code box takes
    it; the command line refused it as "not a room code")."""
    from anabasis import gen

    made = gen.build("easy", gen.parse_spec("easy.fox")[1])
    assert main(["solve", "easy.fox"]) == 0
    assert f"solution: {len(made.moves)}\n" in capsys.readouterr().out
    assert main(["replay", " EASY.fox ", "".join(made.moves)]) == 0
    assert capsys.readouterr().out.startswith("status: won\n")
    assert "easy.: " in refused(capsys, "solve", "easy.")


def test_odd_level_numbers_are_refused_as_no_level(capsys):
    assert "no level -1: the levels are 1 to " in refused(capsys, "solve", "-1")
    # too long for int(): still one line, no traceback
    assert "no level 99999" in refused(capsys, "solve", "9" * 5000)
    rc, out, _ = run(capsys, "solve", "0" * 5000 + "1")  # leading zeros are level 1
    assert rc == 0 and out == run(capsys, "solve", "1")[1]


def test_an_empty_source_is_refused(capsys):
    # Path("") is the current folder: not "cannot read: Is a directory"
    assert "the SOURCE is empty" in refused(capsys, "solve", "")
    assert "the SOURCE is empty" in refused(capsys, "show", "")


def test_a_folder_and_a_huge_file_are_refused(capsys, tmp_path):
    assert "not a regular file (a folder)" in refused(capsys, "solve", str(tmp_path))
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (levelfile.MAX_BYTES + 1))
    assert "too large for a level file" in refused(capsys, "code", str(big))


def test_bench_refuses_a_section_that_is_not_there(capsys):
    err = refused(capsys, "bench", "--only", "zzz")
    assert "--only 'zzz'" in err and "solver, levels" in err


def test_a_game_flag_with_a_command_is_refused(capsys):
    # the command would ignore it: say so rather than solve another room
    assert "--level opens the game; it does not go with 'solve'" in refused(
        capsys, "--level", "3", "solve", "1")
    assert "--demo opens the game" in refused(capsys, "--demo", "code", "1")
    assert "--gen opens the game" in refused(capsys, "--gen", "easy.1", "gen", "easy.1")


def test_usage_errors_are_one_line_with_exit_code_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["solve"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "see --help" in err


# -- the real command ------------------------------------------------------------------------


def command(*argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "anabasis", *argv], capture_output=True,
                          text=True, env=env, timeout=60)


def test_the_command_solves_and_replays(level):
    path = level(CORRIDOR)
    done = command("solve", path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "solution: 3\nmoves: RRR\n", "")
    done = command("replay", path, "RRR")
    assert done.returncode == 0 and done.stdout.startswith("status: won\nmoves: 3\n\n")


def test_the_command_refuses_without_a_traceback(level):
    for argv, where in [(("show", "DCEiWNbKSOyh_wpEA"), "checksum"),
                        (("replay", level(CORRIDOR), "RQ"), "character 2"),
                        (("solve", level(CORRIDOR.replace("par: 3", "par: x"), "bad.txt")),
                         "bad.txt:2:6:"),
                        (("solve", level(CORRIDOR), "--without", "up"), "unknown rule"),
                        (("bogus",), "invalid choice")]:
        done = command(*argv)
        assert done.returncode == 2, argv
        assert done.stdout == ""
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
        assert where in done.stderr


def test_the_command_proves_impossible(level):
    done = command("solve", level(WALLED))
    assert (done.returncode, done.stdout) == (1, "impossible: 1 state searched\n")



def test_render_refuses_a_turn_fraction_outside_0_to_1(capsys):
    for at in ("nan", "2", "-0.5", "half"):
        with pytest.raises(SystemExit) as exit_:
            main(["render", "1", "--at", at, "-o", "x.png"])
        out, err = capsys.readouterr()
        assert exit_.value.code == 2 and out == ""
        assert err.count("\n") == 1 and "--at" in err and "0 to 1" in err


# -- the README's examples ---------------------------------------------------------------

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_examples() -> list[tuple[str, str]]:
    """Each ``$ anabasis ...`` line of the README's console blocks, with the output under it."""
    examples, block = [], None
    for line in README.read_text(encoding="utf-8").splitlines():
        if block is None:
            block = [] if line.strip() == "```console" else None
            continue
        if line.strip() == "```":
            block = None
        elif line.startswith("$ "):
            examples.append((line[2:], []))
        elif examples:
            examples[-1][1].append(line)
    return [(command, "".join(out + "\n" for out in lines)) for command, lines in examples]


def test_the_readme_has_console_examples():
    assert len(readme_examples()) >= 3


@pytest.mark.parametrize("command, expected", readme_examples(),
                         ids=[command for command, _ in readme_examples()])
def test_the_readme_console_example_prints_what_it_shows(capsys, command, expected):
    argv = shlex.split(command)
    assert argv[0] == "anabasis"
    _, out, err = run(capsys, *argv[1:])
    assert (out, err) == (expected, "")


# -- refusals, not tracebacks --------------------------------------------------------------

import textwrap  # noqa: E402
import threading  # noqa: E402

from anabasis import cli  # noqa: E402
from anabasis.formats.levelfile import LevelError  # noqa: E402

CORRIDOR_CODE = "DCEiWNbKSOyh_wpEk"


def _run(*args, env=None, stdin=None, timeout=60) -> subprocess.CompletedProcess:
    env = dict(os.environ if env is None else env, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "anabasis", *args], env=env, input=stdin,
                          capture_output=True, timeout=timeout)


def test_a_source_with_a_newline_or_an_escape_is_one_line_and_escaped(capsys):
    assert cli.main(["solve", "levels/a\nb\x1b[2J.txt"]) == cli.BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err
    assert "levels/a\\nb\\x1b[2J.txt: cannot read" in err
    assert cli.main(["solve", "D\x07\x1b"]) == cli.BAD_INPUT  # a code quoted too
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err


def test_output_works_with_any_stdout_encoding(tmp_path):
    level = tmp_path / "é.txt"
    level.write_text(levelfile.write(codes.decode(CORRIDOR_CODE)).replace(
        "wrap:", "name: Ανάβασις\nwrap:"), encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    shown = _run("show", str(level), env=env)
    assert shown.returncode == 0 and b"Traceback" not in shown.stderr
    assert shown.stdout.startswith(b"name: \\u0391")
    missing = _run("solve", str(tmp_path / "ü.txt"), env=env)
    assert missing.returncode == 2 and missing.stderr.count(b"\n") == 1
    assert b"\\xfc.txt: cannot read" in missing.stderr


def test_a_fifo_or_a_device_is_refused_never_waited_on(tmp_path, capsys):
    fifo = tmp_path / "room.txt"
    os.mkfifo(fifo)
    # in a thread: if it ever waited for a writer, the test fails instead of hanging
    codes_out = []
    worker = threading.Thread(target=lambda: codes_out.append(cli.main(["code", str(fifo)])),
                              daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive() and codes_out == [cli.BAD_INPUT]
    assert f"{fifo}: not a regular file (a FIFO)" in capsys.readouterr().err
    if Path("/dev/zero").exists():
        with pytest.raises(LevelError, match="not a regular file"):
            levelfile.load("/dev/zero")
    assert cli.main(["replay", "1", f"@{fifo}"]) == cli.BAD_INPUT
    assert "not a regular file (a FIFO)" in capsys.readouterr().err


def test_replay_takes_moves_from_stdin_and_from_a_file(tmp_path):
    piped = _run("replay", CORRIDOR_CODE, "-", stdin=b"R\nR\r\nR\n")
    assert piped.returncode == 0 and piped.stdout.startswith(b"status: won\nmoves: 3\n")
    moves = tmp_path / "moves.txt"
    moves.write_text("R" * 200_000)  # far past the argument-length limit
    played = _run("replay", CORRIDOR_CODE, f"@{moves}")
    assert played.returncode == 0 and played.stdout.startswith(b"status: won\nmoves: 3\n")
    bad = _run("replay", CORRIDOR_CODE, f"@{tmp_path / 'none.txt'}")
    assert bad.returncode == 2 and bad.stderr.endswith(b"none.txt: cannot read: "
                                                      b"No such file or directory\n")


#: An import hook that sends the process a real SIGINT while a module loads.  (Ctrl+C's
#: handler put back first: a shell's background job, CI started with ``&``, inherits SIGINT
#: ignored, and Python then installs no handler of its own.)
_INTERRUPT = textwrap.dedent("""
    import os, signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)
    target = sys.argv[1]
    class Interrupt:
        def find_spec(self, name, path=None, target_=None):
            if name == target:
                os.kill(os.getpid(), signal.SIGINT)
            return None
    sys.meta_path.insert(0, Interrupt())
    sys.argv = ["anabasis", "solve", "7"]
    from anabasis.__main__ import run
    sys.exit(run())
""")


@pytest.mark.parametrize("module", ["anabasis.cli", "anabasis.engine.world",
                                    "anabasis.formats.levels", "anabasis.engine.solver"])
def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback(module):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run([sys.executable, "-c", _INTERRUPT, module], env=env,
                         capture_output=True, timeout=60)
    assert run.returncode == 130, run.stderr
    assert run.stderr == b"" and run.stdout == b""
