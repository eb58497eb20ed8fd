"""The date route of recall through the store (docs/model.md#candidates-and-ranking): a statement logged with a time
(the event's ``t``) is found by a question naming its date, as a person recalls what they were told on a given day."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

SAID = (("e1", "2023-05-01T10:00:00", "I went hiking in the hills with my sister."),
        ("e2", "2023-05-08T18:30:00", "I went hiking in the forest with my dog."),
        ("e3", "2023-06-20T09:15:00", "I went hiking by the lake with my kids."),
        ("e4", None, "I went hiking near the coast with a friend."))
"""(event id, time logged, what Ben told Ana): four hikes alike in words and meaning; the fourth logged without a time."""


def _log(folder: Path, game: str) -> Path:
    lines: list[dict[str, Any]] = [
        {"kind": "game", "format": "graphmem/1", "game": game, "title": "dated hikes",
         "players": [{"name": "Ana", "role": "faithful", "profile": "perfect"},
                     {"name": "Ben", "role": "faithful", "profile": "perfect"}]},
        {"kind": "phase", "day": 1, "name": "talk"}]
    for event, t, text in SAID:
        lines.append({"kind": "say", "id": event, **({"t": t} if t else {}), "speaker": "Ben", "to": ["Ana"],
                      "channel": "private", "text": text, "claims": []})
    path = folder / f"{game}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_question_naming_a_date_finds_what_was_said_that_day_or_the_week_after(memory: Any, tmp_path: Path) -> None:
    game = f"dated-{uuid.uuid4().hex[:8]}"
    memory.ingest(_log(tmp_path, game))
    try:
        def first(topic: str) -> str:
            return str(memory.recall(game, "Ana", topic, dry_run=True, k=4).memories[0].event)

        assert first("Where did Ben go hiking on 8 May, 2023?") == "e2"
        # told on the 8th, in the week after the 5th ("last weekend I went hiking"); the hike told on the 1st is not
        assert first("Where did Ben go hiking on May 5, 2023?") == "e2"
        assert first("Where did Ben go hiking in June 2023?") == "e3"
        assert first("Where did Ben go hiking on 1 May, 2023?") == "e1"
        # no date named: the content alone ranks (the lake, named, wins whatever the dates)
        assert first("Where did Ben go hiking by the lake?") == "e3"
        # a date named that nothing was logged in moves nothing: the same order as without it
        order = [m.event for m in memory.recall(game, "Ana", "Where did Ben go hiking?", dry_run=True, k=4).memories]
        assert [m.event for m in memory.recall(game, "Ana", "Where did Ben go hiking in 2019?", dry_run=True,
                                               k=4).memories] == order
    finally:
        memory.delete(game)
