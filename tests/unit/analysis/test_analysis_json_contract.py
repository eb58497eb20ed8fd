"""Cypher has no JSON parser: the analysis queries read details_json and claims_json by their exact layout.

These tests pin the layout that ``graphmem.model.details.details_to_json`` and ingest (``json.dumps`` of the claim
lists) write, so a change of separators fails here, next to the queries that depend on it.
"""

from __future__ import annotations

import json

from graphmem.analysis import analysis_query
from graphmem.model.details import Detail, details_to_json


def test_details_json_layout_is_the_one_false_memories_splits() -> None:
    text = details_to_json([Detail("who", 'Bob "the" \\ Builder', fabricated=True, original="Ann", origin="g/memory/A/1"),
                            Detail("when", "2", lost=True)])
    assert text.startswith('[{"kind": "who", "value": "')
    assert '", "lost": false, "fabricated": true, "original": "Ann", "origin": "g/memory/A/1"}' in text
    assert '{"kind": "when", "value": "2", "lost": true, "fabricated": false, "original": null, "origin": null}' in text
    # the split marker cannot occur inside a value: every quote in a value is escaped
    assert text.count('{"kind": "') == 2
    query = analysis_query("false_memories").text
    for marker in ('{"kind": "', '"value": "', '", "lost": ', '"lost": true', '"fabricated": true',
                   '"original": "', '", "origin": ', '"origin": "'):
        assert marker in text and marker in query


def test_claims_json_layout_is_the_one_the_role_queries_match() -> None:
    claims = [("Cat", "role", "traitor", True), ("Ann", "role", "faithful", False)]
    text = json.dumps([list(c) for c in claims])  # as graphmem.ingest.encode writes it
    assert '["Cat", "role", "traitor", true]' in text and '["Ann", "role", "faithful", false]' in text
    # the queries build ["NAME", "role", "ROLE", true] from these pieces, for every role of Game.traitor_roles
    assert '["' + "Cat" + '", "role", "' + "traitor" + '", true]' in text
    for name, player in (("accusation_network", "b"), ("traitor_lies", "subject")):
        query = analysis_query(name).text
        assert f"""('["' + {player}.name + '", "role", "' + r + '", true]')""" in query
        assert '", "role", "faithful", false]' in query
