"""What a statement is found by (docs/model.md#candidates-and-ranking): its words with its speaker as every witness
perceived it ("Melanie: ..."), embedded for the speaker too, and the statement it followed in its conversation, which
only a witness of both holds (the information boundary of docs/perception.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graphmem.importers import load_game_log
from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.logs import parse_game_log
from graphmem.logs.schema import SayEvent
from graphmem.model import default_parameters

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
HEADER: dict[str, Any] = {"kind": "game", "format": "graphmem/1", "game": "g", "players": [
    {"name": "Ann", "role": "faithful"}, {"name": "Bob", "role": "faithful"}, {"name": "Cy", "role": "traitor"}]}


def encode(*events: dict[str, Any]) -> EncodedGame:
    lines = [json.dumps(HEADER)] + [json.dumps(e) for e in events]
    return encode_game(parse_game_log(lines, "test"), default_parameters())


def memory(game: EncodedGame, owner: str, event: str) -> Any:
    return next(m for m in game.memories if m.owner == owner and m.event == event)


def test_a_statement_is_embedded_with_its_speaker_for_every_witness_and_shown_in_the_owners_words() -> None:
    game = encode({"kind": "phase", "day": 1, "name": "social"},
                  {"kind": "say", "id": "s1", "speaker": "Ann", "to": ["Bob"], "channel": "private",
                   "text": "I  play the clarinet."})
    ann, bob = memory(game, "Ann", "s1"), memory(game, "Bob", "s1")
    assert ann.embedded == bob.embedded == "Ann: I play the clarinet."
    assert ann.text.startswith("You told Bob:")
    assert bob.text == '"I  play the clarinet."'  # the quote alone: the prompt's label carries the teller


def test_a_reply_holds_the_statement_it_followed_in_the_same_conversation_and_phase() -> None:
    game = encode({"kind": "phase", "day": 1, "name": "social"},
                  {"kind": "say", "id": "q", "speaker": "Ann", "to": ["Bob"], "channel": "private",
                   "text": "Did the kids like the museum?"},
                  {"kind": "say", "id": "other", "speaker": "Cy", "to": ["Bob"], "channel": "private",
                   "text": "Meet me later."},
                  {"kind": "say", "id": "a", "speaker": "Bob", "to": ["Ann"], "channel": "private",
                   "text": "Yes, they loved it!"},
                  {"kind": "phase", "day": 1, "name": "roundtable"},
                  {"kind": "say", "id": "t", "speaker": "Bob", "to": ["Ann"], "channel": "private",
                   "text": "See you."})
    assert memory(game, "Ann", "a").context == memory(game, "Bob", "a").context == "Did the kids like the museum?"
    assert memory(game, "Ann", "q").context is None, "an opening statement follows nothing"
    assert memory(game, "Bob", "other").context is None, "another conversation (Cy and Bob)"
    assert memory(game, "Bob", "t").context is None, "a new phase starts a new conversation"
    assert all(m.embedded == m.text for m in game.memories if m.kind != "say")


def test_no_memory_holds_words_of_a_statement_its_owner_did_not_perceive() -> None:
    # every context on the example games is the words of an earlier statement of the same phase that the owner holds
    # a memory of: the context never carries what the owner did not hear
    for path in [EXAMPLES / "433y9yyp.jsonl", EXAMPLES / "small-game.jsonl", EXAMPLES / "small-mission-game.jsonl"]:
        log = load_game_log(path)
        game = encode_game(log, default_parameters())
        words = {e.id: (e.phase, " ".join(e.event.text.split())) for e in log.events
                 if isinstance(e.event, SayEvent)}
        held = {(m.owner, m.event) for m in game.memories}
        with_context = [m for m in game.memories if m.context is not None]
        assert with_context or path.name != "433y9yyp.jsonl"
        for m in with_context:
            assert any((m.owner, event) in held and phase == m.t_enc and said == m.context
                       for event, (phase, said) in words.items()), (path, m.uid)
