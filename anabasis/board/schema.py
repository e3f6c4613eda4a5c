"""The board's tables, and the migrations that make them, each with its version.

The database holds its schema's version in ``schema_migrations`` (one row
per migration applied).  :func:`migrate` applies the missing ones in order,
each in its own transaction, under a lock so that several server processes
starting at once on one PostgreSQL apply each migration exactly once.

A migration is written once and never edited: it builds its own tables
(never the live ones below, which follow the latest migration).  A test
holds the live tables to what the migrations made.
"""

from __future__ import annotations

import datetime as _dt

import sqlalchemy as sa

#: The live tables: the shape the latest migration leaves.
metadata = sa.MetaData()

days = sa.Table(
    "days", metadata,
    sa.Column("day", sa.String(10), primary_key=True),  # YYYY-MM-DD, sorts as a date
    sa.Column("code", sa.Text, nullable=False),
    sa.Column("par", sa.Integer, nullable=False),
    sa.Column("gen", sa.Integer, nullable=False),
    sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
)

players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(24)),
    sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
)

#: One row per player and day: their first win, their best win, and the run the
#: board counts them by (their best hint-free win, else their best hinted one).
runs = sa.Table(
    "runs", metadata,
    sa.Column("day", sa.String(10), sa.ForeignKey("days.day"), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("first_moves", sa.Integer, nullable=False),
    sa.Column("first_hints", sa.Integer, nullable=False),
    sa.Column("first_seconds", sa.Float, nullable=False),
    sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("best_moves", sa.Integer, nullable=False),
    sa.Column("best_hints", sa.Integer, nullable=False),
    sa.Column("best_seconds", sa.Float, nullable=False),
    sa.Column("best_path", sa.Text, nullable=False),
    sa.Column("best_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("shown_moves", sa.Integer, nullable=False),
    sa.Column("shown_hinted", sa.Integer, nullable=False),  # 0 or 1
    sa.Column("shown_seconds", sa.Float, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Index("runs_by_player", "player_id", "day"),
    sa.Index("runs_by_moves", "day", "shown_hinted", "shown_moves"),
    sa.Index("runs_by_seconds", "day", "shown_seconds"),
)

#: Requests counted per bucket (``t:`` a token's hash, ``a:`` an address) and minute.
rate_hits = sa.Table(
    "rate_hits", metadata,
    sa.Column("bucket", sa.String(80), primary_key=True),
    sa.Column("minute", sa.BigInteger, primary_key=True),
    sa.Column("hits", sa.Integer, nullable=False),
)

migrations_table = sa.Table(
    "schema_migrations", sa.MetaData(),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("about", sa.Text, nullable=False),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)


def _v1(conn: sa.Connection) -> None:
    """Days, players, runs and rate counts."""
    m = sa.MetaData()
    stamp = sa.DateTime(timezone=True)
    sa.Table("days", m,
             sa.Column("day", sa.String(10), primary_key=True),
             sa.Column("code", sa.Text, nullable=False),
             sa.Column("par", sa.Integer, nullable=False),
             sa.Column("gen", sa.Integer, nullable=False),
             sa.Column("made_at", stamp, nullable=False))
    sa.Table("players", m,
             sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
             sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
             sa.Column("name", sa.String(24)),
             sa.Column("made_at", stamp, nullable=False))
    cols = [sa.Column("day", sa.String(10), sa.ForeignKey("days.day"), primary_key=True),
            sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True)]
    for which in ("first", "best"):
        cols += [sa.Column(f"{which}_moves", sa.Integer, nullable=False),
                 sa.Column(f"{which}_hints", sa.Integer, nullable=False),
                 sa.Column(f"{which}_seconds", sa.Float, nullable=False)]
        if which == "best":
            cols.append(sa.Column("best_path", sa.Text, nullable=False))
        cols.append(sa.Column(f"{which}_at", stamp, nullable=False))
    cols += [sa.Column("shown_moves", sa.Integer, nullable=False),
             sa.Column("shown_hinted", sa.Integer, nullable=False),
             sa.Column("shown_seconds", sa.Float, nullable=False),
             sa.Column("wins", sa.Integer, nullable=False)]
    sa.Table("runs", m, *cols,
             sa.Index("runs_by_player", "player_id", "day"),
             sa.Index("runs_by_moves", "day", "shown_hinted", "shown_moves"),
             sa.Index("runs_by_seconds", "day", "shown_seconds"))
    sa.Table("rate_hits", m,
             sa.Column("bucket", sa.String(80), primary_key=True),
             sa.Column("minute", sa.BigInteger, primary_key=True),
             sa.Column("hits", sa.Integer, nullable=False))
    m.create_all(conn)


#: The migrations, in order: (version, what it does, the function that does it).
MIGRATIONS = [
    (1, "days, players, runs and rate counts", _v1),
]
#: The schema version this code reads and writes.
VERSION = MIGRATIONS[-1][0]


def _lock(conn: sa.Connection) -> None:
    """Hold the migration lock for this transaction (only one process migrates at once)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(4242025)"))
    # SQLite: the write transaction (BEGIN IMMEDIATE, see store.connect) is the lock


def version(conn: sa.Connection) -> int:
    """The schema version the database is at (0: a new database)."""
    if not sa.inspect(conn).has_table("schema_migrations"):
        return 0
    got = conn.execute(sa.select(sa.func.max(migrations_table.c.version))).scalar()
    return got or 0


def migrate(engine: sa.Engine) -> int:
    """Apply the migrations the database lacks; the version it is at after.

    A database from a newer server (a version past :data:`VERSION`) is refused.
    """
    with engine.begin() as conn:
        _lock(conn)
        migrations_table.create(conn, checkfirst=True)
    for number, about, step in MIGRATIONS:
        with engine.begin() as conn:
            _lock(conn)
            if version(conn) >= number:
                continue
            step(conn)
            conn.execute(migrations_table.insert().values(
                version=number, about=about, applied_at=_dt.datetime.now(_dt.timezone.utc)))
    with engine.connect() as conn:
        at = version(conn)
    if at > VERSION:
        raise RuntimeError(f"the board's database is at schema {at}, newer than this "
                           f"server's {VERSION}: run a newer server")
    return at
