"""graphmem: fallible, human-like memory for LLM agents playing social deduction games, stored in Neo4j."""

from __future__ import annotations

__version__ = "0.1.0"

from graphmem.errors import GameConflict, GraphmemError, InvalidGameLog, NotFound, UsageProblem
from graphmem.service import MemoryService

__all__ = ["GameConflict", "GraphmemError", "InvalidGameLog", "MemoryService", "NotFound", "UsageProblem",
           "__version__"]
