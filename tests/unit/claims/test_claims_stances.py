"""The stance extractor (docs/perception.md#claims: ``suspects`` / ``trusts``), on sentences of the real LLM Traitors
logs, and its precision and recall on a labelled sample of real statements (tests/data/stances/labelled.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem.claims.extract import ClaimExtractor
from graphmem.claims.stances import PATTERNS, StanceExtractor, stance_sign

PLAYERS = ["Alessandra", "Beef", "Braxton", "Cassandra", "Dominic", "Ellis", "Sudz", "Riley", "Morgan", "Gwendolyn",
           "Casey", "Parker", "Taylor", "Fletcher"]
EX = StanceExtractor(PLAYERS)
LABELLED = Path(__file__).resolve().parents[2] / "data" / "stances" / "labelled.jsonl"


def stances(text: str, speaker: str = "Casey", addressee: str | None = None) -> list[tuple[str, str]]:
    """(object, "+" for a positive stance or "-" for a negative one), in order."""
    return [(c.object, "+" if stance_sign(c.predicate, c.polarity) else "-")
            for c in EX.extract(text, speaker, addressee)]


REAL: list[tuple[str, str, str | None, str, list[tuple[str, str]]]] = [
    # real sentences (game ids in the comments), one or more per pattern
    ("i-suspect", "Alessandra", "Gwendolyn", "Hey Gwendolyn, I'm really suspicious of Sudz too.", [("Sudz", "-")]),
    ("i-suspect", "Morgan", "Gwendolyn", "Hey Gwendolyn, I'm getting a bit worried about Casey.", [("Casey", "-")]),
    ("i-suspect", "Taylor", "Morgan", "I still have my suspicions about Riley, but let's see what happens at the next "
                                      "round table.", [("Riley", "-")]),
    ("i-trust", "Cassandra", None, "I don't trust Alessandra or Sudz.", [("Alessandra", "-"), ("Sudz", "-")]),
    ("i-suspect", "Fletcher", "Beef", "I'm keeping an eye on Cassandra and Sudz.", [("Cassandra", "-"), ("Sudz", "-")]),
    ("no-good-feeling", "Gwendolyn", "Casey", "Honestly, I don't have a good feeling about Parker or Morgan.",
     [("Parker", "-"), ("Morgan", "-")]),
    ("is-suspicious", "Fletcher", "Taylor", "Parker and Gwendolyn seem shady now.", [("Parker", "-"),
                                                                                     ("Gwendolyn", "-")]),
    ("is-suspicious", "Parker", "Fletcher", "Casey, Morgan, and Taylor seem a bit off.",
     [("Casey", "-"), ("Morgan", "-"), ("Taylor", "-")]),
    ("is-suspicious", "Alessandra", "Braxton", "Beef has been acting a bit off, and I'm starting to think they might "
                                               "be a traitor too.", [("Beef", "-")]),
    ("is-suspicious", "Ellis", None, "Alessandra's been acting shady, and Sudz is too quiet.",
     [("Alessandra", "-"), ("Sudz", "-")]),
    ("is-suspicious", "Alessandra", "Ellis", "Ellis, I hear you on Gwendolyn. She's definitely been acting suspicious "
                                            "with Sudz, but I think we should hold off.", [("Gwendolyn", "-")]),
    ("behaviour-is-suspicious", "Gwendolyn", None, "Parker's behavior has been a red flag for me since the start.",
     [("Parker", "-")]),
    ("behaviour-is-suspicious", "Taylor", None, "Gwendolyn, I gotta be honest, your vote for Riley last round felt "
                                                "really off to me.", [("Gwendolyn", "-")]),
    ("behaviour-is-suspicious", "Ellis", "Cassandra", "Sudz's been acting shady, and Beef's votes don't add up.",
     [("Sudz", "-"), ("Beef", "-")]),
    ("suspicious-behaviour", "Gwendolyn", "Beef", "Honestly, Beef, I think you might've done us a favor by pointing "
                                                  "out Ellis's suspicious behavior.", [("Ellis", "-")]),
    ("something-off-about", "Sudz", None, "I can't help but feel like something's off about Beef's behavior.",
     [("Beef", "-")]),
    ("eye-on", "Ellis", "Fletcher", "Keep an eye on Alessandra—she's getting too curious.", [("Alessandra", "-")]),
    ("eye-on", "Gwendolyn", "Braxton", "I'm keeping a close eye on everyone, especially Beef and Alessandra.",
     [("Beef", "-"), ("Alessandra", "-")]),
    ("i-suspect", "Fletcher", None, "Hey everyone, I've been watching Casey's actions closely.", [("Casey", "-")]),
    ("watch", "Fletcher", None, "I think we need to watch Gwendolyn closely.", [("Gwendolyn", "-")]),
    ("call-to-banish", "Fletcher", None, "I think we should eliminate Taylor.", [("Taylor", "-")]),
    ("call-to-banish", "Parker", None, "I suggest we take out Morgan.", [("Morgan", "-")]),
    ("out-after-name", "Ellis", "Dominic", "Next round: Push Braxton out.", [("Braxton", "-")]),
    ("out-after-name", "Fletcher", None, "Guys, I think we need to act on this and get rid of Cassandra. Her actions "
                                         "have been all over the place. Let's take her out and see what happens.",
     [("Cassandra", "-")]),
    ("target-first", "Ellis", None, "Eliminate Beef now!", [("Beef", "-")]),
    ("target-first", "Riley", None, "I'd rather be safe and vote out Morgan to protect the rest of us.",
     [("Morgan", "-")]),
    ("share-suspicions", "Sudz", "Cassandra", "I'm leaning towards your suspicions about Dominic, though I wasn't "
                                              "completely convinced.", [("Dominic", "-")]),
    ("bad-vibe", "Beef", "Fletcher", "Hey Fletcher, yeah I'm watching Cassandra and Sudz too, also got a bad vibe "
                                     "from Braxton, what do you think about him?",
     [("Cassandra", "-"), ("Sudz", "-"), ("Braxton", "-")]),
    ("voting-out", "Ellis", None, "I'm voting Sudz out.", [("Sudz", "-")]),
    ("voting-out", "Braxton", None, "I vote to eliminate Sudz.", [("Sudz", "-")]),
    ("should-go", "Casey", None, "Riley should be the one to go tonight.", [("Riley", "-")]),
    ("cannot-be-trusted", "Casey", None, "Parker can't be trusted.", [("Parker", "-")]),
    ("not-convinced-trustworthy", "Casey", None, "I'm not convinced that Casey or Gwendolyn are trustworthy.",
     [("Gwendolyn", "-")]),
    ("i-trust", "Taylor", None, "I trust Casey and Fletcher, and I think it's time we start calling out the more "
                                "aggressive players.", [("Casey", "+"), ("Fletcher", "+")]),
    ("i-trust", "Cassandra", "Dominic", "I trust you, Braxton, Ellis, and Sudz.",
     [("Dominic", "+"), ("Braxton", "+"), ("Ellis", "+"), ("Sudz", "+")]),
    ("i-trust", "Casey", "Morgan", "I'm leaning towards trusting you and Parker.", [("Morgan", "+"), ("Parker", "+")]),
    ("i-trust", "Riley", None, "I'm not sure I trust them fully. Morgan wants to continue.", []),  # no antecedent
    ("is-trustworthy", "Cassandra", "Ellis", "Ellis, you seem like a real stand up guy. Braxton seems genuine.",
     [("Braxton", "+")]),
    ("can-trust", "Alessandra", "Dominic", "I think we can trust Ellis and Braxton for now.",
     [("Ellis", "+"), ("Braxton", "+")]),
    ("can-be-trusted", "Casey", None, "Braxton can be trusted, he has been straight with us.", [("Braxton", "+")]),
    ("same-side", "Riley", "Parker", "Parker and I are on the same page.", [("Parker", "+")]),
    ("i-dont-think-suspicious", "Casey", None, "I don't think Sudz is suspicious at all.", [("Sudz", "+")]),
    ("dont-banish", "Casey", None, "We shouldn't vote out Parker yet.", [("Parker", "+")]),
]


@pytest.mark.parametrize(("pattern", "speaker", "addressee", "text", "expected"), REAL)
def test_patterns_on_real_sentences(pattern: str, speaker: str, addressee: str | None, text: str,
                                    expected: list[tuple[str, str]]) -> None:
    assert stances(text, speaker, addressee) == expected
    if expected:
        assert pattern in {name for name, _, _ in EX.matches(text, speaker, addressee)}


def test_every_pattern_is_held_by_a_real_sentence_above() -> None:
    tested = {case[0] for case in REAL}
    assert tested == {p.name for p in PATTERNS}


@pytest.mark.parametrize("text", [
    # questions, hypotheticals, reported speech, doubts
    "Do you trust Sudz?",
    "What do you think about Gwendolyn, is she being genuine or playing us?",
    "If Parker is a Traitor, this move would make sense to eliminate a Faithful.",
    "They seem to think Casey, Taylor, and Morgan are shady.",
    "Sudz mentioned he's a bit suspicious of Beef.",
    "Casey said \"Riley is shady\" at breakfast.",
    "I'm not sure Casey is suspicious.",
    "I'm not sure if Ellis or Fletcher are traitors.",
    # a name that is not the subject of the judgement
    "Their behavior seems suspicious, especially their push to continue playing and eliminate Riley.",
    "Sudz's death is really concerning.",
    # nothing about anyone's side
    "I appreciate your insight, Cassandra.",
    "Hey Casey, I'm Morgan. Who do you think the traitors are?",
])
def test_no_stance_where_the_speaker_takes_no_side(text: str) -> None:
    assert stances(text, "Dominic") == []


def test_pronouns_refer_to_the_one_player_just_named_and_a_sentence_on_that_player_keeps_them() -> None:
    assert stances("I'm voting out Beef. He's been trying to deflect suspicion from Braxton and onto others. His "
                   "conversation with me seemed genuine, but his vote against Cassandra without solid evidence seems "
                   "rash. I think he's hiding something.", "Dominic") == [("Beef", "-")]
    assert stances("What do you think about Casey and Morgan? They seem a bit odd to me.", "Fletcher") == []
    assert stances("Riley, what do you think about Fletcher? They've been really quiet, and I'm starting to suspect "
                   "them.", "Gwendolyn") == [("Fletcher", "-")]


def test_a_player_given_both_sides_in_one_statement_gets_none_and_the_speaker_is_never_the_object() -> None:
    assert stances("I trust Riley. Riley seems shady though.") == []
    assert stances("I vote to eliminate braxton.", "Braxton") == []


def test_the_claim_extractor_adds_stances_after_role_and_vote_claims_but_not_beside_a_role_claim() -> None:
    extractor = ClaimExtractor(PLAYERS)
    found = extractor.extract("I'm voting for Ellis. Sudz is a traitor, Sudz is shady.", "Beef")
    assert [(c.subject, c.predicate, c.object, c.polarity) for c in found] == [
        ("Beef", "voted_for", "Ellis", True), ("Sudz", "role", "traitor", True), ("Beef", "suspects", "Ellis", True)]
    assert extractor.extract("Sudz is shady.", "Beef", stances=False) == []


def test_precision_and_recall_on_the_labelled_sample_of_real_statements() -> None:
    """80 statements drawn at random (seed 77) from the 40 real games, among those that name another player
    (private, round-table and end-game statements; not the traitors' murder talk), labelled by hand with the
    stances a careful reader finds (player, side), before the extractor's output was looked at. Measured: precision
    1.00 (51 of 51 extracted stances right), recall 0.67 (51 of 76 labelled stances found). The sample was not used
    to write the patterns (that was another sample of 100)."""
    right = extracted = labelled = 0
    for line in LABELLED.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        got = {(c.object, "+" if stance_sign(c.predicate, c.polarity) else "-")
               for c in StanceExtractor(record["players"]).extract(record["text"], record["speaker"],
                                                                  record["addressee"])}
        want = {(player, side) for player, side in record["stances"]}
        right += len(got & want)
        extracted += len(got)
        labelled += len(want)
    assert (extracted, labelled) >= (45, 70)
    assert right / extracted >= 0.95
    assert right / labelled >= 0.65
