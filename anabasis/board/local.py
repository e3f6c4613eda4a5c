"""Boards run here, for the tests and the bench: a throwaway PostgreSQL cluster, and
``anabasis serve`` as a real process on a loopback port.

Nothing here is used by a deployed server.  A cluster lives in a folder of
its own, listens on 127.0.0.1 only, and goes when stopped.  PostgreSQL
will not run as root: as root, the cluster runs as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path | None:
    """The folder holding PostgreSQL's ``initdb`` and ``pg_ctl``, if there is one."""
    env = os.environ.get("ANABASIS_PG_BIN")
    if env:
        return Path(env)
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent  # /usr/local/bin/initdb may be a link
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parent.parent.name)
                      if Path(p).parent.parent.name.isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


class Cluster:
    """A PostgreSQL cluster of our own: ``start()`` gives its URL; ``stop()``, ``start()``
    again restart it; ``remove()`` stops it and deletes its folder."""

    def __init__(self, bin_dir: Path | None = None):
        self.bin = bin_dir or pg_bin()
        if self.bin is None:
            raise RuntimeError("no PostgreSQL here (no initdb)")
        self.root = Path(tempfile.mkdtemp(prefix="anabasis-pg-"))
        os.chmod(self.root, 0o755)
        self.data = self.root / "data"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0
        self._made = False

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> str:
        """Start the cluster (made on first start); the URL of its ``board`` database."""
        if not self._made:
            self.data.mkdir(mode=0o700)
            if self.as_postgres:
                shutil.chown(self.data, "postgres", "postgres")
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust",
                      "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 "
                   "-c max_connections=300 -c shared_buffers=64MB")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.data / "log.txt"), "-w", "-t", "60", "start")
        if not self._made:
            self._made = True
            fresh_database(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", "board")
        return self.url

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/board"

    def postmaster_pid(self) -> int | None:
        """The running cluster's main process (its sessions are its children)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        """Stop it (fast: the open sessions are cut, as in a restart)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def remove(self) -> None:
        if self._made:
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def fresh_database(url: str, name: str) -> str:
    """Make database ``name`` on the PostgreSQL of ``url`` (dropped first if there): its URL."""
    import psycopg

    admin = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _old = admin.rpartition("/")
    return f"{base}/{name}"


def drop_database(url: str, name: str) -> None:
    import psycopg

    admin = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def listening(port: int) -> int | None:
    """How many TCP sockets listen on ``port`` (IPv4), from ``/proc/net/tcp``; None where
    there is none."""
    try:
        with open("/proc/net/tcp") as f:
            lines = f.readlines()[1:]
    except OSError:
        return None
    return sum(1 for line in lines if (fields := line.split())[3] == "0A"
               and int(fields[1].split(":")[1], 16) == port)


class Server:
    """``anabasis serve`` as a child process on 127.0.0.1: ``start()`` waits until its
    health answers; ``kill()`` sends SIGKILL; ``stop()`` ends it politely; ``log()``
    is what it has said on stderr (kept in a file: a pipe nobody reads would fill up
    and stop the server)."""

    def __init__(self, db: str, *, port: int | None = None, args: tuple[str, ...] = (),
                 env: dict | None = None):
        self.db = db
        self.port = port or free_port()
        self.args = args
        self.env = env
        self.proc: subprocess.Popen | None = None
        self._log = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: float = 60.0) -> Server:
        env = dict(os.environ, **(self.env or {}))
        if self._log is not None:
            self._log.close()
        self._log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "anabasis", "serve", "--db", self.db, "--host", "127.0.0.1",
             "--port", str(self.port), *self.args],
            env=env, stdout=subprocess.DEVNULL, stderr=self._log)
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                err = self.log()
                raise RuntimeError(f"anabasis serve exited {self.proc.returncode}: {err[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/v1/health", timeout=2) as r:
                    if json.loads(r.read()).get("ok"):
                        return self
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"anabasis serve did not answer in {wait} s")

    def wait_listening(self, count: int, wait: float = 60.0) -> None:
        """Wait until ``count`` sockets listen on the server's port (its workers, each on
        a socket of its own: ``serve --workers N`` on Linux), so that connections opened
        next are spread over all of them, not taken by the first to start.  Where there
        is no ``/proc/net/tcp`` it waits for nothing."""
        end = time.monotonic() + wait
        while (got := listening(self.port)) is not None and got < count:
            if time.monotonic() > end:
                raise RuntimeError(f"{got} of {count} workers listen after {wait} s")
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"anabasis serve exited {self.proc.returncode}")
            time.sleep(0.1)

    def log(self) -> str:
        """Everything the server has written to stderr so far."""
        if self._log is None:
            return ""
        fd = self._log.fileno()  # pread: the server shares the file's offset
        return os.pread(fd, os.fstat(fd).st_size, 0).decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would.  With ``--workers 1`` (the
        default) the server is this one process; with more, the workers are its children
        and outlive it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()
