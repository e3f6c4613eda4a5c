"""What the game needs of the board, with no UI and only the standard library.

The game draws; this module does everything else, and never blocks a frame:

- :func:`load_token`: the player's random token, made on first use and kept
  in the save folder (``board/token``, readable by its owner only);
- :class:`RunQueue`: runs waiting to go, one file each in ``board/queue/``
  (written whole, then renamed: a crash never leaves half a run);
- :class:`Sender`: a thread that sends the queue, oldest first, retrying
  with backoff; a run queued offline goes when the board is back;
- :class:`Wins`: the days this save folder won, for the streak before (or
  without) the board;
- :class:`Histogram`: the day's distribution, local (just this player) until
  the board answers, then everyone's; :func:`card` puts it all together;
- :func:`share_text`: what the share key copies, spoiling nothing;
- :func:`board_url`: the board setting (``none``, ``local`` or a URL).

See ``docs/board.md`` for the API the game calls.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import random
import secrets
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from anabasis.board import API_HEADER, API_VERSION, DEFAULT_HOST, DEFAULT_PORT
from anabasis.board.runs import streak_of
from anabasis.formats.files import atomic_write
from anabasis.refusal import Refusal

#: The board setting's values besides a URL.
NONE, LOCAL = "none", "local"
#: The folder in the save folder that holds the board's files.
FOLDER = "board"
#: Backoff: the first wait after a failure, the longest, in seconds.
FIRST_WAIT, LONGEST_WAIT = 2.0, 300.0


class BoardError(Refusal):
    """The board refused a request or could not be reached.

    ``status`` is the HTTP status (0: no answer at all); ``board`` whether the answer
    came from a board (one of this API's version); ``retry`` says whether sending again
    later may work: no answer, a 5xx, a 429, or an answer from something that is not
    the board (a captive portal, a wrong URL), which must not cost a queued run.
    """

    def __init__(self, message: str, status: int = 0, retry_after: float | None = None,
                 board: bool = True):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.board = board

    @property
    def retry(self) -> bool:
        return (not self.board or self.status == 0 or self.status == 429
                or self.status >= 500)


def default_save_dir() -> Path:
    """The game's save folder (``$ANABASIS_DATA_DIR`` or the platform's data folder)."""
    env = os.environ.get("ANABASIS_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("anabasis", appauthor=False))


def board_url(setting: str | None) -> str | None:
    """The board setting as a base URL: ``none`` (the default) is no board, ``local``
    the one ``anabasis serve`` runs here, else an ``http(s)://`` URL.

    >>> board_url("none") is None, board_url("local")
    (True, 'http://127.0.0.1:8765')
    >>> board_url("https://board.example.org/")
    'https://board.example.org'
    """
    text = (setting or NONE).strip()
    if text.lower() == NONE:
        return None
    if text.lower() == LOCAL:
        return f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
    if not text.startswith(("http://", "https://")) or any(c.isspace() for c in text):
        raise BoardError("the board is none, local, or an http:// or https:// URL")
    return text.rstrip("/")


def parse_day(text: str | None) -> _dt.date:
    """``YYYY-MM-DD``, or ``today`` (UTC)."""
    if not text or text == "today":
        return _dt.datetime.now(_dt.timezone.utc).date()
    try:
        if len(text) != 10:
            raise ValueError
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise BoardError("the date: a day written YYYY-MM-DD, or today") from None


# -- the token ------------------------------------------------------------------


def _folder(save_dir: Path) -> Path:
    folder = Path(save_dir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    return folder




def read_token(save_dir: Path) -> str | None:
    """The token kept in the save folder, or None if it has none yet."""
    try:
        token = (Path(save_dir) / FOLDER / "token").read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return token if 32 <= len(token) <= 128 else None


def load_token(save_dir: Path) -> str:
    """The player's token: read from the save folder, or made (256 random bits) and kept
    there on first use, readable by its owner only.  The server keeps only its hash.

    Two makers at once (two threads, two copies of the game) agree: the token is
    written whole aside and linked into place only if none is there yet, so the
    first one kept is the one every caller gets.
    """
    token = read_token(save_dir)
    if token is not None:
        return token
    path = _folder(save_dir) / "token"
    part = path.with_name(f".token.{secrets.token_hex(4)}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_urlsafe(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(part, path)  # fails if another maker was first: theirs stands
        except FileExistsError:
            pass
    finally:
        part.unlink(missing_ok=True)
    token = read_token(save_dir)
    if token is None:
        raise BoardError(f"cannot keep the board's token in {path}")
    return token


# -- a run, the queue ---------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A daily win as the game saw it, ready to queue and send."""

    date: str  #: YYYY-MM-DD (UTC): the day whose room was played
    code: str  #: the room's code
    moves: str  #: the moves of the winning line (undone moves left out), RLDU
    hints: int = 0  #: hint keys pressed
    seconds: float = 0.0  #: from the first move to the win, as the game counted
    name: str | None = None  #: a display name, if the player set one

    def body(self, token: str) -> dict:
        """The JSON body of ``POST /v1/runs``."""
        body = {"date": self.date, "code": self.code, "moves": self.moves, "hints": self.hints,
                "seconds": round(self.seconds, 3), "token": token}
        if self.name:
            body["name"] = self.name
        return body


