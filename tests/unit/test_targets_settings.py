"""Neo4j targets (docs/service.md#many-games-several-neo4j-targets): read from ``[targets.NAME]`` or
``GRAPHMEM_TARGETS``, each a service's settings; none configured is the one ``[neo4j]`` target; a bad target is
named; placement by rendezvous hashing keeps every key where it was when a target is added, except those the new one
takes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import ConfigError
from graphmem.settings import load_settings
from graphmem.targets import place


def test_no_targets_is_the_one_neo4j_of_the_settings(tmp_path: Path) -> None:
    s = load_settings(environ={"GRAPHMEM_HOME": str(tmp_path), "NEO4J_URI": "bolt://db:7687"}, cwd=tmp_path)
    assert s.targets == {}
    assert {name: t.uri for name, t in s.target_settings().items()} == {"default": "bolt://db:7687"}
    assert s.target_settings()["default"] is s


def test_targets_from_the_file_inherit_the_credentials_of_neo4j(tmp_path: Path) -> None:
    (tmp_path / "graphmem.toml").write_text(
        '[neo4j]\nuser = "alice"\npassword = "secret"\n'
        '[targets.a]\nuri = "bolt://h1:7687"\n'
        '[targets.b]\nuri = "neo4j://cluster:7687"\ndatabase = "games2"\npassword = "other"\n', encoding="utf-8")
    s = load_settings(environ={"GRAPHMEM_HOME": str(tmp_path)}, cwd=tmp_path)
    per = s.target_settings()
    assert list(per) == ["a", "b"]
    assert (per["a"].uri, per["a"].database, per["a"].user, per["a"].password) == (
        "bolt://h1:7687", None, "alice", "secret")
    assert (per["b"].uri, per["b"].database, per["b"].user, per["b"].password) == (
        "neo4j://cluster:7687", "games2", "alice", "other")


def test_the_environment_gives_targets_as_json(tmp_path: Path) -> None:
    env = {"GRAPHMEM_HOME": str(tmp_path), "GRAPHMEM_TARGETS": '{"x": {"uri": "bolt://h:1"}, "y": {"uri": "bolt://h:2"}}'}
    assert list(load_settings(environ=env, cwd=tmp_path).target_settings()) == ["x", "y"]


def test_a_uri_flag_names_one_neo4j_in_place_of_the_targets(tmp_path: Path) -> None:
    env = {"GRAPHMEM_HOME": str(tmp_path), "GRAPHMEM_TARGETS": '{"x": {"uri": "bolt://h:1"}, "y": {"uri": "bolt://h:2"}}'}
    s = load_settings(environ=env, cwd=tmp_path, uri="bolt://h:2")
    assert {name: t.uri for name, t in s.target_settings().items()} == {"default": "bolt://h:2"}
    s = load_settings(environ={**env, "NEO4J_URI": "bolt://other:3"}, cwd=tmp_path)  # the targets, not NEO4J_URI
    assert list(s.target_settings()) == ["x", "y"]


@pytest.mark.parametrize(("value", "message"), [
    ('{"a": {"uri": "bolt://h:1"}, "b": {"uri": "bolt://H:1/"}}', "targets 'a' and 'b' are the same database"),
    ('{"a": {"database": "x"}}', "field 'targets.a.uri' Field required"),
    ('{"a b": {"uri": "bolt://h:1"}}', "target name 'a b' must be 1-64 letters"),
    ('{"a": {"uri": "bolt://h:1", "port": 1}}', "field 'targets.a.port'"),
    ("not json", "GRAPHMEM_TARGETS: field 'targets' must be JSON"),
])
def test_a_bad_target_is_named(tmp_path: Path, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_settings(environ={"GRAPHMEM_HOME": str(tmp_path), "GRAPHMEM_TARGETS": value}, cwd=tmp_path)


@given(st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=50))
def test_adding_a_target_moves_only_keys_to_the_new_one(keys: list[str]) -> None:
    before = {key: place(["a", "b", "c"], key) for key in keys}
    after = {key: place(["a", "b", "c", "d"], key) for key in keys}
    assert all(after[key] in (before[key], "d") for key in keys)
    assert before == {key: place(["c", "a", "b"], key) for key in keys}  # the order of the targets does not matter


def test_placement_spreads_games_evenly() -> None:
    counts = {name: 0 for name in "abc"}
    for i in range(3000):
        counts[place(list(counts), f"game-{i}")] += 1
    assert all(900 <= n <= 1100 for n in counts.values()), counts


def test_an_embedder_of_another_model_is_refused_before_any_connection(tmp_path: Path) -> None:
    """Targets.connect(embedder=...) (the CLI's in-process embedder, graphmem.cli.embedder_of) embeds every target's
    memories with the embedder given: one of another model or backend than the settings' would store vectors the
    configured model cannot be compared with, so it is refused, before a driver is opened (nothing listens here)."""
    from graphmem.embedding import Embedder
    from graphmem.errors import UsageProblem
    from graphmem.targets import Targets

    s = load_settings(environ={"GRAPHMEM_HOME": str(tmp_path), "NEO4J_URI": "bolt://127.0.0.1:1"}, cwd=tmp_path)
    with pytest.raises(UsageProblem, match="the embedder given is of model 'other-model' on onnx; the settings name "
                                           "'all-MiniLM-L6-v2' on onnx"):
        Targets.connect(s, embedder=Embedder("other-model"))
    with pytest.raises(UsageProblem, match="on torch; the settings name 'all-MiniLM-L6-v2' on onnx"):
        Targets.connect(s, embedder=Embedder(backend="torch"))
