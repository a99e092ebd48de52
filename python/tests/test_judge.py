"""The judge from Python: the same scores as the command line, bad items
get an error kind, wrong argument types raise."""

import json
import os
import signal
import threading

import pytest

import entail
from conftest import jsonl, run_cli

SHORT_RED = "eastbound(T) :- has_car(T, C), car_color(C, red)."


def corpus(root):
    """The shipped corpus as (prediction, reference) pairs; a line that
    is not a JSON object with a str prediction is kept as a bad reference."""
    lines = (root / "corpora/slr/predictions.jsonl").read_text().splitlines()
    predictions, references = [], []
    for line in lines:
        record = json.loads(line)
        predictions.append(record.pop("prediction"))
        references.append(record)
    return predictions, references


def without_time(result):
    result = dict(result)
    del result["time_ms"]
    if result.get("shortcut") is None:
        result.pop("shortcut", None)
    return result


@pytest.mark.parametrize("engine", ["auto", "scryer"])
def test_compute_matches_golden_corpus(root, engine):
    predictions, references = corpus(root)
    golden = jsonl((root / "corpora/slr/golden.jsonl").read_text())
    out = entail.compute(predictions, references, engine=engine, workers=2)
    assert len(out["detailed_results"]) == len(golden) == 14
    for i, (got, want) in enumerate(zip(out["detailed_results"], golden)):
        got = without_time(got)
        if want["error_kind"] == "input":
            # The CLI names the line; the package names the reference.
            assert got["error_kind"] == "input", i
            assert "invalid type: integer `42`" in got["error"], got["error"]
            got["error"], want["error"] = None, None
        if engine == "scryer" and want["error_kind"] == "runtime":
            # scryer names the predicate the error came from as well.
            assert got["error"].startswith(want["error"]), got["error"]
            got["error"], want["error"] = None, None
        assert got == want, f"line {i + 1}"
    # The CLI's summary of the same corpus (tests/judge_corpus.rs).
    assert round(out["accuracy"], 4) == 0.2143
    assert round(out["partial_score"], 4) == 0.3512
    assert round(out["syntax_score"], 4) == 0.7143
    for result in out["detailed_results"]:
        for key in ("is_correct", "partial_score", "syntax_valid", "error",
                    "error_kind", "time_ms", "shortcut"):
            assert key in result


@pytest.mark.parametrize("isomorphic", ["renamed", "both"])
def test_score_batch_matches_cli_on_generated_tasks(tmp_path, entail_bin, isomorphic):
    """A differential check against `entail judge --batch` on tasks from
    every curriculum tier, with right, wrong, unsafe and broken answers:
    the same dicts, keys in the same order."""
    tasks = entail.gen.slr(levels=(1, 20), count=1, seed=3, threads=2)
    answers = [
        lambda t: t["ground-truth rule"],
        lambda t: SHORT_RED,
        lambda t: "eastbound(T) :- has_car(T, C), car_len(C, long), \\+ car_color(C, red).",
        lambda t: "eastbound(T) :- shell(ls).",
        lambda t: "eastbound(T) :- has_car(T C).",
        lambda t: "<think>no idea</think>",
    ]
    lines = []
    for task in tasks:
        for answer in answers:
            lines.append(dict(task, prediction=answer(task)))
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines))
    cli = jsonl(run_cli(entail_bin, "judge", "--batch", str(batch), "--workers", "2",
                        "--isomorphic", isomorphic))
    ours = entail.Judge(workers=2, isomorphic=isomorphic).score_batch(
        [line.pop("prediction") for line in lines], lines
    )
    assert len(ours) == len(cli) == 20 * len(answers)
    assert [without_time(r) for r in ours] == [without_time(r) for r in cli]
    assert [list(without_time(r)) for r in ours] == [list(without_time(r)) for r in cli]
    if isomorphic == "both":
        assert all("original_names" in r for r in ours if r["error_kind"] is None)
    assert {r["error_kind"] for r in ours} >= {None, "unsafe", "syntax", "no_rule"}


