"""SLR (Scalable Logical Reasoning): generate tasks, score answers, reward
completions. An item is an SLR-Bench record: a prompt asking for a Prolog
rule, the ``validation program`` that labels trains, and a ground-truth rule.

Reward: the judge's partial score (the share of the validation program's
trains the rule classifies right; 1.0 exactly when all are), the reward of
SLR's own training recipe. The reward shapes are those of `entail.rewards`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from entail import _worker, rewards as _rewards
from entail._load import native as _native
from entail._args import Range, _count, _jsonl, _range, _shard, _threads
from entail._bench import Records, lines, report
from entail._judge import shared_judge
from entail.pictures import Task


def generate(
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
    return [Task(record) for record in _jsonl(text)]


def score(tasks: Records, answers: Records, *, threads: Optional[int] = None) -> Dict[str, Any]:
    """`entail score slr --json` for ``tasks`` (generated items or SLR-Bench
    records) and ``answers`` (``{"id", "prediction"}`` records), each a
    JSONL path or a list of dicts: per-level and per-tier accuracy, the
    syntax score and LRL. The GIL is released while the judge runs."""
    return report(_native.score_slr(lines(tasks), lines(answers), _threads(threads), _worker.command()))


def ground_truth(item: Mapping[str, Any]) -> str:
    """What the reward needs of an item, as JSON text for one dataset column."""
    keep = ("id", "validation program", "evaluation_config", "holdout program")
    return json.dumps({k: item[k] for k in keep if item.get(k) is not None})


def gold_answer(item: Mapping[str, Any]) -> str:
    """The item's own rule, which scores 1.0."""
    return item["ground-truth rule"]


def rewards(completions: Sequence[Any], ground_truths: Sequence[Any], **options: Any) -> List[Dict[str, Any]]:
    """The judge's verdict on each completion: the fields of ``entail judge
    --json`` and ``score``, the partial score. ``options`` are `entail.Judge`'s."""
    results = shared_judge(**options).score_batch(
        [_rewards._text(c) for c in completions], list(ground_truths))
    for r in results:
        r["score"] = float(r["partial_score"])
    return results


#: The path `evaluate.load` takes for SLR's metric (see `entail.slr_metric`).
METRIC = str(Path(__file__).with_name("slr_metric.py"))

def trl_reward(prompts: Optional[List[Any]] = None, completions: Optional[List[Any]] = None,
               **kwargs: Any) -> List[float]:
    """`entail.rewards.trl_slr`, which also takes the task from a
    ``ground_truth`` column (`ground_truth`'s text) as the other benchmarks do."""
    truths = kwargs.pop("ground_truth", None)
    if truths is not None and "validation program" not in kwargs and "validation_program" not in kwargs:
        records = [json.loads(t) if isinstance(t, str) else dict(t) for t in truths]
        kwargs["validation program"] = [r["validation program"] for r in records]
        kwargs["evaluation_config"] = [r.get("evaluation_config") for r in records]
    return _rewards.trl_slr(prompts=prompts, completions=completions, **kwargs)


trl_reward.__name__ = "slr_reward"
compute_score = _rewards.verl_slr
compute_score_batch = _rewards.verl_slr_batch
reward_func = _rewards.openrlhf_slr
