"""Ranking of the owner's candidate memories (docs/model.md#candidates-and-ranking, docs/log-format.md): pure
arithmetic, no I/O.

The owner's candidates are the memories some cue could bring back at the recall phase: live (not consolidated, not
tombstoned), encoded by then, and a flashbulb or at least as strong as :func:`graphmem.model.retrieval.cue_floor`
(max(0.15, RetrievalThreshold) * (1 - CueSupport)), below which nothing brings a memory back. The normalisations
below run over them; a memory that no cue could bring back moves no other memory's score (``recall/context`` does
not even read it).

- ``dense``: the cosine similarity of topic and memory embeddings, min-max normalised over the owner's candidates
  (:func:`min_max`). A degenerate range (one candidate, or all equally similar) carries no information: every
  candidate gets 0.
- ``lexical``: the BM25 score of the topic against the memory's text, keywords and context, with the statistics of
  the owner's candidates (:mod:`graphmem.recall.lexical`), divided by the best score among the candidates
  (:func:`relative_to_best`); 0 for a memory matching no word of the topic, and 0 everywhere when nothing matches.
- ``source``: the source route. A cue that names a person (a player of the game, :func:`named_in`) reaches the
  memories the owner believes came from that person (the speaker of a statement, the owner for the owner's own
  statements and actions) through the remembered source, so the route is as strong as the owner's source confidence
  now (:func:`source_route`: ``c0 * R(now - t_enc, S_enc)^k`` of :func:`graphmem.model.source.source_confidence`, 0
  once the source is forgotten, 1 for the owner's own); a memory whose source has faded is found by its content
  alone. 0 for every memory when the topic names nobody.
- ``neighbour``: the content relevance (0.5 dense + 0.5 lexical) of the statement said right before or right after
  the memory in its conversation, whichever is higher, among the owner's candidates (:mod:`graphmem.recall.neighbours`),
  when that statement is one of the 10 best content matches (``recall.neighbour_lenders``: the memories the cue
  brings to mind first; the others lend nothing); 0 for a memory that is no statement or has no such neighbour.
- ``date``: the date route. A cue naming a calendar date ("on 9 November, 2022", "in January 2024") reaches the
  memories whose event was logged within that day, month or year or in the week after it (1, else 0:
  :mod:`graphmem.recall.dates`); 0 for every memory when the topic names no date, and for a memory whose event has
  no time.
- ``when``: the when route. A question asking when ("When did ...?", "How long ...?") reaches the memories whose own
  words place something in time ("yesterday", "last week", "in May", a year: 1, else 0; :mod:`graphmem.recall.dates`);
  0 for every memory when the topic asks no when.
- ``relevance = min(1, raw)``, ``raw = 0.5 dense + 0.5 lexical + 0.3 source + 0.2 neighbour + 0.3 date + 0.1 when
  + 0.2 [about a participant]``; without a topic dense, lexical, source, neighbour, date and when are 0, so the
  participant boost alone makes
  relevance (it still applies: a recall for a conversation with Marcus and no topic prefers memories about Marcus).
- ``score = 0.6 relevance + 0.4 m``, m the strength at the recall phase; candidates of equal score are ordered by
  ``raw`` (the cap made every strong match of a ``perfect`` owner tie at 1, and the uid then chose among them).
- filter, cued recall (:mod:`graphmem.model.retrieval`): a memory is recalled only when the cue can bring it back,
  m >= max(0.15, RetrievalThreshold) * (1 - CueSupport * relevance), or it is a flashbulb; its marker is the one its
  strength gives (VAGUE when only the cue brings it back). Without topic and participants (relevance 0) that is
  m >= max(0.15, RetrievalThreshold), as free recall always was. The best ``k`` by score (then raw relevance) are
  kept, further ties broken by uid so that the result never depends on the order rows arrive in.

:func:`score_candidates` computes every candidate's values at once (numpy; an owner may hold thousands of
candidates) and :func:`top_k` keeps the best; :func:`rank` does both and also returns every candidate scored.
Weights come from ``Parameters.recall`` (``parameters.recall`` in the configuration).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphmem.model.params import Parameters
from graphmem.model.retrieval import recall_marker
from graphmem.model.vocabulary import Marker

__all__ = ["Ranked", "Scores", "is_about", "min_max", "named_in", "rank", "relative_to_best", "relevance", "score",
           "score_candidates", "source_route", "top_k"]

Floats = npt.NDArray[np.float64]
Flags = npt.NDArray[np.bool_]


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
    is not positive). scores : {uid: lexical (BM25) score >= 0}, possibly holding uids that are not candidates;
    best : the best score among all the candidates when ``uids`` is a subset of them."""
    wanted = list(uids)
    if best is None:
        best = max((scores[u] for u in wanted if u in scores), default=0.0)
    if best <= 0.0:
        return dict.fromkeys(wanted, 0.0)
    return {u: min(1.0, max(0.0, scores.get(u, 0.0) / best)) for u in wanted}


