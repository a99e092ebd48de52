"""LogiConBench: generate consistency samples, score answers to its three
tasks, reward completions. Each item says which task it asks: a ``plain``
sample Task 2 (list every consistent T/F list), a ``hard`` sample Task 1 on
its query's list (consistent or inconsistent?), a ``completion`` sample the
hidden label, and a ``task="generative"`` group sample Task 3 (one new
statement per group keeping the facts consistent).

Reward, the paper's metric per item in [0, 1]: Tasks 1 and completion, 1
for the right verdict or label, else 0 (exact match); Task 2, the F1 of the
listed consistent lists against the gold ones (the paper's partial credit;
1 exactly for the exact set); Task 3, the share of cross-group fact
combinations that stay consistent with the answer's statements (the
paper's consistency; 0 for an answer not in the format asked).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from entail._load import native as _native
from entail._args import (LOGICON_LABELS, LOGICON_PROMPTS, LOGICON_TASKS, LOGICON_VARIANTS,
                          Range, _choice, _count, _jsonl, _range, _shard, _threads)
from entail._bench import Records, Shapes, lines, report
from entail.pictures import Sample


def generate(
    *,
    k: Range = (2, 5),
    count: int = 100,
    seed: int = 0,
    variant: str = "plain",
    labels: str = "exact",
    prompt: Optional[str] = None,
    max_distance: int = 6,
    atoms: Range = (8, 8),
    graph_nodes: int = 100,
    statement_atoms: int = 16,
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
    _choice("variant", variant, LOGICON_VARIANTS)
    _choice("labels", labels, LOGICON_LABELS)
    if prompt is not None:
        _choice("prompt", prompt, LOGICON_PROMPTS)
    _choice("task", task, LOGICON_TASKS)
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
    # Statement samples draw as their reasoning path; group samples have none.
    return [Sample(r) if "path" in r else r for r in _jsonl(text)]


_TASKS = {"discriminative": 1, "enumerative": 2, "generative": 3}


def score(samples: Records, answers: Records, *, task: Union[int, str]) -> Dict[str, Any]:
    """`entail score logicon --task TASK --json`: ``task`` is 1, 2, 3 or
    ``"discriminative"``, ``"enumerative"``, ``"generative"``; ``samples``
    and ``answers`` (``{"id", "answer"}`` records, for Task 1 plain and
    hard lists with ``"labels"``) are JSONL paths or lists of dicts."""
    number = _TASKS.get(task, task) if isinstance(task, str) else task
    if number not in (1, 2, 3):
        raise ValueError(f"task {task!r}: expected 1, 2, 3 or one of {sorted(_TASKS)}")
    return report(_native.score_logicon(number, lines(samples), lines(answers)))


_SHAPES = Shapes("logicon")


def ground_truth(item: Union[Mapping[str, Any], str]) -> str:
    """What the reward needs of an item, as JSON text for one dataset column:
    the item. A str is taken as that text already."""
    return _SHAPES.ground_truth(item)


def gold_answer(item: Union[Mapping[str, Any], str]) -> str:
    """A completion that earns the full LogiConBench reward on ``item``."""
    return _SHAPES.gold_answer(item)


def rewards(completions: Sequence[Any], ground_truths: Sequence[Any], *, strict: bool = False,
            binary: bool = False, timeout: float = 10.0) -> List[Dict[str, Any]]:
    """The LogiConBench reward of each completion against its ground truth (a
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
    logs the batch means of the reward's metrics (``logicon/...``). Keywords
    ``binary``, ``strict`` and ``timeout`` (bind them with
    ``functools.partial`` or `entail.rewards.with_options`) act as in
    `rewards`; other keywords are ignored."""
    return _SHAPES.trl_reward(prompts, completions, kwargs)


trl_reward.__name__ = "logicon_reward"


def compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> Dict[str, float]:
    """verl's ``compute_score(data_source, solution_str, ground_truth,
    extra_info)``: a dict of floats, ``score`` and the metrics
    ``task``, ``correct`` and ``parsed``, the same keys for every sample. ``reward_kwargs`` ``binary``,
    ``strict`` and ``timeout`` act as in `rewards`."""
    return _SHAPES.compute_score(solution_str, ground_truth, kwargs)


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str],
                        ground_truths: Sequence[Any], extra_infos: Optional[Sequence[Any]] = None,
                        **kwargs: Any) -> List[Dict[str, float]]:
    """`compute_score` for verl's batch reward manager: a dict per solution."""
    return _SHAPES.compute_score_batch(solution_strs, ground_truths, kwargs)


def reward_func(queries: List[str], prompts: List[str], labels: List[Any], **kwargs: Any) -> Dict[str, Any]:
    """OpenRLHF's ``reward_func(queries, prompts, labels)``: a query is the
    prompt followed by the response; ``labels`` are the ground truths
    (``--label_key``). Returns ``rewards``, ``scores`` and ``extra_logs``
    (the metrics of `compute_score`), as torch tensors when torch is
    installed."""
    return _SHAPES.reward_func(queries, prompts, labels, kwargs)
