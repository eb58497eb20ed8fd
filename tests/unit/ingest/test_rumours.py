"""Rumour chains (docs/perception.md#rumour-chains) with hand-made embeddings: the origin is the teller's most similar
earlier memory."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.ingest.rumours import link_rumours
from graphmem.logs import parse_game_log
from graphmem.model import default_parameters

HEADER = {"kind": "game", "format": "graphmem/1", "game": "g", "players": [
    {"name": "Ann", "role": "faithful"}, {"name": "Bob", "role": "faithful"}, {"name": "Cid", "role": "traitor"}]}
EVENTS: list[dict[str, Any]] = [
    {"kind": "say", "id": "s1", "speaker": "Ann", "to": ["Bob"], "channel": "private", "text": "Cid is a traitor."},
    {"kind": "say", "id": "s2", "speaker": "Bob", "to": ["Cid"], "channel": "private", "text": "Ann says Cid is bad."},
    {"kind": "say", "id": "s3", "speaker": "Bob", "to": ["Ann"], "channel": "private", "text": "Lovely weather.",
     "claims": [{"subject": "Cid", "predicate": "role", "object": "traitor"}]},
]


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def vectors_for(game: EncodedGame, table: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {m.uid: table[m.event] for m in game.memories}


def test_listener_memory_derives_from_the_tellers_similar_earlier_memory() -> None:
    game = encode_game(parse_game_log([json.dumps(HEADER)] + [json.dumps(e) for e in EVENTS[:2]], "t"),
                       default_parameters())
    rows = link_rumours(game, vectors_for(game, {"s1": unit(1, 0.1, 0), "s2": unit(1, 0.2, 0)}), 0.75)
    assert [(r.memory_uid, r.origin_uid, r.via) for r in rows] == [
        ("g/memory/Cid/s2", "g/memory/Bob/s1", "embedding")]
    assert 0.75 <= rows[0].similarity <= 1.0


def test_dissimilar_statement_has_no_origin_unless_it_repeats_a_claim() -> None:
    plain = EVENTS[:2]
    game = encode_game(parse_game_log([json.dumps(HEADER)] + [json.dumps(e) for e in plain], "t"),
                       default_parameters())
    assert link_rumours(game, vectors_for(game, {"s1": unit(1, 0, 0), "s2": unit(0, 1, 0)}), 0.75) == []
    claimed = [dict(EVENTS[0], claims=[{"subject": "Cid", "predicate": "role", "object": "traitor"}]), EVENTS[2]]
    game = encode_game(parse_game_log([json.dumps(HEADER)] + [json.dumps(e) for e in claimed], "t"),
                       default_parameters())
    rows = link_rumours(game, vectors_for(game, {"s1": unit(1, 0, 0), "s3": unit(0, 1, 0)}), 0.75)
    assert [(r.memory_uid, r.origin_uid, r.via) for r in rows] == [("g/memory/Ann/s3", "g/memory/Bob/s1", "claim")]


def test_a_tellers_later_memories_are_never_an_origin() -> None:
    game = encode_game(parse_game_log([json.dumps(HEADER)] + [json.dumps(e) for e in EVENTS[:2]], "t"),
                       default_parameters())
    # Ann's only other memory (s1 is her own statement) comes before; Bob's statement s2 comes after s1:
    rows = link_rumours(game, vectors_for(game, {"s1": unit(1, 0, 0), "s2": unit(1, 0, 0)}), 0.75)
    assert all(r.origin_uid != "g/memory/Ann/s2" for r in rows)
    assert {r.memory_uid for r in rows} == {"g/memory/Cid/s2"}
