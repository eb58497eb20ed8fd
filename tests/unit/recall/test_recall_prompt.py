"""The prompt block of docs/prompt.md, rendered from hand-built recall results and compared line by line."""

from __future__ import annotations

import json

import pytest

from graphmem.model.details import Detail
from graphmem.model.vocabulary import Marker
from graphmem.recall.prompt import (
    DISPLAY_LIMIT,
    check_block,
    display_order,
    memory_lines,
    render_block,
    shorten,
    source_label,
    vague_text,
)
from graphmem.recall.types import ActiveThought
from tests.unit.recall.recall_helpers import memory, result

FLASH = memory("g/memory/Anna/7", Marker.FLASHBULB, "{who} voted to banish you: {content}",
               (Detail("who", "Thomas"), Detail("where", "at the round table"), Detail("when", "3"),
                Detail("quote", "I saw you sneaking around"), Detail("what", "Thomas voted to banish you")),
               score=0.9, emotion_json=json.dumps({"anger": 0.6, "fear": 0.85}), witnesses=("Eleanor", "Marcus"))
CLEAR = memory("g/memory/Anna/6", Marker.CLEAR, "{content}",
               (Detail("when", "3"), Detail("what", "Marcus was whispering with Sarah before the round table.")),
               score=0.7)
TOLD = memory("g/memory/Anna/4", Marker.FUZZY, "{content}",
              (Detail("who", "Eleanor"), Detail("when", "2"), Detail("what", "Marcus has medical training.")),
              day=2, source="direct_told", teller="Eleanor", score=0.6, conflicts=("Marcus",))
WHO_LOST = memory("g/memory/Anna/3", Marker.FUZZY, "{content}",
                  (Detail("who", "Priya", lost=True), Detail("when", "2"), Detail("what", "Sarah is a traitor.")),
                  day=2, source="direct_told", teller="Priya", score=0.5)
VAGUE = memory("g/memory/Anna/1", Marker.VAGUE, "{who} said: {content}",
               (Detail("who", "Eleanor", lost=True), Detail("when", "1", lost=True),
                Detail("quote", "I think the votes at breakfast were rigged, honestly", lost=True),
                Detail("what", "Eleanor started an argument about the votes at breakfast")),
               day=None, source="unknown", score=0.3, about=("Eleanor",))
THOUGHTS = (ActiveThought("g/thought/Anna/9", "You just saw someone sneaking around near your room. Your heart is racing.",
                          0.9, "api", 4, True),
            ActiveThought("g/thought/Anna/8", "Ask Marcus about the mission.", 0.5, "api", 3, False))

EXPECTED = """\
=== ACTIVE THOUGHTS ===
You just saw someone sneaking around near your room. Your heart is racing.
Ask Marcus about the mission.
=== END ACTIVE THOUGHTS ===

=== VIVID MEMORY ===
[FLASHBULB] [Day 3, Roundtable] Thomas voted to banish you: "I saw you sneaking around"
Where: at the round table.
Who was there: Eleanor and Marcus.
Your emotional state at the time: Fear (0.85), Anger (0.60)
=== END VIVID MEMORY ===

=== YOUR MEMORIES ===
(Respond based on what you remember. Clarity markers indicate memory quality.)

1. [FLASHBULB] [Day 3] Thomas voted to banish you: "I saw you sneaking around"
2. [CLEAR] [Day 3] [You witnessed] Marcus was whispering with Sarah before the round table.
3. [FUZZY] [Day 2] [Eleanor told you] Marcus has medical training.
(You have conflicting memories about Marcus.)
4. [FUZZY] [Day 2] [Someone told you] Sarah is a traitor. (You cannot remember who.)
5. [VAGUE] [Source unclear] There was something about "Eleanor started an argument about the"... you think it involved Eleanor.

=== END MEMORIES ===

Note: Some memories are fuzzy. Express appropriate uncertainty for [FUZZY] and [VAGUE] memories.
"""


def test_the_whole_block_matches_the_spec_layout_line_by_line() -> None:
    memories = tuple(display_order([VAGUE, TOLD, CLEAR, WHO_LOST, FLASH]))
    block = render_block(result(memories, THOUGHTS, vivid=FLASH))
    assert block.splitlines() == EXPECTED.splitlines()
    assert block == EXPECTED


def test_display_order_is_flashbulb_clear_fuzzy_vague_then_score() -> None:
    low_clear = memory("g/memory/Anna/0", Marker.CLEAR, "{content}", (Detail("what", "x"),), score=0.95)
    ordered = display_order([VAGUE, WHO_LOST, TOLD, CLEAR, FLASH, low_clear])
    assert [m.uid for m in ordered] == [FLASH.uid, low_clear.uid, CLEAR.uid, TOLD.uid, WHO_LOST.uid, VAGUE.uid]


