"""The ``graphmem`` command line (click).

Exit codes: 0 success, 1 failure (any :class:`~graphmem.errors.GraphmemError`), 2 usage error (bad flags,
unknown names: :class:`~graphmem.errors.UsageProblem` and click's own usage errors).

Each command (or command group) lives in its own module of this package, named in :data:`COMMANDS` and imported
only when it is looked up (:class:`GraphmemGroup`); the command modules import this package for
:func:`settings_of`, :func:`memory_service` and :func:`memory_targets`, never the other way round (no parent-child
import cycle). Heavy imports (neo4j, numpy, pydantic, torch, matplotlib) happen inside the functions that need
them, so ``graphmem --help``, which imports every command module for the one-line summaries, stays fast (under
0.3 s, tests/unit/test_cli_startup.py).

A program that runs the commands in its own process (click's ``CliRunner``, ``main.main(args, obj=...)``) may give
its loaded :class:`~graphmem.embedding.Embedder` as click's root object: every command then embeds with it instead of
loading the model again (:func:`embedder_of`; the tests run their commands on the session's embedder so).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from graphmem.errors import GraphmemError, UsageProblem

if TYPE_CHECKING:
    from graphmem.embedding import Embedder
    from graphmem.service import MemoryService
    from graphmem.settings import Settings
    from graphmem.targets import Targets

COMMANDS: Mapping[str, str] = {
    "consolidate": "graphmem.cli.jobs_cmd:consolidate",
    "contradictions": "graphmem.cli.jobs_cmd:contradictions",
    "convert": "graphmem.cli.convert_cmd:convert",
    "delete": "graphmem.cli.ingest_cmd:delete",
    "forget": "graphmem.cli.jobs_cmd:forget",
    "games": "graphmem.cli.ingest_cmd:games",
    "ingest": "graphmem.cli.ingest_cmd:ingest",
    "init": "graphmem.cli.init_cmd:init",
    "mcp": "graphmem.cli.serve_cmd:mcp_stdio",
    "model": "graphmem.cli.model_cmd:model",
    "move": "graphmem.cli.move_cmd:move",
    "neo4j": "graphmem.cli.neo4j_cmd:neo4j",
    "phase": "graphmem.cli.phase_cmd:phase",
    "query": "graphmem.cli.query_cmd:query",
    "recall": "graphmem.cli.recall_cmd:recall",
    "serve": "graphmem.cli.serve_cmd:serve",
    "stats": "graphmem.cli.ingest_cmd:stats",
    "viz": "graphmem.cli.viz_cmd:viz",
}
"""Every ``graphmem`` command: its name and where it is defined (``module:attribute``), imported on first use."""


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
    """A click group that turns graphmem's errors into one-line messages and the right exit code, and imports each
    command of ``lazy`` ({name: "module:attribute"}) when it is first looked up."""

    context_class = GraphmemContext

    def __init__(self, *args: Any, lazy: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attribute = self.lazy[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attribute)
            _use_graphmem_context(command)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except UsageProblem as e:
            raise click.UsageError(str(e), ctx) from e
        except GraphmemError as e:
            raise click.ClickException(str(e)) from e


class Utf8Text(click.ParamType[str, Any]):
    """Text given on the command line, refused (exit 2) when it holds bytes that are not valid UTF-8.

    Python reads such argv bytes as the lone surrogates \\udc80..\\udcff (its surrogateescape): left alone they
    would reach the memory's Unicode check, which speaks of "half of an emoji cut by the sender", a JSON
    client's mistake that no shell makes. The message names the first byte and its character position instead.
    """

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            for position, char in enumerate(value):
                if "\udc80" <= char <= "\udcff":
                    self.fail(f"not valid UTF-8: byte 0x{ord(char) - 0xDC00:02x} at character {position} (the "
                              "shell passed bytes of another encoding; give the text in UTF-8)", param, ctx)
        return value


UTF8_TEXT = Utf8Text()
"""The type of every command-line option and argument that takes text (a topic, a game id, a player's name, a query
parameter, a URI, ...): no command takes click's plain string (tests/unit/test_robustness_cli.py walks them all)."""


