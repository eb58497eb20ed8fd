"""Running ``graphmem serve``: the settings the command read go to every worker process as the application factory
itself (:class:`AppFactory`, pickled to each worker by uvicorn), not through the environment; each process opens
its service on them (:meth:`graphmem.service.MemoryService.connect`, the one assembly point from settings to
driver, parameters and embedder) and closes it when it stops.

``uvicorn graphmem.server.app:factory --factory`` also works: that factory reads the settings from the environment
and the configuration file (:func:`graphmem.settings.load_settings`).
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.types import ASGIApp

from graphmem.settings import Settings, load_settings


@dataclass(frozen=True)
class AppFactory:
    """One process's application over ``settings``: a service whose driver does not insist on Neo4j being up at
    start (``/ready`` says when it is), closed when the application stops. Picklable (uvicorn hands it to each
    worker process)."""

    settings: Settings

    def __call__(self) -> ASGIApp:
        from graphmem.server.http import create_app
        from graphmem.service import MemoryService

        service = MemoryService.connect(self.settings, check=False, retry_seconds=self.settings.server_retry_seconds)
        return create_app(service, close=True)


def factory() -> ASGIApp:
    """The application on the settings of the environment and the configuration file (for ``uvicorn --factory``)."""
    return AppFactory(load_settings())()


def run(settings: Settings, *, workers: int = 1, log_level: str = "info") -> None:
    """Serve on ``settings.server_host``:``settings.server_port`` with ``workers`` processes (uvicorn; each
    process builds its own application from ``settings``). Returns when the server stops."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(AppFactory(settings), factory=True, host=settings.server_host, port=settings.server_port,
                            workers=workers, log_level=log_level, access_log=False)
    if workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        server = uvicorn.Server(config)
        server.run()
        if not server.started:
            raise SystemExit(3)  # as uvicorn.run: the server could not start (the reason is in its log)
