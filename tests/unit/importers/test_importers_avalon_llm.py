"""The avalon-llm importer on the real Avalon games of LLM agents (SuveenE/multi-round-avalon-agents)."""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.importers import detect_format, discover, get_importer, import_game_log
from graphmem.logs import GameLog
from graphmem.logs.schema import (
    EndEvent,
    ObserveEvent,
    OutcomeEvent,
    ProposeEvent,
    ReflectEvent,
    RevealEvent,
    SayEvent,
    VoteEvent,
)
from tests.conftest import ConvertedGame, avalon_games_dir, whole_corpus
from tests.unit.logs.logs_helpers import EXAMPLES

AVALON = get_importer("avalon-llm")
FIVE = EXAMPLES / "avalon-llm" / "1_cross_game_learning_50g" / "individual_games" / "game_01.json"
SEVEN = EXAMPLES / "avalon-llm" / "2_tournaments_by_player_count" / "7p" / "individual_games" / "game_01.json"


def convert(path: Path, **kwargs: Any) -> GameLog:
    return import_game_log(AVALON, path, **kwargs)


def edited(tmp_path: Path, source: Path, edit: Any) -> Path:
    """A copy of an example game with ``edit(data)`` applied, in its corpus layout."""
    data = json.loads(source.read_text(encoding="utf-8"))
    edit(data)
    target = tmp_path / "1_cross_game_learning_50g" / "individual_games" / source.name
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return target


@pytest.mark.slow
def test_every_real_game_converts_with_no_problem_and_no_guess(avalon_corpus: tuple[ConvertedGame, ...]) -> None:
    games = avalon_corpus  # each converted (InvalidGameLog on any problem) once per session
    assert len(games) == whole_corpus(avalon_games_dir(), 110)
    assert {g.format for g in games} == {"avalon-llm"}
    kinds: collections.Counter[str] = collections.Counter()
    readings: set[tuple[str, str, str, str]] = set()
    for g in games:
        assert g.log.rejected == ()
        kinds.update(e.kind for e in g.log.events)
        readings.update((g.path.parent.parent.name, g.path.name, r.where.split(".")[-1], r.taken_as.split(" (")[0])
                        for r in g.log.guesses)
    # the only readings: observations of oneself after the game ("N/A", "placeholder": the engine asked about the
    # others), left out, and an observation keyed "Assassin", read as the assassin
    oneself = "an observation of oneself"
    expected = {("7p", "game_01.json", "Frank", oneself)}
    if len(games) == 110:
        expected |= {("10p", "game_09.json", "Jack", oneself), ("5p", "game_05.json", "Bob", oneself),
                     ("6p", "game_08.json", "Charlie", oneself), ("6p", "game_10.json", "Frank", oneself),
                     ("8p", "game_04.json", "Grace", oneself), ("8p", "game_09.json", "Grace", oneself),
                     ("9p", "game_02.json", "Henry", oneself), ("9p", "game_04.json", "Henry", oneself),
                     ("9p", "game_09.json", "Iris", oneself), ("5p", "game_10.json", "Assassin", "Eve"),
                     ("6p", "game_02.json", "Assassin", "Frank")}
    assert readings == expected
    if len(games) == 110:
        # reveals: 1,260 at the start and one per player at the end (700 players); 700 self-assessments and one
        # observation per other player, less the 10 of oneself and with the 2 keyed "Assassin"
        assert dict(kinds) == {"reveal": 1960, "phase": 1435, "say": 3076, "propose": 624, "vote": 5327,
                               "outcome": 1141, "end": 110, "observe": 50, "reflect": 4801}


def test_detection_skips_the_corpus_files_that_are_not_one_game(tmp_path: Path) -> None:
    assert detect_format(FIVE) == "avalon-llm"
    (tmp_path / "all_games.json").write_text(json.dumps({"session_id": "s", "games": [json.loads(
        FIVE.read_text(encoding="utf-8"))]}), encoding="utf-8")
    assert detect_format(tmp_path / "all_games.json") is None
    assert discover([EXAMPLES / "avalon-llm"]) == [(FIVE, "avalon-llm"), (SEVEN, "avalon-llm")]


