"""Cued recall: whether a memory can be retrieved, from its strength and how well the cue matches it
(docs/model.md#cued-recall-which-memories-come-back).

A memory can be retrieved when

    m >= max(vague_floor, RetrievalThreshold) * (1 - CueSupport * relevance)

where ``m`` is its strength at the recall phase, ``relevance`` in [0, 1] is how well the recall's topic and
participants match it (the relevance of the ranking, docs/model.md#candidates-and-ranking), ``vague_floor`` is 0.15 and
``CueSupport`` is 0.5 (``parameters.recall.cue_support``). Flashbulbs can always be retrieved.

Without a cue (relevance 0) this is free recall, the rule graphmem always had: the memory needs the strength of
the VAGUE band. A cue lowers the bar in proportion to how well it matches, down to ``1 - CueSupport`` of it
(half, by default) for a perfect match: a strongly matching memory that has faded out of free recall comes back,
an unrelated one does not. A memory whose strength is below ``max(vague_floor, threshold) * (1 - CueSupport)``
cannot come back whatever the cue (:func:`cue_floor`): it is forgotten.

What the cue never changes is the clarity marker: it reflects strength alone
(docs/model.md#cued-recall-which-memories-come-back), and a memory
retrieved below its VAGUE band shows ``[VAGUE]`` (:func:`recall_marker`): a cue brings back a faint memory, it
does not make it clear.

Sources: Tulving & Thomson 1973 (encoding specificity: a retrieval cue that matches how an event was encoded
retrieves what free recall cannot); Anderson & Lebiere 1998 (ACT-R: a chunk is retrieved when its activation,
base-level activation plus the spreading activation from the cue's elements, exceeds a threshold). Here strength
plays the base level and the rule is multiplicative, ``m / (1 - CueSupport * relevance) >= threshold``, so that
strength and cue stay in [0, 1] and the free-recall rule is the special case of no cue.
"""

from __future__ import annotations

from graphmem.model._checks import check_unit
from graphmem.model.clarity import clarity_marker, vague_floor
from graphmem.model.params import Parameters, resolve
from graphmem.model.vocabulary import Marker

__all__ = ["can_retrieve", "cue_floor", "recall_marker", "retrieval_floor"]


def retrieval_floor(threshold: float, relevance: float, params: Parameters | None = None) -> float:
    """The least strength at which a memory matching the cue by ``relevance`` can be retrieved, in [0, 1]:
    max(vague_floor, threshold) * (1 - cue_support * relevance).

    threshold : the owner's RetrievalThreshold in [0, 1]; relevance : float in [0, 1], the recall's relevance of
    the memory (0: no cue, free recall). Non-increasing in relevance; equal to the VAGUE floor at relevance 0.
    Source: Tulving & Thomson 1973; Anderson & Lebiere 1998 (see the module docstring).
    Raises UsageProblem for a threshold or relevance outside [0, 1].
    """
    p = resolve(params)
    return vague_floor(threshold, p) * (1.0 - p.recall.cue_support * check_unit("relevance", relevance))


def cue_floor(threshold: float, params: Parameters | None = None) -> float:
    """The strength below which no cue can bring a memory back: :func:`retrieval_floor` at relevance 1,
    max(vague_floor, threshold) * (1 - cue_support). Recall never needs to read a memory weaker than this (unless
    it is a flashbulb)."""
    return retrieval_floor(threshold, 1.0, params)


def can_retrieve(strength: float, flashbulb: bool, threshold: float, relevance: float,
                 params: Parameters | None = None) -> bool:
    """Whether a memory of this strength can be retrieved by a cue that matches it by ``relevance``
    (docs/model.md#cued-recall-which-memories-come-back).

    strength : float in [0, 1], m at the recall phase; flashbulb : always True; threshold : the owner's
    RetrievalThreshold; relevance : float in [0, 1]. Monotone: a stronger memory, or a better-matching cue, is
    never retrieved less.
    """
    if flashbulb:
        return True
    return check_unit("strength", strength) >= retrieval_floor(threshold, relevance, params)


def recall_marker(strength: float, flashbulb: bool, threshold: float, relevance: float,
                  params: Parameters | None = None) -> Marker | None:
    """The clarity marker of a recalled memory, or None when the cue cannot bring it back.

    The marker is the one strength gives (:func:`graphmem.model.clarity.clarity_marker`: FLASHBULB, CLEAR >= 0.70,
    FUZZY >= 0.40, VAGUE >= max(0.15, threshold)); a memory that only the cue brings back (below its VAGUE band)
    shows VAGUE. So the marker never rises with the cue, and at relevance 0 this is ``clarity_marker``.
    """
    if not can_retrieve(strength, flashbulb, threshold, relevance, params):
        return None
    return clarity_marker(strength, flashbulb, threshold, params) or Marker.VAGUE
