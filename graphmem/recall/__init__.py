"""Recall: a player's memory context for a dialogue, with reconsolidation (docs/model.md#recall-and-reconsolidation,
docs/model.md#working-memory, docs/prompt.md).

``recall(driver, database, game, player, topic=..., participants=..., at=..., k=..., seed=..., params=...,
embedder=..., dry_run=..., cache=..., reader=...)`` returns a :class:`RecallResult`; ``result.prompt()`` is the
prompt block of docs/prompt.md (:mod:`graphmem.recall.prompt`) and ``result.to_json()`` the same content for
programs.

Pipeline, one call:

1. read the game, the owner and the candidates in ONE query (``cypher/recall/context.cypher``): the owner, the
   owner's thoughts and open conflicts, the candidates as parallel lists of numbers (node id, access count, strength
   at ``now``, flashbulb flag, threshold); each candidate's uid is the one the process's reader
   (:class:`graphmem.store.reader.MemoryReader`) holds for its node id, the others read in the same transaction
   (``recall/uids``: a node id names a node only while it lives). The
   candidates are the owner's memories that some cue could bring back (cued recall, :mod:`graphmem.model.retrieval`):
   encoded by ``now``, neither consolidated nor tombstoned, and a flashbulb or at least as strong as the cue floor
   max(0.15, threshold) * (1 - CueSupport); a memory below it is forgotten and moves no other memory's score.
   Everything is read from the composite index ``memory_recall``, never from the store, and at the game's current
   phase the index seek starts at the lowest cue floor (the stored strength is never below the strength now), so
   a long-forgotten memory costs nothing. The request is
   checked against what the query returns (unknown game, player or participant; ``at`` outside the game's phases)
   before anything is embedded. The read goes through the process's reader
   (:class:`graphmem.store.reader.MemoryReader`), which holds the candidates between recalls: not read again while
   the owner's memory version holds (:mod:`graphmem.store.versions`), only the memories the owner's change log names
   after a logged write, this process's writing recalls included;
2. embed the topic (timed apart: ``timings["embed"]``);
3. dense and lexical scores and the source route: each candidate's text embedding, words and source cue
   (:mod:`.vectors`) come from the process's :class:`~graphmem.recall.vectors.EmbeddingCache`, read from Neo4j only
   the first time, or brought up to date from what the read after a reconsolidation read of the memory; the dense
   score is the topic's cosine with the text (one pass over the matrix), the
   lexical score BM25 of the topic's words with the statistics of the owner's candidates alone (:mod:`.lexical`: never
   the database's, so a recall depends on the owner's game alone), the source route the owner's source confidence
   for the memories believed to come from a player the topic names (:func:`.ranking.named_in`,
   :func:`.ranking.source_route`);
4. rank every candidate at once (:mod:`.ranking`, numpy): relevance from dense, lexical, the source route and the
   participant boost, score with strength, the cued-recall filter, the best ``k``; read those ``k`` in full
   (``recall/memories``, for those the reader does not show: in the write transaction of a writing recall, step 6,
   in a read transaction of their own for a look);
5. reconsolidate each recalled memory with the pure model (:mod:`.reconsolidate`). Its donors of details and
   tellers are the other memories recalled with it whose text embeddings have cosine >= 0.5 with its own (from the
   vectors the cache holds): memories that come to mind together blend. No second query;
6. write every update in ONE managed write transaction (the rows read and reconsolidated in it, then one
   statement: the move fence, the version raise and one UNWIND), unless ``dry_run`` or an earlier
   ``at``; then working memory (:mod:`.working`) and the flashbulb for the VIVID MEMORY section.

``now`` is ``at`` when given, else ``Game.decayed_to``. A recall with ``at`` is a read-only look (at the current
phase too); at an earlier phase it looks into the past: strengths come from the closed form at that phase, with the
encoding values (e0, t_enc, s_enc) for a memory rehearsed after it; details, believed tellers, emotions and the
lifecycle of consolidation are the current ones, since the graph keeps no history of them. Replays are exact: the
same seed on the same stored state gives the same result (every random draw is seeded by (seed, memory uid, access
count); ties are broken by uid; each dense score depends only on its two vectors).

Latency
-------
The read is built for an owner of 10,000 memories within 50 ms at p95: candidates and their ranking values come from
the composite index ``memory_recall`` alone, the embeddings and source cues are kept by the process
(:mod:`.vectors`), the scores are one numpy pass, and an owner's candidates are not read again while its memory
version holds. The measured history of each of these choices (what was tried, kept and reverted, with figures)
is in bench/README.md, "Recall latency: the choices and their measurements".
"""

from __future__ import annotations

from graphmem.recall.candidates import strength_now
from graphmem.recall.pipeline import recall, run_recall
from graphmem.recall.result import RecallResult
from graphmem.recall.types import ActiveThought, Candidate, RecalledMemory, RecallRequest
from graphmem.recall.vectors import EmbeddingCache

__all__ = ["ActiveThought", "Candidate", "EmbeddingCache", "RecallRequest", "RecallResult",
           "RecalledMemory", "recall", "run_recall", "strength_now"]
