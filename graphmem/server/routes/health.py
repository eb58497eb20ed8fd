"""``/health`` (the process answers) and ``/ready`` (Neo4j answers, the model is loaded and the queries are warm)."""

from __future__ import annotations

import logging
import threading
import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from graphmem.server.deps import AllTargets
from graphmem.server.errors import answer
from graphmem.server.limits import Utf8JsonRoute
from graphmem.server.models import Health, Readiness
from graphmem.targets import Targets

log = logging.getLogger(__name__)
router = APIRouter(tags=["health"], route_class=Utf8JsonRoute)


class WarmUp:
    """The warm-up of one process (:meth:`graphmem.targets.Targets.warm_up`: the embedding model and the queries of
    a batch and of a recall on each target), run once in a background thread at start; ``/ready`` reports it."""

    def __init__(self) -> None:
        self.seconds: float | None = None
        self.error: str | None = None
        self._thread: threading.Thread | None = None

    def start(self, service: Targets) -> None:
        """Warm up in a daemon thread."""
        self._thread = threading.Thread(target=self.run, args=(service,), name="graphmem-warm-up", daemon=True)
        self._thread.start()

    def wait(self, timeout: float = 60.0) -> None:
        """Wait up to ``timeout`` seconds for a warm-up under way to end (the server stops: a process that exits
        while the model loads dies in the runtime's native threads, SIGABRT, where a stopped server exits 0)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self, service: Targets) -> None:
        """Warm up now (``seconds`` when done, ``error`` when the model cannot be loaded)."""
        started = time.perf_counter()
        try:
            service.warm_up()
        except Exception as e:  # reported by /ready
            self.error = str(e).splitlines()[0] if str(e) else type(e).__name__
            log.error("the warm-up failed: %s", self.error)
            return
        self.seconds = time.perf_counter() - started
        log.info("warmed up (the embedding model and the queries) in %.1f s", self.seconds)


@router.get("/health")
def health(every: AllTargets) -> Health:
    """The process answers (it says nothing of Neo4j: see /ready)."""
    settings = every.settings
    return Health(status="ok", engine_key=settings.engine_key is not None, host=settings.server_host)


@router.get("/ready", response_model=Readiness, responses={503: {"model": Readiness,
                                                                  "description": "not ready, and why"}})
def ready(request: Request, every: AllTargets) -> JSONResponse:
    """200 when Neo4j answers and the warm-up is done (the embedding model loaded, the queries of a batch and of a
    recall run once), so the first requests after it are as fast as later ones; 503 naming what is not ready. With
    several targets Neo4j answers when one target does (the games of a target that is down answer 503 on their
    own: a process is not taken out of a fleet for them), and ``reason`` names those that do not."""
    state: WarmUp = request.app.state.warm_up
    problems = []
    if state.error:
        problems.append(f"the warm-up failed: {state.error}")
    elif state.seconds is None:
        problems.append("the embedding model is loading and the queries are warming up")
    versions: list[str] = []
    down: list[str] = []
    for name, memory in every:
        try:
            with memory.driver.session(database=memory.database) as session:  # one try, no retries
                versions.append(str(session.run("CALL dbms.components() YIELD versions RETURN versions[0] AS v")
                                    .single(strict=True)["v"]))
        except Exception as e:
            reason = answer(e, memory.settings.uri)[1]["reason"]
            down.append(reason if every.single is not None else f"target '{name}': {reason}")
    if not versions:
        problems.extend(down)
    first = every.services[every.names[0]]
    payload = Readiness(ready=not problems, neo4j=", ".join(memory.settings.uri for _, memory in every),
                        neo4j_version=versions[0] if versions else None, model=first.embedder.model_name,
                        model_seconds=state.seconds, reason="; ".join(problems + (down if versions else [])) or None)
    return JSONResponse(payload.model_dump(), 200 if not problems else 503)
