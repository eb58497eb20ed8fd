"""Which memories contradict each other and how a known truth settles it (docs/jobs.md#contradictions): the pure rules.

Claims are written as (subject, predicate, object, polarity) or with a fifth item, the ballot round of a vote."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.claims.conflicts import (
    ConflictPlan,
    OwnerMemory,
    Sides,
    Truth,
    claim_conflicts,
    detect,
    polarity_flip,
    resolve,
    role_universe,
    text_conflicts,
    text_role_stance,
)
from graphmem.store.keys import conflict_uid

ROLES = role_universe(["faithful", "traitor"])
PLAYERS = frozenset({"Ava", "Ben", "Cara", "Dan", "Eve"})


Row = tuple[str, str, str, bool] | tuple[str, str, str, bool, int | None]


def mem(uid: str, phase: int, *claims: Row, text: str = "", about: tuple[str, ...] = (),
        vector: tuple[float, ...] | None = None, event: str | None = None, kind: str = "say",
        speaker: str | None = "Ava", source: str = "group_discuss", day: int | None = None, line: int = 0,
        ballot: str | None = None) -> OwnerMemory:
    rows = tuple((c[0], c[1], c[2], c[3], c[4] if len(c) == 5 else None) for c in claims)
    return OwnerMemory(uid=uid, event=event or uid, phase=phase, text=text or uid, claims=rows, about=about,
                       embedding=np.asarray(vector, dtype=np.float64) if vector else None, kind=kind,
                       speaker=speaker, source=source, day=phase if day is None else day, line=line, ballot=ballot)


def conflicts(*memories: OwnerMemory, owner: str = "Cara") -> list[ConflictPlan]:
    return claim_conflicts("g", owner, memories, ROLES, PLAYERS)


def role(subject: str, obj: str, polarity: bool = True) -> tuple[str, str, str, bool]:
    return (subject, "role", obj, polarity)


@pytest.mark.parametrize(("a", "b", "conflict"), [
    (role("Dan", "traitor"), role("Dan", "faithful"), True),            # different objects
    (role("Dan", "traitor"), role("Dan", "traitor", False), True),      # opposite polarity
    (role("Dan", "faithful"), role("Dan", "traitor", False), False),    # faithful == not a traitor
    (role("Dan", "traitor"), role("Dan", "faithful", False), False),    # traitor == not faithful
    (role("Dan", "traitor", False), role("Dan", "faithful", False), True),  # nothing is left
    (role("Dan", "Traitors"), role("Dan", "traitor"), False),           # role words are normalised
    (role("Dan", "traitor"), role("Eve", "faithful"), False),           # different subjects
    (role("Dan", "traitor"), ("Dan", "trusts", "Eve", True), False),    # not a functional predicate
])
def test_role_claims(a: tuple[str, str, str, bool], b: tuple[str, str, str, bool], conflict: bool) -> None:
    found = conflicts(mem("m1", 2, a), mem("m2", 2, b))
    assert (len(found) == 1) is conflict
    if conflict:
        (c,) = found
        assert (c.kind, c.status, c.resolution, c.subject, c.predicate) == ("identity", "open", None, "Dan", "role")
        assert (c.a, c.b, c.detected_phase) == ("m1", "m2", 2)
        assert c.uid == conflict_uid("g", "Cara", ["m2", "m1"])


def test_a_game_with_its_own_roles_keeps_negations_compatible() -> None:
    werewolf = role_universe(["villager", "werewolf", "seer"])
    found = claim_conflicts("g", "Cara", [mem("m1", 1, role("Dan", "seer", False)),
                                          mem("m2", 1, role("Dan", "werewolf", False))], werewolf, PLAYERS)
    assert found == []  # Dan can still be a villager
    found = claim_conflicts("g", "Cara", [mem("m1", 1, role("Dan", "seer")), mem("m2", 1, role("Dan", "villager"))],
                            werewolf, PLAYERS)
    assert [c.kind for c in found] == ["identity"]


def said_vote(target: str, pol: bool = True, round_: int = 2, subject: str = "Ben") -> Row:
    return (subject, "voted_for", target, pol, round_)


def cast(uid: str, phase: int, voter: str, target: str, day: int, line: int = 0) -> OwnerMemory:
    """The owner's memory of seeing ``voter`` vote to banish ``target`` on ``day``."""
    return mem(uid, phase, (voter, "voted_for", target, True, day), kind="vote", speaker=voter, source="first_hand",
               day=day, line=line, ballot="banish")


