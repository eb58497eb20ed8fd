"""Running ``graphmem serve``: the settings the command read go to every worker process as the application factory
itself (:class:`AppFactory`, pickled to each worker by uvicorn), not through the environment; each process opens
its targets on them (:meth:`graphmem.targets.Targets.connect`: one service per Neo4j target, each assembled as
:meth:`graphmem.service.MemoryService.connect` assembles one) and closes it when it stops.

``uvicorn graphmem.server.app:factory --factory`` also works: that factory reads the settings from the environment
and the configuration file (:func:`graphmem.settings.load_settings`).
"""

from __future__ import annotations

import contextlib
import errno
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from starlette.types import ASGIApp

from graphmem.errors import ServerStartError
from graphmem.settings import Settings, load_settings


@dataclass(frozen=True)
class AppFactory:
    """One process's application over ``settings``: a service whose driver does not insist on Neo4j being up at
    start (``/ready`` says when it is), closed when the application stops. Picklable (uvicorn hands it to each
    worker process)."""

    settings: Settings

    def __call__(self) -> ASGIApp:
        from graphmem.server.http import create_app
        from graphmem.targets import Targets

        targets = Targets.connect(self.settings, check=False, retry_seconds=self.settings.server_retry_seconds)
        return create_app(targets, close=True)


def factory() -> ASGIApp:
    """The application on the settings of the environment and the configuration file (for ``uvicorn --factory``)."""
    return AppFactory(load_settings())()


def run(settings: Settings, *, workers: int = 1, log_level: str = "info",
        listening: Callable[[], None] | None = None) -> None:
    """Serve on ``settings.server_host``:``settings.server_port`` with ``workers`` processes (uvicorn; each
    process builds its own application from ``settings``). Returns when the server stops (SIGINT, SIGTERM).

    The address is taken before any process starts, so a port in use is one error at once, not a worker that loads
    the model and then fails; ``listening()`` is called once it is taken (the command's banner: never a line saying
    where it serves before the error saying it cannot). Raises ServerStartError (CLI exit 1: README's exit codes
    are 0, 1 and 2, where ``uvicorn.run`` exits 3) when it cannot listen there or the server does not start.
    """
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(AppFactory(settings), factory=True, host=settings.server_host, port=settings.server_port,
                            workers=workers, log_level=log_level, access_log=False)
    taken = listen(settings.server_host, settings.server_port)
    if listening is not None:
        listening()
    with taken:
        if workers > 1:
            Multiprocess(config, sockets=[taken]).run()
            return
        server = uvicorn.Server(config)
        with _stopped_quietly():
            server.run(sockets=[taken])
    if not server.started:
        raise ServerStartError(f"graphmem serve did not start on {settings.server_host}:{settings.server_port} "
                               "(the reason is in the log above)")


@contextlib.contextmanager
def _stopped_quietly() -> Iterator[None]:
    """SIGINT and SIGTERM stop the server and end the command with exit 0: uvicorn's server shuts down on them and
    then raises the signal again for the handler it found, which would end the process by SIGTERM (143) or with a
    KeyboardInterrupt (1); the handler it finds is this one, which lets the command return."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for uvicorn's processes to accept on (as ``uvicorn.Config.bind_socket``
    binds it: IPv6 for a host with a colon, SO_REUSEADDR, inheritable). Raises ServerStartError naming the address
    and the reason."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        hint = " (another server listens there: stop it or choose --port)" if e.errno == errno.EADDRINUSE else ""
        raise ServerStartError(f"graphmem serve cannot listen on {host}:{port}: {e.strerror or e}{hint}") from None
    sock.set_inheritable(True)
    return sock
