"""The four benchmarks as inspect-ai tasks (``pip install inspect-ai``).

One ``@task`` per benchmark: its dataset is `entail.datasets`' items (the
prompt as input, a gold answer as target, the ``ground_truth`` text in the
metadata), its solver the model's generation on that prompt, and its scorer
the benchmark's reward (`entail.<benchmark>.rewards`) of each sample on its
own, reported as the mean score. The package registers the tasks with
inspect-ai (its ``inspect_ai`` entry point) as ``entail/<benchmark>``::

    inspect eval entail/logicon --model openai/gpt-4o -T size=50 -T variant=hard
    inspect eval entail/divlogic --model openai/gpt-4o -T rotations=true

(in a checkout that is not installed, ``inspect eval
python/entail/inspect_tasks.py@logicon``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, List

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, SampleScore, Score, Target, mean, metric, scorer
from inspect_ai.solver import TaskState, generate

from entail import datasets as _datasets


@scorer(metrics=[mean()])
def entail_scorer(benchmark: str):
    """The benchmark's reward of the model's completion, in [0, 1]."""
    module = _datasets.create_dataset(benchmark, size=0).module

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion
        truth = state.metadata["ground_truth"]
        detail = (await asyncio.to_thread(module.rewards, [completion], [truth]))[0]
        if benchmark == "divlogic":  # for `partial_circular`
            detail = dict(detail, ground_truth=truth)
        return Score(value=float(detail["score"]), answer=completion, metadata=detail)

    return score


@metric
def partial_circular() -> Metric:
    """DivLogicEval's PartialCircular over the samples' rotation groups (the
    four rotations of a question, ``generate(rotations=True)``), as
    `entail.divlogic.score` computes it from each sample's pick; 0.0 when no
    question has all four rotations among the samples."""

    def compute(scores: List[SampleScore]) -> float:
        from entail import divlogic

        questions, answers = {}, []
        for sample in scores:
            meta = sample.score.metadata or {}
            truth = meta.get("ground_truth")
            if truth is None:
                continue
            question = json.loads(truth) if isinstance(truth, str) else dict(truth)
            if question["id"] in questions:  # epochs: the first counts
                continue
            questions[question["id"]] = question
            picked = meta.get("picked")
            answers.append({"id": question["id"], "answer": picked if isinstance(picked, int) else None})
        report = divlogic.score(list(questions.values()), answers)
        value = report.get("partial_circular")
        return float(value) if value is not None else 0.0

    return compute


def _task(benchmark: str, size: int, seed: int, **config: Any) -> Task:
    dataset = _datasets.create_dataset(benchmark, size=size, seed=seed, **config)
    samples = [
        Sample(input=e["question"], target=e["answer"], id=e["metadata"]["id"],
               metadata={"ground_truth": e["metadata"]["ground_truth"],
                         "difficulty": e["metadata"]["difficulty"]})
        for e in dataset
    ]
    dataset_ = MemoryDataset(samples, name=f"entail_{benchmark}")
    if benchmark == "divlogic" and config.get("rotations"):
        return Task(dataset=dataset_, solver=[generate()], scorer=entail_scorer(benchmark),
                    metrics=[mean(), partial_circular()])
    return Task(dataset=dataset_, solver=[generate()], scorer=entail_scorer(benchmark))


@task
def slr(size: int = 20, seed: int = 0, level: int = 1) -> Task:
    """SLR tasks of one curriculum level; the score is the judge's partial score."""
    return _task("slr", size, seed, level=level)


@task
def logicgraph(size: int = 10, seed: int = 0, tier: str = "small") -> Task:
    """LogicGraph instances; the score is (success + precision + diversity) / 3."""
    return _task("logicgraph", size, seed, tier=tier)


@task
def logicon(size: int = 20, seed: int = 0, variant: str = "plain", task: str = "lists") -> Task:
    """LogiConBench items; the score is exact match (Task 1), F1 (Task 2) or consistency (Task 3)."""
    return _task("logicon", size, seed, variant=variant, task=task)


@task
def divlogic(size: int = 20, seed: int = 0, type: str = "mixed", rotations: bool = False) -> Task:
    """DivLogicEval questions; a sample's score is its correctness (inspect
    scores each sample on its own). With ``rotations=True`` the samples are
    each question's four rotations and the ``partial_circular`` metric
    reports the paper's PartialCircular over them."""
    return _task("divlogic", size, seed, type=type, rotations=rotations)
