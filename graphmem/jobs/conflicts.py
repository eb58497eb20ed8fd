"""Which memories of one owner contradict each other, and how a known truth settles it (SPEC 9). Pure: no I/O.

Two detectors, both per owner:

1. **Claims** (SPEC 2.3) on the functional predicates ``role`` and ``voted_for``. A memory's claims about one
   subject and predicate allow a set of values: "X is a traitor" allows {traitor}, "X is not a traitor" allows
   every other value. Two memories conflict when no value satisfies both. The values range over a *universe*:
   for ``role`` the game's role words (its players' roles, the claimed and the revealed ones), for
   ``voted_for`` the game's players. So in The Traitors "X is faithful" and "X is not a traitor" agree, "X is a
   traitor" and "X is not a traitor" disagree (opposite polarity), "X is faithful" and "X is a traitor" disagree
   (different objects), and "X is not a traitor" and "X is not faithful" disagree (nothing is left).
2. **Texts**: two memories with cosine similarity >= ``parameters.similarity.contradiction`` (0.75), about a
   common player (not the owner), that disagree about that player: one predicates a role of them that the
   other's rules out ("Braxton might be a traitor" / "Braxton wasn't a traitor": identity), or a sentence
   naming them says the same as one of the other's with the opposite polarity (their words, negations aside,
   overlap by 60% or more and only one is negated): about trust or suspicion ("I trust Ellis" / "I don't trust
   Ellis": preference), or anything else (minor). Precision over recall: the texts of these games are long, and
   "one says 'not' somewhere and the other does not" flags nearly every pair.

Claims about the owner are ignored: a player knows their own role and their own votes, so what others say about
them (or their own lies) is not a conflict in their memory.

Kinds, and their status when detected:

- ``identity`` (a player's role): critical, ``open`` at once;
- ``temporal`` (the same functional predicate other than role at different times, i.e. votes): the most recent is
  preferred: ``resolved`` with ``keep_b`` (``b`` is the later memory), but ``open`` (flagged) when the two are
  within one phase of each other (someone said they would vote for X and voted for Y);
- ``preference`` (trust or suspicion) and ``minor``: both are kept: ``resolved`` with ``keep_both``.

Pairs: within one subject and predicate, memories are ordered by (phase, uid); each memory is paired with the
latest earlier memory it conflicts with, or, when there is none, with the earliest later one. Every memory that
conflicts with any other is in at least one conflict, and there are fewer conflicts than memories (all pairs
would grow quadratically with repeated statements).

Resolution by the truth (SPEC 9): a role reveal the owner witnessed and still holds (a banishment with
``role_revealed`` or a ``reveal`` event) settles the identity conflicts about that player whose memories were
both encoded at or before the reveal's phase, or all of them when the player was already eliminated by then
(their role can no longer change). The memory the truth contradicts loses: ``keep_a``/``keep_b`` keeps the other;
``correct`` when the truth contradicts both (both lose). Losing memories are tombstoned, never deleted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from graphmem.logs.schema import FUNCTIONAL_PREDICATES
from graphmem.store.keys import conflict_uid

__all__ = ["ConflictPlan", "Known", "OwnerMemory", "Truth", "claim_conflicts", "detect",
           "resolve", "role_universe", "text_conflicts"]

IDENTITY, TEMPORAL, PREFERENCE, MINOR = "identity", "temporal", "preference", "minor"
OPEN, RESOLVED = "open", "resolved"
KEEP_A, KEEP_B, KEEP_BOTH, CORRECT = "keep_a", "keep_b", "keep_both", "correct"
ROLE = "role"

ROLE_WORDS = {"traitor": "traitor", "traitors": "traitor", "faithful": "faithful", "faithfuls": "faithful"}
"""Role words recognised in free text (The Traitors), mapped to the role they name."""
NEGATIONS = re.compile(r"\b(?:not|no|never|nobody|none|neither|nor|cannot|isn't|wasn't|aren't|weren't|don't|"
                       r"doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't|hasn't|haven't|hadn't|ain't|"
                       r"n't)\b", re.IGNORECASE)
TRUST = re.compile(r"\b(?:trust\w*|suspici\w*|suspect\w*|doubt\w*|believe\w*|sketchy|shady|fishy|sus)\b",
                   re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


@dataclass(frozen=True)
class OwnerMemory:
    """One memory as the detectors need it.

    uid : str; event : the event uid or None (summaries); phase : int, ``t_enc``; text : str;
    claims : tuple of (subject, predicate, object, polarity) (``claims_json``); about : player names;
    embedding : array of shape (dimension,) or None
    """

    uid: str
    event: str | None
    phase: int
    text: str
    claims: tuple[tuple[str, str, str, bool], ...] = ()
    about: tuple[str, ...] = ()
    embedding: npt.NDArray[np.float64] | None = field(default=None, repr=False, compare=False)

    @staticmethod
    def parse_claims(claims_json: str | None) -> tuple[tuple[str, str, str, bool], ...]:
        """The claims of a ``claims_json`` value; malformed items are skipped."""
        try:
            data = json.loads(claims_json or "[]")
        except ValueError:
            return ()
        out = []
        for item in data if isinstance(data, list) else []:
            if isinstance(item, list) and len(item) == 4 and all(isinstance(x, str) for x in item[:3]):
                out.append((item[0], item[1], item[2], bool(item[3])))
        return tuple(out)


@dataclass(frozen=True)
class Truth:
    """A role reveal the owner witnessed and holds: ``subject`` is a ``role`` at ``phase``; ``final`` when the
    subject was eliminated by then (the role can no longer change); ``memory`` is the uid of the reveal's
    memory (for the reason text)."""

    subject: str
    role: str
    phase: int
    final: bool
    memory: str


@dataclass(frozen=True)
class Known:
    """A conflict already stored: its uid, kind, status, subject, predicate and its two memories (a, b)."""

    uid: str
    kind: str
    status: str
    subject: str | None
    predicate: str | None
    a: str
    b: str


@dataclass
class ConflictPlan:
    """One conflict between memories ``a`` and ``b`` (``a`` encoded first) of one owner.

    uid, kind, status, resolution (or None), subject (a player, or None), predicate ("role", "voted_for",
    "trust", "text"), detected_phase (the later memory's phase: when the owner came to hold both),
    resolved_phase (or None), reason (one sentence), losers (memory uids the resolution tombstones)
    """

    uid: str
    kind: str
    status: str
    resolution: str | None
    subject: str | None
    predicate: str
    a: str
    b: str
    detected_phase: int
    resolved_phase: int | None
    reason: str
    losers: tuple[str, ...] = ()

    def props(self, game: str, owner: str) -> dict[str, object]:
        """The Conflict node's properties (docs/graph-model.md), with ``memory_a``/``memory_b``."""
        return {"uid": self.uid, "game": game, "owner": owner, "kind": self.kind, "status": self.status,
                "resolution": self.resolution, "subject": self.subject, "predicate": self.predicate,
                "detected_phase": self.detected_phase, "resolved_phase": self.resolved_phase,
                "reason": self.reason, "memory_a": self.a, "memory_b": self.b}


# -- values and universes -----------------------------------------------------------------------------------------

def _norm(value: str) -> str:
    word = " ".join(value.split()).casefold()
    return ROLE_WORDS.get(word, word)


def role_universe(roles: Iterable[str]) -> frozenset[str]:
    """The role values a ``role`` claim ranges over: the given role words (players' roles, claimed and revealed
    roles), normalised (lower case; "traitors" -> "traitor"), plus The Traitors' two roles."""
    return frozenset({_norm(r) for r in roles} | {"traitor", "faithful"})


def _allowed(constraints: Sequence[tuple[str, bool]], universe: frozenset[str]) -> frozenset[str]:
    values = universe | {v for v, _ in constraints}
    return frozenset(v for v in values if all((v == c) == polarity for c, polarity in constraints))


def _describe(constraints: Sequence[tuple[str, bool]]) -> str:
    return " and ".join(f"{'' if polarity else 'not '}{value}" for value, polarity in constraints)


# -- claims -------------------------------------------------------------------------------------------------------

def _pairs(order: Sequence[str], conflicting: Mapping[tuple[str, str], bool]) -> list[tuple[str, str]]:
    """Pairs (earlier, later) by the rule of the module docstring; ``order`` is sorted by (phase, uid)."""
    found: list[tuple[str, str]] = []
    for j, uid in enumerate(order):
        earlier = [order[i] for i in range(j - 1, -1, -1) if conflicting.get((order[i], uid))]
        if earlier:
            pair = (earlier[0], uid)
        else:
            later = [order[i] for i in range(j + 1, len(order)) if conflicting.get((uid, order[i]))]
            if not later:
                continue
            pair = (uid, later[0])
        if pair not in found:
            found.append(pair)
    return found


def claim_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], roles: frozenset[str],
                    players: frozenset[str], within: int = 1) -> list[ConflictPlan]:
    """Conflicts between the claims of one owner's memories on functional predicates (detector 1).

    roles : the role universe (:func:`role_universe`); players : the game's player names (the ``voted_for``
    universe); within : int, phases within which a temporal conflict stays open (1: "within one phase").
    """
    groups: dict[tuple[str, str], dict[str, list[tuple[str, bool]]]] = {}
    phase = {m.uid: m.phase for m in memories}
    for m in memories:
        for subject, predicate, obj, polarity in m.claims:
            if predicate not in FUNCTIONAL_PREDICATES or subject == owner:
                continue
            value = _norm(obj) if predicate == ROLE else obj
            groups.setdefault((subject, predicate), {}).setdefault(m.uid, []).append((value, polarity))
    plans: list[ConflictPlan] = []
    for (subject, predicate), by_memory in sorted(groups.items()):
        universe = roles if predicate == ROLE else players
        allowed = {uid: _allowed(c, universe) for uid, c in by_memory.items()}
        order = sorted((uid for uid in by_memory if allowed[uid]), key=lambda u: (phase[u], u))
        conflicting = {(x, y): not (allowed[x] & allowed[y]) for i, x in enumerate(order) for y in order[i + 1:]}
        for a, b in _pairs(order, conflicting):
            said = (f"{subject} {predicate}: {_describe(by_memory[a])} (phase {phase[a]}) vs "
                    f"{_describe(by_memory[b])} (phase {phase[b]})")
            detected = max(phase[a], phase[b])
            if predicate == ROLE:
                plans.append(ConflictPlan(conflict_uid(game, owner, (a, b)), IDENTITY, OPEN, None, subject,
                                          predicate, a, b, detected, None, f"conflicting claims: {said}"))
            elif phase[b] - phase[a] <= within:
                plans.append(ConflictPlan(conflict_uid(game, owner, (a, b)), TEMPORAL, OPEN, None, subject,
                                          predicate, a, b, detected, None,
                                          f"conflicting claims within {within} phase: {said}"))
            else:
                plans.append(ConflictPlan(conflict_uid(game, owner, (a, b)), TEMPORAL, RESOLVED, KEEP_B, subject,
                                          predicate, a, b, detected, detected,
                                          f"claims changed over time, the most recent is preferred: {said}"))
    return plans


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
    disagreement in the sentences naming that player. ``skip``: pairs already in conflict by their claims."""
    usable = [m for m in memories if m.embedding is not None]
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
        if ra is not None and rb is not None and not _allowed([ra], roles) & _allowed([rb], roles):
            return ConflictPlan(uid, IDENTITY, OPEN, None, subject, ROLE, a.uid, b.uid, detected, None,
                                f"similar memories (cosine {similarity:.2f}) disagree on {subject}'s role: "
                                f"{_describe([ra])} vs {_describe([rb])}")
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
           threshold: float) -> list[ConflictPlan]:
    """Every conflict among one owner's memories: claim conflicts first, then text conflicts between pairs the
    claims did not already put in conflict. Deterministic."""
    claimed = claim_conflicts(game, owner, memories, roles, players)
    texts = text_conflicts(game, owner, memories, threshold, roles, [frozenset((c.a, c.b)) for c in claimed])
    return claimed + texts


def _stance(memory: OwnerMemory, subject: str, roles: frozenset[str]) -> frozenset[str] | None:
    constraints = [(_norm(o), p) for s, pred, o, p in memory.claims if s == subject and pred == ROLE]
    if not constraints:
        stance = text_role_stance(memory.text, subject)
        constraints = [stance] if stance else []
    return _allowed(constraints, roles) if constraints else None


def resolve(plan: ConflictPlan | Known, memories: Mapping[str, OwnerMemory], truths: Sequence[Truth],
            roles: frozenset[str]) -> tuple[str, int, str, tuple[str, ...]] | None:
    """How the truth settles an open identity conflict: (resolution, resolved_phase, reason, losers), or None
    when no applicable truth is held or a memory's stance cannot be read (see the module docstring)."""
    if plan.kind != IDENTITY or plan.subject is None or plan.a not in memories or plan.b not in memories:
        return None
    a, b = memories[plan.a], memories[plan.b]
    latest = max(a.phase, b.phase)
    applicable = [t for t in truths if t.subject == plan.subject and (t.final or t.phase >= latest)]
    if not applicable:
        return None
    truth = max(applicable, key=lambda t: (t.phase, t.memory))
    stance_a, stance_b = _stance(a, plan.subject, roles), _stance(b, plan.subject, roles)
    if stance_a is None or stance_b is None:
        return None
    role = _norm(truth.role)
    right_a, right_b = role in stance_a, role in stance_b
    phase = max(truth.phase, latest)
    why = f"{plan.subject} was revealed as a {role} (phase {truth.phase})"
    if right_a and not right_b:
        return KEEP_A, phase, why, (b.uid,)
    if right_b and not right_a:
        return KEEP_B, phase, why, (a.uid,)
    if not right_a and not right_b:
        return CORRECT, phase, why + ": both memories were wrong", (a.uid, b.uid)
    return None
