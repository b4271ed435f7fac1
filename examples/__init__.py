"""Examples of daguai (importable from the repository root: ``examples.reinforce:policy``)."""
