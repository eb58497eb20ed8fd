"""Recall's candidates, read as node ids and numbers (``recall/context``) and named by the uids the embedding cache
has met, rank exactly as the store says: against a ranking recomputed from every memory of the owner read by uid,
with a warm cache, a cold one and none, before and after a recall writes (real Neo4j, real embedding model)."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import neo4j
import numpy as np
import pytest

from bench.conversation import SPEAKERS, conversation, statement
from graphmem.logs.writer import dumps_line
from graphmem.model.forgetting import strength_at
from graphmem.model.groups import RECALL_K_MAX
from graphmem.model.params import Parameters
from graphmem.model.retrieval import cue_floor
from graphmem.model.source import source_confidence
from graphmem.recall import EmbeddingCache, RecallResult, recall
from graphmem.recall.candidates import held_key, read_context
from graphmem.recall.lexical import Postings, bm25, topic_terms
from graphmem.recall.pipeline import about_flags, dense_scores
from graphmem.recall.ranking import named_in, rank
from graphmem.store.games import delete_game
from graphmem.store.reader import MemoryReader
from graphmem.store.versions import LOG_SIZE, raise_after_commit, raise_memory_versions

pytestmark = pytest.mark.neo4j
LIVE = ("active", "warm", "candidate", "archived")


@pytest.fixture(params=["perfect", None], ids=["perfect", "default"])
def talk(request: pytest.FixtureRequest, driver: neo4j.Driver, memory: Any, tmp_path: Path) -> Iterator[str]:
    """A conversation of 300 turns over 15 sessions (two owners of 300 memories each), both speakers on the
    ``perfect`` profile (every memory a candidate, strength 1) or the default one; deleted afterwards."""
    profile = request.param
    game = f"talk-candidates-{profile or 'default'}-{random.getrandbits(32):08x}"
    path = tmp_path / f"{game}.jsonl"
    path.write_text("".join(dumps_line(o) + "\n" for o in conversation(300, 15, seed=5, game=game,
                                                                         profile=profile)), encoding="utf-8")
    memory.ingest(path)
    yield game
    delete_game(driver, None, game)


def reference(driver: neo4j.Driver, embedder: Any, params: Parameters, game: str, owner: str, topic: str | None,
              participants: Sequence[str], k: int) -> list[tuple[str, float]]:
    """The best ``k`` (uid, score) recomputed from the store without the recall query, node ids or a kept cache:
    every memory of the owner read by uid, its strength in closed form (graphmem.model.forgetting), the cued-recall
    floor (graphmem.model.retrieval), the dense scores from embeddings read now, BM25 over these candidates' words
    read now (graphmem.recall.lexical), the
    source route from the store's believed teller and the model's source confidence (graphmem.model.source), each
    statement's neighbours among these candidates from its event's phase, channel, people and line, ranked
    by graphmem.recall.ranking.rank."""
    now = driver.execute_query("MATCH (g:Game {uid: $game}) RETURN g.decayed_to AS t", game=game).records[0]["t"]
    rows = [r for r in driver.execute_query(
        "MATCH (m:Memory {game: $game, owner: $owner}) RETURN m.uid AS uid, m.n AS n, m.state AS state, "
        "m.t_enc AS t_enc, m.e_ref AS e_ref, m.t_ref AS t_ref, m.s AS s, m.floor AS floor, m.threshold AS threshold, "
        "m.flashbulb AS flashbulb, m.own AS own, m.believed_teller AS teller, m.c0 AS c0, m.source_k AS k, "
        "m.s_enc AS s_enc, m.misattributed AS misattributed, m.text AS text, m.keywords AS keywords, "
        "m.context AS context, m.kind AS kind, [(m)-[:OF_EVENT]->(e) | [e.phase, e.channel, e.witnesses, e.line]] "
        "AS said ORDER BY uid", game=game, owner=owner).records
        if r["state"] in LIVE and r["t_enc"] <= now]
    strengths = [strength_at(r["e_ref"], r["t_ref"], r["s"], now, params.curve, r["floor"]) for r in rows]
    kept = [i for i, (r, m) in enumerate(zip(rows, strengths))
            if r["flashbulb"] or m >= cue_floor(r["threshold"], params)]
    rows, strengths = [rows[i] for i in kept], [strengths[i] for i in kept]
    uids = [r["uid"] for r in rows]
    vectors, found = EmbeddingCache(0).fetch(driver, None, game, None, uids, [r["n"] for r in rows])
    dense = dense_scores(vectors, found, embedder.encode_one(topic) if topic else None)
    postings = Postings()
    for i, r in enumerate(rows):
        postings.put(i, r["text"], r["keywords"], r["context"])
    (scores,) = bm25([(postings, np.arange(len(rows)))], topic_terms(topic))
    lexical = dict(zip(uids, scores.tolist()))
    named = named_in(topic, SPEAKERS)

    def route(r: Any) -> float:
        if (owner if r["own"] else r["teller"]) not in named:
            return 0.0
        if r["own"]:
            return 1.0
        c = source_confidence(r["c0"], now, r["t_enc"], r["s_enc"], r["k"], params.curve)
        return c if c >= params.source.unknown_below or r["flashbulb"] or r["misattributed"] else 0.0

    talks: dict[tuple[Any, ...], list[tuple[int, int]]] = {}  # conversation: [(line, candidate)]
    for i, r in enumerate(rows):
        if r["kind"] == "say" and r["said"]:
            phase, channel, people, line = r["said"][0]
            key = (phase, channel, tuple(sorted(people)) if channel == "private" else ())
            talks.setdefault(key, []).append((line, i))
    near = np.full((len(rows), 2), -1, dtype=np.intp)
    for said in talks.values():
        said.sort()
        for (_, a), (_, b) in zip(said, said[1:]):
            near[b, 0], near[a, 1] = a, b
    _, best = rank(uids, strengths, [r["flashbulb"] for r in rows], [r["threshold"] for r in rows],
                   None if dense is None else [float(x) for x in dense], lexical,
                   list(about_flags(vectors, found, participants)), k, params, source=[route(r) for r in rows],
                   neighbours=near if topic else None)
    return [(r.uid, r.score) for r in best]


def ranked(result: RecallResult) -> list[tuple[str, float]]:
    return [(m.uid, m.score) for m in sorted(result.memories, key=lambda m: (-m.score, m.uid))]


def small_game_started(memory: Any, prefix: str) -> str:
    """A live game of a fresh id (``prefix-<hex>``) started with the first 19 events of examples/small-game.jsonl."""
    game = f"{prefix}-{random.getrandbits(32):08x}"
    lines = [json.loads(line) for line in (Path(__file__).resolve().parents[2] / "examples" /
                                           "small-game.jsonl").read_text(encoding="utf-8").splitlines()]
    memory.start_game({**lines[0], "game": game}, history=lines[1:20])
    return game


def same(result: RecallResult) -> str:
    data = json.loads(result.to_json())
    data.pop("timings", None)
    return json.dumps(data, sort_keys=True)


def test_candidates_read_by_node_id_rank_as_the_store_says(driver: neo4j.Driver, embedder: Any,
                                                          params: Parameters, talk: str) -> None:
    rng = random.Random(13)
    topics: list[str | None] = [None, "Jordan", *(f"Do you remember when {statement(rng)}" for _ in range(6))]
    warm = (EmbeddingCache(), MemoryReader())

    def call(owner: str, topic: str | None, participants: Sequence[str], k: int,
             kept: tuple[EmbeddingCache, MemoryReader] | None, dry_run: bool = True) -> RecallResult:
        cache, reader = kept or (None, None)
        return recall(driver, None, talk, owner, topic=topic, participants=participants, k=k, params=params,
                      embedder=embedder, dry_run=dry_run, cache=cache, reader=reader)

    for round_ in range(2):
        for i, topic in enumerate(topics):
            owner, other = SPEAKERS[i % 2], SPEAKERS[1 - i % 2]
            for participants, k in (((), 10), ((other,), 5)):
                cold = call(owner, topic, participants, k, None)  # nothing kept: every id read
                first = call(owner, topic, participants, k, warm)  # the owner's first recall fills what the process keeps
                again = call(owner, topic, participants, k, warm)  # every uid from the ids the reader has met
                assert same(first) == same(again) == same(cold)
                assert cold.candidates > k and (cold.candidates == 300 or "default" in talk)
                expected = reference(driver, embedder, params, talk, owner, topic, participants, k)
                if "perfect" in talk:  # strength 1 everywhere: the scores are the same numbers
                    assert ranked(cold) == expected
                else:  # the strengths come from Neo4j's exp() and Python's, equal to the last bits or so
                    assert [u for u, _ in ranked(cold)] == [u for u, _ in expected]
                    assert [s for _, s in ranked(cold)] == pytest.approx([s for _, s in expected], abs=1e-12)
        # a recall that writes raises the access count of what it recalls and rewrites their keywords: the warm
        # cache reads those again and still names every candidate right
        written = call(SPEAKERS[0], topics[2], (), 10, warm, dry_run=False)
        assert written.written == 10, round_


def test_held_candidates_are_read_again_after_every_write_that_changes_them(driver: neo4j.Driver, embedder: Any,
                                                                           params: Parameters, memory: Any) -> None:
    # a process keeps each owner's candidates and skips reading them while the owner's memory version says nothing
    # changed (graphmem.store.versions): after each kind of write, a recall with what the process holds must equal
    # one that reads everything
    game = small_game_started(memory, "held-candidates")
    held = memory.memory_reader
    topic = "what did Priya say about Thomas?"

    def check(step: str, owner: str = "Marcus") -> str:
        """How the recall through what the process holds got its candidates ("held", "patched" or "read"), after
        checking that it equals a fresh one."""
        reused, patched = held.candidates_reused, held.candidates_patched
        kept = recall(driver, None, game, owner, topic=topic, params=params, embedder=embedder, dry_run=True,
                      cache=memory.recall_cache, reader=held)
        how = ("held" if held.candidates_reused > reused else
               "patched" if held.candidates_patched > patched else "read")
        cold = recall(driver, None, game, owner, topic=topic, params=params, embedder=embedder, dry_run=True,
                      cache=EmbeddingCache(0))
        assert same(kept) == same(cold), step
        # and what the process holds is what Neo4j says, access counts included (in any order: ranking never
        # depends on the order of the candidates)
        held_now, read_now = ({u: (n, float(m), bool(f), float(t)) for u, n, m, f, t in
                               zip(c.uids, c.ns, c.strengths, c.flashbulbs, c.thresholds, strict=True)}
                              for c in (read_context(driver, None, game, owner, None, params, reader,
                                                     EmbeddingCache(0)).held
                                        for reader in (held, MemoryReader(0))))
        assert held_now == read_now, step
        return how

    try:
        assert check("first read") == "read"
        assert check("nothing written") == "held"  # the second recall used what it held
        memory.add_events(game, [{"kind": "say", "speaker": "Priya", "to": ["Marcus"], "channel": "private",
                                  "text": "Thomas is lying to everyone about the kitchen."}])
        assert check("a live event") == "patched"  # the memories the batch logged were read again
        assert any("lying" in m.text for m in recall(driver, None, game, "Marcus", topic=topic, params=params,
                                                       embedder=embedder, dry_run=True, cache=memory.recall_cache,
                                                       reader=held).memories)
        assert memory.recall(game, "Marcus", topic).written > 0
        # the process learns of its own write as of anyone's: the change log, read again (what it holds was not
        # changed by the recall)
        assert check("a writing recall") == "patched"
        assert memory.recall(game, "Marcus", "who voted for whom?").written > 0
        assert memory.recall(game, "Marcus", topic, participants=["Priya"]).written > 0
        assert check("two writing recalls in a row") == "patched"
        assert check("nothing written since") == "held"
        forgotten = recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder,
                           dry_run=True, cache=memory.recall_cache, reader=held).memories[0].uid
        memory.forget(game, "Marcus", forgotten, "Marcus decided it never happened")
        assert check("forgetting") == "read"
        assert forgotten not in {m.uid for m in recall(driver, None, game, "Marcus", topic=topic, params=params,
                                                          embedder=embedder, dry_run=True,
                                                          cache=memory.recall_cache, reader=held).memories}
        memory.advance_phase(game, day=1, name="night")
        assert check("the decay job") == "read"
        memory.consolidate(game)
        memory.contradictions(game)
        for owner in ("Marcus", "Eleanor", "Priya"):
            check("consolidation and contradictions", owner)
    finally:
        delete_game(driver, None, game)


def test_a_writing_recall_raises_the_version_again_after_it_returns_and_the_owners_next_recall_waits_for_it(
        driver: neo4j.Driver, embedder: Any, params: Parameters, memory: Any) -> None:
    # a process that holds candidates in the background returns a writing recall once its write has committed and
    # raises the owner's version the second time on its reader's thread (graphmem.store.versions): once settled the
    # version is two above, and the owner's next recall in the process waits for that raise and then reads only what
    # the recall wrote; without `background` (a caller that may close its driver right after) both raises are made
    # before the recall returns
    game = small_game_started(memory, "held-settle")
    held = MemoryReader(background=True)
    topic = "what did Priya say about Thomas?"

    def version() -> int:
        return read_context(driver, None, game, "Marcus", None, params, MemoryReader(0), EmbeddingCache(0)).held.version

    try:
        before = version()
        assert recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder,
                      cache=EmbeddingCache(), seed=9).written > 0
        assert version() == before + 2
        recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder, dry_run=True, reader=held)
        for seed in range(3):
            before = version()
            assert recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder, reader=held,
                          seed=seed).written > 0
            if seed == 0:
                held.settle()
                assert version() == before + 2
            patched = held.candidates_patched
            recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder, dry_run=True,
                   reader=held)
            assert held.candidates_patched == patched + 1, seed
            assert version() == before + 2, seed
            ours = held.held(held_key(None, game, "Marcus", None, params))
            assert ours is not None and ours.version == before + 2, seed  # read after the second raise
        # a raise that comes after its game was deleted leaves nothing behind
        delete_game(driver, None, game)
        assert raise_after_commit(driver, None, [(game, "Marcus")]) == {}
        assert driver.execute_query("MATCH (v:MemoryVersion {game: $game}) RETURN count(v) AS n",
                                    game=game).records[0]["n"] == 0
    finally:
        delete_game(driver, None, game)


def test_writers_of_one_owner_wait_for_each_other_and_never_deadlock(driver: neo4j.Driver, memory: Any,
                                                                    params: Parameters) -> None:
    # every writer raises the owner's version first (graphmem.store.versions), so writers of one owner queue on it;
    # MERGE alone took a shared lock that its SET upgraded, and two such writers deadlocked (22 of 200 transactions
    # below before the version was write-locked first). Explicit transactions: the driver would retry a deadlock
    game = small_game_started(memory, "raise-together")
    deadlocks: list[str] = []

    def write(times: int) -> None:
        with driver.session() as session:
            for _ in range(times):
                tx = session.begin_transaction()
                try:
                    raise_memory_versions(cast(neo4j.ManagedTransaction, tx), game, ["Marcus"], {"Marcus": []})
                    tx.run("MATCH (m:Memory {game: $game, owner: 'Marcus'}) WITH m LIMIT 3 "
                           "SET m.recall_lock = true REMOVE m.recall_lock", game=game).consume()
                    tx.commit()
                except neo4j.exceptions.TransientError as e:
                    deadlocks.append(str(e.code))
                    tx.close()

    try:
        before = read_context(driver, None, game, "Marcus", None, params, MemoryReader(0), EmbeddingCache(0)).held.version
        threads = [threading.Thread(target=write, args=(40,)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert deadlocks == []
        after = read_context(driver, None, game, "Marcus", None, params, MemoryReader(0), EmbeddingCache(0)).held.version
        assert after == before + 160
    finally:
        delete_game(driver, None, game)


def assert_shown_as_stored(driver: neo4j.Driver, shown: dict[str, Any], step: str) -> None:
    """Every row of recalled memories a process holds is what ``recall/memories`` reads now."""
    stored = MemoryReader(0).read_memories(driver, None, "Marcus", [(uid, -1, {}) for uid in shown])
    assert {str(row["uid"]): row for row in stored} == shown, step


def test_an_owners_recalls_in_a_row_read_each_recalled_memory_once_and_show_what_neo4j_holds(
        driver: neo4j.Driver, embedder: Any, params: Parameters, memory: Any) -> None:
    # the rows of the memories a recall returns are kept with the candidates: a writing recall's process reads what
    # it wrote with the next read of the candidates (the change log's memories, their rows too), not in a second
    # transaction, and the rows go with the candidates when those are read again
    game = small_game_started(memory, "held-shown")
    held = MemoryReader()
    topics = ["what did Priya say about Thomas?", "who voted for whom?", "what did Priya say about Thomas?"]
    try:
        recalled: set[str] = set()
        for seed, topic in enumerate(topics * 2):
            result = recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder, reader=held,
                            seed=seed)
            assert result.written > 0
            recalled |= {m.uid for m in result.memories}
            assert held.memories_read == len(recalled), topic  # each row read once, then read with the context
        recall(driver, None, game, "Marcus", topic=topics[1], params=params, embedder=embedder, reader=held,
               dry_run=True)  # reads what the last writing recall wrote
        ours = held.held(held_key(None, game, "Marcus", None, params))
        assert ours is not None and set(ours.shown) == recalled
        assert_shown_as_stored(driver, ours.shown, "after writing recalls")
        look = recall(driver, None, game, "Marcus", topic=topics[0], params=params, embedder=embedder, reader=held,
                      dry_run=True)
        assert same(look) == same(recall(driver, None, game, "Marcus", topic=topics[0], params=params,
                                         embedder=embedder, dry_run=True, cache=EmbeddingCache(0)))
        assert held.memories_read == len(recalled)
        memory.advance_phase(game, day=1, name="night")  # the decay job: candidates and rows read again
        read = held.memories_read
        again = recall(driver, None, game, "Marcus", topic=topics[0], params=params, embedder=embedder, reader=held,
                       dry_run=True)
        assert held.memories_read == read + len(again.memories)
    finally:
        delete_game(driver, None, game)


def test_after_a_logged_write_a_process_reads_only_the_memories_logged_and_recalls_as_a_fresh_read(
        driver: neo4j.Driver, embedder: Any, params: Parameters, memory: Any) -> None:
    # another process's writing recall logs the memories it changed with the owner's version
    # (graphmem.store.versions): a process holding the owner's candidates reads only those again, and must recall
    # exactly what a process holding nothing recalls; a write that does not say what it changed, or a log that no
    # longer reaches back to the version held, makes it read everything
    game = small_game_started(memory, "held-patched")
    vectors, held, elsewhere = EmbeddingCache(), MemoryReader(), MemoryReader()
    topic = "what did Priya say about Thomas?"

    def how(step: str) -> str:
        """How the recall through ``held`` got its candidates ("held", "patched" or "read"), after checking that it
        recalls what a fresh read recalls and holds what Neo4j says."""
        reused, patched = held.candidates_reused, held.candidates_patched
        kept = recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder, dry_run=True,
                      cache=vectors, reader=held)
        cold = recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder, dry_run=True,
                      cache=EmbeddingCache(0))
        assert same(kept) == same(cold), step
        ours = held.held(held_key(None, game, "Marcus", None, params))
        fresh = read_context(driver, None, game, "Marcus", None, params, MemoryReader(0), EmbeddingCache(0)).held
        assert ours is not None and ours.version == fresh.version, step
        assert_shown_as_stored(driver, ours.shown, step)
        assert ({u: (n, float(m), bool(f), float(t)) for u, n, m, f, t in
                 zip(ours.uids, ours.ns, ours.strengths, ours.flashbulbs, ours.thresholds, strict=True)} ==
                {u: (n, float(m), bool(f), float(t)) for u, n, m, f, t in
                 zip(fresh.uids, fresh.ns, fresh.strengths, fresh.flashbulbs, fresh.thresholds, strict=True)}), step
        return ("held" if held.candidates_reused > reused else
                "patched" if held.candidates_patched > patched else "read")

    def write(cypher_text: str, changed: dict[str, list[str]] | None, **values: Any) -> None:
        def work(tx: neo4j.ManagedTransaction) -> None:
            raise_memory_versions(tx, game, ["Marcus"] if changed is not None else None, changed)
            tx.run(cypher_text, values).consume()
        with driver.session() as session:
            session.execute_write(work)
            session.execute_write(raise_memory_versions, game, ["Marcus"], {"Marcus": []})

    try:
        assert how("first read") == "read"
        assert how("nothing written") == "held"
        for i in range(3):  # another process's writing recalls (raising the access counts of what they recall)
            assert recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder,
                          reader=elsewhere, seed=i).written > 0
            elsewhere.settle()  # its raise after the commit, which it makes after returning: the write is whole
            embeddings_read = vectors.read
            before = held.held(held_key(None, game, "Marcus", None, params))
            assert how(f"another process's writing recall {i}") == "patched"
            after = held.held(held_key(None, game, "Marcus", None, params))
            # every memory it rewrote is still a candidate: the same sequence of uids, rows not looked up again
            assert before is not None and after is not None and after.uids is before.uids, i
            # what it rewrote (access counts, believed tellers) came with the read: no embedding read again
            assert vectors.read == embeddings_read, i
        # a logged memory that stops being a candidate (consolidated) leaves the candidates; back, it returns
        gone = held.held(held_key(None, game, "Marcus", None, params))
        assert gone is not None
        uid = gone.uids[0]
        write("MATCH (m:Memory {uid: $uid}) SET m.state = 'consolidated'", {"Marcus": [uid]}, uid=uid)
        assert how("a memory consolidated") == "patched"
        assert uid not in recall(driver, None, game, "Marcus", topic=None, k=RECALL_K_MAX, params=params,
                                 embedder=embedder, dry_run=True, cache=vectors, reader=held).to_json()
        write("MATCH (m:Memory {uid: $uid}) SET m.state = 'active'", {"Marcus": [uid]}, uid=uid)
        assert how("the memory back") == "patched"
        # a write that does not say what it changed: everything read again
        write("MATCH (m:Memory {uid: $uid}) SET m.state = 'consolidated'", None, uid=uid)
        assert how("an unlogged write") == "read"
        # more changes logged since the version held than the log keeps: everything read again
        write("MATCH (m:Memory {uid: $uid}) SET m.state = 'active'", {"Marcus": [uid]}, uid=uid)
        for _ in range(LOG_SIZE // 100 + 1):
            write("RETURN 1", {"Marcus": [f"{game}/elsewhere/{j}" for j in range(100)]})
        assert how("a log cut since") == "read"
        assert how("nothing written since") == "held"
    finally:
        delete_game(driver, None, game)


def test_held_candidates_are_read_again_after_a_longer_log_of_the_game_is_ingested(
        driver: neo4j.Driver, embedder: Any, params: Parameters, memory: Any, fresh_game: Any) -> None:
    # ingesting a longer log that begins with the stored one adds memories to the same game (same incarnation), here
    # in the same phase (so the game's decayed_to stays): the file ingest's batches raise their owners' versions
    small = Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl"
    game = fresh_game(small, "held-longer", edit=lambda lines: lines[:5])  # to the start of day 1's social phase
    held = memory.memory_reader
    topic = "who did they vote to banish?"

    def results(reader: MemoryReader) -> str:
        return same(recall(driver, None, game, "Marcus", topic=topic, params=params, embedder=embedder,
                           dry_run=True, reader=reader))

    before = results(held)
    assert results(held) == before and held.candidates_reused > 0
    fresh_game(small, game=game, edit=lambda lines: lines[:9])  # more of that phase under the same id
    after = results(held)
    assert after == results(MemoryReader(0)) and after != before


def test_a_process_that_recalls_while_another_adds_events_never_keeps_a_half_committed_batch(
        driver: neo4j.Driver, embedder: Any, params: Parameters) -> None:
    # Neo4j reads at read-committed isolation: a recall that runs while a batch commits can see the owner's raised
    # version before the batch's index entries. Raised only in the batch's transaction, the version then let a
    # process keep one memory too few (16 of 100 batches); the raise after the commit makes it read them again
    from graphmem.service import MemoryService

    engine, agent = (MemoryService(driver, params=params, embedder=embedder) for _ in range(2))
    game = f"held-race-{random.getrandbits(32):08x}"
    engine.start_game({"kind": "game", "format": "graphmem/1", "game": game,
                       "players": [{"name": n, "role": r} for n, r in
                                   (("Marcus", "faithful"), ("Sarah", "traitor"), ("Eleanor", "faithful"))]})
    engine.add_events(game, [{"kind": "phase", "day": 1, "name": "social"}])
    reads, stop = [0], threading.Event()

    def reader() -> None:
        while not stop.is_set():
            agent.recall(game, "Marcus", dry_run=True, k=1)
            reads[0] += 1

    thread = threading.Thread(target=reader)
    thread.start()
    differing = []
    try:
        for i in range(40):
            engine.add_events(game, [{"kind": "say", "speaker": "Sarah", "to": ["Marcus"], "channel": "private",
                                      "text": f"Eleanor hid the key number {i} in the library."}])
            seen = reads[0]
            while reads[0] < seen + 2 and thread.is_alive():  # the agent recalled during and after the batch
                time.sleep(0.001)
            held = agent.recall(game, "Marcus", f"key number {i}", dry_run=True)
            fresh = recall(driver, None, game, "Marcus", topic=f"key number {i}", params=params, embedder=embedder,
                           cache=EmbeddingCache(0), dry_run=True)
            if same(held) != same(fresh):
                differing.append((i, held.candidates, fresh.candidates))
    finally:
        stop.set()
        thread.join()
        delete_game(driver, None, game)
    assert differing == []
    assert agent.memory_reader.candidates_reused > 0  # the agent did use what it held between batches


JOBS = Path(__file__).resolve().parents[1] / "data" / "jobs"


def with_repeats(lines: list[str]) -> list[str]:
    """examples/small-game.jsonl with tests/data/jobs/repeats.jsonl before its final (remarks heard four times:
    tests/integration/test_consolidation_job.py), so that consolidation writes summaries."""
    final = lines.index('{"kind": "phase", "day": 2, "name": "final"}')
    return [*lines[:final], *(JOBS / "repeats.jsonl").read_text(encoding="utf-8").splitlines(), *lines[final:]]


@pytest.mark.parametrize("job", ["consolidation", "contradictions"])
def test_held_candidates_are_read_again_after_a_job_changes_them(driver: neo4j.Driver, embedder: Any,
                                                                params: Parameters, memory: Any,
                                                                fresh_game: Any, job: str) -> None:
    # consolidation turns members into a summary, contradictions tombstone the memory the truth refutes: each
    # changes its owners' candidates, so what a process held before must not be used after
    if job == "consolidation":
        game = fresh_game(Path(__file__).resolve().parents[2] / "examples" / "small-game.jsonl", "held-jobs",
                          edit=with_repeats)
    else:
        game = fresh_game(JOBS / "dispute-revealed.jsonl", "held-jobs")
    held = memory.memory_reader
    topic = "who is a traitor, and what did they say at the round table?"
    owners = [r["name"] for r in driver.execute_query("MATCH (p:Player {game: $game}) RETURN p.name AS name "
                                                      "ORDER BY name", game=game).records]

    def results(reader: MemoryReader) -> dict[str, str]:
        return {owner: same(recall(driver, None, game, owner, topic=topic, params=params, embedder=embedder,
                                   dry_run=True, reader=reader))
                for owner in owners}

    before = results(held)
    assert results(held) == before and held.candidates_reused >= len(before)  # held, and used
    if job == "consolidation":
        assert memory.consolidate(game).summaries > 0
    else:
        assert memory.contradictions(game).tombstoned > 0
    after = results(held)
    assert after == results(MemoryReader(0))
    assert after != before
