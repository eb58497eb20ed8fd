"""The Lucene query of a recall topic: special characters escaped, operators searched as words."""

from __future__ import annotations

from graphmem.recall.lucene import LUCENE_SPECIAL, escape_lucene, lucene_query


def test_every_special_character_is_escaped() -> None:
    for ch in LUCENE_SPECIAL:
        assert escape_lucene(f"a{ch}b") == f"a\\{ch}b"


def test_operators_become_words_and_whitespace_collapses() -> None:
    assert escape_lucene("Marcus AND (Sarah)  OR NOT x") == "Marcus and \\(Sarah\\) or not x"
    assert escape_lucene('"quoted" ~2 title:x') == '\\"quoted\\" \\~2 title\\:x'


def test_no_query_without_words() -> None:
    assert lucene_query(None) is None
    assert lucene_query("   ") is None
    assert lucene_query("?!*") is None
    assert lucene_query("Marcus?") == "Marcus\\?"


def test_stop_words_are_left_out_unless_nothing_else_is_left() -> None:
    assert lucene_query("Is Marcus a traitor?") == "Marcus traitor\\?"
    assert lucene_query("Who did it?") == "Who did it\\?"
    assert lucene_query("what about (Sarah)") == "\\(Sarah\\)"
