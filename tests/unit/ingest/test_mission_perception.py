"""Mission games (docs/log-format.md, docs/perception.md#who-remembers-what, docs/model.md#the-appraisal-table): who
perceives a proposal, a secret vote and an outcome, what a quest's result
means to each side, and the validation of the mission-game events; and the perception of the real Avalon and Mafia
games (the checks of issue 12's "Done when", without a database)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.logs import parse_game_log, read_game_log
from graphmem.model import default_parameters
from tests.conftest import ConvertedGame

ROOT = Path(__file__).resolve().parents[3]
MISSION = ROOT / "examples" / "small-mission-game.jsonl"
HEADER: dict[str, Any] = json.loads(MISSION.read_text(encoding="utf-8").splitlines()[0])


def encode_file(path: Path) -> EncodedGame:
    return encode_game(read_game_log(path), default_parameters())


def encode(*events: dict[str, Any], header: dict[str, Any] = HEADER) -> EncodedGame:
    lines = [json.dumps(header)] + [json.dumps(e) for e in events]
    return encode_game(parse_game_log(lines, "test"), default_parameters())


def problems(*events: dict[str, Any], header: dict[str, Any] = HEADER) -> list[str]:
    with pytest.raises(InvalidGameLog) as info:
        parse_game_log([json.dumps(header)] + [json.dumps(e) for e in events], "test")
    return [str(p) for p in info.value.problems]


def memories(game: EncodedGame, event: str) -> dict[str, Any]:
    return {m.owner: m for m in game.memories if m.event == event}


# --- the hand-written mission game --------------------------------------------------------------------------------

def test_a_proposal_is_seen_by_everyone_and_leaves_the_others_off() -> None:
    game = encode_file(MISSION)
    first = memories(game, "11")
    assert set(first) == {"Alice", "Bob", "Chen", "Dana", "Emil"}
    assert first["Chen"].text == 'You proposed a team of yourself and Dana: "Two volunteers, full accountability."'
    assert first["Dana"].text.startswith("Chen proposed a team of you and Chen:")
    assert first["Alice"].text.startswith("Chen proposed a team of Chen and Dana, leaving you off:")
    # left off: paranoia 0.3 and relevance 0.6, more salient than being on the team (round-table business)
    assert first["Alice"].relevance == pytest.approx(0.6) and json.loads(first["Alice"].emotion_json) == {
        "paranoia": 0.3}
    assert first["Alice"].salience > first["Dana"].salience - 0.05


def test_a_secret_vote_is_remembered_by_its_voter_alone() -> None:
    game = encode_file(MISSION)
    secret = [e for e in game.events if e.secret]
    assert len(secret) == 12 and all(e.witnesses == [e.actor] for e in secret)
    for event in secret:
        assert set(memories(game, event.id)) == {event.actor}
    bob = memories(game, "13")["Bob"]
    assert bob.text == 'You voted to reject the team of Chen and Dana: "Both of them are evil."'
    card = memories(game, "27")["Dana"]
    assert card.text == "You played a fail card on the quest with Alice"


def test_a_failed_quest_frightens_those_on_it_most_and_not_the_side_that_failed_it() -> None:
    game = encode_file(MISSION)
    failed = memories(game, "28")
    assert set(failed) == {"Alice", "Bob", "Chen", "Dana", "Emil"}
    assert failed["Alice"].flashbulb and failed["Alice"].text == "Quest 1 (you, Dana) failed with 1 fail card."
    assert failed["Emil"].text == "Quest 1 (Alice, Dana) failed with 1 fail card."  # the game's words, for Emil
    assert json.loads(failed["Alice"].emotion_json) == {"anger": 0.4, "fear": 0.6}
    assert not failed["Emil"].flashbulb and json.loads(failed["Emil"].emotion_json) == {"fear": 0.4}
    assert json.loads(failed["Dana"].emotion_json) == {} and json.loads(failed["Chen"].emotion_json) == {}
    assert failed["Alice"].salience > failed["Emil"].salience > failed["Chen"].salience
    tally = memories(game, "17")  # a team vote's tally: table business for everyone
    assert {round(m.relevance, 2) for owner, m in tally.items() if owner not in ("Chen", "Dana")} == {0.5}


def test_merlin_knows_the_evil_players_and_nobody_else_does() -> None:
    game = encode_file(MISSION)
    held = {(m.owner, m.text) for m in game.memories if m.kind == "reveal"}
    assert held == {("Bob", "You are Merlin."), ("Bob", "Chen is evil."), ("Bob", "Dana is evil."),
                    ("Chen", "Dana is evil."), ("Dana", "Chen is evil.")}
    assert {m.type for m in game.memories if m.kind == "reveal"} == {"semantic"}


def test_the_evil_discussion_stays_with_the_evil_side_and_the_assassins_pick_is_public() -> None:
    game = encode_file(MISSION)
    assert set(memories(game, "32")) == {"Chen", "Dana"}
    pick = memories(game, "33")
    assert set(pick) == {"Alice", "Bob", "Chen", "Dana", "Emil"}
    assert pick["Bob"].flashbulb and pick["Bob"].text.startswith("Chen voted to assassinate you")


def test_a_side_accusation_is_an_accusation() -> None:
    game = encode_file(MISSION)
    dana = memories(game, "30")["Dana"]  # Alice: "I played success. Dana is evil."
    assert json.loads(dana.claims_json) == [["Dana", "side", "evil", True]]
    assert dana.flashbulb and json.loads(dana.emotion_json) == {"anger": 0.5, "fear": 0.7}


# --- validation of the mission-game events ------------------------------------------------------------------------

def test_a_secret_vote_may_name_no_other_witness() -> None:
    vote = {"kind": "vote", "voter": "Alice", "ballot": "quest", "choice": "success", "secret": True}
    assert encode(vote | {"witnesses": ["Alice"]}).events[0].witnesses == ["Alice"]
    assert problems(vote | {"witnesses": ["Alice", "Bob"]}) == [
        "line 2: a secret vote is seen by its voter alone, but witnesses also names Bob"]


def test_a_team_is_proposed_by_and_of_players_in_the_game_each_once() -> None:
    assert problems({"kind": "propose", "leader": "Bob", "team": ["Alice", "Alice"]}) == [
        "line 2, field 'team': names Alice more than once"]
    assert problems({"kind": "propose", "leader": "Zed", "team": ["Alice"]}) == [
        "line 2, field 'leader': unknown player 'Zed'; players: Alice, Bob, Chen, Dana, Emil"]
    assert problems({"kind": "propose", "leader": "Bob", "team": []}) == [
        "line 2, field 'team': List should have at least 1 item after validation, not 0"]


def test_a_reveal_may_name_the_players_side_but_not_the_other_side() -> None:
    ok = encode({"kind": "reveal", "player": "Chen", "role": "evil", "witnesses": ["Bob"]},
                {"kind": "reveal", "player": "Alice", "role": "good", "witnesses": ["Bob"]})
    assert [m.text for m in ok.memories] == ["Chen is evil.", "Alice is good."]
    assert problems({"kind": "reveal", "player": "Chen", "role": "good"}) == [
        "line 2, field 'role': reveals Chen as 'good', but Chen's role is 'assassin' (side 'evil') (in the header)"]


def test_side_names_must_not_name_the_other_sides_roles() -> None:
    header = HEADER | {"side_names": {"traitor": "loyal servant", "faithful": "good"}}
    assert problems(header=header) == [
        "line 1: side_names.traitor is 'loyal servant', a role of the other side: a reveal or claim of "
        "'loyal servant' would name both sides"]
    assert problems(header=HEADER | {"side_names": {"traitor": "evil", "faithful": "Evil"}}) == [
        "line 1, field 'side_names': the two sides need different names, got 'evil' twice"]


# --- the real games: Avalon and Mafia, every game of the shared corpus (or of examples/) -------------------------

def _encoded(corpus: tuple[ConvertedGame, ...]) -> list[tuple[Any, EncodedGame]]:
    return [(g.log, encode_game(g.log, default_parameters())) for g in corpus]


@pytest.mark.slow
def test_avalon_a_loyal_servant_holds_no_other_players_card_nor_the_evil_discussion(
        avalon_corpus: tuple[ConvertedGame, ...]) -> None:
    games = _encoded(avalon_corpus)
    merlins = 0
    for log, game in games:
        roles = log.header.roles
        events = {e.uid: e for e in game.events}
        evil = {p for p, r in roles.items() if r in log.header.traitor_roles}
        for m in game.memories:
            event = events[m.event_uid]
            if event.secret:
                assert m.owner == event.actor, (log.game, m.uid)
            if event.channel == "traitors":
                assert m.owner in evil, (log.game, m.uid)
        # Merlin knows who is evil from the start, except Mordred; each evil player knows the others, except Oberon
        knows = {(m.owner, m.about[0]) for m in game.memories if m.kind == "reveal" and m.t_enc == 0 and
                 m.text.endswith("is evil.")}
        merlin = next(p for p, r in roles.items() if r == "Merlin")
        assert {p for o, p in knows if o == merlin} == evil - {p for p, r in roles.items() if r == "Mordred"}
        merlins += 1
        for player in evil - {p for p, r in roles.items() if r == "Oberon"}:
            seen = {p for o, p in knows if o == player}
            assert seen == evil - {player} - {p for p, r in roles.items() if r == "Oberon"}, (log.game, player)
        # a loyal servant learns nobody's role before the end; at the end every other player's
        servants = [p for p, r in roles.items() if r == "loyal servant"]
        at_end = {e.uid for e in game.events if e.kind == "reveal" and e.id.startswith("end-role-")}
        assert not any(m.owner in servants and m.kind == "reveal" and m.about and m.event_uid not in at_end
                       for m in game.memories)
        for servant in servants:
            learnt = {(m.about[0], m.text) for m in game.memories if m.owner == servant and m.event_uid in at_end}
            assert {name for name, _ in learnt} == set(roles) - {servant}, (log.game, servant)
    assert merlins == len(games) >= 2


@pytest.mark.slow
def test_mafia_a_bystander_holds_no_memory_of_the_night(mafia_corpus: tuple[ConvertedGame, ...]) -> None:
    games = _encoded(mafia_corpus)
    night_talk = 0
    for log, game in games:
        events = {e.uid: e for e in game.events}
        mafia = {p for p, r in log.header.roles.items() if r == "mafia"}
        for m in game.memories:
            event = events[m.event_uid]
            if event.channel == "traitors" or event.ballot == "murder":
                assert m.owner in mafia, (log.game, m.uid)
                night_talk += 1
    assert night_talk > 50
