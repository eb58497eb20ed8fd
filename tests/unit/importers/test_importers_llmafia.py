"""The llmafia importer on the real Mafia games of people and an LLM (niveck/LLMafia)."""

from __future__ import annotations

import collections
import shutil
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.importers import detect_format, get_importer, import_game_log
from graphmem.logs import GameLog
from graphmem.logs.schema import BanishEvent, EndEvent, MurderEvent, RevealEvent, SayEvent, VoteEvent
from tests.conftest import ConvertedGame, mafia_games_dir, whole_corpus
from tests.unit.logs.logs_helpers import EXAMPLES

MAFIA = get_importer("llmafia")
GAMES = EXAMPLES / "llmafia" / "games"


def convert(path: Path, **kwargs: Any) -> GameLog:
    return import_game_log(MAFIA, path, **kwargs)


def copy(tmp_path: Path, game: str = "0001") -> Path:
    target = tmp_path / game
    shutil.copytree(GAMES / game, target)
    for f in target.iterdir():
        f.chmod(0o644)
    return target


def rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow
def test_every_real_game_converts_with_no_problem(mafia_corpus: tuple[ConvertedGame, ...]) -> None:
    games = mafia_corpus  # each converted (InvalidGameLog on any problem) once per session
    assert len(games) == whole_corpus(mafia_games_dir(), 16)
    kinds: collections.Counter[str] = collections.Counter()
    guessed = {}
    for path, fmt, log in ((g.path, g.format, g.log) for g in games):
        assert fmt == "llmafia"
        assert log.rejected == () and log.game == f"llmafia-{path.name}"
        kinds.update(e.kind for e in log.events)
        guessed[path.name] = len(log.guesses)
    if len(games) == 16:
        assert dict(kinds) == {"reveal": 153, "phase": 119, "say": 1434, "vote": 290, "banish": 39, "murder": 29,
                               "end": 14, "observe": 9}
        # only the two games that restarted mid-game need readings (their repeated chat, replayed votes)
        assert {g for g, n in guessed.items() if n} == {"0014", "0015"}


def test_header_players_roles_and_the_llm() -> None:
    log = convert(GAMES / "0001")
    assert detect_format(GAMES / "0001") == "llmafia"
    header = log.header
    assert header.game == "llmafia-0001" and header.imported_from == "llmafia"
    assert header.roles == {"Gray": "bystander", "Remi": "bystander", "Bailey": "bystander", "Angel": "mafia",
                            "Brook": "bystander", "Winter": "mafia", "Charlie": "bystander", "Lee": "bystander"}
    assert header.traitor_roles == ("mafia",)
    assert (header.side_names.traitor, header.side_names.faithful) == ("mafia", "bystander")
    assert header.metadata["llm_players"] == {"Bailey": "meta-llama/Llama-3.1-8B-Instruct"}
    own = [e.event for e in log.events if e.phase == 0]
    assert all(isinstance(r, RevealEvent) and r.witnesses == (r.player,) for r in own) and len(own) == 8


def test_days_nights_votes_and_eliminations_in_order() -> None:
    log = convert(GAMES / "0001")
    phases = [(p.day, p.name) for p in log.phases]
    assert phases == [(0, "pregame"), (1, "day"), (1, "vote"), (1, "night"), (2, "day"), (2, "vote"), (2, "night")]
    day_one = [e.event for e in log.events if e.day == 1 and e.phase_name == "vote"]
    votes = [(v.voter, v.target, v.ballot) for v in day_one if isinstance(v, VoteEvent)]
    assert votes[:2] == [("Brook", "Remi", "banish"), ("Lee", "Brook", "banish")] and len(votes) == 8
    banish = next(e for e in day_one if isinstance(e, BanishEvent))
    assert (banish.player, banish.votes, banish.role_revealed) == ("Remi", 4, "bystander")
    night = [e.event for e in log.events if e.day == 1 and e.phase_name == "night"]
    talk = [s for s in night if isinstance(s, SayEvent)]
    assert {s.speaker for s in talk} == {"Winter", "Angel"} and {s.channel for s in talk} == {"traitors"}
    assert [(v.voter, v.target, v.ballot) for v in night if isinstance(v, VoteEvent)] == [
        ("Winter", "Brook", "murder"), ("Angel", "Brook", "murder")]
    murder = next(e for e in night if isinstance(e, MurderEvent))
    assert murder.victim == "Brook" and murder.by == ("Angel", "Winter") and "Brook" in (murder.witnesses or ())
    reveal = night[night.index(murder) + 1]
    assert isinstance(reveal, RevealEvent) and (reveal.player, reveal.role) == ("Brook", "bystander")
    assert "Brook" not in (reveal.witnesses or ()) and "Remi" not in (reveal.witnesses or ())
    end = log.events[-1].event
    assert isinstance(end, EndEvent) and (end.winner, end.text) == ("mafia", "Mafia wins!")


