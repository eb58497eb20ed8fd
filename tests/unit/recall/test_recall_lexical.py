"""The lexical lane's words and BM25 over the owner's own candidates (graphmem.recall.lexical)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.recall.lexical import Postings, analyze, bm25, topic_terms


def test_words_are_read_as_lucene_english_reads_them() -> None:
    assert analyze("Melanie's instruments: the CLARINET and violins!") == ["melani", "instrument", "clarinet",
                                                                         "violin"]
    assert analyze("Caroline’s ＬＧＢＴＱ support group") == analyze("caroline's lgbtq support group")
    assert analyze("Who is he?") == [] and analyze(None) == [] and analyze("") == []


def test_topic_terms_are_distinct_the_longest_kept_in_the_order_said() -> None:
    assert topic_terms("What instruments does Melanie play? Instrument!") == ["instrument", "melani", "play"]
    assert topic_terms("what did she say about him", limit=1) == ["say"]
    assert topic_terms("Who is he?") == ["who", "is", "he"]  # stop words alone: searched as they are
    assert topic_terms(None) == [] and topic_terms("?!") == []
    long = " ".join(f"word{i}" + "x" * (i % 7) for i in range(300))
    assert len(topic_terms(long)) == 100


def reference(docs: list[tuple[str, str, str]], terms: list[str]) -> list[float]:
    """BM25 written out as the module docstring gives it, one document and field at a time."""
    fields = [[analyze(doc[f]) for doc in docs] for f in range(3)]
    out = [0.0] * len(docs)
    for f, weight in enumerate((1.0, 1.0, 0.5)):
        having = [d for d in fields[f] if d]
        if not having:
            continue
        average = sum(map(len, having)) / len(having)
        for term in terms:
            df = sum(term in d for d in having)
            idf = math.log1p((len(having) - df + 0.5) / (df + 0.5))
            for i, d in enumerate(fields[f]):
                tf = d.count(term)
                if tf:
                    out[i] += weight * idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(d) / average))
    return out


DOCS = [("Melanie: I play the clarinet and the violin", "Melanie", "Did you ever play music?"),
        ("Caroline: I went to the LGBTQ support group yesterday", "Caroline", ""),
        ("Melanie: The kids loved the museum", "Melanie", "Did the kids like the museum?"),
        ("You told Melanie: I paint in the mornings", "Melanie", "What do you do before work?")]


def indexed(docs: list[tuple[str, str, str]]) -> Postings:
    postings = Postings()
    for row, (text, keywords, context) in enumerate(docs):
        postings.put(row, text, keywords, context)
    return postings


def test_bm25_is_the_formula_over_the_candidates_given() -> None:
    terms = topic_terms("What instruments does Melanie play at the museum?")
    (got,) = bm25([(indexed(DOCS), np.arange(len(DOCS)))], terms)
    assert got.tolist() == pytest.approx(reference(DOCS, terms), rel=1e-12)
    # the statistics are those of the candidates only: leaving a memory out changes the others' scores
    (fewer,) = bm25([(indexed(DOCS), np.array([0, 2]))], terms)
    assert fewer.tolist() == pytest.approx(reference([DOCS[0], DOCS[2]], terms), rel=1e-12)
    assert fewer[0] != got[0]


def test_a_rewritten_memory_is_scored_by_its_new_words_and_its_context_stays() -> None:
    postings = indexed(DOCS)
    postings.rewrite(0, "Melanie: I play the violin", "Melanie")
    changed = [("Melanie: I play the violin", "Melanie", DOCS[0][2]), *DOCS[1:]]
    terms = topic_terms("clarinet violin music")
    (got,) = bm25([(postings, np.arange(len(DOCS)))], terms)
    assert got.tolist() == pytest.approx(reference(changed, terms), rel=1e-12)


def test_a_candidate_without_a_row_scores_zero() -> None:
    (got,) = bm25([(indexed(DOCS), np.array([1, -1, 0]))], ["melani"])
    assert got[1] == 0.0 and got[2] > 0.0 and got[0] == 0.0


words = st.sampled_from("melanie clarinet museum kids group support paint violin caroline day".split())
documents = st.lists(st.tuples(st.lists(words, max_size=8).map(" ".join), st.lists(words, max_size=2).map(" ".join),
                               st.lists(words, max_size=5).map(" ".join)), min_size=1, max_size=12)


@settings(max_examples=60)
@given(documents, st.lists(words, min_size=1, max_size=4, unique=True), st.randoms(use_true_random=False),
       st.integers(1, 4))
def test_scores_do_not_depend_on_the_order_or_the_split_of_the_candidates(
        docs: list[tuple[str, str, str]], query: list[str], rng: object, parts: int) -> None:
    terms = topic_terms(" ".join(query))
    (whole,) = bm25([(indexed(docs), np.arange(len(docs)))], terms)
    assert whole.tolist() == pytest.approx(reference(docs, terms), rel=1e-9, abs=1e-12)
    order = list(range(len(docs)))
    rng.shuffle(order)  # type: ignore[attr-defined]
    # the same candidates in another order and split over several games (a series): each exactly the same
    cuts = sorted({0, len(docs), *(rng.randrange(len(docs) + 1) for _ in range(parts - 1))})  # type: ignore[attr-defined]
    segments = [[docs[i] for i in order[a:b]] for a, b in zip(cuts, cuts[1:])]
    scores = bm25([(indexed(seg), np.arange(len(seg))) for seg in segments], terms)
    again = dict(zip(order, np.concatenate(scores).tolist()))
    assert [again[i] for i in range(len(docs))] == whole.tolist()
