"""A series of scripted games (examples/series/play_series.py, played in-process on the session's Neo4j): the example
runs, reputation over the series counts what the logs say, the who-trusts-whom picture draws it, and cross-game
consolidation writes what each player remembers, once, superseding older summaries when a game is added."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import neo4j
import networkx as nx
import pytest
from click.testing import Result

from graphmem.store.games import delete_game
from graphmem.store.keys import player_uid

pytestmark = pytest.mark.neo4j

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "series" / "play_series.py"
GAMES = 3


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("play_series", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_example()


@pytest.fixture(scope="module")
def played(memory: Any, driver: neo4j.Driver, example: ModuleType,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The example's series (3 games ingested, the 4th opened live, consolidated), deleted afterwards. A fixed name,
    so that a rerun in one database replays the example's seeded recalls (docs/model.md#seeded-randomness)."""
    series = "test-series-reputation"

    def clear() -> None:
        for (game,) in driver.execute_query("MATCH (g:Game {series: $series}) RETURN g.uid", series=series).records:
            delete_game(driver, None, game)
        driver.execute_query("MATCH (s:Series {name: $series}) OPTIONAL MATCH (s)-[:HAS_PERSON]->(p) "
                             "DETACH DELETE s, p", series=series)

    clear()  # what a run stopped before its clean-up left
    out = tmp_path_factory.mktemp("series")
    result = example.play(memory, series, GAMES, 7, out)
    yield {"series": series, "out": out, **result}
    clear()


def logs(out: Path) -> list[list[dict[str, Any]]]:
    return [[json.loads(line) for line in path.read_text().splitlines()] for path in sorted(out.glob("*.jsonl"))]


