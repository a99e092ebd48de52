"""entail: check logic for people who evaluate and train LLMs on reasoning.

- `compute`, `Judge`: score Prolog rules proposed for SLR tasks, sandboxed.
- `rewards`: the judge as a reward function for TRL, verl and OpenRLHF.
- `prove`: check Prover9 problems, step files and LogicGraph instances (truth
  tables, Z3, and for first-order problems E and Prover9 when installed).
- `gen`: benchmark generators with engine-verified labels.
"""

from entail import gen, rewards
from entail._judge import Judge, compute
from entail._prove import prove

__all__ = ["Judge", "compute", "gen", "prove", "rewards"]
