"""The editor's live proofs: what the solver says of a draft, worked out off the frame loop.

:func:`prove` is the whole of it, in order and as a generator, so that each
answer shows as soon as it is known: the text format's refusal (two
players, no goal, a start already won or lost: the parser's own line), or
the shortest solution (its moves, the states searched); then, for a
solvable room, each rule it is impossible without, and whether the hook
would save a move.  Each step yields the :class:`Proofs` so far.

:class:`Prover` runs :func:`prove` in a worker *process*, one per draft:
an edit terminates the worker still proving the last draft and starts
another.  A thread would not do: a search cannot be stopped half way, and
the solver is pure Python, so a thread would hold the GIL against the frame
loop (see ``docs/editor.md``, cost lessons).  The workers are forked from a
fork server that has the engine imported already, so a new one is ready in
milliseconds, and the game's own process, with its GL context and threads,
is never forked.  No pygame here.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
import weakref
from dataclasses import dataclass, field, replace

from anabasis.engine.world import SWITCHES

#: A search reaching this many states gives up: "too big to prove" (about 100 MB, 2 to 5 s).
MAX_STATES = 1_000_000
#: How much lower than the game the worker runs (``os.nice``): frames first.
NICE = 15


@dataclass(frozen=True)
class Proofs:
    """What is proved of a draft so far.

    ``status``: ``"refused"`` (``refusal`` holds the parser's line),
    ``"solved"``, ``"impossible"``, ``"too-big"`` or ``"proving"`` (nothing
    known yet).  ``without`` has, per rule of :data:`SWITCHES` proved so far,
    the search's status without it (``"solved"``, ``"impossible"``,
    ``"gave-up"``, or ``"n/a"`` for a rule the room does not use), and
    ``hook`` the hook's shortest solution's length.  ``done`` is set on the
    last one.
    """

    status: str = "proving"
    refusal: str = ""
    moves: tuple[str, ...] | None = None
    states: int = 0
    without: dict = field(default_factory=dict)
    without_states: dict = field(default_factory=dict)
    hook: int | None = None
    hook_status: str = ""
    done: bool = False
    max_states: int = MAX_STATES

    @property
    def par(self) -> int | None:
        return len(self.moves) if self.moves is not None else None

    @property
    def needs(self) -> tuple[str, ...]:
        """The rules this room is proved impossible without."""
        return tuple(s for s in SWITCHES if self.without.get(s) == "impossible")

    @property
    def hook_saves(self) -> int | None:
        """Moves the hook would save (0: none), or None while unknown."""
        if self.hook is None or self.par is None:
            return None
        return self.par - self.hook

    def lines(self) -> list[tuple[str, str]]:
        """The proof panel: (kind, text) lines, kind ``good``, ``warn``, ``dim`` or ``info``."""
        if self.status == "refused":
            return [("warn", "not a room yet:"), ("warn", self.refusal)]
        if self.status == "proving":
            return [("dim", "proving…")]
        if self.status == "too-big":
            return [("warn", f"too big to prove: over {self.max_states:,} states")]
        if self.status == "impossible":
            return [("warn", f"impossible: {self.states:,} states searched")]
        out = [("good", f"solvable · par {self.par}"),
               ("info", "moves: " + ("".join(self.moves) or "(none)")),
               ("dim", f"{self.states:,} states searched")]
        needed = [s for s in SWITCHES if self.without.get(s) == "impossible"]
        unknown = [s for s in SWITCHES if self.without.get(s) == "gave-up"]
        pending = any(s not in self.without for s in SWITCHES)
        text = "needs: " + (", ".join(needed) if needed else ("" if pending else "nothing"))
        out.append(("info", text + (" …" if pending else "")))
        if unknown:
            out.append(("dim", f"too big to tell without {', '.join(unknown)}"))
        if self.hook_status == "":
            out.append(("dim", "the hook: …"))
        elif self.hook_saves:
            out.append(("warn", f"the hook saves {self.hook_saves} move"
                                f"{'s' if self.hook_saves != 1 else ''}"))
        elif self.hook_status == "gave-up":
            out.append(("dim", "the hook: too big to prove"))
        else:
            out.append(("dim", "the hook saves nothing"))
        return out


def applies(room, switch: str) -> bool:
    """Whether switching ``switch`` off changes ``room`` at all (else it is not needed)."""
    from anabasis.engine.cells import RAMPS

    if switch == "ramps":
        return any(c in RAMPS for c in room.cells)
    if switch == "crates":
        return bool(room.start.crates)
    if switch == "wrap":
        return room.wrap
    return True


def prove(text: str, path: str = "room.txt", max_states: int = MAX_STATES, full: bool = True):
    """Yield the :class:`Proofs` of the level file ``text``, more of them each time.

    ``full=False`` stops at the first answer (solvable and its par, or not).
    """
    from anabasis.engine import solver
    from anabasis.formats import levelfile

    try:
        room = levelfile.parse(text, path)
    except levelfile.LevelError as e:
        yield Proofs("refused", refusal=str(e), done=True, max_states=max_states)
        return
    found = solver.solve(room, max_states=max_states)
    if found.status == "gave-up":
        yield Proofs("too-big", states=found.states, done=True, max_states=max_states)
        return
    if found.status == "impossible":
        yield Proofs("impossible", states=found.states, done=True, max_states=max_states)
        return
    proofs = Proofs("solved", moves=found.moves, states=found.states, max_states=max_states)
    # the rules a room does not use cost nothing; the cheap searches go first
    without = {s: "n/a" for s in SWITCHES if not applies(room, s)}
    proofs = replace(proofs, without=dict(without), done=not full)
    yield proofs
    if not full:
        return
    for switch in ("crates", "ramps", "wrap", "gravity-w"):
        if switch in without:
            continue
        result = solver.solve(room, without=(switch,), max_states=max_states)
        without[switch] = result.status
        proofs = replace(proofs, without=dict(without),
                         without_states={**proofs.without_states, switch: result.states})
        yield proofs
    hooked = solver.solve(room, hook=True, max_states=max_states)
    yield replace(proofs, hook=len(hooked.moves) if hooked.moves is not None else None,
                  hook_status=hooked.status, done=True)


# -- the worker ----------------------------------------------------------------------------


def _work(conn, text: str, path: str, max_states: int, full: bool = True) -> None:
    """The worker process: send each :class:`Proofs` as it comes, then end."""
    try:
        os.nice(NICE)  # the frame loop comes first when the cores are busy
    except (AttributeError, OSError):
        pass
    try:
        for proofs in prove(text, path, max_states, full):
            conn.send(proofs)
    except Exception as e:  # a bug must not leave the panel spinning for ever
        conn.send(Proofs("refused", refusal=f"the proofs failed: {e}", done=True))
    finally:
        conn.close()


_context = None
_live: weakref.WeakSet = weakref.WeakSet()  #: every Prover, for :func:`close_all`


def close_all() -> None:
    """Stop every prover's worker (the window is closing)."""
    for prover in list(_live):
        prover.close()


