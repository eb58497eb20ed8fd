"""A series of games in Neo4j (docs/model.md#series-of-games): games joined in order, earlier games fading on across
the gap, recall in a later game reaching the earlier games' memories with their game's label, and the information
boundary across games."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import Result

from graphmem.errors import GameConflict
from graphmem.store.series import series_games
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j

MISSION = Path(__file__).resolve().parents[2] / "examples" / "small-mission-game.jsonl"
SECRET = ('{"kind": "say", "id": "biscuit", "speaker": "Alice", "to": ["Bob"], "channel": "private", '
          '"text": "Between us: my old cat Biscuit is why I never trust a quiet player."}')


def series_log(folder: Path, game: str, *, series: dict[str, Any] | None = None, secret: bool = False,
               profiles: dict[str, str] | None = None) -> Path:
    """The small mission game under id ``game``, with a header ``series``, Alice's private remark to Bob after the
    first public statements (``secret``), and players' profiles."""
    lines = MISSION.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["game"] = game
    if series is not None:
        header["series"] = series
    for p in header["players"]:
        if profiles and p["name"] in profiles:
            p["profile"] = profiles[p["name"]]
    events = lines[1:]
    if secret:
        events.insert(8, SECRET)
    path = folder / f"{game}.jsonl"
    path.write_text("\n".join([json.dumps(header), *events]) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def games(driver: neo4j.Driver) -> Iterator[Callable[[str], str]]:
    """games(prefix) -> a fresh game id; every game made (and its series) is deleted afterwards."""
    made: list[str] = []

    def make(prefix: str) -> str:
        made.append(f"{prefix}-{uuid.uuid4().hex[:8]}")
        return made[-1]

    yield make
    for game in made:
        clear(driver, game)
    driver.execute_query("MATCH (p:Person) WHERE NOT (p)-[:PLAYED_AS]->() DETACH DELETE p")
    driver.execute_query("MATCH (s:Series) WHERE NOT ()-[:IN_SERIES]->(s) DETACH DELETE s")


def test_a_series_fades_earlier_games_across_the_gap_and_recall_reaches_them(
        driver: neo4j.Driver, memory: Any, params: Any, tmp_path: Path, games: Callable[[str], str]) -> None:
    series = f"series-{uuid.uuid4().hex[:8]}"
    ids = [games("s1"), games("s2"), games("s3")]
    profiles = {"Alice": "balanced", "Bob": "perfect"}
    paths = [series_log(tmp_path, ids[0], secret=True, profiles=profiles),
             *(series_log(tmp_path, g, profiles=profiles) for g in ids[1:])]
    summary = memory.ingest(*paths, series=series)
    assert [(g.series, g.series_position) for g in summary.per_game] == [(series, 1), (series, 2), (series, 3)]

    gap, stored = series_games(driver, None, series)
    assert gap == params.series.gap == 10
    last = stored[0].last_phase
    # laid end to end: the first game is now two games and two gaps past its own start
    assert [g.decayed_to for g in stored] == [2 * (last + gap) + last, last + gap + last, last]

    # the same event, encoded alike in every game: faded more the longer ago, except on `perfect`
    strengths = {r["game"]: (r["alice"], r["bob"]) for r in driver.execute_query(
        """MATCH (a:Memory {owner: 'Alice', kind: 'end'}), (b:Memory {owner: 'Bob', kind: 'end'})
           WHERE a.game IN $games AND b.game = a.game
           RETURN a.game AS game, a.strength AS alice, b.strength AS bob""", games=ids).records}
    assert strengths[ids[0]][0] < strengths[ids[1]][0] < strengths[ids[2]][0]
    assert strengths[ids[0]][1] == strengths[ids[1]][1] == strengths[ids[2]][1]

    # Alice, in game 3, is asked about what only she and Bob heard in game 1
    seen = memory.recall(ids[2], "Alice", "Alice's cat Biscuit and quiet players", dry_run=True)
    [secret] = [m for m in seen.memories if m.event == "biscuit"]
    assert (secret.game, secret.series_game) == (ids[0], 1)
    assert "[Game 1" in seen.prompt()
    assert {m.series_game for m in seen.memories} >= {None, 1, 2}  # her own game and the earlier ones
    bob = memory.recall(ids[2], "Bob", "Alice's cat Biscuit", dry_run=True)
    assert any(m.event == "biscuit" and m.series_game == 1 for m in bob.memories)
    # the information boundary holds across games: nobody else ever perceived it
    for player in ("Chen", "Dana", "Emil"):
        other = memory.recall(ids[2], player, "Alice's cat Biscuit and quiet players", k=50, dry_run=True)
        assert not any(m.event == "biscuit" for m in other.memories), player
        assert all(m.uid.split("/memory/")[1].split("/")[0] == player for m in other.memories)

    # a writing recall rehearses the old memory in its own game, at that game's phase now
    before = driver.execute_query("MATCH (m:Memory {uid: $uid}) RETURN m.n AS n, m.t_ref AS t",
                                  uid=secret.uid).records[0]
    memory.recall(ids[2], "Alice", "Alice's cat Biscuit and quiet players")
    after = driver.execute_query("MATCH (m:Memory {uid: $uid}) RETURN m.n AS n, m.t_ref AS t",
                                 uid=secret.uid).records[0]
    assert after["n"] == before["n"] + 1 and after["t"] == stored[0].decayed_to


def test_positions_are_kept_and_a_game_belongs_to_one_series(
        driver: neo4j.Driver, memory: Any, tmp_path: Path, games: Callable[[str], str],
        cli: Callable[..., Result]) -> None:
    series, other = f"series-{uuid.uuid4().hex[:8]}", f"series-{uuid.uuid4().hex[:8]}"
    first, second, third = games("p1"), games("p2"), games("p3")
    memory.ingest(series_log(tmp_path, second, series={"name": series, "position": 2}))
    out = cli("ingest", "--series", series, str(series_log(tmp_path, first)))
    assert out.exit_code == 0, out.output
    assert f"series {series}: 1 game at position 3" in out.output  # after the stored ones
    with pytest.raises(GameConflict, match="position 2 .* is held by game"):
        memory.ingest(series_log(tmp_path, third, series={"name": series, "position": 2}))
    assert driver.execute_query("MATCH (g:Game {uid: $g}) RETURN count(g)", g=third).records[0][0] == 0
    with pytest.raises(GameConflict, match="belongs to one series"):
        memory.ingest(series_log(tmp_path, first), series=other)
    refused = cli("ingest", "--series", "bad/name", str(series_log(tmp_path, third)))
    assert refused.exit_code != 0 and "series name 'bad/name'" in refused.output
    people = driver.execute_query(
        """MATCH (:Series {name: $s})-[:HAS_PERSON]->(p:Person)-[r:PLAYED_AS]->(:Player)
           RETURN p.name AS name, collect(r.position) AS positions ORDER BY name""", s=series).records
    assert [(r["name"], sorted(r["positions"])) for r in people] == [
        (name, [2, 3]) for name in ("Alice", "Bob", "Chen", "Dana", "Emil")]


def test_a_game_that_joins_between_two_stored_ones_is_remembered_by_a_process_that_recalled_before(
        memory: Any, tmp_path: Path, games: Callable[[str], str]) -> None:
    series = f"series-{uuid.uuid4().hex[:8]}"
    first, middle, last = games("j1"), games("j2"), games("j3")
    memory.ingest(series_log(tmp_path, first, series={"name": series, "position": 1}),
                  series_log(tmp_path, last, series={"name": series, "position": 3}))
    before = memory.recall(last, "Alice", "Chen's team was rejected", k=30, dry_run=True)
    assert {m.series_game for m in before.memories} == {None, 1}
    memory.ingest(series_log(tmp_path, middle, series={"name": series, "position": 2}))
    after = memory.recall(last, "Alice", "Chen's team was rejected", k=30, dry_run=True)
    assert {m.series_game for m in after.memories} == {None, 1, 2}
    # a look at the game's current phase is the same recall; one into the game's past shows that game alone
    now = memory.recall(last, "Alice", "Chen's team was rejected", k=30, at=after.decayed_to)
    assert [m.uid for m in now.memories] == [m.uid for m in after.memories]
    past = memory.recall(last, "Alice", "Chen's team was rejected", k=30, at=after.decayed_to - 1)
    assert {m.series_game for m in past.memories} == {None}


def test_a_process_that_has_met_a_series_reads_its_earlier_games_beside_the_owners_own_and_recalls_the_same(
        driver: neo4j.Driver, memory: Any, embedder: Any, params: Any, tmp_path: Path,
        games: Callable[[str], str]) -> None:
    from graphmem.recall import EmbeddingCache, recall
    from graphmem.recall.series import met_earlier_selves
    from graphmem.store.reader import MemoryReader

    series = f"series-{uuid.uuid4().hex[:8]}"
    ids = [games("b1"), games("b2"), games("b3")]
    memory.ingest(*(series_log(tmp_path, g, secret=g == ids[0]) for g in ids), series=series)
    kept, reader = EmbeddingCache(), MemoryReader()
    assert not met_earlier_selves(reader, None, ids[2], "Alice")  # not met yet: the first recall reads them after
    topics = ["Alice's cat Biscuit and quiet players", "Chen's team was rejected", "who failed the mission"]
    for i, topic in enumerate(topics * 2):
        held = recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder, cache=kept,
                      reader=reader, dry_run=i < len(topics))  # dry runs, then writing recalls
        # from the second recall on, the earlier games are read in a thread beside the owner's own read
        assert met_earlier_selves(reader, None, ids[2], "Alice")
        fresh = recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder,
                       cache=EmbeddingCache(0), dry_run=True)
        if i < len(topics):  # a writing recall changes what it recalled: only a look compares with the one before
            assert [(m.uid, m.series_game, m.score) for m in held.memories] == [
                (m.uid, m.series_game, m.score) for m in fresh.memories]
        assert {m.series_game for m in held.memories} >= {None, 1}
    assert any(m.event == "biscuit" for m in recall(
        driver, None, ids[2], "Alice", topic=topics[0], params=params, embedder=embedder, cache=kept, reader=reader,
        dry_run=True).memories)


