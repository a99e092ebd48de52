"""The SLR judge as a reward function, in the shapes RL frameworks call.

Each adapter scores a whole batch in one call with the GIL released, on a
judge shared by the process (`entail.compute`'s), so rollouts to the same
prompt share one parsed task and its loaded workers.

Completions are taken as decoded, special tokens and all: the rules are
found where the SLR reference metric finds them (every
``eastbound(...) :- ... .`` in the text, comments deleted, loaded together),
so ``</s>``, ``<|im_end|>``, "The rule is:"
before it or an explanation after it change nothing, and a completion with
no rule (only a fact) scores 0. See ``entail.Judge``.

Every adapter takes, as keywords:

- ``binary=True``: 1.0 for an all-correct rule, else 0.0 (default: the
  partial score, correct examples / examples);
- ``holdout=True``: for tasks with a ``holdout program`` (``gen slr --holdout``),
  the reward is the lower of the scores on the shown and on the held-out
  trains (a rule copied from the shown trains earns what it earns on trains
  it has not seen); the held-out score is reported either way;
- ``strict=True``: raise ``ValueError`` when a row's task cannot be scored
  (a missing or broken ``validation program``, or a task whose label
  predicates are not ``eastbound``/``westbound`` and that has no
  ``evaluation_config``), instead of scoring it 0 with a warning;
- the judge's options ``workers``, ``isomorphic``, ``renamings``, ``engine``,
  ``rules``, ``inference_limit``, ``timeout`` and ``memory_mb`` (see
  ``entail.Judge``).

Other keywords (dataset columns, a framework's own arguments) are ignored,
and so is a dataset column (a list) named like a judge option.
``with_options(adapter, **options)`` binds options and keeps the adapter's
name, which TRL uses as the reward's name.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence

from entail._judge import Judge, shared_judge

logger = logging.getLogger("entail.rewards")

#: Options every adapter takes and hands to its `entail.Judge`.
JUDGE_OPTIONS = (
    "workers", "isomorphic", "renamings", "engine", "rules", "inference_limit", "timeout", "memory_mb",
)


def _part_text(part: Any) -> str:
    """The text of one part of a multimodal message ('' for an image)."""
    if isinstance(part, Mapping):
        return part.get("text", "") or ""
    return getattr(part, "text", "") or ""


def _text(completion: Any) -> str:
    """A completion's text: a str, or the last message of a chat."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion:
        message = completion[-1]
        # A message is a dict, or an object with `content` (verifiers'
        # pydantic messages).
        if isinstance(message, Mapping) or hasattr(message, "content"):
            if isinstance(message, Mapping):
                content = message.get("content", "")
            else:
                content = message.content
            if content is None:
                return ""
            if isinstance(content, str):
                return content
            if isinstance(content, Sequence):  # multimodal parts
                return "".join(_part_text(p) for p in content)
    if isinstance(completion, Sequence) and not completion:
        return ""
    raise TypeError(
        "a completion must be a str or a list of chat messages, "
        f"not {type(completion).__name__}"
    )




def with_options(adapter: Callable[..., Any], **options: Any) -> Callable[..., Any]:
    """``adapter`` with ``options`` bound (``binary``, ``holdout``, ``strict``,
    judge options), under the adapter's own name."""
    bound = functools.partial(adapter, **options)
    return functools.update_wrapper(bound, adapter)


def _judge(options: Mapping[str, Any]) -> Judge:
    # A dataset column (a list, one value per row) that shares an option's
    # name, such as ``rules``, is a column, not an option.
    return shared_judge(**{
        k: options[k] for k in JUDGE_OPTIONS if k in options and not isinstance(options[k], list)
    })


def _reward(result: Mapping[str, Any], binary: bool, holdout: bool) -> float:
    held = result.get("holdout_score")
    use_held = holdout and held is not None
    if binary:
        correct = result["is_correct"] and (not use_held or result.get("holdout_correct"))
        return 1.0 if correct else 0.0
    score = float(result["partial_score"])
    return min(score, float(held)) if held is not None and use_held else score


