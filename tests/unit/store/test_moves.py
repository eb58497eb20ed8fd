"""The pure parts of a move (graphmem.store.moves): which label keys a copied node, and the instants of the drain."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.errors import GameConflict
from graphmem.store.moves import _instant, _uid_label


def test_a_copied_node_is_keyed_by_its_uid_label_whatever_else_it_carries() -> None:
    assert _uid_label(["Summary", "Memory"]) == "Memory"
    assert _uid_label(["Person"]) == "Person"
    with pytest.raises(GameConflict, match="no uid label"):
        _uid_label(["Stranger"])


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-12-07T14:53:03.647Z", datetime(2026, 12, 7, 14, 53, 3, 647000, timezone.utc)),
    ("2026-12-07T14:53:03Z", datetime(2026, 12, 7, 14, 53, 3, 0, timezone.utc)),
    ("2026-12-07T14:53:03.647123456Z", datetime(2026, 12, 7, 14, 53, 3, 647123, timezone.utc)),
    ("2026-12-07T15:53:03.6+01:00", datetime(2026, 12, 7, 14, 53, 3, 600000, timezone.utc)),
])
def test_the_drain_reads_neo4j_instants_to_the_microsecond(text: str, expected: datetime) -> None:
    assert _instant(text) == expected
