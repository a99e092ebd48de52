"""The judge's scryer worker process.

The judge runs scryer-prolog in separate processes (scryer can loop, panic or
exhaust memory on hostile answers). The package starts them with the running
interpreter and this module, so there is no separate executable to ship or find.
"""

import os
import sys
from typing import List

# `python -m` would put the current directory first on sys.path, so a stray
# `entail/` there would run instead of this package: the worker puts this
# package's own directory there instead.
_BOOT = "import sys; sys.path[0] = sys.argv[1]; from entail import _worker; _worker.main()"


def command() -> List[str]:
    """The program and leading arguments that start one worker."""
    parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return [sys.executable, "-c", _BOOT, parent]


def main() -> None:
    """Serves the judge's requests on stdin/stdout until stdin closes."""
    from entail import _native

    _native.serve_worker()


if __name__ == "__main__":
    main()
