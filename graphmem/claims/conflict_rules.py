"""Conflicts between the claims of one owner's memories (docs/perception.md#claims, docs/jobs.md#contradictions): what a
player at the table would notice. Pure: no I/O.

- **Roles** (:func:`role_conflicts`): two memories whose ``role`` claims about one player admit no common role
  ("Dan is a traitor" / "Dan is faithful" or "Dan is not a traitor"): ``identity``, open, settled later by a
  reveal (:func:`graphmem.claims.conflicts.resolve`). Claims about the owner are ignored: a player knows their role.
  A ``side`` claim (Avalon: "Diana is evil", "I am good"; :class:`~graphmem.claims.conflict_model.Sides`) is a role
  claim that admits every role of that side: "Diana is evil" and "Diana is Merlin" conflict.
- **Lies about oneself** (:func:`self_claim_lies`): a player's claim of their own role or side that a reveal the
  owner holds contradicts (Merlin was shown that Eve is evil; Eve says "I know I'm good"): ``lie``, critical, open,
  never resolved. A player knows their own role, so such a claim is a lie, not a mistake; claims about others can
  be honest mistakes and are left to the identity rule. Not compared: what the owner's fellow traitors say (the
  owner knows their bluff).
- **What the owner was shown** (:func:`known_role_conflicts`): a claim of a third player's role or side made
  after the owner held a reveal of it that contradicts it (a Werewolf Seer's answer: "Mason is a werewolf"; someone
  then says "Mason is a villager"): ``minor``, open, ``keep_both``. Not a ``lie``: the speaker may be honestly
  mistaken (a villager vouching for a werewolf), and the owner cannot tell; both memories are true. The owner's own
  words count too when the owner is not on the traitor side (a Seer stating the opposite of what they checked: a
  mistake shown to them); a traitor's own words about a role they know are a bluff they know of, and so are their
  fellow traitors'.
- **Saves** (:func:`save_conflicts`): a claimed save ("I protected Sam last night", :mod:`graphmem.claims.saves`)
  that the owner knows is false: the owner is the Doctor and protected someone else that night (a player knows
  whether they are the Doctor, so anyone else's claim of a save is a lie), or the owner saw the player claimed saved
  murdered that night: ``lie``, open, never resolved. The owner's own claim (the Doctor naming another player than
  the one they protected) is a mistake shown to them: ``minor``, open, ``keep_both``.
- **A vote for a player already gone** (:func:`gone_vote_conflicts`): a claim of a vote in a ballot round ("I'm
  voting for Dan") for a player the owner had seen leave the game before that round's ballot (murdered that day or
  earlier, banished on an earlier day): ``minor``, open, ``keep_both`` (a mistake shown to the player; both
  memories are true). The owner's own words count too.
- **Votes** (:func:`vote_conflicts`): ``voted_for`` is functional per ballot round, so only claims about the same
  voter *and round* are compared; a vote that changed between rounds is no conflict. A statement about a vote (the
  speaker's own, another player's, or the owner's) that the vote the owner saw contradicts is a lie caught:
  ``lie``, critical, open, never resolved (both memories are true: one of what was said, one of what was done).
  Two statements about a round whose vote the owner did not see that cannot both be true are ``temporal``
  (the later is preferred; open when the two are within one phase). The owner's own words are not compared.
- **Stances** (:func:`stance_conflicts`): what a speaker says of a player, positive (``trusts``, or not
  ``suspects``; a role claim putting the player outside the traitor side) or negative (``suspects``, or not
  ``trusts``; a role claim putting them on it). A reversal: one speaker's stance on one player changes sign between
  two phases (consecutive phases in which the speaker took a side; a phase in which they said both is skipped):
  ``preference``, open and ``keep_both`` (it is information, not an error: neither memory loses, the truth never
  settles it). Conflicting reports: on one day two players told the owner, privately, opposite stances on a third
  player: ``preference``, open, ``keep_both``. Not compared: the owner's own stances, stances on the owner in
  reports (a player's opinion of the owner is no report about someone else; a reversal of it is kept), stances
  on a player said once that player had left the game (history, not a stance), and, for an owner on the traitor
  side, what their fellow traitors say (the traitors' planning: "she's a faithful leader, she's next").

Pairs: within one group, memories are ordered by (phase, line, uid) and paired by
:func:`graphmem.claims.conflict_model.pairs` (a lie pairs each lying statement with the vote; a reversal pairs the
last memory of the earlier side with the first of the later one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graphmem.claims import conflict_words as words
from graphmem.claims.conflict_model import (
    IDENTITY,
    KEEP_B,
    KEEP_BOTH,
    LIE,
    MINOR,
    OPEN,
    PREFERENCE,
    RESOLVED,
    ROLE,
    SIDE,
    STANCE,
    TEMPORAL,
    VOTED_FOR,
    ConflictPlan,
    OwnerMemory,
    Sides,
    Truth,
    allowed,
    describe,
    norm,
    pairs,
)
from graphmem.claims.saves import PREDICATE as PROTECTED
from graphmem.claims.stances import stance_sign
from graphmem.logs.schema import STANCE_PREDICATES
from graphmem.store.keys import conflict_uid

__all__ = ["gone_vote_conflicts", "known_role_conflicts", "role_conflicts", "save_conflicts", "self_claim_lies",
           "stance_conflicts", "stances_of", "vote_conflicts"]

ROLE_PREDICATES = frozenset({ROLE, SIDE})
"""The predicates that say what a player is: a role, or a side (read as any role of that side)."""


def _plan(game: str, owner: str, kind: str, status: str, resolution: str | None, subject: str, predicate: str,
          a: OwnerMemory, b: OwnerMemory, reason: str, *, speaker: str | None = None, round_: int | None = None,
          text: str | None = None) -> ConflictPlan:
    detected = max(a.phase, b.phase)
    return ConflictPlan(conflict_uid(game, owner, (a.uid, b.uid)), kind, status, resolution, subject, predicate,
                        a.uid, b.uid, detected, detected if status == RESOLVED else None, reason, speaker=speaker,
                        round=round_, text=text)


# -- roles --------------------------------------------------------------------------------------------------------

def role_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], roles: frozenset[str],
                   sides: Sides | None = None) -> list[ConflictPlan]:
    """Identity conflicts between ``role`` (and ``side``) claims about the same player (see the module docstring).

    roles : the role universe (:func:`graphmem.claims.conflict_model.role_universe`); sides : the game's sides
    (None: The Traitors', whose side names are roles)
    """
    groups: dict[str, dict[str, list[tuple[str, bool]]]] = {}
    by_uid = {m.uid: m for m in memories}
    for m in memories:
        for subject, predicate, obj, polarity, _ in m.claims:
            if predicate in ROLE_PREDICATES and subject != owner:
                groups.setdefault(subject, {}).setdefault(m.uid, []).append((norm(obj), polarity))
    plans: list[ConflictPlan] = []
    for subject, by_memory in sorted(groups.items()):
        allowed_by = {uid: allowed(c, roles, sides) for uid, c in by_memory.items()}
        order = sorted((uid for uid in by_memory if allowed_by[uid]), key=lambda u: by_uid[u].order)
        conflicting = {(x, y): not (allowed_by[x] & allowed_by[y]) for i, x in enumerate(order) for y in order[i + 1:]}
        for ua, ub in pairs(order, conflicting):
            a, b = by_uid[ua], by_uid[ub]
            said = (f"{subject} role: {describe(by_memory[ua])} (phase {a.phase}) vs "
                    f"{describe(by_memory[ub])} (phase {b.phase})")
            text = words.identity(owner, subject, (a.speaker, a.source, *by_memory[ua][0]),
                                  (b.speaker, b.source, *by_memory[ub][0]))
            plans.append(_plan(game, owner, IDENTITY, OPEN, None, subject, ROLE, a, b, f"conflicting claims: {said}",
                               text=text))
    return plans


def self_claim_lies(game: str, owner: str, memories: Sequence[OwnerMemory], truths: Sequence[Truth],
                    roles: frozenset[str], sides: Sides | None = None,
                    allies: frozenset[str] = frozenset()) -> list[ConflictPlan]:
    """Lies caught: a player's claim of their own role or side ("I am good") that a reveal the owner holds about
    that player contradicts (see the module docstring). One conflict per statement, paired with the reveal's
    memory (the earliest such reveal the owner holds).

    truths : the reveals the owner holds (their memories must be among ``memories``); roles, sides : as for
    :func:`role_conflicts`; allies : the owner's fellow traitors (their bluffs are no lie to the owner)
    """
    by_uid = {m.uid: m for m in memories}
    known: dict[str, list[tuple[Truth, frozenset[str]]]] = {}
    for t in sorted(truths, key=lambda t: (t.phase, t.memory)):
        if t.memory in by_uid and t.subject != owner:
            known.setdefault(t.subject, []).append((t, allowed([(norm(t.role), True)], roles, sides)))
    plans: list[ConflictPlan] = []
    for m in sorted(memories, key=lambda m: m.order):
        speaker = m.speaker
        if speaker is None or speaker == owner or speaker in allies or speaker not in known or m.kind == "reveal":
            continue
        claimed = [(norm(obj), polarity) for subject, predicate, obj, polarity, _ in m.claims
                   if subject == speaker and predicate in ROLE_PREDICATES]
        if not claimed:
            continue
        said = allowed(claimed, roles, sides)
        for truth, truth_roles in known[speaker]:
            if said & truth_roles:
                continue
            reveal = by_uid[truth.memory]
            a, b = (reveal, m) if reveal.order <= m.order else (m, reveal)
            value, polarity = claimed[0]
            reason = (f"{speaker} claimed to be {describe(claimed)} (phase {m.phase}), but the owner knows "
                      f"{speaker} is {norm(truth.role)} (phase {reveal.phase})")
            plans.append(_plan(game, owner, LIE, OPEN, None, speaker, ROLE, a, b, f"a lie caught: {reason}",
                               speaker=speaker, text=words.self_claim_lie(owner, speaker, value, polarity,
                                                                          norm(truth.role), m.day)))
            break
    return plans


def known_role_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], truths: Sequence[Truth],
                         roles: frozenset[str], sides: Sides | None = None, allies: frozenset[str] = frozenset(),
                         hidden: bool = False) -> list[ConflictPlan]:
    """Claims of a third player's role or side that a reveal the owner already held contradicts (see the module
    docstring). One conflict per statement and subject, paired with the reveal's memory.

    truths : the reveals the owner holds; roles, sides : as for :func:`role_conflicts`; allies : the owner's fellow
    traitors (their bluffs are known); hidden : the owner is on the traitor side (their own words are bluffs too)
    """
    by_uid = {m.uid: m for m in memories}
    known: dict[str, list[tuple[OwnerMemory, str, frozenset[str]]]] = {}
    for t in sorted(truths, key=lambda t: (t.phase, t.memory)):
        if t.memory in by_uid and t.subject != owner:
            known.setdefault(t.subject, []).append((by_uid[t.memory], norm(t.role),
                                                    allowed([(norm(t.role), True)], roles, sides)))
    plans: list[ConflictPlan] = []
    for m in sorted(memories, key=lambda m: m.order):
        speaker = m.speaker
        if speaker is None or m.kind == "reveal" or speaker in allies or (speaker == owner and hidden):
            continue
        claimed: dict[str, list[tuple[str, bool]]] = {}
        for subject, predicate, obj, polarity, _ in m.claims:
            if predicate in ROLE_PREDICATES and subject not in (owner, speaker) and subject in known:
                claimed.setdefault(subject, []).append((norm(obj), polarity))
        for subject, constraints in sorted(claimed.items()):
            held = [(r, role, ok) for r, role, ok in known[subject] if r.order < m.order]
            if not held or allowed(constraints, roles, sides) & held[-1][2]:
                continue
            reveal, truth, _ = held[-1]
            value, polarity = constraints[0]
            reason = (f"{speaker} said {subject} is {describe(constraints)} (phase {m.phase}), but the owner knew "
                      f"{subject} is {truth} (phase {reveal.phase})")
            plans.append(_plan(game, owner, MINOR, OPEN, KEEP_BOTH, subject, ROLE, reveal, m, f"a claim the owner "
                               f"knew false: {reason}", speaker=speaker,
                               text=words.known_role(owner, speaker, subject, value, polarity, truth, m.day)))
    return plans


def save_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory]) -> list[ConflictPlan]:
    """Claimed saves the owner knows are false (see the module docstring): each statement's ``protected`` claim of
    its speaker, about the night of the statement's day, against the owner's own protection that night (the
    owner's ``protect`` vote, which claims itself) and against a murder of that player that night the owner saw."""
    protections: dict[int, OwnerMemory] = {}
    murders: dict[tuple[str, int], OwnerMemory] = {}
    for m in memories:
        if m.kind == "vote" and m.ballot == "protect" and m.speaker == owner and m.day is not None:
            protections[m.day] = m
        elif m.kind == "murder" and m.day is not None:
            for victim in m.about:
                murders[(victim, m.day)] = m
    plans: list[ConflictPlan] = []
    for m in sorted(memories, key=lambda m: m.order):
        if m.kind != "say" or m.speaker is None or m.day is None:
            continue
        for subject, predicate, obj, polarity, _ in m.claims:
            if predicate != PROTECTED or subject != m.speaker or not polarity:
                continue
            murder = murders.get((obj, m.day))
            own = protections.get(m.day)
            done = [c[2] for c in own.claims if c[1] == PROTECTED and c[0] == owner] if own is not None else []
            if murder is not None and murder.order < m.order:
                text = words.save(owner, m.speaker, obj, m.day, murdered=True)
                reason = f"{m.speaker} claimed to have protected {obj} on night {m.day}, but {obj} was murdered then"
                plans.append(_save_plan(game, owner, obj, murder, m, reason, text))
            elif own is not None and done and own.order < m.order and (m.speaker != owner or obj not in done):
                text = words.save(owner, m.speaker, obj, m.day, protected=done[0])
                reason = (f"{m.speaker} claimed to have protected {obj} on night {m.day}, but the owner, the "
                          f"Doctor, protected {done[0]}")
                plans.append(_save_plan(game, owner, obj, own, m, reason, text))
    return plans


def _save_plan(game: str, owner: str, saved: str, known: OwnerMemory, said: OwnerMemory, reason: str,
               text: str) -> ConflictPlan:
    """A false save: a lie, or the owner's own mistake (``minor``, both kept)."""
    if said.speaker == owner:
        return _plan(game, owner, MINOR, OPEN, KEEP_BOTH, saved, PROTECTED, known, said, f"a mistaken save: {reason}",
                     speaker=owner, text=text)
    return _plan(game, owner, LIE, OPEN, None, saved, PROTECTED, known, said, f"a false save: {reason}",
                 speaker=said.speaker, text=text)


def gone_vote_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory]) -> list[ConflictPlan]:
    """Claims of a vote for a player the owner had seen leave the game before that round's ballot (see the module
    docstring): a murder on the round's day or earlier, a banishment on an earlier day."""
    gone: dict[str, tuple[OwnerMemory, str]] = {}
    for m in sorted(memories, key=lambda m: m.order):
        if m.kind in ("murder", "banish") and m.day is not None:
            for player in m.about[:1]:
                gone.setdefault(player, (m, "murdered" if m.kind == "murder" else "banished"))
    plans: list[ConflictPlan] = []
    for m in sorted(memories, key=lambda m: m.order):
        if m.kind != "say" or m.speaker is None:
            continue
        for subject, predicate, obj, polarity, round_ in m.claims:
            if predicate != VOTED_FOR or not polarity or round_ is None or obj not in gone:
                continue
            left, how = gone[obj]
            assert left.day is not None
            before_ballot = left.day <= round_ if how == "murdered" else left.day < round_
            if not before_ballot or left.order > m.order:
                continue
            reason = (f"{m.speaker} said {subject} voted_for {obj} in round {round_} (phase {m.phase}), but {obj} "
                      f"was {how} on day {left.day} (phase {left.phase})")
            plans.append(_plan(game, owner, MINOR, OPEN, KEEP_BOTH, obj, VOTED_FOR, left, m,
                               f"a vote for a player already gone: {reason}", speaker=m.speaker, round_=round_,
                               text=words.gone_vote(owner, m.speaker, subject, obj, round_, how, left.day)))
    return plans