def _mp_context():
    """A fork server's context (a clean process with the engine loaded), else spawn's."""
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["anabasis.app.proofs", "anabasis.engine.solver",
                                        "anabasis.formats.levelfile"])
        else:  # Windows: no fork at all
            ctx = multiprocessing.get_context("spawn")
        _context = ctx
    return _context


class _MainHidden:
    """Keep the fork server (or a spawned worker) from running the parent's script again.

    A new interpreter imports the script the parent was started with (unless
    that was ``python -m``): an unguarded script would open a second window.
    """

    def __enter__(self):
        self.main = sys.modules.get("__main__")
        self.saved = None
        if (self.main is not None and getattr(self.main, "__spec__", None) is None
                and hasattr(self.main, "__file__")):
            self.saved = self.main.__file__
            del self.main.__file__

    def __exit__(self, *exc):
        if self.saved is not None:
            self.main.__file__ = self.saved


class Prover:
    """Proves one draft at a time in a worker process; a new draft stops the last.

    Call :meth:`start` after each edit and :meth:`poll` once a frame;
    :attr:`proofs` is the latest answer (``status == "proving"`` until the
    first comes), :attr:`busy` whether a worker is still at it.
    """

    def __init__(self, max_states: int = MAX_STATES):
        self.max_states = max_states
        self.proofs = Proofs(max_states=max_states)
        self.text: str | None = None  #: the level text being (or last) proved
        self.started = 0.0  #: time.perf_counter() at the last start
        self.finished: float | None = None  #: ... and when its last answer came
        self.cancelled = 0  #: workers stopped by a newer draft
        self._proc = None
        self._conn = None
        self._dying: list = []
        _live.add(self)

    @property
    def busy(self) -> bool:
        return self._proc is not None

    def start(self, text: str, path: str = "room.txt", full: bool = True) -> None:
        """Prove the level file ``text`` (stopping whatever is being proved); ``full=False``:
        only its first answer (solvable and its par, or not)."""
        if text == self.text and (self.busy or self.proofs.done):
            return
        self.stop()
        self.text = text
        self.proofs = Proofs(max_states=self.max_states)
        self.started = time.perf_counter()
        self.finished = None
        ctx = _mp_context()
        receive, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_work, args=(send, text, path, self.max_states, full),
                           daemon=True, name="anabasis-proofs")
        with _MainHidden():
            proc.start()
        send.close()  # the worker holds the sending end; its end closes the pipe
        self._proc, self._conn = proc, receive

    def stop(self) -> None:
        """Stop the worker, if one is proving (its process is ended, not waited for)."""
        if self._proc is None:
            return
        if self._proc.is_alive():
            self._proc.terminate()
            self.cancelled += 1
        self._conn.close()
        self._dying.append(self._proc)
        self._proc = self._conn = None

    def poll(self) -> bool:
        """Take in what the worker has sent; True when the proofs changed."""
        self._reap()
        if self._conn is None:
            return False
        changed = False
        try:
            while self._conn.poll():
                self.proofs = self._conn.recv()
                changed = True
        except (EOFError, OSError):
            # the worker ended without its last answer (killed from outside, out of memory)
            if not self.proofs.done:
                self.proofs = Proofs("refused", refusal="the proofs stopped (out of memory?)",
                                     done=True)
                changed = True
        if self.proofs.done:
            self.finished = time.perf_counter()
            self._conn.close()
            self._dying.append(self._proc)
            self._proc = self._conn = None
        return changed

    def wait(self, timeout: float = 60.0) -> Proofs:
        """Block until the proofs are done (tests and the bench; never the frame loop)."""
        end = time.perf_counter() + timeout
        while self.busy and time.perf_counter() < end:
            self._conn.poll(0.005)
            self.poll()
        return self.proofs

    def _reap(self) -> None:
        alive = []
        for proc in self._dying:
            if proc.exitcode is None:
                alive.append(proc)
            else:
                proc.join(0)
        self._dying = alive

    def close(self) -> None:
        """Stop the worker and wait for the stopped ones (at the window's close)."""
        self.stop()
        for proc in self._dying:
            proc.join(1.0)
            if proc.exitcode is None:
                proc.kill()
                proc.join(1.0)
        self._dying = []
