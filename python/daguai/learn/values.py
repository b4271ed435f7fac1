"""A value network for the search's worlds (docs/learning.md "A value for the search's worlds").

The search plays its rollouts in sampled worlds, where every hand is known. This module makes
the data and the network that estimate, from such a perfect-information state, the round's
score change (R13) of a seat when every seat plays on as a model (``learned`` by default) does:

- **Positions** (``data``): round i is ``Game(seed, rules with max_rounds=1 and the table,
  game=i, start="random")`` (R17: it depends only on (seed, table, i)), every seat playing the
  model through ``PolicyRunner(model, seed, i, seat)``. Every ``every``-th play-phase decision
  (from an offset drawn from the round's stream) is kept once, for one seat drawn from the same
  stream: its world features (``_core.learned.world_features``, float16: small counts and
  fractions), the round's score change of that seat and its team's outcome (+1, 0, -1). A shard
  ``value-KKKKK.npz`` holds rounds K*N .. K*N+N-1 and its settings, written to a temporary
  name and renamed; a present shard of the same settings is kept (resumable), one of others or
  a damaged one raises ``ValueError`` naming the file.
- **The network** (``fit``): an MLP (ReLU) regressed on the score change by mean squared
  error; rounds with index = 0 (mod 10) are held out (a round's positions are never split).
  ``RUN/value.dgv`` (the engine's format, ``cpp/engine/learned/value.hpp``) is the epoch with
  the lowest held-out error; ``RUN/curve.json`` holds per epoch the train and held-out error
  and the held-out error of the mean (the baseline).
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..checks import check_int
from ..game import Game
from ..rules import Rules

WORLD_FEATURES = int(_core.learned.WORLD_FEATURES)
VALUE_VERSION = int(_core.learned.VALUE_VERSION)


def value_round(seed: int, i: int, model: str = "learned", table: str = "6p3d",
                every: int = 8) -> dict[str, np.ndarray]:
    """The kept positions of round ``i`` (see the module's docstring)."""
    every = check_int(every, "every", 1)
    g = Game(seed, Rules(table=table).replace(max_rounds=1), game=i, start="random")
    state = g.state
    seats = int(state.seats)
    rng = np.random.default_rng([seed, i, 0x7A1])
    next_kept = int(rng.integers(every))
    runners: dict[int, Any] = {}
    rows, chosen, ply = [], [], []
    decision = 0
    while not state.match_over:
        seat = int(state.current_player)
        if seat not in runners:
            runners[seat] = _core.run.PolicyRunner(model, seed, i, seat)
        if state.phase == "play":
            if decision == next_kept:
                s = int(rng.integers(seats))
                rows.append(_core.learned.world_features(state, s).astype(np.float16))
                chosen.append(s)
                ply.append(decision)
                next_kept += every
            decision += 1
        state.apply(runners[seat].act(state))
    result = state.results[-1]
    scores = result["scores"]
    winner = result["winner"] if result["forfeit"] is None and result["winner"] is not None else -1
    seat_arr = np.asarray(chosen, np.int8)
    return {
        "x": np.asarray(rows, np.float16).reshape(len(rows), WORLD_FEATURES),
        "seat": seat_arr,
        "y": np.asarray([scores[s] for s in chosen], np.float32),
        "outcome": np.asarray([0 if winner < 0 else (1 if winner == (s & 1) else -1) for s in chosen],
                              np.int8),
        "ply": np.asarray(ply, np.int32),
        "game": np.full(len(rows), i, np.int64),
    }


def _shard(folder: Path, k: int) -> Path:
    return folder / f"value-{k:05d}.npz"


def make_data(folder: str | os.PathLike[str], rounds: int, seed: int, *, model: str = "learned",
              table: str = "6p3d", every: int = 8, shard_rounds: int = 200, shard: int | None = None,
              shards: int = 1) -> list[Path]:
    """Writes the shards of rounds 0 .. rounds-1 that are missing (those with index = shard mod
    shards when ``shard`` is given, for a second process); returns every shard's path. A present
    shard of other settings (seed, table, every, model, rounds) raises ``ValueError`` naming it."""
    rounds, shard_rounds, every = (check_int(v, name, 1) for v, name in (
        (rounds, "rounds"), (shard_rounds, "shard_rounds"), (every, "every")))
    shards = check_int(shards, "shards", 1)
    if shard is not None:
        shard = check_int(shard, "shard", 0, shards - 1)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range((rounds + shard_rounds - 1) // shard_rounds):
        path = _shard(out, k)
        paths.append(path)
        games = range(k * shard_rounds, min(rounds, (k + 1) * shard_rounds))
        settings = {"seed": seed, "table": table, "every": every, "model": model,
                    "first": games[0], "last": games[-1]}
        if path.exists():
            _check_shard(path, settings)
            continue
        if shard is not None and k % shards != shard:
            continue
        parts = [value_round(seed, i, model, table, every) for i in games]
        merged = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, **merged, settings=np.array(json.dumps(settings, sort_keys=True)))
        os.replace(tmp, path)
    return paths


def _read_shard(path: Path, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The arrays ``names`` of a shard, read without pickles; a damaged file or one of another
    kind raises ``ValueError`` naming it (the file is closed on every way out)."""
    try:
        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
            return {n: z[n] for n in names}
    except Exception as exc:
        raise ValueError(f"{path}: not a readable value shard ({type(exc).__name__})") from None


def _check_shard(path: Path, settings: dict[str, Any]) -> None:
    try:
        stored = json.loads(str(_read_shard(path, ("settings",))["settings"]))
    except json.JSONDecodeError:
        raise ValueError(f"{path}: not a readable value shard (JSONDecodeError)") from None
    if stored != settings:
        raise ValueError(f"{path}: a shard of other settings ({stored}, this run: {settings})")


def load_data(folder: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """Every shard of a folder, concatenated (read without pickles)."""
    files = sorted(Path(folder).glob("value-[0-9][0-9][0-9][0-9][0-9].npz"))
    if not files:
        raise ValueError(f"{folder}: no value-KKKKK.npz shards")
    parts = []
    for f in files:
        part = _read_shard(f, ("x", "seat", "y", "outcome", "ply", "game"))
        k = len(part["y"])
        if part["x"].shape != (k, WORLD_FEATURES) or any(len(v) != k for v in part.values()):
            raise ValueError(f"{f}: arrays of inconsistent shapes")
        parts.append(part)
    return {n: np.concatenate([p[n] for p in parts]) for n in parts[0]}


def dgv_bytes(layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any]) -> bytes:
    """The .dgv file of an MLP: ``layers`` are (weight [out, in], bias [out]) in order, the last
    one's out = 1 (value.hpp's format)."""
    widths = [int(w.shape[0]) for w, _ in layers[:-1]]
    text = json.dumps(meta, sort_keys=True).encode()
    head = b"DGNV" + struct.pack("<4I", 1, VALUE_VERSION, WORLD_FEATURES, len(widths))
    head += struct.pack(f"<{len(widths)}I", *widths) + struct.pack("<I", len(text)) + text
    body = head + b"".join(np.ascontiguousarray(w, "<f4").tobytes() + np.ascontiguousarray(b, "<f4").tobytes()
                           for w, b in layers)
    return body + struct.pack("<Q", int(_core.learned._dgn_hash(body)))


def fit(data: str | os.PathLike[str], run: str | os.PathLike[str], *, widths: tuple[int, ...] = (256, 64),
        epochs: int = 8, lr: float = 1e-3, batch: int = 1024, seed: int = 0,
        weight_decay: float = 0.0) -> dict[str, Any]:
    """Trains the value network on a data folder; writes ``RUN/value.dgv`` and ``RUN/curve.json``."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    d = load_data(data)
    held = d["game"] % 10 == 0
    x = torch.from_numpy(d["x"].astype(np.float32))
    y = torch.from_numpy(d["y"])
    xt, yt, xv, yv = x[~held], y[~held], x[held], y[held]
    dims = [WORLD_FEATURES, *widths, 1]
    mods: list[Any] = []
    for a, b in zip(dims[:-1], dims[1:], strict=True):
        mods += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    net = torch.nn.Sequential(*mods[:-1])
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)
    curve: list[dict[str, Any]] = []
    base = float(((yv - yt.mean()) ** 2).mean())
    best, best_layers = float("inf"), None
    start = time.time()
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for k in range(0, len(order), batch):
            idx = order[k:k + batch]
            loss = ((net(xt[idx]).squeeze(1) - yt[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        net.eval()
        with torch.no_grad():
            val = float(((net(xv).squeeze(1) - yv) ** 2).mean())
        curve.append({"epoch": epoch + 1, "train_mse": total / len(xt), "val_mse": val,
                      "val_mse_of_mean": base, "wall": time.time() - start})
        print(json.dumps(curve[-1]), flush=True)
        if val < best:
            best = val
            best_layers = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
                           for m in net if isinstance(m, torch.nn.Linear)]
    out = Path(run)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"kind": "value", "widths": list(widths), "epochs": epochs, "lr": lr, "batch": batch,
            "weight_decay": weight_decay,
            "seed": seed, "positions": int(len(xt)), "held_out": int(len(xv)), "best_val_mse": best}
    assert best_layers is not None
    (out / "value.dgv").write_bytes(dgv_bytes(best_layers, meta))
    (out / "curve.json").write_text(json.dumps({"settings": meta, "curve": curve}, indent=1) + "\n")
    return {"best_val_mse": best, "val_mse_of_mean": base, "curve": curve}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m daguai.learn.values", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("data", help="make (or resume) a folder of positions")
    a.add_argument("folder")
    a.add_argument("--rounds", type=int, required=True)
    a.add_argument("--seed", type=int, required=True)
    a.add_argument("--model", default="learned")
    a.add_argument("--table", default="6p3d", choices=["6p3d", "4p2d"])
    a.add_argument("--every", type=int, default=8)
    a.add_argument("--shard-rounds", type=int, default=200)
    a.add_argument("--shard", type=int, default=None, help="only shards with index = SHARD mod SHARDS")
    a.add_argument("--shards", type=int, default=1)
    f = sub.add_parser("fit", help="train the value network on a folder of positions")
    f.add_argument("data")
    f.add_argument("run")
    f.add_argument("--widths", type=int, nargs="+", default=[256, 64])
    f.add_argument("--epochs", type=int, default=8)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--weight-decay", type=float, default=0.0)
    args = p.parse_args(argv)
    if args.cmd == "data":
        make_data(args.folder, args.rounds, args.seed, model=args.model, table=args.table, every=args.every,
                  shard_rounds=args.shard_rounds, shard=args.shard, shards=args.shards)
    else:
        fit(args.data, args.run, widths=tuple(args.widths), epochs=args.epochs, lr=args.lr, seed=args.seed,
            weight_decay=args.weight_decay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