# -- votes --------------------------------------------------------------------------------------------------------

def vote_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], players: frozenset[str],
                   within: int = 1) -> list[ConflictPlan]:
    """Lies caught and conflicting accounts of one vote (see the module docstring).

    players : the game's player names (the values a ``voted_for`` claim ranges over); within : int, phases within
    which two accounts of one round stay open ("within one phase")
    """
    seen: dict[tuple[str, int], list[tuple[OwnerMemory, str]]] = {}
    said: dict[tuple[str, int], dict[str, list[tuple[str, bool]]]] = {}
    by_uid = {m.uid: m for m in memories}
    for m in memories:
        cast = m.witnessed_vote
        if cast is not None:
            seen.setdefault((cast[0], cast[2]), []).append((m, cast[1]))
        if m.speaker is None or m.speaker == owner:
            continue  # a summary (whose words?) or the owner's own words
        for subject, predicate, obj, polarity, round_ in m.claims:
            if predicate != VOTED_FOR or round_ is None or (cast is not None and (subject, obj, round_) == cast
                                                             and polarity):
                continue
            said.setdefault((subject, round_), {}).setdefault(m.uid, []).append((obj, polarity))
    plans: list[ConflictPlan] = []
    for (subject, round_), by_memory in sorted(said.items()):
        witnessed = sorted(seen.get((subject, round_), []), key=lambda x: x[0].order)
        if witnessed:
            targets = {t for _, t in witnessed}
            vote, target = witnessed[0]
            for uid, constraints in sorted(by_memory.items(), key=lambda x: by_uid[x[0]].order):
                if allowed(constraints, players) & targets:
                    continue
                statement = by_uid[uid]
                before = statement.order < vote.order
                a, b = (statement, vote) if before else (vote, statement)
                claimed, polarity = constraints[0]
                text = words.lie(owner, statement.speaker or "someone", subject, claimed, polarity, round_, target,
                                 before)
                reason = (f"{statement.speaker} said {subject} voted_for {describe(constraints)} in round {round_} "
                          f"(phase {statement.phase}), but {subject} voted for {target} (phase {vote.phase})")
                plans.append(_plan(game, owner, LIE, OPEN, None, subject, VOTED_FOR, a, b, f"a lie caught: {reason}",
                                   speaker=statement.speaker, round_=round_, text=text))
            continue
        if subject == owner:
            continue  # accounts of the owner's own vote: the owner knows it
        allowed_by = {uid: allowed(c, players) for uid, c in by_memory.items()}
        order = sorted((uid for uid in by_memory if allowed_by[uid]), key=lambda u: by_uid[u].order)
        conflicting = {(x, y): not (allowed_by[x] & allowed_by[y]) for i, x in enumerate(order) for y in order[i + 1:]}
        for ua, ub in pairs(order, conflicting):
            a, b = by_uid[ua], by_uid[ub]
            text = words.accounts(owner, subject, round_, (a.speaker, *by_memory[ua][0]),
                                  (b.speaker, *by_memory[ub][0]))
            desc = (f"{subject} voted_for in round {round_}: {describe(by_memory[ua])} (phase {a.phase}) vs "
                    f"{describe(by_memory[ub])} (phase {b.phase})")
            if b.phase - a.phase <= within:
                plans.append(_plan(game, owner, TEMPORAL, OPEN, None, subject, VOTED_FOR, a, b,
                                   f"conflicting accounts within {within} phase: {desc}", round_=round_, text=text))
            else:
                plans.append(_plan(game, owner, TEMPORAL, RESOLVED, KEEP_B, subject, VOTED_FOR, a, b,
                                   f"accounts changed over time, the most recent is preferred: {desc}",
                                   round_=round_, text=text))
    return plans


