"""The daily board against a real server process on 127.0.0.1, over real HTTP, on SQLite
and on PostgreSQL alike (every test runs on both).

PostgreSQL is ``$ANABASIS_TEST_PG_URL`` when set (CI sets it), else a throwaway
cluster of the test's own where PostgreSQL is installed; under ``CI=true`` a
missing PostgreSQL fails instead of skipping.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import http.client
import json
import os
import secrets
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from anabasis import gen
from anabasis.board import API_HEADER, client, local, runs, schema
from anabasis.board.store import database_url
from anabasis.engine import rules
from anabasis.formats import codes

PER_TOKEN, PER_ADDRESS = 20, 60
#: the test servers believe X-Forwarded-For from loopback, so each test can speak from
#: an address of its own (as behind a load balancer) and the limits per address hold
SERVE_ARGS = ("--per-token", str(PER_TOKEN), "--per-address", str(PER_ADDRESS),
              "--proxies", "127.0.0.1", "--db-timeout", "10")


# -- the databases and the servers ------------------------------------------------------


@pytest.fixture(scope="module")
def pg_cluster():
    """A PostgreSQL to make databases on: (admin URL, our own cluster or None)."""
    given = os.environ.get("ANABASIS_TEST_PG_URL")
    if given:
        yield given, None
        return
    if local.pg_bin() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no PostgreSQL: set ANABASIS_TEST_PG_URL or install it")
        pytest.skip("no PostgreSQL here (no initdb); set ANABASIS_TEST_PG_URL")
    cluster = local.Cluster()
    try:
        yield cluster.start(), cluster
    finally:
        cluster.remove()


class Backend:
    """A fresh database of one kind, its URL for ``--db`` and a way to inspect it."""

    def __init__(self, kind, tmp_path_factory, pg):
        self.kind, self.pg, self._tmp = kind, pg, tmp_path_factory
        self.cluster = pg[1] if pg else None
        self.names = []

    def fresh(self) -> str:
        if self.kind == "sqlite":
            return str(self._tmp.mktemp("board") / "board.sqlite3")
        name = f"board_{secrets.token_hex(4)}"
        self.names.append(name)
        return local.fresh_database(self.pg[0], name)

    def drop_all(self):
        if self.cluster is not None:
            return  # our own cluster goes whole, with its folder
        for name in self.names:
            try:
                local.drop_database(self.pg[0], name)
            except Exception:  # the cluster may be gone already
                pass


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def backend(request, tmp_path_factory):
    pg = request.getfixturevalue("pg_cluster") if request.param == "postgresql" else None
    b = Backend(request.param, tmp_path_factory, pg)
    yield b
    b.drop_all()


class Board:
    """A running server on a database: its URL, and the database to look into."""

    def __init__(self, backend: Backend, db: str | None = None, args=SERVE_ARGS, port=None):
        self.backend = backend
        self.db = db or backend.fresh()
        self.server = local.Server(self.db, args=args, port=port)
        self.engine = None

    def start(self) -> Board:
        self.server.start()
        return self

    @property
    def url(self):
        return self.server.url

    def sql(self, query: str, **params):
        if self.engine is None:
            self.engine = sa.create_engine(database_url(self.db), poolclass=sa.pool.NullPool)
        with self.engine.connect() as conn:
            return conn.execute(sa.text(query), params).all()

    def stop(self):
        self.server.stop()
        if self.engine is not None:
            self.engine.dispose()


@pytest.fixture(scope="module")
def board(backend):
    """One server per backend for the module; each test speaks from addresses of its own."""
    b = Board(backend).start()
    yield b
    b.stop()


@pytest.fixture
def fresh(backend):
    """A second server on a database of its own (for tests that kill or starve it)."""
    made = []

    def make(**kw) -> Board:
        b = Board(backend, **kw).start()
        made.append(b)
        return b

    yield make
    for b in made:
        b.stop()


# -- requests -----------------------------------------------------------------------------


def address() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def call(url: str, method: str = "GET", body=None, *, addr: str | None = None,
         headers: dict | None = None, timeout: float = 30):
    """One request: (status, decoded JSON answer, headers).  ``body``: bytes as they are,
    anything else as JSON."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("X-Forwarded-For", addr or address())
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read()), r.headers
    except urllib.error.HTTPError as e:
        with e:
            return e.code, json.loads(e.read()), e.headers


