"""The recall pipeline (docs/model.md#recall-and-reconsolidation), in the stages its timings are named for: read (through
the store's reader, :class:`graphmem.store.reader.MemoryReader`), embed, rank, reconsolidate, write and assemble
(:func:`run_recall`)."""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, overload

import neo4j
import numpy as np
import numpy.typing as npt

from graphmem.embedding import Embedder, Vectors
from graphmem.errors import UsageProblem
from graphmem.model.details import any_fabricated, believed_about, displayed_day, render
from graphmem.model.flashbulb import EmotionalContext
from graphmem.model.forgetting import CURVES
from graphmem.model.params import Parameters, Profile
from graphmem.model.reconsolidation import Reconsolidation, reconsolidate
from graphmem.model.vocabulary import Marker, SourceType
from graphmem.recall.candidates import Context, check_context, held_key, read_context
from graphmem.recall.dates import asks_when, date_route, named_spans
from graphmem.recall.lexical import topic_terms
from graphmem.recall.neighbours import NO_TALK, neighbours
from graphmem.recall.prompt import display_order
from graphmem.recall.ranking import Ranked, named_in, score_candidates, source_route, top_k
from graphmem.recall.reconsolidate import belief_at, memory_state, recalled_together, update_row, write_updates
from graphmem.recall.result import RecallResult
from graphmem.recall.series import EarlierCandidates, read_earlier, read_earlier_beside
from graphmem.recall.types import Candidate, RecalledMemory, RecallRequest, participants_tuple
from graphmem.recall.vectors import EmbeddingCache, GameVectors
from graphmem.recall.working import active_thoughts
from graphmem.store.reader import HeldCandidates, MemoryReader

__all__ = ["dense_scores", "recall", "run_recall"]

log = logging.getLogger(__name__)


def recall(driver: neo4j.Driver, database: str | None, game: str, player: str, *, topic: str | None = None,
           participants: Sequence[str] = (), at: int | None = None, k: int | None = None, seed: int = 0,
           params: Parameters, embedder: Embedder | None = None, dry_run: bool = False,
           cache: EmbeddingCache | None = None, reader: MemoryReader | None = None) -> RecallResult:
    """The memory context of ``player`` for a dialogue about ``topic`` with ``participants``
    (docs/model.md#recall-and-reconsolidation).

    driver, database : the caller's driver and database (None: the server's default)
    game, player : the game id and the owner's name
    topic : str or None; None or blank ranks by strength (and the participant boost) alone
    participants : names of the players in the conversation; memories about any of them get +0.2 relevance
    at : int or None, the recall phase (None: ``Game.decayed_to``). A recall at a phase given here is a look and
        writes nothing (as with ``dry_run``), the game's current phase included; see
        :func:`graphmem.recall.candidates.strength_now` for what the past can and cannot show
    k : int >= 1 or None (``parameters.recall.k``, 10); seed : int, reconsolidation's seed
    params : the model parameters (the game's forgetting curve ``Game.curve`` replaces ``params.curve``)
    embedder : needed when there is a topic (the topic's embedding)
    dry_run : compute the same result and write nothing
    cache : the memories' vectors the process keeps between recalls (:class:`graphmem.recall.vectors.EmbeddingCache`;
        None: a new one for this call, so every vector is read)
    reader : what reads and holds the owners' candidates between recalls, and writes through them
        (:class:`graphmem.store.reader.MemoryReader`; None: a new one for this call, so every candidate is read). A
        writing recall through a reader made with ``background=True`` returns once its write has committed and
        leaves the second raise of the owner's memory version to the reader's thread: call ``reader.settle()``
        before closing ``driver``

    Returns a :class:`RecallResult` (``.prompt()`` is the docs/prompt.md block, ``.to_json()`` the same as JSON).
    Raises NotFound for an unknown game, player or participant (listing what exists); UsageProblem for ``at``
    outside 0..decayed_to, k < 1, or a topic without an embedder; RecallConflict when a concurrent recall changed
    a memory between the read and the write (nothing is written then).
    """
    request = RecallRequest(game, player, topic, participants_tuple(participants), at, k, seed, dry_run)
    return run_recall(driver, database, request, params, embedder, cache=cache, reader=reader)


