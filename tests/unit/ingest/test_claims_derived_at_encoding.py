"""Claims derived at encoding time (docs/perception.md#claims): a statement with no ``claims`` key in a native log gets
the claims of its text; ``"claims": []`` means none; an importer's log is stored exactly as converted; the log is
unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphmem.claims.extract import ClaimExtractor, derived_claims, game_roles
from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.logs import parse_game_log
from graphmem.logs.schema import GameHeader, SayEvent
from graphmem.logs.writer import game_log_lines, log_sha256
from graphmem.model import default_parameters
from tests.conftest import ConvertedGame

HEADER: dict[str, Any] = {"kind": "game", "format": "graphmem/1", "game": "g", "players": [
    {"name": "Zoë", "role": "traitor"}, {"name": "Ann", "role": "faithful"}, {"name": "Bob", "role": "faithful"}]}
ACCUSE: dict[str, Any] = {"kind": "say", "id": "s1", "speaker": "Ann", "to": "all", "channel": "roundtable",
                          "text": "Zoë is a traitor."}
ZOE_TRAITOR = ["Zoë", "role", "traitor", True]


def lines(*events: dict[str, Any], header: dict[str, Any] | None = None) -> list[str]:
    return [json.dumps(header or HEADER, ensure_ascii=False)] + [json.dumps(e, ensure_ascii=False) for e in events]


def encode(*events: dict[str, Any], header: dict[str, Any] | None = None) -> EncodedGame:
    return encode_game(parse_game_log(lines(*events, header=header), "test"), default_parameters())


def event_claims(game: EncodedGame, event_id: str) -> list[list[object]]:
    return [json.loads(e.claims_json) for e in game.events if e.id == event_id][0]  # type: ignore[no-any-return]


def test_a_statement_without_claims_is_encoded_with_the_claims_of_its_text() -> None:
    game = encode(ACCUSE)
    assert event_claims(game, "s1") == [ZOE_TRAITOR]
    # stored as written, not "Zo\u00eb": the analysis queries find a claim by the player's name in claims_json
    assert '["Zoë", "role", "traitor", true]' in next(e.claims_json for e in game.events if e.id == "s1")
    assert {m.owner: json.loads(m.claims_json) for m in game.memories} == {
        "Zoë": [ZOE_TRAITOR], "Ann": [ZOE_TRAITOR], "Bob": [ZOE_TRAITOR]}
    # docs/model.md#the-appraisal-table: Zoë is accused (an accusation with fear 0.7 is a flashbulb for her) and thinks
    # about it
    assert [(t.player, t.trigger) for t in game.thoughts] == [("Zoë", "flashbulb")]
    unclaimed = encode({**ACCUSE, "claims": []})
    zoe = {m.owner: m.salience for m in game.memories}["Zoë"]
    assert zoe > {m.owner: m.salience for m in unclaimed.memories}["Zoë"]
    assert {m.owner: m.type for m in game.memories}["Bob"] == "semantic"  # a role claim is a factual claim
    assert [s.claims for s in game.statements] == [(("Zoë", "role", "traitor", True, None),)]


def test_explicit_empty_claims_mean_none() -> None:
    game = encode({**ACCUSE, "claims": []})
    assert event_claims(game, "s1") == []
    assert all(m.claims_json == "[]" for m in game.memories)
    assert game.thoughts == []


def test_derived_claims_encode_exactly_as_the_same_claims_given() -> None:
    given = {**ACCUSE, "claims": [{"subject": "Zoë", "predicate": "role", "object": "traitor", "polarity": True}]}
    assert encode(ACCUSE) == encode(given)


def test_a_banish_vote_claims_its_own_vote_and_a_reason_adds_the_claims_of_its_words() -> None:
    # The vote itself says who the voter voted for (as the traitors-plomp importer writes it): without it a later
    # "I voted for Bob" lie about this vote had nothing to contradict (found by a new user).
    game = encode({"kind": "vote", "id": "v1", "voter": "Ann", "target": "Zoë", "ballot": "banish",
                   "text": "I voted for Zoë because Bob isn't a traitor."},
                  {"kind": "vote", "id": "v2", "voter": "Bob", "target": "Zoë", "ballot": "banish"},
                  {"kind": "vote", "id": "v3", "voter": "Zoë", "target": "Bob", "ballot": "murder"},
                  {"kind": "vote", "id": "v4", "voter": "Bob", "target": "Ann", "ballot": "banish", "claims": []})
    # each about the round of the day they were cast on (day 0 here: the events come before any phase)
    assert event_claims(game, "v1") == [["Ann", "voted_for", "Zoë", True, 0], ["Bob", "role", "traitor", False]]
    assert event_claims(game, "v2") == [["Bob", "voted_for", "Zoë", True, 0]]
    assert event_claims(game, "v3") == []  # a murder vote is no banishment vote
    assert event_claims(game, "v4") == []  # "claims": [] means none


def test_narration_is_not_a_statement() -> None:
    game = encode({"kind": "observe", "id": "o1", "observers": ["Ann"], "text": "Zoë is a traitor."},
                  {"kind": "end", "id": "e1", "winner": "traitors", "text": "Zoë was a traitor."})
    assert event_claims(game, "o1") == [] and event_claims(game, "e1") == []


def test_an_importers_log_keeps_the_claims_it_was_converted_with() -> None:
    game = encode(ACCUSE, header={**HEADER, "imported_from": "traitors-plomp"})
    assert event_claims(game, "s1") == []


def test_the_log_its_canonical_lines_and_its_hash_stay_as_written() -> None:
    log = parse_game_log(lines(ACCUSE), "test")
    before = list(game_log_lines(log))
    encode_game(log, default_parameters())
    assert list(game_log_lines(log)) == before
    assert "claims" not in json.loads(before[1])
    assert log_sha256(log) == log_sha256(parse_game_log(lines(ACCUSE), "again"))


def test_an_explicit_empty_claims_list_is_written_back_and_hashed() -> None:
    explicit = parse_game_log(lines({**ACCUSE, "claims": []}), "test")
    assert json.loads(list(game_log_lines(explicit))[1])["claims"] == []
    again = parse_game_log(list(game_log_lines(explicit)), "again")
    assert "claims" in again.events[0].event.model_fields_set
    assert log_sha256(explicit) == log_sha256(again) != log_sha256(parse_game_log(lines(ACCUSE), "absent"))


def test_derived_claims_reads_only_an_absent_claims_key() -> None:
    extractor = ClaimExtractor(["Zoë", "Ann"])
    absent = SayEvent.model_validate({**ACCUSE, "to": "all"})
    empty = SayEvent.model_validate({**ACCUSE, "claims": []})
    assert [c.subject for c in derived_claims(absent, extractor) or ()] == ["Zoë"]
    assert derived_claims(empty, extractor) is None
    assert derived_claims(SayEvent.model_validate({**ACCUSE, "text": "Hello."}), extractor) is None


def test_game_roles_are_the_traitors_words_then_the_headers() -> None:
    assert game_roles(GameHeader.model_validate(HEADER)) == ("traitor", "faithful")
    werewolf = {**HEADER, "players": [{"name": "Zoë", "role": "werewolf"}, {"name": "Ann", "role": "Seer"},
                                      {"name": "Bob", "role": "villager"}]}
    assert game_roles(GameHeader.model_validate(werewolf)) == ("traitor", "faithful", "werewolf", "Seer",
                                                               "villager")
    game = encode({**ACCUSE, "text": "I'm the seer. Zoë is a werewolf."}, header=werewolf)
    # the role as the header spells it, so that the claim names the role the queries compare it with
    assert event_claims(game, "s1") == [["Ann", "role", "Seer", True], ["Zoë", "role", "werewolf", True]]


def test_a_side_name_that_is_no_role_gives_side_claims() -> None:
    avalon = {**HEADER, "traitor_roles": ["assassin"], "side_names": {"traitor": "evil", "faithful": "good"},
              "players": [{"name": "Zoë", "role": "assassin"}, {"name": "Ann", "role": "Merlin"},
                          {"name": "Bob", "role": "loyal servant"}]}
    game = encode({**ACCUSE, "text": "I'm good. Zoë is evil, and Bob is not evil. Ann is Merlin."}, header=avalon)
    assert event_claims(game, "s1") == [["Ann", "side", "good", True], ["Zoë", "side", "evil", True],
                                        ["Bob", "side", "evil", False], ["Ann", "role", "Merlin", True]]


@pytest.mark.slow
def test_the_real_games_store_exactly_the_claims_their_importer_wrote(traitors_corpus: tuple[ConvertedGame, ...]) -> None:
    """The traitors-plomp importer leaves out claims where it found none and on murder and end-game vote reasons
    (on purpose); encoding must not derive any there. Some of those reasons would give claims if it did (433y9yyp:
    Riley's end-game vote "I'm a traitor and ..."), so the check is not empty."""
    params = default_parameters()
    would_change = 0
    for log in (g.log for g in traitors_corpus):
        extractor = ClaimExtractor(log.header.player_names, game_roles(log.header))
        written = {logged.id: json.dumps([[c.subject, c.predicate, c.object, c.polarity]
                                          + ([c.round] if c.round is not None else [])
                                          for c in getattr(logged.event, "claims", ())], ensure_ascii=False)
                   for logged in log.events}
        would_change += sum(derived_claims(logged.event, extractor) is not None for logged in log.events)
        game = encode_game(log, params)
        assert {e.id: e.claims_json for e in game.events} == {e.id: written[e.id] for e in game.events}
        assert all(m.claims_json == written[m.event] for m in game.memories if m.event is not None)
    assert would_change > 0
