"""The exception hierarchy of graphmem.

Every error graphmem raises on purpose derives from :class:`GraphmemError`, so a caller (the CLI, a game
engine) can catch one root. Subclasses say what failed; driver errors are wrapped with ``raise ... from e``.
The CLI maps :class:`UsageProblem` to exit code 2 and every other :class:`GraphmemError` to exit code 1.

Every public error class lives here, whatever layer raises it (tests/unit/project/test_one_home.py holds the code
to that), so a caller finds the whole family in one module.

Each class also says how the service answers it (docs/service.md, "Errors"): ``http_status``, the HTTP status, and
``error``, the short kind of the JSON error body; a subclass inherits both unless it says otherwise.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

INTEGER_MIN = -(2**63)
"""The smallest Neo4j INTEGER (signed 64-bit); the driver cannot send a Python int below it."""
INTEGER_MAX = 2**63 - 1
"""The largest Neo4j INTEGER (signed 64-bit), and so the largest integer graphmem takes anywhere (a day, a count, a
phase, a position, a query parameter): a larger one is refused naming its field (an invalid event, a 422, a usage
error), never met as the driver's OverflowError. Here, in the module every layer may import, with the errors that
refuse it."""


class GraphmemError(Exception):
    """Root of every error graphmem raises on purpose."""

    http_status: ClassVar[int] = 500
    error: ClassVar[str] = "failed"


class UsageProblem(GraphmemError):
    """The request itself is malformed (a bad flag value, an unknown name): CLI exit code 2.

    field : str or None, the one field of the request at fault (dotted, as the HTTP body names it: "at",
        "params.game"), given in the 422 answer's ``field``; None when no one field is.
    """

    http_status: ClassVar[int] = 422
    error: ClassVar[str] = "invalid_request"

    def __init__(self, reason: str, field: str | None = None) -> None:
        super().__init__(reason)
        self.field = field


class ConfigError(GraphmemError):
    """A settings, profile or parameter file is invalid. The message names the file, field and allowed range."""


class Neo4jUnavailable(GraphmemError):
    """No Neo4j answers at the configured URI (or it refused the credentials, or is too old)."""

    http_status: ClassVar[int] = 503
    error: ClassVar[str] = "neo4j_unavailable"


class InvalidNeo4jUri(UsageProblem, Neo4jUnavailable):
    """A Neo4j URI graphmem cannot use (no or an unsupported scheme, a bad port): a usage error (CLI exit 2) that is
    also a Neo4jUnavailable, so callers that catch that around opening a driver still catch it."""


class ServerStartError(GraphmemError):
    """``graphmem serve`` could not start: its address is in use or not this machine's (CLI exit code 1)."""


class LocalNeo4jError(GraphmemError):
    """The project's local Neo4j launcher could not be built, started or stopped."""


class UnknownQuery(UsageProblem):
    """A query name that no ``.cypher`` file under ``cypher/`` defines."""

    http_status: ClassVar[int] = 404
    error: ClassVar[str] = "not_found"


class UnsafeIdentifier(UsageProblem):
    """A label, relationship type or property name that is not ``^[A-Za-z_][A-Za-z0-9_]*$``."""


class EmbeddingError(GraphmemError):
    """The sentence-transformers model could not be loaded or failed to encode."""

    http_status: ClassVar[int] = 503
    error: ClassVar[str] = "model_unavailable"


class NotFound(GraphmemError):
    """A game, player or memory that is not stored. The message lists what exists."""

    http_status: ClassVar[int] = 404
    error: ClassVar[str] = "not_found"


class GameConflict(GraphmemError):
    """A game id that is already stored from a different log (or fed live), so ingesting this log would mix two
    games' events in one graph. Nothing is written."""

    http_status: ClassVar[int] = 409
    error: ClassVar[str] = "conflict"