def _curve(context: Context, params: Parameters) -> Parameters:
    curve = context.curve
    if curve not in CURVES:
        raise UsageProblem(f"game has unknown forgetting curve {curve!r} (known: {', '.join(CURVES)})")
    return params if curve == params.curve else replace(params, curve=curve)


def _conflicts(context: Context, by_uid: Mapping[str, Candidate]
               ) -> dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]]:
    """{memory uid: (names of the players its open conflicts are about, (conflict uid, sentence) of each)}."""
    names: dict[str, list[str]] = {}
    lines: dict[str, list[tuple[str, str]]] = {}
    for c in context.conflicts:
        uid = str(c.get("memory"))
        subject = c.get("subject")
        if not subject:
            about = by_uid[uid].about if uid in by_uid else ()
            subject = about[0] if about else "this"
        names.setdefault(uid, [])
        if subject not in names[uid]:
            names[uid].append(str(subject))
        text = c.get("text")
        line = (str(c.get("uid")), str(text)) if text else (f"{uid}/{subject}",
                                                             f"You have conflicting memories about {subject}.")
        if line not in lines.setdefault(uid, []):
            lines[uid].append(line)
    return {uid: (tuple(v), tuple(lines[uid])) for uid, v in names.items()}


def recalled_memory(c: Candidate, r: Ranked, result: Reconsolidation, belief: str,
                    conflicts: tuple[str, ...], conflict_lines: tuple[tuple[str, str], ...] = (), *,
                    game: str | None = None, series_game: int | None = None) -> RecalledMemory:
    """The memory as the owner now remembers it: ranked as ``r`` (marker and score from the strength at recall),
    shown with the details and believed teller after this recall's reconsolidation ``result``; the day is the one
    the owner believes (None when the ``when`` detail is lost, a fabricated day when one was imported). The teller is
    the one the owner believes in, none once the source is forgotten ("[Source unclear]": the JSON an agent reads
    must not name whom its prompt no longer can). ``game``, ``series_game``: the earlier game of the series it comes
    from and its place (None for the recall's own game)."""
    assert r.marker is not None
    lost = tuple(str(d.kind) for d in result.details if d.lost)
    day = displayed_day(result.details, c.day) if c.day is not None else None
    return RecalledMemory(
        uid=c.uid, event=c.event, kind=c.kind, marker=r.marker, day=day, true_day=c.day, phase_name=c.phase_name,
        source_belief=belief, teller=None if belief == SourceType.UNKNOWN else result.believed_teller,
        text=c.text if c.template is None else render(c.template, result.details), template=c.template,
        details=result.details, about=believed_about(result.details, c.about),
        strength=r.strength, strength_after=result.strength, score=r.score, relevance=r.relevance, dense=r.dense,
        lexical=r.lexical, source_route=r.source,
        flashbulb=c.flashbulb, summary=c.summary, fabricated=any_fabricated(result.details),
        misattributed=result.misattributed, lost=lost, conflicts=conflicts,
        changes=tuple(str(change) for change in result.changes), emotion_json=c.emotion_json,
        witnesses=c.witnesses, own=c.own, conflict_lines=conflict_lines, game=game, series_game=series_game)


def dense_scores(vectors: GameVectors, rows: npt.NDArray[np.intp],
                 vector: Vectors | None) -> npt.NDArray[np.float64] | None:
    """The raw dense score of each candidate, cos(topic, text) in [-1, 1], float64, shape (len(rows),); NaN for a
    memory stored without an embedding (row -1); None without a topic (:mod:`graphmem.recall.vectors` says why the
    context of a memory cues through the lexical lane, not here).

    vectors, rows : the game's kept vectors (text embeddings, :mod:`graphmem.recall.vectors`)
    and each candidate's row (:meth:`EmbeddingCache.fetch`). One pass over the float32 vectors, the topic
    L2-normalised. Each score depends only on the two vectors, never on where the row sits among the others
    (``einsum``; BLAS's matrix-vector product does not promise that, and its last bits then change with the order
    the candidates arrive in), so replays are exact. The ranking min-max normalises the scores
    (docs/model.md#candidates-and-ranking).
    """
    if vector is None:
        return None
    topic = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(topic))
    if norm > 0.0:
        topic = topic / norm
    scores = np.full(len(rows), np.nan)
    found = rows >= 0
    if found.any():
        picked = rows[found]
        low, high = int(picked.min()), int(picked.max()) + 1
        if 2 * picked.size >= high - low:
            # most of the rows between the first and the last picked (an owner's memories are read together, so
            # they sit side by side): one pass over that slice costs less than copying the rows picked (an owner of
            # 10,000 candidates: 14 ms to 7 ms, and 5 ms when the game holds another owner's 10,000 beside them);
            # row i's value is the same either way
            scores[found] = np.einsum("ij,j->i", vectors.texts[low:high], topic)[picked - low].astype(np.float64)
        else:
            scores[found] = np.einsum("ij,j->i", vectors.texts[picked], topic).astype(np.float64)
    return scores


