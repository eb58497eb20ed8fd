"""A program that runs graphmem's commands in its own process gives them its loaded embedder (click's root object,
:func:`graphmem.cli.embedder_of`): every command that embeds uses it instead of loading the model again, and one of
another model or backend than the settings name is refused (:func:`graphmem.embedding.settings_embedder`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.embedding import Embedder

CLEAN = {"GRAPHMEM_CONFIG": None, "NEO4J_URI": None, "GRAPHMEM_TOKEN": None, "GRAPHMEM_EMBEDDING_BACKEND": None,
         "GRAPHMEM_EMBEDDING_MODEL": None}
"""No configuration of the developer's."""


@pytest.mark.slow  # loads the real model
def test_graphmem_mcp_warms_up_the_embedder_it_is_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./graphmem.toml of the developer's
    given = Embedder()  # not loaded yet
    # a client that closes stdin at once: the server ends, once the warm-up that loads the model has
    result = CliRunner().invoke(main, ["mcp"], obj=given, input="", env=CLEAN)
    assert result.exit_code == 0, result.output
    assert given.loaded  # the one the command embeds with: it loaded no model of its own


@pytest.mark.parametrize("command", [["mcp"], ["model", "findings"]])
def test_an_embedder_of_another_backend_than_the_settings_name_is_refused(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    given = Embedder(backend="torch")  # the settings name onnx
    result = CliRunner().invoke(main, command, obj=given, input="", env=CLEAN)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == ("Error: the embedder given is of model 'all-MiniLM-L6-v2' on torch; "
                                              "the settings name 'all-MiniLM-L6-v2' on onnx")
    assert not given.loaded
