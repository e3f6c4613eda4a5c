"""``anabasis bench`` section ``board``: the daily board's server, over real HTTP on loopback.

- ``board.replay_ms``: the engine replaying one hard day's shortest solution (2026-11-29's
  room, 38 moves), as the server checks a run; median of many.  ``board.check_ms``: that
  and the rest of a run's checks short of the database (the body's fields and bounds).
- For each database (``sqlite``, then ``postgresql`` where there is one: a throwaway
  cluster, or ``$ANABASIS_BENCH_PG_URL``), a server (``--workers`` :data:`WORKERS`,
  figure ``board.DB.workers``) on a fresh database, and a load generator in a process of
  its own: :data:`CLIENTS` clients on asyncio, each on its own kept-alive HTTP/1.1
  connection, its requests made in advance, every one a new player's winning run of
  today's room.  Two loads, one after the other:

  - **closed loop** (:data:`CLOSED_SECONDS`): each client sends its next run as soon as
    its last is answered, so the server is never idle: ``board.DB.submit_per_s`` (the
    most verified submissions a second, each replayed and committed),
    ``board.DB.submit_p50_ms``, ``board.DB.submit_p99_ms`` (latency as the clients saw
    it: with 50 clients always waiting, mostly the queue), ``board.DB.server_cpu_ms``
    (CPU the server's processes spent per verified run: steadier than the rates on a
    shared machine), ``board.DB.load_cpu_ms`` (the load generator's, per request) and,
    for our own cluster, ``board.postgresql.database_cpu_ms`` (PostgreSQL's);
  - **paced** (:data:`PACED_SECONDS`): the same 50 clients together send the target's
    rate (``board.DB.paced_rate``: :data:`PACED`), each on its own schedule, staggered;
    a run's latency counts from when it was due, so a server that falls behind is
    charged for the wait: ``board.DB.paced_submit_per_s``, ``board.DB.paced_submit_p50_ms``,
    ``board.DB.paced_submit_p99_ms``.

  Then the day is filled to :data:`STORED` runs and one client reads the day's board
  again and again: ``board.DB.read_p50_ms``, ``board.DB.read_p99_ms``.

The load is bounded in count (:data:`CLOSED_MOST` a client in the closed loop; the rate
times the seconds when paced) and in time, on 127.0.0.1 only, and stops by itself.
Targets: >= 300 submissions/s on PostgreSQL and >= 150 on SQLite with 50 clients, p99
<= 100 ms; reads p99 <= 20 ms with 10,000 runs; replay <= 2 ms.  Why two loads: see
docs/board.md ("How the load is shaped").
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

#: Clients at once: each its own kept-alive connection.
CLIENTS = 50
#: The closed loop: how long it runs, and the most requests a client sends in it.
CLOSED_SECONDS, CLOSED_MOST = 10.0, 200
#: The paced load: the rate all clients send at together (the target's), and how long.
PACED = {"sqlite": 150, "postgresql": 300}
PACED_SECONDS = 10.0
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


class _Connection:
    """One kept-alive HTTP/1.1 connection of the load generator, as an asyncio protocol:
    :meth:`send` writes a request made in advance and gives a future of its status."""

    def __init__(self):
        self.buffer = bytearray()
        self.waiting = None
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def send(self, loop, request: bytes):
        self.waiting = loop.create_future()
        self.transport.write(request)
        return self.waiting

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        lines = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        length = next((int(line.split(":", 1)[1]) for line in lines[1:]
                       if line.lower().startswith("content-length:")), 0)
        if len(self.buffer) < end + 4 + length:
            return
        del self.buffer[:end + 4 + length]
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(int(lines[0].split(" ", 2)[1]))

    def connection_lost(self, exc) -> None:
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(ConnectionError("the server closed the connection"))

    def eof_received(self):
        return False

    def pause_writing(self) -> None:
        pass

    def resume_writing(self) -> None:
        pass


def _load(port: int, bodies: list[list[bytes]], seconds: float,
          rate: float | None = None) -> tuple[list[tuple[int, float]], float]:
    """A load process: one asyncio client a list of requests, each on its own kept-alive
    connection; every answer's status and latency, and the process's CPU seconds.

    ``rate`` None: a closed loop (a client sends its next request as soon as its last
    is answered).  Else paced: the clients together send ``rate`` requests a second,
    each client on its own schedule, staggered; a request's latency is counted from
    when it was due, so a server that falls behind is charged for the wait too."""
    import asyncio

    try:
        import uvloop
    except ImportError:  # the loop is the generator's own cost, not the server's
        uvloop = None
    out: list[tuple[int, float]] = []
    clients = len(bodies)

    async def client(k: int, requests: list[bytes], start: float, end: float) -> None:
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(_Connection, "127.0.0.1", port)
        spacing = clients / rate if rate else 0.0
        for i, request in enumerate(requests):
            due = start + (i + k / clients) * spacing if rate else time.perf_counter()
            if due > end:
                break
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                status = await conn.send(loop, request)
            except OSError:
                conn.transport.close()
                _, conn = await loop.create_connection(_Connection, "127.0.0.1", port)
                status = 0
            out.append((status, time.perf_counter() - due))
        conn.transport.close()

    async def main() -> None:
        start = time.perf_counter() + 0.2  # every connection open before the first is due
        await asyncio.gather(*(client(k, b, start, start + seconds)
                               for k, b in enumerate(bodies)))

    cpu = time.process_time()
    if uvloop is not None:
        uvloop.run(main())
    else:
        asyncio.run(main())
    return out, time.process_time() - cpu


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


def _submissions(port: int, bodies: list[list[bytes]], seconds: float, rate: float | None,
                 roots: set[int], db_pid: int | None) -> dict:
    """One load phase in a process of its own: the answers, the wall time, and the CPU
    seconds of the server's processes, the database's and the load generator's."""
    cpu0 = (_cpu_seconds(roots), _cpu_seconds({db_pid}) if db_pid else None)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(1) as pool:
        answers, load_cpu = pool.submit(_load, port, bodies, seconds, rate).result()
    wall = time.perf_counter() - t0 - 0.2  # less the generator's wait for its connections
    cpu1 = (_cpu_seconds(roots), _cpu_seconds({db_pid}) if db_pid else None)
    ok = [s for status, s in answers if status == 200]
    got = {"per_s": len(ok) / wall, "failed": len(answers) - len(ok), "ok": ok,
           "load_cpu_ms": 1000 * load_cpu / max(1, len(answers))}
    if ok and cpu0[0] is not None:
        got["server_cpu_ms"] = 1000 * (cpu1[0] - cpu0[0]) / len(ok)
    if ok and cpu0[1] is not None:
        got["database_cpu_ms"] = 1000 * (cpu1[1] - cpu0[1]) / len(ok)
    return got


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
        server.wait_listening(WORKERS[kind])  # all of them, before the clients connect
        serial = iter(range(10**9))

        def requests(count: int) -> list[list[bytes]]:
            """``count`` requests for each client, each a new player's winning run."""
            out = []
            for _ in range(CLIENTS):
                mine = []
                for _ in range(count):
                    i = next(serial)
                    body = json.dumps({
                        "date": date.isoformat(), "code": code, "moves": moves,
                        "hints": int(i % 4 == 0), "seconds": 40.0 + i % 90,
                        "token": secrets.token_urlsafe(32)}).encode()
                    mine.append(_request(body, f"10.0.{i % 200}.{1 + i % 250}"))
                out.append(mine)
            return out

        # warm: the day built and kept, every worker's connections open
        _load(server.port, requests(4), 30.0)
        roots = {server.proc.pid}
        yield f"board.{kind}.workers", WORKERS[kind]
        phases = [("", None, CLOSED_SECONDS, CLOSED_MOST),
                  ("paced_", PACED[kind], PACED_SECONDS, None)]
        for name, rate, seconds, most in phases:
            count = most or int(rate * seconds / CLIENTS) + 2
            got = _submissions(server.port, requests(count), seconds, rate, roots, db_pid)
            if rate:
                yield f"board.{kind}.paced_rate", rate
            yield f"board.{kind}.{name}submit_per_s", got["per_s"]
            if got["ok"]:
                yield f"board.{kind}.{name}submit_p50_ms", 1000 * _percentile(got["ok"], 50)
                yield f"board.{kind}.{name}submit_p99_ms", 1000 * _percentile(got["ok"], 99)
            yield f"board.{kind}.{name}submit_failed", got["failed"]
            for figure in ("server_cpu_ms", "database_cpu_ms", "load_cpu_ms"):
                if figure in got and not rate:
                    yield f"board.{kind}.{figure}", got[figure]
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
