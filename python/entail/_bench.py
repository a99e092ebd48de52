"""What the four benchmark modules share: records in and reports out, and
a benchmark's per-completion rewards in the shapes RL frameworks call.

Every reward is in [0, 1] and computed in Rust (`entail._native.rewards`);
this module only converts arguments and results.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from entail import _native
from entail.rewards import _text

Records = Union[str, "os.PathLike[str]", Iterable[Union[Mapping, str]]]

# Keyword arguments TRL passes a reward function besides the dataset's columns.
_TRL_KEYWORDS = {"trainer_state", "completion_ids", "log_metric", "log_extra", "environments"}


def _plain(value: Any) -> Any:
    """JSON's `default`: numpy arrays and scalars (what pandas makes of a
    Parquet list column) as lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def json_text(record: Union[Mapping, str]) -> str:
    """A record as JSON text: a dict is dumped, a str is taken as JSON text."""
    if isinstance(record, str):
        return record
    if isinstance(record, Mapping):
        return json.dumps(dict(record), default=_plain)
    raise TypeError(f"a record must be a dict or its JSON text, not {type(record).__name__}")


def lines(records: Records) -> List[str]:
    """Records as JSON texts: a JSONL file's non-blank lines (a path), or
    each record of an iterable (dicts, or JSON texts)."""
    if isinstance(records, (str, os.PathLike)):
        text = Path(records).read_text(encoding="utf-8")
        return [line.rstrip("\r") for line in text.split("\n") if line.strip()]
    return [json_text(r) for r in records]


def report(result: Tuple[Dict[str, Any], List[str]]) -> Dict[str, Any]:
    """The report of a native scorer, its bad records warned about (the
    command line's stderr lines); `bad_lines` counts them."""
    from entail.pictures import Report  # entail.pictures imports this module

    value, problems = result
    for problem in problems:
        warnings.warn(f"left out: {problem}", stacklevel=3)
    return Report(value)


def _numbers(detail: Mapping) -> Dict[str, float]:
    """The numeric fields of a reward's detail, as floats (verl logs them)."""
    return {k: float(v) for k, v in detail.items() if isinstance(v, (bool, int, float))}


def _rows(columns: Mapping[str, Any], n: int) -> List[Dict[str, Any]]:
    """TRL's dataset columns (keyword lists) back into `n` rows."""
    names = [k for k, v in columns.items() if k not in _TRL_KEYWORDS and isinstance(v, (list, tuple))]
    return [{k: columns[k][i] for k in names} for i in range(n)]