def test_header_roles_sides_and_what_each_player_was_shown() -> None:
    log = convert(SEVEN)
    header = log.header
    assert header.roles == {"Alice": "Oberon", "Bob": "Percival", "Charlie": "Merlin", "Diana": "loyal servant",
                            "Eve": "Morgana", "Frank": "Mordred", "Grace": "loyal servant"}
    assert header.traitor_roles == ("Morgana", "Mordred", "Oberon")
    assert (header.side_names.traitor, header.side_names.faithful) == ("evil", "good")
    assert header.imported_from == "avalon-llm" and header.game == "avalon_20251130_193733"
    assert header.metadata["source_file"] == "2_tournaments_by_player_count/7p/individual_games/game_01.json"
    pregame = [e.event for e in log.events if e.phase == 0]
    shown = {(r.player, r.role, r.witnesses) for r in pregame if isinstance(r, RevealEvent) and r.role == "evil"}
    # Merlin sees Oberon and Morgana, not Mordred; Morgana and Mordred see each other, not Oberon
    assert shown == {("Alice", "evil", ("Charlie",)), ("Eve", "evil", ("Charlie",)), ("Frank", "evil", ("Eve",)),
                     ("Eve", "evil", ("Frank",))}
    own = {(r.player, r.role) for r in pregame if isinstance(r, RevealEvent) and r.witnesses == (r.player,)}
    assert own == set(header.roles.items())
    percival = [e for e in pregame if e.kind == "observe"]
    assert len(percival) == 1 and isinstance(percival[0], ObserveEvent)
    assert percival[0].witnesses is None and percival[0].observers == ("Bob",)
    assert "Charlie and Eve: one of them is Merlin, the other Morgana" in percival[0].text


def test_missions_proposals_secret_votes_tallies_cards_and_results() -> None:
    log = convert(FIVE)
    first = [e for e in log.events if e.day == 1]
    assert [(e.kind, e.phase_name) for e in first[:2]] == [("phase", "discussion"), ("say", "discussion")]
    says = [e.event for e in first if isinstance(e.event, SayEvent)]
    assert [s.speaker for s in says] == ["Alice", "Bob", "Charlie", "Diana", "Eve"] and says[0].channel == "public"
    propose = next(e.event for e in first if isinstance(e.event, ProposeEvent))
    assert (propose.leader, propose.team) == ("Charlie", ("Alice", "Charlie"))
    assert propose.text is not None and propose.text.startswith("This fits the initial consensus lean")
    votes = [e.event for e in first if isinstance(e.event, VoteEvent) and e.event.ballot == "team"]
    assert [(v.voter, v.choice, v.secret) for v in votes] == [
        ("Alice", "approve", True), ("Bob", "approve", True), ("Charlie", "approve", True),
        ("Diana", "reject", True), ("Eve", "approve", True)]
    assert votes[3].text is not None and "Charlie pushed" in votes[3].text  # Diana's reason, hers alone
    outcomes = [e.event for e in first if isinstance(e.event, OutcomeEvent)]
    assert [(o.ballot, o.result, o.counts, o.what) for o in outcomes] == [
        ("team", "approved", {"approve": 4, "reject": 1}, "Charlie's team (Alice, Charlie) was approved, 4 votes to 1."),
        ("quest", "success", {"fail": 0, "success": 2}, "Quest 1 (Alice, Charlie) succeeded with no fail card.")]
    cards = [e.event for e in first if isinstance(e.event, VoteEvent) and e.event.ballot == "quest"]
    assert [(c.voter, c.choice, c.secret) for c in cards] == [("Alice", "success", True), ("Charlie", "success", True)]
    failed = next(e.event for e in log.events if isinstance(e.event, OutcomeEvent) and e.event.result == "fail")
    assert failed.what == "Quest 2 (Alice, Charlie, Bob) failed with 1 fail card."


def test_the_assassination_and_the_end() -> None:
    log = convert(FIVE)
    last = [e for e in log.events if e.phase_name == "assassination"]
    evil = [e.event for e in last if isinstance(e.event, SayEvent)]
    assert {s.speaker for s in evil} == {"Charlie", "Eve"} and {s.channel for s in evil} == {"traitors"}
    guess = next(e.event for e in last if isinstance(e.event, VoteEvent))
    assert (guess.voter, guess.ballot, guess.target, guess.secret) == ("Eve", "assassinate", "Diana", False)
    result = next(e.event for e in last if isinstance(e.event, OutcomeEvent))
    assert result.what == "Eve, the assassin, named Diana as Merlin, and was right."
    [at] = [i for i, e in enumerate(log.events) if e.kind == "end"]
    end = log.events[at].event
    assert isinstance(end, EndEvent) and (end.winner, end.text) == ("evil side", "The assassin named Merlin.")
    # only the players' reflections follow the end: 5 self-assessments and 5 x 4 observations
    assert [e.kind for e in log.events[at + 1:]] == ["reflect"] * 25