def _name_form(text: str) -> str:
    """``text`` as names are compared: Unicode NFKC (full-width letters are letters), typographic apostrophes as
    ASCII ones (an LLM writes "O’Brien"), case-folded."""
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'").casefold()


def named_in(topic: str | None, names: Iterable[str]) -> frozenset[str]:
    """The names of ``names`` (the game's players) that ``topic`` mentions: as a whole word, whatever the case, the
    Unicode form or the apostrophe ("melanie's", "MELANIE?", "O’Brien" and full-width letters name them;
    "Melanies" does not)."""
    if not topic:
        return frozenset()
    text = _name_form(topic)
    return frozenset(n for n in names if n and re.search(rf"(?<!\w){re.escape(_name_form(n))}(?!\w)", text))


def source_route(c0: Floats, k: Floats, t_enc: Floats, s_enc: Floats, keep: Flags, own: Flags, now: int,
                 curve: str, unknown_below: float) -> Floats:
    """How strongly a cue naming each memory's believed source reaches it, in [0, 1], shape (n,).

    Parallel arrays over the memories: c0 (source confidence at encoding), k (source exponent >= 1), t_enc (phase of
    encoding), s_enc (stability of the source clock, phases; inf never fades), keep (the source is never forgotten),
    own (the owner's own statement or action). The value is the source confidence now, ``c0 * R(now - t_enc,
    S_enc)^k`` (:func:`graphmem.model.source.source_confidence`, the curve of :func:`graphmem.model.forgetting
    .retention`), 0 when it is below ``unknown_below`` and the source is not kept (the owner no longer knows who
    said it), and 1 for the owner's own (reality monitoring: Johnson & Raye 1981). Source: Johnson, Hashtroudi &
    Lindsay 1993 (source monitoring).
    """
    dt = np.maximum(0.0, now - t_enc)
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = np.where(np.isinf(s_enc), 0.0, dt / s_enc)
    r = np.exp(-scaled) if curve == "exponential" else (1.0 + 3.0 * scaled / np.log(2.0)) ** -0.5
    c = c0 * r ** k
    c = np.where(keep | (c >= unknown_below), c, 0.0)
    return np.where(own, 1.0, c)


def is_about(about: Iterable[str], participants: Iterable[str]) -> bool:
    """Whether a memory about the players ``about`` is about any of ``participants``."""
    return not set(about).isdisjoint(participants)


def relevance(dense: float, lexical: float, about_participant: bool, params: Parameters, source: float = 0.0,
              neighbour: float = 0.0, date: float = 0.0, when: float = 0.0) -> float:
    """min(1, dense_weight * dense + lexical_weight * lexical + source_weight * source + neighbour_weight * neighbour
    + date_weight * date + when_weight * when + participant_boost * about_participant), in [0, 1].

    dense, lexical : floats in [0, 1], already normalised over the owner's candidates; source : float in [0, 1], the
    source route (:func:`source_route`, 0 when the cue names nobody the memory came from); neighbour : float >= 0,
    the best content relevance (dense_weight * dense + lexical_weight * lexical) of the statements said right before
    and after the memory in its conversation (:mod:`graphmem.recall.neighbours`; 0 for none); date : 0 or 1, the date
    route (:func:`graphmem.recall.dates.date_route`); when : 0 or 1, the when route (a question asking when, a memory
    whose words say when: :mod:`graphmem.recall.dates`).
    """
    r = params.recall
    value = (r.dense_weight * dense + r.lexical_weight * lexical + r.source_weight * source
             + r.neighbour_weight * neighbour + r.date_weight * date + r.when_weight * when
             + (r.participant_boost if about_participant else 0.0))
    return min(1.0, max(0.0, value))


def score(relevance_: float, strength: float, params: Parameters) -> float:
    """relevance_weight * relevance + strength_weight * m (0.6 and 0.4 by default), in [0, 1]."""
    r = params.recall
    return r.relevance_weight * relevance_ + r.strength_weight * strength


