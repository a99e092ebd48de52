"""DivLogicEval: generate multiple-choice questions, score answers, reward
completions. A completion answers as the prompt asks, ``Answer: <A/B/C/D>``;
it is read by entail's one answer reader (in Rust, as ``entail score`` reads
it): reasoning in ``<think>`` blocks and end/chat-template tokens are dropped,
the last answer marker wins (``**Answer:** D``, ``The answer is D.``,
``\\boxed{D}``, ``<answer>D</answer>``, a bare ``D``), and a hedge or
several letters is no answer.

Reward: 1 when the completion picks the question's answer, else 0 (the
paper's accuracy). When a batch holds all four rotations of a question
(``generate(rotations=True)``, ids ``...-r0`` to ``...-r3``), a correct
completion's reward is scaled by its group's consistency factor
``1 + sum_o p(o) log4 p(o)`` (``p(o)``: the share of the group's
completions picking option ``o`` by content), so the group's mean reward is
its PartialCircular, and a model that guesses around earns less.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from entail._load import native as _native
from entail._args import DIVLOGIC_TYPES, _choice, _count, _jsonl, _shard, _threads
from entail._bench import Records, Shapes, lines, report


def generate(
    *,
    type: str = "mixed",
    count: int = 100,
    seed: int = 0,
    rotations: bool = False,
    n: int = 4,
    threads: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
) -> List[Dict[str, Any]]:
    """DivLogicEval questions (``entail gen divlogic``): ``type`` is
    ``3c1e``, ``3e1c``, ``missing`` or ``mixed``; ``rotations`` gives the
    four circular rotations of each question; ``n`` is the paper's n (2 to
    n+1 premises); ``threads`` defaults to all cores (the output does not
    depend on it). Words come from WordNet, found as the CLI finds it
    (``$ENTAIL_WORDNET``, else ``/usr/share/wordnet``)."""
    text = _native.gen_divlogic(
        _choice("type", type, DIVLOGIC_TYPES),
        _count("count", count),
        _count("seed", seed),
        bool(rotations),
        _count("n", n),
        _threads(threads),
        _shard(shard),
    )
    return _jsonl(text)


def score(questions: Records, answers: Records, *, alpha: Sequence[float] = (0.5,)) -> Dict[str, Any]:
    """`entail score divlogic --json`: accuracy, Circular, PartialCircular
    and PC_alpha for each ``alpha``; ``questions`` and ``answers``
    (``{"id", "answer"}`` records, the answer an index or the model's text,
    read as the rewards read it) are
    JSONL paths or lists of dicts."""
    return report(_native.score_divlogic(lines(questions), lines(answers), [float(a) for a in alpha]))


_SHAPES = Shapes("divlogic")


def ground_truth(item: Union[Mapping[str, Any], str]) -> str:
    """What the reward needs of an item, as JSON text for one dataset column:
    the item. A str is taken as that text already."""
    return _SHAPES.ground_truth(item)


def gold_answer(item: Union[Mapping[str, Any], str]) -> str:
    """A completion that earns the full DivLogicEval reward on ``item``."""
    return _SHAPES.gold_answer(item)


def rewards(completions: Sequence[Any], ground_truths: Sequence[Any], *, strict: bool = False,
            binary: bool = False, timeout: float = 10.0) -> List[Dict[str, Any]]:
    """The DivLogicEval reward of each completion against its ground truth (a
    generated item, or its `ground_truth(item)` text): a dict with ``score``
    in [0, 1] and the metrics it rests on. ``binary=True``: ``score`` is 1.0
    for full marks, else 0.0 (the partial score kept as ``partial_score``);
    ``strict=True`` raises on a ground truth that cannot be scored instead of
    warning and scoring it 0.0."""
    return _SHAPES.rewards(completions, ground_truths, strict=strict, binary=binary, timeout=timeout)


def trl_reward(prompts: Optional[List[Any]] = None, completions: Optional[List[Any]] = None,
               **kwargs: Any) -> List[float]:
    """A TRL ``GRPOTrainer`` reward function: one float per completion. The
    ground truth is the dataset's ``ground_truth`` column, else the row's own
    columns (a dataset of generated items). Through TRL's ``log_metric`` it
    logs the batch means of the reward's metrics (``divlogic/...``). Keywords
    ``binary``, ``strict`` and ``timeout`` (bind them with
    ``functools.partial`` or `entail.rewards.with_options`) act as in
    `rewards`; other keywords are ignored."""
    return _SHAPES.trl_reward(prompts, completions, kwargs)


trl_reward.__name__ = "divlogic_reward"


def compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> Dict[str, float]:
    """verl's ``compute_score(data_source, solution_str, ground_truth,
    extra_info)``: a dict of floats, ``score`` and the metrics
    ``correct`` and ``picked`` (the option's index, -1 when no letter is read), the same keys for every sample. ``reward_kwargs`` ``binary``,
    ``strict`` and ``timeout`` act as in `rewards`."""
    return _SHAPES.compute_score(solution_str, ground_truth, kwargs)


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str],
                        ground_truths: Sequence[Any], extra_infos: Optional[Sequence[Any]] = None,
                        **kwargs: Any) -> List[Dict[str, float]]:
    """`compute_score` for verl's batch reward manager: a dict per solution (a batch holding all four rotations of a question scales them to its PartialCircular, as `rewards` does)."""
    return _SHAPES.compute_score_batch(solution_strs, ground_truths, kwargs)


def reward_func(queries: List[str], prompts: List[str], labels: List[Any], **kwargs: Any) -> Dict[str, Any]:
    """OpenRLHF's ``reward_func(queries, prompts, labels)``: a query is the
    prompt followed by the response; ``labels`` are the ground truths
    (``--label_key``). Returns ``rewards``, ``scores`` and ``extra_logs``
    (the metrics of `compute_score`), as torch tensors when torch is
    installed."""
    return _SHAPES.reward_func(queries, prompts, labels, kwargs)
