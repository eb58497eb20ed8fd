"""Ranking of the owner's candidate memories (SPEC 6 steps 1 and 2): pure arithmetic, no I/O.

The owner's candidates are the memories recall can return at the recall phase: live (not consolidated, not
tombstoned), encoded by then, and not archived then (SPEC 10: archived = "kept, not recalled"; SPEC 6 step 2
filters m >= RetrievalThreshold, which an archived memory fails by definition). The normalisations below run over
them; an archived memory, which could never be recalled, moves no other memory's score (``recall/context`` does not
even read it).

- ``dense``: the cosine similarity of topic and memory embeddings, min-max normalised over the owner's candidates
  (:func:`min_max`). A degenerate range (one candidate, or all equally similar) carries no information: every
  candidate gets 0.
- ``lexical``: the full-text score of the topic against the memory's text and keywords divided by the best score
  among the candidates (:func:`relative_to_best`); 0 for a memory the index did not match, and 0 everywhere when
  nothing matches.
- ``relevance = min(1, 0.5 dense + 0.5 lexical + 0.2 [about a participant])``; without a topic dense and lexical
  are 0, so the participant boost alone makes relevance (it still applies: a recall for a conversation with Marcus
  and no topic prefers memories about Marcus).
- ``score = 0.6 relevance + 0.4 m``, m the strength at the recall phase.
- filter: a memory is recalled only when it has a clarity marker (flashbulbs always; otherwise
  m >= max(0.15, RetrievalThreshold), which implies the SPEC's m >= RetrievalThreshold); the best ``k`` by score are
  kept, ties broken by uid so that the result never depends on the order rows arrive in.

Weights come from ``Parameters.recall`` (``parameters.recall`` in the configuration).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from graphmem.model.clarity import clarity_marker
from graphmem.model.params import Parameters
from graphmem.model.vocabulary import Marker

__all__ = ["Ranked", "is_about", "min_max", "rank", "relative_to_best", "relevance", "score"]


def min_max(values: Sequence[float | None], low: float | None = None, high: float | None = None) -> list[float]:
    """Min-max normalisation to [0, 1]: (x - low) / (high - low).

    low, high : the range (default: the min and max of the values that are not None; pass them when ``values``
    is a subset of the candidates, as the recall query pre-selects). None (no score) becomes 0; a degenerate range
    (high - low <= 1e-12) makes every value 0.
    """
    present = [v for v in values if v is not None]
    if low is None or high is None:
        if not present:
            return [0.0] * len(values)
        low, high = min(present), max(present)
    span = high - low
    if span <= 1e-12:
        return [0.0] * len(values)
    return [0.0 if v is None else min(1.0, max(0.0, (v - low) / span)) for v in values]


def relative_to_best(scores: Mapping[str, float], uids: Iterable[str], best: float | None = None) -> dict[str, float]:
    """Each uid's score divided by the best score among ``uids`` (0 for uids without a score; all 0 when the best
    is not positive). scores : {uid: full-text score >= 0}, possibly holding uids that are not candidates;
    best : the best score among all the candidates when ``uids`` is a subset of them."""
    wanted = list(uids)
    if best is None:
        best = max((scores[u] for u in wanted if u in scores), default=0.0)
    if best <= 0.0:
        return dict.fromkeys(wanted, 0.0)
    return {u: min(1.0, max(0.0, scores.get(u, 0.0) / best)) for u in wanted}


def is_about(about: Iterable[str], participants: Iterable[str]) -> bool:
    """Whether a memory about the players ``about`` is about any of ``participants``."""
    return not set(about).isdisjoint(participants)


def relevance(dense: float, lexical: float, about_participant: bool, params: Parameters) -> float:
    """min(1, dense_weight * dense + lexical_weight * lexical + participant_boost * about_participant), in [0, 1].

    dense, lexical : floats in [0, 1], already normalised over the owner's candidates.
    """
    r = params.recall
    value = r.dense_weight * dense + r.lexical_weight * lexical + (r.participant_boost if about_participant else 0.0)
    return min(1.0, max(0.0, value))


def score(relevance_: float, strength: float, params: Parameters) -> float:
    """relevance_weight * relevance + strength_weight * m (0.6 and 0.4 by default), in [0, 1]."""
    r = params.recall
    return r.relevance_weight * relevance_ + r.strength_weight * strength


@dataclass(frozen=True)
class Ranked:
    """One candidate with its ranking inputs and result.

    uid : str; strength : float in [0, 1], m at the recall phase; flashbulb : bool; threshold : the owner's
    RetrievalThreshold; dense, lexical, relevance, score : floats in [0, 1]; marker : the clarity marker, None when
    the memory cannot be recalled.
    """

    uid: str
    strength: float
    flashbulb: bool
    threshold: float
    dense: float
    lexical: float
    relevance: float
    score: float
    marker: Marker | None


def rank(uids: Sequence[str], strengths: Sequence[float], flashbulbs: Sequence[bool], thresholds: Sequence[float],
         dense_raw: Sequence[float | None], lexical_raw: Mapping[str, float], about_participant: Sequence[bool],
         k: int, params: Parameters, *, dense_range: tuple[float, float] | None = None,
         lexical_best: float | None = None) -> tuple[list[Ranked], list[Ranked]]:
    """Score every candidate and keep the best ``k`` recallable ones (SPEC 6 steps 1-2).

    Parallel sequences over the owner's candidates: uids, strengths (m now), flashbulb flags, thresholds,
    dense_raw (cosine or any increasing transform of it, None without a topic), about_participant flags;
    lexical_raw : {uid: full-text score} (may hold non-candidates, which are ignored).
    dense_range, lexical_best : the min and max dense score and the best full-text score over ALL the owner's
    candidates, when the sequences hold only a pre-selection of them (default: computed from the sequences).
    Returns (all given candidates scored, in input order; the recalled ones, best first, at most ``k``).
    """
    low, high = dense_range if dense_range is not None else (None, None)
    dense = min_max(dense_raw, low, high)
    lexical = relative_to_best(lexical_raw, uids, lexical_best)
    scored = []
    for i, uid in enumerate(uids):
        rel = relevance(dense[i], lexical[uid], about_participant[i], params)
        marker = clarity_marker(strengths[i], flashbulbs[i], thresholds[i], params)
        scored.append(Ranked(uid, strengths[i], flashbulbs[i], thresholds[i], dense[i], lexical[uid], rel,
                             score(rel, strengths[i], params), marker))
    recalled = sorted((r for r in scored if r.marker is not None), key=lambda r: (-r.score, r.uid))[:k]
    return scored, recalled