def test_claims_use_the_games_roles_and_sides() -> None:
    log = convert(FIVE)
    claims = [(e.id, c.subject, c.predicate, c.object, c.polarity) for e in log.events
              for c in getattr(e.event, "claims", ())]
    # "I know I'm good, ..." in a vote comment and two proposals' reasons: side claims, not role claims; the
    # stances of "I slightly trust Diana more" and "I trust Alice–Bob–Diana more than bringing Eve back in"; "at
    # least one of Alice or Charlie must be evil" takes no side
    assert claims == [("m2-p1-v1", "Bob", "side", "good", True), ("m3-p1", "Bob", "side", "good", True),
                      ("m3-p1", "Bob", "trusts", "Diana", True), ("m4-p1-v3", "Diana", "trusts", "Alice", True),
                      ("m5-p0", "Bob", "side", "good", True)]


def test_misspelt_keywords_are_read_and_reported_with_their_json_path(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        mission = data["missions"][0]
        mission["proposals"][0]["votes"][3]["vote"] = "Rejectt"
        mission["quest_actions"][1]["action"] = "succes"
        mission["quest_actions"][1]["player"] = "charlie"
        mission["proposals"][0]["team_memberss"] = mission["proposals"][0].pop("team_members")
        data["winner"] = "EVIL"
    log = convert(edited(tmp_path, FIVE, edit))
    found = {(g.where, g.read, g.taken_as) for g in log.guesses}
    assert found == {
        ("missions[0].proposals[0].votes[3].vote", "Rejectt", "reject"),
        ("missions[0].quest_actions[1].action", "succes", "success"),
        ("missions[0].quest_actions[1].player", "charlie", "Charlie"),
        ("missions[0].proposals[0].team_memberss", "team_memberss", "team_members"),
        ("winner", "EVIL", "evil"),
    }
    lines = {g.where: g.line for g in log.guesses}
    assert log.events[lines["missions[0].quest_actions[1].action"] - 2].event == VoteEvent(
        id="m1-q1", kind="vote", voter="Charlie", ballot="quest", choice="success", secret=True, claims=())
    assert log.events[lines["winner"] - 2].kind == "end"  # the end, before the reflections
    converted = convert(FIVE)
    assert [e.event for e in log.events] == [e.event for e in converted.events]


def test_what_cannot_be_read_is_refused_with_its_path_and_reason(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["missions"][0]["proposals"][0]["votes"][0]["vote"] = "abstain"
        data["missions"][1]["quest_actions"][0]["player"] = "Zed"
        data["missions"][1]["fail_count"] = 2
    with pytest.raises(InvalidGameLog) as info:
        convert(edited(tmp_path, FIVE, edit))
    problems = [str(p) for p in info.value.problems]
    assert ("file, field 'missions[0].proposals[0].votes[0].vote': cannot read a team vote: 'abstain' is none of "
            "'approve', 'reject'") in problems
    assert ("file, field 'missions[1].quest_actions[0].player': cannot read a player name: 'Zed' is none of "
            "'Alice', 'Bob', 'Charlie', 'Diana', 'Eve'") in problems
    # the fail count is checked against the cards only when every card could be read
    assert len(problems) == 2


def test_a_good_player_shown_as_evil_or_a_wrong_assassination_is_a_problem(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["players"][3]["special_knowledge"] = ["Charlie", "Bob"]  # Merlin shown a good player
        data["assassin_phase"]["correct"] = False
    with pytest.raises(InvalidGameLog) as info:
        convert(edited(tmp_path, FIVE, edit))
    assert sorted(str(p) for p in info.value.problems) == [
        "file, field 'assassin_phase.correct': False, but Diana is Merlin",
        "file, field 'players[3].special_knowledge': Diana (Merlin) is shown Bob as evil, but they are good"]


def test_not_a_game(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_text('["not", "a", "game"]', encoding="utf-8")
    with pytest.raises(InvalidGameLog, match="expected a JSON object"):
        convert(bad)
    shutil.copy(FIVE, tmp_path / "copy.json")
    assert convert(tmp_path / "copy.json").header.metadata["source_file"] == "copy.json"


def in_series(tmp_path: Path, session: Any, name: str = "game_01.json", edit: Any = None) -> Path:
    """The 5-player example game in a series folder of its own: ``individual_games/NAME`` beside a
    ``player_memories.json`` whose ``session_id`` is ``session``."""
    folder = tmp_path / "series"
    (folder / "individual_games").mkdir(parents=True)
    (folder / "player_memories.json").write_text(json.dumps({"session_id": session, "num_games": 50,
                                                             "player_memories": {}}), encoding="utf-8")
    data = json.loads(FIVE.read_text(encoding="utf-8"))
    if edit is not None:
        edit(data)
    target = folder / "individual_games" / name
    target.write_text(json.dumps(data), encoding="utf-8")
    return target


def test_game_one_of_the_series_ends_with_every_role_revealed_and_each_players_reflections(tmp_path: Path) -> None:
    log = convert(in_series(tmp_path, "avalon_tournament_20251130_234947"))
    assert log.header.series is None  # recorded, not joined: `ingest --series` joins
    assert log.header.metadata["source_series"] == {"name": "avalon_tournament_20251130_234947", "position": 1}
    assert log.guesses == () and log.rejected == ()
    [at] = [i for i, e in enumerate(log.events) if e.kind == "end"]
    # before the end: each player's role, seen by every other player
    reveals = [e.event for e in log.events[at - 5:at]]
    assert [(r.player, r.role, r.witnesses) for r in reveals if isinstance(r, RevealEvent)] == [
        ("Alice", "loyal servant", ("Bob", "Charlie", "Diana", "Eve")),
        ("Bob", "loyal servant", ("Alice", "Charlie", "Diana", "Eve")),
        ("Charlie", "minion", ("Alice", "Bob", "Diana", "Eve")),
        ("Diana", "Merlin", ("Alice", "Bob", "Charlie", "Eve")),
        ("Eve", "assassin", ("Alice", "Bob", "Charlie", "Diana"))]
    # after the end: per player a self-assessment, then one observation of each other player, in the source's words
    reflections = [e.event for e in log.events[at + 1:]]
    assert all(isinstance(r, ReflectEvent) for r in reflections)
    seen = [(r.player, r.about) for r in reflections if isinstance(r, ReflectEvent)]
    assert seen[:5] == [("Alice", None), ("Alice", "Bob"), ("Alice", "Charlie"), ("Alice", "Diana"), ("Alice", "Eve")]
    assert len(seen) == 25 and {p for p, _ in seen} == set(log.header.player_names)
    about_charlie = next(r for r in reflections if isinstance(r, ReflectEvent) and (r.player, r.about) == (
        "Alice", "Charlie"))
    assert about_charlie.text.startswith("Charlie blended in well by anchoring early teams")
    assert about_charlie.witnesses is None and about_charlie.claims == ()
    # without player_memories.json beside its folder the game is in no series
    assert "source_series" not in convert(FIVE).header.metadata


def test_the_series_name_is_the_session_id_in_game_id_characters_and_the_position_the_games_number(
        tmp_path: Path) -> None:
    def renumber(data: dict[str, Any]) -> None:
        for r in data["post_game_reflections"]:
            r["game_number"] = 7
    log = convert(in_series(tmp_path, "my session/2025 #1", name="first.json", edit=renumber))
    # a file not named game_NN.json takes the reflections' game_number
    assert log.header.metadata["source_series"] == {"name": "my-session-2025-1", "position": 7}
    # a session_id that is no string names no series, and says so
    log = convert(in_series(tmp_path / "b", 42, name="game_03.json"))
    assert "source_series" not in log.header.metadata
    assert [(g.where, g.taken_as) for g in log.guesses] == [
        ("player_memories.json", "no session_id: the game is in no series")]


def test_an_observation_keyed_by_a_role_is_read_as_its_player_and_one_of_oneself_is_left_out(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        observations = data["post_game_reflections"][2]["player_observations"]  # Charlie's
        observations["Assasin"] = observations.pop("Eve")
        observations["Charlie"] = "N/A"
    log = convert(edited(tmp_path, FIVE, edit))
    readings = {(g.where, g.read, g.taken_as.split(" (")[0]) for g in log.guesses}
    assert readings == {
        ("post_game_reflections[2].player_observations.Assasin", "Assasin", "Eve"),
        ("post_game_reflections[2].player_observations.Charlie", "Charlie: 'N/A'", "an observation of oneself")}
    charlie = [(r.about, r.text[:20]) for r in (e.event for e in log.events)
               if isinstance(r, ReflectEvent) and r.player == "Charlie"]
    assert [about for about, _ in charlie] == [None, "Alice", "Bob", "Diana", "Eve"]
