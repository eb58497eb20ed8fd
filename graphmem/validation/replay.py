"""Replay a game through graphmem's live API with rehearsal, and read what a player holds at chosen moments
(docs/validation.md#replay-with-rehearsal).

Every player of the replayed game is given one profile. The events go in, in order, through
:meth:`MemoryService.add_events`; before each chat message (a ``say``) its speaker makes a writing recall with the
message as topic and the replay's seed, as an agent that speaks has just recalled. At a *probe* (an event index and
a player) the replay reads that player's memories right before the event is added (after the rehearsal recall when
the event is the player's own message), without writing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import neo4j

from graphmem.errors import NotFound
from graphmem.logs.reader import GameLog
from graphmem.logs.writer import to_json_object
from graphmem.model.details import Detail, details_from_json
from graphmem.model.vocabulary import DetailKind
from graphmem.service import MemoryService
from graphmem.store.queries import cypher

__all__ = ["HeldMemory", "Held", "replay", "replay_game_id"]


@dataclass(frozen=True)
class HeldMemory:
    """One memory a player holds of an event, as it stands at a probe.

    event : str, the event id; kind : str, the event kind; phase : int, the phase it was encoded in
    strength : float in [0, 1], the current strength (decay and the owner's recalls included)
    details : tuple of Detail, as they stand (lost and imported details marked)
    misattributed : bool, the owner's believed source is not the true one
    """

    event: str
    kind: str
    phase: int
    strength: float
    details: tuple[Detail, ...]
    misattributed: bool

    @property
    def who(self) -> str | None:
        """Whom the memory says did or said it (its first ``who`` detail as it stands, an imported one included);
        None when that detail is lost or the memory has none (the owner's own statements and votes)."""
        for detail in self.details:
            if detail.kind is DetailKind.WHO:
                return None if detail.lost else detail.value
        return None

    @property
    def who_distorted(self) -> bool:
        """True when the memory's ``who`` detail is lost or imported from another memory."""
        return any(d.kind is DetailKind.WHO and (d.lost or d.fabricated) for d in self.details)


Held = dict[str, HeldMemory]
"""What one player holds at one probe: their memories by event id."""


def read_held(driver: neo4j.Driver, database: str | None, game: str, player: str) -> Held:
    """The memories ``player`` holds of ``game``'s events now (cypher/validation/held_memories), by event id."""
    records, _, _ = driver.execute_query(cypher("validation/held_memories"), game=game, player=player,
                                         database_=database, routing_=neo4j.RoutingControl.READ)
    return {r["event"]: HeldMemory(r["event"], r["kind"], int(r["phase"]), float(r["strength"]),
                                   details_from_json(r["details_json"] or "[]"), bool(r["misattributed"]))
            for r in records}


def replay_game_id(game: str, profile: str, seed: int) -> str:
    """The id of a replay of ``game`` on ``profile`` with ``seed`` (at most 200 characters, as game ids are)."""
    return f"{game}.replay-{profile}-{seed}"[-200:]


def replay(service: MemoryService, log: GameLog, profile: str, seed: int,
           probes: Mapping[int, Iterable[str]], *, keep: bool = False) -> dict[tuple[int, str], Held]:
    """Replay ``log`` with every player on ``profile`` and rehearsal before each message; returns what each probed
    player held at each probe, keyed by (event index in ``log.events``, player).

    probes : {event index: players}, read right before that event is added (after its rehearsal recall when the
        event is that player's own message)
    keep : bool, leave the replayed game stored (default: deleted once read; a replay stored before is replaced)

    Raises what :meth:`MemoryService.start_game` and :meth:`MemoryService.add_events` raise for an invalid log.
    """
    header = to_json_object(log.header)
    header["game"] = game = replay_game_id(log.game, profile, seed)
    header["players"] = [{**p, "profile": profile} for p in header["players"]]
    header.pop("series", None)  # a replay stands alone: it must not meet the players' earlier games
    try:
        service.delete(game)
    except NotFound:
        pass
    service.start_game(header)
    held: dict[tuple[int, str], Held] = {}
    batch: list[dict[str, object]] = []
    sent = 0

    def flush() -> None:
        nonlocal sent, batch
        if batch:
            service.add_events(game, batch, after=sent)
            sent += len(batch)
            batch = []

    try:
        for index, logged in enumerate(log.events):
            event = to_json_object(logged.event)
            readers = list(probes.get(index, ()))
            if event["kind"] == "say" or readers:
                flush()
            if event["kind"] == "say":
                service.recall(game, str(event["speaker"]), str(event["text"]), seed=seed)
            for player in readers:
                held[(index, player)] = read_held(service.driver, service.database, game, player)
            batch.append(event)
        flush()
    finally:
        if not keep:
            service.delete(game)
    return held