@dataclass(frozen=True)
class Ranked:
    """One candidate with its ranking inputs and result.

    uid : str; strength : float in [0, 1], m at the recall phase; flashbulb : bool; threshold : the owner's
    RetrievalThreshold; dense, lexical, relevance, score : floats in [0, 1]; source : float in [0, 1], the source
    route; marker : the clarity marker, None when
    no cue brings the memory back (:func:`graphmem.model.retrieval.recall_marker`); position : int, the candidate's
    index in the sequences it was ranked from (-1: not given).
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
    position: int = -1
    source: float = 0.0


@dataclass(frozen=True)
class Scores:
    """Every candidate's ranking values, as arrays of shape (n_candidates,).

    dense, lexical : float64 in [0, 1], normalised over the candidates; source : float64 in [0, 1], the source route;
    neighbour : float64 >= 0, the best neighbour's content relevance; relevance, score : float64 in [0, 1];
    retrievable : bool, whether the cue can bring the memory back (flashbulbs always); raw : float64 >= 0, the
    relevance before its cap at 1 (what orders candidates of equal score).
    """

    dense: Floats
    lexical: Floats
    source: Floats
    relevance: Floats
    score: Floats
    retrievable: Flags
    neighbour: Floats
    raw: Floats


def _normalised_dense(dense_raw: Sequence[float | None] | Floats | None, n: int,
                      dense_range: tuple[float, float] | None) -> Floats:
    if dense_raw is None:
        return np.zeros(n)
    raw = np.array([np.nan if v is None else v for v in dense_raw], dtype=np.float64) \
        if not isinstance(dense_raw, np.ndarray) else dense_raw.astype(np.float64)
    present = raw[~np.isnan(raw)]
    if dense_range is not None:
        low, high = dense_range
    elif present.size:
        low, high = float(present.min()), float(present.max())
    else:
        return np.zeros(n)
    if high - low <= 1e-12:
        return np.zeros(n)
    return np.nan_to_num(np.clip((raw - low) / (high - low), 0.0, 1.0), nan=0.0)


def score_candidates(strengths: Sequence[float] | Floats, flashbulbs: Sequence[bool] | Flags,
                     thresholds: Sequence[float] | Floats, dense_raw: Sequence[float | None] | Floats | None,
                     lexical_raw: Sequence[float] | Floats, about_participant: Sequence[bool] | Flags,
                     params: Parameters, *, dense_range: tuple[float, float] | None = None,
                     lexical_best: float | None = None, source: Floats | None = None,
                     neighbours: npt.NDArray[np.intp] | None = None, date: Floats | None = None,
                     when: Floats | None = None) -> Scores:
    """Score every candidate at once (docs/model.md#candidates-and-ranking, the formulas of the module docstring).

    Parallel sequences (or arrays) of shape (n_candidates,): strengths (m now, in [0, 1]), flashbulb flags,
    thresholds (the owner's RetrievalThreshold), dense_raw (cosine or any increasing affine transform of it; None
    or NaN for no score; ``dense_raw`` None without a topic), lexical_raw (BM25 scores >= 0, 0 when not
    matched), about_participant flags; source (the source route, :func:`source_route`; None: 0 everywhere).
    neighbours : intp, shape (n_candidates, 2), the index of the candidate said right before and right after each
    one in its conversation, -1 for none (:func:`graphmem.recall.neighbours.neighbours`; None: no neighbours); only
    the ``recall.neighbour_lenders`` best content matches lend to their neighbours (ties with the last lend too), so
    a recall's best k do not depend on k.
    date : the date route of each candidate, 0 or 1 (:func:`graphmem.recall.dates.date_route`; None: 0 everywhere).
    when : the when route of each candidate, 0 or 1 (:attr:`graphmem.recall.lexical.Postings.timed` when the topic
    asks when, :func:`graphmem.recall.dates.asks_when`; None: 0 everywhere).
    dense_range, lexical_best : the min and max dense score and the best lexical score over ALL the owner's
    candidates, when the sequences hold only some of them (default: computed from the sequences).
    The values equal the scalar :func:`relevance`, :func:`score` and
    :func:`graphmem.model.retrieval.can_retrieve` element by element (the same operations in the same order).
    """
    r = params.recall
    strength = np.asarray(strengths, dtype=np.float64)
    n = strength.shape[0]
    dense = _normalised_dense(dense_raw, n, dense_range)
    lex_raw = np.asarray(lexical_raw, dtype=np.float64).reshape(n)
    best = float(lex_raw.max(initial=0.0)) if lexical_best is None else lexical_best
    lexical = np.clip(lex_raw / best, 0.0, 1.0) if best > 0.0 else np.zeros(n)
    boost = np.where(np.asarray(about_participant, dtype=bool).reshape(n), r.participant_boost, 0.0)
    route = np.zeros(n) if source is None else np.clip(np.asarray(source, dtype=np.float64).reshape(n), 0.0, 1.0)
    content = r.dense_weight * dense + r.lexical_weight * lexical
    near = np.zeros(n)
    if neighbours is not None and n:
        lenders = min(r.neighbour_lenders, n)
        best = np.partition(content, n - lenders)[n - lenders]  # the lenders-th best content
        padded = np.append(np.where(content >= best, content, 0.0), 0.0)  # index -1, no neighbour: 0
        near = np.maximum(padded[neighbours[:, 0]], padded[neighbours[:, 1]])
    dated = np.zeros(n) if date is None else np.asarray(date, dtype=np.float64).reshape(n)
    timed = np.zeros(n) if when is None else np.asarray(when, dtype=np.float64).reshape(n)
    raw = np.maximum(content + r.source_weight * route + r.neighbour_weight * near + r.date_weight * dated
                     + r.when_weight * timed + boost, 0.0)
    rel = np.minimum(raw, 1.0)
    scores = r.relevance_weight * rel + r.strength_weight * strength
    floors = np.maximum(params.clarity.vague_floor, np.asarray(thresholds, dtype=np.float64).reshape(n))
    retrievable = np.asarray(flashbulbs, dtype=bool).reshape(n) | (strength >= floors * (1.0 - r.cue_support * rel))
    return Scores(dense, lexical, route, rel, scores, retrievable, near, raw)


def top_k(uids: Sequence[str], strengths: Sequence[float] | Floats, flashbulbs: Sequence[bool] | Flags,
          thresholds: Sequence[float] | Floats, scores: Scores, k: int, params: Parameters,
          ties: Sequence[str] | None = None) -> list[Ranked]:
    """The best ``k`` retrievable candidates, best first (ties by ``ties``, default the uids), as :class:`Ranked`.

    uids, strengths, flashbulbs, thresholds : the sequences given to :func:`score_candidates`; scores : its result;
    ties : what orders candidates of equal score (a recall over a series of games: the own game first, then the
    earlier games' memories in an order that favours no game, :func:`graphmem.recall.pipeline.tie_order`).
    Cost: a partition of the scores, then a sort of the best k (and their ties) only.
    """
    idx = np.flatnonzero(scores.retrievable)
    if idx.size > k:
        values = scores.score[idx]
        kth = np.partition(values, idx.size - k)[idx.size - k]
        idx = idx[values >= kth]
    order = sorted((int(i) for i in idx), key=lambda i: (-float(scores.score[i]), -float(scores.raw[i]),
                                                          uids[i] if ties is None else ties[i]))[:k]
    return [_ranked(i, uids, strengths, flashbulbs, thresholds, scores, params) for i in order]


def _ranked(i: int, uids: Sequence[str], strengths: Sequence[float] | Floats, flashbulbs: Sequence[bool] | Flags,
            thresholds: Sequence[float] | Floats, scores: Scores, params: Parameters) -> Ranked:
    strength, flashbulb, threshold = float(strengths[i]), bool(flashbulbs[i]), float(thresholds[i])
    rel = float(scores.relevance[i])
    return Ranked(uids[i], strength, flashbulb, threshold, float(scores.dense[i]), float(scores.lexical[i]), rel,
                  float(scores.score[i]), recall_marker(strength, flashbulb, threshold, rel, params), i,
                  float(scores.source[i]))


def rank(uids: Sequence[str], strengths: Sequence[float], flashbulbs: Sequence[bool], thresholds: Sequence[float],
         dense_raw: Sequence[float | None] | None, lexical_raw: Mapping[str, float],
         about_participant: Sequence[bool], k: int, params: Parameters, *,
         dense_range: tuple[float, float] | None = None, lexical_best: float | None = None,
         source: Sequence[float] | None = None,
         neighbours: npt.NDArray[np.intp] | None = None) -> tuple[list[Ranked], list[Ranked]]:
    """Score every candidate and keep the best ``k`` retrievable ones (docs/model.md#candidates-and-ranking).

    Parallel sequences over the owner's candidates: uids, strengths (m now), flashbulb flags, thresholds,
    dense_raw (cosine or any increasing transform of it, None without a topic), about_participant flags;
    lexical_raw : {uid: lexical (BM25) score} (may hold non-candidates, which are ignored).
    dense_range, lexical_best, source, neighbours : as in :func:`score_candidates`.
    Returns (all given candidates scored, in input order; the recalled ones, best first, at most ``k``).
    """
    lex = [lexical_raw.get(u, 0.0) for u in uids]
    if lexical_best is None:
        lexical_best = max((lexical_raw[u] for u in uids if u in lexical_raw), default=0.0)
    scores = score_candidates(strengths, flashbulbs, thresholds, dense_raw, lex, about_participant, params,
                              dense_range=dense_range, lexical_best=lexical_best,
                              source=None if source is None else np.asarray(source, dtype=np.float64),
                              neighbours=neighbours)
    scored = [_ranked(i, uids, strengths, flashbulbs, thresholds, scores, params) for i in range(len(uids))]
    return scored, top_k(uids, strengths, flashbulbs, thresholds, scores, k, params)

