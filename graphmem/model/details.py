"""Structured details of a memory and how a memory renders once some are lost or fabricated
(docs/model.md#details-and-how-they-render).

A memory's text is a template with placeholders ``{who}``, ``{whom}``, ``{where}`` and ``{content}`` filled from
its details. Lost details render vaguely ("someone", "somewhere"; a lost quote leaves the gist; a lost ``when``
drops the day marker). Fabricated details, imported from another memory at recall (Loftus 2005), render exactly
like true ones, since the owner cannot tell them apart, but stay marked for analysis.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from graphmem.errors import GraphmemError, UsageProblem
from graphmem.model.vocabulary import DetailKind

__all__ = ["Detail", "DetailKind", "cannot_remember_who", "day_label_kept", "details_from_json", "details_to_json",
           "displayed_day", "n_lost", "any_fabricated", "render", "search_keywords", "believed_about"]

PLACEHOLDER = re.compile(r"\{(who|whom|where|content)\}")
VAGUE_WORD = {DetailKind.WHO: "someone", DetailKind.WHOM: "someone", DetailKind.WHERE: "somewhere"}
NO_CONTENT = "something"
JSON_KEYS = ("kind", "value", "lost", "fabricated", "original", "origin")


@dataclass(frozen=True, init=False)
class Detail:
    """One structured detail of a memory (docs/model.md#details-and-how-they-render).

    kind : DetailKind (who, whom, where, when, quote, what); a plain str is accepted and converted
    value : str, the detail as the owner holds it (for ``when``, the day number, e.g. "3")
    lost : bool, forgotten at a recall (renders vaguely)
    fabricated : bool, imported from another memory at a recall (a commission error)
    original : str or None, for a fabricated detail the true value it replaced (None if it was added)
    origin : str or None, for a fabricated detail the uid of the memory it came from
    Raises UsageProblem for an unknown kind.
    """

    kind: DetailKind
    value: str
    lost: bool
    fabricated: bool
    original: str | None
    origin: str | None

    def __init__(self, kind: DetailKind | str, value: str, lost: bool = False, fabricated: bool = False,
                 original: str | None = None, origin: str | None = None) -> None:
        try:
            checked = DetailKind(kind)
        except ValueError:
            raise UsageProblem(f"unknown detail kind {kind!r} "
                               f"(known: {', '.join(k.value for k in DetailKind)})") from None
        for name, value_ in (("kind", checked), ("value", value), ("lost", lost), ("fabricated", fabricated),
                             ("original", original), ("origin", origin)):
            object.__setattr__(self, name, value_)

    def forgotten(self) -> Detail:
        """This detail, lost."""
        return replace(self, lost=True)


def _join(words: list[str]) -> str:
    unique = list(dict.fromkeys(words))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " and " + unique[-1]


def _fill(kind: DetailKind, details: Sequence[Detail]) -> str:
    vague = VAGUE_WORD[kind]
    words = [vague if d.lost else d.value for d in details if d.kind is kind]
    return _join(words) if words else vague


def _content(details: Sequence[Detail]) -> str:
    for d in details:
        if d.kind is DetailKind.QUOTE and not d.lost:
            return d.value if d.value.startswith('"') else f'"{d.value}"'
    for d in details:
        if d.kind is DetailKind.WHAT and not d.lost:
            return d.value
    return NO_CONTENT


def render(template: str, details: Sequence[Detail]) -> str:
    """The memory's text as the owner now remembers it (docs/model.md#details-and-how-they-render).

    template : str with placeholders ``{who}``, ``{whom}``, ``{where}``, ``{content}`` (other braces are left
    alone). ``{content}`` is the quote in double quotes if kept, else the ``what`` gist. A lost (or absent)
    who/whom renders "someone", where "somewhere"; several details of one kind are joined with "and".
    Fabricated details render like true ones.
    """
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        return _content(details) if name == "content" else _fill(DetailKind(name), details)
    return PLACEHOLDER.sub(fill, template)


def day_label_kept(details: Iterable[Detail]) -> bool:
    """False when a ``when`` detail is lost: the prompt then drops the day marker
    (docs/model.md#details-and-how-they-render)."""
    return not any(d.kind is DetailKind.WHEN and d.lost for d in details)


def displayed_day(details: Iterable[Detail], day: int) -> int | None:
    """The day the owner believes: None if the ``when`` is lost, an imported day if one was fabricated, else
    ``day`` (the memory's true day)."""
    for d in details:
        if d.kind is DetailKind.WHEN:
            if d.lost:
                return None
            found = re.search(r"\d+", d.value)
            if d.fabricated and found:
                return int(found.group())
    return day


_PLACE_FILLER = frozenset({"at", "in", "on", "the", "a", "an", "of", "to"})


def believed_about(details: Iterable[Detail], about: Iterable[str]) -> tuple[str, ...]:
    """The players a memory is about as its owner now remembers them: ``about`` (the event's, fixed at encoding) with
    the true name behind each fabricated ``who``/``whom`` detail replaced by the name the owner now holds (a name
    imported without one it replaced is added), and the name of each lost ``who``/``whom`` detail left out unless a
    kept detail still names it (the owner cannot remember who). Order kept, no repeats.

    What the agent reads and what cues a memory follow the owner's belief, never the ground truth the event keeps
    (docs/model.md#details-and-how-they-render): after "Riley voted to banish you" became "Fletcher voted to banish
    you" at a recall, the memory is about Fletcher, not Riley.
    """
    people = [d for d in details if d.kind in (DetailKind.WHO, DetailKind.WHOM)]
    kept = {d.value for d in people if not d.lost}
    swapped = {d.original: d.value for d in people
               if d.fabricated and d.original is not None and not d.lost and d.original not in kept}
    gone = {name for d in people if d.lost for name in (d.value, d.original) if name is not None} - kept
    names = [swapped.get(name, name) for name in about]
    names += [d.value for d in people if d.fabricated and d.original is None and not d.lost]
    return tuple(n for n in dict.fromkeys(names) if n not in gone)


def search_keywords(details: Iterable[Detail], about: Iterable[str]) -> str:
    """The words a memory can be found by besides its text (the full-text index's ``keywords``), space-separated:
    the names it holds (its kept ``who``/``whom`` details and the players it is about as the owner believes,
    :func:`believed_about`, sorted), where it happened
    (the kept ``where`` detail without its articles: "round table", "private conversation") and when (the kept
    ``when`` detail as "day 2").

    A cue matches how an event was encoded, its context included (Tulving & Thomson 1973, encoding specificity):
    "what did Fletcher say at the round table on day 1" finds that speech by its place and day as well as by its
    words. A lost detail no longer cues (it is left out), and a fabricated one does, as the owner believes it.
    """
    details = list(details)
    kept = [d for d in details if not d.lost]
    names = {d.value for d in kept if d.kind in (DetailKind.WHO, DetailKind.WHOM)} | set(believed_about(details, about))
    words = sorted(names)
    for d in kept:
        if d.kind is DetailKind.WHERE:
            words += [w for w in d.value.split() if w.lower() not in _PLACE_FILLER]
    for d in kept:
        found = re.search(r"\d+", d.value) if d.kind is DetailKind.WHEN else None
        if found:
            words += ["day", found.group()]
    return " ".join(words)


def cannot_remember_who(details: Iterable[Detail]) -> bool:
    """True when a ``who`` detail is lost: the [FUZZY] line adds a "cannot remember who" clause
    (docs/model.md#details-and-how-they-render)."""
    return any(d.kind is DetailKind.WHO and d.lost for d in details)


def n_lost(details: Iterable[Detail]) -> int:
    """How many details are lost (the graph's ``n_lost``)."""
    return sum(1 for d in details if d.lost)


def any_fabricated(details: Iterable[Detail]) -> bool:
    """Whether the memory holds an imported detail now (the graph's ``fabricated``, docs/model.md#reconsolidation): an
    imported detail that was lost again no longer counts (its ``fabricated`` and ``origin`` stay, for analysis)."""
    return any(d.fabricated and not d.lost for d in details)


def details_to_json(details: Iterable[Detail]) -> str:
    """The graph's ``details_json``: a JSON list of objects with keys kind, value, lost, fabricated, original,
    origin."""
    # built field by field (not dataclasses.asdict, which deep-copies every value: half of the encoding time)
    return json.dumps([{"kind": d.kind.value, "value": d.value, "lost": d.lost, "fabricated": d.fabricated,
                        "original": d.original, "origin": d.origin} for d in details], ensure_ascii=False)


def details_from_json(text: str) -> tuple[Detail, ...]:
    """The inverse of ``details_to_json``; missing flags default to false/null.

    Raises GraphmemError for text that is not such a list (naming the offending item).
    """
    try:
        data = json.loads(text)
    except ValueError as e:
        raise GraphmemError(f"details_json is not JSON: {e}") from e
    if not isinstance(data, list):
        raise GraphmemError(f"details_json must be a list, got {type(data).__name__}")
    out = []
    for i, item in enumerate(data):
        if not (isinstance(item, dict) and set(item) <= set(JSON_KEYS) and isinstance(item.get("value"), str)
                and isinstance(item.get("lost", False), bool) and isinstance(item.get("fabricated", False), bool)
                and all(isinstance(item.get(k), (str, type(None))) for k in ("original", "origin"))):
            raise GraphmemError(f"details_json item {i} is not a detail object: {item!r}")
        try:
            out.append(Detail(**item))
        except (UsageProblem, TypeError) as e:
            raise GraphmemError(f"details_json item {i}: {e}") from e
    return tuple(out)
