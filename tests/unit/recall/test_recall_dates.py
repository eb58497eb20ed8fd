"""The date route of recall (docs/model.md#candidates-and-ranking, graphmem/recall/dates.py): the calendar dates a
question names, and the memories whose event was logged within them or in the week after."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import default_parameters
from graphmem.recall.dates import AFTER_DAYS, asks_when, date_route, named_spans, told_day
from graphmem.recall.lexical import Postings, analyze, says_when
from graphmem.recall.ranking import relevance, score_candidates

P = default_parameters()


def _days(*spans: tuple[dt.date, dt.date]) -> tuple[tuple[float, float], ...]:
    return tuple((float(a.toordinal()), float(b.toordinal())) for a, b in spans)


@pytest.mark.parametrize(("topic", "spans"), [
    ("What did Nate make on 9 November, 2022?", _days((dt.date(2022, 11, 9), dt.date(2022, 11, 10)))),
    ("What did he do on the 9th of November 2022?", _days((dt.date(2022, 11, 9), dt.date(2022, 11, 10)))),
    ("What painting did Melanie show on October 13, 2023?", _days((dt.date(2023, 10, 13), dt.date(2023, 10, 14)))),
    ("Nov 9th 2022 or 2022-11-10", _days((dt.date(2022, 11, 10), dt.date(2022, 11, 11)),
                                         (dt.date(2022, 11, 9), dt.date(2022, 11, 10)))),
    ("Which city did John recommend in January 2024?", _days((dt.date(2024, 1, 1), dt.date(2024, 2, 1)))),
    ("What happened in Dec. 2023?", _days((dt.date(2023, 12, 1), dt.date(2024, 1, 1)))),
    ("How many times has Melanie gone to the beach in 2023?", _days((dt.date(2023, 1, 1), dt.date(2024, 1, 1)))),
])
def test_a_question_names_days_months_and_years(topic: str, spans: tuple[tuple[float, float], ...]) -> None:
    assert named_spans(topic) == spans


@pytest.mark.parametrize("topic", [
    None, "", "Who did Riley vote to banish on day 2?", "What did player-2023 say?", "on 31 February 2023",
    "What did Nate do on Monday?", "Did he say it at 10:2023?", "She paid 12000 for it", "on 9 November",
])
def test_what_names_no_calendar_date_moves_nothing(topic: str | None) -> None:
    assert named_spans(topic) == ()


def test_a_memory_answers_a_date_when_it_was_logged_that_day_or_in_the_week_after() -> None:
    (day,) = named_spans("on 9 November, 2022")
    start = day[0]
    told = np.array([start - 0.01, start, start + 0.99, start + 1 + AFTER_DAYS - 0.01, start + 1 + AFTER_DAYS,
                     math.nan])
    assert date_route(told, (day,)).tolist() == [0.0, 1.0, 1.0, 1.0, 0.0, 0.0]
    assert date_route(told, ()).tolist() == [0.0] * 6


def test_an_events_time_is_read_as_written() -> None:
    assert told_day("2023-05-08T13:56:00") == pytest.approx(dt.date(2023, 5, 8).toordinal() + (13 * 60 + 56) / 1440)
    assert told_day("2025-04-13T14:08:03.907003") > dt.date(2025, 4, 13).toordinal()
    assert math.isnan(told_day(None)) and math.isnan(told_day("day 2"))


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.booleans(), st.floats(0, 1))
def test_the_date_route_adds_its_weight_to_relevance_as_the_scalar_formula_says(
        dense: float, lexical: float, strength: float, dated: bool, source: float) -> None:
    scores = score_candidates([strength, strength], [False, False], [0.3, 0.3], [dense, 0.0], [lexical, 1.0],
                              [False, False], P, source=np.array([source, 0.0]), date=np.array([float(dated), 0.0]),
                              dense_range=(0.0, 1.0), lexical_best=1.0)
    assert scores.relevance[0] == pytest.approx(relevance(dense, lexical, False, P, source=source, date=float(dated)))
    undated = score_candidates([strength], [False], [0.3], [dense], [lexical], [False], P,
                               source=np.array([source]), dense_range=(0.0, 1.0), lexical_best=1.0)
    assert scores.raw[0] == pytest.approx(undated.raw[0] + (P.recall.date_weight if dated else 0.0))
    off = replace(P, recall=replace(P.recall, date_weight=0.0))
    assert score_candidates([strength], [False], [0.3], [dense], [lexical], [False], off, source=np.array([source]),
                            date=np.array([1.0]), dense_range=(0.0, 1.0), lexical_best=1.0).raw[0] == \
        pytest.approx(undated.raw[0])


@pytest.mark.parametrize(("topic", "asked"), [
    ("When did Caroline go to the LGBTQ support group?", True), ("when is Melanie planning on going camping?", True),
    ("How long has Caroline had her current group of friends for?", True), ("What year did John move?", True),
    ("What did Riley say when I accused her?", False), ("When Frank joined Bob, what happened on that mission?", False),
    ("Do you remember when we met?", False), (None, False), ("", False),
])
def test_a_question_asks_when_by_how_it_starts(topic: str | None, asked: bool) -> None:
    assert asks_when(topic) is asked


def test_a_memory_says_when_by_its_words() -> None:
    assert says_when(analyze("I went to a LGBTQ support group yesterday and it was so powerful."))
    assert says_when(analyze("I painted that lake sunrise in 2022!")) and says_when(analyze("See you next weekend"))
    assert not says_when(analyze("Riley voted to banish Casey.")) and not says_when(analyze("I play the clarinet"))
    postings = Postings()
    postings.put(0, "I ran a charity race last Sunday", None, None)
    postings.put(1, "I ran a charity race", "Sunday", "last week")  # only its own text says when it happened
    assert postings.timed[:2].tolist() == [1.0, 0.0]
    postings.rewrite(0, "I ran a charity race", None)  # the day is lost: the words no longer say when
    assert postings.timed[0] == 0.0


def test_the_when_route_adds_its_weight_only_where_given() -> None:
    both = score_candidates([0.5, 0.5], [False, False], [0.3, 0.3], [0.2, 0.2], [0.4, 0.4], [False, False], P,
                            when=np.array([1.0, 0.0]), dense_range=(0.0, 1.0), lexical_best=1.0)
    assert both.raw[0] - both.raw[1] == pytest.approx(P.recall.when_weight)
    assert both.relevance[0] == pytest.approx(relevance(0.2, 0.4, False, P, when=1.0))