def post(b: Board, body, **kw):
    return call(b.url + "/v1/runs", "POST", body, **kw)


def day_board(b: Board, date) -> dict:
    status, got, _ = call(f"{b.url}/v1/days/{date}")
    return got if status == 200 else {"players": 0, "moves": {}, "hinted": {}}


def token() -> str:
    return secrets.token_urlsafe(32)


_MADE = {}


def made(date: _dt.date):
    """The day's room as the server builds it: (code, moves of a shortest solution, room)."""
    if date not in _MADE:
        m = gen.build("hard", gen.daily_seed(date))
        _MADE[date] = (codes.encode(m.room), "".join(m.moves), m.room)
    return _MADE[date]


def detour(date: _dt.date, extra: int) -> str:
    """A winning move string ``extra`` moves over par (steps there and back put in)."""
    _, sol, room = made(date)
    moves = sol
    while rules.replay(room, moves).moves < len(sol) + extra:
        for i in range(len(moves) + 1):
            trial = moves[:i] + "LR" + moves[i:]
            got = rules.replay(room, trial)
            if got.status == "won" and got.moves == rules.replay(room, moves).moves + 2:
                moves = trial
                break
        else:
            raise AssertionError("no detour found")
    assert rules.replay(room, moves).moves == len(sol) + extra
    return moves


def today() -> _dt.date:
    return _dt.datetime.now(_dt.timezone.utc).date()


def a_run(date=None, *, moves=None, hints=0, tok=None, name=None, code=None) -> dict:
    date = date or today()
    c, sol, _ = made(date)
    body = {"date": date.isoformat(), "code": code or c, "moves": sol if moves is None else moves,
            "hints": hints, "seconds": 42.5, "token": tok or token()}
    if name is not None:
        body["name"] = name
    return body


def row_counts(b: Board) -> tuple[int, int, int]:
    return tuple(b.sql(f"SELECT count(*) FROM {t}")[0][0] for t in ("days", "players", "runs"))


def assert_refused(answer, status: int):
    code, body, headers = answer
    assert code == status, body
    assert set(body) == {"error"} and body["error"] and "\n" not in body["error"]
    assert headers[API_HEADER] == "1"


# -- done when: two players, one with hints, see each other -----------------------------


def test_two_game_clients_one_with_hints_see_each_other(board, tmp_path):
    date = today()
    before = day_board(board, date)
    code, sol, _ = made(date)
    outcomes = {}
    for who, hints in (("ana", 0), ("kata", 2)):
        save = tmp_path / who
        tok = client.load_token(save)
        queue = client.RunQueue(save)
        queue.put(client.Run(date.isoformat(), code, sol, hints, 61.0, who.title()))
        sender = client.Sender(queue, client.BoardClient(board.url), tok)
        sender.start()
        sender.wake()
        end = time.monotonic() + 30
        got = []
        while not got and time.monotonic() < end:
            got = sender.outcomes()
            time.sleep(0.05)
        sender.stop()
        assert got and got[0].answer["accepted"], got
        assert len(queue) == 0
        outcomes[who] = got[0]
    par = str(len(sol))
    seen = outcomes["kata"].board  # fetched after both runs went in
    assert seen["moves"].get(par, 0) == before["moves"].get(par, 0) + 1
    assert seen["hinted"].get(par, 0) == before["hinted"].get(par, 0) + 1
    assert seen["players"] == before["players"] + 2
    assert outcomes["ana"].mine["hinted"] is False and outcomes["kata"].mine["hinted"] is True
    # and the card draws everyone's histogram now, the hinted run apart
    wins = client.Wins(tmp_path / "kata")
    wins.add(date.isoformat(), len(sol), 2, len(sol))
    shown = client.card(date.isoformat(), len(sol), len(sol), 2, wins, outcomes["kata"])
    assert shown.histogram.everyone and not shown.waiting
    row = dict((m, (c, h)) for m, c, h in shown.histogram.rows)[len(sol)]
    assert row[1] >= 1 and row[0] >= 1
    assert code not in shown.share and sol not in shown.share


