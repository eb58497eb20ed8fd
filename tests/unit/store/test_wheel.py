"""The wheel carries every query and the Neo4j launcher source, and the loader finds them when installed."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graphmem.store.queries import query_names

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_wheel_holds_every_query_and_the_loader_reads_them_from_it(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("graphmem-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        members = set(zf.namelist())
        zf.extractall(tmp_path / "site")
    shipped = {m[len("graphmem/_cypher/"):-len(".cypher")] for m in members
               if m.startswith("graphmem/_cypher/") and m.endswith(".cypher")}
    assert shipped == set(query_names())
    assert "graphmem/_neo4j_local/pom.xml" in members
    assert "graphmem/model/defaults.toml" in members
    assert "graphmem/py.typed" in members
    probe = ("import json, graphmem.store.queries as q; "
             "print(json.dumps([str(q.query_root()), list(q.query_names()), q.load('schema/vector_index').purpose]))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, check=True, capture_output=True, text=True,
                         env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"}).stdout
    root, names, purpose = json.loads(out)
    assert root.startswith(str(tmp_path / "site"))
    assert names == list(query_names())
    assert purpose.startswith("Vector index on memory embeddings")
