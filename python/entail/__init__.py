"""entail: check logic for people who evaluate and train LLMs on reasoning.

- `slr`, `logicgraph`, `logicon`, `divlogic`: one module per benchmark, each
  with `generate` (engine-verified items), `score` (the report of
  `entail score <benchmark> --json`) and its reward in the shapes TRL, verl
  and OpenRLHF call (`trl_reward`, `compute_score`, `compute_score_batch`,
  `reward_func`; `rewards` gives the details).
- `compute`, `Judge`: score Prolog rules proposed for SLR tasks, sandboxed.
- `rewards`: the SLR judge as a reward function for TRL, verl and OpenRLHF.
- `fol`: three-way answers (True/False/Uncertain) on FOLIO-notation programs,
  as Logic-LM and LINC ask Prover9 for them, and the translation reward.
- `prove`: check Prover9 problems, step files and LogicGraph instances (truth
  tables, Z3, and for first-order problems E and Prover9 when installed).
- `datasets`, `verifiers`, `inspect_tasks`: the benchmarks as reasoning-gym
  datasets, `verifiers` environments (``vf-eval entail -a '{"benchmark":
  "logicon"}'`` calls `load_environment`) and inspect-ai tasks
  (``inspect eval entail/logicon``; `inspect_tasks` imports inspect-ai, so it
  is imported on its own: `from entail import inspect_tasks`).
- `gen`: the generators under their old names (`entail.gen.slr` is
  `entail.slr.generate`).
- `report`, `pictures`: the page of charts `entail report` makes of score
  and judge outputs; generated items and score reports draw themselves
  inline in Jupyter (`_repr_svg_`, `_repr_html_`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers see; at run time, __getattr__ imports them
    from entail import datasets, divlogic, fol, gen, logicgraph, logicon, pictures, rewards, slr, verifiers
    from entail._judge import Judge, compute
    from entail._prove import prove
    from entail.pictures import report

#: The package's version (the distribution `entail-logic`).
__version__ = "0.1.0"

# Submodules and names are imported on first use: `import entail` loads
# neither the native extension nor any framework.
_SUBMODULES = ("datasets", "divlogic", "fol", "gen", "logicgraph", "logicon", "pictures", "rewards",
               "slr", "verifiers")
_NAMES = {
    "Judge": "entail._judge",
    "compute": "entail._judge",
    "prove": "entail._prove",
    "report": "entail.pictures",
}

__all__ = [
    "Judge",
    "__version__",
    "compute",
    "datasets",
    "divlogic",
    "fol",
    "gen",
    "load_environment",
    "logicgraph",
    "logicon",
    "pictures",
    "prove",
    "report",
    "rewards",
    "slr",
    "verifiers",
]


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"entail.{name}")
    if name in _NAMES:
        return getattr(importlib.import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'entail' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))


def load_environment(benchmark: str = "slr", *, size: int = 100, seed: int = 0, eval_size: int = 0,
                     system_prompt: Any = None, **config: Any) -> Any:
    """`entail.verifiers.load_environment`: what ``vf-eval entail -a
    '{"benchmark": "divlogic", ...}'`` calls (verifiers imports the package
    named on its command line and calls its ``load_environment``)."""
    from entail.verifiers import load_environment as load

    return load(benchmark, size=size, seed=seed, eval_size=eval_size, system_prompt=system_prompt,
                **config)
