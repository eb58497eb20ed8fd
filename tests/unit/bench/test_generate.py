"""The synthetic game generator of the benchmarks: valid canonical logs, deterministic, realistic, of a chosen size."""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from bench.generate import estimate_memories, game_for_memories, generate_game, main, write_game
from graphmem.logs.reader import parse_game_log, read_game_log
from graphmem.logs.writer import dumps_line

SIZES: list[dict[str, Any]] = [
    {},
    {"players": 5, "traitors": 1, "days": 3, "statements_per_phase": 5},
    {"players": 12, "traitors": 3, "days": 8, "statements_per_phase": 60, "emotions": True},
    {"players": 22, "traitors": 4, "days": 12, "statements_per_phase": 30, "private_share": 1.0, "recruit": False},
    {"players": 45, "traitors": 6, "days": 3, "statements_per_phase": 10, "private_share": 0.0},
]


def lines(game: list[dict[str, Any]]) -> list[str]:
    return [dumps_line(obj) for obj in game]


def social_says(game: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The say events of the social phases."""
    phase, out = "", []
    for e in game[1:]:
        phase = e["name"] if e["kind"] == "phase" else phase
        if e["kind"] == "say" and phase == "social":
            out.append(e)
    return out


def spec_witnesses(event: dict[str, Any], alive: set[str], traitors: set[str]) -> set[str]:
    """docs/log-format.md's witnesses of one event, written from the table: explicit ``witnesses`` win; otherwise
    private say -> speaker + to; traitors' say -> living traitors; public/roundtable say -> living players;
    banish vote -> living players; murder vote -> living traitors; murder -> living players (the victim is dead by
    breakfast, when it is revealed); banish, end -> living players; recruit -> player + living traitors;
    reveal -> the player; observe -> observers; phase -> nobody."""
    if "witnesses" in event:
        return set(event["witnesses"])
    kind = event["kind"]
    living_traitors = alive & traitors
    if kind == "say":
        if event["channel"] == "private":
            return {event["speaker"], *event["to"]}
        return living_traitors if event["channel"] == "traitors" else set(alive)
    if kind == "vote":
        return living_traitors if event["ballot"] == "murder" else set(alive)
    if kind == "murder":
        return alive - {event["victim"]}
    if kind in ("banish", "end"):
        return set(alive)
    if kind == "recruit":
        return living_traitors | {event["player"]}
    if kind == "reveal":
        return {event["player"]}
    if kind == "observe":
        return set(event["observers"])
    assert kind == "phase", kind
    return set()


def replay(game: list[dict[str, Any]]) -> list[tuple[dict[str, Any], set[str], set[str], set[str]]]:
    """Every event with the witnesses, living players and living traitors just before it."""
    alive = {p["name"] for p in game[0]["players"]}
    traitors = {p["name"] for p in game[0]["players"] if p["role"] == "traitor"}
    out = []
    for event in game[1:]:
        out.append((event, spec_witnesses(event, alive, traitors), set(alive), alive & traitors))
        if event["kind"] == "murder":
            alive.discard(event["victim"])
        elif event["kind"] == "banish":
            alive.discard(event["player"])
        elif event["kind"] == "recruit":
            traitors.add(event["player"])
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("size", SIZES)
def test_games_validate_without_problems(size: dict[str, Any], seed: int) -> None:
    game = generate_game(seed=seed, **size)
    log = parse_game_log(lines(game), skip_invalid=True)
    assert log.rejected == ()
    assert len(log.events) == len(game) - 1
    assert game[-1]["kind"] == "end" and game[-1]["winner"] in ("faithfuls", "traitors")
    names = [e["name"] for e in game[1:] if e["kind"] == "phase"]
    assert names[-1] == "final" and "final" not in names[:-1]
    day = ["breakfast", "social", "roundtable", "banishment", "night"]
    assert names[:-1] == (day * len(names))[: len(names) - 1] and names[-2] in ("breakfast", "banishment")
    days = [e["day"] for e in game[1:] if e["kind"] == "phase"]
    assert days == sorted(days) and days[0] == 1 and days[-1] <= size.get("days", 5)


def test_phases_follow_the_day_and_the_game_ends_when_a_side_wins() -> None:
    for seed in range(10):
        game = generate_game(players=9, traitors=2, days=20, seed=seed)
        phases = [(e["day"], e["name"]) for e in game[1:] if e["kind"] == "phase"]
        for day in range(1, phases[-1][0]):
            assert [n for d, n in phases if d == day] == ["breakfast", "social", "roundtable", "banishment", "night"]
        event, _, alive, traitors = replay(game)[-1]
        assert event["kind"] == "end"
        won = "faithfuls" if not traitors else "traitors"
        assert event["winner"] == won and (not traitors or len(traitors) >= len(alive - traitors))


def test_same_seed_same_game_and_other_seeds_differ() -> None:
    kwargs: dict[str, Any] = {"players": 10, "days": 4, "statements_per_phase": 25, "emotions": True}
    assert lines(generate_game(seed=7, **kwargs)) == lines(generate_game(seed=7, **kwargs))
    assert lines(generate_game(seed=7, **kwargs)) != lines(generate_game(seed=8, **kwargs))
    assert generate_game(seed=7, **kwargs)[1:] != generate_game(seed=8, **kwargs)[1:]


def test_the_plot_does_not_depend_on_the_talk() -> None:
    def plot(game: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k != "emotion"} for e in game[1:]
                if e["kind"] in ("vote", "banish", "murder", "recruit", "end")]
    base = generate_game(players=12, days=6, statements_per_phase=0, seed=3)
    assert plot(base) == plot(generate_game(players=12, days=6, statements_per_phase=300, private_share=0.2,
                                            emotions=True, seed=3))


@pytest.mark.parametrize("seed", range(6))
def test_eliminated_players_never_act_and_votes_follow_the_rules(seed: int) -> None:
    game = generate_game(players=12, traitors=3, days=10, statements_per_phase=40, emotions=True, seed=seed)
    gone: set[str] = set()
    round_votes: dict[str, str] = {}
    round_speakers: list[str] = []
    for event, witnesses, alive, traitors in replay(game):
        kind = event["kind"]
        named = [event.get(f) for f in ("speaker", "voter", "target", "victim", "player")] + \
            list(event.get("observers", [])) + list(event.get("by", [])) + list(event.get("emotion", {}))
        named += event["to"] if isinstance(event.get("to"), list) else []
        assert not gone & set(n for n in named if n), event
        assert set(event.get("emotion", {})) <= witnesses  # emotions only for those who perceive the event
        if kind == "say" and event["channel"] == "roundtable":
            round_speakers.append(event["speaker"])
        elif kind == "say" and event["channel"] == "traitors":
            assert event["speaker"] in traitors
        elif kind == "vote" and event["ballot"] == "banish":
            assert event["target"] != event["voter"] and event["target"] in alive
            round_votes[event["voter"]] = event["target"]
        elif kind == "vote":
            assert event["voter"] in traitors and event["target"] in alive - traitors
        elif kind == "banish":
            tally = Counter(round_votes.values())
            assert sorted(round_votes) == sorted(round_speakers) == sorted(alive)  # everyone speaks and votes once
            assert tally[event["player"]] == max(tally.values()) == event["votes"]
            assert event["role_revealed"] == ("traitor" if event["player"] in traitors else "faithful")
            gone.add(event["player"])
            round_votes, round_speakers = {}, []
        elif kind == "murder":
            assert event["victim"] in alive - traitors and set(event["by"]) == traitors
            gone.add(event["victim"])
        elif kind == "recruit":
            assert event["by"] in traitors and event["player"] in alive - traitors
    assert any("emotion" in e for e in game[1:])
    assert not any("emotion" in e for e in generate_game(players=12, traitors=3, days=10, seed=seed)[1:])


def test_recruits_join_the_traitors_and_recruit_false_has_none() -> None:
    recruited = 0
    for seed in range(20):
        game = generate_game(players=12, traitors=3, days=10, statements_per_phase=0, seed=seed)
        for i, event in enumerate(game):
            if event["kind"] == "recruit":  # at night, before the murder vote: the recruit votes in it
                recruited += 1
                night = next(j for j in range(i, len(game)) if game[j]["kind"] == "phase")
                assert event["player"] in {e["voter"] for e in game[i:night] if e["kind"] == "vote"}
        assert not any(e["kind"] == "recruit"
                       for e in generate_game(players=12, traitors=3, days=10, recruit=False, seed=seed))
    assert recruited >= 3


@pytest.mark.parametrize("size", SIZES)
def test_estimate_memories_equals_a_count_from_the_spec_rules(size: dict[str, Any]) -> None:
    for seed in range(3):
        game = generate_game(seed=seed, **size)
        expected = sum(len(witnesses) for _, witnesses, _, _ in replay(game))
        assert estimate_memories(seed=seed, **size) == expected > 0


def test_private_share_and_social_statements() -> None:
    game = generate_game(players=10, days=3, statements_per_phase=400, private_share=0.6, seed=2)
    social = social_says(game)
    private = [e for e in social if e["channel"] == "private"]
    assert 0.55 < len(private) / len(social) < 0.7
    assert all(1 <= len(e["to"]) <= 2 and e["speaker"] not in e["to"] for e in private)
    assert all(e["to"] == "all" for e in social if e["channel"] == "public")
    for share in (0.0, 1.0):
        social = social_says(generate_game(private_share=share, seed=1))
        assert {e["channel"] for e in social} == {"private" if share else "public"}


def test_text_is_varied_with_rumour_chains_contradictions_and_claims() -> None:
    game = generate_game(players=12, days=5, statements_per_phase=150, seed=4)
    says = [e for e in game[1:] if e["kind"] == "say"]
    assert len({e["text"] for e in says}) > 0.3 * len(says)
    # a rumour passed on: the same core sentence from several speakers, in private, as hearsay
    cores: dict[str, set[str]] = defaultdict(set)
    for e in says:
        m = re.match(r"(?:I heard that |Word is that |Apparently |Keep this between us, but |People are saying )(.+)",
                     e["text"])
        if m and e["channel"] == "private":
            cores[m.group(1)].add(e["speaker"])
    assert max(len(speakers) for speakers in cores.values()) >= 3
    # contradictions: two speakers tell the same listener opposite things about one player's role
    told: dict[tuple[str, str], set[tuple[str, bool]]] = defaultdict(set)
    for e in says:
        for c in e.get("claims", []):
            if c["predicate"] == "role" and e["channel"] == "private" and c["subject"] != e["speaker"]:
                traitor = (c["object"] == "traitor") == c["polarity"]
                for listener in e["to"]:
                    told[(listener, c["subject"])].add((e["speaker"], traitor))
    assert any({t for _, t in v} == {True, False} and len({s for s, _ in v}) >= 2 for v in told.values())
    # claims agree with the text, and the round-table speeches claim the vote that follows
    for e in says:
        for c in e.get("claims", []):
            assert c["subject"] in e["text"] or c["subject"] == e["speaker"]
    votes = [e for e in game[1:] if e["kind"] == "vote" and e["ballot"] == "banish"]
    speeches = [e for e in says if e["channel"] == "roundtable"]
    assert [(v["voter"], v["target"]) for v in votes] == [
        next((c["subject"], c["object"]) for c in s["claims"] if c["predicate"] == "voted_for") for s in speeches]
    kinds = Counter(e["kind"] for e in game[1:])
    assert kinds["murder"] >= 1 and kinds["banish"] >= 2 and kinds["reveal"] == 2


@pytest.mark.parametrize("target", [1_000, 10_000, pytest.param(100_000, marks=pytest.mark.slow)])  # 100k: ~5 s
def test_game_for_memories_lands_within_ten_percent(target: int) -> None:
    started = time.perf_counter()
    game = game_for_memories(target, seed=1)
    assert time.perf_counter() - started < 20
    assert abs(estimate_memories(**game[0]["metadata"]["params"]) - target) <= 0.1 * target
    assert parse_game_log(lines(game), skip_invalid=True).rejected == ()


def test_game_for_memories_with_chosen_players() -> None:
    game = game_for_memories(5_000, seed=2, players=15, emotions=True)
    params = game[0]["metadata"]["params"]
    assert params["players"] == 15 and params["emotions"] is True
    assert abs(estimate_memories(**params) - 5_000) <= 500


def test_bad_arguments_raise() -> None:
    bad_arguments: list[dict[str, Any]] = [{"players": 2}, {"traitors": 0}, {"players": 6, "traitors": 3},
                                           {"days": 0}, {"statements_per_phase": -1}, {"private_share": 1.5}]
    for bad in bad_arguments:
        with pytest.raises(ValueError):
            generate_game(**bad)


def test_write_game_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    game = write_game(out, players=7, seed=5, game_id="bench-7")
    log = read_game_log(out)
    assert log.game == "bench-7" and len(log.events) == len(game) - 1

    cli_out = tmp_path / "cli.jsonl"
    assert main(["--memories", "3000", "--seed", "1", "-o", str(cli_out)]) == 0
    printed = capsys.readouterr().out
    log = read_game_log(cli_out)
    m = re.search(r"game (\S+): (\d+) events, (\d+) estimated memories", printed)
    assert m is not None and m.group(1) == log.game and int(m.group(2)) == len(log.events)
    assert abs(int(m.group(3)) - 3000) <= 300
    with pytest.raises(SystemExit) as exc:
        main(["--players", "2", "-o", str(cli_out)])
    assert exc.value.code == 2