def test_a_run_queued_offline_goes_when_the_board_is_back(backend, tmp_path):
    date = today()
    code, sol, _ = made(date)
    port = local.free_port()
    queue = client.RunQueue(tmp_path)
    queue.put(client.Run(date.isoformat(), code, sol, 0, 30.0))
    sender = client.Sender(queue, client.BoardClient(f"http://127.0.0.1:{port}", timeout=2),
                           client.load_token(tmp_path), backoff=client.Backoff(0.2, 0.5))
    assert sender.send_pending() is not None  # no board: it waits, the run stays
    assert len(queue) == 1 and "does not answer" in sender.last_error
    b = Board(backend, port=port).start()
    try:
        sender.start()
        end = time.monotonic() + 30
        while len(queue) and time.monotonic() < end:
            time.sleep(0.05)
        sender.stop()
        assert len(queue) == 0
        (got,) = sender.outcomes()
        assert got.answer["accepted"] and got.board["players"] == 1
    finally:
        b.stop()


# -- a run, checked ---------------------------------------------------------------------


def test_a_winning_run_is_kept_with_the_first_and_the_best(board):
    date, tok = today(), token()
    _, sol, _ = made(date)
    par = len(sol)
    long = detour(date, 2)
    status, got, headers = post(board, a_run(moves=long, tok=tok, hints=1))
    assert status == 200 and headers[API_HEADER] == "1"
    assert got == {"accepted": True, "moves": par + 2, "par": par, "best": par + 2,
                   "first": par + 2, "hinted": True, "streak": got["streak"]}
    assert got["streak"] >= 1
    before = day_board(board, date)
    status, got, _ = post(board, a_run(tok=tok))  # a hint-free win at par
    assert status == 200 and (got["best"], got["first"]) == (par, par + 2)
    after = day_board(board, date)
    # the player moved from the hinted column at par+2 to the hint-free one at par
    assert after["hinted"].get(str(par + 2), 0) == before["hinted"].get(str(par + 2), 0) - 1
    assert after["moves"].get(str(par), 0) == before["moves"].get(str(par), 0) + 1
    assert after["players"] == before["players"]
    status, got, _ = post(board, a_run(moves=long, tok=tok))  # worse: the best stays
    assert status == 200 and (got["best"], got["first"]) == (par, par + 2)
    status, mine, _ = call(f"{board.url}/v1/days/{date}/me",
                           headers={"Authorization": f"Bearer {tok}"})
    assert status == 200
    assert (mine["moves"], mine["hinted"], mine["best"], mine["first"], mine["wins"]) == \
        (par, False, par, par + 2, 3)


def test_a_better_hinted_win_is_the_best_but_the_board_counts_the_hint_free_one(board):
    """The day's row is one upsert that picks the better run in SQL: the best is the
    fewest moves whatever the hints; the board counts a hint-free win before any hinted."""
    date, tok = today(), token()
    par = len(made(date)[1])
    long = detour(date, 2)
    status, got, _ = post(board, a_run(moves=long, tok=tok))  # hint-free, par + 2
    assert status == 200 and (got["best"], got["first"]) == (par + 2, par + 2)
    before = day_board(board, date)
    status, got, _ = post(board, a_run(tok=tok, hints=3))  # at par, with hints
    assert status == 200 and (got["best"], got["first"], got["hinted"]) == (par, par + 2, True)
    assert day_board(board, date) == before  # still counted by the hint-free win
    status, mine, _ = call(f"{board.url}/v1/days/{date}/me",
                           headers={"Authorization": f"Bearer {tok}"})
    assert (mine["moves"], mine["hinted"], mine["best"], mine["first"], mine["wins"]) == \
        (par + 2, False, par, par + 2, 2)
    best = board.sql("SELECT best_hints, best_moves FROM runs r JOIN players p "
                     "ON p.id = r.player_id WHERE p.token_hash = :h", h=runs.token_hash(tok))
    assert [tuple(row) for row in best] == [(3, par)]


def test_yesterday_is_open_and_the_streak_counts_both_days(board):
    tok, date = token(), today()
    yesterday = date - _dt.timedelta(days=1)
    status, got, _ = post(board, a_run(yesterday, tok=tok))
    assert status == 200 and got["streak"] == 1
    status, got, _ = post(board, a_run(date, tok=tok))
    assert status == 200 and got["streak"] == 2
    status, mine, _ = call(f"{board.url}/v1/days/{date}/me",
                           headers={"Authorization": f"Bearer {tok}"})
    assert mine["streak"] == 2


