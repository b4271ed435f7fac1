"""``daguai.env`` is ``daguai.learn.envs.pettingzoo_env`` under the name PettingZoo's convention
expects (``from daguai import env``): the same module object, so its names and attributes
are one."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("daguai.learn.envs.pettingzoo_env")
