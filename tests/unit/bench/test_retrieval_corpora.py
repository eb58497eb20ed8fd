"""The retrieval benchmark asks Avalon and Mafia players what they witnessed, in their game's words (issue 13)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bench.bench_retrieval import (
    CORPORA,
    CORPUS_NAMES,
    DENSE,
    LEXICAL,
    Question,
    corpus_games,
    corpus_of,
    main,
    questions,
    summary,
    table,
)
from graphmem.importers import discover, load_game_log
from graphmem.ingest.perception import perceive
from graphmem.logs import GameLog
from graphmem.logs.state import GameState

ROOT = Path(__file__).resolve().parents[3]


def real_game(folder: str) -> GameLog:
    ((path, fmt),) = discover([ROOT / "examples" / folder])
    return load_game_log(path, fmt)


def perceived(game_log: GameLog) -> dict[str, set[str]]:
    """{player: the events the player holds a memory of}, by the perception the ingest encodes with (what the
    benchmark reads back from the stored game)."""
    state = GameState.of(game_log.header)
    seen: dict[str, set[str]] = {p.name: set() for p in game_log.header.players}
    witnesses: dict[str, set[str]] = {}
    for logged in game_log.events:
        if logged.kind in ("phase", "thought", "emotion"):
            continue
        witnesses[logged.id] = {pc.owner for pc in perceive(logged, state)}
        for owner in witnesses[logged.id]:
            seen[owner].add(logged.id)
        state.apply(logged.event, logged.line, logged.phase, logged.day, logged.phase_name)
    return seen


AVALON = real_game("avalon-llm/2_tournaments_by_player_count/7p/individual_games/game_01.json")
MAFIA = real_game("llmafia/games/0006")


def parts(pattern: str, text: str) -> tuple[str, ...]:
    """The named parts of a question worded as ``pattern`` (fails when it is worded otherwise)."""
    match = re.fullmatch(pattern, text)
    assert match is not None, f"{text!r} is not worded as {pattern!r}"
    return match.groups()


def evidence(game_log: GameLog, q: Question) -> list[dict[str, Any]]:
    by_id = {logged.id: logged for logged in game_log.events}
    return [{**by_id[e].event.model_dump(), "day": by_id[e].day, "phase_name": by_id[e].phase_name}
            for e in q.evidence]


def test_avalon_players_are_asked_about_discussion_teams_votes_and_quests_they_witnessed() -> None:
    seen = perceived(AVALON)
    asked = questions(AVALON, seen, per_kind=50)
    assert corpus_of(AVALON) == "avalon" and {q.corpus for q in asked} == {"avalon"}
    assert {q.kind for q in asked} == {"said", "about", "proposal", "team_vote", "tally", "quest"}
    proposals = {(logged.day, logged.event.model_dump()["leader"]): logged.event.model_dump()["team"]
                 for logged in AVALON.events if logged.kind == "propose"}
    for q in asked:
        assert set(q.evidence) <= seen[q.owner], q  # the asked player remembers every evidence event
        assert not re.search(r"\b(day|banish|round table|murder)", q.text), q.text  # Avalon has quests and teams
        data = evidence(AVALON, q)
        if q.kind == "said":
            speaker, quest = parts(r"What did (\w+) say in the discussion before quest (\d+)\?", q.text)
            assert all(d["kind"] == "say" and d["channel"] == "public" and d["speaker"] == speaker
                       and d["day"] == int(quest) for d in data)
            assert q.owner != speaker
        elif q.kind == "proposal":
            leader, quest = parts(r"Which team did (\w+) propose for quest (\d+)\?", q.text)
            assert [(d["kind"], d["leader"], d["day"]) for d in data] == [("propose", leader, int(quest))]
            assert q.owner != leader
        elif q.kind == "team_vote":
            leader, quest = parts(r"How did you vote on (\w+)'s team for quest (\d+)\?", q.text)
            # a team vote is secret: only the voter is asked how they voted, on the team the question names
            assert all(d["kind"] == "vote" and d["ballot"] == "team" and d["voter"] == q.owner and d["secret"]
                       and d["day"] == int(quest) for d in data)
            assert (int(quest), leader) in proposals
        elif q.kind == "tally":
            leader, quest = parts(r"Was (\w+)'s team for quest (\d+) approved or rejected\?", q.text)
            (d,) = data
            assert d["kind"] == "outcome" and d["ballot"] == "team" and d["result"] in ("approved", "rejected")
            assert tuple(d["about"]) == tuple(proposals[(int(quest), leader)]) and d["day"] == int(quest)
        elif q.kind == "quest":
            (quest,) = parts(r"Did quest (\d+) succeed or fail\?", q.text)
            (d,) = data
            assert d["kind"] == "outcome" and d["ballot"] == "quest" and d["day"] == int(quest)
        else:
            speaker, subject = parts(r"What did (\w+) say about (\w+)\?", q.text)
            assert all(d["speaker"] == speaker and subject in d["about"] for d in data)


def test_mafia_players_are_asked_about_day_votes_night_kills_and_the_day_discussion_they_witnessed() -> None:
    seen = perceived(MAFIA)
    asked = questions(MAFIA, seen, per_kind=50)
    mafia = {p.name for p in MAFIA.header.players if p.role == "mafia"}
    assert corpus_of(MAFIA) == "mafia" and {q.corpus for q in asked} == {"mafia"}
    assert {q.kind for q in asked} == {"vote", "accused", "said", "about", "fate"}
    texts = {q.text for q in asked}
    assert any("vote to kill on night" in t for t in texts) and any("was voted out on day" in t for t in texts)
    assert any(t.startswith("Who was killed on night") for t in texts)
    for q in asked:
        assert set(q.evidence) <= seen[q.owner], q
        assert not re.search(r"\b(banish|round table|quest|murdered|breakfast)", q.text), q.text
        data = evidence(MAFIA, q)
        if q.kind == "vote" and "night" in q.text:
            voter, night = parts(r"Who did (\w+) vote to kill on night (\d+)\?", q.text)
            assert all(d["ballot"] == "murder" and d["voter"] == voter and d["day"] == int(night) for d in data)
            assert q.owner in mafia - {voter}  # only the mafia see the night vote
        elif q.kind == "vote":
            voter, day = parts(r"Who did (\w+) vote for on day (\d+)\?", q.text)
            assert all(d["ballot"] == "banish" and d["voter"] == voter and d["day"] == int(day) for d in data)
            assert q.owner != voter
        elif q.kind == "accused":
            (day,) = parts(r"Who voted against you on day (\d+)\?", q.text)
            assert all(d["ballot"] == "banish" and d["target"] == q.owner and d["day"] == int(day) for d in data)
        elif q.kind == "said":
            speaker, day = parts(r"What did (\w+) say in the day discussion on day (\d+)\?", q.text)
            assert all(d["channel"] == "public" and d["speaker"] == speaker and d["day"] == int(day) for d in data)
            assert q.owner != speaker and 1 <= len(data) <= 10
        elif q.kind == "fate":
            what, day = parts(r"Who was (killed on night|voted out on day) (\d+)\?", q.text)
            (d,) = data
            assert d["kind"] == ("murder" if what.startswith("killed") else "banish") and d["day"] == int(day)
            assert q.owner not in (d.get("victim"), d.get("player"))


def test_a_player_who_missed_an_event_is_not_asked_about_it() -> None:
    night_votes = {logged.id for logged in MAFIA.events
                   if logged.kind == "vote" and logged.event.model_dump()["ballot"] == "murder"}
    forgetful = {owner: events - night_votes for owner, events in perceived(MAFIA).items()}
    asked = questions(MAFIA, forgetful, per_kind=50)
    assert not any("vote to kill" in q.text for q in asked)  # nobody holds the mafia's night votes any more
    assert any(q.text.startswith("Who was killed on night") for q in asked)  # the kills were announced to all
    assert all(set(q.evidence) <= forgetful[q.owner] for q in asked)


def test_each_corpus_has_its_block_in_the_table_and_its_target_in_the_report() -> None:
    asked = [q for game_log in (AVALON, MAFIA) for q in questions(game_log, perceived(game_log))]
    rng = random.Random(3)
    hits = {name: [[rng.random() < 0.6 for _ in q.evidence] for q in asked] for name in ("perfect", DENSE, LEXICAL)}
    report = summary(asked, hits) | {"games": 2, "k": 10, "default_profile": "balanced"}
    assert list(report["corpora"]) == ["avalon", "mafia"]
    for name, part in report["corpora"].items():
        mine = [i for i, q in enumerate(asked) if q.corpus == name]
        assert sum(part["questions"].values()) == len(mine)
        expected = sum(sum(hits["perfect"][i]) / len(hits["perfect"][i]) for i in mine) / len(mine)
        assert part["results"]["perfect"]["all"] == round(expected, 3)
        assert part["target"]["perfect"] == part["results"]["perfect"]["all"]
    assert report["results"]["perfect"]["all"] == round(
        sum(sum(h) / len(h) for h in hits["perfect"]) / len(asked), 3)  # over every question, not per corpus
    printed = table(report)
    assert "### Avalon" in printed and "### Mafia" in printed and "### The Traitors" not in printed
    assert "| team_vote (" in printed.split("### Mafia")[0] and "| team_vote (" not in printed.split("### Mafia")[1]
    for what in ("(Avalon)", "(Mafia)", "(all questions)"):
        assert f"target {what}: perfect" in printed


def test_the_first_games_of_each_corpus_and_an_unknown_corpus_is_refused() -> None:
    for corpus in CORPORA:
        (game_log,) = corpus_games(corpus, 1)
        assert corpus_of(game_log) == corpus.name
    with pytest.raises(SystemExit):
        main(["--corpus", "chess"])
    assert CORPUS_NAMES == ("traitors", "avalon", "mafia")