@dataclass(frozen=True)
class Queued:
    """A run in the queue, and its file."""

    path: Path
    run: Run


class RunQueue:
    """Runs waiting to be sent, one JSON file each in ``board/queue/`` of the save folder.

    Safe from several threads (and from the game and the sender at once):
    a file is written whole and renamed into place, and read only whole.
    """

    def __init__(self, save_dir: Path):
        self.folder = _folder(save_dir) / "queue"
        self.folder.mkdir(parents=True, exist_ok=True)

    def put(self, run: Run) -> Path:
        """Queue ``run`` (it survives the game quitting): its file."""
        stamp = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        path = self.folder / f"{stamp}.json"
        atomic_write(path, json.dumps(run.__dict__, ensure_ascii=False))
        return path

    def pending(self) -> list[Queued]:
        """The queued runs, oldest first (a file that does not read as a run is dropped)."""
        out = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                out.append(Queued(path, Run(**data)))
            except FileNotFoundError:
                continue  # sent meanwhile
            except (OSError, ValueError, TypeError):
                path.unlink(missing_ok=True)
        return out

    def done(self, item: Queued) -> None:
        """Take a sent (or refused) run off the queue."""
        item.path.unlink(missing_ok=True)

    def __len__(self) -> int:
        return len(list(self.folder.glob("*.json")))


# -- talking to the board --------------------------------------------------------


