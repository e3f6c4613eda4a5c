"""``python -m anabasis``, and the ``anabasis`` command's entry point (:func:`run`).

Nothing of the game is imported before the ``try``: the command line, the
engine and pygame load inside it, so Ctrl-C in the first moments (while
they load) exits 130 quietly like Ctrl-C later on.  From then on until the
interpreter ends (the last flush) an interrupt is ignored, so no traceback
can follow the exit code either.
"""

import sys

#: The exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def run() -> int:
    """Run the command line; its exit code, or 130 on Ctrl-C at any moment."""
    try:
        from anabasis import cli

        code = cli.main()
    except KeyboardInterrupt:
        code = INTERRUPTED
    _ignore_interrupts()
    return code


def _ignore_interrupts() -> None:
    try:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ImportError, ValueError, OSError):  # not the main thread, or no signals here
        pass


if __name__ == "__main__":
    sys.exit(run())
