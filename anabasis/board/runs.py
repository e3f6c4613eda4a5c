"""A run as the server takes it: its fields and their bounds, the days open to runs, the replay.

Pure functions over plain values: the server calls them, the tests hold
them to their bounds without a network.  Every refusal is a
:class:`RunRefusal` with the HTTP status it answers with and one line that
quotes nothing of the input (so nothing a client sent is echoed back).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass

from anabasis.engine import rules
from anabasis.engine.world import Room
from anabasis.refusal import Refusal

#: The most bytes a request body may hold.
MAX_BODY = 8 << 10
#: The most moves a run may hold (a hard room's par is some 30 to 60).
MAX_MOVES = 2000
#: The longest room code taken (today's codes are some 60 to 200 characters).
MAX_CODE = 1000
#: Hints and seconds as the client counted them, bounded.
MAX_HINTS, MAX_SECONDS = 10_000, 7 * 86_400
#: A display name: 1 to 24 letters, digits, spaces, ``-``, ``_`` and ``.``.
MAX_NAME = 24
#: A token: 32 to 128 URL-safe base64 characters (the game makes 43).
TOKEN = re.compile(r"[A-Za-z0-9_-]{32,128}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
MOVES = re.compile(r"[RLDU]*")
#: How long after midnight UTC the day before yesterday still takes runs (and how
#: long before midnight tomorrow does: a clock a little ahead).
GRACE = _dt.timedelta(hours=1)


class RunRefusal(Refusal):
    """A run (or a request) the server will not take: an HTTP status and one line."""

    def __init__(self, status: int, message: str, retry: int | None = None):
        super().__init__(message)
        self.status = status
        self.retry = retry  #: for a 429: the seconds to wait (the Retry-After header)


@dataclass(frozen=True)
class Run:
    """A run as sent: the day, the room's code, the moves and what the client saw."""

    date: _dt.date
    code: str
    moves: str
    hints: int
    seconds: float
    token: str
    name: str | None = None

    @property
    def token_hash(self) -> str:
        """What the server keeps of the token: its SHA-256, in hex."""
        return token_hash(self.token)

    @property
    def hinted(self) -> bool:
        return self.hints > 0


def token_hash(token: str) -> str:
    """A token's SHA-256 in hex (a token is 256 random bits: no salt or stretching needed).

    >>> token_hash("a" * 43)[:12]
    '66d34fba71f8'
    """
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def parse_run(body: object) -> Run:
    """A decoded JSON body as a :class:`Run`, every field checked for type and bounds.

    Fields the API does not know are ignored (a later client may send more).

    >>> run = parse_run({"date": "2026-12-01", "code": "D", "moves": "RRU", "hints": 0,
    ...                  "seconds": 12.5, "token": "t" * 43})
    >>> run.moves, run.hinted, run.name
    ('RRU', False, None)
    >>> parse_run({"date": "2026-12-01"})
    Traceback (most recent call last):
    ...
    anabasis.board.runs.RunRefusal: code: missing
    """
    if not isinstance(body, dict):
        raise RunRefusal(400, "the body must be a JSON object")
    date = parse_date(_field(body, "date", str))
    code = _field(body, "code", str)
    if not 0 < len(code) <= MAX_CODE:
        raise RunRefusal(400, f"code: 1 to {MAX_CODE} characters")
    moves = _field(body, "moves", str)
    if len(moves) > MAX_MOVES:
        raise RunRefusal(413, f"moves: at most {MAX_MOVES}")
    if not MOVES.fullmatch(moves):
        raise RunRefusal(400, "moves: only the letters R, L, D and U")
    hints = _field(body, "hints", int)
    if not 0 <= hints <= MAX_HINTS:
        raise RunRefusal(400, f"hints: a whole number from 0 to {MAX_HINTS}")
    seconds = _field(body, "seconds", (int, float))
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS):
        raise RunRefusal(400, f"seconds: a number from 0 to {MAX_SECONDS}")
    token = _field(body, "token", str)
    if not TOKEN.fullmatch(token):
        raise RunRefusal(400, "token: 32 to 128 characters of A-Z a-z 0-9 - _")
    name = body.get("name")
    if name is not None:
        if not isinstance(name, str):
            raise RunRefusal(400, "name: must be a string (or left out)")
        name = check_name(name)
    return Run(date, code, moves, hints, float(seconds), token, name)


