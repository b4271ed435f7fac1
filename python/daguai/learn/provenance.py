"""What made a run's data: the code's commit, and which network file each policy plays over
with its digest, which a resumable run records so that it never mixes the decisions of two
networks under one policy name.

A policy name reads a network when it is a model (``learned``, a ``.dgn`` path), a search over
a model (``expert``, ``expert@path/to/model.dgn``) or a search whose inference reads the
learned network (``pimc24_inf_learned``); ``learned`` names the shipped network of the game's
table (R18), which changes whenever a new generation is shipped.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from .. import _core
from ..dgn import SHIPPED_MODELS, ModelError, read_model_file

__all__ = ["code_commit", "model_file", "network_change", "network_digests"]


def code_commit() -> str:
    """The git commit of the code that runs (with "-dirty" when tracked files differ from it), or
    "unknown" outside a checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True,
                             timeout=10, check=False)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if out.returncode != 0:
        return "unknown"
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def model_file(policy: str, table: str) -> Path | None:
    """The file of the network ``policy`` reads at ``table`` (``"6p3d"`` or ``"4p2d"``), or None
    for a policy that reads none. The shipped network of a table without its own is the 6p3d
    one, as the engine plays it (cpp/engine/learned/models.hpp)."""
    if table not in SHIPPED_MODELS:
        raise ValueError(f"table must be one of {', '.join(SHIPPED_MODELS)}, got {table!r}")
    if "@" in policy:
        return Path(policy.split("@", 1)[1])
    if policy.endswith(".dgn"):
        return Path(policy)
    model = {e["name"]: e["model"] for e in _core.catalog.policy_entries()}.get(policy)
    if model is None:
        return None
    own = SHIPPED_MODELS[table]
    return own if own.is_file() else SHIPPED_MODELS["6p3d"]


def network_digests(policies: dict[str, str], table: str) -> dict[str, str | None]:
    """For each role's policy name (``{"teacher": "expert", ...}``), the SHA-256 of the network
    file it reads at ``table`` (None: it reads none). The file is read as the engine would read
    it (:func:`daguai.dgn.read_model_file`: a regular file of a model's size, checked before it
    is read), so a missing file, a folder, a FIFO or ``/dev/zero`` raises ``ModelError`` (a
    ``ValueError``) naming the role and the path, before any unbounded read."""
    out: dict[str, str | None] = {}
    for role, policy in policies.items():
        path = model_file(policy, table)
        if path is None:
            out[role] = None
            continue
        try:
            data = read_model_file(path)
        except ModelError as exc:
            raise ModelError(f"the {role} {policy!r} reads a network that cannot be read: {exc}") from None
        out[role] = hashlib.sha256(data).hexdigest()
    return out


def network_change(recorded: dict[str, str | None], now: dict[str, str | None],
                   policies: dict[str, str]) -> str | None:
    """How ``now`` differs from ``recorded`` (both from :func:`network_digests`), in words, or
    None when they are the same networks."""
    for role in sorted(set(recorded) | set(now)):
        old, new = recorded.get(role), now.get(role)
        if old != new:
            return (f"the {role} {policies.get(role, '?')!r} read {_network_words(old)}, and now "
                    f"reads {_network_words(new)}")
    return None


def _network_words(digest: str | None) -> str:
    return "no network" if digest is None else f"the network of SHA-256 {digest[:16]}"