def test_two_accounts_of_one_round_are_temporal_preferring_the_most_recent_and_flagged_within_one_phase() -> None:
    late = conflicts(mem("m1", 2, said_vote("Dan")), mem("m2", 8, said_vote("Eve"), speaker="Eve"))
    assert [(c.kind, c.status, c.resolution, c.a, c.b, c.round) for c in late] == [
        ("temporal", "resolved", "keep_b", "m1", "m2", 2)]
    near = conflicts(mem("m1", 7, said_vote("Dan")), mem("m2", 8, said_vote("Eve")))
    assert [(c.kind, c.status, c.resolution) for c in near] == [("temporal", "open", None)]
    assert near[0].text == "Ava gave two accounts of Ben's vote on day 2: first Ben voted for Dan, then Ben voted for Eve."
    same = conflicts(mem("m1", 7, said_vote("Dan")), mem("m2", 7, said_vote("Dan", False), speaker="Eve"))
    assert [(c.kind, c.status) for c in same] == [("temporal", "open")]
    assert same[0].text == ("You heard two accounts of Ben's vote on day 2: Ava said Ben voted for Dan, "
                            "Eve said Ben did not vote for Dan.")
    assert conflicts(mem("m1", 7, said_vote("Dan")), mem("m2", 7, said_vote("Eve", False))) == []


def test_votes_of_different_rounds_never_conflict() -> None:
    assert conflicts(mem("m1", 2, said_vote("Dan", round_=1)), mem("m2", 8, said_vote("Eve", round_=3))) == []
    assert conflicts(cast("v1", 2, "Ben", "Dan", 1), cast("v2", 8, "Ben", "Eve", 3)) == []
    assert conflicts(cast("v1", 2, "Ben", "Dan", 1), mem("s", 8, said_vote("Dan", round_=1), speaker="Ben"),
                     cast("v2", 8, "Ben", "Eve", 3, line=5)) == []  # a true account of day 1, then another vote
    assert conflicts(mem("m1", 2, ("Ben", "voted_for", "Dan", True)), mem("m2", 2, ("Ben", "voted_for", "Eve", True))
                     ) == []  # no round: nothing to compare


def test_a_statement_about_a_vote_the_owner_saw_cast_otherwise_is_a_lie_caught() -> None:
    seen = cast("v", 4, "Ben", "Dan", 2, line=10)
    (lie,) = conflicts(seen, mem("s", 5, said_vote("Eve"), speaker="Ben", line=20))
    assert (lie.kind, lie.status, lie.resolution, lie.subject, lie.predicate, lie.speaker, lie.round) == \
        ("lie", "open", None, "Ben", "voted_for", "Ben", 2)
    assert (lie.a, lie.b) == ("v", "s") and lie.losers == ()
    assert lie.text == "Ben claimed to have voted for Eve on day 2, but you saw Ben vote for Dan."
    (announced,) = conflicts(mem("s", 4, said_vote("Eve"), speaker="Ben", line=5), seen)
    assert (announced.a, announced.b) == ("s", "v")
    assert announced.text == "Ben announced a vote for Eve on day 2, but you saw Ben vote for Dan."
    (denied,) = conflicts(seen, mem("s", 5, said_vote("Dan", False), speaker="Ben", line=20))
    assert denied.text == "Ben denied voting for Dan on day 2, but you saw Ben vote for Dan."
    (other,) = conflicts(seen, mem("s", 5, said_vote("Eve"), speaker="Ava", line=20))
    assert (other.speaker, other.text) == ("Ava", "Ava said Ben voted for Eve on day 2, but you saw Ben vote for Dan.")
    assert conflicts(seen, mem("s", 5, said_vote("Dan"), speaker="Ben", line=20)) == []  # the truth
    assert conflicts(seen, mem("s", 5, said_vote("Eve", False), speaker="Ben", line=20)) == []  # also true
    assert conflicts(seen, mem("s", 5, said_vote("Eve"), speaker="Cara", line=20)) == []  # the owner's own words


def test_a_lie_about_the_owners_own_vote_is_caught_by_the_vote_they_cast() -> None:
    mine = cast("v", 4, "Cara", "Dan", 2, line=10)
    (lie,) = conflicts(mine, mem("s", 5, said_vote("Eve", subject="Cara"), speaker="Ben", line=20))
    assert (lie.kind, lie.subject, lie.speaker) == ("lie", "Cara", "Ben")
    assert lie.text == "Ben said you voted for Eve on day 2, but you voted for Dan."
    # without the vote to compare, accounts of the owner's vote are not a conflict: the owner knows it
    assert conflicts(mem("a", 5, said_vote("Eve", subject="Cara")), mem("b", 5, said_vote("Dan", subject="Cara"))) \
        == []


