"""The four benchmarks as datasets in reasoning-gym's shape.

``create_dataset(name, size=..., seed=..., **config)`` gives a sized,
indexable, iterable dataset of items ``{"question", "answer", "metadata"}``
(the prompt, a gold answer, and the item's ``ground_truth`` text with its
index and difficulty) and ``score_answer(answer, entry) -> float``: the
benchmark's reward (`entail.<benchmark>.rewards`), in [0, 1]. Scoring is
semantic, never by string overlap, so padding a gold answer with text earns
no partial credit. `Reseeding` makes one infinite by drawing chunk after
chunk under new seeds; SLR's curriculum is its 20 levels (``level`` or
``min_level``/``max_level``).

`register()` adds them to reasoning-gym's registry (as ``entail_slr`` …,
with SLR's curriculum), so `reasoning_gym.create_dataset` and its reseeding,
composite and curriculum tools take them like its own.
"""

from __future__ import annotations

import dataclasses
import math
import random
import warnings
from typing import Any, Dict, Iterator, List, Optional

from entail import divlogic, logicgraph, logicon, slr
from entail._args import (DIVLOGIC_TYPES, LOGICGRAPH_TIERS, LOGICON_TASKS, LOGICON_VARIANTS,
                          _choice)


@dataclasses.dataclass
class SlrConfig:
    """SLR tasks from levels ``min_level``..``max_level`` (``level`` sets both)."""

    min_level: int = 1
    max_level: int = 1
    level: Optional[int] = None
    prompt: str = "prolog"
    seed: Optional[int] = None
    size: int = 100

    def validate(self) -> None:
        if self.level is not None:
            self.min_level = self.max_level = self.level
        if not 1 <= self.min_level <= self.max_level <= 20:
            raise ValueError(f"levels {self.min_level}..{self.max_level}: need 1 <= min <= max <= 20")

    def generate(self, count: int, seed: int) -> List[Dict[str, Any]]:
        levels = self.max_level - self.min_level + 1
        return slr.generate(levels=(self.min_level, self.max_level), count=math.ceil(count / levels),
                            seed=seed, prompt=self.prompt)[:count]


@dataclasses.dataclass
class LogiconConfig:
    """LogiConBench samples: ``variant`` plain (Task 2), hard (Task 1) or
    completion, or ``task="generative"`` (Task 3)."""

    variant: str = "plain"
    task: str = "lists"
    min_k: int = 2
    max_k: int = 5
    seed: Optional[int] = None
    size: int = 100

    def validate(self) -> None:
        _choice("variant", self.variant, LOGICON_VARIANTS)
        _choice("task", self.task, LOGICON_TASKS)
        if not 2 <= self.min_k <= self.max_k:
            raise ValueError(f"k {self.min_k}..{self.max_k}: need 2 <= min <= max")

    def generate(self, count: int, seed: int) -> List[Dict[str, Any]]:
        if self.task == "generative":
            return logicon.generate(task="generative", count=count, seed=seed)
        return logicon.generate(variant=self.variant, k=(self.min_k, self.max_k), count=count,
                                seed=seed, prompt="zero-shot")


@dataclasses.dataclass
class DivlogicConfig:
    """DivLogicEval questions of ``type`` (``3c1e``, ``3e1c``, ``missing``
    or ``mixed``), with their four rotations when ``rotations``."""

    type: str = "mixed"
    rotations: bool = False
    seed: Optional[int] = None
    size: int = 100

    def validate(self) -> None:
        _choice("type", self.type, DIVLOGIC_TYPES)

    def generate(self, count: int, seed: int) -> List[Dict[str, Any]]:
        per = 4 if self.rotations else 1
        return divlogic.generate(type=self.type, rotations=self.rotations,
                                 count=math.ceil(count / per), seed=seed)[:count]


@dataclasses.dataclass
class LogicgraphConfig:
    """LogicGraph instances of ``tier`` (small, medium or large)."""

    tier: str = "small"
    seed: Optional[int] = None
    size: int = 20

    def validate(self) -> None:
        _choice("tier", self.tier, LOGICGRAPH_TIERS)

    def generate(self, count: int, seed: int) -> List[Dict[str, Any]]:
        return logicgraph.generate(tier=self.tier, count=count, seed=seed, prompt=True)


_BENCHMARKS = {
    "slr": (slr, SlrConfig),
    "logicon": (logicon, LogiconConfig),
    "divlogic": (divlogic, DivlogicConfig),
    "logicgraph": (logicgraph, LogicgraphConfig),
}


def _difficulty(name: str, item: Dict[str, Any]) -> Dict[str, Any]:
    if name == "slr":
        return {"level": item["curriculum level"]}
    if name == "logicon":
        return {"k": item["k"]} if "k" in item else {"groups": item["n"]}
    if name == "divlogic":
        return {"type": item["type"]}
    return {"paths": len(item["solutions"]["solutions"])}