def test_empty_result_is_the_empty_string() -> None:
    assert render_block(result()) == ""


def test_empty_sections_are_omitted_and_no_note_without_fuzzy() -> None:
    assert render_block(result(thoughts=THOUGHTS[1:])) == \
        "=== ACTIVE THOUGHTS ===\nAsk Marcus about the mission.\n=== END ACTIVE THOUGHTS ===\n"
    block = render_block(result((CLEAR,)))
    assert block.splitlines() == [
        "=== YOUR MEMORIES ===",
        "(Respond based on what you remember. Clarity markers indicate memory quality.)",
        "",
        "1. [CLEAR] [Day 3] [You witnessed] Marcus was whispering with Sarah before the round table.",
        "",
        "=== END MEMORIES ==="]
    assert "VIVID" not in block and "Note:" not in block


@pytest.mark.parametrize(("belief", "teller", "who_lost", "label"), [
    ("first_hand", None, False, "[You witnessed]"),
    ("direct_told", "Eleanor", False, "[Eleanor told you]"),
    ("direct_told", "Eleanor", True, "[Someone told you]"),
    ("direct_told", None, False, "[Someone told you]"),
    ("overheard", "Marcus", False, "[You overheard Marcus]"),
    ("overheard", "Marcus", True, "[You overheard someone]"),
    ("group_discuss", "Thomas", False, "[Said at the round table by Thomas]"),
    ("group_discuss", "Thomas", True, "[Said at the round table by someone]"),
    ("inferred", None, False, "[You worked it out]"),
    ("unknown", "Eleanor", False, "[Source unclear]"),
])
def test_source_labels_come_from_the_belief(belief: str, teller: str | None, who_lost: bool, label: str) -> None:
    m = memory("g/memory/Anna/2", Marker.CLEAR, "{content}",
               (Detail("who", teller or "x", lost=who_lost), Detail("what", "x")), source=belief, teller=teller)
    assert source_label(m) == label


def test_a_misattributed_teller_is_shown_as_believed() -> None:
    m = memory("g/memory/Anna/2", Marker.CLEAR, "{content}", (Detail("who", "Eleanor"), Detail("what", "X")),
               source="direct_told", teller="Marcus", misattributed=True)
    assert memory_lines(m, 1) == ["1. [CLEAR] [Day 3] [Marcus told you] X"]


def test_a_told_flashbulb_keeps_its_source_label() -> None:
    m = memory("g/memory/Anna/2", Marker.FLASHBULB, "{content}", (Detail("who", "Eleanor"), Detail("what", "X.")),
               source="direct_told", teller="Eleanor")
    assert memory_lines(m, 2) == ["2. [FLASHBULB] [Day 3] [Eleanor told you] X."]


def test_lost_when_drops_the_day_and_a_fabricated_day_shows() -> None:
    lost = memory("g/memory/Anna/2", Marker.CLEAR, "{content}", (Detail("when", "3", lost=True), Detail("what", "X")),
                  day=None)
    assert memory_lines(lost, 1) == ["1. [CLEAR] [You witnessed] X"]
    fabricated = memory("g/memory/Anna/2", Marker.CLEAR, "{content}",
                        (Detail("when", "4", fabricated=True, original="3"), Detail("what", "X")), day=4)
    assert memory_lines(fabricated, 1) == ["1. [CLEAR] [Day 4] [You witnessed] X"]


def test_lost_who_reads_someone_capitalised_and_only_fuzzy_gets_the_clause() -> None:
    details = (Detail("who", "Thomas", lost=True), Detail("when", "3"), Detail("what", "voted"))
    fuzzy = memory("g/memory/Anna/2", Marker.FUZZY, "{who} voted to banish you.", details)
    clear = memory("g/memory/Anna/2", Marker.CLEAR, "{who} voted to banish you.", details)
    assert memory_lines(fuzzy, 1) == [
        "1. [FUZZY] [Day 3] [You witnessed] Someone voted to banish you. (You cannot remember who.)"]
    assert memory_lines(clear, 1) == ["1. [CLEAR] [Day 3] [You witnessed] Someone voted to banish you."]


def test_a_name_in_lower_case_keeps_its_case_at_the_start_of_a_line() -> None:
    # the Avalon-NLU players are player-1 ... player-6: "Player-5" would be no player of the game
    details = (Detail("who", "player-5"), Detail("whom", "player-2"), Detail("when", "3"), Detail("what", "proposed"))
    proposed = memory("g/memory/player-1/m24", Marker.CLEAR, "{who} proposed a team of you and {whom}", details)
    assert memory_lines(proposed, 1) == ["1. [CLEAR] [Day 3] [You witnessed] player-5 proposed a team of you and "
                                         "player-2"]
    told = memory("g/memory/player-1/m30", Marker.CLEAR, "{who} told you: {content}",
                  (Detail("who", "player-5"), Detail("when", "3"), Detail("quote", '"trust me"'),
                   Detail("what", "trust me")), source="direct_told", teller="player-5")
    assert memory_lines(told, 1) == ['1. [CLEAR] [Day 3] [player-5 told you] player-5 told you: "trust me"']
    # a word that only begins like a name is still a sentence's first word
    playful = memory("g/memory/player-1/m31", Marker.CLEAR, "{content}",
                     (Detail("what", "players agreed"),), about=("player",))
    assert memory_lines(playful, 1) == ["1. [CLEAR] [Day 3] [You witnessed] Players agreed"]