def test_role_claims_about_the_owner_are_not_conflicts_in_their_memory() -> None:
    assert conflicts(mem("m1", 1, role("Cara", "traitor")), mem("m2", 1, role("Cara", "faithful"))) == []
    assert len(conflicts(mem("m1", 1, role("Cara", "traitor")), mem("m2", 1, role("Cara", "faithful")),
                         owner="Dan")) == 1


def test_every_conflicting_memory_is_in_a_conflict_with_fewer_conflicts_than_memories() -> None:
    says = [mem(f"t{i}", i, role("Dan", "traitor")) for i in range(5)] + \
           [mem(f"f{i}", i, role("Dan", "faithful")) for i in range(5)]
    found = conflicts(*says)
    involved = {c.a for c in found} | {c.b for c in found}
    assert involved == {m.uid for m in says}
    assert len(found) < len(says)
    for c in found:
        assert c.uid == conflict_uid("g", "Cara", [c.a, c.b])
        assert (c.a.startswith("t")) != (c.b.startswith("t"))  # each pairs a traitor claim with a faithful one
    assert conflicts(*says) == found  # deterministic


def test_self_contradictory_memories_are_skipped() -> None:
    both = mem("m1", 1, role("Dan", "traitor"), role("Dan", "faithful"))
    assert conflicts(both, mem("m2", 1, role("Dan", "traitor"))) == []


@pytest.mark.parametrize(("text", "stance"), [
    ("Dan is a traitor.", ("traitor", True)),
    ("I think Dan might be one of the traitors, honestly.", ("traitor", True)),
    ("Dan wasn't a traitor, we all saw it.", ("traitor", False)),
    ("Dan is definitely not a traitor.", ("traitor", False)),
    ("Dan turned out to be a loyal Faithful.", ("faithful", True)),
    ("We need to find the traitors. Dan has been quiet.", None),  # no role predicated of Dan
    ("Dan is a traitor. Dan is faithful.", None),  # ambiguous: takes no side
    ("Danny is a traitor.", None),  # whole names only
])
def test_text_role_stance(text: str, stance: tuple[str, bool] | None) -> None:
    assert text_role_stance(text, "Dan") == stance


def test_polarity_flip_needs_the_same_statement_with_opposite_polarity() -> None:
    assert polarity_flip(["I trust Dan completely."], ["I don't trust Dan completely."]) is not None
    assert polarity_flip(["Dan has been quiet all day."], ["Dan has not been quiet all day."]) is not None
    assert polarity_flip(["Dan has been quiet."], ["Eve said nothing about the murder at breakfast."]) is None
    assert polarity_flip(["Have you noticed anything odd about Dan?"], ["I haven't noticed anything odd about Dan."]) \
        is None  # questions assert nothing
    assert polarity_flip(["See if Dan seems defensive."], ["See if Dan seems defensive or not."]) is None


def test_text_conflicts_between_similar_memories() -> None:
    v = (1.0, 0.0)
    a = mem("a", 1, text="I think Dan is a traitor, he lied to me.", about=("Dan",), vector=v)
    b = mem("b", 2, text="Dan is not a traitor, he never lied to me.", about=("Dan",), vector=(0.95, 0.05))
    (c,) = text_conflicts("g", "Cara", [a, b], 0.75, ROLES)
    assert (c.kind, c.status, c.subject, c.predicate, c.a, c.b) == ("identity", "open", "Dan", "role", "a", "b")
    trust = [mem("a", 1, text="I trust Dan with my life.", about=("Dan",), vector=v),
             mem("b", 3, text="I don't trust Dan with my life.", about=("Dan",), vector=v)]
    (c,) = text_conflicts("g", "Cara", trust, 0.75, ROLES)
    assert (c.kind, c.status, c.resolution) == ("preference", "resolved", "keep_both")
    minor = [mem("a", 1, text="Dan was at breakfast early.", about=("Dan",), vector=v),
             mem("b", 3, text="Dan was not at breakfast early.", about=("Dan",), vector=v)]
    assert [c.kind for c in text_conflicts("g", "Cara", minor, 0.75, ROLES)] == ["minor"]
    far = [minor[0], mem("b", 3, text="Dan was not at breakfast early.", about=("Dan",), vector=(0.0, 1.0))]
    assert text_conflicts("g", "Cara", far, 0.75, ROLES) == []  # not similar enough
    unrelated = [minor[0], mem("b", 3, text="Dan was not at breakfast early.", about=("Eve",), vector=v)]
    assert text_conflicts("g", "Cara", unrelated, 0.75, ROLES) == []  # no common subject
    same_event = [mem("a", 1, text="Dan is a traitor.", about=("Dan",), vector=v, event="e"),
                  mem("b", 1, text="Dan is not a traitor.", about=("Dan",), vector=v, event="e")]
    assert text_conflicts("g", "Cara", same_event, 0.75, ROLES) == []


