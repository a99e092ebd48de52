"""Score a file of SLR answers with Ray Data and the entail judge.

Each input record is a task plus an answer, as `entail judge --batch` reads
them: ``"validation program"`` (optionally ``"evaluation_config"`` and
``"id"``) and ``"prediction"``. The file is JSON Lines or Parquet (SLR-Bench
publishes Parquet). Ray splits it into blocks; each block is scored by a
long-lived actor that holds one ``entail.Judge``, so a task's program is
parsed once per actor and the judge's threads release the GIL.

    python examples/ray_judge.py answers.jsonl scored.parquet --actors 2

Outputs keep every input column and add the judge's: ``is_correct``,
``partial_score``, ``syntax_valid``, ``error_kind`` and ``error``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List

import entail

def _columns():
    import pyarrow

    return {
        "is_correct": pyarrow.bool_,
        "partial_score": pyarrow.float64,
        "syntax_valid": pyarrow.bool_,
        "error_kind": pyarrow.string,
        "error": pyarrow.string,
    }


#: The judge's result columns added to each record, with their Arrow types.
RESULT_COLUMNS = _columns()


def reference(row: Dict[str, Any]) -> Dict[str, Any]:
    """The task part of an input row, as the judge reads it."""
    program = row.get("validation program") or row.get("validation_program")
    task: Dict[str, Any] = {"validation program": program}
    config = row.get("evaluation_config")
    if isinstance(config, str):
        config = json.loads(config)
    if isinstance(config, dict):
        task["evaluation_config"] = {k: v for k, v in config.items() if v is not None}
    return task


def score_rows(judge: entail.Judge, rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The judge's results for ``rows``, in order."""
    return judge.score_batch(
        [row.get("prediction") or "" for row in rows], [reference(row) for row in rows]
    )


class JudgeActor:
    """One judge per Ray actor, reused for every block it is given."""

    def __init__(self, workers: int = 1) -> None:
        self.judge = entail.Judge(workers=workers)

    def __call__(self, batch):
        import pyarrow

        results = score_rows(self.judge, batch.to_pylist())
        for column, kind in RESULT_COLUMNS.items():
            values = pyarrow.array([result[column] for result in results], type=kind())
            batch = batch.append_column(column, values)
        return batch


def score_file(path: str, actors: int = 2, batch_size: int = 256):
    """A Ray Dataset of the scored records of ``path`` (JSON Lines or Parquet)."""
    import ray

    # Output rows in input order, as `entail judge --batch` writes them.
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    if path.endswith(".parquet"):
        dataset = ray.data.read_parquet(path)
    else:
        dataset = ray.data.read_json(path, lines=True)
    return dataset.map_batches(
        JudgeActor,
        batch_size=batch_size,
        batch_format="pyarrow",
        concurrency=actors,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="answers, .jsonl or .parquet")
    parser.add_argument("output", help="scored records, .jsonl or .parquet")
    parser.add_argument("--actors", type=int, default=2, help="judge actors (default 2)")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs for a local Ray")
    args = parser.parse_args()

    import ray

    ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    scored = score_file(args.input, actors=args.actors)
    rows = scored.take_all()
    import pyarrow
    import pyarrow.parquet

    if args.output.endswith(".parquet"):
        pyarrow.parquet.write_table(pyarrow.Table.from_pylist(rows), args.output)
    else:
        with open(args.output, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
    correct = sum(bool(row["is_correct"]) for row in rows)
    print(f"{len(rows)} answers scored, {correct} correct")


if __name__ == "__main__":
    main()