def test_vague_lines_read_vaguely() -> None:
    assert vague_text(VAGUE) == 'There was something about "Eleanor started an argument about the"... you think it ' \
                                'involved Eleanor.'
    nobody = memory("g/memory/Anna/2", Marker.VAGUE, "{content}", (Detail("what", "The castle is cold."),))
    assert vague_text(nobody) == 'There was something about "The castle is cold"...'
    many = memory("g/memory/Anna/2", Marker.VAGUE, "{who} told {whom}: {content}",
                  (Detail("who", "Thomas"), Detail("whom", "Sarah"), Detail("what", "Vote for Priya")),
                  about=("Priya", "Marcus", "Anna"))
    assert vague_text(many, owner="Anna") == \
        'There was something about "Vote for Priya"... you think it involved Thomas, Sarah, Priya and others.'


def test_long_quotes_are_shortened_for_display_only() -> None:
    words = " ".join(f"word{i}" for i in range(400))
    m = memory("g/memory/Anna/2", Marker.CLEAR, "{who} said: {content}",
               (Detail("who", "Riley"), Detail("when", "3"), Detail("quote", words), Detail("what", "word0")))
    [line] = memory_lines(m, 1)
    quoted = line.split(": ", 1)[1]
    assert quoted.startswith('"word0 word1') and quoted.endswith('..."')
    assert len(quoted) <= DISPLAY_LIMIT + 2
    assert len(m.text) > 2000  # the memory itself keeps every word


def test_shorten_cuts_at_a_word() -> None:
    assert shorten("short text") == "short text"
    assert shorten("alpha beta gamma delta", 12) == "alpha..."
    assert shorten("a\n  b") == "a b"


def test_vivid_shows_exact_words_only_when_kept_and_not_in_the_line() -> None:
    from graphmem.recall.prompt import vivid_lines

    told = memory("g/memory/Anna/7", Marker.FLASHBULB, "{content}",
                  (Detail("when", "3"), Detail("quote", "You are next."), Detail("what", "A threat")), score=0.9)
    assert vivid_lines(told) == ['[FLASHBULB] [Day 3, Roundtable] "You are next."']
    gist_only = memory("g/memory/Anna/7", Marker.FLASHBULB, "{who} threatened you.",
                       (Detail("who", "Thomas"), Detail("quote", "You are next.")), day=None, phase_name="night")
    assert vivid_lines(gist_only) == ["[FLASHBULB] [Night] Thomas threatened you.", 'Exact words: "You are next."']
    lost = memory("g/memory/Anna/7", Marker.FLASHBULB, "{who} threatened you.",
                  (Detail("who", "Thomas"), Detail("quote", "You are next.", lost=True)), day=None, phase_name=None)
    assert vivid_lines(lost) == ["[FLASHBULB] Thomas threatened you."]


def test_the_grammar_check_accepts_the_spec_layout_and_names_each_violation() -> None:
    assert check_block(EXPECTED) == []
    assert check_block("") == []
    assert check_block(render_block(result((CLEAR,)))) == []
    broken = {
        "no note": EXPECTED.replace("\n\nNote: Some memories are fuzzy. Express appropriate uncertainty for [FUZZY] "
                                    "and [VAGUE] memories.", ""),
        "numbering": EXPECTED.replace("2. [CLEAR]", "3. [CLEAR]"),
        "band order": EXPECTED.replace("2. [CLEAR]", "2. [VAGUE]"),
        "no source": EXPECTED.replace(" [You witnessed]", ""),
        "no blank": EXPECTED.replace("=== END ACTIVE THOUGHTS ===\n\n", "=== END ACTIVE THOUGHTS ===\n"),
        "two blanks": EXPECTED.replace("=== END ACTIVE THOUGHTS ===\n\n", "=== END ACTIVE THOUGHTS ===\n\n\n"),
        "unclosed": EXPECTED.replace("=== END VIVID MEMORY ===", ""),
        "order": EXPECTED.split("\n\n", 1)[1] + "\n" + EXPECTED.split("\n\n", 1)[0] + "\n",
        "stray": EXPECTED.replace("1. [FLASHBULB]", "1) [FLASHBULB]"),
        "newline": EXPECTED.rstrip("\n"),
        "vivid": EXPECTED.replace("Who was there:", "Present:"),
    }
    for name, block in broken.items():
        assert check_block(block), name


