"""Which memories contradict each other and how a known truth settles it (SPEC 9): the pure rules."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.jobs.conflicts import (
    ConflictPlan,
    OwnerMemory,
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


def mem(uid: str, phase: int, *claims: tuple[str, str, str, bool], text: str = "", about: tuple[str, ...] = (),
        vector: tuple[float, ...] | None = None, event: str | None = None) -> OwnerMemory:
    return OwnerMemory(uid=uid, event=event or uid, phase=phase, text=text or uid, claims=tuple(claims),
                       about=about, embedding=np.asarray(vector, dtype=np.float64) if vector else None)


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


def test_votes_are_temporal_preferring_the_most_recent_and_flagged_within_one_phase() -> None:
    def vote(target: str, pol: bool = True) -> tuple[str, str, str, bool]:
        return ("Ben", "voted_for", target, pol)

    late = conflicts(mem("m1", 2, vote("Dan")), mem("m2", 8, vote("Eve")))
    assert [(c.kind, c.status, c.resolution, c.a, c.b) for c in late] == [("temporal", "resolved", "keep_b", "m1",
                                                                           "m2")]
    near = conflicts(mem("m1", 7, vote("Dan")), mem("m2", 8, vote("Eve")))
    assert [(c.kind, c.status, c.resolution) for c in near] == [("temporal", "open", None)]
    same = conflicts(mem("m1", 7, vote("Dan")), mem("m2", 7, vote("Dan", False)))
    assert [(c.kind, c.status) for c in same] == [("temporal", "open")]
    assert conflicts(mem("m1", 7, vote("Dan")), mem("m2", 7, vote("Eve", False))) == []


def test_claims_about_the_owner_are_not_conflicts_in_their_memory() -> None:
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
