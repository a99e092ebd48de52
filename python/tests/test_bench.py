"""Each benchmark module scores as `entail score <benchmark> --json` does,
and its reward is 1.0 for the gold answer and lower for a corrupted one,
in every framework's calling convention."""

import json
import warnings

import pytest

import entail
from conftest import jsonl, run_cli

BENCHMARKS = ["slr", "logicgraph", "logicon", "divlogic"]


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def cli_score(entail_bin, *args):
    return json.loads(run_cli(entail_bin, "score", *args, "--json"))


# --- Items, gold answers and corrupted answers per benchmark ---------------

def corrupt_logicon(item, gold):
    """A wrong answer of the item's own task."""
    if "groups" in item:  # Task 3: the first statement negated is false under the assignment
        first, rest = gold.split("\n", 1)
        label, statement = first.split(": ", 1)
        return f"{label}: -({statement})\n{rest}"
    query = item.get("query")
    if query is not None:
        return {"consistent": "inconsistent", "inconsistent": "consistent", "T": "F", "F": "T"}[query["answer"]]
    lists = item["consistent_lists"]
    return " ".join("[" + ", ".join(l) + "]" for l in lists[:-1] + item["inconsistent_lists"][:1])


def corrupt(benchmark, item, gold):
    if benchmark == "slr":
        return "eastbound(T) :- has_car(T, C), has_car(T, D), C \\= D, short(C), short(D), long(C)."
    if benchmark == "logicon":
        return corrupt_logicon(item, gold)
    if benchmark == "divlogic":
        letter = gold.split(": ")[1]
        return "Answer: " + "ABCD"[("ABCD".index(letter) + 1) % 4]
    # LogicGraph: one invalid path added to the gold ones lowers precision.
    return gold + "Solution 99:\nStep 1: [Fact1] => G (Used: [Fact1])\n"


@pytest.fixture(scope="module")
def items():
    return {
        "slr": entail.slr.generate(levels=(1, 3), count=1, seed=4, threads=1),
        "logicgraph": entail.logicgraph.generate(count=2, seed=3, prompt=True, threads=1),
        "logicon": entail.logicon.generate(variant="hard", count=4, seed=2, prompt="zero-shot")
        + entail.logicon.generate(variant="completion", count=2, seed=2, prompt="zero-shot")
        + entail.logicon.generate(count=3, seed=2, prompt="zero-shot")
        + entail.logicon.generate(task="generative", count=3, seed=2),
        "divlogic": entail.divlogic.generate(count=3, seed=5, rotations=True),
    }


def module(benchmark):
    return getattr(entail, benchmark)


# --- score == `entail score ... --json` -------------------------------------

def test_slr_score_equals_cli(entail_bin, tmp_path, items):
    tasks = items["slr"]
    answers = [{"id": t["id"], "prediction": t["ground-truth rule"]} for t in tasks[:2]]
    answers.append({"id": tasks[0]["id"], "prediction": "a second answer, a bad line"})
    tp, ap = write_jsonl(tmp_path / "t.jsonl", tasks), write_jsonl(tmp_path / "a.jsonl", answers)
    cli = cli_score(entail_bin, "slr", "--tasks", str(tp), "--answers", str(ap))
    with pytest.warns(UserWarning, match="answered twice"):
        ours = entail.slr.score(tasks, answers, threads=1)
    assert ours == cli and cli["bad_lines"] == 1 and cli["missing_answers"] == 1
    with pytest.warns(UserWarning):
        assert entail.slr.score(tp, ap) == cli


def test_divlogic_score_equals_cli(entail_bin, tmp_path, items):
    questions = items["divlogic"]
    answers = [{"id": q["id"], "answer": (q["answer"] + (i % 3 == 0)) % 4} for i, q in enumerate(questions)]
    answers.append({"id": "x", "answer": [1]})  # bad: neither an index nor a text
    qp, ap = write_jsonl(tmp_path / "q.jsonl", questions), write_jsonl(tmp_path / "a.jsonl", answers)
    cli = cli_score(entail_bin, "divlogic", "--questions", str(qp), "--answers", str(ap),
                    "--alpha", "0.25", "--alpha", "0.75")
    with pytest.warns(UserWarning, match="neither an index nor a text"):
        ours = entail.divlogic.score(questions, answers, alpha=[0.25, 0.75])
    assert ours == cli and cli["bad_lines"] == 1 and cli["rotation_groups"] == 3
    assert 0 < cli["partial_circular"] < 1