SAID = memory("g/memory/Anna/2", Marker.FUZZY, "You said {where}: {content}",
              (Detail("where", "at the round table"), Detail("when", "1"),
               Detail("quote", "I'm voting for Beef, he has been too quiet"),
               Detail("what", "I'm voting for Beef, he has been too quiet")),
              day=1, own=True)
VOTED = memory("g/memory/Anna/10", Marker.CLEAR, "You voted to banish {whom}",
               (Detail("whom", "Beef"), Detail("when", "1"), Detail("what", "You voted to banish Beef")),
               day=1, kind="vote", own=True)


def test_the_owners_own_statements_and_votes_keep_their_source() -> None:
    """docs/model.md#source-memory: "You said ..." / "You voted ...", never "[Source unclear]" nor "[You witnessed] You said"."""
    assert source_label(SAID) == ""
    assert memory_lines(SAID, 1, "Anna") == ['1. [FUZZY] [Day 1] You said at the round table: "I\'m voting for Beef, '
                                             'he has been too quiet"']
    assert memory_lines(VOTED, 2, "Anna") == ["2. [CLEAR] [Day 1] You voted to banish Beef"]
    vague_said = memory("g/memory/Anna/2", Marker.VAGUE, SAID.template, SAID.details, day=1, own=True)
    assert memory_lines(vague_said, 3, "Anna") == [
        '3. [VAGUE] [Day 1] You said something about "I\'m voting for Beef, he has"...']
    vague_vote = memory("g/memory/Anna/10", Marker.VAGUE, VOTED.template, VOTED.details, day=1, kind="vote",
                        own=True)
    assert memory_lines(vague_vote, 4, "Anna") == ["4. [VAGUE] [Day 1] You voted to banish Beef... you think it "
                                                   "involved Beef."]
    block = render_block(result((VOTED, SAID, vague_said)))
    assert "[Source unclear]" not in block and "[You witnessed] You" not in block
    assert check_block(block) == []


def test_a_conflict_shows_once_in_a_players_words_after_the_first_memory_that_holds_it() -> None:
    words = "Riley defended Casey on day 1 and accused Casey on day 3."
    key = "g/conflict/Anna/abc"
    first = memory("g/memory/Anna/7", Marker.CLEAR, "{content}", (Detail("what", "Riley: I trust Casey."),),
                   score=0.8, conflicts=("Casey",), conflict_lines=((key, words),))
    second = memory("g/memory/Anna/8", Marker.FUZZY, "{content}", (Detail("what", "Riley: Casey is shady."),),
                    score=0.4, conflicts=("Casey",), conflict_lines=((key, words),))
    old = memory("g/memory/Anna/9", Marker.FUZZY, "{content}", (Detail("what", "Dan is a traitor."),),
                 score=0.3, conflicts=("Dan",))  # a conflict stored without words: the generic line
    block = render_block(result((first, second, old)))
    lines = block.splitlines()
    assert lines.count(f"({words})") == 1
    assert lines[lines.index(f"({words})") - 1].startswith("1. [CLEAR]")
    assert "(You have conflicting memories about Dan.)" in lines
    assert check_block(block) == []
    as_json = result((first, second, old)).as_dict()["memories"]
    assert as_json[1]["conflicts"] == [words] and as_json[2]["conflicts"] == ["You have conflicting memories about Dan."]


def test_a_memory_of_an_earlier_game_of_the_series_names_its_game() -> None:
    # docs/prompt.md#day-labels: [Game G, Day D], [Game G] once the day is lost; the vivid header too
    from dataclasses import replace

    from graphmem.recall.prompt import vivid_lines

    earlier_told = replace(TOLD, game="g-3", series_game=3)
    earlier_vague = replace(VAGUE, game="g-3", series_game=3)
    earlier_flash = replace(FLASH, game="g-1", series_game=1)
    assert memory_lines(earlier_told, 1) == ["1. [FUZZY] [Game 3, Day 2] [Eleanor told you] Marcus has medical "
                                             "training.", "(You have conflicting memories about Marcus.)"]
    assert memory_lines(earlier_vague, 2)[0].startswith("2. [VAGUE] [Game 3] [Source unclear] There was something")
    assert vivid_lines(earlier_flash)[0] == ('[FLASHBULB] [Game 1, Day 3, Roundtable] Thomas voted to banish you: '
                                             '"I saw you sneaking around"')
    block = render_block(result(tuple(display_order([earlier_vague, TOLD, earlier_told, CLEAR, earlier_flash])),
                                vivid=earlier_flash))
    assert "[Game 3, Day 2]" in block and check_block(block) == []
