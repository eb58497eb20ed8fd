"""How a game's write is cut into transactions (graphmem.store.writer): the statements' batches packed in order into
transactions of at most ``batch_size`` rows, so that a small game is one transaction (one move fence and one commit
in Neo4j) instead of one per statement; tests/integration/test_ingest.py holds what is stored."""

from __future__ import annotations

from typing import Any

from graphmem.store.writer import _transactions


def rows(n: int) -> dict[str, Any]:
    return {"rows": [{"i": i} for i in range(n)]}


def shape(transactions: list[list[tuple[str, dict[str, Any]]]]) -> list[list[tuple[str, int]]]:
    return [[(name, len(params.get("rows", []))) for name, params in t] for t in transactions]


def test_a_small_game_is_one_transaction_in_statement_order() -> None:
    statements = [("write_game", {"row": {}}), ("write_players", rows(8)), ("write_phases", rows(0)),
                  ("write_events", rows(100)), ("write_memories", rows(400)), ("write_told", rows(130))]
    assert shape(_transactions(statements, 1000)) == [
        [("write_game", 0), ("write_players", 8), ("write_events", 100), ("write_memories", 400), ("write_told", 130)]]


def test_no_transaction_holds_more_rows_than_the_batch_size_and_nothing_is_lost_or_reordered() -> None:
    statements = [("write_game", {"row": {}}), ("write_events", rows(250)), ("write_memories", rows(700)),
                  ("write_told", rows(40))]
    packed = _transactions(statements, 300)
    assert shape(packed) == [[("write_game", 0), ("write_events", 250)], [("write_memories", 300)],
                             [("write_memories", 300)], [("write_memories", 100), ("write_told", 40)]]
    memories = [r["i"] for t in packed for name, p in t if name == "write_memories" for r in p["rows"]]
    assert memories == list(range(700))
