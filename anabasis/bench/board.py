"""``anabasis bench`` section ``board``: the daily board's server, over real HTTP on loopback.

- ``board.replay_ms``: the engine replaying one hard day's shortest solution (2026-11-29's
  room, 38 moves), as the server checks a run; median of many.  ``board.check_ms``: that
  and the rest of a run's checks short of the database (the body's fields and bounds).
- For each database (``sqlite``, then ``postgresql`` where there is one: a throwaway
  cluster, or ``$ANABASIS_BENCH_PG_URL``), a server (``--workers`` :data:`WORKERS`,
  figure ``board.DB.workers``) on a fresh database and a load generator of
  :data:`CLIENTS` clients (two processes of threads, each client on one kept-alive
  connection, its requests made in advance), every run a new player's winning run of
  today's room:
  ``board.DB.submit_per_s`` (verified submissions per second, each replayed and
  committed), ``board.DB.submit_p50_ms`` and ``board.DB.submit_p99_ms`` (latency as
  the clients saw it), ``board.DB.server_cpu_ms`` (CPU the server's processes spent
  per verified run: steadier than the rates on a shared machine) and, for our own
  cluster, ``board.postgresql.database_cpu_ms`` (PostgreSQL's, likewise); then the
  day is filled to :data:`STORED` runs and one client reads the day's board again and
  again: ``board.DB.read_p50_ms``, ``board.DB.read_p99_ms``.

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
import socket
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


def _request(body: bytes, forwarded: str) -> bytes:
    """A whole ``POST /v1/runs`` as bytes, made before the clock starts."""
    head = (f"POST /v1/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"X-Forwarded-For: {forwarded}\r\n\r\n")
    return head.encode("ascii") + body


def _answer(sock: socket.socket, buffer: bytearray) -> int:
    """Read one answer off a kept-alive connection; its status."""
    while b"\r\n\r\n" not in buffer:
        got = sock.recv(65536)
        if not got:
            raise ConnectionError("the server closed the connection")
        buffer += got
    end = buffer.index(b"\r\n\r\n") + 4
    head = bytes(buffer[:end]).decode("latin-1")
    status = int(head.split(" ", 2)[1])
    length = 0
    for line in head.split("\r\n"):
        if line.lower().startswith("content-length:"):
            length = int(line.split(":", 1)[1])
    while len(buffer) < end + length:
        got = sock.recv(65536)
        if not got:
            raise ConnectionError("the server closed the connection")
        buffer += got
    del buffer[:end + length]
    return status


def _client(port: int, requests: list[bytes], deadline: float, out: list) -> None:
    """One client: its requests in turn on one kept-alive connection, until the deadline.

    Raw sockets and requests made in advance, so that the load generator's own CPU
    (it shares the machine with the server) stays small."""
    def connect():
        return socket.create_connection(("127.0.0.1", port), timeout=30)

    sock, buffer = connect(), bytearray()
    for request in requests:
        if time.time() > deadline:
            break
        t0 = time.perf_counter()
        try:
            sock.sendall(request)
            status = _answer(sock, buffer)
        except (OSError, ValueError):
            sock.close()
            sock, buffer = connect(), bytearray()
            status = 0
        out.append((status, time.perf_counter() - t0))
    sock.close()


def _load(port: int, bodies: list[list[bytes]], deadline: float) -> list[tuple[int, float]]:
    """A load process: a thread per client; every answer's status and latency."""
    out: list[tuple[int, float]] = []
    threads = [Thread(target=_client, args=(port, b, deadline, out)) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _cpu_seconds(roots: set[int]) -> float | None:
    """CPU seconds (user + system) used so far by the processes ``roots`` and their
    children, read from ``/proc`` (None where there is no ``/proc``)."""
    if not os.path.isdir("/proc/self"):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    chosen, grew = set(roots), True
    while grew:
        more = {pid for pid, (parent, _) in stats.items() if parent in chosen} - chosen
        chosen |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in chosen if pid in stats)


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


def _measure(kind: str, db: str, db_pid: int | None = None) -> Iterator[tuple[str, object]]:
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
        _load(server.port, [[_request(body(i), "10.1.0.1") for i in range(4)]
                            for _ in range(8)], time.time() + 30)
        per = SUBMISSIONS // CLIENTS
        bodies = [[_request(body(c * per + i), f"10.0.{i % 200}.1") for i in range(per)]
                  for c in range(CLIENTS)]
        share = CLIENTS // LOAD_PROCESSES
        deadline = time.time() + SECONDS
        roots = {server.proc.pid}
        cpu0 = (_cpu_seconds(roots), _cpu_seconds({db_pid}) if db_pid else None)
        t0 = time.perf_counter()
        with ProcessPoolExecutor(LOAD_PROCESSES) as pool:
            parts = list(pool.map(_load, [server.port] * LOAD_PROCESSES,
                                  [bodies[k * share:(k + 1) * share]
                                   for k in range(LOAD_PROCESSES)],
                                  [deadline] * LOAD_PROCESSES))
        wall = time.perf_counter() - t0
        cpu1 = (_cpu_seconds(roots), _cpu_seconds({db_pid}) if db_pid else None)
        answers = [a for part in parts for a in part]
        ok = [s for status, s in answers if status == 200]
        failed = len(answers) - len(ok)
        yield f"board.{kind}.workers", WORKERS[kind]
        yield f"board.{kind}.submit_per_s", len(ok) / wall
        yield f"board.{kind}.submit_p50_ms", 1000 * _percentile(ok, 50)
        yield f"board.{kind}.submit_p99_ms", 1000 * _percentile(ok, 99)
        yield f"board.{kind}.submit_failed", failed
        if ok and cpu0[0] is not None:
            yield f"board.{kind}.server_cpu_ms", 1000 * (cpu1[0] - cpu0[0]) / len(ok)
        if ok and cpu0[1] is not None:
            yield f"board.{kind}.database_cpu_ms", 1000 * (cpu1[1] - cpu0[1]) / len(ok)
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
        url = cluster.start()
        yield from _measure("postgresql", url, cluster.postmaster_pid())
    finally:
        cluster.remove()
