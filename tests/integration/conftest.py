"""Fixtures shared by the integration tests (the session's Neo4j and embedder come from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from graphmem.cli import main


@pytest.fixture()
def cli(neo4j_uri: str, schema: object) -> Callable[..., Result]:
    """cli(*args, input=None): run ``graphmem --uri <the session's Neo4j> *args`` in-process; ``input`` is stdin."""
    def invoke(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(main, ["--uri", neo4j_uri, *args], input=input)
    return invoke
