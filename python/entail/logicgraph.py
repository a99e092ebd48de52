"""LogicGraph: generate multi-path proof instances, score model solutions,
reward completions. An item is one instance: ``id`` and its ``question``,
``complete``, ``solutions`` and ``verify_true`` files, parsed (and
``prompt`` with ``prompt=True``). A completion answers as the prompt asks:
``Solution n:`` blocks of ``Step k: [Fact x, Rule y] => conclusion`` lines.

Reward: the mean of three of the paper's metrics over the completion's
solutions, each checked by the prover against the gold premises: success
(some solution valid), precision (valid / given solutions) and diversity
(share of the gold supports found). It is 1 exactly when every solution
given is valid and together they find every minimal support.
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from entail._load import native as _native
from entail._args import LOGICGRAPH_TIERS, Range, _choice, _count, _jsonl, _range, _shard, _threads
from entail._bench import Records, Shapes, lines, report
from entail.pictures import Instance


_LOGICGRAPH_FILES = ("question", "complete", "solutions", "verify_true")


def generate(
    *,
    tier: str = "small",
    paths: Optional[Range] = None,
    depth: Range = (2, 14),
    forms: Union[str, Sequence[str]] = "MP,MT,HS,DS,CD,RAA,DE",
    distractors: int = 0,
    max_atoms: int = 120,
    count: int = 10,
    seed: int = 0,
    prompt: bool = False,
    threads: Optional[int] = None,
    shard: Tuple[int, int] = (0, 1),
) -> List[Dict[str, Any]]:
    """LogicGraph instances (``entail gen logicgraph``), each checked by the
    prover. One dict per instance: ``id`` (``test_1`` …) and the parsed
    ``question``, ``complete``, ``solutions`` and ``verify_true`` files, and
    with ``prompt=True`` the ``prompt`` text. Use 8 or more ``distractors``
    if they are to be hidden: fewer are told apart by how their sentences
    link to the other premises, and a ``UserWarning`` says so (see
    ``entail gen logicgraph --help``)."""
    if isinstance(forms, str):
        forms = [f.strip() for f in forms.split(",") if f.strip()]
    forms = list(forms)
    if not forms or not all(isinstance(f, str) for f in forms):
        raise ValueError("forms must name at least one of MP, MT, HS, DS, CD, RAA, DE")
    count = _count("count", count)
    with tempfile.TemporaryDirectory(prefix="entail-logicgraph-") as out:
        note = _native.gen_logicgraph(
            out,
            _choice("tier", tier, LOGICGRAPH_TIERS),
            None if paths is None else _range("paths", paths),
            _range("depth", depth),
            forms,
            _count("distractors", distractors),
            _count("max_atoms", max_atoms),
            count,
            _count("seed", seed),
            bool(prompt),
            _threads(threads),
            _shard(shard),
        )
        if note:
            warnings.warn(note, stacklevel=2)
        instances: List[Dict[str, Any]] = []
        # The shard's directories, by their global number.
        directories = sorted(Path(out).glob("test_*"), key=lambda d: int(d.name[len("test_") :]))
        for directory in directories:
            instance: Dict[str, Any] = {"id": directory.name}
            for name in _LOGICGRAPH_FILES:
                instance[name] = json.loads((directory / f"{name}.json").read_text())
            if prompt:
                instance["prompt"] = (directory / "prompt.txt").read_text()
            instances.append(Instance(instance))
        return instances


def score(gold: Union[str, "os.PathLike[str]", Sequence[Mapping[str, Any]]],
          answers: Union[Records, Mapping[str, Records]], *, timeout: float = 10.0,
          instantiated: bool = False) -> Dict[str, Any]:
    """`entail score logicgraph --json`. ``gold`` is an instance directory
    or a tree of them (as `entail gen logicgraph` writes), or a list of
    generated items. ``answers`` is one model's answer file (a path), or
    its records ``{"instance": ID, "solutions": [...]}`` / ``{"instance":
    ID, "steps": TEXT}``, or a dict of those per model (for originality)."""
    if isinstance(answers, Mapping):
        sets = list(answers.items())
    else:
        sets = [("answers", answers)]
    texts = []
    for name, records in sets:
        if isinstance(records, (str, os.PathLike)):
            texts.append((str(records), Path(records).read_text(encoding="utf-8")))
        else:
            texts.append((name, "\n".join(lines(records)) + "\n"))
    if isinstance(gold, (str, os.PathLike)):
        return report(_native.score_logicgraph(str(gold), texts, float(timeout), bool(instantiated)))
    with tempfile.TemporaryDirectory(prefix="entail-logicgraph-") as out:
        root = Path(out) / "items"
        for item in gold:
            directory = root / item["id"]
            directory.mkdir(parents=True)
            for name in ("complete", "solutions"):
                (directory / f"{name}.json").write_text(json.dumps(item[name]), encoding="utf-8")
        result = report(_native.score_logicgraph(str(root), texts, float(timeout), bool(instantiated)))
    result["gold"] = "items"
    return result


_SHAPES = Shapes("logicgraph", ("id", "complete", "solutions"))


def ground_truth(item: Union[Mapping[str, Any], str]) -> str:
    """What the reward needs of an item, as JSON text for one dataset column:
    ``id``, ``complete`` and ``solutions``. A str is taken as that text already."""
    return _SHAPES.ground_truth(item)


def gold_answer(item: Union[Mapping[str, Any], str]) -> str:
    """A completion that earns the full LogicGraph reward on ``item``."""
    return _SHAPES.gold_answer(item)


def rewards(completions: Sequence[Any], ground_truths: Sequence[Any], *, strict: bool = False,
            binary: bool = False, timeout: float = 10.0) -> List[Dict[str, Any]]:
    """The LogicGraph reward of each completion against its ground truth (a
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
    logs the batch means of the reward's metrics (``logicgraph/...``). Keywords
    ``binary``, ``strict`` and ``timeout`` (bind them with
    ``functools.partial`` or `entail.rewards.with_options`) act as in
    `rewards`; other keywords are ignored."""
    return _SHAPES.trl_reward(prompts, completions, kwargs)


trl_reward.__name__ = "logicgraph_reward"


def compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> Dict[str, float]:
    """verl's ``compute_score(data_source, solution_str, ground_truth,
    extra_info)``: a dict of floats, ``score`` and the metrics
    ``success``, ``precision``, ``diversity``, ``answered`` and ``valid``, the same keys for every sample. ``reward_kwargs`` ``binary``,
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
