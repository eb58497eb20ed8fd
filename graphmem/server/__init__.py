"""graphmem as a network service (docs/service.md): the HTTP API for game engines and analysts, MCP for agents, and each
agent confined to its own player's memory (docs/service.md).

- :func:`graphmem.server.http.create_app`: the ASGI application (FastAPI on uvicorn), ``graphmem serve``, built
  from the routers of :mod:`graphmem.server.routes` with the dependencies of :mod:`graphmem.server.deps` and the
  request and answer models of :mod:`graphmem.server.models`;
- :func:`graphmem.server.app.run`: uvicorn with one or more worker processes, each given the settings in its
  application factory;
- :func:`graphmem.server.mcp.build_mcp`: the MCP tools (also ``graphmem mcp`` over stdio);
- :mod:`graphmem.server.auth`: the engine key and player tokens; :mod:`graphmem.server.errors`: errors as HTTP
  answers; :mod:`graphmem.server.limits`: the body limit.

This package sits above :mod:`graphmem.service` (every route is a MemoryService operation) and below the CLI.
"""