def test_detect_does_not_count_a_claim_conflict_twice() -> None:
    v = (1.0, 0.0)
    a = mem("a", 1, role("Dan", "traitor"), text="Dan is a traitor.", about=("Dan",), vector=v)
    b = mem("b", 1, role("Dan", "traitor", False), text="Dan is not a traitor.", about=("Dan",), vector=v)
    assert len(detect("g", "Cara", [a, b], ROLES, PLAYERS, 0.75)) == 1


def identity(a: str, b: str) -> ConflictPlan:
    return ConflictPlan(conflict_uid("g", "Cara", [a, b]), "identity", "open", None, "Dan", "role", a, b, 2, None,
                        "test")


def test_the_revealed_truth_keeps_the_right_memory_and_tombstones_the_wrong_one() -> None:
    memories = {"a": mem("a", 2, role("Dan", "traitor")), "b": mem("b", 2, role("Dan", "faithful"))}
    reveal = Truth("Dan", "faithful", 4, True, "r")
    assert resolve(identity("a", "b"), memories, [reveal], ROLES) == (
        "keep_b", 4, "Dan was revealed as a faithful (phase 4)", ("a",))
    traitor = resolve(identity("a", "b"), memories, [Truth("Dan", "Traitor", 4, True, "r")], ROLES)
    assert traitor is not None and traitor[:2] == ("keep_a", 4)
    assert resolve(identity("a", "b"), memories, [Truth("Eve", "faithful", 4, True, "r")], ROLES) is None
    seer = role_universe(["faithful", "traitor", "seer"])
    settled = resolve(identity("a", "b"), memories, [Truth("Dan", "seer", 4, True, "r")], seer)
    assert settled is not None and settled[0] == "correct" and settled[3] == ("a", "b")


def test_a_reveal_only_settles_what_came_before_it_unless_the_player_is_out() -> None:
    memories = {"a": mem("a", 2, role("Dan", "traitor")), "b": mem("b", 6, role("Dan", "faithful"))}
    early = Truth("Dan", "faithful", 4, False, "r")  # Dan still plays at phase 4: his role may still change
    assert resolve(identity("a", "b"), memories, [early], ROLES) is None
    out = Truth("Dan", "faithful", 4, True, "r")  # Dan was banished at phase 4: his role is final
    assert resolve(identity("a", "b"), memories, [out], ROLES) == ("keep_b", 6, "Dan was revealed as a faithful "
                                                                               "(phase 4)", ("a",))
    later = Truth("Dan", "faithful", 6, False, "r")
    assert resolve(identity("a", "b"), memories, [early, later], ROLES) is not None


def test_text_stances_settle_text_conflicts_too() -> None:
    memories = {"a": mem("a", 1, text="Dan might be a traitor."), "b": mem("b", 2, text="Dan is not a traitor.")}
    settled = resolve(identity("a", "b"), memories, [Truth("Dan", "traitor", 3, True, "r")], ROLES)
    assert settled is not None and settled[0] == "keep_a" and settled[3] == ("b",)


def stance(speaker: str, player: str, trust: bool, polarity: bool = True) -> Row:
    return (speaker, "trusts" if trust else "suspects", player, polarity)


def stances(*memories: OwnerMemory, owner: str = "Cara", **kw: object) -> list[ConflictPlan]:
    found = detect("g", owner, memories, ROLES, PLAYERS, 0.75, **kw)  # type: ignore[arg-type]
    return [c for c in found if c.predicate == "stance"]


