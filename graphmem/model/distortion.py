"""Rehearsal and distortion risk at recall, and the seeded randomness of reconsolidation (SPEC 6 step 3).

Retrieval makes a memory labile again before it is re-stored (reconsolidation, Nader, Schafe & LeDoux 2000):
recalling strengthens it a little (rehearsal) and gives it a chance to change. The chance grows with how much
it has faded since encoding, how often it has been retrieved and how aroused the owner is now, and is scaled
by the profile's ConfabulationRisk. The seed's risk was unbounded (SPEC 12.4); here it is clipped to [0, 1].
"""

from __future__ import annotations

import hashlib
import math
import random

from graphmem.model._checks import check_nonnegative, check_unit
from graphmem.model.forgetting import retention
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.vocabulary import DetailKind

__all__ = ["access_load", "distortion_risk", "faded_since_encoding", "loss_probability",
           "misattribution_probability", "recall_rng", "rehearse"]


def rehearse(m: float, params: Parameters | None = None) -> float:
    """Strength after a retrieval, m' = m + 0.05 (1 - m), in [m, 1] (SPEC 6 step 3: the testing effect)."""
    return m + resolve(params).reconsolidation.rehearsal * (1.0 - check_unit("m", m))


def faded_since_encoding(now: float, t_enc: float, s_enc: float, curve: str = "exponential") -> float:
    """a = 1 - R(now - t_enc, S_enc), in [0, 1): how much the memory has faded since encoding (SPEC 6)."""
    return 1.0 - retention(now - t_enc, s_enc, curve)


def access_load(n: int, params: Parameters | None = None) -> float:
    """b = 1 - exp(-n / 10), in [0, 1): the load of earlier retrievals (SPEC 6). n : int >= 0, access count."""
    return 1.0 - math.exp(-check_nonnegative("n", n) / resolve(params).reconsolidation.access_scale)


def distortion_risk(a: float, b: float, c: float, profile: Profile, params: Parameters | None = None) -> float:
    """rho = clip((0.5 + ConfabulationRisk) * (0.5 a + 0.25 b + 0.25 c), 0, 1) (SPEC 6 step 3, 12.4).

    a : float in [0, 1], faded since encoding; b : float in [0, 1], access load; c : float in [0, 1], the
    owner's emotional intensity now. Monotone in each input and in ConfabulationRisk.
    Source: SPEC 6; reconsolidation, Nader et al. 2000; misinformation, Loftus 2005.
    """
    r = resolve(params).reconsolidation
    mix = (r.weight_faded * check_unit("a", a) + r.weight_accesses * check_unit("b", b)
           + r.weight_emotion * check_unit("c", c))
    return min(1.0, max(0.0, (r.risk_base + profile.confabulation_risk) * mix))


def loss_probability(rho: float, kind: DetailKind | str, profile: Profile, params: Parameters | None = None) -> float:
    """Chance that one kept detail is lost at this recall, in [0, 1] (SPEC 6 step 3).

    0 when rho <= 0.3; else (rho - 0.3) / 0.7 * (1 - 0.5 * bias), where bias is TemporalMemoryBias for the
    ``when`` detail and DetailMemoryBias for the others. The ``what`` gist is the memory's content itself and
    is never lost (SPEC 6.1 gives it no vague rendering).
    """
    r = resolve(params).reconsolidation
    kind = DetailKind(kind)
    if check_unit("rho", rho) <= r.loss_onset or kind is DetailKind.WHAT:
        return 0.0
    bias = profile.temporal_memory_bias if kind is DetailKind.WHEN else profile.detail_memory_bias
    return (rho - r.loss_onset) / (1.0 - r.loss_onset) * (1.0 - r.detail_bias_weight * bias)


def misattribution_probability(rho: float, profile: Profile, params: Parameters | None = None) -> float:
    """SuggestibilityFactor * (rho - 0.3), clipped to [0, 1] (SPEC 6 step 3; Johnson et al. 1993,
    co-witness contamination: Gabbert et al. 2003)."""
    onset = resolve(params).reconsolidation.loss_onset
    return min(1.0, max(0.0, profile.suggestibility_factor * (check_unit("rho", rho) - onset)))


def recall_rng(seed: int, uid: str, n: int) -> random.Random:
    """The one random generator of a recall, seeded from (configured seed, memory uid, access count before the
    recall) through SHA-256, so replays are exact across processes (Python's ``hash`` is salted per process)."""
    digest = hashlib.sha256(f"{seed}\x1f{uid}\x1f{n}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))