def similar_pairs(vectors: GameVectors, rows: Sequence[int], uids: Sequence[str],
                  min_cosine: float) -> dict[str, tuple[tuple[str, float], ...]]:
    """For each of ``uids`` (memories recalled together; their rows in ``vectors``), the others whose text
    embeddings have cosine >= ``min_cosine`` with it: {uid: ((other uid, cosine), ...)}, the donors of details and
    tellers of docs/model.md#reconsolidation (:func:`graphmem.recall.reconsolidate.recalled_together`). The text
    embeddings alone: sharing a day or a place does not make two memories tell the same thing. Each cosine depends only
    on the two vectors (one einsum per pair, k (k - 1) / 2 of them)."""
    out: dict[str, list[tuple[str, float]]] = {u: [] for u in uids}
    for i, (a, ra) in enumerate(zip(uids, rows)):
        for b, rb in zip(uids[i + 1:], rows[i + 1:]):
            if ra < 0 or rb < 0:
                continue
            cosine = float(np.einsum("j,j->", vectors.texts[ra], vectors.texts[rb]))
            if cosine >= min_cosine:
                out[a].append((b, cosine))
                out[b].append((a, cosine))
    return {u: tuple(v) for u, v in out.items()}


def about_flags(vectors: GameVectors, rows: npt.NDArray[np.intp],
                participants: Sequence[str]) -> npt.NDArray[np.bool_]:
    """Whether each candidate (its row in ``vectors``) is about any of ``participants``, shape (len(rows),)."""
    wanted = set(participants)
    return np.fromiter((i >= 0 and not wanted.isdisjoint(vectors.about[i]) for i in rows), dtype=bool,
                       count=len(rows))


def source_values(vectors: GameVectors, rows: npt.NDArray[np.intp], named: frozenset[str], now: int, curve: str,
                  unknown_below: float) -> npt.NDArray[np.float64]:
    """The source route of each candidate (its row in ``vectors``), shape (len(rows),): for the memories the owner
    believes came from one of ``named`` (the players the topic names), :func:`graphmem.recall.ranking.source_route`
    at phase ``now``; 0 for the others. One numpy pass over the cache's source columns (an owner of 10,000
    memories: a Python loop over the rows took 5.8 ms, this 0.8 ms, both under a load of 9 on 2 cores)."""
    out = np.zeros(len(rows))
    ids = [vectors.speaker_index[name] for name in named if name in vectors.speaker_index]
    if not ids or not len(rows):
        return out
    valid = rows >= 0
    safe = np.where(valid, rows, 0)
    wanted = np.zeros(len(vectors.speaker_index) + 1, dtype=bool)  # by speaker id (0: none); np.isin cost 66 us a
    wanted[ids] = True  # game, 3 ms of a recall over a series of 50 games
    picked = valid & wanted[vectors.speaker_ids[safe]]
    if not picked.any():
        return out
    numbers, flags = vectors.cue_numbers[safe[picked]], vectors.cue_flags[safe[picked]]
    keep: npt.NDArray[np.bool_] = np.any(flags, axis=1)  # model.source.keeps_source: own, flashbulb or misattributed
    out[picked] = source_route(numbers[:, 0], numbers[:, 1], numbers[:, 2], numbers[:, 3], keep, flags[:, 0], now,
                               curve, unknown_below)
    return out