# -- stances ------------------------------------------------------------------------------------------------------

def stances_of(memory: OwnerMemory, traitor_roles: Iterable[str],
               sides: Sides | None = None) -> dict[tuple[str, str], bool]:
    """{(speaker, player): positive?} of one memory: its ``suspects``/``trusts`` claims, and the role claims of its
    speaker about another player (a traitor-side role: negative; "faithful" or another role: positive; "not a
    traitor": positive; "not faithful": negative), side claims alike ("Diana is evil": negative; "Diana is good":
    positive). A speaker who says both of one player takes no side."""
    traitor = {norm(r) for r in traitor_roles} | {"traitor"}
    if sides is not None:
        traitor.add(sides.hidden)
    signs: dict[tuple[str, str], set[bool]] = {}
    for subject, predicate, obj, polarity, _ in memory.claims:
        if predicate in STANCE_PREDICATES:
            key, sign = (subject, obj), stance_sign(predicate, polarity)
        elif predicate in ROLE_PREDICATES and memory.speaker is not None and subject != memory.speaker:
            role = norm(obj)
            if role in traitor:
                sign = not polarity
            elif polarity or role == "faithful" or (sides is not None and role == sides.other):
                sign = polarity
            else:
                continue  # "X is not the seer" takes no side
            key = (memory.speaker, subject)
        else:
            continue
        if key[0] != key[1]:
            signs.setdefault(key, set()).add(sign)
    return {k: next(iter(v)) for k, v in signs.items() if len(v) == 1}


