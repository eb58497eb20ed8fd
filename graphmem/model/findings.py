"""Nine published findings about human memory, each a seeded simulation over the pure model (docs/model.md).

Each function here runs one phenomenon of docs/model.md with the given parameters (the shipped defaults unless a user
overrides them) and returns a :class:`Finding`: graphmem's figure beside the published value and the target range,
and whether the figure lies inside it. Everything is closed form or seeded (``reconsolidate``'s generator is seeded
by (seed, memory uid, access count)), so a run gives the same figures every time. No I/O and no embedding model:
co-witness contamination takes the cosines of two accounts of one event from its caller (:class:`Accounts`: the
texts of :data:`ACCOUNTS_LOG` as graphmem stores them, embedded by the shipped model; ``graphmem model findings``
computes them), and the tests keep every row inside its range.

The simulated memories are deliberately ordinary: a memory of salience 0.5 (a round-table remark, an everyday
observation), episodic, of the balanced profile unless the finding is about profiles, recalled by a calm owner
(emotional intensity 0 now) every few phases, which is how an agent recalls during a game. The details are those
an observed or told event has in graphmem (who, where, when, the exact words; the gist is never lost).

Sources: Wixted & Ebbesen 1991; Roediger & Karpicke 2006; Cepeda et al. 2006; Talarico & Rubin 2003; Neisser &
Harsch 1992; Johnson, Hashtroudi & Lindsay 1993; Gabbert, Memon & Allan 2003; Cowan 2001 (docs/model.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import MappingProxyType

from graphmem.errors import UsageProblem
from graphmem.model.details import Detail
from graphmem.model.encoding import encoding_strength, stability
from graphmem.model.flashbulb import strength_floor
from graphmem.model.forgetting import strength_at
from graphmem.model.params import Parameters, Profile, resolve
from graphmem.model.reconsolidation import MemoryState, SimilarMemory, reconsolidate, with_result
from graphmem.model.source import initial_source_confidence, source_belief, source_confidence, source_exponent
from graphmem.model.vocabulary import DetailKind, MemoryType, SourceType

__all__ = ["ACCOUNTS_LOG", "FINDINGS", "Accounts", "Finding", "co_witness_contamination", "detail_decline",
           "flashbulb_consistency", "forgetting_curve", "misattribution", "run_findings", "source_amnesia",
           "spacing_effect", "testing_effect", "working_memory_capacity"]

PROFILES = ("analytical", "intuitive", "balanced", "emotional", "paranoid")
"""The shipped profiles with forgetting, in docs/model.md#profiles's order."""
SALIENCE = 0.5
"""Salience of the simulated ordinary memory: a round-table remark (r = 0.5, docs/model.md#the-appraisal-table) heard
calmly."""
CALM = 0.0
"""The owner's emotional intensity at each simulated recall."""
WITNESSES = 1000
"""Simulated memories per condition of the seeded simulations (sampling error of a share: at most 0.016)."""
OBSERVED = (Detail("who", "Anna"), Detail("where", "at the library"), Detail("when", "1"),
            Detail("quote", '"I was only looking for a book"'), Detail("what", "Anna was hiding something"))
"""The details of the simulated memory: who did it, where, the day, the exact words and the gist."""


