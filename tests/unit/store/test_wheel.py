"""The wheel carries every query and the Neo4j launcher source, and the loader finds them when installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.store.queries import fragment_names, load, query_names


@pytest.mark.slow
def test_wheel_holds_every_query_and_the_loader_reads_them_from_it(wheel: tuple[set[str], Path],
                                                                   tmp_path: Path) -> None:
    members, site = wheel
    shipped = {m[len("graphmem/_cypher/"):-len(".cypher")] for m in members
               if m.startswith("graphmem/_cypher/") and m.endswith(".cypher")}
    assert shipped == set(query_names()) | {f"fragments/{n}" for n in fragment_names()}
    assert "graphmem/_neo4j_local/pom.xml" in members
    assert "graphmem/model/defaults.toml" in members
    assert "graphmem/py.typed" in members
    probe = ("import json, graphmem.store.queries as q; "
             "print(json.dumps([str(q.query_root()), list(q.query_names()), q.load('schema/vector_index').purpose, "
             "q.load('jobs/decay_memories').text]))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, check=True, capture_output=True, text=True,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}).stdout
    root, names, purpose, decay = json.loads(out)
    assert root.startswith(str(site))
    assert names == list(query_names())
    assert purpose.startswith("Vector index on memory embeddings")
    assert decay == load("jobs/decay_memories").text  # the fragments ship too: the forgetting curve is in place
    assert "log(2.0)" in decay
