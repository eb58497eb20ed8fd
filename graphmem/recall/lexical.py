"""The lexical lane of recall (docs/model.md#candidates-and-ranking): BM25 of the topic's words against each
candidate's text, keywords and context, with every statistic taken from the owner's own candidates.

**Whose statistics.** A word's weight (its inverse document frequency) and the length normalisation come from the
memories the recall ranks: the owner's candidates (in a series, those of the owner's earlier selves too), the same
set the dense lane's min-max runs over. Not from the database (Neo4j's full-text index keeps one set of term
statistics for every game it holds, and counts deleted memories until Lucene merges them away: the same game gave
another ranking beside other games), and not from the game's other players: what Bob and Carol said to each other in
private is no part of Alice's memory, so it must not make a word rare or common for her (the information boundary).
A recall therefore depends on what the owner perceived and kept, and on nothing else the database holds; a game
moved to another database recalls the same, byte for byte, with the same seed.

**What is matched.** The words of a memory's text and keywords at weight 1 and of its context (the statement a
statement followed) at :data:`CONTEXT_WEIGHT`, each field scored by BM25 on its own statistics and summed (BM25F in
the simple form Lucene gives a query over several fields). Words are read as Lucene's English analyzer reads them
(:func:`analyze`): Unicode NFKC, case-folded, a possessive "'s" dropped, stop words out (:data:`STOP`), the rest
stemmed by the Snowball English stemmer (PyStemmer), so "instruments" finds "instrument".

    bm25(t, d, f) = idf_f(t) * tf (k1 + 1) / (tf + k1 (1 - b + b len_f(d) / avglen_f))
    idf_f(t)      = ln(1 + (N_f - df_f(t) + 0.5) / (df_f(t) + 0.5))

with N_f the candidates holding field f, df_f(t) those whose field f holds t, avglen_f their mean length in words,
k1 = 1.2 and b = 0.75 (Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond"; Lucene's
defaults). The ranking divides each score by the best (:mod:`graphmem.recall.ranking`).

**Kept, like the vectors.** :class:`Postings` holds, per stored game, each read memory's field lengths and an inverted
index (word -> the rows holding it, with their counts per field) beside its text vector in
:class:`graphmem.recall.vectors.GameVectors`, read once per process with the embedding and brought up to date when
a recall rewrites a memory's text or keywords (a lost detail no longer cues). A recall's lexical scores are then a
few numpy passes over the postings of the topic's words, restricted to the candidates.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import Stemmer

from graphmem.recall.dates import TIME_WORDS
from graphmem.recall.ranking import Floats

__all__ = ["CONTEXT_WEIGHT", "FIELDS", "MAX_TERMS", "STOP", "Postings", "analyze", "bm25", "says_when", "topic_terms"]

FIELDS = ("text", "keywords", "context")
"""The fields of a memory searched, in the order of every per-field array here."""
CONTEXT_WEIGHT = 0.5
"""The weight of a match in the statement a statement followed, against 1 for its own text and keywords (LoCoMo,
bench/README.md: 0.3 to 1.0 gave the same recall@10 within 0.01; 0.5 is kept)."""
WEIGHTS = np.array([1.0, 1.0, CONTEXT_WEIGHT])
K1 = 1.2
B = 0.75
MAX_TERMS = 100
"""The most distinct words of a topic searched, the longest first (in English a longer word is a rarer one, so it
carries more of the topic): an agent may pass the last stretch of its conversation as the topic."""

STOP = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these they "
    "this to was will with i me my mine you your yours he him his she her hers we us our they them who whom whose "
    "what which when where why how do does did done has have had am been being were would should could can "
    "about any some so just than too very".split())
"""Words that carry no topic, left out of memories and topics alike: Lucene's classic English stop words, pronouns,
question and auxiliary words ("is" or "a" would match nearly every memory and add only noise to the scores)."""

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_STEMMER = Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    return str(_STEMMER.stemWord(word))


def _words(text: str) -> list[str]:
    """The words of ``text`` as compared: NFKC, typographic apostrophes as ASCII ones, case-folded, a possessive
    "'s" dropped and the other apostrophes removed ("don't" is "dont")."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'").casefold()
    out = []
    for word in _WORD.findall(text):
        if word.endswith("'s"):
            word = word[:-2]
        out.append(word.replace("'", ""))
    return out


