"""What a live batch writes (graphmem.ingest.live): the rows its events add or change, not every player and phase of
the game again. Each statement a batch runs is Neo4j CPU (bench/README.md, "The test suite's time"), and a stored
row that did not change needs none; tests/integration/test_service.py holds the stored game equal to the same log
ingested from a file."""

from __future__ import annotations

from typing import Any

from graphmem.ingest.encode import EncodedGame
from graphmem.ingest.live import LiveGame
from graphmem.model import default_parameters
from graphmem.store.keys import phase_uid, player_uid

HEADER: dict[str, Any] = {
    "kind": "game", "format": "graphmem/1", "game": "live-rows",
    "players": [{"name": "Ann", "role": "faithful"}, {"name": "Bob", "role": "faithful"},
                {"name": "Cid", "role": "traitor"}],
}


def batch(game: LiveGame, *events: dict[str, Any]) -> EncodedGame:
    return game.apply(game.prepare(events))


def test_a_batch_gives_only_the_players_and_phases_it_changed_and_the_game_row_when_it_changed() -> None:
    game = LiveGame(HEADER, default_parameters(), embedder=None)  # type: ignore[arg-type]  # nothing is embedded here
    opened = game.encoder.take(game.validator.phases)  # what opening the game writes
    assert [p.name for p in opened.players] == ["Ann", "Bob", "Cid"]
    assert [p.index for p in opened.phases] == [0] and opened.game_changed

    said = batch(game, {"kind": "say", "speaker": "Ann", "to": ["Bob", "Cid"], "channel": "public",
                        "text": "Good morning."})
    assert len(said.events) == 1 and said.memories
    assert (said.players, said.phases, said.game_changed) == ([], [], False)

    night = batch(game, {"kind": "phase", "day": 1, "name": "night"})
    assert [p.uid for p in night.phases] == [phase_uid("live-rows", 1)]
    assert night.phases[0].previous == phase_uid("live-rows", 0)
    assert night.game_changed and night.game.last_phase == 1

    murdered = batch(game, {"kind": "murder", "victim": "Bob", "by": ["Cid"]})
    assert player_uid("live-rows", "Bob") in {p.uid for p in murdered.players}
    assert next(p for p in murdered.players if p.name == "Bob").status != "alive"
    assert murdered.phases == [] and not murdered.game_changed

    # a state rebuilt from the stored lines gives nothing more: what it replayed is stored already
    rebuilt = LiveGame.replay(game.header_json(), game.lines, default_parameters(), embedder=None)  # type: ignore[arg-type]
    again = rebuilt.encoder.take(rebuilt.validator.phases)
    assert (again.events, again.players, again.phases, again.game_changed) == ([], [], [], False)