class BoardClient:
    """The board's API over HTTP (urllib): each call blocks, so the game calls it only
    from :class:`Sender`'s thread (or the command line)."""

    def __init__(self, url: str, timeout: float = 10.0):
        self.url = url.rstrip("/")
        self.timeout = timeout

    def _call(self, method: str, path: str, body: dict | None = None,
              token: str | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(f"{self.url}/v{API_VERSION}{path}", data=data, method=method)
        req.add_header("Accept", "application/json")
        req.add_header("User-Agent", f"anabasis-board-client/{API_VERSION}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as answer:
                return self._read(answer, answer.status)
        except urllib.error.HTTPError as e:
            with e:
                got = self._read(e, e.code, fail=False)
            after = e.headers.get("Retry-After")
            if not got:
                raise BoardError(f"that is not a board of API version {API_VERSION} "
                                 f"(it answered {e.code})", e.code, None, board=False) from None
            raise BoardError(str(got.get("error") or f"the board answered {e.code}"), e.code,
                             float(after) if after and after.isdigit() else None) from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", e)
            raise BoardError(f"the board does not answer ({reason})") from None

    @staticmethod
    def _read(answer, status: int, fail: bool = True) -> dict:
        version = answer.headers.get(API_HEADER)
        try:
            got = json.loads(answer.read(1 << 20).decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            got = None
        if not isinstance(got, dict) or version != str(API_VERSION):
            if not fail:
                return {}
            raise BoardError(f"that is not a board of API version {API_VERSION}", status,
                             board=False)
        return got

    def health(self) -> dict:
        return self._call("GET", "/health")

    def submit(self, run: Run, token: str) -> dict:
        """Send one run: the board's answer (``accepted``, ``moves``, ``par``, ``best``...)."""
        return self._call("POST", "/runs", run.body(token))

    def day(self, date: _dt.date | str) -> dict:
        """A day's board (``players``, ``moves``, ``hinted``, ``median_seconds``...)."""
        return self._call("GET", f"/days/{_iso(date)}")

    def me(self, date: _dt.date | str, token: str) -> dict:
        """This player's place that day (``fewer``, ``tied``, ``of``, ``streak``...)."""
        return self._call("GET", f"/days/{_iso(date)}/me", token=token)


def _iso(date: _dt.date | str) -> str:
    return date if isinstance(date, str) else date.isoformat()


@dataclass
class Backoff:
    """Waits after failures: doubling from ``first`` up to ``longest``, with jitter."""

    first: float = FIRST_WAIT
    longest: float = LONGEST_WAIT
    failures: int = 0

    def next(self, told: float | None = None) -> float:
        """The wait after one more failure (``told``: the board's Retry-After, if any)."""
        self.failures += 1
        wait = min(self.longest, self.first * 2 ** (self.failures - 1))
        wait *= random.uniform(0.75, 1.25)  # many clients back on at once spread out
        return max(wait, told or 0.0)

    def reset(self) -> None:
        self.failures = 0


@dataclass
class Outcome:
    """What became of a sent run: the board's answer, or why it was refused."""

    run: Run
    answer: dict | None = None  #: the board's answer if it took the run
    refused: str | None = None  #: the board's one line if it refused it for good
    board: dict | None = None  #: the day's board, fetched after
    mine: dict | None = None  #: the player's place, fetched after


class Sender:
    """A thread that sends the queue: oldest first, each run until the board answers.

    A run the board takes or refuses for good (a 4xx other than 429) leaves the
    queue; no answer, a 5xx or a 429 keeps it and waits (:class:`Backoff`)
    before trying again.  :meth:`wake` sends at once (after a new win);
    :meth:`outcomes` hands the game what came back, without waiting.
    """

    def __init__(self, queue: RunQueue, client: BoardClient, token: str, *,
                 backoff: Backoff | None = None, on_outcome=None, fetch_board: bool = True):
        self.queue = queue
        self.client = client
        self.token = token
        self.backoff = backoff or Backoff()
        self.on_outcome = on_outcome
        self.fetch_board = fetch_board
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._outcomes: list[Outcome] = []
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None  #: why the last try failed, if it did

    def start(self) -> Sender:
        self._thread = threading.Thread(target=self._loop, name="board-sender", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        """Try now (a run was just queued): skips the wait, not the queue's order."""
        self.backoff.reset()
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def outcomes(self) -> list[Outcome]:
        """What came back since the last call (never waits)."""
        with self._lock:
            got, self._outcomes = self._outcomes, []
        return got

    def send_pending(self) -> float | None:
        """Send what is queued, once through; the wait before the next try if one
        failed for now (None: the queue is empty)."""
        for item in self.queue.pending():
            if self._stop.is_set():
                return None
            try:
                answer = self.client.submit(item.run, self.token)
            except BoardError as e:
                if e.retry:
                    self.last_error = str(e)
                    return self.backoff.next(e.retry_after)
                self.queue.done(item)
                self._tell(Outcome(item.run, refused=str(e)))
                continue
            self.queue.done(item)
            self.backoff.reset()
            self.last_error = None
            outcome = Outcome(item.run, answer=answer)
            if self.fetch_board:
                try:
                    outcome.board = self.client.day(item.run.date)
                    outcome.mine = self.client.me(item.run.date, self.token)
                except BoardError:
                    pass  # the run is in; the card keeps its local histogram
            self._tell(outcome)
        return None

    def _tell(self, outcome: Outcome) -> None:
        with self._lock:
            self._outcomes.append(outcome)
        if self.on_outcome is not None:
            self.on_outcome(outcome)

    def _loop(self) -> None:
        while not self._stop.is_set():
            wait = self.send_pending()
            self._wake.wait(wait if wait is not None else LONGEST_WAIT)
            self._wake.clear()


# -- wins and streaks, kept locally ---------------------------------------------------


class Wins:
    """The daily wins of this save folder (``board/wins.json``): day -> best moves,
    hints, par.  Enough for the card's streak and histogram without a board."""

    def __init__(self, save_dir: Path):
        self.path = _folder(save_dir) / "wins.json"
        self._lock = threading.Lock()

    def all(self) -> dict[str, dict]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def add(self, date: str, moves: int, hints: int, par: int) -> dict:
        """Keep a win (the best of the day stays: fewest moves, then fewest hints)."""
        with self._lock:
            data = self.all()
            old = data.get(date)
            if not old or (moves, hints) < (old.get("moves", 1 << 30), old.get("hints", 0)):
                data[date] = {"moves": moves, "hints": hints, "par": par}
            atomic_write(self.path, json.dumps(data, sort_keys=True))
            return data[date]

    def streak(self, today: _dt.date) -> int:
        """Days in a row won, ending today (or yesterday, if today is not won yet)."""
        won = []
        for day in self.all():
            try:
                won.append(_dt.date.fromisoformat(day))
            except ValueError:
                continue
        return streak_of(won, today)


# -- the card -------------------------------------------------------------------------


@dataclass(frozen=True)
class Histogram:
    """A day's distribution: for each move count from par up, the players hint-free and
    hinted; ``mine`` is the player's own count (and whether hinted)."""

    par: int
    rows: tuple[tuple[int, int, int], ...]  #: (moves, hint-free players, hinted players)
    mine: tuple[int, bool] | None = None
    everyone: bool = False  #: True once it is the board's, False while only local
    players: int = 0

    @classmethod
    def local(cls, par: int, moves: int, hinted: bool) -> Histogram:
        """Before the board answers: this player alone."""
        return cls(par, ((moves, 0 if hinted else 1, 1 if hinted else 0),), (moves, hinted),
                   False, 1)

    @classmethod
    def from_board(cls, board: dict, mine: tuple[int, bool] | None = None) -> Histogram:
        """The board's ``GET /v1/days/D`` answer as a histogram."""
        counts: dict[int, list[int]] = {}
        for key, which in (("moves", 0), ("hinted", 1)):
            for moves, n in (board.get(key) or {}).items():
                counts.setdefault(int(moves), [0, 0])[which] += int(n)
        rows = tuple((m, c[0], c[1]) for m, c in sorted(counts.items()))
        return cls(int(board["par"]), rows, mine, True, int(board.get("players", 0)))

    def bars(self, width: int = 20, most_rows: int = 8) -> list[tuple[str, int, int, bool]]:
        """Rows to draw: (label, hint-free bar length, hinted bar length, is mine), the
        longest bar ``width``; past ``most_rows`` rows the rest are summed in a last
        ``par+N+`` row."""
        rows = list(self.rows)
        if len(rows) > most_rows:
            tail = rows[most_rows - 1:]
            rows = rows[:most_rows - 1] + [(tail[0][0], sum(r[1] for r in tail),
                                            sum(r[2] for r in tail))]
            last = True
        else:
            last = False
        top = max((a + b for _, a, b in rows), default=0) or 1
        out = []
        for i, (moves, clean, hinted) in enumerate(rows):
            over = moves - self.par
            label = "par" if over == 0 else f"par+{over}"
            if last and i == len(rows) - 1:
                label += "+"
            is_mine = self.mine is not None and (self.mine[0] == moves or (
                last and i == len(rows) - 1 and self.mine[0] >= moves))
            out.append((label, round(width * clean / top), round(width * hinted / top),
                        is_mine))
        return out


def share_text(date: str, moves: int, par: int, hints: int, streak: int = 0) -> str:
    """What the share key copies: the day, moves against par, hints and a line of
    marks, and nothing of the room or the way (it spoils nothing).

    The line has ten marks: as many green as par's share of the moves (ten at
    par), the rest white; yellow instead of green if hints were used.

    >>> print(share_text("2026-12-01", 48, 45, 0, 3))
    Anabasis 2026-12-01
    48 moves, par 45 (+3), no hints, streak 3
    🟩🟩🟩🟩🟩🟩🟩🟩🟩⬜
    """
    over = moves - par
    against = "at par" if over == 0 else f"par {par} ({'+' if over > 0 else ''}{over})"
    told = "no hints" if hints == 0 else f"{hints} hint{'s' if hints != 1 else ''}"
    parts = [f"{moves} moves, {against}", told]
    if streak:
        parts.append(f"streak {streak}")
    full = max(0, min(10, round(10 * par / moves))) if moves else 0
    mark = "🟨" if hints else "🟩"
    return f"Anabasis {date}\n{', '.join(parts)}\n{mark * full}{'⬜' * (10 - full)}"


@dataclass
class Card:
    """Everything the card after a daily win shows: the UI only draws it."""

    date: str
    moves: int
    par: int
    hints: int
    streak: int
    histogram: Histogram
    share: str
    place: str = ""  #: "3 of 12 players did better, 4 tied", once the board answered
    waiting: bool = True  #: True while the board has not answered (or there is none)
    notes: list[str] = field(default_factory=list)

    @property
    def against_par(self) -> str:
        over = self.moves - self.par
        return "at par" if over == 0 else f"par {self.par}, {'+' if over > 0 else ''}{over}"


def card(date: str, moves: int, par: int, hints: int, wins: Wins,
         outcome: Outcome | None = None) -> Card:
    """The card for a daily win: local at first (this player's histogram, the streak of
    the save folder), then with the board's answer once the sender has one."""
    today = _dt.date.fromisoformat(date)
    streak = wins.streak(today)
    histogram = Histogram.local(par, moves, hints > 0)
    place, waiting = "", True
    if outcome is not None and outcome.answer is not None:
        streak = max(streak, int(outcome.answer.get("streak", 0)))
        waiting = False
        if outcome.board is not None:
            histogram = Histogram.from_board(outcome.board, (moves, hints > 0))
        if outcome.mine is not None:
            m = outcome.mine
            place = (f"{m['fewer']} of {m['of']} {'hinted ' if m['hinted'] else ''}"
                     f"players took fewer moves, {m['tied']} tied")
    notes = [outcome.refused] if outcome is not None and outcome.refused else []
    return Card(date, moves, par, hints, streak, histogram,
                share_text(date, moves, par, hints, streak), place, waiting, notes)


# -- the board, as text ---------------------------------------------------------------


def board_lines(board: dict, mine: dict | None = None, width: int = 30) -> list[str]:
    """A day's board as lines for the terminal (``anabasis board``)."""
    par = int(board["par"])
    lines = [f"{board['date']}  par {par}  {board['players']} players "
             f"({board.get('hint_free', 0)} without hints)"]
    hist = Histogram.from_board(board)
    top = max((a + b for _, a, b in hist.rows), default=0) or 1
    for moves, clean, hinted in hist.rows:
        over = moves - par
        label = "par" if over == 0 else f"+{over}"
        bar = "#" * round(width * clean / top) + "h" * round(width * hinted / top)
        you = "  <- you" if mine and mine.get("moves") == moves else ""
        lines.append(f"{moves:>4} {label:>4} {bar} {clean}" + (f" (+{hinted} hinted)"
                                                             if hinted else "") + you)
    if board.get("at_par") is not None:
        lines.append(f"at par: {100 * board['at_par']:.0f}% of hint-free players")
    if board.get("median_seconds") is not None:
        s = round(board["median_seconds"])
        lines.append(f"median time: {s // 60}:{s % 60:02d}")
    if mine:
        lines.append(f"you: {mine['moves']} moves{' (hinted)' if mine['hinted'] else ''}, "
                     f"{mine['fewer']} of {mine['of']} took fewer, streak {mine['streak']}")
    lines.append(f"code: {board['code']}")
    return lines
