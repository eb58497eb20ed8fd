"""Which games ``graphmem model people`` compares (graphmem.validation.study.decisions_of): games of people only,
one kind at a time, each once; refused before anything runs, with the games named."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.importers import discover, load_game_log
from graphmem.logs.reader import GameLog
from graphmem.validation.study import decisions_of

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def logs(folder: str) -> list[GameLog]:
    return [load_game_log(path, fmt) for path, fmt in discover([EXAMPLES / folder])]


def test_avalon_games_of_people_are_compared_on_their_beliefs_and_mafia_games_on_their_votes() -> None:
    assert decisions_of(logs("avalon-nlu")) == "beliefs"  # 3YjxjN, without a beliefs table, belongs too
    assert decisions_of(logs("llmafia")) == "votes"


@pytest.mark.parametrize("folder", ["werewolf-arena", "traitors-llm", "avalon-llm"])
def test_games_of_agents_are_not_called_people(folder: str) -> None:
    with pytest.raises(ValueError, match="not games of people") as refused:
        decisions_of(logs(folder))
    assert logs(folder)[0].game in str(refused.value)


def test_a_game_given_twice_and_the_two_kinds_mixed_are_refused() -> None:
    avalon = logs("avalon-nlu")
    with pytest.raises(ValueError, match="avalon-nlu-9avmeG given more than once"):
        decisions_of([*avalon, avalon[1]])
    with pytest.raises(ValueError, match="two comparisons"):
        decisions_of([*avalon, *logs("llmafia")])