def stance_conflicts(game: str, owner: str, memories: Sequence[OwnerMemory], traitor_roles: Iterable[str],
                     eliminated: Mapping[str, int] | None = None,
                     allies: frozenset[str] = frozenset(), sides: Sides | None = None) -> list[ConflictPlan]:
    """Stance reversals and conflicting reports (see the module docstring).

    traitor_roles : the game's traitor-side roles (role claims read as stances); eliminated : {player: phase of
    their elimination} (stances on a player said from then on are left out); allies : the owner's fellow traitors
    when the owner is one: what they say to the owner is the traitors' planning ("Gwendolyn's a faithful leader,
    she's next"), known as such by the owner, so it gives no stance; sides : the game's sides (side claims read
    as role claims)
    """
    gone = eliminated or {}
    held: dict[tuple[str, str], list[tuple[OwnerMemory, bool]]] = {}
    for m in memories:
        if m.speaker in allies:
            continue
        for (speaker, player), sign in stances_of(m, traitor_roles, sides).items():
            if speaker == owner or (player in gone and gone[player] <= m.phase):
                continue
            held.setdefault((speaker, player), []).append((m, sign))
    return _reversals(game, owner, held) + _reports(game, owner, held)


def _reversals(game: str, owner: str, held: Mapping[tuple[str, str], list[tuple[OwnerMemory, bool]]]
               ) -> list[ConflictPlan]:
    plans: list[ConflictPlan] = []
    for (speaker, player), said in sorted(held.items()):
        by_phase: dict[int, list[tuple[OwnerMemory, bool]]] = {}
        for m, sign in sorted(said, key=lambda x: x[0].order):
            by_phase.setdefault(m.phase, []).append((m, sign))
        sides = [(items[0][1], items[0][0], items[-1][0]) for _, items in sorted(by_phase.items())
                 if len({s for _, s in items}) == 1]
        for (sign_a, _, last_a), (sign_b, first_b, _) in zip(sides, sides[1:]):
            if sign_a == sign_b:
                continue
            text = words.reversal(owner, speaker, player, sign_a, last_a.day, first_b.day)
            reason = (f"{speaker} {'trusted' if sign_a else 'suspected'} {player} (phase {last_a.phase}), then "
                      f"{'trusted' if sign_b else 'suspected'} {player} (phase {first_b.phase}): both kept")
            plans.append(_plan(game, owner, PREFERENCE, OPEN, KEEP_BOTH, player, STANCE, last_a, first_b,
                               f"a stance reversed: {reason}", speaker=speaker, text=text))
    return plans


