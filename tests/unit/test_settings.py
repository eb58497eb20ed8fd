"""Settings precedence: defaults < graphmem.toml < environment < flags; the local state file gives the URI."""

from __future__ import annotations

import json
import time
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import ConfigError
from graphmem.settings import load_settings


def test_defaults_without_file_or_environment(tmp_path: Path) -> None:
    s = load_settings(environ={"GRAPHMEM_HOME": str(tmp_path)}, cwd=tmp_path)
    assert (s.uri, s.uri_source, s.user, s.database) == ("bolt://127.0.0.1:7687", "default", "neo4j", None)
    assert s.embedding_model == "all-MiniLM-L6-v2"


def test_config_file_then_environment_then_flags(tmp_path: Path) -> None:
    (tmp_path / "graphmem.toml").write_text(
        'seed = 3\n[neo4j]\nuri = "bolt://db:7687"\nuser = "alice"\ndatabase = "games"\n', encoding="utf-8")
    env = {"GRAPHMEM_HOME": str(tmp_path)}
    s = load_settings(environ=env, cwd=tmp_path)
    assert (s.uri, s.uri_source, s.user, s.database, s.seed) == ("bolt://db:7687", "config", "alice", "games", 3)
    s = load_settings(environ={**env, "NEO4J_URI": "neo4j://cluster:7687", "NEO4J_USER": "bob"}, cwd=tmp_path)
    assert (s.uri, s.uri_source, s.user) == ("neo4j://cluster:7687", "env", "bob")
    s = s.with_overrides(uri="bolt://flag:1", user=None)
    assert (s.uri, s.uri_source, s.user) == ("bolt://flag:1", "flag", "bob")


def test_local_state_file_gives_the_uri_when_nothing_else_does(tmp_path: Path) -> None:
    (tmp_path / "neo4j-local.json").write_text(json.dumps({"uri": "bolt://127.0.0.1:45678", "pid": 1}))
    s = load_settings(environ={"GRAPHMEM_HOME": str(tmp_path)}, cwd=tmp_path)
    assert (s.uri, s.uri_source) == ("bolt://127.0.0.1:45678", "local-state")
    s = load_settings(environ={"GRAPHMEM_HOME": str(tmp_path), "NEO4J_URI": "bolt://other:7687"}, cwd=tmp_path)
    assert s.uri == "bolt://other:7687"


