"""Rehearsal and distortion risk at recall, and the seeded randomness of reconsolidation (docs/model.md#reconsolidation).

Retrieval makes a memory labile again before it is re-stored (reconsolidation, Nader, Schafe & LeDoux 2000):
recalling strengthens it a little (rehearsal) and gives it a chance to change. The chance grows with how much
it has faded since encoding, how often it has been retrieved and how aroused the owner is now, and is scaled
by the profile's ConfabulationRisk. The seed's risk was unbounded (docs/model.md#defects-of-the-seed-formulas); here it
is clipped to [0, 1].

What the risk then drives: the loss of details (omission), the import of a detail from a similar memory that came
from another person (the misinformation effect, Loftus 2005; co-witness contamination, Gabbert et al. 2003),
spontaneous confabulation from the owner's own memories (only at high risk and arousal), and the misattribution of
a teller, which grows as the source fades (Johnson, Hashtroudi & Lindsay 1993).
"""

from __future__ import annotations

import hashlib
import math
import random

from graphmem.model._checks import check_nonnegative, check_unit
from graphmem.model.forgetting import DEFAULT_CURVE, retention
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.vocabulary import DetailKind

__all__ = ["access_load", "confabulation_probability", "distortion_risk", "faded_since_encoding", "loss_probability",
           "misattribution_probability", "misinformation_probability", "recall_rng", "rehearse"]


def rehearse(m: float, params: Parameters | None = None) -> float:
    """Strength after a retrieval, m' = m + 0.05 (1 - m), in [m, 1] (docs/model.md#reconsolidation: the testing effect)."""
    return m + resolve(params).reconsolidation.rehearsal * (1.0 - check_unit("m", m))


def faded_since_encoding(now: float, t_enc: float, s_enc: float, curve: str = DEFAULT_CURVE) -> float:
    """a = 1 - R(now - t_enc, S_enc), in [0, 1): how much the memory has faded since encoding
    (docs/model.md#recall-and-reconsolidation).

    s_enc : the stability at encoding of an ordinary memory of this salience and type; for a flashbulb that is not
    its own (docs/model.md#flashbulb-memories: its details drift like an everyday memory's, Talarico & Rubin 2003).
    """
    return 1.0 - retention(now - t_enc, s_enc, curve)


def access_load(n: int, params: Parameters | None = None) -> float:
    """b = 1 - exp(-n / 10), in [0, 1): the load of earlier retrievals (docs/model.md#recall-and-reconsolidation). n :
    int >= 0, access count."""
    return 1.0 - math.exp(-check_nonnegative("n", n) / resolve(params).reconsolidation.access_scale)


def distortion_risk(a: float, b: float, c: float, profile: Profile, params: Parameters | None = None) -> float:
    """rho = clip((0.5 + ConfabulationRisk) * (0.5 a + 0.25 b + 0.25 c), 0, 1) (docs/model.md#reconsolidation,
    docs/model.md#defects-of-the-seed-formulas).

    a : float in [0, 1], faded since encoding; b : float in [0, 1], access load; c : float in [0, 1], the
    owner's emotional intensity now. Monotone in each input and in ConfabulationRisk.
    Source: docs/model.md#recall-and-reconsolidation; reconsolidation, Nader et al. 2000; misinformation, Loftus 2005.
    """
    r = resolve(params).reconsolidation
    mix = (r.weight_faded * check_unit("a", a) + r.weight_accesses * check_unit("b", b)
           + r.weight_emotion * check_unit("c", c))
    return min(1.0, max(0.0, (r.risk_base + profile.confabulation_risk) * mix))


def loss_probability(rho: float, kind: DetailKind | str, profile: Profile, params: Parameters | None = None) -> float:
    """Chance that one kept detail is lost at this recall, in [0, 1] (docs/model.md#reconsolidation).

    0 when rho <= 0.3; else (rho - 0.3) / 0.7 * (1 - w * bias), where bias is TemporalMemoryBias for the
    ``when`` detail and DetailMemoryBias for the others, and w is ``reconsolidation.detail_bias_weight``: the
    design's 0.5, tuned to 1.0 in defaults.toml so that a balanced memory keeps 40-80% of its details over 10
    recalls (docs/model.md; a bias of 1 then keeps every detail). The ``what`` gist is the memory's content itself and
    is never lost (docs/model.md#details-and-how-they-render gives it no vague rendering).
    """
    r = resolve(params).reconsolidation
    kind = DetailKind(kind)
    if check_unit("rho", rho) <= r.loss_onset or kind is DetailKind.WHAT:
        return 0.0
    bias = profile.temporal_memory_bias if kind is DetailKind.WHEN else profile.detail_memory_bias
    return (rho - r.loss_onset) / (1.0 - r.loss_onset) * (1.0 - r.detail_bias_weight * bias)


