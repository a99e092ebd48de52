"""The four benchmarks as inspect-ai tasks (``pip install inspect-ai``).

One ``@task`` per benchmark: its dataset is `entail.datasets`' items (the
prompt as input, a gold answer as target, the ``ground_truth`` text in the
metadata), its solver the model's generation on that prompt, and its scorer
the benchmark's reward (`entail.<benchmark>.rewards`), reported as the mean
score and the share of full marks::

    inspect eval python/entail/inspect_tasks.py@logicon --model openai/gpt-4o -T size=50
"""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Target, mean, scorer
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
        return Score(value=float(detail["score"]), answer=completion, metadata=detail)

    return score


def _task(benchmark: str, size: int, seed: int, **config: Any) -> Task:
    dataset = _datasets.create_dataset(benchmark, size=size, seed=seed, **config)
    samples = [
        Sample(input=e["question"], target=e["answer"], id=e["metadata"]["id"],
               metadata={"ground_truth": e["metadata"]["ground_truth"],
                         "difficulty": e["metadata"]["difficulty"]})
        for e in dataset
    ]
    return Task(dataset=MemoryDataset(samples, name=f"entail_{benchmark}"),
                solver=[generate()], scorer=entail_scorer(benchmark))


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
    """DivLogicEval questions; the score is correctness (PartialCircular-scaled over rotations)."""
    return _task("divlogic", size, seed, type=type, rotations=rotations)
