"""The decay job's Cypher agrees with the Python model to 1e-9 (docs/model.md#forgetting: "a property test holds them
together").

Random memories are written directly as Memory nodes of a throw-away game, decayed in Neo4j by
:func:`graphmem.jobs.decay.advance`, and compared with ``forgetting.strength_at``, ``source.source_confidence``,
``source.source_belief`` (with ``source.keeps_source`` for flashbulbs and the owner's own statements and actions,
stored as ``own`` or, for a memory stored before ``own`` existed, derived from its event's actor) and
``clarity.lifecycle_state``.
"""

from __future__ import annotations

import math
import uuid
from typing import Any

import neo4j
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.jobs.decay import advance
from graphmem.model import default_parameters
from graphmem.model.clarity import lifecycle_state
from graphmem.model.forgetting import strength_at
from graphmem.model.source import OWN_KINDS, keeps_source, source_belief, source_confidence
from tests.integration.helpers import clear

pytestmark = pytest.mark.neo4j

PARAMS = default_parameters()
SOURCE_TYPES = ("first_hand", "direct_told", "overheard", "group_discuss", "inferred")
LIVE = ("active", "warm", "archived")


@st.composite
def memories(draw: st.DrawFn) -> dict[str, Any]:
    t_enc = draw(st.integers(0, 30))
    return {
        "t_enc": t_enc,
        "t_ref": t_enc + draw(st.integers(0, 30)),
        "e_ref": draw(st.floats(0.0, 1.0)),
        "s": draw(st.floats(1.0, 500.0)),
        "s_enc": draw(st.floats(1.0, 500.0)),
        "floor": draw(st.sampled_from([0.0, 0.8])),
        "c0": draw(st.floats(0.0, 1.0)),
        "source_k": draw(st.floats(1.0, 3.0)),
        "source_type": draw(st.sampled_from(SOURCE_TYPES)),
        "threshold": draw(st.floats(0.0, 0.4, exclude_max=True)),
        "state": draw(st.sampled_from(LIVE)),
        "flashbulb": draw(st.booleans()),
        "misattributed": draw(st.booleans()),
        "own": draw(st.sampled_from([True, False, None])),  # None: stored before `own` existed
        "kind": draw(st.sampled_from(["say", "vote", "recruit", "observe", "murder"])),
        "actor": draw(st.sampled_from(["p", "q", None])),  # the actor of its event ("p" is the owner)
    }


def _write(driver: neo4j.Driver, game: str, curve: str, rows: list[dict[str, Any]]) -> None:
    driver.execute_query("CREATE (:Game {uid: $game, game: $game, curve: $curve, decayed_to: 0, last_phase: 0})",
                         game=game, curve=curve)
    driver.execute_query(
        "UNWIND $rows AS r CREATE (m:Memory {uid: r.uid, game: $game, owner: 'p', decayed_to: 0}) SET m += r.props "
        "CREATE (m)-[:OF_EVENT]->(:Event {uid: r.uid + '/event', game: $game, actor: r.actor})",
        rows=[{"uid": f"{game}/memory/p/{i}", "actor": r["actor"],
               "props": {k: v for k, v in r.items() if k != "actor"}} for i, r in enumerate(rows)], game=game)


def _expected(r: dict[str, Any], to: int, curve: str) -> dict[str, Any]:
    # a memory reinforced after `to` keeps e_ref (the job clamps dt at 0: strength at its own reference phase)
    m = strength_at(r["e_ref"], r["t_ref"], r["s"], max(to, r["t_ref"]), curve, r["floor"])
    c = source_confidence(r["c0"], to, r["t_enc"], r["s_enc"], r["source_k"], curve)
    own = r["own"] if r["own"] is not None else r["kind"] in OWN_KINDS and r["actor"] == "p"
    keep = keeps_source(own, r["flashbulb"], r["misattributed"])
    return {"strength": m, "source_confidence": c, "source_belief": source_belief(r["source_type"], c, PARAMS,
                                                                                   keep=keep),
            "state": lifecycle_state(m, r["threshold"], PARAMS).value, "decayed_to": to}


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                   HealthCheck.too_slow])
@given(rows=st.lists(memories(), min_size=20, max_size=50), curve=st.sampled_from(["exponential", "power"]),
       to=st.integers(0, 60))
def test_cypher_decay_equals_the_python_model(driver: neo4j.Driver, schema: object, rows: list[dict[str, Any]],
                                              curve: str, to: int) -> None:
    game = f"decay-{uuid.uuid4().hex[:8]}"
    try:
        _write(driver, game, curve, rows)
        report = advance(driver, None, game, to, PARAMS)
        records, _, _ = driver.execute_query(
            "MATCH (m:Memory {game: $game}) RETURN m.uid AS uid, properties(m) AS p", game=game)
        stored = {r["uid"]: r["p"] for r in records}
        encoded = [(i, r) for i, r in enumerate(rows) if r["t_enc"] <= to]
        assert report.memories == len(encoded) and report.curve == curve
        for i, r in enumerate(rows):
            got = stored[f"{game}/memory/p/{i}"]
            if r["t_enc"] > to:  # not encoded yet at `to`: untouched
                assert got["decayed_to"] == 0 and "strength" not in got and got["state"] == r["state"]
                continue
            want = _expected(r, to, curve)
            assert math.isclose(got["strength"], want["strength"], rel_tol=0, abs_tol=1e-9), (r, got)
            assert math.isclose(got["source_confidence"], want["source_confidence"], rel_tol=0, abs_tol=1e-9), (r, got)
            assert (got["source_belief"], got["state"], got["decayed_to"]) == (
                want["source_belief"], want["state"], want["decayed_to"]), (r, got)
        assert sum(report.states.values()) == len(encoded)
        for state in LIVE:
            assert report.states[state] == sum(1 for _, r in encoded if _expected(r, to, curve)["state"] == state)
    finally:
        clear(driver, game)