DRAFT_THEN_FINAL = (
    "First guess: eastbound(T) :- has_car(T, C), car_len(C, long).\n"
    "Better:\n```prolog\n" + SHORT_RED + "\n```"
)
WITH_HELPER = (
    "```prolog\nred(C) :- car_color(C, red).\n"
    "eastbound(T) :- has_car(T, C), red(C).\n```"
)


@pytest.mark.parametrize("rules", ["all", "last", "program"])
def test_rules_option_matches_cli(tmp_path, entail_bin, rules):
    """``rules=`` loads what ``entail judge --rules`` loads: the same
    results on answers with a draft, a helper and one rule."""
    tasks = entail.gen.slr(levels=(1, 6), count=1, seed=5, threads=2)
    answers = [SHORT_RED, DRAFT_THEN_FINAL, WITH_HELPER]
    lines = [dict(task, prediction=a) for task in tasks for a in answers]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines))
    cli = jsonl(run_cli(entail_bin, "judge", "--batch", str(batch), "--workers", "2",
                        "--rules", rules))
    ours = entail.Judge(workers=2, rules=rules).score_batch(
        [line.pop("prediction") for line in lines], lines
    )
    assert [without_time(r) for r in ours] == [without_time(r) for r in cli]


def test_rules_option_changes_what_is_loaded():
    """The default loads every rule, as the reference does: a draft counts;
    ``"last"`` drops it; only ``"program"`` loads a helper."""
    program = "eastbound(t1).\nwestbound(t2).\nhas_car(t1, c1).\ncar_color(c1, red).\n" \
              "car_len(c1, short).\nhas_car(t2, c2).\ncar_color(c2, blue).\ncar_len(c2, long).\n"
    score = lambda answer, **o: entail.Judge(workers=1, **o).score(answer, program)["partial_score"]
    assert score(DRAFT_THEN_FINAL) == score(DRAFT_THEN_FINAL, rules="all") == 0.5
    assert score(DRAFT_THEN_FINAL, rules="last") == score(SHORT_RED) == 1.0
    assert score(WITH_HELPER) == score(WITH_HELPER, rules="last") == 0.0  # red/1 unknown
    assert score(WITH_HELPER, rules="program") == 1.0
    with pytest.raises(ValueError, match="'all', 'last' or 'program'"):
        entail.Judge(workers=1, rules="first")
    # The option reaches the judge through compute and the reward adapters.
    assert entail.compute([DRAFT_THEN_FINAL], [program], workers=1)["partial_score"] == 0.5
    assert entail.compute([DRAFT_THEN_FINAL], [program], workers=1,
                          rules="last")["partial_score"] == 1.0
    from entail import rewards
    reward = lambda **o: rewards.trl_slr(prompts=["p"], completions=[DRAFT_THEN_FINAL],
                                         **{"validation program": [program]}, workers=1, **o)
    assert reward() == [0.5] and reward(rules="last") == [1.0]
    # A dataset column named `rules` is a column, not the option.
    assert reward(rules=["a column"]) == [0.5]


def test_references_in_every_accepted_shape(root):
    record = json.loads((root / "corpora/slr/task_l1.json").read_text())
    program = record["validation program"]
    shapes = [
        record,
        json.dumps(record),
        {"validation_program": program, "id": "slr-l1-a"},
        json.dumps({"validation_program": program, "id": "slr-l1-a",
                    "evaluation_config": {"positive_predicate": "eastbound"}}),
    ]
    judge = entail.Judge(workers=1)
    results = judge.score_batch([SHORT_RED] * len(shapes), shapes)
    assert [without_time(r) for r in results] == [without_time(results[0])] * len(shapes)
    # The program text alone has no id.
    alone = without_time(judge.score(SHORT_RED, program))
    assert alone == dict(without_time(results[0]), id=None)
    # One reference for all predictions.
    # (A fact alone is no rule: 0, as in the SLR reference.)
    broadcast = judge.score_batch([SHORT_RED, "eastbound(T)."], record)
    assert [r["partial_score"] for r in broadcast] == [results[0]["partial_score"], 0.0]


COPIED = "eastbound(T) :- has_car(T, C), car_color(C, red), car_len(C, short)."