class Dataset:
    """One benchmark's items under one seed, made on first access (all at
    once: the generators verify each item, and batch that work)."""

    def __init__(self, name: str, config: Any):
        self.name = name
        self.module, _ = _BENCHMARKS[name]
        config.validate()
        self.config = config
        self.seed = config.seed if config.seed is not None else random.randrange(2**32)
        self.size = config.size
        self._items: Optional[List[Dict[str, Any]]] = None

    def _entry(self, index: int, item: Dict[str, Any]) -> Dict[str, Any]:
        return {
            "question": item["prompt"],
            "answer": self.module.gold_answer(item),
            "metadata": {
                # reasoning-gym's registry name, which its CompositeDataset
                # looks the entry's scorer up by.
                "source_dataset": f"entail_{self.name}",
                "source_index": index,
                "id": item["id"],
                "ground_truth": self.module.ground_truth(item),
                "difficulty": _difficulty(self.name, item),
            },
        }

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> Dict[str, Any]:
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} outside 0..{self.size - 1}")
        if self._items is None:
            self._items = [self._entry(i, item) for i, item in enumerate(self._generate())]
        entry = self._items[index]
        # A copy: reasoning-gym's CompositeDataset writes into the metadata.
        return dict(entry, metadata=dict(entry["metadata"]))

    def _generate(self) -> List[Dict[str, Any]]:
        """Exactly ``size`` items. SLR's lowest levels hold only a few dozen
        distinct tasks (fewer once the test and validation tasks are held
        out): a dataset larger than its levels hold repeats their tasks in
        order, and a warning says how many are distinct."""
        items = self.config.generate(self.size, self.seed)
        if len(items) >= self.size:
            return items[: self.size]
        if not items:
            raise ValueError(f"{self.name}: the generator produced no item for {self.config}")
        if self.name != "slr":
            raise ValueError(f"{self.name}: the generator produced {len(items)} of {self.size} items")
        warnings.warn(
            f"slr levels {self.config.min_level}..{self.config.max_level} hold {len(items)} distinct "
            f"training tasks under seed {self.seed}; the {self.size} items repeat them (widen the "
            "levels with min_level/max_level for more distinct tasks)", stacklevel=4)
        return [items[i % len(items)] for i in range(self.size)]

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return (self[i] for i in range(self.size))

    def score_answer(self, answer: Optional[str], entry: Dict[str, Any]) -> float:
        """The benchmark's reward of ``answer`` for ``entry``: 0.0 for no answer."""
        if not isinstance(answer, str) or not answer:
            return 0.0
        truth = entry["metadata"]["ground_truth"]
        return float(self.module.rewards([answer], [truth])[0]["score"])


def create_dataset(name: str, **config: Any) -> Dataset:
    """The dataset of benchmark ``name`` (``slr``, ``logicgraph``,
    ``logicon`` or ``divlogic``; an ``entail_`` prefix is allowed) for its
    config's fields, ``size`` and ``seed`` included."""
    name = name[len("entail_"):] if name.startswith("entail_") else name
    if name not in _BENCHMARKS:
        raise ValueError(f"unknown dataset {name!r}: expected one of {sorted(_BENCHMARKS)}")
    return Dataset(name, _BENCHMARKS[name][1](**config))


class Reseeding:
    """An endless stream of a dataset's items: chunk ``c`` is the dataset
    made again with seed ``seed + c``."""

    def __init__(self, dataset: Dataset, chunk_size: int = 100):
        self.dataset = dataset
        self.chunk_size = chunk_size

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        chunk = 0
        while True:
            config = dataclasses.replace(self.dataset.config, seed=(self.dataset.seed + chunk) % 2**32,
                                         size=self.chunk_size)
            yield from Dataset(self.dataset.name, config)
            chunk += 1

    def score_answer(self, answer: Optional[str], entry: Dict[str, Any]) -> float:
        return self.dataset.score_answer(answer, entry)


def register() -> List[str]:
    """Adds the four datasets to reasoning-gym's registry as ``entail_<name>``
    (and SLR's levels as the curriculum of ``entail_slr``); returns the
    names. Needs ``reasoning_gym``; registering twice is a no-op."""
    from reasoning_gym.coaching import BaseCurriculum, RangeAttributeDefinition
    from reasoning_gym.dataset import ProceduralDataset
    from reasoning_gym.factory import DATASETS, register_dataset

    names = []
    for name, (_, config_cls) in _BENCHMARKS.items():
        registered = f"entail_{name}"
        names.append(registered)
        if registered in DATASETS:
            continue

        def init(self, config, _name=name):  # reasoning-gym builds datasets from a config
            Dataset.__init__(self, _name, config)

        cls = type(f"Entail{name.capitalize()}Dataset", (Dataset, ProceduralDataset),
                   {"__init__": init, "__iter__": Dataset.__iter__})
        curriculum = None
        if name == "slr":
            class SlrCurriculum(BaseCurriculum):
                """SLR's 20 levels, one curriculum level each."""

                def __init__(self):
                    super().__init__("SlrCurriculum", SlrConfig)
                    self._define_attributes(RangeAttributeDefinition(
                        name="level", levels=list(range(1, 21)), description="SLR curriculum level",
                        lower_field_name="min_level", upper_field_name="max_level"))

            curriculum = SlrCurriculum
        register_dataset(registered, cls, config_cls, curriculum)
    return names
