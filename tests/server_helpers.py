"""Run ``daguai serve`` as a child process on 127.0.0.1 for the loopback tests and benchmarks."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def remote_bot() -> ModuleType:
    """The example remote bot (:mod:`daguai.bot`, which examples/remote_bot.py runs)."""
    import daguai.bot

    return daguai.bot


class ServerProcess:
    """``python -m daguai serve`` on a free loopback port, stopped by ``stop``/``kill``."""

    def __init__(self, db: str, port: int | None = None, rate: int = 1000,
                 log_level: str = "warning") -> None:
        # "warning" by default: the output is read only at the end, and a pipe nobody reads
        # would block a server logging every request once it holds 64 KiB
        self.db, self.port = db, port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daguai", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", db, "--rate", str(rate), "--log-level", log_level],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"daguai serve exited: {self.proc.stdout.read() if self.proc.stdout else ''}"
                )
            try:
                httpx.get(self.base + "/api/tables", timeout=1.0)
                return
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError("daguai serve did not start within 60 s") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no cleanup at all (the crash the checkpoints are for)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdout:
            self.proc.stdout.close()

    def stop(self) -> str:
        """Terminate the server; what it printed (stdout and stderr)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        out = ""
        if self.proc.stdout and not self.proc.stdout.closed:  # kill() closes it
            out = self.proc.stdout.read()
            self.proc.stdout.close()
        return out
