"""``anabasis bench`` section ``board``: the daily board's server, over real HTTP on loopback.

- ``board.replay_ms``: the engine replaying one hard day's shortest solution (2026-11-29's
  room, 38 moves), as the server checks a run; median of many.  ``board.check_ms``: that
  and the rest of a run's checks short of the database (the body's fields and bounds).
- For each database (``sqlite``, then ``postgresql`` where there is one: a throwaway
  cluster, or ``$ANABASIS_BENCH_PG_URL``), a server (``--workers`` :data:`WORKERS`,
  figure ``board.DB.workers``) on a fresh database and a load generator of :data:`CLIENTS` clients
  (two processes of threads, each client on one kept-alive connection), every run a
  new player's winning run of today's room:
  ``board.DB.submit_per_s`` (verified submissions per second, each replayed and
  committed), ``board.DB.submit_p50_ms`` and ``board.DB.submit_p99_ms`` (latency as
  the clients saw it); then the day is filled to :data:`STORED` runs and one client reads
  the day's board again and again: ``board.DB.read_p50_ms``, ``board.DB.read_p99_ms``.

The load is bounded in count (:data:`SUBMISSIONS`) and in time (:data:`SECONDS`), on
127.0.0.1 only, and stops by itself.  Targets: >= 300 submissions/s on PostgreSQL and
>= 150 on SQLite with p99 <= 100 ms; reads p99 <= 20 ms with 10,000 runs; replay <= 2 ms.
"""

from __future__ import annotations

import datetime as _dt
import http.client
import json
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from threading import Thread

#: Clients at once, in this many load processes.
CLIENTS, LOAD_PROCESSES = 50, 2
#: The most submissions sent, and the most seconds spent sending them.
SUBMISSIONS, SECONDS = 6000, 20.0
#: Runs stored for the day when its board is read; reads made.
STORED, READS = 10_000, 1000
#: Server processes (``anabasis serve --workers``) for each database: SQLite has one
#: writer, so one process; PostgreSQL takes several.  ``$ANABASIS_BENCH_BOARD_WORKERS``
#: sets both.
WORKERS = {"sqlite": 1, "postgresql": 2}
if os.environ.get("ANABASIS_BENCH_BOARD_WORKERS"):
    WORKERS = dict.fromkeys(WORKERS, int(os.environ["ANABASIS_BENCH_BOARD_WORKERS"]))


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _replay_figures() -> Iterator[tuple[str, object]]:
    from anabasis import gen
    from anabasis.board import runs
    from anabasis.formats import codes

    made = gen.build("hard", gen.daily_seed("2026-11-29"))
    moves = "".join(made.moves)
    times = []
    for _ in range(300):
        t0 = time.perf_counter()
        runs.replay_win(made.room, moves)
        times.append(time.perf_counter() - t0)
    yield "board.replay_ms", 1000 * statistics.median(times)
    body = {"date": "2026-11-29", "code": codes.encode(made.room), "moves": moves, "hints": 0,
            "seconds": 60.0, "token": secrets.token_urlsafe(32)}
    times = []
    for _ in range(300):
        t0 = time.perf_counter()
        run = runs.parse_run(json.loads(json.dumps(body)))
        runs.replay_win(made.room, run.moves)
        times.append(time.perf_counter() - t0)
    yield "board.check_ms", 1000 * statistics.median(times)