def test_on_perfect_a_remark_heard_in_every_game_scores_the_same_whichever_game_while_balanced_prefers_the_latest(
        memory: Any, tmp_path: Path, games: Callable[[str], str]) -> None:
    # what bench.bench_series shows over 50 real games (a profile's recency, the games' content cancelled by playing
    # the series in both orders), on four identical games: Alice on the default profile, Bob on `perfect`, both hear
    # Alice's remark in every game and are asked about it in the last
    series = f"series-{uuid.uuid4().hex[:8]}"
    ids = [games(f"e{i}") for i in range(1, 5)]
    profiles = {"Alice": "balanced", "Bob": "perfect"}
    memory.ingest(*(series_log(tmp_path, g, secret=True, profiles=profiles) for g in ids), series=series)
    topic = "Alice's cat Biscuit and quiet players"
    copies = {}
    for owner in ("Alice", "Bob"):
        seen = memory.recall(ids[3], owner, topic, k=50, dry_run=True)
        copies[owner] = {m.series_game: m.score for m in seen.memories if m.event == "biscuit"}
        assert set(copies[owner]) >= {None, 3}, owner  # her own game's copy and at least the last earlier one
    assert set(copies["Bob"]) == {None, 1, 2, 3}
    assert len(set(copies["Bob"].values())) == 1  # the game a copy comes from gives it nothing on `perfect`
    alice = [copies["Alice"][g] for g in (1, 2, 3) if g in copies["Alice"]]
    assert alice == sorted(alice) and copies["Alice"][3] < copies["Alice"][None]
    assert len(alice) >= 2 and len(set(alice)) == len(alice)  # strictly: the more recent the game, the stronger its copy