def analyze(text: str | None) -> list[str]:
    """The terms of ``text`` in order, as they are indexed and searched: its words (:func:`_words`) without stop
    words (:data:`STOP`), stemmed (Snowball English). ``analyze("Melanie's instruments")`` is ``["melani",
    "instrument"]``; None or "" gives []."""
    if not text:
        return []
    return [_stem(w) for w in _words(text) if w and w not in STOP]


def topic_terms(topic: str | None, limit: int = MAX_TERMS) -> list[str]:
    """The distinct terms of ``topic`` searched (:func:`analyze`), at most ``limit``, the longest words kept (ties:
    the first said), in the order they were said; a topic of stop words alone is searched by them (stemmed), so
    that "who is he?" still finds something. [] for no topic."""
    if not topic:
        return []
    words = [w for w in _words(topic) if w]
    kept = [w for w in words if w not in STOP] or words
    distinct: dict[str, tuple[int, str]] = {}
    for i, word in enumerate(kept):
        distinct.setdefault(_stem(word), (i, word))
    chosen = sorted(distinct.items(), key=lambda item: (-len(item[1][1]), item[1][0]))[:limit]
    return [term for term, _ in sorted(chosen, key=lambda item: item[1][0])]


_TIMED = frozenset(_stem(w) for w in TIME_WORDS)
_YEAR_TERM = re.compile(r"\d{4}")


def says_when(text_terms: Sequence[str]) -> bool:
    """Whether a memory's text (its terms, :func:`analyze`) places something in time: one of
    :data:`graphmem.recall.dates.TIME_WORDS` or a four-digit number."""
    return any(term in _TIMED or _YEAR_TERM.fullmatch(term) for term in text_terms)


def field_terms(text: str | None, keywords: str | None, context: str | None) -> tuple[list[str], list[str], list[str]]:
    """The terms of a memory's three fields (:data:`FIELDS`)."""
    return analyze(text), analyze(keywords), analyze(context)


Ints = npt.NDArray[np.int64]


@dataclass
class _Term:
    """The postings of one term: ``rows[:size]`` (the rows holding it; -1 for a row that no longer does) and
    ``counts[:size]`` (its count in each field, shape (capacity, 3)); ``at[row]`` the index of a live row."""

    rows: Ints = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    counts: Floats = field(default_factory=lambda: np.zeros((4, 3)))
    size: int = 0
    at: dict[int, int] = field(default_factory=dict)

    def set(self, row: int, counts: tuple[int, int, int]) -> None:
        i = self.at.get(row)
        if i is None:
            if self.size == self.rows.shape[0]:
                self._compact(2 * self.size)
            i = self.at[row] = self.size
            self.size += 1
            self.rows[i] = row
        self.counts[i] = counts

    def drop(self, row: int) -> None:
        i = self.at.pop(row, None)
        if i is not None:
            self.rows[i] = -1
            self.counts[i] = 0.0

    def _compact(self, capacity: int) -> None:
        live = self.rows[:self.size] >= 0
        rows, counts = self.rows[:self.size][live], self.counts[:self.size][live]
        size = rows.shape[0]
        capacity = max(4, capacity if size * 2 > self.size else 2 * size + 4)
        self.rows = np.full(capacity, -1, dtype=np.int64)
        self.counts = np.zeros((capacity, 3))
        self.rows[:size], self.counts[:size] = rows, counts
        self.size = size
        self.at = {int(r): i for i, r in enumerate(rows)}


