"""Games spread over three Neo4j targets (docs/service.md#many-games-several-neo4j-targets): three local Neo4j
Community servers started with the project's launcher, two ``graphmem serve`` processes configured with all three,
games played on each target through both processes, a series kept on one target, the CLI routing to the same
places; then one server stops and only its games answer 503."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import neo4j
import pytest
from click.testing import CliRunner

from graphmem import local_neo4j
from graphmem.cli import main
from graphmem.settings import load_settings
from graphmem.targets import Targets, place
from tests.integration.conftest import SpareNeo4j
from tests.integration.server_process import Server, start_server
from tests.integration.test_server import mcp_call

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "examples" / "small-game.jsonl"
NAMES = ("a", "b", "c")


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory,
            spare_neo4j: SpareNeo4j) -> Iterator[dict[str, tuple[str, Path]]]:
    """Three local Neo4j servers, {name: (Bolt URI, home)}: a is the session's spare Neo4j (tests/integration/
    conftest.py; it stays up), b and c are started at once here and stopped at the end (c, stopped by the test,
    must be one of these)."""
    spare_neo4j.used = True
    homes = {name: tmp_path_factory.mktemp(f"neo4j-target-{name}") for name in NAMES[1:]}
    with ThreadPoolExecutor(2) as pool:
        states = dict(zip(homes, pool.map(lambda home: local_neo4j.start(home, port=0, timeout=300),
                                          homes.values())))
    try:
        yield {"a": (spare_neo4j.uri, spare_neo4j.home), **{name: (states[name].uri, homes[name]) for name in homes}}
    finally:
        for home in homes.values():
            local_neo4j.stop(home)


def small_game(game: str, series: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in SMALL.read_text(encoding="utf-8").splitlines()]
    header = {**lines[0], "game": game, **({"series": series} if series else {})}
    return header, lines[1:]


def game_on(target: str, tag: str) -> str:
    """A new game id that placement puts on ``target``."""
    for i in range(1000):
        game = f"{tag}-{target}-{i}-{uuid.uuid4().hex[:6]}"
        if place(NAMES, game) == target:
            return game
    raise AssertionError("unreachable: a third of the ids go to each target")


def holders(targets: dict[str, tuple[str, Path]], game: str, *, arrived: bool = True) -> list[str]:
    """The targets whose database holds the game's Game node (asked directly, not through graphmem; with
    ``arrived`` False a copy a move left unarrived counts too)."""
    found = []
    for name, (uri, _) in targets.items():
        with neo4j.GraphDatabase.driver(uri, auth=("neo4j", "graphmem")) as driver:
            if driver.execute_query("MATCH (g:Game {uid: $game}) WHERE $all OR g.arriving_from IS NULL RETURN g",
                                    game=game, all=not arrived).records:
                found.append(name)
    return found


class Interrupted(Exception):
    """A move stopped at one of its steps, as a crash there would stop it."""


def interrupt_at(name: str) -> Callable[[str], None]:
    def step(current: str) -> None:
        if current == name:
            raise Interrupted(name)
    return step


def cli_json(runner: CliRunner, env: dict[str, str], *args: str) -> Any:
    result = runner.invoke(main, [*args] if "--format" in args else [*args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def recalls(server: Server, token: str, game: str) -> list[Any]:
    """The dry-run recall answers (prompt block and JSON) of Marcus for three topics with fixed seeds."""
    answers = []
    with server.client(token) as marcus:
        for seed, topic in enumerate(("Thomas", "Sarah", "the vote")):
            recalled = marcus.post(f"/games/{game}/players/Marcus/recall",
                                   json={"topic": topic, "dry_run": True, "seed": seed})
            assert recalled.status_code == 200, recalled.text
            answers.append(recalled.json())
    return answers


def test_games_live_on_their_targets_and_a_stopped_target_stops_only_its_own(
        targets: dict[str, tuple[str, Path]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configured = json.dumps({name: {"uri": uri} for name, (uri, _) in targets.items()})
    # a 1 s retry (default 8 for the servers, 30 for a command): a command or request on stopped target c gives up
    # after a few seconds instead of 13-16 (a request) or about 35 (a command)
    env = {"GRAPHMEM_TARGETS": configured, "GRAPHMEM_SERVER_RETRY_SECONDS": "1", "GRAPHMEM_RETRY_SECONDS": "1"}
    runner = CliRunner()
    init = runner.invoke(main, ["init"], env=env)
    assert init.exit_code == 0, init.output
    assert [line.split(":")[0] for line in init.output.splitlines() if line.startswith("target ")] == [
        "target a", "target b", "target c"]

    first: Server | None = None
    second: Server | None = None
    try:  # NEO4J_URI is not read when [targets] are configured
        first = start_server(targets["a"][0], tmp_path, extra_env=env)
        second = start_server(targets["a"][0], tmp_path, extra_env=env)
        games = {name: game_on(name, "spread") for name in NAMES}
        # a series placed by its name, and a game of it whose own id would go elsewhere: it joins the series
        series = f"tour-{uuid.uuid4().hex[:6]}"
        series_target = place(NAMES, series)
        later = next(g for g in (f"tour-game-{i}" for i in range(100)) if place(NAMES, g) != series_target)
        with first.client() as one, second.client() as two:
            for i, game in enumerate(games.values()):
                header, events = small_game(game)
                assert (one, two)[i % 2].post("/games", json=header).status_code == 201
                for start in range(0, len(events), 6):  # batches alternate between the two processes
                    sent = (one, two)[start // 6 % 2].post(f"/games/{game}/events",
                                                           json={"events": events[start:start + 6], "after": start})
                    assert sent.status_code == 200, sent.text
            for position, game in ((1, f"tour-first-{uuid.uuid4().hex[:6]}"), (2, later)):
                header, events = small_game(game, {"name": series, "position": position})
                assert one.post("/games", json={**header, "history": events}).status_code == 201
            for name, game in games.items():
                assert holders(targets, game) == [name]
            assert holders(targets, later) == [series_target]
            full_list = two.get("/games")
            assert full_list.status_code == 200 and "X-Graphmem-Unreachable" not in full_list.headers
            listed = {row["game"]: row["target"] for row in full_list.json()}
            assert {g: listed[g] for g in games.values()} == {g: n for n, g in games.items()}
            assert listed[later] == series_target

            # a player token minted through one process works through the other, whatever target holds its game
            tokens = {name: one.post(f"/games/{game}/players/Marcus/tokens").json()["token"]
                      for name, game in games.items()}
            blocks = {}
            for name, game in games.items():
                with second.client(tokens[name]) as marcus:
                    recalled = marcus.post(f"/games/{game}/players/Marcus/recall",
                                           json={"topic": "Thomas", "dry_run": True, "seed": 3})
                    assert recalled.status_code == 200, recalled.text
                    blocks[name] = recalled.json()["prompt"]
            assert all("Thomas" in block for block in blocks.values())

            # the CLI routes the same way (a recall reads the game on its own target)
            cli = runner.invoke(main, ["recall", "--game", games["b"], "--player", "Marcus", "--topic", "Thomas",
                                       "--dry-run", "--seed", "3"], env=env)
            assert cli.exit_code == 0, cli.output
            assert cli.output.strip() == blocks["b"].strip()

            # a log ingested from the command line goes to its game's place too
            filed = game_on("b", "file")
            header, events = small_game(filed)
            log = tmp_path / "filed.jsonl"
            log.write_text("\n".join(json.dumps(line) for line in [header, *events]), encoding="utf-8")
            ingested = runner.invoke(main, ["ingest", str(log)], env=env)
            assert ingested.exit_code == 0, ingested.output
            assert holders(targets, filed) == ["b"]
            listing = runner.invoke(main, ["games"], env=env)
            assert listing.exit_code == 0, listing.output
            assert ", on target b  " in next(line for line in listing.output.splitlines()
                                            if line.startswith(f"{filed}  "))

            # game b moves to a with nothing lost: interrupted twice, finished by running the same command again
            moving = games["b"]
            snapshot = {"stats": cli_json(runner, env, "stats", "--game", moving),
                        "recalls": recalls(second, tokens["b"], moving)}
            monkeypatch.setenv("GRAPHMEM_TARGETS", configured)
            with Targets.connect(load_settings()) as every:
                with pytest.raises(Interrupted):  # crash 1: copied, not yet verified nor arrived
                    every.move("a", game=moving, step=interrupt_at("verify"), batch=50)
                assert holders(targets, moving, arrived=False) == ["a", "b"]  # the copy on a is not its place yet
                assert two.get(f"/games/{moving}").status_code == 200  # reads go on on b
                with second.client(tokens["b"]) as marcus:  # writes are refused
                    refused = marcus.post(f"/games/{moving}/players/Marcus/thoughts", json={"text": "Sarah lies"})
                assert refused.status_code == 503 and refused.json()["error"] == "game_moving", refused.text
                assert refused.headers["Retry-After"] == "1"
                with pytest.raises(Interrupted):  # crash 2: arrived on a, the copy on b not yet deleted
                    every.move("a", game=moving, step=interrupt_at("delete"), batch=50)
                assert holders(targets, moving) == ["a", "b"]
                assert every.target_of(moving) == "a"  # the source gives way to the copy that arrived
            finished = runner.invoke(main, ["move", "--game", moving, "--to", "a"], env=env)
            assert finished.exit_code == 0, finished.output
            assert "its copy on 'b' is deleted now" in finished.output
            assert holders(targets, moving) == ["a"]
            assert cli_json(runner, env, "stats", "--game", moving) == snapshot["stats"]
            # process one kept b as the game's place: its first call finds the game gone there, answers 503 (send it
            # again) and looks again; process two dropped the place when its write was refused, and finds a at once
            stale = one.get(f"/games/{moving}")
            assert stale.status_code == 503 and stale.json()["error"] == "game_moving", stale.text
            assert "moved to target 'a'" in stale.json()["reason"]
            assert one.get(f"/games/{moving}").json() == two.get(f"/games/{moving}").json() == {
                "game": moving, **snapshot["stats"]}
            assert recalls(second, tokens["b"], moving) == snapshot["recalls"]  # the same blocks and JSON
            assert recalls(first, tokens["b"], moving) == snapshot["recalls"]
            again = runner.invoke(main, ["move", "--game", moving, "--to", "a"], env=env)
            assert again.exit_code == 0 and "already: nothing moved" in again.output, again.output
            # a game of a series moves only with its series, which moves whole (Series, Person, PLAYED_AS, ...)
            alone = runner.invoke(main, ["move", "--game", later, "--to", "a"], env=env)
            assert alone.exit_code == 2 and f"move the series (graphmem move --series {series}" in alone.output
            elsewhere = next(name for name in ("a", "b") if name != series_target)  # c stops below
            series_rows = cli_json(runner, env, "query", "series_games", "-p", f"series={series}", "--format", "json")
            moved_series = runner.invoke(main, ["move", "--series", series, "--to", elsewhere], env=env)
            assert moved_series.exit_code == 0, moved_series.output
            assert holders(targets, later) == [elsewhere]
            assert cli_json(runner, env, "query", "series_games", "-p", f"series={series}",
                            "--format", "json") == series_rows

            # a query over every game runs on all three targets: each game's rows as its own query gives them
            placed = {row["game"]: row["target"] for row in cli_json(runner, env, "games")}
            assert set(placed.values()) == set(NAMES)
            merged = cli_json(runner, env, "query", "players", "--all", "--format", "json")
            assert [row["game"] for row in merged] == sorted(row["game"] for row in merged)
            assert {(row["game"], row["target"]) for row in merged} == set(placed.items())
            for game in placed:
                own = cli_json(runner, env, "query", "players", "-p", f"game={game}", "--format", "json")
                assert [{k: v for k, v in row.items() if k not in ("game", "target")}
                        for row in merged if row["game"] == game] == own
            over_http = one.post("/queries/players", json={"all": True})
            assert over_http.status_code == 200, over_http.text
            assert over_http.json()["columns"][:2] == ["target", "game"]
            assert over_http.json()["rows"] == merged

            local_neo4j.stop(targets["c"][1])  # target c stops; a and b go on
            down_uri = targets["c"][0]
            for client in (one, two):
                for name, game in games.items():
                    stats = client.get(f"/games/{game}")
                    if name == "c":
                        assert stats.status_code == 503, stats.text
                        assert down_uri in stats.json()["reason"]
                    else:
                        assert stats.status_code == 200, stats.text
                        assert stats.json()["game"] == game
                with second.client(tokens["a"]) as marcus:
                    assert marcus.post(f"/games/{games['a']}/players/Marcus/recall",
                                       json={"topic": "Sarah"}).status_code == 200
                ready = client.get("/ready")
                assert ready.status_code == 200 and "target 'c'" in ready.json()["reason"]
                # the listing: a and b's games, and a header naming c (the JSON list stays what clients read)
                short_list = client.get("/games")
                assert short_list.status_code == 200, short_list.text
                assert short_list.headers["X-Graphmem-Unreachable"] == "c"
                rows = {row["game"]: row["target"] for row in short_list.json()}
                assert games["a"] in rows and games["b"] in rows and games["c"] not in rows  # b's game moved to a
                assert set(rows.values()) == {"a", "b"}
            # an MCP tool on c's game refuses as the route does: 503, naming c's URI (docs/service.md#mcp)
            route = one.post(f"/games/{games['c']}/players/Marcus/recall", json={"dry_run": True})
            tool = mcp_call(first, first.key, "recall", {"game": games["c"], "player": "Marcus", "dry_run": True})
            assert route.status_code == 503 and down_uri in route.json()["reason"], route.text
            assert tool.is_error and tool.structured_content["status"] == 503, tool.content
            assert tool.structured_content["error"] == route.json()["error"]
            assert down_uri in tool.structured_content["reason"]
            assert tool.content[0].text.startswith(f"503 {route.json()['error']}: ")
            # a new game is placed only when every target answers (it may be on c already)
            header, _ = small_game(f"new-{uuid.uuid4().hex[:6]}")
            refused = one.post("/games", json=header)
            assert refused.status_code == 503 and "'c'" in refused.json()["reason"]
            down = runner.invoke(main, ["stats", "--game", games["c"]], env=env)
            assert down.exit_code == 1 and down_uri in down.output
            up = runner.invoke(main, ["stats", "--game", games["a"], "--json"], env=env)
            assert up.exit_code == 0, up.output
            short = runner.invoke(main, ["query", "players", "--all"], env=env)  # never silently short of c's games
            assert short.exit_code == 1 and "target 'c'" in short.output, short.output
    finally:
        for server in (first, second):
            if server is not None:
                server.stop()


def test_one_target_without_configuration_lists_games_as_before(neo4j_uri: str) -> None:
    """No [targets]: one target, the [neo4j] settings; the listing has no target column."""
    result = CliRunner().invoke(main, ["games", "--json"], env={"NEO4J_URI": neo4j_uri, "GRAPHMEM_TARGETS": ""})
    assert result.exit_code == 0, result.output
    assert all("target" not in row for row in json.loads(result.output or "[]"))


def test_games_lists_the_targets_that_answer_and_names_the_one_down(neo4j_uri: str, schema: object) -> None:
    """One target down hides only its own games (docs/service.md): the others are listed, a warning on stderr
    names the target that did not answer, and the exit code is 3 (a script sees the listing is short)."""
    runner = CliRunner()
    assert runner.invoke(main, ["--uri", neo4j_uri, "ingest", str(SMALL)]).exit_code == 0
    env = {"GRAPHMEM_TARGETS": json.dumps({"up": {"uri": neo4j_uri}, "down": {"uri": "bolt://127.0.0.1:1"}}),
           "GRAPHMEM_RETRY_SECONDS": "1"}  # the down target named after a few seconds, not the default's 35

    listed = runner.invoke(main, ["games", "--json"], env=env)
    assert listed.exit_code == 3, listed.output
    rows = json.loads(listed.stdout)
    assert "small-game" in {row["game"] for row in rows} and {row["target"] for row in rows} == {"up"}
    assert listed.stderr.strip() == ("warning: target 'down' at bolt://127.0.0.1:1 does not answer "
                                     "(ServiceUnavailable): its games are not listed"), listed.stderr
    text = runner.invoke(main, ["games"], env=env)
    assert text.exit_code == 3 and "small-game" in text.stdout and "on target up" in text.stdout, text.output
