"""A run's own rules, without a server: the days open to runs, the fields' bounds, names,
the replay, the streak."""

from __future__ import annotations

import datetime as _dt

import pytest

from anabasis import gen
from anabasis.board import days, runs

UTC = _dt.timezone.utc


def at(text: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(text).replace(tzinfo=UTC)


def iso(found) -> list[str]:
    return [d.isoformat() for d in found]


@pytest.mark.parametrize("now, open_", [
    ("2026-12-01T00:00:00", ["2026-11-29", "2026-11-30", "2026-12-01"]),
    ("2026-12-01T00:59:59", ["2026-11-29", "2026-11-30", "2026-12-01"]),
    ("2026-12-01T01:00:00", ["2026-11-30", "2026-12-01"]),
    ("2026-12-01T12:00:00", ["2026-11-30", "2026-12-01"]),
    ("2026-12-01T22:59:59", ["2026-11-30", "2026-12-01"]),
    ("2026-12-01T23:00:00", ["2026-11-30", "2026-12-01", "2026-12-02"]),
    ("2027-01-01T00:10:00", ["2026-12-30", "2026-12-31", "2027-01-01"]),
])
def test_today_and_yesterday_take_runs_with_a_grace_hour(now, open_):
    assert iso(runs.open_days(at(now))) == open_


def test_the_days_are_read_in_utc_whatever_the_servers_zone():
    tokyo = _dt.timezone(_dt.timedelta(hours=9))
    now = _dt.datetime(2026, 12, 2, 8, 0, tzinfo=tokyo)  # 2026-12-01 23:00 UTC
    assert iso(runs.open_days(now)) == ["2026-11-30", "2026-12-01", "2026-12-02"]
    with pytest.raises(runs.RunRefusal) as e:
        runs.check_open(_dt.date(2026, 11, 29), now)
    assert e.value.status == 409


def test_names():
    assert runs.check_name("Zoë") == "Zoë"
    assert runs.check_name("Zoe\u0308") == "Zoë"  # NFC: one character, as typed either way
    assert runs.check_name("a" * runs.MAX_NAME)
    for bad in ("", "a" * (runs.MAX_NAME + 1), "a\u0000", "a\u200d", "x/y", "@me", "a+b"):
        with pytest.raises(runs.RunRefusal):
            runs.check_name(bad)


def test_a_run_must_win_and_counts_only_moves_that_moved():
    made = gen.build("hard", gen.daily_seed("2026-11-29"))
    moves = "".join(made.moves)
    assert runs.replay_win(made.room, moves) == len(moves)
    for losing in (moves[:-1], "", "U" * 30):
        with pytest.raises(runs.RunRefusal) as e:
            runs.replay_win(made.room, losing)
        assert e.value.status == 422


def test_the_day_room_is_the_daily_room():
    made = gen.build("hard", gen.daily_seed("2026-11-30"))
    kept = days.build(_dt.date(2026, 11, 30))
    assert kept.par == len(made.moves) and kept.gen == gen.GEN


def test_the_streak_runs_back_from_the_day_or_the_day_before():
    d = _dt.date.fromisoformat
    won = [d("2026-12-01"), d("2026-11-30"), d("2026-11-29"), d("2026-11-27")]
    assert runs.streak_of(won, d("2026-12-01")) == 3
    assert runs.streak_of(won, d("2026-12-02")) == 3
    assert runs.streak_of(won, d("2026-12-03")) == 0
    assert runs.streak_of(won, d("2026-11-28")) == 1
    assert runs.streak_of([], d("2026-12-01")) == 0
