"""Salience at encoding: the appraisal of an event for its owner and the bounded noisy-OR of docs/model.md#salience.

Salience combines how relevant an event is to the owner with how strongly it moved them. Emotional arousal
enhances encoding, more so for threat emotions (McGaugh 2013; Kensinger & Corkin 2004). The seed added and then
clipped, saturating at 1 for a third of inputs (docs/model.md#defects-of-the-seed-formulas); here each term is a
probability-like quantity in [0, 1] combined as ``1 - (1 - a)(1 - b)``: bounded, monotone in every input, and equal to 1
only when an input is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from graphmem.errors import UsageProblem
from graphmem.model._checks import check_unit
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.vocabulary import Situation

__all__ = ["Appraisal", "Situation", "appraise", "dominant_emotion", "emotional_weight", "personal_relevance",
           "salience"]


@dataclass(frozen=True)
class Appraisal:
    """How an event strikes its owner (docs/model.md#the-appraisal-table).

    relevance : float in [0, 1], content relevance r (before the involvement raise of 3.3)
    emotions : mapping emotion name -> intensity in [0, 1], the appraised emotion state
    surprise : float in [0, 1]
    consequence : float in [0, 1]
    """

    relevance: float
    emotions: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    surprise: float = 0.0
    consequence: float = 0.0


def appraise(situation: Situation | str, params: Parameters | None = None, *,
             voted_out_faithful: bool = False) -> Appraisal:
    """The default appraisal of an event for its owner, from the table of docs/model.md#the-appraisal-table
    (``params.appraisal``).

    Used when the log gives no emotion state for the perceiver. ``voted_out_faithful`` adds the row's regret
    emotions (by default fear 0.5 for a banishment that reveals a faithful the owner voted out); where both give
    an emotion, the larger intensity stands.
    Raises UsageProblem for an unknown situation.
    """
    p = resolve(params)
    try:
        row = p.appraisal[Situation(situation).value]
    except ValueError:
        known = ", ".join(s.value for s in Situation)
        raise UsageProblem(f"unknown situation {situation!r} (known: {known})") from None
    emotions = dict(row.emotions)
    if voted_out_faithful:
        for name, intensity in row.regret_emotions.items():
            emotions[name] = max(intensity, emotions.get(name, 0.0))
    return Appraisal(row.relevance, MappingProxyType(emotions), row.surprise, row.consequence)


def personal_relevance(r: float, involved: bool, params: Parameters | None = None) -> float:
    """Personal relevance r' = 1 - (1 - r)(1 - 0.3 * involved), in [0, 1] (docs/model.md#salience).

    r : float in [0, 1], content relevance; involved : the owner is actor, target, addressee or mentioned.
    Source: docs/model.md#salience (the seed's ``r * 1.3`` left [0, 1]; this raise is a noisy-OR and stays inside).
    """
    boost = resolve(params).salience.involvement_boost if involved else 0.0
    return 1.0 - (1.0 - check_unit("r", r)) * (1.0 - boost)


def dominant_emotion(emotions: Mapping[str, float], params: Parameters | None = None) -> tuple[str | None, float]:
    """The owner's dominant emotion: (name, intensity) of the largest intensity; (None, 0.0) for no emotion.

    Ties go to a threat emotion (fear, anger, paranoia by default), then to the alphabetically first name,
    so the result does not depend on the mapping's order.
    """
    if not emotions:
        return None, 0.0
    threats = resolve(params).salience.threat_emotions
    name = min(emotions, key=lambda e: (-check_unit(f"emotion {e!r}", emotions[e]), e not in threats, e))
    return name, emotions[name]


def emotional_weight(intensity: float, threat: bool, emotional_memory_bias: float,
                     params: Parameters | None = None) -> float:
    """Emotional contribution e = min(1, 0.4 * I * (1.5 if threat else 1) * (0.5 + bias)), in [0, 1]
    (docs/model.md#salience).

    intensity : float in [0, 1], the dominant emotion's intensity I; threat : the dominant emotion is fear,
    anger or paranoia; emotional_memory_bias : the profile's EmotionalMemoryBias in [0, 1].
    Source: docs/model.md#salience; arousal-enhanced encoding, McGaugh 2013, Kensinger & Corkin 2004.
    """
    s = resolve(params).salience
    multiplier = s.threat_multiplier if threat else 1.0
    bias = s.bias_offset + check_unit("emotional_memory_bias", emotional_memory_bias)
    return min(1.0, s.emotion_weight * check_unit("intensity", intensity) * multiplier * bias)


def salience(r: float, involved: bool, emotions: Mapping[str, float], profile: Profile,
             params: Parameters | None = None) -> float:
    """Salience at encoding, 1 - (1 - r')(1 - e), a float in [0, 1] (docs/model.md#salience).

    r : float in [0, 1], content relevance (docs/model.md#the-appraisal-table); involved : bool, the owner takes part or
    is mentioned; emotions : mapping emotion -> intensity in [0, 1], the owner's state at encoding (empty: no emotion);
    profile : the owner's Profile (EmotionalMemoryBias). Monotone non-decreasing in r, involved, the dominant intensity,
    threat and EmotionalMemoryBias; 1 only if r = 1 (or e = 1). Raises UsageProblem for inputs outside [0, 1].
    """
    p = resolve(params)
    name, intensity = dominant_emotion(emotions, p)
    threat = name is not None and name in p.salience.threat_emotions
    e = emotional_weight(intensity, threat, profile.emotional_memory_bias, p)
    return 1.0 - (1.0 - personal_relevance(r, involved, p)) * (1.0 - e)
