"""The board's HTTP/JSON service: Starlette routes on uvicorn, over :mod:`~anabasis.board.store`.

``anabasis serve`` runs it.  Routes (all answers JSON, each with the
``Anabasis-Board-Api`` header; errors ``{"error": "one line"}``):

- ``GET /v1/health``: the API and schema versions, and whether the database answers;
- ``POST /v1/runs``: a run, checked by replay, kept if it wins (see ``docs/board.md``);
- ``GET /v1/days/YYYY-MM-DD``: the day's board;
- ``GET /v1/days/YYYY-MM-DD/me`` with ``Authorization: Bearer TOKEN``: the player's place.

The work of a request runs on :data:`THREADS` threads (the replay and the
database are blocking), handed over by the event loop's ``run_in_executor``,
the body is read only up to its bound, and a
database that does not answer is a 503 that changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import json
import os
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

import sqlalchemy as sa
import sqlalchemy.exc
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import anabasis
from anabasis.board import API_HEADER, API_VERSION, DEFAULT_HOST, DEFAULT_PORT, schema
from anabasis.board.runs import (
    MAX_BODY,
    TOKEN,
    RunRefusal,
    check_open,
    parse_date,
    parse_run,
    replay_win,
    token_hash,
)
from anabasis.board.store import Store, connect, database_url
from anabasis.gen import GEN

#: Threads a server process runs requests' work on (the replay, the database), and so
#: the most database connections it holds.  Few: the work holds Python's lock but for
#: the database's round trips, and forty threads (Starlette's default) contending for
#: it cost more CPU a run and a longer tail than eight.  ``$ANABASIS_BOARD_THREADS``
#: sets it (the database's connections follow: see ``store.POOL``).  They are a
#: ``concurrent.futures`` pool the event loop hands work to, not Starlette's
#: ``run_in_threadpool``: anyio's hop (its limiter, its queue of Python locks) cost
#: some 100 us of CPU a call, the loop's own ``run_in_executor`` some 20.
THREADS = int(os.environ.get("ANABASIS_BOARD_THREADS") or 8)

#: How the serve command hands its settings to the worker processes.
CONFIG_ENV = "ANABASIS_BOARD_CONFIG"


@dataclass(frozen=True)
class Config:
    """What a server process needs: the database and the limits (all processes alike)."""

    db: str  #: an SQLAlchemy URL (see :func:`~anabasis.board.store.database_url`)
    timeout: float = 5.0  #: seconds to wait for the database (a lock, a connection)
    per_token: int = 30  #: runs a token may send per minute (counted over two minutes)
    per_address: int = 120  #: runs an address may send per minute (likewise)


def _answer(data: dict, status: int = 200, headers: dict | None = None) -> Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    head = {API_HEADER: str(API_VERSION), "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store"}
    head.update(headers or {})
    return Response(body, status, headers=head, media_type="application/json")


def _error(status: int, message: str, headers: dict | None = None) -> Response:
    return _answer({"error": message}, status, headers)


#: What a database fault answers: it changed nothing, and the next try may work.
DB_DOWN = "the board's database is not answering; nothing was changed, try again"


def _down(e: sa.exc.SQLAlchemyError) -> Response:
    """The 503 of a database fault, its cause said on stderr (the server's log)."""
    cause = str(getattr(e, "orig", None) or e).strip().splitlines()
    print(f"anabasis serve: 503, the database: {type(e).__name__}: "
          f"{cause[0] if cause else ''}", file=sys.stderr, flush=True)
    return _error(503, DB_DOWN)


def create_app(config: Config):
    """The board's ASGI app over ``config``'s database (its schema migrated at start):
    Starlette's, with the runs taken straight (:func:`_straight`)."""
    holder: dict[str, Store] = {}
    threads = ThreadPoolExecutor(THREADS, thread_name_prefix="board")

    async def in_thread(work):
        return await asyncio.get_running_loop().run_in_executor(threads, work)

    def store() -> Store:
        got = holder.get("store")
        if got is None:  # the database was down at start: try again now
            got = holder["store"] = Store(connect(config.db, timeout=config.timeout))
        return got

    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            holder["store"] = await in_thread(
                lambda: Store(connect(config.db, timeout=config.timeout)))
        except sa.exc.SQLAlchemyError as e:
            print(f"anabasis serve: the database is not answering yet: {type(e).__name__}",
                  file=sys.stderr)
        yield
        threads.shutdown(wait=True)
        if "store" in holder:
            holder["store"].engine.dispose()

    async def health(request: Request) -> Response:
        def check():
            return store().read(schema.version)
        try:
            version = await in_thread(check)
        except sa.exc.SQLAlchemyError as e:
            return _down(e)
        return _answer({"ok": True, "api": API_VERSION, "server": anabasis.__version__,
                        "schema": version, "gen": GEN,
                        "database": sa.make_url(config.db).get_backend_name()})

    async def take_run(scope, receive) -> Response | None:
        """``POST /v1/runs`` on the ASGI scope itself (see :func:`_straight`); None if the
        client left before its body was read (nothing to answer)."""
        size = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            return _error(413, f"the body is over {MAX_BODY} bytes")
        raw = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # http.disconnect
                return None
            raw += message.get("body", b"")
            if len(raw) > MAX_BODY:
                return _error(413, f"the body is over {MAX_BODY} bytes")
            if not message.get("more_body", False):
                break
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _error(400, "the body is not JSON (UTF-8)")
        client = scope.get("client")
        address = client[0] if client else "unknown"
        try:
            run = parse_run(body)
            return _answer(await in_thread(
                lambda: _take(store(), config, run, address)))
        except RunRefusal as e:
            headers = {"Retry-After": str(e.retry)} if e.retry else None
            return _error(e.status, str(e), headers)
        except sa.exc.SQLAlchemyError as e:
            return _down(e)

    async def post_run(request: Request) -> Response:
        # the route is there for its path's 405 and for any request the straight way
        # leaves to Starlette; the work is the same
        answer = await take_run(request.scope, request.receive)
        return answer if answer is not None else _error(400, "the client left")

    async def get_day(request: Request) -> Response:
        try:
            date = parse_date(request.path_params["date"])
            board = await in_thread(lambda: store().board(date))
        except RunRefusal as e:
            return _error(e.status, str(e))
        except sa.exc.SQLAlchemyError as e:
            return _down(e)
        if board is None:
            return _error(404, "the board has no runs for that day")
        return _answer(board)

    async def get_me(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not TOKEN.fullmatch(token.strip()):
            return _error(401, "say who you are: Authorization: Bearer TOKEN")
        try:
            date = parse_date(request.path_params["date"])
            mine = await in_thread(lambda: store().me(date, token_hash(token.strip())))
        except RunRefusal as e:
            return _error(e.status, str(e))
        except sa.exc.SQLAlchemyError as e:
            return _down(e)
        if mine is None:
            return _error(404, "you have no win on the board that day")
        return _answer(mine)

    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            return _error(404, f"no such path: the board's API is /v{API_VERSION}/ "
                          "(runs, days/YYYY-MM-DD, health)")
        if exc.status_code == 405:
            return _error(405, "that path does not take that method")
        return _error(exc.status_code, "the request was refused")

    async def crash(request: Request, exc: Exception) -> Response:
        return _error(500, CRASHED)

    routes = [
        Route(f"/v{API_VERSION}/health", health, methods=["GET"]),
        Route(f"/v{API_VERSION}/runs", post_run, methods=["POST"]),
        Route(f"/v{API_VERSION}/days/{{date}}", get_day, methods=["GET"]),
        Route(f"/v{API_VERSION}/days/{{date}}/me", get_me, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: crash})
    return _straight(app, f"/v{API_VERSION}/runs", take_run)


#: The message of a 500: the server itself failed on the request.
CRASHED = "the board failed on that request; nothing was changed"


def _straight(app: Starlette, path: str, take):
    """``app`` with ``POST path`` handed straight to ``take(scope, receive)`` (an awaitable
    of the response, or None), past Starlette's middleware, routing and ``Request``: the
    one request that comes by the hundred a second.  Its 500 on a failure is the one
    Starlette's ``crash`` handler gives, the failure written to stderr as uvicorn
    writes Starlette's.  Everything else (other paths and methods, lifespan) is ``app``'s.
    """
    import traceback

    async def straight(scope, receive, send):
        if scope["type"] != "http" or scope["path"] != path or scope["method"] != "POST":
            return await app(scope, receive, send)
        try:
            response = await take(scope, receive)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            response = _error(500, CRASHED)
        if response is not None:
            await response(scope, receive, send)

    return straight


def _take(store: Store, config: Config, run, address: str) -> dict:
    """Count the request, check the day, its code and the replay; keep the win."""
    def check(run, day) -> int:
        check_open(run.date, _dt.datetime.now(_dt.timezone.utc))
        code, _par, _gen = day
        if run.code.strip() != code:
            raise RunRefusal(409, "that is not that day's room: its code differs from the "
                             "board's")
        return replay_win(store.room(code), run.moves)

    return store.submit(run, [("t:" + run.token_hash, config.per_token),
                              ("a:" + address, config.per_address)], time.time(), check)


def app_from_env():
    """The app for a uvicorn worker, from the settings the serve command left in its env."""
    return create_app(Config(**json.loads(os.environ[CONFIG_ENV])))


def serve(db: str | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
          workers: int = 1, timeout: float = 5.0, per_token: int = 30, per_address: int = 120,
          proxies: str | None = None) -> None:
    """Run the board until stopped: migrate the database here first (so a bad URL or a
    database that is down is said at once), then serve from ``workers`` processes.

    ``proxies``: the addresses of load balancers whose ``X-Forwarded-For`` is believed
    (the rate limit per address then counts the client's address, not the balancer's).

    Several workers on Linux each listen on a socket of their own on the one port
    (``SO_REUSEPORT``: the kernel spreads the connections over them evenly), run by
    :func:`_serve_sharing_port`; elsewhere (or on port 0) uvicorn's own workers share
    one listening socket, and whichever is awake when connections arrive takes them
    all (the bench's 50 connections, opened together, went 90 to 10 at times).
    """
    import uvicorn

    config = Config(database_url(db), timeout, per_token, per_address)
    connect(config.db, timeout=timeout).dispose()
    os.environ[CONFIG_ENV] = json.dumps(asdict(config))
    settings = {"host": host, "port": port, "log_level": "warning", "access_log": False,
                "proxy_headers": bool(proxies), "forwarded_allow_ips": proxies or "",
                "timeout_graceful_shutdown": 5}
    if workers > 1 and port and sys.platform.startswith("linux"):
        _serve_sharing_port(workers, settings)
        return
    uvicorn.run("anabasis.board.server:app_from_env", factory=True, workers=workers,
                **settings)


def _listener(host: str, port: int) -> socket.socket:
    """A socket on ``host:port`` that other processes may listen on too (``SO_REUSEPORT``)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET,
                         socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def _worker(settings: dict) -> None:
    """One worker process of :func:`_serve_sharing_port`: uvicorn on a listening socket of
    its own."""
    import uvicorn

    sock = _listener(settings["host"], settings["port"])
    sock.listen(2048)
    uvicorn.Server(uvicorn.Config("anabasis.board.server:app_from_env", factory=True,
                                  **settings)).run(sockets=[sock])


def _serve_sharing_port(workers: int, settings: dict) -> None:
    """Serve from ``workers`` processes, each listening on the port itself, until SIGTERM
    or SIGINT (passed on to them as SIGTERM: each finishes its requests).  The port is
    held from here first (bound, not listening: no connection is sent to it), so one
    taken by another program is said at once.  A worker that dies is started again,
    unless it died within seconds of its start (then the server stops: it would only
    die again)."""
    import multiprocessing
    import multiprocessing.connection
    import signal

    try:
        held = _listener(settings["host"], settings["port"])
    except OSError as e:
        print(f"anabasis serve: {settings['host']}:{settings['port']}: {e.strerror or e}",
              file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    spawn = multiprocessing.get_context("spawn")
    stop = []
    previous = {sig: signal.signal(sig, lambda *_: stop.append(True))
                for sig in (signal.SIGTERM, signal.SIGINT)}

    def start():
        proc = spawn.Process(target=_worker, args=(settings,), daemon=False)
        proc.start()
        return proc, time.monotonic()

    running = [start() for _ in range(workers)]
    failed = False
    try:
        while not stop:
            multiprocessing.connection.wait([p.sentinel for p, _ in running], timeout=0.5)
            for k, (proc, began) in enumerate(running):
                if proc.exitcode is None or stop:
                    continue
                if time.monotonic() - began < 5:
                    print(f"anabasis serve: a worker exited at its start ({proc.exitcode})",
                          file=sys.stderr, flush=True)
                    failed = True
                    stop.append(True)
                    break
                running[k] = start()
    finally:
        for proc, _ in running:
            if proc.exitcode is None:
                proc.terminate()
        for proc, _ in running:
            proc.join(15)
            if proc.exitcode is None:
                proc.kill()
                proc.join(5)
        held.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if failed:
        raise SystemExit(1)
