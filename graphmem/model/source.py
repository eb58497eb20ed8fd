"""Source monitoring: how sure the owner is of where a memory came from (docs/model.md#source-memory).

People keep the content of a memory longer than its source (Johnson, Hashtroudi & Lindsay 1993). Source
confidence therefore follows the content's own forgetting curve raised to a power k >= 1,
``c(t) = c0 * R(t - t_enc, S_enc)^k``, on its own clock: it is measured from encoding with the stability at
encoding and is never reset by retrieval. With the exponential curve ``R^k = exp(-k dt / S)``, so the source
fades exactly k times faster than the content (k = 1.5 for the analytical profile, as the seed intended).
Below 0.3 the owner's belief about the source becomes "unknown"; the provenance in the graph stays. Two kinds of
memory keep their source whatever the confidence (:func:`keeps_source`): the owner's own statements and actions
(people tell what they said or did from what they perceived far better than one outside source from another:
Johnson & Raye 1981, reality monitoring; the self-reference effect), and flashbulbs, whose circumstances, who told
one included, are part of what stays vivid (Brown & Kulik 1977). A flashbulb's source confidence follows the
flashbulb's own stability, and it can still be misattributed. A memory whose teller the owner misattributed at its
last recall names that (wrong) teller, whatever its confidence: the owner's belief is the one they formed then, not a
blank (docs/model.md#misattribution).
"""

from __future__ import annotations

import math

from graphmem.errors import UsageProblem
from graphmem.model._checks import check_unit
from graphmem.model.forgetting import DEFAULT_CURVE, retention
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.vocabulary import SourceType

__all__ = ["OWN_KINDS", "SourceType", "initial_source_confidence", "keeps_source", "source_belief", "source_confidence",
           "source_exponent"]


def _source_type(source_type: SourceType | str) -> SourceType:
    try:
        return SourceType(source_type)
    except ValueError:
        raise UsageProblem(f"unknown source type {source_type!r} "
                           f"(known: {', '.join(s.value for s in SourceType)})") from None


def initial_source_confidence(source_type: SourceType | str, params: Parameters | None = None) -> float:
    """c0 in [0, 1]: first_hand 1.0, direct_told 0.9, overheard 0.7, group_discuss 0.6, inferred 0.5
    (docs/model.md#source-memory).

    Raises UsageProblem for "unknown" (a belief, never a way of encoding) or an unknown name.
    """
    st = _source_type(source_type)
    table = resolve(params).source.initial_confidence
    if st.value not in table:
        raise UsageProblem(f"source type {st.value!r} has no initial confidence (known: {', '.join(table)})")
    return table[st.value]


def source_exponent(profile: Profile, params: Parameters | None = None) -> float:
    """k = 1 + (1 - SourceMemoryBias) * 5/3, in [1, 8/3] with the default slope (docs/model.md#source-memory).

    k = 1 (bias 1) fades the source with the content; larger k fades it faster.
    """
    return 1.0 + (1.0 - profile.source_memory_bias) * resolve(params).source.exponent_slope


def source_confidence(c0: float, t: float, t_enc: float, s_enc: float, k: float,
                      curve: str = DEFAULT_CURVE) -> float:
    """Source confidence c(t) = c0 * R(t - t_enc, S_enc)^k, in [0, c0] (docs/model.md#source-memory).

    c0 : float in [0, 1], confidence at encoding; t : phase now, >= t_enc; t_enc : phase of encoding;
    s_enc : stability at encoding, phases; k : float >= 1, the profile's source exponent.
    Since R <= 1 and k >= 1, c / c0 never exceeds the content's retention since encoding.
    Source: Johnson, Hashtroudi & Lindsay 1993. Raises UsageProblem for t < t_enc, s_enc <= 0, k < 1.
    """
    check_unit("c0", c0)
    if not k >= 1.0:
        raise UsageProblem(f"source exponent k must be >= 1, got {k!r}")
    return c0 * math.pow(retention(t - t_enc, s_enc, curve), k)


OWN_KINDS = ("say", "vote", "recruit", "reflect", "belief")
"""The event kinds whose actor's memory is the owner's own statement or action (the speaker's memory of saying it,
the voter's of voting, the recruiter's of recruiting, the player's of their reflection after the game and of a
belief they stated during it): with the
owner as the event's actor, such a memory is ``own`` and keeps its source (docs/model.md#source-memory)."""


def keeps_source(own: bool, flashbulb: bool, misattributed: bool = False) -> bool:
    """Whether the source belief is known whatever the source confidence (docs/model.md#source-memory,
    docs/model.md#flashbulb-memories, docs/model.md#misattribution): the owner's own statement or action (own), a
    flashbulb, or a memory whose last recall attributed it to another teller (misattributed: the owner names that
    teller until a later recall judges the source again)."""
    return own or flashbulb or misattributed


def source_belief(source_type: SourceType | str, c: float, params: Parameters | None = None, *,
                  keep: bool = False) -> str:
    """The owner's belief about the source: the provenance type's name, or "unknown" when c < 0.3
    (docs/model.md#source-memory).

    c : float in [0, 1], the current source confidence; keep : the memory keeps its source whatever c
    (:func:`keeps_source`: the owner's own statements and actions, flashbulbs, a misattributed teller).
    """
    st = _source_type(source_type)
    if check_unit("c", c) < resolve(params).source.unknown_below and not keep:
        return SourceType.UNKNOWN.value
    return st.value
