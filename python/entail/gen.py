"""Benchmark generators: the items ``entail gen`` writes, as Python dicts.

Each function takes the command's options (same names, same defaults) and
returns what the command writes for them: for the same arguments and seed,
the dicts equal the command's JSONL lines (for `logicgraph`, its files).
The output never depends on ``threads``. ``shard=(i, n)`` gives block ``i``
of ``n`` of the run, as ``--shard i/n`` does: the ``n`` shards' items, in
order, are the whole run's items.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from entail import _native, _worker
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


def slr(
    *,
    level: Optional[int] = None,
    levels: Range = (1, 20),
    count: int = 10,
    seed: int = 0,
    split: str = "train",
    prompt: str = "prolog",
    language: Union[None, str, "os.PathLike[str]", Dict[str, Any]] = None,
    threads: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
    test_tasks: Optional[int] = None,
    validation_tasks: Optional[int] = None,
    theta: Optional[Dict[str, Any]] = None,
) -> List[Dict[str, Any]]:
    """SLR tasks (``entail gen slr``): ``count`` per level, each labelled by
    the judge and kept only if its own rule scores 1.0. ``language`` is a
    language file's path or its parsed JSON (default: trains). ``theta`` is
    a task configuration over the level presets, as ``--theta FILE`` reads
    it, e.g. ``{"kappa_pos": 5, "kappa_neg": 3, "rule_length": [2, 3]}``.

    Splits of one seed share no rule and no problem up to renaming: a
    ``train`` or ``validation`` run holds out the ``test_tasks`` test tasks
    (and ``validation_tasks`` validation tasks) per level of every level, so
    pass the same sizes to every run. A held-out split's size defaults to
    ``count`` in its own run (else 50 and 10), and such a run must ask for
    exactly its size."""
    if test_tasks is None:
        test_tasks = count if split == "test" else 50
    if validation_tasks is None:
        validation_tasks = count if split == "validation" else 10
    low_high = _range("level", level) if level is not None else _range("levels", levels)
    if isinstance(language, dict):
        language = json.dumps(language)
    elif language is not None:
        language = Path(language).read_text(encoding="utf-8")
    text = _native.gen_slr(
        low_high,
        _count("count", count),
        _count("seed", seed),
        split,
        prompt,
        language,
        _threads(threads),
        _worker.command(),
        _shard(shard),
        (_count("test_tasks", test_tasks), _count("validation_tasks", validation_tasks)),
        None if theta is None else json.dumps(theta),
    )
    return _jsonl(text)


def logicon(
    *,
    k: Range = (2, 5),
    count: int = 100,
    seed: int = 0,
    variant: str = "plain",
    labels: str = "exact",
    prompt: Optional[str] = None,
    max_distance: int = 6,
    atoms: Range = (8, 8),
    graph_nodes: int = 40,
    statement_atoms: int = 9,
    task: str = "lists",
    groups: Range = (2, 5),
    group_atoms: int = 3,
    threads: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
) -> List[Dict[str, Any]]:
    """LogiConBench consistency samples (``entail gen logicon``), labelled by
    exact truth tables, or with ``labels="paper"`` by the paper's propagation
    along the reasoning path; ``disagreements`` lists where the two differ.
    ``prompt`` ("zero-shot", "3-shot" or "3-shot-path") adds each sample's prompt.
    ``task="generative"`` gives Task 3 samples instead: ``groups`` groups of
    ``group_atoms`` atoms, an assignment, ten facts per group true under it,
    and the prompt asking for one new statement per group."""
    text = _native.gen_logicon(
        _range("k", k),
        _count("count", count),
        _count("seed", seed),
        variant,
        labels,
        prompt,
        _count("max_distance", max_distance),
        _range("atoms", atoms),
        _count("graph_nodes", graph_nodes),
        _count("statement_atoms", statement_atoms),
        task,
        _range("groups", groups),
        _count("group_atoms", group_atoms),
        _threads(threads),
        _shard(shard),
    )
    return _jsonl(text)


def divlogic(
    *,
    type: str = "mixed",
    count: int = 100,
    seed: int = 0,
    rotations: bool = False,
    n: int = 4,
    shard: Tuple[int, int] = (0, 1),
) -> List[Dict[str, Any]]:
    """DivLogicEval questions (``entail gen divlogic``): ``type`` is
    ``3c1e``, ``3e1c``, ``missing`` or ``mixed``; ``rotations`` gives the
    four circular rotations of each question; ``n`` is the paper's n (2 to
    n+1 premises). Words come from WordNet, found as the CLI finds it
    (``$ENTAIL_WORDNET``, else ``/usr/share/wordnet``)."""
    text = _native.gen_divlogic(
        type,
        _count("count", count),
        _count("seed", seed),
        bool(rotations),
        _count("n", n),
        _shard(shard),
    )
    return _jsonl(text)


_LOGICGRAPH_FILES = ("question", "complete", "solutions", "verify_true")


def logicgraph(
    *,
    tier: str = "small",
    paths: Optional[Range] = None,
    depth: Range = (2, 14),
    forms: Union[str, Sequence[str]] = "MP,MT,HS,DS,CD,RAA,DE",
    distractors: int = 0,
    max_atoms: int = 120,
    count: int = 10,
    seed: int = 0,
    prompt: bool = False,
    threads: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
) -> List[Dict[str, Any]]:
    """LogicGraph instances (``entail gen logicgraph``), each checked by the
    prover. One dict per instance: ``id`` (``test_1`` …) and the parsed
    ``question``, ``complete``, ``solutions`` and ``verify_true`` files, and
    with ``prompt=True`` the ``prompt`` text."""
    if isinstance(forms, str):
        forms = [f.strip() for f in forms.split(",") if f.strip()]
    forms = list(forms)
    if not forms or not all(isinstance(f, str) for f in forms):
        raise ValueError("forms must name at least one of MP, MT, HS, DS, CD, RAA, DE")
    count = _count("count", count)
    with tempfile.TemporaryDirectory(prefix="entail-logicgraph-") as out:
        _native.gen_logicgraph(
            out,
            tier,
            None if paths is None else _range("paths", paths),
            _range("depth", depth),
            forms,
            _count("distractors", distractors),
            _count("max_atoms", max_atoms),
            count,
            _count("seed", seed),
            bool(prompt),
            _threads(threads),
            _shard(shard),
        )
        instances = []
        # The shard's directories, by their global number.
        directories = sorted(Path(out).glob("test_*"), key=lambda d: int(d.name[len("test_") :]))
        for directory in directories:
            instance: Dict[str, Any] = {"id": directory.name}
            for name in _LOGICGRAPH_FILES:
                instance[name] = json.loads((directory / f"{name}.json").read_text())
            if prompt:
                instance["prompt"] = (directory / "prompt.txt").read_text()
            instances.append(instance)
        return instances
