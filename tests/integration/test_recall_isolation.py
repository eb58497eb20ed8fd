"""A game's recall depends on that game alone (docs/model.md#candidates-and-ranking): the same game, ingested into an
empty database and into one holding other games and games deleted since, gives the same recall blocks and JSON, byte
for byte, for the same recalls with the same seeds. Before, the lexical lane scored with Neo4j's full-text index,
whose term statistics are global to the database (and count deleted memories until Lucene merges them away)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import neo4j
import pytest

from graphmem import MemoryService
from graphmem.store.schema import ensure_schema

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAME = EXAMPLES / "433y9yyp.jsonl"
"""A real Traitors game (7 players, 83 events)."""
OTHERS = (EXAMPLES / "small-game.jsonl", EXAMPLES / "small-mission-game.jsonl", GAME)
"""What else the crowded database holds: other games, and the same game under other ids (the same words, so that
database-wide statistics would move the most)."""
ASKED = (
    ("Casey", "Who did Riley vote to banish?", ()),
    ("Fletcher", "What did Gwendolyn say at the round table about the traitor?", ("Gwendolyn",)),
    ("Casey", "Who was murdered before breakfast?", ()),
    ("Parker", "Did anyone accuse Morgan of being the traitor?", ("Morgan", "Taylor")),
    ("Casey", "Who did Riley vote to banish?", ()),
    ("Taylor", None, ("Riley",)),
    ("Fletcher", "What did Gwendolyn say at the round table about the traitor?", ()),
)
"""(owner, topic, participants) of each recall, in order: writing recalls change what the next ones read (access
counts, details lost, tellers confused), so the whole sequence must replay."""


def logged(path: Path, game: str, folder: Path) -> Path:
    """``path``'s log under the game id ``game``, written to ``folder``."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = folder / f"{game}.jsonl"
    out.write_text("".join(json.dumps({**line, "game": game} if line.get("kind") == "game" else line) + "\n"
                           for line in lines), encoding="utf-8")
    return out


def replay(service: MemoryService, game: str) -> list[tuple[str, str]]:
    """(prompt block, JSON) of each recall of :data:`ASKED`, writing, then the same questions again as dry runs."""
    out = []
    for dry_run in (False, True):
        for seed, (owner, topic, participants) in enumerate(ASKED):
            result = service.recall(game, owner, topic, participants=participants, seed=seed, dry_run=dry_run)
            out.append((result.prompt(), result.to_json()))
    return out


def test_a_game_recalls_the_same_in_an_empty_database_and_beside_other_and_deleted_games(
        tmp_path: Path, driver: neo4j.Driver, schema: object, embedder: object, params: object,
        empty_neo4j: str) -> None:
    game = f"isolated-{uuid.uuid4().hex[:8]}"
    with neo4j.GraphDatabase.driver(empty_neo4j, auth=("neo4j", "unused")) as empty:
        assert empty.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == 0
        ensure_schema(empty, None, 384)
        alone = MemoryService(empty, params=params, embedder=embedder)  # type: ignore[arg-type]
        alone.ingest(logged(GAME, game, tmp_path))
        try:
            assert [g["game"] for g in alone.games()] == [game]
            in_empty = replay(alone, game)
        finally:
            alone.delete(game)  # the spare Neo4j is then one of test_targets.py's three

    # the session's database, which holds whatever the other tests stored, and more: other games (the same words
    # among them) and games deleted since
    crowded = MemoryService(driver, params=params, embedder=embedder)  # type: ignore[arg-type]
    others = [f"{game}-other{i}" for i in range(len(OTHERS))]
    gone = [f"{game}-gone{i}" for i in range(len(OTHERS))]
    crowded.ingest(*(logged(path, other, tmp_path) for path, other in zip(OTHERS * 2, others + gone)))
    for other in gone:
        crowded.delete(other)
    crowded.ingest(logged(GAME, game, tmp_path))
    try:
        in_crowded = replay(crowded, game)
        # a recall with its topic's words in every other game too: what it recalls has lexical scores
        assert any(json.loads(j)["memories"] and any(m["lexical"] > 0 for m in json.loads(j)["memories"])
                   for _, j in in_crowded)
        for i, (a, b) in enumerate(zip(in_empty, in_crowded)):
            assert b[0] == a[0], f"recall {i}: the prompt block differs"
            assert b[1] == a[1], f"recall {i}: the JSON differs"
    finally:
        for other in [game, *others]:
            crowded.delete(other)
