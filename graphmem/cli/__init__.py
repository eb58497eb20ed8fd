"""The ``graphmem`` command line (click).

Exit codes: 0 success, 1 failure (any :class:`~graphmem.errors.GraphmemError`), 2 usage error (bad flags,
unknown names: :class:`~graphmem.errors.UsageProblem` and click's own usage errors).

Each command group lives in its own module of this package and is registered at the bottom of this file.
Heavy imports (torch, sentence-transformers, matplotlib) happen inside the commands that need them, so
``graphmem --help`` stays fast.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from graphmem.errors import GraphmemError, UsageProblem
from graphmem.settings import Settings, load_settings

if TYPE_CHECKING:
    from graphmem.service import MemoryService


class GraphmemContext(click.Context):
    """The context of every graphmem command: a :class:`UsageProblem` raised by a command becomes click's usage
    error for *that* command, so the message shows its usage line (``graphmem query [OPTIONS] [NAME]``), not the
    top-level one."""

    def invoke(self, callback: Any, /, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().invoke(callback, *args, **kwargs)
        except UsageProblem as e:
            raise click.UsageError(str(e), self) from e


class GraphmemGroup(click.Group):
    """A click group that turns graphmem's errors into one-line messages and the right exit code."""

    context_class = GraphmemContext

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageProblem as e:
            raise click.UsageError(str(e), ctx) from e
        except GraphmemError as e:
            raise click.ClickException(str(e)) from e


@click.group(cls=GraphmemGroup)
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Configuration file (default: $GRAPHMEM_CONFIG or ./graphmem.toml).")
@click.option("--uri", default=None, help="Neo4j URI (default: $NEO4J_URI, the config file, the local Neo4j).")
@click.option("--user", default=None, help="Neo4j user (default: $NEO4J_USER or neo4j).")
@click.option("--password", default=None, help="Neo4j password (default: $NEO4J_PASSWORD).")
@click.option("--database", default=None, help="Neo4j database (default: $NEO4J_DATABASE or the server default).")
@click.option("-v", "--verbose", count=True, help="More log output (-v info, -vv debug).")
@click.version_option(package_name="graphmem")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, uri: str | None, user: str | None,
         password: str | None, database: str | None, verbose: int) -> None:
    """graphmem: fallible, human-like memory for LLM agents playing social deduction games."""
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR if verbose < 2 else logging.DEBUG)
    try:
        settings = load_settings(config_path=config_path)
    except GraphmemError as e:
        raise click.ClickException(str(e)) from e
    ctx.obj = settings.with_overrides(uri=uri, user=user, password=password, database=database)


def settings_of(ctx: click.Context) -> Settings:
    """The :class:`Settings` the root command read (for subcommands)."""
    settings = ctx.find_root().obj
    assert isinstance(settings, Settings)
    return settings


@contextmanager
def memory_service(ctx: click.Context) -> Iterator[MemoryService]:
    """The :class:`~graphmem.service.MemoryService` a command works through, on the root command's settings: one
    checked driver (closed when the command ends), the parameters, and the embedding model (loaded only if the
    command embeds something). The CLI and game engines thus share one path from settings to Neo4j."""
    from graphmem.service import MemoryService

    with MemoryService.connect(settings_of(ctx)) as service:
        yield service


# Command registration: one import per command module.
from graphmem.cli.convert_cmd import convert  # noqa: E402
from graphmem.cli.ingest_cmd import delete, games, ingest, stats  # noqa: E402
from graphmem.cli.init_cmd import init  # noqa: E402
from graphmem.cli.jobs_cmd import consolidate, contradictions, forget  # noqa: E402
from graphmem.cli.model_cmd import model  # noqa: E402
from graphmem.cli.neo4j_cmd import neo4j  # noqa: E402
from graphmem.cli.phase_cmd import phase  # noqa: E402
from graphmem.cli.query_cmd import query  # noqa: E402
from graphmem.cli.recall_cmd import recall  # noqa: E402
from graphmem.cli.serve_cmd import mcp_stdio, serve  # noqa: E402
from graphmem.cli.viz_cmd import viz  # noqa: E402


def _use_graphmem_context(command: click.Command) -> None:
    command.context_class = GraphmemContext
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _use_graphmem_context(sub)


for _command in (neo4j, init, convert, ingest, games, stats, delete, model, phase, query, viz, recall, consolidate,
                 contradictions, forget, serve, mcp_stdio):
    _use_graphmem_context(_command)
    main.add_command(_command)