class Report:
    """What a batch of results says beyond its rewards: accuracy, the
    syntax-valid rate, error kinds, and the rows whose task could not be
    scored (which would otherwise be silent zeros)."""

    def __init__(self, results: Sequence[Mapping[str, Any]]) -> None:
        n = max(len(results), 1)
        self.results = results
        self.accuracy = sum(1.0 for r in results if r["is_correct"]) / n
        self.syntax_valid = sum(1.0 for r in results if r["syntax_valid"]) / n
        self.error_kinds = Counter(r["error_kind"] for r in results if r["error_kind"])
        self.task_errors = [
            (i, r["error"]) for i, r in enumerate(results) if r["error_kind"] == "input"
        ]
        held = [r["holdout_score"] for r in results if r.get("holdout_score") is not None]
        self.holdout_score = sum(held) / len(held) if held else None

    def metrics(self) -> Dict[str, float]:
        """Scalars to log, under names that group them (``slr/…``)."""
        n = max(len(self.results), 1)
        metrics = {
            "slr/accuracy": self.accuracy,
            "slr/syntax_valid": self.syntax_valid,
            "slr/task_errors": float(len(self.task_errors)),
        }
        for kind, count in sorted(self.error_kinds.items()):
            metrics[f"slr/error/{kind}"] = count / n
        if self.holdout_score is not None:
            metrics["slr/holdout_score"] = self.holdout_score
        return metrics

    def check(self, strict: bool) -> None:
        """Warns about rows whose task could not be scored; raises with ``strict``."""
        if not self.task_errors:
            return
        first, message = self.task_errors[0]
        text = (
            f"{len(self.task_errors)} of {len(self.results)} rows could not be scored "
            f"(their reward is 0): row {first}: {message}"
        )
        if strict:
            raise ValueError(text)
        logger.warning(text)


def _score(
    completions: List[str], references: List[Any], options: Mapping[str, Any], strict: bool
) -> Report:
    report = Report(_judge(options).score_batch(completions, references))
    report.check(strict)
    return report


def trl_slr(
    prompts: Optional[List[Any]] = None,
    completions: Optional[List[Any]] = None,
    binary: bool = False,
    holdout: bool = False,
    strict: bool = False,
    log_metric: Optional[Callable[[str, float], Any]] = None,
    log_extra: Optional[Callable[[str, List[Any]], Any]] = None,
    **kwargs: Any,
) -> List[float]:
    """A TRL ``GRPOTrainer`` reward function: one float per completion.

    The dataset's columns arrive as keyword lists with SLR-Bench's names:
    ``"validation program"`` (or ``validation_program``) and, optionally,
    ``evaluation_config`` and ``"holdout program"``. Completions are strings
    or chat messages, scored as decoded: the rule is found in them as the
    SLR reference finds it (see ``Judge``). Returns the partial score (see
    the module for ``binary``, ``holdout``, ``strict`` and the judge
    options). Through TRL's ``log_metric`` it logs ``slr/accuracy``,
    ``slr/syntax_valid``, ``slr/task_errors``, ``slr/error/<kind>`` and
    ``slr/holdout_score``; through ``log_extra`` each completion's
    ``slr_error_kind``.
    """
    if completions is None:
        raise TypeError("trl_slr needs completions")
    programs = kwargs.get("validation program", kwargs.get("validation_program"))
    if programs is None:
        raise ValueError(
            "trl_slr needs the dataset column 'validation program' (SLR-Bench's name)"
        )
    configs = kwargs.get("evaluation_config") or [None] * len(programs)
    holdouts = kwargs.get("holdout program", kwargs.get("holdout_program")) or [None] * len(programs)
    references = []
    for program, config, held in zip(programs, configs, holdouts):
        reference = {"validation program": program, "evaluation_config": config}
        if held is not None:
            reference["holdout program"] = held
        references.append(reference)
    report = _score([_text(c) for c in completions], references, kwargs, strict)
    if callable(log_metric):
        for name, value in report.metrics().items():
            log_metric(name, value)
    if callable(log_extra):
        log_extra("slr_error_kind", [r["error_kind"] or "" for r in report.results])
    return [_reward(r, binary, holdout) for r in report.results]


