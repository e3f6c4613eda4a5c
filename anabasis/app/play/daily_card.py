"""The card after a daily win, and the game's link to the daily board.

:class:`DailyBoard` is the app's (one a session): the board setting (the
save file's ``board`` field: ``none``, ``local`` or a URL), and, once a
board is set and there is something to send, the client library's
:class:`~anabasis.board.client.Sender`, a thread that sends the runs queued
in the save folder, retrying with backoff.  Nothing here waits on the
network in a frame: a win is queued (a small file) and the sender woken;
each frame :meth:`DailyBoard.poll` takes what came back, without waiting.
A run queued while the board was away goes when it is back, in this session
(the sender keeps trying) or the next (a session that finds runs queued
starts the sender at once).

:class:`DailyCard` is what the win panel of today's room shows: moves
against par, the day's distribution (this player alone until the board
answers, then everyone's), the streak, and the share text the share key
copies.  With no board it is the same card, local.

See ``docs/board.md`` for the board and how to set it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from anabasis.app.shell.overlay import DIM, GOLD, GOOD, INK, WARN

if TYPE_CHECKING:  # the client (urllib and all) is imported on first use, not at startup
    from anabasis.board import client

#: The colours of the histogram's bars: hint-free, hinted; the player's own row is brighter.
CLEAN, HINTED, MINE = (110, 170, 120), (200, 170, 90), (235, 235, 245)
#: How long the game waits for the sender when it quits (it never waits in a frame).
STOP_S = 1.0


def winning_line(game) -> str:
    """The moves of the line that won (undone moves and those before a restart left out).

    The engine's undo stack holds the state before each move of the line on screen
    (``game.moves`` of them, the last ones); each move is found again from its two states.
    """
    from anabasis.engine import rules

    states = list(game.history[len(game.history) - game.moves:]) + [game.state]
    moves = list(rules.STEPS)
    if game.hook:
        moves += list(rules.HOOKS)
    line = []
    for before, after in zip(states[:-1], states[1:], strict=True):
        for m in moves:
            got = rules.step(game.room, before, m, gravity_w=game.gravity_w)
            if got.moved and got.state == after:
                line.append(m)
                break
        else:
            raise ValueError("a step of the line is no move")
    return "".join(line)


class DailyCard:
    """One daily win's card: :attr:`card` (the client library's) as it stands now."""

    def __init__(self, board: DailyBoard, run: client.Run, par: int, moves: int):
        self.board = board
        self.run = run
        self.par = par
        self.moves = moves
        self.outcome: client.Outcome | None = None
        self.version = 0  #: bumped on each change, for the overlay's cache
        self.copied = ""
        from anabasis.board import client

        self.card = client.card(run.date, moves, par, run.hints, board.wins)

    def key(self) -> tuple:
        """What the card shows, for the overlay's cache: redrawn when it changes."""
        return self.version, self.status()

    @property
    def sending(self) -> bool:
        """The run is queued for a board that has not answered yet."""
        return self.board.url is not None and self.outcome is None

    def take(self, outcome: client.Outcome) -> None:
        """The sender's answer for this run: everyone's histogram, the board's streak."""
        from anabasis.board import client

        self.outcome = outcome
        self.card = client.card(self.run.date, self.moves, self.par, self.run.hints,
                                self.board.wins, outcome)
        self.version += 1

    def status(self) -> str:
        """One line: where the run is."""
        if self.board.url is None:
            why = f" ({self.board.error})" if self.board.error else ""
            return f"no board is set{why}: the distribution is yours alone"
        if self.outcome is None:
            err = self.board.last_error()
            return ("queued: it goes when the board answers" + (f" ({err})" if err else "")
                    if err else "sending to the board…")
        if self.outcome.refused:
            return f"the board refused it: {self.outcome.refused}"
        return self.card.place or f"{self.card.histogram.players} players today"

    def share(self, app) -> None:
        """The share key: the share text to the clipboard (printed where there is none)."""
        text = self.card.share
        if app.copy(text):
            app.scene.say("the share text is copied (it spoils nothing)")
        else:
            print(text, flush=True)
            app.scene.say("no clipboard here; the share text is printed", "warn", 5.0)
        self.copied = text
        self.version += 1