def test_the_board_says_players_moves_share_at_par_and_median_time(board):
    status, got, _ = call(f"{board.url}/v1/days/{today()}")
    assert status == 200
    assert {"date", "code", "par", "players", "moves", "hinted", "median_seconds",
            "at_par"} <= set(got)
    assert got["code"] == made(today())[0] and got["par"] == len(made(today())[1])
    assert got["players"] == sum(got["moves"].values()) + sum(got["hinted"].values())
    assert got["at_par"] == got["moves"].get(str(got["par"]), 0) / got["hint_free"]
    assert got["median_seconds"] is not None
    assert_refused(call(f"{board.url}/v1/days/2001-01-01"), 404)


# -- forged runs --------------------------------------------------------------------------


def test_forged_runs_are_refused_and_change_nothing(board):
    date = today()
    code, sol, room = made(date)
    yesterday = date - _dt.timedelta(days=1)
    post(board, a_run(yesterday))  # both days are open and built
    before, rows = day_board(board, date), row_counts(board)
    other_tier = codes.encode(gen.build("medium", gen.daily_seed(date)).room)
    other_seed = codes.encode(gen.build("hard", gen.daily_seed(date) + 1).room)
    edited = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    forged = {
        "not winning": (a_run(moves=sol[:-1]), 422),
        "losing": (a_run(moves="L" * 40), 422),
        "no moves": (a_run(moves=""), 422),
        "another day's code": (a_run(code=made(yesterday)[0]), 409),
        "another day's code and moves": (a_run(code=made(yesterday)[0],
                                               moves=made(yesterday)[1]), 409),
        "another generator's code (tier)": (a_run(code=other_tier), 409),
        "another generator's code (seed)": (a_run(code=other_seed), 409),
        "a code edited to match": (a_run(code=edited), 409),
        "a day long gone": (a_run(yesterday, code=code) | {"date": "2020-01-01"}, 409),
        "a day to come": (a_run() | {"date": (date + _dt.timedelta(days=3)).isoformat()},
                          409),
    }
    for what, (body, status) in forged.items():
        got = post(board, body)
        assert got[0] == status, (what, got[1])
        assert_refused(got, status)
    assert row_counts(board) == rows
    assert day_board(board, date) == before


def test_a_later_generator_never_changes_a_past_day(fresh, backend):
    """The server keeps the code it built first: a day kept under another GEN keeps its
    room, and today's generator's code for it is refused."""
    date = today()
    b = Board(backend)
    eng = sa.create_engine(database_url(b.db))
    schema.migrate(eng)
    old = gen.build("hard", gen.daily_seed(date) + 7)  # as if an older GEN had made it
    old_code = codes.encode(old.room)
    with eng.begin() as conn:
        conn.execute(schema.days.insert().values(day=date.isoformat(), code=old_code,
                                                 par=len(old.moves), gen=gen.GEN - 1,
                                                 made_at=_dt.datetime.now(_dt.timezone.utc)))
    eng.dispose()
    b = fresh(db=b.db)
    assert_refused(post(b, a_run()), 409)  # the room this GEN would build for the day
    status, got, _ = post(b, a_run(code=old_code, moves="".join(old.moves)))
    assert status == 200 and got["par"] == len(old.moves)
    assert day_board(b, date)["code"] == old_code
    assert b.sql("SELECT gen FROM days")[0][0] == gen.GEN - 1


# -- bad input --------------------------------------------------------------------------


def test_bodies_and_move_strings_over_their_bounds(board):
    rows = row_counts(board)
    assert_refused(post(board, b"{" + b" " * (runs.MAX_BODY + 10) + b"}"), 413)
    assert_refused(post(board, a_run(moves="R" * (runs.MAX_MOVES + 1))), 413)
    body = a_run() | {"name": "x" * (runs.MAX_NAME + 1)}
    assert_refused(post(board, body), 400)
    assert_refused(post(board, a_run(code="D" * (runs.MAX_CODE + 1))), 400)
    assert_refused(post(board, a_run() | {"hints": runs.MAX_HINTS + 1}), 400)
    assert_refused(post(board, a_run() | {"seconds": -1}), 400)
    assert_refused(post(board, a_run() | {"seconds": 1e308 * 10}), 400)  # JSON Infinity
    assert_refused(post(board, a_run() | {"token": "short"}), 400)
    # a body with no length given (chunked) is read only up to its bound: the server
    # answers 413 while the client is still sending, or cuts the connection on it
    def chunks():
        for _ in range(40):
            yield b" " * 1024
    req = urllib.request.Request(board.url + "/v1/runs", data=chunks(), method="POST")
    req.add_header("Transfer-Encoding", "chunked")
    try:
        urllib.request.urlopen(req, timeout=30)
        raise AssertionError("a chunked body over the bound was taken")
    except urllib.error.HTTPError as e:
        assert e.code == 413
    except urllib.error.URLError as e:
        assert isinstance(e.reason, ConnectionError), e
    except ConnectionError:
        pass
    assert call(f"{board.url}/v1/health")[0] == 200
    assert row_counts(board) == rows


