"""The engine's live games (create, roles, events, phase, end, delete, counts) and log uploads: engine key only."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, File, Request, Response, UploadFile

from graphmem.errors import MalformedRequest, UsageProblem
from graphmem.ingest.pipeline import IngestSummary
from graphmem.server.deps import AllTargets, EngineOnly, Once, Service, placement, routed
from graphmem.server.limits import Utf8JsonRoute
from graphmem.server.models import (
    BatchAnswer,
    Deleted,
    EndBody,
    EventBatch,
    GameCounts,
    GameListing,
    PhaseAnswer,
    PhaseBody,
    Roles,
    RolesBody,
)

router = APIRouter(tags=["games"], dependencies=[EngineOnly], route_class=Utf8JsonRoute)


def _batch(game: str | None, report: Any) -> BatchAnswer:
    return BatchAnswer(game=game, **report.to_json())


UNREACHABLE = "X-Graphmem-Unreachable"
"""The header of a ``GET /games`` answer that lists the games of only some targets: the names of the others (those
that did not answer), comma-separated (docs/service.md#many-games-several-neo4j-targets)."""


@router.get("/games", responses={200: {"headers": {UNREACHABLE: {
    "description": "present when some targets did not answer: their names, comma-separated (their games are not "
                   "listed)", "schema": {"type": "string"}}}}})
def games(every: AllTargets, response: Response) -> list[GameListing]:
    """Every stored game (of every target, each row naming its ``target`` when there are several). With a target
    down, the games of those that answer, and the header ``X-Graphmem-Unreachable`` names the others, as ``graphmem
    games`` warns of them; 503 when no target answers."""
    rows, down = every.games_answering()
    if down:
        response.headers[UNREACHABLE] = ", ".join(down)
    return [GameListing(**row) for row in rows]


@router.post("/games", status_code=201, response_model=BatchAnswer)
def create_game(header: dict[str, Any], request: Request, every: AllTargets, once: Once) -> Any:
    """Create a live game from its canonical header (docs/log-format.md; a player may come without role). An optional
    ``history`` (the events sent so far) reopens a stored game: those stored write nothing. With several targets the
    game goes where its series lives, or is placed (docs/service.md#many-games-several-neo4j-targets)."""
    header = dict(header)
    history = header.pop("history", [])
    if not isinstance(history, list):
        raise MalformedRequest("history must be a list of events", "history")
    placed = placement(header)
    memory = routed(request, every.for_new_game(*placed) if placed is not None
                    else every.services[every.names[0]])  # an id or series name its check refuses (422)
    return once(lambda: _batch(header.get("game"), memory.start_game(header, history)), 201)


@router.get("/games/{game}")
def game_stats(game: str, memory: Service) -> GameCounts:
    """Counts of a stored game (nodes, relationships, memories by source and state)."""
    return GameCounts(game=game, **memory.stats(game))


@router.delete("/games/{game}")
def delete_game(game: str, memory: Service, every: AllTargets) -> Deleted:
    """Delete a game and everything of it (its player tokens stop working)."""
    deleted = memory.delete(game)
    every.forget(game)
    return Deleted(game=game, deleted=deleted)


@router.put("/games/{game}/roles")
def set_roles(game: str, request: RolesBody, memory: Service) -> Roles:
    """Set the roles of players whose role is not set yet (before or after the first events: an event that needs
    a missing role is refused until it is set)."""
    memory.set_roles(game, request.roles)
    return Roles(game=game, roles=request.roles)


@router.post("/games/{game}/events", response_model=BatchAnswer)
def add_events(game: str, batch: EventBatch, memory: Service, once: Once) -> Any:
    """Add a batch of events, validated whole (422 names "event N of this batch", nothing written); the answer
    gives the stored events' ids."""
    return once(lambda: _batch(game, memory.add_events(game, batch.events, after=batch.after)))


@router.post("/games/{game}/phase", response_model=PhaseAnswer)
def advance_phase(game: str, request: PhaseBody, memory: Service, once: Once) -> Any:
    """Open the next phase of a live game (day, name) and decay to it; or decay a finished game to ``to``."""
    def phase() -> PhaseAnswer:
        report = memory.advance_phase(game, request.to, day=request.day, name=request.name, after=request.after)
        return PhaseAnswer(game=game, from_phase=report.from_phase, to_phase=report.to_phase,
                           memories=report.memories, states=dict(report.states))

    return once(phase)


@router.post("/games/{game}/end", response_model=BatchAnswer)
def end_game(game: str, request: EndBody, memory: Service, once: Once) -> Any:
    """The end event: the game is complete; player tokens minted during it stop working."""
    return once(lambda: _batch(game, memory.end_game(game, request.winner, text=request.text, after=request.after)))


JSONL_BODY = {"requestBody": {"content": {"application/x-ndjson": {"schema": {
    "type": "string",
    "description": "a canonical JSONL game log (docs/log-format.md): the header, then one event a line"}}}}}
"""The other body /ingest reads, for the OpenAPI document (FastAPI describes the multipart one from ``files``)."""


@router.post("/ingest", response_model=IngestSummary, openapi_extra=JSONL_BODY)
async def ingest(request: Request, every: AllTargets, files: Annotated[list[UploadFile] | None, File(
        description="the files of one game in an importer's format (e.g. plomp.json and result.json with "
                    "format=traitors-plomp), each part named files")] = None,
                 format: str = "auto", skip_invalid: bool = False, folder_name: str | None = None) -> Any:
    """Ingest an uploaded game log: a canonical JSONL body, or the files of an importer's format as
    multipart/form-data, each part named ``files`` (e.g. a Traitors game's plomp.json and result.json with
    ``format=traitors-plomp``), on the game's target. The uploaded files sit in a folder named ``folder_name``, the
    name of the game's folder where the CLI would read it: an importer that makes the game id from its folder
    (traitors-plomp, llmafia, werewolf-arena) then gives the id the CLI gives, and without ``folder_name`` such an
    upload is refused (422, field ``folder_name``), because any id made up here would store a game that was ingested
    from its folder a second time."""
    import anyio.to_thread

    from graphmem.importers import named_by_folder

    folder = Path(tempfile.mkdtemp(prefix="graphmem-upload-"))
    try:
        kind = request.headers.get("content-type", "")
        if kind.startswith("multipart/form-data"):
            named = [upload for upload in files or [] if upload.filename]
            if not named:
                raise MalformedRequest("a multipart upload needs at least one file, in parts named files", "files")
            read = {Path(upload.filename or "").name: await upload.read() for upload in named}
            target = folder / _upload_folder(folder_name)  # the files of one game, as an importer reads them
            target.mkdir()
            for name, data in read.items():
                (target / name).write_bytes(data)
        else:
            data = await request.body()
            if not data.strip():
                raise MalformedRequest("the body is empty: send a canonical JSONL game log")
            target = folder / "upload.jsonl"
            target.write_bytes(data)

        def run() -> IngestSummary:
            if folder_name is None:
                unnamed = named_by_folder([target], None if format == "auto" else format)
                if unnamed:
                    raise UsageProblem(
                        f"a {unnamed[0][1]} game's id is made from the name of its folder, which an upload does not "
                        "carry: pass folder_name, the name of the game's folder (the id `graphmem ingest FOLDER` "
                        "gives), so that a game stored from its folder is not stored again under another id",
                        "folder_name")
            return every.ingest(target, fmt=format, skip_invalid=skip_invalid)

        return await anyio.to_thread.run_sync(run)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _upload_folder(given: str | None) -> str:
    """The name of the folder an upload's files sit in: ``given`` (one path component), or ``upload`` (for a format
    whose game id does not come from its folder). Raises UsageProblem for a name that is not one folder's."""
    if given is None:
        return "upload"
    if (given.strip() in ("", ".", "..") or Path(given).name != given or "\\" in given or not given.isprintable()
            or len(given) > 200):
        raise UsageProblem(f"folder_name {given!r} is not the name of one folder (printable, at most 200 "
                           "characters, no path)", "folder_name")
    return given