@dataclass(frozen=True)
class Segment:
    """The candidates of one game a recall reads: the recall's own game (``position`` None) or an earlier game of
    its series (docs/model.md#series-of-games), with the player the owner was there, the game's incarnation, the
    phase that is now in it, its curve, and its candidates as the reader holds them (``held``: their parallel arrays,
    the player's memory version they were read at and the rows of recalled memories they show)."""

    game: str
    player: str
    position: int | None
    incarnation: str | None
    now: int
    curve: str
    held: HeldCandidates


def conversation_neighbours(held: Sequence[tuple[GameVectors, npt.NDArray[np.intp]]]) -> npt.NDArray[np.intp]:
    """The neighbours of every candidate in its conversation (:func:`graphmem.recall.neighbours.neighbours`), each
    game's candidates among themselves: shape (n, 2), indices into the candidates of all the games one after another,
    -1 for none. held : (a game's vectors, each candidate's row in them, -1 for a memory without an embedding) per
    game, in the order of the segments."""
    parts, offset = [], 0
    for vectors, rows in held:
        valid = rows >= 0
        safe = np.where(valid, rows, 0)
        talks = np.where(valid, vectors.talks[safe], NO_TALK)
        found = neighbours(talks, np.where(valid, vectors.lines[safe], 0))
        parts.append(np.where(found >= 0, found + offset, -1))
        offset += rows.shape[0]
    return np.concatenate(parts) if parts else np.full((0, 2), -1, dtype=np.intp)


