"""When a memory was made, as a cue (docs/model.md#candidates-and-ranking): the calendar dates a topic names, and
which candidates the owner made within them.

People date what they were told by when they heard it ("she told me about it on my birthday", "that was in
January"), and a question naming a date ("What did Nate make on 9 November, 2022?", "Which city did John recommend
in January 2024?") brings back what was heard then. A memory knows the time of its event when the log gives one (an
event's ``t``, docs/log-format.md); a question's dates are read from its words (:func:`named_spans`), and each
candidate made within a named span, or in the week after it, gets the date route (:func:`date_route`): people tell of
what they did after they did it ("last week I ran a charity race"), so the evidence of a day is often heard a few days
later. A topic naming no date, and a memory whose event has no time, get nothing from this route.

A question asking *when* ("When did Caroline go to the support group?", "How long has she had them?") is answered by
the statement that said when ("I went to a support group yesterday"): people keep the time an event was placed in
with the event. Such a topic (:func:`asks_when`) also reaches the memories whose own words place something in time
(:data:`TIME_WORDS`, or a year; :attr:`graphmem.recall.lexical.Postings.timed`), the *when* route.

What is read as a date (English, as LoCoMo's questions and most agents write them; a day without a year, a weekday or
"yesterday" name no calendar day here):

- a day: "9 November, 2022", "9th of November 2022", "November 9, 2022", "Nov 9th 2022", "2022-11-09";
- a month: "November 2022", "Nov. 2022";
- a year: "2022" (a number from 1900 to 2099 standing alone).

Each span is the named day, month or year, in days since 0001-01-01 (:meth:`datetime.date.toordinal`), end
exclusive. A piece of the topic is read once, as its most specific form ("9 November, 2022" is a day, not also a year).
"""

from __future__ import annotations

import datetime as dt
import functools
import re

import numpy as np
import numpy.typing as npt

__all__ = ["AFTER_DAYS", "TIME_WORDS", "asks_when", "date_route", "named_spans", "told_day"]

AFTER_DAYS = 7.0
"""How long after a named span a memory still answers it, in days: people tell of what they did in the days after
(LoCoMo, bench/README.md: 7 days gave the same recall@10 as 7 days plus 3 before; 14 days a little less)."""

TIME_WORDS = (
    "yesterday", "today", "tonight", "tomorrow", "last", "next", "ago", "weekend", "week", "weeks", "month", "months",
    "year", "years", "recently", "soon", "since", "earlier", "later", "before", "after", "morning", "evening", "night",
    "summer", "winter", "spring", "fall", "autumn", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december")
"""The words that place what a statement tells in time (with any four-digit number, a year): the *when* route."""
_ASKS_WHEN = re.compile(r"^\W*(?:when\s+(?:did|do|does|is|was|were|will|would|has|have|had|are|can|could|should)"
                        r"|how\s+long|what\s+time|(?:what|which)\s+(?:year|month|date|day))\b", re.IGNORECASE)

_MONTHS = {name: i + 1 for i, name in enumerate(
    "january february march april may june july august september october november december".split())}
_MONTHS.update({name[:3]: i for name, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<d>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>(?:19|20)\d\d)"
_FORMS = (  # the most specific first
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)\b"),
    re.compile(rf"\b{_DAY}(?:\s+of)?\s+{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"(?<![\w.:/-]){_YEAR}(?![\w.:/-])"),
)


def _span(found: dict[str, str | None]) -> tuple[float, float] | None:
    year = int(found["y"] or 0)
    number, name, day = found.get("m"), found.get("mon"), found.get("d")
    month = int(number) if number else _MONTHS[name.lower()] if name else None
    try:
        if day:
            start = dt.date(year, month or 1, int(day))
            return float(start.toordinal()), float(start.toordinal() + 1)
        if month is not None:
            start = dt.date(year, month, 1)
            end = dt.date(year + 1, 1, 1) if month == 12 else dt.date(year, month + 1, 1)
            return float(start.toordinal()), float(end.toordinal())
        return float(dt.date(year, 1, 1).toordinal()), float(dt.date(year + 1, 1, 1).toordinal())
    except ValueError:  # "31 February 2023": no such day, no span
        return None


@functools.lru_cache(maxsize=4096)
def named_spans(topic: str | None) -> tuple[tuple[float, float], ...]:
    """The calendar spans ``topic`` names (see the module docstring for the forms read): ((start, end), ...) in days
    since 0001-01-01, end exclusive, in the order of the forms, then of the text; () for none.

    ``named_spans("What did Nate make on 9 November, 2022?")`` is one day, ``named_spans("in January 2024")`` the 31
    days of that month, ``named_spans("in 2023")`` the year; a date that does not exist ("31 February 2023") is no
    span.
    """
    if not topic:
        return ()
    spans: list[tuple[float, float]] = []
    taken: list[tuple[int, int]] = []
    for form in _FORMS:
        for match in form.finditer(topic):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            taken.append((match.start(), match.end()))
            span = _span(match.groupdict())
            if span is not None and span not in spans:
                spans.append(span)
    return tuple(spans)


def asks_when(topic: str | None) -> bool:
    """Whether ``topic`` is a question asking when: it starts with "When did/is/was/will/has ...", "How long",
    "What time" or "What/Which year/month/date/day" (any case). "What did Riley say when I accused her?" asks what,
    not when."""
    return bool(topic) and _ASKS_WHEN.search(topic or "") is not None


def told_day(t: str | None) -> float:
    """The time of an event's ``t`` (ISO 8601, docs/log-format.md) in days since 0001-01-01 (the day's ordinal plus
    the fraction of the day gone, as written: a time zone is not converted); NaN for None or a value that is not ISO
    8601."""
    if not t:
        return float("nan")
    try:
        when = dt.datetime.fromisoformat(t)
    except ValueError:
        return float("nan")
    seconds = when.hour * 3600 + when.minute * 60 + when.second + when.microsecond / 1e6
    return when.toordinal() + seconds / 86_400.0


def date_route(told: npt.NDArray[np.float64], spans: tuple[tuple[float, float], ...],
               after: float = AFTER_DAYS) -> npt.NDArray[np.float64]:
    """The date route of each candidate, shape (len(told),): 1.0 when the memory was made (``told``, days, NaN for
    unknown: :func:`told_day`) within one of ``spans`` or less than ``after`` days after its end, else 0.0."""
    out = np.zeros(told.shape[0])
    for start, end in spans:
        with np.errstate(invalid="ignore"):
            out[(told >= start) & (told < end + after)] = 1.0
    return out
