"""The Lucene query of a recall topic, for the full-text index ``memory_text`` (docs/model.md#candidates-and-ranking,
lexical half).

A topic is free text from a game engine or a user ("Did Marcus (the doctor) lie?"), so every character that the
Lucene query parser treats as syntax is escaped with a backslash, and the operator words ``AND``, ``OR`` and ``NOT``
are lower-cased so that they are searched as words instead of combining clauses. The escaped words are then OR-ed,
Lucene's default, so a memory matching more of the topic's words scores higher.

Words that carry no topic (Lucene's classic English stop words, pronouns, question and auxiliary words: ``STOP``)
are left out: the index's analyzer (``standard-no-stop-words``) keeps them, so "is" or "a" would match nearly every
memory of every game, cost a property read per match (the index is global; matches are filtered to the owner
afterwards) and add only noise to the scores. A topic made of such words alone is searched as it is.
"""

from __future__ import annotations

import re

__all__ = ["LUCENE_SPECIAL", "STOP", "escape_lucene", "lucene_query"]

LUCENE_SPECIAL = frozenset('+-&|!(){}[]^"~*?:\\/')
"""Characters with a meaning in Lucene's classic query syntax (``&&`` and ``||`` are covered by ``&`` and ``|``)."""

_OPERATORS = frozenset({"AND", "OR", "NOT"})
STOP = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these they "
    "this to was will with i me my mine you your yours he him his she her hers we us our they them who whom whose "
    "what which when where why how do does did done has have had am been being were would should could can "
    "about any some so just than too very".split())
"""Words left out of the query (matched case-insensitively)."""
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


def lucene_query(topic: str | None, scope: str | None = None) -> str | None:
    """The query to run for ``topic``, or None when there is nothing to search (no topic, or no word character in
    it: an empty query scores every memory 0, so the index is not asked at all). Stop words are left out (``STOP``)
    unless nothing else is left.

    scope : the owner's scope token (a letter and hex digits, :func:`graphmem.ingest.records.scope_token`) or
    None; with it the query is ``(words) AND scope:TOKEN^0``. Raises ValueError for a token that is not a single
    Lucene-safe word.
    """
    if topic is None or not _WORD.search(topic):
        return None
    words = topic.split()
    kept = [w for w in words if re.sub(r"\W", "", w).lower() not in STOP]
    query = escape_lucene(" ".join(kept if any(_WORD.search(w) for w in kept) else words))
    if scope is None:
        return query
    if not _TOKEN.fullmatch(scope):
        raise ValueError(f"not a scope token: {scope!r}")
    return f"({query}) AND scope:{scope}^0"
