"""A virtual X display (Xvfb) for the window's tests and the startup bench.

Only used where there is no display: it starts ``Xvfb`` on a free display
number (Xvfb picks it and reports it through ``-displayfd`` once it is
ready to take clients, so there is no sleep-and-hope) and says which.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


def available() -> bool:
    return shutil.which("Xvfb") is not None


def start(size: str = "1280x720x24", timeout: float = 10.0) -> tuple[subprocess.Popen, str]:
    """Start Xvfb; ``(process, ":N")``.  Raises RuntimeError if it does not come up."""
    exe = shutil.which("Xvfb")
    if exe is None:
        raise RuntimeError("Xvfb is not installed")
    read, write = os.pipe()
    try:
        proc = subprocess.Popen(
            [exe, "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp",
             "+extension", "GLX", "-noreset"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        os.close(write)
    import select

    number = b""
    try:
        while True:
            ready, _, _ = select.select([read], [], [], timeout)
            if not ready:
                raise RuntimeError("Xvfb did not report a display in time")
            chunk = os.read(read, 64)
            if not chunk:
                raise RuntimeError("Xvfb exited before it was ready")
            number += chunk
            if number.endswith(b"\n"):
                break
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        os.close(read)
    return proc, f":{int(number.strip())}"


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def display_for(env: dict) -> Iterator[dict | None]:
    """``env`` with a display: its own ``DISPLAY``, or a fresh Xvfb's for the block.

    Yields None where there is neither (no ``DISPLAY`` and no Xvfb installed).
    """
    if env.get("DISPLAY"):
        yield env
        return
    if not available():
        yield None
        return
    proc, name = start()
    try:
        yield {**env, "DISPLAY": name}
    finally:
        stop(proc)
