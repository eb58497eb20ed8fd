"""Jobs that change a stored game as a whole: decay (SPEC 4, 7, 10); consolidation and contradictions later.

Each job takes the caller's ``driver`` and ``database`` and works on one game at a time, so jobs for different
games can run in parallel against one Neo4j (SPEC 16).
"""

from __future__ import annotations

from graphmem.jobs.decay import DecayReport, advance

__all__ = ["DecayReport", "advance"]
