"""The neighbourhood of a statement in its conversation (docs/model.md#candidates-and-ranking): which of the owner's
candidates was said right before and right after each one in the same conversation.

People recall a statement through what was said around it: a reply is remembered with the question it answers, and
a question about the reply's subject that names only what the question said still finds the reply (the contiguity
effect of free recall: Kahana 1996, "Associative retrieval processes in free recall"; Howard & Kahana 2002, "A
distributed representation of temporal context"). Recall gives each candidate a share of its best neighbour's
content relevance (:func:`graphmem.recall.ranking.score_candidates`).

A conversation is what :func:`graphmem.ingest.encode` calls one when it sets a statement's ``context``: the same
phase and channel, and for a private channel the same people (speaker and addressees, in either direction). Its
statements are ordered by their line in the log. Neighbours are taken among the owner's candidates only: a statement
the owner never heard, or has forgotten past any cue, is no part of the owner's memory and joins nothing (the
information boundary, and what the owner can still bring back). Memories that are not statements (votes, deaths,
summaries) have no neighbours.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["NO_TALK", "conversation_key", "neighbours"]

NO_TALK = 0
"""The conversation id of a memory that is no statement (or was stored without its event)."""

_Ints = npt.NDArray[np.int64]


def conversation_key(said: Mapping[str, Any] | None) -> tuple[Hashable, ...] | None:
    """The conversation of a statement, from ``recall/embeddings``' ``said`` ({phase, line, channel, witnesses}):
    (phase, channel, the people in it for a private channel, else ()); None for no statement."""
    if said is None or said.get("phase") is None or said.get("line") is None:
        return None
    channel = said.get("channel")
    people = tuple(sorted(said.get("witnesses") or ())) if channel == "private" else ()
    return int(said["phase"]), channel, people


def neighbours(talks: _Ints, lines: _Ints) -> npt.NDArray[np.intp]:
    """Each candidate's neighbours in its conversation among the candidates given: an array of shape (n, 2), the
    index of the candidate said right before (column 0) and right after (column 1), -1 for none.

    talks : int64, shape (n,), each candidate's conversation id (:data:`NO_TALK` for no statement: no neighbours);
    lines : int64, shape (n,), each candidate's line in the log (the order within a conversation). Candidates of
    different games must carry different conversation ids. Depends only on the values, never on the order the
    candidates come in (ties of line, which a log cannot have, are broken by position).
    """
    n = talks.shape[0]
    out = np.full((n, 2), -1, dtype=np.intp)
    if n < 2:
        return out
    order = np.lexsort((np.arange(n), lines, talks))
    sorted_talks = talks[order]
    same = (sorted_talks[1:] == sorted_talks[:-1]) & (sorted_talks[1:] != NO_TALK)
    before, after = order[:-1][same], order[1:][same]
    out[after, 0] = before
    out[before, 1] = after
    return out
