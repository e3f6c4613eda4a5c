"""What a newcomer hits first: output that cannot be written, long input, the messages'
words, ``--version``, the README's claims and the project's own rule book."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from anabasis import __version__, cli
from anabasis.refusal import shorten

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RULES = ROOT / "docs" / "rules.md"
CASES = ROOT / "tests" / "rules"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``anabasis ARGV`` in this process: (exit code, stdout, stderr); argparse's exits too."""
    try:
        rc = cli.main(list(argv))
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def command(*argv: str, stdout=subprocess.PIPE, stdin=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "anabasis", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, stdin=stdin, text=True, env=env, timeout=120)


# -- output that cannot be written ----------------------------------------------------------

#: A command of each kind, each with output on stdout.
WRITERS = [("solve", "1"), ("gen", "hard.k3x9"), ("replay", "1", "DRRRU"), ("show", "1"),
           ("code", "1"), ("hint", "1"), ("render", "1", "--size", "16x9", "-o", "/dev/stdout"),
           ("--version",), ("--help",), ("solve", "--help")]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("argv", WRITERS, ids=" ".join)
def test_output_to_a_full_device_is_one_line_and_exit_2(argv):
    with open("/dev/full", "w") as full:
        done = command(*argv, stdout=full)
    assert done.returncode == cli.BAD_INPUT, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("anabasis: cannot write ")
    assert "No space left on device" in done.stderr


@pytest.mark.parametrize("argv", WRITERS, ids=" ".join)
def test_output_to_a_closed_pipe_is_one_line_and_exit_2(argv):
    read, write = os.pipe()
    os.close(read)  # the reader went away before a word was written
    try:
        done = command(*argv, stdout=write)
    finally:
        os.close(write)
    assert done.returncode == cli.BAD_INPUT, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("anabasis: cannot write ")


# -- long input, cut short by one function ---------------------------------------------------

LONG = "q" * 100_000


@pytest.mark.parametrize("argv, quoted", [
    (("gen", f"hard.{LONG}"), LONG),
    (("gen", LONG), LONG),
    (("gen", f"daily.{LONG}"), f"daily.{LONG}"),
    (("--gen", LONG), LONG),
    (("--daily", LONG), LONG),
    (("--size", LONG), LONG),
    (("--level", LONG), LONG),
    (("--room", LONG), LONG),
    (("solve", LONG), LONG),
    (("solve", "1", "--without", LONG), LONG),
    (("solve", "1", "--without", f"ramps,{LONG}"), LONG),
    (("solve", "1", "--max-states", LONG), LONG),
    (("replay", "1", f"@{LONG}"), LONG),
    (("render", "1", "--size", LONG, "-o", "x.png"), LONG),
    (("render", "1", "--size=" + LONG, "-o", "x.png"), LONG),
    (("render", "1", "--view", LONG, "-o", "x.png"), LONG),
    (("render", "1", "--at", LONG, "-o", "x.png"), LONG),
    (("render", "1", "-o", f"{LONG}.jpg"), f"{LONG}.jpg"),
    (("bench", "--only", LONG), LONG),
    ((LONG,), LONG),
], ids=lambda v: " ".join(a[:12] for a in v) if isinstance(v, tuple) else "")
def test_long_input_is_quoted_cut_short_by_shorten(capsys, argv, quoted):
    rc, out, err = run(capsys, *argv)
    assert rc == cli.BAD_INPUT and out == ""
    assert err.count("\n") == 1 and len(err) < 400, err[:400]
    assert shorten(quoted) in err  # the one function every layer quotes input with


def test_input_of_ordinary_length_is_quoted_whole(capsys):
    path = "rooms/" + "a" * 60 + ".txt"  # a long but real name: kept as it is
    _, _, err = run(capsys, "solve", path)
    assert path in err


# -- the messages' words ---------------------------------------------------------------------