class DailyBoard:
    """The session's link to the board: the setting, the queue and the sender."""

    def __init__(self, save_dir: str | Path, setting: str | None):
        self.save_dir = Path(save_dir)
        self.error = ""
        self.url: str | None = None
        if (setting or "none").strip().lower() == "none":  # the default: nothing to import
            self.sender, self.cards, self._wins = None, [], None
            return
        from anabasis.board import client

        try:
            self.url = client.board_url(setting)
        except client.BoardError as e:  # a setting that is no board: none, said on the card
            self.url, self.error = None, str(e)
        self.sender: client.Sender | None = None
        self.cards: list[DailyCard] = []
        self._wins: client.Wins | None = None
        if self.url is not None and _queued(self.save_dir):
            self._start()  # runs left queued by an earlier session go when the board is back

    @property
    def wins(self) -> client.Wins:
        from anabasis.board import client

        if self._wins is None:
            self._wins = client.Wins(self.save_dir)
        return self._wins

    def _start(self) -> client.Sender:
        from anabasis.board import client

        if self.sender is None:
            token = client.load_token(self.save_dir)
            self.sender = client.Sender(client.RunQueue(self.save_dir),
                                        client.BoardClient(self.url), token).start()
        return self.sender

    def won(self, date: str, code: str, line: str, hints: int, seconds: float,
            par: int) -> DailyCard:
        """Today's room won: kept for the streak, queued for the board, the sender woken;
        the card, local until the board answers."""
        from anabasis.board import client

        run = client.Run(date, code, line, hints, max(0.0, seconds))
        self.wins.add(date, len(line), hints, par)
        card = DailyCard(self, run, par, len(line))
        self.cards = [c for c in self.cards[-3:] if c.run != run] + [card]
        if self.url is not None:
            try:
                sender = self._start()
                sender.queue.put(run)
                sender.wake()
            except (OSError, client.BoardError) as e:  # no room in the save folder, say
                self.error, self.url = f"the run could not be queued ({e})", None
        return card

    def poll(self) -> None:
        """What the sender has had back since the last frame (never waits)."""
        if self.sender is None:
            return
        for outcome in self.sender.outcomes():
            for card in self.cards:
                if card.run == outcome.run and card.outcome is None:
                    card.take(outcome)

    def last_error(self) -> str | None:
        return self.sender.last_error if self.sender is not None else None

    def stop(self, wait: float = STOP_S) -> None:
        """End the sender, waiting up to ``wait`` seconds for what it is sending (0: not
        at all, as when the setting changes in a frame; the thread ends after it)."""
        if self.sender is not None:
            self.sender.stop(wait)


def _queued(save_dir: Path) -> bool:
    folder = save_dir / "board" / "queue"  # client.RunQueue's folder
    try:
        return any(folder.glob("*.json"))
    except OSError:
        return False


# -- drawing ------------------------------------------------------------------------


def shown(play) -> tuple:
    """What the card shows now, as one frozen value (the HUD draws it, and again only when
    it changes): the moves line, the streak line, the histogram's bars, the status line
    (and whether it is a refusal), the keys line."""
    daily: DailyCard = play.daily
    card = daily.card
    hints = card.hints
    line = f"{card.moves} moves · {card.against_par}"
    if hints:
        line += f" · {hints} hint{'s' if hints != 1 else ''}"
    streak = f"streak {card.streak} day{'s' if card.streak != 1 else ''}"
    who = ("everyone today" if card.histogram.everyone
           else "you alone, till the board answers" if daily.board.url else "you alone")
    refused = bool(daily.outcome is not None and daily.outcome.refused)
    keys = play.app.keymap.text("{share}: copy the share text · {next}: back"
                                " · {restart} play again")
    return (line, bool(hints), f"{streak} · {who}", tuple(card.histogram.bars(20, 6)),
            daily.status(), refused, keys)


def draw(ov, value: tuple, s: float) -> None:
    """The win panel of today's room: the card, from :func:`shown`'s value."""
    line, hinted, streak, bars, status, refused, keys = value
    W, H = ov.size
    big, mid, small = int(34 * s), int(22 * s), int(17 * s)
    row_h = small + int(6 * s)
    height = int(130 * s) + len(bars) * row_h + 3 * (small + 6)
    box = pygame.Rect(0, 0, min(W - 20, int(560 * s)), min(H - 20, height))
    box.center = (W // 2, H // 2)
    ov.panel(box, (14, 18, 26, 230), 14)
    y = box.y + int(12 * s)
    ov.text("Today's room, solved", (box.centerx, y), big, GOLD, anchor="midtop")
    y += big + int(6 * s)
    ov.text(line, (box.centerx, y), mid, DIM if hinted else INK, anchor="midtop")
    y += mid + int(4 * s)
    ov.text(streak, (box.centerx, y), small, GOOD, anchor="midtop")
    y += small + int(10 * s)
    # the histogram: a row per move count from par, hint-free and hinted bars end to end
    label_w = int(70 * s)
    x0 = box.x + int(30 * s) + label_w
    unit = max(1, (box.right - int(40 * s) - x0) // 22)
    for label, clean, hinted_len, mine in bars:
        ov.text(label, (x0 - int(8 * s), y), small, INK if mine else DIM, anchor="topright")
        bx = x0
        for length, colour in ((clean, CLEAN), (hinted_len, HINTED)):
            if length:
                rect = pygame.Rect(bx, y + 2, length * unit, row_h - 6)
                pygame.draw.rect(ov.surface, MINE if mine else colour, rect, 0, 3)
                if mine:
                    pygame.draw.rect(ov.surface, colour, rect, max(1, int(2 * s)), 3)
                bx += length * unit
        if mine:
            ov.text("you", (bx + int(6 * s), y), small, INK)
        y += row_h
    y += int(6 * s)
    ov.text(status, (box.centerx, y), small, WARN if refused else DIM, anchor="midtop")
    ov.text(keys, (box.centerx, box.bottom - small - int(12 * s)), small, GOLD,
            anchor="midtop")
