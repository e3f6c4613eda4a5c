"""Hints and lost causes in play: the solver's answers, worked out off the frame loop.

After every move (and undo and restart) the scene calls :meth:`Hints.ask`;
the question, :func:`anabasis.engine.solver.way_on` from the position on
screen with the undo stack behind it, goes to a worker thread, and
:meth:`Hints.poll`, once a frame, picks the answer up when it is there. A
frame never waits for the solver: until the answer comes, a hint says it is
thinking, and it appears by itself when the answer comes.

The thread searches at most :data:`QUICK_STATES` states (some milliseconds:
every shipped level and made room answers within it).  A bigger room's
question goes on to a worker process (:func:`apart`), because a long
pure-Python search in a thread holds the GIL against the frame loop.

The answer is a shortest solution from here (the *plan*), or lost with the
fewest undos back to a live position, or too big to tell.  The hint key
reveals the plan one move at a time; the scene draws the first as an arrow
and names them all.  Playing the revealed move keeps the rest of the plan
(a shortest solution's tail is a shortest solution from where it leads);
any other move, an undo or a restart drops it.

This module imports no pygame: the words are made here, the arrow in the HUD.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import CancelledError, Future

from anabasis.app.shell import workers
from anabasis.engine import rules, solver

#: What a step along an axis is called when no arrow key makes it in the view on screen.
MOVE_WORDS = {"R": "right along x", "L": "left along x", "D": "down the page, along y",
              "U": "up the page, along y"}


def lost_text(undo: int | None, to_start: bool) -> str:
    """The lost-cause line: how far back the nearest position with a way on is.

    >>> lost_text(3, False), lost_text(1, True)
    ('no way on from here: undo 3 moves', 'no way on from here: undo 1 move or restart')
    >>> lost_text(None, False)
    'no way on from here, nor from the start: this room cannot be solved'
    """
    if undo is None:
        return "no way on from here, nor from the start: this room cannot be solved"
    text = f"no way on from here: undo {undo} move{'s' if undo != 1 else ''}"
    return text + (" or restart" if to_start else "")


TOO_BIG_TEXT = "too big to tell: this room has more positions than a hint can search"
THINKING_TEXT = "hint: thinking…"
#: The quick search's cap, in the game's own process (a thread): some milliseconds.
#: A question past it is asked again, in full, in a worker process.
QUICK_STATES = 20_000
MAX_WORDS = 6  #: revealed moves named in the hint line; past that, "then N more"


class Hints:
    """The solver's answers for one room being played, and the hints taken.

    ``submit`` is an executor's ``submit`` (a worker thread's: the game's
    pool); ``Hints(room, submit=None)`` answers at once, in the caller's
    thread (the tests' and the benches' way).
    """

    def __init__(self, room, submit: Callable[..., Future] | None = None,
                 max_states: int = solver.HINT_MAX_STATES,
                 apart: Callable[..., Future] | None = None):
        self.room = room
        self.max_states = max_states  #: past this many states: too big to tell
        self._submit = submit
        #: where a question too big for a quick search goes (a worker process), or None
        self._apart = apart
        self._question: tuple | None = None  #: the question asked: (args, keywords)
        self._future: Future | None = None
        self.answer: solver.WayOn | None = None  #: for the position on screen, once it came
        self.plan: tuple[str, ...] | None = None  #: a shortest solution from the position
        self.shown = 0  #: how many moves of the plan the hint key has revealed
        self.used = 0  #: hints taken (moves revealed) since the room was opened
        self.wanted = False  #: the key was pressed before the answer came: show it then
        self.to_start = False  #: lost: the nearest live position is the start
        self.asked = 0  #: questions asked (each move, undo and restart asks one)
        self._state = None  #: the position last asked about

    # -- the question ---------------------------------------------------------------

    def ask(self, game) -> None:
        """The position changed (a move, an undo, a restart): ask about the new one.

        When the new position is where the plan's next move leads from the
        one before, the rest of the plan stays (and stays revealed).
        """
        state, history = game.state, game.history
        before, self._state = self._state, state
        if (self.plan and history and history[-1] == before
                and rules.step(self.room, before, self.plan[0], gravity_w=game.gravity_w)
                .state == state):
            self.plan = self.plan[1:]
            self.shown = max(0, self.shown - 1)
        else:
            self.plan, self.shown = None, 0
        if self._future is not None:
            self._future.cancel()  # a question still waiting is no longer wanted
        self.answer = None
        self.to_start = False
        self.asked += 1
        args = (solver.way_on, self.room, state, history)
        kw = {"gravity_w": game.gravity_w, "hook": game.hook, "max_states": self.max_states}
        self._history_start = (history, game.first)
        self._question = (args, dict(kw))
        if self._apart is not None:  # a quick search first: every shipped room answers in it
            kw["max_states"] = min(QUICK_STATES, self.max_states)
        if self._submit is None:
            self._future = Future()
            self._future.set_result(args[0](*args[1:], **kw))
        else:
            self._future = self._submit(*args, **kw)

    def poll(self) -> solver.WayOn | None:
        """The answer, on the frame it arrives (once); None on every other frame."""
        future = self._future
        if future is None or not future.done():
            return None
        self._future = None
        try:
            answer = future.result()
        except CancelledError:
            return None
        args, kw = self._question
        if answer.status == "too-big" and answer.states < kw["max_states"]:
            # too big for the quick search: ask again, in full, where the GIL is not
            # the frame loop's (the answer comes on a later frame)
            self._future = self._apart(*args, **kw)
            return None
        self.answer = answer
        if answer.status == "solvable" and self.plan is None:
            self.plan = answer.moves
        if answer.status == "lost" and answer.undo is not None:
            history, start = self._history_start
            self.to_start = history[-answer.undo] == start
        return answer

    @property
    def pending(self) -> bool:
        return self._future is not None

    @property
    def lost(self) -> bool:
        return self.answer is not None and self.answer.status == "lost"

    # -- the hint key ------------------------------------------------------------------

    def press(self) -> str:
        """The hint key: reveal the next move of the plan.

        Returns what came of it: ``shown`` (a move more is revealed, and
        counted), ``all`` (every move of the plan already is), ``pending``
        (the answer is not there yet: it is shown when it comes), ``lost``,
        ``too-big`` or ``won``.
        """
        if self.plan is not None:
            if self.shown >= len(self.plan):
                return "all" if self.plan else "won"
            self.shown += 1
            self.used += 1
            return "shown"
        if self.answer is None:
            self.wanted = True
            return "pending"
        status = self.answer.status
        return {"won": "won", "too-big": "too-big"}.get(status, "lost")

    def revealed(self) -> tuple[str, ...]:
        """The moves the hint key has revealed, the next one first."""
        return self.plan[: self.shown] if self.plan else ()

    def words(self, arrow_of: Callable[[str], str | None], turn_key: str = "V") -> str:
        """The revealed moves in words, as keys to press in the view on screen.

        ``arrow_of(move)`` names the key that plays ``move`` now (None when
        no arrow does: the move's axis is hidden in this view); ``turn_key``,
        the key that turns the view.

        >>> h = Hints(None)
        >>> h.plan, h.shown = ("R", "U", "R"), 2
        >>> h.words({"R": "Right", "U": None}.get)
        'hint: press Right, then turn the view (V) and step up the page, along y'
        >>> h.shown = 3
        >>> h.words({"R": "Right", "U": "Up"}.get)
        'hint: press Right, then Up, then Right: that wins'
        """
        moves = self.revealed()
        if not moves:
            return ""
        parts = []
        for move in moves[:MAX_WORDS]:
            arrow = arrow_of(move)
            parts.append(arrow or f"turn the view ({turn_key}) and step {MOVE_WORDS[move]}")
        text = "hint: press " + ", then ".join(parts)
        if len(moves) > MAX_WORDS:
            text += f", then {len(moves) - MAX_WORDS} more"
        if len(moves) == len(self.plan):
            text += ": that wins"
        return text

    def lost_line(self) -> str:
        """The lost-cause line for the answer in hand (only when it is lost)."""
        return lost_text(self.answer.undo, self.to_start)


# -- a worker process, for the big rooms -----------------------------------------------

#: Run a question in the game's worker process (:func:`anabasis.app.shell.workers.apart`).
apart = workers.apart
#: End that process, if one was started.
shutdown = workers.stop_apart
