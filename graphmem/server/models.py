"""The shapes of the HTTP API: every request body and every answer as a pydantic model, so that the OpenAPI
document (``/openapi.json``, ``/docs``) gives each route's request and response schema (docs/service.md); and the
arguments of each MCP tool, the same bodies with what a route takes in its path (:data:`TOOL_ARGUMENTS`), so that a
tool refuses a bad argument with the answer the route gives for the same mistake (:mod:`graphmem.server.mcp`).

Request bodies refuse unknown fields (a typo is a 422 naming it, not a silently ignored option) and values of the
wrong JSON type (strict: ``true`` or ``"2"`` is no integer, a 422 naming the field). Text a client sends
must be valid Unicode: a lone surrogate escape (``"\\ud83d"``, half of an emoji cut by the sender) is refused with
the field and the character's position (:func:`graphmem.logs.schema.lone_surrogate`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from graphmem.errors import INTEGER_MAX, INTEGER_MIN
from graphmem.logs.schema import check_unicode
from graphmem.model.groups import RECALL_K_MAX


def _unicode(value: str) -> str:
    check_unicode(value)  # raises ValueError naming the character: a 422 naming the field
    return value


Text = Annotated[str, AfterValidator(_unicode)]
"""A string of the request that must be valid Unicode."""
Count = Annotated[int, Field(ge=0, le=INTEGER_MAX)]
"""A non-negative integer of the request (a number of events, a day, a phase): at most 2^63 - 1, which Neo4j stores."""
Integer = Annotated[int, Field(ge=INTEGER_MIN, le=INTEGER_MAX)]
"""An integer of the request that Neo4j can store (a signed 64-bit integer)."""
Priority = Annotated[float, Field(ge=0.0, le=1.0)]
"""A working-memory item's priority, 0 to 1 (docs/model.md#working-memory)."""
RecallK = Annotated[int, Field(ge=1, le=RECALL_K_MAX)]
"""How many memories a recall returns at most: 1 to 100, as in MCP, the CLI and the Python API."""


class _Body(BaseModel):
    # strict: a JSON value of the wrong type is a 422 naming the field, never coerced ({"day": true} is no day 1,
    # {"after": "2"} no 2, {"k": "5"} no 5); a float field still takes an integer (1 for 1.0), as JSON means
    model_config = ConfigDict(extra="forbid", strict=True)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- requests ------------------------------------------------------------------------------------------------------


class EventBatch(_Body):
    """A batch of canonical events (docs/log-format.md) and, optionally, how many events the engine sent before it."""

    events: list[dict[str, Any]] = Field(description="canonical event objects, in order")
    after: Count | None = Field(None, description="events sent before this batch (a concurrency check)")


class PhaseBody(_Body):
    """Open the next phase of a live game (``day`` and ``name``: its phase event, ``after`` as a batch's), or decay a
    game to phase ``to`` (a game ingested from a file or ended; a live game only up to its current phase)."""

    day: Count | None = Field(None, description="the phase event's day (with name)")
    name: Text | None = Field(None, description="the phase event's name, e.g. 'night' (with day)")
    after: Count | None = Field(None, description="events sent before the phase event (a concurrency check)")
    to: Count | None = Field(None, description="the phase to decay to, without day and name (default: a live game's "
                                               "current phase; one phase on for a game ingested from a file or ended)")


class EndBody(_Body):
    """The end event of a live game."""

    winner: Text
    text: Text | None = None
    after: Count | None = None


class RolesBody(_Body):
    """Roles announced after the game was created: {player: role}, for players whose role is not set yet."""

    roles: dict[Text, Text]


class RecallBody(_Body):
    """A recall: the topic of the conversation, who takes part, at most k memories; ``dry_run`` (with ``seed`` to
    replay one) and ``at`` look without changing the memory (docs/service.md says who may use which)."""

    topic: Text | None = None
    participants: list[Text] | None = Field(None, description="the players the owner is talking with (none: nobody)")
    k: RecallK | None = None
    dry_run: bool = Field(False, description="recall without writing the reconsolidated memories back")
    seed: Integer | None = Field(None, description="the seed of this recall's random choices (default: the server's)")
    at: Count | None = Field(None, description="recall as at this phase (an earlier one is always a dry run)")


class ThoughtBody(_Body):
    """A working-memory item (docs/model.md#working-memory)."""

    text: Text
    priority: Priority = 0.5
    persistence: Count = 2


class QueryBody(_Body):
    """The parameters of an analysis query, as text (typed by the query's header)."""

    params: dict[Text, Text | int | float | bool] = Field(default_factory=dict)
    all: bool = Field(False, description="run the query for every stored game (every series, for a query of a "
                                         "series) of every target, without params.game (series): each game's rows "
                                         "in the query's order, games by id, each led by its game and target")


# -- the MCP tools' arguments ------------------------------------------------------------------------------------


class RecallArguments(RecallBody):
    """The ``recall`` tool's: the route's body, and with the engine key whose memory (the route's path)."""

    game: Text | None = Field(None, description="engine key only: the game of the player whose memory")
    player: Text | None = Field(None, description="engine key only: the player whose memory")


class NoArguments(_Body):
    """A tool that takes no argument (``my_conflicts``: the player is the token's)."""


