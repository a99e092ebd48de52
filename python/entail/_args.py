"""Argument checks shared by the benchmark modules: ranges, counts, thread
counts and shards as the command line takes them."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple, Union

from entail._judge import _cores

Range = Union[int, Tuple[int, int], str]


def _range(name: str, value: Range) -> Tuple[int, int]:
    """``3``, ``(2, 5)``, ``"2..5"`` or ``"2-5"`` as an inclusive pair."""
    if isinstance(value, str):
        for sep in ("..=", "..", "-"):
            if sep in value:
                low, high = value.split(sep, 1)
                return _range(name, (int(low), int(high)))
        return _range(name, int(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return _range(name, (value, value))
    if (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        if value[0] < 0 or value[0] > value[1]:
            raise ValueError(f"{name}: empty or negative range {value[0]}..{value[1]}")
        return (value[0], value[1])
    raise TypeError(f"{name} must be an int, a (low, high) pair or a str like '2..5'")


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must not be negative")
    return value


def _threads(threads: Optional[int]) -> int:
    return _cores() if threads is None else max(1, _count("threads", threads))


def _shard(shard: Tuple[int, int]) -> Tuple[int, int]:
    if (
        not isinstance(shard, (tuple, list))
        or len(shard) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in shard)
    ):
        raise TypeError("shard must be an (index, count) pair of ints, e.g. (0, 4)")
    return (_count("shard index", shard[0]), _count("shard count", shard[1]))


def _jsonl(text: str) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


def _choice(name: str, value: Any, choices: Tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else a ValueError listing them."""
    if value not in choices:
        raise ValueError(f"unknown {name} {value!r}: expected one of {', '.join(map(repr, choices))}")
    return value


#: The values the generators take, as the command line names them.
LOGICON_VARIANTS = ("plain", "hard", "completion")
LOGICON_LABELS = ("exact", "paper")
LOGICON_PROMPTS = ("zero-shot", "3-shot", "3-shot-path")
LOGICON_TASKS = ("lists", "generative")
DIVLOGIC_TYPES = ("3c1e", "3e1c", "missing", "mixed")
LOGICGRAPH_TIERS = ("small", "medium", "large")