def test_holdout_score_as_the_cli_reports_it(root, entail_bin):
    """A task with a holdout program: a rule copied from the shown positive
    train fits the prompt (1.0) and not the held-out trains (0.5); the
    hidden rule scores 1.0 on both. Every reference shape that carries the
    holdout program gives the CLI's result, keys in the same order."""
    path = root / "corpora/slr/task_holdout.json"
    record = json.loads(path.read_text())
    renamed = {k: v for k, v in record.items() if k != "holdout program"}
    renamed["holdout_program"] = record["holdout program"]
    shapes = [record, json.dumps(record), renamed]
    judge = entail.Judge(workers=1)
    for rule, held, correct in [(COPIED, 0.5, False), (SHORT_RED, 1.0, True)]:
        cli = json.loads(run_cli(entail_bin, "judge", "--task", str(path),
                                 "--hypothesis", rule, "--json"))
        results = judge.score_batch([rule] * len(shapes), shapes)
        for result in results:
            assert without_time(result) == without_time(cli)
            assert list(without_time(result)) == list(without_time(cli))
            assert (result["partial_score"], result["holdout_score"],
                    result["holdout_correct"]) == (1.0, held, correct)
    # Without its holdout program the task has no holdout fields.
    del renamed["holdout_program"]
    alone = judge.score(COPIED, renamed)
    assert "holdout_score" not in alone and "holdout_correct" not in alone
    assert alone["partial_score"] == 1.0


def test_bad_items_get_an_error_kind_and_the_batch_goes_on():
    program = "eastbound(train0).\nhas_car(train0, car0_1).\nwestbound(train1).\n"
    references = [
        "{not json",
        {"no": "program"},
        "eastbound(train0) :- .",
        {"validation program": program},
        {"validation program": program},
    ]
    predictions = [SHORT_RED, SHORT_RED, SHORT_RED,
                   "eastbound(T) :- has_car(T, _).", "eastbound(T) :- eastbound(T)."]
    results = entail.Judge(workers=2, inference_limit=100_000).score_batch(
        predictions, references
    )
    assert [r["error_kind"] for r in results] == ["input", "input", "input", None, "timeout"]
    assert "missing field" in results[1]["error"]
    assert results[3]["is_correct"] is True and results[3]["partial_score"] == 1.0
    assert results[4]["partial_score"] == 0.0
    # Text that is not valid Unicode (a lone surrogate) is an answer like any other.
    odd = entail.Judge(workers=1).score("eastbound(T) :- has_car(T, \ud800).", program)
    assert odd["error_kind"] is not None and odd["partial_score"] == 0.0


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda j: j.score_batch("eastbound(T).", ["p."]), TypeError),
        (lambda j: j.score_batch([1], ["p."]), TypeError),
        (lambda j: j.score_batch(["a", "b"], ["p.", "q.", "r."]), ValueError),
        (lambda j: j.score_batch(["a"], [42]), TypeError),
        (lambda j: j.score_batch(["a"], 42), TypeError),
        (lambda j: j.score(None, "p."), TypeError),
    ],
)
def test_wrong_argument_types_raise(call, error):
    with pytest.raises(error):
        call(entail.Judge(workers=1))


@pytest.mark.parametrize(
    "options, error",
    [
        ({"workers": 0}, ValueError),
        ({"workers": "2"}, TypeError),
        ({"engine": "swi"}, ValueError),
        ({"isomorphic": "yes"}, ValueError),
        ({"rules": "first"}, ValueError),
        ({"rules": "All"}, ValueError),
        ({"rules": ""}, ValueError),
        ({"rules": 1}, TypeError),
        ({"timeout": "1"}, TypeError),
        ({"timeout": -1.0}, ValueError),
        ({"inference_limit": 0}, ValueError),
        ({"worker": 1}, TypeError),
    ],
)
def test_bad_options_raise(options, error):
    with pytest.raises(error):
        entail.Judge(**options)


def test_empty_batch():
    assert entail.Judge(workers=1).score_batch([], []) == []
    assert entail.compute([], []) == {
        "accuracy": 0.0, "partial_score": 0.0, "syntax_score": 0.0, "detailed_results": []
    }