def expected_judgements(games: list[list[dict[str, Any]]]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(observer, observed) -> (judgements, right, trusts), computed from the logs alone (docs/queries.md)."""
    out: dict[tuple[str, str], list[int]] = {}
    for lines in games:
        roles = {p["name"]: p["role"] for p in lines[0]["players"]}
        hidden = {p for p, r in roles.items() if r in lines[0]["traitor_roles"]}
        team: list[str] = []

        def judge(observer: str, observed: str, trusting: bool, hidden: set[str] = hidden) -> None:
            row = out.setdefault((observer, observed), [0, 0, 0])
            row[0] += 1
            row[1] += trusting != (observed in hidden)
            row[2] += trusting

        for e in lines[1:]:
            if e["kind"] == "propose":
                team = e["team"]
            if e["kind"] == "say" and e["speaker"] not in hidden:
                found = re.match(r"I (suspect|trust|think) (\w+)", e["text"])
                assert found, e["text"]
                judge(e["speaker"], found.group(2), found.group(1) == "trust")
            if e["kind"] == "vote" and e.get("ballot") == "team" and e["choice"] in ("approve", "reject") \
                    and e["voter"] not in hidden:
                for member in team:
                    if member != e["voter"]:
                        judge(e["voter"], member, e["choice"] == "approve")
    return {pair: (j, r, t) for pair, (j, r, t) in out.items()}


def test_the_example_recalls_earlier_games_for_players_with_series_memory(played: dict[str, Any],
                                                                          example: ModuleType) -> None:
    for player, context in played["contexts"].items():
        if example.MEMORY[player] == "off":
            assert context == ""
        else:
            assert "[Game 1" in context or "[Game 2" in context or "[Game 3" in context, context
    assert "Who trusts whom" in played["picture"].read_text()


def test_series_games_lists_the_games_in_order_with_their_hidden_side(memory: Any, played: dict[str, Any],
                                                                      example: ModuleType) -> None:
    rows = memory.query("series_games", {"series": played["series"]}).rows
    assert [r["position"] for r in rows] == [1, 2, 3, 4]
    for r in rows[:GAMES]:
        assert sorted(r["hidden_side"]) == sorted(example.EVIL_PAIRS[r["position"] - 1])
        assert r["complete"] and r["players"] == list(example.PEOPLE) and r["memories"] > r["recallable"] > 0
    assert rows[GAMES]["complete"] is False and rows[GAMES]["winner"] is None
    assert rows[0]["decayed_to"] > rows[0]["last_phase"]  # the earliest game has faded on past its end


def test_series_reputation_counts_what_the_logs_say(memory: Any, played: dict[str, Any]) -> None:
    rows = memory.query("series_reputation", {"series": played["series"]}).rows
    expected = expected_judgements(logs(played["out"]))
    assert len(rows) == 20  # every ordered pair of five people
    for r in rows:
        judgements, right, trusts = expected.get((r["observer"], r["observed"]), (0, 0, 0))
        assert (r["judgements"], r["right"], r["trusts"]) == (judgements, right, trusts), r
        assert r["games"] == GAMES + 1
        assert r["accuracy"] == (right / judgements if judgements else None)
    assert sum(r["judgements"] for r in rows) > 10
    alice = memory.query("series_reputation", {"series": played["series"], "observer": "alice"}).rows
    assert {r["observer"] for r in alice} == {"Alice"} and len(alice) == 4


def test_viz_trust_writes_every_kind_and_graphml_holds_the_reputation(cli: Callable[..., Result], memory: Any,
                                                                      played: dict[str, Any], tmp_path: Path) -> None:
    for kind in ("html", "png", "svg", "graphml"):
        result = cli("viz", "trust", "--series", played["series"], "--out", str(tmp_path / f"trust.{kind}"))
        assert result.exit_code == 0, result.output
        assert "5 people, 20 pairs" in result.output
    assert (tmp_path / "trust.png").read_bytes()[:4] == b"\x89PNG"
    graph = nx.read_graphml(tmp_path / "trust.graphml", force_multigraph=True)
    rows = memory.query("series_reputation", {"series": played["series"]}).rows
    for r in rows:
        edge = next(iter(graph.get_edge_data(r["observer"], r["observed"]).values()))
        assert edge["judgements"] == r["judgements"] and edge.get("accuracy") == r["accuracy"]
    missing = cli("viz", "trust", "--series", "no-such-series", "--out", str(tmp_path / "x.png"))
    assert missing.exit_code == 1 and "no series 'no-such-series'" in missing.output


def summaries(driver: neo4j.Driver, series: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (g:Game {series: $series})-[:HAS_PLAYER]->(p:Player)-[:REMEMBERS]->(m:Summary) "
        "WHERE m.series = $series RETURN m.uid AS uid, m.game AS game, m.owner AS owner, m.text AS text, "
        "m.state AS state, m.tombstone_reason AS reason, [(m)-[:ABOUT]->(a) | a.name] AS about, "
        "[(m)-[:SUMMARISES]->(x)<-[:REMEMBERS]-(o:Player) | [x.game, o.name]] AS members ORDER BY uid",
        series=series)
    return [r.data() for r in records]


def test_consolidation_across_the_series_says_what_each_remembers(driver: neo4j.Driver, memory: Any,
                                                                  played: dict[str, Any]) -> None:
    series, latest = played["series"], played["game"]
    found = {(s["owner"], s["about"][0]): s for s in summaries(driver, series)}
    # Alice (perfect memory) saw every role revealed at the end of games 1-3: Chen evil in 1 and 2, Dana in 1 and 3
    assert found[("Alice", "Chen")]["text"] == "Chen was on the evil side in 2 of your 3 games together."
    assert found[("Alice", "Dana")]["text"] == "Dana was on the evil side in 2 of your 3 games together."
    assert found[("Alice", "Bob")]["text"] == "Bob was on the evil side in none of your 3 games together."
    for s in found.values():
        assert s["game"] == latest and s["state"] == "active"
        # the information boundary: every member is a memory of the owner's own earlier selves
        assert s["members"] and all(owner == s["owner"] for _, owner in s["members"])
    # the example recalled after it consolidated, and a writing recall may make its owner forget whom a reveal showed
    # (reconsolidation): the next run brings such a pair up to date; the run after it adds nothing
    settled = memory.consolidate_series(series)
    again = memory.consolidate_series(series)
    assert (again.created, again.superseded) == (0, 0)
    assert again.summaries == settled.summaries == played["consolidation"].summaries
    assert again.planned == settled.planned  # the same summaries, word for word
    dry = memory.consolidate_series(series, "Alice", dry_run=True)
    assert dry.created == 0 and {p["observed"] for p in dry.planned} == {"Bob", "Chen", "Dana", "Emil"}
    recalled = memory.recall(latest, "Alice", topic="Chen", participants=["Chen"], dry_run=True)
    assert "Chen was on the evil side in 2 of your 3 games together." in recalled.prompt()


def test_a_new_game_supersedes_the_older_summaries(cli: Callable[..., Result], driver: neo4j.Driver, memory: Any,
                                                   played: dict[str, Any], example: ModuleType) -> None:
    series, game4 = played["series"], played["game"]
    roles = example.roles_of(GAMES + 1)
    memory.add_events(game4, [{"kind": "phase", "day": 1, "name": "end"}]
                      + [{"kind": "reveal", "player": p, "role": r, "witnesses": list(example.PEOPLE)}
                         for p, r in roles.items()])
    memory.end_game(game4, "good side")
    game5 = f"{series}-game-05"
    memory.start_game(example.header(series, game5, GAMES + 2, example.roles_of(GAMES + 2)))
    others = {s["uid"]: s["state"] for s in summaries(driver, series) if s["owner"] != "Alice"}
    result = cli("consolidate", "--series", series, "--player", "Alice")
    assert result.exit_code == 0, result.output
    assert "Chen was on the evil side in 3 of your 4 games together." in result.output  # game 4: Chen, Dana
    assert "4 summaries of 4 pairs: 4 created, 0 already stored, 4 older superseded" in result.output
    rerun = cli("consolidate", "--series", series, "--player", "Alice")
    assert rerun.exit_code == 0 and "4 summaries of 4 pairs: 0 created, 4 already stored, 0 older superseded" in (
        rerun.output)
    rows = summaries(driver, series)
    old = [s for s in rows if s["owner"] == "Alice" and s["game"] == game4]
    new = [s for s in rows if s["owner"] == "Alice" and s["game"] == game5]
    assert len(old) == len(new) == 4
    assert all(s["state"] == "tombstoned" and "superseded" in s["reason"] for s in old)
    assert all(s["state"] == "active" for s in new)
    assert {s["uid"]: s["state"] for s in rows if s["owner"] != "Alice"} == others  # only Alice's were redone
    assert any(state == "active" for state in others.values())
    assert driver.execute_query("MATCH (m:Summary {uid: $uid})<-[:REMEMBERS]-(p:Player) RETURN p.uid",
                                uid=new[0]["uid"]).records[0][0] == player_uid(game5, "Alice")


def test_the_example_says_in_one_line_why_a_series_name_already_used_cannot_be_played_again(
        example: ModuleType, played: dict[str, Any], neo4j_uri: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setenv("NEO4J_URI", neo4j_uri)
    assert example.main(["--games", "1", "--series", played["series"], "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("play_series: ") and "is stored" in err and "Traceback" not in err