@pytest.mark.parametrize("task", [1, 2, 3])
def test_logicon_score_equals_cli(entail_bin, tmp_path, items, task):
    samples = [s for s in items["logicon"] if ("groups" in s) == (task == 3)]
    answers = []
    for k, s in enumerate(samples):
        gold = entail.logicon.gold_answer(s)
        text = gold if k % 2 == 0 else corrupt_logicon(s, gold)
        record = {"id": s["id"], "answer": text}
        if task == 1 and s.get("query") and None not in s["query"]["labels"]:
            record["labels"] = s["query"]["labels"]
        answers.append(record)
    sp, ap = write_jsonl(tmp_path / "s.jsonl", samples), write_jsonl(tmp_path / "a.jsonl", answers)
    cli = cli_score(entail_bin, "logicon", "--task", str(task), "--samples", str(sp), "--answers", str(ap))
    name = {1: "discriminative", 2: "enumerative", 3: "generative"}[task]
    assert entail.logicon.score(samples, answers, task=task) == cli
    assert entail.logicon.score(sp, ap, task=name) == cli


def test_logicgraph_score_equals_cli(entail_bin, tmp_path, items):
    gold_dir = tmp_path / "Small"
    run_cli(entail_bin, "gen", "logicgraph", "--count", "2", "--seed", "3", "--output", str(gold_dir))
    instances = items["logicgraph"]
    answers = [{"instance": i["id"], "steps": entail.logicgraph.gold_answer(i) if k == 0
                else corrupt("logicgraph", i, entail.logicgraph.gold_answer(i))}
               for k, i in enumerate(instances)]
    ap = write_jsonl(tmp_path / "a.jsonl", answers)
    cli = cli_score(entail_bin, "logicgraph", "--gold", str(gold_dir), "--answers", str(ap))
    assert entail.logicgraph.score(gold_dir, ap) == cli
    both = cli["answer_sets"][0]["instances"]
    assert [i["precision"] for i in both] == [1.0, 1.0 - 1.0 / both[1]["answered"]]
    # From Python objects: the same numbers; the names are the objects'.
    ours = entail.logicgraph.score(instances, answers)
    assert ours["gold"] == "items" and ours["answer_sets"][0]["answers"] == "answers"
    ours["gold"], ours["answer_sets"][0]["answers"] = cli["gold"], cli["answer_sets"][0]["answers"]
    for a, b in zip(ours["answer_sets"][0]["instances"], both):
        a["tier"] = b["tier"]
    ours["answer_sets"][0]["tiers"][0]["tier"] = cli["answer_sets"][0]["tiers"][0]["tier"]
    assert ours == cli


# --- rewards: gold 1.0, corrupted lower, in every shape ---------------------

def cases(benchmark, items):
    out = []
    for item in items[benchmark]:
        gold = module(benchmark).gold_answer(item)
        out.append((item, gold, corrupt(benchmark, item, gold)))
    return out


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_gold_scores_one_and_corrupted_less_in_every_shape(benchmark, items):
    m = module(benchmark)
    rows = cases(benchmark, items)
    truths = [m.ground_truth(item) for item, _, _ in rows]
    golds = [g for _, g, _ in rows]
    bads = [b for _, _, b in rows]
    n = len(rows)

    def check(gold_scores, bad_scores):
        assert gold_scores == [1.0] * n, gold_scores
        assert all(0.0 <= b < 1.0 for b in bad_scores), bad_scores

    check([r["score"] for r in m.rewards(golds, truths)], [r["score"] for r in m.rewards(bads, truths)])
    # TRL: text and chat completions, ground truth as a column or as the item's own columns.
    chat = lambda texts: [[{"role": "assistant", "content": t}] for t in texts]
    if benchmark == "slr":
        columns = {"validation program": [i["validation program"] for i, _, _ in rows]}
    else:
        columns = {"ground_truth": truths}
    check(m.trl_reward(prompts=["p"] * n, completions=golds, **columns),
          m.trl_reward(prompts=["p"] * n, completions=chat(bads), **columns))
    if benchmark != "slr":
        # As a dataset stores items whose keys differ: a missing one is None.
        keys = sorted({k for i, _, _ in rows for k in i})
        own = {k: [i.get(k) for i, _, _ in rows] for k in keys}
        check(m.trl_reward(prompts=["p"] * n, completions=chat(golds), completion_ids=[[0]] * n, **own),
              m.trl_reward(prompts=["p"] * n, completions=bads, **own))
    # verl: one at a time (ground truth as the column's str, or a dict), and the batch form.
    check([m.compute_score("entail", g, t)["score"] for g, t in zip(golds, truths)],
          [m.compute_score("entail", b, json.loads(t), extra_info={"index": 0})["score"]
           for b, t in zip(bads, truths)])
    check([r["score"] for r in m.compute_score_batch(["entail"] * n, golds, truths, [None] * n)],
          [r["score"] for r in m.compute_score_batch(["entail"] * n, bads, truths)])
    # OpenRLHF: queries are prompt + response.
    prompts = ["Q: "] * n
    got = m.reward_func([p + g for p, g in zip(prompts, golds)], prompts, truths)
    bad = m.reward_func([p + b for p, b in zip(prompts, bads)], prompts, truths)
    check([float(x) for x in got["rewards"]], [float(x) for x in bad["scores"]])