def test_malformed_json_and_wrong_types(board):
    rows = row_counts(board)
    for raw in (b"", b"{", b"not json", b'{"date": }', b"\xff\xfe{}", b"[" * 5000,
                b"null", b"[]", b'"a run"', b"42"):
        assert_refused(post(board, raw), 400)
    wrong = {"date": [20261201, None, "2026-13-01", "2026-02-30", "01-12-2026", "2026-1-1"],
             "code": [7, None, ["D"], ""],
             "moves": [["R"], 3, None, "RRxU", "R U", "hR"],
             "hints": ["0", 1.5, True, None, -1],
             "seconds": ["12", True, None, [1]],
             "token": [123, None, "a" * 31 + "!", "é" * 40],
             "name": [5, ["a"], {"a": 1}]}
    for key, values in wrong.items():
        for value in values:
            assert_refused(post(board, a_run() | {key: value}), 400)
        body = a_run()
        if key != "name":
            del body[key]
            assert_refused(post(board, body), 400)
    assert row_counts(board) == rows


def test_names_with_control_characters_or_markup_are_refused(board):
    rows = row_counts(board)
    for name in ("a\nb", "a\x00b", "tab\there", "esc\x1b[2J", "\u202eevil", "bell\x07",
                 " lead", "trail ", "two  spaces", "<b>bold</b>", "a&amp;b", "semi;colon",
                 "quote'", 'dq"', "zero\u200bwidth"):
        assert_refused(post(board, a_run(name=name)), 400)
    assert row_counts(board) == rows
    status, got, _ = post(board, a_run(name="Ana Kata-3"))
    assert status == 200


SQL = ["'; DROP TABLE runs; --", "1 OR 1=1", "\" OR \"\"=\"", "'); DELETE FROM players;--",
       "%' UNION SELECT token_hash FROM players --"]
HTML = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "&lt;b&gt;"]


def test_sql_and_html_in_every_field(board):
    rows = row_counts(board)
    for payload in SQL + HTML:
        for key in ("date", "code", "moves", "hints", "seconds", "token", "name"):
            got = post(board, a_run() | {key: payload})
            assert got[0] in (400, 409), (key, payload, got[1])
            assert payload not in got[1]["error"]  # nothing sent is echoed back
        for path in (f"/v1/days/{payload}", f"/v1/days/2026-12-01{payload}"):
            req = board.url + urllib.request.quote(path)
            status, body, _ = call(req)
            assert status in (400, 404) and payload not in body["error"]
    assert row_counts(board) == rows
    # every table is still there and answers
    assert all(n >= 0 for n in row_counts(board))
    assert post(board, a_run())[0] == 200


def test_a_stolen_token_attempt(board):
    date, mine, theirs = today(), token(), token()
    status, _, _ = post(board, a_run(tok=mine, name="Ana", moves=detour(date, 2)))
    assert status == 200
    held = runs.token_hash(mine)
    # the hash (were it ever seen) is only another token: a new player, not Ana
    status, got, _ = post(board, a_run(tok=held, name="Kata"))
    assert status == 200 and got["first"] == got["moves"]
    status, got, _ = post(board, a_run(tok=theirs, name="Ana"))  # the same name: not Ana
    assert status == 200
    auth = {"Authorization": f"Bearer {held}"}
    status, me, _ = call(f"{board.url}/v1/days/{date}/me", headers=auth)
    assert me["name"] == "Kata"
    status, me, _ = call(f"{board.url}/v1/days/{date}/me",
                         headers={"Authorization": f"Bearer {mine}"})
    assert (me["name"], me["moves"], me["wins"]) == ("Ana", len(made(date)[1]) + 2, 1)
    assert_refused(call(f"{board.url}/v1/days/{date}/me"), 401)
    assert_refused(call(f"{board.url}/v1/days/{date}/me",
                        headers={"Authorization": "Bearer " + "x" * 10}), 401)
    # no answer holds a token or its hash; the database holds no token
    texts = [json.dumps(call(f"{board.url}/v1/days/{date}")[1]),
             json.dumps(call(f"{board.url}/v1/health")[1]), json.dumps(me)]
    for text in texts:
        assert mine not in text and held not in text
    stored = json.dumps([list(map(str, r)) for r in board.sql("SELECT * FROM players")])
    assert mine not in stored and held in stored


