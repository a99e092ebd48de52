"""`prove`: ``entail prove --json`` as a function."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Optional, Union

from entail._load import native as _native


def prove(
    source: Union[str, "os.PathLike[str]"],
    *,
    timeout: Optional[float] = None,
    supports: bool = False,
    supports_cap: int = 1000,
    supports_timeout: float = 60.0,
    instantiated: bool = False,
    countermodels: bool = True,
) -> Dict[str, Any]:
    """Checks a Prover9 problem, a step file or a LogicGraph instance.

    Small propositional checks go to truth tables, the rest to Z3; a
    first-order problem is raced by Z3, ``eprover`` and ``prover9`` (each
    when on ``PATH``) and a finite model search, and the report's
    ``engine`` names the winner.

    ``source`` is Prover9 text, or the path of a file or of a LogicGraph
    instance directory (``complete.json``, ``solutions.json``). Returns the
    report ``entail prove --json`` prints: for a plain problem ``status``
    (``proved``, ``not_proved`` with a ``countermodel``, or ``unknown``);
    for a step file or instance the per-step, per-solution, consistency and
    (with ``supports=True``) minimal-support verdicts. ``timeout`` is per
    check, in seconds (default: the file's ``assign(max_seconds, N)``, else
    10). Raises ``ValueError`` with ``FILE:LINE:COL: message`` on bad input.
    """
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str):
        raise TypeError(f"source must be a str or a path, not {type(source).__name__}")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float))
    ):
        raise TypeError(f"timeout must be a number, not {type(timeout).__name__}")
    text: Optional[str] = source
    directory: Optional[str] = None
    # Prover9 text ends with a period; a path does not.
    if "\n" not in source and not source.rstrip().endswith(".") and os.path.exists(source):
        path = Path(source)
        if path.is_dir():
            text, directory = None, str(path)
        else:
            text = path.read_text(encoding="utf-8", errors="replace")
    try:
        return _native.prove(
            text,
            directory,
            None if timeout is None else float(timeout),
            supports,
            supports_cap,
            float(supports_timeout),
            instantiated,
            countermodels,
        )
    except ValueError as e:
        if directory is None and text is not source:
            raise ValueError(str(e).replace("<input>", source, 1)) from None
        raise