def test_after_a_writing_recall_that_wrote_earlier_games_the_process_reads_what_changed_and_recalls_as_a_fresh_one(
        driver: neo4j.Driver, memory: Any, embedder: Any, params: Any, tmp_path: Path,
        games: Callable[[str], str]) -> None:
    # Alice's writing recall in game 3 rehearses memories of games 1 and 2; what her process holds is not changed by
    # the recall: her next recall reads, in each of the three games, only what the change log names (her own game's
    # through recall/context, the earlier games' through recall/earlier_context), and recalls what a fresh process
    # recalls
    from graphmem.recall import EmbeddingCache, recall
    from graphmem.store.reader import MemoryReader

    series = f"series-{uuid.uuid4().hex[:8]}"
    ids = [games("w1"), games("w2"), games("w3")]
    memory.ingest(*(series_log(tmp_path, g, secret=True) for g in ids), series=series)
    topic = "Alice's cat Biscuit and quiet players"
    kept, reader = EmbeddingCache(), MemoryReader()
    recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder, cache=kept, reader=reader,
           dry_run=True)
    for step in range(3):
        wrote = recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder,
                       cache=kept, reader=reader)
        assert wrote.written and {m.series_game for m in wrote.memories} >= {1, 2}, step  # earlier games written
        reused, patched = reader.candidates_reused, reader.candidates_patched
        held = recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder, cache=kept,
                      reader=reader, dry_run=True)
        assert (reader.candidates_patched - patched, reader.candidates_reused - reused) == (3, 0), step
        again = recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder, cache=kept,
                       reader=reader, dry_run=True)
        assert reader.candidates_reused - reused == 3, step  # then her game, games 1 and 2 as held
        assert again.to_json() == held.to_json(), step
        fresh = recall(driver, None, ids[2], "Alice", topic=topic, params=params, embedder=embedder,
                       cache=EmbeddingCache(0), dry_run=True)
        assert [(m.uid, m.series_game, m.score, m.strength, m.text) for m in held.memories] == [
            (m.uid, m.series_game, m.score, m.strength, m.text) for m in fresh.memories], step


def test_a_stored_game_that_joins_a_series_says_what_joining_created(
        driver: neo4j.Driver, memory: Any, tmp_path: Path, games: Callable[[str], str],
        cli: Callable[..., Result]) -> None:
    series, game = f"series-{uuid.uuid4().hex[:8]}", games("late")
    log = series_log(tmp_path, game)
    memory.ingest(log)  # stored first outside any series
    out = cli("ingest", "--series", series, str(log))
    assert out.exit_code == 0, out.output
    created = driver.execute_query(
        """MATCH (s:Series {name: $s})-[h:HAS_PERSON]->(p:Person)-[r:PLAYED_AS]->(:Player)
           RETURN count(DISTINCT s) + count(DISTINCT p) AS nodes""", s=series).records[0]["nodes"]
    assert created == 6  # the series and its five people
    assert "1 of 1 games already stored from the same logs: skipped" in out.output
    assert f"created {created} nodes" in out.output  # not "created 0 nodes" for what joining the series made
    again = cli("ingest", "--series", series, str(log))
    assert again.exit_code == 0 and "created 0 nodes and 0 relationships" in again.output