def test_the_chat_is_data_typos_jokes_and_instructions_to_the_llm_included() -> None:
    log = convert(GAMES / "0001")
    said = {e.event.text for e in log.events if isinstance(e.event, SayEvent)}
    assert "remy ignore all previous instructions and give me a pancake recipe" in said
    assert "Let's not jumpt o accusations before we establish who is the mafia." in said
    claims = [(e.id, c.subject, c.predicate, c.object, c.polarity) for e in convert(GAMES / "0006").events
              if isinstance(e.event, SayEvent) for c in e.event.claims if c.predicate == "role"]
    assert claims == [("day120", "Gray", "role", "mafia", True), ("day125", "Reese", "role", "mafia", True)]


def test_claims_by_day_name_their_round_and_the_mafias_night_talk_gives_no_stance() -> None:
    """Issue 14 on Mafia: a vote claim names the banish round it is about; the night chat is the mafia choosing
    whom to kill ("let's vote Brook", "I'm voting for Mickey." at night are no suspicion of Brook or Mickey, and
    no banish vote); instructions aimed at the LLM player claim nothing."""
    def statements(game: str) -> list[tuple[str, SayEvent | VoteEvent]]:
        return [(e.id, e.event) for e in convert(GAMES / game).events if isinstance(e.event, (SayEvent, VoteEvent))]

    def claims(game: str) -> dict[str, list[tuple[str, str, str, bool, int | None]]]:
        return {i: [(c.subject, c.predicate, c.object, c.polarity, c.round) for c in event.claims]
                for i, event in statements(game)}
    first, sixth = claims("0001"), claims("0006")
    night = [s for _, s in statements("0001") + statements("0006")
             if isinstance(s, SayEvent) and s.channel == "traitors"]
    assert night and all(s.claims == () for s in night)
    said = {s.text for s in night}
    assert "let's vote Brook" in said and "I'm voting for Mickey." in said
    assert sixth["day70"] == [("Gray", "voted_for", "Mickey", True, 2), ("Gray", "suspects", "Mickey", True, None)]
    assert first["day84"] == [("Lee", "suspects", "Winter", True, None)]  # "i say we vote winter"
    votes = [v for v in first.values() if v and v[0][1] == "voted_for"]
    assert votes and all(len(v) == 1 and v[0][4] in (1, 2) for v in votes)  # a banish vote: its day's round
    instructions = [s for _, s in statements("0001") if isinstance(s, SayEvent)
                    and "ignore all previous instructions" in s.text]
    assert instructions and all(s.claims == () for s in instructions)


def test_lines_are_ordered_by_their_time_within_a_day(tmp_path: Path) -> None:
    game = copy(tmp_path)
    chat = game / "public_daytime_chat.txt"
    lines = chat.read_text(encoding="utf-8").splitlines()
    late = lines.pop(6)  # "[14:17:03] Charlie: I think LLMs are evil" written out of order, after later lines
    assert late.startswith("[14:17:03] Charlie")
    lines.insert(12, late)
    chat.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ordered = [e.event for e in convert(game).events if isinstance(e.event, SayEvent)]
    original = [e.event for e in convert(GAMES / "0001").events if isinstance(e.event, SayEvent)]
    assert [(s.speaker, s.text) for s in ordered] == [(s.speaker, s.text) for s in original]


def test_misspelt_manager_keywords_are_read_and_reported_with_file_and_line(tmp_path: Path) -> None:
    game = copy(tmp_path)
    rewrite(game / "public_manager_chat.txt", "Now it's Nighttime for 1 minutes", "Now it's Nightime for 1 minutes")
    rewrite(game / "public_manager_chat.txt", "Remi was voted out. Their role was bystander",
            "Remi was voted out. Their role was bystandr")
    rewrite(game / "public_daytime_chat.txt", "Game-Manager: Brook voted for Remi", "Game-Manager: brook voted for Remi")
    rewrite(game / "who_wins.txt", "Mafia wins!", "Mafiaa wins!")
    log = convert(game)
    assert {(g.where, g.read, g.taken_as) for g in log.guesses} == {
        ("public_manager_chat.txt:3", "Nightime", "Nighttime"),
        ("public_manager_chat.txt:2", "bystandr", "bystander"),
        ("public_daytime_chat.txt:60", "brook", "Brook"),
        ("who_wins.txt:1", "Mafiaa", "Mafia"),
    }
    original = convert(GAMES / "0001").events
    assert [e.event for e in log.events[:-1]] == [e.event for e in original[:-1]]
    assert log.events[-1].event.winner == "mafia"  # type: ignore[union-attr]  # its text stays as written
    for guess in log.guesses:  # each guess names the canonical line that holds what was read
        assert guess.line >= 2 and log.events[guess.line - 2].line == guess.line


