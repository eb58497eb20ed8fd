"""graphmem: fallible, human-like memory for LLM agents playing social deduction games, stored in Neo4j.

``from graphmem import MemoryService`` is the Python API (:mod:`graphmem.service`). It is imported on first use
(PEP 562), so that ``import graphmem.model``, the pure cognitive model, loads neither the Neo4j driver nor numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphmem.errors import GameConflict, GraphmemError, InvalidGameLog, NotFound, UsageProblem

if TYPE_CHECKING:
    from graphmem.service import MemoryService

__version__ = "0.1.0"

__all__ = ["GameConflict", "GraphmemError", "InvalidGameLog", "MemoryService", "NotFound", "UsageProblem",
           "__version__"]


def __getattr__(name: str) -> Any:
    if name == "MemoryService":
        from graphmem.service import MemoryService

        return MemoryService
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
