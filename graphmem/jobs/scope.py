"""The game and owners a per-owner job works on (consolidation, contradictions, forget), with the errors a user
sees for an unknown game or player; and the sessions these jobs read and write through.

The jobs' queries name properties, labels and relationship types that a fresh database may not hold yet (no
conflict stored, no role revealed): the server would answer each with an "unknown property" notification, which the
driver logs as a warning. Those are expected here, so the jobs' sessions ask for no notifications.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import neo4j

from graphmem.errors import NotFound, unknown_game
from graphmem.model.forgetting import CURVES
from graphmem.model.params import Parameters
from graphmem.store.games import stored_game_ids
from graphmem.store.queries import cypher

__all__ = ["Scope", "listing", "read", "resolve_scope", "session"]

LISTED_NAMES = 20
"""At most this many names in the listing of an error message."""


@dataclass(frozen=True)
class Scope:
    """game : str; phase : int, ``Game.decayed_to`` (the phase the stored state describes); curve : the game's
    forgetting curve; owners : the players the job works on (one, or every player of the game in name order);
    players : every player of the game; roles : the roles they hold (ground truth); traitor_roles : the game's
    traitor-side roles; traitors : the players on the traitor side (their role at the end); eliminated : {player:
    the phase they left the game in}, for the players who left; side_names : (hidden side, other side), the
    header's ``side_names`` (Avalon: "evil", "good")."""

    game: str
    phase: int
    curve: str
    owners: tuple[str, ...]
    players: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    traitor_roles: tuple[str, ...] = ("traitor",)
    traitors: tuple[str, ...] = ()
    eliminated: Mapping[str, int] = field(default_factory=dict)
    side_names: tuple[str, str] = ("traitor", "faithful")


def session(driver: neo4j.Driver, database: str | None, read_only: bool = False) -> neo4j.Session:
    """A session on ``database`` without server notifications (see the module docstring)."""
    return driver.session(database=database, notifications_min_severity="OFF",
                          default_access_mode=neo4j.READ_ACCESS if read_only else neo4j.WRITE_ACCESS)


def read(driver: neo4j.Driver, database: str | None, name: str, **params: Any) -> list[neo4j.Record]:
    """The records of query ``name`` (under ``cypher/``), run in a read transaction."""
    def work(tx: neo4j.ManagedTransaction) -> list[neo4j.Record]:
        return list(tx.run(cypher(name), params))

    with session(driver, database, read_only=True) as s:
        return s.execute_read(work)


def listing(names: list[str]) -> str:
    """``"a, b, c"`` (at most LISTED_NAMES names, then "..."), or ``"none"``."""
    if not names:
        return "none"
    return ", ".join(names[:LISTED_NAMES]) + (f" ... ({len(names)} in all)" if len(names) > LISTED_NAMES else "")


def resolve_scope(driver: neo4j.Driver, database: str | None, game: str, player: str | None,
                  params: Parameters) -> Scope:
    """The scope of a job on ``game`` (every player, or only ``player``).

    Raises NotFound naming the game and listing the stored games, or naming the player and listing the game's
    players.
    """
    records = read(driver, database, "jobs/scope", game=game)
    if not records:
        raise unknown_game(game, stored_game_ids(driver, database))
    row = records[0]
    players = [str(p) for p in row["players"]]
    if player is not None and player not in players:
        raise NotFound(f"no player '{player}' in game '{game}' (players: {listing(players)})")
    curve = row["curve"] if row["curve"] in CURVES else params.curve
    phase = row["decayed_to"] if row["decayed_to"] is not None else row["last_phase"]
    return Scope(game, int(phase or 0), str(curve), (player,) if player is not None else tuple(players),
                 tuple(players), tuple(str(r) for r in row["roles"]), tuple(str(r) for r in row["traitor_roles"]),
                 tuple(str(t) for t in row["traitors"]), {str(name): int(left) for name, left in row["eliminated"]},
                 (str(row["side_names"][0]), str(row["side_names"][1])))
