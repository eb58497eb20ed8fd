"""The avalon-nlu importer on the Avalon games of people of sstepput/Avalon-NLU: the two shipped in examples/, every
game of the corpus when it is present (tests/conftest.py's ``avalon_nlu_corpus``), and the source's oddities."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.importers import detect_format, discover, get_importer, import_game_log
from graphmem.importers.avalon_nlu.game import Belief, Line, belief_places
from graphmem.ingest.encode import encode_game
from graphmem.logs import GameLog, game_log_lines, parse_game_log
from graphmem.logs.schema import BeliefEvent, ObserveEvent, OutcomeEvent, RevealEvent, SayEvent, VoteEvent
from graphmem.model import default_parameters
from tests.conftest import ConvertedGame
from tests.unit.logs.logs_helpers import EXAMPLES

NLU = get_importer("avalon-nlu")
BELIEVED = EXAMPLES / "avalon-nlu" / "9avmeG.json"
"""Beliefs, two rejected parties on quest 3, a failed quest, the assassin finds Merlin."""
NO_BELIEFS = EXAMPLES / "avalon-nlu" / "3YjxjN.json"
"""No beliefs table, three failed quests, a proposal by "###" after the end, repeated persuasion rows."""


def convert(path: Path, **kwargs: Any) -> GameLog:
    return import_game_log(NLU, path, **kwargs)


def edited(tmp_path: Path, source: Path, edit: Any) -> Path:
    """A copy of an example game with ``edit(data)`` applied."""
    data = json.loads(source.read_text(encoding="utf-8"))
    edit(data)
    target = tmp_path / source.name
    target.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return target


def guesses(log: GameLog) -> list[str]:
    return [str(g) for g in log.guesses]


# --- the shipped games ----------------------------------------------------------------------------------------------

def test_detection_finds_the_game_files_and_nothing_else(tmp_path: Path) -> None:
    assert detect_format(BELIEVED) == detect_format(NO_BELIEFS) == "avalon-nlu"
    third = EXAMPLES / "avalon-nlu" / "oeEva0.json"
    assert discover([EXAMPLES / "avalon-nlu"]) == [(NO_BELIEFS, "avalon-nlu"), (BELIEVED, "avalon-nlu"),
                                                   (third, "avalon-nlu")]
    assert not NLU.detect(EXAMPLES / "avalon-nlu" / "LICENSE")
    assert not NLU.detect(EXAMPLES / "avalon-llm" / "1_cross_game_learning_50g" / "individual_games" / "game_01.json")
    (tmp_path / "users.json").write_text('{"users": {}}', encoding="utf-8")
    assert not NLU.detect(tmp_path / "users.json")


def test_header_roles_and_what_each_player_was_shown() -> None:
    log = convert(BELIEVED)
    header = log.header
    assert header.game == "avalon-nlu-9avmeG" and header.imported_from == "avalon-nlu"
    assert header.roles == {"player-1": "Percival", "player-2": "loyal servant", "player-3": "loyal servant",
                            "player-4": "assassin", "player-5": "Morgana", "player-6": "Merlin"}
    assert header.traitor_roles == ("assassin", "Morgana")
    assert (header.side_names.traitor, header.side_names.faithful) == ("evil", "good")
    assert header.metadata["source_roles"] == {"player-1": "percival", "player-2": "servant-2",
                                               "player-3": "servant-1", "player-4": "assassin",
                                               "player-5": "morgana", "player-6": "merlin"}
    pregame = [e for e in log.events if e.phase == 0]
    shown = [(e.id, e.event.player, e.event.role, e.event.witnesses) for e in pregame
             if isinstance(e.event, RevealEvent) and e.id.endswith(("-1", "-2"))]
    assert shown == [("u4-sees-1", "player-5", "evil", ("player-4",)), ("u5-sees-1", "player-4", "evil", ("player-5",)),
                     ("u6-sees-1", "player-4", "evil", ("player-6",)), ("u6-sees-2", "player-5", "evil", ("player-6",))]
    [percival] = [e.event for e in pregame if isinstance(e.event, ObserveEvent)]
    assert percival.observers == ("player-1",) and percival.about == ("player-5", "player-6")
    assert "one of them is Merlin, the other Morgana" in percival.text
    assert sum(1 for e in pregame if isinstance(e.event, RevealEvent) and e.id.endswith("-role")) == 6


def test_phases_are_one_per_party_attempt_quest_and_assassination() -> None:
    log = convert(BELIEVED)
    assert [(p.day, p.name) for p in log.phases] == [
        (0, "pregame"), (1, "team"), (1, "quest"), (2, "team"), (2, "quest"), (3, "team"), (3, "team"), (3, "team"),
        (3, "quest"), (4, "team"), (4, "quest"), (5, "assassination")]
    phase_ids = [e.id for e in log.events if e.kind == "phase"]
    assert phase_ids == ["q1-team1", "q1-quest", "q2-team1", "q2-quest", "q3-team1", "q3-team2", "q3-team3",
                         "q3-quest", "q4-team1", "q4-quest", "q5-assassination"]
    by_id = {e.id: e for e in log.events}
    # a rejected party's vote and result close its phase; the next line opens the next attempt
    assert (by_id["m42"].phase_name, by_id["m42"].day) == ("team", 3)
    assert by_id["m42"].event.result == "rejected"  # type: ignore[union-attr]
    assert by_id["m43"].phase == by_id["m42"].phase + 1
    # "vote succeeded!" ends the team phase, the quest's result is the quest phase, the chat after it the next day's
    assert (by_id["m77"].phase_name, by_id["m78"].phase_name) == ("team", "quest")
    assert (by_id["m79"].phase_name, by_id["m79"].day) == ("team", 4)
    assert (by_id["m95"].phase_name, by_id["m96"].phase_name, by_id["m96-end"].phase_name) == (
        "assassination", "assassination", "assassination")


def test_chat_proposals_public_votes_results_and_the_end() -> None:
    log = convert(BELIEVED)
    data = json.loads(BELIEVED.read_text(encoding="utf-8"))
    by_id = {e.id: e.event for e in log.events}
    say = by_id["m3"]
    assert isinstance(say, SayEvent) and (say.speaker, say.to, say.channel) == ("player-2", "all", "public")
    assert say.text == data["messages"]["3"]["msg"]
    votes = [e.event for e in log.events if e.id.startswith("m41-")]
    assert [(v.voter, v.choice, v.secret, v.witnesses) for v in votes if isinstance(v, VoteEvent)] == [
        ("player-1", "approve", False, None), ("player-2", "reject", False, None), ("player-3", "reject", False, None),
        ("player-4", "approve", False, None), ("player-5", "approve", False, None), ("player-6", "reject", False, None)]
    rejected = by_id["m42"]
    assert isinstance(rejected, OutcomeEvent)
    assert (rejected.ballot, rejected.result, rejected.counts) == ("team", "rejected", {"approve": 3, "reject": 3})
    assert rejected.what == "player-5's party (player-5, player-6, player-1, player-4) was rejected, 3 votes to 3."
    failed = by_id["m23"]
    assert isinstance(failed, OutcomeEvent)
    assert (failed.ballot, failed.result, failed.about) == ("quest", "fail", ("player-2", "player-3", "player-4"))
    assert failed.what == "Quest 2 (player-2, player-3, player-4) failed." and failed.counts is None
    found = by_id["m96"]
    assert isinstance(found, OutcomeEvent) and (found.ballot, found.result) == ("assassinate", "right")
    assert log.events[-1].id == "m96-end" and log.events[-1].event.winner == "evil side"  # type: ignore[union-attr]
    # the chat's claims and stances: names like player-3 are read like any other
    claims = {e.id: [(c.subject, c.predicate, c.object) for c in e.event.claims] for e in log.events
              if isinstance(e.event, SayEvent)}
    assert claims["m4"] == [("player-3", "side", "good")]  # "i agree with player-2. i am good too."
    assert claims["m52"] == [("player-2", "suspects", "player-4"), ("player-2", "suspects", "player-3")]
    assert claims["m63"] == [("player-6", "suspects", "player-5")]  # "i think player-5 is trying to hide something"


def test_every_event_id_names_its_source_row() -> None:
    for path in (BELIEVED, NO_BELIEFS):
        log = convert(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        for e in log.events:
            if e.kind in ("say", "propose", "vote", "outcome", "end"):
                row = re.match(r"m(\d+)(?:-|$)", e.id)
                assert row is not None and row.group(1) in data["messages"], e.id
            elif e.kind == "belief":
                assert e.id.startswith("b") and e.id[1:] in data["beliefs"], e.id


def test_beliefs_are_placed_by_the_turn_rule_and_each_reordering_is_noted() -> None:
    log = convert(BELIEVED)
    order = [e.id for e in log.events if e.kind in ("belief", "propose") and e.day == 3]
    # quest 3's lines at turn <= 1 end with the first proposal (m24), at turn <= 3 with rows up to m39's turn ...
    assert order == ["m24", "b2", "b4", "b1", "m39", "b3", "b5", "b6", "b7", "b8", "b9", "m43", "m67"]
    beliefs = {e.id: e.event for e in log.events if isinstance(e.event, BeliefEvent)}
    assert (beliefs["b1"].player, beliefs["b1"].about, beliefs["b1"].belief) == ("player-3", "player-6", "merlin")
    # the source's own words, in lower case (an analysis reads the dataset's values)
    assert beliefs["b6"].belief == "servant" and beliefs["b2"].belief == "minion"
    line = {e.id: e.line for e in log.events}  # each guess on its belief's canonical line (it was line 0)
    assert guesses(log) == [
        "beliefs[2]: read 'quest 3, turn 1, after beliefs[1] (quest 3, turn 3) in the table' as \"placed before it by "
        "the turn rule (the beliefs' turn counter restarts at each party proposal, the messages' does not)\" "
        f"(canonical line {line['b2']})",
        "beliefs[4]: read 'quest 3, turn 1, after beliefs[3] (quest 3, turn 5) in the table' as \"placed before it by "
        "the turn rule (the beliefs' turn counter restarts at each party proposal, the messages' does not)\" "
        f"(canonical line {line['b4']})"]
    assert all(g.line > 0 for g in log.guesses)


def test_belief_places_follow_the_pre_registered_rule() -> None:
    lines = [Line(1, 1, 1, None, "game started!", None), Line(2, 1, 1, "a", "hi", None),
             Line(3, 1, 2, "b", "hello", None), Line(4, 1, 4, "c", "hey", None),
             Line(5, 3, 0, None, "p proposed a party: a", None), Line(6, 3, 2, "a", "so", None)]

    def belief(row: int, quest: int, turn: int) -> Belief:
        return Belief(row, "a", "b", "merlin", quest, turn)

    places = belief_places(lines, [belief(1, 1, 3), belief(2, 1, 1), belief(3, 1, 3), belief(4, 1, 9),
                                   belief(5, 3, -1), belief(6, 2, 5), belief(7, 4, 1), belief(8, 1, 0)])
    assert {i: [b.row for b in bs] for i, bs in places.after.items()} == {1: [2], 2: [1, 3], 3: [4]}
    # turn before every line of its quest: the start of the quest's lines; a quest without lines: where it would be
    assert {i: [b.row for b in bs] for i, bs in places.before.items()} == {0: [8], 4: [5, 6]}
    assert [b.row for b in places.end] == [7]


def test_the_game_without_beliefs_the_three_failed_quests_and_the_line_after_the_end() -> None:
    log = convert(NO_BELIEFS)
    assert not any(e.kind == "belief" for e in log.events)
    assert log.events[-1].id == "m82" and log.events[-1].event.winner == "evil side"  # type: ignore[union-attr]
    assert [(e.event.result) for e in log.events if isinstance(e.event, OutcomeEvent) and e.event.ballot == "quest"] \
        == ["success", "fail", "fail", "fail"]
    assert guesses(log) == [
        "persuasion[16]: read \"zyQaP25cXnpYo: {'persuasion': 'compromise/concession', 'deception': None}\" as "
        "'repeats persuasion[15] for the same message: persuasion[15] kept'",
        "persuasion[34]: read \"8En4PbJswaNRe: {'persuasion': 'questioning', 'deception': None}\" as "
        "'repeats persuasion[33] for the same message: persuasion[33] kept'",
        "persuasion[51]: read \"VRrVPJlH6PRZ: {'persuasion': 'critique/opposition', 'deception': 'influence'}\" as "
        "'repeats persuasion[46] for the same message: persuasion[46] kept'",
        "beliefs: read '(no beliefs table)' as 'no player set a belief in this game: none imported'",
        "messages[83]: read '### proposed a party: player-4, player-5, player-6' as \"after the game's end "
        "(messages[82]): left out\""]


def test_labels_are_annotations_of_the_statements_and_in_no_memory() -> None:
    log = convert(BELIEVED)
    data = json.loads(BELIEVED.read_text(encoding="utf-8"))
    labels = {p["mid"]: p for p in data["persuasion"].values()}
    for e in log.events:
        if isinstance(e.event, SayEvent):
            label = labels[data["messages"][e.id[1:]]["mid"]]
            assert e.event.annotations == {"persuasion": label["persuasion"], "deception": label["deception"]}
    assert_labels_unperceived(log)


# --- the source's oddities ------------------------------------------------------------------------------------------

def test_oddities_are_read_and_reported_with_their_row(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["messages"]["96"]["msg"] = "the assassin identified merlin, thus evil wins!."
        data["messages"]["41"]["msg"] = data["messages"]["41"]["msg"].replace("player-6: no", "player-6: No")
        data["beliefs"]["1"]["belief"] = "merln"
        data["messages"]["3"]["player"] = "Player-2"
        data["beliefs"]["2"]["turn"] = -1
        data["beliefs"]["10"] = {"player": "player-2", "about_player": "player-2", "belief": "good", "quest": 3,
                                 "turn": -1}
        data["beliefs"]["11"] = {"player": "player-2", "about_player": "Player-4", "belief": "Jester", "quest": 4,
                                 "turn": 2}

    log = convert(edited(tmp_path, BELIEVED, edit))
    found = guesses(log)
    assert any(g.startswith("messages[96].msg: read 'the assassin identified merlin, thus evil wins!.' as "
                            "\"'the assassin identified merlin, thus evil wins!' (a full stop after the closing '!')\"")
               for g in found), found
    lines = {e.id: e.line for e in log.events}
    assert f"beliefs[1].belief: read 'merln' as 'merlin' (canonical line {lines['b1']})" in found
    assert f"messages[3].player: read 'Player-2' as 'player-2' (canonical line {lines['m3']})" in found
    assert any(g.startswith("beliefs[2].turn: read '-1' as \"before quest 3's first turn") for g in found)
    assert "beliefs[10]: read \"player-2 about player-2: 'good' at quest 3, turn -1\" as 'a belief about oneself " \
           "(the drop-down marks another player): left out'" in found
    assert f"beliefs[11].about_player: read 'Player-4' as 'player-4' (canonical line {lines['b11']})" in found
    beliefs = {e.id: e.event for e in log.events if isinstance(e.event, BeliefEvent)}
    assert beliefs["b1"].belief == "merlin" and beliefs["b11"].belief == "jester" and "b10" not in beliefs
    assert next(e for e in log.events if e.id == "m96").event.result == "right"  # type: ignore[union-attr]
    assert next(e for e in log.events if e.id == "m41-player-6").event.choice == "reject"  # type: ignore[union-attr]


def test_what_cannot_be_read_is_refused_with_its_row_and_reason(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data["messages"]["13"]["msg"] = "the quest was cancelled"
        data["messages"]["14"]["msg"] = "player-3 proposed a party: player-2, player-9"
        data["beliefs"]["3"]["about_player"] = "player-77"
        data["messages"]["3"]["player"] = "player-42"  # was read as player-4 (letters added at the end)

    with pytest.raises(InvalidGameLog) as info:
        convert(edited(tmp_path, BELIEVED, edit))
    players = "'player-1', 'player-2', 'player-3', 'player-4', 'player-5', 'player-6'"
    assert [str(p) for p in info.value.problems] == [  # in the order of their rows
        f"file, field 'messages[3].player': cannot read a player name: 'player-42' is none of {players}",
        f"file, field 'beliefs[3].about_player': cannot read a player name: 'player-77' is none of {players}",
        "file, field 'messages[13].msg': a line of the game server of no known wording: 'the quest was cancelled'",
        f"file, field 'messages[14].msg': cannot read a player name: 'player-9' is none of {players}"]
    skipped = convert(edited(tmp_path, BELIEVED, edit), skip_invalid=True)
    assert not any(e.id in ("m3", "m13", "m14", "b3") for e in skipped.events)


def test_not_a_game(tmp_path: Path) -> None:
    missing = tmp_path / "x.json"
    missing.write_text('{"users": {"1": {"name": "player-1", "role": "merlin", "index": 1}}}', encoding="utf-8")
    with pytest.raises(InvalidGameLog) as info:
        convert(missing)
    assert [str(p) for p in info.value.problems] == ["file, field 'messages': missing: every Avalon-NLU game has this table"]
    listed = tmp_path / "y.json"
    listed.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(InvalidGameLog, match="not an Avalon-NLU game: expected a JSON object"):
        convert(listed)


# --- every real game -------------------------------------------------------------------------------------------------

def source_counts(path: Path) -> dict[str, int]:
    """What the game file holds, counted from its text: chat lines, proposals by a player, party votes (one per
    player of each vote line), party results, quest results, and beliefs about another player."""
    data = json.loads(path.read_text(encoding="utf-8"))
    system = [m["msg"] for m in data["messages"].values() if m["player"] == "system"]
    return {
        "say": sum(1 for m in data["messages"].values() if m["player"] != "system"),
        "propose": sum(1 for t in system if re.match(r"player-\d proposed a party: ", t)),
        "vote": sum(t.count(": yes") + t.count(": no") for t in system if t.startswith("party vote outcome:")),
        "team": sum(1 for t in system if t.startswith(("vote succeeded!", "vote failed!"))),
        "quest": sum(1 for t in system if t.startswith(("quest succeeded!", "quest failed!"))),
        "belief": sum(1 for b in data.get("beliefs", {}).values() if b["player"] != b["about_player"]),
    }


def imported_counts(log: GameLog) -> dict[str, int]:
    kinds = [e.kind for e in log.events]
    outcomes = [e.event.ballot for e in log.events if isinstance(e.event, OutcomeEvent)]
    return {"say": kinds.count("say"), "propose": kinds.count("propose"), "vote": kinds.count("vote"),
            "team": outcomes.count("team"), "quest": outcomes.count("quest"), "belief": kinds.count("belief")}


def assert_labels_unperceived(log: GameLog) -> None:
    """The game's memories are the same with and without the statements' annotations: no label is perceived."""
    params = default_parameters()
    objects = [json.loads(line) for line in game_log_lines(log)]
    stripped = parse_game_log([json.dumps({k: v for k, v in o.items() if k != "annotations"}) for o in objects],
                              "without annotations")
    labelled = encode_game(log, params)
    assert [asdict(m) for m in labelled.memories] == [asdict(m) for m in encode_game(stripped, params).memories]
    assert any(e.annotations_json for e in labelled.events)


@pytest.mark.slow
def test_every_game_converts_with_its_counts_beliefs_votes_and_labels(
        avalon_nlu_corpus: tuple[ConvertedGame, ...]) -> None:
    games = avalon_nlu_corpus  # each converted and validated (InvalidGameLog on any problem) once per session
    assert len(games) >= 2 and {g.format for g in games} == {"avalon-nlu"}
    params = default_parameters()
    for game in games:
        log, data = game.log, json.loads(game.path.read_text(encoding="utf-8"))
        assert imported_counts(log) == source_counts(game.path), game.path.name
        for e in log.events:
            if isinstance(e.event, VoteEvent):  # each player's vote as the line shows it
                row, voter = re.fullmatch(r"m(\d+)-(player-\d)", e.id).groups()  # type: ignore[union-attr]
                word = "yes" if e.event.choice == "approve" else "no"
                assert f"{voter}: {word}" in data["messages"][row]["msg"], e.id
            if isinstance(e.event, BeliefEvent):
                row = data["beliefs"][e.id[1:]]
                assert (e.event.player, e.event.about, e.event.belief) == (
                    row["player"], row["about_player"], row["belief"].strip().lower()), e.id
        # no belief is perceived by anyone but its player
        encoded = encode_game(log, params)
        believers = {e.id: e.actor for e in encoded.events if e.kind == "belief"}
        assert all(e.witnesses == [e.actor] for e in encoded.events if e.kind == "belief")
        assert {(m.event, m.owner) for m in encoded.memories if m.kind == "belief"} == set(believers.items())
        assert_labels_unperceived(log)
