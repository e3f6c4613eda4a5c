"""``anabasis bench`` idle section: what the game costs while nobody touches it.

Each figure is a fresh ``python -m anabasis`` left alone: after
:data:`SETTLE_S` seconds (the launcher compiles the ray tracer's variants
in its first idle frames, some 5 s with a cold Mesa cache) the process's
own CPU time (user and system, from ``/proc``) is read over
:data:`MEASURE_S` seconds, as a percentage of one core.  A scene that
draws nothing new draws nothing at all, so both should sit near the cost of
the loop's paced wake-ups alone.  Where there is no display, an Xvfb is
started for the bench; where there is no ``/proc`` (not Linux), the
section says so and yields nothing.

- ``idle.launcher_cpu_pct``: ``anabasis``, the launcher;
- ``idle.level_cpu_pct``: ``anabasis --level 1``, a room standing still.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

SETTLE_S = 6.0
MEASURE_S = 4.0


def _cpu_s(pid: int) -> float:
    """The CPU seconds (user + system) process ``pid`` has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu_pct(args: list[str], env: dict) -> float:
    """One run left idle: its CPU use over :data:`MEASURE_S`, in % of one core."""
    proc = subprocess.Popen([sys.executable, "-m", "anabasis", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(SETTLE_S)
        if proc.poll() is not None:
            raise RuntimeError(f"the game exited: {proc.stderr.read().strip()[-300:]}")
        t0, c0 = time.monotonic(), _cpu_s(proc.pid)
        time.sleep(MEASURE_S)
        t1, c1 = time.monotonic(), _cpu_s(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
    return 100.0 * (c1 - c0) / (t1 - t0)


def bench():
    """Yield ``(name, value)`` figures for ``anabasis bench``."""
    from anabasis.bench import xvfb

    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        print("idle: skipped (no /proc to read a process's CPU time from)", file=sys.stderr)
        return
    with xvfb.display_for(dict(os.environ)) as env, tempfile.TemporaryDirectory() as data:
        if env is None:
            print("idle: skipped (no DISPLAY and no Xvfb)", file=sys.stderr)
            return
        env.update(ANABASIS_DATA_DIR=data, PYGAME_HIDE_SUPPORT_PROMPT="1",
                   SDL_AUDIODRIVER=env.get("SDL_AUDIODRIVER", "dummy"))
        for name, args in (("idle.launcher_cpu_pct", []),
                           ("idle.level_cpu_pct", ["--level", "1"])):
            yield name, idle_cpu_pct(args, env)


if __name__ == "__main__":
    for name, value in bench():
        print(f"{name}: {value:.4g}")
