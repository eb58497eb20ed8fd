"""The wheel ships the page script and the analysis queries, and both load from an installed copy."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graphmem.analysis import analysis_query_names

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_an_installed_wheel_renders_the_page_and_lists_the_analysis_queries(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("graphmem-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        members = set(zf.namelist())
        zf.extractall(tmp_path / "site")
    assert "graphmem/viz/told.js" in members
    assert {f"graphmem/_cypher/analysis/{n}.cypher" for n in analysis_query_names()} <= members
    probe = ("import json, graphmem.analysis as a, graphmem.viz.html as h, graphmem.viz.told as t; "
             "g = t.build_told_graph('g', [{'player': 'A', 'role': 'traitor'}], []); "
             "print(json.dumps([h.__file__, list(a.analysis_query_names()), h.render_html(g)]))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, check=True, capture_output=True, text=True,
                         env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"}).stdout
    module, names, page = json.loads(out)
    assert module.startswith(str(tmp_path / "site"))
    assert names == list(analysis_query_names())
    assert "data-ready" in page and "getElementById(\"graph-data\")" in page
