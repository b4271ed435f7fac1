"""The Q-network in PyTorch (training) and its export to the engine's ``.dgn`` file.

``QNet(widths)`` is an MLP over ``[state features, action features]`` with ReLU hidden
layers and a linear output, ``Q(s, a)``: the same function the engine evaluates natively
(``cpp/engine/learned/network.cpp``, tested equal to 1e-5 in tests/learn/test_learn_model.py). Only this
module and :mod:`daguai.learn.trainer` import torch (the ``train`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from .. import _core
from ..dgn import Layers, dgn_bytes, parse_dgn, read_model_file, write_dgn
from .config import DEFAULT_WIDTHS, check_widths

__all__ = ["QNet", "DEFAULT_WIDTHS"]



class QNet(nn.Module):
    """``Q(s, a)`` = MLP([state, action]); ``widths`` are the hidden layers' sizes."""

    def __init__(self, widths: Sequence[int] = DEFAULT_WIDTHS) -> None:
        super().__init__()
        widths = check_widths(widths)
        self.widths = widths
        prev = int(_core.learned.STATE_FEATURES) + int(_core.learned.ACTION_FEATURES)
        layers: list[nn.Module] = []
        for w in widths:
            layers.append(nn.Linear(prev, w))
            prev = w
        self.hidden = nn.ModuleList(layers)
        self.out = nn.Linear(prev, 1)

    def forward(self, state: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
        """Q of rows ``state[i], action[i]`` (float32 ``[n, S]``, ``[n, A]``) -> ``[n]``."""
        x = torch.cat([state, action], dim=1)
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.out(x).squeeze(1)

    def layers(self) -> Layers:
        """(weight [out, in], bias [out]) per layer as float32 numpy copies."""
        mods: list[Any] = [*self.hidden, self.out]
        return [(m.weight.detach().cpu().numpy().astype(np.float32).copy(),
                 m.bias.detach().cpu().numpy().astype(np.float32).copy()) for m in mods]

    def to_dgn(self, meta: dict[str, Any] | None = None, margin: float = 0.0, *,
               r11: bool = False) -> bytes:
        """The ``.dgn`` bytes of this network with switching ``margin`` (docs/learning.md);
        ``r11``: it also makes the R11 decisions."""
        return dgn_bytes(self.layers(), meta, margin, r11=r11)

    def save_dgn(self, path: str | Path, meta: dict[str, Any] | None = None, margin: float = 0.0, *,
                 r11: bool = False) -> Path:
        """Write this network as a ``.dgn`` file (atomically)."""
        return write_dgn(path, self.layers(), meta, margin, r11=r11)

    @classmethod
    def from_dgn(cls, data: bytes | str | Path) -> QNet:
        """A QNet with the weights of ``.dgn`` bytes or a file path."""
        raw = data if isinstance(data, bytes) else read_model_file(data)
        layers, _, _ = parse_dgn(raw, meta=False)  # the engine ignores metadata: so does this
        net = cls([w.shape[0] for w, _ in layers[:-1]])
        with torch.no_grad():
            for m, (w, b) in zip([*net.hidden, net.out], layers, strict=True):
                m.weight.copy_(torch.from_numpy(w))
                m.bias.copy_(torch.from_numpy(b))
        return net
