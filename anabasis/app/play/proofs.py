"""Live proofs: what the solver says of a draft, or of a shared room (its par), off the loop.

:func:`prove` is the whole of it, in order and as a generator, so that each
answer shows as soon as it is known: the text format's refusal (two
players, no goal, a start already won or lost: the parser's own line), or
the shortest solution (its moves, the states searched); then, for a
solvable room, each rule it is impossible without, and whether the hook
would save a move.  Each step yields the :class:`Proofs` so far.

:class:`Prover` runs :func:`prove` in a worker *process*, one per draft,
and the hook's search, the longest, in a second worker beside it (the
machine's second core): an edit terminates the workers still proving the
last draft and starts others.  A thread would not do: a search cannot be
stopped half way, and the solver is pure Python, so a thread would hold
the GIL against the frame loop (see ``docs/editor.md``, cost lessons).  The
workers are forked from a fork server that has the engine imported already
(:func:`anabasis.app.shell.workers.proof_context`), so a new one is ready in
milliseconds, and the game's own process, with its GL context and threads,
is never forked.  No pygame here.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace

from anabasis.app.shell import workers
from anabasis.engine.world import NEEDS

#: A search reaching this many states gives up: "too big to prove" (about 100 MB, 2 to 5 s).
MAX_STATES = 1_000_000
#: How much lower than the game the worker runs (``os.nice``): frames first.
NICE = 15
#: ... and the hook's worker, lower still: on a busy machine the par comes first.
HOOK_NICE = 19


@dataclass(frozen=True)
class Proofs:
    """What is proved of a draft so far.

    ``status``: ``"refused"`` (``refusal`` holds the parser's line),
    ``"solved"``, ``"impossible"``, ``"too-big"`` or ``"proving"`` (nothing
    known yet).  ``without`` has, per rule of ``NEEDS`` proved so far,
    the search's status without it (``"solved"``, ``"impossible"``,
    ``"gave-up"``, or ``"n/a"`` for a rule the room does not use), and
    ``hook`` the hook's shortest solution's length, ``hook_status`` its
    search's status (``"failed"`` when its worker died).  ``done`` is set on
    the last one.
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
    #: why an impossible room is, in one line, where a simple proof tells ("" else)
    reason: str = ""
    #: how many shortest solutions there are (None: not counted yet, or too many states)
    shortest: int | None = None
    #: a hook room: the hook is a move, in the par and every proof; ``without["hook"]``
    #: is the search with it not one (``needs: hook``)
    hook_room: bool = False

    @property
    def par(self) -> int | None:
        return len(self.moves) if self.moves is not None else None

    @property
    def needs(self) -> tuple[str, ...]:
        """The rules this room is proved impossible without (``hook`` in a hook room too)."""
        return tuple(s for s in NEEDS if self.without.get(s) == "impossible")

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
            out = [("warn", f"impossible: {self.states:,} states searched")]
            return out + ([("warn", self.reason)] if self.reason else [])
        out = [("good", f"solvable · par {self.par}"),
               ("info", "moves: " + ("".join(self.moves) or "(none)")),
               ("dim", f"{self.states:,} states searched")]
        if self.shortest is not None:
            out.append(("info", "the only shortest solution" if self.shortest == 1 else
                        f"{self.shortest:,} shortest solutions"))
        needed = [s for s in NEEDS if self.without.get(s) == "impossible"]
        unknown = [s for s in NEEDS if self.without.get(s) == "gave-up"]
        pending = any(s not in self.without for s in NEEDS)
        text = "needs: " + (", ".join(needed) if needed else ("" if pending else "nothing"))
        out.append(("info", text + (" …" if pending else "")))
        if unknown:
            out.append(("dim", f"too big to tell without {', '.join(unknown)}"))
        if self.hook_room:
            out.append(("dim", "a hook room: the hook is a move, and par counts it"))
            return out
        if self.hook_status == "":
            out.append(("dim", "the hook: …"))
        elif self.hook_saves:
            n = self.hook_saves
            out.append(("warn", f"the hook saves {n} move{'s' if n != 1 else ''}"))
            out.append(("dim", f"were the hook a move here (a hook room, O), par would be "
                               f"{self.hook}, not {self.par}: in this room it is not one"))
        elif self.hook_status == "gave-up":
            out.append(("dim", "the hook: too big to prove"))
        elif self.hook_status == "failed":
            out.append(("warn", "the hook: its proof stopped (out of memory?)"))
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
    if switch == "hook":
        return room.hook  # "without the hook" is a proof of hook rooms only
    return True


