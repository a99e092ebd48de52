"""The native module, loaded on first use so that ``import entail`` stays
fast (the extension is a large shared library)."""

from __future__ import annotations

import importlib
from typing import Any


class _Native:
    """Stands for `entail._native`: the first attribute read imports it."""

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module("entail._native"), name)


native: Any = _Native()
