"""The Lucene query of a topic, for the full-text index ``memory_text``: for whoever searches the index by hand
(``graphmem.store.schema.FULLTEXT_SEARCH``) and for the benchmarks' "lexical only" rankings. Recall itself no longer
asks the index: Lucene's term statistics are global to the database, and a recall's must be the owner's alone
(:mod:`graphmem.recall.lexical`, docs/model.md#candidates-and-ranking).

A topic is free text from a game engine or a user ("Did Marcus (the doctor) lie?"), so every character that the
Lucene query parser treats as syntax is escaped with a backslash, and the operator words ``AND``, ``OR`` and ``NOT``
are lower-cased so that they are searched as words instead of combining clauses. The escaped words are then OR-ed,
Lucene's default, so a memory matching more of the topic's words scores higher.

The words are searched in the memory's text and keywords at full weight and in its ``context`` (the statement a
statement followed) at :data:`graphmem.recall.lexical.CONTEXT_WEIGHT`:
``(text:(w...) keywords:(w...) context:(w...)^0.5) AND scope:T^0``. A topic is bounded to
:data:`graphmem.recall.lexical.MAX_TERMS` distinct words, the longest first (in English a longer word is a rarer one,
so it carries more of the topic): Lucene refuses a query of more than 1,024 clauses, and an agent may pass the last
stretch of its conversation as the topic.

Words that carry no topic (:data:`graphmem.recall.lexical.STOP`, the words recall's own lexical lane leaves out)
are left out: "is" or "a" would match nearly every memory of every game, cost a property read per match (the index is
global; matches are filtered to the owner afterwards) and add only noise to the scores. A topic made of such words
alone is searched as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.recall.lexical import CONTEXT_WEIGHT, MAX_TERMS, STOP

__all__ = ["LUCENE_SPECIAL", "escape_lucene", "lucene_query", "topic_terms"]

_UNBOOSTED = ("text", "keywords")
"""The fields searched at weight 1 (``context`` is boosted by CONTEXT_WEIGHT; lexical.FIELDS names all three)."""

LUCENE_SPECIAL = frozenset('+-&|!(){}[]^"~*?:\\/')
"""Characters with a meaning in Lucene's classic query syntax (``&&`` and ``||`` are covered by ``&`` and ``|``)."""

_OPERATORS = frozenset({"AND", "OR", "NOT"})
_WORD = re.compile(r"\w", re.UNICODE)
_TOKEN = re.compile(r"[a-z][0-9a-z]*")


def escape_lucene(text: str) -> str:
    """``text`` with each Lucene special character backslash-escaped and the operator words lower-cased.

    ``escape_lucene('Marcus AND (Sarah)')`` is ``'Marcus and \\(Sarah\\)'``. Whitespace is collapsed.
    """
    words = []
    for word in text.split():
        escaped = "".join("\\" + ch if ch in LUCENE_SPECIAL else ch for ch in word)
        words.append(escaped.lower() if word in _OPERATORS else escaped)
    return " ".join(words)


def topic_terms(topic: str, limit: int = MAX_TERMS) -> list[str]:
    """The words of ``topic`` to search, escaped (:func:`escape_lucene`): the distinct ones (case-insensitively) that
    are not stop words (:data:`STOP`; all of them when nothing else is left), at most ``limit``, the longest kept
    (ties: the first said), in the order they were said."""
    words = topic.split()
    kept = [w for w in words if re.sub(r"\W", "", w).lower() not in STOP]
    if not any(_WORD.search(w) for w in kept):
        kept = words
    distinct: dict[str, tuple[int, str]] = {}
    for i, word in enumerate(kept):
        if _WORD.search(word):
            distinct.setdefault(word.lower(), (i, word))
    chosen = sorted(distinct.values(), key=lambda iw: (-len(iw[1]), iw[0]))[:limit]
    return [escape_lucene(w) for _, w in sorted(chosen)]


def lucene_query(topic: str | None, scope: str | Sequence[str] | None = None) -> str | None:
    """The query to run for ``topic``, or None when there is nothing to search (no topic, or no word character in
    it: an empty query scores every memory 0, so the index is not asked at all). Stop words are left out (``STOP``)
    unless nothing else is left; at most :data:`MAX_TERMS` words are searched (:func:`topic_terms`), so a topic of
    any length makes a query Lucene accepts.

    scope : the owner's scope token (a letter and hex digits, :func:`graphmem.store.keys.scope_token`), several of
    them (the owners a person was in the games of a series: any of them matches), or None; with it the query is
    ``(words) AND scope:TOKEN^0`` (``scope:(T1 T2 ...)^0``). Raises ValueError for a token that is not a single
    Lucene-safe word, or an empty list of them.
    """
    if topic is None or not _WORD.search(topic):
        return None
    words = " ".join(topic_terms(topic))
    query = " ".join(f"{field}:({words})" for field in _UNBOOSTED) + f" context:({words})^{CONTEXT_WEIGHT}"
    if scope is None:
        return query
    tokens = [scope] if isinstance(scope, str) else list(scope)
    if not tokens:
        raise ValueError("no scope token")
    for token in tokens:
        if not _TOKEN.fullmatch(token):
            raise ValueError(f"not a scope token: {token!r}")
    return f"({query}) AND scope:{tokens[0] if len(tokens) == 1 else '(' + ' '.join(tokens) + ')'}^0"
