"""The pre-registered comparison of graphmem's memory with people (docs/validation.md): replay each game once per
condition, read the believers' memories at their stated beliefs and the speakers' memories at their vote claims,
and compute both tables.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from graphmem.logs.reader import GameLog
from graphmem.logs.schema import BanishEvent, BeliefEvent, MurderEvent, VoteEvent
from graphmem.service import MemoryService
from graphmem.validation.beliefs import DECAY, BeliefCase, ConditionResult, evaluate
from graphmem.validation.evidence import GameFacts, Item, items_about, primacy_weights, weighted_sums
from graphmem.validation.replay import Held, replay
from graphmem.validation.vote_claims import VoteClaim, exact_interval, find_vote_claims

__all__ = ["DEVIATIONS", "EVIL_BELIEFS", "GOOD_BELIEFS", "PEOPLE_VOTES", "PREREGISTRATION", "ClaimsFigures",
           "PeopleStudy", "StatedBelief", "decisions_of", "run_study", "stated_beliefs"]

PREREGISTRATION = "3acaebb"
"""The commit that holds docs/validation.md#pre-registration as it was before the first run on the real games."""

DEVIATIONS: tuple[str, ...] = (
    "the vote-claim rule as coded (before the first run, after the pre-registration) also reads a few adverbs "
    "between subject and verb (also, just, all, both, even, already, actually, originally, clearly, literally, "
    "then), '&' and a leading 'both' in a list of subjects, and 'never', 'didn't approve/reject/accept/decline' "
    "and 'didn't say yes/no' as negations; first listed after the first run",
)
"""Every change of the method after :data:`PREREGISTRATION`, with its reason (docs/validation.md#deviations)."""

EVIL_BELIEFS = frozenset({"morgana", "assassin", "minion", "evil"})
"""Stated beliefs that put a player on the hidden (evil) side: the outcome 1."""
GOOD_BELIEFS = frozenset({"merlin", "percival", "servant", "good"})
"""Stated beliefs that put a player on the good side: the outcome 0 (``undecided`` and anything else are left out)."""

PERFECT = "perfect"
RECORD = "record"
PRIMACY = "primacy"


@dataclass(frozen=True)
class StatedBelief:
    """A belief of the sample: ``index`` (of the belief event in the log), ``believer``, ``player`` (whom it is
    about), ``belief`` (the value stated), ``y`` (1: the hidden side), ``phase`` (when it was stated)."""

    index: int
    believer: str
    player: str
    belief: str
    y: int
    phase: int


def stated_beliefs(log: GameLog) -> list[StatedBelief]:
    """The log's beliefs of the sample (docs/validation.md#beliefs): stated by a player of the good side who is not
    Merlin (a servant or Percival: they do not know the sides), about another player, not ``undecided``."""
    roles = {p.name: p.role.casefold() for p in log.header.players}
    hidden = {r.casefold() for r in log.header.traitor_roles}
    sample = []
    for index, logged in enumerate(log.events):
        event = logged.event
        if not isinstance(event, BeliefEvent):
            continue
        believer, player = event.player, event.about
        role = roles.get(believer, "")
        value = event.belief.casefold()
        if role in hidden or role == "merlin" or player == believer:
            continue
        if value in EVIL_BELIEFS or value in GOOD_BELIEFS:
            sample.append(StatedBelief(index, believer, player, value, int(value in EVIL_BELIEFS), logged.phase))
    return sample


def day_votes(log: GameLog) -> list[StatedBelief]:
    """The Mafia decisions of the sample (docs/validation.md#mafia-where-it-applies): for each day (banish) vote a
    person casts (not a player the header's ``metadata.llm_players`` names), one case per living candidate other
    than the voter, ``y`` 1 for the candidate voted for."""
    llm = log.header.metadata.get("llm_players") if isinstance(log.header.metadata, dict) else None
    machines = set(llm) if isinstance(llm, dict) else set()
    living = set(log.header.player_names)
    sample = []
    for index, logged in enumerate(log.events):
        event = logged.event
        if isinstance(event, (BanishEvent, MurderEvent)):
            living.discard(event.player if isinstance(event, BanishEvent) else event.victim)
        elif isinstance(event, VoteEvent) and event.ballot == "banish" and event.voter not in machines:
            for candidate in sorted(living - {event.voter}):
                voted = int(candidate == event.target)
                sample.append(StatedBelief(index, event.voter, candidate, "vote" if voted else "-", voted,
                                           logged.phase))
    return sample


