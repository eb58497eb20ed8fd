"""The recall pipeline (SPEC 6): read, rank, reconsolidate, write, and assemble the result."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

import neo4j

from graphmem.embedding import Embedder
from graphmem.errors import UsageProblem
from graphmem.model.details import any_fabricated, displayed_day, render
from graphmem.model.flashbulb import EmotionalContext
from graphmem.model.forgetting import CURVES
from graphmem.model.params import Parameters
from graphmem.model.reconsolidation import Reconsolidation, reconsolidate
from graphmem.model.vocabulary import Marker
from graphmem.recall.candidates import Context, check_context, read_context, strength_now
from graphmem.recall.lucene import lucene_query
from graphmem.recall.prompt import display_order
from graphmem.recall.ranking import Ranked, is_about, rank
from graphmem.recall.reconsolidate import belief_at, memory_state, recalled_together, update_row, write_updates
from graphmem.recall.result import RecallResult
from graphmem.recall.types import Candidate, RecalledMemory, RecallRequest, participants_tuple
from graphmem.recall.working import active_thoughts
from graphmem.store.keys import scope_token

__all__ = ["ANN_K", "recall", "run_recall"]

log = logging.getLogger(__name__)

ANN_K = 1000
"""Neighbours asked of the global vector index in the "index" dense method (the index spans every game)."""


def recall(driver: neo4j.Driver, database: str | None, game: str, player: str, *, topic: str | None = None,
           participants: Sequence[str] = (), at: int | None = None, k: int | None = None, seed: int = 0,
           params: Parameters, embedder: Embedder | None = None, dry_run: bool = False,
           dense: str = "exact") -> RecallResult:
    """The memory context of ``player`` for a dialogue about ``topic`` with ``participants`` (SPEC 6).

    driver, database : the caller's driver and database (None: the server's default)
    game, player : the game id and the owner's name
    topic : str or None; None or blank ranks by strength (and the participant boost) alone
    participants : names of the players in the conversation; memories about any of them get +0.2 relevance
    at : int or None, the recall phase (None: ``Game.decayed_to``). An earlier phase looks into the past and
        writes nothing (as with ``dry_run``); see :func:`graphmem.recall.candidates.strength_now` for what the past
        can and cannot show
    k : int >= 1 or None (``parameters.recall.k``, 10); seed : int, reconsolidation's seed
    params : the model parameters (the game's forgetting curve ``Game.curve`` replaces ``params.curve``)
    embedder : needed when there is a topic (the topic's embedding)
    dry_run : compute the same result and write nothing
    dense : "exact" (default) or "index" (see the package docstring)

    Returns a :class:`RecallResult` (``.prompt()`` is the SPEC 8 block, ``.to_json()`` the same as JSON).
    Raises NotFound for an unknown game, player or participant (listing what exists); UsageProblem for ``at``
    outside 0..decayed_to, k < 1, or a topic without an embedder; RecallConflict when a concurrent recall changed
    a memory between the read and the write (nothing is written then).
    """
    request = RecallRequest(game, player, topic, participants_tuple(participants), at, k, seed, dry_run, dense)
    return run_recall(driver, database, request, params, embedder)


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
                    conflicts: tuple[str, ...], conflict_lines: tuple[tuple[str, str], ...] = ()) -> RecalledMemory:
    """The memory as the owner now remembers it: ranked as ``r`` (marker and score from the strength at recall),
    shown with the details and believed teller after this recall's reconsolidation ``result``; the day is the one
    the owner believes (None when the ``when`` detail is lost, a fabricated day when one was imported)."""
    assert r.marker is not None
    lost = tuple(str(d.kind) for d in result.details if d.lost)
    day = displayed_day(result.details, c.day) if c.day is not None else None
    return RecalledMemory(
        uid=c.uid, event=c.event, kind=c.kind, marker=r.marker, day=day, true_day=c.day, phase_name=c.phase_name,
        source_belief=belief, teller=result.believed_teller, text=c.text if c.template is None else
        render(c.template, result.details), template=c.template, details=result.details, about=c.about,
        strength=r.strength, strength_after=result.strength, score=r.score, relevance=r.relevance, dense=r.dense,
        lexical=r.lexical, flashbulb=c.flashbulb, summary=c.summary, fabricated=any_fabricated(result.details),
        misattributed=result.misattributed, lost=lost, conflicts=conflicts,
        changes=tuple(str(change) for change in result.changes), emotion_json=c.emotion_json,
        witnesses=c.witnesses, own=c.own, conflict_lines=conflict_lines)


def run_recall(driver: neo4j.Driver, database: str | None, request: RecallRequest, params: Parameters,
               embedder: Embedder | None = None, *, ann_k: int = ANN_K) -> RecallResult:
    """:func:`recall` for a :class:`RecallRequest` (see there). ann_k : int, neighbours of the "index" method."""
    timings: dict[str, float] = {}
    started = clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now_ = time.perf_counter()
        timings[name] = now_ - clock
        clock = now_

    vector = None
    if request.has_topic:
        if embedder is None:
            raise UsageProblem("recall with a topic needs an embedder (the topic is embedded to rank memories)")
        vector = [float(x) for x in embedder.encode_one(request.topic or "")]
    lap("embed")
    k = request.k if request.k is not None else params.recall.k
    lucene = lucene_query(request.topic, scope_token(request.game, request.player))
    context = read_context(driver, database, request.game, request.player, request.at, vector, lucene,
                           request.participants, k, params, ann_k if request.dense == "index" and vector else 0)
    check_context(context, request.game, request.player, request.participants, request.at)
    lap("read")

    p = _curve(context, params)
    profile = p.profile(context.profile or p.default_profile)
    now = context.now
    threshold = context.threshold if context.threshold is not None else profile.retrieval_threshold
    candidates = [Candidate.from_row(row, threshold) for row in context.candidates]
    by_uid = {c.uid: c for c in candidates}
    dense_range = None if context.dense_min is None or context.dense_max is None else \
        (context.dense_min, context.dense_max)
    _, recalled = rank([c.uid for c in candidates], [strength_now(c, now, p.curve) for c in candidates],
                       [c.flashbulb for c in candidates], [c.threshold for c in candidates],
                       [c.dense for c in candidates], {c.uid: c.lexical for c in candidates},
                       [is_about(c.about, request.participants) for c in candidates], k, p,
                       dense_range=dense_range, lexical_best=context.lexical_best)
    lap("rank")

    emotion_now = EmotionalContext.from_json(context.emotion_json).peak
    states = {r.uid: memory_state(by_uid[r.uid], now) for r in recalled}
    # the donors of details and tellers: the other memories recalled with each one (SPEC 6 step 3)
    donors = recalled_together([by_uid[r.uid] for r in recalled])
    lap("similar")
    results = {uid: reconsolidate(states[uid], now, emotion_now, donors.get(uid, ()), profile, p, request.seed)
               for uid in states}
    lap("reconsolidate")

    writable = not request.dry_run and now == context.decayed_to
    written = 0
    if writable:
        written = write_updates(driver, database, [update_row(by_uid[uid], results[uid], now, p) for uid in states])
    lap("write")

    conflicts = _conflicts(context, by_uid)
    memories = display_order(
        recalled_memory(by_uid[r.uid], r, results[r.uid], belief_at(by_uid[r.uid], now, p),
                        *conflicts.get(r.uid, ((), ())))
        for r in recalled)
    flashbulbs = [m for m in memories if m.marker is Marker.FLASHBULB]
    vivid = min(flashbulbs, key=lambda m: (-m.relevance, -m.score, m.uid)) if flashbulbs else None
    capacity = context.wm_capacity or profile.working_memory_capacity
    thoughts = active_thoughts(context.thoughts, now, capacity, already_active=now == context.decayed_to)
    timings["total"] = time.perf_counter() - started
    log.info("recall %s/%s at phase %d: %d of %d candidates, %d written, %.1f ms", request.game, request.player,
             now, len(memories), context.count, written, 1000 * timings["total"])
    return RecallResult(
        game=request.game, player=request.player, phase=now, decayed_to=context.decayed_to, topic=request.topic,
        participants=request.participants, k=k, seed=request.seed, dry_run=not writable, written=written,
        candidates=context.count, thoughts=thoughts, memories=tuple(memories), vivid=vivid,
        timings=MappingProxyType(timings))
