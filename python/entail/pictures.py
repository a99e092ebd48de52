"""Pictures in notebooks: the pages of `entail report` and the drawings of
`entail show`, made by the same Rust code.

Generated items and score reports are dicts of these classes, so Jupyter
draws them inline: an SLR task (`Task`) as its trains, a LogiConBench sample
(`Sample`) as its reasoning path, a LogicGraph instance (`Instance`) as its
DAG, a score report (`Report`) as the page of charts `entail report` makes of
it. Each is still the plain dict it was (equal to it, dumped as JSON as it).
`report(...)` makes the page of several models side by side.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from entail._load import native as _native
from entail._bench import json_text

Result = Union[str, "os.PathLike[str]", Mapping[str, Any], Sequence[Mapping[str, Any]]]


class Task(dict):
    """An SLR task; drawn as its trains grouped by label."""

    def svg(self, unlabelled: bool = False) -> str:
        """The trains as SVG (``entail show TASK``); ``unlabelled``: in one group."""
        return _native.show_item("slr", json_text(self), unlabelled)[0]

    def _repr_svg_(self) -> str:
        return self.svg()


class Sample(dict):
    """A LogiConBench sample; drawn as its statements and reasoning path."""

    def svg(self) -> str:
        """The statements and path as SVG (``entail show SAMPLES --id ID``)."""
        return _native.show_item("logicon", json_text(self))[0]

    def _repr_svg_(self) -> str:
        return self.svg()


class Instance(dict):
    """A LogicGraph instance (``entail.logicgraph.generate``); drawn as its DAG."""

    def svg(self, answer: Optional[str] = None, timeout: float = 10.0) -> str:
        """The DAG as SVG; with ``answer`` (a completion or step-file text),
        the model's steps marked valid or invalid by the prover."""
        with tempfile.TemporaryDirectory(prefix="entail-show-") as out:
            directory = Path(out) / str(self.get("id", "instance"))
            directory.mkdir()
            for name in ("complete", "solutions"):
                (directory / f"{name}.json").write_text(json.dumps(self[name]), encoding="utf-8")
            given = None if answer is None else ("answer", answer)
            return _native.show_logicgraph(str(directory), given, float(timeout))[0]

    def _repr_svg_(self) -> str:
        return self.svg()


class Report(dict):
    """A score report (``entail score … --json``); shown as its page of charts."""

    def _repr_html_(self) -> str:
        return report(self, labels=["this report"])


def _text(result: Result) -> Tuple[str, str]:
    """A result's name and text: a file's path and contents, a report's JSON,
    judge results (a list of dicts) as JSONL."""
    if isinstance(result, (str, os.PathLike)):
        return str(result), Path(result).read_text(encoding="utf-8")
    if isinstance(result, Mapping):
        return "report", json_text(result)
    return "results", "".join(json_text(r) + "\n" for r in result)


def report(*results: Result, labels: Optional[Sequence[str]] = None,
           tasks: Optional[Iterable[Union[Mapping, str]]] = None) -> str:
    """The HTML page `entail report` writes, one model per result: a score
    report (dict or JSON file), or judge results (a list of dicts, or an
    `entail judge --batch` output file). ``labels`` name the models (default:
    a file's stem, else ``model 1``, …); ``tasks`` (SLR task records or a
    JSONL path) place judge results by curriculum level."""
    inputs: List[Tuple[str, str, str]] = []
    for k, result in enumerate(results):
        name, text = _text(result)
        if labels is not None and k < len(labels):
            label = labels[k]
        elif isinstance(result, (str, os.PathLike)):
            label = Path(result).stem
        else:
            label = f"model {k + 1}"
        inputs.append((label, name, text))
    if labels is not None and len(labels) > len(results):
        raise ValueError(f"{len(labels)} labels for {len(results)} results")
    if tasks is None:
        task_lines: List[str] = []
    elif isinstance(tasks, (str, os.PathLike)):
        task_lines = [l for l in Path(tasks).read_text(encoding="utf-8").splitlines() if l.strip()]
    else:
        task_lines = [json_text(t) for t in tasks]
    return _native.report_page(inputs, task_lines)