def _use_graphmem_context(command: click.Command) -> None:
    command.context_class = GraphmemContext
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _use_graphmem_context(sub)


@click.group(cls=GraphmemGroup, lazy=COMMANDS)
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Configuration file (default: $GRAPHMEM_CONFIG or ./graphmem.toml).")
@click.option("--uri", type=UTF8_TEXT, default=None,
              help="Neo4j URI (default: $NEO4J_URI, the config file, the local Neo4j).")
@click.option("--user", type=UTF8_TEXT, default=None, help="Neo4j user (default: $NEO4J_USER or neo4j).")
@click.option("--password", type=UTF8_TEXT, default=None, help="Neo4j password (default: $NEO4J_PASSWORD).")
@click.option("--database", type=UTF8_TEXT, default=None,
              help="Neo4j database (default: $NEO4J_DATABASE or the server default).")
@click.option("-v", "--verbose", count=True, help="More log output (-v info, -vv debug).")
@click.version_option(package_name="graphmem")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None, uri: str | None, user: str | None,
         password: str | None, database: str | None, verbose: int) -> None:
    """graphmem: fallible, human-like memory for LLM agents playing social deduction games."""
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR if verbose < 2 else logging.DEBUG)
    from graphmem.settings import load_settings  # here: `graphmem --help` never reads the settings

    if ctx.obj is not None:  # an in-process caller's loaded embedder (see embedder_of)
        from graphmem.embedding import Embedder

        if not isinstance(ctx.obj, Embedder):
            raise TypeError(f"graphmem's root object is an Embedder or None, got {type(ctx.obj).__name__}")
        ctx.meta[EMBEDDER_KEY] = ctx.obj
    try:  # flags over the environment over the file (graphmem.settings)
        ctx.obj = load_settings(config_path=config_path, uri=uri, user=user, password=password, database=database)
    except GraphmemError as e:
        raise click.ClickException(str(e)) from e


EMBEDDER_KEY = "graphmem.embedder"
"""Where the root context keeps the embedder an in-process caller gave (click's ``Context.meta``)."""


def settings_of(ctx: click.Context) -> Settings:
    """The :class:`~graphmem.settings.Settings` the root command read (for subcommands)."""
    from graphmem.settings import Settings

    settings = ctx.find_root().obj
    assert isinstance(settings, Settings)
    return settings


def embedder_of(ctx: click.Context) -> Embedder | None:
    """The loaded :class:`~graphmem.embedding.Embedder` a program that runs graphmem's commands in its own process
    gave as the root object (click's ``obj``: ``main.main(args, obj=embedder)``, or ``CliRunner().invoke(main, args,
    obj=embedder)``), for every command to embed with instead of loading the model again; None from the shell, where
    each command loads the settings' model when it first embeds. It must be of the settings' model and backend
    (:func:`graphmem.embedding.settings_embedder` refuses another)."""
    given = ctx.meta.get(EMBEDDER_KEY)
    return cast("Embedder | None", given)


@contextmanager
def memory_targets(ctx: click.Context) -> Iterator[Targets]:
    """The :class:`~graphmem.targets.Targets` of the root command's settings (one service per Neo4j target; closed
    when the command ends), for the commands over every game (ingest, games, init, query)."""
    from graphmem.targets import Targets

    with Targets.connect(settings_of(ctx), embedder=embedder_of(ctx)) as targets:
        yield targets


@contextmanager
def memory_service(ctx: click.Context, game: str | None = None, *,
                   series: str | None = None) -> Iterator[MemoryService]:
    """The :class:`~graphmem.service.MemoryService` a command works through, on the root command's settings: one
    checked driver (closed when the command ends), the parameters, and the embedding model (loaded only if the
    command embeds something). With several Neo4j targets, the service of the target ``game`` (or the series of
    games ``series``) lives on. The CLI and game engines thus share one path from settings to Neo4j."""
    with memory_targets(ctx) as targets:
        if game is not None:
            service = targets.for_game(game)
        elif series is not None:
            service = targets.services[targets.target_of_series(series)]
        else:
            service = targets.services[targets.names[0]]
        yield targets.checked(service)
