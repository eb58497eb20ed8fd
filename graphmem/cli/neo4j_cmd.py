"""``graphmem neo4j start|stop|status``: the project's local Neo4j (see :mod:`graphmem.local_neo4j`)."""

from __future__ import annotations

from pathlib import Path

import click

from graphmem import local_neo4j
from graphmem.cli import settings_of
from graphmem.errors import LocalNeo4jError

_HOME = click.option("--home", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Data and state directory (default: [local] home, $GRAPHMEM_HOME or "
                          "~/.local/share/graphmem).")


def _home(ctx: click.Context, home: Path | None) -> Path:
    return home if home is not None else settings_of(ctx).home


@click.group("neo4j")
def neo4j() -> None:
    """Run a local Neo4j Community 5.26 (embedded in a small JVM launcher; needs Java 17+ and Maven).

    Bolt listens on 127.0.0.1 only, with authentication disabled. Once started, other commands connect to it
    when NEO4J_URI (and [neo4j] uri) is not set. Memory: $GRAPHMEM_NEO4J_HEAP (default 1g) plus a page cache of
    $GRAPHMEM_NEO4J_PAGECACHE (default 256m).
    """


@neo4j.command("start")
@_HOME
@click.option("--port", type=click.IntRange(0, 65535), default=local_neo4j.DEFAULT_PORT, show_default=True,
              help="Bolt port on 127.0.0.1 (0 picks a free port).")
@click.option("--timeout", type=click.FloatRange(min=1.0), default=local_neo4j.DEFAULT_START_TIMEOUT,
              show_default=True, help="Seconds to wait for Bolt once the JVM runs (a first build comes on top).")
@click.pass_context
def start(ctx: click.Context, home: Path | None, port: int, timeout: float) -> None:
    """Start the local Neo4j in the background (building the launcher first if needed). Prints its URI last.

    Starting it again while it runs starts nothing and prints where it runs.
    """
    state = local_neo4j.start(_home(ctx, home), port, timeout)
    if state.already_running:
        other = f" (not on the requested port {port}: stop it first to move it)" if port not in (0, state.port) \
            else ""
        click.echo(f"Neo4j is already running at {state.uri} (pid {state.pid}, home {state.home}){other}; "
                   "not starting a second one.")
    else:
        click.echo(f"Neo4j started at {state.uri} (pid {state.pid}, home {state.home}, log {state.log_file})")
    click.echo(state.uri)


@neo4j.command("stop")
@_HOME
@click.option("--timeout", type=click.FloatRange(min=1.0), default=local_neo4j.DEFAULT_STOP_TIMEOUT,
              show_default=True, help="Seconds to wait for a clean shutdown before SIGKILL.")
@click.pass_context
def stop(ctx: click.Context, home: Path | None, timeout: float) -> None:
    """Stop the local Neo4j (SIGTERM, a clean shutdown; SIGKILL only after --timeout)."""
    home = _home(ctx, home)
    result = local_neo4j.stop(home, timeout)
    if result is None:
        click.echo(f"Neo4j is not running (home {home}); nothing to stop. A Neo4j started with another --home or "
                   "GRAPHMEM_HOME is stopped with the same setting.")
    elif result.killed:
        click.echo(f"Neo4j (pid {result.pid}) ignored SIGTERM for {timeout:g} s and was killed with SIGKILL; "
                   "its next start will run recovery.")
    else:
        click.echo(f"Neo4j stopped (pid {result.pid}, clean shutdown in {result.seconds:.1f} s).")


@neo4j.command("status")
@_HOME
@click.pass_context
def status(ctx: click.Context, home: Path | None) -> None:
    """Say whether the local Neo4j runs; the last line is its Bolt URI. Exit code 1 when it is not running."""
    home = _home(ctx, home)
    state = local_neo4j.status(home)
    if state is None:
        raise LocalNeo4jError(f"Neo4j is not running (home {home}); start it with `graphmem neo4j start`.")
    click.echo("running: yes")
    click.echo(f"pid: {state.pid}")
    click.echo(f"home: {state.home}")
    click.echo(f"log: {state.log_file}")
    click.echo(f"started: {state.started_at}")
    click.echo(f"auth: {'enabled' if state.auth_enabled else 'disabled (Bolt on 127.0.0.1 only)'}")
    click.echo(state.uri)
