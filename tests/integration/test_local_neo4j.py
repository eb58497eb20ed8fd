"""The project's local Neo4j (graphmem.local_neo4j, `graphmem neo4j ...`), with real JVMs and real ports.

Every start costs seconds, so only the tests marked ``slow`` start their own server; the index test uses the
session's Neo4j.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import uuid
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner
from neo4j.exceptions import AuthError

from graphmem import local_neo4j
from graphmem.cli import main
from graphmem.errors import ConfigError, LocalNeo4jError
from graphmem.settings import load_settings

BOLT_URI = re.compile(r"bolt://127\.0\.0\.1:\d+")


def _processes_mentioning(text: str) -> list[int]:
    """Pids of live processes whose command line contains ``text`` (zombies have none)."""
    pids = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text in cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                pids.append(int(cmdline.parent.name))
        except OSError:
            continue
    return pids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


@pytest.mark.neo4j
@pytest.mark.slow
def test_start_status_query_start_again_stop(tmp_path: Path) -> None:
    home = tmp_path / "home"
    runner = CliRunner()
    started = runner.invoke(main, ["neo4j", "start", "--home", str(home), "--port", "0"])
    pid = None
    try:
        assert started.exit_code == 0, started.output
        pid = json.loads((home / "neo4j-local.json").read_text())["pid"]

        status = runner.invoke(main, ["neo4j", "status", "--home", str(home)])
        assert status.exit_code == 0, status.output
        assert "running: yes" in status.stdout and f"pid: {pid}" in status.stdout
        uri = status.stdout.strip().splitlines()[-1]
        assert BOLT_URI.fullmatch(uri), uri
        with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
            records, _, _ = driver.execute_query("RETURN 1 AS one")
        assert records[0]["one"] == 1

        settings = load_settings(environ={"GRAPHMEM_HOME": str(home)}, cwd=tmp_path)
        assert (settings.uri, settings.uri_source) == (uri, "local-state")

        again = runner.invoke(main, ["neo4j", "start", "--home", str(home), "--port", "0"])
        assert again.exit_code == 0, again.output
        assert "already running" in again.output and uri in again.output
        assert json.loads((home / "neo4j-local.json").read_text())["pid"] == pid
        assert _processes_mentioning(str(home.resolve())) == [pid]
    finally:
        stopped = runner.invoke(main, ["neo4j", "stop", "--home", str(home)])
    assert stopped.exit_code == 0, stopped.output
    assert "clean shutdown" in stopped.output
    assert pid is not None and not _alive(pid)
    assert _processes_mentioning(str(home.resolve())) == []
    assert not (home / "neo4j-local.json").exists()

    after = runner.invoke(main, ["neo4j", "status", "--home", str(home)])
    assert after.exit_code == 1
    assert "not running" in after.output
    again_stopped = runner.invoke(main, ["neo4j", "stop", "--home", str(home)])
    assert again_stopped.exit_code == 0 and "nothing to stop" in again_stopped.output


def test_port_in_use_is_refused_before_starting(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with _listening_socket() as busy:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["neo4j", "start", "--home", str(home), "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is already in use" in result.output
    assert not (home / "neo4j-local.json").exists()
    assert _processes_mentioning(str(home.resolve())) == []


@pytest.mark.neo4j
@pytest.mark.slow
def test_port_in_use_is_recognised_in_the_neo4j_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Skip the check before the start, as if another process took the port in between: Neo4j's own bind fails.
    monkeypatch.setattr(local_neo4j, "check_port_free", lambda port: None)
    home = tmp_path / "home"
    with _listening_socket() as busy:
        port = busy.getsockname()[1]
        with pytest.raises(LocalNeo4jError, match=f"port {port} on 127.0.0.1 is already in use") as caught:
            local_neo4j.start(home, port, timeout=120)
    assert "Address already in use" in str(caught.value)  # the log tail comes with it
    assert not (home / "neo4j-local.json").exists()
    assert _processes_mentioning(str(home.resolve())) == []


@pytest.mark.neo4j
@pytest.mark.slow
def test_auth_password_is_enforced_and_a_hung_server_is_killed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    state = local_neo4j.start(home, 0, timeout=180, auth_password="graphmem-test-pw")
    try:
        assert state.auth_enabled and not state.already_running
        with neo4j.GraphDatabase.driver(state.uri, auth=("neo4j", "not-the-password")) as driver:
            with pytest.raises(AuthError):
                driver.verify_connectivity()
        with neo4j.GraphDatabase.driver(state.uri, auth=("neo4j", "graphmem-test-pw")) as driver:
            records, _, _ = driver.execute_query("RETURN 1 AS one")
        assert records[0]["one"] == 1
        wrong = CliRunner().invoke(main, ["--uri", state.uri, "--password", "not-the-password", "init"])
        assert wrong.exit_code == 1
        assert f"Neo4j at {state.uri} refused the credentials of user 'neo4j'" in wrong.output
        assert "NEO4J_PASSWORD" in wrong.output and "Traceback" not in wrong.output
        # Second use of this (costly) start: a server that ignores SIGTERM is killed after the stop timeout.
        os.kill(state.pid, signal.SIGSTOP)
        result = local_neo4j.stop(home, timeout=1.0)
    finally:
        local_neo4j.stop(home)
    assert result is not None and result.killed and result.pid == state.pid
    assert not _alive(state.pid)
    assert _processes_mentioning(str(home.resolve())) == []
    assert not (home / "neo4j-local.json").exists()


@pytest.mark.neo4j
@pytest.mark.slow
def test_timeout_names_the_wait_shows_the_log_and_leaves_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with pytest.raises(LocalNeo4jError, match=r"did not answer on Bolt within 0\.5 s") as caught:
        local_neo4j.start(home, 0, timeout=0.5)
    assert "last lines of" in str(caught.value)
    assert not (home / "neo4j-local.json").exists()
    assert _processes_mentioning(str(home.resolve())) == []


@pytest.mark.neo4j
def test_early_exit_shows_the_log_tail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(local_neo4j.HEAP_ENV, "1k")  # the JVM refuses to start with a 1 KiB heap
    home = tmp_path / "home"
    with pytest.raises(LocalNeo4jError, match="exited early with code 1") as caught:
        local_neo4j.start(home, 0, timeout=60)
    assert "heap" in str(caught.value).lower()
    assert not (home / "neo4j-local.json").exists()


def test_malformed_heap_is_a_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(local_neo4j.HEAP_ENV, "lots")
    with pytest.raises(ConfigError, match="GRAPHMEM_NEO4J_HEAP"):
        local_neo4j.start(tmp_path / "home", 0)


@pytest.mark.neo4j
def test_vector_and_fulltext_indexes_work(driver: neo4j.Driver) -> None:
    tag = uuid.uuid4().hex[:8]
    label, vector_index, text_index = f"LocalProbe_{tag}", f"probe_vec_{tag}", f"probe_text_{tag}"
    try:
        driver.execute_query(
            f"CREATE VECTOR INDEX {vector_index} FOR (n:{label}) ON n.embedding "
            "OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}")
        driver.execute_query(f"CREATE FULLTEXT INDEX {text_index} FOR (n:{label}) ON EACH [n.text]")
        driver.execute_query(
            f"UNWIND $rows AS r CREATE (:{label} {{name: r.name, embedding: r.embedding, text: r.text}})",
            rows=[{"name": "wolf", "embedding": [1.0, 0.0, 0.0], "text": "the werewolf accused Bob"},
                  {"name": "seer", "embedding": [0.0, 1.0, 0.0], "text": "the seer checked Alice"},
                  {"name": "both", "embedding": [0.7, 0.7, 0.0], "text": "nobody said anything"}])
        driver.execute_query("CALL db.awaitIndexes(120)")
        near, _, _ = driver.execute_query(
            f"CALL db.index.vector.queryNodes('{vector_index}', 2, [0.9, 0.1, 0.0]) YIELD node, score "
            "RETURN node.name AS name, score")
        assert [r["name"] for r in near] == ["wolf", "both"]
        assert near[0]["score"] > near[1]["score"]
        hits, _, _ = driver.execute_query(
            f"CALL db.index.fulltext.queryNodes('{text_index}', 'seer') YIELD node RETURN node.name AS name")
        assert [r["name"] for r in hits] == ["seer"]
    finally:
        driver.execute_query(f"DROP INDEX {vector_index} IF EXISTS")
        driver.execute_query(f"DROP INDEX {text_index} IF EXISTS")
        driver.execute_query(f"MATCH (n:{label}) DETACH DELETE n")


def test_stale_state_file_is_removed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = local_neo4j.LocalState(pid=dead.pid, uri="bolt://127.0.0.1:1", home=home,
                                   log_file=home / "neo4j.log", started_at="2025-01-01T00:00:00+00:00", port=1)
    (home / "neo4j-local.json").write_text(stale.to_json())
    runner = CliRunner()
    status = runner.invoke(main, ["neo4j", "status", "--home", str(home)])
    assert status.exit_code == 1 and "not running" in status.output
    assert not (home / "neo4j-local.json").exists()
    (home / "neo4j-local.json").write_text(stale.to_json())
    stopped = runner.invoke(main, ["neo4j", "stop", "--home", str(home)])
    assert stopped.exit_code == 0 and "nothing to stop" in stopped.output
    assert not (home / "neo4j-local.json").exists()


def test_missing_or_old_java_and_missing_maven_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(LocalNeo4jError, match=r"Java 17\+ is needed .* no `java` is on PATH"):
        local_neo4j.find_java()
    with pytest.raises(LocalNeo4jError, match=r"Maven \(`mvn`\) is needed"):
        local_neo4j.find_maven()
    old_java = tmp_path / "java"
    old_java.write_text('#!/bin/sh\necho \'openjdk version "11.0.2" 2019-01-15\' >&2\n')
    old_java.chmod(0o755)
    with pytest.raises(LocalNeo4jError, match="needs Java 17 or newer, but .* is Java 11"):
        local_neo4j.find_java()


@pytest.mark.neo4j
@pytest.mark.slow
def test_maven_failure_shows_its_output(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(local_neo4j.checkout_source() / "src", source / "src")
    shutil.copy2(local_neo4j.checkout_source() / "pom.xml", source / "pom.xml")
    java_file = source / "src" / "main" / "java" / "graphmem" / "LocalNeo4j.java"
    java_file.write_text(java_file.read_text() + "\nthis is not Java\n")
    build = tmp_path / "build"  # built from a copy, as an installed wheel does
    with pytest.raises(LocalNeo4jError, match=r"Maven failed to build the local Neo4j launcher") as caught:
        local_neo4j.build_launcher(source, build)
    assert "LocalNeo4j.java" in str(caught.value)
    assert (build / "src" / "main" / "java" / "graphmem" / "LocalNeo4j.java").is_file()
    assert not (build / "target" / local_neo4j.STAMP_NAME).exists()
