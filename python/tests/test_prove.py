"""`entail.prove` gives the `entail prove --json` report."""

import json
from pathlib import Path

import pytest

import entail


def corpus(root):
    return sorted((root / "corpora/prove").glob("*.in"))


# A proof is reported by whichever prover finishes first (a race): any of
# them stands for the golden one, as in tests/prove_corpus.rs.
PROVERS = {"z3", "eprover", "prover9", "cvc5"}


def without_race_winner(report, golden):
    if report.get("status") == "proved" and {report.get("engine"), golden.get("engine")} <= PROVERS:
        return {**report, "engine": golden.get("engine")}
    return report


def test_corpus_matches_golden_reports(root):
    files = corpus(root)
    assert len(files) >= 3
    for path in files:
        golden = json.loads(path.with_suffix(".expected.json").read_text())
        for source in (path, str(path), path.read_text()):
            assert without_race_winner(entail.prove(source), golden) == golden, path.name


def test_logicgraph_instance_directory(root, entail_bin):
    from conftest import run_cli

    instance = root / "corpora/logicgraph-answers"
    dirs = [p.parent for p in instance.rglob("complete.json")]
    assert dirs
    for d in dirs:
        cli = json.loads(run_cli_ok(entail_bin, "prove", "--json", "--supports", str(d)))
        assert entail.prove(d, supports=True) == cli


def run_cli_ok(entail_bin, *args):
    import subprocess

    done = subprocess.run([entail_bin, *args], capture_output=True, text=True)
    assert done.returncode in (0, 2, 4), done.stderr
    return done.stdout


def test_errors_are_value_errors_with_a_position(tmp_path):
    with pytest.raises(ValueError, match=r"^<input>:3:"):
        entail.prove("formulas(assumptions).\n  p(a).\n  q(p(b)).\nend_of_list.\n")
    bad = tmp_path / "conflict.in"
    bad.write_text("formulas(assumptions).\n  p(a).\n  q(p(b)).\nend_of_list.\n")
    with pytest.raises(ValueError, match=rf"^{bad}:3:"):
        entail.prove(bad)
    with pytest.raises(TypeError):
        entail.prove(42)
    with pytest.raises(TypeError):
        entail.prove("p.", timeout="3")
    with pytest.raises(ValueError):
        entail.prove("formulas(goals). p | -p. end_of_list.", timeout=-1)


def test_timeout_and_countermodels_options():
    text = "formulas(assumptions). p(a). end_of_list. formulas(goals). p(b). end_of_list."
    report = entail.prove(text, timeout=3)
    assert report["status"] == "not_proved" and report["timeout_seconds"] == 3.0
    assert report["countermodel"] is not None
    assert entail.prove(text, countermodels=False)["countermodel"] is None