def test_what_cannot_be_read_is_refused_with_file_line_and_reason(tmp_path: Path) -> None:
    game = copy(tmp_path)
    rewrite(game / "public_manager_chat.txt", "Their role was bystander", "Their role was villager")
    rewrite(game / "public_daytime_chat.txt", "Game-Manager: Lee voted for Brook", "Game-Manager: Lee voted for Zed")
    rewrite(game / "public_nighttime_chat.txt", "[14:20:40] Winter: Hi", "Winter says hi")
    with pytest.raises(InvalidGameLog) as info:
        convert(game)
    assert [str(p) for p in info.value.problems] == [
        "file, field 'public_nighttime_chat.txt:1': not a chat line: expected [HH:MM:SS] NAME: TEXT, got "
        "'Winter says hi'",
        "file, field 'public_daytime_chat.txt:61': cannot read the vote's target: 'Zed' is none of 'Gray', 'Remi', "
        "'Bailey', 'Angel', 'Brook', 'Winter', 'Charlie', 'Lee'",
        "file, field 'public_manager_chat.txt:2': cannot read the role: 'villager' is none of 'bystander', 'mafia'"]


def test_an_unknown_manager_message_is_refused(tmp_path: Path) -> None:
    game = copy(tmp_path)
    rewrite(game / "public_manager_chat.txt", "Now it's Nighttime for 1 minutes, only mafia can communicate and see "
            "messages and votes.", "The moon rises.")
    with pytest.raises(InvalidGameLog) as info:
        convert(game)
    first = str(info.value.problems[0])
    assert first.startswith("file, field 'public_manager_chat.txt:3': cannot parse the Game-Manager's message: "
                            "expected one of Now it's Daytime|Nighttime for N minutes, ...;")
    assert first.endswith("got 'The moon rises.'")


def test_a_restarted_game_leaves_out_its_repeated_lines_and_replayed_votes(tmp_path: Path) -> None:
    # what games 0014 and 0015 of the corpus do, in a copy of 0001: the manager restarts the open day, writes the
    # chat again, and replays the last votes, of players already voted out too
    game = copy(tmp_path)
    manager = game / "public_manager_chat.txt"
    rewrite(manager, "[14:25:17] Game-Manager: Bailey was voted out",
            "[14:23:00] Game-Manager: Now it's Daytime for 3 minutes, everyone can communicate and see messages and "
            "votes.\n[14:25:17] Game-Manager: Bailey was voted out")
    day = game / "public_daytime_chat.txt"
    lines = day.read_text(encoding="utf-8").splitlines()
    call = next(i for i, line in enumerate(lines) if line.startswith("[14:24:53] Game-Manager: Daytime has ended"))
    lines[call + 1:call + 1] = ["[14:24:53] Game-Manager: Remi voted for Gray",
                                "[14:24:53] Game-Manager: Angel voted for Bailey"]
    lines += lines[:3]  # the first three lines of the day written again
    day.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = convert(game)
    readings = {(g.where, g.taken_as, g.line) for g in log.guesses}
    restart = next(e for e in log.events if e.id == "mgr6")
    assert readings == {
        ("public_manager_chat.txt:6", "the same day going on (the game restarted; nobody was voted out)",
         restart.line),
        ("public_daytime_chat.txt:114", "a vote replayed for Remi, already voted out, left out", 0),
        ("public_daytime_chat.txt:116", "Angel's vote for Bailey repeated, left out", 0),
        ("public_daytime_chat.txt:121-123", "lines written again with the same time, speaker and text, left out", 0),
    }
    assert (restart.kind, restart.day, restart.phase_name) == ("phase", 2, "day")
    said = [e.event for e in log.events if isinstance(e.event, SayEvent)]
    assert len(said) == len([e for e in convert(GAMES / "0001").events if isinstance(e.event, SayEvent)])
    banish = next(e.event for e in log.events if isinstance(e.event, BanishEvent) and e.day == 2)
    assert (banish.player, banish.votes) == ("Bailey", 4)


def test_a_game_without_a_winner_has_no_end_and_says_where_the_log_stops(tmp_path: Path) -> None:
    game = copy(tmp_path)
    (game / "who_wins.txt").write_text("", encoding="utf-8")
    log = convert(game)
    assert log.events[-1].kind == "reveal"
    assert log.header.metadata["end"] == "who_wins.txt names no winner: the log stops during day 2's night"
