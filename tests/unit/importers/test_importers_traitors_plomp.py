"""The traitors-plomp importer on the real LLM Traitors logs."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InvalidGameLog
from graphmem.importers import get_importer, import_game_log, load_game_log
from graphmem.importers.traitors_plomp import MAPPED_TYPES, compile_patterns, match_text
from graphmem.logs import GameLog
from tests.conftest import ConvertedGame, whole_corpus
from tests.unit.logs.logs_helpers import EXAMPLES

PLOMP = get_importer("traitors-plomp")


def convert(path: Path, **kwargs: Any) -> GameLog:
    return import_game_log(PLOMP, path, **kwargs)


def save(folder: Path, plomp: dict[str, Any]) -> None:
    (folder / "plomp.json").write_text(json.dumps(plomp), encoding="utf-8")


def event_items(plomp: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(i, it) for i, it in enumerate(plomp["buffer_items"]) if it["type"] == "event"]


# --- all 40 real games -------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_all_40_real_games_convert_with_zero_problems(real_games_path: Path,
                                                       traitors_corpus: tuple[ConvertedGame, ...]) -> None:
    folders = sorted(p for p in real_games_path.iterdir() if p.is_dir())
    assert len(folders) == whole_corpus(real_games_path, 40)
    assert [g.path for g in traitors_corpus] == folders  # every folder is one game, converted (InvalidGameLog else)
    kinds: collections.Counter[str] = collections.Counter()
    plomp_types: set[str] = set()
    for folder, log in ((g.path, g.log) for g in traitors_corpus):
        assert log.rejected == () and log.game == folder.name
        kinds.update(e.kind for e in log.events)
        plomp = json.loads((folder / "plomp.json").read_text(encoding="utf-8"))
        plomp_types.update(it["data"]["payload"]["plomp_display_event_type"] for _, it in event_items(plomp))
    assert plomp_types <= set(MAPPED_TYPES)
    if len(folders) == 40:  # the event counts of the whole corpus
        assert dict(kinds) == {"say": 2110, "vote": 1080, "phase": 546, "reveal": 310, "observe": 205, "banish": 141,
                               "murder": 79, "end": 40}


@pytest.mark.slow
def test_every_plomp_event_becomes_exactly_one_canonical_event(traitors_corpus: tuple[ConvertedGame, ...]) -> None:
    for folder, log in ((g.path, g.log) for g in traitors_corpus[:10]):
        plomp = json.loads((folder / "plomp.json").read_text(encoding="utf-8"))
        ids = [e.id for e in log.events if e.kind != "phase"]
        assert ids == [f"b{i}" for i, _ in event_items(plomp)]


@pytest.mark.slow
def test_witness_rules_on_every_real_game(traitors_corpus: tuple[ConvertedGame, ...]) -> None:
    for folder, log in ((g.path, g.log) for g in traitors_corpus):
        traitors = {p.name for p in log.header.players if p.role == "traitor"}
        eliminated: set[str] = set()
        for logged in log.events:
            e = logged.event
            if e.kind == "phase":
                continue
            witnesses = set(getattr(e, "witnesses", None) or ())
            assert not witnesses & eliminated, (folder.name, logged.id)
            if e.kind == "say" and e.channel == "private":
                assert witnesses == {e.speaker, *e.to}, (folder.name, logged.id)
            decision = e.kind == "observe" and e.text.startswith("The traitors have decided")
            if (e.kind == "say" and e.channel == "traitors") or (e.kind == "vote" and e.ballot == "murder") \
                    or decision:
                assert witnesses == traitors - eliminated, (folder.name, logged.id)
            if e.kind == "murder":
                assert witnesses == {p.name for p in log.header.players} - eliminated
                assert set(e.by or ()) == traitors - eliminated
                eliminated.add(e.victim)
            if e.kind == "banish":
                assert e.player in witnesses
                eliminated.add(e.player)


def test_day_and_phase_synthesis_against_result_json() -> None:
    folder = EXAMPLES / "traitors-llm" / "yy0et4ne"
    result = json.loads((folder / "result.json").read_text(encoding="utf-8"))["result"]
    log = convert(folder)
    fates = [(e.kind, e.event.player if e.kind == "banish" else e.event.victim, e.day, e.phase_name)  # type: ignore[union-attr]
             for e in log.events if e.kind in ("banish", "murder")]
    assert [name for _, name, _, _ in fates] == result["eliminated"]
    assert fates == [
        ("banish", "Sudz", 1, "banishment"), ("murder", "Alessandra", 2, "breakfast"),
        ("banish", "Dominic", 2, "banishment"), ("murder", "Ellis", 3, "breakfast"),
        ("banish", "Beef", 3, "banishment")]
    assert [(p.day, p.name) for p in log.phases] == [
        (0, "pregame"), (1, "social"), (1, "roundtable"), (1, "banishment"), (1, "night"),
        (2, "breakfast"), (2, "social"), (2, "roundtable"), (2, "banishment"), (2, "night"),
        (3, "breakfast"), (3, "final"), (3, "banishment")]
    end = log.events[-1]
    assert (end.kind, end.day, end.event.winner) == ("end", result["rounds"], result["winner_type"])  # type: ignore[union-attr]
    assert {e.phase_name for e in log.events if e.kind in ("reveal", "observe")} >= {"pregame"}
    assert log.events[0].kind == "reveal" and log.events[0].day == 0


@pytest.mark.slow
def test_day_equals_the_engine_round_except_when_the_game_ends_at_breakfast(
        traitors_corpus: tuple[ConvertedGame, ...]) -> None:
    for folder, log in ((g.path, g.log) for g in traitors_corpus):
        plomp = json.loads((folder / "plomp.json").read_text(encoding="utf-8"))
        end_payload = next(it["data"]["payload"] for _, it in event_items(plomp)
                           if it["data"]["payload"]["plomp_display_event_type"] == "GAME_END")
        end = log.events[-1]
        expected = end_payload["round"] + (1 if end.phase_name == "breakfast" else 0)
        assert end.day == expected, folder.name


def test_a_second_final_round_and_a_night_without_murder_start_new_days() -> None:
    # 7gnzt9jo: its one traitor is banished on day 1, so there are no murders, and there are two final rounds
    log = convert(Path(__file__).resolve().parents[2] / "data" / "plomp" / "7gnzt9jo")
    assert [(p.day, p.name) for p in log.phases][1:] == [
        (1, "social"), (1, "roundtable"), (1, "banishment"),
        (2, "social"), (2, "roundtable"), (2, "banishment"),
        (3, "social"), (3, "roundtable"), (3, "banishment"),
        (4, "final"), (4, "banishment"), (5, "final"), (5, "banishment")]


def test_header_keeps_roles_source_licence_and_models() -> None:
    log = convert(EXAMPLES / "traitors-llm" / "433y9yyp")
    h = log.header
    assert h.game == "433y9yyp" and h.imported_from == "traitors-plomp"
    assert h.roles == {"Casey": "faithful", "Fletcher": "faithful", "Gwendolyn": "faithful", "Morgan": "faithful",
                       "Parker": "faithful", "Riley": "traitor", "Taylor": "faithful"}
    assert list(h.roles) == ["Casey", "Fletcher", "Gwendolyn", "Morgan", "Parker", "Riley", "Taylor"]  # GAME_START
    assert "michaelgiba/the-traitors" in (h.source or "") and (h.licence or "").startswith("MIT")
    assert "single_traitor" in h.title
    models = h.metadata["models"]
    assert isinstance(models, dict) and models["Riley"] == "groq-meta-llama/llama-4-scout-17b-16e-instruct"
    assert h.metadata["game_end"] == {"round": 3, "reason": "unanimous_vote",
                                      "prize_distribution": {"Riley": 500000.0}}


def test_statements_carry_role_claims_and_votes_carry_voted_for() -> None:
    log = convert(EXAMPLES / "traitors-llm" / "433y9yyp")
    confession = next(e.event for e in log.events if e.id == "b28")
    assert confession.kind == "say" and confession.channel == "private"
    assert [(c.subject, c.predicate, c.object, c.polarity) for c in confession.claims] == [
        ("Riley", "role", "traitor", True)]
    vote = next(e.event for e in log.events if e.kind == "vote" and e.event.ballot == "banish")  # type: ignore[union-attr]
    assert [(c.subject, c.predicate, c.object) for c in vote.claims] == [  # type: ignore[union-attr]
        (vote.voter, "voted_for", vote.target)]  # type: ignore[union-attr]
    end_votes = [e.event for e in log.events if e.kind == "vote" and e.event.ballot == "end_game"]  # type: ignore[union-attr]
    assert [v.choice for v in end_votes] == ["end", "end", "end"]  # type: ignore[union-attr]


def test_an_empty_private_message_becomes_an_observe_event() -> None:
    log = convert(EXAMPLES / "traitors-llm" / "3325g7wm")
    empty = next(e for e in log.events if e.id == "b10")
    assert empty.kind == "observe"
    assert empty.event.text == "Sudz messaged Dominic: ''"  # type: ignore[union-attr]
    assert set(getattr(empty.event, "witnesses", None) or ()) == {"Sudz", "Dominic"}
    assert empty.event.about == ("Sudz", "Dominic")  # type: ignore[union-attr]


# --- the text patterns -------------------------------------------------------------------------------------------

PATTERNS = compile_patterns(["Alessandra", "Beef", "Ellis", "Sudz", "Ann", "Anne"])


@pytest.mark.parametrize(("etype", "text", "groups"), [
    ("PRIVATE_MESSAGE", 'Ellis messaged Beef: "He said "vote Sudz" to me, and I said \'no\'."',
     {"speaker": "Ellis", "to": "Beef", "text": 'He said "vote Sudz" to me, and I said \'no\'.'}),
    ("ROUND_TABLE_SPEECH", "Ellis said: 'I gotta side with the group here\u2014Sudz\u2019s sudden push feels off.'",
     {"speaker": "Ellis", "text": "I gotta side with the group here\u2014Sudz\u2019s sudden push feels off."}),
    ("PRIVATE_MESSAGE", 'Ellis messaged Beef: "Stay tight. 🔒"', {"text": "Stay tight. 🔒"}),
    ("FINAL_ROUND_SPEECH", 'Sudz said: "line one\nline two\n\nline four"', {"text": "line one\nline two\n\nline four"}),
    ("PRIVATE_MESSAGE", 'ellis messaged BEEF: "hi"', {"speaker": "ellis", "to": "BEEF", "text": "hi"}),
    ("PRIVATE_MESSAGE", "Anne messaged Ann: \u201ccurly\u201d", {"speaker": "Anne", "to": "Ann", "text": "curly"}),
    ("PRIVATE_MESSAGE", 'Beef messaged Sudz: "' + "x" * 5000 + '"', {"text": "x" * 5000}),
    ("ROUND_TABLE_VOTE", "Sudz voted to eliminate Beef", {"voter": "Sudz", "target": "Beef"}),
    ("ELIMINATED_PLAYER", "Alessandra was BANISHED with 3 votes. Alessandra WAS a traitor",
     {"player": "Alessandra", "votes": "3", "not": None}),
    ("ELIMINATED_PLAYER", "Ellis was BANISHED with 4 votes. Ellis WAS NOT a traitor", {"not": "NOT "}),
    ("FINAL_ROUND_ELIMINATION", "Sudz was BANISHED with 2 votes. Their role remains hidden.", {"votes": "2"}),
    ("MURDER_SUGGESTION", "Beef suggests murdering Ellis: Ellis is too vocal: he leads.",
     {"speaker": "Beef", "target": "Ellis", "reason": "Ellis is too vocal: he leads."}),
    ("MURDER_VOTE", "Beef votes to murder Ellis: Ellis is becoming too influential.", {"target": "Ellis"}),
    ("MURDER_DECISION", "The traitors have decided to murder Riley".replace("Riley", "Ann"), {"victim": "Ann"}),
    ("MURDERED_PLAYER", "Anne was MURDERED by the traitors.", {"victim": "Anne"}),
    ("FINAL_ROUND_ANNOUNCEMENT", "\nFinal round! With 3 players remaining,\nthe group must decide whether to end the "
                                 "game or eliminate another player.\n", {"count": "3"}),
    ("FINAL_ROUND_VOTE", "Beef votes to END_GAME: It's risky to continue.", {"choice": "END_GAME"}),
    ("FINAL_ROUND_VOTE", "Beef voted to eliminate Sudz", {"target": "Sudz"}),
    ("FINAL_ROUND_CONTINUE", "The vote was not unanimous. 1 player(s) voted to end, 2 to continue. The game will "
                             "continue.", {"end": "1", "cont": "2"}),
    ("GAME_END", "Oh no Traitors win! All Faithfuls have been eliminated", {"winner": "Traitors"}),
    ("GAME_END", "Game over! Only faithfuls remain. Faithfuls win!", {"winner": "Faithfuls"}),
    ("ROLE_SELECTED", "'Ann' selected as a traitor.", {"player": "Ann", "role": "traitor"}),
])
def test_patterns_on_tricky_texts(etype: str, text: str, groups: dict[str, str | None]) -> None:
    matched = match_text(PATTERNS, etype, text)
    assert matched is not None
    _, m = matched
    assert {k: m[k] for k in groups} == groups


@pytest.mark.parametrize(("etype", "text"), [
    ("PRIVATE_MESSAGE", 'Ellis messaged Beef: "no closing quote'),
    ("PRIVATE_MESSAGE", 'Ellis messaged Bob: "Bob is not a player"'),
    ("PRIVATE_MESSAGE", 'Ellis messaged Beef "missing colon"'),
    ("ROUND_TABLE_SPEECH", 'Ellis whispered: "hi"'),
    ("ROUND_TABLE_VOTE", "Sudz voted to eliminate Beef and Ellis"),
    ("ELIMINATED_PLAYER", "Ellis was BANISHED with many votes. Ellis WAS a traitor"),
    ("MURDERED_PLAYER", "Ellis was murdered by the faithfuls."),
    ("GAME_END", "Game over! Nobody wins."),
])
def test_patterns_reject_other_shapes(etype: str, text: str) -> None:
    assert match_text(PATTERNS, etype, text) is None


# --- problems: reported at their position, never guessed ---------------------------------------------------------

def test_unknown_event_type_is_reported_and_skip_invalid_keeps_the_rest(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    index, item = event_items(plomp)[12]
    item["data"]["payload"]["plomp_display_event_type"] = "CONFESSIONAL"
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    [p] = info.value.problems
    assert p.field == f"buffer_items[{index}].data.payload.plomp_display_event_type"
    assert "unmapped plomp event type 'CONFESSIONAL'" in p.reason and "PRIVATE_MESSAGE" in p.reason
    log = convert(folder, skip_invalid=True)
    assert log.rejected == (p,)
    assert f"b{index}" not in {e.id for e in log.events}
    assert len([e for e in log.events if e.kind != "phase"]) == len(event_items(plomp)) - 1


def test_unparseable_text_is_reported_with_position_and_excerpt(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    index, item = next((i, it) for i, it in event_items(plomp)
                       if it["data"]["payload"]["plomp_display_event_type"] == "ROUND_TABLE_VOTE")
    item["data"]["payload"]["plomp_display_text"] = "Sudz voted, loudly, for Braxton"
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    [p] = info.value.problems
    assert p.field == f"buffer_items[{index}].data.payload.plomp_display_text"
    assert p.reason == ("cannot parse ROUND_TABLE_VOTE text: expected NAME voted to eliminate NAME, got "
                        "'Sudz voted, loudly, for Braxton'")
    assert f"{folder}: file, field 'buffer_items[{index}].data.payload.plomp_display_text': cannot parse" \
        in str(info.value)


def test_unknown_player_in_a_visibility_tag_is_reported(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    index, item = event_items(plomp)[10]
    item["tags"]["Zed_visible"] = True
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    assert [p.field for p in info.value.problems] == [f"buffer_items[{index}].tags.Zed_visible"]


def test_inconsistent_roles_and_reveals_are_reported(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    items = event_items(plomp)
    role_index, role_item = items[0]  # 'Alessandra' selected as a faithful.
    role_item["data"]["payload"]["plomp_display_text"] = "'Alessandra' selected as a traitor."
    banish_index, banish_item = next((i, it) for i, it in items
                                     if it["data"]["payload"]["plomp_display_event_type"] == "ELIMINATED_PLAYER")
    banish_item["data"]["payload"]["plomp_display_text"] = "Sudz was BANISHED with 5 votes. Sudz WAS NOT a traitor"
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    found = {p.field: p.reason for p in info.value.problems}
    assert "says Alessandra is a traitor, GAME_START says faithful" in \
        found[f"buffer_items[{role_index}].data.payload.plomp_display_text"]
    assert "reveals Sudz as not a traitor, but the game gave them the role 'traitor'" in \
        found[f"buffer_items[{banish_index}].data.payload.plomp_display_text"]


def test_converted_events_go_through_the_canonical_validator(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    index, item = event_items(plomp)[10]
    item["timestamp"] = "not a time"
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    [p] = info.value.problems
    assert p.field == f"buffer_items[{index}] (canonical say event, field t)"
    assert p.reason.startswith("must be an ISO 8601 timestamp")


@pytest.mark.parametrize(("content", "reason"), [
    (b"{not json", "invalid JSON"),
    (b'{"key": null}', "not a plomp log"),
    (b'{"buffer_items": []}', "no players found"),
    (b"\xff\xfe{}", "not valid UTF-8"),
])
def test_files_that_are_not_plomp_logs(tmp_path: Path, content: bytes, reason: str) -> None:
    (tmp_path / "plomp.json").write_bytes(content)
    with pytest.raises(InvalidGameLog) as info:
        convert(tmp_path)
    assert reason in info.value.problems[-1].reason


def test_load_game_log_detects_the_format() -> None:
    log = load_game_log(EXAMPLES / "traitors-llm" / "433y9yyp" / "plomp.json")
    assert log.imported_from == "traitors-plomp" and log.game == "433y9yyp"
    assert re.fullmatch(r"b\d+(-phase)?", log.events[5].id)


def test_roles_come_from_role_selected_when_game_start_has_no_structured_lists(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    expected = convert(folder).header.roles
    start = next(it for _, it in event_items(plomp) if it["data"]["payload"]["plomp_display_event_type"] == "GAME_START")
    del start["data"]["payload"]["traitors"], start["data"]["payload"]["faithfuls"]
    save(folder, plomp)
    assert convert(folder).header.roles == expected == {
        "Alessandra": "faithful", "Beef": "traitor", "Braxton": "faithful", "Cassandra": "faithful",
        "Dominic": "faithful", "Ellis": "faithful", "Sudz": "traitor"}


def test_a_wrong_count_of_remaining_players_is_reported(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    index, item = next((i, it) for i, it in event_items(plomp)
                       if it["data"]["payload"]["plomp_display_event_type"] == "FINAL_ROUND_ANNOUNCEMENT")
    item["data"]["payload"]["plomp_display_text"] = item["data"]["payload"]["plomp_display_text"].replace("3", "4")
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    [p] = info.value.problems
    assert p.field == f"buffer_items[{index}].data.payload.plomp_display_text"
    assert p.reason == ("FINAL_ROUND_ANNOUNCEMENT: the text says 4 players remain, but 3 are alive "
                        "(Beef, Braxton, Cassandra)")


# --- tolerance: keywords read the way a person would, each guess reported ---------------------------------------

def test_a_misspelt_keyword_is_read_and_reported_with_position_and_canonical_line(game_copy: Any) -> None:
    folder, plomp = game_copy("433y9yyp")
    votes = [(i, it) for i, it in event_items(plomp)
             if it["data"]["payload"]["plomp_display_event_type"] == "FINAL_ROUND_VOTE"]
    index, item = votes[0]
    payload = item["data"]["payload"]
    written = payload["plomp_display_text"]
    assert " votes to END_GAME: " in written
    payload["plomp_display_text"] = written.replace("END_GAME", "END_GAMEE", 1)
    banish_index, banish = next((i, it) for i, it in event_items(plomp)
                                if it["data"]["payload"]["plomp_display_event_type"] == "ELIMINATED_PLAYER")
    banish["data"]["payload"]["plomp_display_event_type"] = "ELIMINATED_PLAYR"
    banish["data"]["payload"]["plomp_display_text"] = banish["data"]["payload"]["plomp_display_text"].replace(
        "BANISHED", "Banished")
    save(folder, plomp)
    log = convert(folder)
    original = convert(EXAMPLES / "traitors-llm" / "433y9yyp")
    assert [e.event for e in log.events] == [e.event for e in original.events]
    text = f"buffer_items[{index}].data.payload.plomp_display_text"
    banished = f"buffer_items[{banish_index}].data.payload"
    assert [(g.where, g.read, g.taken_as) for g in log.guesses] == [
        (f"{banished}.plomp_display_event_type", "ELIMINATED_PLAYR", "ELIMINATED_PLAYER"),
        (f"{banished}.plomp_display_text", "Banished", "BANISHED"),
        (text, "END_GAMEE", "END_GAME"),
    ]
    by_id = {e.id: e.line for e in log.events}
    assert [g.line for g in log.guesses] == [by_id[f"b{banish_index}"]] * 2 + [by_id[f"b{index}"]]


def test_continue_playingng_is_continue_playing(game_copy: Any) -> None:
    folder, plomp = game_copy("yy0et4ne")
    found = [(i, it) for i, it in event_items(plomp)
             if " votes to CONTINUE_PLAYING" in it["data"]["payload"]["plomp_display_text"]]
    assert found, "the example game has a CONTINUE_PLAYING vote"
    index, item = found[0]
    item["data"]["payload"]["plomp_display_text"] = item["data"]["payload"]["plomp_display_text"].replace(
        "CONTINUE_PLAYING", "CONTINUE_PLAYINGNG", 1)
    save(folder, plomp)
    log = convert(folder)
    vote = next(e.event for e in log.events if e.id == f"b{index}")
    assert (vote.kind, vote.choice) == ("vote", "continue")  # type: ignore[union-attr]
    assert [(g.read, g.taken_as) for g in log.guesses] == [("CONTINUE_PLAYINGNG", "CONTINUE_PLAYING")]


def test_a_keyword_nobody_could_read_is_still_refused_with_the_reason(game_copy: Any) -> None:
    folder, plomp = game_copy("433y9yyp")
    index, item = next((i, it) for i, it in event_items(plomp)
                       if " votes to END_GAME" in it["data"]["payload"]["plomp_display_text"])
    item["data"]["payload"]["plomp_display_text"] = item["data"]["payload"]["plomp_display_text"].replace(
        "END_GAME", "ABSTAIN", 1)
    save(folder, plomp)
    with pytest.raises(InvalidGameLog) as info:
        convert(folder)
    [p] = info.value.problems
    assert p.field == f"buffer_items[{index}].data.payload.plomp_display_text"
    assert p.reason.startswith("cannot read FINAL_ROUND_VOTE text: 'ABSTAIN' is none of 'END_GAME', "
                               "'CONTINUE_PLAYING'; expected NAME votes to END_GAME|CONTINUE_PLAYING")