def _reports(game: str, owner: str, held: Mapping[tuple[str, str], list[tuple[OwnerMemory, bool]]]
             ) -> list[ConflictPlan]:
    told: dict[tuple[str, int | None], list[tuple[OwnerMemory, str, bool]]] = {}
    for (speaker, player), said in held.items():
        if player == owner:
            continue
        for m, sign in said:
            if m.source == "direct_told" and m.speaker == speaker:
                told.setdefault((player, m.day), []).append((m, speaker, sign))
    plans: list[ConflictPlan] = []
    for (player, day), items in sorted(told.items(), key=lambda x: (x[0][0], x[0][1] if x[0][1] is not None else -1)):
        items.sort(key=lambda x: x[0].order)
        info = {m.uid: (m, speaker, sign) for m, speaker, sign in items}
        order = [m.uid for m, _, _ in items]
        conflicting = {(x, y): info[x][1] != info[y][1] and info[x][2] != info[y][2]
                       for i, x in enumerate(order) for y in order[i + 1:]}
        for ua, ub in pairs(order, conflicting):
            (a, teller_a, sign_a), (b, teller_b, sign_b) = info[ua], info[ub]
            text = words.report(owner, player, (teller_a, sign_a), (teller_b, sign_b), day)
            reason = (f"{teller_a} told the owner they {'trust' if sign_a else 'suspect'} {player} (phase {a.phase}), "
                      f"{teller_b} that they {'trust' if sign_b else 'suspect'} {player} (phase {b.phase}): both kept")
            plans.append(_plan(game, owner, PREFERENCE, OPEN, KEEP_BOTH, player, STANCE, a, b,
                               f"conflicting reports: {reason}", text=text))
    return plans