def test_replay_flooding_is_429_per_token_and_per_address(board):
    tok = token()
    answers = [post(board, a_run(moves="L", tok=tok)) for _ in range(PER_TOKEN + 5)]
    assert [a[0] for a in answers[:PER_TOKEN]] == [422] * PER_TOKEN
    for a in answers[PER_TOKEN:]:
        assert_refused(a, 429)
        assert 0 < int(a[2]["Retry-After"]) <= 60
    assert_refused(post(board, a_run(tok=tok)), 429)  # even a winning run waits
    addr = address()
    answers = [post(board, a_run(moves="L"), addr=addr) for _ in range(PER_ADDRESS + 5)]
    assert [a[0] for a in answers[:PER_ADDRESS]] == [422] * PER_ADDRESS
    assert {a[0] for a in answers[PER_ADDRESS:]} == {429}
    # others are not held back by them
    assert post(board, a_run())[0] == 200


def test_a_thousand_concurrent_submissions(board):
    date = today()
    before = day_board(board, date)
    rows = row_counts(board)
    tokens = [token() for _ in range(1000)]
    addrs = [address() for _ in range(100)]

    def send(i):
        return post(board, a_run(tok=tokens[i], hints=int(i % 3 == 0)), addr=addrs[i % 100])

    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(send, range(1000)))
    assert [a[0] for a in answers] == [200] * 1000, {a[0] for a in answers}
    after = day_board(board, date)
    assert after["players"] == before["players"] + 1000
    assert row_counts(board)[1:] == (rows[1] + 1000, rows[2] + 1000)


def test_two_processes_on_one_database_share_the_limits_and_the_board(fresh):
    """A server process keeps nothing of its own: two on one database are one board."""
    one = fresh()
    two = fresh(db=one.db)
    tok = token()
    answers = [post((one, two)[i % 2], a_run(moves="L", tok=tok)) for i in range(PER_TOKEN + 4)]
    assert [a[0] for a in answers] == [422] * PER_TOKEN + [429] * 4
    date = today()
    status, got, _ = post(one, a_run(name="Ana"))
    assert status == 200
    assert day_board(two, date) == day_board(one, date)
    assert day_board(two, date)["players"] == 1


def _sockets_on(port: int) -> dict[int, str]:
    """The TCP sockets on 127.0.0.1:``port`` (this side of them), by inode: their state
    as /proc/net/tcp writes it (0A: listening, 01: established)."""
    found = {}
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if int(fields[1].split(":")[1], 16) == port:
                found[int(fields[9])] = fields[3]
    return found


def _inodes(pid: int) -> set[int]:
    got = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
            if link.startswith("socket:["):
                got.add(int(link[8:-1]))
    return got


def test_several_workers_each_listen_and_take_a_share_of_the_connections(fresh):
    """``--workers 2`` on Linux: each worker listens on the port itself (SO_REUSEPORT),
    so connections opened all at once are spread over both (on one shared socket,
    whichever worker was awake took nearly all); SIGTERM stops every worker."""
    import http.client
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("SO_REUSEPORT spreads connections on Linux only")
    b = fresh(args=SERVE_ARGS + ("--workers", "2"))
    port = b.server.port
    b.server.wait_listening(2)  # the first to start answered the health check
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(40)]
    for c in conns:
        c.connect()
    for c in conns:
        c.request("GET", "/v1/health")
        answer = c.getresponse()
        assert answer.status == 200 and json.loads(answer.read())["ok"]
    parent = b.server.proc.pid
    kids = [int(d) for d in os.listdir("/proc") if d.isdigit() and _parent_of(int(d)) == parent]
    on_port = _sockets_on(port)
    held = {pid: [on_port[i] for i in _inodes(pid) if i in on_port] for pid in kids}
    workers = {pid: states for pid, states in held.items() if "0A" in states}
    assert len(workers) == 2, held  # each worker listens itself
    shares = sorted(states.count("01") for states in workers.values())
    assert sum(shares) == 40 and shares[0] >= 5, shares
    for c in conns:
        c.close()
    b.stop()
    assert b.server.proc.returncode is not None
    end = time.monotonic() + 20
    while any(os.path.exists(f"/proc/{pid}") for pid in workers) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(os.path.exists(f"/proc/{pid}") for pid in workers)


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