def test_the_state_cap_is_a_cap_and_counts_read_right(capsys):
    assert run(capsys, "solve", "1", "--max-states", "1") == (
        cli.GAVE_UP, "gave up: 1 state searched\n", "")
    assert run(capsys, "hint", "1", "--max-states", "1") == (
        cli.GAVE_UP, "too big to tell: over 1 state\n", "")
    _, _, err = run(capsys, "show", "D")
    assert "1 character is too short" in err


def test_the_default_state_cap_is_stated(capsys):
    from anabasis.engine import solver

    rc, out, _ = run(capsys, "solve", "--help")
    assert rc == 0 and f"{solver.DEFAULT_MAX_STATES:,}" in " ".join(out.split())
    assert f"{solver.DEFAULT_MAX_STATES:,}" in README.read_text(encoding="utf-8")


def test_render_size_says_its_limits(capsys):
    _, _, err = run(capsys, "render", "1", "--size", "8193x100", "-o", "x.png")
    assert "1x1 to 8192x8192" in err


def test_daily_echoes_what_was_typed(capsys):
    rc, out, err = run(capsys, "--daily", "tomorrow")
    assert rc == cli.BAD_INPUT and out == ""
    assert "'tomorrow'" in err and "daily." not in err and "YYYY-MM-DD" in err
    rc, _, err = run(capsys, "--daily", "2026-02-30")
    assert rc == cli.BAD_INPUT and "'2026-02-30'" in err and "daily." not in err


def test_a_moves_file_not_utf8_says_the_byte_and_where(capsys, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_bytes(b"RR\xe9")
    _, _, err = run(capsys, "replay", "1", f"@{moves}")
    assert err == f"anabasis: {moves}: not UTF-8 text (byte 0xe9 at offset 2)\n"


def test_replay_at_with_no_file_says_so(capsys):
    rc, out, err = run(capsys, "replay", "1", "@")
    assert rc == cli.BAD_INPUT and out == ""
    assert err.startswith("anabasis: @: name the file") and ": :" not in err


def test_version(capsys):
    rc, out, err = run(capsys, "--version")
    assert (rc, out, err) == (0, f"anabasis {__version__}\n", "")
    declared = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(),
                         re.M).group(1)
    assert declared == __version__
    assert f"## {__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


# -- render -o ---------------------------------------------------------------------------------


def test_render_refuses_an_output_it_cannot_honour(capsys, tmp_path):
    for output, says in [("", "-o: give the PNG file"), ("  ", "-o: give the PNG file"),
                         (str(tmp_path / "x.jpg"), "writes PNG only"),
                         (str(tmp_path), "that is a folder")]:
        rc, out, err = run(capsys, "render", "1", "--size", "16x9", "-o", output)
        assert rc == cli.BAD_INPUT and out == "" and says in err, (output, err)
        assert "Is a directory" not in err
    assert not (tmp_path / "x.jpg").exists()
    rc, _, _ = run(capsys, "render", "1", "--size", "16x9", "-o", str(tmp_path / "x.PNG"))
    assert rc == 0 and (tmp_path / "x.PNG").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_render_to_a_fifo_never_waits(capsys, tmp_path):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    codes = []
    worker = threading.Thread(target=lambda: codes.append(
        cli.main(["render", "1", "--size", "16x9", "-o", str(fifo)])), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive() and codes == [cli.BAD_INPUT]  # nothing reads it: refused
    assert "a FIFO that nothing reads" in capsys.readouterr().err
    # with a reader there, the picture goes down it
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert cli.main(["render", "1", "--size", "16x9", "-o", str(fifo)]) == 0
        got = _read_all(fd)  # a small picture: all of it waits in the pipe
    finally:
        os.close(fd)
    assert got[:8] == b"\x89PNG\r\n\x1a\n" and len(got) > 50


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):  # the writer is gone: the end reads as b""
        chunks.append(chunk)
    return b"".join(chunks)


# -- bench ------------------------------------------------------------------------------------


