"""The four benchmarks as `verifiers` environments (Prime Intellect's RL
environment library, ``pip install 'verifiers>=0.1.9,<0.2'``).

``load_environment(benchmark, **config)`` returns a single-turn environment:
its dataset is `entail.datasets.create_dataset(benchmark, **config)` as rows
``question``, ``answer`` (a gold answer) and ``info`` (the item's
``ground_truth`` text), and its rubric the benchmark's reward
(`entail.<benchmark>.rewards`), called once per example on the group of
its rollouts. verifiers groups rollouts by example, so DivLogicEval's four
rotations of a question (four examples) are never scored together: each
rollout earns its plain correctness, and the PartialCircular scaling of
`entail.divlogic.rewards` does not apply. ``eval_size`` items under
``seed + 1`` make the eval dataset.

``vf-eval`` finds it as the package's own ``load_environment``::

    vf-eval entail -a '{"benchmark": "logicon", "variant": "hard", "size": 50}' -m gpt-4.1-mini -n 20
"""

from __future__ import annotations

from typing import Any, List

from entail import datasets as _datasets
from entail.rewards import _text


def _rows(dataset: _datasets.Dataset) -> List[dict]:
    return [
        {"question": e["question"], "answer": e["answer"],
         "info": {"ground_truth": e["metadata"]["ground_truth"], "id": e["metadata"]["id"]}}
        for e in dataset
    ]


def load_environment(benchmark: str = "slr", *, size: int = 100, seed: int = 0,
                     eval_size: int = 0, system_prompt: Any = None, **config: Any):
    """A `verifiers.SingleTurnEnv` for ``benchmark`` (``slr``,
    ``logicgraph``, ``logicon`` or ``divlogic``); ``config`` are the fields
    of its `entail.datasets` config (e.g. ``level=3``, ``variant="hard"``)."""
    import verifiers as vf
    from datasets import Dataset

    train = _datasets.create_dataset(benchmark, size=size, seed=seed, **config)
    module = train.module
    evaluation = None
    if eval_size:
        evaluation = Dataset.from_list(_rows(
            _datasets.create_dataset(benchmark, size=eval_size, seed=seed + 1, **config)))

    def entail_reward(completions: List[Any], infos: List[dict], **kwargs: Any) -> List[float]:
        truths = [info["ground_truth"] for info in infos]
        return [float(r["score"]) for r in module.rewards([_text(c) for c in completions], truths)]

    entail_reward.__name__ = f"entail_{train.name}_reward"
    return vf.SingleTurnEnv(
        dataset=Dataset.from_list(_rows(train)),
        eval_dataset=evaluation,
        system_prompt=system_prompt,
        rubric=vf.Rubric(funcs=[entail_reward]),
    )