def test_a_speakers_stance_reversing_between_phases_is_one_preference_conflict_kept_both() -> None:
    (c,) = stances(mem("a", 1, stance("Ava", "Dan", True), day=1), mem("b", 6, stance("Ava", "Dan", False), day=3))
    assert (c.kind, c.status, c.resolution, c.subject, c.predicate, c.speaker, c.a, c.b) == \
        ("preference", "open", "keep_both", "Dan", "stance", "Ava", "a", "b")
    assert c.losers == () and c.text == "Ava defended Dan on day 1 and accused Dan on day 3."
    # "I don't trust Dan" is as negative as "I suspect Dan"; several statements on one side make one reversal
    (c,) = stances(mem("a", 1, stance("Ava", "Dan", False)), mem("a2", 2, stance("Ava", "Dan", False)),
                   mem("b", 3, stance("Ava", "Dan", True, False)), mem("c", 4, stance("Ava", "Dan", False, False)))
    assert (c.a, c.b) == ("b", "c") and c.text == "Ava accused Dan on day 3 and defended Dan on day 4."
    # about the owner: "Ava defended you ..."
    (c,) = stances(mem("a", 1, stance("Ava", "Cara", True)), mem("b", 2, stance("Ava", "Cara", False)))
    assert c.text == "Ava defended you on day 1 and accused you on day 2."
    # a flip-flop is two reversals; one phase saying both takes no side
    assert len(stances(mem("a", 1, stance("Ava", "Dan", True)), mem("b", 2, stance("Ava", "Dan", False)),
                       mem("c", 3, stance("Ava", "Dan", True)))) == 2
    assert stances(mem("a", 1, stance("Ava", "Dan", True)), mem("b", 1, stance("Ava", "Dan", False), line=2)) == []


def test_what_is_not_a_stance_reversal() -> None:
    same_side = [mem("a", 1, stance("Ava", "Dan", False)), mem("b", 3, stance("Ava", "Dan", True, False))]
    assert stances(*same_side) == []  # suspects, then does not trust: the same side
    own = [mem("a", 1, stance("Cara", "Dan", True), speaker="Cara"), mem("b", 3, stance("Cara", "Dan", False),
                                                                          speaker="Cara")]
    assert stances(*own) == []  # the owner's own change of mind
    two = [mem("a", 1, stance("Ava", "Dan", True)), mem("b", 3, stance("Ben", "Dan", False), speaker="Ben")]
    assert stances(*two) == []  # two speakers at the round table disagree: a debate, not a reversal
    gone = [mem("a", 1, stance("Ava", "Dan", False)), mem("b", 6, stance("Ava", "Dan", True))]
    assert stances(*gone, eliminated={"Dan": 4}) == []  # said of Dan once he had left the game
    assert len(stances(*gone, eliminated={"Dan": 7})) == 1
    allies = [mem("a", 1, stance("Ava", "Dan", False)), mem("b", 6, stance("Ava", "Dan", True))]
    assert stances(*allies, owner="Ben", allies=frozenset({"Ava"})) == []  # a fellow traitor's planning


def test_role_claims_count_as_stances_of_their_speaker() -> None:
    (c,) = stances(mem("a", 1, stance("Ava", "Dan", True)), mem("b", 3, role("Dan", "traitor")))
    assert c.text == "Ava defended Dan on day 1 and accused Dan on day 3."
    # "not a traitor" / "not faithful": the roles already conflict, one identity conflict holds the pair
    both = detect("g", "Cara", [mem("a", 1, role("Dan", "traitor", False)), mem("b", 3, role("Dan", "faithful", False))],
                  ROLES, PLAYERS, 0.75)
    assert [c.kind for c in both] == ["identity"]
    assert stances(mem("a", 1, role("Ava", "faithful")), mem("b", 3, stance("Ava", "Ava", False))) == []  # self


def test_two_tellers_telling_the_owner_opposite_stances_on_one_day_are_a_conflicting_report() -> None:
    told = [mem("a", 2, stance("Ava", "Dan", True), source="direct_told", day=1),
            mem("b", 3, stance("Ben", "Dan", False), speaker="Ben", source="direct_told", day=1)]
    (c,) = stances(*told)
    assert (c.kind, c.status, c.resolution, c.subject, c.speaker, c.a, c.b) == \
        ("preference", "open", "keep_both", "Dan", None, "a", "b")
    assert c.text == "On day 1 Ava told you Dan can be trusted, but Ben told you Dan is suspicious."
    other_day = [told[0], mem("b", 5, stance("Ben", "Dan", False), speaker="Ben", source="direct_told", day=2)]
    assert stances(*other_day) == []
    at_the_table = [told[0], mem("b", 3, stance("Ben", "Dan", False), speaker="Ben", day=1)]
    assert stances(*at_the_table) == []  # a debate at the round table is not a report to the owner
    about_owner = [mem("a", 2, stance("Ava", "Cara", True), source="direct_told", day=1),
                   mem("b", 3, stance("Ben", "Cara", False), speaker="Ben", source="direct_told", day=1)]
    assert stances(*about_owner) == []


