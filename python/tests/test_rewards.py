"""Each adapter, called the way its framework calls it, returns the shape
the framework expects and the judge's scores."""

import json

import pytest

import entail
from entail import rewards

SHORT_RED = "eastbound(T) :- has_car(T, C), car_color(C, red)."
ANY_CAR = "eastbound(T) :- has_car(T, _)."
CIRCLE = "pos_example(T) :- has_wagon(T, W), load(W, circle, _)."


@pytest.fixture(scope="module")
def rows(root):
    """Two SLR-Bench rows, as `datasets` yields them."""
    task = json.loads((root / "corpora/slr/task_l1.json").read_text())
    custom = {
        "validation program": "pos_example(t1).\nhas_wagon(t1, w1).\nneg_example(t2).\nhas_wagon(t2, w2).\nload(w1, circle, 2).\n",
        "evaluation_config": {"positive_predicate": "pos_example", "negative_predicate": "neg_example"},
    }
    row = {"prompt": "Find the rule.", "ground-truth rule": task["ground-truth rule"],
           "validation program": task["validation program"],
           "evaluation_config": {"positive_predicate": "eastbound", "negative_predicate": "westbound"}}
    return [row, dict(row, prompt="Other prompt.", **custom)]


def expected(rows, completions):
    references = [r for r in rows for _ in range(len(completions) // len(rows))]
    return [r["partial_score"] for r in
            entail.compute(completions, references)["detailed_results"]]


def fake_grpo_call(reward_func, rows, completions):
    """What TRL's GRPOTrainer does: repeat each prompt's columns for its
    generations, pass every column but the prompt as a keyword list."""
    per = len(completions) // len(rows)
    inputs = [row for row in rows for _ in range(per)]
    keys = [k for k in inputs[0] if k not in ("prompt", "completion")]
    reward_kwargs = {k: [example[k] for example in inputs] for k in keys}
    reward_kwargs["trainer_state"] = object()
    out = reward_func(
        prompts=[x["prompt"] for x in inputs],
        completions=completions,
        completion_ids=[[1, 2, 3]] * len(completions),
        **reward_kwargs,
    )
    assert isinstance(out, list) and len(out) == len(completions)
    assert all(isinstance(x, float) for x in out)
    return out


def test_trl_strings_and_chat_messages(rows):
    texts = [SHORT_RED, ANY_CAR, f"[RULE]{CIRCLE}[/RULE]", "nonsense"]
    want = expected(rows, texts)
    assert want[0] == 1.0 and want[2] == 1.0 and want[3] == 0.0
    assert fake_grpo_call(rewards.trl_slr, rows, texts) == want
    chats = [[{"role": "assistant", "content": t}] for t in texts]
    assert fake_grpo_call(rewards.trl_slr, rows, chats) == want
    parts = [[{"role": "assistant", "content": [{"type": "text", "text": t}]}] for t in texts]
    assert fake_grpo_call(rewards.trl_slr, rows, parts) == want

    def binary(**kwargs):
        return rewards.trl_slr(binary=True, **kwargs)

    assert fake_grpo_call(binary, rows, texts) == [float(x == 1.0) for x in want]


def test_trl_without_the_column_says_which(rows):
    with pytest.raises(ValueError, match="validation program"):
        rewards.trl_slr(prompts=["p"], completions=[SHORT_RED], answer=["x"])
    with pytest.raises(TypeError):
        rewards.trl_slr(prompts=["p"], completions=[42], **{"validation program": ["p."]})


def test_verl_compute_score_in_a_fake_reward_manager(rows):
    """verl's naive reward manager: one call per response, `score` is the
    reward, every other key is logged and must be present for every item."""
    items = [(rows[0], SHORT_RED), (rows[0], ANY_CAR), (rows[1], CIRCLE)]
    extra = {}
    scores = []
    for k, (row, response) in enumerate(items):
        ground_truth = json.dumps(row) if k % 2 else row  # verl often stores JSON text
        out = rewards.verl_slr(
            data_source="slr_bench", solution_str=response,
            ground_truth=ground_truth, extra_info={"index": k},
        )
        assert set(out) == {"score", "acc", "syntax_valid"}
        assert all(isinstance(v, float) for v in out.values())
        scores.append(out["score"])
        for key, value in out.items():
            extra.setdefault(key, []).append(value)
    assert scores == [1.0, 0.5, 1.0]
    assert extra["acc"] == [1.0, 0.0, 1.0]
    assert all(len(v) == len(items) for v in extra.values())
    batch = rewards.verl_slr_batch(
        data_sources=["slr_bench"] * 3,
        solution_strs=[r for _, r in items],
        ground_truths=[json.dumps(row) for row, _ in items],
        extra_infos=[None] * 3,
    )
    assert [b["score"] for b in batch] == scores


def test_openrlhf_reward_func(rows):
    prompts = ["Find the rule.\n", "Find the rule.\n"]
    queries = [p + r for p, r in zip(prompts, [SHORT_RED, ANY_CAR])]
    labels = [rows[0]["validation program"], json.dumps(rows[0])]
    out = rewards.openrlhf_slr(queries, prompts, labels)
    assert set(out) == {"rewards", "scores", "extra_logs"}
    assert list(out["rewards"]) == [1.0, 0.5]
    assert list(out["scores"]) == [1.0, 0.5]
    assert list(out["extra_logs"]["acc"]) == [1.0, 0.0]
