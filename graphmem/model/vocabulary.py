"""The model's fixed vocabularies: situations (docs/model.md#the-appraisal-table), memory types (3.4), source types (1,
4.1), detail kinds (6.1), clarity markers (6) and lifecycle states (10).

Every enum is a ``str`` subclass whose ``str()`` is its value, so members compare equal to, serialise as and
format as the plain strings stored in the graph (``MemoryType.EPISODIC == "episodic"``).
"""

from __future__ import annotations

from enum import Enum


class _Name(str, Enum):
    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Situation(_Name):
    """What an event is for its owner: the rows of the relevance and appraisal table (docs/model.md#the-appraisal-table)."""

    MURDER_REVEALED_FAITHFUL = "murder_revealed_faithful"
    MURDER_REVEALED_TRAITOR = "murder_revealed_traitor"  # a traitor who chose the victim
    BANISHMENT_REVEAL = "banishment_reveal"
    ACCUSED = "accused"  # a vote or accusation against the owner
    RECRUITED = "recruited"
    ROLE_CLAIM = "role_claim"  # role claim or reveal statement
    PRIVATE_TO_OWNER = "private_to_owner"
    ROUNDTABLE = "roundtable"  # round-table speech or vote by others
    OVERHEARD = "overheard"
    TRAITORS_MURDER_DISCUSSION = "traitors_murder_discussion"
    LEFT_OFF_TEAM = "left_off_team"  # mission games: a team proposed without the owner
    QUEST_FAILED_ON_TEAM = "quest_failed_on_team"  # a failed quest the owner (not on the hidden side) was on
    QUEST_FAILED = "quest_failed"  # a failed quest the owner (not on the hidden side) was not on
    QUEST_OUTCOME_TRAITOR = "quest_outcome_traitor"  # any quest's result, for the hidden side
    OTHER = "other"


class MemoryType(_Name):
    """Memory systems (docs/model.md#encoding-strength-and-stability), each with its own stability factor."""

    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"
    EMOTIONAL = "emotional"


class SourceType(_Name):
    """How the owner came to know a memory's content (docs/model.md#vocabulary-and-units); ``UNKNOWN`` is only ever a
    belief."""

    FIRST_HAND = "first_hand"
    DIRECT_TOLD = "direct_told"
    OVERHEARD = "overheard"
    GROUP_DISCUSS = "group_discuss"
    INFERRED = "inferred"
    UNKNOWN = "unknown"


class DetailKind(_Name):
    """Kinds of structured detail of a memory (docs/model.md#details-and-how-they-render)."""

    WHO = "who"
    WHOM = "whom"
    WHERE = "where"
    WHEN = "when"
    QUOTE = "quote"
    WHAT = "what"


class Marker(_Name):
    """Clarity markers shown to the agent (docs/model.md#cued-recall-which-memories-come-back,
    docs/model.md#flashbulb-memories)."""

    FLASHBULB = "FLASHBULB"
    CLEAR = "CLEAR"
    FUZZY = "FUZZY"
    VAGUE = "VAGUE"


class LifecycleState(_Name):
    """Lifecycle states of a memory (docs/model.md#lifecycle-states). The decay job moves memories between the first
    three."""

    ACTIVE = "active"
    WARM = "warm"
    ARCHIVED = "archived"
    CANDIDATE = "candidate"
    CONSOLIDATED = "consolidated"
    TOMBSTONED = "tombstoned"


LIVE_STATES = (LifecycleState.ACTIVE.value, LifecycleState.WARM.value, LifecycleState.ARCHIVED.value)
"""The lifecycle states that decay moves a memory between; the others are set by consolidation and forgetting."""

SITUATIONS = tuple(s.value for s in Situation)
MEMORY_TYPES = tuple(t.value for t in MemoryType)
ENCODED_SOURCE_TYPES = tuple(s.value for s in SourceType if s is not SourceType.UNKNOWN)
