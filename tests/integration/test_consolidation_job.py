"""The consolidation job against a real Neo4j and the real embedding model (docs/jobs.md#consolidation), on the hand-written
examples/small-game.jsonl under fresh game ids."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import Result

from graphmem.jobs.consolidation import consolidate
from graphmem.jobs.decay import advance
from graphmem.model import Parameters
from graphmem.model.forgetting import strength_at
from graphmem.store.keys import scope_token, summary_uid
from tests.integration.helpers import snapshot

pytestmark = pytest.mark.neo4j
SMALL = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"
REPEATS = Path(__file__).resolve().parents[1] / "data" / "jobs" / "repeats.jsonl"

Ingest = Callable[[], str]


@pytest.fixture()
def small_game(fresh_game: Callable[..., str]) -> Ingest:
    """make(): ingest examples/small-game.jsonl under a fresh game id and return it; deleted afterwards.

    The small game has no repeated memories (its votes, banishment and murder are distinct facts, which must not
    be consolidated), so tests/data/jobs/repeats.jsonl adds six round-table remarks of day 2 in which the three
    players left say the same thing twice each: each of them hears it four times."""
    def with_repeats(lines: list[str]) -> list[str]:
        final = lines.index('{"kind": "phase", "day": 2, "name": "final"}')
        return [*lines[:final], *REPEATS.read_text(encoding="utf-8").splitlines(), *lines[final:]]

    return lambda: fresh_game(SMALL, "jobs-small", edit=with_repeats)


def summaries(driver: neo4j.Driver, game: str) -> list[dict[str, Any]]:
    records = driver.execute_query("""
        MATCH (p:Player)-[:REMEMBERS]->(s:Memory:Summary {game: $game})-[:CONSOLIDATES]->(m:Memory)
        WITH p, s, m ORDER BY m.uid
        RETURN p.name AS owner, properties(s) AS s, collect(properties(m)) AS members ORDER BY s.uid""",
                                   game=game).records
    return [r.data() for r in records]


def test_consolidation_writes_summaries_with_every_property_and_edge(driver: neo4j.Driver, small_game: Ingest,
                                                                     params: Parameters) -> None:
    game = small_game()
    phase = driver.execute_query("MATCH (g:Game {uid: $g}) RETURN g.decayed_to AS p", g=game).records[0]["p"]
    report = consolidate(driver, None, game, params)
    found = summaries(driver, game)
    assert report.summaries == report.created == len(found) >= 3
    assert report.members == sum(len(f["members"]) for f in found)
    # what was said again and again is consolidated; the distinct votes, banishment and murder are not
    assert {f["owner"] for f in found} == {"Marcus", "Sarah", "Eleanor"}
    assert all("Priya was murdered last night" in f["s"]["text"] for f in found)
    assert all(m["kind"] == "say" for f in found for m in f["members"])
    for f in found:
        s, members = f["s"], f["members"]
        assert len(members) >= params.consolidation.min_cluster_size
        assert s["uid"] == summary_uid(game, f["owner"], [m["uid"] for m in members])
        assert {m["owner"] for m in members} == {s["owner"]} == {f["owner"]}
        assert all(m["state"] == "consolidated" and m["summary"] == s["uid"] for m in members)
        assert s["e0"] == s["strength"] == pytest.approx(min(1.0, max(m["strength"] for m in members) + 0.1))
        assert s["s"] == s["s_enc"] == pytest.approx(1.5 * max(m["s"] for m in members))
        assert (s["kind"], s["type"], s["members"], s["n"], s["flashbulb"]) == \
            ("summary", "semantic", len(members), 0, False)
        assert s["t_enc"] == max(m["t_enc"] for m in members) and s["t_ref"] == s["decayed_to"] == phase
        assert (s["day_first"], s["day_last"]) == (min(m["day"] for m in members), max(m["day"] for m in members))
        assert s["state"] in ("active", "warm", "archived") and len(s["embedding"]) == 384
        assert s["text"].startswith(f"({len(members)} similar ") and any(m["text"] in s["text"] for m in members)
        assert set(s["about"]) == {a for m in members for a in m["about"]}
        assert s["scope"] == scope_token(game, f["owner"])  # the full-text index finds it for its owner
    about = driver.execute_query("MATCH (s:Summary {game: $g})-[:ABOUT]->(p:Player) RETURN count(*) AS n",
                                 g=game).records[0]["n"]
    assert about == sum(len(f["s"]["about"]) for f in found)


def test_a_second_run_adds_nothing(driver: neo4j.Driver, small_game: Ingest, params: Parameters) -> None:
    game = small_game()
    first = consolidate(driver, None, game, params)
    before = snapshot(driver, game)
    second = consolidate(driver, None, game, params)
    assert first.summaries > 0 and (second.summaries, second.members, second.created) == (0, 0, 0)
    assert second.candidates == first.candidates - first.members
    assert snapshot(driver, game) == before


def test_dry_run_writes_nothing_and_reports_what_it_would_write(driver: neo4j.Driver, small_game: Ingest,
                                                                params: Parameters) -> None:
    game = small_game()
    before = snapshot(driver, game)
    dry = consolidate(driver, None, game, params, dry_run=True)
    assert snapshot(driver, game) == before
    assert dry.dry_run and dry.summaries > 0 and dry.created == 0
    done = consolidate(driver, None, game, params)
    assert [p["uid"] for p in dry.planned] == [p["uid"] for p in done.planned]
    assert [p["text"] for p in dry.planned] == [s["s"]["text"] for s in sorted(
        summaries(driver, game), key=lambda s: [p["uid"] for p in dry.planned].index(s["s"]["uid"]))]


def test_an_interrupted_run_is_completed_by_the_next(driver: neo4j.Driver, small_game: Ingest,
                                                     params: Parameters) -> None:
    interrupted, fresh = small_game(), small_game()

    class Stop(Exception):
        pass

    def stop(owner: str, n: int) -> None:
        if n:
            raise Stop(owner)  # killed right after the first owner with summaries was written

    with pytest.raises(Stop):
        consolidate(driver, None, interrupted, params, progress=stop)
    partial = summaries(driver, interrupted)
    assert partial and len({s["owner"] for s in partial}) == 1
    consolidate(driver, None, interrupted, params)
    consolidate(driver, None, fresh, params)

    def shape(game: str) -> list[tuple[Any, ...]]:
        return sorted((s["owner"], s["s"]["text"], [m["uid"].replace(game, "G") for m in s["members"]])
                      for s in summaries(driver, game))
    assert shape(interrupted) == shape(fresh) and len(shape(fresh)) > len(partial)


def test_the_decay_job_moves_summaries_on_and_leaves_members_alone(driver: neo4j.Driver, small_game: Ingest,
                                                                    params: Parameters) -> None:
    game = small_game()
    consolidate(driver, None, game, params)
    before = {s["s"]["uid"]: s for s in summaries(driver, game)}
    phase = next(iter(before.values()))["s"]["t_ref"]
    advance(driver, None, game, phase + 3, params)
    for after in summaries(driver, game):
        s, old = after["s"], before[after["s"]["uid"]]["s"]
        assert s["strength"] == pytest.approx(strength_at(s["e_ref"], 0, s["s"], 3, params.curve))
        assert s["decayed_to"] == phase + 3 and old["strength"] > s["strength"]
        assert all(m["state"] == "consolidated" for m in after["members"])


def test_flashbulbs_and_memories_in_open_conflicts_are_not_consolidated(driver: neo4j.Driver, small_game: Ingest,
                                                                        params: Parameters) -> None:
    game = small_game()
    driver.execute_query("MATCH (m:Memory {game: $g}) SET m.flashbulb = true", g=game)
    assert consolidate(driver, None, game, params, dry_run=True).candidates == 0
    driver.execute_query("MATCH (m:Memory {game: $g}) SET m.flashbulb = false", g=game)
    driver.execute_query("""
        MATCH (m:Memory {game: $g, owner: 'Marcus'})
        MERGE (c:Conflict {uid: $g + '/conflict/test'}) SET c.game = $g, c.owner = 'Marcus', c.status = 'open'
        MERGE (c)-[:BETWEEN]->(m)""", g=game)
    report = consolidate(driver, None, game, params)
    marcus = next(o for o in report.owners if o.owner == "Marcus")
    assert (marcus.candidates, marcus.summaries) == (0, 0)



def test_cli(cli: Callable[..., Result], small_game: Ingest) -> None:
    game = small_game()
    dry = cli("consolidate", "--game", game, "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    planned = json.loads(dry.output)
    assert planned["dry_run"] is True and planned["summaries"] > 0 and planned["created"] == 0
    one = cli("consolidate", "--game", game, "--player", "Eleanor")
    assert one.exit_code == 0, one.output
    assert one.output.startswith(f"game {game} (phase ")
    wrote = re.search(r"wrote (\d+) (summary|summaries) of (\d+) memories, .*; (\d+) (summary|summaries) created",
                      one.output)
    assert wrote, one.output
    assert (wrote[2] == "summary") == (wrote[1] == "1") and (wrote[5] == "summary") == (wrote[4] == "1")
    assert "Eleanor: (" in one.output and "Marcus:" not in one.output
    rest = cli("consolidate", "--game", game, "--json")
    assert rest.exit_code == 0 and {o["owner"] for o in json.loads(rest.output)["owners"]} == \
        {"Eleanor", "Marcus", "Priya", "Sarah", "Thomas"}
    unknown = cli("consolidate", "--game", game + "x")
    assert unknown.exit_code == 1 and f"no game '{game}x'" in unknown.output
    assert game in unknown.output.split("is stored (")[1]  # every stored id, or the closest
    nobody = cli("consolidate", "--game", game, "--player", "Zed")
    assert nobody.exit_code == 1 and "no player 'Zed'" in nobody.output
    assert "Eleanor, Marcus, Priya, Sarah, Thomas" in nobody.output
    assert cli("consolidate", "--player", "Eleanor").exit_code == 2


def test_forgetting_a_member_dissolves_its_summary_and_the_rest_are_recalled_again(
        driver: neo4j.Driver, small_game: Ingest, params: Parameters, embedder: Any) -> None:
    from graphmem.jobs.forget import forget
    from graphmem.recall import recall

    game = small_game()
    consolidate(driver, None, game, params)
    (marcus,) = [f for f in summaries(driver, game) if f["owner"] == "Marcus"]
    summary, members = marcus["s"]["uid"], [m["uid"] for m in marcus["members"]]
    forgotten, rest = members[0], members[1:]

    result = forget(driver, None, game, "Marcus", forgotten, params)

    assert result.summary_dissolved == summary
    states = {r["uid"]: (r["state"], r["summary"]) for r in driver.execute_query(
        "MATCH (m:Memory) WHERE m.uid IN $uids RETURN m.uid AS uid, m.state AS state, m.summary AS summary",
        uids=[summary, *members]).records}
    assert states[summary][0] == states[forgotten][0] == "tombstoned"
    assert all(states[uid][0] in ("active", "warm", "archived") and states[uid][1] is None for uid in rest)
    recalled = recall(driver, None, game, "Marcus", topic="Priya was murdered", k=20, params=params,
                      embedder=embedder, dry_run=True)
    uids = [m.uid for m in recalled.memories]
    assert summary not in uids and forgotten not in uids and set(rest) & set(uids)
    again = consolidate(driver, None, game, params, player="Marcus")  # the three left are still a cluster
    assert again.summaries == 1 and again.planned[0]["member_uids"] == sorted(rest)
