"""Ray, for the runs that spread over a cluster (docs/simulation.md "Ray"): connecting with a
bounded wait. Imported only when a run asks for Ray.
"""

from __future__ import annotations

import _thread
import logging
import os
import socket
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["RAY_TIMEOUT", "RayConnectionError", "ray_init"]

#: Default seconds to wait for a Ray cluster (``ray_timeout``, ``daguai --ray-timeout``).
RAY_TIMEOUT = 30.0


class RayConnectionError(ConnectionError):
    """The Ray cluster could not be reached or did not answer within ``ray_timeout``."""


def _probe(address: str, timeout: float) -> None:
    """Fail fast when nothing listens at ``HOST:PORT`` (Ray itself would retry for ever)."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return  # "auto", "ray://..." and the like: left to Ray
    host = host.strip("[]") or "127.0.0.1"
    try:
        socket.create_connection((host, int(port)), timeout=min(timeout, 10.0)).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise RayConnectionError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def ray_init(address: str | None, timeout: float = RAY_TIMEOUT, quiet: bool = False,
              on_timeout: Callable[[str], Any] | None = None) -> Any:
    """Import Ray and connect: to ``address``, else (not yet initialized) a local instance.

    Raises :class:`RayConnectionError` when the cluster is not reached within ``timeout``
    seconds: a TCP probe first, then a watchdog around ``ray.init`` that interrupts it (this
    takes effect when Ray's C++ client returns to Python, which may take longer; the command
    line passes ``on_timeout``, called from the watchdog thread with the message, to exit
    at once)."""
    try:
        import ray
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'daguai[ray]' (or pip install ray)") from None
    if ray.is_initialized():
        return ray
    level = logging.ERROR if quiet else logging.WARNING
    if quiet:  # Ray's own start-up warnings (token authentication, SIGTERM handler)
        logging.getLogger("ray").setLevel(logging.ERROR)
    target = address or os.environ.get("RAY_ADDRESS")
    if target:
        _probe(target, timeout)
    message = (f"Ray did not start or connect to {target or 'a local instance'} within "
               f"{timeout:g} s (ray_timeout / --ray-timeout)")
    timer = threading.Timer(timeout, _thread.interrupt_main if on_timeout is None else
                            (lambda: on_timeout(message)))
    timer.daemon = True
    timer.start()
    try:
        if target is None:
            ray.init(include_dashboard=False, logging_level=level)
        else:
            ray.init(address=address, logging_level=level)
    except KeyboardInterrupt:
        if timer.is_alive():  # a real Ctrl-C
            raise
        raise RayConnectionError(message) from None
    except ConnectionError as exc:
        raise RayConnectionError(" ".join(str(exc).split())) from None
    except Exception as exc:
        # Ray's refusals that are not ConnectionErrors: token authentication on (RAY_AUTH_MODE)
        # with no token found raises ray.exceptions.AuthenticationError before any connection
        refused = getattr(getattr(ray, "exceptions", None), "AuthenticationError", None)
        if refused is None or not isinstance(exc, refused):
            raise
        raise RayConnectionError(
            f"cannot connect to the Ray cluster at {target or 'a local instance'}: token "
            "authentication is on and no token was found (~/.ray/auth_token, RAY_AUTH_TOKEN_PATH "
            "or RAY_AUTH_TOKEN; `ray get-auth-token --generate` makes one)") from None
    finally:
        timer.cancel()
    return ray