def _client(port: int, bodies: list[bytes], deadline: float, out: list) -> None:
    """One client: its bodies in turn on one kept-alive connection, until the deadline."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for i, body in enumerate(bodies):
        if time.time() > deadline:
            break
        t0 = time.perf_counter()
        try:
            conn.request("POST", "/v1/runs", body, {"Content-Type": "application/json",
                                                    "X-Forwarded-For": f"10.0.{i % 200}.1"})
            answer = conn.getresponse()
            answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            status = 0
        out.append((status, time.perf_counter() - t0))
    conn.close()


def _load(port: int, bodies: list[list[bytes]], deadline: float) -> list[tuple[int, float]]:
    """A load process: a thread per client; every answer's status and latency."""
    out: list[tuple[int, float]] = []
    threads = [Thread(target=_client, args=(port, b, deadline, out)) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _fill(db: str, date: _dt.date, par: int, upto: int) -> None:
    """Store runs for ``date`` straight into the database until it holds ``upto``."""
    import sqlalchemy as sa

    from anabasis.board import schema
    from anabasis.board.store import database_url

    engine = sa.create_engine(database_url(db))
    now = _dt.datetime.now(_dt.timezone.utc)
    day = date.isoformat()
    with engine.begin() as conn:
        have = conn.execute(sa.select(sa.func.count()).select_from(schema.runs)
                            .where(schema.runs.c.day == day)).scalar_one()
        need = upto - have
        if need <= 0:
            return
        hashes = [secrets.token_hex(32) for _ in range(need)]
        conn.execute(schema.players.insert(),
                     [{"token_hash": h, "name": None, "made_at": now} for h in hashes])
        ids = dict(conn.execute(sa.select(schema.players.c.token_hash, schema.players.c.id)
                                .where(schema.players.c.token_hash.in_(hashes))).all())
        rows = []
        for i, h in enumerate(hashes):
            moves = par + (i % 7) * (i % 3)
            hinted = int(i % 5 == 0)
            rows.append({"day": day, "player_id": ids[h], "first_moves": moves,
                         "first_hints": hinted, "first_seconds": 30.0 + i % 600,
                         "first_at": now, "best_moves": moves, "best_hints": hinted,
                         "best_seconds": 30.0 + i % 600, "best_path": "R", "best_at": now,
                         "shown_moves": moves, "shown_hinted": hinted,
                         "shown_seconds": 30.0 + i % 600, "wins": 1})
        conn.execute(schema.runs.insert(), rows)
    if engine.dialect.name == "postgresql":
        # what autovacuum does after so many inserts: the planner's figures, the visibility
        # map (so the board's index scans need not visit the table)
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE runs")
    engine.dispose()


def _measure(kind: str, db: str) -> Iterator[tuple[str, object]]:
    from anabasis import gen
    from anabasis.board import local
    from anabasis.formats import codes

    date = _dt.datetime.now(_dt.timezone.utc).date()
    made = gen.build("hard", gen.daily_seed(date))
    code, moves = codes.encode(made.room), "".join(made.moves)
    server = local.Server(db, args=("--workers", str(WORKERS[kind]), "--per-token", "1000000",
                                    "--per-address", "1000000", "--proxies", "127.0.0.1"))
    server.start()
    try:
        def body(i: int) -> bytes:
            return json.dumps({"date": date.isoformat(), "code": code, "moves": moves,
                               "hints": int(i % 4 == 0), "seconds": 40.0 + i % 90,
                               "token": secrets.token_urlsafe(32)}).encode()

        # warm: the day built and kept, every worker's connections open
        _load(server.port, [[body(i) for i in range(4)] for _ in range(8)], time.time() + 30)
        per = SUBMISSIONS // CLIENTS
        bodies = [[body(c * per + i) for i in range(per)] for c in range(CLIENTS)]
        share = CLIENTS // LOAD_PROCESSES
        deadline = time.time() + SECONDS
        t0 = time.perf_counter()
        with ProcessPoolExecutor(LOAD_PROCESSES) as pool:
            parts = list(pool.map(_load, [server.port] * LOAD_PROCESSES,
                                  [bodies[k * share:(k + 1) * share]
                                   for k in range(LOAD_PROCESSES)],
                                  [deadline] * LOAD_PROCESSES))
        wall = time.perf_counter() - t0
        answers = [a for part in parts for a in part]
        ok = [s for status, s in answers if status == 200]
        failed = len(answers) - len(ok)
        yield f"board.{kind}.workers", WORKERS[kind]
        yield f"board.{kind}.submit_per_s", len(ok) / wall
        yield f"board.{kind}.submit_p50_ms", 1000 * _percentile(ok, 50)
        yield f"board.{kind}.submit_p99_ms", 1000 * _percentile(ok, 99)
        yield f"board.{kind}.submit_failed", failed
        _fill(db, date, len(made.moves), STORED)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        times = []
        path = f"/v1/days/{date.isoformat()}"
        for _ in range(READS):
            t0 = time.perf_counter()
            conn.request("GET", path)
            answer = conn.getresponse()
            got = json.loads(answer.read())
            times.append(time.perf_counter() - t0)
        conn.close()
        if got.get("players", 0) < STORED:
            raise AssertionError(f"the board read {got.get('players')} players, not {STORED}")
        yield f"board.{kind}.read_p50_ms", 1000 * _percentile(times, 50)
        yield f"board.{kind}.read_p99_ms", 1000 * _percentile(times, 99)
    finally:
        server.stop()


def bench() -> Iterator[tuple[str, object]]:
    """Yield the ``board.*`` figures (see the module's docstring)."""
    from anabasis.board import local

    yield from _replay_figures()
    with tempfile.TemporaryDirectory(prefix="anabasis-bench-board-") as tmp:
        yield from _measure("sqlite", str(Path(tmp) / "board.sqlite3"))
    given = os.environ.get("ANABASIS_BENCH_PG_URL")
    if given:
        name = f"board_bench_{secrets.token_hex(4)}"
        url = local.fresh_database(given, name)
        try:
            yield from _measure("postgresql", url)
        finally:
            local.drop_database(given, name)
        return
    if local.pg_bin() is None:
        yield "board.postgresql.skipped", "no PostgreSQL (set ANABASIS_BENCH_PG_URL)"
        return
    cluster = local.Cluster()
    try:
        yield from _measure("postgresql", cluster.start())
    finally:
        cluster.remove()
