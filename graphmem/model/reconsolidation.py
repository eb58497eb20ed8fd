"""Reconsolidation of one recalled memory: rehearsal, detail loss, detail import, misattribution
(docs/model.md#reconsolidation).

A recalled memory is strengthened and re-stored, and may come back changed (Nader, Schafe & LeDoux 2000):
details fade out (omission), a person, place or day from a similar memory slips in (commission, the
misinformation effect of Loftus 2005), or the owner comes to believe another player told them (source
misattribution, Johnson et al. 1993). A recall also makes the memory last longer: it grows the stability so
that the memory is never weaker afterwards than without the recall, more after a long gap (docs/model.md#forgetting: the
testing and spacing effects). Flashbulbs go through the same steps: their strength stays above the floor while their
details drift as much as an ordinary memory's (Talarico & Rubin 2003). All chance comes from one generator seeded by
(seed, uid, access count), so a replay of the same recalls gives the same memories.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from graphmem.model._checks import check_unit
from graphmem.model.details import Detail, any_fabricated, n_lost
from graphmem.model.distortion import (
    access_load,
    confabulation_probability,
    distortion_risk,
    faded_since_encoding,
    loss_probability,
    misattribution_probability,
    misinformation_probability,
    recall_rng,
    rehearse,
)
from graphmem.model.encoding import stability
from graphmem.model.flashbulb import strength_floor
from graphmem.model.forgetting import stability_after_recall, strength_at
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.source import source_confidence
from graphmem.model.vocabulary import DetailKind, MemoryType, SourceType

__all__ = ["Change", "MemoryState", "RecallInput", "Reconsolidation", "SimilarMemory", "distortion_risk",
           "distortion_stability", "recall_risks", "reconsolidate", "rehearse", "with_result"]

IMPORTABLE = {DetailKind.WHO: "person", DetailKind.WHOM: "person", DetailKind.WHERE: "place",
              DetailKind.WHEN: "day"}


@dataclass(frozen=True)
class MemoryState:
    """What reconsolidation needs of a stored memory (the graph's Memory properties, docs/graph-model.md).

    uid : str; e_ref : float in [0, 1], strength at the last reinforcement, at phase t_ref (int);
    s : float > 0, current stability in phases; n : int >= 0, access count; salience : float in [0, 1];
    t_enc : int, phase of encoding; s_enc : float > 0, stability at encoding (the source clock and the
    fading term of the distortion risk use t_enc and s_enc); c0 : float in [0, 1], source confidence at
    encoding; source_k : float >= 1, the source exponent; source_type : the provenance type; teller : who gave
    it (None for first-hand); believed_teller : who the owner now believes gave it; details : tuple of Detail;
    own : the owner's own statement or action (its source belief never fades, docs/model.md#source-memory). For a
    flashbulb, s_enc is the flashbulb's stability at encoding (its source clock); its distortion risk uses the ordinary
    one.
    """

    uid: str
    e_ref: float
    t_ref: int
    s: float
    n: int
    salience: float
    t_enc: int
    s_enc: float
    memory_type: MemoryType = MemoryType.EPISODIC
    flashbulb: bool = False
    c0: float = 1.0
    source_k: float = 1.0
    source_type: SourceType = SourceType.FIRST_HAND
    teller: str | None = None
    believed_teller: str | None = None
    details: tuple[Detail, ...] = ()
    own: bool = False


RecallInput = MemoryState


@dataclass(frozen=True)
class SimilarMemory:
    """Another memory of the same owner, as a donor of details and tellers.

    uid : str; similarity : float, cosine similarity of the embeddings; details : its details;
    teller : the teller the owner believes gave it (None for first-hand or worked out: the owner's own memory).
    A donor with a teller came from another source (misinformation); one without is the owner's own
    (spontaneous confabulation, the stricter gate).
    """

    uid: str
    similarity: float
    details: tuple[Detail, ...] = ()
    teller: str | None = None


@dataclass(frozen=True)
class Change:
    """One thing reconsolidation did, for analysis and logs.

    kind : "lost" | "imported" | "misattributed" | "reattributed" (a recall's judgement gave a misattributed memory
    back its true teller); detail : the detail kind (None for the teller);
    before, after : the old and new value (a detail value, or the believed teller); origin : donor memory uid.
    """

    kind: str
    detail: DetailKind | None = None
    before: str | None = None
    after: str | None = None
    origin: str | None = None

    def __str__(self) -> str:
        what = f" {self.detail}" if self.detail else ""
        via = f" from {self.origin}" if self.origin else ""
        return f"{self.kind}{what}: {self.before!r} -> {self.after!r}{via}"


@dataclass(frozen=True)
class Reconsolidation:
    """The memory after one recall at phase ``t_ref`` (the new reference phase).

    e_ref = strength : float in [0, 1], m' after rehearsal (>= the floor for flashbulbs); strength_before : m
    before; s : float, the stability grown by docs/model.md#forgetting (>= the old); n : int, access count + 1; rho :
    float in [0, 1], distortion risk; source_confidence : float, c at this phase (its clock is not reset); details : the
    new details; believed_teller, misattributed : the owner's belief about the teller and whether it is wrong; changes :
    tuple of Change, in the order they happened.
    """

    uid: str
    e_ref: float
    t_ref: int
    s: float
    n: int
    strength: float
    strength_before: float
    rho: float
    source_confidence: float
    details: tuple[Detail, ...]
    believed_teller: str | None
    misattributed: bool
    changes: tuple[Change, ...]

    @property
    def n_lost(self) -> int:
        """How many details are lost now."""
        return n_lost(self.details)

    @property
    def fabricated(self) -> bool:
        """Whether the memory holds an imported detail (one lost again no longer counts)."""
        return any_fabricated(self.details)


def _truth(d: Detail) -> str | None:
    return d.original if d.fabricated else d.value


def _import_candidates(details: Sequence[Detail],
                       donors: Sequence[SimilarMemory]) -> list[tuple[SimilarMemory, Detail]]:
    """(donor, detail) pairs: a person, place or day of a similar memory that is not in this event."""
    present: set[tuple[str, str | None]] = set()
    for d in details:
        if d.kind in IMPORTABLE:
            present |= {(IMPORTABLE[d.kind], d.value), (IMPORTABLE[d.kind], _truth(d))}
    return [(donor, d) for donor in donors for d in donor.details
            if d.kind in IMPORTABLE and not d.lost and (IMPORTABLE[d.kind], d.value) not in present]


def _implant(details: list[Detail], donor: SimilarMemory, new: Detail) -> Change:
    """Put ``new`` into ``details``: over a lost detail of its kind, else over a kept one, else appended."""
    same = [i for i, d in enumerate(details) if d.kind is new.kind]
    slot = next((i for i in same if details[i].lost), same[0] if same else None)
    old = details[slot] if slot is not None else None
    implanted = Detail(new.kind, new.value, fabricated=True, original=_truth(old) if old else None, origin=donor.uid)
    if slot is None:
        details.append(implanted)
    else:
        details[slot] = implanted
    before = None if old is None or old.lost else old.value
    return Change("imported", new.kind, before, new.value, donor.uid)


def distortion_stability(state: MemoryState, profile: Profile, params: Parameters | None = None) -> float:
    """The stability at encoding the distortion risk's ``a`` uses, phases: ``state.s_enc``, or for a flashbulb the
    S_enc of 3.4 it would have as an ordinary memory of the same salience and type (docs/model.md#flashbulb-memories:
    its details drift like an everyday memory's, Talarico & Rubin 2003)."""
    if state.flashbulb:
        return stability(state.salience, profile, state.memory_type, False, params)
    return state.s_enc


def recall_risks(state: MemoryState, now: int, emotion_now: float, profile: Profile,
                 params: Parameters | None = None) -> tuple[float, float]:
    """(rho, c_src) of a recall of ``state`` at phase ``now``: the distortion risk (docs/model.md#reconsolidation, with
    the access count after the recall and :func:`distortion_stability`) and the source confidence c0 * R(now - t_enc,
    S_enc)^k (docs/model.md#source-memory, its clock never reset). emotion_now : float in [0, 1]."""
    p = resolve(params)
    a = faded_since_encoding(now, state.t_enc, distortion_stability(state, profile, p), p.curve)
    rho = distortion_risk(a, access_load(state.n + 1, p), check_unit("emotion_now", emotion_now), profile, p)
    return rho, source_confidence(state.c0, now, state.t_enc, state.s_enc, state.source_k, p.curve)


def reconsolidate(state: MemoryState, now: int, emotion_now: float,
                  similar: Sequence[SimilarMemory] | Callable[[], Sequence[SimilarMemory]],
                  profile: Profile, params: Parameters | None = None, seed: int = 0) -> Reconsolidation:
    """Recall ``state`` at phase ``now`` and return it re-stored (docs/model.md#forgetting, docs/model.md#reconsolidation).

    emotion_now : float in [0, 1], the owner's emotional intensity now (``flashbulb.emotional_peak`` of the
    current state); similar : other memories of the same owner (only those with cosine >= 0.5 are used, most
    similar first), or a function returning them, called at most once and only when a detail import or a
    misattribution has been drawn (steps 4 and 5), so that a caller can look them up only then; seed : the
    configured seed.

    1. rehearsal: m' = m + 0.05 (1 - m) from m = strength now (floored for flashbulbs); n + 1; S grows to
       S * g(R) * (1 + RehearsalGain * (1 - R)) with R = R(now - t_ref, S), g = R^-2 on the power curve and 1 on
       the exponential one (docs/model.md#forgetting: the memory is never weaker at a later phase than without this recall).
    2. rho from a = 1 - R(now - t_enc, S_enc) (a flashbulb's ordinary S_enc, :func:`distortion_stability`),
       b = 1 - exp(-n'/10) with the new access count, c = emotion_now.
    3. if rho > 0.3, each kept detail but the gist is lost with ``distortion.loss_probability``.
    4. import, at most one per recall: misinformation, with ``distortion.misinformation_probability``
       ((0.5 + ConfabulationRisk) * max(rho, 1 - c_src) * (cos - 0.5) / 0.5, no emotion gate), a who/whom/where/when
       value not in this event from the most similar memory that came from another source (a donor with a teller)
       and holds such a value; failing that,
       spontaneous confabulation from the owner's own memories (donors without a teller) with
       ``distortion.confabulation_probability`` (rho > 0.5 and c > 0.6).
       The value replaces a lost detail of its kind, else a kept one, else is added.
    5. the owner judges who told them (docs/model.md#misattribution): if the memory has a teller (it is not the
       owner's own), c_src < 0.7 and a similar memory has another teller, with probability SuggestibilityFactor *
       max(rho, 1 - c_src) the believed teller is the most similar such memory's teller, whatever c_src (below the
       "unknown" threshold too: a half-forgotten source is named wrongly as easily as not at all); otherwise it is
       the true teller, the memory's own trace (shown as "unknown" once c_src < 0.3, :func:`source.source_belief`
       with ``keeps_source(own, flashbulb, misattributed)``). So a misattribution lasts until a recall judges
       otherwise (a "reattributed" change).
    Raises UsageProblem for now < t_ref or inputs out of range.
    """
    p = resolve(params)
    r = p.reconsolidation
    check_unit("emotion_now", emotion_now)
    rng = recall_rng(seed, state.uid, state.n)
    floor = strength_floor(state.flashbulb, p)
    m = strength_at(state.e_ref, state.t_ref, state.s, now, p.curve, floor)
    m_new = rehearse(m, p)
    n_new = state.n + 1
    s_new = stability_after_recall(state.s, now - state.t_ref, p.curve, r.rehearsal_gain)
    rho, c_src = recall_risks(state, now, emotion_now, profile, p)

    changes: list[Change] = []
    details = list(state.details)
    for i, d in enumerate(details):
        chance = 0.0 if d.lost else loss_probability(rho, d.kind, profile, p)
        if chance > 0.0 and rng.random() < chance:
            details[i] = d.forgotten()
            changes.append(Change("lost", d.kind, d.value, None))

    @functools.cache
    def donors() -> tuple[SimilarMemory, ...]:
        given = similar() if callable(similar) else similar
        return tuple(sorted((x for x in given if x.uid != state.uid and x.similarity >= p.similarity.detail_import),
                            key=lambda x: (-x.similarity, x.uid)))

    def import_from(candidates: Sequence[tuple[SimilarMemory, Detail]]) -> bool:
        if not candidates:
            return False
        donor, detail = candidates[rng.randrange(len(candidates))]
        changes.append(_implant(details, donor, detail))
        return True

    # Misinformation: one draw against the chance an identical account would have, so that the donors are looked
    # up only when it succeeds; then the closest other-source memory with a new detail decides the actual chance.
    imported = False
    closest = misinformation_probability(rho, c_src, 1.0, profile, p)
    if closest > 0.0:
        u = rng.random()
        if u < closest:
            told = next(((x, found) for x in donors() if x.teller is not None
                         for found in [_import_candidates(details, [x])] if found), None)
            if told is not None and u < misinformation_probability(rho, c_src, told[0].similarity, profile, p):
                imported = import_from(told[1])
    confabulation = 0.0 if imported else confabulation_probability(rho, emotion_now, profile, p)
    if confabulation > 0.0 and rng.random() < confabulation:
        import_from(_import_candidates(details, [x for x in donors() if x.teller is None]))

    # Misattribution: the owner judges at each recall who told them (source monitoring is a judgement made when
    # remembering, Johnson et al. 1993), from the memory's own trace and the memories recalled with it. The draw comes
    # before the search for a donor, so the donors are looked up only when a misattribution is drawn; it is the
    # generator's last use, so drawing it also when no donor exists changes no outcome.
    believed, donor = state.teller, None
    if state.teller is not None and not state.own and c_src < r.misattribution_confidence \
            and rng.random() < misattribution_probability(rho, c_src, profile):
        donor = next((x for x in donors() if x.teller is not None and x.teller != state.teller), None)
        if donor is not None:
            believed = donor.teller
    before = state.believed_teller if state.believed_teller is not None else state.teller
    if believed != before:
        changes.append(Change("misattributed" if donor is not None else "reattributed", None, before, believed,
                              donor.uid if donor is not None else None))

    return Reconsolidation(
        uid=state.uid, e_ref=m_new, t_ref=now, s=s_new, n=n_new, strength=m_new, strength_before=m, rho=rho,
        source_confidence=c_src, details=tuple(details), believed_teller=believed,
        misattributed=believed != state.teller, changes=tuple(changes))


def with_result(state: MemoryState, result: Reconsolidation) -> MemoryState:
    """``state`` updated by ``result`` (for chaining recalls in simulations and tests)."""
    return replace(state, e_ref=result.e_ref, t_ref=result.t_ref, s=result.s, n=result.n,
                   believed_teller=result.believed_teller, details=result.details)
