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
