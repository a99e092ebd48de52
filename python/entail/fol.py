"""FOL pipelines: ``entail`` as the prover behind natural-language-to-logic
evaluation (FOLIO, Logic-LM, LINC) and translation training.

- `solve`: the three-way answer on one program (``True``: the conclusion
  is proved; ``False``: its negation is; ``Uncertain``: neither; ``Error``:
  the program does not read), with the proof's used premises or the
  countermodels, as ``entail prove --three-way --json`` prints it.
- `solve_batch`: many programs in one call, on worker threads.
- `rewards`, `trl_reward`, `compute_score`, `compute_score_batch`: the
  reward for translation training: 1.0 when the model's program gets the
  gold label, else 0.0 (``Error`` included), with the execution rate and
  the error kinds as metrics (`metrics`).

A program is text (``Predicates:``/``Premises:``/``Conclusion:`` sections,
each line optionally followed by ``:::`` and its English; or LINC's
``FOL:`` lines) or premises and a conclusion. The notation is FOLIO's, in
Unicode or ASCII; see ``docs`` for the grammar.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from entail._load import native as _native
from entail.rewards import VerlScore, _text

ANSWERS = ("True", "False", "Uncertain")

_LABELS = {
    "true": "True", "a": "True", "yes": "True", "entailment": "True",
    "false": "False", "b": "False", "no": "False", "contradiction": "False",
    "uncertain": "Uncertain", "unknown": "Uncertain", "c": "Uncertain", "neutral": "Uncertain",
}


def _timeout(timeout: Optional[float]) -> Optional[float]:
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number, not {type(timeout).__name__}")
    return float(timeout)


def solve(
    program: Optional[str] = None,
    *,
    premises: Optional[Sequence[str]] = None,
    conclusion: Optional[str] = None,
    timeout: Optional[float] = None,
    countermodels: bool = True,
) -> Dict[str, Any]:
    """The three-way report on ``program`` (text) or on ``premises`` and
    ``conclusion`` (formulas): ``answer`` (``True``, ``False``,
    ``Uncertain`` or ``Error``), ``settled``, ``used_premises`` (1-based),
    the ``conclusion`` and ``negation`` checks with their countermodels,
    ``notes`` and, for ``Error``, ``error`` (``kind``, ``message`` with
    line and column). ``timeout`` is per direction, in seconds (default
    10). Never raises for a bad program: that is an ``Error`` answer."""
    if program is not None and (premises is not None or conclusion is not None):
        raise TypeError("give a program, or premises and a conclusion, not both")
    if program is None:
        if premises is None or conclusion is None:
            raise TypeError("give a program, or premises and a conclusion")
        if isinstance(premises, str):
            premises = [p for p in premises.splitlines() if p.strip()]
        return _native.fol_solve(None, [str(p) for p in premises], str(conclusion),
                                 _timeout(timeout), bool(countermodels))
    if isinstance(program, os.PathLike):
        program = open(os.fspath(program), encoding="utf-8").read()
    if not isinstance(program, str):
        raise TypeError(f"program must be a str, not {type(program).__name__}")
    return _native.fol_solve(program, None, None, _timeout(timeout), bool(countermodels))


def _item(item: Any) -> Dict[str, Any]:
    if isinstance(item, str):
        return {"program": item}
    if isinstance(item, Mapping):
        return dict(item)
    raise TypeError(f"an item must be program text or a dict, not {type(item).__name__}")


def solve_batch(
    items: Sequence[Any],
    *,
    timeout: Optional[float] = None,
    countermodels: bool = True,
    workers: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """`solve` on each item, in order, on ``workers`` threads (default: one
    per core) with the GIL released. An item is program text or a dict
    with ``program`` or ``premises`` and ``conclusion`` (FOLIO's
    ``premises-FOL``/``conclusion-FOL`` too), and optionally ``id`` and a
    gold ``label`` (then the result has ``correct``)."""
    lines = [json.dumps(_item(i), ensure_ascii=False) for i in items]
    n = workers if workers is not None else (os.cpu_count() or 1)
    return _native.fol_solve_batch(lines, _timeout(timeout), bool(countermodels), max(1, int(n)))


def _label(ground_truth: Any) -> Optional[str]:
    """The gold answer in a ground truth: a label, or a dict or JSON text
    with ``label`` (or ``answer``)."""
    if isinstance(ground_truth, Mapping):
        ground_truth = ground_truth.get("label", ground_truth.get("answer"))
    elif isinstance(ground_truth, str) and ground_truth.strip().startswith("{"):
        try:
            return _label(json.loads(ground_truth))
        except ValueError:
            return None
    if isinstance(ground_truth, bool):
        return "True" if ground_truth else "False"
    if not isinstance(ground_truth, str):
        return None
    return _LABELS.get(ground_truth.strip().lower())


def rewards(completions: Sequence[Any], ground_truths: Sequence[Any], *,
            timeout: Optional[float] = None, workers: Optional[int] = None) -> List[Dict[str, Any]]:
    """Each completion's program answered against its gold label: the
    report of `solve` with ``label`` (normalised to ``True``/``False``/
    ``Uncertain``), ``correct``, ``executed`` (the program read and was
    checked) and ``score`` (1.0 when correct, else 0.0)."""
    if len(completions) != len(ground_truths):
        raise ValueError(f"{len(completions)} completions but {len(ground_truths)} ground truths")
    results = solve_batch([_text(c) for c in completions], timeout=timeout,
                          countermodels=False, workers=workers)
    for r, truth in zip(results, ground_truths):
        label = _label(truth)
        r["label"] = label
        r["executed"] = r["answer"] != "Error"
        r["correct"] = label is not None and r["answer"] == label
        r["score"] = 1.0 if r["correct"] else 0.0
    return results


def metrics(results: Sequence[Mapping[str, Any]]) -> Dict[str, float]:
    """Scalars to log under ``fol/``: ``accuracy``, ``execution_rate`` (share
    of programs that read and were checked), ``executed_accuracy`` (accuracy
    among those), the share of each answer and of each error kind."""
    n = max(len(results), 1)
    executed = [r for r in results if r["answer"] != "Error"]
    out = {
        "fol/accuracy": sum(1.0 for r in results if r.get("correct")) / n,
        "fol/execution_rate": len(executed) / n,
        "fol/executed_accuracy": (
            sum(1.0 for r in executed if r.get("correct")) / len(executed) if executed else 0.0
        ),
    }
    for answer in ANSWERS:
        out[f"fol/answer/{answer}"] = sum(1.0 for r in results if r["answer"] == answer) / n
    kinds = Counter(r["error"]["kind"] for r in results if r.get("error"))
    for kind, count in sorted(kinds.items()):
        out[f"fol/error/{kind}"] = count / n
    return out


def trl_reward(prompts: Optional[List[Any]] = None, completions: Optional[List[Any]] = None,
               **kwargs: Any) -> List[float]:
    """A TRL ``GRPOTrainer`` reward function: 1.0 per completion whose
    program gets the gold label, else 0.0. The gold label comes from the
    dataset column ``label`` (FOLIO's name), ``answer`` or
    ``ground_truth``. Through TRL's ``log_metric`` it logs `metrics`;
    through ``log_extra`` each completion's ``fol_answer``."""
    if completions is None:
        raise TypeError("trl_reward needs completions")
    truths = kwargs.get("label", kwargs.get("answer", kwargs.get("ground_truth")))
    if truths is None:
        raise ValueError("trl_reward needs the dataset column 'label' (or 'answer', 'ground_truth')")
    results = rewards(completions, list(truths), timeout=kwargs.get("timeout"),
                      workers=kwargs.get("workers"))
    log_metric, log_extra = kwargs.get("log_metric"), kwargs.get("log_extra")
    if callable(log_metric):
        for name, value in metrics(results).items():
            log_metric(name, value)
    if callable(log_extra):
        log_extra("fol_answer", [r["answer"] for r in results])
    return [r["score"] for r in results]


trl_reward.__name__ = "fol_reward"


def _verl(result: Mapping[str, Any]) -> VerlScore:
    return VerlScore(
        score=result["score"],
        acc=1.0 if result["correct"] else 0.0,
        executed=1.0 if result["executed"] else 0.0,
    )


def compute_score(data_source: Any, solution_str: str, ground_truth: Any,
                  extra_info: Any = None, **kwargs: Any) -> VerlScore:
    """verl's ``compute_score``: ``score`` (1.0 when the program gets the
    gold label), ``acc`` and ``executed`` as 1.0/0.0. ``ground_truth`` is the
    label, or a dict or JSON text with ``label``."""
    result = rewards([solution_str], [ground_truth], timeout=kwargs.get("timeout"), workers=1)[0]
    return _verl(result)


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str],
                        ground_truths: Sequence[Any], extra_infos: Optional[Sequence[Any]] = None,
                        **kwargs: Any) -> List[VerlScore]:
    """`compute_score` for verl's batch reward manager: one dict per solution."""
    results = rewards(list(solution_strs), list(ground_truths), timeout=kwargs.get("timeout"),
                      workers=kwargs.get("workers"))
    return [_verl(r) for r in results]
