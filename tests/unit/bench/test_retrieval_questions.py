"""The retrieval benchmark's questions come from the log's ground truth and only ask what the player witnessed."""

from __future__ import annotations

from pathlib import Path

from bench.bench_retrieval import KINDS, Question, questions, score
from graphmem.importers import load_game_log

ROOT = Path(__file__).resolve().parents[3]
LOG = load_game_log(ROOT / "examples" / "small-game.jsonl", "graphmem")
EVENTS = {logged.id: logged for logged in LOG.events}
EVERYONE = {p.name: set(EVENTS) for p in LOG.header.players}


def test_each_kind_has_the_evidence_its_question_names() -> None:
    asked = questions(LOG, EVERYONE, per_kind=50)
    # nobody tells anyone about a third player in private; teams and quests are Avalon's
    assert {q.kind for q in asked} == {"vote", "accused", "said", "private", "about", "fate"}
    for q in asked:
        data = [EVENTS[e].event.model_dump() for e in q.evidence]
        days = {EVENTS[e].day for e in q.evidence}
        if q.kind == "vote":
            voter = q.text.split("Who did ")[1].split(" vote")[0]
            assert all(d["kind"] == "vote" and d["ballot"] == "banish" and d["voter"] == voter for d in data)
            assert q.owner != voter and days == {int(q.text.rstrip("?").split()[-1])}
        elif q.kind == "accused":
            assert all(d["kind"] == "vote" and d["target"] == q.owner for d in data)
        elif q.kind == "said":
            assert all(d["kind"] == "say" and d["channel"] == "roundtable" for d in data)
            assert q.owner not in {d["speaker"] for d in data}
        elif q.kind == "private":
            assert all(d["channel"] == "private" and q.owner in d["to"] for d in data)
        elif q.kind == "about":
            subject = q.text.rstrip("?").split(" about ")[1]
            assert all(subject in (d.get("about") or ()) and q.owner not in (subject, d["speaker"]) for d in data)
        elif q.kind == "fate":
            assert [d["kind"] for d in data] in (["murder"], ["banish"])
        assert q.asked_at == max(p.index for p in LOG.phases)
        assert q.phases == tuple(EVENTS[e].phase for e in q.evidence)


def test_only_what_the_player_witnessed_is_asked_and_the_draw_is_seeded() -> None:
    seen: dict[str, set[str]] = {name: set() for name in EVERYONE}
    seen["Marcus"] = {e for e, logged in EVENTS.items() if logged.kind in ("vote", "banish")}
    asked = questions(LOG, seen, per_kind=50)
    assert asked and all(q.owner == "Marcus" and set(q.evidence) <= seen["Marcus"] for q in asked)
    assert questions(LOG, EVERYONE, per_kind=2, seed=4) == questions(LOG, EVERYONE, per_kind=2, seed=4)
    assert all(sum(q.kind == k for q in questions(LOG, EVERYONE, per_kind=2)) <= 2 for k in KINDS)


def test_recall_at_k_is_the_share_of_evidence_found_per_question_and_by_age() -> None:
    asked = [Question("g", "vote", "Ann", "q1", ("a", "b"), (1, 9), 10),
             Question("g", "said", "Ann", "q2", ("c",), (10,), 10)]
    result = score(asked, [[True, False], [True]])
    assert result["all"] == 0.75 and result["kinds"] == {"vote": 0.5, "said": 1.0}
    # a is 9 phases old (found), b 1 (missed), c 0 (found)
    assert result["by_age"] == {"0-2": 0.5, "9-11": 1.0} and result["evidence_by_age"] == {"0-2": 2, "9-11": 1}
    assert result["recent"] == 0.5  # evidence of the last 5 phases: b and c
