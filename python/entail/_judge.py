"""The SLR judge: `Judge` and the `evaluate`-style `compute`."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping
from typing import Any, Dict, List, Optional, Tuple, Union

from entail import _worker
from entail._load import native as _native

Reference = Union[Mapping, str]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


class Judge:
    """Scores Prolog rules proposed for SLR tasks, sandboxed.

    Options are those of ``entail judge``: ``workers`` (threads and scryer
    worker processes; default one per core), ``inference_limit`` per example,
    ``timeout`` in seconds per answer, ``memory_mb`` per worker,
    ``isomorphic`` (``"renamed"`` or ``"both"``), ``renamings`` (score
    each answer under that many independent renamings of the task's trains
    and cars and report the lowest), ``seed`` (draws the renamings),
    ``engine`` (``"auto"`` or ``"scryer"``) and ``rules``, which of an
    answer's rules are loaded: ``"all"`` (default, as the SLR reference
    metric loads them), ``"last"`` (the last rule alone) or ``"program"``
    (the last rule with the Prolog text around it and its helpers), as
    ``entail judge --rules``.

    A reference is a task: a dict with ``"validation program"`` (or
    ``"validation_program"``) and optionally ``"evaluation_config"``,
    ``"id"`` and ``"holdout program"`` (trains the prompt does not show, from
    ``gen slr --holdout K``: results then have ``holdout_score`` and
    ``holdout_correct``); or the same dict as a JSON string; or the
    validation program text itself. A judge is thread-safe, and its batch
    calls release the GIL.

    A prediction is the model's output as decoded (reasoning, prose, code
    fences, ``[RULE]`` blocks, special tokens such as ``</s>``). The rules
    are found where the SLR reference metric finds them: with ``%``
    comments deleted and lines joined, every ``eastbound(args) :- body.``
    (or the task's positive predicate) in the text, each body ending at
    its first ``.``, all loaded together as the reference loads them;
    facts, directives, helpers and prose are never loaded. An answer
    without one (only facts, no full stop) scores 0 with ``syntax_valid``
    False and ``error_kind`` ``"no_rule"``. See "How an answer is read" in docs/judge.md.
    """

    def __init__(
        self,
        *,
        workers: Optional[int] = None,
        inference_limit: int = 5_000_000,
        timeout: float = 10.0,
        memory_mb: int = 2048,
        isomorphic: str = "renamed",
        renamings: int = 1,
        seed: int = 0,
        engine: str = "auto",
        rules: str = "all",
    ) -> None:
        workers = _cores() if workers is None else _positive_int("workers", workers)
        _positive_int("renamings", renamings)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an int in [0, 2**64), got {seed!r}")
        _positive_int("inference_limit", inference_limit)
        _positive_int("memory_mb", memory_mb)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError(f"timeout must be a number, not {type(timeout).__name__}")
        for name, value in (("isomorphic", isomorphic), ("engine", engine), ("rules", rules)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str, not {type(value).__name__}")
        self._native = _native.NativeJudge(
            workers,
            inference_limit,
            float(timeout),
            memory_mb,
            isomorphic,
            engine,
            _worker.command(),
            renamings,
            seed,
            rules,
        )

    def score(self, prediction: str, reference: Reference) -> Dict[str, Any]:
        """Scores one answer; the result has the fields of ``entail judge --json``."""
        return self.score_batch([prediction], [reference])[0]

    def score_batch(
        self,
        predictions: Iterable[str],
        references: Union[Reference, Iterable[Reference]],
        *,
        progress: bool = False,
    ) -> List[Dict[str, Any]]:
        """Scores ``predictions[i]`` against ``references[i]``, on all workers.

        ``references`` may also be one reference for every prediction. Each
        distinct task is parsed once. A bad item (an unreadable reference,
        an answer that loops) gets an ``error_kind`` in its result; only
        arguments of the wrong type raise. Ctrl-C raises KeyboardInterrupt
        within about a tenth of a second: waits on scryer workers are cut
        short (the workers killed), and the rest are never started. ``progress=True`` draws a tqdm bar.
        """
        predictions = _predictions(predictions)
        tasks, task_of = _tasks(references, len(predictions))
        if not progress:
            return self._native.score_batch(tasks, task_of, predictions)
        from tqdm.auto import tqdm

        with tqdm(total=len(predictions), unit="answer") as bar:
            return self._native.score_batch(tasks, task_of, predictions, bar.update)

    def native_stats(self) -> Optional[Dict[str, Any]]:
        """Evaluations the native engine answered, and those it does not implement
        (``fallbacks``, scored ``engine_unsupported``), by reason."""
        return self._native.native_stats()


def _predictions(predictions: Any) -> List[str]:
    if isinstance(predictions, (str, bytes, Mapping)) or not isinstance(predictions, Iterable):
        raise TypeError(
            f"predictions must be a list of str, not {type(predictions).__name__}"
        )
    predictions = list(predictions)
    for i, p in enumerate(predictions):
        if not isinstance(p, str):
            raise TypeError(f"predictions[{i}] must be a str, not {type(p).__name__}")
    return predictions


def _json(value: Any) -> str:
    """``value`` as JSON text; what JSON cannot hold is written as its repr."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return json.dumps(value, default=repr)


def _program(reference: Mapping) -> Any:
    if "validation program" in reference:
        return reference["validation program"]
    return reference.get("validation_program")


def _holdout(reference: Mapping) -> Any:
    if "holdout program" in reference:
        return reference["holdout program"]
    return reference.get("holdout_program")


def _config(reference: Mapping) -> Any:
    config = reference.get("evaluation_config")
    if isinstance(config, str):
        try:
            return json.loads(config)
        except ValueError:
            return config
    return config


# A task as the native judge takes it: a task record as JSON text, or
# (program, evaluation_config as JSON or None, id as JSON or None, holdout
# program or None).
_Task = Union[str, Tuple[str, Optional[str], Optional[str], Optional[str]]]


def _task(reference: Any, index: int) -> _Task:
    """The task ``reference`` names; equal references give equal tasks."""
    if isinstance(reference, str):
        return reference if reference.lstrip().startswith("{") else (reference, None, None, None)
    if not isinstance(reference, Mapping):
        raise TypeError(
            f"references[{index}] must be a dict or a str, not {type(reference).__name__}"
        )
    program = _program(reference)
    config = _config(reference)
    config = None if config is None else _json(config)
    id_ = reference.get("id")
    id_ = None if id_ is None else _json(id_)
    holdout = _holdout(reference)
    if isinstance(program, str) and (holdout is None or isinstance(holdout, str)):
        return (program, config, id_, holdout)
    # Not a program: the native judge reads the record and names what is wrong.
    record: Dict[str, Any] = {}
    if "validation program" in reference or "validation_program" in reference:
        record["validation program"] = program
    if holdout is not None:
        record["holdout program"] = holdout
    return json.dumps(record, default=repr)


def _tasks(references: Any, count: int) -> Tuple[List[_Task], List[int]]:
    """The distinct tasks, and each prediction's task index."""
    if isinstance(references, (str, Mapping)):
        references = [references] * count
    elif isinstance(references, Iterable):
        references = list(references)
    else:
        raise TypeError(
            f"references must be a list of dicts or str, not {type(references).__name__}"
        )
    if len(references) != count:
        raise ValueError(
            f"{count} predictions but {len(references)} references"
        )
    index: Dict[_Task, int] = {}
    tasks: List[_Task] = []
    task_of: List[int] = []
    for i, reference in enumerate(references):
        task = _task(reference, i)
        t = index.get(task)
        if t is None:
            t = index[task] = len(tasks)
            tasks.append(task)
        task_of.append(t)
    return tasks, task_of


@functools.lru_cache(maxsize=8)
def shared_judge(**options: Any) -> Judge:
    """One judge per set of options, kept so its worker processes are reused."""
    return Judge(**options)


def compute(
    predictions: Iterable[str],
    references: Union[Reference, Iterable[Reference]],
    *,
    progress: bool = False,
    **options: Any,
) -> Dict[str, Any]:
    """Scores a batch the way the SLR ``evaluate`` metric reports it.

    Returns ``accuracy`` (fraction all-correct), ``partial_score`` (mean),
    ``syntax_score`` (fraction syntactically valid) and ``detailed_results``:
    one dict per prediction with ``is_correct``, ``partial_score``,
    ``syntax_valid``, ``error``, ``error_kind``, ``time_ms``, ``shortcut``
    and the rest of ``entail judge``'s fields. ``options`` are `Judge`'s.
    """
    results = shared_judge(**options).score_batch(predictions, references, progress=progress)
    for result in results:
        result.setdefault("shortcut", None)
    n = len(results)

    def mean(key: str) -> float:
        return sum(float(r[key]) for r in results) / n if n else 0.0

    return {
        "accuracy": mean("is_correct"),
        "partial_score": mean("partial_score"),
        "syntax_score": mean("syntax_valid"),
        "detailed_results": results,
    }
