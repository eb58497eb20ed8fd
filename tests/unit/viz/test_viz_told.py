"""The who-told-whom graph built from query rows (no Neo4j)."""

from __future__ import annotations

import json
import math

import pytest

from graphmem.viz.told import build_told_graph, channel_kind, edge_width, layout
from tests.unit.viz.viz_rows import PLAYERS, TOLD


def test_every_player_is_a_node_with_role_fate_and_totals() -> None:
    graph = build_told_graph("g", PLAYERS, TOLD)
    assert sorted(graph.nodes) == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert graph.nodes["Bob"] == {"role": "faithful", "traitor_side": False, "profile": "analytical",
                                  "status": "murdered", "sent": 2, "heard": 6, "eliminated_day": 2}
    assert graph.nodes["Ann"]["traitor_side"] is True  # rows without traitor_side: the role "traitor" is the side
    assert "eliminated_day" not in graph.nodes["Ann"]  # never None: GraphML cannot hold it
    assert graph.nodes["Ann"]["sent"] == 10 and graph.nodes["Eve"]["heard"] == 4
    assert graph.graph == {"game": "g", "messages": 13}


def test_one_edge_per_teller_listener_and_channel_with_messages_summed_over_days() -> None:
    graph = build_told_graph("g", PLAYERS, TOLD)
    assert graph.number_of_edges() == 6
    private = graph.edges["Ann", "Bob", "private"]
    assert private["messages"] == 5 and private["kind"] == "private" and private["days"] == "1,2"
    assert json.loads(private["by_day"]) == {"1": 3, "2": 2}
    assert graph.edges["Ann", "Bob", "roundtable"]["kind"] == "public"
    assert graph.edges["Ann", "Eve", "traitors"]["kind"] == "traitors"
    assert graph.edges["Dan", "Ann", "public"]["kind"] == "public"
    for _, _, data in graph.edges(data=True):
        assert all(isinstance(v, (str, int, float, bool)) for v in data.values())


def test_a_day_filter_is_recorded_and_silent_players_stay() -> None:
    day2 = [r for r in TOLD if r["day"] == 2]
    graph = build_told_graph("g", PLAYERS, day2, day=2)
    assert graph.graph["day"] == 2 and graph.number_of_nodes() == 5
    assert graph.nodes["Cat"]["sent"] == graph.nodes["Cat"]["heard"] == 0


def test_channel_kinds() -> None:
    assert [channel_kind(c) for c in ("private", "roundtable", "public", "traitors", None, "x")] == \
        ["private", "public", "public", "traitors", "public", "public"]


def test_layout_is_a_deterministic_circle_with_the_traitors_side_by_side() -> None:
    graph = build_told_graph("g", PLAYERS, TOLD)
    positions = layout(graph)
    assert positions == layout(graph)
    assert set(positions) == set(graph.nodes)
    for x, y in positions.values():
        assert 0 <= x <= 1 and 0 <= y <= 1
        assert math.isclose(math.dist((x, y), (0.5, 0.5)), 0.5)
    side = min(math.dist(positions[a], positions[b]) for a in positions for b in positions if a != b)
    assert math.isclose(math.dist(positions["Ann"], positions["Eve"]), side)  # neighbours on the circle


@pytest.mark.parametrize("most", [1, 2, 10, 100])
def test_edge_width_grows_with_messages_between_the_bounds(most: int) -> None:
    widths = [edge_width(n, most) for n in range(1, most + 1)]
    assert widths[0] == pytest.approx(0.8) and widths[-1] == pytest.approx(6.0 if most > 1 else 0.8)
    assert widths == sorted(widths)
