"""``graphmem serve`` (the HTTP API and MCP over streamable HTTP) and ``graphmem mcp`` (MCP over stdio)."""

from __future__ import annotations

import click

from graphmem.cli import UTF8_TEXT, embedder_of, settings_of


@click.command()
@click.option("--host", type=UTF8_TEXT, default=None,
              help="Address to listen on (default: [server] host, or 127.0.0.1). Without an "
                   "engine key the server listens on loopback only.")
@click.option("--port", type=click.IntRange(0, 65535), default=None, help="Port (default: [server] port, or 8750).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Server processes (each loads the embedding model once; they share nothing but Neo4j).")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]), default="info",
              show_default=True)
@click.pass_context
def serve(ctx: click.Context, host: str | None, port: int | None, workers: int, log_level: str) -> None:
    """Serve the HTTP API (OpenAPI at /docs) and MCP at /mcp, with /health and /ready.

    Engines use the engine key ([server] engine_key or GRAPHMEM_ENGINE_KEY) and mint a player token for each
    player's agent (docs/service.md).
    """
    from graphmem.server.app import run
    from graphmem.settings.defaults import LOOPBACK

    settings = settings_of(ctx)
    host = asked = host or settings.server_host
    port = settings.server_port if port is None else port
    loopback_only = settings.engine_key is None and host not in LOOPBACK
    if loopback_only:
        host = "127.0.0.1"

    def listening() -> None:  # once the address is taken: a port in use is the error's one line, nothing before
        if loopback_only:
            click.echo(f"graphmem serve: no engine key is configured, so it listens on 127.0.0.1 only, not "
                       f"{asked} (set GRAPHMEM_ENGINE_KEY or [server] engine_key to serve other hosts)", err=True)
        elif settings.engine_key is None:
            click.echo("graphmem serve: no engine key is configured: engine operations need no credential, on "
                       "loopback only (set GRAPHMEM_ENGINE_KEY to require one)", err=True)
        neo4j = (f"Neo4j {settings.uri}" if not settings.targets else f"{len(settings.targets)} Neo4j targets ("
                 + ", ".join(f"{name} {t.uri}" for name, t in settings.targets.items()) + ")")
        click.echo(f"graphmem serve: http://{host}:{port} (API docs /docs, MCP /mcp), {neo4j}, "
                   f"{workers} worker(s)", err=True)

    # every worker gets these settings (flags, environment and file as read here) with the application factory
    run(settings.with_overrides(server_host=host, server_port=port), workers=workers, log_level=log_level,
        listening=listening)


@click.command("mcp")
@click.option("--token", type=UTF8_TEXT, envvar="GRAPHMEM_TOKEN", default=None,
              help="The player token of the agent (or the engine key); default $GRAPHMEM_TOKEN.")
@click.pass_context
def mcp_stdio(ctx: click.Context, token: str | None) -> None:
    """MCP over stdio for one agent: the tools of the player its token names (docs/service.md)."""
    import threading

    from graphmem.server.mcp import build_mcp
    from graphmem.targets import Targets

    # the targets (their drivers) close when stdin closes; an in-process caller's embedder is the one warmed up
    with Targets.connect(settings_of(ctx), check=False, embedder=embedder_of(ctx)) as targets:
        first = targets.services[targets.names[0]]
        warm = threading.Thread(target=first.embedder.encode_one, args=("warm up",), daemon=True)
        warm.start()
        build_mcp(targets, stdio=True, credential=token).run("stdio")
        # a client that closes stdin while the model loads: let the load finish rather than tear the interpreter
        # down under it (a traceback from a half-imported PyTorch)
        warm.join()