def test_role_conflicts_say_who_said_what() -> None:
    (c,) = conflicts(mem("a", 1, role("Dan", "traitor"), source="direct_told"),
                     mem("b", 2, role("Dan", "traitor", False), speaker="Ben"))
    assert c.text == "Ava told you Dan is a traitor, but Ben said at the round table Dan is not a traitor."
    (c,) = conflicts(mem("a", 1, role("Ava", "traitor"), source="direct_told"),
                     mem("b", 2, role("Ava", "faithful"), speaker="Ava", source="overheard"))
    assert c.text == "Ava told you they are a traitor, and later that they are faithful."


# -- sides (Avalon: "Diana is evil", "I am good"; the header's side_names) -------------------------------------------

AVALON = role_universe(["Merlin", "Percival", "loyal servant", "assassin", "Morgana"])
SIDES = Sides.of(("evil", "good"), ("assassin", "Morgana"))


def side(subject: str, obj: str, polarity: bool = True) -> Row:
    return (subject, "side", obj, polarity)


@pytest.mark.parametrize(("a", "b", "conflict"), [
    (side("Dan", "evil"), role("Dan", "Merlin"), True),             # Merlin is good
    (side("Dan", "evil"), side("Dan", "good"), True),
    (side("Dan", "evil"), role("Dan", "Morgana"), False),           # Morgana is evil
    (side("Dan", "good", False), role("Dan", "assassin"), False),   # not good == evil
    (side("Dan", "good"), role("Dan", "Morgana", False), False),    # good leaves Merlin, Percival, servants
    (side("Dan", "evil"), side("Eve", "good"), False),              # different players
])
def test_side_claims_are_role_claims_that_admit_every_role_of_their_side(a: Row, b: Row, conflict: bool) -> None:
    found = claim_conflicts("g", "Cara", [mem("m1", 2, a), mem("m2", 3, b)], AVALON, PLAYERS, sides=SIDES)
    assert [(c.kind, c.subject) for c in found] == ([("identity", "Dan")] if conflict else [])


def test_a_side_reveal_settles_an_identity_conflict() -> None:
    memories = {m.uid: m for m in (mem("a", 2, side("Dan", "good")), mem("b", 3, role("Dan", "Morgana", False),
                                                                            side("Dan", "evil")))}
    plan = ConflictPlan("c", "identity", "open", None, "Dan", "role", "a", "b", 3, None, "")
    settled = resolve(plan, memories, [Truth("Dan", "evil", 4, False, "r")], AVALON, SIDES)
    assert settled is not None and settled[0] == "keep_b" and settled[3] == ("a",)


def test_a_claim_of_ones_own_side_that_a_held_reveal_contradicts_is_a_lie_caught() -> None:
    # Merlin (Cara) was shown that Eve is evil; Eve says "I know I'm good" twice, Dan says it once (Dan is good)
    reveal = mem("r", 0, speaker=None, kind="reveal", source="first_hand", day=0)
    said = [mem("m1", 2, side("Eve", "good"), speaker="Eve", day=1), mem("m2", 5, side("Eve", "good"), speaker="Eve"),
            mem("m3", 5, side("Dan", "good"), speaker="Dan")]
    truths = [Truth("Eve", "evil", 0, False, "r"), Truth("Dan", "Merlin", 0, False, "r")]
    found = detect("g", "Cara", [reveal, *said], AVALON, PLAYERS, 0.75, sides=SIDES, truths=truths)
    lies = [c for c in found if c.kind == "lie"]
    assert [(c.a, c.b, c.speaker, c.status) for c in lies] == [("r", "m1", "Eve", "open"), ("r", "m2", "Eve", "open")]
    assert lies[0].text == "Eve said on day 1 that they are good, but you know Eve is evil."
    # an evil owner knows their fellow's bluff: no lie
    assert not [c for c in detect("g", "Ava", [reveal, *said], AVALON, PLAYERS, 0.75, sides=SIDES, truths=truths,
                                  allies=frozenset({"Eve"})) if c.kind == "lie"]
    # The Traitors (no sides): a faithful claim of a revealed traitor is a lie too
    traitor = [mem("t", 1, role("Eve", "faithful"), speaker="Eve")]
    found = detect("g", "Cara", [reveal, *traitor], ROLES, PLAYERS, 0.75, truths=[Truth("Eve", "traitor", 3, True, "r")])
    assert [c.kind for c in found] == ["lie"]


def test_side_claims_about_others_are_stances_of_their_speaker() -> None:
    from graphmem.claims.conflict_rules import stances_of
    m = mem("m", 1, side("Dan", "evil"), side("Eve", "good"), side("Ben", "good", False), speaker="Ava")
    assert stances_of(m, ("assassin", "Morgana"), SIDES) == {("Ava", "Dan"): False, ("Ava", "Eve"): True,
                                                              ("Ava", "Ben"): False}


