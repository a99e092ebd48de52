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
  datasets, `verifiers` environments and inspect-ai tasks (`inspect_tasks`
  imports inspect-ai, so it is imported on its own:
  `from entail import inspect_tasks`).
- `gen`: the generators under their old names (`entail.gen.slr` is
  `entail.slr.generate`).
- `report`, `pictures`: the page of charts `entail report` makes of score
  and judge outputs; generated items and score reports draw themselves
  inline in Jupyter (`_repr_svg_`, `_repr_html_`).
"""

from entail import datasets, divlogic, fol, gen, logicgraph, logicon, pictures, rewards, slr, verifiers
from entail._judge import Judge, compute
from entail._prove import prove
from entail.pictures import report

__all__ = [
    "Judge",
    "compute",
    "datasets",
    "divlogic",
    "fol",
    "gen",
    "logicgraph",
    "logicon",
    "pictures",
    "prove",
    "report",
    "rewards",
    "slr",
    "verifiers",
]
