"""The rule-based claim extractor, on sentences taken from the real LLM Traitors logs."""

from __future__ import annotations

import pytest

from graphmem.claims import ClaimExtractor, extract_claims
from graphmem.claims.extract import with_rounds
from graphmem.logs import Claim, SayEvent, VoteEvent
from graphmem.logs.ballots import BallotRounds, VoteRounds

PLAYERS = ["Alessandra", "Beef", "Braxton", "Cassandra", "Dominic", "Ellis", "Sudz", "Riley", "Morgan", "Gwendolyn",
           "Casey", "Parker", "Taylor", "Fletcher"]
EX = ClaimExtractor(PLAYERS)


def claims(text: str, speaker: str | None = "Casey") -> list[tuple[str, str, str, bool]]:
    return [(c.subject, c.predicate, c.object, c.polarity) for c in EX.extract(text, speaker, stances=False)]


@pytest.mark.parametrize(("speaker", "text", "expected"), [
    # role claims about the speaker (433y9yyp, h2cu3q56, 1fnk1fzg, 9dsjd6j1)
    ("Riley", "Hey Gwendolyn, just a heads up, I'm a traitor. I'm playing it cool for now, but I think Parker and I "
              "are on the same page.", [("Riley", "role", "traitor", True)]),
    ("Morgan", "Hey Taylor! Just wanted to chat. I'm a faithful, so I'm trying to figure out who to trust. Any ideas on "
               "who might be a traitor? 😊", [("Morgan", "role", "faithful", True)]),
    ("Ellis", "Dominic, I’m a Faithful, let’s work together!", [("Ellis", "role", "faithful", True)]),
    ("Morgan", "Hey Parker, I know you voted me out, but I'm here to tell you I'm Faithful. I went after Gwendolyn "
               "because she was way too focused on Fletcher.", [("Morgan", "role", "faithful", True)]),
    ("Casey", "I am faithful.", [("Casey", "role", "faithful", True)]),
    # negations
    ("Casey", "I'm not a traitor.", [("Casey", "role", "traitor", False)]),
    ("Casey", "Honestly, I am not a Traitor!", [("Casey", "role", "traitor", False)]),
    ("Casey", "Gwendolyn voted to eliminate Riley, but Riley wasn't a traitor. Gwendolyn's judgment is questionable.",
     [("Gwendolyn", "voted_for", "Riley", True), ("Riley", "role", "traitor", False)]),
    ("Fletcher", "She voted to eliminate Riley even though Riley wasn't a traitor.",
     [("Riley", "role", "traitor", False)]),
    ("Casey", "Sudz is not a traitor.", [("Sudz", "role", "traitor", False)]),
    # role claims about others (m97vcjj1, 7s6m4pwj, qzokdh49)
    ("Cassandra", "Sudz was actually Faithful since he was Murdered, so he wasn't a Traitor.",
     [("Sudz", "role", "faithful", True)]),
    ("Beef", "Sudz is clearly a traitor, they're trying to turn us against each other.",
     [("Sudz", "role", "traitor", True)]),
    ("Casey", "I'm not sure if we've eliminated all the traitors yet. Taylor was a traitor, but we don't know if "
              "there's another one left.", [("Taylor", "role", "traitor", True)]),
    ("Casey", "dominic is one of the traitors.", [("Dominic", "role", "traitor", True)]),
    # votes (0oisq1p0, 1fnk1fzg, 3lyaf9lv, 3325g7wm)
    ("Riley", "I'm voting to eliminate Morgan. They called out Parker directly.", [("Riley", "voted_for", "Morgan", True)]),
    ("Morgan", "Alright everyone, I'm going to vote for Parker. The reason is simple—Parker came at me directly.",
     [("Morgan", "voted_for", "Parker", True)]),
    ("Gwendolyn", "I voted for Fletcher because when I looked back, I think he was the player who was being shady.",
     [("Gwendolyn", "voted_for", "Fletcher", True)]),
    ("Ellis", "I'm voting Sudz out. They've been too eager to accuse others without proof.",
     [("Ellis", "voted_for", "Sudz", True)]),
    ("Braxton", "His reluctance to agree with others worries me. I vote to eliminate braxton.",
     [("Braxton", "voted_for", "Braxton", True)]),
    ("Beef", "I'm voting for Ellis because they were super quiet until now.", [("Beef", "voted_for", "Ellis", True)]),
    ("Casey", "My vote goes to Taylor.", [("Casey", "voted_for", "Taylor", True)]),
    ("Casey", "I didn't vote for Riley, I voted for Morgan.",
     [("Casey", "voted_for", "Riley", False), ("Casey", "voted_for", "Morgan", True)]),
    ("Casey", "I'm not voting for Parker.", [("Casey", "voted_for", "Parker", False)]),
])
def test_claims_from_real_sentences(speaker: str, text: str, expected: list[tuple[str, str, str, bool]]) -> None:
    assert claims(text, speaker) == expected


