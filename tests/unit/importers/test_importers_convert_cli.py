"""``graphmem convert`` through click's CliRunner."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import UsageProblem
from graphmem.importers import importer_names, load_game_log
from graphmem.ingest.pipeline import load_logs
from graphmem.logs import read_game_log
from tests.unit.logs.logs_helpers import EXAMPLES

GAMES = EXAMPLES / "traitors-llm"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["convert", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def test_one_game_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    code, _, err = run("--from", "traitors-plomp", GAMES / "433y9yyp", "-o", out)
    assert code == 0, err
    assert "game 433y9yyp, 82 events, 12 phases, 3 days" in err
    assert out.read_text(encoding="utf-8") == (EXAMPLES / "433y9yyp.jsonl").read_text(encoding="utf-8")


def test_a_one_day_game_is_one_day_not_1_days(tmp_path: Path) -> None:
    lines = (EXAMPLES / "small-game.jsonl").read_text(encoding="utf-8").splitlines()
    second_day = next(i for i, line in enumerate(lines) if json.loads(line).get("day") == 2)
    one_day = tmp_path / "one-day.jsonl"
    one_day.write_text("\n".join(lines[:second_day]) + "\n", encoding="utf-8")
    code, _, err = run(one_day, "-o", tmp_path / "out.jsonl")
    assert code == 0, err
    assert re.search(r"game small-game, \d+ events, \d+ phases, 1 day -> ", err), err


def test_one_game_to_stdout_from_its_plomp_json() -> None:
    code, out, _ = run("--from", "traitors-plomp", GAMES / "yy0et4ne" / "plomp.json")
    assert code == 0
    header = json.loads(out.splitlines()[0])
    assert header["game"] == "yy0et4ne" and header["imported_from"] == "traitors-plomp"


def test_a_folder_of_games_to_a_folder(tmp_path: Path) -> None:
    code, _, err = run("--from", "traitors-plomp", GAMES, "-o", tmp_path / "out")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["3325g7wm.jsonl", "433y9yyp.jsonl", "yy0et4ne.jsonl"]
    assert read_game_log(tmp_path / "out" / "3325g7wm.jsonl").game == "3325g7wm"


def test_format_is_detected_and_canonical_files_are_validated_and_rewritten(tmp_path: Path) -> None:
    out = tmp_path / "small.jsonl"
    code, _, err = run(EXAMPLES / "small-game.jsonl", "-o", out)
    assert code == 0, err
    original, rewritten = read_game_log(EXAMPLES / "small-game.jsonl"), read_game_log(out)
    assert rewritten.header == original.header
    assert [e.event for e in rewritten.events] == [e.event for e in original.events]


def test_several_games_need_an_output_folder() -> None:
    code, _, err = run("--from", "traitors-plomp", GAMES)
    assert code == 2 and "3 games found: give -o FOLDER" in err


def test_unknown_format_is_a_usage_error_listing_the_importers() -> None:
    code, _, err = run("--from", "mafia", GAMES / "yy0et4ne")
    assert code == 2
    assert ("unknown log format 'mafia'; known importers: avalon-llm, avalon-nlu, llmafia, traitors-plomp, "
            "werewolf-arena (did you mean llmafia?)") in err


def test_invalid_input_exits_1_with_every_problem_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "yy0et4ne"
    shutil.copytree(GAMES / "yy0et4ne", folder)
    plomp = json.loads((folder / "plomp.json").read_text(encoding="utf-8"))
    plomp["buffer_items"][35]["data"]["payload"]["plomp_display_text"] = "Sudz voted, loudly, for Braxton"
    plomp["buffer_items"][39]["data"]["payload"]["plomp_display_event_type"] = "SECRET_VOTE"
    (folder / "plomp.json").write_text(json.dumps(plomp), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run("--from", "traitors-plomp", folder, "-o", out)
    assert code == 1
    assert "1 of 1 game(s) not converted" in err
    assert "field 'buffer_items[35].data.payload.plomp_display_text': cannot parse ROUND_TABLE_VOTE text" in err
    assert "field 'buffer_items[39].data.payload.plomp_display_event_type': unmapped plomp event type" in err
    assert not out.exists()

    code, _, err = run("--from", "traitors-plomp", folder, "-o", out, "--skip-invalid")
    assert code == 0
    assert err.count("skipped:") == 2
    kept = {e.id for e in read_game_log(out).events}
    assert kept == {e.id for e in load_game_log(GAMES / "yy0et4ne").events} - {"b35", "b39"}


def test_invalid_canonical_input_lists_lines(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text((EXAMPLES / "small-game.jsonl").read_text(encoding="utf-8") + '{"kind": "say"\n', encoding="utf-8")
    code, _, err = run(bad, "-o", tmp_path / "out.jsonl")
    assert code == 1
    assert f"{bad}: line 34: invalid JSON (the line is truncated)" in err


def test_converting_a_canonical_log_adds_no_claims_and_keeps_an_explicit_empty_list(tmp_path: Path) -> None:
    header = {"kind": "game", "format": "graphmem/1", "game": "g", "players": [
        {"name": "Zoë", "role": "traitor"}, {"name": "Ann", "role": "faithful"}]}
    said = {"kind": "say", "id": "s1", "speaker": "Ann", "to": "all", "channel": "roundtable",
            "text": "Zoë is a traitor."}
    source = tmp_path / "g.jsonl"
    source.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n"
                              for o in [header, said, {**said, "id": "s2", "claims": []}]), encoding="utf-8")
    code, out, err = run(source)
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines()[1:]]
    assert events == [said, {**said, "id": "s2", "claims": []}]  # claims are derived when encoding, not here


def test_json_report_lists_each_game_with_its_guesses_and_the_games_not_converted(tmp_path: Path) -> None:
    folder = tmp_path / "games" / "433y9yyp"
    shutil.copytree(GAMES / "433y9yyp", folder)
    plomp = json.loads((folder / "plomp.json").read_text(encoding="utf-8"))
    index, item = next((i, it) for i, it in enumerate(plomp["buffer_items"]) if it["type"] == "event"
                       and " votes to END_GAME" in it["data"]["payload"]["plomp_display_text"])
    item["data"]["payload"]["plomp_display_text"] = item["data"]["payload"]["plomp_display_text"].replace(
        "END_GAME", "End Game", 1)
    (folder / "plomp.json").write_text(json.dumps(plomp), encoding="utf-8")
    broken = tmp_path / "games" / "broken.jsonl"
    broken.write_text('{"kind": "game"}\n', encoding="utf-8")
    code, out, _ = run(tmp_path / "games", EXAMPLES / "llmafia" / "games" / "0001", "-o", tmp_path / "out", "--json")
    assert code == 1
    report = json.loads(out)
    assert (report["converted"], report["total"]) == (2, 3)
    first = report["games"][0]
    assert first["game"] == "433y9yyp" and first["format"] == "traitors-plomp" and first["output"].endswith(
        "433y9yyp.jsonl")
    [guess] = first["guesses"]
    assert (guess["where"], guess["read"], guess["taken_as"]) == (
        f"buffer_items[{index}].data.payload.plomp_display_text", "End Game", "END_GAME")
    written = (tmp_path / "out" / "433y9yyp.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(written[guess["line"] - 1])["id"] == f"b{index}"
    assert report["games"][1]["game"] == "llmafia-0001" and report["games"][1]["guesses"] == []
    [refused] = report["not_converted"]
    assert refused["path"].endswith("broken.jsonl") and refused["problems"][0]["line"] == 1


def test_json_without_output_checks_and_writes_nothing(tmp_path: Path) -> None:
    code, out, err = run(EXAMPLES / "avalon-llm", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert [g["game"] for g in report["games"]] == ["avalon_20251130_234947", "avalon_20251130_193733"]
    assert all(g["output"] is None for g in report["games"])
    # the one reading of the two games: Frank's observation of himself after the 7-player game ("N/A"), left out
    assert report["games"][0]["guesses"] == []
    [note] = report["games"][1]["guesses"]
    assert (note["where"], note["read"], note["line"]) == (
        "post_game_reflections[5].player_observations.Frank", "Frank: 'N/A'", 0)


def test_guesses_are_listed_on_standard_error(tmp_path: Path) -> None:
    game = tmp_path / "0001"
    shutil.copytree(EXAMPLES / "llmafia" / "games" / "0001", game)
    for f in game.iterdir():
        f.chmod(0o644)
    who = game / "who_wins.txt"
    who.write_text("mafia win!", encoding="utf-8")
    code, _, err = run(game, "-o", tmp_path / "out.jsonl")
    assert code == 0, err
    assert f"  guessed: {game}: who_wins.txt:1: read 'mafia' as 'Mafia' (canonical line 167)" in err


def test_the_help_of_convert_and_ingest_names_every_importer() -> None:
    for command, option in (("convert", "--from"), ("ingest", "--format")):
        result = CliRunner().invoke(main, [command, "--help"], terminal_width=100)
        shown = re.sub(r"-\s+", "-", " ".join(result.stdout.split()))  # a name wrapped at its hyphen, joined
        paths, options = shown.split("Options:", 1)
        for name in importer_names():
            assert name in options.split(option, 1)[1].split(" --", 1)[0], f"{command} {option} misses {name}"
    paths = " ".join(CliRunner().invoke(main, ["convert", "--help"]).stdout.split())
    assert all(kind in paths for kind in ("avalon-llm", "avalon-nlu", "Werewolf Arena", "LLMafia", "plomp"))


def test_a_given_format_that_a_file_is_not_names_the_format(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{}", encoding="utf-8")
    with pytest.raises(UsageProblem, match=r"garbage.json: not a avalon-nlu log \(Avalon games of people"):
        load_logs([garbage], "avalon-nlu", skip_invalid=False)  # was "unknown log format", the format given


def test_a_werewolf_game_file_converts_its_folder(tmp_path: Path) -> None:
    """`convert --from werewolf-arena games/6p_seed03/game_complete.json` (a file a user names) converts the game of
    its folder, as the folder itself does (it was refused: "not a werewolf-arena log")."""
    game = EXAMPLES / "werewolf-arena" / "games" / "6p_seed03"
    code, _, err = run("--from", "werewolf-arena", game, "-o", tmp_path / "folder.jsonl")
    assert code == 0, err
    for name in ("game_complete.json", "game_logs.json"):
        code, _, err = run("--from", "werewolf-arena", game / name, "-o", tmp_path / name)
        assert code == 0, err
        assert f"{game / name}: game werewolf-arena-6p_seed03, 83 events" in err
        assert (tmp_path / name).read_bytes() == (tmp_path / "folder.jsonl").read_bytes()
