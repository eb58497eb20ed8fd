"""The importer registry: names, detection, discovery of games in folders."""

from __future__ import annotations

import ast
import importlib
import inspect
import shutil
from pathlib import Path

import pytest

from graphmem.errors import InvalidGameLog, UsageProblem
from graphmem.importers import Conversion, Importer, detect_format, discover, get_importer, importer_names
from tests.unit.logs.logs_helpers import EXAMPLES


def test_known_importers_and_unknown_name() -> None:
    assert "traitors-plomp" in importer_names()
    plomp = get_importer("traitors-plomp")
    assert isinstance(plomp, Importer) and plomp.name == "traitors-plomp"
    with pytest.raises(UsageProblem) as info:
        get_importer("wolf")
    assert str(info.value) == ("unknown log format 'wolf'; known importers: avalon-llm, avalon-nlu, llmafia, "
                               "traitors-plomp, werewolf-arena")


def test_every_importer_reads_converts_and_reports_on_the_shared_builder() -> None:
    """The three verbs of graphmem/importers/__init__.py: each importer package has ``source.read``, a ``game``
    module that builds on the shared ConversionBuilder, and no importer keeps its own builder or exception."""
    from graphmem.importers import base

    for name in importer_names():
        package = type(get_importer(name)).__module__.rsplit(".", 1)[0]
        read = importlib.import_module(f"{package}.source").read
        assert list(inspect.signature(read).parameters) in (["path"], ["folder"]), (name, inspect.signature(read))
        game = importlib.import_module(f"{package}.game")
        assert vars(game).get("ConversionBuilder") is base.ConversionBuilder, name
    folder = Path(base.__file__).parent
    own = [f"{path.relative_to(folder)}: {name}" for path in sorted(folder.rglob("*.py")) if path.name != "base.py"
           for name in _own_builders_and_exceptions(path)]
    assert own == []


def _own_builders_and_exceptions(path: Path) -> list[str]:
    """The classes of ``path`` that derive from an exception, or that hold both ``objects`` and ``origins`` (a
    conversion builder of their own)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
        fields = {a.target.id for a in node.body if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)}
        if bases & {"Exception", "ValueError"} or {"objects", "origins"} <= fields:
            found.append(node.name)
    return found


def test_detect_format() -> None:
    game = EXAMPLES / "traitors-llm" / "yy0et4ne"
    assert detect_format(game) == "traitors-plomp"
    assert detect_format(game / "plomp.json") == "traitors-plomp"
    assert detect_format(game / "result.json") is None
    assert detect_format(EXAMPLES / "small-game.jsonl") == "graphmem"
    assert detect_format(EXAMPLES / "README.md") is None
    assert detect_format(EXAMPLES / "missing") is None


def test_discover_expands_a_folder_of_plomp_games() -> None:
    found = discover([EXAMPLES / "traitors-llm"])
    assert found == [(EXAMPLES / "traitors-llm" / g, "traitors-plomp") for g in ("3325g7wm", "433y9yyp", "yy0et4ne")]


def test_discover_a_folder_of_jsonl_files_and_single_paths(tmp_path: Path) -> None:
    for name in ("b.jsonl", "a.jsonl"):
        shutil.copy(EXAMPLES / "small-game.jsonl", tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a game", encoding="utf-8")
    assert discover([tmp_path]) == [(tmp_path / "a.jsonl", "graphmem"), (tmp_path / "b.jsonl", "graphmem")]
    game = EXAMPLES / "traitors-llm" / "433y9yyp"
    assert discover([game, tmp_path / "b.jsonl"]) == [(game, "traitors-plomp"), (tmp_path / "b.jsonl", "graphmem")]


def test_discover_reports_unusable_paths(tmp_path: Path) -> None:
    with pytest.raises(UsageProblem, match="no such file or folder"):
        discover([tmp_path / "missing"])
    with pytest.raises(UsageProblem, match="no game logs found in this folder"):
        discover([tmp_path])
    (tmp_path / "x.txt").write_text("hello", encoding="utf-8")
    with pytest.raises(UsageProblem, match=r"unknown log format \(known: graphmem, avalon-llm, avalon-nlu, llmafia, "
                                           r"traitors-plomp, werewolf-arena\)"):
        discover([tmp_path / "x.txt"])


def test_a_new_importer_plugs_in(tmp_path: Path) -> None:
    from graphmem.importers import _IMPORTERS, load_game_log, register_importer

    class Werewolf:
        name = "werewolf-test"
        description = "test format"
        game_id_from_folder = False

        def detect(self, path: Path) -> bool:
            return path.suffix == ".wolf"

        def convert(self, path: Path) -> Conversion:
            header = {"kind": "game", "format": "graphmem/1", "game": path.stem,
                      "players": [{"name": "Anna", "role": "werewolf"}, {"name": "Bo", "role": "villager"}]}
            say = {"kind": "say", "speaker": "Anna", "to": "all", "channel": "public", "text": path.read_text()}
            return Conversion([header, say], ["header", "line 1"])

    register_importer(Werewolf())
    try:
        (tmp_path / "night.wolf").write_text("I am the seer.", encoding="utf-8")
        assert detect_format(tmp_path / "night.wolf") == "werewolf-test"
        log = load_game_log(tmp_path / "night.wolf")
        assert log.game == "night" and log.events[0].event.text == "I am the seer."  # type: ignore[union-attr]
        (tmp_path / "bad.wolf").write_text(" ", encoding="utf-8")
        with pytest.raises(InvalidGameLog) as info:
            load_game_log(tmp_path / "bad.wolf")
        assert "line 1 (canonical say event, field text)" in str(info.value)
    finally:
        _IMPORTERS.pop("werewolf-test")


def test_an_importer_with_a_bad_header_always_raises(tmp_path: Path) -> None:
    from graphmem.importers import validate_conversion

    header = {"kind": "game", "format": "graphmem/1", "game": "x", "players": []}
    with pytest.raises(InvalidGameLog) as info:
        validate_conversion(Conversion([header], ["top"]), "src", skip_invalid=True)
    assert [(p.field, p.reason) for p in info.value.problems] == [
        ("top (canonical header, field players)", "List should have at least 1 item after validation, not 0")]


def test_a_path_that_is_neither_file_nor_folder_is_an_unknown_format() -> None:
    from graphmem.errors import UsageProblem

    with pytest.raises(UsageProblem, match="/dev/null: unknown log format"):
        discover([Path("/dev/null")])
