"""Building off the game's thread: one worker process (or thread), reused.

The generator is pure Python, so a thread would hold the GIL against the
frame loop: by default rooms build in one spawned worker process.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import sys
import threading

from anabasis.gen.builder import build
from anabasis.gen.seeds import check

# -- building off the main thread ---------------------------------------------------------

_pool: concurrent.futures.Executor | None = None
_pool_lock = threading.Lock()


def _executor(processes: bool) -> concurrent.futures.Executor:
    global _pool
    with _pool_lock:
        if _pool is None:
            if processes:
                import multiprocessing

                # spawn, not fork: the game's process holds a GL context and threads
                _pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_ignores_interrupts)
            else:
                _pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="anabasis-gen")
        return _pool


def _worker_ignores_interrupts() -> None:
    """Ctrl-C reaches the whole process group: the game exits 130, and its worker
    must not print a traceback of its own on the way out."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def main_not_rerun():
    """Keep a spawned worker from running the parent's ``__main__`` script again.

    A spawned process re-imports the script the parent was started with
    (unless it was ``python -m``), so an unguarded script, or stdin, would
    be run again in the worker: a second game window, or a crash.  The
    workers need only the package, so while one starts (or the fork server
    that forks them) the script's path is hidden from :mod:`multiprocessing`.
    The generator's, the hints' and the editor's proofs' workers all use it.
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None or not hasattr(
            main, "__file__"):
        yield
        return
    saved = main.__file__
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = saved


def build_async(tier: str, seed: int, *, processes: bool = True) -> concurrent.futures.Future:
    """Start :func:`build` off the calling thread; a Future of the :class:`Made`.

    By default the room builds in one worker *process* (spawned once, then
    reused), because the generator is pure Python and a thread would hold
    the GIL against the frame loop; the first call pays for the spawn and
    the imports (a few hundred ms), later ones only the build.  With
    ``processes=False`` it builds in a worker thread instead (no spawn, but
    the frame loop shares the GIL with it).  The first call decides which;
    :func:`shutdown` ends the worker.  Poll ``future.done()`` each frame.
    """
    check(tier, seed)  # here, not in the worker: a bad spec fails at once
    executor = _executor(processes)
    with main_not_rerun():  # a process pool starts its worker inside submit
        return executor.submit(build, tier, seed)


def shutdown() -> None:
    """End the worker started by :func:`build_async`, if any."""
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
