"""The SLR judge as a reward function, in the shapes RL frameworks call.

Each adapter scores a whole batch in one call with the GIL released, on a
judge shared by the process (`entail.compute`'s), so rollouts to the same
prompt share one parsed task and its loaded workers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence

from entail._judge import shared_judge


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


def trl_slr(
    prompts: Optional[List[Any]] = None,
    completions: Optional[List[Any]] = None,
    binary: bool = False,
    **kwargs: Any,
) -> List[float]:
    """A TRL ``GRPOTrainer`` reward function: one float per completion.

    The dataset's columns arrive as keyword lists with SLR-Bench's names:
    ``"validation program"`` (or ``validation_program``) and, optionally,
    ``evaluation_config``. Completions are strings or chat messages,
    scored as decoded: the rule is found in them as the SLR reference
    finds it (see ``Judge``). Returns the partial score, or 1.0/0.0 for all-correct with ``binary=True``.
    """
    if completions is None:
        raise TypeError("trl_slr needs completions")
    programs = kwargs.get("validation program", kwargs.get("validation_program"))
    if programs is None:
        raise ValueError(
            "trl_slr needs the dataset column 'validation program' (SLR-Bench's name)"
        )
    configs = kwargs.get("evaluation_config") or [None] * len(programs)
    references = [
        {"validation program": p, "evaluation_config": c} for p, c in zip(programs, configs)
    ]
    results = shared_judge().score_batch([_text(c) for c in completions], references)
    if binary:
        return [1.0 if r["is_correct"] else 0.0 for r in results]
    return [float(r["partial_score"]) for r in results]


def _verl_dict(result: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "score": float(result["partial_score"]),
        "acc": 1.0 if result["is_correct"] else 0.0,
        "syntax_valid": 1.0 if result["syntax_valid"] else 0.0,
    }


def verl_slr(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Any = None,
) -> Dict[str, float]:
    """verl's ``compute_score``: ``score`` (the partial score), plus ``acc``
    (all correct) and ``syntax_valid`` as 1.0/0.0 for logging.

    ``ground_truth`` is the task: a dict, its JSON text, or the validation
    program text.
    """
    return _verl_dict(shared_judge().score(solution_str, ground_truth))


def verl_slr_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Optional[Sequence[Any]] = None,
    **kwargs: Any,
) -> List[Dict[str, float]]:
    """`verl_slr` for verl's batch reward manager: one dict per solution."""
    results = shared_judge().score_batch(list(solution_strs), list(ground_truths))
    return [_verl_dict(r) for r in results]


def openrlhf_slr(queries: List[str], prompts: List[str], labels: List[Any]) -> Dict[str, Any]:
    """OpenRLHF's ``reward_func(queries, prompts, labels)`` (``--remote_rm_url``
    with ``--label_key`` naming the task column).

    A query is the prompt followed by the response; the prompt is cut off
    before scoring. Returns ``rewards`` and ``scores`` (the partial scores,
    as torch tensors when torch is installed) and ``extra_logs``.
    """
    responses = [
        q[len(p):] if isinstance(q, str) and isinstance(p, str) and q.startswith(p) else q
        for q, p in zip(queries, prompts)
    ]
    if len(prompts) != len(queries):
        raise ValueError(f"{len(queries)} queries but {len(prompts)} prompts")
    results = shared_judge().score_batch(responses, labels)
    scores = [float(r["partial_score"]) for r in results]
    correct = [1.0 if r["is_correct"] else 0.0 for r in results]
    try:
        import torch
    except ImportError:
        return {"rewards": scores, "scores": scores, "extra_logs": {"acc": correct}}
    return {
        "rewards": torch.tensor(scores),
        "scores": torch.tensor(scores),
        "extra_logs": {"acc": torch.tensor(correct)},
    }
