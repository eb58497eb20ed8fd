"""The LoCoMo benchmark's reading and conversion (bench/bench_locomo.py), on a small sample of LoCoMo's shape written
here (the data itself is never copied into the repository)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.bench_locomo import conversation_log, read_conversations, score
from graphmem.ingest.encode import encode_game
from graphmem.logs import parse_game_log
from graphmem.model import default_parameters

SAMPLE = [{"sample_id": "conv-x", "conversation": {
    "speaker_a": "Ana", "speaker_b": "Ben",
    "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "I started painting last week."},
        {"speaker": "Ben", "dia_id": "D1:2", "text": "Nice! I play the clarinet."}],
    "session_2_date_time": "9 May", "session_2": [
        {"speaker": "Ben", "dia_id": "D2:1", "text": "The concert went well."},
        {"speaker": "Ana", "dia_id": "D2:2", "text": ""}]},
    "qa": [{"question": "What does Ben play?", "answer": "clarinet", "evidence": ["D1:2"], "category": 4},
           {"question": "When did things happen?", "answer": "May", "evidence": ["D1:1; D2:1", "D:2:1", "D9:9"],
            "category": 2},
           {"question": "Adversarial", "answer": "", "evidence": [], "category": 5}]}]


def test_a_locomo_file_is_read_as_a_person_reads_its_evidence(tmp_path: Path) -> None:
    path = tmp_path / "sample.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    (conv,) = read_conversations(path)
    assert conv.speakers == ("Ana", "Ben") and conv.last_session == 2 and len(conv.turns) == 4
    assert [(q.category, q.evidence, q.sessions) for q in conv.questions] == [
        (4, ("D1:2",), (1,)), (2, ("D1:1", "D2:1"), (1, 2))]  # "D:2:1" is D2:1 again; category 5 left out
    assert conv.unreadable_evidence == 1  # D9:9 names no turn
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="expected a JSON list"):
        read_conversations(tmp_path / "bad.json")


def test_a_conversation_is_a_valid_game_whose_first_speaker_remembers_every_turn(tmp_path: Path) -> None:
    path = tmp_path / "sample.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    (conv,) = read_conversations(path)
    lines = [json.dumps(line) for line in conversation_log(conv, "perfect")]
    game = encode_game(parse_game_log(lines, "sample"), default_parameters())
    ana = {m.event: m for m in game.memories if m.owner == "Ana"}
    assert set(ana) == {"D1:1", "D1:2", "D2:1"}  # the empty turn is left out
    assert ana["D1:2"].embedded == "Ben: Nice! I play the clarinet." and ana["D1:2"].context == \
        "I started painting last week."
    assert ana["D2:1"].context is None  # a new session is a new phase
    said = [json.loads(line) for line in lines if '"say"' in line]
    # a turn is logged at its session's date and time (the date route of recall), when the file gives it as LoCoMo does
    assert [s.get("t") for s in said] == ["2023-05-08T13:56:00", "2023-05-08T13:56:00", None]


def test_recall_at_k_counts_evidence_turns_overall_per_category_and_by_age(tmp_path: Path) -> None:
    path = tmp_path / "sample.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    (conv,) = read_conversations(path)
    asked = [(conv, q) for q in conv.questions]
    report = score(asked, [[True], [False, True]])
    assert report["all"] == 0.667  # 2 of 3 evidence turns, rounded as printed
    assert report["categories"] == {"single-hop": 1.0, "temporal": 0.5}
    assert report["by_age"] == {"0-4": pytest.approx(2 / 3, abs=1e-3)} and report["recent"] == pytest.approx(0.667)
