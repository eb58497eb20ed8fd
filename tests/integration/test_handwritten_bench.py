"""bench/handwritten.py on a real Neo4j: the rankings it builds ask the stored copy as the question's asker at the
question's phase, so every evidence event is among the asker's memories, and the copies are deleted (issue 24)."""

from __future__ import annotations

from typing import cast

import neo4j
import pytest

from bench.bench_retrieval import CORPORA, LANES
from bench.handwritten import (
    COSINE,
    LEXICAL,
    cosine_ranking,
    delete_copies,
    evaluate,
    example_dir,
    find_games,
    ingest_copies,
    lexical_ranking,
    load,
    recall_ranking,
    run,
)
from graphmem.embedding import Embedder
from graphmem.model import Parameters
from graphmem.store.games import stored_game_ids

pytestmark = pytest.mark.neo4j
GAME = "433y9yyp"


def test_rankings_ask_the_asker_at_the_question_phase_and_the_copies_go(driver: neo4j.Driver, schema: object,
                                                                       embedder: object, params: object) -> None:
    model, p = cast(Embedder, embedder), cast(Parameters, params)
    asked = [q for q in load() if q.game == GAME]
    games = find_games({("traitors", GAME)}, {c.name: [example_dir(c)] for c in CORPORA})
    phase_of = {logged.id: logged.phase for logged in games[GAME].events}
    ingest_copies(driver, None, [games[GAME]], ["perfect"], p, model)
    try:
        # every memory the asker holds by the question's phase: all the evidence, nothing encoded later
        whole = cosine_ranking(driver, None, "perfect", model, k=10_000)
        assert evaluate(asked, whole, k=10_000)["all"]["micro"] == 1.0
        early = [(q, q.at) for q in asked if q.at is not None]
        assert early and all(phase_of[e] <= at for q, at in early for e in whole(q) if e is not None)
        ten = evaluate(asked, recall_ranking(driver, None, "perfect", p, model, k=10), k=10)
        assert 0 < ten["all"]["found"] <= ten["all"]["evidence"] == sum(len(q.evidence) for q in asked)
        assert all(len(list(lexical_ranking(driver, None, "perfect", k=10)(q))) <= 10 for q in asked)
    finally:
        delete_copies(driver, None, [games[GAME]], ["perfect"])
    report = run(driver, None, asked, games, profiles=["perfect"], k=10, params=p, embedder=model)
    assert list(report["results"]) == ["perfect", COSINE, LEXICAL, *LANES] and report["questions"] == len(asked)
    assert report["results"]["perfect"]["hits"] == ten["hits"]  # a dry run: the same answer twice
    # perfect ranks every memory, so its dense lane alone is the stored embedding's cosine
    assert report["results"][LANES[0]]["hits"] == report["results"][COSINE]["hits"]
    assert not [g for g in stored_game_ids(driver, None) if g.startswith(f"{GAME}.bench-")]
