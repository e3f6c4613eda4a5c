"""The board's work on its database, through SQLAlchemy Core: one code path for
SQLite and PostgreSQL.

Every request is a few short statements (a run: the count, committed by
itself, then one transaction of two upserts) and nothing is kept in the
process between requests but read caches of rows that never change (a
day's code and par), so any number of server processes can share one
PostgreSQL.  A run counts as accepted only once its transaction has
committed: a process killed mid-write leaves either the whole run or none
of it.  The run's statements are built with Core and compiled once per
dialect, then run on the pool's DBAPI connection (:class:`_Compiled`); the
rest goes through Core's ``execute``.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import random
import threading
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from anabasis.board import days as _days
from anabasis.board import schema
from anabasis.board.runs import Run, RunRefusal, open_days, streak_of
from anabasis.formats import codes
from anabasis.refusal import Refusal

#: Connections an engine keeps open, and as many again it may open for a moment: a
#: server process runs requests on 8 threads (``server.THREADS``), each holding one
#: connection at a time; the rest is headroom for other callers.
POOL = int(os.environ.get("ANABASIS_BOARD_THREADS") or 8)
#: A rate window: requests are counted per minute, over this minute and the last.
WINDOW = 60


class StoreError(Refusal):
    """A database URL the board cannot use."""


def data_dir() -> Path:
    """The user's data folder (``$ANABASIS_DATA_DIR`` or the platform's), as the game's."""
    env = os.environ.get("ANABASIS_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("anabasis", appauthor=False))


def database_url(db: str | None) -> str:
    """``--db`` as an SQLAlchemy URL: none is ``board.sqlite3`` in the data folder, a
    path is an SQLite file, ``postgresql://`` goes through psycopg 3.

    >>> database_url("postgresql://u@h/board")
    'postgresql+psycopg://u@h/board'
    >>> database_url("/tmp/b.sqlite3")
    'sqlite:////tmp/b.sqlite3'
    """
    if not db:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / 'board.sqlite3'}"
    for plain in ("postgresql://", "postgres://"):
        if db.startswith(plain):
            return "postgresql+psycopg://" + db[len(plain):]
    if db.startswith(("postgresql+psycopg://", "sqlite://")):
        return db
    if "://" in db:
        raise StoreError("--db: a postgresql:// URL, an sqlite:/// URL or a file path")
    return f"sqlite:///{Path(db).resolve()}"


def connect(url: str, *, timeout: float = 5.0) -> sa.Engine:
    """An engine on ``url`` (see :func:`database_url`), its schema migrated.

    SQLite runs in WAL mode (readers never wait on the writer; a process
    killed mid-write loses nothing committed), every write transaction
    starts ``BEGIN IMMEDIATE`` (it takes the write lock at once, so two
    writers never deadlock upgrading), and a writer waits up to
    ``timeout`` seconds for the lock.  PostgreSQL connections are not pinged
    before each use (a round trip a request): :meth:`Store.read` and
    :meth:`Store.submit` retry their first statement once on a connection found
    dead, so a restarted database costs the requests in flight only.
    """
    if url.startswith("sqlite"):
        import sqlite3

        if sqlite3.sqlite_version_info < (3, 35):  # ON CONFLICT ... RETURNING
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old for the board "
                             "(3.35 or later): use PostgreSQL, or a newer Python")
        engine = sa.create_engine(url, pool_size=POOL, max_overflow=POOL, pool_timeout=timeout,
                                  connect_args={"timeout": timeout, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi, _record):
            dbapi.isolation_level = None  # we say BEGIN ourselves, below
            cur = dbapi.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # WAL: a crashed process loses nothing
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn):
            reading = conn.get_execution_options().get("reading")
            # on the driver's connection: through SQLAlchemy's statement machinery this
            # one line cost as much as a statement of the run (so its error is wrapped
            # here as SQLAlchemy would: a lock held past the timeout is a 503)
            begin = "BEGIN" if reading else "BEGIN IMMEDIATE"
            try:
                conn.connection.driver_connection.execute(begin)
            except sqlite3.Error as e:
                raise sa.exc.OperationalError(begin, (), e) from e
    else:
        engine = sa.create_engine(url, pool_size=POOL, max_overflow=POOL, pool_timeout=timeout,
                                  connect_args={"connect_timeout": max(1, round(timeout))})
    schema.migrate(engine)
    return engine


