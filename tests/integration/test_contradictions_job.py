"""The contradiction job against a real Neo4j and the real embedding model (docs/jobs.md#contradictions), on small
hand-written logs (tests/data/jobs/): Ava tells Cara that Dan is a traitor, Ben tells her that Dan is faithful; in one
version Cara then sees Dan banished and revealed as faithful. And one crafted case per kind a player notices, each of
which must give exactly one conflict in the whole game: a lie caught (lie.jsonl), a stance reversed (reversal.jsonl),
two tellers at odds (tellers.jsonl), an identity conflict resolved by a reveal (dispute-revealed.jsonl)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import Result

from graphmem.jobs.contradictions import find_contradictions
from graphmem.model import Parameters
from graphmem.store.keys import conflict_uid
from tests.integration.helpers import snapshot

pytestmark = pytest.mark.neo4j
DATA = Path(__file__).resolve().parents[1] / "data" / "jobs"

Ingest = Callable[..., str]


@pytest.fixture()
def games(fresh_game: Callable[..., str]) -> Ingest:
    """ingest(file, game=None): ingest a log of tests/data/jobs under a fresh game id (or ``game``); returns the
    id. Every game made is deleted afterwards."""
    return lambda name, game=None: fresh_game(DATA / name, game=game)


def conflicts_of(driver: neo4j.Driver, game: str) -> list[dict[str, Any]]:
    records = driver.execute_query("""
        MATCH (c:Conflict {game: $game})
        OPTIONAL MATCH (c)-[e:BETWEEN]->(m:Memory)
        WITH c, e, m ORDER BY e.side
        RETURN properties(c) AS c, collect([e.side, m.uid]) AS between ORDER BY c.uid""", game=game).records
    return [{**r["c"], "between": [tuple(x) for x in r["between"]]} for r in records]


def memory(driver: neo4j.Driver, uid: str) -> dict[str, Any]:
    records = driver.execute_query("MATCH (p:Player)-[:REMEMBERS]->(m:Memory {uid: $uid}) "
                                   "RETURN properties(m) AS m, p.name AS owner", uid=uid).records
    assert records, f"memory {uid} must still exist"
    return {**records[0]["m"], "remembered_by": records[0]["owner"]}


def test_opposite_claims_about_dans_role_give_one_open_identity_conflict_in_caras_memory(
        driver: neo4j.Driver, games: Ingest, params: Parameters) -> None:
    game = games("dispute.jsonl")
    report = find_contradictions(driver, None, game, params)
    ava, ben = f"{game}/memory/Cara/ava-tells-cara", f"{game}/memory/Cara/ben-tells-cara"
    (c,) = conflicts_of(driver, game)
    assert (c["owner"], c["kind"], c["status"], c.get("resolution"), c["subject"], c["predicate"]) == \
        ("Cara", "identity", "open", None, "Dan", "role")
    assert c["uid"] == conflict_uid(game, "Cara", [ava, ben])
    assert c["between"] == [("a", ava), ("b", ben)] and (c["memory_a"], c["memory_b"]) == (ava, ben)
    assert c["detected_phase"] == 2 and c.get("resolved_phase") is None and "traitor" in c["reason"]
    assert memory(driver, ava)["state"] != "tombstoned" and memory(driver, ben)["state"] != "tombstoned"
    assert (report.detected, report.new, report.created, report.open, report.resolved, report.tombstoned) == \
        (1, 1, 1, 1, 0, 0)


def test_the_conflict_resolves_and_the_wrong_memory_is_tombstoned_when_cara_sees_the_reveal(
        driver: neo4j.Driver, games: Ingest, params: Parameters) -> None:
    game = games("dispute-revealed.jsonl")
    report = find_contradictions(driver, None, game, params)
    ava, ben = f"{game}/memory/Cara/ava-tells-cara", f"{game}/memory/Cara/ben-tells-cara"
    (c,) = conflicts_of(driver, game)
    banish_phase = driver.execute_query("MATCH (e:Event {uid: $uid}) RETURN e.phase AS p",
                                        uid=f"{game}/event/dan-banished").records[0]["p"]
    assert (c["kind"], c["status"], c["resolution"], c["resolved_phase"]) == \
        ("identity", "resolved", "keep_b", banish_phase)
    assert "Dan was revealed as a faithful" in c["reason"]
    lost, kept = memory(driver, ava), memory(driver, ben)
    assert lost["state"] == "tombstoned" and lost["remembered_by"] == "Cara"  # kept for audit, never deleted
    assert "Dan was revealed as a faithful" in lost["tombstone_reason"] and c["uid"] in lost["tombstone_reason"]
    assert lost["tombstone_phase"] == banish_phase
    assert kept["state"] in ("active", "warm", "archived") and kept.get("tombstone_reason") is None
    assert (report.resolved, report.tombstoned, report.open) == (1, 1, 0)

    before = snapshot(driver, game)
    again = find_contradictions(driver, None, game, params)
    assert (again.detected, again.created, again.resolved, again.tombstoned) == (0, 0, 0, 0)
    assert snapshot(driver, game) == before


@pytest.mark.parametrize(("log", "kind", "status", "resolution", "subject", "speaker", "text"), [
    ("lie.jsonl", "lie", "open", None, "Ben", "Ben",
     "Ben claimed to have voted for Eve on day 1, but you saw Ben vote for Dan."),
    ("reversal.jsonl", "preference", "open", "keep_both", "Dan", "Ava",
     "Ava defended Dan on day 1 and accused Dan on day 2."),
    ("tellers.jsonl", "preference", "open", "keep_both", "Dan", None,
     "On day 1 Ava told you Dan can be trusted, but Ben told you Dan is suspicious."),
    ("dispute-revealed.jsonl", "identity", "resolved", "keep_b", "Dan", None,
     "Ava told you Dan is a traitor, but Ben told you Dan is faithful."),
])
def test_each_crafted_case_gives_exactly_one_conflict_in_caras_memory(
        driver: neo4j.Driver, games: Ingest, params: Parameters, log: str, kind: str, status: str,
        resolution: str | None, subject: str, speaker: str | None, text: str) -> None:
    game = games(log)
    report = find_contradictions(driver, None, game, params)
    (c,) = conflicts_of(driver, game)
    assert (c["owner"], c["kind"], c["status"], c.get("resolution"), c["subject"], c.get("speaker")) == \
        ("Cara", kind, status, resolution, subject, speaker)
    assert c["text"] == text
    assert report.detected == 1 and report.by_kind == {kind: 1} and report.by_status == {kind: {status: 1}}


def test_the_prompt_shows_a_caught_lie_in_a_players_words_once(driver: neo4j.Driver, games: Ingest, memory: Any,
                                                                params: Parameters) -> None:
    game = games("lie.jsonl")
    find_contradictions(driver, None, game, params)
    result = memory.recall(game, "Cara", "Ben's vote", k=20, dry_run=True)
    line = "(Ben claimed to have voted for Eve on day 1, but you saw Ben vote for Dan.)"
    lines = result.prompt().splitlines()
    assert lines.count(line) == 1
    assert "You have conflicting memories" not in result.prompt()
    holding = [m for m in result.as_dict()["memories"] if m["conflicts"]]
    assert {m["event"] for m in holding} == {"vote-ben", "ben-tells-cara"}  # both memories carry it in the JSON


def test_the_analysis_query_counts_lies_and_reversals_per_speaker_with_their_role(
        driver: neo4j.Driver, games: Ingest, params: Parameters) -> None:
    from graphmem.analysis import analysis_query, bind_params, run_read

    def rows(game: str) -> list[dict[str, Any]]:
        query = analysis_query("lies_and_reversals")
        return run_read(driver, None, query, bind_params(query, {"game": game})).rows

    lie, reversal = games("lie.jsonl"), games("reversal.jsonl")
    assert rows(lie) == []  # nothing before the contradiction job ran
    for game in (lie, reversal):
        find_contradictions(driver, None, game, params)
    assert rows(lie) == [{"speaker": "Ben", "role": "traitor", "side": "traitor", "lies": 1, "caught_by": 1,
                          "reversals": 0, "reversed_on": [], "noticed_by": 0,
                          "examples": ["Ben claimed to have voted for Eve on day 1, but you saw Ben vote for Dan."]}]
    assert rows(reversal) == [{"speaker": "Ava", "role": "traitor", "side": "traitor", "lies": 0, "caught_by": 0,
                               "reversals": 1, "reversed_on": ["Dan"], "noticed_by": 1,
                               "examples": ["Ava defended Dan on day 1 and accused Dan on day 2."]}]


def test_agreeing_claims_in_other_words_give_no_conflict(driver: neo4j.Driver, games: Ingest,
                                                         params: Parameters) -> None:
    game = games("agree.jsonl")  # "Dan is faithful" and "Dan is not a traitor"
    report = find_contradictions(driver, None, game, params)
    assert report.detected == 0 and conflicts_of(driver, game) == []


def test_a_stored_open_conflict_resolves_when_the_reveal_arrives_later_and_dismissed_ones_stay(
        driver: neo4j.Driver, games: Ingest, params: Parameters) -> None:
    game = games("dispute.jsonl")
    dismissed = games("dispute.jsonl")
    for g in (game, dismissed):
        find_contradictions(driver, None, g, params)
        assert [c["status"] for c in conflicts_of(driver, g)] == ["open"]
    driver.execute_query("MATCH (c:Conflict {game: $game}) SET c.status = 'dismissed'", game=dismissed)
    for g in (game, dismissed):
        games("dispute-revealed.jsonl", game=g)  # the same game, now ingested up to Dan's banishment
        find_contradictions(driver, None, g, params)
    (c,) = conflicts_of(driver, game)
    assert (c["status"], c["resolution"]) == ("resolved", "keep_b")
    assert memory(driver, f"{game}/memory/Cara/ava-tells-cara")["state"] == "tombstoned"
    (d,) = conflicts_of(driver, dismissed)
    assert (d["status"], d.get("resolution")) == ("dismissed", None)  # never reopened nor redone
    assert memory(driver, f"{dismissed}/memory/Cara/ava-tells-cara")["state"] != "tombstoned"


def test_dry_run_writes_nothing_and_reports_what_it_would_do(driver: neo4j.Driver, games: Ingest,
                                                             params: Parameters) -> None:
    game = games("dispute-revealed.jsonl")
    before = snapshot(driver, game)
    report = find_contradictions(driver, None, game, params, dry_run=True)
    assert snapshot(driver, game) == before
    assert (report.dry_run, report.detected, report.new, report.created, report.resolved, report.tombstoned) == \
        (True, 1, 1, 0, 1, 1)
    (entry,) = report.conflicts
    assert entry["status"] == "resolved" and entry["losers"] == [f"{game}/memory/Cara/ava-tells-cara"]


def test_an_interrupted_run_is_completed_by_the_next(driver: neo4j.Driver, games: Ingest,
                                                     params: Parameters) -> None:
    game, fresh = games("dispute-revealed.jsonl"), games("dispute-revealed.jsonl")

    class Stop(Exception):
        pass

    def stop_after_first(owner: str, n: int) -> None:
        raise Stop(owner)

    with pytest.raises(Stop):
        find_contradictions(driver, None, game, params, progress=stop_after_first)
    find_contradictions(driver, None, game, params)
    find_contradictions(driver, None, fresh, params)

    def shape(g: str) -> list[tuple[Any, ...]]:
        return [(c["owner"], c["kind"], c["status"], c["resolution"], [(s, u.replace(g, "G")) for s, u in
                                                                        c["between"]]) for c in conflicts_of(driver, g)]
    assert shape(game) == shape(fresh) and len(shape(game)) == 1



def test_cli(cli: Callable[..., Result], games: Ingest) -> None:
    game = games("dispute.jsonl")
    dry = cli("contradictions", "--game", game, "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    assert json.loads(dry.output)["new"] == 1 and json.loads(dry.output)["created"] == 0
    done = cli("contradictions", "--game", game, "--player", "Cara")
    assert done.exit_code == 0, done.output
    assert "1 conflict (identity 1 (open 1)), 1 new (1 created), 1 open" in done.output
    assert "Cara: identity open: Ava told you Dan is a traitor, but Ben told you Dan is faithful." in done.output
    unknown = cli("contradictions", "--game", game + "x")
    assert unknown.exit_code == 1 and f"no game '{game}x'" in unknown.output
    assert game in unknown.output.split("is stored (")[1]  # every stored id, or the closest
    nobody = cli("contradictions", "--game", game, "--player", "Zed")
    assert nobody.exit_code == 1 and "no player 'Zed'" in nobody.output and "Ava, Ben, Cara, Dan, Eve" in nobody.output
    assert cli("contradictions").exit_code == 2  # --game or --all-games is required
    other = games("lie.jsonl")
    both = cli("contradictions", "--game", game, "--game", other, "--dry-run", "--json")
    assert both.exit_code == 0, both.output
    report = json.loads(both.output)
    assert [g["game"] for g in report["games"]] == [game, other] and report["by_kind"] == {"identity": 1, "lie": 1}
    lines = cli("contradictions", "--game", game, "--game", other, "--dry-run").output.splitlines()
    assert lines[-1] == "2 games: 2 conflicts (identity 1, lie 1)"
    assert any(line.startswith(f"game {other} ") and "lie 1 (open 1)" in line for line in lines)
