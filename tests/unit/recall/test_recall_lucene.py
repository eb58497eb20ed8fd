"""The Lucene query of a recall topic: special characters escaped, operators searched as words."""

from __future__ import annotations

import pytest

from graphmem.recall.lexical import MAX_TERMS
from graphmem.recall.lucene import LUCENE_SPECIAL, escape_lucene, lucene_query, topic_terms
from graphmem.store.keys import scope_token


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
    assert lucene_query("Marcus?") == "text:(Marcus\\?) keywords:(Marcus\\?) context:(Marcus\\?)^0.5"


def test_stop_words_are_left_out_unless_nothing_else_is_left() -> None:
    assert topic_terms("Is Marcus a traitor?") == ["Marcus", "traitor\\?"]
    assert topic_terms("Who did it?") == ["Who", "did", "it\\?"]
    assert topic_terms("what about (Sarah)") == ["\\(Sarah\\)"]
    assert topic_terms("Marcus and marcus MARCUS") == ["Marcus"], "each word once"


def test_a_topic_of_any_length_keeps_its_longest_words_within_lucenes_clause_limit() -> None:
    # an agent passing its last stretch of conversation as the topic: Lucene refuses over 1,024 clauses
    topic = " ".join(f"w{i}" for i in range(2000)) + " extraordinarily"
    terms = topic_terms(topic)
    assert len(terms) == MAX_TERMS and "extraordinarily" in terms
    query = lucene_query(topic, scope_token("g", "Ann"))
    assert query is not None and query.count("w1") < 3 * MAX_TERMS


def test_a_scope_token_filters_the_owner_without_scoring() -> None:
    token = scope_token("game-1/x", "Ann O'Neil")
    words = "Marcus traitor\\?"
    assert lucene_query("Is Marcus a traitor?", token) == \
        f"(text:({words}) keywords:({words}) context:({words})^0.5) AND scope:{token}^0"
    assert lucene_query("???", token) is None and lucene_query(None, token) is None
    with pytest.raises(ValueError, match="not a scope token"):
        lucene_query("Marcus", "s1 OR text:x")


def test_scope_tokens_are_one_lucene_word_per_owner() -> None:
    a, b = scope_token("g", "Ann"), scope_token("g", "Ben")
    assert a != b and a != scope_token("h", "Ann") and a == scope_token("g", "Ann")
    for token in (a, b, scope_token("game with spaces/and-slashes", "Zoë (the doctor)")):
        assert len(token) == 21 and token[0] == "s" and token.isalnum() and token == token.lower()
        assert escape_lucene(token) == token


def test_a_series_recall_searches_every_earlier_self_of_the_owner_at_once() -> None:
    # docs/model.md#series-of-games: one full-text query over the owner's scopes in every game of the series
    tokens = [scope_token("g-1", "Alice"), scope_token("g-2", "alice")]
    query = lucene_query("Charlie lied", tokens)
    assert query is not None and query.endswith(f"AND scope:({tokens[0]} {tokens[1]})^0")
    assert lucene_query("Charlie lied", tokens[:1]) == lucene_query("Charlie lied", tokens[0])
    with pytest.raises(ValueError, match="no scope token"):
        lucene_query("Charlie", [])
    with pytest.raises(ValueError, match="not a scope token"):
        lucene_query("Charlie", [tokens[0], "a b"])
