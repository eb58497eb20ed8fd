"""Moving games, or a whole series, from one Neo4j database to another with nothing lost
(docs/service.md#moving-a-game; the routing that finds them afterwards is :mod:`graphmem.targets`).

A move has five steps, each recorded on the games themselves, so that a move interrupted anywhere is finished by
running it again (:func:`move`):

1. **mark** the source's Game nodes (and their Series) ``moving_to = <destination>``: from its commit on every write
   of those games is refused (:func:`refuse_if_moving`, first in each write transaction, or the first part of a
   writing recall's one statement, :func:`graphmem.store.versions.run_raising_versions`:
   :class:`~graphmem.errors.GameMoving`, HTTP 503); reads go on on the source;
2. **drain**: wait until every transaction that began on the source before the mark committed has ended (``SHOW
   TRANSACTIONS``), so that a write that checked before the mark is in the source before anything is read;
3. **copy** every node (all labels and properties: embeddings, versions, recall counts, summaries, tokens, live
   batches, idempotency keys) and every relationship, in batches, to the destination, whose Game (and Series)
   nodes carry ``arriving_from = <source>``: a copy that is not the game's place (``cypher/targets/locate``); a
   partial copy left by an interrupted run is deleted first and the copy starts again;
4. **verify** the destination's counts (nodes by label, relationships by type) against the source's, and **arrive**:
   one transaction on the destination removes ``arriving_from``, and the destination is the games' place (a
   process that finds both then takes the destination, named by the source's ``moving_to``);
5. **delete** the games from the source (its Game nodes last, so an interrupted delete still shows the mark, and
   running the move again finishes it).

Why refuse writes rather than lock: a game's writes are short transactions spread over any number of processes,
and Neo4j holds no lock across transactions, let alone across servers; refusing them for the seconds a move takes
keeps every write whole on one side, and an engine sends a refused request again (with its Idempotency-Key) once the
game has arrived.
"""

from __future__ import annotations

import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import neo4j
from neo4j import RoutingControl

from graphmem.errors import GameConflict, Neo4jUnavailable
from graphmem.store.games import ARRIVING_FROM, DELETE_ORDER, MOVING_TO, delete_game
from graphmem.store.keys import series_uid
from graphmem.store.queries import cypher, with_identifiers
from graphmem.store.schema import UID_LABELS

log = logging.getLogger(__name__)

GAME_LABELS = tuple(label for label in DELETE_ORDER if label != "Game")
"""The labels of a game's nodes besides its Game node (each carries ``game``), copied in this order after it."""
BATCH = 2000
"""Nodes or relationships per read and per write transaction of a copy (STYLE: 1k-10k rows)."""
DRAIN_SECONDS = 60.0
"""How long a move waits for the source's transactions older than its mark before it gives up (nothing copied)."""


@dataclass(frozen=True)
class Endpoint:
    """One side of a move: a target's name, its driver and database."""

    name: str
    driver: neo4j.Driver
    database: str | None


@dataclass
class MoveReport:
    """What :func:`move` did.

    games : the game ids moved; series : their series' name, or None
    counts : {"node:LABEL" or "relationship:TYPE": n}, the same on both sides before the source was deleted
    copied : bool, False when the games were already on the destination (a run that finished an earlier one's delete)
    seconds : float, wall time of the whole move
    """

    games: list[str]
    series: str | None
    source: str
    destination: str
    counts: dict[str, int] = field(default_factory=dict)
    copied: bool = True
    seconds: float = 0.0


