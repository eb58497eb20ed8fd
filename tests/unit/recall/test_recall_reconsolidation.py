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
from graphmem.recall.reconsolidate import belief_at, can_import, keywords, memory_state, needs_donors, update_row
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
    assert strength_now(c, 10, "exponential") == pytest.approx(strength_at(0.95, 8, 9.0, 10))
    assert strength_now(c, 5, "exponential") == pytest.approx(strength_at(0.85, 2, 4.0, 5))
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


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), st.integers(0, 40), st.floats(0.0, 1.0), st.sampled_from(PROFILES),
       st.integers(0, 2**31), st.booleans(), st.floats(1.0, 40.0))
def test_skipping_donors_when_not_needed_changes_nothing(dt: int, n: int, emotion: float, profile: Any, seed: int,
                                                         told: bool, s_enc: float) -> None:
    c = candidate(n=n, s_enc=s_enc, s=s_enc, teller="Eleanor" if told else None,
                  believed_teller="Eleanor" if told else None, source_type="direct_told" if told else "first_hand")
    now = 2 + dt
    state = memory_state(c, now)
    with_donors = reconsolidate(state, now, emotion, DONORS, profile, P, seed)
    if not needs_donors(state, now, emotion, profile, P):
        assert with_donors == reconsolidate(state, now, emotion, (), profile, P, seed)
    elif not can_import(state, now, emotion, profile, P):
        # what recall/similar returns then: the most similar donor whose teller is known and not the believed one
        believed = state.believed_teller or state.teller
        best = next(d for d in DONORS if d.teller is not None and d.teller != believed)
        assert with_donors == reconsolidate(state, now, emotion, (replace(best, details=()),), profile, P, seed)


def test_donors_are_needed_for_a_fading_told_memory_and_an_aroused_owner() -> None:
    balanced = P.profile("balanced")
    told = memory_state(candidate(), 2)
    assert not needs_donors(told, 2, 0.0, balanced, P)  # source confidence still 0.9
    fading = next(t for t in range(2, 60) if needs_donors(told, t, 0.0, balanced, P))
    assert fading > 2 and not can_import(told, fading, 0.0, balanced, P)
    suggestible = replace(balanced, suggestibility_factor=1.0, confabulation_risk=1.0)
    worn = replace(told, n=40)
    outcomes = {reconsolidate(worn, fading, 0.0, DONORS, suggestible, P, seed).believed_teller for seed in range(40)}
    assert outcomes == {"Eleanor", "Ben"}  # Ben: the most similar donor with another teller
    for seed in range(40):
        assert reconsolidate(worn, fading, 0.0, DONORS, suggestible, P, seed) == \
            reconsolidate(worn, fading, 0.0, (replace(DONORS[1], details=()),), suggestible, P, seed)
    first_hand = memory_state(candidate(teller=None, believed_teller=None, source_type="first_hand"), 30)
    assert needs_donors(first_hand, 30, 0.9, balanced, P)


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


def test_candidate_from_row_tolerates_a_summary_without_encoding_values() -> None:
    c = Candidate.from_row({"uid": "g/summary/Anna/abc", "kind": "summary", "summary": True, "text": "Three times",
                            "e_ref": 0.9, "s": 12.0, "t_enc": 4, "details_json": None, "threshold": None}, 0.2)
    assert (c.e0, c.s_enc, c.t_ref, c.n, c.threshold, c.details) == (0.9, 12.0, 4, 0, 0.2, ())
    assert json.loads(c.emotion_json) == {}