def test_two_quests_outcomes_are_no_text_conflict() -> None:
    # on the real Avalon games every player held this pair as a "minor" conflict before outcomes were left out
    a = mem("a", 3, text="Quest 1 (Alice, Charlie) succeeded with no fail card.", about=("Alice", "Charlie"),
            vector=(1.0, 0.0), kind="outcome", speaker=None)
    b = mem("b", 6, text="Quest 2 (Alice, Charlie, Bob) failed with 1 fail card.", about=("Alice", "Charlie", "Bob"),
            vector=(0.95, 0.05), kind="outcome", speaker=None)
    assert text_conflicts("g", "Dan", [a, b], 0.75, ROLES) == []
    said = [mem(x.uid, x.phase, text=x.text, about=x.about, vector=(1.0, 0.0) if x.uid == "a" else (0.95, 0.05),
                kind="say") for x in (a, b)]
    assert [c.kind for c in text_conflicts("g", "Dan", said, 0.75, ROLES)] == ["minor"]  # the same words said


# -- Werewolf: what the Seer was shown, claimed saves, votes for players already gone -----------------------------

WEREWOLF = role_universe(["werewolf", "villager", "seer", "doctor"])
WOLF_SIDES = Sides.of(["werewolves", "villagers"], ["werewolf"])


def werewolf(owner: str, *memories: OwnerMemory, truths: tuple[Truth, ...] = (),
             allies: frozenset[str] = frozenset(), hidden: bool = False) -> list[ConflictPlan]:
    return detect("g", owner, memories, WEREWOLF, PLAYERS, 0.75, traitor_roles=("werewolf",), sides=WOLF_SIDES,
                  truths=truths, allies=allies, hidden=hidden)


def test_a_role_claim_against_what_the_seer_was_shown_is_shown_to_the_seer() -> None:
    # Cara, the Seer, unmasked Dan (a werewolf) on night 1; on day 1 Ava vouches for Dan, Eve (a villager) does not
    unmask = mem("r", 1, speaker=None, kind="reveal", source="first_hand", day=1)
    truth = (Truth("Dan", "werewolf", 1, False, "r"),)
    said = [mem("m1", 2, role("Dan", "villager"), speaker="Ava", day=1),
            mem("m2", 2, side("Dan", "villagers"), speaker="Ben", day=1, line=1),
            mem("m3", 2, role("Dan", "werewolf"), speaker="Eve", day=1, line=2)]
    everything = werewolf("Cara", unmask, *said, truths=truth)
    assert [(c.kind, c.a, c.b) for c in everything if c.a != "r"] == [("identity", "m1", "m3"),
                                                                           ("identity", "m2", "m3")]  # vs Eve
    found = [c for c in everything if c.a == "r"]
    assert [(c.kind, c.status, c.resolution, c.a, c.b, c.speaker) for c in found] == [
        ("minor", "open", "keep_both", "r", "m1", "Ava"), ("minor", "open", "keep_both", "r", "m2", "Ben")]
    assert found[0].text == "Ava said on day 1 that Dan is a villager, but you know Dan is a werewolf."
    # a claim made before the Seer checked is no conflict with the check
    early = mem("m0", 0, role("Dan", "villager"), speaker="Ava", day=0)
    assert werewolf("Cara", early, unmask, truths=truth) == []


def test_a_seer_stating_the_opposite_of_what_they_checked_is_shown_their_mistake() -> None:
    unmask = mem("r", 1, speaker=None, kind="reveal", source="first_hand", day=1)
    own = mem("m1", 2, role("Dan", "villager"), speaker="Cara", day=1)
    (c,) = werewolf("Cara", unmask, own, truths=(Truth("Dan", "werewolf", 1, False, "r"),))
    assert (c.kind, c.speaker, c.text) == ("minor", "Cara", "You said on day 1 that Dan is a villager, but you know "
                                                            "Dan is a werewolf.")


