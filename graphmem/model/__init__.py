"""The cognitive memory model: pure functions and frozen dataclasses, no I/O and no Neo4j (SPEC 3-8, 10, 13, 18).

Modules, one job each:

- ``params``: profiles and parameters (``defaults.toml`` plus the user's overrides), loading and validation
- ``groups``: the parameter groups, one frozen dataclass per SPEC section, with each field's allowed range
- ``_schema``: the declarative range specs, validation and merging behind ``params``
- ``vocabulary``: the enums (situations, memory and source types, detail kinds, markers, lifecycle states)
- ``salience``: appraisal table and salience at encoding (SPEC 3.3, 3.5)
- ``encoding``: E0, stability, memory type (SPEC 3.4)
- ``forgetting``: retention curves, closed-form strength, the stability a recall adds (SPEC 4, 4.0)
- ``source``: source confidence and belief (SPEC 4.1)
- ``flashbulb``: flashbulb criteria, floor, emotional context (SPEC 5)
- ``details``: structured details, rendering, JSON (SPEC 6.1)
- ``distortion``: rehearsal, distortion risk, probabilities, seeded RNG (SPEC 6 step 3)
- ``reconsolidation``: one recall's effect on a memory (SPEC 4.0, 6 step 3)
- ``clarity``: clarity markers and lifecycle bands (SPEC 6 step 4, 10)
- ``retrieval``: cued recall, whether a memory can be retrieved from its strength and the cue's match (SPEC 6 step 2)
- ``working_memory``: active thoughts (SPEC 7)
- ``findings``: the nine published findings of SPEC 18 as seeded simulations over the modules above

Every function that uses a number of the SPEC takes ``params`` (a :class:`Parameters`; None means the shipped
defaults). Pass the game's parameters so that the user's overrides apply.
"""

from __future__ import annotations

from graphmem.model.params import Parameters, Profile, default_parameters, load_parameters, load_parameters_file
from graphmem.model.vocabulary import DetailKind, LifecycleState, Marker, MemoryType, Situation, SourceType

__all__ = ["DetailKind", "LifecycleState", "Marker", "MemoryType", "Parameters", "Profile", "Situation",
           "SourceType", "default_parameters", "load_parameters", "load_parameters_file"]