def move(source: Endpoint, destination: Endpoint, games: Sequence[str], series: str | None = None, *,
         batch: int = BATCH, drain_seconds: float = DRAIN_SECONDS,
         step: Callable[[str], None] | None = None) -> MoveReport:
    """Move ``games`` (every game of ``series`` when it is given: the caller lists them) from ``source`` to
    ``destination`` (see the module docstring for the steps). Idempotent: a run after an interrupted one finishes
    it. ``step(name)`` is called as each step begins ("mark", "drain", "copy", "verify", "arrive", "delete"): a test
    interrupts a move there.

    Raises GameConflict when the destination holds one of the games (or the series) as its own, or a game is being
    moved to a third target; Neo4jUnavailable when the source's older transactions do not end within
    ``drain_seconds`` (the games stay marked: run the move again), or the counts differ after the copy (the copy is
    left unarrived, the source untouched).
    """
    started = time.perf_counter()
    report = MoveReport(list(games), series, source.name, destination.name)
    uid = series_uid(series) if series is not None else None
    notify = step or (lambda _: None)
    here = _state(source, games, uid)
    there = _state(destination, games, uid)
    for game in games:
        if there[game]["here"] and there[game]["arriving_from"] is None:
            if here[game]["here"] and here[game]["moving_to"] != destination.name:
                raise GameConflict(f"game '{game}' is stored on both '{source.name}' and '{destination.name}': a game "
                                   "lives on one target; delete the copy that should not be there")
        elif not here[game]["here"]:
            raise GameConflict(f"game '{game}' is on neither '{source.name}' nor '{destination.name}'")
        moving = here[game]["moving_to"]
        if moving is not None and moving != destination.name:
            raise GameConflict(f"game '{game}' is being moved to target '{moving}': finish that move first "
                               f"(graphmem move ... --to {moving})")
    if uid is not None and any(row["series_here"] and row["series_arriving_from"] is None for row in there.values()):
        if not all(there[g]["here"] and there[g]["arriving_from"] is None for g in games):
            raise GameConflict(f"series '{series}' is stored on '{destination.name}' already: a series lives on one "
                               "target with all its games")
    arrived = all(there[g]["here"] and there[g]["arriving_from"] is None for g in games)
    if not arrived:
        notify("mark")
        _write(source, "targets/move_mark", games=list(games), series_uid=uid, to=destination.name)
        notify("drain")
        drain(source, drain_seconds)
        notify("copy")
        _clear(destination, games, series)
        copy(source, destination, games, uid, batch)
        notify("verify")
        report.counts = verify(source, destination, games, uid)
        notify("arrive")
        _write(destination, "targets/move_arrived", games=list(games), series_uid=uid)
    else:
        report.copied = False
    notify("delete")
    for game in games:
        delete_game(source.driver, source.database, game)
    if series is not None:
        _write(source, "targets/move_delete_series", series_uid=uid, series=series)
    report.seconds = time.perf_counter() - started
    log.info("moved %s from target %s to %s in %.1f s", ", ".join(games), source.name, destination.name,
             report.seconds)
    return report


def drain(source: Endpoint, seconds: float) -> None:
    """Wait until every transaction that began on ``source``'s database before now has ended (``SHOW TRANSACTIONS``:
    a user who is not an admin sees only its own, so run moves as an admin, or as the user graphmem serves with).
    Raises Neo4jUnavailable naming the oldest one still running after ``seconds``."""
    clock = _read(source, "targets/move_clock")[0]
    database, now = str(clock["name"]), _instant(str(clock["now"]))
    deadline = time.monotonic() + seconds
    while True:
        older = [r for r in _transactions(source) if r["database"] == database and _instant(r["startTime"]) <= now]
        if not older:
            return
        if time.monotonic() > deadline:
            first = min(older, key=lambda r: r["startTime"])
            raise Neo4jUnavailable(f"transaction {first['transactionId']} on target '{source.name}' began before the "
                                   f"move and still runs after {seconds:.0f} s ({first['currentQuery'][:80]!r}): "
                                   "the games stay marked as moving; run the move again")
        time.sleep(0.05)


