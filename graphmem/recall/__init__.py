"""Recall: a player's memory context for a dialogue, with reconsolidation (docs/model.md#recall-and-reconsolidation,
docs/model.md#working-memory, docs/prompt.md).

``recall(driver, database, game, player, topic=..., participants=..., at=..., k=..., seed=..., params=...,
embedder=..., dry_run=..., cache=...)`` returns a :class:`RecallResult`; ``result.prompt()`` is the prompt block of
docs/prompt.md (:mod:`graphmem.recall.prompt`) and ``result.to_json()`` the same content for programs.

Pipeline, one call:

1. read the game, the owner and the candidates in ONE query (``cypher/recall/context.cypher``): the owner, the
   owner's thoughts and open conflicts, the candidates as parallel lists of numbers (node id, access count, strength
   at ``now``, flashbulb flag, threshold) and the owner's full-text hits as (node id, score), joined here by node id;
   each candidate's uid is the one the process's :class:`~graphmem.recall.vectors.EmbeddingCache` holds for its
   node id, the others read in the same transaction (``recall/uids``: a node id names a node only while it lives). The
   candidates are the owner's memories that some cue could bring back (cued recall, :mod:`graphmem.model.retrieval`):
   encoded by ``now``, neither consolidated nor tombstoned, and a flashbulb or at least as strong as the cue floor
   max(0.15, threshold) * (1 - CueSupport); a memory below it is forgotten and moves no other memory's score.
   Everything is read from the composite index ``memory_recall``, never from the store, and at the game's current
   phase the index seek starts at the lowest cue floor (the stored strength is never below the strength now), so
   a long-forgotten memory costs nothing. The full-text query carries the owner's scope token
   (``(words) AND scope:TOKEN^0``, :mod:`.lucene`), so Lucene returns the owner's matches only. The request is
   checked against what the query returns (unknown game, player or participant; ``at`` outside the game's phases)
   before anything is embedded. The candidates are not read again while the process holds them at the owner's
   current memory version (:mod:`graphmem.store.versions`; :mod:`.vectors`, "Candidates");
2. embed the topic (timed apart: ``timings["embed"]``);
3. dense scores: each candidate's two vectors (its text embedding and the embedding of its context, its keywords;
   :mod:`.vectors`) come from the process's :class:`~graphmem.recall.vectors.EmbeddingCache`, read from Neo4j only
   the first time or after a reconsolidation elsewhere changed the memory (a writing recall brings the cache up to
   date with what it wrote); the score is the better of the topic's two cosines, one pass over each matrix;
4. rank every candidate at once (:mod:`.ranking`, numpy): relevance from dense, lexical and the participant boost,
   score with strength, the cued-recall filter, the best ``k``; read those ``k`` in full (``recall/memories``);
5. reconsolidate each recalled memory with the pure model (:mod:`.reconsolidate`). Its donors of details and
   tellers are the other memories recalled with it whose text embeddings have cosine >= 0.5 with its own (from the
   vectors the cache holds): memories that come to mind together blend. No second query;
6. write every update in ONE managed write transaction (one UNWIND statement), unless ``dry_run`` or an earlier
   ``at``; then working memory (:mod:`.working`) and the flashbulb for the VIVID MEMORY section.

``now`` is ``at`` when given, else ``Game.decayed_to``. A recall with ``at`` is a read-only look (at the current
phase too); at an earlier phase it looks into the past: strengths come from the closed form at that phase, with the
encoding values (e0, t_enc, s_enc) for a memory rehearsed after it; details, believed tellers, emotions and the
lifecycle of consolidation are the current ones, since the graph keeps no history of them. Replays are exact: the
same seed on the same stored state gives the same result (every random draw is seeded by (seed, memory uid, access
count); ties are broken by uid; each dense score depends only on its two vectors).

Latency: measured choice
------------------------
Dense relevance needs the topic's similarity to every candidate (it is min-max normalised over all of them), so its
cost grows with the candidates, and with cued recall an owner's faded memories are candidates too. Three ways were
measured on an owner of 10,000 memories (``python -m bench.bench_conversation URI --recall``; bench/README.md):

(a) the cosine of every candidate in Cypher (the previous method): Neo4j reads each 1.5 KB embedding from the
    property store (~10 us) and computes the cosine (~4 us), and the ranking values from the store too: linear in
    the candidates: its dense half alone over all 10,000 memories of an owner took 125 ms median, 147 ms p95 (run of
    2026-12-01 19:36 UTC, load average 0.5 to 1.4 on 2 cores);
(b) the global vector index (``db.index.vector.queryNodes``): fast but global, so it is asked for many neighbours of
    every game and the owner's are kept; it agreed with the exact ranking less the fuller the database (0.65 of
    the top 10 at 100k memories) and gives no score to the memories it misses, which min-max needs;
(c) (chosen) the ranking values from a composite index (no store read) and the vectors kept in the process:
    embeddings never change once written, so :class:`~graphmem.recall.vectors.EmbeddingCache` reads each once
    per process; the scores are one numpy pass. In the same run, the default profile's owner of 10,000 memories
    (1,860 candidates: the rest is below the cue floor) read its candidates in 33 ms median and recalled in 51 ms
    median, 72 ms p95, topic embedding (11 ms) included; an owner of 1,000 memories in 34 ms median, 57-59 ms p95.

Then four changes, each measured on the same owners (run of 2026-12-01 22:16 UTC, load average 1.2 to 1.5):

- the candidates' row is taken with ``dict(record)``: ``record.data()`` walked every value of the lists (~100 ms
  for 10,000 candidates, more than the query);
- candidates come as one list of small rows and the full-text hits as a second list joined here by element id,
  instead of a UNION grouped by node in Cypher: the query took 19-26 ms on the server for 10,000 candidates
  instead of 36-47 ms;
- ``strength`` is the third key of ``memory_recall`` and the seek starts at the lowest cue floor: the default
  owner of 10,000 memories reads 2,690 index entries instead of 10,000;
- the model's ~470,000 objects are frozen out of the garbage collector (:mod:`graphmem.embedding`): a full
  collection over them took 228 ms and fell on one recall in twenty (the p95 of the read of 10,000 candidates was
  337 ms, 72 ms without).

Result (``python -m bench.bench_conversation URI --recall``, topic embedding of 15 ms included): 1,000 memories
31.9 ms median, 46.8 ms p95 (default profile) and 33.0/42.8 ms (``perfect``); 10,000 memories 40.4/52.8 ms
(default) and 97.2/138.7 ms (``perfect``: every memory a candidate, so the read stays linear in the owner's
memories, 57 ms for 10,000). Running the topic embedding beside the read in another thread was measured too and
not kept then, under PyTorch: on 2 cores the model and Neo4j slowed each other down as much as they overlapped
(median 43.6 against 42.5 ms sequential, p95 72 against 54 ms). Under ONNX Runtime with one thread per forward pass
it pays and is done (2026-12-02, ``Embedder.encode_one_later``): one client in-process on the real games, writing
recalls, alternated 20 s probes, p50 21.6-23.8 ms against 29.4-37.7 without, p95 30-40 against 50-60.

Then the ``perfect`` owner of 10,000 memories (run of 2026-12-02 01:41-01:44 UTC, load average 2.9 to 5.0 on 2
cores shared with two other test suites; the topic embedding took 17 to 330 ms median from one minute to the next,
so these figures leave it out and alternate the code before and after, 100 recalls a row, twice):

- the candidates come as numbers: node ids (``id()``) in parallel lists, the full-text hits as (node id, score),
  each uid from the node ids the embedding cache has met; decoding 10,000 uids and 10,000 element ids (~45
  characters each) was most of the client's share of the read. The hits join the candidates by one sort and binary
  search (a dict lookup per candidate cost 6 ms). The read went from 51.4 and 44.0 ms median to 40.8 and 37.1;
- the dense pass runs over the slice of rows between the owner's first and last (an owner's memories are read
  together, so they sit side by side), not over the whole game's matrices: 12.3 and 11.4 ms to 7.7 and 6.7 when the
  game holds the other owner's 10,000 beside them; ``EmbeddingCache.fetch`` looks each uid up once;
- the recall without its topic embedding: 72.4 and 62.9 ms median (p95 101.7 and 81.4) before, 57.3 and 54.1
  (p95 98.8 and 74.5) after; the default owner of 10,000 memories 26.2 and 33.4 before, 20.9 and 26.5 after. The
  same 272 dry-run recalls of the four benchmark owners (with and without topic, participants, warm and cold cache)
  give byte-identical JSON before and after.

Then (2026-12-02) the read of an owner's candidates is skipped while nothing changed them. Each player has a
memory version (a ``MemoryVersion`` node, :mod:`graphmem.store.versions`) that every writer of its memories raises
first in its transaction and again after its commit (a read during a commit can see the version before the index
entries written with it); the process keeps what it read with the version
(:class:`graphmem.recall.vectors.HeldCandidates`), and ``recall/context`` compares them in Neo4j before the scan,
which then seeks from strength 2 (a filter after the seek would still read every entry: the planner placed it
there). A writing recall whose two raises follow the version it read brings what its process holds up to date with what
it wrote (:func:`graphmem.recall.candidates.keep_written`), so an agent's recalls in a row are not read again
either. ``python -m bench.bench_conversation URI --recall`` (2026-12-02 08:38-08:44): the ``perfect``
owner of 10,000 memories 29.7 ms median, p95 37.0 (66.3/102.8 at 05:55 under a CI run, 63-71 p95 on a quiet
machine), the three other owners p95 32.4-36.2; writing recalls in a row of that owner 46.5/54.4 ms; a recall after
someone else's write reads them again, 67.7/91.9 ms for that owner (bench/README.md, "Long conversations").

The version first lived on the Player node (commits e41f433, 2a2bf83) and was reverted: a writing recall's raise
deadlocked with live batches, which lock Player nodes when they create ABOUT and WITNESSED_BY edges (6-16
DeadlockDetected in 12 s of an engine adding events while an agent recalled; recalls stalled 1-3 s by the driver's
retry). On a node that only the version's writers lock, raised before any memory and in uid order, the same probe
(12-15 s of ``add_events`` beside writing recalls of a witness, or of a player the events are about) gives no
deadlock and as many recalls as without a version (429-529 against 474-572, p50 18-25 ms against 17-22).

Before it, measured and not done: ranking from what the process holds with a pre-selection asked of Neo4j (the
scan of the index, not the rows it returns, was the read's cost: counting the 10,000 entries took 15-18 ms on the
server, the five lists 17-23 ms), and dropping ``uid`` from the keys of ``memory_recall`` (28-40 ms against 30-44 ms
on the server, alternated; it needs a schema migration for 5-10%).
"""

from __future__ import annotations

from graphmem.recall.candidates import strength_now
from graphmem.recall.pipeline import recall, run_recall
from graphmem.recall.reconsolidate import RecallConflict
from graphmem.recall.result import RecallResult
from graphmem.recall.types import ActiveThought, Candidate, RecalledMemory, RecallRequest
from graphmem.recall.vectors import EmbeddingCache

__all__ = ["ActiveThought", "Candidate", "EmbeddingCache", "RecallConflict", "RecallRequest", "RecallResult",
           "RecalledMemory", "recall", "run_recall", "strength_now"]