@dataclass
class Postings:
    """The lexical index of the memories of one stored game a process has read (rows as in
    :class:`graphmem.recall.vectors.GameVectors`): ``lengths`` (float64, shape (capacity, 3), each row's length in
    terms per field, 0 for a field it lacks) and each term's rows with their counts per field."""

    lengths: Floats = field(default_factory=lambda: np.zeros((0, 3)))
    timed: Floats = field(default_factory=lambda: np.zeros(0))
    """1.0 for a row whose text places something in time (:func:`says_when`), else 0.0; the when route of
    :mod:`graphmem.recall.dates`."""
    terms: dict[str, _Term] = field(default_factory=dict)
    row_terms: dict[int, tuple[str, ...]] = field(default_factory=dict)
    contexts: dict[int, str | None] = field(default_factory=dict)
    said: dict[int, tuple[str | None, str | None]] = field(default_factory=dict)
    """(text, keywords) of each row as indexed."""

    def put(self, row: int, text: str | None, keywords: str | None, context: str | None) -> None:
        """Index (again) the fields of ``row``."""
        fields = field_terms(text, keywords, context)
        if row >= self.lengths.shape[0]:
            grown = np.zeros((max(64, 2 * self.lengths.shape[0], row + 1), 3))
            grown[:self.lengths.shape[0]] = self.lengths
            timed = np.zeros(grown.shape[0])
            timed[:self.timed.shape[0]] = self.timed
            self.lengths, self.timed = grown, timed
        self.lengths[row] = [len(f) for f in fields]
        self.timed[row] = 1.0 if says_when(fields[0]) else 0.0
        counts: dict[str, list[int]] = {}
        for f, terms in enumerate(fields):
            for term in terms:
                counts.setdefault(term, [0, 0, 0])[f] += 1
        for term in self.row_terms.get(row, ()):
            if term not in counts:
                self.terms[term].drop(row)
        for term, c in counts.items():
            postings = self.terms.get(term)
            if postings is None:  # not setdefault(term, _Term()): that built two arrays for every term of every put
                postings = self.terms[term] = _Term()
            postings.set(row, (c[0], c[1], c[2]))
        self.row_terms[row] = tuple(counts)
        self.contexts[row] = context
        self.said[row] = (text, keywords)

    def rewrite(self, row: int, text: str | None, keywords: str | None) -> None:
        """Index ``row`` again with a new text and keywords (reconsolidation rewrote them; the context never
        changes); nothing to do when both are the ones indexed (most reconsolidations lose no detail)."""
        if self.said.get(row, (None, None)) == (text, keywords) and row in self.row_terms:
            return
        self.put(row, text, keywords, self.contexts.get(row))

    def matches(self, term: str) -> tuple[Ints, Floats]:
        """(rows, counts per field, shape (m, 3)) of the rows holding ``term``, dead ones included (row -1)."""
        t = self.terms.get(term)
        if t is None:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 3))
        return t.rows[:t.size], t.counts[:t.size]


def bm25(segments: Sequence[tuple[Postings, npt.NDArray[np.intp]]], terms: Sequence[str]) -> list[Floats]:
    """The BM25 score of ``terms`` (:func:`topic_terms`) for every candidate of every segment, with the statistics of
    all the segments' candidates together (see the module docstring for the formula): a list of float64 arrays of
    shape (len(rows),), one per segment, >= 0 (0 for a candidate matching no term, or without a row: -1).

    segments : (a game's postings, each candidate's row in them) per game the recall ranks (the owner's own, then the
    earlier games of its series). Each score depends only on the candidate's own counts and on the statistics (sums
    of integers), never on the order of the candidates, so replays are exact.
    """
    out = [np.zeros(len(rows)) for _, rows in segments]
    if not terms or not any(len(rows) for _, rows in segments):
        return out
    positions = []
    docs = np.zeros(3)
    total = np.zeros(3)
    for postings, rows in segments:
        valid = rows >= 0
        position = np.full(postings.lengths.shape[0] + 1, -1, dtype=np.int64)  # index -1 (a dead row): the last
        position[rows[valid]] = np.flatnonzero(valid)
        positions.append(position)
        lengths = postings.lengths[rows[valid]]
        docs += np.count_nonzero(lengths, axis=0)
        total += lengths.sum(axis=0)
    average = np.where(docs > 0, total / np.maximum(docs, 1.0), 1.0)
    for term in terms:
        df = np.zeros(3)
        found = []
        for (postings, _), position in zip(segments, positions):
            rows, counts = postings.matches(term)
            where = position[rows]
            keep = where >= 0
            where, counts = where[keep], counts[keep]
            df += np.count_nonzero(counts, axis=0)
            found.append((where, counts))
        idf = np.log1p((docs - df + 0.5) / (df + 0.5)) * WEIGHTS
        for s, ((postings, rows), (where, counts)) in enumerate(zip(segments, found)):
            if where.size:
                length = postings.lengths[rows[where]]
                norm = K1 * (1.0 - B + B * length / average)
                out[s][where] += (counts * (K1 + 1.0) / (counts + norm) * idf).sum(axis=1)
    return out
