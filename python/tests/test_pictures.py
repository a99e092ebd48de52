"""Items and reports draw themselves in notebooks, with the Rust code that
`entail show` and `entail report` run: the same pages, and the marks each
item must have (a car body per car, a node per premise)."""

import json
import re
import subprocess

import entail
from entail.pictures import Instance, Report, Sample, Task


def filled_rects(svg: str) -> int:
    return sum(1 for r in re.findall(r"<rect [^>]*>", svg) if 'fill="none"' not in r)


def test_an_slr_task_draws_one_car_body_per_car():
    task = entail.slr.generate(level=3, count=1, seed=1, threads=1)[0]
    assert isinstance(task, Task) and isinstance(task, dict)
    cars = len(re.findall(r"^has_car\(", task["validation program"], re.M))
    svg = task._repr_svg_()
    assert svg.startswith("<svg") and filled_rects(svg) == cars
    assert json.loads(json.dumps(task)) == dict(task)


def test_a_logicon_sample_draws_its_statements():
    sample = entail.logicon.generate(k=3, count=1, seed=1)[0]
    assert isinstance(sample, Sample)
    svg = sample._repr_svg_()
    assert svg.count('class="node statement"') == 3
    assert svg.count('class="edge path"') == len(sample["path"])


def test_a_logicgraph_instance_draws_every_premise():
    instance = entail.logicgraph.generate(count=1, seed=1)[0]
    assert isinstance(instance, Instance)
    base = instance["complete"]["knowledge_base"]
    svg = instance._repr_svg_()
    assert svg.count('class="node premise"') == len(base["rules"]) + len(base["facts"])
    assert svg.count('class="node goal"') == 1
    # The gold answer's steps are all valid, and each equals a gold node, so
    # it is drawn on that node ("<kind> answered valid"), not beside it.
    marked = instance.svg(answer=entail.logicgraph.gold_answer(instance))
    assert marked.count(' answered valid"') > 0
    assert marked.count('class="node step ') == 0
    assert marked.count(' answered invalid"') == 0


def without_made(page: str) -> str:
    return re.sub(r"<p>Made [^<]*</p>", "", page)


def test_report_is_the_pages_of_entail_report(root, entail_bin):
    r = root / "corpora" / "report"
    files = [str(r / "judged_a.jsonl"), str(r / "judged_b.jsonl"), str(r / "divlogic_a.json")]
    tasks = str(r / "slr_tasks.jsonl")
    page = entail.report(*files, labels=["a", "b"], tasks=tasks)
    cli = subprocess.run([entail_bin, "report", *files, "--label", "a", "--label", "b", "--tasks", tasks],
                         capture_output=True, text=True, check=True).stdout
    assert without_made(page) == without_made(cli)
    assert "SLR: answers of b by error kind and level" in page
    # Judge results as a list of dicts, tasks as records: the same charts.
    judged = [json.loads(l) for l in open(files[0])]
    records = [json.loads(l) for l in open(tasks)]
    again = entail.report(judged, labels=["a"], tasks=records)
    assert "model" not in again.split("</header>")[0].split("a: results")[1][:40]
    assert again.count('<figure class="chart"') == 7


def test_a_score_report_shows_its_charts():
    tasks = entail.slr.generate(levels=(1, 2), count=1, seed=1, threads=1)
    answers = [{"id": t["id"], "prediction": t["ground-truth rule"]} for t in tasks]
    report = entail.slr.score(tasks, answers, threads=1)
    assert isinstance(report, Report) and report["overall"]["accuracy"] == 1.0
    page = report._repr_html_()
    assert "SLR: accuracy by curriculum level" in page
    assert "this report: report (SLR score report, 2 tasks)" in page
