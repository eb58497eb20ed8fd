"""The who-told-whom graph of a game: players as nodes, statements heard as edges (docs/graph-model.md, docs/queries.md).

One edge per (teller, listener, channel), keyed by the channel, with ``messages`` = the number of statements that
listener heard from that teller on that channel (TOLD edges, read with the ``who_told_whom`` analysis query).
Channels fall in three kinds that the pictures distinguish: ``private`` (told directly), ``public`` (round table
and public speech) and ``traitors`` (the traitors' meeting).

Every attribute is a GraphML-legal type (str, int, float, bool); absent values are left out, never None.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

import neo4j
import networkx as nx

from graphmem.analysis import analysis_query, run_read
from graphmem.errors import UsageProblem
from graphmem.viz.style import role_legend, side_colour

CHANNEL_KIND = {"private": "private", "roundtable": "public", "public": "public", "traitors": "traitors"}
"""The picture's kind of each TOLD channel; unknown channels count as public."""

KINDS = ("private", "public", "traitors")
FATES = ("alive", "murdered", "banished")


def channel_kind(channel: str | None) -> str:
    """``private``, ``public`` or ``traitors`` for a TOLD channel (``roundtable`` is public)."""
    return CHANNEL_KIND.get(channel or "", "public")


def build_told_graph(game: str, players: Iterable[Mapping[str, Any]], told: Iterable[Mapping[str, Any]],
                     day: int | None = None) -> nx.MultiDiGraph:
    """The who-told-whom graph from the rows of the ``players`` and ``who_told_whom`` analysis queries.

    players : rows with player, role, traitor_side (bool; when absent: the role is "traitor"), profile, status,
        eliminated_day (may be None)
    told : rows with teller, listener, day, channel, messages (int)
    day : the day the rows were filtered to, or None for every day (stored as the graph's ``day``)
    Returns a MultiDiGraph: nodes are player names with role, traitor_side (absent for a player missing from
    ``players``), profile, status, eliminated_day (when known), sent and heard (message totals); edges (teller,
    listener, key=channel) carry channel, kind, messages, days (e.g. "1,2") and by_day (JSON object
    {day: messages}). Graph attributes: game, day (when filtered),
    messages (total). Every player is a node, even one who told and heard nothing.
    """
    graph = nx.MultiDiGraph(game=game)
    if day is not None:
        graph.graph["day"] = int(day)
    for p in players:
        role = str(p.get("role") or "unknown")
        side = p.get("traitor_side")
        attrs = {"role": role, "traitor_side": bool(side) if side is not None else role == "traitor",
                 "profile": str(p.get("profile") or ""), "status": str(p.get("status") or "alive"), "sent": 0,
                 "heard": 0}
        if p.get("eliminated_day") is not None:
            attrs["eliminated_day"] = int(p["eliminated_day"])
        graph.add_node(str(p["player"]), **attrs)
    by_edge: dict[tuple[str, str, str], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in told:
        teller, listener = str(row["teller"]), str(row["listener"])
        for name in (teller, listener):
            if name not in graph:
                graph.add_node(name, role="unknown", profile="", status="alive", sent=0, heard=0)
        by_edge[(teller, listener, str(row["channel"]))][int(row["day"])] += int(row["messages"])
    total = 0
    for (teller, listener, channel), per_day in sorted(by_edge.items()):
        messages = sum(per_day.values())
        total += messages
        graph.add_edge(teller, listener, key=channel, channel=channel, kind=channel_kind(channel),
                       messages=messages, days=",".join(str(d) for d in sorted(per_day)),
                       by_day=json.dumps({str(d): n for d, n in sorted(per_day.items())}))
        graph.nodes[teller]["sent"] += messages
        graph.nodes[listener]["heard"] += messages
    graph.graph["messages"] = total
    return graph


def player_colour(graph: nx.MultiDiGraph, name: str) -> str:
    """The fill colour of player ``name``: traitor side red, other roles blue, unknown grey."""
    return side_colour(graph.nodes[name].get("traitor_side"))


def legend_roles(graph: nx.MultiDiGraph) -> list[tuple[str, str]]:
    """``(role, colour)`` for every role of the graph's players (see :func:`graphmem.viz.style.role_legend`)."""
    return role_legend((str(d.get("role")), d.get("traitor_side")) for _, d in graph.nodes(data=True))


def fetch_told_graph(driver: neo4j.Driver, database: str | None, game: str,
                     day: int | None = None) -> nx.MultiDiGraph:
    """:func:`build_told_graph` for a stored game, read with the ``players`` and ``who_told_whom`` queries
    (READ transactions). The caller checks that the game is stored."""
    players = run_read(driver, database, analysis_query("players"), {"game": game}).rows
    told = run_read(driver, database, analysis_query("who_told_whom"), {"game": game, "day": day}).rows
    return build_told_graph(game, players, told, day)


def layout(graph: nx.MultiDiGraph) -> dict[str, tuple[float, float]]:
    """Node positions in [0, 1] x [0, 1] (y up): the players on a circle, the traitor side next to each other, then
    by name.

    A circle because a Traitors who-told-whom graph is dense (every round-table statement reaches every living
    player): a force layout piles such a graph into a ball, while a circle shows every edge. Deterministic.
    """
    order = sorted(graph.nodes, key=lambda n: (not graph.nodes[n].get("traitor_side", False), str(n)))
    count = len(order)
    positions: dict[str, tuple[float, float]] = {}
    for i, name in enumerate(order):
        angle = math.pi / 2 - 2 * math.pi * i / max(count, 1)
        radius = 0.0 if count == 1 else 0.5
        positions[str(name)] = (0.5 + radius * math.cos(angle), 0.5 + radius * math.sin(angle))
    return positions


def edge_width(messages: int, most: int, thinnest: float = 0.8, widest: float = 6.0) -> float:
    """Line width of an edge of ``messages`` when the busiest edge has ``most``: square-root scaled from
    ``thinnest`` (one message) to ``widest`` (``most`` messages), so a few busy pairs do not hide the rest."""
    if most <= 1:
        return thinnest
    share = math.sqrt(max(messages - 1, 0) / (most - 1))
    return thinnest + (widest - thinnest) * share


def check_day(driver: neo4j.Driver, database: str | None, game: str, day: int) -> None:
    """Return when ``day`` is a day of the stored ``game`` (one of its phases has it); raise UsageProblem (exit 2)
    naming the game's days otherwise, so an out-of-range --day never draws an empty picture."""
    rows = run_read(driver, database, analysis_query("phases"), {"game": game}).rows
    days = sorted({int(row["day"]) for row in rows if row["day"] is not None})
    if day in days:
        return
    if not days:
        known = "it has no phases"
    elif days == list(range(days[0], days[-1] + 1)):
        known = f"its days are {days[0]} to {days[-1]}"
    else:
        known = f"its days are {', '.join(map(str, days))}"
    raise UsageProblem(f"--day {day} is not a day of game '{game}' ({known})")