def _field(body: dict, key: str, kind):
    if key not in body:
        raise RunRefusal(400, f"{key}: missing")
    value = body[key]
    # JSON's true and false are ints to Python: neither is a count or a time
    if isinstance(value, bool) or not isinstance(value, kind):
        names = {str: "a string", int: "a whole number"}
        want = names.get(kind, "a number")
        raise RunRefusal(400, f"{key}: must be {want}")
    return value


def parse_date(text: str) -> _dt.date:
    """A ``YYYY-MM-DD`` day, refused (400) if it is not a real one.

    >>> parse_date("2026-12-01")
    datetime.date(2026, 12, 1)
    """
    if not DATE.fullmatch(text):
        raise RunRefusal(400, "date: a day written YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise RunRefusal(400, "date: no such day") from None


def check_name(name: str) -> str:
    """A display name, normalised (NFC) and checked: letters, digits, ``-_.`` and
    single spaces inside, 1 to :data:`MAX_NAME` characters.

    >>> check_name("Ana Kata")
    'Ana Kata'
    >>> check_name("<b>x</b>")
    Traceback (most recent call last):
    ...
    anabasis.board.runs.RunRefusal: name: letters, digits, spaces, - _ and . only
    """
    name = unicodedata.normalize("NFC", name)
    if not 0 < len(name) <= MAX_NAME:
        raise RunRefusal(400, f"name: 1 to {MAX_NAME} characters")
    if not all(ch.isalnum() or ch in " -_." for ch in name):
        raise RunRefusal(400, "name: letters, digits, spaces, - _ and . only")
    if name != name.strip() or "  " in name:
        raise RunRefusal(400, "name: no spaces at either end, none doubled")
    return name


def open_days(now: _dt.datetime) -> tuple[_dt.date, ...]:
    """The days that take runs at ``now`` (UTC): today and yesterday, the day before
    yesterday for the first :data:`GRACE` of today, tomorrow for the last of it.

    >>> at = _dt.datetime(2026, 12, 1, 0, 30, tzinfo=_dt.timezone.utc)
    >>> [d.isoformat() for d in open_days(at)]
    ['2026-11-29', '2026-11-30', '2026-12-01']
    """
    now = now.astimezone(_dt.timezone.utc)
    day = _dt.timedelta(days=1)
    early = (now - GRACE).date()  # the day an hour ago
    late = (now + GRACE).date()  # the day an hour on
    days = {now.date(), now.date() - day, early - day, late}
    return tuple(sorted(days))


def check_open(date: _dt.date, now: _dt.datetime) -> None:
    """Refuse (409) a day that takes no runs at ``now``."""
    if date not in open_days(now):
        raise RunRefusal(409, "that day takes no runs now: only today's and yesterday's (UTC)")


def replay_win(room: Room, moves: str) -> int:
    """The moves a winning run takes (steps that did nothing not counted); a run that
    does not win is refused (422).  Moves after the win are not played (the room is
    over), as in ``anabasis replay``.
    """
    played = rules.replay(room, moves)
    if played.status != "won":
        why = "it loses" if played.status == "lost" else "it does not reach the goal"
        raise RunRefusal(422, f"the moves do not win the room: {why}")
    return played.moves


def streak_of(won: list[_dt.date], date: _dt.date) -> int:
    """Days in a row in ``won`` ending on ``date``, or on the day before.

    >>> d = _dt.date.fromisoformat
    >>> streak_of([d("2026-12-01"), d("2026-11-30"), d("2026-11-28")], d("2026-12-01"))
    2
    >>> streak_of([d("2026-11-30"), d("2026-11-29")], d("2026-12-01"))
    2
    >>> streak_of([d("2026-11-29")], d("2026-12-01"))
    0
    """
    days = set(won)
    one = _dt.timedelta(days=1)
    at = date if date in days else date - one
    n = 0
    while at in days:
        n += 1
        at -= one
    return n