@pytest.mark.parametrize(("text", "message"), [
    ("[server]\nport = 70000\n", r"field 'server.port' must be 1..65535, got 70000"),
    ("[server]\nmax_body_bytes = 0\n", r"field 'server.max_body_bytes' must be >= 1, got 0"),
    ("[server]\nretry_seconds = 0\n", r"field 'server.retry_seconds' must be > 0 and <= 300, got 0"),
    ("[neo4j]\nretry_seconds = 301\n", r"field 'neo4j.retry_seconds' must be > 0 and <= 300, got 301"),
    ("[embedding]\nbatch_size = -1\n", r"field 'embedding.batch_size' must be >= 1, got -1"),
    ('seed = "abc"\n', r"field 'seed' must be an integer, got 'abc' \(a string"),
    # TOML has numbers: a boolean or a quoted number is a mistake, not 1 or 8750 (pydantic alone reads them so)
    ("[neo4j]\nretry_seconds = true\n", r"field 'neo4j.retry_seconds' must be a number, got true \(a boolean\)"),
    ('[server]\nport = "8750"\n',
     r"field 'server.port' must be an integer, got '8750' \(a string: write it without quotes\)"),
    ("[server]\nmax_body_bytes = false\n", r"field 'server.max_body_bytes' must be an integer, got false"),
])
def test_a_value_out_of_its_range_names_the_field_and_the_range(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "graphmem.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_settings(environ={}, cwd=tmp_path)
    (tmp_path / "graphmem.toml").unlink()
    with pytest.raises(ConfigError, match=r"GRAPHMEM_MAX_BODY_BYTES: field 'server.max_body_bytes' must be >= 1"):
        load_settings(environ={"GRAPHMEM_MAX_BODY_BYTES": "-5"}, cwd=tmp_path)


def test_malformed_config_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "graphmem.toml"
    bad.write_text("[neo4j\nuri = 1", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"graphmem.toml: malformed TOML"):
        load_settings(environ={}, cwd=tmp_path)


def test_wrongly_typed_value_names_the_field(tmp_path: Path) -> None:
    (tmp_path / "graphmem.toml").write_text("[neo4j]\nuri = 7687\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"field 'neo4j.uri' must be a string"):
        load_settings(environ={}, cwd=tmp_path)


def test_missing_explicit_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="configuration file not found"):
        load_settings(environ={}, config_path=tmp_path / "nope.toml")


@pytest.mark.parametrize(("text", "message"), [
    ('[parameterz]\ncurve = "power"\n', r"unknown table or key 'parameterz' \(did you mean 'parameters'\?"),
    ('[neo4j]\nurl = "bolt://db:7687"\n', r"unknown field of \[neo4j\] 'url' \(did you mean 'uri'\?"),
    ('sead = 3\n', r"unknown table or key 'sead' \(did you mean 'seed'\?"),
])
def test_a_typo_in_the_config_file_is_named_not_ignored(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "graphmem.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_settings(environ={}, cwd=tmp_path)


def test_the_server_section_then_the_environment_give_the_engine_key_and_the_body_limit(tmp_path: Path) -> None:
    env = {"GRAPHMEM_HOME": str(tmp_path)}
    s = load_settings(environ=env, cwd=tmp_path)
    assert (s.engine_key, s.server_host, s.server_port, s.max_body_bytes) == (None, "127.0.0.1", 8750, 16 * 2**20)
    (tmp_path / "graphmem.toml").write_text(
        '[server]\nengine_key = "from-file"\nhost = "0.0.0.0"\nport = 9000\nmax_body_bytes = 1000\n', encoding="utf-8")
    s = load_settings(environ=env, cwd=tmp_path)
    assert (s.engine_key, s.server_host, s.server_port, s.max_body_bytes) == ("from-file", "0.0.0.0", 9000, 1000)
    assert "from-file" not in repr(s)  # the key is never shown (nor logged with the settings)
    s = load_settings(environ={**env, "GRAPHMEM_ENGINE_KEY": "from-env", "GRAPHMEM_MAX_BODY_BYTES": "2000"},
                      cwd=tmp_path)
    assert (s.engine_key, s.max_body_bytes) == ("from-env", 2000)


def test_the_servers_retry_time_comes_from_the_file_or_the_environment(tmp_path: Path) -> None:
    env = {"GRAPHMEM_HOME": str(tmp_path)}
    assert load_settings(environ=env, cwd=tmp_path).server_retry_seconds == 8.0  # the 503 after 13-16 s
    (tmp_path / "graphmem.toml").write_text("[server]\nretry_seconds = 2.5\n", encoding="utf-8")
    assert load_settings(environ=env, cwd=tmp_path).server_retry_seconds == 2.5
    s = load_settings(environ={**env, "GRAPHMEM_SERVER_RETRY_SECONDS": "1"}, cwd=tmp_path)
    assert s.server_retry_seconds == 1.0
    refused = r"GRAPHMEM_SERVER_RETRY_SECONDS: field 'server.retry_seconds' must be > 0 and <= 300, got 301"
    with pytest.raises(ConfigError, match=refused):
        load_settings(environ={**env, "GRAPHMEM_SERVER_RETRY_SECONDS": "301"}, cwd=tmp_path)


def test_a_commands_retry_time_comes_from_the_file_or_the_environment_and_reaches_the_driver(tmp_path: Path) -> None:
    """``[neo4j] retry_seconds`` / ``GRAPHMEM_RETRY_SECONDS``: how long a command retries a lost Neo4j (default 30),
    the driver's max_transaction_retry_time unless the caller names its own (the server: its retry_seconds)."""
    from graphmem.store.connection import open_driver

    env = {"GRAPHMEM_HOME": str(tmp_path), "NEO4J_URI": "bolt://127.0.0.1:1"}
    assert load_settings(environ=env, cwd=tmp_path).retry_seconds == 30.0
    (tmp_path / "graphmem.toml").write_text("[neo4j]\nretry_seconds = 4\n", encoding="utf-8")
    assert load_settings(environ=env, cwd=tmp_path).retry_seconds == 4.0
    s = load_settings(environ={**env, "GRAPHMEM_RETRY_SECONDS": "1.5"}, cwd=tmp_path)
    assert s.retry_seconds == 1.5 and s.server_retry_seconds == 8.0  # the server's own is another setting
    with open_driver(s, check=False) as driver:  # nothing listens there: a read gives up after about 1.5 s
        started = time.monotonic()
        with pytest.raises(neo4j.exceptions.ServiceUnavailable):
            driver.execute_query("RETURN 1")
        assert time.monotonic() - started < 10  # with the default 30 s: about 35 s


def test_a_command_refuses_a_retry_time_that_is_not_a_number_naming_where_it_came_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new user met: ``graphmem games`` with ``retry_seconds = true`` in graphmem.toml listed the games,
    retrying for 1 s; and GRAPHMEM_RETRY_SECONDS=abc said 'must be float'. Exit 1, one line, before any Neo4j."""
    monkeypatch.chdir(tmp_path)
    env = {"GRAPHMEM_HOME": str(tmp_path), "NEO4J_URI": "bolt://127.0.0.1:1", "GRAPHMEM_RETRY_SECONDS": ""}
    (tmp_path / "graphmem.toml").write_text("[neo4j]\nretry_seconds = true\n", encoding="utf-8")
    refused = CliRunner().invoke(main, ["games"], env=env)
    assert refused.exit_code == 1
    assert refused.output.strip().splitlines() == [
        f"Error: {tmp_path / 'graphmem.toml'}: field 'neo4j.retry_seconds' must be a number, got true (a boolean)"]
    (tmp_path / "graphmem.toml").unlink()
    refused = CliRunner().invoke(main, ["games"], env={**env, "GRAPHMEM_RETRY_SECONDS": "abc"})
    assert refused.exit_code == 1
    assert refused.output.strip() == "Error: GRAPHMEM_RETRY_SECONDS: field 'neo4j.retry_seconds' must be a number, got 'abc'"


def test_flags_win_over_the_environment_and_the_file_and_the_settings_travel_to_workers(tmp_path: Path) -> None:
    import pickle

    (tmp_path / "graphmem.toml").write_text('[neo4j]\nuri = "bolt://file:1"\nuser = "file"\n', encoding="utf-8")
    env = {"GRAPHMEM_HOME": str(tmp_path), "NEO4J_URI": "bolt://env:2", "NEO4J_USER": "env"}
    s = load_settings(environ=env, cwd=tmp_path, uri="bolt://flag:3", user=None)
    assert (s.uri, s.uri_source, s.user) == ("bolt://flag:3", "flag", "env")  # a None flag is no flag
    assert pickle.loads(pickle.dumps(s)) == s  # `graphmem serve --workers N` hands them over in its app factory
    with pytest.raises(ConfigError, match=r"field 'neo4j.uri' must be a string, got 7"):
        load_settings(environ=env, cwd=tmp_path, uri=7)
