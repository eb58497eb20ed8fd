"""Claims derived from statements at encoding time (docs/perception.md#claims) against a real Neo4j: a canonical log or
a live game that says "Zoë is a traitor." without a ``claims`` field stores the claim, its accusation and what the
contradiction job and the analysis queries build on it; ``"claims": []`` stores none."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import Result

from graphmem import MemoryService
from graphmem.settings import Settings
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j

PLAYERS = [{"name": "Zoë", "role": "traitor"}, {"name": "Ann", "role": "faithful"}, {"name": "Bob", "role": "faithful"}]
ZOE_TRAITOR = ["Zoë", "role", "traitor", True]


def header(game: str) -> dict[str, Any]:
    return {"kind": "game", "format": "graphmem/1", "game": game, "players": PLAYERS}


def say(event_id: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "say", "id": event_id, "speaker": "Ann", "to": "all", "channel": "roundtable", "text": text,
            **extra}


ROUNDTABLE = {"kind": "phase", "day": 1, "name": "roundtable"}


@pytest.fixture()
def game_ids(driver: neo4j.Driver) -> Iterator[Callable[[str], str]]:
    """new(prefix): a fresh game id; every game made is deleted afterwards."""
    made: list[str] = []

    def new(prefix: str) -> str:
        made.append(f"{prefix}-{uuid.uuid4().hex[:8]}")
        return made[-1]

    yield new
    for game in made:
        clear(driver, game)


def write_log(path: Path, game: str, *events: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in [header(game), *events]),
                    encoding="utf-8")
    return path


def stored_claims(driver: neo4j.Driver, game: str, event_id: str) -> tuple[list[Any], dict[str, list[Any]]]:
    """(the Event's claims, {owner: the claims of their memory of it})."""
    records = driver.execute_query("""
        MATCH (e:Event {game: $game, id: $id})<-[:OF_EVENT]-(m:Memory)
        RETURN e.claims_json AS event, m.owner AS owner, m.claims_json AS memory""", game=game, id=event_id).records
    assert records, f"event {event_id} of {game} must be stored with its memories"
    return json.loads(records[0]["event"]), {r["owner"]: json.loads(r["memory"]) for r in records}


def thoughts(driver: neo4j.Driver, game: str) -> list[tuple[str, str]]:
    records = driver.execute_query("MATCH (p:Player {game: $game})-[:THINKS]->(t:Thought) "
                                   "RETURN p.name AS player, t.trigger AS trigger ORDER BY player", game=game).records
    return [(r["player"], r["trigger"]) for r in records]


def test_a_canonical_log_without_claims_stores_the_claim_of_its_text_and_the_accusation(
        cli: Callable[..., Result], driver: neo4j.Driver, game_ids: Callable[[str], str], tmp_path: Path) -> None:
    game = game_ids("derived-file")
    log = write_log(tmp_path / "g.jsonl", game, ROUNDTABLE, say("s1", "Zoë is a traitor."),
                    {**say("s2", "Honestly, Ann is a traitor."), "speaker": "Bob"})
    text = log.read_text(encoding="utf-8")
    first = cli("ingest", str(log))
    assert first.exit_code == 0, first.output
    event, memories = stored_claims(driver, game, "s1")
    assert event == [ZOE_TRAITOR]
    assert memories == {"Zoë": [ZOE_TRAITOR], "Ann": [ZOE_TRAITOR], "Bob": [ZOE_TRAITOR]}
    assert stored_claims(driver, game, "s2")[0] == [["Ann", "role", "traitor", True]]
    assert [player for player, _ in thoughts(driver, game)] == ["Ann", "Zoë"]  # the accused think about it
    network = cli("query", "accusation_network", "-p", f"game={game}", "--format", "json")
    assert network.exit_code == 0, network.output
    rows = json.loads(network.output)
    accusations = [(r["accuser"], r["accused"], r["kind"]) for r in rows]
    assert ("Bob", "Ann", "traitor claim") in accusations
    assert ("Ann", "Zoë", "traitor claim") in accusations  # a name outside ASCII is found too
    again = cli("ingest", "--json", str(log))
    assert again.exit_code == 0, again.output
    summary = json.loads(again.output)
    assert (summary["nodes_created"], summary["relationships_created"]) == (0, 0)
    assert log.read_text(encoding="utf-8") == text  # the log stays as written


def test_a_canonical_log_with_empty_claims_stores_none(
        cli: Callable[..., Result], driver: neo4j.Driver, game_ids: Callable[[str], str], tmp_path: Path) -> None:
    game = game_ids("derived-none")
    log = write_log(tmp_path / "g.jsonl", game, ROUNDTABLE, say("s1", "Zoë is a traitor.", claims=[]))
    result = cli("ingest", str(log))
    assert result.exit_code == 0, result.output
    event, memories = stored_claims(driver, game, "s1")
    assert event == [] and set(map(len, memories.values())) == {0} and len(memories) == 3
    assert thoughts(driver, game) == []


@pytest.fixture()
def service(driver: neo4j.Driver, neo4j_uri: str, schema: object, embedder: object,
            params: object) -> MemoryService:
    return MemoryService(driver, settings=Settings(uri=neo4j_uri), params=params,  # type: ignore[arg-type]
                         embedder=embedder)  # type: ignore[arg-type]


def test_memory_service_events_without_claims_get_them_and_empty_claims_stay_empty(
        service: MemoryService, driver: neo4j.Driver, game_ids: Callable[[str], str]) -> None:
    game = game_ids("derived-live")
    service.start_game(header(game))
    service.add_events(game, [ROUNDTABLE, say("s1", "Zoë is a traitor."),
                              say("s2", "Zoë is a traitor.", claims=[]),
                              {"kind": "vote", "id": "v1", "voter": "Bob", "target": "Zoë", "ballot": "banish",
                               "text": "I'm voting for Zoë."}])
    assert stored_claims(driver, game, "s1")[0] == [ZOE_TRAITOR]
    assert stored_claims(driver, game, "s2")[0] == []
    # the vote's own claim, of the round of its day, said once by the vote and its reason; and Bob's stance
    assert stored_claims(driver, game, "v1")[0] == [["Bob", "voted_for", "Zoë", True, 1], ["Bob", "suspects", "Zoë",
                                                                                             True]]
    assert ("Zoë", "flashbulb") in thoughts(driver, game) or ("Zoë", "accusation") in thoughts(driver, game)


def test_opposite_statements_without_claims_give_an_identity_conflict(
        cli: Callable[..., Result], driver: neo4j.Driver, game_ids: Callable[[str], str], tmp_path: Path) -> None:
    game = game_ids("derived-conflict")
    log = write_log(tmp_path / "g.jsonl", game, ROUNDTABLE, say("s1", "Zoë is a traitor."),
                    say("s2", "Zoë is not a traitor."))
    assert cli("ingest", str(log)).exit_code == 0
    result = cli("contradictions", "--game", game, "--player", "Bob")
    assert result.exit_code == 0, result.output
    assert "1 conflict (identity 1 (open 1)), 1 new (1 created), 1 open" in result.output
    assert "Bob: identity open" in result.output
    found = driver.execute_query("MATCH (c:Conflict {game: $game, owner: 'Bob'}) RETURN properties(c) AS c",
                                 game=game).records
    assert [(c["c"]["kind"], c["c"]["subject"], c["c"]["predicate"]) for c in found] == [("identity", "Zoë", "role")]
    assert found[0]["c"]["reason"].startswith("conflicting claims: Zoë role: traitor")  # the claims, not the texts


def test_a_lie_about_ones_own_vote_contradicts_the_vote(
        cli: Callable[..., Result], driver: neo4j.Driver, game_ids: Callable[[str], str], tmp_path: Path) -> None:
    # Neither event carries claims: the vote claims its own voted_for, the statement's words claim another.
    game = game_ids("vote-lie")
    log = write_log(tmp_path / "g.jsonl", game, ROUNDTABLE,
                    {"kind": "vote", "voter": "Zoë", "target": "Ann", "ballot": "banish"},
                    {"kind": "phase", "day": 2, "name": "roundtable"},
                    {**say("s2", "I voted for Bob yesterday."), "speaker": "Zoë"})
    assert cli("ingest", str(log)).exit_code == 0
    result = cli("contradictions", "--game", game, "--player", "Bob", "--json")
    assert result.exit_code == 0, result.output
    conflicts = json.loads(result.output)["conflicts"]
    # said at the next day's round table, "yesterday" puts it in day 1's round: a lie Bob catches
    assert [(c["kind"], c["subject"], c["predicate"], c["round"]) for c in conflicts] == [("lie", "Zoë", "voted_for", 1)]
    assert conflicts[0]["text"] == "Zoë claimed to have voted for you on day 1, but you saw Zoë vote for Ann."