class EventsArguments(EventBatch):
    """The ``add_events`` tool's: the route's body and its game."""

    game: Text


class PhaseArguments(PhaseBody):
    """The ``advance_phase`` tool's: the route's body and its game."""

    game: Text


TOOL_ARGUMENTS: dict[str, type[_Body]] = {
    "recall": RecallArguments, "remember_thought": ThoughtBody, "my_conflicts": NoArguments,
    "add_events": EventsArguments, "advance_phase": PhaseArguments}
"""Each MCP tool's arguments, as strict as the HTTP bodies: a tool's published input schema has the same fields,
types and bounds (tests/integration/test_mcp_refusals.py holds them equal)."""


# -- answers -------------------------------------------------------------------------------------------------------


class ErrorAnswer(_Answer):
    """Every error answer (docs/service.md, "Errors"). ``problems`` lists every refused event of a batch."""

    model_config = ConfigDict(extra="allow")
    error: str = Field(description="the kind: invalid_events, not_found, conflict, malformed_json, ...")
    field: str | None = Field(description="the offending field, dotted, or null")
    index: int | None = Field(description="the 0-based position of the offending event in its batch, or null")
    reason: str = Field(description="one line: what is wrong and what to do")


class Health(_Answer):
    """The process answers."""

    status: str
    engine_key: bool
    host: str


class Readiness(_Answer):
    """Whether this process is ready to serve: Neo4j answers, the model is loaded and the queries are warm."""

    ready: bool
    neo4j: str
    neo4j_version: str | None
    model: str
    model_seconds: float | None = Field(description="seconds the warm-up took (model and queries), null until done")
    reason: str | None


class GameListing(_Answer):
    """One stored game."""

    game: str
    title: str | None
    imported_from: str | None
    players: int
    last_phase: int | None
    decayed_to: int | None
    complete: bool | None
    live: bool
    winner: str | None
    ingested_at: str | None
    series: str | None = Field(default=None, description="the series of games it belongs to (docs/model.md#series-of-games)")
    series_position: int | None = Field(default=None, description="its position in that series (1-based)")
    target: str | None = Field(default=None, description="the Neo4j target it lives on, when there are several "
                                                         "(docs/service.md#many-games-several-neo4j-targets)")


class DroppedName(_Answer):
    """An eliminated player left out of an event's perceivers (``witnesses``, ``observers``, ``emotion``)."""

    index: int = Field(description="the event's 0-based position in its batch")
    id: str | None = Field(description="the event's id as stored")
    field: str
    player: str
    reason: str


class BatchAnswer(_Answer):
    """What a batch of events did (also the answer of creating a game and of the end event)."""

    game: str | None
    events: int = Field(description="events of the batch newly stored")
    ids: list[str] = Field(description="the ids of the batch's events as stored, in order (a default id is the "
                                       "event's position in the whole log, the header being 1)")
    memories: int
    nodes_created: int
    relationships_created: int
    phase: int
    total_events: int = Field(description="events the game holds now: the `after` of the next batch")
    already_stored: int = Field(description="events of the batch found stored already (a batch sent again)")
    dropped: list[DroppedName]
    ended: bool


class GameCounts(_Answer):
    """Counts of one stored game: nodes by label, relationships by type, memories by each dimension."""

    model_config = ConfigDict(extra="allow")
    game: str
    nodes: dict[str, int]
    relationships: dict[str, int]


class Deleted(_Answer):
    """A deleted game: nodes deleted by label."""

    game: str
    deleted: dict[str, int]


class Roles(_Answer):
    """The roles set."""

    game: str
    roles: dict[str, str]


class PhaseAnswer(_Answer):
    """What the decay job did: from and to which phase, memories updated, their states."""

    game: str
    from_phase: int
    to_phase: int
    memories: int
    states: dict[str, int]


class QueryInfo(_Answer):
    """An analysis query: its purpose, parameters and columns."""

    class Param(_Answer):
        name: str
        type: str
        required: bool
        doc: str

    name: str
    purpose: str
    returns: list[str]
    params: list[Param]


class QueryRows(_Answer):
    """An analysis query's result."""

    query: str
    columns: list[str]
    rows: list[dict[str, Any]]


class Token(_Answer):
    """A new player token (shown once)."""

    game: str
    player: str
    token: str


class Revoked(_Answer):
    """Tokens revoked."""

    game: str
    player: str | None
    revoked: int


class Thought(_Answer):
    """A pushed thought's uid."""

    thought: str


class RecallAnswer(_Answer):
    """A recall (docs/prompt.md): the prompt block (``prompt``) and its JSON. A player token's answer leaves out
    the ground truth of each memory (true day, fabricated and misattributed flags, changes)."""

    game: str
    player: str
    phase: int
    decayed_to: int
    topic: str | None
    participants: list[str]
    k: int
    seed: int
    dry_run: bool
    written: int = Field(description="memories written back (0 for a dry run)")
    candidates: int
    thoughts: list[dict[str, Any]]
    vivid: dict[str, Any] | None
    memories: list[dict[str, Any]] = Field(description="the recalled memories, as the prompt numbers them")
    prompt: str


class Conflicts(_Answer):
    """A player's open contradictions, each in the player's words (``said``)."""

    game: str
    player: str
    conflicts: list[dict[str, Any]]