@dataclass(frozen=True)
class Finding:
    """One row of docs/model.md.

    key : str, a short identifier ("testing_effect"); phenomenon : str, the finding and its source; measure : str,
    what is measured; published : str, the published value; target : str, graphmem's target range; figure : str,
    graphmem's figure as printed; inside : bool, the figure lies inside the target; values : mapping name ->
    float, the numbers behind the figure (for JSON and tests).
    """

    key: str
    phenomenon: str
    measure: str
    published: str
    target: str
    figure: str
    inside: bool
    values: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict of every field."""
        return {"key": self.key, "phenomenon": self.phenomenon, "measure": self.measure,
                "published": self.published, "target": self.target, "figure": self.figure,
                "inside": self.inside, "values": dict(self.values)}


def _ordinary(uid: str, profile: Profile, p: Parameters, *, salience: float = SALIENCE, flashbulb: bool = False,
              source: SourceType = SourceType.FIRST_HAND, teller: str | None = None, t_enc: int = 0,
              details: tuple[Detail, ...] = OBSERVED) -> MemoryState:
    """A freshly encoded memory of ``profile`` at phase ``t_enc`` (docs/model.md#encoding-strength-and-stability,
    docs/model.md#source-memory, docs/model.md#flashbulb-memories)."""
    s = stability(salience, profile, MemoryType.EPISODIC, flashbulb, p)
    return MemoryState(uid=uid, e_ref=encoding_strength(salience, profile, flashbulb, p), t_ref=t_enc, s=s, n=0,
                       salience=salience, t_enc=t_enc, s_enc=s, flashbulb=flashbulb,
                       c0=initial_source_confidence(source, p), source_k=source_exponent(profile, p),
                       source_type=source, teller=teller, believed_teller=teller, details=details)


def _recall(state: MemoryState, phases: Iterable[int], profile: Profile, p: Parameters, seed: int,
            similar: Sequence[SimilarMemory] = ()) -> MemoryState:
    """``state`` after one recall at each of ``phases`` by a calm owner."""
    for t in phases:
        state = with_result(state, reconsolidate(state, t, CALM, similar, profile, p, seed))
    return state


def _strength(state: MemoryState, t: int, p: Parameters) -> float:
    return strength_at(state.e_ref, state.t_ref, state.s, t, p.curve, strength_floor(state.flashbulb, p))


def _kept(state: MemoryState) -> tuple[int, int]:
    """(details kept as encoded, details that can be lost): the gist (``what``) is never lost
    (docs/model.md#details-and-how-they-render)."""
    loseable = [d for d in state.details if d.kind is not DetailKind.WHAT]
    return sum(1 for d in loseable if not d.lost and not d.fabricated), len(loseable)


def _share_kept(states: Iterable[MemoryState]) -> float:
    kept, total = map(sum, zip(*(_kept(s) for s in states)))
    return kept / total


def _ols(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """Least squares y = a + b x: (a, b, r2)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    syy = sum((y - my) ** 2 for y in ys)
    b = sxy / sxx
    return my - b * mx, b, (sxy * sxy / (sxx * syy) if syy > 0 else 1.0)


def forgetting_curve(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Wixted & Ebbesen 1991: a power law fits forgetting better than an exponential.

    The strength of an unrecalled ordinary memory (balanced, salience 0.5) at phases 1..64 on the default curve is
    fitted by a power law (ln m = a - b ln t) and by an exponential (ln m = a - t / tau), both by least squares in
    log space; values: r2_power, r2_exponential (variance of ln m explained), exponent (b).
    """
    p = resolve(params)
    profile = p.profile("balanced")
    state = _ordinary("curve", profile, p)
    ts = range(1, 65)
    logs = [math.log(_strength(state, t, p)) for t in ts]
    _, slope, r2_power = _ols([math.log(t) for t in ts], logs)
    _, _, r2_exp = _ols([float(t) for t in ts], logs)
    exponent = -slope
    return Finding(
        "forgetting_curve", "forgetting curve (Wixted & Ebbesen 1991)",
        "best fit of strength over 1-64 phases, default curve", "power law fits better, exponent 0.1-0.5",
        "power fits better; exponent in 0.1-0.5",
        f"power r2 {r2_power:.3f} > exp {r2_exp:.3f}; exponent {exponent:.2f}" if r2_power > r2_exp
        else f"exp r2 {r2_exp:.3f} >= power {r2_power:.3f}; exponent {exponent:.2f}",
        r2_power > r2_exp and 0.1 <= exponent <= 0.5,
        MappingProxyType({"r2_power": r2_power, "r2_exponential": r2_exp, "exponent": exponent}))


TESTING_HORIZON = 500
"""Phases after a recall over which the testing effect is checked."""


def testing_effect(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Roediger & Karpicke 2006: a retrieval slows forgetting; it never makes a memory weaker.

    An ordinary memory (balanced, salience 0.5) recalled once at phase 3, against the same memory not recalled:
    the strength 10 phases after the recall (values: with, without), and the smallest difference with - without
    at any phase after the recall up to 500 phases later, for a recall at any of phases 0..30 (worst_gap).
    """
    p = resolve(params)
    profile = p.profile("balanced")
    never = _ordinary("testing", profile, p)
    worst = math.inf
    for at in range(0, 31):
        once = _recall(never, [at], profile, p, seed)
        worst = min(worst, min(_strength(once, t, p) - _strength(never, t, p)
                               for t in range(at + 1, at + TESTING_HORIZON + 1)))
    once = _recall(never, [3], profile, p, seed)
    with_, without = _strength(once, 13, p), _strength(never, 13, p)
    return Finding(
        "testing_effect", "testing effect (Roediger & Karpicke 2006)",
        "strength 10 phases after a recall vs none", "retrieval slows forgetting",
        "never lower, at any later phase",
        f"{with_:.3f} vs {without:.3f} at +10; " + ("never lower" if worst >= -1e-12 else f"lower by {-worst:.3f}"),
        with_ >= without and worst >= -1e-12,
        MappingProxyType({"with_recall": with_, "without_recall": without, "worst_gap": worst}))


def spacing_effect(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Cepeda et al. 2006: a retrieval after a long gap strengthens more than one after a short gap.

    The stability gain S'/S of one recall of an ordinary memory (balanced, salience 0.5) 1 phase and 10 phases
    after encoding (values: short, long).
    """
    p = resolve(params)
    profile = p.profile("balanced")
    state = _ordinary("spacing", profile, p)
    short = _recall(state, [1], profile, p, seed).s / state.s
    long = _recall(state, [10], profile, p, seed).s / state.s
    return Finding(
        "spacing_effect", "spacing effect (Cepeda et al. 2006)",
        "stability gain of a recall after a long vs a short gap", "longer gaps gain more", "strictly more",
        f"S x{long:.1f} after 10 phases vs x{short:.1f} after 1", long > short,
        MappingProxyType({"gain_short": short, "gain_long": long}))


def flashbulb_consistency(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Talarico & Rubin 2003: flashbulb memories stay vivid and believed, yet lose consistency like everyday ones.

    1000 flashbulbs (salience 0.9, balanced) and 1000 everyday memories of the same age (an ordinary memory of
    salience 0.5, as Talarico & Rubin compared the news of 9/11 with an everyday event of the days before), each
    recalled 5 times (every 6 phases) and 10 times (every 3 phases) over 30 phases: the strength after 30 phases
    (values: strength, the flashbulbs' smallest over both schedules; ordinary_strength, the everyday memories'
    largest) and the share of details kept as encoded (values: flashbulb_5, ordinary_5, flashbulb_10, ordinary_10;
    largest_gap). Inside when the flashbulb's strength is at least 0.8 while its share of details is within 0.10 of
    the everyday memory's: confidence without consistency. It fails when a flashbulb's details are kept by its own
    large stability (the law of docs/model.md#flashbulb-memories broken) or when its strength falls below 0.8.
    """
    p = resolve(params)
    profile = p.profile("balanced")
    values: dict[str, float] = {"strength": 1.0, "ordinary_strength": 0.0}
    for recalls, step in ((5, 6), (10, 3)):
        phases = range(step, 31, step)
        for kind, flashbulb, salience in (("flashbulb", True, 0.9), ("ordinary", False, SALIENCE)):
            states = [_recall(_ordinary(f"memory/{i}", profile, p, salience=salience, flashbulb=flashbulb), phases,
                              profile, p, seed) for i in range(WITNESSES)]
            values[f"{kind}_{recalls}"] = _share_kept(states)
            strengths = [_strength(s, 30, p) for s in states]
            if flashbulb:
                values["strength"] = min(values["strength"], *strengths)
            else:
                values["ordinary_strength"] = max(values["ordinary_strength"], *strengths)
    gap = max(abs(values["flashbulb_5"] - values["ordinary_5"]), abs(values["flashbulb_10"] - values["ordinary_10"]))
    values["largest_gap"] = gap
    return Finding(
        "flashbulb", "flashbulb (Talarico & Rubin 2003)",
        "after 5 and 10 recalls over 30 phases: strength, and share of details kept",
        "confidence high; consistency declines like everyday memories",
        "strength >= 0.8; details within 0.10 of an everyday memory",
        f"strength {values['strength']:.2f} (everyday {values['ordinary_strength']:.2f}); details "
        f"{values['flashbulb_5']:.2f}/{values['ordinary_5']:.2f} (5), "
        f"{values['flashbulb_10']:.2f}/{values['ordinary_10']:.2f} (10)",
        values["strength"] >= 0.8 and gap <= 0.10, MappingProxyType(values))


def detail_decline(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Neisser & Harsch 1992: details are lost gradually (about 40% right after 2.5 years).

    1000 ordinary memories (balanced, salience 0.5) recalled 10 times over 30 phases (every 3 phases): the share
    of their details (who, where, when, exact words) kept as encoded (values: kept).
    """
    p = resolve(params)
    profile = p.profile("balanced")
    kept = _share_kept(_recall(_ordinary(f"detail/{i}", profile, p), range(3, 31, 3), profile, p, seed)
                       for i in range(WITNESSES))
    return Finding(
        "detail_decline", "detail decline (Neisser & Harsch 1992)",
        "details kept after 10 recalls over 30 phases, balanced", "~40% right after 2.5 years: gradual",
        "0.40-0.80", f"{kept:.2f} kept", 0.40 <= kept <= 0.80, MappingProxyType({"kept": kept}))


SOURCE_HORIZON = 10_000
"""Phases searched for the moment a source or a content fades."""


def _first_phase(test: Callable[[int], bool]) -> int:
    return next((t for t in range(SOURCE_HORIZON + 1) if test(t)), SOURCE_HORIZON + 1)


def _source_unknown(state: MemoryState, p: Parameters, t: int) -> bool:
    c = source_confidence(state.c0, t, state.t_enc, state.s_enc, state.source_k, p.curve)
    return source_belief(state.source_type, c, p) == SourceType.UNKNOWN.value


def _below_threshold(state: MemoryState, threshold: float, p: Parameters, t: int) -> bool:
    return _strength(state, t, p) < threshold


def source_amnesia(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Johnson, Hashtroudi & Lindsay 1993: the source of a memory is forgotten before its content.

    For each shipped profile, a memory someone told the owner (salience 0.5, never recalled): the first phase at
    which the owner's source belief is "unknown" and the first at which the strength is below the profile's
    RetrievalThreshold (values: source_PROFILE, content_PROFILE).
    """
    p = resolve(params)
    values: dict[str, float] = {}
    for name in PROFILES:
        profile = p.profile(name)
        told = _ordinary("told", profile, p, source=SourceType.DIRECT_TOLD, teller="Anna")
        values[f"source_{name}"] = _first_phase(partial(_source_unknown, told, p))
        values[f"content_{name}"] = _first_phase(partial(_below_threshold, told, profile.retrieval_threshold, p))
    first = all(values[f"source_{n}"] < values[f"content_{n}"] for n in PROFILES)
    sources = [values[f"source_{n}"] for n in PROFILES]
    contents = [values[f"content_{n}"] for n in PROFILES]
    return Finding(
        "source_amnesia", "sleeper effect / source amnesia (Johnson et al. 1993)",
        "phases until the source is unknown vs until the content is below threshold", "source first",
        "source first, every profile",
        f"source {min(sources):.0f}-{max(sources):.0f}, content {min(contents):.0f}-{max(contents):.0f} phases"
        f"{' (every profile)' if first else ''}",
        first, MappingProxyType(values))


ACCOUNTS_LOG = Path(__file__).with_name("co_witness.jsonl")
"""A graphmem game log of 13 pairs of accounts of one event: what a witness perceived (an observation, or a vote
at the round table) and what a co-witness then told them about it in private. Pairs 1-10 were written for this
finding (the same scene told plainly, then as players chat); pairs 11-13 are verbatim from real games of The
Traitors played by LLM agents (michaelgiba/the-traitors, MIT). ``graphmem model findings`` stores each pair's
texts as graphmem stores the witness's two memories and embeds them with the configured model."""


@dataclass(frozen=True)
class Accounts:
    """Two accounts of one event as the witness holds them: witness : str, what is embedded for the witness's own
    memory; told : str, what is embedded for their memory of what the co-witness told them (the statement with its
    speaker); cosine : float in [-1, 1], the cosine of the two embeddings (the shipped model: all-MiniLM-L6-v2);
    event : str, the event's id."""

    event: str
    witness: str
    told: str
    cosine: float


CO_WITNESS_DETAILS = (Detail("who", "Ben"), Detail("where", "on the stairs"), Detail("when", "1"),
                      Detail("what", "Anna was hiding something"))
"""What the co-witness Cole told the owner at phase 1 holds a person and a place that only Cole saw."""
CO_WITNESS_UID = "co-witness"


def _contaminated(state: MemoryState) -> bool:
    """Whether the memory holds a detail that only the co-witness saw."""
    return any(d.fabricated and not d.lost and d.origin == CO_WITNESS_UID for d in state.details)


def co_witness_contamination(params: Parameters | None = None, seed: int = 0,
                             accounts: Sequence[Accounts] = ()) -> Finding:
    """Gabbert, Memon & Allan 2003: 71% of witnesses who discussed an event reported a detail only their
    co-witness had seen.

    For each shipped profile, 1000 calm witnesses of an event (phase 0, first-hand, salience 0.5) whom a co-witness
    told at phase 1 what they saw (their account of the same event, with a person and a place the witness did not
    see), recalling the event during the discussion (phase 1) and once more afterwards (phase 2): the share whose
    memory then holds a detail only the co-witness saw (values: one per profile, and the smallest and largest
    cosine). accounts : the pairs of :data:`ACCOUNTS_LOG` with the cosine of their stored texts under the shipped
    embedding model; witness i is told the account of pair i mod len(accounts), at that pair's cosine.
    Raises UsageProblem without accounts.
    """
    if not accounts:
        raise UsageProblem("co-witness contamination needs the accounts of graphmem/model/co_witness.jsonl embedded by "
                           "the embedding model (graphmem model findings computes them)")
    p = resolve(params)
    values: dict[str, float] = {}
    donors = [SimilarMemory(CO_WITNESS_UID, a.cosine, CO_WITNESS_DETAILS, teller="Cole") for a in accounts]
    for name in PROFILES:
        profile = p.profile(name)
        values[name] = sum(_contaminated(_recall(_ordinary(f"witness/{name}/{i}", profile, p), [1, 2], profile, p,
                                                 seed, (donors[i % len(donors)],)))
                           for i in range(WITNESSES)) / WITNESSES
    others = [values[n] for n in PROFILES if n not in ("analytical", "emotional")]
    ordered = values["analytical"] < min(others) and values["emotional"] > max(others)
    low, high = min(a.cosine for a in accounts), max(a.cosine for a in accounts)
    values.update({"cosine_min": low, "cosine_max": high})
    return Finding(
        "co_witness", "co-witness contamination (Gabbert et al. 2003)",
        "share of witnesses reporting >= 1 detail only their co-witness saw, after discussing and 2 recalls; "
        "the two accounts as stored texts embedded by the shipped model", "71%",
        "balanced 0.50-0.85; analytical lowest, emotional highest",
        f"balanced {values['balanced']:.2f}; analytical {values['analytical']:.2f}, "
        f"emotional {values['emotional']:.2f} (cosines {low:.2f}-{high:.2f})",
        0.50 <= values["balanced"] <= 0.85 and ordered, MappingProxyType(values))


OTHER_TELLER = SimilarMemory("other-teller", 0.8, (Detail("who", "Ben"), Detail("when", "1"),
                                                   Detail("what", "Anna was hiding something")), teller="Ben")
"""A similar memory that Ben told the owner."""


def _misattributed_share(profile: Profile, p: Parameters, seed: int) -> float:
    told = [_recall(_ordinary(f"told/{i}", profile, p, source=SourceType.DIRECT_TOLD, teller="Anna",
                              details=(Detail("who", "Anna"),) + OBSERVED[1:]),
                    range(2, 11, 2), profile, p, seed, (OTHER_TELLER,)) for i in range(WITNESSES)]
    return sum(s.believed_teller != s.teller for s in told) / len(told)


def misattribution(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Johnson, Hashtroudi & Lindsay 1993: people confuse similar sources, and the suggestible more.

    For each shipped profile as shipped, 1000 memories Anna told the owner (salience 0.5) while Ben told them
    something similar (cosine 0.8), each recalled with Ben's 5 times over 10 phases (every 2 phases): the share whose
    believed teller is Ben after the last recall (values: one per profile). Inside when balanced is in 0.10-0.40 and
    the shares are ordered by the profiles' SuggestibilityFactor (a larger factor, a strictly larger share; equal
    factors in any order).
    """
    p = resolve(params)
    values = {name: _misattributed_share(p.profile(name), p, seed) for name in PROFILES}
    factor = {name: p.profile(name).suggestibility_factor for name in PROFILES}
    ordered = all(values[a] > values[b] for a in PROFILES for b in PROFILES if factor[a] > factor[b])
    groups = sorted({factor[n] for n in PROFILES}, reverse=True)
    ranking = " > ".join(", ".join(f"{n} {values[n]:.2f}" for n in PROFILES if factor[n] == g) for g in groups)
    return Finding(
        "misattribution", "misattribution (Johnson et al. 1993)",
        "share of told memories with a wrong believed teller after 5 recalls over 10 phases, two similar tellers, "
        "each shipped profile as shipped", "frequent for similar sources",
        "balanced 0.10-0.40; ordered by SuggestibilityFactor",
        ranking if ordered else f"not ordered: {ranking}",
        0.10 <= values["balanced"] <= 0.40 and ordered, MappingProxyType(values))


def working_memory_capacity(params: Parameters | None = None, seed: int = 0) -> Finding:
    """Cowan 2001: working memory holds about 4 +/- 1 chunks.

    The WorkingMemoryCapacity of each shipped profile (values: one per profile).
    """
    p = resolve(params)
    values = {name: float(p.profile(name).working_memory_capacity) for name in PROFILES}
    low, high = min(values.values()), max(values.values())
    return Finding(
        "working_memory", "working memory (Cowan 2001)", "capacity of each shipped profile", "4 +/- 1", "3-5",
        f"{low:.0f}-{high:.0f} items", 3 <= low and high <= 5, MappingProxyType(values))


FINDINGS: tuple[Callable[..., Finding], ...] = (
    forgetting_curve, testing_effect, spacing_effect, flashbulb_consistency, detail_decline, source_amnesia,
    co_witness_contamination, misattribution, working_memory_capacity)
"""The findings of docs/model.md, in its order; each takes (params, seed), co-witness contamination its accounts too."""


def run_findings(params: Parameters | None, seed: int, accounts: Sequence[Accounts]) -> tuple[Finding, ...]:
    """Every finding of docs/model.md with ``params`` (None: the shipped defaults) and ``seed``, in the order of
    docs/model.md's table; ``accounts``: :data:`ACCOUNTS_LOG`'s pairs with their cosines (for co-witness
    contamination).

    Raises UsageProblem when ``params`` lacks a shipped profile (analytical, intuitive, balanced, emotional,
    paranoid) or ``accounts`` is empty.
    """
    return tuple(finding(params, seed, accounts) if finding is co_witness_contamination else finding(params, seed)
                 for finding in FINDINGS)