def _insert(conn: sa.Connection, table: sa.Table):
    """The dialect's INSERT, which knows ON CONFLICT (both dialects spell it alike)."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


class Store:
    """The board's queries and writes over one engine."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self._days: dict[_dt.date, tuple[str, int, int]] = {}  # rows that never change
        self._rooms: dict[str, object] = {}
        self._building = threading.Lock()
        sqlite_ = engine.dialect.name == "sqlite"
        self._write_lock = threading.Lock() if sqlite_ else None
        statements = _Statements(engine.dialect.name)
        names = ("hit", "forget", "player", "run") + (("record",) if not sqlite_ else ())
        self._compiled = {name: _Compiled(getattr(statements, name), engine.dialect)
                          for name in names}

    # -- days ------------------------------------------------------------------

    def day(self, date: _dt.date, *, make: bool = False) -> tuple[str, int, int] | None:
        """``date``'s (code, par, gen): read back if kept; built and kept first if
        ``make`` (the first process to commit it wins; all read the kept row)."""
        got = self._days.get(date)
        if got is not None:
            return got
        row = self.read(lambda conn: conn.execute(
            sa.select(schema.days.c.code, schema.days.c.par, schema.days.c.gen)
            .where(schema.days.c.day == date.isoformat())).first())
        if row is None:
            if not make:
                return None
            with self._building:  # one build per process; other processes may race, harmlessly
                built = _days.build(date)
                with self.write() as conn:
                    conn.execute(_insert(conn, schema.days).values(
                        day=date.isoformat(), code=built.code, par=built.par, gen=built.gen,
                        made_at=_now()).on_conflict_do_nothing(index_elements=["day"]))
                    row = conn.execute(sa.select(schema.days.c.code, schema.days.c.par,
                                                 schema.days.c.gen)
                                       .where(schema.days.c.day == date.isoformat())).one()
        got = (row[0], row[1], row[2])
        self._days[date] = got
        return got

    def room(self, code: str):
        """The room of a kept day's code, decoded once per process."""
        room = self._rooms.get(code)
        if room is None:
            room = self._rooms[code] = codes.decode(code)
        return room

    # -- a run: counted, checked, kept ------------------------------------------------

    def write(self):
        """A write transaction on a connection of its own.  On SQLite, the threads of
        one process queue for it here (SQLite has one writer; its own busy wait polls
        and starves some callers)."""
        return _Writing(self)

    def _fresh(self, use):
        """``use(conn)`` on a pooled connection, and once more on a new one if the pooled
        one turns out dead (a restarted database) before anything was done on it.

        The pool does not ping a connection before each use (a round trip per request);
        instead the first statement on it is retried once on a disconnect, which also
        marks the pool's older connections for reconnecting."""
        for attempt in (1, 2):
            conn = self.engine.connect()
            try:
                return use(conn), conn
            except sa.exc.DBAPIError as e:
                conn.close()
                if attempt == 2 or not e.connection_invalidated:
                    raise
            except BaseException:
                conn.close()
                raise
        raise AssertionError("unreachable")

    def read(self, use):
        """``use(conn)`` in a read transaction (on SQLite a deferred one: it takes no
        lock), retried once on a connection found dead (reads change nothing)."""
        def reading(conn):
            with conn.execution_options(reading=True).begin():
                return use(conn)
        got, conn = self._fresh(reading)
        conn.close()
        return got

    def submit(self, run: Run, limits: list[tuple[str, int]], now: float, check) -> dict:
        """Count the request against its token's and its address's ``(bucket, limit)``
        (``limits``: those two, in that order), ``check(run, day)`` it (``day``: the
        day's (code, par, gen); it returns the moves taken), and keep the win.

        First the request is counted, in one statement committed on its own, and
        refused (429) if that took a bucket over its limit: before its replay, so the
        limit on replays is exact, and refusals count too (a flood of losing runs
        costs its sender, not the board).  Then the replay, outside any transaction
        (on SQLite a long one would hold the only writer).  Then one transaction of
        two statements keeps the win: its commit is the moment the run is accepted.

        On PostgreSQL the connection stays in autocommit from the count to the end, and
        the two upserts are one statement (:attr:`_Statements.record`: the player's
        upsert a CTE of the day's), committed by itself: two round trips a run, not
        five (no ``BEGIN``, no ``COMMIT``).  SQLite keeps the transaction of two.

        The statements run on the pooled connection's DBAPI cursor, compiled once
        (:class:`_Compiled`): SQLAlchemy's per-statement machinery cost more CPU than
        the database's whole work.  A database error is raised as SQLAlchemy's.
        """
        day = self.day(run.date, make=True) if _could_open(run, now) else None
        for attempt in (1, 2):
            raw = self._raw_connection()
            try:
                wait = self._count(raw, limits, now)
                break
            except sa.exc.DBAPIError as e:
                raw.close()
                if attempt == 2 or not e.connection_invalidated:
                    raise
                # a dead connection: the database restarted, so all the pool's are dead
                self.engine.dispose()
            except BaseException:
                raw.close()
                raise
        try:
            if wait is not None:
                raise RunRefusal(429, "too many runs: wait a minute and send again", wait)
            taken = check(run, day)

            def execute(name, params):
                return self._run(raw, name, params)

            if self._write_lock is None:  # PostgreSQL: one statement, in autocommit
                return _record(execute, run, taken, day[1], one=True)
            with self._raw_write(raw):
                return _record(execute, run, taken, day[1])
        finally:
            if self._write_lock is None:
                self._end_autocommit(raw)
            raw.close()

    def _raw_connection(self):
        """A pooled connection's DBAPI side; a database that does not answer raised as
        SQLAlchemy's error (``Engine.raw_connection`` lets the driver's own through)."""
        dialect = self.engine.dialect
        try:
            return self.engine.raw_connection()
        except dialect.loaded_dbapi.Error as e:
            raise sa.exc.DBAPIError.instance("connect", (), e, dialect.loaded_dbapi.Error,
                                             dialect=dialect) from e

    def _count(self, raw, limits, now: float) -> int | None:
        """The count, one statement committed by itself (SQLite: under the write lock;
        PostgreSQL: in autocommit, no BEGIN or COMMIT, and the connection is left in
        autocommit for the run's record: :meth:`_end_autocommit` hands it back)."""
        def execute(name, params):
            return self._run(raw, name, params)

        if self._write_lock is not None:
            with self._write_lock:
                return _hit(execute, limits, now)
        with self._errors(raw, "SET autocommit"):
            raw.driver_connection.autocommit = True
        try:
            return _hit(execute, limits, now)
        except BaseException:
            # hand a live connection back as it came; a lost one is already invalidated,
            # and its error (which says so: the caller retries) is the one raised
            self._end_autocommit(raw)
            raise

    @staticmethod
    def _end_autocommit(raw) -> None:
        """Hand a live PostgreSQL connection back to the pool as it came (out of
        autocommit); one that was lost is invalidated already and left so, and one that
        will not leave autocommit is invalidated (never raised: the run may be
        committed already, or another error is on its way)."""
        if raw.dbapi_connection is None:
            return
        try:
            raw.driver_connection.autocommit = False
        except Exception:
            raw.invalidate()

    @contextlib.contextmanager
    def _raw_write(self, raw):
        """A write transaction on a raw pooled connection: SQLite's write lock and
        ``BEGIN IMMEDIATE``; the commit, or a rollback if anything failed."""
        if self._write_lock is not None:
            self._write_lock.acquire()
        try:
            if self._write_lock is not None:
                self._run(raw, None, "BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                with contextlib.suppress(Exception):
                    raw.rollback()
                raise
            with self._errors(raw, "COMMIT"):
                raw.commit()
        finally:
            if self._write_lock is not None:
                self._write_lock.release()

    def _run(self, raw, name: str | None, params) -> list[tuple]:
        """Statement ``name`` of :class:`_Statements` (compiled once) with ``params`` on a
        raw pooled connection; its rows.  ``name`` None: ``params`` is plain SQL."""
        if name is None:
            sql, args = params, ()
        else:
            compiled = self._compiled[name]
            sql, args = compiled.sql, compiled.args(params)
        cursor = None
        with self._errors(raw, sql, args):
            cursor = raw.cursor()
            try:
                cursor.execute(sql, args)
                return cursor.fetchall() if cursor.description else []
            finally:
                cursor.close()

    @contextlib.contextmanager
    def _errors(self, raw, sql: str, args=()):
        """The driver's errors raised as SQLAlchemy's (so a fault is a 503), a lost
        connection invalidated (``connection_invalidated``: the caller may retry)."""
        dialect = self.engine.dialect
        base = dialect.loaded_dbapi.Error
        try:
            yield
        except base as e:
            live = raw.dbapi_connection  # None: invalidated already
            gone = live is None or dialect.is_disconnect(e, live, None)
            if gone and live is not None:
                raw.invalidate(e)
            raise sa.exc.DBAPIError.instance(sql, args, e, base, connection_invalidated=gone,
                                             dialect=dialect) from e

    # -- boards ----------------------------------------------------------------

    def board(self, date: _dt.date) -> dict | None:
        """A day's board: players, the moves of each (hint-free and hinted apart), the
        share at par, the median time; None for a day the board never opened."""
        kept = self.day(date)
        if kept is None:
            return None
        code, par, _gen = kept
        r, day = schema.runs, date.isoformat()

        def read(conn):
            counts = conn.execute(
                sa.select(r.c.shown_hinted, r.c.shown_moves, sa.func.count())
                .where(r.c.day == day).group_by(r.c.shown_hinted, r.c.shown_moves)).all()
            players = sum(n for _, _, n in counts)
            median = None
            if players:
                order = sa.select(r.c.shown_seconds).where(r.c.day == day) \
                    .order_by(r.c.shown_seconds)
                pair = 1 if players % 2 else 2
                got = conn.execute(order.offset((players - 1) // 2).limit(pair)).scalars().all()
                median = sum(got) / len(got)
            return counts, players, median

        counts, players, median = self.read(read)
        moves = {str(m): n for h, m, n in sorted(counts) if not h}
        hinted = {str(m): n for h, m, n in sorted(counts) if h}
        clean, helped = sum(moves.values()), sum(hinted.values())
        return {"date": day, "code": code, "par": par, "players": players,
                "moves": moves, "hinted": hinted,
                "hint_free": clean, "hinted_players": helped,
                "at_par": moves.get(str(par), 0) / clean if clean else None,
                "hinted_at_par": hinted.get(str(par), 0) / helped if helped else None,
                "median_seconds": median}

    def me(self, date: _dt.date, token_hash: str) -> dict | None:
        """A player's place on a day's board and their streak; None if they have no
        win that day (or are unknown)."""
        p, r, day = schema.players, schema.runs, date.isoformat()

        def read(conn):
            row = conn.execute(sa.select(r, p.c.name).join(p, p.c.id == r.c.player_id)
                               .where(p.c.token_hash == token_hash, r.c.day == day)).first()
            if row is None:
                return None
            group = conn.execute(
                sa.select(sa.func.count(), sa.func.sum(sa.case(
                    (r.c.shown_moves < row.shown_moves, 1), else_=0)), sa.func.sum(sa.case(
                    (r.c.shown_moves == row.shown_moves, 1), else_=0)))
                .where(r.c.day == day, r.c.shown_hinted == row.shown_hinted)).one()
            return row, group, _streak(conn, row.player_id, date)

        got = self.read(read)
        if got is None:
            return None
        row, group, streak = got
        return {"date": day, "name": row.name, "moves": row.shown_moves,
                "hinted": bool(row.shown_hinted), "best": row.best_moves,
                "first": row.first_moves, "wins": row.wins,
                "of": group[0], "fewer": int(group[1]), "tied": int(group[2]) - 1,
                "streak": streak}


def _streak(conn: sa.Connection, player_id: int, date: _dt.date) -> int:
    """Days in a row won, ending on ``date`` (or the day before, if ``date`` is not won yet)."""
    r = schema.runs
    won = conn.execute(sa.select(r.c.day).where(r.c.player_id == player_id,
                                                r.c.day <= date.isoformat())
                       .order_by(r.c.day.desc()).limit(400)).scalars().all()
    return streak_of([_dt.date.fromisoformat(d) for d in won], date)


class _Writing:
    """:meth:`Store.write`'s context: the process's SQLite write lock, then a transaction."""

    def __init__(self, store: Store):
        self.store = store
        self.lock = store._write_lock
        self.tx = None

    def __enter__(self) -> sa.Connection:
        if self.lock is not None:
            self.lock.acquire()
        try:
            self.tx = self.store.engine.begin()
            return self.tx.__enter__()
        except BaseException:
            if self.lock is not None:
                self.lock.release()
            raise

    def __exit__(self, *exc):
        try:
            return self.tx.__exit__(*exc)
        finally:
            if self.lock is not None:
                self.lock.release()


def _could_open(run: Run, now: float) -> bool:
    """Whether the run's day takes runs at all (else no day is built for it)."""
    at = _dt.datetime.fromtimestamp(now, _dt.timezone.utc)
    return run.date in open_days(at)


class _Statements:
    """The write path's statements, built once per dialect: the request only binds
    values (building a statement costs more than running it on a quiet database).

    A run costs three statements: the count (:attr:`hit`), then in one transaction
    the player (:attr:`player`) and their day (:attr:`run`), each an upsert that
    answers with what the request needs (``RETURNING``, scalar subqueries in it)."""

    def __init__(self, dialect: str):
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        h, p, r = schema.rate_hits, schema.players, schema.runs
        b = sa.bindparam
        # a token's bucket and an address's, counted in one statement, which also
        # answers each bucket's count of the minute before.  Written as SQL (the same
        # in both dialects): SQLAlchemy does not cache a multi-row VALUES, and
        # building it anew cost more than running it
        self.hit = sa.text(
            "INSERT INTO rate_hits (bucket, minute, hits) "
            "VALUES (:token, :minute, 1), (:address, :minute, 1) "
            "ON CONFLICT (bucket, minute) DO UPDATE SET hits = rate_hits.hits + 1 "
            "RETURNING bucket, hits, (SELECT last.hits FROM rate_hits AS last "
            "WHERE last.bucket = rate_hits.bucket AND last.minute = :last_minute)")
        self.forget = h.delete().where(h.c.minute < b("minute"))
        player = insert(p).values(token_hash=b("token_hash"), name=b("name"),
                                  made_at=b("made_at"))
        # one statement makes the player or finds them (and renames them if a name is sent)
        self.player = player.on_conflict_do_update(
            index_elements=["token_hash"],
            set_={"name": sa.func.coalesce(player.excluded.name, p.c.name)}).returning(p.c.id)
        # one statement makes the player's day or updates it: one more win; the best
        # (fewest moves, then hints, then time) and the shown run (hint-free first)
        # replaced only by a better one; it answers the day's row and the days the
        # player won before it, for the streak (SET reads the row as it was)
        run = insert(r).values({c.name: b(c.name) for c in r.columns})
        new = run.excluded

        def better(*names):
            return sa.tuple_(*(new[n] for n in names)) < sa.tuple_(*(r.c[n] for n in names))

        def pick(test, name):
            return sa.case((test, new[name]), else_=r.c[name])

        best = better("best_moves", "best_hints", "best_seconds")
        shown = better("shown_hinted", "shown_moves", "shown_seconds")
        change = {"wins": r.c.wins + 1}
        change.update({n: pick(best, n) for n in
                       ("best_moves", "best_hints", "best_seconds", "best_path", "best_at")})
        change.update({n: pick(shown, n) for n in
                       ("shown_moves", "shown_hinted", "shown_seconds")})
        other = r.alias("other")
        won = sa.select(other.c.day).where(other.c.player_id == b("of_player"),
                                           other.c.day < b("before_day")) \
            .order_by(other.c.day.desc()).limit(400).subquery()
        days_before = sa.select(sa.func.aggregate_strings(won.c.day, ",")).scalar_subquery()
        self.run = run.on_conflict_do_update(index_elements=["day", "player_id"], set_=change) \
            .returning(r.c.best_moves, r.c.first_moves, days_before)
        if dialect != "postgresql":
            return
        # PostgreSQL: the two as one statement (committed by itself, in autocommit), the
        # player's upsert a CTE whose id the day's row takes; every statement of it
        # reads the tables as they were before it, as the second of two did (the
        # player's other days are older than this one)
        made = self.player.cte("made")
        pid = sa.select(made.c.id).scalar_subquery()
        record = insert(r).values({c.name: pid if c.name == "player_id" else b(c.name)
                                   for c in r.columns})
        won = sa.select(other.c.day).where(other.c.player_id == pid,
                                           other.c.day < b("day")) \
            .order_by(other.c.day.desc()).limit(400).subquery()
        days_before = sa.select(sa.func.aggregate_strings(won.c.day, ",")).scalar_subquery()
        self.record = record.on_conflict_do_update(index_elements=["day", "player_id"],
                                                   set_=change) \
            .returning(r.c.best_moves, r.c.first_moves, days_before).add_cte(made)


class _Compiled:
    """A statement compiled once for a dialect, run on a DBAPI cursor: its SQL, and how
    a request's values become the driver's parameters (the statement's own constants
    added, each value through its column type's bind processor, in the driver's order)."""

    def __init__(self, statement, dialect):
        compiled = statement.compile(dialect=dialect)
        # the SQL as run: values the compiler leaves to execution time (the separator
        # of aggregate_strings) written in; the request's own values stay parameters
        state = compiled.construct_expanded_state(
            {name: None for name, bind in compiled.binds.items() if bind.required})
        self.sql = state.statement
        self.order = list(state.positiontup) if compiled.positional else None
        self.fixed = {name: bind.effective_value for name, bind in compiled.binds.items()
                      if not bind.required}
        self.process = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                self.process[name] = process

    def args(self, params: dict):
        values = {**self.fixed, **params}
        for name, process in self.process.items():
            if name in values:
                values[name] = process(values[name])
        return [values[name] for name in self.order] if self.order is not None else values


def _hit(execute, limits: list[tuple[str, int]], now: float) -> int | None:
    """Count a request against its token's and its address's ``(bucket, limit)``; the
    seconds to wait if one is over its limit (counted over this minute and the last),
    else None.  ``execute(name, params)`` runs a statement of :class:`_Statements`."""
    minute = int(now // WINDOW)
    (token, _), (address, _) = limits
    counts = {bucket: hits + (last or 0) for bucket, hits, last in execute(
        "hit", {"token": token, "address": address, "minute": minute,
                "last_minute": minute - 1})}
    if random.random() < 0.002:  # now and then, forget old minutes
        execute("forget", {"minute": minute - 1})
    over = any(counts[bucket] > limit for bucket, limit in limits)
    return WINDOW - int(now % WINDOW) if over else None


def _record(execute, run: Run, taken: int, par: int, *, one: bool = False) -> dict:
    """Keep a checked winning run: the player's first win of the day, their best (fewest
    moves, then fewest hints, then least time) and the run the board counts them by
    (their best hint-free win, else their best hinted one).  ``one``: in one statement
    (:attr:`_Statements.record`, PostgreSQL's), else the player's and then the day's."""
    day, now = run.date.isoformat(), _now()
    hinted = 1 if run.hinted else 0
    player = {"token_hash": run.token_hash, "name": run.name, "made_at": now}
    values = {
        "day": day, "first_moves": taken, "first_hints": run.hints,
        "first_seconds": run.seconds, "first_at": now, "wins": 1,
        "best_moves": taken, "best_hints": run.hints, "best_seconds": run.seconds,
        "best_path": run.moves, "best_at": now,
        "shown_moves": taken, "shown_hinted": hinted, "shown_seconds": run.seconds}
    if one:
        [(best, first, before)] = execute("record", {**player, **values})
    else:
        [(pid,)] = execute("player", player)
        [(best, first, before)] = execute("run", {**values, "player_id": pid,
                                                  "of_player": pid, "before_day": day})
    won = [run.date] + [_dt.date.fromisoformat(d) for d in (before or "").split(",") if d]
    return {"accepted": True, "moves": taken, "par": par, "best": best, "first": first,
            "hinted": bool(hinted), "streak": streak_of(won, run.date)}
