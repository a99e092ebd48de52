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


#: Answer shapes as frameworks hand them over, and the reward each gets
#: (the score the SLR reference metric gives them, see tests/judge_extract.rs).
SHAPES = [
    (SHORT_RED, 1.0),
    (SHORT_RED + "</s>", 1.0),
    (SHORT_RED + "<|im_end|>", 1.0),
    (SHORT_RED + "\n<|eot_id|>", 1.0),
    (SHORT_RED + "<|endoftext|>", 1.0),
    ("The rule is: " + SHORT_RED, 1.0),
    (SHORT_RED + "\nThis rule says a train with a red car goes east.", 1.0),
    ("Looking at the trains, " + SHORT_RED + " covers every example.", 1.0),
    ("[RULE]\n```prolog\n" + SHORT_RED + "\n```\n[/RULE]\n```\n?- eastbound(train0).\ntrue.\n```", 1.0),
    ("[RULE] `" + SHORT_RED + "` [/RULE]", 1.0),
    # The reference loads every rule it finds, the draft in the reasoning
    # too: the two together cover a negative train.
    ("<think>Maybe " + ANY_CAR + "</think>\n```prolog\n" + SHORT_RED + "\n```", 0.5),
    ("eastbound(train0).", 0.0),
    ("% " + SHORT_RED, 0.0),
]


def test_every_answer_shape_through_every_adapter(rows):
    row = rows[0]
    texts = [text for text, _ in SHAPES]
    want = [score for _, score in SHAPES]
    judged = [r["partial_score"] for r in entail.Judge(workers=1).score_batch(texts, row)]
    assert judged == want
    assert fake_grpo_call(rewards.trl_slr, [row], texts) == want
    chats = [[{"role": "assistant", "content": t}] for t in texts]
    assert fake_grpo_call(rewards.trl_slr, [row], chats) == want
    verl = [rewards.verl_slr("slr", t, json.dumps(row), None)["score"] for t in texts]
    assert verl == want
    batch = rewards.verl_slr_batch(["slr"] * len(texts), texts, [row] * len(texts))
    assert [b["score"] for b in batch] == want
    prompt = "Find the rule.\n"
    out = rewards.openrlhf_slr([prompt + t for t in texts], [prompt] * len(texts),
                               [row["validation program"]] * len(texts))
    assert list(out["rewards"]) == want
    # A fact alone is no rule: syntax_valid false, as the reference says.
    assert rewards.verl_slr("slr", "eastbound(train0).", row)["syntax_valid"] == 0.0


def test_verl_takes_keywords_and_honours_binary(rows):
    row = rows[0]
    out = rewards.verl_slr("slr", ANY_CAR, row, {"index": 0},
                           reward_router_address="127.0.0.1:1", model_name="m")
    assert out["score"] == 0.5
    assert rewards.verl_slr("slr", ANY_CAR, row, None, binary=True)["score"] == 0.0
    assert rewards.verl_slr("slr", SHORT_RED, row, None, binary=True)["score"] == 1.0
    batch = rewards.verl_slr_batch(["slr"] * 2, [SHORT_RED, ANY_CAR], [row] * 2,
                                   None, binary=True, reward_router_address="x")
    assert [b["score"] for b in batch] == [1.0, 0.0]
    out = rewards.openrlhf_slr([ANY_CAR], [""], [row], binary=True)
    assert list(out["rewards"]) == [0.0]
    assert fake_grpo_call(functools_binary(), rows, [SHORT_RED, ANY_CAR]) == [1.0, 0.0]


def functools_binary():
    bound = rewards.with_options(rewards.trl_slr, binary=True, workers=1, renamings=2)
    assert bound.__name__ == "trl_slr"
    return bound


def test_prime_manager_reads_the_score_as_item_0(rows):
    """verl's prime manager takes a number as it is and anything else as
    `result[0]`; the naive manager takes `result["score"]`."""
    for text, want in SHAPES[:3] + [(ANY_CAR, 0.5)]:
        result = rewards.verl_slr("slr", text, rows[0], None)
        prime = float(result) if isinstance(result, (int, float, bool)) else float(result[0])
        assert prime == want == result["score"]
        assert dict(result)["score"] == want


def test_rows_that_cannot_be_scored_are_counted_logged_and_strict_raises(rows, caplog):
    good = rows[0]
    broken = {"validation program": "eastbound(train0.\n"}
    other = {"validation program": rows[1]["validation program"]}  # no evaluation_config
    missing = {"prompt": "p"}
    metrics, extra = {}, {}
    with caplog.at_level("WARNING", logger="entail.rewards"):
        out = rewards.trl_slr(
            prompts=["p"] * 4,
            completions=[SHORT_RED, SHORT_RED, CIRCLE, SHORT_RED],
            **{"validation program": [good["validation program"], broken["validation program"],
                                      other["validation program"], None]},
            log_metric=lambda name, value: metrics.__setitem__(name, value),
            log_extra=lambda name, values: extra.__setitem__(name, values),
        )
    assert out == [1.0, 0.0, 0.0, 0.0]
    assert metrics["slr/task_errors"] == 3.0
    assert metrics["slr/accuracy"] == 0.25
    assert metrics["slr/syntax_valid"] == 0.25
    assert metrics["slr/error/input"] == 0.75
    assert extra["slr_error_kind"] == ["", "input", "input", "input"]
    assert "3 of 4 rows could not be scored" in caplog.text
    with pytest.raises(ValueError, match="could not be scored"):
        rewards.verl_slr("slr", SHORT_RED, missing, None, strict=True)
    with pytest.raises(ValueError, match="could not be scored"):
        rewards.verl_slr_batch(["slr"], [CIRCLE], [other], strict=True)
    # A scorable row never raises, whatever its answer.
    assert rewards.verl_slr("slr", "nonsense", good, None, strict=True)["score"] == 0.0


def test_holdout_score_is_reported_and_can_be_the_reward(root):
    task = json.loads((root / "corpora/slr/task_holdout.json").read_text())
    copied = "eastbound(T) :- has_car(T, C), car_color(C, red), car_len(C, short)."
    out = rewards.verl_slr("slr", copied, task, None)
    assert (out["score"], out["holdout_score"]) == (1.0, 0.5)
    assert rewards.verl_slr("slr", copied, task, None, holdout=True)["score"] == 0.5
    assert rewards.verl_slr("slr", copied, task, None, holdout=True, binary=True)["score"] == 0.0
    metrics = {}
    got = rewards.trl_slr(
        prompts=["p"], completions=[copied], holdout=True,
        **{"validation program": [task["validation program"]],
           "holdout program": [task["holdout program"]]},
        log_metric=lambda name, value: metrics.__setitem__(name, value),
    )
    assert got == [0.5]
    assert metrics["slr/holdout_score"] == 0.5


def test_judge_options_reach_the_judge(rows):
    row = rows[0]
    out = rewards.verl_slr("slr", SHORT_RED, row, None, workers=1, renamings=3,
                           isomorphic="both", engine="scryer")
    assert out["score"] == 1.0
    with pytest.raises(ValueError, match="isomorphic"):
        rewards.verl_slr("slr", SHORT_RED, row, None, isomorphic="sideways")