class VerlScore(dict):
    """verl's reward dict: ``score`` (the reward), ``acc`` and
    ``syntax_valid`` as 1.0/0.0, and ``holdout_score`` for tasks with a
    holdout program, which verl's naive, batch and DAPO managers log. verl's
    prime manager reads a result that is not a number as ``result[0]``: that
    is the score too."""

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int) and not isinstance(key, bool) and key == 0:
            return dict.__getitem__(self, "score")
        return dict.__getitem__(self, key)


def _verl_score(result: Mapping[str, Any], binary: bool, holdout: bool) -> VerlScore:
    score = VerlScore(
        score=_reward(result, binary, holdout),
        acc=1.0 if result["is_correct"] else 0.0,
        syntax_valid=1.0 if result["syntax_valid"] else 0.0,
    )
    if result.get("holdout_score") is not None:
        score["holdout_score"] = float(result["holdout_score"])
    return score


def verl_slr(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
    *,
    binary: bool = False,
    holdout: bool = False,
    strict: bool = False,
    **kwargs: Any,
) -> VerlScore:
    """verl's ``compute_score``: a `VerlScore` dict with ``score``, which
    every verl reward manager reads (``reward_kwargs`` such as
    ``binary=True`` arrive as keywords; others, like the reward loop's
    ``reward_router_address``, are ignored).

    ``ground_truth`` is the task: a dict, its JSON text, or the validation
    program text.
    """
    report = _score([solution_str], [ground_truth], kwargs, strict)
    return _verl_score(report.results[0], binary, holdout)


def verl_slr_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Optional[Sequence[Any]] = None,
    *,
    binary: bool = False,
    holdout: bool = False,
    strict: bool = False,
    **kwargs: Any,
) -> List[VerlScore]:
    """`verl_slr` for verl's batch reward manager: one dict per solution."""
    report = _score(list(solution_strs), list(ground_truths), kwargs, strict)
    return [_verl_score(r, binary, holdout) for r in report.results]


def openrlhf_slr(
    queries: List[str],
    prompts: List[str],
    labels: List[Any],
    *,
    binary: bool = False,
    holdout: bool = False,
    strict: bool = False,
    **kwargs: Any,
) -> Dict[str, Any]:
    """OpenRLHF's ``reward_func(queries, prompts, labels)`` (``--remote_rm_url``
    with ``--label_key`` naming the task column).

    A query is the prompt followed by the response; the prompt is cut off
    before scoring. Returns ``rewards`` and ``scores`` (as torch tensors when
    torch is installed) and ``extra_logs`` (``acc``, ``syntax_valid``).
    """
    if len(prompts) != len(queries):
        raise ValueError(f"{len(queries)} queries but {len(prompts)} prompts")
    responses = [
        q[len(p):] if isinstance(q, str) and isinstance(p, str) and q.startswith(p) else q
        for q, p in zip(queries, prompts)
    ]
    report = _score(responses, list(labels), kwargs, strict)
    scores = [_reward(r, binary, holdout) for r in report.results]
    logs = {
        "acc": [1.0 if r["is_correct"] else 0.0 for r in report.results],
        "syntax_valid": [1.0 if r["syntax_valid"] else 0.0 for r in report.results],
    }
    try:
        import torch
    except ImportError:
        return {"rewards": scores, "scores": scores, "extra_logs": logs}
    return {
        "rewards": torch.tensor(scores),
        "scores": torch.tensor(scores),
        "extra_logs": {k: torch.tensor(v) for k, v in logs.items()},
    }
