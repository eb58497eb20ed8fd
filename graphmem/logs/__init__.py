"""Game logs in: the canonical format "graphmem/1" (docs/log-format.md), its reader and writer, claims
(docs/perception.md#claims) and the importers of other formats (docs/perception.md#imported-logs).

The calls other parts of graphmem use::

    from graphmem.logs import load_game_log, read_game_log, GameLogValidator, write_game_log

    log = load_game_log(path)                 # canonical .jsonl or any importer's format, validated
    for e in log.events:                      # LoggedEvent: e.event (pydantic model), e.line, e.phase, e.day, e.phase_name
        ...
"""

from graphmem.logs.claims import ClaimExtractor, extract_claims
from graphmem.logs.importers import (
    CANONICAL,
    Conversion,
    Importer,
    detect_format,
    discover,
    get_importer,
    import_game_log,
    importer_names,
    load_game_log,
    register_importer,
)
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
    RevealEvent,
    SayEvent,
    ThoughtEvent,
    VoteEvent,
    player_references,
)
from graphmem.logs.writer import game_log_lines, write_game_log

__all__ = [
    "CANONICAL",
    "EVENT_KINDS",
    "FORMAT",
    "FUNCTIONAL_PREDICATES",
    "PREGAME",
    "BanishEvent",
    "Claim",
    "ClaimExtractor",
    "Conversion",
    "EmotionEvent",
    "EndEvent",
    "Event",
    "GameHeader",
    "GameLog",
    "GameLogValidator",
    "Importer",
    "LoggedEvent",
    "MurderEvent",
    "ObserveEvent",
    "PhaseEvent",
    "PhaseInfo",
    "PlayerSpec",
    "RecruitEvent",
    "RevealEvent",
    "SayEvent",
    "ThoughtEvent",
    "VoteEvent",
    "detect_format",
    "discover",
    "extract_claims",
    "game_log_lines",
    "get_importer",
    "import_game_log",
    "importer_names",
    "load_game_log",
    "parse_game_log",
    "player_references",
    "read_game_log",
    "register_importer",
    "write_game_log",
]
