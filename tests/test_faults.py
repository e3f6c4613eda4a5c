"""Faults: nothing a file or a code holds can crash, freeze or wipe the game.

- the save file's fault table: each case starts the real game on a broken
  ``progress.json`` and checks that it runs and that no progress is lost;
- fuzzing (hypothesis) of room codes, level files and save files: nothing
  but the documented refusals, and work bounded by the input's size;
- the largest room a code holds, stepped and opened.

Bounds are checked structurally (what was read, how many cells a step
looked at), never by timing: speed is ``anabasis bench``'s.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from anabasis.app.settings.progress import DEFAULT_KEYS, FILE_NAME, MAX_BYTES, Progress

# -- the save file ----------------------------------------------------------------------

GOOD = {
    "version": 1,
    "solved": ["level:1", "level:2", "room:DCEiWNbKSOyh_wpEk"],
    "best": {"level:1": 5, "level:2": 6, "room:DCEiWNbKSOyh_wpEk": 3},
    "window": [800, 450],
    "fullscreen": False,
    "keys": {**DEFAULT_KEYS, "undo": ["u"]},
}
GOOD_TEXT = json.dumps(GOOD, indent=1) + "\n"


def _with(**fields) -> bytes:
    return json.dumps({**GOOD, **fields}).encode()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _endless(path: Path) -> None:
    os.symlink("/dev/zero", path)


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text(GOOD_TEXT)


def _link_to_good(path: Path) -> None:
    real = path.with_name("kept-elsewhere.json")
    real.write_text(GOOD_TEXT)
    os.symlink(real.name, path)


def _too_big(path: Path) -> bytes:
    return GOOD_TEXT.encode() + b" " * MAX_BYTES


#: name: (what is put at progress.json: bytes, or a function of the path; what the game does)
#: "kept": read as it is; "aside": moved aside, starting clean; "salvaged": moved aside,
#: the valid part kept (GOOD less the field named after the colon).
FAULTS = {
    "bad UTF-8 bytes": (GOOD_TEXT.encode().replace(b"level:2", b"level:\xff"), "aside"),
    "UTF-16": (GOOD_TEXT.encode("utf-16"), "aside"),
    "a UTF-8 BOM": (b"\xef\xbb\xbf" + GOOD_TEXT.encode(), "kept"),
    "deep nesting": (b"[" * 200_000 + b"]" * 200_000, "aside"),
    "deep nesting in a field": (b'{"solved": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                                "aside"),
    "cut off mid-write": (GOOD_TEXT.encode()[:57], "aside"),
    "empty": (b"", "aside"),
    "NUL bytes": (b"\0" * 4096, "aside"),
    "not an object": (b"[1, 2]", "aside"),
    "a 5000-digit number": (b'{"best": {"level:1": ' + b"9" * 5000 + b"}}", "aside"),
    "larger than the cap": (_too_big, "aside"),
    "a FIFO": (_fifo, "aside"),
    "a link to an endless device": (_endless, "aside"),
    "a folder": (_folder, "aside"),
    "a link to a good file": (_link_to_good, "kept"),
    "a field a later release added": (_with(volume=0.5), "kept"),
    "fullscreen 'no'": (_with(fullscreen="no"), "salvaged:fullscreen"),
    "fullscreen 1": (_with(fullscreen=1), "salvaged:fullscreen"),
    "a best of true": (_with(best={**GOOD["best"], "level:3": True}), "salvaged:best"),
    "a best of -1": (_with(best={**GOOD["best"], "level:3": -1}), "salvaged:best"),
    "a best of 2.5": (_with(best={**GOOD["best"], "level:3": 2.5}), "salvaged:best"),
    "a best of NaN": (json.dumps(GOOD)[:-1].encode() + b', "best": {"level:1": NaN}}',
                      "salvaged:best"),
    "a window of 16384 x 16384": (_with(window=[16384, 16384]), "salvaged:window"),
    "a window of 0 x 10": (_with(window=[0, 10]), "salvaged:window"),
    "a window of true x 500": (_with(window=[True, 500]), "salvaged:window"),
    "a window of text": (_with(window="big"), "salvaged:window"),
    "solved as text": (_with(solved="level:1"), "salvaged:solved"),
    "a solved name that is a number": (_with(solved=GOOD["solved"] + [7]), "salvaged:solved"),
    "keys of the wrong kind": (_with(keys={"undo": "u"}), "salvaged:keys"),
    "a version of true": (_with(version=True), "salvaged:version"),
}


def _put(path: Path, what) -> bytes | None:
    """Put a fault at ``path``; the bytes written, when it is a plain file of them."""
    data = what(path) if callable(what) else what
    if data is not None:
        path.write_bytes(data)
    return data


def _load_bounded(directory: Path) -> Progress:
    """Progress.load in a thread: a hang fails the test instead of freezing the suite."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(Progress.load(directory)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "loading the save file hung"
    return out[0]


