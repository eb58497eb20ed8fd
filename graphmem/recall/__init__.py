"""Recall: a player's memory context for a dialogue, with reconsolidation (SPEC 6, 7, 8).

``recall(driver, database, game, player, topic=..., participants=..., at=..., k=..., seed=..., params=...,
embedder=..., dry_run=...)`` returns a :class:`RecallResult`; ``result.prompt()`` is the prompt block of SPEC 8
(:mod:`graphmem.recall.prompt`) and ``result.to_json()`` the same content for programs.

Pipeline, one call:

1. embed the topic (timed apart: ``timings["embed"]``);
2. read everything in ONE query (``cypher/recall/context.cypher``): the owner, the owner's thoughts and open
   conflicts, and every candidate with its dense score and its full-text score. The candidates are the owner's
   memories that can be recalled at ``now``: encoded by then, neither consolidated nor tombstoned, and not archived
   then (SPEC 10: archived = "kept, not recalled"; SPEC 6 step 2 filters m >= RetrievalThreshold, which an archived
   memory fails by definition; flashbulbs, floored at 0.8, are never archived). Summaries are ordinary candidates.
   The min-max normalisation of ``dense`` and the best full-text score run over these candidates: SPEC 6 says "over
   the owner's candidates", and a memory that can never be recalled is not one, so it moves no other memory's
   score. At ``now`` = ``Game.decayed_to`` the stored lifecycle state is exact (decay job), so the composite index
   ``Memory(game, owner, state, t_enc)`` skips archived memories without reading them; at an earlier ``at`` the
   stored state describes ``decayed_to``, so every live memory is read and the decay job's rule (flashbulb, or
   strength >= threshold) is applied to the closed-form strength at ``at``. The full-text query carries the owner's
   scope token (``(words) AND scope:TOKEN^0``, :mod:`.lucene`), so Lucene returns the owner's matches only;
3. rank in Python (:mod:`.ranking`): strength at ``now`` from the closed form, relevance from dense, lexical and the
   participant boost, the clarity filter, the best ``k``;
4. reconsolidate each recalled memory with the pure model (:mod:`.reconsolidate`). The model asks for similar
   memories (cosine >= 0.5, among the same candidates) only once it has drawn a detail import or a
   misattribution; those memories are read in one query and reconsolidated again (same seed, same draws);
5. write every update in ONE managed write transaction (one UNWIND statement), unless ``dry_run`` or an earlier
   ``at``; then working memory (:mod:`.working`) and the flashbulb for the VIVID MEMORY section.

``now`` is ``at`` when given, else ``Game.decayed_to``. Recalling at an earlier phase is a read-only look into the
past: strengths come from the closed form at that phase, with the encoding values (e0, t_enc, s_enc) for a memory
rehearsed after it; details, believed tellers, emotions and the lifecycle of consolidation are the current ones,
since the graph keeps no history of them. Replays are exact: the same seed on the same stored state gives the same
result (every random draw is seeded by (seed, memory uid, access count); ties are broken by uid).

Dense retrieval: measured choice
--------------------------------
Two ways to get ``dense`` (cosine of topic and memory embeddings, min-max normalised over the owner's candidates):

(a) ``dense="index"``: the global vector index ``memory_embedding`` (``db.index.vector.queryNodes``). It spans every
    memory of every game, so it is asked for ``ANN_K`` = 1000 neighbours and the owner's candidates are kept;
    candidates it does not return get dense 0 and the min-max runs over those it returns.
(b) ``dense="exact"`` (the default): ``vector.similarity.cosine($topic, m.embedding)`` for every candidate, inside
    the one read query.

Latency, measured
-----------------
``python bench/bench_recall.py bolt://127.0.0.1:7741 1000 10000 100000``: 200 calls per size cycling the players and
10 topics, each synthetic game alone in the database, the topic embedding excluded (reported apart); and the 40
real games (3 players x 2 topics each, at their last phase, stored together with the 100k game: ~113k memories in
the indexes). Local Neo4j 5.26 Community (1 GB heap, 256 MB page cache), float32 embeddings, neo4j-rust-ext, on a
2-CPU machine where other work kept the load average at 1.3-2.2. Milliseconds, median / p95; "before" is the
previous code measured the same way on the same machine minutes apart:

=========================  ============  ===============  ===========  ===================  ==========  =============
memories (per owner:       recall with   dry, exact       dry, index   index top-10 agrees  bare vector before:
all / recallable)          writes        (default)                     with exact           top-10      recall / dry
=========================  ============  ===============  ===========  ===================  ==========  =============
40 real games (54 / 24)    8.3 / 12.6    5.0 / 6.0        31.1 / 33.6  0.90                 --          20.3 / 52.5,
                                                                                                        17.5 / 57.0
992 (110 / 36)             8.6 / 14.5    5.7 / 8.2        5.8 / 7.5    1.00                 1.3 / 2.3   14.6 / 21.2,
                                                                                                        11.3 / 19.8
9,999 (833 / 539)          24.3 / 33.0   21.3 / 25.5      18.6 / 25.9  0.85                 1.8 / 2.5   58.4 / 87.9,
                                                                                                        56.3 / 86.1
98,898 (4,495 / 453)       13.2 / 40.6   9.8 / 36.3       30.0 / 40.4  0.65                 2.8 / 3.3   173 / 408,
                                                                                                        171 / 415
=========================  ============  ===============  ===========  ===================  ==========  =============

(Another full run differed by up to 4 ms on medians and 7 ms on p95s; the p95 of recall with writes at 100k was
40.6, 41.7 and 43.3 ms in three runs.) The 50 ms p95 target is met at 100k. The exact
method stays the default: it is the SPEC's ranking, and it is now as fast as the index method or faster (the index
returns 1000 neighbours of every game to join, and agrees less the fuller the database: 0.65 at 100k).

What the time is now, and what bounds it (100k): recall is linear in the owner's recallable memories, ~25 us each.
The p95 comes from the six owners with 1,100-1,400 recallable memories (of ~7,200 each): a read of ~35 ms, of
which ~22 ms is the dense score (Neo4j reads each 384-float32 embedding from the property store, a 1.5 KB array
over ~13 dynamic records, ~10 us, and the cosine takes ~4 us), ~9 ms the other property reads, the join and the
pre-selection, ~4 ms the owner's full-text matches; then a write transaction of ~4 ms (~8-10 ms when a lost detail
re-renders the text and Lucene re-indexes it) and ~1.5 ms of Python. Archived memories (90% at phase 47) cost
nothing. Exact min-max normalisation needs every candidate's cosine, so an owner with more than ~1,800 recallable
memories would pass 50 ms here; what would lower that lies outside recall: a filtered vector search (Neo4j
2025.x) or consolidation, which turns clusters of memories into one summary. The similar-memory query is the rare
tail: in none of the 200 bench recalls and none of the 240 real-game recalls was an import or a misattribution
drawn (before, the query ran for every recall that could use donors: 30% of the real-game recalls); when one is,
it costs 10-45 ms for one of the largest owners, up to ~100 ms when an import needs all of its ~550 similar
memories with their details.
"""

from __future__ import annotations

from graphmem.recall.candidates import check_request, strength_now
from graphmem.recall.pipeline import recall, run_recall
from graphmem.recall.reconsolidate import RecallConflict
from graphmem.recall.result import RecallResult
from graphmem.recall.types import ActiveThought, Candidate, RecalledMemory, RecallRequest
from graphmem.recall.vectors import EmbeddingCache

__all__ = ["ActiveThought", "Candidate", "EmbeddingCache", "RecallConflict", "RecallRequest", "RecallResult",
           "RecalledMemory", "check_request", "recall", "run_recall", "strength_now"]
