"""``traitor_roles``: a game names the roles of its traitor side (docs/model.md#vocabulary-and-units: "faithful,
traitor, or the game's own role names"). Validation, the canonical writer and perception/encoding on
tests/data/logs/werewolf.jsonl."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.logs import parse_game_log, read_game_log, write_game_log
from graphmem.logs.writer import log_sha256
from graphmem.model import default_parameters
from graphmem.viz.style import OTHER_SIDE_COLOUR, TRAITOR_SIDE_COLOUR
from graphmem.viz.told import build_told_graph, legend_roles, player_colour

ROOT = Path(__file__).resolve().parents[3]
WEREWOLF = ROOT / "tests" / "data" / "logs" / "werewolf.jsonl"
SMALL = ROOT / "examples" / "small-game.jsonl"
WOLVES = {"Wanda", "Bruno"}


def header(**fields: Any) -> dict[str, Any]:
    return {"kind": "game", "format": "graphmem/1", "game": "ww", "players": [
        {"name": "Wanda", "role": "werewolf"}, {"name": "Seth", "role": "seer"}, {"name": "Vera", "role": "villager"},
        {"name": "Otto", "role": "villager"}], **fields}


def encode(head: dict[str, Any], *events: dict[str, Any]) -> EncodedGame:
    lines = [json.dumps(head)] + [json.dumps(e) for e in events]
    return encode_game(parse_game_log(lines, "test"), default_parameters())


@pytest.fixture(scope="module")
def werewolf() -> EncodedGame:
    return encode_game(read_game_log(WEREWOLF), default_parameters())


def owners(game: EncodedGame, event: str) -> set[str]:
    return {m.owner for m in game.memories if m.event == event and m.kind != "lesson"}


# --- validation and the canonical writer ------------------------------------------------------------------------

@pytest.mark.parametrize(("roles", "reason"), [
    (["wolf"], "'wolf' is not the role of any player (roles: werewolf, seer, villager)"),
    (["werewolf", "werewolf"], "names a role twice"),
    ([], "at least 1 item"),
    ("werewolf", "must be a list"),
])
def test_a_bad_traitor_roles_is_reported_on_line_1_with_the_field(roles: Any, reason: str) -> None:
    with pytest.raises(InvalidGameLog) as info:
        parse_game_log([json.dumps(header(traitor_roles=roles)), json.dumps({"kind": "phase", "day": 1,
                                                                            "name": "night"})], "t")
    [problem] = info.value.problems
    assert (problem.line, problem.field) == (1, "traitor_roles")
    assert reason in problem.reason


def test_traitor_roles_defaults_to_traitor_and_any_player_role_is_accepted() -> None:
    assert read_game_log(SMALL).header.traitor_roles == ("traitor",)
    log = parse_game_log([json.dumps(header(traitor_roles=["werewolf", "seer"]))], "t")
    assert log.header.traitor_roles == ("werewolf", "seer")


def test_the_writer_keeps_traitor_roles_only_when_not_the_default(tmp_path: Path) -> None:
    out = io.StringIO()
    write_game_log(read_game_log(WEREWOLF), out)
    first = json.loads(out.getvalue().splitlines()[0])
    assert first["traitor_roles"] == ["werewolf"]
    path = tmp_path / "again.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert read_game_log(path).header == read_game_log(WEREWOLF).header
    small = io.StringIO()
    write_game_log(read_game_log(SMALL), small)
    assert "traitor_roles" not in json.loads(small.getvalue().splitlines()[0])


def test_traitor_roles_changes_the_log_hash_only_when_given() -> None:
    plain = parse_game_log([json.dumps(header())], "t")
    explicit_default = parse_game_log([json.dumps(header(traitor_roles=["traitor"]))], "t")
    wolves = parse_game_log([json.dumps(header(traitor_roles=["werewolf"]))], "t")
    assert log_sha256(plain) == log_sha256(explicit_default) != log_sha256(wolves)


# --- perception and encoding ---------------------------------------------------------------------------------------

def test_the_wolves_talk_and_murder_votes_reach_the_wolves_only(werewolf: EncodedGame) -> None:
    for event in ("wolves-talk", "wolves-reply", "murder-vote-wanda", "murder-vote-bruno"):
        assert owners(werewolf, event) == WOLVES, event
    speaker = [m for m in werewolf.memories if m.event == "wolves-talk" and m.owner == "Wanda"]
    assert [m.source_type for m in speaker] == ["first_hand"]


def test_a_log_that_forgets_traitor_roles_is_refused_not_silently_emptied() -> None:
    """Without the field a Werewolf log has no traitors, so the wolves' talk would reach nobody: refused instead,
    with the fix in the message (a new user lost every night chat without a word before)."""
    say = {"kind": "say", "id": "s", "speaker": "Wanda", "to": "all", "channel": "traitors", "text": "Otto tonight."}
    with pytest.raises(InvalidGameLog) as refused:
        encode(header(), say)
    assert [str(p) for p in refused.value.problems] == [
        "line 2, field 'speaker': Wanda ('werewolf') is not on the traitor side (traitor_roles: 'traitor'; other "
        "roles: seer, villager, werewolf): only the traitor side can speak on the traitors channel; if 'werewolf' "
        'is this game\'s killing side, name it in the header: "traitor_roles": ["werewolf"]']
    assert owners(encode(header(traitor_roles=["werewolf"]), say), "s") == {"Wanda"}


@pytest.mark.parametrize("event, where, what", [
    ({"kind": "say", "speaker": "Vera", "to": "all", "channel": "traitors", "text": "Hi."}, "speaker",
     "speak on the traitors channel"),
    ({"kind": "vote", "voter": "Vera", "target": "Otto", "ballot": "murder"}, "voter", "cast a murder vote"),
    ({"kind": "murder", "victim": "Otto", "by": ["Wanda", "Vera"]}, "by[1]", "murder"),
    ({"kind": "recruit", "player": "Otto", "by": "Vera"}, "by", "recruit"),
])
def test_only_the_traitor_side_acts_at_night(event: dict[str, Any], where: str, what: str) -> None:
    with pytest.raises(InvalidGameLog) as refused:
        encode(header(traitor_roles=["werewolf"]), event)
    assert [(p.line, p.field) for p in refused.value.problems] == [(2, where)]
    assert "Vera ('villager') is not on the traitor side (traitor_roles: 'werewolf'" in str(refused.value)
    assert f"only the traitor side can {what}" in str(refused.value) and "name it in the header" not in \
        str(refused.value)


def test_the_murder_frightens_the_villagers_not_the_wolves(werewolf: EncodedGame) -> None:
    murder = {m.owner: m for m in werewolf.memories if m.event == "otto-dies"}
    assert set(murder) == {"Wanda", "Bruno", "Seth", "Vera"}
    assert all("fear" not in json.loads(murder[w].emotion_json) for w in WOLVES)
    assert all(json.loads(murder[p].emotion_json).get("fear", 0) > 0 for p in ("Seth", "Vera"))


def test_banishing_a_werewolf_is_no_mistake(werewolf: EncodedGame) -> None:
    lessons = sorted((m.owner, m.event) for m in werewolf.memories if m.kind == "lesson")
    assert lessons == [("Seth", "vera-out"), ("Wanda", "vera-out")]
    assert not any(m.flashbulb and "mistake" in m.text for m in werewolf.memories if m.event == "bruno-out")


def test_the_seers_accusation_is_an_accusation_of_the_accused(werewolf: EncodedGame) -> None:
    [bruno] = [m for m in werewolf.memories if m.event == "seer-accuses" and m.owner == "Bruno"]
    assert bruno.emotion_peak >= 0.7  # ACCUSED: fear 0.7 (a werewolf claim names the traitor side)


def test_a_recruit_takes_the_recruiters_role() -> None:
    game = encode(header(traitor_roles=["werewolf"]),
                  {"kind": "recruit", "id": "r", "player": "Vera", "by": "Wanda"},
                  {"kind": "say", "id": "s", "speaker": "Wanda", "to": "all", "channel": "traitors", "text": "Hi."})
    assert {p.name: p.role for p in game.players}["Vera"] == "werewolf"
    assert owners(game, "r") == {"Vera", "Wanda"} and owners(game, "s") == {"Wanda", "Vera"}
    assert game.game.traitor_roles == ["werewolf"]


# --- pictures ------------------------------------------------------------------------------------------------------

def test_the_picture_colours_by_side_and_names_the_games_roles() -> None:
    players = [{"player": "Wanda", "role": "werewolf", "traitor_side": True},
               {"player": "Seth", "role": "seer", "traitor_side": False},
               {"player": "Vera", "role": "villager", "traitor_side": False}]
    graph = build_told_graph("ww", players, [{"teller": "Zed", "listener": "Seth", "day": 1, "channel": "public",
                                              "messages": 1}])
    assert player_colour(graph, "Wanda") == TRAITOR_SIDE_COLOUR and player_colour(graph, "Vera") == OTHER_SIDE_COLOUR
    assert player_colour(graph, "Zed") not in (TRAITOR_SIDE_COLOUR, OTHER_SIDE_COLOUR)  # unknown: grey
    assert legend_roles(graph) == [("seer", OTHER_SIDE_COLOUR), ("villager", OTHER_SIDE_COLOUR),
                                   ("werewolf", TRAITOR_SIDE_COLOUR)]
    traitors = build_told_graph("t", [{"player": "A", "role": "traitor"}, {"player": "B", "role": "faithful"}], [])
    assert legend_roles(traitors) == [("faithful", OTHER_SIDE_COLOUR), ("traitor", TRAITOR_SIDE_COLOUR)]
