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

from typing import Any, Dict, List, Optional, Tuple, Union

from entail import _native
from entail._args import Range, _count, _jsonl, _range, _shard, _threads
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


(ground_truth, gold_answer, rewards, trl_reward, compute_score, compute_score_batch,
 reward_func) = Shapes("logicon").functions()
