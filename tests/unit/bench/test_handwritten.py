"""The hand-written questions load, cover the three corpora, and hold against the games shipped in examples/
(every evidence event exists and the asker perceived it, by graphmem's own perception); recall@k is counted as
bench/handwritten.py says (issue 24)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.bench_retrieval import CORPORA, CORPUS_NAMES
from bench.handwritten import (
    MAX_EVIDENCE,
    QUESTIONS,
    HandQuestion,
    QuestionFileError,
    check,
    evaluate,
    example_dir,
    find_games,
    load,
    main,
)

EXAMPLES = {c.name: [example_dir(c)] for c in CORPORA}
QUESTION_SET = load(QUESTIONS)
SHIPPED = find_games({(q.corpus, q.game) for q in QUESTION_SET}, EXAMPLES)
ON_EXAMPLES = [q for q in QUESTION_SET if q.game in SHIPPED]


def test_the_file_has_at_least_150_questions_across_the_three_corpora() -> None:
    per_corpus = Counter(q.corpus for q in QUESTION_SET)
    assert sum(per_corpus.values()) >= 150
    assert set(per_corpus) == set(CORPUS_NAMES) and min(per_corpus.values()) >= 50, per_corpus
    assert all(1 <= len(q.evidence) <= MAX_EVIDENCE for q in QUESTION_SET)
    games = Counter(q.game for q in QUESTION_SET)
    assert len(games) >= 9 and max(games.values()) <= 25  # several games, none dominating
    assert len({q.question for q in QUESTION_SET}) == len(QUESTION_SET)  # no template repeated word for word


def test_every_question_on_a_game_shipped_in_examples_holds_against_its_game() -> None:
    report = check(ON_EXAMPLES, SHIPPED)
    assert report.problems == [] and report.missing == []
    assert set(SHIPPED) == {"433y9yyp", "3325g7wm", "yy0et4ne", "avalon_20251130_193733",
                            "avalon_20251130_234947", "llmafia-0001", "llmafia-0006"}
    assert {name: c["questions"] for name, c in report.checked.items()} == dict(Counter(q.corpus for q in ON_EXAMPLES))
    assert all(c["questions"] >= 30 for c in report.checked.values())  # a checkout alone asks a good share


def test_the_check_refuses_an_event_the_asker_did_not_perceive_or_that_does_not_exist() -> None:
    private = next(q for q in ON_EXAMPLES if q.game == "433y9yyp" and q.evidence == ("b28",))  # Riley -> Gwendolyn
    eavesdropper = private.model_copy(update={"asker": "Casey"})
    late = private.model_copy(update={"at": 0})
    unknown = private.model_copy(update={"evidence": ("b28", "b9999")})
    report = check([private, eavesdropper, late, unknown], SHIPPED)
    assert [(p.index, p.field) for p in report.problems] == [(1, "evidence[0]"), (2, "evidence[0]"),
                                                             (3, "evidence[1]")]
    assert "Casey did not perceive b28" in report.problems[0].reason
    assert "after at=0" in report.problems[1].reason and "no event 'b9999'" in report.problems[2].reason


def test_a_bad_line_is_refused_with_its_line_number_and_field(tmp_path: Path) -> None:
    good = QUESTIONS.read_text(encoding="utf-8").splitlines()[0]
    wrong = json.loads(good) | {"corpus": "chess", "evidence": ["b1"] * 2}
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join([good, json.dumps(wrong), "{not json", good]) + "\n", encoding="utf-8")
    with pytest.raises(QuestionFileError) as e:
        load(path)
    assert [(line, field) for line, field, _ in e.value.problems] == [(2, "corpus"), (2, "evidence"), (3, "(line)"),
                                                                       (4, "question")]
    assert f"{path}:2: corpus: " in str(e.value) and "repeated: b1" in str(e.value)
    assert "the same question" in e.value.problems[3][2]


def test_recall_at_k_counts_micro_and_per_question_mean_per_corpus() -> None:
    asked = [HandQuestion(corpus="traitors", game="g", asker="A", question="q1", evidence=("a", "b", "c", "d"),
                          note="n"),
             HandQuestion(corpus="traitors", game="g", asker="A", question="q2", evidence=("e",), note="n"),
             HandQuestion(corpus="mafia", game="h", asker="B", question="q3", evidence=("x", "y"), note="n")]
    returned: dict[str, list[str | None]] = {"q1": ["a", None, "z", "b", "c"], "q2": ["z"], "q3": ["y", "x"]}
    result = evaluate(asked, lambda q: returned[q.question], k=3)  # "c" is 5th: beyond k
    assert result["hits"] == [[True, False, False, False], [False], [True, True]]
    assert result["corpora"]["traitors"] == {"questions": 2, "evidence": 5, "found": 1, "micro": 0.2,
                                            "mean": 0.125}
    assert result["corpora"]["mafia"]["micro"] == result["corpora"]["mafia"]["mean"] == 1.0
    assert (result["all"]["micro"], result["all"]["mean"]) == (round(3 / 7, 3), round((0.25 + 0 + 1) / 3, 3))
    with pytest.raises(ValueError):
        evaluate(asked, lambda q: [], k=0)


def test_the_check_command_passes_on_the_shipped_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "--examples"]) == 0
    out = capsys.readouterr().out
    assert "check: passed" in out and "traitors: " in out and "avalon: " in out and "mafia: " in out
