"""Which memories of one owner contradict each other, and how a known truth settles it (docs/jobs.md#contradictions).
Pure: no I/O.

Three detectors, all per owner (:func:`detect` runs them in this order; a pair of memories is in one conflict at
most):

1. **Claims** (docs/perception.md#claims; :mod:`graphmem.claims.conflict_rules`): role claims that admit no common role
   (``identity``); statements about a vote that the vote the owner saw contradicts (``lie``), or two accounts of
   one ballot round that cannot both be true (``temporal``; votes of different rounds never conflict); a claim of
   one's own role that a held reveal contradicts (``lie``); Werewolf's checks: a claim of a role the owner was shown
   otherwise, a vote for a player already gone (``minor``), a save claim the owner knows is false (``lie``; the
   owner's own: ``minor``); a speaker's stance on a player that reversed, or two players telling the owner opposite
   stances on a third (``preference``).
2. **Texts**: two memories with cosine similarity >= ``parameters.similarity.contradiction`` (0.75), about a
   common player (not the owner), that disagree about that player: one predicates a role of them that the
   other's rules out ("Braxton might be a traitor" / "Braxton wasn't a traitor": identity), or a sentence
   naming them says the same as one of the other's with the opposite polarity (their words, negations aside,
   overlap by 60% or more and only one is negated): about trust or suspicion ("I trust Ellis" / "I don't trust
   Ellis": preference), or anything else (minor). Precision over recall: the texts of these games are long, and
   "one says 'not' somewhere and the other does not" flags nearly every pair.

Kinds, and their status when detected:

- ``identity`` (a player's role): critical, ``open`` at once;
- ``lie`` (a statement about a vote the owner saw cast otherwise, a lie about oneself, a false save): critical,
  ``open``; never resolved;
- ``temporal`` (two accounts of one ballot round): the most recent is preferred: ``resolved`` with ``keep_b``
  (``b`` is the later memory), but ``open`` (flagged) when the two are within one phase of each other;
- ``preference``: from stance claims (a reversal, conflicting reports) ``open`` with ``keep_both`` (shown to the
  player; neither memory loses); from similar texts ``resolved`` with ``keep_both``;
- ``minor``: both are kept: from the claims (a role the owner was shown otherwise, a vote for a player already
  gone, the owner's own mistaken save) ``open`` with ``keep_both`` (shown to the player); from similar texts
  ``resolved`` with ``keep_both``.

Every conflict of the claims carries ``text``, the conflict in a player's words from the owner's side
(:mod:`graphmem.claims.conflict_words`), which the prompt block shows.

Resolution by the truth (docs/jobs.md#contradictions): a role reveal the owner witnessed and still holds (a banishment with
``role_revealed`` or a ``reveal`` event) settles the identity conflicts about that player whose memories were
both encoded at or before the reveal's phase, or all of them when the player was already eliminated by then
(their role can no longer change). The memory the truth contradicts loses: ``keep_a``/``keep_b`` keeps the other;
``correct`` when the truth contradicts both (both lose). Losing memories are tombstoned, never deleted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from graphmem.claims import conflict_words as words
from graphmem.claims.conflict_model import (
    CORRECT,
    IDENTITY,
    KEEP_A,
    KEEP_B,
    KEEP_BOTH,
    LIE,
    MINOR,
    OPEN,
    PREFERENCE,
    RESOLVED,
    ROLE,
    ROLE_WORDS,
    TEMPORAL,
    ConflictPlan,
    Known,
    OwnerMemory,
    Sides,
    Truth,
    allowed,
    norm,
    role_universe,
)
from graphmem.claims.conflict_rules import (
    ROLE_PREDICATES,
    gone_vote_conflicts,
    known_role_conflicts,
    role_conflicts,
    save_conflicts,
    self_claim_lies,
    stance_conflicts,
    vote_conflicts,
)
from graphmem.store.keys import conflict_uid

__all__ = ["CORRECT", "IDENTITY", "KEEP_A", "KEEP_B", "KEEP_BOTH", "LIE", "MINOR", "OPEN", "PREFERENCE", "RESOLVED",
           "ROLE", "TEMPORAL", "ConflictPlan", "Known", "OwnerMemory", "Sides", "Truth", "claim_conflicts", "detect",
           "polarity_flip", "resolve", "role_universe", "text_conflicts", "text_role_stance"]

NEGATIONS = re.compile(r"\b(?:not|no|never|nobody|none|neither|nor|cannot|isn't|wasn't|aren't|weren't|don't|"
                       r"doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't|hasn't|haven't|hadn't|ain't|"
                       r"n't)\b", re.IGNORECASE)
TRUST = re.compile(r"\b(?:trust\w*|suspici\w*|suspect\w*|doubt\w*|believe\w*|sketchy|shady|fishy|sus)\b",
                   re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


def claim_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], roles: frozenset[str],
                    players: frozenset[str], within: int = 1, sides: Sides | None = None) -> list[ConflictPlan]:
    """Conflicts between the claims of one owner's memories on the functional predicates: roles and sides
    (identity) and votes (lies caught, accounts of one round), as :mod:`graphmem.claims.conflict_rules` says.

    roles : the role universe (:func:`role_universe`); players : the game's player names (the ``voted_for``
    universe); within : int, phases within which two accounts of one round stay open ("within one phase");
    sides : the game's sides (None: The Traitors')
    """
    return role_conflicts(game, owner, memories, roles, sides) + vote_conflicts(game, owner, memories, players, within)


# -- texts --------------------------------------------------------------------------------------------------------

def _subject_sentences(text: str, name: str) -> list[str]:
    pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
    flat = text.translate(_APOSTROPHES)
    return [s for s in _SENTENCES.split(flat) if pattern.search(s)]


_COPULA = (r"(?P<verb>is|was|'s|are|were|isn't|wasn't|is not|was not|"
           r"(?:might|may|could|must|would|can)(?: not|n't)? be|seems to be|seems like|appears to be|"
           r"turned out to be|turns out to be)")
_FILLER = r"(?:(?:a|an|the|one of the|definitely|probably|likely|actually|clearly|really|not|also|surely|" \
          r"secretly|just|still|obviously|true|real|loyal|fellow)\s+)*"


def text_role_stance(text: str, subject: str) -> tuple[str, bool] | None:
    """The role a text gives ``subject``, as (role, polarity), when a sentence predicates a role of them:
    "NAME is/was/might be/could be/seems to be/turned out to be (a/not/one of the ...) traitor|faithful",
    negated by "not" or "n't" in the verb or its modifiers. None when no sentence does, or when sentences
    disagree (an ambiguous text takes no side)."""
    pattern = re.compile(rf"(?<!\w){re.escape(subject)}\s+{_COPULA}\s+(?P<filler>{_FILLER})"
                         rf"(?P<role>{'|'.join(ROLE_WORDS)})(?!\w)", re.IGNORECASE)
    stances: set[tuple[str, bool]] = set()
    for sentence in _subject_sentences(text, subject):
        for match in pattern.finditer(sentence):
            words = f"{match['verb']} {match['filler']}".casefold()
            negated = bool(re.search(r"\bnot\b|n't", words))
            stances.add((ROLE_WORDS[match["role"].casefold()], not negated))
    return stances.pop() if len(stances) == 1 else None


FACT_KINDS = frozenset({"outcome"})
"""Memory kinds the similar-text detector leaves out: what the game announced of one ballot (docs/log-format.md
``outcome``)."""

_WORD = re.compile(r"[a-z0-9']+")
FLIP_OVERLAP = 0.6
"""Two sentences are the same statement with its polarity flipped when their words, negations left out, overlap
this much (Jaccard) and exactly one of them is negated."""


def _words(sentence: str) -> frozenset[str]:
    words = _WORD.findall(sentence.casefold().replace("n't", " not"))
    return frozenset(w for w in words if not NEGATIONS.fullmatch(w))


_NOT_A_NEGATION = re.compile(r"\b(?:or not|whether or not|if not|not only|not just)\b", re.IGNORECASE)


def _statements(sentences: Sequence[str]) -> list[str]:
    """The sentences that assert something: questions and hypotheticals are left out (as in the claim extractor),
    and "or not", "if not", "not only", "not just" do not count as negations."""
    kept = []
    for sentence in sentences:
        stripped = sentence.strip()
        if not stripped or re.sub(r"[^\w?.!]+$", "", stripped).endswith("?") or re.search(r"\b(?:if|whether)\b",
                                                                                          stripped, re.IGNORECASE):
            continue
        kept.append(_NOT_A_NEGATION.sub(" ", stripped))
    return kept


def polarity_flip(sa: Sequence[str], sb: Sequence[str]) -> tuple[str, str] | None:
    """A pair of sentences, one from each list, that say the same thing with opposite polarity: exactly one is
    negated and their words otherwise overlap by FLIP_OVERLAP or more (Jaccard). Questions and conditionals do not
    count. None when there is none."""
    for x in _statements(sa):
        for y in _statements(sb):
            if bool(NEGATIONS.search(x)) == bool(NEGATIONS.search(y)):
                continue
            wx, wy = _words(x), _words(y)
            if wx and wy and len(wx & wy) / len(wx | wy) >= FLIP_OVERLAP:
                return x, y
    return None


def text_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], threshold: float, roles: frozenset[str],
                   skip: Iterable[frozenset[str]] = ()) -> list[ConflictPlan]:
    """Conflicts between similar texts (detector 2): cosine >= ``threshold``, a common player (not the owner),
    disagreement in the sentences naming that player. ``skip``: pairs already in conflict by their claims.
    A mission game's outcomes are left out: each is what the game announced of its own ballot, and "Quest 1 (Alice,
    Bob) succeeded with no fail card" / "Quest 2 (Alice, Bob, Eve) failed with 1 fail card" are two quests, not
    one statement negated."""
    usable = [m for m in memories if m.embedding is not None and m.kind not in FACT_KINDS]
    if len(usable) < 2:
        return []
    x = np.stack([np.asarray(m.embedding, dtype=np.float64) for m in usable])
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    x = x / norms
    done = set(skip)
    plans: list[ConflictPlan] = []
    for i in range(len(usable) - 1):
        sims = x[i + 1:] @ x[i]
        for offset in np.flatnonzero(sims >= threshold):
            a, b = sorted((usable[i], usable[i + 1 + int(offset)]), key=lambda m: (m.phase, m.uid))
            if (a.event is not None and a.event == b.event) or a.text == b.text or frozenset((a.uid, b.uid)) in done:
                continue
            plan = _text_pair(game, owner, a, b, float(sims[offset]), roles)
            if plan is not None:
                plans.append(plan)
                done.add(frozenset((a.uid, b.uid)))
    return plans


def _text_pair(game: str, owner: str, a: OwnerMemory, b: OwnerMemory, similarity: float,
               roles: frozenset[str]) -> ConflictPlan | None:
    uid = conflict_uid(game, owner, (a.uid, b.uid))
    detected = max(a.phase, b.phase)
    for subject in sorted((set(a.about) & set(b.about)) - {owner}):
        ra, rb = text_role_stance(a.text, subject), text_role_stance(b.text, subject)
        if ra is not None and rb is not None and not allowed([ra], roles) & allowed([rb], roles):
            return ConflictPlan(uid, IDENTITY, OPEN, None, subject, ROLE, a.uid, b.uid, detected, None,
                                f"similar memories (cosine {similarity:.2f}) disagree on {subject}'s role: "
                                f"{words.role_phrase(*ra)} vs {words.role_phrase(*rb)}",
                                text=words.similar_roles(owner, subject, ra, rb))
        flip = polarity_flip(_subject_sentences(a.text, subject), _subject_sentences(b.text, subject))
        if flip is None:
            continue
        if TRUST.search(flip[0]) and TRUST.search(flip[1]):
            return ConflictPlan(uid, PREFERENCE, RESOLVED, KEEP_BOTH, subject, "trust", a.uid, b.uid, detected,
                                detected, f"similar memories (cosine {similarity:.2f}) disagree on trusting "
                                          f"{subject}: both kept")
        return ConflictPlan(uid, MINOR, RESOLVED, KEEP_BOTH, subject, "text", a.uid, b.uid, detected, detected,
                            f"similar memories (cosine {similarity:.2f}) say opposite things about {subject}: "
                            f"both kept")
    return None


# -- detection and resolution -------------------------------------------------------------------------------------

def detect(game: str, owner: str, memories: Sequence[OwnerMemory], roles: frozenset[str], players: frozenset[str],
           threshold: float, *, traitor_roles: Iterable[str] = ("traitor",),
           eliminated: Mapping[str, int] | None = None, allies: frozenset[str] = frozenset(),
           sides: Sides | None = None, truths: Sequence[Truth] = (), hidden: bool = False) -> list[ConflictPlan]:
    """Every conflict among one owner's memories: roles, lies about oneself that a held reveal exposes, votes,
    claims of roles the owner was shown otherwise, claimed saves, votes for players already gone, stances, then
    similar texts, each pair of memories in one conflict at most (the first detector that pairs them).
    Deterministic.

    traitor_roles : the game's traitor-side roles; eliminated : {player: phase of their elimination}; allies : the
    owner's fellow traitors, when the owner is one (their stances are plans, see :func:`stance_conflicts`); sides :
    the game's sides (None: The Traitors'); truths : the reveals the owner holds; hidden : the owner is on the
    traitor side (:func:`known_role_conflicts`)
    """
    plans: list[ConflictPlan] = []
    done: set[frozenset[str]] = set()
    for found in (claim_conflicts(game, owner, memories, roles, players, sides=sides),
                  self_claim_lies(game, owner, memories, truths, roles, sides, allies),
                  known_role_conflicts(game, owner, memories, truths, roles, sides, allies, hidden),
                  save_conflicts(game, owner, memories),
                  gone_vote_conflicts(game, owner, memories),
                  stance_conflicts(game, owner, memories, traitor_roles, eliminated, allies, sides)):
        for plan in found:
            if frozenset((plan.a, plan.b)) not in done:
                done.add(frozenset((plan.a, plan.b)))
                plans.append(plan)
    return plans + text_conflicts(game, owner, memories, threshold, roles, done)


def _stance(memory: OwnerMemory, subject: str, roles: frozenset[str], sides: Sides | None) -> frozenset[str] | None:
    constraints = [(norm(o), p) for s, pred, o, p, _ in memory.claims if s == subject and pred in ROLE_PREDICATES]
    if not constraints:
        stance = text_role_stance(memory.text, subject)
        constraints = [stance] if stance else []
    return allowed(constraints, roles, sides) if constraints else None


def resolve(plan: ConflictPlan | Known, memories: Mapping[str, OwnerMemory], truths: Sequence[Truth],
            roles: frozenset[str], sides: Sides | None = None) -> tuple[str, int, str, tuple[str, ...]] | None:
    """How the truth settles an open identity conflict: (resolution, resolved_phase, reason, losers), or None
    when no applicable truth is held or a memory's stance cannot be read (see the module docstring). A reveal of
    a side (Merlin shown that Eve is "evil"; ``sides``) is met by any role of that side."""
    if plan.kind != IDENTITY or plan.subject is None or plan.a not in memories or plan.b not in memories:
        return None
    a, b = memories[plan.a], memories[plan.b]
    latest = max(a.phase, b.phase)
    applicable = [t for t in truths if t.subject == plan.subject and (t.final or t.phase >= latest)]
    if not applicable:
        return None
    truth = max(applicable, key=lambda t: (t.phase, t.memory))
    stance_a, stance_b = _stance(a, plan.subject, roles, sides), _stance(b, plan.subject, roles, sides)
    if stance_a is None or stance_b is None:
        return None
    role = norm(truth.role)
    true_roles = allowed([(role, True)], roles, sides)
    right_a, right_b = bool(stance_a & true_roles), bool(stance_b & true_roles)
    phase = max(truth.phase, latest)
    why = f"{plan.subject} was revealed as a {role} (phase {truth.phase})"
    if right_a and not right_b:
        return KEEP_A, phase, why, (b.uid,)
    if right_b and not right_a:
        return KEEP_B, phase, why, (a.uid,)
    if not right_a and not right_b:
        return CORRECT, phase, why + ": both memories were wrong", (a.uid, b.uid)
    return None