@pytest.mark.parametrize("text", [
    # conditionals and hypotheticals (1fnk1fzg, 0oisq1p0, 95hor2z3)
    "If I'm a Faithful, she's working against the group. If I'm a Traitor, she's eliminating a threat.",
    "If Parker is a Traitor, this move would make sense to eliminate a Faithful.",
    "If Ellis is a traitor, removing him would be a good move for our group.",
    # questions (cf27l4yq, m97vcjj1, 7s6m4pwj)
    "Can you tell me honestly, do you have any reason to believe I'm a Traitor?",
    "What makes you think I'm not a Traitor?",
    "You think Sudz is a traitor too?",
    # embedded or reported, not asserted by the speaker (7klpvf6l, 1fnk1fzg, cf27l4yq, hhcm17fp)
    "There's a risk that the remaining faithful will split the pot if they figure out I'm a traitor.",
    "Her accusations have been too focused on Beef, who we know is a Faithful.",
    "We should focus on figuring out if Gwendolyn or Parker is a Traitor.",
    "I'm starting to think Cassandra is a traitor.",
    "I don't think Sudz is a traitor.",
    "Casey said \"Sudz is a traitor\" to me yesterday.",
    # proposals and hedges are not votes (0oisq1p0, 3325g7wm)
    "I'm leaning toward eliminating Morgan for now.",
    "I'm leaning towards voting out Beef.",
    "Vote Sudz out NOW before they pull another fast one.",
    # role words in other senses, pronouns, non-players
    "I'm a traitor hunter, and proud of it.",
    "I am faithful to the group.",
    "She was a traitor.",
    "Gwen is a traitor.",
    "I'm voting to eliminate you because your voting has been erratic.",
])
def test_no_claim_when_the_sentence_does_not_assert_one(text: str) -> None:
    assert claims(text) == []


def test_names_come_back_spelled_as_in_the_game_and_i_claims_need_a_speaker() -> None:
    assert claims("BEEF is a traitor. I'm a faithful.", None) == [("Beef", "role", "traitor", True)]


def test_duplicates_are_dropped_and_order_kept() -> None:
    assert claims("Beef is a traitor. Beef is a traitor! Sudz is faithful.") == [
        ("Beef", "role", "traitor", True), ("Sudz", "role", "faithful", True)]


def test_other_games_role_words() -> None:
    found = extract_claims("Anna is a werewolf. I'm the seer.", speaker="Bo", players=["Anna", "Bo"],
                           roles=["werewolf", "seer", "villager"])
    assert found == [Claim(subject="Anna", predicate="role", object="werewolf"),
                     Claim(subject="Bo", predicate="role", object="seer")]


def rounds_after(*events: tuple[str, int, str, str]) -> BallotRounds:
    """A BallotRounds fed ("vote", day, voter, target) and ("banish", day, "", "") events."""
    ballots = BallotRounds()
    for kind, day, voter, target in events:
        if kind == "vote":
            ballots.vote(day, voter, target)
        else:
            ballots.banished(day)
    return ballots


def vote_rounds(text: str, speaker: str, rounds: VoteRounds) -> list[tuple[str, str, bool, int | None]]:
    return [(c.subject, c.object, c.polarity, c.round) for c in EX.extract(text, speaker, rounds=rounds, stances=False)
            if c.predicate == "voted_for"]


def test_a_vote_claim_names_the_round_it_is_about() -> None:
    # day 1: Gwendolyn voted for Riley, Casey for Gwendolyn, then a banishment; day 2, Gwendolyn voted for Parker
    day1 = [("vote", 1, "Gwendolyn", "Riley"), ("vote", 1, "Casey", "Gwendolyn"), ("banish", 1, "", "")]
    ballots = rounds_after(*day1, ("vote", 2, "Gwendolyn", "Parker"))
    # said on day 2 at the round table, after Gwendolyn's vote of the day: about yesterday's vote, the one it matches
    # (433y9yyp: "Gwendolyn voted to eliminate Riley, who wasn't a traitor.")
    table = ballots.at(2, table=True)
    assert vote_rounds("Gwendolyn voted to eliminate Riley.", "Casey", table) == [("Gwendolyn", "Riley", True, 1)]
    assert vote_rounds("Gwendolyn voted for Parker.", "Casey", table) == [("Gwendolyn", "Parker", True, 2)]
    # said privately on day 2 before voting: a past vote is the last finished round's, a vote to come today's
    morning = rounds_after(*day1).at(2)
    assert vote_rounds("I voted for Gwendolyn.", "Casey", morning) == [("Casey", "Gwendolyn", True, 1)]
    assert vote_rounds("I'm voting for Riley.", "Casey", morning) == [("Casey", "Riley", True, 2)]
    assert vote_rounds("I won't vote for Riley.", "Casey", morning) == [("Casey", "Riley", False, 2)]
    # the speaker's own vote at the round table before the round ended is that round's, whatever the tense
    # (1fnk1fzg: "I voted for Fletcher because ..." said just before voting for Fletcher)
    assert vote_rounds("I voted for Fletcher.", "Gwendolyn", rounds_after(*day1).at(2, table=True)) == [
        ("Gwendolyn", "Fletcher", True, 2)]
    # after the day's banishment, a vote to come is tomorrow's; before any ballot a past vote names no round
    assert vote_rounds("I'm voting for Riley.", "Casey", rounds_after(*day1).at(1)) == [("Casey", "Riley", True, 2)]
    assert vote_rounds("Riley voted for Casey.", "Morgan", BallotRounds().at(1)) == [("Riley", "Casey", True, None)]
    # without rounds (a statement read on its own), no round
    assert [c.round for c in EX.extract("I voted for Riley.", "Casey")] == [None]


