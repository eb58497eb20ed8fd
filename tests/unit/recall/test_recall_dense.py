"""Dense scores and the source route of recall (docs/model.md#candidates-and-ranking): the cosine of the topic with a
memory's text, the same value for a memory whichever other memories are scored with it; a cue naming a person reaches
what the owner believes that person said, as strongly as the owner still remembers the source."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.model import default_parameters
from graphmem.model.source import source_confidence
from graphmem.recall.pipeline import dense_scores, source_values
from graphmem.recall.ranking import named_in, score_candidates, source_route
from graphmem.recall.vectors import NO_SOURCE, GameVectors, SourceCue


def _game(n: int, seed: int) -> GameVectors:
    rng = np.random.default_rng(seed)
    vectors = GameVectors()
    for i in range(n):
        text = rng.normal(size=384).astype(np.float32)
        vectors.put(f"m{i}", text / np.linalg.norm(text), (), 0)
    return vectors


@settings(max_examples=40)
@given(st.integers(1, 120), st.integers(0, 2**32 - 1), st.data())
def test_a_memorys_score_does_not_depend_on_the_others_scored_with_it(n: int, seed: int, data: st.DataObject) -> None:
    # an owner with most of the game's memories is scored in one pass over the whole matrix, one with few by copying
    # its rows: a replay must give the same bits either way, and both the cosine with the text
    vectors = _game(n, seed)
    topic = np.random.default_rng(seed + 1).normal(size=384).astype(np.float32)
    everyone = np.arange(n, dtype=np.intp)
    few = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=max(1, n // 3)))),
                   dtype=np.intp)
    whole, part = dense_scores(vectors, everyone, topic), dense_scores(vectors, few, topic)
    assert whole is not None and part is not None
    assert np.array_equal(whole[few], part)
    unit = topic / np.linalg.norm(topic)
    assert np.allclose(whole, vectors.texts[:n] @ unit, atol=1e-6)


def test_a_memory_stored_without_an_embedding_has_no_dense_score() -> None:
    vectors = _game(4, seed=3)
    scores = dense_scores(vectors, np.array([0, -1, 2], dtype=np.intp), np.ones(384, dtype=np.float32))
    assert scores is not None and np.isnan(scores[1]) and not np.isnan(scores[[0, 2]]).any()
    assert dense_scores(vectors, np.array([0], dtype=np.intp), None) is None


def test_a_topic_names_players_as_whole_words_whatever_the_case() -> None:
    players = ["Melanie", "Caroline", "Al"]
    assert named_in("What instruments does melanie play?", players) == {"Melanie"}
    assert named_in("Where did Caroline's sister go, and MELANIE?", players) == {"Caroline", "Melanie"}
    assert named_in("Melanies and Alan", players) == frozenset()
    assert named_in("What did O’Brien tell you?", ["O'Brien"]) == {"O'Brien"}  # a typographic apostrophe
    assert named_in("Did \uff32\uff49\uff4c\uff45\uff59 vote?", ["Riley"]) == {"Riley"}  # full-width letters
    assert named_in("Zoe\u0308 said so", ["Zo\u00eb"]) == {"Zo\u00eb"}  # decomposed, as an NFD keyboard sends it
    assert named_in(None, players) == frozenset() and named_in("", players) == frozenset()


@settings(max_examples=60)
@given(st.floats(0.3, 1.0), st.floats(1.0, 8 / 3), st.integers(0, 30), st.floats(0.5, 200.0), st.integers(0, 60),
       st.sampled_from(["power", "exponential"]))
def test_the_source_route_is_the_source_confidence_until_the_source_is_forgotten(
        c0: float, k: float, t_enc: int, s_enc: float, later: int, curve: str) -> None:
    now = t_enc + later
    c = source_confidence(c0, now, t_enc, s_enc, k, curve)
    route = source_route(np.array([c0, c0, c0]), np.array([k, k, k]), np.array([t_enc] * 3, dtype=float),
                         np.array([s_enc] * 3), np.array([False, True, True]), np.array([False, False, True]), now,
                         curve, 0.3)
    assert math.isclose(route[0], c if c >= 0.3 else 0.0, abs_tol=1e-12)  # forgotten below 0.3: content alone
    assert math.isclose(route[1], c, abs_tol=1e-12)  # a flashbulb keeps its source
    assert route[2] == 1.0  # one's own statement: one knows one said it
    earlier = source_route(np.array([c0]), np.array([k]), np.array([t_enc], dtype=float), np.array([s_enc]),
                           np.array([True]), np.array([False]), t_enc, curve, 0.3)
    assert earlier[0] >= route[1] - 1e-12, "the route only weakens as the source fades"


def test_perfect_memory_keeps_the_source_route_at_its_encoding_confidence() -> None:
    route = source_route(np.array([0.9]), np.array([1.0]), np.array([0.0]), np.array([math.inf]),
                         np.array([False]), np.array([False]), 500, "power", 0.3)
    assert route[0] == 0.9


def test_a_cue_naming_the_speaker_lifts_that_speakers_statements_above_equal_content() -> None:
    vectors = GameVectors()
    unit = np.ones(384, dtype=np.float32) / math.sqrt(384)
    vectors.put("mel", unit, (), 0, SourceCue("Melanie", 0.9, 1.5, 0, 100.0, False))
    vectors.put("car", unit, (), 0, SourceCue("Caroline", 1.0, 1.5, 0, 10.0, True))
    vectors.put("old", unit, (), 0, SourceCue("Melanie", 0.9, 1.5, 0, 0.5, False))  # source long faded
    vectors.put("vote", unit, (), 0, NO_SOURCE)
    rows = np.arange(4, dtype=np.intp)
    source = source_values(vectors, rows, frozenset({"Melanie"}), 20, "power", 0.3)
    assert source[0] > 0.3 and source[1] == 0.0 and source[2] == 0.0 and source[3] == 0.0
    params = default_parameters()
    scores = score_candidates([0.5] * 4, [False] * 4, [0.18] * 4, [0.5, 0.5, 0.5, 0.4], [0.0] * 4, [False] * 4,
                              params, source=source)
    assert scores.relevance[0] > scores.relevance[2], "the faded source no longer cues"
    assert math.isclose(scores.relevance[0] - scores.relevance[2], params.recall.source_weight * source[0])
    assert list(scores.source) == list(source)


def test_the_source_columns_keep_what_was_put_and_keep_the_source_as_the_model_says() -> None:
    vectors = GameVectors()
    unit = np.ones(384, dtype=np.float32) / math.sqrt(384)
    cues = [SourceCue(name, 0.5, 1.2, 3, 40.0, own, flashbulb, misattributed)
            for name in ("Ann", "") for own in (False, True) for flashbulb in (False, True)
            for misattributed in (False, True)]
    for i, cue in enumerate(cues * 10):  # more rows than the first capacity: the columns grow
        vectors.put(f"m{i}", unit, (), 0, cue)
    assert [vectors.source(i) for i in range(len(cues) * 10)] == cues * 10
    from graphmem.model.source import keeps_source

    assert all(cue.keep == keeps_source(cue.own, cue.flashbulb, cue.misattributed) for cue in cues)
    rows = np.arange(len(cues), dtype=np.intp)
    # a time far enough for every source to fall below 0.3: only a kept source still cues
    route = source_values(vectors, rows, frozenset({"Ann"}), 10_000, "power", 0.3)
    assert [bool(r > 0) for r in route] == [bool(c.speaker and c.keep) for c in cues]