def test_a_ground_truth_column_survives_parquet(tmp_path, items):
    """verl and TRL read datasets from Parquet: one string column holds each
    benchmark's ground truth, no side files."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    for benchmark in ("logicgraph", "logicon", "divlogic"):
        m = module(benchmark)
        rows = cases(benchmark, items)
        table = pa.table({"prompt": [i.get("prompt", "") for i, _, _ in rows],
                          "ground_truth": [m.ground_truth(i) for i, _, _ in rows]})
        pq.write_table(table, tmp_path / f"{benchmark}.parquet")
        back = pq.read_table(tmp_path / f"{benchmark}.parquet").to_pylist()
        scores = m.compute_score_batch([benchmark] * len(rows), [g for _, g, _ in rows],
                                       [r["ground_truth"] for r in back])
        assert [s["score"] for s in scores] == [1.0] * len(rows)


def test_divlogic_rotations_scale_rewards_to_partial_circular(items):
    """Over the four rotations of a question, the mean reward is its
    PartialCircular: a model that always names the same claim keeps full
    credit for its right answers, one that spreads its picks loses some."""
    questions = items["divlogic"][:4]
    assert len({q["id"].rsplit("-r", 1)[0] for q in questions}) == 1
    right = [entail.divlogic.gold_answer(q) for q in questions]
    wrong_first = ["Answer: " + "ABCD"[(questions[0]["answer"] + 1) % 4]] + right[1:]
    rewards = entail.divlogic.rewards(wrong_first, questions)
    # Three of four right, picks spread over two claims (3:1).
    import math
    factor = 1 + 0.75 * math.log(0.75, 4) + 0.25 * math.log(0.25, 4)
    assert [r["score"] for r in rewards] == pytest.approx([0.0] + [factor] * 3)
    assert rewards[0]["partial_circular"] == pytest.approx(0.75 * factor)
    report = entail.divlogic.score(questions, [{"id": q["id"], "answer": r["picked"]}
                                               for q, r in zip(questions, rewards)])
    assert report["partial_circular"] == pytest.approx(sum(r["score"] for r in rewards) / 4)
    # One rotation alone: plain correctness.
    assert [r["score"] for r in entail.divlogic.rewards(right[:1], questions[:1])] == [1.0]


def test_unscorable_ground_truth_warns_or_raises():
    with pytest.warns(UserWarning, match="cannot be scored"):
        assert entail.logicon.rewards(["consistent"], [{"id": "x"}])[0]["score"] == 0.0
    with pytest.raises(ValueError, match="cannot be scored"):
        entail.divlogic.rewards(["Answer: A"], ['{"id": "x"}'], strict=True)
    with pytest.raises(ValueError, match="2 completions but 1 ground truths"):
        entail.divlogic.rewards(["A", "B"], ['{}'])


def test_gen_names_are_the_modules_generators():
    assert entail.gen.slr is entail.slr.generate
    assert entail.gen.logicgraph is entail.logicgraph.generate
    assert entail.gen.logicon is entail.logicon.generate
    assert entail.gen.divlogic is entail.divlogic.generate


# --- one answer reader: rewards and `entail score` read wrapped answers alike ---

WRAPPINGS = [
    "{}",
    "<think>\nAnswer: {other}\n</think>\n{}</s>",
    "Answer: {other}\nWait, no.\n**Answer:** {}<|im_end|>",
    "The answer is {}.<|eot_id|>",
    "\\boxed{{}}",
    "<answer>{}</answer><|endoftext|>",
    "Let me think. Answer: {other}\n</think>\n\nFinal answer: {}<end_of_turn>",
]


def wrapped(i, answer, other):
    return WRAPPINGS[i % len(WRAPPINGS)].replace("{other}", other).replace("{}", answer)


def test_divlogic_rewards_and_cli_read_wrapped_answers_alike(entail_bin, tmp_path):
    questions = entail.divlogic.generate(count=21, seed=7)
    texts, expected = [], []
    for i, q in enumerate(questions):
        gold, wrong = "ABCD"[q["answer"]], "ABCD"[(q["answer"] + 1) % 4]
        kind = (i // len(WRAPPINGS)) % 3
        answer = [gold, wrong, "A B C D"][kind]
        texts.append(wrapped(i, answer, wrong if kind == 0 else gold))
        expected.append([1.0, 0.0, None][kind])
    rewards = entail.divlogic.rewards(texts, questions)
    assert [r["score"] for r in rewards] == [e or 0.0 for e in expected]
    assert [r["picked"] is None for r in rewards] == [e is None for e in expected]
    answers = [{"id": q["id"], "answer": t} for q, t in zip(questions, texts)]
    qp, ap = write_jsonl(tmp_path / "q.jsonl", questions), write_jsonl(tmp_path / "a.jsonl", answers)
    cli = cli_score(entail_bin, "divlogic", "--questions", str(qp), "--answers", str(ap))
    assert cli["answered"] == sum(e is not None for e in expected)
    assert cli["accuracy"] == pytest.approx(sum(r["score"] for r in rewards) / len(questions))


def test_logicon_rewards_and_cli_read_wrapped_answers_alike(entail_bin, tmp_path):
    samples = entail.logicon.generate(variant="hard", count=21, seed=7)
    texts, expected = [], []
    for i, s in enumerate(samples):
        gold = s["query"]["answer"]
        wrong = {"consistent": "inconsistent", "inconsistent": "consistent"}[gold]
        kind = (i // len(WRAPPINGS)) % 3
        answer = [gold, wrong, "I can't tell"][kind]
        texts.append(wrapped(i, answer, wrong if kind == 0 else gold))
        expected.append(kind)
    rewards = entail.logicon.rewards(texts, samples)
    assert [r["score"] for r in rewards] == [1.0 if k == 0 else 0.0 for k in expected]
    assert [r["parsed"] for r in rewards] == [k != 2 for k in expected]
    answers = [{"id": s["id"], "answer": t, "labels": s["query"]["labels"]} for s, t in zip(samples, texts)]
    sp, ap = write_jsonl(tmp_path / "s.jsonl", samples), write_jsonl(tmp_path / "a.jsonl", answers)
    cli = cli_score(entail_bin, "logicon", "--task", "1", "--samples", str(sp), "--answers", str(ap))
    every = cli["all"]
    assert every["consistent"]["correct"] + every["inconsistent"]["correct"] == expected.count(0)
    assert cli["unparsed"] == expected.count(2)


# --- plumbing: pickling, verl's keys, Arrow columns, options ----------------

def _verl_load(path, name):
    """How verl's `get_custom_reward_fn` loads `custom_reward_function.path`
    and `.name`: the file run as a module of its own, the function taken."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("custom_module", path)
    custom = importlib.util.module_from_spec(spec)
    sys.modules["custom_module"] = custom
    spec.loader.exec_module(custom)
    return getattr(custom, name)


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_rewards_pickle_and_run_in_a_spawned_process_pool(benchmark, items):
    import concurrent.futures
    import multiprocessing
    import pickle

    m = module(benchmark)
    for function in (m.compute_score, m.compute_score_batch, m.trl_reward, m.reward_func,
                     m.rewards, m.ground_truth, m.gold_answer):
        assert pickle.loads(pickle.dumps(function)) is function
    rows = cases(benchmark, items)[:2]
    truths = [m.ground_truth(item) for item, _, _ in rows]
    # verl's prime manager: compute_score pickled into a process pool.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        got = list(pool.map(m.compute_score, [benchmark] * 4, [g for _, g, _ in rows] + [b for _, _, b in rows],
                            truths * 2))
    assert [g["score"] for g in got[:2]] == [1.0, 1.0]
    assert all(g["score"] < 1.0 for g in got[2:])
    # verl's custom_reward_function: a path and a name.
    loaded = _verl_load(m.__file__, "compute_score")
    assert loaded(benchmark, rows[0][1], truths[0])["score"] == 1.0


