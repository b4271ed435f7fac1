"""Type stubs for the C++ extension daguai._core: one submodule per engine layer
(cpp/bindings/<layer>/, each with its own stub beside this one) and the test hooks."""

from __future__ import annotations

from daguai._core import _testing as _testing  # the test and benchmark hooks
from daguai._core import beliefs as beliefs
from daguai._core import catalog as catalog
from daguai._core import core as core
from daguai._core import game as game
from daguai._core import io as io
from daguai._core import learned as learned
from daguai._core import plays as plays
from daguai._core import run as run
from daguai._core import search as search

__version__: str