def _expect_good(p: Progress, but: str = "") -> None:
    if but != "solved":
        assert p.solved >= set(GOOD["solved"])
    if but != "best":
        assert {k: p.best[k] for k in GOOD["best"]} == GOOD["best"]
    if but != "window":
        assert p.window == tuple(GOOD["window"])
    if but != "keys":
        assert p.keys["undo"] == ["u"]
    assert p.fullscreen is False  # a bad fullscreen value never opens fullscreen


@pytest.fixture(scope="module")
def game(display):
    """Start the real game on a data folder: an App under Xvfb, a frame drawn, then closed."""
    from anabasis.app.menus.launcher import Launcher
    from anabasis.app.routes import App
    from anabasis.app.shell.window import GLUnavailable

    def start(directory: Path, session_record=("level:7", 11)) -> Progress:
        try:
            app = App(size=(640, 360), data_dir=directory)
        except GLUnavailable as e:
            if os.environ.get("ANABASIS_REQUIRE_GL") == "1":
                pytest.fail(f"no GL window: {e}")
            pytest.skip(f"no GL window: {e}")
        try:
            app.tick(1 / 60)
            app.tick(1 / 60)
            assert app.running and isinstance(app.scene, Launcher)
            assert app.window.size[0] <= 1280 and app.window.size[1] <= 720  # Xvfb's screen
            app.progress.record(*session_record)  # something won in this session
            app.save_progress()
        finally:
            app.close()
        return app.progress

    return start


@pytest.mark.parametrize("name", list(FAULTS))
def test_a_bad_save_file_never_stops_the_game_nor_loses_progress(name, tmp_path, game,
                                                                 capfd):
    what, outcome = FAULTS[name]
    first, second = tmp_path / "load", tmp_path / "game"
    first.mkdir()
    second.mkdir()
    path = first / FILE_NAME
    written = _put(path, what)

    p = _load_bounded(first)
    if outcome == "kept":
        _expect_good(p)
        assert p.warning == p.notice == "" and p.aside is None
    else:
        assert p.warning and "\n" not in p.warning and "set aside" in p.notice
        assert not p.held
        aside = p.aside
        assert aside is not None and aside.name.startswith(FILE_NAME + ".corrupt-")
        # nothing lost: what was there is beside it, as it was
        if written is not None:
            assert aside.read_bytes() == written
        elif name == "a folder":
            assert (aside / "inside").read_text() == GOOD_TEXT
        else:
            assert aside.is_symlink() or stat.S_ISFIFO(aside.lstat().st_mode)
        if outcome.startswith("salvaged"):
            _expect_good(p, but=outcome.split(":")[1])
            assert json.loads(path.read_text())["solved"] == sorted(p.solved)  # saved at once
        else:
            assert p.solved == set() and p.best == {}
        again = _load_bounded(first)  # the next start is quiet: nothing set aside twice
        assert again.warning == "" and again.solved == p.solved

    # the game starts on the same fault, draws, says what it did, and keeps what it had
    # and what this session won
    _put(second / FILE_NAME, what)
    capfd.readouterr()
    session = game(second)
    err = capfd.readouterr().err
    assert ("warning" in err) == (outcome != "kept")
    assert len(err.strip().splitlines()) == (outcome != "kept")
    target = second / FILE_NAME
    if name == "a link to a good file":
        assert target.is_symlink()  # saved through the link, not over it
        target = second / "kept-elsewhere.json"
    saved = json.loads(target.read_text())
    assert saved["best"]["level:7"] == 11 and "level:7" in saved["solved"]
    assert session.best["level:7"] == 11
    if outcome == "kept" or outcome.startswith("salvaged") and outcome != "salvaged:solved":
        assert set(GOOD["solved"]) <= set(saved["solved"])
    else:
        assert len(list(second.glob(FILE_NAME + ".corrupt-*"))) == 1
    if name == "a field a later release added":
        assert saved["volume"] == 0.5