def copy(source: Endpoint, destination: Endpoint, games: Iterable[str], uid: str | None, batch: int) -> None:
    """Copy every node and relationship of ``games`` (and of the series ``uid``) from ``source`` to
    ``destination``, in batches of ``batch`` rows: first the nodes, every label and property (the Game and Series
    nodes with ``arriving_from`` in place of ``moving_to``), then the relationships leaving them."""
    starts: list[tuple[str, list[str]]] = []  # (uid label, uids) of every node copied, to copy its relationships
    if uid is not None:
        rows = _read(source, "targets/move_read_series", series_uid=uid)
        starts += _write_nodes(destination, rows, source.name)
    for game in games:
        rows = _read(source, "targets/move_read_nodes", label="Game", game=game, after="", limit=1)
        starts += _write_nodes(destination, rows, source.name)
        for label in GAME_LABELS:
            after = ""
            while True:
                rows = _read(source, "targets/move_read_nodes", label=label, game=game, after=after, limit=batch)
                if not rows:
                    break
                starts += _write_nodes(destination, rows, source.name)
                after = str(rows[-1]["uid"])
    step = max(1, batch // 20)  # a player may start thousands of relationships
    for label, uids in starts:
        for i in range(0, len(uids), step):
            rows = _read(source, "targets/move_read_relationships", label=label, uids=uids[i:i + step])
            for j in range(0, len(rows), batch):
                _write_relationships(destination, label, rows[j:j + batch])


def counts(endpoint: Endpoint, games: Sequence[str], uid: str | None) -> dict[str, int]:
    """{"node:LABEL" or "relationship:TYPE": n} of ``games`` (and of the series ``uid``) on ``endpoint``."""
    rows = _read(endpoint, "targets/move_counts", games=list(games), series_uid=uid)
    return {f"{r['kind']}:{r['name']}": int(r["count"]) for r in rows}


def verify(source: Endpoint, destination: Endpoint, games: Sequence[str], uid: str | None) -> dict[str, int]:
    """The counts of :func:`counts`, the same on both sides; raises Neo4jUnavailable naming every difference
    otherwise (the copy stays unarrived: run the move again)."""
    before, after = counts(source, games, uid), counts(destination, games, uid)
    if before != after:
        differ = ", ".join(f"{key} {before.get(key, 0)} on '{source.name}', {after.get(key, 0)} on "
                           f"'{destination.name}'" for key in sorted(set(before) | set(after))
                           if before.get(key, 0) != after.get(key, 0))
        raise Neo4jUnavailable(f"the copy of {', '.join(games)} differs from its source ({differ}): nothing was "
                               "deleted; run the move again")
    return before


def _state(endpoint: Endpoint, games: Sequence[str], uid: str | None) -> dict[str, dict[str, Any]]:
    rows = _read(endpoint, "targets/move_state", games=list(games), series_uid=uid)
    return {str(r["game"]): r for r in rows}


def _clear(destination: Endpoint, games: Iterable[str], series: str | None) -> None:
    """Delete a partial copy an interrupted move left on ``destination`` (its Game nodes carry ``arriving_from``,
    or are gone while other nodes of the game are there: the caller checked that none is the game's place)."""
    for game in games:
        delete_game(destination.driver, destination.database, game)
    if series is not None:
        _write(destination, "targets/move_delete_series", series_uid=series_uid(series), series=series)


def _write_nodes(destination: Endpoint, rows: list[dict[str, Any]], source: str) -> list[tuple[str, list[str]]]:
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        props = dict(row["props"])
        labels = tuple(str(label) for label in row["labels"])
        if "Game" in labels or "Series" in labels:
            props.pop(MOVING_TO, None)
            props[ARRIVING_FROM] = source
        groups[labels].append({"props": props})
    written: list[tuple[str, list[str]]] = []
    for labels, group in groups.items():
        key = _uid_label(labels)
        _write(destination, "targets/move_write_nodes", label=key, rows=group)
        uids = [str(row["props"]["uid"]) for row in group]
        for extra in labels:
            if extra != key:
                _write(destination, "targets/move_add_label", label=key, extra=extra, uids=uids)
        written.append((key, uids))
    return written


def _write_relationships(destination: Endpoint, start: str, rows: list[dict[str, Any]]) -> None:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(str(row["type"]), _uid_label(row["end_labels"]))].append(
            {"start": row["start"], "end": row["end"], "props": row["props"]})
    for (kind, end), group in groups.items():
        _write(destination, "targets/move_write_relationships", start=start, type=kind, end=end, rows=group)


def _uid_label(labels: Iterable[str]) -> str:
    """The label of a node's uid constraint (a Memory that is also a Summary: Memory)."""
    names = set(labels)
    for label in UID_LABELS:
        if label in names:
            return label
    raise GameConflict(f"a node labelled {sorted(names)} has no uid label of docs/graph-model.md: not a graphmem "
                       "node; it cannot be moved")


_IDENTIFIERS = ("label", "extra", "start", "type", "end")


def _query(name: str, params: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(the text of query ``name`` with its checked identifiers, the other parameters)."""
    names = {key: str(params.pop(key)) for key in _IDENTIFIERS if key in params}
    return with_identifiers(cypher(name), **names), params


def _read(endpoint: Endpoint, name: str, **params: Any) -> list[dict[str, Any]]:
    text, rest = _query(name, dict(params))
    records, _, _ = endpoint.driver.execute_query(text, rest, database_=endpoint.database,
                                                  routing_=RoutingControl.READ)
    return [r.data() for r in records]


def _write(endpoint: Endpoint, name: str, **params: Any) -> None:
    text, rest = _query(name, dict(params))
    endpoint.driver.execute_query(text, rest, database_=endpoint.database)


def _transactions(endpoint: Endpoint) -> list[dict[str, str]]:
    return [{key: str(value) for key, value in row.items()} for row in _read(endpoint, "targets/transactions")]


def _instant(text: str) -> datetime:
    """An instant as Neo4j writes it ("2026-12-07T14:53:03.647Z", up to nine digits of fraction, "Z" or an offset)."""
    found = _INSTANT.match(text)
    if found is None:
        raise ValueError(f"not an instant: {text!r}")
    zone = found["zone"] or "Z"
    return datetime.fromisoformat(f"{found['whole']}.{((found['fraction'] or '') + '000000')[:6]}"
                                  f"{'+00:00' if zone == 'Z' else zone}")


_INSTANT = re.compile(r"^(?P<whole>[^.Z+]+?)(?:\.(?P<fraction>\d+))?(?P<zone>Z|[+-]\d\d:\d\d)?(?:\[.*\])?$")