def test_a_given_claim_without_a_round_gets_the_latest_ballot_before_the_statement() -> None:
    ballots = rounds_after(("vote", 1, "Ann", "Bob"), ("banish", 1, "", ""), ("vote", 2, "Ann", "Cat"))
    say = SayEvent.model_validate({"kind": "say", "speaker": "Bob", "to": "all", "channel": "roundtable",
                                   "text": "Ann voted for me.", "claims": [
                                       {"subject": "Ann", "predicate": "voted_for", "object": "Bob"},
                                       {"subject": "Ann", "predicate": "voted_for", "object": "Dan", "round": 1}]})
    filled = with_rounds(say, say.claims, ballots.at(2, table=True), 2)
    assert [c.round for c in filled] == [1, 1]  # the matching round; an explicit round stays
    vote = VoteEvent.model_validate({"kind": "vote", "voter": "Ann", "target": "Cat", "ballot": "banish"})
    own = with_rounds(vote, (Claim(subject="Ann", predicate="voted_for", object="Cat"),), ballots.at(2), 2)
    assert [c.round for c in own] == [2]  # a vote's own claim: its day


def test_a_round_is_only_for_vote_claims() -> None:
    with pytest.raises(ValueError, match="round is only for voted_for"):
        Claim(subject="Ann", predicate="role", object="traitor", round=1)
    assert Claim.model_validate({"subject": "Ann", "predicate": "suspects", "object": "Bob"}).round is None


def test_ones_own_vote_at_the_round_table_is_todays_unless_the_words_say_earlier() -> None:
    table = rounds_after(("vote", 1, "Riley", "Morgan"), ("banish", 1, "", "")).at(2, table=True)
    assert vote_rounds("I voted for Casey.", "Riley", table) == [("Riley", "Casey", True, 2)]
    assert vote_rounds("I voted for Casey yesterday.", "Riley", table) == [("Riley", "Casey", True, 1)]
    assert vote_rounds("I voted for Casey last round, and I stand by it.", "Riley", table) == [
        ("Riley", "Casey", True, 1)]


AVALON = ClaimExtractor(["Alice", "Bob", "Charlie", "Diana", "Eve"], ["Merlin", "assassin", "loyal servant"],
                        ["evil", "good"])


@pytest.mark.parametrize(("speaker", "text", "expected"), [
    # Avalon's sides, from the real games: claims where a player asserts ...
    ("Charlie", "Mission 3 proves either Diana or I am evil; I know I’m good, so Diana is definitely evil and cannot "
                "be on a team I approve.", [("Charlie", "side", "good", True), ("Diana", "side", "evil", True)]),
    ("Henry", "Given how Missions 2 and 3 line up, I’m convinced Eve is evil and at least one of Alice/Charlie is bad",
     [("Eve", "side", "evil", True)]),
    # ... and none where they weigh possibilities
    ("Diana", "That lines up with the theory that Bob and Charlie are the evil pair and Alice is good.", []),
    ("Eve", "We have two consistent worlds with the mission history: (1) Alice is evil plus one of {Bob, Charlie}, or "
            "(2) Alice is good and both Bob and Charlie are evil.", []),
    ("Charlie", "The remaining question is which single player among Alice, Bob, and Eve is good.", []),
])
def test_side_claims_are_read_where_asserted_not_where_possibilities_are_weighed(
        speaker: str, text: str, expected: list[tuple[str, str, str, bool]]) -> None:
    assert [(c.subject, c.predicate, c.object, c.polarity) for c in AVALON.extract(text, speaker, stances=False)] \
        == expected