# -- faults -------------------------------------------------------------------------------


def test_killed_mid_writes_loses_no_accepted_run_and_leaves_no_half_rows(fresh, backend):
    b = fresh()
    date = today()
    accepted, stop = [], threading.Event()
    lock = threading.Lock()

    def writer():
        while not stop.is_set():
            tok = token()
            try:
                status, got, _ = post(b, a_run(tok=tok), timeout=5)
            except (OSError, http.client.HTTPException):
                # the server is gone (a reply cut off mid-body, killed as it wrote it, is an
                # IncompleteRead): this run was never confirmed accepted
                continue
            if status == 200 and got.get("accepted"):
                with lock:
                    accepted.append(tok)

    threads = [threading.Thread(target=writer) for _ in range(16)]
    for t in threads:
        t.start()
    end = time.monotonic() + 20
    while len(accepted) < 30 and time.monotonic() < end:
        time.sleep(0.02)
    b.server.kill()  # SIGKILL, in the middle of writes
    stop.set()
    for t in threads:
        t.join(30)
    assert len(accepted) >= 30
    again = fresh(db=b.db)  # a new process on the same database
    for tok in accepted:
        status, _, _ = call(f"{again.url}/v1/days/{date}/me",
                            headers={"Authorization": f"Bearer {tok}"})
        assert status == 200
    par = len(made(date)[1])
    # every player has their run, every run its player, each whole
    assert again.sql("SELECT count(*) FROM players p LEFT JOIN runs r ON r.player_id = p.id "
                     "WHERE r.player_id IS NULL")[0][0] == 0
    assert again.sql("SELECT count(*) FROM runs WHERE best_moves <> :par OR wins <> 1 "
                     "OR best_path = ''", par=par)[0][0] == 0
    players = again.sql("SELECT count(*) FROM players")[0][0]
    assert players >= len(accepted)
    assert day_board(again, date)["players"] == players
    if backend.kind == "sqlite":
        assert again.sql("PRAGMA integrity_check")[0][0] == "ok"