@pytest.mark.parametrize("benchmark", ["logicgraph", "logicon", "divlogic"])
def test_verl_extra_info_has_the_same_keys_for_every_sample(benchmark, items):
    m = module(benchmark)
    rows = cases(benchmark, items)
    truths = [m.ground_truth(item) for item, _, _ in rows]
    answers = [g for _, g, _ in rows] + [b for _, _, b in rows] + ["no idea"] * len(rows)
    singles = [m.compute_score(benchmark, a, t) for a, t in zip(answers, truths * 3)]
    with pytest.warns(UserWarning, match="ground_truth"):
        singles.append(m.compute_score(benchmark, "no idea", '{"id": "x"}'))
    batch = m.compute_score_batch([benchmark] * len(rows), [g for _, g, _ in rows], truths)
    keys = set(singles[0])
    assert "score" in keys and len(keys) > 1
    for result in singles + batch:
        assert set(result) == keys and all(isinstance(v, float) for v in result.values())
    if benchmark == "divlogic":
        assert singles[-2]["picked"] == -1.0 and singles[0]["picked"] in (0.0, 1.0, 2.0, 3.0)
    logs = m.reward_func(["Q" + a for a in answers], ["Q"] * len(answers), truths * 3)["extra_logs"]
    assert set(logs) == keys - {"score"} and all(len(v) == len(answers) for v in logs.values())


