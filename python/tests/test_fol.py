"""`entail.fol`: three-way answers on FOLIO-notation programs, the batch,
and the translation reward in TRL's and verl's shapes."""

import json
import pickle

import pytest

import entail
from entail import fol

CAFFEINE = """Predicates:
Drinks(x) ::: x regularly drinks coffee.
Dependent(x) ::: x is dependent on caffeine.
Premises:
∀x (Drinks(x) → Dependent(x)) ::: All coffee drinkers depend on caffeine.
Drinks(yale) ::: Yale drinks coffee.
Conclusion:
Dependent(yale) ::: Yale is dependent on caffeine.
"""


def corpus(root):
    path = root / "corpora/fol/problems.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_solve_program_text_and_parts():
    report = fol.solve(CAFFEINE)
    assert report["answer"] == "True"
    assert report["used_premises"] == [1, 2]
    parts = fol.solve(premises=["∀x (Drinks(x) → Dependent(x))"], conclusion="Dependent(yale)")
    assert parts["answer"] == "Uncertain" and parts["settled"] is True
    assert parts["conclusion"]["countermodel"] and parts["negation"]["countermodel"]


def test_a_bad_program_is_an_error_answer_with_its_place():
    report = fol.solve("Premises:\n∀x (Drinks(x) → )\nConclusion:\nDrinks(yale)\n")
    assert report["answer"] == "Error"
    assert report["error"]["kind"] == "syntax"
    assert (report["error"]["line"], report["error"]["column"]) == (2, 17)
    arity = fol.solve(premises=["Owns(ann, car)"], conclusion="Owns(ann)")
    assert arity["error"]["kind"] == "symbols"


def test_corpus_in_one_batch_equals_one_by_one(root):
    problems = corpus(root)
    batch = fol.solve_batch(problems, countermodels=False, workers=2)
    assert [r["id"] for r in batch] == [p["id"] for p in problems]
    assert all(r["correct"] for r in batch), [r for r in batch if not r["correct"]]
    for p, r in zip(problems[:5], batch):
        single = fol.solve(p["program"]) if "program" in p else fol.solve(
            premises=p["premises"], conclusion=p["conclusion"])
        assert single["answer"] == r["answer"] == p["label"]


def test_batch_matches_the_cli(root, entail_bin):
    from conftest import jsonl, run_cli

    path = root / "corpora/fol/problems.jsonl"
    cli = jsonl(run_cli(entail_bin, "prove", "--three-way", "--batch", str(path), "--no-countermodels"))
    ours = fol.solve_batch(corpus(root), countermodels=False)
    assert [c["answer"] for c in cli] == [o["answer"] for o in ours]


def test_rewards_and_metrics():
    completions = [CAFFEINE, CAFFEINE, "Premises:\nP(\nConclusion:\nP(a)\n",
                   [{"role": "assistant", "content": CAFFEINE}]]
    labels = ["True", "False", "True", {"label": "A"}]
    results = fol.rewards(completions, labels)
    assert [r["score"] for r in results] == [1.0, 0.0, 0.0, 1.0]
    assert [r["executed"] for r in results] == [True, True, False, True]
    m = fol.metrics(results)
    assert m["fol/accuracy"] == 0.5
    assert m["fol/execution_rate"] == 0.75
    assert m["fol/executed_accuracy"] == pytest.approx(2 / 3)
    assert m["fol/error/syntax"] == 0.25


def test_trl_and_verl_shapes():
    logged = {}
    scores = fol.trl_reward(prompts=["p", "p"], completions=[CAFFEINE, CAFFEINE],
                            label=["True", "Uncertain"],
                            log_metric=lambda k, v: logged.__setitem__(k, v))
    assert scores == [1.0, 0.0]
    assert logged["fol/accuracy"] == 0.5
    score = fol.compute_score("folio", CAFFEINE, "True")
    assert score["score"] == 1.0 and score[0] == 1.0 and score["executed"] == 1.0
    batch = fol.compute_score_batch(["folio"], [CAFFEINE], [json.dumps({"label": "False"})])
    assert batch[0]["score"] == 0.0 and batch[0]["acc"] == 0.0


def test_functions_are_picklable():
    for f in (fol.solve, fol.solve_batch, fol.trl_reward, fol.compute_score, fol.compute_score_batch):
        assert pickle.loads(pickle.dumps(f)) is f
    assert entail.fol is fol