def test_the_database_restarted_under_the_server(fresh, backend):
    b = fresh(args=SERVE_ARGS[:-1] + ("2",))  # --db-timeout 2
    date = today()
    assert post(b, a_run())[0] == 200
    rows = row_counts(b)
    if backend.kind == "sqlite":
        # SQLite's "restart": another process holds the write lock past the timeout
        import sqlite3

        holder = sqlite3.connect(b.db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            t0 = time.monotonic()
            got = post(b, a_run())
            assert time.monotonic() - t0 < 20
            assert_refused(got, 503)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    elif backend.cluster is not None:
        backend.cluster.stop()
        try:
            assert_refused(post(b, a_run()), 503)
            assert_refused(call(f"{b.url}/v1/days/{date}"), 503)
            assert_refused(call(f"{b.url}/v1/health"), 503)
        finally:
            backend.cluster.start()
        # the server's log says why: one line a refusal, the driver's words in it
        said = [line for line in b.server.log().splitlines() if " 503, " in line]
        assert len(said) == 3 and all("OperationalError" in line for line in said), said
    else:  # a PostgreSQL we do not run: cut every session of the server's, as a restart does
        b.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
              "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    assert row_counts(b) == rows  # the run tried while it was down left nothing
    answers = [post(b, a_run())[0] for _ in range(3)]
    assert answers == [200] * 3, answers
    assert call(f"{b.url}/v1/health")[0] == 200


def test_every_pooled_session_cut_under_the_server(pg_cluster, tmp_path_factory):
    """A restart or failover cuts the sessions of every connection the server pools; the
    next requests each find dead connections first, and none of them is refused.
    (PostgreSQL's alone: SQLite has no sessions to cut.)"""
    backend = Backend("postgresql", tmp_path_factory, pg_cluster)
    b = Board(backend).start()
    try:
        date = today()
        with ThreadPoolExecutor(8) as pool:  # several connections pooled, each used
            assert set(pool.map(lambda _: post(b, a_run())[0], range(16))) == {200}
        cut = b.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")[0][0]
        assert cut >= 2
        answers = []
        for _ in range(4):
            answers += [post(b, a_run())[0], call(f"{b.url}/v1/days/{date}")[0],
                        call(f"{b.url}/v1/health")[0]]
        assert answers == [200] * len(answers), answers
    finally:
        b.stop()
        backend.drop_all()


# -- the API's shape ----------------------------------------------------------------------


def test_health_and_versions(board):
    status, got, headers = call(f"{board.url}/v1/health")
    assert status == 200 and headers[API_HEADER] == "1"
    assert got["api"] == 1 and got["schema"] == schema.VERSION and got["gen"] == gen.GEN
    assert got["database"] == board.backend.kind
    assert_refused(call(f"{board.url}/v2/health"), 404)
    assert_refused(call(f"{board.url}/v1/runs"), 405)
    assert_refused(call(f"{board.url}/"), 404)


def test_the_board_command_prints_a_day(board, tmp_path):
    import subprocess
    import sys

    env = dict(os.environ, ANABASIS_DATA_DIR=str(tmp_path))
    date = today().isoformat()
    out = subprocess.run([sys.executable, "-m", "anabasis", "board", date, "--url", board.url],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{date}  par {len(made(today())[1])}")
    assert "median time" in out.stdout and made(today())[0] in out.stdout
    out = subprocess.run([sys.executable, "-m", "anabasis", "board", "2001-01-01", "--url",
                          board.url], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 1 and out.stderr.count("\n") == 1


def test_migrations_are_versioned_and_the_live_tables_match_them(backend):
    eng = sa.create_engine(database_url(backend.fresh()))
    try:
        assert schema.migrate(eng) == schema.VERSION
        assert schema.migrate(eng) == schema.VERSION  # again: nothing to do
        insp = sa.inspect(eng)
        for table in schema.metadata.sorted_tables:
            got = {c["name"]: c["nullable"] for c in insp.get_columns(table.name)}
            want = {c.name: c.nullable for c in table.columns}
            assert got == want, table.name
            assert {tuple(i["column_names"]) for i in insp.get_indexes(table.name)} >= \
                {tuple(c.name for c in i.columns) for i in table.indexes}
        with eng.begin() as conn:
            conn.execute(schema.migrations_table.insert().values(
                version=schema.VERSION + 1, about="from a newer server",
                applied_at=_dt.datetime.now(_dt.timezone.utc)))
        with pytest.raises(RuntimeError, match="newer than this server"):
            schema.migrate(eng)
    finally:
        eng.dispose()


def test_serve_refuses_a_bad_database_in_one_line(tmp_path):
    import subprocess
    import sys

    env = dict(os.environ, ANABASIS_DATA_DIR=str(tmp_path))
    for db in ("ftp://example.org/board", f"postgresql://nobody@127.0.0.1:{local.free_port()}/x"):
        out = subprocess.run([sys.executable, "-m", "anabasis", "serve", "--db", db,
                              "--db-timeout", "2", "--port", str(local.free_port())],
                             capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode == 2, out.stderr
        assert out.stderr.startswith("anabasis: ") and out.stderr.count("\n") == 1, out.stderr
    out = subprocess.run([sys.executable, "-m", "anabasis", "serve", "--workers", "0"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 2 and "--workers" in out.stderr


def test_serve_with_workers_says_a_taken_port_in_one_line(tmp_path):
    """``--workers 2`` holds its port before it starts a worker: one taken by another
    program is said at once, in one line, and no worker is left behind."""
    import socket
    import subprocess
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("the workers' own sockets are Linux's (SO_REUSEPORT)")
    env = dict(os.environ, ANABASIS_DATA_DIR=str(tmp_path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "anabasis", "serve", "--workers", "2",
                              "--port", str(port)], capture_output=True, text=True, env=env,
                             timeout=60)
    assert out.returncode == 1, out.stderr
    assert out.stderr.startswith(f"anabasis serve: 127.0.0.1:{port}: ") \
        and out.stderr.count("\n") == 1, out.stderr


def test_the_bench_has_a_board_section():
    from anabasis import bench

    assert ("board", "anabasis.bench.board") in bench.SECTIONS
