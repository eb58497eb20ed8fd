"""Reading keywords the way a person would: what is read, as what, and what is refused with a reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.importers.keywords import edit_distance, fold, read_keyword

CHOICES = ("END_GAME", "CONTINUE_PLAYING")


@pytest.mark.parametrize(("written", "taken"), [
    ("CONTINUE_PLAYINGNG", "CONTINUE_PLAYING"),     # the last letters repeated (the example)
    ("CONTINUE_PLAYINGNGNG", "CONTINUE_PLAYING"),
    ("continue playing", "CONTINUE_PLAYING"),       # case and spacing
    ("Continue-Playing", "CONTINUE_PLAYING"),
    ("CONTINUEPLAYING", "CONTINUE_PLAYING"),
    ("CONTINUE_PLAY", "CONTINUE_PLAYING"),          # letters missing at the end
    ("CONTNUE_PLAYING", "CONTINUE_PLAYING"),        # a letter dropped
    ("END_GMAE", "END_GAME"),                       # two letters swapped
    ("end game", "END_GAME"),
    ("END_GAME.", "END_GAME"),
])
def test_near_spellings_are_read_as_the_keyword_and_are_guesses(written: str, taken: str) -> None:
    reading = read_keyword(written, CHOICES)
    assert (reading.keyword, reading.guessed, reading.reason) == (taken, True, "")


def test_the_keyword_as_written_is_no_guess() -> None:
    reading = read_keyword("END_GAME", CHOICES)
    assert (reading.keyword, reading.exact, reading.guessed) == ("END_GAME", True, False)


@pytest.mark.parametrize(("written", "vocabulary", "taken"), [
    ("Approve", ("approve", "reject"), "approve"),
    ("approved", ("approve", "reject"), "approve"),
    ("rejcet", ("approve", "reject"), "reject"),
    ("failed", ("success", "fail"), "fail"),
    ("succes", ("success", "fail"), "success"),
    ("Dianna", ("Alice", "Bob", "Diana", "Eve"), "Diana"),
    ("bystandr", ("bystander", "mafia"), "bystander"),
    ("Daytme", ("Daytime", "Nighttime"), "Daytime"),
])
def test_values_of_the_new_corpora(written: str, vocabulary: tuple[str, ...], taken: str) -> None:
    assert read_keyword(written, vocabulary).keyword == taken


@pytest.mark.parametrize(("written", "vocabulary", "reason"), [
    ("MAYBE", CHOICES, "'MAYBE' is none of 'END_GAME', 'CONTINUE_PLAYING'"),
    ("END", CHOICES, "'END' is none of 'END_GAME', 'CONTINUE_PLAYING'"),          # too little of the keyword left
    ("Arie", ("Ari", "Ariel"), "'Arie' could be 'Ari' or 'Ariel'"),                 # two players equally near
    ("Eva", ("Eve", "Bob"), "'Eva' is none of 'Eve', 'Bob'"),                       # short names must be exact
    ("   ", CHOICES, "'   ' is empty where one of 'END_GAME', 'CONTINUE_PLAYING' is expected"),
])
def test_what_a_person_could_not_read_is_refused_with_the_reason(written: str, vocabulary: tuple[str, ...],
                                                                 reason: str) -> None:
    reading = read_keyword(written, vocabulary)
    assert (reading.keyword, reading.guessed, reading.reason) == (None, False, reason)


def test_fold_and_edit_distance() -> None:
    assert fold(" Continue_Playing-now ") == "continueplayingnow"
    assert edit_distance("fail", "fial") == 1 and edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3


@given(st.text(max_size=12), st.lists(st.text(min_size=1, max_size=10), min_size=1, max_size=5))
def test_a_reading_is_a_keyword_of_the_vocabulary_or_a_refusal_with_a_reason(text: str, vocabulary: list[str]) -> None:
    reading = read_keyword(text, vocabulary)
    if reading.keyword is None:
        assert reading.reason and not reading.guessed
    else:
        assert reading.keyword in vocabulary and reading.reason == ""
        assert reading.exact == (text == reading.keyword)


@given(st.sampled_from(["approve", "reject", "success", "fail", "Merlin", "Percival"]))
def test_every_keyword_reads_as_itself_exactly(keyword: str) -> None:
    reading = read_keyword(keyword, ["approve", "reject", "success", "fail", "Merlin", "Percival"])
    assert reading.keyword == keyword and reading.exact


@pytest.mark.parametrize("written", ["player-42", "player-41", "player-7", "player-4-2", "player-04x", "player"])
def test_a_number_is_never_guessed(written: str) -> None:
    players = [f"player-{i}" for i in range(1, 7)]
    reading = read_keyword(written, players)  # player-42 was read as player-4 (two letters added at the end)
    assert reading.keyword is None and reading.reason.startswith(f"{written!r} is none of"), reading


def test_a_misspelt_name_with_its_number_as_written_is_still_read() -> None:
    players = [f"player-{i}" for i in range(1, 7)]
    assert read_keyword("Playr 4", players).keyword == "player-4" and read_keyword("player-4.", players).guessed
