"""A Ray head on 127.0.0.1 for the tests that drive a real cluster (one CPU, its own process
group, stopped with everything it started when the block ends). Used by the docs' cluster
recipe test and the labeller's test."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ray_cli(folder: Path, env: dict[str, str], *args: str) -> None:
    """Run the ``ray`` command line with ``args`` (this Python's Ray) in ``folder``; raise if it
    fails."""
    subprocess.run([sys.executable, "-m", "ray.scripts.scripts", *args], cwd=folder, env=env,
                   capture_output=True, check=True, timeout=120)


def token_env(folder: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` with Ray's token authentication on and a token of its own: HOME in ``folder``
    (Ray reads ``~/.ray/auth_token``), the token generated there, so neither the user's home
    nor a token left by an earlier run is used. Without a token file, ``RAY_AUTH_MODE=token``
    stops the head ("no authentication token was found")."""
    env = {**env, "HOME": str(folder), "RAY_AUTH_MODE": "token"}
    ray_cli(folder, env, "get-auth-token", "--generate")
    return env


@contextmanager
def loopback_head(folder: Path, env: dict[str, str], head_args: list[str] | None = None,
                  port: int | None = None) -> Iterator[int]:
    """Start ``ray start --head`` (``head_args``, default ``--head --port=PORT``) on 127.0.0.1
    with one CPU; yield its port once it answers (skip the test if it does not within 120 s);
    kill its whole process group at the end."""
    port = free_port() if port is None else port
    args = head_args or ["start", "--head", f"--port={port}"]
    ray_dir = tempfile.mkdtemp(prefix="dgray")  # short: Ray's socket paths have a length limit
    log_path = folder / "head.log"
    with open(log_path, "w") as log:
        head = subprocess.Popen([sys.executable, "-m", "ray.scripts.scripts", *args, "--num-cpus=1",
                                 "--include-dashboard=false", "--block", f"--temp-dir={ray_dir}"],
                                cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or head.poll() is not None:
                        pytest.skip(f"the Ray head did not start on 127.0.0.1 within 120 s: "
                                    f"{log_path.read_text()[-500:]}")
                    time.sleep(1)
            yield port
        finally:
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
                try:
                    os.killpg(head.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    head.wait(timeout=wait)
                except subprocess.TimeoutExpired:
                    continue
            # the whole group (gcs_server, raylet, ...) goes with SIGKILL, even if the head exited
            try:
                os.killpg(head.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            shutil.rmtree(ray_dir, ignore_errors=True)
