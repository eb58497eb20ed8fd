"""Encoding: the strength a memory starts with, its stability (memory strength in the sense of Ebbinghaus
1885 and Murre & Dros 2015, in phases), and its memory type (docs/model.md#encoding-strength-and-stability).

Stability S is the time constant of the forgetting curve (``forgetting.retention``): the half-life is
``S ln 2`` phases. At encoding it grows with salience, shrinks with the profile's decay rate, and differs by
memory system (semantic and procedural knowledge outlast episodes); recalls grow it afterwards (docs/model.md#forgetting,
``forgetting.stability_after_recall``).
"""

from __future__ import annotations

import math

from graphmem.errors import UsageProblem
from graphmem.model._checks import check_unit
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.vocabulary import MemoryType

__all__ = ["MemoryType", "classify_type", "decay_rate", "encoding_strength", "stability", "type_factor"]

LESSON_KINDS = frozenset({"lesson"})
SEMANTIC_KINDS = frozenset({"summary", "reveal", "reflect", "belief"})


def type_factor(memory_type: MemoryType | str, params: Parameters | None = None) -> float:
    """Stability multiplier of a memory type (> 0): episodic 1.0, semantic 2.0, procedural 3.0, emotional 1.5.

    Source: docs/model.md#encoding-strength-and-stability. Raises UsageProblem for an unknown type.
    """
    try:
        return resolve(params).encoding.type_factors[MemoryType(memory_type).value]
    except ValueError:
        raise UsageProblem(f"unknown memory type {memory_type!r} "
                           f"(known: {', '.join(t.value for t in MemoryType)})") from None


def decay_rate(profile: Profile, flashbulb: bool, params: Parameters | None = None) -> float:
    """The decay rate used for S, in [0, 1]: the profile's BaseDecayRate, or 0.05 for a flashbulb
    (docs/model.md#encoding-strength-and-stability, docs/model.md#flashbulb-memories);
    0 for every memory of a profile that never forgets (``base_decay_rate = 0``, the ``perfect`` control,
    docs/model.md#profiles),
    flashbulbs included: a flashbulb fades no faster than 0.05 nor faster than its owner's other memories."""
    if flashbulb:
        return min(resolve(params).flashbulb.decay_rate, profile.base_decay_rate)
    return profile.base_decay_rate


def encoding_strength(salience: float, profile: Profile, flashbulb: bool = False,
                      params: Parameters | None = None) -> float:
    """E0, the strength right after encoding, in [BaseEncodingStrength, 1] (docs/model.md#encoding-strength-and-stability).

    E0 = BaseEncodingStrength + (1 - BaseEncodingStrength) * salience; a flashbulb starts at 1
    (docs/model.md#flashbulb-memories,
    Brown & Kulik 1977). salience : float in [0, 1]. Raises UsageProblem for salience outside [0, 1].
    """
    check_unit("salience", salience)
    if flashbulb:
        return resolve(params).flashbulb.initial_strength
    b = profile.base_encoding_strength
    return b + (1.0 - b) * salience


def stability(salience: float, profile: Profile, memory_type: MemoryType | str = MemoryType.EPISODIC,
              flashbulb: bool = False, params: Parameters | None = None) -> float:
    """S_enc, the stability at encoding in phases, >= 1: max(1, 10 salience (0.15 / rate) type_factor)
    (docs/model.md#encoding-strength-and-stability).

    salience : float in [0, 1]; rate : the profile's BaseDecayRate, or 0.05 for a flashbulb
    (docs/model.md#flashbulb-memories). A larger
    BaseDecayRate never gives a larger S (the seed's ``retention *= 1 + rate * 0.2`` had this backwards,
    docs/model.md#defects-of-the-seed-formulas). The half-life is S ln 2. Recalls then grow S
    (:func:`graphmem.model.forgetting.stability_after_recall`,
    docs/model.md#forgetting). ``flashbulb=False`` for a flashbulb gives the stability it would have as an ordinary
    memory of the same salience and type, which its distortion risk uses (docs/model.md#flashbulb-memories). A rate of 0
    (the ``perfect`` profile, docs/model.md#profiles) gives S = inf: the memory never fades. Source:
    docs/model.md#encoding-strength-and-stability; the stability reading of Ebbinghaus 1885 as fitted by Murre & Dros
    2015. Raises UsageProblem for salience outside [0, 1].
    """
    p = resolve(params).encoding
    check_unit("salience", salience)
    rate = decay_rate(profile, flashbulb, params)
    if rate == 0.0:
        return math.inf
    scaled = p.salience_weight * salience * (p.reference_decay_rate / rate) * type_factor(memory_type, params)
    return max(p.min_stability, scaled)


def classify_type(kind: str, *, emotion_peak: float, flashbulb: bool, factual: bool = False,
                  params: Parameters | None = None) -> MemoryType:
    """The memory type of a new memory, by the rules of docs/model.md#encoding-strength-and-stability, first match wins.

    kind : the memory's kind (an event kind such as "say", "reveal", "banish", or "summary" or "lesson");
    emotion_peak : float in [0, 1], the largest intensity of the owner's emotion state at encoding;
    flashbulb : the memory is a flashbulb; factual : the content is a claim about a fact (a role claim,
    docs/perception.md#claims).

    1. procedural for lessons (procedural thoughts and the outcome rule "Voting out NAME was a mistake");
    2. semantic for role reveals, reflections (a player's conclusions after a game), beliefs (a player's stated
       conclusion about another's role or side), factual claims and summaries;
    3. emotional when emotion_peak >= 0.6 and the memory is not a flashbulb (a flashbulb is a vivid episode);
    4. episodic otherwise.
    """
    check_unit("emotion_peak", emotion_peak)
    if kind in LESSON_KINDS:
        return MemoryType.PROCEDURAL
    if kind in SEMANTIC_KINDS or factual:
        return MemoryType.SEMANTIC
    if emotion_peak >= resolve(params).encoding.emotional_peak and not flashbulb:
        return MemoryType.EMOTIONAL
    return MemoryType.EPISODIC
