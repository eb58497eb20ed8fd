"""The wheel ships the page script and the analysis queries, and both load from an installed copy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.analysis import analysis_query_names


@pytest.mark.slow
def test_an_installed_wheel_renders_the_page_and_lists_the_analysis_queries(wheel: tuple[set[str], Path],
                                                                           tmp_path: Path) -> None:
    members, site = wheel
    assert "graphmem/viz/told.js" in members
    assert {f"graphmem/_cypher/analysis/{n}.cypher" for n in analysis_query_names()} <= members
    probe = ("import json, graphmem.analysis as a, graphmem.viz.html as h, graphmem.viz.told as t; "
             "g = t.build_told_graph('g', [{'player': 'A', 'role': 'traitor'}], []); "
             "print(json.dumps([h.__file__, list(a.analysis_query_names()), h.render_html(g)]))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, check=True, capture_output=True, text=True,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}).stdout
    module, names, page = json.loads(out)
    assert module.startswith(str(site))
    assert names == list(analysis_query_names())
    assert "data-ready" in page and "getElementById(\"graph-data\")" in page
