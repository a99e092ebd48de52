"""Generate a benchmark corpus with Ray, one Ray task per shard.

Shard ``i`` of ``n`` is ``entail.gen.<family>(..., shard=(i, n))``: the
i-th contiguous block of the items the unsharded run makes, so the parts
read in order are the whole corpus, whatever the number of shards or the
machines they ran on. Nothing is shared between tasks: each writes its own
part file, and the package spawns no processes.

    python examples/ray_gen.py slr OUT_DIR --count 1000 --shards 8 --seed 0
    python examples/ray_gen.py logicon OUT_DIR --count 5000 --shards 4 --format parquet

Parts are ``OUT_DIR/part-00000.jsonl`` (or ``.parquet``), ``part-00001``, and
so on; ``datasets.load_dataset("parquet", data_files="OUT_DIR/*.parquet")``
reads them as one dataset. Options other than count, seed and shard keep the
generator's defaults here; pass more with ``--option name=value``
(``--option levels=1-5``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
from typing import Any, Dict, List, Tuple

import entail

#: The generators whose items are JSON records (LogicGraph writes directory
#: trees: use `entail gen logicgraph --shard I/N` for those).
FAMILIES = ("slr", "logicon", "divlogic")


def make_shard(
    family: str, options: Dict[str, Any], shard: Tuple[int, int], out_dir: str, fmt: str
) -> Tuple[str, int]:
    """Generates one shard and writes it as a part file; returns its path and
    how many items it holds."""
    make = getattr(entail.gen, family)
    # One Ray task per CPU: each generator that has threads gets one.
    if "threads" in inspect.signature(make).parameters:
        options = dict(options, threads=1)
    items = make(**options, shard=shard)
    path = os.path.join(out_dir, f"part-{shard[0]:05d}.{fmt}")
    if fmt == "parquet":
        import pyarrow
        import pyarrow.parquet

        pyarrow.parquet.write_table(pyarrow.Table.from_pylist(items), path)
    else:
        with open(path, "w") as out:
            for item in items:
                out.write(json.dumps(item) + "\n")
    return path, len(items)


def generate(
    family: str, options: Dict[str, Any], shards: int, out_dir: str, fmt: str = "jsonl"
) -> List[Tuple[str, int]]:
    """Runs one Ray task per shard and returns the parts in shard order."""
    import ray

    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
    os.makedirs(out_dir, exist_ok=True)
    task = ray.remote(num_cpus=1)(make_shard)
    pending = [task.remote(family, options, (i, shards), out_dir, fmt) for i in range(shards)]
    return ray.get(pending)


def read_parts(parts: List[Tuple[str, int]]) -> List[Dict[str, Any]]:
    """The items of the parts, in order."""
    items: List[Dict[str, Any]] = []
    for path, _ in parts:
        if path.endswith(".parquet"):
            import pyarrow.parquet

            items.extend(pyarrow.parquet.read_table(path).to_pylist())
        else:
            with open(path) as f:
                items.extend(json.loads(line) for line in f if line.strip())
    return items


def _option(text: str) -> Tuple[str, Any]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("family", choices=FAMILIES)
    parser.add_argument("out_dir")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shards", type=int, default=4, help="Ray tasks (default 4)")
    parser.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl")
    parser.add_argument("--option", action="append", default=[], type=_option,
                        help="another generator option, name=value")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs for a local Ray")
    args = parser.parse_args()

    import ray

    ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    options = dict(args.option, count=args.count, seed=args.seed)
    parts = generate(args.family, options, args.shards, args.out_dir, args.format)
    print(f"{sum(n for _, n in parts)} items in {len(parts)} parts under {args.out_dir}")


if __name__ == "__main__":
    main()
