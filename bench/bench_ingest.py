"""Ingest benchmarks: graphmem's batched, idempotent writes against a bare ``UNWIND ... CREATE`` of the same graph.

Two figures:

- **writes** (embeddings precomputed): a synthetic game is encoded once; its rows are written by graphmem's writer
  (MERGE by uid, ON CREATE SET, every provenance edge) and, under another game id in the same session, by a bare
  reference that CREATEs the same nodes with the same properties and the same relationships (MATCH endpoints by
  uid, CREATE the edge). Embeddings are random unit vectors: the write path does not care what they mean, and
  embedding 100k texts would dominate the run. Ratio = reference seconds / graphmem seconds (1.0 = as fast).
- **embedding**: graphmem's whole ingest of a small real game (validate, encode, embed, link, write, decay)
  against the embedding model's own ``encode`` of the same distinct texts.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import neo4j
import numpy as np

from bench.generate import game_for_memories
from graphmem.embedding import Embedder
from graphmem.ingest.encode import EncodedGame, encode_game
from graphmem.ingest.rumours import link_rumours
from graphmem.logs import parse_game_log
from graphmem.model import Parameters
from graphmem.service import MemoryService
from graphmem.store.games import delete_game
from graphmem.store.writer import write_game_rows

BATCH = 1000

REFERENCE = {
    "game": "CREATE (g:Game) SET g = $row",
    "players": "MATCH (g:Game {uid: $game}) UNWIND $rows AS r CREATE (g)-[:HAS_PLAYER]->(p:Player) SET p = r",
    "phases": """MATCH (g:Game {uid: $game}) UNWIND $rows AS r
                 CREATE (g)-[:HAS_PHASE]->(ph:Phase) SET ph = r {.uid, .game, .index, .day, .name}
                 WITH ph, r OPTIONAL MATCH (b:Phase {uid: r.previous})
                 FOREACH (_ IN CASE WHEN b IS NULL THEN [] ELSE [1] END | CREATE (b)-[:NEXT]->(ph))""",
    "events": """UNWIND $rows AS r MATCH (ph:Phase {uid: r.phase_uid})
                 CREATE (e:Event)-[:IN_PHASE]->(ph)
                 SET e = r {.uid, .game, .id, .kind, .phase, .day, .line, .text, .channel, .ballot, .actor,
                            .targets, .witnesses, .details_json, .claims_json, .role_revealed, .t}
                 WITH e, r
                 CALL (e, r) { MATCH (a:Player {uid: r.actor_uid}) CREATE (e)-[:BY]->(a) }
                 CALL (e, r) { UNWIND r.target_uids AS u MATCH (t:Player {uid: u}) CREATE (e)-[:TARGETS]->(t) }
                 CALL (e, r) { UNWIND r.witness_uids AS u MATCH (w:Player {uid: u})
                               CREATE (e)-[:WITNESSED_BY]->(w) }""",
    "memories": """UNWIND $rows AS r MATCH (o:Player {uid: r.owner_uid}) MATCH (e:Event {uid: r.event_uid})
                   CREATE (o)-[:REMEMBERS]->(m:Memory)-[:OF_EVENT]->(e)
                   SET m = r {.uid, .game, .owner, .event, .kind, .type, .text, .template, .details_json, .n_lost,
                              .fabricated, .about, .keywords, .claims_json, .t_enc, .day, .phase_name, .salience,
                              .relevance, .emotion_peak, .emotion_json, .surprise, .consequence, .flashbulb,
                              .flashbulb_score, .floor, .e0, .s_enc, .decay_rate, .e_ref, .t_ref, .s, .n,
                              .strength, .decayed_to, .state, .threshold, .source_type, .teller, .c0, .source_k,
                              .source_confidence, .source_belief, .believed_teller, .misattributed}
                   WITH m, e, r CALL db.create.setNodeVectorProperty(m, 'embedding', r.embedding)
                   CREATE (m)-[:FROM]->(s:Source)-[:VIA]->(e)
                   SET s.uid = r.source_uid, s.game = r.game, s.type = r.source_type, s.channel = r.channel,
                       s.phase = r.t_enc, s.day = r.day, s.confidence = r.c0
                   WITH m, s, r
                   CALL (s, r) { MATCH (t:Player {uid: r.teller_uid}) CREATE (s)-[:GIVEN_BY]->(t) }
                   CALL (m, r) { UNWIND r.about_uids AS u MATCH (a:Player {uid: u}) CREATE (m)-[:ABOUT]->(a) }""",
    "told": """UNWIND $rows AS r MATCH (a:Player {uid: r.teller_uid}) MATCH (b:Player {uid: r.listener_uid})
               CREATE (a)-[:TOLD {event: r.event, phase: r.phase, day: r.day, channel: r.channel}]->(b)""",
    "derived": """UNWIND $rows AS r MATCH (m:Memory {uid: r.memory_uid}) MATCH (o:Memory {uid: r.origin_uid})
                  CREATE (m)-[:DERIVED_FROM {similarity: r.similarity, via: r.via}]->(o)""",
    "thoughts": """UNWIND $rows AS r MATCH (p:Player {uid: r.player_uid})
                   CREATE (p)-[:THINKS]->(t:Thought)
                   SET t = r {.uid, .game, .player, .content, .priority, .persistence, .pushed_phase,
                              .expires_phase, .seq, .trigger, .active, .persistence_left}""",
}


def _encode(target: int, game_id: str, params: Parameters, seed: int) -> EncodedGame:
    objects = game_for_memories(target, seed=seed)
    objects[0] = {**objects[0], "game": game_id}
    import json

    return encode_game(parse_game_log([json.dumps(o) for o in objects], game_id), params)


def _random_vectors(encoded: EncodedGame, seed: int, dim: int = 384) -> dict[str, list[float]]:
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(len(encoded.memories), dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return {m.uid: v.tolist() for m, v in zip(encoded.memories, vectors)}


def _reference_write(driver: neo4j.Driver, database: str | None, encoded: EncodedGame,
                     embeddings: dict[str, list[float]], derived: list[Any]) -> None:
    game = encoded.game.uid

    def run(name: str, rows: list[dict[str, Any]]) -> None:
        for i in range(0, len(rows), BATCH):
            driver.execute_query(REFERENCE[name], {"rows": rows[i:i + BATCH], "game": game}, database_=database)

    driver.execute_query(REFERENCE["game"], {"row": encoded.game.row()}, database_=database)
    run("players", [p.row() for p in encoded.players])
    run("phases", [p.row() for p in encoded.phases])
    run("events", [e.row() for e in encoded.events])
    run("memories", [{**m.row(), "embedding": embeddings[m.uid]} for m in encoded.memories])
    run("told", [t.row() for t in encoded.told])
    run("derived", [d.row() for d in derived])
    run("thoughts", [t.row() for t in encoded.thoughts])


def run_writes(driver: neo4j.Driver, database: str | None, params: Parameters,
               sizes: tuple[int, ...] = (1_000, 10_000, 100_000), seed: int = 1) -> list[dict[str, Any]]:
    """Rows {size, memories, graphmem_s, reference_s, ratio, memories_per_s, reference_memories_per_s}."""
    rows = []
    for size in sizes:
        ours, ref = f"bench-ingest-{size}", f"bench-ingest-ref-{size}"
        for game in (ours, ref):
            delete_game(driver, database, game)
        encoded = _encode(size, ours, params, seed)
        reference = _encode(size, ref, params, seed)
        embeddings, ref_embeddings = _random_vectors(encoded, seed), _random_vectors(reference, seed)
        vectors = {uid: np.asarray(v, dtype=np.float32) for uid, v in embeddings.items()}
        derived = link_rumours(encoded, vectors, params.similarity.rumour_chain)
        ref_vectors = {uid: np.asarray(v, dtype=np.float32) for uid, v in ref_embeddings.items()}
        ref_derived = link_rumours(reference, ref_vectors, params.similarity.rumour_chain)
        started = time.perf_counter()
        _reference_write(driver, database, reference, ref_embeddings, ref_derived)
        reference_s = time.perf_counter() - started
        started = time.perf_counter()
        write_game_rows(driver, database, encoded, embeddings, derived, batch_size=BATCH)
        graphmem_s = time.perf_counter() - started
        n = len(encoded.memories)
        rows.append({"size": size, "memories": n, "graphmem_s": round(graphmem_s, 3),
                     "reference_s": round(reference_s, 3), "ratio": round(reference_s / graphmem_s, 3),
                     "memories_per_s": round(n / graphmem_s), "reference_memories_per_s": round(n / reference_s)})
        for game in (ours, ref):
            delete_game(driver, database, game)
    return rows


def run_embedding(driver: neo4j.Driver, database: str | None, params: Parameters, game_dir: Path,
                  model: str = "all-MiniLM-L6-v2") -> dict[str, Any]:
    """graphmem's whole ingest of one real game (fresh embedder, model already loaded) against the model's own
    encode of the same distinct texts. Row {game, memories, texts, ingest_s, model_encode_s, ratio,
    memories_per_s, texts_per_s}."""
    from graphmem.importers import load_game_log

    log = load_game_log(game_dir)
    texts = sorted({m.text for m in encode_game(log, params).memories})
    warm = Embedder(model)
    warm.encode(["warm up"])
    started = time.perf_counter()
    warm.encoder.encode(texts, 64)
    model_s = time.perf_counter() - started
    delete_game(driver, database, log.game)
    warm.clear_cache()  # the same loaded model, nothing embedded yet
    started = time.perf_counter()
    summary = MemoryService(driver, params=params, embedder=warm).ingest(game_dir)
    ingest_s = time.perf_counter() - started
    delete_game(driver, database, log.game)
    return {"game": log.game, "memories": summary.memories, "texts": len(texts), "ingest_s": round(ingest_s, 3),
            "model_encode_s": round(model_s, 3), "ratio": round(model_s / ingest_s, 3),
            "memories_per_s": round(summary.memories / ingest_s), "texts_per_s": round(len(texts) / model_s)}
