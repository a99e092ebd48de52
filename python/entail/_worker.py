"""The judge's scryer worker process: ``python -m entail._worker``.

The judge runs scryer-prolog in separate processes (scryer can loop, panic or
exhaust memory on hostile answers). The package starts them with the running
interpreter and this module, so there is no separate executable to ship or find.
"""

import sys
from typing import List


def command() -> List[str]:
    """The program and leading arguments that start one worker."""
    return [sys.executable, "-m", "entail._worker"]


if __name__ == "__main__":
    from entail import _native

    _native.serve_worker()