class Shapes:
    """One benchmark's reward in each framework's calling convention.

    The scorer is the native one of benchmark ``name``: a dict per
    completion with ``score`` in [0, 1], or a str saying why its ground
    truth cannot be scored (then the reward is 0.0 and a warning says why;
    ``strict=True`` raises instead). ``keys`` are the fields of an item the
    reward reads (its ground truth); ``None`` keeps the whole item.
    """

    def __init__(self, name: str, keys: Optional[Sequence[str]] = None):
        self.name = name
        self.keys = keys

    def details(self, completions: List[str], truths: List[str], timeout: float = 10.0) -> List[Any]:
        return _native.rewards(self.name, truths, completions, float(timeout), False)

    def ground_truth(self, item: Union[Mapping, str]) -> str:
        if isinstance(item, str) or self.keys is None:
            return json_text(item)
        return json.dumps({k: item[k] for k in self.keys if k in item}, default=_plain)

    def scored(self, completions: Sequence[Any], ground_truths: Sequence[Any],
               strict: bool = False, **options: Any) -> List[Dict[str, Any]]:
        if len(completions) != len(ground_truths):
            raise ValueError(f"{len(completions)} completions but {len(ground_truths)} ground truths")
        results = self.details([_text(c) for c in completions],
                               [json_text(g) for g in ground_truths], **options)
        errors = [r for r in results if isinstance(r, str)]
        if errors:
            message = f"{self.name}: {len(errors)} ground truths cannot be scored, e.g. {errors[0]}"
            if strict:
                raise ValueError(message)
            warnings.warn(message + " (rewarded 0.0)", stacklevel=3)
        return [r if isinstance(r, dict) else {"score": 0.0, "error": r} for r in results]

    def functions(self) -> Tuple[Callable[..., Any], ...]:
        """What a benchmark module exports, documented for the benchmark, in
        this order: `ground_truth`, `gold_answer`, `rewards`, `trl_reward`,
        `compute_score`, `compute_score_batch` and `reward_func`."""
        name, scored = self.name, self.scored

        def ground_truth(item: Union[Mapping[str, Any], str]) -> str:
            return self.ground_truth(item)

        def gold_answer(item: Union[Mapping[str, Any], str]) -> str:
            return _native.gold_answer(name, self.ground_truth(item))

        def rewards(completions: Sequence[Any], ground_truths: Sequence[Any], *,
                    strict: bool = False, **options: Any) -> List[Dict[str, Any]]:
            return scored(completions, ground_truths, strict=strict, **options)

        def trl_reward(prompts: Optional[List[Any]] = None, completions: Optional[List[Any]] = None,
                       **kwargs: Any) -> List[float]:
            if completions is None:
                raise TypeError(f"{name}_reward needs completions")
            truths = kwargs.get("ground_truth")
            if truths is None:
                truths = _rows(kwargs, len(completions))
            options = {k: kwargs[k] for k in ("strict", "timeout") if k in kwargs}
            return [float(r["score"]) for r in scored(completions, truths, **options)]

        def compute_score(data_source: Any, solution_str: str, ground_truth: Any,
                          extra_info: Any = None, **kwargs: Any) -> Dict[str, float]:
            options = {k: kwargs[k] for k in ("strict", "timeout") if k in kwargs}
            return _numbers(scored([solution_str], [ground_truth], **options)[0])

        def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str],
                                ground_truths: Sequence[Any], extra_infos: Optional[Sequence[Any]] = None,
                                **kwargs: Any) -> List[Dict[str, float]]:
            options = {k: kwargs[k] for k in ("strict", "timeout") if k in kwargs}
            return [_numbers(r) for r in scored(list(solution_strs), list(ground_truths), **options)]

        def reward_func(queries: List[str], prompts: List[str], labels: List[Any]) -> Dict[str, Any]:
            if len(prompts) != len(queries):
                raise ValueError(f"{len(queries)} queries but {len(prompts)} prompts")
            responses = [q[len(p):] if isinstance(q, str) and isinstance(p, str) and q.startswith(p)
                         else q for q, p in zip(queries, prompts)]
            scores = [float(r["score"]) for r in scored(responses, labels)]
            try:
                import torch
            except ImportError:
                return {"rewards": scores, "scores": scores, "extra_logs": {}}
            return {"rewards": torch.tensor(scores), "scores": torch.tensor(scores), "extra_logs": {}}

        ground_truth.__doc__ = (
            "What the reward needs of an item, as JSON text for one dataset column: "
            + ("the item" if self.keys is None else ", ".join(f"``{k}``" for k in self.keys))
            + ". A str is taken as that text already.")
        gold_answer.__doc__ = f"A completion that earns the full {name} reward on ``item``."
        rewards.__doc__ = (
            f"The {name} reward of each completion against its ground truth (a generated "
            "item, or its `ground_truth(item)` text): a dict with `score` in [0, 1] and the "
            "metrics it rests on.")
        trl_reward.__doc__ = (
            "A TRL `GRPOTrainer` reward function: one float per completion. The ground truth "
            "is the dataset's `ground_truth` column, else the row's own columns (a dataset of "
            "generated items).")
        compute_score.__doc__ = (
            "verl's `compute_score(data_source, solution_str, ground_truth, extra_info)`: a "
            "dict with `score` and the metrics as floats.")
        compute_score_batch.__doc__ = "`compute_score` for verl's batch reward manager: a dict per solution."
        reward_func.__doc__ = (
            "OpenRLHF's `reward_func(queries, prompts, labels)`: a query is the prompt followed "
            "by the response; `labels` are the ground truths (`--label_key`).")
        trl_reward.__name__ = f"{name}_reward"
        return (ground_truth, gold_answer, rewards, trl_reward, compute_score,
                compute_score_batch, reward_func)
