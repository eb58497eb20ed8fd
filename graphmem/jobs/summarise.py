"""What a consolidation summary says (docs/jobs.md#consolidation): the :class:`Summariser` interface and the default
extractive one.

A summariser turns the members of one cluster (one owner's similar memories) into the text of their Summary
memory. The default, :class:`ExtractiveSummariser`, needs no network and no model: it keeps the medoid member's
words (the member closest, on average, to the others) and says how many similar memories it stands for, when,
and from whom::

    (4 similar remarks, days 1-2, from Casey and Gwendolyn) "I'm voting to eliminate Beef. His aggressive ..."
    (5 similar memories on day 1, also involving Morgan) You told Parker: "Parker, I'm still watching ..."

"remarks ... from" when every member came from someone else (told, overheard, group discussion), naming the
tellers; "memories" otherwise (the owner saw, did or said some of it). The count is of *similar* memories, never
"this N times": embeddings cluster what is about the same thing, and the members may differ in wording or even in
stance, so the summary does not claim they were one statement repeated. The players the other members are about
are named after "also involving", so the gist does not silently pin everything on the medoid's actors. (Which
memories may cluster at all is :func:`graphmem.jobs.consolidation.consolidation_key`: never different votes or
claims.)

An abstractive summariser (an LLM) can replace it: anything with ``summarise(members) -> str``. Its text is stored
as the summary's ``template`` too, with no details (recall then has nothing to lose from it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from graphmem.jobs.clustering import medoid

__all__ = ["ExtractiveSummariser", "HEARSAY", "Member", "Summariser", "TemplatingSummariser", "day_span",
           "join_names"]

HEARSAY = frozenset({"direct_told", "overheard", "group_discuss"})
"""Source types of content that came from someone else."""

MAX_NAMES = 6
"""At most this many extra names after "also involving" (then "and others")."""


@dataclass(frozen=True)
class Member:
    """One memory of a cluster, as the summariser and the summary's properties need it (docs/graph-model.md).

    uid : str; text, template, details_json : the memory's content; day : int; t_enc : int, phase;
    phase_name : str; strength : float in [0, 1] at the game's ``decayed_to``; s : float, current stability in
    phases; source_type : provenance type; teller : str or None; about : player names; keywords : str;
    claims_json : str; embedding : array of shape (dimension,); salience, relevance, emotion_peak, surprise,
    consequence : floats in [0, 1]; threshold : the owner's RetrievalThreshold; decay_rate : the BaseDecayRate
    of S; source_k : the owner's source exponent; kind : the event kind (say, vote, murder, ..., lesson)
    """

    uid: str
    text: str
    template: str
    details_json: str
    day: int
    t_enc: int
    phase_name: str
    strength: float
    s: float
    source_type: str
    teller: str | None
    about: tuple[str, ...]
    keywords: str
    claims_json: str
    embedding: npt.NDArray[np.float64] = field(repr=False, compare=False)
    salience: float = 0.0
    relevance: float = 0.0
    emotion_peak: float = 0.0
    surprise: float = 0.0
    consequence: float = 0.0
    threshold: float = 0.0
    decay_rate: float = 0.2
    source_k: float = 1.0
    kind: str = "say"


class Summariser(Protocol):
    """Turns the members of one cluster into the text of their summary memory."""

    def summarise(self, members: Sequence[Member]) -> str:
        """The summary's text. members : the cluster, at least 2, sorted by uid."""
        ...  # pragma: no cover


@runtime_checkable
class TemplatingSummariser(Protocol):
    """A summariser whose text is a template over one member's details (recall can then lose details of it)."""

    def summarise(self, members: Sequence[Member]) -> str:
        """The summary's text (see :class:`Summariser`)."""
        ...  # pragma: no cover

    def wording(self, members: Sequence[Member]) -> tuple[str, str]:
        """``(template, details_json)`` whose rendering is ``summarise(members)``."""
        ...  # pragma: no cover


def day_span(days: Sequence[int]) -> str:
    """``"on day 2"`` or ``"days 1-3"``."""
    first, last = min(days), max(days)
    return f"on day {first}" if first == last else f"days {first}-{last}"


def join_names(names: Sequence[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``; beyond MAX_NAMES, the first ones "and others"."""
    shown = list(names[:MAX_NAMES])
    if len(names) > MAX_NAMES:
        return ", ".join(shown) + " and others"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


class ExtractiveSummariser:
    """The default summariser: the medoid member's text with the count, the day span and the other players
    involved (see the module docstring). Deterministic: the same members give the same text in any order."""

    def pick(self, members: Sequence[Member]) -> Member:
        """The medoid member (smallest summed cosine distance to the others; ties: the smallest uid)."""
        if not members:
            raise ValueError("cannot summarise an empty cluster")
        return members[medoid(np.stack([m.embedding for m in members]), [m.uid for m in members])]

    def prefix(self, members: Sequence[Member], chosen: Member) -> str:
        """``(N similar remarks, days A-B, from X and Y)`` or ``(N similar memories on day D, also involving Z)``."""
        heard = all(m.source_type in HEARSAY for m in members)
        count = f"{len(members)} similar {'remarks' if heard else 'memories'}"
        span = day_span([m.day for m in members])
        tellers = sorted({m.teller for m in members if m.teller}) if heard else []
        source = f", from {join_names(tellers)}" if tellers else ""
        others = sorted({name for m in members for name in m.about} - set(chosen.about) - set(tellers))
        involving = f", also involving {join_names(others)}" if others else ""
        text = f"({count}{' ' if span.startswith('on ') else ', '}{span}{source}{involving})"
        return text.replace("{", "(").replace("}", ")")  # the prefix is part of a template: no placeholders

    def wording(self, members: Sequence[Member]) -> tuple[str, str]:
        """The summary's template (prefix + the medoid's template) and details (the medoid's)."""
        chosen = self.pick(members)
        return f"{self.prefix(members, chosen)} {chosen.template}", chosen.details_json

    def summarise(self, members: Sequence[Member]) -> str:
        """The summary's text: the prefix and the medoid's text as the owner holds it now."""
        chosen = self.pick(members)
        return f"{self.prefix(members, chosen)} {chosen.text}"
