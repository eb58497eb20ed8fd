"""Rumour chains (docs/perception.md#rumour-chains): when A tells B something A remembers from elsewhere, B's memory
DERIVED_FROM A's.

For every statement, the candidates are the speaker's memories of earlier events. The origin is the candidate
most similar to the statement (cosine of embeddings) among those with cosine >= the rumour-chain threshold (0.75)
or holding the same claim (subject, predicate, object, polarity, ballot round). Every listener's memory of the
statement gets a ``DERIVED_FROM {similarity, via}`` edge to it; ``via`` is "embedding" or "claim" (when only the
claim matched).

Cost: one matrix product per speaker (statements x memories: n^2 multiply-adds for a speaker of n memories, which
BLAS does in well under a second at thousands of memories), and for the shared claims an index from each claim to
the memories that hold it, so the Python work is linear in the statements and their matches; never across games.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from graphmem.encoders import Vectors
from graphmem.ingest.encode import ClaimTuple, EncodedGame, Statement
from graphmem.store.records import DerivedRow


def link_rumours(encoded: EncodedGame, vectors: dict[str, Vectors], threshold: float) -> list[DerivedRow]:
    """The DERIVED_FROM rows of one game.

    vectors : {memory uid: L2-normalised embedding of its text}, for every memory of the game
    threshold : float in [0, 1], the cosine needed without a shared claim (docs/perception.md#rumour-chains: 0.75)
    """
    by_owner: dict[str, list[str]] = defaultdict(list)
    for memory in encoded.memories:
        by_owner[memory.owner].append(memory.uid)
    rows: list[DerivedRow] = []
    for speaker, statements in _by_speaker(encoded).items():
        statements = [s for s in statements if s.listeners]
        candidates = [uid for uid in by_owner.get(speaker, []) if uid in vectors]
        if not candidates:
            continue
        order = np.array([encoded.memory_order[uid] for uid in candidates])
        matrix = np.stack([vectors[uid] for uid in candidates])
        probes = np.stack([vectors[s.listeners[0]] for s in statements])
        similarity = probes @ matrix.T  # (statements, candidates)
        holding: dict[ClaimTuple, list[int]] = defaultdict(list)  # claim -> candidates holding it
        for j, uid in enumerate(candidates):
            for claim in set(encoded.memory_claims[uid]):
                holding[claim].append(j)
        for i, statement in enumerate(statements):
            earlier = order < statement.order
            if not earlier.any():
                continue
            shared = np.zeros(len(candidates), dtype=bool)
            for claim in set(statement.claims):
                shared[holding.get(claim, [])] = True
            eligible = earlier & ((similarity[i] >= threshold) | shared)
            if not eligible.any():
                continue
            scores = np.where(eligible, similarity[i], -np.inf)
            best = int(np.argmax(scores))
            via = "embedding" if similarity[i, best] >= threshold else "claim"
            value = float(min(1.0, max(-1.0, similarity[i, best])))
            rows.extend(DerivedRow(listener, candidates[best], value, via) for listener in statement.listeners)
    return rows


def _by_speaker(encoded: EncodedGame) -> dict[str, list[Statement]]:
    grouped: dict[str, list[Statement]] = defaultdict(list)
    for statement in encoded.statements:
        grouped[statement.speaker].append(statement)
    return grouped