def test_two_bad_files_in_one_second_are_set_aside_under_two_names(tmp_path):
    names = set()
    for k in range(3):
        (tmp_path / FILE_NAME).write_bytes(b"not json %d" % k)
        p = Progress.load(tmp_path)
        names.add(p.aside.name)
        assert p.aside.read_bytes() == b"not json %d" % k
    assert len(names) == 3


# A player's session on a save file it cannot read, in a process the file's
# permissions apply to (root reads everything: as root, it runs without the
# capabilities that override permissions).
_HELD = textwrap.dedent("""
    import json, os, sys
    from anabasis.app.settings.progress import FILE_NAME, Progress
    d = sys.argv[1]
    path = os.path.join(d, FILE_NAME)
    p = Progress.load(d)
    out = {"held": p.held, "warning": p.warning, "notice": p.notice,
           "solved_at_start": sorted(p.solved)}
    p.record("level:7", 11)                  # won in this session
    p.window = (700, 400)                    # a setting changed in this session
    out["first_save"] = p.save()             # the file is left alone ...
    out["unchanged"] = os.stat(path).st_mode & 0o777 == 0
    os.chmod(path, 0o600)                    # ... until it becomes readable again
    out["second_save"] = p.save()
    print(json.dumps(out))
""")

_NO_ASIDE = textwrap.dedent("""
    import json, sys
    from anabasis.app.settings.progress import Progress
    p = Progress.load(sys.argv[1])
    p.record("level:7", 11)
    print(json.dumps({"held": p.held, "notice": p.notice, "saved": p.save()}))
""")