class GameMoving(GraphmemError):
    """A write to a game that is being moved to another target (``graphmem move``), or a call that reached the
    target a game has just left: nothing is written. The move takes seconds; the same request sent again reaches the
    game where it lives then (docs/service.md#moving-a-game): HTTP 503 with ``Retry-After``."""

    http_status: ClassVar[int] = 503
    error: ClassVar[str] = "game_moving"


class IdempotencyKeyReused(UsageProblem):
    """An Idempotency-Key sent again with another request (another route or body) than the one it was first sent
    with: HTTP 422, nothing done (docs/service.md#retries)."""

    error: ClassVar[str] = "idempotency_key_reused"


class IdempotencyKeyUnsupported(UsageProblem):
    """An Idempotency-Key sent to a route that does not carry its request out once per key (a phase, a token, a
    query, a delete...): HTTP 400, nothing done, since the key would otherwise be ignored and the request carried
    out again when sent again (docs/service.md#retries)."""

    http_status: ClassVar[int] = 400
    error: ClassVar[str] = "idempotency_key_unsupported"

    def __init__(self, reason: str) -> None:
        super().__init__(reason, field="Idempotency-Key")


class RetryConflict(GameConflict):
    """A request sent with an Idempotency-Key that cannot be carried out or answered now: the first request with
    the key is still under way, a retry took the key over, or the first one committed its write and its process
    stopped before its answer was kept (nothing is written again): HTTP 409."""

    error: ClassVar[str] = "idempotency_conflict"


class RecallConflict(GraphmemError):
    """A recalled memory was changed by someone else between the read and the write; nothing was written. The
    service retries the recall (:meth:`graphmem.service.MemoryService.recall`); it reaches a caller only when every
    retry met it: HTTP 409."""

    http_status: ClassVar[int] = 409
    error: ClassVar[str] = "conflict"


class MalformedRequest(UsageProblem):
    """A request body that is not the JSON (or JSONL) the route reads: HTTP 400. ``field`` names the part that is
    not, when one does."""

    http_status: ClassVar[int] = 400
    error: ClassVar[str] = "malformed_request"


class WriteRefused(GraphmemError):
    """An analysis query tried to write; Neo4j refused it because analysis runs in read transactions."""


class BadParameterValue(UsageProblem):
    """A parameter of the right type whose value Neo4j refuses (a negative ``limit``): CLI exit code 2."""


class QueryFailed(GraphmemError):
    """Neo4j rejected or failed an analysis query (syntax, a missing procedure, a runtime error)."""


class Unauthorized(GraphmemError):
    """A service request without a valid credential (no key or token, or one the server does not know): HTTP 401."""

    http_status: ClassVar[int] = 401
    error: ClassVar[str] = "unauthorized"


class Forbidden(GraphmemError):
    """A credential that does not grant this operation (a player token used for another player, another game, a
    query or an engine operation; a token of an ended or deleted game; a revoked token): HTTP 403."""

    http_status: ClassVar[int] = 403
    error: ClassVar[str] = "forbidden"


class BodyTooLarge(UsageProblem):
    """A request body over the server's configured limit, refused before it is parsed: HTTP 413."""

    http_status: ClassVar[int] = 413
    error: ClassVar[str] = "body_too_large"


@dataclass(frozen=True)
class LogProblem:
    """One problem found in a game log.

    line : int, 1-based line number in the file (0 when the problem concerns the whole file)
    field : str, the offending field ("" when the whole line is bad), dotted for nested fields
    reason : str, human-readable explanation
    index : int or None, for a batch of live events (no file): the 0-based position of the event in its batch
    event_id : str or None, for a batch of live events: the event's id (its own, or the default one)
    place : str or None, where the problem is when that is no line of a file (a live game's header: "the header")
    file : str or None, the file the line is in, when the problem comes with those of other files (an ingest of
        several files); None when the error's own ``path`` is the one file
    """

    line: int
    field: str
    reason: str
    index: int | None = None
    event_id: str | None = None
    place: str | None = None
    file: str | None = None

    @property
    def where(self) -> str:
        """"line 7", "file", "the header" of a live game, or for a live batch "event 2 of this batch (id 'e9')"."""
        if self.place is not None:
            return self.place
        if self.index is not None:
            return f"event {self.index} of this batch" + (f" (id {self.event_id!r})" if self.event_id else "")
        return f"line {self.line}" if self.line else "file"

    def __str__(self) -> str:
        """"line 3, field 'speaker': reason", led by the file when it has one ("/x/bad.jsonl: line 3, ...")."""
        field = f", field '{self.field}'" if self.field else ""
        file = f"{self.file}: " if self.file else ""
        return f"{file}{self.where}{field}: {self.reason}"


