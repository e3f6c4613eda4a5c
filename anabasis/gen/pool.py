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
    """Keep a spawned or forked worker from running the parent's ``__main__`` again.

    A spawned process re-imports the script the parent was started with, so an
    unguarded script, or stdin, would be run again in the worker: a second game window,
    or a crash.  Run as ``python -m``, it is the module named that each worker imports
    again (a fork server's too, each child in turn), at the parent's priority and before
    its work: whatever that module does at import, done once per worker.
    The workers need only the package, so while one starts (or the fork server that forks
    them) the script's path and the module's name are hidden from :mod:`multiprocessing`.
    The generator's, the hints' and the editor's proofs' workers all use it.
    """
    main = sys.modules.get("__main__")
    hidden = {name: getattr(main, name) for name in ("__file__", "__spec__")
              if getattr(main, name, None) is not None}
    if not hidden:
        yield
        return
    main.__spec__ = None  # what multiprocessing reads the module's name from
    if "__file__" in hidden:
        del main.__file__
    try:
        yield
    finally:
        for name, value in hidden.items():
            setattr(main, name, value)


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
