"""The glue between the graph and the reconsolidation model: states, the donor shortcut, the rows written."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.model import default_parameters
from graphmem.model.details import Detail, details_from_json, details_to_json
from graphmem.model.forgetting import strength_at
from graphmem.model.reconsolidation import SimilarMemory, reconsolidate
from graphmem.model.vocabulary import Marker, SourceType
from graphmem.recall.candidates import strength_now
from graphmem.recall.pipeline import recalled_memory
from graphmem.recall.ranking import Ranked
from graphmem.recall.reconsolidate import belief_at, keywords, memory_state, recalled_together, update_row
from graphmem.recall.result import RecallResult
from graphmem.recall.types import Candidate

P = default_parameters()
PROFILES = [P.profile(n) for n in ("analytical", "intuitive", "balanced", "emotional", "paranoid")]
DETAILS = (Detail("who", "Eleanor"), Detail("where", "in a private conversation"), Detail("when", "2"),
           Detail("quote", "Marcus has medical training"), Detail("what", "Marcus has medical training"))
DONORS = (SimilarMemory("g/memory/Anna/7", 0.9, (Detail("who", "Eleanor"), Detail("when", "5")), teller="Eleanor"),
          SimilarMemory("g/memory/Anna/9", 0.8, (Detail("who", "Ben"), Detail("where", "kitchen"),
                                                 Detail("when", "4")), teller="Ben"),
          SimilarMemory("g/memory/Anna/8", 0.6, (Detail("whom", "Priya"),), teller="Priya"),
          SimilarMemory("g/memory/Anna/6", 0.55, (Detail("where", "tower"),), teller=None))


def row(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = dict(
        uid="g/memory/Anna/5", event="5", kind="say", summary=False, text="\"Marcus has medical training\"",
        template="{content}", details_json=details_to_json(DETAILS), about=["Marcus"], t_enc=2, day=2,
        phase_name="social", flashbulb=False, floor=0.0, e0=0.85, s_enc=4.0, e_ref=0.85, t_ref=2, s=4.0, n=0,
        salience=0.5, type="episodic", c0=0.9, source_k=1.5, source_type="direct_told", teller="Eleanor",
        believed_teller="Eleanor", misattributed=False, threshold=0.18, state="active", emotion_json="{}",
        dense=0.7, witnesses=[])
    base.update(over)
    return base


def candidate(**over: Any) -> Candidate:
    return Candidate.from_row(row(**over), 0.18)


def test_strength_now_is_the_closed_form_and_uses_encoding_values_before_the_last_rehearsal() -> None:
    c = candidate(e_ref=0.95, t_ref=8, s=9.0, n=2)
    assert strength_now(c, 10, "exponential") == pytest.approx(strength_at(0.95, 8, 9.0, 10, "exponential"))
    assert strength_now(c, 5, "exponential") == pytest.approx(strength_at(0.85, 2, 4.0, 5, "exponential"))
    assert strength_now(c, 5, "power") == pytest.approx(strength_at(0.85, 2, 4.0, 5, "power"))
    flash = candidate(flashbulb=True, floor=0.8, e0=1.0, e_ref=1.0)
    assert strength_now(flash, 500, "exponential") == 0.8


def test_memory_state_before_the_last_rehearsal_is_the_encoding_state() -> None:
    c = candidate(e_ref=0.95, t_ref=8, s=9.0, n=2)
    early = memory_state(c, 5)
    assert (early.e_ref, early.t_ref, early.s, early.n) == (0.85, 2, 4.0, 0)
    late = memory_state(c, 9)
    assert (late.e_ref, late.t_ref, late.s, late.n) == (0.95, 8, 9.0, 2)
    assert late.source_type is SourceType.DIRECT_TOLD and late.details == DETAILS


def test_the_memories_recalled_together_are_each_others_donors() -> None:
    """Donors are the other recalled memories in a memory's ``similar`` list (cosine >= 0.5, from the recall query),
    most similar first, with their details and believed teller as read (docs/model.md#reconsolidation)."""
    def sim(*pairs: tuple[str, float]) -> list[dict[str, Any]]:
        return [{"uid": uid, "cosine": cos} for uid, cos in pairs]
    a = candidate(uid="g/memory/Anna/1", similar=sim(("g/memory/Anna/4", 0.6), ("g/memory/Anna/2", 0.8),
                                                      ("g/memory/Anna/9", 0.9)))  # 9: pre-selected, not recalled
    b = candidate(uid="g/memory/Anna/2", teller="Ben", believed_teller="Cole",
                  details_json=details_to_json(DONORS[1].details), similar=sim(("g/memory/Anna/1", 0.8)))
    c = candidate(uid="g/memory/Anna/3")
    d = candidate(uid="g/memory/Anna/4", teller=None, believed_teller=None, similar=sim(("g/memory/Anna/1", 0.6)))
    donors = recalled_together([a, b, c, d])
    assert [(x.uid, x.similarity, x.teller) for x in donors[a.uid]] == [(b.uid, 0.8, "Cole"), (d.uid, 0.6, None)]
    assert donors[a.uid][0].details == DONORS[1].details
    assert [x.uid for x in donors[b.uid]] == [a.uid] and donors[c.uid] == ()
    assert recalled_together([]) == {}


@settings(max_examples=100)
@given(st.integers(0, 60), st.floats(0.0, 1.0), st.sampled_from(PROFILES), st.integers(0, 2**31))
def test_a_recall_lends_only_from_the_memories_recalled_with_it(dt: int, emotion: float, profile: Any,
                                                                seed: int) -> None:
    others = [candidate(uid=f"g/memory/Anna/{i}", teller=name, believed_teller=name,
                        details_json=details_to_json((Detail("who", name), Detail("where", f"room {i}"))))
              for i, name in ((2, "Ben"), (3, "Priya"))]
    told = candidate(uid="g/memory/Anna/1", similar=[{"uid": o.uid, "cosine": 0.9} for o in others])
    donors = recalled_together([told, *others])
    now = 2 + dt
    result = reconsolidate(memory_state(told, now), now, emotion, donors[told.uid], profile, P, seed)
    lenders = {o.uid for o in others}
    assert {d.origin for d in result.details if d.fabricated} <= lenders
    assert result.believed_teller in {"Eleanor", "Ben", "Priya"}


def test_update_row_re_renders_text_and_keywords_and_keeps_the_read_access_count() -> None:
    c = candidate(template="{who} said: {content}", about=["Marcus"], n=3)
    state = memory_state(c, 2)
    lost = tuple(d.forgotten() if d.kind in ("who", "quote") else d for d in DETAILS)
    result = replace(reconsolidate(state, 2, 0.0, (), P.profile("balanced"), P, 1), details=lost,
                     believed_teller="Eleanor")
    out = update_row(c, result, 2, P)
    assert out["text"] == "someone said: Marcus has medical training"
    assert out["keywords"] == "Marcus private conversation day 2"  # the lost who no longer cues; place and day do
    assert out["n_before"] == 3 and out["n"] == 4 and out["last_recalled"] == 2 and out["decayed_to"] == 2
    assert out["n_lost"] == 2 and out["fabricated"] is False
    assert details_from_json(out["details_json"]) == lost
    assert out["state"] == "active"
    assert update_row(candidate(state="candidate"), result, 2, P)["state"] == "candidate"
    assert keywords(DETAILS, ["Marcus"]) == "Eleanor Marcus private conversation day 2"
    gone = tuple(d.forgotten() if d.kind in ("where", "when") else d for d in DETAILS)
    assert keywords(gone, ["Marcus"]) == "Eleanor Marcus"


def test_belief_fades_to_unknown_on_the_source_clock() -> None:
    c = candidate()
    assert belief_at(c, 2, P) == "direct_told"
    assert belief_at(c, 40, P) == "unknown"
    assert belief_at(candidate(source_type=None), 2, P) == "unknown"
    # the owner's own statements and flashbulbs keep their source (docs/model.md#source-memory,
    # docs/model.md#flashbulb-memories)
    own = candidate(source_type="first_hand", teller=None, believed_teller=None, c0=1.0, own=True)
    assert belief_at(own, 40, P) == "first_hand"
    assert belief_at(candidate(flashbulb=True, floor=0.8), 40, P) == "direct_told"
    assert Candidate.from_row(row(), 0.18).own is False


def test_the_displayed_day_follows_lost_and_fabricated_when() -> None:
    c = candidate()
    ranked = Ranked(c.uid, 0.5, False, 0.18, 0.0, 0.0, 0.0, 0.2, Marker.FUZZY)
    base = reconsolidate(memory_state(c, 2), 2, 0.0, (), P.profile("balanced"), P, 0)
    fabricated = tuple(Detail("when", "4", fabricated=True, original="2", origin="g/memory/Anna/9")
                       if d.kind == "when" else d for d in DETAILS)
    shown = recalled_memory(c, ranked, replace(base, details=fabricated), "direct_told", ())
    assert (shown.day, shown.true_day, shown.fabricated) == (4, 2, True)
    lost = tuple(d.forgotten() if d.kind == "when" else d for d in DETAILS)
    shown = recalled_memory(c, ranked, replace(base, details=lost), "direct_told", ("Marcus",))
    assert shown.day is None and shown.lost == ("when",) and shown.conflicts == ("Marcus",)


def test_a_recalled_memory_is_about_whom_its_owner_now_believes() -> None:
    # "Eleanor voted to banish you", about Eleanor; a recall swaps the voter for Ben: the memory the agent reads (its
    # JSON, with a player token too, and the VAGUE line's "you think it involved ...") is about Ben, never Eleanor
    vote = (Detail("who", "Eleanor"), Detail("whom", "you"))
    c = candidate(kind="vote", template="{who} voted to banish {whom}", details_json=details_to_json(vote),
                  about=["Eleanor"], source_type="first_hand", teller=None, believed_teller=None)
    ranked = Ranked(c.uid, 0.5, False, 0.18, 0.0, 0.0, 0.0, 0.2, Marker.VAGUE)
    base = reconsolidate(memory_state(c, 2), 2, 0.0, (), P.profile("balanced"), P, 0)
    swapped = (Detail("who", "Ben", fabricated=True, original="Eleanor", origin="g/memory/Anna/9"), vote[1])
    shown = recalled_memory(c, ranked, replace(base, details=swapped), "first_hand", ())
    assert shown.text == "Ben voted to banish you" and shown.about == ("Ben",)
    agent = RecallResult(game="g", player="Anna", phase=2, decayed_to=2, topic=None, participants=(), k=10, seed=0,
                         dry_run=True, written=0, candidates=1, thoughts=(), memories=(shown,), vivid=None)
    assert agent.agent_dict()["memories"][0]["about"] == ["Ben"] and "Eleanor" not in agent.prompt()
    forgotten = recalled_memory(c, ranked, replace(base, details=(vote[0].forgotten(), vote[1])), "first_hand", ())
    assert forgotten.about == ()


def test_candidate_from_row_tolerates_a_summary_without_encoding_values() -> None:
    c = Candidate.from_row({"uid": "g/summary/Anna/abc", "kind": "summary", "summary": True, "text": "Three times",
                            "e_ref": 0.9, "s": 12.0, "t_enc": 4, "details_json": None, "threshold": None}, 0.2)
    assert (c.e0, c.s_enc, c.t_ref, c.n, c.threshold, c.details) == (0.9, 12.0, 4, 0, 0.2, ())
    assert json.loads(c.emotion_json) == {}