def test_isomorphic_both_reports_original_names(root):
    record = json.loads((root / "corpora/slr/task_l1.json").read_text())
    # A rule that names a train.
    naming = "eastbound(T) :- T = train0."
    result = entail.Judge(workers=1, isomorphic="both").score(naming, record)
    # Renamed constants defeat a rule naming a train; the original names do not.
    assert result["original_names"]["partial_score"] > result["partial_score"]


def test_two_threads_share_a_judge(root):
    predictions, references = corpus(root)
    judge = entail.Judge(workers=2)
    alone = [without_time(r) for r in judge.score_batch(predictions, references)]
    outputs = [None, None]

    def work(k):
        outputs[k] = [without_time(r) for r in judge.score_batch(predictions, references)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outputs == [alone, alone]


def test_progress_bar_counts_every_answer(root, capsys):
    predictions, references = corpus(root)
    seen = []

    class Bar:
        def update(self, n):
            seen.append(n)

    judge = entail.Judge(workers=2)
    judge._native.score_batch(*_native_args(predictions, references), Bar().update)
    assert sum(seen) == len(predictions)
    # The public flag draws a tqdm bar on stderr.
    judge.score_batch(predictions, references, progress=True)
    assert "14/14" in capsys.readouterr().err


def _native_args(predictions, references):
    from entail._judge import _tasks

    tasks, task_of = _tasks(references, len(predictions))
    return tasks, task_of, predictions


def test_ctrl_c_stops_a_long_batch():
    """SIGINT during a batch of looping answers raises KeyboardInterrupt,
    the answers not yet started are never evaluated, and the judge still
    works afterwards."""
    program = "eastbound(train0).\nhas_car(train0, car0_1).\nwestbound(train1).\n"
    # The native engine decides a looping answer on its step budget in a
    # few milliseconds: 5,000 of them take far longer than the 1 s wait.
    # Each answer differs, so no answer scored earlier in the session
    # (the judge keeps recent results) shortens the batch.
    n = 5000
    judge = entail.Judge(workers=2)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            judge.score_batch([f"eastbound(T) :- eastbound(T), {i} > 0." for i in range(n)], program)
    finally:
        timer.cancel()
    # Far from all of them had started when the batch stopped.
    stats = judge.native_stats()
    assert 0 < stats["native_answers"] + stats["fallbacks"] < n
    assert judge.score("eastbound(T) :- has_car(T, _).", program)["is_correct"]


def test_workers_run_this_package_whatever_the_directory(tmp_path, monkeypatch, root):
    """A stray `entail` package in the current directory is never what the
    scryer workers run."""
    stray = tmp_path / "entail"
    stray.mkdir()
    (stray / "__init__.py").write_text("raise SystemExit('the stray package ran')\n")
    monkeypatch.chdir(tmp_path)
    record = json.loads((root / "corpora/slr/task_l1.json").read_text())
    result = entail.Judge(workers=1, engine="scryer").score(SHORT_RED, record)
    assert result["error_kind"] is None and result["is_correct"]


def test_cli_parquet_output_is_read_by_pyarrow_as_the_json_lines(tmp_path, entail_bin, root):
    """`judge --batch --format parquet` writes what pyarrow (and so
    `datasets.load_dataset("parquet", ...)`) reads back as the JSONL rows;
    a Parquet input written by pyarrow scores as its JSONL does."""
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow

    predictions, references = corpus(root)
    rows = [dict(r, prediction=p) for p, r in zip(predictions, references)
            if isinstance(r.get("validation program"), str)]
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps(row) + "\n" for row in rows))
    want = [without_time(r) for r in jsonl(run_cli(entail_bin, "judge", "--batch", str(batch)))]
    out = tmp_path / "results.parquet"
    run_cli(entail_bin, "judge", "--batch", str(batch), "--format", "parquet", "--output", str(out))
    got = [without_time(r) for r in pq.read_table(out).to_pylist()]
    assert got == want
    published = tmp_path / "batch.parquet"
    pq.write_table(pyarrow.Table.from_pylist(rows), published)
    from_parquet = jsonl(run_cli(entail_bin, "judge", "--batch", str(published)))
    assert [without_time(r) for r in from_parquet] == want