def prove(text: str, path: str = "room.txt", max_states: int = MAX_STATES, full: bool = True,
          hook: bool = True):
    """Yield the :class:`Proofs` of the level file ``text``, more of them each time.

    ``full=False`` stops at the first answer (solvable and its par, or not);
    ``hook=False`` leaves the hook's search out (:func:`prove_hook` does it
    apart): the last answer is then ``done`` with the hook's line pending.
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
        from anabasis.app.play.explain import why_impossible

        yield Proofs("impossible", states=found.states, done=True, max_states=max_states,
                     reason=why_impossible(room))
        return
    proofs = Proofs("solved", moves=found.moves, states=found.states, max_states=max_states,
                    hook_room=room.hook)
    # the rules a room does not use cost nothing; the cheap searches go first
    without = {s: "n/a" for s in NEEDS if not applies(room, s)}
    proofs = replace(proofs, without=dict(without), done=not full)
    yield proofs
    if not full:
        return
    # in a hook room the hook's worker has no hook to compare: it takes these instead
    apart = APART if room.hook and not hook else ()
    for switch in ("crates", "ramps", "wrap", "gravity-w", "hook"):
        if switch in without or switch in apart:
            continue
        result = solver.solve(room, without=(switch,), max_states=max_states)
        without[switch] = result.status
        proofs = replace(proofs, without=dict(without),
                         without_states={**proofs.without_states, switch: result.states})
        yield proofs
    from anabasis.app.play.explain import COUNT_FROM, COUNT_STATES, count_shortest

    if found.states <= COUNT_FROM:  # a bigger room's count would cost more than its proofs
        proofs = replace(proofs, shortest=count_shortest(room, proofs.par,
                                                         min(max_states, COUNT_STATES)))
        yield proofs
    if not hook:
        yield replace(proofs, done=True)
        return
    yield with_hook(proofs, *prove_hook(text, path, max_states))


#: In a hook room, the rules the hook's worker proves (beside the par's search, which is
#: the hook's already): ``needs: hook`` (the plain search) and the ramps, the largest
#: searches after the par's, so that the two workers end about together.
APART = ("hook", "ramps")


def prove_hook(text: str, path: str = "room.txt",
               max_states: int = MAX_STATES) -> tuple:
    """The hook's search on the level file ``text``: its status and shortest solution's length.

    The status is the solver's (``"solved"``, ``"impossible"``, ``"gave-up"``),
    or ``"refused"`` for a text that is not a room.  A hook room has no hook
    to compare (its par has it): ``"hook-room"``, and then the searches with
    the rules of :data:`APART` switched off, as ``{rule: status}`` and
    ``{rule: states}``.
    """
    from anabasis.engine import solver
    from anabasis.formats import levelfile

    try:
        room = levelfile.parse(text, path)
    except levelfile.LevelError:
        return "refused", None
    if room.hook:  # the par is the hook's search already: the rules apart instead
        without, states = {}, {}
        for switch in APART:
            if applies(room, switch):
                result = solver.solve(room, without=(switch,), max_states=max_states)
                without[switch], states[switch] = result.status, result.states
        return "hook-room", None, without, states
    hooked = solver.solve(room, hook=True, max_states=max_states)
    return hooked.status, len(hooked.moves) if hooked.moves is not None else None


def with_hook(proofs: Proofs, status: str, length: int | None, without: dict | None = None,
              states: dict | None = None) -> Proofs:
    """``proofs`` (the last of :func:`prove` without the hook) with the hook's answer in
    (a hook room's: the searches of :data:`APART` too)."""
    if status == "failed" and proofs.hook_room:  # its worker died: those proofs unknown
        without = {s: "gave-up" for s in APART if s not in proofs.without}
    if without:
        proofs = replace(proofs, without={**proofs.without, **without},
                         without_states={**proofs.without_states, **(states or {})})
    return replace(proofs, hook=length, hook_status=status, done=True)


# -- the worker ----------------------------------------------------------------------------


def _nice(by: int = NICE) -> None:
    """Run this worker only on time the game leaves over: Linux's idle class where there
    is one (a frame's threads then take a core from it at once), else ``nice`` ``by``."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    except (AttributeError, OSError):
        pass
    try:
        os.nice(by)
    except (AttributeError, OSError):
        pass


def _work(conn, text: str, path: str, max_states: int, full: bool = True,
          hook: bool = True) -> None:
    """The worker process: send each :class:`Proofs` as it comes, then end."""
    _nice()
    try:
        for proofs in prove(text, path, max_states, full, hook):
            conn.send(proofs)
    except Exception as e:  # a bug must not leave the panel spinning for ever
        conn.send(Proofs("refused", refusal=f"the proofs failed: {e}", done=True))
    finally:
        conn.close()


def _work_hook(conn, text: str, path: str, max_states: int) -> None:
    """The hook's worker process: send :func:`prove_hook`'s answer, then end."""
    _nice(HOOK_NICE)
    try:
        conn.send(prove_hook(text, path, max_states))
    except Exception:
        conn.send(("failed", None))
    finally:
        conn.close()


def close_all() -> None:
    """Stop every prover's worker (the window is closing)."""
    workers.close_kept()


class Prover:
    """Proves one draft at a time in worker processes; a new draft stops the last.

    Call :meth:`start` after each edit and :meth:`poll` once a frame;
    :attr:`proofs` is the latest answer (``status == "proving"`` until the
    first comes), :attr:`busy` whether a worker is still at it.  The hook's
    search runs in a worker of its own beside the others' (it is the
    longest: on two cores the panel is done when it is), and its answer is
    merged into :attr:`proofs` once the rest is known.

    Starting a worker waits on the fork server for a few milliseconds (up to
    ten on a busy machine), too long for the frame that made the edit: the
    workers are started on a thread of their own, and :meth:`poll` takes
    them on.  Everything else happens on the caller's thread.  With
    ``start(..., launch=False)`` that thread waits for :meth:`launch`, which
    the editor calls once the edit's frame is shown (``App.after_frame``).
    """

    def __init__(self, max_states: int = MAX_STATES):
        self.max_states = max_states
        self.proofs = Proofs(max_states=max_states)
        self.text: str | None = None  #: the level text being (or last) proved
        self.started = 0.0  #: time.perf_counter() at the last start
        self.finished: float | None = None  #: ... and when its last answer came
        self.cancelled = 0  #: drafts whose proofs were stopped by a newer draft
        self._proc = self._conn = None  #: the worker for all but the hook
        self._hook_proc = self._hook_conn = None  #: the hook's worker
        self._main = self.proofs  #: the main worker's latest answer
        self._hook: tuple[str, int | None] | None = None  #: the hook's answer, once it came
        self._full = True  #: whether the hook is being proved too
        self._draft = 0  #: the number of the draft being proved
        self._launching = False  #: its workers are being started
        self._launched: queue.SimpleQueue = queue.SimpleQueue()  #: (draft number, workers)
        self._threads: list[threading.Thread] = []
        self._pending: threading.Thread | None = None  #: a start waiting for launch()
        self._dying: list = []
        #: the last workers started, (draft number, process), for the tests to look at
        self.started_workers: deque = deque(maxlen=16)
        workers.keep(self)

    @property
    def busy(self) -> bool:
        return self._launching or self._proc is not None or self._hook_proc is not None

    def start(self, text: str, path: str = "room.txt", full: bool = True,
              launch: bool = True) -> None:
        """Prove the level file ``text`` (stopping whatever is being proved); ``full=False``:
        only its first answer (solvable and its par, or not); ``launch=False``: its workers
        start at :meth:`launch` (meanwhile :attr:`busy`, and proving)."""
        if text == self.text and (self.busy or self.proofs.done):
            return
        self.stop()
        self.text = text
        self.proofs = self._main = Proofs(max_states=self.max_states)
        self._hook = None
        self._full = full
        self.started = time.perf_counter()
        self.finished = None
        ctx = workers.proof_context()
        jobs = [(_work, (text, path, self.max_states, full, False))]
        if full:
            jobs.append((_work_hook, (text, path, self.max_states)))
        self._launching = True
        self._pending = threading.Thread(target=self._launch, args=(ctx, self._draft, jobs),
                                         daemon=True, name="anabasis-proofs-start")
        if launch:
            self.launch()

    def launch(self) -> None:
        """Start the workers of a :meth:`start` made with ``launch=False``; else nothing."""
        thread, self._pending = self._pending, None
        if thread is not None:
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
            thread.start()

    def _launch(self, ctx, draft: int, jobs) -> None:
        """On the starting thread: start the workers, and hand them over (even if one fails)."""
        from anabasis.gen.pool import main_not_rerun

        workers = []
        try:
            for target, args in jobs:
                receive, send = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=target, args=(send, *args), daemon=True,
                                   name="anabasis-proofs")
                with main_not_rerun():  # spawn's children import the parent's script
                    proc.start()
                send.close()  # the worker holds the sending end; its end closes the pipe
                workers.append((proc, receive))
        except Exception as e:
            workers.append(e)
        self._launched.put((draft, workers))

    def _take_launched(self) -> bool:
        """Take on the workers started for this draft, stop those started for an older one;
        True when the proofs changed (no worker could be started)."""
        changed = False
        while True:
            try:
                draft, workers = self._launched.get_nowait()
            except queue.Empty:
                return changed
            failed = [w for w in workers if isinstance(w, Exception)]
            workers = [w for w in workers if not isinstance(w, Exception)]
            self.started_workers.extend((draft, proc) for proc, _ in workers)
            if draft != self._draft or failed:
                for proc, conn in workers:
                    self._retire(proc, conn, kill=True)
                if draft == self._draft:  # no worker could be started: say so, never spin
                    self._launching = False
                    self._main = self.proofs = Proofs(
                        "refused", refusal=f"the proofs could not start: {failed[0]}",
                        done=True)
                    changed = True
                continue
            self._launching = False
            (self._proc, self._conn), *hook = workers
            if hook:
                self._hook_proc, self._hook_conn = hook[0]

    def stop(self) -> None:
        """Stop the workers, if any is proving (their processes are ended, not waited for)."""
        self._take_launched()
        stopped = self._launching
        for proc, conn in ((self._proc, self._conn), (self._hook_proc, self._hook_conn)):
            if proc is not None:
                stopped |= self._retire(proc, conn, kill=True)
        self.cancelled += stopped
        self._draft += 1  # workers still starting for the last draft are stopped once started
        self._pending = None  # ... and those not started yet never are
        self._launching = False
        self._proc = self._conn = self._hook_proc = self._hook_conn = None

    def _retire(self, proc, conn, kill: bool = False) -> bool:
        """Done with a worker: its pipe closed, it reaped later; ``kill``: ended first if it
        is still at it.  True when it was."""
        killed = kill and proc.is_alive()
        if killed:
            proc.terminate()
        conn.close()
        self._dying.append(proc)
        return killed

    def _end_main(self) -> None:
        self._retire(self._proc, self._conn)
        self._proc = self._conn = None

    def _end_hook(self, kill: bool = False) -> None:
        # kill: its answer is of no use, the room is not solvable
        self._retire(self._hook_proc, self._hook_conn, kill)
        self._hook_proc = self._hook_conn = None

    def poll(self) -> bool:
        """Take in what the workers have sent; True when the proofs changed."""
        self._reap()
        changed = self._take_launched()
        if self._conn is not None:
            try:
                while self._conn.poll():
                    self._main = self._conn.recv()
                    changed = True
            except (EOFError, OSError):
                # the worker ended without its last answer (killed from outside, out of memory)
                if not self._main.done:
                    self._main = Proofs("refused", refusal="the proofs stopped (out of memory?)",
                                        done=True)
                    changed = True
            if self._main.done:
                self._end_main()
        if self._hook_conn is not None:
            try:
                if self._hook_conn.poll():
                    self._hook = self._hook_conn.recv()
                    changed = True
            except (EOFError, OSError):
                self._hook = ("failed", None)
                changed = True
            if self._hook is not None:
                self._end_hook()
            elif self._main.done and self._main.status != "solved":
                self._end_hook(kill=True)
        if changed:
            self.proofs = self._merged()
        if not self.busy and self.finished is None and self.proofs.done:
            self.finished = time.perf_counter()
        return changed

    def _merged(self) -> Proofs:
        """The main worker's latest answer, with the hook's in once both are known."""
        main = self._main
        if not self._full or main.status != "solved" or not main.done or main.hook_status:
            return main  # not solvable (the hook's line is never shown), or proved whole
        if self._hook is None:
            return replace(main, done=False)
        return with_hook(main, *self._hook)

    def launched(self, timeout: float = 10.0):
        """Wait until this draft's workers are started; the main one (tests)."""
        self.launch()
        end = time.perf_counter() + timeout
        while self._launching and time.perf_counter() < end:
            time.sleep(0.001)
            self._take_launched()
        return self._proc

    def wait(self, timeout: float = 60.0) -> Proofs:
        """Block until the proofs are done (tests and the bench; never the frame loop)."""
        self.launch()
        end = time.perf_counter() + timeout
        while self.busy and time.perf_counter() < end:
            conn = self._conn or self._hook_conn
            if conn is None:
                time.sleep(0.001)
            else:
                conn.poll(0.005)
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
        """Stop the workers and wait for the stopped ones (at the window's close)."""
        self.stop()
        for thread in self._threads:
            thread.join(5.0)
        self._threads = []
        self.stop()  # workers started since: stopped too
        for proc in self._dying:
            proc.join(1.0)
            if proc.exitcode is None:
                proc.kill()
                proc.join(1.0)
        self._dying = []
