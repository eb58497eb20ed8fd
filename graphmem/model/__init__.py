"""The cognitive memory model: pure functions and frozen dataclasses, no I/O and no Neo4j (docs/model.md,
docs/model.md#lifecycle-states, docs/model.md#profiles).

Modules, one job each:

- ``params``: profiles and parameters (``defaults.toml`` plus the user's overrides), loading and validation
- ``groups``: the parameter groups, one frozen dataclass per section of docs/model.md, with each field's allowed range
- ``_schema``: the declarative range specs, validation and merging behind ``params``
- ``vocabulary``: the enums (situations, memory and source types, detail kinds, markers, lifecycle states)
- ``salience``: appraisal table and salience at encoding (docs/model.md#salience, docs/model.md#the-appraisal-table)
- ``encoding``: E0, stability, memory type (docs/model.md#encoding-strength-and-stability)
- ``forgetting``: retention curves, closed-form strength, the stability a recall adds (docs/model.md#forgetting)
- ``source``: source confidence and belief (docs/model.md#source-memory)
- ``flashbulb``: flashbulb criteria, floor, emotional context (docs/model.md#flashbulb-memories)
- ``details``: structured details, rendering, JSON (docs/model.md#details-and-how-they-render)
- ``distortion``: rehearsal, distortion risk, probabilities, seeded RNG (docs/model.md#reconsolidation)
- ``reconsolidation``: one recall's effect on a memory (docs/model.md#forgetting, docs/model.md#reconsolidation)
- ``clarity``: clarity markers and lifecycle bands (docs/model.md#cued-recall-which-memories-come-back,
docs/model.md#lifecycle-states)
- ``retrieval``: cued recall, whether a memory can be retrieved from its strength and the cue's match
(docs/model.md#cued-recall-which-memories-come-back)
- ``working_memory``: active thoughts (docs/model.md#working-memory)
- ``findings``: the nine published findings of docs/model.md as seeded simulations over the modules above

Every function that uses a number of the model (docs/model.md) takes ``params`` (a :class:`Parameters`; None means the
shipped defaults). Pass the game's parameters so that the user's overrides apply.
"""

from __future__ import annotations

from graphmem.model.params import Parameters, Profile, default_parameters, load_parameters, load_parameters_file
from graphmem.model.vocabulary import DetailKind, LifecycleState, Marker, MemoryType, Situation, SourceType

__all__ = ["DetailKind", "LifecycleState", "Marker", "MemoryType", "Parameters", "Profile", "Situation",
           "SourceType", "default_parameters", "load_parameters", "load_parameters_file"]