def test_bench_says_each_section_on_stderr(capsys):
    rc, out, err = run(capsys, "bench", "--only", "rules")
    assert rc == 0
    assert err == "bench: rules (1 of 1)…\n"
    assert out and all(re.fullmatch(r"rules\.\w+: \S+", line) for line in out.splitlines())


# -- the rule book, held to the engine's cases ------------------------------------------------

#: The tests of the rules files that are machinery, not a rule's case.
NOT_CASES = {"test_the_rules_cases_are_there", "test_rules_case"}


def rule_tests() -> set[str]:
    names = set()
    for name in ("test_rules.py", "test_rules_cases.py"):
        text = (ROOT / "tests" / name).read_text(encoding="utf-8")
        names |= set(re.findall(r"^def (test_\w+)\(", text, re.M))
    return names - NOT_CASES


def rule_sections() -> list[tuple[str, str]]:
    """docs/rules.md's ``##`` sections as (heading, text)."""
    parts = re.split(r"^## (.+)$", RULES.read_text(encoding="utf-8"), flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_the_rule_book_is_linked_from_the_readme():
    readme = README.read_text(encoding="utf-8")
    assert "(docs/rules.md)" in readme
    assert "shared folder" not in readme and "RULES.md" not in readme


def test_every_rules_case_file_is_linked_from_the_rule_book():
    text = RULES.read_text(encoding="utf-8")
    cases = sorted(CASES.glob("*.txt"))
    assert len(cases) >= 30
    missing = [p.stem for p in cases if f"](../tests/rules/{p.name})" not in text]
    assert not missing, f"cases not in docs/rules.md: {missing}"
    linked = set(re.findall(r"\]\(\.\./tests/rules/([^)]+\.txt)\)", text))
    assert linked <= {p.name for p in cases}, linked - {p.name for p in cases}


def test_every_rules_test_is_named_in_the_rule_book():
    text = RULES.read_text(encoding="utf-8")
    tests = rule_tests()
    assert len(tests) >= 70
    missing = sorted(name for name in tests if f"`{name}`" not in text)
    assert not missing, f"rules tests not in docs/rules.md: {missing}"
    named = set(re.findall(r"`(test_\w+)`", text)) - NOT_CASES
    assert named <= tests, f"named in docs/rules.md but no such test: {named - tests}"


def test_every_rule_section_names_its_cases():
    tests = rule_tests()
    files = {p.name for p in CASES.glob("*.txt")}
    sections = rule_sections()
    assert len(sections) >= 12
    for heading, body in sections[:-1]:  # the last points at the formats' page
        cases = body.split("**Cases:**")
        assert len(cases) == 2, f"{heading}: no Cases line"
        named = set(re.findall(r"`(test_\w+)`", cases[1])) & tests
        named |= set(re.findall(r"\]\(\.\./tests/rules/([^)]+\.txt)\)", cases[1])) & files
        assert named, f"{heading}: names no case"
    assert "The hook" in [heading for heading, _ in sections]


# -- the editor says "saved" only once it has ----------------------------------------------


def test_the_editor_says_saved_only_once_the_file_holds_the_room(make_app, tmp_path):
    from anabasis.app import edit_target
    from anabasis.app.editor import hud as editor_hud

    path = tmp_path / "nosuchdir" / "new.txt"
    app = make_app(edit=edit_target(str(path)))
    ed = app.scene
    assert not path.exists()
    assert editor_hud.save_line(ed) == f"unsaved · S saves to {path}"
    # a room that is in its file already: saved
    there = tmp_path / "there.txt"
    there.write_text((ROOT / "levels" / "01-held.txt").read_text(encoding="utf-8"))
    app = make_app(edit=edit_target(str(there)))
    assert editor_hud.save_line(app.scene) == f"saved to {there}"


def test_the_help_says_a_fall_goes_down_in_z_first_as_the_engine_does():
    """A blind player stepped off a crate's top expecting to slip kata and dropped in z
    instead, four moves lost: the help's rules did not say which down comes first.  They
    say it, and the engine does it: stepped off a pillar over a cell free both below and
    kata, the pawn drops in z and rests there (kata first, it would rest one slice kata)."""
    from dataclasses import replace

    from anabasis.app.play import hud
    from anabasis.engine import rules
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room, State

    assert any("down in z first" in line for line in hud.HELP)
    room = Room.empty((2, 1, 3, 2), (0, 0, 2, 1), (1, 0, 2, 0))
    cells = bytearray(room.cells)
    for pos in ((0, 0, 0, 1), (0, 0, 1, 1), (1, 0, 0, 1), (1, 0, 0, 0), (1, 0, 1, 0),
                (0, 0, 0, 0), (0, 0, 1, 0), (0, 0, 2, 0)):
        cells[room.index(pos)] = BLOCK
    room = replace(room, cells=bytes(cells))
    start = State.of((0, 0, 2, 1))
    assert rules.start(room).state == start  # at rest on the pillar
    after = rules.step(room, start, "R").state
    assert after.player == (1, 0, 1, 1), after  # down in z; kata first: (1, 0, 2, 0)


def test_the_help_says_what_ana_and_kata_are_before_it_uses_them():
    """The help's rules used "ana", "kata" and "two downs" unsaid, and blind players of
    every round from t286 to t294 called its words jargon.  Its rules open by saying what
    the four axes are and which ways along w ana and kata are, before any rule uses them."""
    from anabasis.app.play import hud

    rules = hud.HELP[hud.HELP.index("The rules") + 1:]
    said = next(i for i, line in enumerate(rules) if "Ana is +w, kata is -w" in line)
    assert "x, y, z and w" in rules[said]
    used = [i for i, line in enumerate(rules) if " ana" in line.lower() or "kata" in line]
    assert used and min(used) == said


def test_the_help_says_a_crate_pushed_onto_a_red_cross_is_gone_as_the_engine_does():
    """A blind player took a red cross's cell for one a crate would not go into, so for a
    step, and took the long way round (t350): the help said where a crate can be pushed,
    not what becomes of one pushed where it falls out.  The help says it is gone, and the
    engine, the step's badge and the map agree: pushed over a cell with nothing under it
    in z or kata, the crate falls out, and the map crosses that cell."""
    from dataclasses import replace

    from anabasis.app.play import hud, stepmarks
    from anabasis.app.viewer import slicemap
    from anabasis.engine import rules
    from anabasis.engine.cells import BLOCK
    from anabasis.engine.world import Room, State

    said = [line for line in hud.HELP if "crate falls out" in line]
    assert len(said) == 1 and "red \u2715" in said[0] and "gone" in said[0]
    room = Room.empty((3, 1, 3, 2), (0, 0, 1, 1), (0, 0, 2, 1), crates=[(1, 0, 1, 1)])
    cells = bytearray(room.cells)
    for pos in ((0, 0, 0, 0), (0, 0, 1, 0), (1, 0, 0, 0), (1, 0, 1, 0), (0, 0, 0, 1),
                (1, 0, 0, 1)):
        cells[room.index(pos)] = BLOCK
    room = replace(room, cells=bytes(cells))
    start = State.of((0, 0, 1, 1), [(1, 0, 1, 1)])
    assert rules.start(room).state == start  # both at rest
    after = rules.step(room, start, "R").state
    assert after.player == (1, 0, 1, 1) and after.crates == ()
    mark = stepmarks.classify(room, start, "R")
    assert mark.kind == "push" and mark.then == "falls out", mark
    smap = slicemap.SliceMap(room, (600, 300))
    smap.picture(start.player, start.crates)
    assert "gap" in smap.kinds  # (the legend's "dark with \u2715 on the map: you fall out")
    assert smap.top(2, 0, 1) is None and smap.ramp_below(2, 0, 1) is None
