"""`entail.gen.*` return exactly what `entail gen` writes for the same
arguments and seed, whatever the thread count."""

import json
import warnings
from pathlib import Path

import pytest

import entail
from conftest import jsonl, run_cli


def test_slr_equals_cli(entail_bin):
    cli = jsonl(run_cli(entail_bin, "gen", "slr", "--levels", "1-20", "--count", "1",
                        "--seed", "5", "--threads", "2"))
    ours = entail.gen.slr(levels=(1, 20), count=1, seed=5, threads=1)
    assert len(ours) == 20 and ours == cli
    nl = jsonl(run_cli(entail_bin, "gen", "slr", "--level", "7", "--count", "2",
                       "--seed", "1", "--prompt", "nl", "--split", "test"))
    assert entail.gen.slr(level=7, count=2, seed=1, prompt="nl", split="test") == nl


def test_slr_theta_equals_cli_flags(entail_bin):
    cli = jsonl(run_cli(entail_bin, "gen", "slr", "--level", "8", "--count", "2", "--seed", "2",
                        "--split", "test", "--kappa-pos", "3", "--kappa-neg", "2",
                        "--cars", "2-4", "--rule-length", "2-3"))
    ours = entail.gen.slr(level=8, count=2, seed=2, split="test",
                          theta={"kappa_pos": 3, "kappa_neg": 2, "cars": [2, 4],
                                 "rule_length": [2, 3]})
    assert len(ours) == 2 and ours == cli
    assert all(t["problem size"] == 5 for t in ours)


def test_logicon_equals_cli(entail_bin):
    cli = jsonl(run_cli(entail_bin, "gen", "logicon", "--k", "2..5", "--count", "40",
                        "--seed", "9", "--variant", "hard"))
    assert entail.gen.logicon(k="2..5", count=40, seed=9, variant="hard", threads=1) == cli
    assert entail.gen.logicon(k=(2, 5), count=40, seed=9, variant="hard", threads=2) == cli
    paper = jsonl(run_cli(entail_bin, "gen", "logicon", "--count", "20", "--seed", "9",
                          "--labels", "paper", "--prompt", "3-shot"))
    assert entail.gen.logicon(count=20, seed=9, labels="paper", prompt="3-shot") == paper
    assert {s["labels"] for s in paper} == {"paper"}
    assert all(s["prompt"].count("Example ") == 3 for s in paper)


def test_logicon_task3_equals_cli(entail_bin):
    cli = jsonl(run_cli(entail_bin, "gen", "logicon", "--task", "generative", "--groups", "2..4",
                        "--count", "6", "--seed", "4", "--threads", "2"))
    ours = entail.gen.logicon(task="generative", groups="2..4", count=6, seed=4, threads=1)
    assert ours == cli
    assert [s["n"] for s in ours] == [2, 3, 4, 2, 3, 4]
    for s in ours:
        atoms = [a for g in s["groups"] for a in g["atoms"]]
        assert sorted(atoms) == sorted(s["assignment"]) and len(set(atoms)) == 3 * s["n"]
        assert all(len(g["facts"]) == 10 for g in s["groups"])
        assert s["prompt"].endswith(f"Group {s['n']}: <statement>\nAnswer:")
    assert entail.gen.logicon(task="generative", groups=5, group_atoms=4, count=1)[0]["n"] == 5


def test_divlogic_equals_cli(entail_bin):
    for args, kwargs in [
        (["--type", "mixed", "--count", "30", "--seed", "4"], dict(type="mixed", count=30, seed=4)),
        (["--type", "missing", "--count", "5", "--seed", "1", "--rotations"],
         dict(type="missing", count=5, seed=1, rotations=True)),
    ]:
        cli = jsonl(run_cli(entail_bin, "gen", "divlogic", *args))
        assert entail.gen.divlogic(**kwargs) == cli


def test_logicgraph_equals_cli_files(entail_bin, tmp_path):
    run_cli(entail_bin, "gen", "logicgraph", "--tier", "small", "--count", "3", "--seed", "2",
            "--prompt", "--output", str(tmp_path))
    ours = entail.gen.logicgraph(tier="small", count=3, seed=2, prompt=True, threads=1)
    assert [i["id"] for i in ours] == ["test_1", "test_2", "test_3"]
    for instance in ours:
        d = tmp_path / instance["id"]
        for name in ("question", "complete", "solutions", "verify_true"):
            assert instance[name] == json.loads((d / f"{name}.json").read_text())
        assert instance["prompt"] == (d / "prompt.txt").read_text()


