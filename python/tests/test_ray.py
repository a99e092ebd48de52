"""The Ray examples (examples/ray_*.py) on a local two-CPU Ray, each
compared with a direct call of the package."""

import importlib.util
import json
import os
import sys

import pytest

import entail

ray = pytest.importorskip("ray", reason="ray is not installed (scripts/test installs it)")
pyarrow_parquet = pytest.importorskip("pyarrow.parquet")


def load_example(root, name):
    spec = importlib.util.spec_from_file_location(name, root / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def local_ray(root):
    # The examples' classes are pickled by module name: Ray's workers must
    # import the examples as the test does.
    examples = {"env_vars": {"PYTHONPATH": str(root / "examples")}}
    # No usage reports from CI machines (the network may be closed).
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env=examples)
    yield
    ray.shutdown()


def answers(root, tmp_path):
    """The shipped answers that Arrow can read as one table: the corpus also
    has deliberately malformed lines (a number for a program), which only
    `entail judge --batch` takes."""
    rows = [json.loads(line) for line in (root / "corpora/slr/predictions.jsonl").open()]
    rows = [r for r in rows if isinstance(r.get("validation program", r.get("validation_program")), str)]
    assert len(rows) >= 10
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows, path


def direct(rows):
    """The package called directly, each row as the reference (its extra
    fields are ignored)."""
    judge = entail.Judge(workers=1)
    return judge.score_batch([row["prediction"] for row in rows], rows)


def check_scored(scored, rows):
    expected = direct(rows)
    assert [row.get("id") for row in scored] == [row.get("id") for row in rows]
    for got, want in zip(scored, expected):
        for column in ("is_correct", "partial_score", "syntax_valid", "error_kind"):
            assert got[column] == want[column], (got["id"], column)
    assert any(row["is_correct"] for row in scored)
    assert not all(row["is_correct"] for row in scored)


def test_ray_judge_scores_jsonl_as_a_direct_call_does(root, local_ray, tmp_path):
    example = load_example(root, "ray_judge")
    rows, path = answers(root, tmp_path)
    scored = example.score_file(str(path), actors=1, batch_size=4)
    check_scored(scored.take_all(), rows)


def test_ray_judge_scores_parquet_as_a_direct_call_does(root, local_ray, tmp_path):
    import pyarrow.json

    example = load_example(root, "ray_judge")
    rows, jsonl = answers(root, tmp_path)
    path = tmp_path / "answers.parquet"
    # Arrow's JSON reader types the columns from every row (from_pylist
    # would take the first row's keys only).
    pyarrow_parquet.write_table(pyarrow.json.read_json(jsonl), path)
    scored = example.score_file(str(path), actors=1, batch_size=4)
    check_scored(scored.take_all(), rows)


@pytest.mark.parametrize(
    "family,options",
    [("slr", {"levels": (1, 3)}), ("logicon", {}), ("divlogic", {})],
)
def test_ray_gen_parts_are_the_unsharded_run(root, local_ray, tmp_path, family, options):
    example = load_example(root, "ray_gen")
    options = dict(options, count=7, seed=3)
    whole = getattr(entail.gen, family)(**options)
    parts = example.generate(family, options, 3, str(tmp_path / "jsonl"))
    # Blocks floor(i*C/3)..floor((i+1)*C/3) of the C items (SLR's count is
    # per level).
    c = len(whole)
    assert c == (21 if family == "slr" else 7)
    assert [n for _, n in parts] == [(i + 1) * c // 3 - i * c // 3 for i in range(3)]
    assert [os.path.basename(p) for p, _ in parts] == [
        "part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    assert example.read_parts(parts) == whole
    parquet = example.generate(family, options, 3, str(tmp_path / "parquet"), "parquet")
    assert len(example.read_parts(parquet)) == len(whole)
