"""The text and properties of a consolidation summary (docs/jobs.md#consolidation, docs/graph-model.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from graphmem.jobs.consolidation import plan_summary
from graphmem.jobs.summarise import ExtractiveSummariser, Member, Summariser, TemplatingSummariser
from graphmem.model import default_parameters
from graphmem.model.details import details_from_json, render
from graphmem.store.keys import scope_token, summary_uid

ROOT = Path(__file__).resolve().parents[3]
PARAMS = default_parameters()


def member(uid: str, *, day: int = 1, t_enc: int = 2, strength: float = 0.5, s: float = 10.0,
           source: str = "direct_told", teller: str | None = "Ava", about: tuple[str, ...] = ("Dan",),
           vector: Sequence[float] = (1.0, 0.0, 0.0), claims: str = "[]", who: str = "Ava") -> Member:
    details = json.dumps([{"kind": "who", "value": who, "lost": False, "fabricated": False, "original": None,
                           "origin": None},
                          {"kind": "quote", "value": f"Dan is odd ({uid})", "lost": False, "fabricated": False,
                           "original": None, "origin": None}])
    template = "{content}"
    return Member(uid=uid, text=render(template, details_from_json(details)), template=template,
                  details_json=details, day=day, t_enc=t_enc, phase_name="social", strength=strength, s=s,
                  source_type=source, teller=teller, about=about, keywords=" ".join(about), claims_json=claims,
                  embedding=np.asarray(vector, dtype=np.float64), salience=0.3, relevance=0.4,
                  emotion_peak=0.1, surprise=0.2, consequence=0.3, threshold=0.18, decay_rate=0.2, source_k=1.67)


def cluster() -> list[Member]:
    return [member("g/memory/Cara/e1", day=1, t_enc=2, strength=0.3, s=8.0, vector=(1.0, 0.1, 0.0)),
            member("g/memory/Cara/e2", day=2, t_enc=7, strength=0.62, s=12.0, vector=(1.0, 0.0, 0.0)),
            member("g/memory/Cara/e3", day=3, t_enc=12, strength=0.4, s=9.0, vector=(1.0, -0.1, 0.0),
                   about=("Dan", "Eve"))]


def test_uid_is_the_sha1_of_the_sorted_member_uids() -> None:
    uids = ["g/memory/Cara/e2", "g/memory/Cara/e1"]
    digest = hashlib.sha1(b"g/memory/Cara/e1\ng/memory/Cara/e2").hexdigest()[:16]
    assert summary_uid("g", "Cara", uids) == f"g/summary/Cara/{digest}"
    assert summary_uid("g", "Cara", uids) == summary_uid("g", "Cara", list(reversed(uids)))
    assert summary_uid("g", "Cara", uids) != summary_uid("g", "Cara", uids[:1])


def test_extractive_text_is_the_medoid_with_count_days_and_the_others_involved() -> None:
    members = cluster()
    text = ExtractiveSummariser().summarise(members)
    assert text == '(3 similar remarks, days 1-3, from Ava, also involving Eve) "Dan is odd (g/memory/Cara/e2)"'
    assert ExtractiveSummariser().summarise(list(reversed(members))) == text  # order does not matter
    first_hand = [member(f"u{i}", source="first_hand", teller=None, day=2) for i in range(3)]
    assert ExtractiveSummariser().summarise(first_hand).startswith("(3 similar memories on day 2) ")


def test_the_template_renders_to_the_text_so_recall_can_lose_details() -> None:
    members = cluster()
    summariser = ExtractiveSummariser()
    assert isinstance(summariser, TemplatingSummariser)
    template, details_json = summariser.wording(members)
    assert render(template, details_from_json(details_json)) == summariser.summarise(members)
    lost = [d.forgotten() if d.kind.value == "quote" else d for d in details_from_json(details_json)]
    assert render(template, lost).startswith("(3 similar remarks")


def test_summary_properties_follow_spec_11() -> None:
    members = cluster()
    plan = plan_summary("g", "Cara", members, 14, "exponential", PARAMS)
    p = plan.props
    assert plan.uid == summary_uid("g", "Cara", [m.uid for m in members]) == p["uid"]
    assert plan.members == tuple(sorted(m.uid for m in members))
    assert p["e0"] == p["e_ref"] == p["strength"] == pytest.approx(0.62 + 0.1)  # strongest + 0.1
    assert p["s"] == p["s_enc"] == pytest.approx(1.5 * 12.0)  # 1.5 x the largest member S
    assert (p["type"], p["kind"], p["event"], p["n"], p["flashbulb"], p["floor"]) == \
        ("semantic", "summary", None, 0, False, 0.0)
    assert (p["t_enc"], p["day"], p["day_first"], p["day_last"], p["members"]) == (12, 3, 1, 3, 3)
    assert p["t_ref"] == p["decayed_to"] == 14 and p["state"] == "active"
    assert (p["source_type"], p["teller"], p["believed_teller"], p["c0"]) == ("direct_told", "Ava", "Ava", 0.9)
    expected_c = 0.9 * math.exp(-(14 - 12) / (1.5 * 12.0)) ** 1.67
    assert p["source_confidence"] == pytest.approx(expected_c)
    assert p["about"] == ["Dan", "Eve"] and p["keywords"] == "Dan Eve"
    assert np.linalg.norm(p["embedding"]) == pytest.approx(1.0)
    assert p["summary"] is None and p["tombstone_reason"] is None


def test_e0_is_capped_at_one_and_mixed_sources_are_inferred() -> None:
    members = [member("a", strength=0.95), member("b", teller="Ben"), member("c", source="first_hand", teller=None)]
    p = plan_summary("g", "Cara", members, 3, "power", PARAMS).props
    assert p["e0"] == 1.0
    assert (p["source_type"], p["teller"], p["c0"]) == ("inferred", None, 0.5)


def test_a_summary_of_what_several_people_said_was_told_by_someone() -> None:
    """Heard from Ava twice and Ben once: still told (its text names both), by no one teller."""
    told_by_two = [member("a"), member("b", teller="Ben"), member("c")]
    p = plan_summary("g", "Cara", told_by_two, 3, "exponential", PARAMS).props
    assert (p["source_type"], p["teller"], p["believed_teller"]) == ("direct_told", None, None)
    assert p["text"].startswith("(3 similar remarks on day 1, from Ava and Ben) ")  # never "this, 3 times"
    assert p["c0"] == 0.9  # direct_told (docs/model.md#source-memory)
    same_teller = [member("a"), member("b"), member("c")]
    assert plan_summary("g", "Cara", same_teller, 3, "exponential", PARAMS).props["teller"] == "Ava"


def test_every_memory_property_of_the_graph_model_is_set() -> None:
    """The summary carries every Memory property docs/graph-model.md lists (recall reads them)."""
    doc = (ROOT / "docs" / "graph-model.md").read_text(encoding="utf-8")
    memory_section = doc.split("**Memory**")[1].split("**Summary**")[0]
    listed = set(re.findall(r"`([a-z_0-9]+)`", memory_section))
    listed -= {"who", "whom", "where", "when", "quote", "what", "kind", "value", "lost", "original", "origin",
               "unknown", "embedding", "text"} | {"episodic", "semantic", "procedural", "emotional", "active", "warm",
                                                  "archived", "candidate", "consolidated", "tombstoned", "first_hand",
                                                  "direct_told", "overheard", "group_discuss", "inferred"}
    listed -= {"context"}  # a statement's only (the statement it followed): a summary follows none
    listed |= {"kind", "text", "embedding"}
    props = plan_summary("g", "Cara", cluster(), 14, "exponential", PARAMS).props
    missing = {name for name in listed if name not in props and not name.startswith("summary_")}
    assert not missing, missing
    assert {"members", "day_first", "day_last"} <= set(props)
    assert props["scope"] == scope_token("g", "Cara")  # the owner's full-text token, as ingest writes it


class Echo:
    """A summariser that is not extractive: any object with summarise(members) -> str."""

    def summarise(self, members: Sequence[Member]) -> str:
        return f"{len(members)} memories about Dan"


def test_any_summariser_can_replace_the_extractive_one() -> None:
    echo: Summariser = Echo()
    assert not isinstance(echo, TemplatingSummariser)
    p = plan_summary("g", "Cara", cluster(), 14, "exponential", PARAMS, echo).props
    assert p["text"] == p["template"] == "3 memories about Dan" and p["details_json"] == "[]"


def fact(uid: str, kind: str, who: str | None, whom: str | None, claims: str = "[]") -> Member:
    details = [{"kind": k, "value": v, "lost": False, "fabricated": False, "original": None, "origin": None}
               for k, v in (("who", who), ("whom", whom)) if v is not None]
    return Member(uid=uid, text=f"{who} voted to banish {whom}", template="{content}", details_json=json.dumps(details),
                  day=1, t_enc=2, phase_name="roundtable", strength=0.5, s=5.0, source_type="first_hand",
                  teller=None, about=(), keywords="", claims_json=claims, embedding=np.ones(3), kind=kind)


def test_only_repeated_facts_share_a_consolidation_key() -> None:
    """Different votes, and statements carrying different claims, never share a summary (whatever their
    embeddings); the owner's own words stay apart from what others told them."""
    from graphmem.jobs.consolidation import consolidation_key as key

    assert key(fact("a", "vote", "Taylor", "Riley")) != key(fact("b", "vote", "Riley", "Taylor"))
    assert key(fact("a", "vote", "Taylor", "Riley")) != key(fact("b", "vote", "Casey", "Riley"))
    assert key(fact("a", "vote", "Taylor", "Riley")) != key(fact("b", "banish", "Taylor", "Riley"))
    assert key(fact("a", "vote", "Taylor", "Riley")) == key(fact("b", "vote", "Taylor", "Riley"))
    votes_taylor = '[["Riley", "voted_for", "Taylor", true]]'
    votes_casey = '[["Riley", "voted_for", "Casey", true]]'
    assert key(fact("a", "say", "Riley", None, votes_taylor)) != key(fact("b", "say", "Riley", None, votes_casey))
    assert key(fact("a", "say", "Riley", None)) == key(fact("b", "say", "Ava", None))  # by meaning alone
    assert key(fact("a", "say", None, "Ava")) != key(fact("b", "say", "Ava", None))  # own words vs heard
    assert key(member("a")) == key(member("b", who="Ben"))
    # observations without who/whom: "the traitors decided to murder Ellis" vs "... Sudz" differ by what they are about
    murder_ellis = dataclasses.replace(fact("a", "observe", None, None), about=("Ellis",))
    murder_sudz = dataclasses.replace(fact("b", "observe", None, None), about=("Sudz",))
    assert key(murder_ellis) != key(murder_sudz)
    assert key(murder_ellis) == key(dataclasses.replace(murder_sudz, about=("Ellis",)))
    assert key(member("a")) != key(member("b", source="overheard"))  # a whisper overheard vs told to the owner
    assert key(member("a")) == key(member("b", about=("Eve",)))  # remarks group by meaning, whoever they mention
    # mission games: a quest or team outcome is stated whole in its text; a yes/no vote in its template
    rejected = dataclasses.replace(fact("a", "outcome", None, None),
                                   text="Diana's team (Alice, Diana) was rejected, 1 vote to 4.")
    approved = dataclasses.replace(rejected, uid="b", text="Diana's team (Alice, Diana) was approved, 3 votes to 2.")
    assert key(rejected) != key(approved)
    assert key(rejected) == key(dataclasses.replace(rejected, uid="c"))
    approve = dataclasses.replace(fact("a", "vote", None, "Diana"),
                                  template="You voted to approve the team of you and {whom}: {content}")
    reject = dataclasses.replace(approve, uid="b", template="You voted to reject the team of you and {whom}: {content}")
    assert key(approve) != key(reject)
    assert key(approve) == key(dataclasses.replace(approve, uid="c", text="another reason, the same vote"))