def misinformation_probability(rho: float, c_src: float, similarity: float, profile: Profile,
                               params: Parameters | None = None) -> float:
    """Chance that a detail of a similar memory from another source (someone told, overheard or said it at the
    table) replaces or joins this memory's at this recall (docs/model.md#reconsolidation, as changed for docs/model.md:
    see below): min(1, (0.5 + ConfabulationRisk) * max(rho, 1 - c_src)) * closeness, in [0, 1], no emotion gate, with
    closeness = clip((similarity - 0.5) / (0.75 - 0.5), 0, 1) (``similarity.detail_import`` 0.5 and
    ``similarity.same_account`` 0.75).

    rho : float in [0, 1], distortion risk; c_src : float in [0, 1], this memory's source confidence now;
    similarity : float, the cosine of the other memory (closeness 0 at ``detail_import`` and below, 1 from
    ``same_account`` on). The misinformation effect is a source-monitoring error (Johnson,
    Hashtroudi & Lindsay 1993; Loftus 2005): the fainter the owner's sense of where the memory came from, and the
    closer the other account, the less they can tell what they perceived from what they were told. So a calm
    witness who discussed an event with a co-witness picks up the co-witness's details too (Gabbert et al. 2003:
    71% did), while a loosely similar remark rarely lends one. Two tellings of one event reach a cosine of 0.52-0.83
    with the shipped embedding model (all-MiniLM-L6-v2; the accounts of ``graphmem/model/co_witness.jsonl``), never
    1, so the closeness is full from 0.75, the cosine at which the model already takes a statement for a retelling
    (rumour chains). The first factor is the design's misattribution rule
    (SuggestibilityFactor * max(rho, 1 - c_src)) with the distortion risk's scale 0.5 + ConfabulationRisk. The
    design's ConfabulationRisk * (rho - 0.3) / 0.7 cannot exceed ConfabulationRisk (0.3 balanced) per recall and is
    0 for a calm owner soon after the event (rho < 0.3), so no two recalls reach the 0.50-0.85 of docs/model.md.
    0 for an owner whose ConfabulationRisk and SuggestibilityFactor are both 0 (the ``perfect`` control profile,
    docs/model.md#profiles: no distortion): taking on another's account is what those two measure.
    """
    p = resolve(params)
    if profile.confabulation_risk == 0.0 and profile.suggestibility_factor == 0.0:
        return 0.0  # neither confabulates nor is suggestible: takes nothing from another account (``perfect``)
    onset, full = p.similarity.detail_import, p.similarity.same_account
    closeness = min(1.0, max(0.0, (similarity - onset) / (full - onset))) if onset < full \
        else float(similarity >= full)
    chance = (p.reconsolidation.risk_base + profile.confabulation_risk) \
        * max(check_unit("rho", rho), 1.0 - check_unit("c_src", c_src))
    return min(1.0, chance) * closeness


def confabulation_probability(rho: float, emotion_now: float, profile: Profile,
                              params: Parameters | None = None) -> float:
    """Chance of spontaneous confabulation from the owner's own memories (first-hand or worked out) at this
    recall: ConfabulationRisk when rho > 0.5 and the owner's emotional intensity now > 0.6, else 0
    (docs/model.md#reconsolidation,
    the stricter gate)."""
    r = resolve(params).reconsolidation
    if check_unit("rho", rho) > r.import_onset and check_unit("emotion_now", emotion_now) > r.import_emotion:
        return profile.confabulation_risk
    return 0.0


def misattribution_probability(rho: float, c_src: float, profile: Profile) -> float:
    """SuggestibilityFactor * max(rho, 1 - c_src), in [0, SuggestibilityFactor] (docs/model.md#reconsolidation).

    rho : float in [0, 1], distortion risk; c_src : float in [0, 1], the source confidence now. The fainter the
    source, the easier it is confused with another teller of a similar memory (Johnson, Hashtroudi & Lindsay
    1993). The gates (a teller, a known source belief, c_src < 0.7, another teller) are the caller's.
    """
    return profile.suggestibility_factor * max(check_unit("rho", rho), 1.0 - check_unit("c_src", c_src))


def recall_rng(seed: int, uid: str, n: int) -> random.Random:
    """The one random generator of a recall, seeded from (configured seed, memory uid, access count before the
    recall) through SHA-256, so replays are exact across processes (Python's ``hash`` is salted per process)."""
    digest = hashlib.sha256(f"{seed}\x1f{uid}\x1f{n}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))