def test_logicgraph_warns_when_distractors_are_too_few_to_hide():
    with pytest.warns(UserWarning, match="fewer than 8 distractors .* about 4 to 7 points"):
        few = entail.gen.logicgraph(count=1, seed=2, distractors=4, threads=1)
    assert len(few) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        enough = entail.gen.logicgraph(count=1, seed=2, distractors=8, threads=1)
    kb = enough[0]["complete"]["knowledge_base"]
    cited = {p["id"] for s in enough[0]["solutions"]["solutions"]
             for step in s["steps"] for p in step["premises_used"]}
    assert len([p for p in kb["rules"] + kb["facts"] if p["id"] not in cited]) == 8


def test_shards_in_order_are_the_whole_run():
    whole = entail.gen.logicon(count=7, seed=3, threads=1)
    parts = [entail.gen.logicon(count=7, seed=3, threads=2, shard=(i, 3)) for i in range(3)]
    assert [len(p) for p in parts] == [2, 2, 3]
    assert sum(parts, []) == whole
    trees = [entail.gen.logicgraph(count=3, seed=2, threads=1, shard=(i, 2)) for i in range(2)]
    assert [[i["id"] for i in t] for t in trees] == [["test_1"], ["test_2", "test_3"]]
    assert sum(trees, []) == entail.gen.logicgraph(count=3, seed=2, threads=1)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: entail.gen.logicon(k=(5, 2)), ValueError),
        (lambda: entail.gen.logicon(k=9), ValueError),
        (lambda: entail.gen.logicon(count="3"), TypeError),
        (lambda: entail.gen.logicon(variant="easy"), ValueError),
        (lambda: entail.gen.logicon(labels="loose"), ValueError),
        (lambda: entail.gen.logicon(prompt="5-shot"), ValueError),
        (lambda: entail.gen.logicon(task="creative"), ValueError),
        (lambda: entail.gen.logicon(task="generative", groups=(1, 3)), ValueError),
        (lambda: entail.gen.logicon(task="generative", variant="hard"), ValueError),
        (lambda: entail.gen.divlogic(type="4c"), ValueError),
        (lambda: entail.gen.slr(level=21), ValueError),
        (lambda: entail.gen.slr(split="dev"), ValueError),
        (lambda: entail.gen.slr(language={"not": "a language"}), ValueError),
        (lambda: entail.gen.logicgraph(forms="XX"), ValueError),
        (lambda: entail.gen.logicgraph(tier="huge"), ValueError),
        (lambda: entail.gen.divlogic(shard=(2, 2)), ValueError),
        (lambda: entail.gen.divlogic(shard=(0,)), TypeError),
    ],
)
def test_bad_arguments_raise(call, error):
    with pytest.raises(error):
        call()


def _present(value):
    """``value`` without null fields: a Parquet column holds a field for every
    record, so a field a record lacks reads back as None."""
    if isinstance(value, dict):
        return {k: _present(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_present(v) for v in value]
    return value


@pytest.mark.parametrize("args", [
    ["slr", "--levels", "1-4", "--count", "2"],
    ["logicon", "--count", "12", "--variant", "completion"],
    ["divlogic", "--type", "mixed", "--count", "12", "--rotations"],
])
def test_parquet_output_is_the_jsonl_records(entail_bin, tmp_path, args):
    """`--format parquet` writes the JSONL records as one table (column names
    as the JSON keys, SLR-Bench's spaces included) that pyarrow, and so
    `datasets.load_dataset("parquet", ...)`, reads back."""
    pq = pytest.importorskip("pyarrow.parquet")
    lines = jsonl(run_cli(entail_bin, "gen", *args, "--seed", "3"))
    out = tmp_path / "out.parquet"
    run_cli(entail_bin, "gen", *args, "--seed", "3", "--format", "parquet", "--output", str(out))
    table = pq.read_table(out)
    assert set(table.column_names) == set().union(*lines)
    assert [_present(r) for r in table.to_pylist()] == [_present(r) for r in lines]
