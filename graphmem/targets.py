"""Games spread over several Neo4j targets: where each game lives, and the :class:`~graphmem.service.MemoryService`
of its target (docs/service.md#many-games-several-neo4j-targets).

A target is one Neo4j database (``[targets.NAME]``: uri, database, credentials; without that table, the one
``[neo4j]`` database: :meth:`graphmem.settings.Settings.target_settings`). Each game lives on exactly one target,
together with every game of its series.

Where a game lives is recorded by the game itself: the target that holds its ``Game`` node (and a series' ``Series``
node) is its place, and there is no other record. A process finds a game by asking every target once
(``cypher/targets/locate.cypher``, one index lookup each, in parallel) and keeps the answer; placing a game never
moves one and adding a target moves nothing, so the answer stays true until the game is moved (:meth:`Targets.move`,
:mod:`graphmem.store.moves`): during a move the copy on the destination is marked arriving and is not the game's
place; once it has arrived the source, still marked ``moving_to`` it until its copy is deleted, gives way to it. A
process that kept the old place hears of the move from the game itself: its writes there are refused with
GameMoving, and a call that finds the game gone from the place it kept drops the place (:meth:`Targets.relocate`),
so the request sent again goes to the new one. Why not a directory (a table game -> target in one database, or in a
file): the database holding it would be one more place every call depends on, so a directory that is down would take
every game down, where a target that is down now takes only its own games; and two records (the directory and the
game) could disagree, where one cannot.

A new game (no target holds it) goes where its series lives; a game of no stored series goes to the target chosen by
rendezvous hashing of its series' name, or of its id when it has none (:func:`place`, Thaler & Ravishankar 1998):
every process with the same targets places it in the same place, so two processes that create one game at once write
it to one database, where its uniqueness constraint keeps one copy. Placing needs every target to answer (a game or a
series on a target that is down cannot be seen): until it is back, a new game is refused with 503, and games already
stored on the others go on.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, fields
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import neo4j

from graphmem.embedding import Embedder, settings_embedder
from graphmem.errors import GameConflict, GameMoving, GraphmemError, Neo4jUnavailable, NotFound, Unauthorized, UsageProblem
from graphmem.service import MemoryService
from graphmem.settings import Settings, load_settings

if TYPE_CHECKING:
    from graphmem.analysis import QueryResult
    from graphmem.ingest.pipeline import IngestSummary
    from graphmem.store.moves import MoveReport
    from graphmem.store.tokens import PlayerGrant

log = logging.getLogger(__name__)

T = TypeVar("T")
E = TypeVar("E", bound=BaseException)


def place(names: list[str] | tuple[str, ...], key: str) -> str:
    """The target of a new game whose series (or, without one, whose id) is ``key``: the name with the highest
    SHA-256 of ``name NUL key`` (rendezvous hashing: each key goes to one name, the same in every process; a name
    added later takes about 1/(n+1) of the new keys and none of the stored ones, which stay where they are).
    Raises ValueError for no names."""
    if not names:
        raise ValueError("no target to place a game on")
    return max(names, key=lambda name: hashlib.sha256(f"{name}\0{key}".encode()).digest())


@dataclass(frozen=True)
class Located:
    """What one target holds of a game and its series as their place (a copy arriving by a move is not), the target
    each is being moved to (or None), and ``error``: why the target did not answer, else None."""

    game: bool = False
    series: bool = False
    error: str | None = None
    game_moving_to: str | None = None
    series_moving_to: str | None = None


def _homes(found: Mapping[str, Located], series: bool = False) -> list[str]:
    """The targets holding the game (the series) as its place: those that hold it, less a source whose move has
    arrived at another that holds it (its copy is being deleted)."""
    held = [name for name, where in found.items() if (where.series if series else where.game)]
    return [name for name in held
            if (found[name].series_moving_to if series else found[name].game_moving_to) not in held]


class Targets:
    """The services of the targets a process serves, and the routing of each call to its game's target.

    services : {target name: MemoryService}, in the configured order (one per target; they share one embedder)

    With one target every call goes to it with no lookup: graphmem on one Neo4j, exactly as before targets.
    Thread-safe as the services are (the cache of places is a dict written whole-entry).
    """

    def __init__(self, services: Mapping[str, MemoryService]) -> None:
        if not services:
            raise ValueError("Targets needs at least one target")
        self.services = dict(services)
        self.names = tuple(self.services)
        self._places: dict[str, str] = {}

    @classmethod
    def connect(cls, settings: Settings | None = None, *, check: bool = True, retry_seconds: float | None = None,
                embedder: Embedder | None = None, **overrides: Any) -> Targets:
        """The services of every configured target (:meth:`graphmem.settings.Settings.target_settings`), each with
        its own driver, sharing one embedder and one set of parameters. One target is opened as
        :meth:`MemoryService.connect` opens it (checked with ``check``); several are opened unchecked, so a target
        that is down stops only its own games (the CLI checks the one a command uses: :meth:`checked`).

        embedder : the embedder every target embeds with, a loaded one a process already holds (an in-process
            caller of the CLI: :func:`graphmem.cli.embedder_of`); default None, one of the settings' model, loaded
            on first use. Raises UsageProblem when it is not of the settings' model and backend.
        Raises as :meth:`MemoryService.connect`."""
        base = (settings or load_settings()).with_overrides(**overrides)
        embedder = settings_embedder(base, embedder)
        per_target = base.target_settings()
        if len(per_target) == 1:
            return cls({name: MemoryService.connect(s, check=check, retry_seconds=retry_seconds, embedder=embedder)
                        for name, s in per_target.items()})
        params = base.parameters()
        services: dict[str, MemoryService] = {}
        try:
            for name, target in per_target.items():
                services[name] = MemoryService.connect(target, check=False, retry_seconds=retry_seconds,
                                                       params=params, embedder=embedder)
        except BaseException:
            for service in services.values():
                service.close()
            raise
        return cls(services)

    # -- the targets ----------------------------------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The settings of the first target (the engine key, the server's address and limits are the same in all)."""
        return self.services[self.names[0]].settings

    @property
    def single(self) -> MemoryService | None:
        """The one service when there is one target, else None."""
        return self.services[self.names[0]] if len(self.names) == 1 else None

    def uri(self, name: str) -> str:
        """The URI of target ``name`` (with its database when it names one), for messages."""
        settings = self.services[name].settings
        return settings.uri + (f" (database {settings.database})" if settings.database else "")

    def checked(self, service: MemoryService) -> MemoryService:
        """``service`` once its Neo4j answers (for the CLI, which opened several targets unchecked). Raises
        Neo4jUnavailable naming the target's URI and what to do."""
        from graphmem.store.connection import check_server

        if self.single is None:
            check_server(service.driver, service.settings)
        return service

    def locate(self, game: str, series: str | None = None) -> dict[str, Located]:
        """{target: what it holds of ``game`` and ``series``}, every target asked at once, each once (no retry: a
        target that is down answers at once with its ``error``, or after the driver's 5 s connection timeout)."""
        from graphmem.store.games import ARRIVING_FROM, MOVING_TO
        from graphmem.store.keys import series_uid
        from graphmem.store.queries import cypher

        uid = series_uid(series) if series is not None else None

        def ask(service: MemoryService) -> Located:
            try:
                with service.driver.session(database=service.database,
                                            default_access_mode=neo4j.READ_ACCESS) as session:
                    row = session.run(cypher("targets/locate"), game=game, series_uid=uid, moving=MOVING_TO,
                                      arriving=ARRIVING_FROM).single(strict=True)
                return Located(bool(row["game_here"]), bool(row["series_here"]), None, row["game_moving_to"],
                               row["series_moving_to"])
            except (neo4j.exceptions.DriverError, neo4j.exceptions.Neo4jError, OSError) as e:
                return Located(error=str(e).splitlines()[0] if str(e) else type(e).__name__)

        return dict(zip(self.names, self._each(ask)))

    def _each(self, work: Callable[[MemoryService], T]) -> list[T]:
        if len(self.names) == 1:
            return [work(self.services[self.names[0]])]
        with ThreadPoolExecutor(len(self.names), thread_name_prefix="graphmem-targets") as pool:
            return list(pool.map(work, self.services.values()))

    def _down(self, found: Mapping[str, Located]) -> str:
        return ", ".join(f"'{name}' at {self.uri(name)} ({where.error})" for name, where in found.items()
                         if where.error is not None)

    # -- routing --------------------------------------------------------------------------------------------------

    def target_of(self, game: str) -> str:
        """The name of the target ``game`` lives on; for a game no target holds, the target it would be placed on
        (whose service then says it is not stored). Raises Neo4jUnavailable when no target that answers holds it
        and one does not answer (it may be there), GameConflict when two targets hold it."""
        if len(self.names) == 1:
            return self.names[0]
        known = self._places.get(game)
        if known is not None:
            return known
        found = self.locate(game)
        holders = _homes(found)
        if len(holders) > 1:
            raise GameConflict(f"game '{game}' is stored on targets {', '.join(holders)}: a game lives on one "
                               "target only; delete the copy that should not be there (graphmem --uri ... delete)")
        if holders:
            self._places[game] = holders[0]
            return holders[0]
        down = self._down(found)
        if down:
            raise Neo4jUnavailable(f"game '{game}' is not on the targets that answer, and target {down} does not "
                                   "answer: it may be there; try again when it is back")
        return place(self.names, game)

    def for_game(self, game: str) -> MemoryService:
        """The service of the target ``game`` lives on (see :meth:`target_of`, which gives its raises)."""
        return self.services[self.target_of(game)]

    def target_for_new(self, game: str, series: str | None = None) -> str:
        """Where a game that may be new goes: where it is stored already (a live game reopened, a log ingested
        again), else where its series lives, else :func:`place` of the series' name (or of the game id without one).
        Raises Neo4jUnavailable when a target does not answer (the game or its series may be there), GameConflict
        when the game and its series are stored on different targets, or either on two."""
        if len(self.names) == 1:
            return self.names[0]
        found = self.locate(game, series)  # not from the places kept: the game or its series may have moved
        games = _homes(found)
        series_at = _homes(found, series=True)
        if len(games) > 1 or len(series_at) > 1:
            raise GameConflict(f"game '{game}'{f' or its series {series!r}' if series else ''} is stored on more "
                               f"than one target ({', '.join(dict.fromkeys(games + series_at))}): each lives on one")
        if games and series_at and games != series_at:
            raise GameConflict(f"game '{game}' is stored on target '{games[0]}' and its series '{series}' on "
                               f"'{series_at[0]}': a series lives on one target with all its games")
        if games or series_at:
            name = (games or series_at)[0]
            moving = found[name].series_moving_to if not games else None
            if moving is not None:
                raise GameMoving(f"series '{series}' is being moved to target '{moving}': a new game joins it once it "
                                 "has arrived; send the request again in a few seconds")
        else:
            down = self._down(found)
            if down:
                raise Neo4jUnavailable(f"a new game ('{game}') is placed once every target answers, and target "
                                       f"{down} does not (it may hold this game or its series): try again when it "
                                       "is back; stored games on the other targets go on")
            name = place(self.names, series if series is not None else game)
        self._places[game] = name
        return name

    def for_new_game(self, game: str, series: str | None = None) -> MemoryService:
        """The service of :meth:`target_for_new` (which gives the raises)."""
        return self.services[self.target_for_new(game, series)]

    def target_of_series(self, series: str) -> str:
        """The name of the target the series of games ``series`` lives on (the first target when none holds it:
        its service then says the series is not stored). Raises Neo4jUnavailable when no target that answers holds
        it and one does not answer."""
        if len(self.names) == 1:
            return self.names[0]
        found = self.locate("", series)
        holders = _homes(found, series=True)
        if holders:
            return holders[0]
        down = self._down(found)
        if down:
            raise Neo4jUnavailable(f"series '{series}' is not on the targets that answer, and target {down} does "
                                   "not answer: it may be there; try again when it is back")
        return self.names[0]

    def query(self, name: str, params: Mapping[str, str]) -> QueryResult:
        """Run the analysis query ``name`` (:meth:`MemoryService.query`) on the target of its ``game`` (or
        ``series``). Raises as :meth:`MemoryService.query`; with several targets UsageProblem for a query that
        names neither (one over the games of every target is not merged yet)."""
        only = self.single
        if only is not None:
            return only.query(name, params)
        if params.get("game"):
            return self.for_game(params["game"]).query(name, params)
        if params.get("series"):
            return self.services[self.target_of_series(params["series"])].query(name, params)
        raise UsageProblem(f"query {name}: the games are spread over {len(self.names)} targets "
                           f"({', '.join(self.names)}), and a query runs on the target of one game or series: give "
                           "game=... or series=..., or run it over every game of every target (`graphmem query "
                           f"{name} --all`; HTTP: \"all\": true)")

    def query_all(self, name: str, params: Mapping[str, str]) -> QueryResult:
        """Run the analysis query ``name`` for every stored game (for a query of a series, every series) of every
        target, each on its own target (the targets at once), and merge the answers.

        Every shipped query is about one game or one series (it takes ``game`` or ``series``, and a series lives on
        one target), so none aggregates across games, and the merge is exact: the rows of each game, in the query's
        own order (its ORDER BY; a LIMIT is per game), games by id; each row led by its ``game`` (or ``series``)
        unless the query returns that column itself, and with several targets by its ``target``.
        params : as :meth:`MemoryService.query`, without ``game`` (``series``).
        Raises UsageProblem when ``params`` name the game (series), as :meth:`MemoryService.query` otherwise, and
        Neo4jUnavailable naming a target that does not answer (a merge without its games would be silently short).
        """
        from graphmem.analysis import QueryResult, analysis_query
        from graphmem.analysis.catalog import query_scope

        chosen = analysis_query(name)
        scope = query_scope(chosen)
        if params.get(scope):
            raise UsageProblem(f"query {name} over every {scope}: leave {scope}={params[scope]} out (or leave out "
                               "--all to run it on that one)")

        def each(service: MemoryService) -> list[tuple[str, QueryResult]]:
            keys = [str(r[scope]) for r in (service.games() if scope == "game" else service.series())]
            return [(key, service.query(name, {**params, scope: key})) for key in keys]

        found: list[tuple[str, str, QueryResult]] = []
        for target, answered in zip(self.names, self._each(_attempt(each))):
            if isinstance(answered, BaseException):
                raise Neo4jUnavailable(f"target '{target}' at {self.uri(target)} does not answer: query {name} "
                                       f"cannot run over every {scope} now") from answered
            found.extend((key, target, result) for key, result in answered)
        found.sort(key=lambda item: (item[0], item[1]))
        lead = (("target",) if self.single is None else ()) + (() if scope in chosen.returns else (scope,))
        rows = [{**({"target": target} if self.single is None else {}), scope: key, **row}
                for key, target, result in found for row in result.rows]
        return QueryResult(lead + tuple(chosen.returns), [{column: row.get(column) for column in
                                                           lead + tuple(chosen.returns)} for row in rows])

    def forget(self, game: str) -> None:
        """Drop what this process knows of where ``game`` lives (after deleting it)."""
        self._places.pop(game, None)

    def relocate(self, game: str) -> str | None:
        """After a call about ``game`` failed as if the game had moved (GameMoving, or NotFound from the place this
        process kept): drop the place kept and ask every target again. Returns the game's place now when it differs
        from the one kept (the call, sent again, goes there), else None (the failure stands). Never raises: a target
        that does not answer leaves the place unknown (None)."""
        if self.single is not None:
            return None
        answered = self._places.pop(game, None)
        try:
            found = self.locate(game)
        except GraphmemError:
            return None
        homes = _homes(found)
        return homes[0] if len(homes) == 1 and homes[0] != answered else None

    def moved(self, game: str, exc: E) -> E | GameMoving:
        """The error to answer for ``exc``, raised by a call about ``game`` on the place this process kept: a
        NotFound from a place the game has left (:meth:`relocate` finds it elsewhere) becomes GameMoving (send the
        request again); anything else is ``exc`` itself (a GameMoving also drops the place kept)."""
        if self.single is not None:
            return exc
        if isinstance(exc, GameMoving):
            self.relocate(game)
        elif isinstance(exc, NotFound):
            now = self.relocate(game)
            if now is not None:
                return GameMoving(f"game '{game}' was moved to target '{now}' (this process still routed it to its "
                                  "old place): nothing was done; send the request again")
        return exc

    def move(self, to: str, *, game: str | None = None, series: str | None = None, batch: int = 2000,
             step: Callable[[str], None] | None = None) -> MoveReport:
        """Move ``game`` (in no series), or every game of ``series``, with nothing lost, to target ``to``
        (:func:`graphmem.store.moves.move`: mark, drain, copy, verify, arrive, delete; docs/service.md#moving-a-game).
        Running it again after an interruption finishes the move; a game already on ``to`` moves nothing.
        ``step(name)`` is called as each step begins.

        Raises UsageProblem for an unknown target, neither or both of ``game`` and ``series``, or a game of a series
        (a series lives on one target: move it whole); NotFound for a game or series no target holds;
        Neo4jUnavailable when the source or ``to`` does not answer; GameConflict and Neo4jUnavailable as
        :func:`graphmem.store.moves.move`."""
        from graphmem.store.moves import Endpoint, MoveReport, move
        from graphmem.store.series import series_games, series_of

        if to not in self.services:
            raise UsageProblem(f"no target '{to}' (the targets: {', '.join(self.names)})")
        if (game is None) == (series is None):
            raise UsageProblem("move a game (--game) or a series (--series), one of them")
        if self.single is not None:
            raise UsageProblem(f"there is one target only ('{self.names[0]}'): configure the target to move to "
                               "([targets.NAME], docs/service.md#many-games-several-neo4j-targets)")
        found = self.locate(game or "", series)
        held = [name for name, where in found.items() if (where.game if game else where.series)]
        leaving = [name for name in held if (found[name].game_moving_to if game else found[name].series_moving_to)]
        what = f"game '{game}'" if game else f"series '{series}'"
        if not held:
            down = self._down(found)
            if down:
                raise Neo4jUnavailable(f"{what} is not on the targets that answer, and target {down} does not "
                                       "answer: try again when it is back")
            raise NotFound(f"{what} is stored on no target ({', '.join(self.names)})")
        source = leaving[0] if leaving else held[0]
        for name in {source, to}:
            if found[name].error is not None:
                raise Neo4jUnavailable(f"target '{name}' at {self.uri(name)} does not answer ({found[name].error}): "
                                       "a move needs its source and its destination")
        origin, destination = self.services[source], self.services[to]
        if game is not None:
            joined = series_of(origin.driver, origin.database, game)
            if joined is not None:
                raise UsageProblem(f"game '{game}' is game {joined[1]} of series '{joined[0]}', and a series lives on "
                                   f"one target with all its games: move the series (graphmem move --series "
                                   f"{joined[0]} --to {to})")
            games = [game]
        else:
            assert series is not None
            listed = {g.game: g.position for g in series_games(origin.driver, origin.database, series)[1]}
            if source != to:
                listed |= {g.game: g.position for g in series_games(destination.driver, destination.database,
                                                                     series)[1]}
            games = sorted(listed, key=lambda g: listed[g])
        if source == to:
            heading = found[source].game_moving_to if game else found[source].series_moving_to
            if heading is not None:
                raise GameConflict(f"{what} is being moved from '{source}' to '{heading}': finish that move "
                                   f"(graphmem move ... --to {heading}); it takes no write until then")
            return MoveReport(games, series, source, to, copied=False)
        report = move(Endpoint(source, origin.driver, origin.database),
                      Endpoint(to, destination.driver, destination.database), games, series, batch=batch, step=step)
        for moved in games:
            self._places[moved] = to
        return report

    # -- calls over every target -----------------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Every stored game of every target (:meth:`MemoryService.games`), by id; with several targets each row
        also names its ``target``. Raises Neo4jUnavailable naming the targets that do not answer."""
        rows, down = self.games_answering()
        if down:
            raise Neo4jUnavailable(f"{'; '.join(down.values())}: the games cannot all be listed now")
        return rows

    def games_answering(self) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """(the games of the targets that answer, as :meth:`games`; {target: why it did not answer} for the others),
        so one target down hides only its own games (docs/service.md). Raises Neo4jUnavailable when no target
        answers (with one target: as :meth:`MemoryService.games`)."""
        only = self.single
        if only is not None:
            return only.games(), {}
        rows: list[dict[str, Any]] = []
        down: dict[str, str] = {}
        errors: list[BaseException] = []
        for name, found in zip(self.names, self._each(_attempt(MemoryService.games))):
            if isinstance(found, BaseException):
                down[name] = f"target '{name}' at {self.uri(name)} does not answer ({type(found).__name__})"
                errors.append(found)
                continue
            rows.extend({**row, "target": name} for row in found)
        if len(down) == len(self.names):
            raise Neo4jUnavailable("no target answers: " + "; ".join(down.values())) from errors[0]
        return sorted(rows, key=lambda row: str(row["game"])), down

    def check_token(self, token: str) -> PlayerGrant:
        """The game and player a player token grants, from the target that minted it (every target asked at once;
        the first grant answers). Raises Unauthorized for a token no target minted, Forbidden as
        :meth:`MemoryService.check_token`, Neo4jUnavailable when none granted it and a target does not answer."""
        only = self.single
        if only is not None:
            return only.check_token(token)
        pool = ThreadPoolExecutor(len(self.names), thread_name_prefix="graphmem-token")
        try:
            pending: dict[Future[PlayerGrant], str] = {pool.submit(s.check_token, token): n
                                                       for n, s in self.services.items()}
            down: list[str] = []
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    name = pending.pop(future)
                    error = future.exception()
                    if error is None:
                        return future.result()
                    if isinstance(error, Unauthorized):
                        continue
                    if isinstance(error, GraphmemError):
                        raise error
                    down.append(name)
            if down:
                raise Neo4jUnavailable(f"this player token is unknown to the targets that answer, and target(s) "
                                       f"{', '.join(down)} do not answer: try again when they are back")
            raise Unauthorized("unknown player token (never minted here, or its game was deleted)")
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def warm_up(self) -> float:
        """Warm every target up (:meth:`MemoryService.warm_up`); returns the seconds taken. With several targets
        one that does not answer is logged and left cold (its games' first calls pay for it). Raises EmbeddingError
        (and, with one target, Neo4jUnavailable)."""
        only = self.single
        if only is not None:
            return only.warm_up()
        started = time.perf_counter()
        first = self.services[self.names[0]]
        first.embedder.encode_one("warm up")
        for name, service in self.services.items():
            try:
                service.warm_up()
            except (neo4j.exceptions.DriverError, neo4j.exceptions.Neo4jError, Neo4jUnavailable, OSError) as e:
                log.warning("target '%s' at %s is not warmed up: %s", name, self.uri(name), e)
        return time.perf_counter() - started

    def init(self, timeout: int = 120) -> dict[str, Any]:
        """Create the schema on every target (:meth:`MemoryService.init`); {target: SchemaReport}."""
        return {name: self.checked(service).init(timeout) for name, service in self.services.items()}

    def ingest(self, *paths: str | Path, fmt: str = "auto", series: str | None = None,
               **options: Any) -> IngestSummary:
        """Ingest game logs as :meth:`MemoryService.ingest` does, each game on its target (:meth:`target_for_new`;
        with ``series`` every game on the series' target); one summary over all. Raises as
        :meth:`MemoryService.ingest`, and as :meth:`target_for_new`."""
        only = self.single
        if only is not None:
            return only.ingest(*paths, fmt=fmt, series=series, **options)
        groups: dict[str, list[Path]] = {}
        for path, game, in_series in _games_of([Path(p) for p in paths], fmt):
            name = self.target_for_new(game, series if series is not None else in_series) if game else self.names[0]
            groups.setdefault(name, []).append(path)
        summaries = [self.checked(self.services[name]).ingest(*group, fmt=fmt, series=series, **options)
                     for name, group in groups.items()]
        return _merged(summaries)

    def close(self) -> None:
        """Close every service (each its own driver)."""
        for service in self.services.values():
            service.close()

    def __enter__(self) -> Targets:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __iter__(self) -> Iterator[tuple[str, MemoryService]]:
        return iter(self.services.items())


def _attempt(call: Callable[[MemoryService], T]) -> Callable[[MemoryService], T | BaseException]:
    def attempt(service: MemoryService) -> T | BaseException:
        try:
            return call(service)
        except (neo4j.exceptions.DriverError, neo4j.exceptions.Neo4jError, OSError) as e:
            return e

    return attempt


def _games_of(paths: list[Path], fmt: str) -> list[tuple[Path, str | None, str | None]]:
    """(path, game id, series name) of each game log under ``paths``; a log that cannot be read gives (path, None,
    None): the ingest then reports it as it always does."""
    from graphmem.importers import discover, load_game_log

    out: list[tuple[Path, str | None, str | None]] = []
    for path, found in discover(paths, None if fmt == "auto" else fmt):
        try:
            header = load_game_log(path, found).header
        except GraphmemError:
            out.append((path, None, None))
            continue
        out.append((path, header.game, header.series.name if header.series is not None else None))
    return out


def _merged(summaries: list[IngestSummary]) -> IngestSummary:
    """One summary of the ingests of several targets: totals added, lists joined, each stage's seconds added."""
    from graphmem.ingest.pipeline import IngestSummary

    total = IngestSummary()
    for summary in summaries:
        for f in fields(IngestSummary):
            value = getattr(summary, f.name)
            if isinstance(value, list):
                getattr(total, f.name).extend(value)
            elif isinstance(value, dict):
                for stage, seconds in value.items():
                    total.stages[stage] = total.stages.get(stage, 0.0) + seconds
            else:
                setattr(total, f.name, getattr(total, f.name) + value)
    return total
