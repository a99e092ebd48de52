"""Shared fixtures: the repository's corpora and the `entail` command line
the package's outputs are compared with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def entail_bin() -> str:
    """The CLI binary: $ENTAIL_BIN (scripts/test sets it), else a cargo build's."""
    candidates = [os.environ.get("ENTAIL_BIN")] + [
        str(ROOT / "target" / profile / "entail") for profile in ("debug", "release")
    ]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.skip("no entail binary: run `cargo build` or set ENTAIL_BIN")


def run_cli(entail_bin: str, *args: str) -> str:
    done = subprocess.run(
        [entail_bin, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def jsonl(text: str) -> list:
    return [json.loads(line) for line in text.splitlines() if line]
