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

from typing import Any, Dict, List, Optional, Sequence, Tuple

from entail import _native
from entail._args import _count, _jsonl, _shard, _threads
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
        type,
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


(ground_truth, gold_answer, rewards, trl_reward, compute_score, compute_score_batch,
 reward_func) = Shapes("divlogic").functions()
