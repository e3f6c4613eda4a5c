"""Every thread and process the game runs work in, off the frame loop, and their stopping.

- :func:`thread_pool`: a loop's one worker thread (``Loop.work``: hints'
  quick searches, the demo's solution);
- :func:`apart`: one spawned worker process, reused (hints past the quick
  search: the solver is pure Python, and a long search in a thread would
  hold the GIL against the frame loop);
- :func:`proof_context`: the fork server the proofs' worker processes are
  forked from (a clean process with the engine imported), and :func:`keep`,
  which notes an owner of such workers so that :func:`shutdown` stops it;
- the generator's own pool is ``anabasis.gen.pool``'s (below the game).

:func:`shutdown` stops them all, when the window closes.  Spawn or a fork
server, never a plain fork: the game's process holds a GL context and threads.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import weakref
from concurrent.futures import Future, ThreadPoolExecutor

_apart_pool = None
_apart_lock = threading.Lock()
_context = None
_kept: weakref.WeakSet = weakref.WeakSet()  #: owners of worker processes (``close()``)
#: what the proofs' fork server imports before it forks a worker
PROOF_PRELOAD = ["anabasis.app.play.proofs", "anabasis.engine.solver",
                 "anabasis.formats.levelfile"]


def thread_pool() -> ThreadPoolExecutor:
    """A new pool of one worker thread (a loop makes its own, and shuts it down)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="anabasis-work")


def apart(fn, /, *args, **kw) -> Future:
    """Run ``fn`` in the worker process (spawned at the first call, then reused)."""
    global _apart_pool
    with _apart_lock:
        if _apart_pool is None:
            from concurrent.futures import ProcessPoolExecutor

            from anabasis.gen.pool import _worker_ignores_interrupts

            # Ctrl-C exits the game 130: the worker prints no traceback of its own
            _apart_pool = ProcessPoolExecutor(max_workers=1,
                                              mp_context=multiprocessing.get_context("spawn"),
                                              initializer=_worker_ignores_interrupts)
        from anabasis.gen.pool import main_not_rerun  # the generator's worker has the same need

        with main_not_rerun():  # the pool starts its process inside submit
            return _apart_pool.submit(fn, *args, **kw)


def stop_apart() -> None:
    """End the :func:`apart` process, if one was started."""
    global _apart_pool
    with _apart_lock:
        if _apart_pool is not None:
            _apart_pool.shutdown(wait=False, cancel_futures=True)
            _apart_pool = None


def proof_context():
    """A fork server's context (a clean process with the engine loaded), else spawn's.

    The fork server is started here, on the calling thread (the first call
    costs some 70 ms): the workers are then started from another thread,
    which must not be the one to start the server (see
    :func:`~anabasis.gen.pool.main_not_rerun`).
    """
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            from multiprocessing import forkserver

            from anabasis.gen.pool import main_not_rerun

            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(PROOF_PRELOAD)
            with main_not_rerun():
                forkserver.ensure_running()
        else:  # Windows: no fork at all
            ctx = multiprocessing.get_context("spawn")
        _context = ctx
    return _context


def keep(owner) -> None:
    """Note ``owner`` (it has a ``close()`` that stops its workers) for :func:`shutdown`."""
    _kept.add(owner)


def close_kept() -> None:
    """Stop every kept owner's workers (the proofs' provers)."""
    for owner in list(_kept):
        owner.close()


def shutdown() -> None:
    """Stop every worker process the game started: the window is closing."""
    close_kept()
    if "anabasis.gen" in sys.modules:
        try:
            from anabasis import gen

            gen.shutdown()
        except Exception:
            pass
    stop_apart()