@pytest.mark.parametrize("benchmark", ["logicgraph", "logicon", "divlogic"])
def test_items_stored_as_nested_parquet_columns_score(benchmark, items, tmp_path):
    """A dataset of generated items written to Parquet as they are (nested
    columns): Arrow unifies the rows' fields (a missing one becomes null)
    and pandas reads lists as numpy arrays; the rewards read both."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    m = module(benchmark)
    rows = cases(benchmark, items)
    plain = [json.loads(json.dumps(item)) for item, _, _ in rows]
    keys = sorted({k for item in plain for k in item})
    pq.write_table(pa.table({k: [item.get(k) for item in plain] for k in keys}), tmp_path / "items.parquet")
    table = pq.read_table(tmp_path / "items.parquet")
    golds, bads = [g for _, g, _ in rows], [b for _, _, b in rows]
    readers = [table.to_pylist()]
    try:
        readers.append(table.to_pandas().to_dict("records"))
    except ImportError:
        pass
    for back in readers:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert [r["score"] for r in m.rewards(golds, back)] == [1.0] * len(rows)
            assert all(r["score"] < 1.0 for r in m.rewards(bads, back))
            assert m.trl_reward(prompts=["p"] * len(rows), completions=golds,
                                **{k: [r[k] for r in back] for k in back[0]}) == [1.0] * len(rows)


def test_binary_and_trl_metrics_for_partial_credit(items):
    m = entail.logicgraph
    rows = cases("logicgraph", items)
    truths = [m.ground_truth(item) for item, _, _ in rows]
    bads = [b for _, _, b in rows]
    partial = [r["score"] for r in m.rewards(bads, truths)]
    assert all(0.0 < p < 1.0 for p in partial)
    assert [r["score"] for r in m.rewards(bads, truths, binary=True)] == [0.0] * len(rows)
    assert m.compute_score("x", bads[0], truths[0], binary=True)["score"] == 0.0
    assert m.trl_reward(prompts=["p"] * len(rows), completions=bads, ground_truth=truths,
                        binary=True) == [0.0] * len(rows)
    logged = {}
    m.trl_reward(prompts=["p"] * len(rows), completions=bads, ground_truth=truths,
                 log_metric=logged.__setitem__)
    assert logged["logicgraph/success"] == 1.0
    assert logged["logicgraph/precision"] == pytest.approx(
        sum(r["precision"] for r in m.rewards(bads, truths)) / len(rows))


def test_a_missing_ground_truth_says_what_to_give():
    for m in (entail.logicgraph, entail.logicon, entail.divlogic):
        with pytest.raises(ValueError, match=r"ground_truth\(item\)"):
            m.trl_reward(prompts=["p"], completions=["x"])
        with pytest.raises(ValueError, match=r"ground_truth\(item\)"):
            m.compute_score("x", "x", None)
        with pytest.warns(UserWarning, match=r"ground_truth\(item\)"):
            m.trl_reward(prompts=["p"], completions=["x"], answer=["A"])


def test_reward_signatures_are_the_frameworks():
    import inspect

    for m in (entail.logicgraph, entail.logicon, entail.divlogic):
        assert list(inspect.signature(m.compute_score).parameters)[:4] == [
            "data_source", "solution_str", "ground_truth", "extra_info"]
        assert list(inspect.signature(m.reward_func).parameters)[:3] == ["queries", "prompts", "labels"]
        assert m.trl_reward.__name__ == f"{m.__name__.split('.')[-1]}_reward"
        assert inspect.signature(m.rewards).return_annotation in ("List[Dict[str, Any]]",)