def test_a_werewolf_knows_the_bluffs_about_their_partner() -> None:
    # Cara and Dan are the werewolves: Cara's own "Dan is a villager" and her partner's are bluffs she knows of
    partner = mem("r", 0, speaker=None, kind="reveal", source="first_hand", day=0)
    truth = (Truth("Dan", "werewolf", 0, False, "r"),)
    bluffs = [mem("m1", 2, role("Dan", "villager"), speaker="Cara", day=1),
              mem("m2", 2, role("Dan", "villager"), speaker="Dan", day=1, line=1)]
    assert werewolf("Cara", partner, *bluffs, truths=truth, allies=frozenset({"Dan"}), hidden=True) == []
    # a villager's word about Dan is still held against what Cara knows
    other = mem("m3", 2, role("Dan", "villager"), speaker="Eve", day=1, line=2)
    found = werewolf("Cara", partner, *bluffs, other, truths=truth, allies=frozenset({"Dan"}), hidden=True)
    assert [(c.kind, c.speaker) for c in found] == [("minor", "Eve")]


def saved(speaker: str, target: str) -> Row:
    return (speaker, "protected", target, True)


def test_a_claimed_save_is_held_against_the_doctors_protection_and_the_morning() -> None:
    # Cara is the Doctor: on night 1 she protected Ben; Ava (a werewolf) then claims to have protected Ben
    protect = mem("p", 1, saved("Cara", "Ben"), kind="vote", ballot="protect", speaker="Cara", day=1)
    claim = mem("m1", 2, saved("Ava", "Ben"), speaker="Ava", day=1)
    (c,) = werewolf("Cara", protect, claim)
    assert (c.kind, c.status, c.resolution, c.a, c.b, c.subject, c.predicate, c.speaker) == (
        "lie", "open", None, "p", "m1", "Ben", "protected", "Ava")
    assert c.text == "Ava claimed to have protected Ben on night 1, but it was you who protected Ben."
    other = werewolf("Cara", protect, mem("m1", 2, saved("Ava", "Eve"), speaker="Ava", day=1))
    assert [x.text for x in other] == ["Ava claimed to have protected Eve on night 1, but you protected Ben that night."]
    # the Doctor's own claim of the save she made is true; of another player, a mistake shown to her
    assert werewolf("Cara", protect, mem("m1", 2, saved("Cara", "Ben"), speaker="Cara", day=1)) == []
    (own,) = werewolf("Cara", protect, mem("m1", 2, saved("Cara", "Eve"), speaker="Cara", day=1))
    assert (own.kind, own.resolution, own.text) == ("minor", "keep_both",
                                                    "You said you protected Eve on night 1, but you protected Ben.")
    # a save claimed of another night is not compared with this one
    assert werewolf("Cara", protect, mem("m1", 4, saved("Ava", "Eve"), speaker="Ava", day=2)) == []


def test_a_save_claimed_of_a_player_murdered_that_night_is_a_lie_to_everyone_who_saw_the_murder() -> None:
    murder = mem("k", 2, kind="murder", speaker=None, about=("Eve",), day=1)
    claim = mem("m1", 2, saved("Ava", "Eve"), speaker="Ava", day=1, line=1)
    (c,) = werewolf("Cara", murder, claim)
    assert (c.kind, c.a, c.b, c.text) == ("lie", "k", "m1", "Ava claimed to have protected Eve on night 1, but Eve "
                                                            "was murdered that night.")
    # a save of the night before the murder is no conflict
    assert werewolf("Cara", murder, mem("m1", 0, saved("Ava", "Eve"), speaker="Ava", day=0)) == []


def test_a_vote_for_a_player_already_gone_is_shown_as_a_mistake() -> None:
    banished = mem("b", 3, kind="banish", speaker=None, about=("Eve",), day=1)
    murdered = mem("k", 4, kind="murder", speaker=None, about=("Dan",), day=2)
    said = [mem("m1", 4, ("Ava", "voted_for", "Eve", True, 2), speaker="Ava", day=2, line=1),
            mem("m2", 4, ("Ben", "voted_for", "Dan", True, 2), speaker="Ben", day=2, line=2),
            mem("m3", 4, ("Cara", "voted_for", "Eve", True, 2), speaker="Cara", day=2, line=3),
            mem("m4", 2, ("Ava", "voted_for", "Eve", True, 1), speaker="Ava", day=1)]  # before Eve's banishment
    found = werewolf("Cara", banished, murdered, *said)
    assert [(c.kind, c.status, c.resolution, c.a, c.b, c.round) for c in found] == [
        ("minor", "open", "keep_both", "b", "m1", 2), ("minor", "open", "keep_both", "k", "m2", 2),
        ("minor", "open", "keep_both", "b", "m3", 2)]
    assert [c.text for c in found] == [
        "Ava announced a vote for Eve on day 2, but Eve was banished on day 1.",
        "Ben announced a vote for Dan on day 2, but Dan was murdered on day 2.",
        "You announced a vote for Eve on day 2, but Eve was banished on day 1."]
