"""Saved progress and settings: round trips, atomic writes, corrupt files set aside."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from anabasis.app.settings.progress import DEFAULT_KEYS, FILE_NAME, Progress, data_dir


def test_a_fresh_directory_starts_clean(tmp_path):
    p = Progress.load(tmp_path)
    assert p.solved == set() and p.best == {} and p.window is None
    assert p.keys == DEFAULT_KEYS and p.warning == ""


def test_progress_round_trips(tmp_path):
    p = Progress.load(tmp_path)
    assert p.record("level:1", 7) is True
    assert p.record("level:1", 9) is False  # not a new best
    assert p.record("level:1", 5) is True
    p.record("room:DAbc", 12)
    p.window = (900, 500)
    p.fullscreen = True
    p.keys["undo"] = ["u"]
    p.save()
    q = Progress.load(tmp_path)
    assert q.solved == {"level:1", "room:DAbc"}
    assert q.best == {"level:1": 5, "room:DAbc": 12}
    assert q.window == (900, 500) and q.fullscreen is True
    assert q.keys["undo"] == ["u"] and q.keys["turn"] == DEFAULT_KEYS["turn"]


def test_a_hinted_win_is_kept_apart_from_a_clean_one(tmp_path):
    p = Progress.load(tmp_path)
    assert p.record("level:5", 6, hints=2) is True
    assert p.record("level:5", 8, hints=1) is False
    assert "level:5" not in p.solved and p.best == {}
    assert p.record("level:5", 9) is True  # the first clean win is a best of its own
    p.save()
    q = Progress.load(tmp_path)
    assert q.solved == {"level:5"} and q.best == {"level:5": 9}
    assert q.hinted == {"level:5"} and q.best_hinted == {"level:5": 6}
    saved = json.loads((tmp_path / FILE_NAME).read_text())
    assert saved["hinted"] == ["level:5"] and saved["best_hinted"] == {"level:5": 6}


def test_data_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ANABASIS_DATA_DIR", str(tmp_path / "here"))
    assert data_dir() == tmp_path / "here"
    p = Progress.load()
    p.record("level:2", 6)
    p.save()
    assert (tmp_path / "here" / FILE_NAME).exists()


def test_a_corrupt_file_is_moved_aside_and_the_game_starts_clean(tmp_path):
    (tmp_path / FILE_NAME).write_text('{"solved": ["level:1"], "best": {"lev')
    p = Progress.load(tmp_path)
    assert p.solved == set() and p.best == {}
    assert "unreadable" in p.warning
    assert not (tmp_path / FILE_NAME).exists()
    aside = list(tmp_path.glob(FILE_NAME + ".corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text().startswith('{"solved"')
    # and the next save works
    p.record("level:1", 5)
    p.save()
    assert Progress.load(tmp_path).best == {"level:1": 5}


def test_a_file_of_the_wrong_shape_is_corrupt_too(tmp_path):
    for text in ('[1, 2]', '{"best": {"level:1": "five"}}', '{"solved": "level:1"}',
                 '{"window": [0, 10]}', '{"hinted": "level:1"}',
                 '{"best_hinted": {"level:1": -1}}'):
        (tmp_path / FILE_NAME).write_text(text)
        p = Progress.load(tmp_path)
        assert p.warning and p.best == {}, text


_CRASH = textwrap.dedent("""
    import os, sys
    from anabasis.app.settings.progress import Progress
    p = Progress.load(sys.argv[1])
    for n in range(1, 2000):
        p.best[f"room:{n:04d}" + "x" * 200] = n   # a big file: many writes to crash in
    p.record("level:1", 3)
    # crash for real (no cleanup, no rename) half-way through writing the temporary file
    real_fdopen = os.fdopen
    class Dying:
        def __init__(self, f):
            self.f = f
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            return False
        def write(self, text):
            self.f.write(text[: len(text) // 2])
            self.f.flush()
            os._exit(9)
    os.fdopen = lambda *a, **k: Dying(real_fdopen(*a, **k))
    p.save()
""")


def test_a_save_survives_a_crash_mid_write(tmp_path):
    good = Progress.load(tmp_path)
    good.record("level:1", 7)
    good.record("level:2", 6)
    good.save()
    before = (tmp_path / FILE_NAME).read_text()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run([sys.executable, "-c", _CRASH, str(tmp_path)], env=env, timeout=60)
    assert run.returncode == 9  # it really died mid-write
    # the half-written temporary file is there, the real file untouched
    leftovers = [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    assert leftovers, "the crash should have happened while writing the temporary file"
    assert (tmp_path / FILE_NAME).read_text() == before
    p = Progress.load(tmp_path)
    assert p.warning == ""
    assert p.best == {"level:1": 7, "level:2": 6}
    json.loads(before)
    # a leftover is swept once it is old enough not to be another copy's save in flight
    for name in leftovers:
        os.utime(tmp_path / name, (0, 0))
    Progress.load(tmp_path)
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


# -- the save file's faults: nothing it holds can crash, freeze or wipe the game ---------
# Bounds are checked structurally (what was read), never by timing.

import stat  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from conftest import REPRODUCIBLE, open_app  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from anabasis.app.settings.progress import MAX_BYTES  # noqa: E402

FUZZ = settings(REPRODUCIBLE, max_examples=150)

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
    def start(directory: Path, session_record=("level:7", 11)) -> Progress:
        app = open_app((640, 360), data_dir=directory)
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