def joined(segments: Sequence[Segment]) -> tuple[tuple[str, ...], tuple[int, ...], npt.NDArray[np.float64],
                                                  npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """(uids, ns, strengths, flashbulbs, thresholds) of every segment's candidates, one after another (the arrays of
    the only segment as they are)."""
    if len(segments) == 1:
        h = segments[0].held
        return h.uids, h.ns, h.strengths, h.flashbulbs, h.thresholds
    held = [s.held for s in segments]
    return (tuple(u for h in held for u in h.uids), tuple(n for h in held for n in h.ns),
            np.concatenate([h.strengths for h in held]), np.concatenate([h.flashbulbs for h in held]),
            np.concatenate([h.thresholds for h in held]))


class TieOrder(Sequence[str]):
    """The order of candidates of equal score over a series of games, by candidate index, computed only for the
    candidates asked (the ranking asks for the best k and their ties): the own game's memories first (by uid), then
    the earlier games' by a hash of their uid, which favours no game. On ``perfect`` the same remark heard in many
    games scores the same in each, and neither the first games (their uids sort first) nor the last may take every
    tie (docs/model.md#series-of-games)."""

    def __init__(self, uids: Sequence[str], own: int) -> None:
        self.uids, self.own = uids, own

    def __len__(self) -> int:
        return len(self.uids)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        uid = self.uids[i]
        return "0" + uid if i < self.own else "1" + hashlib.sha1(uid.encode()).hexdigest()[:12]


def tie_order(segments: Sequence[Segment], uids: Sequence[str]) -> TieOrder | None:
    """:class:`TieOrder` of the candidates ``uids`` of ``segments`` (the own game's first); None for one game."""
    return None if len(segments) == 1 else TieOrder(uids, len(segments[0].held.uids))


def _nan_none(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


class _Clock:
    """The wall and CPU time of each stage of one recall, in seconds (``RecallResult.timings``, ``cpu_timings``):
    :meth:`lap` closes the stage of its name."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.started = self.wall = time.perf_counter()
        self.cpu_started = self.thread = time.thread_time()

    def lap(self, name: str) -> None:
        wall, thread = time.perf_counter(), time.thread_time()
        self.timings[name], self.cpu[name] = wall - self.wall, thread - self.thread
        self.wall, self.thread = wall, thread

    def total(self) -> float:
        """Close the recall (``total``, from the start); returns its wall time."""
        self.timings["total"] = time.perf_counter() - self.started
        self.cpu["total"] = time.thread_time() - self.cpu_started
        return self.timings["total"]


@dataclass(frozen=True)
class TopK:
    """What the rank stage leaves to the later ones, before the rows of the memories it chose are read: the best
    ``k`` candidates (``ranked``, best first), each candidate's access count (``ns``), lexical and dense scores (by
    position; ``dense`` None without a topic), the owner's retrieval threshold and profile, the segment each candidate
    belongs to (:meth:`segment`) and the number of candidates ranked (``candidates``)."""

    ranked: list[Ranked]
    ns: Sequence[int]
    lexical: npt.NDArray[np.float64]
    dense: npt.NDArray[np.float64] | None
    threshold: float
    segments: list[Segment]
    candidates: int
    profile: Profile
    segment_of: dict[str, Segment]

    def segment(self, uid: str) -> Segment:
        """The segment of candidate ``uid`` (the own game's unless an earlier game's)."""
        return self.segment_of.get(uid, self.segments[0])

    def wanted(self) -> list[tuple[str, int, dict[str, Mapping[str, Any]]]]:
        """What the reader reads the rows of the memories chosen from (:meth:`MemoryReader.read_memories`): (uid, the
        access count it was ranked at, the rows its segment's candidates show) of each."""
        return [(r.uid, self.ns[r.position], self.segment(r.uid).held.shown) for r in self.ranked]

    def with_rows(self, rows: Sequence[Mapping[str, Any]]) -> Ranking:
        """The ranking with the rows read of the memories chosen (``recall/memories``; a memory deleted since it was
        ranked has none and is not recalled)."""
        index = {r.uid: r.position for r in self.ranked}
        candidates = [Candidate.from_row({**row, "lexical": float(self.lexical[index[row["uid"]]]),
                                          "dense": None if self.dense is None
                                          else _nan_none(self.dense[index[row["uid"]]])}, self.threshold)
                      for row in rows]
        by_uid = {c.uid: c for c in candidates}
        return Ranking(self, [r for r in self.ranked if r.uid in by_uid], by_uid)


@dataclass(frozen=True)
class Ranking:
    """The memories recalled (``recalled``, best first, each with its :class:`Candidate` in ``by_uid``, read in full)
    of the rank stage's choice ``top``."""

    top: TopK
    recalled: list[Ranked]
    by_uid: dict[str, Candidate]

    def segment(self, uid: str) -> Segment:
        """The segment of candidate ``uid`` (the own game's unless an earlier game's)."""
        return self.top.segment(uid)


def run_recall(driver: neo4j.Driver, database: str | None, request: RecallRequest, params: Parameters,
               embedder: Embedder | None = None, *, cache: EmbeddingCache | None = None,
               reader: MemoryReader | None = None) -> RecallResult:
    """:func:`recall` for a :class:`RecallRequest` (see there), in its stages, each timed under its name: read (the
    owner's game through the reader; the earlier games of its series after it, "read earlier games"), embed (the
    topic's embedding beyond the read, which it overlaps), rank ("dense", "lexical", "neighbours", "rank"), the
    cosines among the memories chosen ("similar"), the chosen memories' rows ("memories"), "reconsolidate", "write"
    and "assemble". A writing recall reads the rows and reconsolidates in its write transaction (:func:`write`), a
    look in a read transaction of its own; "write" is then the statement and the commit."""
    if request.has_topic and embedder is None:
        raise UsageProblem("recall with a topic needs an embedder (the topic is embedded to rank memories)")
    k = request.k if request.k is not None else params.recall.k
    cache = cache if cache is not None else EmbeddingCache(0)
    reader = reader if reader is not None else MemoryReader(0)
    clock = _Clock()
    # with the model loaded, the topic is embedded while Neo4j reads; else after the check, so that a typo in a name
    # never waits for the model to load
    embedding = (embedder.encode_one_later(request.topic or "")
                 if request.has_topic and embedder is not None and embedder.loaded else None)
    context, beside = read(driver, database, request, params, reader, cache)
    clock.lap("read")
    vector = embedding.result() if embedding is not None else (
        embedder.encode_one(request.topic or "") if request.has_topic and embedder is not None else None)
    clock.lap("embed")
    p = _curve(context, params)
    segments = read_segments(driver, database, request, params, context, p.curve, beside, reader, cache)
    clock.lap("read earlier games")
    top = rank(request, context, segments, vector, p, k, cache, driver, database, clock)
    pairs = similar(driver, database, top, p, cache)
    clock.lap("similar")
    writable = not request.dry_run and request.at is None  # an explicit phase is a look, at the current phase too
    if writable:
        ranking, results, written = write(driver, database, request, context, top, pairs, p, params, reader, clock)
    else:
        rows = reader.read_memories(driver, database, request.player, top.wanted())
        ranking, results = reconsolidate_chosen(request, context, top, rows, pairs, p, clock)
        written = 0
    clock.lap("write")
    return assemble(request, context, ranking, results, p, k, writable, written, clock)


def read(driver: neo4j.Driver, database: str | None, request: RecallRequest, params: Parameters,
         reader: MemoryReader, cache: EmbeddingCache) -> tuple[Context, Future[list[EarlierCandidates]] | None]:
    """The read stage: the owner's game through ``reader`` (:func:`graphmem.recall.candidates.read_context`),
    checked against the request (NotFound, UsageProblem), and, for a game the process has met as one of a series,
    the earlier games read beside it (a future)."""
    beside = (read_earlier_beside(driver, database, request.game, request.player, params, reader, cache)
              if request.at is None else None)
    context = read_context(driver, database, request.game, request.player, request.at, params, reader, cache)
    check_context(context, request.game, request.player, request.participants, request.at)
    return context, beside


def read_segments(driver: neo4j.Driver, database: str | None, request: RecallRequest, params: Parameters,
                  context: Context, curve: str, beside: Future[list[EarlierCandidates]] | None,
                  reader: MemoryReader, cache: EmbeddingCache) -> list[Segment]:
    """The candidates of the owner's own game first, then those of the earlier games of its series
    (docs/model.md#series-of-games; a look into the past with ``at`` before the game's phase shows the owner's own
    game only); a game whose memories of the owner all faded costs nothing more."""
    in_series = bool(context.series) and (request.at is None or request.at == context.decayed_to)
    if beside is not None:
        earlier = beside.result() if in_series else []  # the game left its series since: what was read is dropped
    else:
        earlier = (read_earlier(driver, database, request.game, request.player, params, reader, cache)
                   if in_series else [])
    return [Segment(request.game, request.player, None, context.incarnation, context.now, curve, context.held),
            *(Segment(e.self.game, e.self.player, e.self.position, e.held.incarnation, e.now, e.curve, e.held)
              for e in earlier if e.held.uids)]


def rank(request: RecallRequest, context: Context, segments: list[Segment], vector: Vectors | None, p: Parameters,
         k: int, cache: EmbeddingCache, driver: neo4j.Driver, database: str | None, clock: _Clock) -> TopK:
    """The rank stage (docs/model.md#candidates-and-ranking): every candidate's dense and lexical scores, source
    route, neighbours and date routes from the vectors ``cache`` holds (read through ``driver`` for the memories it
    lacks), the scores, the cued-recall filter and the best ``k``; their rows are read after it (:class:`TopK`)."""
    uids, ns, strengths, flashbulbs, thresholds = joined(segments)
    n = len(uids)
    dense: npt.NDArray[np.float64] | None = None
    source: npt.NDArray[np.float64] | None = None
    lexical = np.zeros(n)
    about = np.zeros(n, dtype=bool)
    near: npt.NDArray[np.intp] | None = None
    dated: npt.NDArray[np.float64] | None = None
    timed: npt.NDArray[np.float64] | None = None
    if n and (vector is not None or request.participants):
        named = named_in(request.topic, context.players)
        parts: list[tuple[npt.NDArray[np.float64] | None, npt.NDArray[np.float64] | None, npt.NDArray[np.bool_]]] = []
        held_rows: list[tuple[GameVectors, npt.NDArray[np.intp]]] = []
        for seg in segments:
            vectors, rows = cache.fetch(driver, database, seg.game, seg.incarnation, seg.held.uids, seg.held.ns)
            held_rows.append((vectors, rows))
            parts.append((dense_scores(vectors, rows, vector),
                          source_values(vectors, rows, named, seg.now, seg.curve, p.source.unknown_below)
                          if named else None,
                          about_flags(vectors, rows, request.participants) if request.participants
                          else np.zeros(len(rows), dtype=bool)))
        dense = None if vector is None else np.concatenate([d for d, _, _ in parts if d is not None])
        source = None if not named else np.concatenate([v for _, v, _ in parts if v is not None])
        about = np.concatenate([a for _, _, a in parts]) if parts else about
        clock.lap("dense")
        terms = topic_terms(request.topic)
        if terms:
            lexical = np.concatenate(cache.lexical(held_rows, terms))
        clock.lap("lexical")
        if vector is not None and p.recall.neighbour_weight > 0.0:
            near = conversation_neighbours(held_rows)
        clock.lap("neighbours")
        spans = named_spans(request.topic) if p.recall.date_weight > 0.0 else ()
        if spans:
            dated = np.concatenate([date_route(np.where(rows >= 0, vectors.told[np.maximum(rows, 0)], np.nan), spans)
                                    for vectors, rows in held_rows])
        if p.recall.when_weight > 0.0 and asks_when(request.topic):
            timed = np.concatenate([np.where(rows >= 0, vectors.postings.timed[np.maximum(rows, 0)], 0.0)
                                    for vectors, rows in held_rows])
    else:
        clock.lap("dense")

    profile = p.profile(context.profile or p.default_profile)
    threshold = context.threshold if context.threshold is not None else profile.retrieval_threshold
    scores = score_candidates(strengths, flashbulbs, thresholds, dense, lexical, about, p, source=source,
                              neighbours=near, date=dated, when=timed)
    ranked = top_k(uids, strengths, flashbulbs, thresholds, scores, k, p, ties=tie_order(segments, uids))
    segment_of = {uid: seg for seg in segments for uid in seg.held.uids} if len(segments) > 1 else {}
    clock.lap("rank")
    return TopK(ranked, ns, lexical, dense, threshold, segments, n, profile, segment_of)


def similar(driver: neo4j.Driver, database: str | None, top: TopK, p: Parameters,
            cache: EmbeddingCache) -> dict[str, tuple[tuple[str, float], ...]]:
    """The memories chosen that may lend each other details and tellers (docs/model.md#reconsolidation): for each of
    ``top.ranked``, the others of the same game chosen with it whose text embeddings have cosine >= 0.5
    (:func:`similar_pairs`, the vectors ``cache`` keeps; read now for a recall that needed none). Before the rows are
    read: a text embedding never changes once written."""
    pairs: dict[str, tuple[tuple[str, float], ...]] = {}
    for seg in top.segments:
        together = [r for r in top.ranked if top.segment(r.uid) is seg]
        if together:
            uids = [r.uid for r in together]
            vectors, rows = cache.fetch(driver, database, seg.game, seg.incarnation, uids,
                                       [top.ns[r.position] for r in together])
            pairs.update(similar_pairs(vectors, [int(r) for r in rows], uids, p.similarity.detail_import))
    return pairs


def reconsolidate_chosen(request: RecallRequest, context: Context, top: TopK, rows: Sequence[Mapping[str, Any]],
                         pairs: Mapping[str, tuple[tuple[str, float], ...]], p: Parameters,
                         clock: _Clock) -> tuple[Ranking, dict[str, Reconsolidation]]:
    """The memories ``top`` chose with their ``rows`` just read (``recall/memories``; timed as "memories"), and their
    reconsolidation (:func:`reconsolidate_recalled`; "reconsolidate"): what a look does after its read transaction and
    a writing recall inside its write transaction (:func:`write`)."""
    ranking = top.with_rows(rows)
    clock.lap("memories")
    results = reconsolidate_recalled(request, context, ranking, pairs, p)
    clock.lap("reconsolidate")
    return ranking, results


def reconsolidate_recalled(request: RecallRequest, context: Context, ranking: Ranking,
                           pairs: Mapping[str, tuple[tuple[str, float], ...]],
                           p: Parameters) -> dict[str, Reconsolidation]:
    """The reconsolidate stage (docs/model.md#reconsolidation): each recalled memory at the phase of its own game now
    (an earlier game of the series is far past its end), with its donors of details and tellers, the other memories
    recalled with it that ``pairs`` names (:func:`similar`). {uid: its result}."""
    by_uid = ranking.by_uid
    emotion_now = EmotionalContext.from_json(context.emotion_json).peak
    states = {r.uid: memory_state(by_uid[r.uid], ranking.segment(r.uid).now) for r in ranking.recalled}
    donors = recalled_together([replace(by_uid[r.uid], similar=pairs[r.uid]) for r in ranking.recalled])
    return {uid: reconsolidate(states[uid], ranking.segment(uid).now, emotion_now, donors.get(uid, ()),
                               ranking.top.profile, p, request.seed)
            for uid in states}


def write(driver: neo4j.Driver, database: str | None, request: RecallRequest, context: Context, top: TopK,
          pairs: Mapping[str, tuple[tuple[str, float], ...]], p: Parameters, params: Parameters, reader: MemoryReader,
          clock: _Clock) -> tuple[Ranking, dict[str, Reconsolidation], int]:
    """The write stage of a writing recall, in one write transaction through ``reader``
    (:func:`graphmem.recall.reconsolidate.write_updates`): the rows of the memories chosen (``recall/memories``, for
    those the candidates do not show; "memories"), their reconsolidation ("reconsolidate"), then every reconsolidated
    memory written, for every game the recalled memories come from, each at its own game's phase. The rows' read was
    a read transaction of its own before the write (bench/README.md, "CPU per writing recall"). What was written is
    not put into what the process holds: the reader's next read of each player written finds it in the change log and
    reads it. Returns (the ranking with its rows, {uid: reconsolidation}, the memories written)."""
    if not top.ranked:
        return top.with_rows([]), {}, 0
    own = top.segments[0]
    keys = [held_key(database, own.game, own.player, None, params),
            *{held_key(database, seg.game, seg.player, None, params): None
              for seg in map(top.segment, (r.uid for r in top.ranked)) if seg is not own}]
    done: list[tuple[Ranking, dict[str, Reconsolidation]]] = []

    def updates(tx: neo4j.ManagedTransaction) -> tuple[list[dict[str, Any]], dict[tuple[str, str], list[str]]]:
        ranking, results = reconsolidate_chosen(request, context, top, reader.memories_in(tx, request.player,
                                                                                       top.wanted()), pairs, p, clock)
        done[:] = [(ranking, results)]  # a retried transaction computes them again
        also: dict[tuple[str, str], list[str]] = {}
        for uid in results:
            seg = ranking.segment(uid)
            if seg is not own:
                also.setdefault((seg.game, seg.player), []).append(uid)
        return [update_row(ranking.by_uid[uid], result, ranking.segment(uid).now, p)
                for uid, result in results.items()], also

    written = write_updates(driver, database, request.game, request.player, updates, reader, keys)
    ranking, results = done[0]
    return ranking, results, written


def assemble(request: RecallRequest, context: Context, ranking: Ranking, results: Mapping[str, Reconsolidation],
             p: Parameters, k: int, writable: bool, written: int, clock: _Clock) -> RecallResult:
    """The assemble stage: each recalled memory as the owner now remembers it, in display order
    (docs/prompt.md), the flashbulb of the VIVID MEMORY section, and working memory (docs/model.md#working-memory)."""
    by_uid, now = ranking.by_uid, context.now
    conflicts = _conflicts(context, by_uid)
    memories = display_order(
        recalled_memory(by_uid[r.uid], r, results[r.uid],
                        belief_at(by_uid[r.uid], seg.now, p, results[r.uid].misattributed),
                        *conflicts.get(r.uid, ((), ())),
                        game=seg.game if seg.position is not None else None, series_game=seg.position)
        for r, seg in ((r, ranking.segment(r.uid)) for r in ranking.recalled))
    vivid_ones = [m for m in memories if m.marker is Marker.FLASHBULB]
    vivid = min(vivid_ones, key=lambda m: (-m.relevance, -m.score, m.uid)) if vivid_ones else None
    capacity = context.wm_capacity or ranking.top.profile.working_memory_capacity
    thoughts = active_thoughts(context.thoughts, now, capacity, already_active=now == context.decayed_to)
    clock.lap("assemble")
    total = clock.total()
    log.info("recall %s/%s at phase %d: %d of %d candidates, %d written, %.1f ms", request.game, request.player,
             now, len(memories), ranking.top.candidates, written, 1000 * total)
    return RecallResult(
        game=request.game, player=request.player, phase=now, decayed_to=context.decayed_to, topic=request.topic,
        participants=request.participants, k=k, seed=request.seed, dry_run=not writable, written=written,
        candidates=ranking.top.candidates, thoughts=thoughts, memories=tuple(memories), vivid=vivid,
        timings=MappingProxyType(clock.timings), cpu_timings=MappingProxyType(clock.cpu))
