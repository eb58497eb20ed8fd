"""Jobs that change a stored game as a whole: decay (docs/model.md#forgetting, docs/model.md#working-memory,
docs/model.md#lifecycle-states), consolidation (docs/jobs.md#consolidation), contradictions
(docs/jobs.md#contradictions) and forgetting on request (docs/model.md#lifecycle-states).

Each job takes the caller's ``driver`` and ``database`` and works on one game, and consolidation and contradictions
on one owner at a time, so jobs for different games can run in parallel against one Neo4j
(docs/jobs.md#games-are-independent) and memory use
stays bounded by the largest owner.
"""

from __future__ import annotations

from graphmem.jobs.consolidation import ConsolidationReport, consolidate
from graphmem.jobs.contradictions import ContradictionReport, find_contradictions
from graphmem.jobs.decay import DecayReport, advance
from graphmem.jobs.forget import ForgetResult, forget

__all__ = ["ConsolidationReport", "ContradictionReport", "DecayReport", "ForgetResult", "advance", "consolidate",
           "find_contradictions", "forget"]
