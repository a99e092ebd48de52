"""The benchmark generators under their old names: ``entail.gen.slr`` is
``entail.slr.generate`` (likewise ``logicgraph``, ``logicon``, ``divlogic``).
Each returns what ``entail gen`` writes for the same arguments and seed."""

from entail.divlogic import generate as divlogic
from entail.logicgraph import generate as logicgraph
from entail.logicon import generate as logicon
from entail.slr import generate as slr

__all__ = ["divlogic", "logicgraph", "logicon", "slr"]
