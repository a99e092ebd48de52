"""What the four benchmark modules share: records in and reports out, and
a benchmark's per-completion rewards in the shapes RL frameworks call.

Every reward is in [0, 1] and computed in Rust (`entail._native.rewards`);
this module only converts arguments and results.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from entail._load import native as _native
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


#: The numeric fields verl logs of each benchmark's reward, every one present
#: for every sample (verl collects them into per-batch lists): a field a
#: reward lacks (DivLogicEval's ``picked`` when no letter is read) or a
#: ground truth that cannot be scored gives 0.0, and ``picked`` -1.0.
VERL_KEYS = {
    "logicgraph": ("score", "success", "precision", "diversity", "answered", "valid"),
    "logicon": ("score", "task", "correct", "parsed"),
    "divlogic": ("score", "correct", "picked"),
}


def _verl(name: str, detail: Mapping) -> Dict[str, float]:
    numbers = _numbers(detail)
    out = {k: numbers.get(k, 0.0) for k in VERL_KEYS[name]}
    if name == "divlogic" and not isinstance(detail.get("picked"), int):
        out["picked"] = -1.0
    return {k: out[k] for k in sorted(out)}  # in the order of the reward's JSON


def _missing(name: str) -> str:
    return (f"{name}: no ground truth; give each row the text of "
            f"`entail.{name}.ground_truth(item)` (a `ground_truth` column) or the generated item")


class Shapes:
    """One benchmark's reward in each framework's calling convention; the
    benchmark modules define module-level functions over it (so they
    pickle, and import by module path and name as verl loads them).

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
        if item is None:
            raise ValueError(_missing(self.name))
        if isinstance(item, str) or self.keys is None:
            return json_text(item)
        return json.dumps({k: item[k] for k in self.keys if k in item}, default=_plain)

    def gold_answer(self, item: Union[Mapping, str]) -> str:
        return _native.gold_answer(self.name, self.ground_truth(item))

    def truth_text(self, truth: Any) -> str:
        """A ground truth as the native reward reads it: a str as given, an
        item (or its ground-truth fields) as JSON, after undoing what Arrow
        does to nested columns (see `_from_arrow`)."""
        if truth is None:
            raise ValueError(_missing(self.name))
        if isinstance(truth, str):
            return truth
        if isinstance(truth, Mapping):
            return json.dumps(_from_arrow(dict(truth)), default=_plain)
        return json_text(truth)

    def scored(self, completions: Sequence[Any], ground_truths: Sequence[Any],
               strict: bool = False, binary: bool = False, **options: Any) -> List[Dict[str, Any]]:
        if len(completions) != len(ground_truths):
            raise ValueError(f"{len(completions)} completions but {len(ground_truths)} ground truths")
        options = {k: options[k] for k in ("timeout",) if k in options}
        results = self.details([_text(c) for c in completions],
                               [self.truth_text(g) for g in ground_truths], **options)
        errors = [r for r in results if isinstance(r, str)]
        if errors:
            message = (f"{self.name}: {len(errors)} ground truths cannot be scored, e.g. {errors[0]}; "
                       f"a ground truth is the generated item or the text of "
                       f"`entail.{self.name}.ground_truth(item)`")
            if strict:
                raise ValueError(message)
            warnings.warn(message + " (rewarded 0.0)", stacklevel=4)
        out = [r if isinstance(r, dict) else {"score": 0.0, "error": r, "unscorable": True}
               for r in results]
        if binary:
            for r in out:
                r["partial_score"] = r["score"]
                r["score"] = 1.0 if r["score"] >= 1.0 else 0.0
        return out

    def rewards(self, completions: Sequence[Any], ground_truths: Sequence[Any],
                **options: Any) -> List[Dict[str, Any]]:
        return self.scored(completions, ground_truths, **options)

    def trl_reward(self, prompts: Optional[List[Any]], completions: Optional[List[Any]],
                   kwargs: Dict[str, Any]) -> List[float]:
        if completions is None:
            raise TypeError(f"{self.name}_reward needs completions")
        truths = kwargs.get("ground_truth")
        if truths is None:
            truths = _rows(kwargs, len(completions))
            if not any(truths):
                raise ValueError(_missing(self.name))
        details = self.scored(completions, truths, **_options(kwargs))
        log_metric = kwargs.get("log_metric")
        if callable(log_metric):
            for key, value in _means(self.name, details).items():
                log_metric(key, value)
        return [float(r["score"]) for r in details]

    def compute_score(self, solution_str: str, ground_truth: Any,
                      kwargs: Dict[str, Any]) -> Dict[str, float]:
        return _verl(self.name, self.scored([solution_str], [ground_truth], **_options(kwargs))[0])

    def compute_score_batch(self, solution_strs: Sequence[str], ground_truths: Sequence[Any],
                            kwargs: Dict[str, Any]) -> List[Dict[str, float]]:
        details = self.scored(list(solution_strs), list(ground_truths), **_options(kwargs))
        return [_verl(self.name, r) for r in details]

    def reward_func(self, queries: List[str], prompts: List[str], labels: List[Any],
                    kwargs: Dict[str, Any]) -> Dict[str, Any]:
        if len(prompts) != len(queries):
            raise ValueError(f"{len(queries)} queries but {len(prompts)} prompts")
        responses = [q[len(p):] if isinstance(q, str) and isinstance(p, str) and q.startswith(p)
                     else q for q, p in zip(queries, prompts)]
        details = self.scored(responses, labels, **_options(kwargs))
        scores = [float(r["score"]) for r in details]
        logs = {k: [d[k] for d in map(functools.partial(_verl, self.name), details)]
                for k in VERL_KEYS[self.name] if k != "score"}
        try:
            import torch
        except ImportError:
            return {"rewards": scores, "scores": scores, "extra_logs": logs}
        return {"rewards": torch.tensor(scores), "scores": torch.tensor(scores),
                "extra_logs": {k: torch.tensor(v) for k, v in logs.items()}}


def _options(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """The reward options among a framework's keywords."""
    return {k: kwargs[k] for k in ("strict", "timeout", "binary") if k in kwargs}


def _means(name: str, details: Sequence[Mapping[str, Any]]) -> Dict[str, float]:
    """Batch means of a reward's metrics, under ``<benchmark>/<metric>``."""
    n = max(len(details), 1)
    rows = [_verl(name, d) for d in details]
    out = {f"{name}/{k}": sum(r[k] for r in rows) / n for k in VERL_KEYS[name]
           if k not in ("score", "task", "picked")}
    out[f"{name}/unscorable"] = float(sum(1 for d in details if d.get("unscorable")))
    return out


def _from_arrow(value: Any) -> Any:
    """An item back from an Arrow/Parquet nested column: Arrow gives every
    struct the union of its rows' fields (a field a row lacks is None) and
    pandas makes numpy arrays of lists and NaN of a null number; the fields
    that are None or NaN are dropped, arrays become lists and integral
    floats ints."""
    if isinstance(value, Mapping):
        return {k: _from_arrow(v) for k, v in value.items() if not _null(v)}
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_from_arrow(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if _null(value):
        return None
    return value


def _null(value: Any) -> bool:
    """None, or the NaN pandas puts for a null number."""
    return value is None or (isinstance(value, float) and value != value)