def _as_player(script: str, directory: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    command = [sys.executable, "-c", script, str(directory)]
    if os.geteuid() == 0:  # pragma: no cover - depends on who runs the tests
        import shutil

        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: permissions cannot be applied")
        drop = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--inh-caps={drop}", f"--bounding-set={drop}"] + command
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_a_save_file_that_cannot_be_read_is_never_overwritten(tmp_path):
    path = tmp_path / FILE_NAME
    path.write_text(GOOD_TEXT)
    os.chmod(path, 0)
    out = _as_player(_HELD, tmp_path)
    assert out["held"] and "permission denied" in out["warning"]
    assert str(path) in out["warning"] and "\n" not in out["warning"]
    assert "set aside" not in out["notice"] and "kept in memory" in out["notice"]
    assert out["solved_at_start"] == []
    assert out["first_save"] is False and out["unchanged"] and out["second_save"] is True
    assert not list(tmp_path.glob(FILE_NAME + ".corrupt-*"))  # never called corrupt
    saved = json.loads(path.read_text())
    # both: what the file had, and what the session did
    assert set(saved["solved"]) == set(GOOD["solved"]) | {"level:7"}
    assert saved["best"] == {**GOOD["best"], "level:7": 11}
    assert saved["keys"]["undo"] == ["u"] and saved["window"] == [700, 400]


def test_a_bad_file_that_cannot_be_moved_aside_is_left_alone_not_called_set_aside(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir()
    (folder / FILE_NAME).write_bytes(b"\xff\xfe garbage")
    os.chmod(folder, 0o555)  # nothing can be renamed in it
    try:
        out = _as_player(_NO_ASIDE, folder)
    finally:
        os.chmod(folder, 0o755)
    assert out["held"] and "could not be set aside" in out["held"]
    assert "set aside as" not in out["notice"] and "left as it is" in out["notice"]
    assert out["saved"] is False
    assert (folder / FILE_NAME).read_bytes() == b"\xff\xfe garbage"


def test_a_later_release_s_file_is_read_but_never_overwritten(tmp_path):
    text = json.dumps({**GOOD, "version": 2, "sound": {"volume": 3}})
    (tmp_path / FILE_NAME).write_text(text)
    p = Progress.load(tmp_path)
    _expect_good(p)
    assert "later release" in p.held and "set aside" not in p.notice
    p.record("level:7", 11)
    assert p.save() is False
    assert (tmp_path / FILE_NAME).read_text() == text


# -- crowded rooms ---------------------------------------------------------------------

from conftest import REPRODUCIBLE  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from anabasis.engine import reference, rules  # noqa: E402
from anabasis.engine.world import Room, State  # noqa: E402

MOVES = list(reference.STEPS) + list(reference.HOOKS)
FUZZ = settings(REPRODUCIBLE, max_examples=150)


@st.composite
def crowded_rooms(draw) -> Room:
    """A small room thick with crates (a floor in z and in w, mostly), wrapped or not."""
    X, Y = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    Z, W = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    shell = Room.empty((X, Y, Z, W), (0, 0, 0, 0), (0, 0, 0, 0))
    n = X * Y * Z * W
    raw = draw(st.lists(st.integers(0, 99), min_size=n, max_size=n))
    cells = bytearray()
    free = []
    for i, ((_, _, z, w), u) in enumerate(zip(shell.positions(), raw, strict=True)):
        floor = z == 0 or w == 0
        solid = u < 90 if floor else u >= 92
        cells.append((2 + u % 4 if u % 7 == 3 else 1) if solid else 0)
        if not solid:
            free.append(i)
    if len(free) < 2:
        cells[free[0] if free else 0] = 0
        free = [i for i, c in enumerate(cells) if c == 0] + [n - 1]
    pos = list(shell.positions())
    player = pos[free[draw(st.integers(0, len(free) - 1))]]
    goal = pos[free[draw(st.integers(0, len(free) - 1))]]
    density = draw(st.integers(20, 90))
    crates = [pos[i] for i, u in zip(free, raw, strict=False)
              if pos[i] != player and (u * 37) % 100 < density]
    return Room((X, Y, Z, W), bytes(cells), goal, State.of(player, crates),
                wrap=draw(st.booleans()))


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


# -- the command line: refusals, not tracebacks ------------------------------------------

from anabasis import cli  # noqa: E402
from anabasis.formats import codes, levelfile  # noqa: E402
from anabasis.formats.levelfile import LevelError  # noqa: E402

CORRIDOR = "DCEiWNbKSOyh_wpEk"


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
    level.write_text(levelfile.write(codes.decode(CORRIDOR)).replace(
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


def test_a_par_of_5000_digits_is_refused_at_its_place():
    text = "par: " + "9" * 5000 + "\n\n##### ##### #####\n\n##### #@..* .....\n"
    with pytest.raises(LevelError) as info:
        levelfile.parse(text, "big.txt")
    assert str(info.value).startswith("big.txt:1:6: par must be a whole number")
    assert len(str(info.value)) < 200


def test_level_files_hold_what_a_code_holds_and_no_more():
    wide = "#" * 17 + "\n\n" + "#@" + "." * 14 + "*\n"
    with pytest.raises(LevelError, match=r"^<level>:1:17: the room is 17 wide in x"):
        levelfile.parse(wide)
    slices = "\n\n".join(["#"] * 9) + "\n"
    with pytest.raises(LevelError, match=r"^<level>:17:1: the room has 9 slices in w"):
        levelfile.parse(slices)
    with pytest.raises(LevelError, match="name is longer than 200"):
        levelfile.parse("name: " + "x" * 201 + "\n\n#@*\n")


def test_a_code_refuses_a_start_the_level_format_refuses_in_the_same_words():
    lost = Room.empty((3, 1, 2, 2), player=(0, 0, 1, 1), goal=(2, 0, 1, 1))  # nothing holds
    won = Room((3, 1, 2, 2), bytes([1] * 9 + [0] * 3), (1, 0, 1, 1), State((1, 0, 1, 1), ()))
    for room, words in ((lost, rules.START_LOST), (won, rules.START_WON)):
        with pytest.raises(LevelError, match=words):
            levelfile.parse(levelfile.write(room))
        with pytest.raises(codes.CodeError, match=f"^{words}$"):
            codes.decode(codes.encode(room))


@FUZZ
@given(crowded_rooms())
def test_show_and_code_round_trip_for_every_code_that_opens(room):
    code = codes.encode(room)
    try:
        opened = codes.decode(code)
    except codes.CodeError as e:
        assert str(e) in (rules.START_LOST, rules.START_WON)
        return
    # show prints a level file that code reads back to the same code
    assert codes.encode(levelfile.parse(levelfile.write(opened))) == code


def test_replay_takes_moves_from_stdin_and_from_a_file(tmp_path):
    piped = _run("replay", CORRIDOR, "-", stdin=b"R\nR\r\nR\n")
    assert piped.returncode == 0 and piped.stdout.startswith(b"status: won\nmoves: 3\n")
    moves = tmp_path / "moves.txt"
    moves.write_text("R" * 200_000)  # far past the argument-length limit
    played = _run("replay", CORRIDOR, f"@{moves}")
    assert played.returncode == 0 and played.stdout.startswith(b"status: won\nmoves: 3\n")
    bad = _run("replay", CORRIDOR, f"@{tmp_path / 'none.txt'}")
    assert bad.returncode == 2 and bad.stderr.endswith(b"none.txt: cannot read: "
                                                      b"No such file or directory\n")


#: An import hook that sends the process a real SIGINT while a module loads.
_INTERRUPT = textwrap.dedent("""
    import os, signal, sys
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


# -- fuzzing: nothing but the documented refusals ---------------------------------------

from anabasis.engine.world import MAX_SIZE  # noqa: E402

CODE_CHARS = st.sampled_from(codes.ALPHABET)


@FUZZ
@given(st.one_of(
    st.text(max_size=60),
    st.text(codes.ALPHABET, min_size=1, max_size=400).map(lambda t: "D" + t),
    # a body of any bits under a right checksum: the room reader gets arbitrary input
    st.tuples(st.sampled_from("DE"), st.lists(st.integers(0, 1), max_size=3000)).map(
        lambda lb: codes._pack(*lb)),
))
def test_any_text_is_a_room_code_or_a_code_error(text):
    try:
        room = codes.decode(text)
    except codes.CodeError as e:
        assert "\n" not in str(e)
        return
    assert codes.encode(room) == text.strip()
    assert rules.start_refusal(room) == ""


MAP_CHARS = st.sampled_from("#.$@*+%<>v^ \n")


@FUZZ
@given(st.one_of(
    st.text(max_size=200),
    st.text(MAP_CHARS, max_size=400),
    st.tuples(st.sampled_from(["", "par: ", "name: ", "wrap: ", "view: ", "needs: "]),
              st.text(max_size=30), st.text(MAP_CHARS, max_size=300)).map(
        lambda t: f"{t[0]}{t[1]}\n\n{t[2]}"),
))
def test_any_text_is_a_level_or_a_level_error(text):
    try:
        room = levelfile.parse(text, "fuzz.txt")
    except LevelError as e:
        assert str(e).startswith("fuzz.txt:") and "\n" not in str(e)
        return
    assert all(n <= m for n, m in zip(room.size, MAX_SIZE, strict=True))
    again = codes.decode(codes.encode(room))  # a level file's room is a code's room
    assert (again.cells, again.goal, again.start) == (room.cells, room.goal, room.start)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10 ** 12), 10 ** 12) | st.floats()
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=5),
    max_leaves=30)
FIELD_NAMES = st.sampled_from(["solved", "best", "window", "fullscreen", "keys", "version",
                               "volume"])


@settings(FUZZ, max_examples=80)
@given(st.one_of(
    st.binary(max_size=300),
    st.dictionaries(FIELD_NAMES, JSON, max_size=6).map(lambda d: json.dumps(d).encode()),
    st.dictionaries(FIELD_NAMES, JSON, max_size=6).map(
        lambda d: json.dumps({**GOOD, **d}).encode()),
))
def test_any_save_file_loads_as_valid_progress(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("save")
    (folder / FILE_NAME).write_bytes(data)
    p = Progress.load(folder)
    assert "\n" not in p.warning
    if p.held:  # only a later release's file is held: read, never written over
        assert "later release" in p.held and p.save() is False
        assert (folder / FILE_NAME).read_bytes() == data
        return
    # whatever was there, what was kept is of the right kinds and in range
    assert all(isinstance(s, str) for s in p.solved)
    assert all(type(n) is int and 0 <= n for n in p.best.values())
    assert p.window is None or all(type(v) is int and 64 <= v <= 8192 for v in p.window)
    assert type(p.fullscreen) is bool
    assert set(p.keys) == set(DEFAULT_KEYS)
    assert all(isinstance(n, str) for names in p.keys.values() for n in names)
    # and it saves and reads back as it is, quietly
    p.save()
    again = Progress.load(folder)
    assert again.warning == "" and again.to_json() == p.to_json()
    if p.warning:  # what was not valid is beside it, byte for byte
        assert p.aside.read_bytes() == data


#: Each worst case in a fresh process, which reports its peak memory: the largest room a
#: code holds decoded and settled, the largest save file read.
_PEAK = textwrap.dedent("""
    import sys
    case, arg = sys.argv[1:]
    if case == "code":
        from anabasis.engine import rules
        from anabasis.formats import codes
        rules.start(codes.decode(arg))
    else:
        from anabasis.app.settings.progress import Progress
        assert Progress.load(arg).aside is not None
    # the process's peak resident memory, KiB (VmHWM: ru_maxrss would carry the forking
    # parent's size over the exec)
    with open("/proc/self/status") as f:
        print(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
""")


def _peak_mb(*args) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run([sys.executable, "-c", _PEAK, *args], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return int(run.stdout) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc to ask")
def test_the_largest_inputs_are_bounded_in_memory(tmp_path):
    # the largest level file: refused at its first row, before a cell is read
    huge = (("#" * 1000 + " " + "#" * 1000 + "\n") * 250 + "\n") * 2
    assert len(huge) < levelfile.MAX_BYTES
    with pytest.raises(LevelError, match=r":1:17: the room is 1000 wide"):
        levelfile.parse(huge)
    # the largest room a code holds, decoded and settled: the process peaks under 200 MB
    from anabasis.bench.rules import crowded_room

    assert _peak_mb("code", codes.encode(crowded_room())) < 200
    # the largest save file read (a cap's worth of nesting-free JSON): set aside
    (tmp_path / FILE_NAME).write_bytes(b"[" + b"0," * (MAX_BYTES // 2 - 2) + b"0]")
    assert _peak_mb("save", str(tmp_path)) < 200


def test_the_largest_room_a_code_holds_opens_and_plays_in_the_window(game, tmp_path):
    """Opened from its code in the real window, the most crowded room plays a move whose
    per-frame work is the crates that move, and marks a bounded number of crates."""
    import pygame

    from anabasis.app.play import markers
    from anabasis.app.play.scene import Play
    from anabasis.app.play.session import open_code
    from anabasis.app.routes import App
    from anabasis.bench.rules import crowded_room

    room = crowded_room()
    app = App(size=(640, 360), opened=open_code(codes.encode(room)), data_dir=tmp_path)
    try:
        app.tick(1 / 60)
        play = app.scene
        assert isinstance(play, Play) and len(play.game.state.crates) == len(room.start.crates)
        right = pygame.K_RIGHT
        seen = []
        for _ in range(4):  # the arrow that means R depends on the camera: try them in turn
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=right, mod=0,
                                                 unicode="", scancode=0))
            app.tick(1 / 60)
            if play.timeline is not None:
                seen = [moving for _, moving in play.timeline._pairs]
            for _ in range(60):
                if play.timeline is None:
                    break
                app.tick(1 / 60)
            if play.game.moves:
                break
            right = {pygame.K_RIGHT: pygame.K_DOWN, pygame.K_DOWN: pygame.K_LEFT,
                     pygame.K_LEFT: pygame.K_UP}.get(right, pygame.K_RIGHT)
        assert play.game.moves == 1 and seen
        assert all(len(moving) <= 2 for moving in seen)  # a push moves one crate, a walk none
        marks = markers.find(room, play.game.state, play.game.state.player, play.sight.basis(),
                             play.sight.camera, (640, 360))
        assert 0 < len(marks) <= markers.MOST_CRATE_MARKS + 1
    finally:
        app.close()
