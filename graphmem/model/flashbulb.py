"""Flashbulb memories: vivid, durable memories of shocking, consequential moments (docs/model.md#flashbulb-memories).

Brown & Kulik 1977 described memories of surprising, consequential, emotionally arousing news that feel
photographic. Talarico & Rubin 2003 showed that their vividness and the owner's confidence stay high while their
accuracy declines like that of ordinary memories: graphmem keeps a flashbulb's strength above a floor (confidence)
but lets its details drift at recall (``reconsolidation``), on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from graphmem.errors import GraphmemError
from graphmem.model._checks import check_unit
from graphmem.model.params import Parameters, resolve

__all__ = ["EmotionalContext", "emotional_peak", "flashbulb_score", "is_flashbulb", "strength_floor"]

# Floating-point tolerance of the score threshold, so that a score meeting the threshold exactly in decimal
# arithmetic (0.3 * 0.7 + 0.25 * 0.7 + ... = 0.7) is not rejected by a rounding error in the last bit.
_TOLERANCE = 1e-12


def emotional_peak(emotions: Mapping[str, float]) -> float:
    """The largest intensity of an emotion state, in [0, 1]; 0 for an empty state (docs/model.md#flashbulb-memories)."""
    return max((check_unit(f"emotion {name!r}", v) for name, v in emotions.items()), default=0.0)


def flashbulb_score(peak: float, surprise: float, personal_relevance: float, consequence: float,
                    params: Parameters | None = None) -> float:
    """score = 0.3 peak + 0.25 surprise + 0.25 personal_relevance + 0.2 consequence, in [0, 1]
    (docs/model.md#flashbulb-memories).

    All inputs are floats in [0, 1]; personal_relevance is r' of docs/model.md#salience. Source: Brown & Kulik 1977
    (surprise, consequentiality and arousal as the conditions of flashbulb memories).
    """
    f = resolve(params).flashbulb
    return (f.weight_peak * check_unit("peak", peak) + f.weight_surprise * check_unit("surprise", surprise)
            + f.weight_relevance * check_unit("personal_relevance", personal_relevance)
            + f.weight_consequence * check_unit("consequence", consequence))


def is_flashbulb(emotions: Mapping[str, float], surprise: float, personal_relevance: float, consequence: float,
                 params: Parameters | None = None) -> bool:
    """Whether an encoding forms a flashbulb memory (docs/model.md#flashbulb-memories).

    A candidate only if the emotional peak (largest intensity of ``emotions``) is >= 0.6; then a flashbulb if
    ``flashbulb_score`` >= 0.7. emotions : mapping emotion -> intensity in [0, 1], the owner's state at encoding.
    """
    f = resolve(params).flashbulb
    peak = emotional_peak(emotions)
    if peak < f.candidate_peak:
        return False
    return flashbulb_score(peak, surprise, personal_relevance, consequence, params) >= f.threshold - _TOLERANCE


def strength_floor(flashbulb: bool, params: Parameters | None = None) -> float:
    """The displayed-strength floor (the graph's ``floor``): 0.8 for a flashbulb, else 0
    (docs/model.md#flashbulb-memories)."""
    return resolve(params).flashbulb.floor if flashbulb else 0.0


@dataclass(frozen=True)
class EmotionalContext:
    """The full emotion vector at encoding, kept with a flashbulb (docs/model.md#flashbulb-memories) and stored as
    ``emotion_json``.

    emotions : read-only mapping emotion name -> intensity in [0, 1]
    """

    emotions: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, emotions: Mapping[str, float]) -> EmotionalContext:
        """A context holding a copy of ``emotions``. Raises UsageProblem for intensities outside [0, 1]."""
        return cls(MappingProxyType({str(k): check_unit(f"emotion {k!r}", float(v)) for k, v in emotions.items()}))

    @property
    def peak(self) -> float:
        """The largest intensity, 0 when empty."""
        return emotional_peak(self.emotions)

    def ranked(self) -> list[tuple[str, float]]:
        """(emotion, intensity) pairs, strongest first, ties by name; zero intensities left out."""
        return sorted(((k, v) for k, v in self.emotions.items() if v > 0), key=lambda kv: (-kv[1], kv[0]))

    def describe(self) -> str:
        """The prompt's wording (docs/prompt.md): ``Fear (0.85), Anger (0.60)``; "" when empty."""
        return ", ".join(f"{name.capitalize()} ({value:.2f})" for name, value in self.ranked())

    def to_json(self) -> str:
        """A JSON object ``{emotion: intensity}`` with sorted keys (the graph's ``emotion_json``)."""
        return json.dumps(dict(sorted(self.emotions.items())))

    @classmethod
    def from_json(cls, text: str) -> EmotionalContext:
        """The inverse of ``to_json``. Raises GraphmemError for text that is not such an object."""
        try:
            data = json.loads(text)
        except ValueError as e:
            raise GraphmemError(f"emotion_json is not JSON: {e}") from e
        if not isinstance(data, dict) or not all(isinstance(v, (int, float)) for v in data.values()):
            raise GraphmemError(f"emotion_json must be an object of emotion -> intensity, got {text!r}")
        return cls.of(data)
