"""Game logs in: the canonical format "graphmem/1" (docs/log-format.md), its reader, writer and game state, and
the banish ballot rounds a claim about a vote names (:mod:`.ballots`). Claims live in :mod:`graphmem.claims`, the
importers of other formats in :mod:`graphmem.importers` (docs/perception.md#imported-logs), whose
:func:`~graphmem.importers.load_game_log` reads a log of any known format.

The calls other parts of graphmem use::

    from graphmem.logs import read_game_log, GameLogValidator, write_game_log

    log = read_game_log(path)                 # a canonical .jsonl, validated
    for e in log.events:                      # LoggedEvent: e.event (pydantic model), e.line, e.phase, e.day, e.phase_name
        ...
"""

from graphmem.logs.reader import (
    PREGAME,
    GameLog,
    GameLogValidator,
    LoggedEvent,
    PhaseInfo,
    parse_game_log,
    read_game_log,
)
from graphmem.logs.schema import (
    EVENT_KINDS,
    FORMAT,
    FUNCTIONAL_PREDICATES,
    BanishEvent,
    BeliefEvent,
    Claim,
    EmotionEvent,
    EndEvent,
    Event,
    GameHeader,
    MurderEvent,
    ObserveEvent,
    PhaseEvent,
    PlayerSpec,
    RecruitEvent,
    ReflectEvent,
    RevealEvent,
    SayEvent,
    ThoughtEvent,
    VoteEvent,
    player_references,
)
from graphmem.logs.writer import game_log_lines, write_game_log

__all__ = [
    "EVENT_KINDS",
    "FORMAT",
    "FUNCTIONAL_PREDICATES",
    "PREGAME",
    "BanishEvent",
    "BeliefEvent",
    "Claim",
    "EmotionEvent",
    "EndEvent",
    "Event",
    "GameHeader",
    "GameLog",
    "GameLogValidator",
    "LoggedEvent",
    "MurderEvent",
    "ObserveEvent",
    "PhaseEvent",
    "PhaseInfo",
    "PlayerSpec",
    "RecruitEvent",
    "ReflectEvent",
    "RevealEvent",
    "SayEvent",
    "ThoughtEvent",
    "VoteEvent",
    "game_log_lines",
    "parse_game_log",
    "player_references",
    "read_game_log",
    "write_game_log",
]
