"""Every analysis query on a small hand-made game whose answers are known, in a real Neo4j.

The game (written straight into the graph with the property names of docs/graph-model.md, no ingest) has four
players: Ann (traitor), Bob (faithful, murdered on day 2), Cat (faithful, banished on day 1) and Dan (faithful).
Ann notices something (e0), tells Bob privately that Cat is a traitor (e1, a lie), Bob repeats it at the round
table (e2), Cat is voted out (e3-e6) and banished (e7), the traitors' meeting picks Bob (e8, e9), Bob is murdered
(e10) and Ann claims to be faithful (e11, another lie). Recall left marks: Dan's memory of e2 has a lost day and
an imported "who"; Cat misattributes e2 to Ann; Bob has forgotten where e1 came from; Dan recalled e3 once.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import neo4j
import pytest

from graphmem.analysis import QueryResult, analysis_query, analysis_query_names, bind_params, run_read
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import Detail, details_to_json
from graphmem.model.forgetting import strength_at
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j

NOW = 5  # the phase the game is decayed to
PHASES = [(0, 1, "social"), (1, 1, "roundtable"), (2, 1, "banishment"), (3, 1, "night"), (4, 2, "breakfast"),
          (5, 2, "roundtable")]
PLAYERS = {  # name: (role, profile, status, eliminated_phase, eliminated_day, threshold)
    "Ann": ("traitor", "balanced", "alive", None, None, 0.18),
    "Bob": ("faithful", "analytical", "murdered", 4, 2, 0.20),
    "Cat": ("faithful", "balanced", "banished", 2, 1, 0.18),
    "Dan": ("faithful", "emotional", "alive", None, None, 0.15),
}
EVERYONE = ["Ann", "Bob", "Cat", "Dan"]
CAT_IS_TRAITOR = [["Cat", "role", "traitor", True]]
# id: (kind, phase, line, text, channel, ballot, actor, targets, witnesses, claims, role_revealed)
EVENTS: dict[str, tuple[Any, ...]] = {
    "e0": ("observe", 0, 2, "Cat looked nervous.", None, None, None, [], ["Ann"], [], None),
    "e1": ("say", 0, 3, 'Ann said to Bob (private): "Cat is a traitor."', "private", None, "Ann", ["Bob"],
           ["Ann", "Bob"], CAT_IS_TRAITOR, None),
    "e2": ("say", 1, 4, 'Bob said (roundtable): "Ann told me Cat is a traitor."', "roundtable", None, "Bob", [],
           EVERYONE, CAT_IS_TRAITOR, None),
    "e3": ("vote", 1, 5, "Bob voted to banish Cat", None, "banish", "Bob", ["Cat"], EVERYONE, [], None),
    "e4": ("vote", 1, 6, "Dan voted to banish Cat", None, "banish", "Dan", ["Cat"], EVERYONE, [], None),
    "e5": ("vote", 1, 7, "Cat voted to banish Ann", None, "banish", "Cat", ["Ann"], EVERYONE, [], None),
    "e6": ("vote", 1, 8, "Ann voted to banish Cat", None, "banish", "Ann", ["Cat"], EVERYONE, [], None),
    "e7": ("banish", 2, 9, "Cat was banished and turned out to be a faithful.", None, None, None, ["Cat"], EVERYONE,
           [], "faithful"),
    "e8": ("say", 3, 10, 'Ann said (traitors): "Bob next."', "traitors", None, "Ann", [], ["Ann"], [], None),
    "e9": ("vote", 3, 11, "Ann voted to murder Bob", None, "murder", "Ann", ["Bob"], ["Ann"], [], None),
    "e10": ("murder", 4, 12, "Bob was murdered by the traitors.", None, None, "Ann", ["Bob"], ["Ann", "Dan"], [],
            None),
    "e11": ("say", 5, 13, 'Ann said (roundtable): "I am a faithful."', "roundtable", None, "Ann", [], ["Ann", "Dan"],
            [["Ann", "role", "faithful", True]], None),
}


def source_of(event: tuple[Any, ...], owner: str) -> tuple[str, str | None]:
    kind, channel, actor, targets = event[0], event[4], event[6], event[7]
    if kind != "say" or owner == actor:
        return "first_hand", None
    if channel == "private":
        return ("direct_told" if owner in targets else "overheard"), actor
    return "group_discuss", actor


def memory_rows(game: str) -> list[dict[str, Any]]:
    """One memory per witness and event, decayed to NOW, with the recall marks of the module docstring."""
    overrides: dict[tuple[str, str], dict[str, Any]] = {
        ("Bob", "e1"): {"source_belief": "unknown", "source_confidence": 0.2},
        ("Cat", "e2"): {"believed_teller": "Ann", "misattributed": True},
        ("Cat", "e3"): {"e0": 0.3, "e_ref": 0.3},
        ("Dan", "e2"): {"details": [Detail("who", "Cat", fabricated=True, original="Bob",
                                           origin=f"{game}/memory/Dan/e4"),
                                    Detail("when", "1", lost=True), Detail("quote", 'Ann told me "Cat" is one.')],
                        "n_lost": 1, "fabricated": True},
        ("Dan", "e3"): {"n": 1, "t_ref": 3, "e_ref": 0.9, "s": 6.0, "last_recalled": 3},
        ("Dan", "e10"): {"flashbulb": True, "floor": 0.8, "e0": 1.0, "e_ref": 1.0, "s_enc": 20.0, "s": 20.0,
                         "emotion_peak": 0.9, "flashbulb_score": 0.82},
    }
    rows = []
    for event_id, event in EVENTS.items():
        kind, phase, text, actor = event[0], event[1], event[3], event[6]
        day = PHASES[phase][1]
        for owner in event[8]:
            source, teller = source_of(event, owner)
            row: dict[str, Any] = {
                "uid": f"{game}/memory/{owner}/{event_id}", "game": game, "owner": owner, "event": event_id,
                "kind": kind, "type": "episodic", "text": text, "n_lost": 0, "fabricated": False, "t_enc": phase,
                "day": day, "phase_name": PHASES[phase][2], "flashbulb": False, "floor": 0.0, "e0": 0.8,
                "s_enc": 4.0, "e_ref": 0.8, "t_ref": phase, "s": 4.0, "n": 0, "threshold": PLAYERS[owner][5],
                "source_type": source, "teller": teller, "c0": 1.0, "source_confidence": 0.9,
                "source_belief": source, "believed_teller": teller, "misattributed": False, "last_recalled": None,
                "emotion_peak": 0.1, "flashbulb_score": 0.1, "emotion_json": "{}",
                "details": [Detail("who", actor)] if actor else [], "decayed_to": NOW}
            row.update(overrides.get((owner, event_id), {}))
            details = row.pop("details")
            if (owner, event_id) != ("Dan", "e2"):
                details = details + [Detail("when", str(day))]
            row["details_json"] = details_to_json(details)
            row["strength"] = strength_at(row["e_ref"], row["t_ref"], row["s"], NOW, "exponential", row["floor"])
            row["state"] = str(lifecycle_state(row["strength"], row["threshold"]))
            row["event_uid"] = f"{game}/event/{event_id}"
            row["teller_uid"] = f"{game}/player/{teller}" if teller else None
            rows.append(row)
    return rows


def write_game(driver: neo4j.Driver, game: str, leak: bool = False) -> None:
    """Write the game of the module docstring (``leak``: also give Dan a memory of the traitors' meeting)."""
    run = driver.execute_query
    run("CREATE (:Game {uid: $game, game: $game, title: 'synthetic analysis game', curve: 'exponential', "
        "last_phase: 5, decayed_to: $now, winner: 'traitors', complete: true})", game=game, now=NOW)
    players = [{"uid": f"{game}/player/{n}", "game": game, "name": n, "role": r, "profile": pr, "status": st,
                "eliminated_phase": ep, "eliminated_day": ed, "threshold": th}
               for n, (r, pr, st, ep, ed, th) in PLAYERS.items()]
    run("MATCH (g:Game {uid: $game}) UNWIND $rows AS r CREATE (p:Player) SET p = r CREATE (g)-[:HAS_PLAYER]->(p)",
        game=game, rows=players)
    phases = [{"uid": f"{game}/phase/{i}", "game": game, "index": i, "day": d, "name": name} for i, d, name in PHASES]
    run("MATCH (g:Game {uid: $game}) UNWIND $rows AS r CREATE (ph:Phase) SET ph = r CREATE (g)-[:HAS_PHASE]->(ph)",
        game=game, rows=phases)
    run("MATCH (a:Phase {game: $game}), (b:Phase {game: $game}) WHERE b.index = a.index + 1 CREATE (a)-[:NEXT]->(b)",
        game=game)
    events = [{"uid": f"{game}/event/{i}", "game": game, "id": i, "kind": e[0], "phase": e[1], "day": PHASES[e[1]][1],
               "line": e[2], "text": e[3], "channel": e[4], "ballot": e[5], "actor": e[6], "targets": e[7],
               "claims_json": json.dumps(e[9]), "role_revealed": e[10], "details_json": "[]",
               "phase_uid": f"{game}/phase/{e[1]}", "actor_uid": f"{game}/player/{e[6]}" if e[6] else None,
               "target_uids": [f"{game}/player/{t}" for t in e[7]],
               "witness_uids": [f"{game}/player/{w}" for w in e[8]]} for i, e in EVENTS.items()]
    run("""UNWIND $rows AS r
           CREATE (e:Event) SET e = r {.uid, .game, .id, .kind, .phase, .day, .line, .text, .channel, .ballot, .actor,
                                        .targets, .claims_json, .role_revealed, .details_json}
           WITH e, r MATCH (ph:Phase {uid: r.phase_uid}) CREATE (e)-[:IN_PHASE]->(ph)
           WITH e, r CALL (e, r) { MATCH (a:Player {uid: r.actor_uid}) CREATE (e)-[:BY]->(a) }
           WITH e, r CALL (e, r) { UNWIND r.target_uids AS t MATCH (p:Player {uid: t}) CREATE (e)-[:TARGETS]->(p) }
           WITH e, r CALL (e, r) { UNWIND r.witness_uids AS w MATCH (p:Player {uid: w}) CREATE (e)-[:WITNESSED_BY]->(p) }""",
        rows=events)
    memories = memory_rows(game)
    if leak:
        memories.append({**memories[-1], "uid": f"{game}/memory/Dan/e8", "owner": "Dan", "event": "e8",
                         "event_uid": f"{game}/event/e8"})
    run("""UNWIND $rows AS r
           MATCH (o:Player {uid: r.game + '/player/' + r.owner}), (e:Event {uid: r.event_uid})
           CREATE (m:Memory) SET m = r {.*, event_uid: null, teller_uid: null}
           CREATE (o)-[:REMEMBERS]->(m), (m)-[:OF_EVENT]->(e)
           CREATE (s:Source {uid: replace(r.uid, '/memory/', '/source/'), game: r.game, type: r.source_type,
                             phase: r.t_enc, day: r.day, confidence: r.c0})
           CREATE (m)-[:FROM]->(s), (s)-[:VIA]->(e)
           WITH s, r CALL (s, r) { MATCH (t:Player {uid: r.teller_uid}) CREATE (s)-[:GIVEN_BY]->(t) }""",
        rows=memories)
    told = [("Ann", "Bob", "e1", 0, "private"), ("Bob", "Ann", "e2", 1, "roundtable"),
            ("Bob", "Cat", "e2", 1, "roundtable"), ("Bob", "Dan", "e2", 1, "roundtable"),
            ("Ann", "Dan", "e11", 5, "roundtable")]
    run("""UNWIND $rows AS r MATCH (a:Player {uid: r.a}), (b:Player {uid: r.b})
           CREATE (a)-[:TOLD {event: r.event, phase: r.phase, day: r.day, channel: r.channel}]->(b)""",
        rows=[{"a": f"{game}/player/{a}", "b": f"{game}/player/{b}", "event": e, "phase": p, "day": PHASES[p][1],
               "channel": c} for a, b, e, p, c in told])
    derived = [("Bob", "e1", "Ann", "e0", 0.8), ("Ann", "e2", "Bob", "e1", 0.9), ("Cat", "e2", "Bob", "e1", 0.85),
               ("Dan", "e2", "Bob", "e1", 0.77)]
    run("""UNWIND $rows AS r MATCH (m:Memory {uid: r.m}), (o:Memory {uid: r.o})
           CREATE (m)-[:DERIVED_FROM {similarity: r.similarity, via: 'embedding'}]->(o)""",
        rows=[{"m": f"{game}/memory/{a}/{ea}", "o": f"{game}/memory/{b}/{eb}", "similarity": s}
              for a, ea, b, eb, s in derived])
    conflicts = [("c1", "Dan", "identity", "open", "Cat", "role", 2, ["e2", "e7"]),
                 ("c2", "Bob", "temporal", "resolved", "Cat", "voted_for", 1, ["e3", "e4"]),
                 ("c3", "Ann", "preference", "open", "Cat", "trust", 1, ["e5", "e2"])]
    run("""UNWIND $rows AS r CREATE (c:Conflict) SET c = r {.uid, .game, .owner, .kind, .status, .subject, .predicate,
                                                              .detected_phase}
           WITH c, r UNWIND r.members AS uid MATCH (m:Memory {uid: uid}) CREATE (c)-[:BETWEEN]->(m)""",
        rows=[{"uid": f"{game}/conflict/{o}/{c}", "game": game, "owner": o, "kind": k, "status": s, "subject": su,
               "predicate": p, "detected_phase": d, "members": [f"{game}/memory/{o}/{e}" for e in ms]}
              for c, o, k, s, su, p, d, ms in conflicts])


@pytest.fixture(scope="module")
def synthetic_game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    """The game id of the hand-made game, written once per module and deleted afterwards. Three more copies under
    other ids stand beside it, and the index statistics are brought up to date, so that the planner sees a database
    of several games, as a user's is: alone in a fresh database, one game is every entry of the game indexes, and
    Neo4j rightly scans an index whose every entry matches instead of seeking in it (which the plan test below
    would take for a query that reads past its game)."""
    game, *others = (f"qa-{uuid.uuid4().hex[:10]}" for _ in range(4))
    for each in (game, *others):
        write_game(driver, each)
    driver.execute_query("CALL db.prepareForReplanning(60)")  # resample the indexes, then clear the plan cache
    yield game
    for each in (game, *others):
        clear(driver, each)


def run(driver: neo4j.Driver, name: str, **given: str) -> QueryResult:
    query = analysis_query(name)
    return run_read(driver, None, query, bind_params(query, given))


def rows(driver: neo4j.Driver, name: str, **given: str) -> list[dict[str, Any]]:
    return run(driver, name, **given).rows


@pytest.mark.parametrize("name", analysis_query_names("game"))
def test_every_query_returns_its_documented_columns_and_reads_through_game_indexes(
        driver: neo4j.Driver, synthetic_game: str, name: str) -> None:
    query = analysis_query(name)
    given = {"game": synthetic_game, **({"player": "Dan"} if name == "player_memories" else {})}
    result = run_read(driver, None, query, bind_params(query, given))
    assert result.columns == query.returns
    params = bind_params(query, given)
    plan = driver.execute_query("EXPLAIN " + query.text, params).summary.plan
    assert plan is not None

    def operators(node: dict[str, Any]) -> Iterator[tuple[str, str]]:
        yield node["operatorType"].split("@")[0], str(node.get("args", {}).get("Details", ""))
        for child in node.get("children", []):
            yield from operators(child)

    found = list(operators(plan))
    scans = [op for op, _ in found if op in ("AllNodesScan", "NodeByLabelScan", "UnionNodeByLabelsScan",
                                              "DirectedRelationshipTypeScan", "UndirectedRelationshipTypeScan",
                                              "DirectedAllRelationshipsScan", "UndirectedAllRelationshipsScan")]
    assert scans == [], f"{name} scans the whole database: {scans}"
    seeks = [details for op, details in found if "Seek" in op and "Index" in op]
    assert seeks, f"{name} uses no index"
    for details in seeks:
        assert "(game" in details or "(uid)" in details, f"{name} seeks by something else than game or uid: {details}"


def test_who_told_whom_counts_per_day_and_channel(driver: neo4j.Driver, synthetic_game: str) -> None:
    got = [(r["teller"], r["listener"], r["day"], r["channel"], r["messages"])
           for r in rows(driver, "who_told_whom", game=synthetic_game)]
    assert got == [("Ann", "Bob", 1, "private", 1), ("Bob", "Ann", 1, "roundtable", 1),
                   ("Bob", "Cat", 1, "roundtable", 1), ("Bob", "Dan", 1, "roundtable", 1),
                   ("Ann", "Dan", 2, "roundtable", 1)]
    day2 = rows(driver, "who_told_whom", game=synthetic_game, day="2")
    assert [(r["teller"], r["listener"], r["teller_role"]) for r in day2] == [("Ann", "Dan", "traitor")]


def test_rumour_reach_follows_derived_from_to_the_origin(driver: neo4j.Driver, synthetic_game: str) -> None:
    (origin,) = rows(driver, "rumour_reach", game=synthetic_game)
    assert origin["origin"] == f"{synthetic_game}/memory/Ann/e0" and origin["origin_source"] == "first_hand"
    assert origin["memories"] == 4 and origin["players"] == 3 and origin["reached"] == ["Bob", "Cat", "Dan"]
    assert origin["depth"] == 2 and origin["origin_role"] == "traitor"
    assert rows(driver, "rumour_reach", game=synthetic_game, min_players="4") == []


def test_rumour_origin_gives_each_chain(driver: neo4j.Driver, synthetic_game: str) -> None:
    chains = {r["owner"]: r for r in rows(driver, "rumour_origin", game=synthetic_game)}
    assert sorted(chains) == ["Ann", "Bob", "Cat", "Dan"]
    assert chains["Dan"]["chain"] == ["Dan", "Bob", "Ann"] and chains["Dan"]["hops"] == 2
    assert chains["Dan"]["weakest_link"] == pytest.approx(0.77)
    assert chains["Bob"]["chain"] == ["Bob", "Ann"] and chains["Bob"]["origin_owner"] == "Ann"
    assert {r["owner"] for r in rows(driver, "rumour_origin", game=synthetic_game, owner="Cat")} == {"Cat"}


def test_false_memories_show_lost_fabricated_and_misattributed(driver: neo4j.Driver, synthetic_game: str) -> None:
    found = {r["owner"]: r for r in rows(driver, "false_memories", game=synthetic_game)}
    assert sorted(found) == ["Cat", "Dan"]
    dan = found["Dan"]
    assert dan["lost_details"] == ["when"] and not dan["misattributed"]
    (fabricated,) = dan["fabricated_details"]
    assert fabricated == {"kind": "who", "value": "Cat", "original": "Bob",
                          "origin": f"{synthetic_game}/memory/Dan/e4", "origin_owner": "Dan", "origin_event": "e4",
                          "origin_text": "Dan voted to banish Cat"}
    assert dan["event_text"] == EVENTS["e2"][3]
    cat = found["Cat"]
    assert cat["misattributed"] and cat["teller"] == "Bob" and cat["believed_teller"] == "Ann"
    assert cat["lost_details"] == [] and cat["fabricated_details"] == []


def test_forgotten_events_are_archived_or_below_a_threshold(driver: neo4j.Driver, synthetic_game: str) -> None:
    (forgotten,) = rows(driver, "forgotten_events", game=synthetic_game)
    assert (forgotten["witness"], forgotten["event"], forgotten["reason"]) == \
        ("Cat", f"{synthetic_game}/event/e3", "archived")
    assert forgotten["recalled_by"] == 3
    weak = rows(driver, "forgotten_events", game=synthetic_game, threshold="0.5")
    assert {r["reason"] for r in weak} == {"archived", "below threshold"}
    assert all(r["strength"] < 0.5 for r in weak) and "Dan" not in {r["witness"] for r in weak
                                                                    if r["event"].endswith("/e10")}
    assert {r["witness"] for r in rows(driver, "forgotten_events", game=synthetic_game, threshold="0.5",
                                       witness="Bob")} == {"Bob"}


def test_flashbulbs_conflicts_and_source_amnesia(driver: neo4j.Driver, synthetic_game: str) -> None:
    (flashbulb,) = rows(driver, "flashbulbs", game=synthetic_game)
    assert flashbulb["owner"] == "Dan" and flashbulb["event"] == "e10" and flashbulb["strength"] >= 0.8
    conflicts = rows(driver, "open_conflicts", game=synthetic_game)
    assert [(c["owner"], c["kind"]) for c in conflicts] == [("Dan", "identity"), ("Ann", "preference")]
    assert conflicts[0]["memories"] == [f"{synthetic_game}/memory/Dan/e2", f"{synthetic_game}/memory/Dan/e7"]
    assert rows(driver, "open_conflicts", game=synthetic_game, kind="identity")[0]["days"] == [1, 1]
    (amnesia,) = rows(driver, "source_amnesia", game=synthetic_game)
    assert (amnesia["owner"], amnesia["source_type"], amnesia["teller"]) == ("Bob", "direct_told", "Ann")


def test_strength_by_profile_is_computed_from_the_closed_form(driver: neo4j.Driver, synthetic_game: str) -> None:
    result = {(r["profile"], r["phase"]): r for r in rows(driver, "strength_by_profile", game=synthetic_game)}
    assert sorted({p for p, _ in result}) == ["analytical", "balanced", "emotional"]
    dan = [m for m in memory_rows(synthetic_game) if m["owner"] == "Dan"]
    for phase in range(NOW + 1):
        alive = [m for m in dan if m["t_enc"] <= phase]
        if not alive:
            assert ("emotional", phase) not in result
            continue
        expected = [strength_at(m["e_ref"], m["t_ref"], m["s"], phase, "exponential", m["floor"])
                    if phase >= m["t_ref"] else
                    strength_at(m["e0"], m["t_enc"], m["s_enc"], phase, "exponential", m["floor"]) for m in alive]
        row = result[("emotional", phase)]
        assert row["memories"] == len(alive)
        assert row["mean_strength"] == pytest.approx(sum(expected) / len(expected), abs=1e-9)
        assert row["approximated"] == 0 and row["day"] == PHASES[phase][1]
    assert rows(driver, "strength_by_profile", game=synthetic_game, to="2")[-1]["phase"] == 2


def test_accusations_lies_and_banishments(driver: neo4j.Driver, synthetic_game: str) -> None:
    accusations = {(r["accuser"], r["accused"], r["kind"]): r["accusations"]
                   for r in rows(driver, "accusation_network", game=synthetic_game)}
    assert accusations == {("Ann", "Cat", "banish vote"): 1, ("Bob", "Cat", "banish vote"): 1,
                           ("Cat", "Ann", "banish vote"): 1, ("Dan", "Cat", "banish vote"): 1,
                           ("Ann", "Cat", "traitor claim"): 1, ("Bob", "Cat", "traitor claim"): 1}
    with_murder = rows(driver, "accusation_network", game=synthetic_game, include_murder_votes="true")
    assert ("Ann", "Bob", "murder vote") in {(r["accuser"], r["accused"], r["kind"]) for r in with_murder}
    assert rows(driver, "accusation_network", game=synthetic_game, day="2") == []
    lies = rows(driver, "traitor_lies", game=synthetic_game)
    assert [(r["liar"], r["subject"], r["subject_role"], r["claimed"], r["listeners"], r["believers"],
             r["remembered_by"]) for r in lies] == [
        ("Ann", "Cat", "faithful", "traitor", ["Bob"], ["Bob"], 1),
        ("Ann", "Ann", "traitor", "faithful", ["Dan"], [], 1)]
    (banishment,) = rows(driver, "banishments", game=synthetic_game)
    assert banishment == {"day": 1, "banished": "Cat", "role_revealed": "faithful", "traitor_banished": False,
                          "votes_for_banished": 3, "votes_cast": 4,
                          "votes": ["Bob -> Cat", "Dan -> Cat", "Cat -> Ann", "Ann* -> Cat"]}


def test_summaries_overview_players_and_phases(driver: neo4j.Driver, synthetic_game: str) -> None:
    summary = {r["player"]: r for r in rows(driver, "memory_summary", game=synthetic_game)}
    assert summary["Ann"]["memories"] == 12 and summary["Ann"]["told"] == 2 and summary["Ann"]["heard"] == 1
    assert summary["Cat"]["archived"] == 1 and summary["Cat"]["misattributed"] == 1
    assert (summary["Dan"]["fabricated"], summary["Dan"]["lost_details"], summary["Dan"]["flashbulbs"],
            summary["Dan"]["open_conflicts"]) == (1, 1, 1, 1)
    assert summary["Bob"]["source_unknown"] == 1 and summary["Bob"]["profile"] == "analytical"
    profiles = {r["profile"]: r for r in rows(driver, "profile_summary", game=synthetic_game)}
    assert profiles["balanced"]["players"] == 2 and profiles["balanced"]["memories"] == 12 + 6
    overview = rows(driver, "game_overview", game=synthetic_game)[0]
    assert (overview["players"], overview["traitors"], overview["events"], overview["memories"], overview["told"],
            overview["derived"]) == (4, 1, 12, 33, 5, 4)
    assert [r["player"] for r in rows(driver, "players", game=synthetic_game)] == EVERYONE
    phases = rows(driver, "phases", game=synthetic_game)
    assert [r["eliminated"] for r in phases] == [[], [], ["Cat (banished)"], [], ["Bob (murdered)"], []]
    assert phases[1]["by_kind"] == ["say 1", "vote 4"]
    best = rows(driver, "most_remembered_events", game=synthetic_game, limit="2")
    assert len(best) == 2 and best[0]["event"] == f"{synthetic_game}/event/e7" and best[0]["recalled_by"] == 4
    mine = rows(driver, "player_memories", game=synthetic_game, player="Dan")
    assert len(mine) == 8 and {r["memory"].split("/")[-1] for r in mine} >= {"e2", "e10", "e11"}


def test_the_information_boundary_holds_and_a_leak_is_caught(driver: neo4j.Driver, synthetic_game: str) -> None:
    assert rows(driver, "information_boundary", game=synthetic_game) == []
    leaky = f"qa-leak-{uuid.uuid4().hex[:8]}"
    write_game(driver, leaky, leak=True)
    try:
        found = rows(driver, "information_boundary", game=leaky)
    finally:
        clear(driver, leaky)
    assert sorted(r["violation"] for r in found) == ["faithful holds traitors-only memory", "not a witness"]
    assert {(r["owner"], r["owner_role"], r["channel"]) for r in found} == {("Dan", "faithful", "traitors")}
