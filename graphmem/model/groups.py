"""Parameter groups of the memory model, one frozen dataclass per section of docs/model.md, with each field's allowed
range declared in its metadata (``Num(lo, hi)``; ``(`` and ``)`` mark open bounds in messages).

The values live in ``defaults.toml``; :mod:`graphmem.model.params` loads, merges and validates them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from graphmem.model._schema import MapOf, Names, Num, spec
from graphmem.model.vocabulary import ENCODED_SOURCE_TYPES, MEMORY_TYPES

UNIT = Num(0.0, 1.0)
IN_UNIT = spec(UNIT)
RECALL_K_MAX = 100
"""The most memories one recall returns (its ``k``), wherever a recall is asked for: HTTP, MCP, the CLI, the Python
API and ``parameters.recall.k`` (a prompt block of more would not be read)."""
POSITIVE = Num(0.0, lo_open=True)
RATE = Num(0.0, 1.0, lo_open=True)


def _empty() -> Mapping[str, float]:
    return MappingProxyType({})


@dataclass(frozen=True)
class SalienceParams:
    """docs/model.md#salience: r' = 1 - (1 - r)(1 - involvement_boost * involved);
    e = min(1, emotion_weight * I * (threat_multiplier if threat) * (bias_offset + EmotionalMemoryBias))."""

    involvement_boost: float = field(metadata=IN_UNIT)
    emotion_weight: float = field(metadata=IN_UNIT)
    threat_multiplier: float = field(metadata=spec(Num(1.0)))
    bias_offset: float = field(metadata=IN_UNIT)
    threat_emotions: tuple[str, ...] = field(metadata=spec(Names()))


@dataclass(frozen=True)
class AppraisalRow:
    """One row of docs/model.md#the-appraisal-table: relevance r, appraised emotions, surprise, consequence, all in [0, 1].
    ``regret_emotions`` are added when the owner voted out a faithful (banishment with role reveal)."""

    relevance: float = field(metadata=IN_UNIT)
    surprise: float = field(metadata=IN_UNIT)
    consequence: float = field(metadata=IN_UNIT)
    emotions: Mapping[str, float] = field(default_factory=_empty, metadata=spec(MapOf(UNIT)))
    regret_emotions: Mapping[str, float] = field(default_factory=_empty, metadata=spec(MapOf(UNIT)))


@dataclass(frozen=True)
class EncodingParams:
    """docs/model.md#encoding-strength-and-stability: S_enc = max(min_stability, salience_weight * salience *
    (reference_decay_rate / decay rate)
    * type_factors[type]); emotional type at peak >= emotional_peak. Recalls grow S by docs/model.md#forgetting
    (:attr:`ReconsolidationParams.rehearsal_gain`)."""

    salience_weight: float = field(metadata=spec(POSITIVE))
    reference_decay_rate: float = field(metadata=spec(RATE))
    min_stability: float = field(metadata=spec(POSITIVE))
    emotional_peak: float = field(metadata=IN_UNIT)
    type_factors: Mapping[str, float] = field(metadata=spec(MapOf(POSITIVE, MEMORY_TYPES)))


@dataclass(frozen=True)
class SourceParams:
    """docs/model.md#source-memory: c0 per source type in [0, 1]; k = 1 + (1 - SourceMemoryBias) * exponent_slope (>= 0);
    the belief becomes "unknown" below unknown_below."""

    exponent_slope: float = field(metadata=spec(Num(0.0)))
    unknown_below: float = field(metadata=IN_UNIT)
    initial_confidence: Mapping[str, float] = field(metadata=spec(MapOf(UNIT, ENCODED_SOURCE_TYPES)))


@dataclass(frozen=True)
class FlashbulbParams:
    """docs/model.md#flashbulb-memories (Brown & Kulik 1977): candidate at peak >= candidate_peak; score = weighted sum
    of peak, surprise, personal relevance, consequence; flashbulb at score >= threshold; E0 = initial_strength, decay
    rate ``decay_rate`` in place of BaseDecayRate, displayed strength never below ``floor``."""

    candidate_peak: float = field(metadata=IN_UNIT)
    weight_peak: float = field(metadata=IN_UNIT)
    weight_surprise: float = field(metadata=IN_UNIT)
    weight_relevance: float = field(metadata=IN_UNIT)
    weight_consequence: float = field(metadata=IN_UNIT)
    threshold: float = field(metadata=IN_UNIT)
    initial_strength: float = field(metadata=spec(RATE))
    decay_rate: float = field(metadata=spec(RATE))
    floor: float = field(metadata=IN_UNIT)


@dataclass(frozen=True)
class ReconsolidationParams:
    """docs/model.md#forgetting, docs/model.md#reconsolidation (Nader et al. 2000; Loftus 2005): rehearsal and the
    stability gain of a recall (``rehearsal_gain`` >= 0 in S' = S g(R) (1 + rehearsal_gain (1 - R))), distortion-risk
    weights, onsets."""

    rehearsal: float = field(metadata=IN_UNIT)
    rehearsal_gain: float = field(metadata=spec(Num(0.0)))
    risk_base: float = field(metadata=IN_UNIT)
    weight_faded: float = field(metadata=IN_UNIT)
    weight_accesses: float = field(metadata=IN_UNIT)
    weight_emotion: float = field(metadata=IN_UNIT)
    access_scale: float = field(metadata=spec(POSITIVE))
    loss_onset: float = field(metadata=spec(Num(0.0, 1.0, hi_open=True)))
    detail_bias_weight: float = field(metadata=IN_UNIT)
    import_onset: float = field(metadata=IN_UNIT)
    import_emotion: float = field(metadata=IN_UNIT)
    misattribution_confidence: float = field(metadata=IN_UNIT)


@dataclass(frozen=True)
class ClarityParams:
    """docs/model.md#cued-recall-which-memories-come-back: CLEAR >= clear, FUZZY >= fuzzy, VAGUE >=
    max(vague_floor, RetrievalThreshold)."""

    clear: float = field(metadata=spec(RATE))
    fuzzy: float = field(metadata=spec(RATE))
    vague_floor: float = field(metadata=IN_UNIT)


@dataclass(frozen=True)
class LifecycleParams:
    """docs/model.md#lifecycle-states: active at m >= active, warm at threshold <= m < active, archived below the
    threshold."""

    active: float = field(metadata=spec(RATE))


@dataclass(frozen=True)
class WorkingMemoryParams:
    """docs/model.md#working-memory: priority in [0, 1] and persistence (int phases >= 1) of automatic pushes."""

    automatic_priority: float = field(metadata=IN_UNIT)
    automatic_persistence: int = field(metadata=spec(Num(1, integer=True)))


@dataclass(frozen=True)
class SeriesParams:
    """docs/model.md#series-of-games: ``gap`` (int phases >= 0), the time between the end of one game of a series and
    the start of the next, over which the memories of the earlier games go on fading. A series keeps the gap it was
    created with (``Series.gap``), so its games' clocks never move back."""

    gap: int = field(metadata=spec(Num(0, integer=True)))


@dataclass(frozen=True)
class SimilarityParams:
    """Cosine thresholds in [0, 1]: rumour chains (docs/perception.md#rumour-chains), contradiction pairs (9), detail
    import (6), and the cosine at which another account lends a detail with its full chance (same_account,
    docs/model.md#misinformation-imported-details)."""

    rumour_chain: float = field(metadata=IN_UNIT)
    contradiction: float = field(metadata=IN_UNIT)
    detail_import: float = field(metadata=IN_UNIT)
    same_account: float = field(metadata=IN_UNIT)


@dataclass(frozen=True)
class ConsolidationParams:
    """docs/jobs.md#consolidation: cosine distance threshold in (0, 2], min cluster size >= 2, summary E0 boost in [0, 1],
    summary stability factor >= 1."""

    distance_threshold: float = field(metadata=spec(Num(0.0, 2.0, lo_open=True)))
    min_cluster_size: int = field(metadata=spec(Num(2, integer=True)))
    strength_boost: float = field(metadata=IN_UNIT)
    stability_factor: float = field(metadata=spec(Num(1.0)))


@dataclass(frozen=True)
class RecallParams:
    """docs/model.md#candidates-and-ranking: score = relevance_weight * relevance + strength_weight * m; relevance =
    dense_weight * dense + lexical_weight * lexical + source_weight * source + neighbour_weight * neighbour
    + date_weight * date + when_weight * when + participant_boost (cap 1), where source is the source route (the cue
    names who the owner believes the memory came from, weighed by how well the owner still remembers that source),
    neighbour the content relevance of the statement said right before or after it when that one is among the
    neighbour_lenders (int >= 1) best content matches (graphmem.recall.neighbours), date 1 for a memory logged within
    a calendar date the cue names or the week after it, and when 1 for a memory whose words say when, asked when
    (graphmem.recall.dates); best k (int in 1..RECALL_K_MAX); cued recall:
    retrievable when m >= max(0.15, RetrievalThreshold) * (1 - cue_support * relevance) (graphmem.model.retrieval)."""

    relevance_weight: float = field(metadata=IN_UNIT)
    strength_weight: float = field(metadata=IN_UNIT)
    dense_weight: float = field(metadata=IN_UNIT)
    lexical_weight: float = field(metadata=IN_UNIT)
    source_weight: float = field(metadata=IN_UNIT)
    neighbour_weight: float = field(metadata=IN_UNIT)
    neighbour_lenders: int = field(metadata=spec(Num(1, integer=True)))
    date_weight: float = field(metadata=IN_UNIT)
    when_weight: float = field(metadata=IN_UNIT)
    participant_boost: float = field(metadata=IN_UNIT)
    k: int = field(metadata=spec(Num(1, RECALL_K_MAX, integer=True)))
    cue_support: float = field(metadata=IN_UNIT)