@dataclass(frozen=True)
class Guess:
    """A keyword an importer read the way a person would: a near spelling of a known keyword (its case, spacing,
    letters repeated or missing at the end, a letter or two off), taken as that keyword (docs/perception.md#imported-logs).

    where : str, the position in the source log (a file and its line, or the path of a JSON value)
    read : str, the text as written
    taken_as : str, the keyword it was read as
    line : int, the line of the canonical log that holds what was read (1 the header; 0 when it is in no line)
    """

    where: str
    read: str
    taken_as: str
    line: int = 0

    def __str__(self) -> str:
        at = f" (canonical line {self.line})" if self.line else ""
        return f"{self.where}: read {self.read!r} as {self.taken_as!r}{at}"


class InvalidGameLog(GraphmemError):
    """A game log failed validation. Carries every problem found, not just the first.

    path : str, the file that was read ("N files" for several, each problem then naming its ``file``)
    problems : list of LogProblem, in line order (file by file)
    """

    http_status: ClassVar[int] = 422
    error: ClassVar[str] = "invalid_log"

    def __init__(self, path: str, problems: list[LogProblem]) -> None:
        self.path = path
        self.problems = list(problems)
        shown = "\n".join(f"  {p}" if p.file else f"  {path}: {p}" for p in self.problems[:50])
        more = f"\n  ... and {len(self.problems) - 50} more" if len(self.problems) > 50 else ""
        super().__init__(f"{path}: {counted(len(self.problems), 'problem')}\n{shown}{more}")


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 day", "3 days", "0 days", counted(1, "memory", "memories"): the count and its noun, plural but for one
    (every command's summary lines and error messages)."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def closest(name: str, known: Iterable[str], *, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Up to ``n`` names of ``known`` closest to ``name`` (difflib's ratio >= ``cutoff``, in [0, 1]), best first."""
    return difflib.get_close_matches(name, list(known), n=n, cutoff=cutoff)


def did_you_mean(close: Sequence[str], *, quote: bool = False) -> str:
    """The hint for a mistyped name, from the close names (:func:`closest`): ``"did you mean a, b?"`` (``"did you
    mean 'a'?"`` with ``quote``), or ``""`` when there are none. Every "did you mean" of graphmem comes from here."""
    if not close:
        return ""
    return "did you mean " + ", ".join(f"'{c}'" if quote else c for c in close) + "?"


def unknown_game(game: str, stored: Sequence[str]) -> NotFound:
    """The NotFound for a game id that is not stored: every stored id when there are a dozen or fewer, else their
    number and the closest ids (so a typo finds its game in a database of hundreds)."""
    known = sorted(stored)
    if not known:
        return NotFound(f"no game '{game}' is stored (no game is: ingest one with `graphmem ingest PATH`)")
    if len(known) <= 12:
        return NotFound(f"no game '{game}' is stored (stored games: {', '.join(known)})")
    close = closest(game, known, n=5)
    hint = f"closest: {', '.join(close)}" if close else f"for example {', '.join(known[:5])}"
    return NotFound(f"no game '{game}' is stored ({len(known)} games are stored, {hint}; list them with "
                    "`graphmem games`)")
