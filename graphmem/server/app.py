"""The application factory of ``graphmem serve`` (``uvicorn graphmem.server.app:factory --factory``): each worker
process reads the settings from the environment and the configuration file (the serve command exports its flags
there), opens one driver, and serves."""

from __future__ import annotations

import os

from starlette.types import ASGIApp

from graphmem.server.http import create_app
from graphmem.service import MemoryService
from graphmem.settings import load_settings

HOST_VARIABLE = "GRAPHMEM_SERVER_HOST"
"""The host the serve command binds (the app needs it for the MCP endpoint's DNS-rebinding protection)."""


SERVER_RETRY_SECONDS = 8.0
"""How long a request retries a transaction on a lost connection before it answers 503 (a Neo4j restart or a
cluster leader switch usually takes less)."""


def factory() -> ASGIApp:
    """One process's application: a driver that does not insist on Neo4j being up at start (``/ready`` says when
    it is), the service, the app."""
    from graphmem.store.connection import open_driver

    settings = load_settings()
    if os.environ.get(HOST_VARIABLE):
        settings = settings.with_overrides(server_host=os.environ[HOST_VARIABLE])
    driver = open_driver(settings, check=False, max_retry_seconds=SERVER_RETRY_SECONDS)
    return create_app(MemoryService(driver, settings=settings))
