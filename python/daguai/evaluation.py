"""``daguai.evaluation`` is ``daguai.run.evaluation`` (moved in the package layout of issue 16;
this path keeps working: it is the same module object, so its names and attributes are one)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("daguai.run.evaluation")