@dataclass
class ClaimsFigures:
    """People's vote claims and graphmem's expected error for the speakers' memories of those votes.

    claims : list of VoteClaim, every claim the rule found; checked : the checkable ones
    errors : int, wrong claims among the checked; low, high : the exact 95% interval of errors / checked
    expected : {profile: float}, graphmem's expected error (the share of checked claims whose speaker's memory of
        the vote has its ``who`` lost or imported, or its source misattributed, in that profile's replay)
    """

    claims: list[VoteClaim]
    checked: list[VoteClaim]
    errors: int
    low: float
    high: float
    expected: dict[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """People's error rate (NaN without checked claims)."""
        return self.errors / len(self.checked) if self.checked else float("nan")


@dataclass
class PeopleStudy:
    """The outcome of :func:`run_study`: the beliefs table, the vote-claims table and how the run went.

    decisions : "beliefs" (the Avalon games' stated beliefs) or "votes" (the Mafia games' day votes, when no game
    has a stated belief); cases : the predicted decisions with their evidence per condition
    """

    games: list[str]
    profiles: list[str]
    seed: int
    cases: list[BeliefCase]
    beliefs: list[ConditionResult]
    claims: ClaimsFigures
    seconds: float
    decisions: str = "beliefs"
    preregistration: str = PREREGISTRATION
    deviations: tuple[str, ...] = DEVIATIONS


def _memory_error(held: Held, claim: VoteClaim) -> bool:
    memory = held.get(claim.vote) if claim.vote is not None else None
    return memory is None or memory.who_distorted or memory.misattributed


PEOPLE_VOTES = frozenset({"llmafia"})
"""The importers whose games are played by people casting day votes (LLMafia: people and one LLM, whose votes
``metadata.llm_players`` names and which are left out)."""


def decisions_of(logs: Sequence[GameLog]) -> str:
    """What the comparison predicts in ``logs``: "beliefs" when the games hold stated beliefs (belief events: the
    Avalon-NLU games of people), "votes" for Mafia games of people (:data:`PEOPLE_VOTES`).

    Raises ValueError naming the games, before anything runs, when a game id comes twice, when a game is neither
    (LLM agents' or scripted games are not games of people: their day votes say nothing about people), or when the
    two kinds are mixed (each is its own comparison).
    """
    seen: dict[str, int] = {}
    for log in logs:
        seen[log.game] = seen.get(log.game, 0) + 1
    twice = sorted(g for g, n in seen.items() if n > 1)
    if twice:
        raise ValueError(f"game {', '.join(twice)} given more than once: give each game once")
    beliefs = [log.game for log in logs
               if log.imported_from == "avalon-nlu" or any(isinstance(e.event, BeliefEvent) for e in log.events)]
    votes = [log.game for log in logs if log.game not in beliefs and log.imported_from in PEOPLE_VOTES]
    other = [f"{log.game} ({log.imported_from})" for log in logs if log.game not in beliefs and log.game not in votes]
    if other:
        raise ValueError("not games of people with stated beliefs (avalon-nlu, or logs with belief events) or day "
                         f"votes (llmafia): {', '.join(other)}")
    if beliefs and votes:
        raise ValueError(f"Avalon games with beliefs ({len(beliefs)}) and Mafia games ({len(votes)}) are two "
                         "comparisons: give one kind at a time")
    return "beliefs" if beliefs else "votes"


@dataclass
class _Plan:
    """What one game asks of its replays: the decisions predicted, the vote claims, and who is read when."""

    log: GameLog
    facts: GameFacts
    decisions: list[StatedBelief]
    claims: list[VoteClaim]
    probes: dict[int, set[str]]

    @property
    def checked(self) -> list[VoteClaim]:
        return [c for c in self.claims if c.checkable]


def _plan(log: GameLog, avalon: bool) -> _Plan:
    decisions = stated_beliefs(log) if avalon else day_votes(log)
    claims = find_vote_claims(log)
    probes: dict[int, set[str]] = {}
    for b in decisions:
        probes.setdefault(b.index, set()).add(b.believer)
    for c in claims:
        if c.checkable:
            probes.setdefault(c.index, set()).add(c.speaker)
    return _Plan(log, GameFacts(log), decisions, claims, probes)


def run_study(service: MemoryService, logs: Sequence[GameLog], profiles: Sequence[str], *, seed: int = 0,
              resamples: int = 2000, workers: int = 1,
              on_replay: Callable[[str, str], None] | None = None) -> PeopleStudy:
    """Run the comparison on ``logs`` (docs/validation.md#pre-registration) for the shipped ``profiles`` beside
    ``perfect``, the plain record, the fitted single decay and primacy. Each game is replayed once per profile and
    ``perfect`` in ``service``'s Neo4j (under its own id, deleted after) with ``seed``; ``on_replay(game, profile)``
    is called as each replay ends (in the calling thread). The decisions predicted are the stated beliefs, or the
    people's day votes of Mafia games (:func:`decisions_of`, :func:`day_votes`).

    workers : int >= 1, replays run at once (threads sharing ``service``). A replay's memories depend on its own
        game alone (recall ranks with the owner's own statistics), so the result is the same for any number.

    Raises ValueError, before any replay, as :func:`decisions_of` does, when fewer than two games have decisions to
    predict, or when ``workers`` < 1.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    started = time.perf_counter()
    avalon = decisions_of(logs) == "beliefs"
    plans = [_plan(log, avalon) for log in logs]
    with_decisions = [plan.log.game for plan in plans if plan.decisions]
    if len(with_decisions) < 2:
        what = "stated beliefs of the sample" if avalon else "day votes of people"
        raise ValueError(f"the comparison predicts each game's decisions from the other games' and needs two games "
                         f"with {what}; {len(with_decisions)} of the {len(plans)} given have them"
                         + (f" ({with_decisions[0]})" if with_decisions else ""))
    jobs = [(g, profile) for g in range(len(plans)) for profile in (PERFECT, *profiles)]

    replays: dict[tuple[int, str], dict[tuple[int, str], Held]] = {}
    with ThreadPoolExecutor(workers, thread_name_prefix="graphmem-replay") as pool:
        running = {pool.submit(replay, service, plans[g].log, profile, seed, plans[g].probes): (g, profile)
                   for g, profile in jobs}
        for future in as_completed(running):
            g, profile = running[future]
            replays[(g, profile)] = future.result()
            if on_replay is not None:
                on_replay(plans[g].log.game, profile)

    cases: list[BeliefCase] = []
    expected_errors: dict[str, list[bool]] = {p: [] for p in profiles}
    for g, plan in enumerate(plans):
        features: list[dict[str, tuple[float, ...]]] = [{} for _ in plan.decisions]
        record: list[list[Item]] = []
        for profile in (PERFECT, *profiles):
            held = replays[(g, profile)]
            for i, b in enumerate(plan.decisions):
                items = items_about(held[(b.index, b.believer)], plan.facts, b.believer, b.player)
                features[i][profile] = weighted_sums((it.kind, it.value, it.strength) for it in items)
                if profile == PERFECT:
                    record.append(items)
                    features[i][RECORD] = weighted_sums((it.kind, it.value, 1.0) for it in items)
                    features[i][PRIMACY] = weighted_sums(
                        (it.kind, it.value, w) for it, w in zip(items, primacy_weights(items)))
            if profile != PERFECT:
                expected_errors[profile].extend(_memory_error(held[(c.index, c.speaker)], c) for c in plan.checked)
        cases.extend(BeliefCase(plan.log.game, b.believer, b.player, b.belief, b.y, b.phase, features[i],
                                tuple(record[i])) for i, b in enumerate(plan.decisions))
    conditions = [RECORD, PERFECT, *profiles, DECAY, PRIMACY]
    results = evaluate(cases, conditions, baseline=PERFECT, resamples=resamples, seed=seed)
    claims = [c for plan in plans for c in plan.claims]
    checked = [c for plan in plans for c in plan.checked]
    errors = sum(c.wrong for c in checked)
    low, high = exact_interval(errors, len(checked)) if checked else (float("nan"), float("nan"))
    figures = ClaimsFigures(claims, checked, errors, low, high,
                            {p: sum(e) / len(e) if e else float("nan") for p, e in expected_errors.items()})
    return PeopleStudy([log.game for log in logs], list(profiles), seed, cases, results, figures,
                       time.perf_counter() - started, "beliefs" if avalon else "votes")
