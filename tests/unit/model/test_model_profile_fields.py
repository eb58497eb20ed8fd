"""Every profile field changes some output (docs/model.md#profiles): perturb each field of each shipped profile."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest

from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import Detail, details_to_json
from graphmem.model.distortion import distortion_risk, loss_probability, misattribution_probability
from graphmem.model.encoding import encoding_strength, stability
from graphmem.model.params import Profile
from graphmem.model.reconsolidation import MemoryState, SimilarMemory, reconsolidate
from graphmem.model.salience import salience
from graphmem.model.source import source_exponent
from graphmem.model.vocabulary import SourceType
from graphmem.model.working_memory import WorkingMemoryItem, active_items
from tests.unit.model.model_strategies import PARAMS, PROFILE_NAMES

# the output each field must move (others may move too)
EXPECTED = {
    "base_encoding_strength": "e0",
    "base_decay_rate": "stability",
    "retrieval_threshold": "lifecycle_at_0.2",
    "emotional_memory_bias": "salience",
    "detail_memory_bias": "loss_who",
    "source_memory_bias": "source_k",
    "temporal_memory_bias": "loss_when",
    "confabulation_risk": "rho",
    "suggestibility_factor": "misattribution",
    "working_memory_capacity": "thoughts_held",
}
STATE = MemoryState(uid="g/memory/Anna/5", e_ref=0.9, t_ref=0, s=10.0, n=20, salience=0.5, t_enc=0, s_enc=10.0,
                    c0=0.9, source_k=1.5, source_type=SourceType.DIRECT_TOLD, teller="Eleanor",
                    believed_teller="Eleanor",
                    details=(Detail("who", "Eleanor"), Detail("where", "library"), Detail("when", "2"),
                             Detail("quote", "I saw it"), Detail("what", "she saw it")))
DONOR = SimilarMemory("g/memory/Anna/9", 0.8, (Detail("who", "Ben"),), teller="Ben")
THOUGHTS = [WorkingMemoryItem(f"t{i}", 0.1 * i, 5, "api", 0, i) for i in range(8)]


def outputs(p: Profile) -> dict[str, Any]:
    return {
        "e0": encoding_strength(0.3, p),
        "stability": stability(0.3, p),
        "lifecycle_at_0.2": lifecycle_state(0.2, p.retrieval_threshold),
        "salience": salience(0.3, False, {"fear": 0.6}, p),
        "loss_who": loss_probability(0.8, "who", p),
        "loss_when": loss_probability(0.8, "when", p),
        "source_k": source_exponent(p),
        "rho": distortion_risk(0.5, 0.5, 0.5, p),
        "misattribution": misattribution_probability(0.8, 0.5, p),
        "thoughts_held": len(active_items(THOUGHTS, 0, p.working_memory_capacity)),
        "recalls": [(details_to_json(r.details), r.believed_teller)
                    for r in (reconsolidate(STATE, 5, 0.9, (DONOR,), p, PARAMS, seed) for seed in range(40))],
    }


def perturbed(p: Profile, name: str) -> Profile:
    value = getattr(p, name)
    change: dict[str, Any]
    if name == "working_memory_capacity":
        change = {name: value + 1 if value < 7 else value - 1}
    elif name == "retrieval_threshold":  # move across 0.2 so the warm/archived boundary moves
        change = {name: 0.25 if value <= 0.2 else 0.1}
    else:
        change = {name: value + 0.1 if value + 0.1 <= 1.0 else value - 0.1}
    return replace(p, **change)


def test_every_field_is_covered() -> None:
    assert sorted(EXPECTED) == sorted(f.name for f in fields(Profile) if f.name != "name")


@pytest.mark.parametrize("profile_name", PROFILE_NAMES)
@pytest.mark.parametrize("field_name", sorted(EXPECTED))
def test_perturbing_a_field_changes_an_output(profile_name: str, field_name: str) -> None:
    base = PARAMS.profile(profile_name)
    before, after = outputs(base), outputs(perturbed(base, field_name))
    changed = {k for k in before if before[k] != after[k]}
    assert EXPECTED[field_name] in changed, (field_name, changed)


@pytest.mark.parametrize("field_name", ["detail_memory_bias", "temporal_memory_bias", "confabulation_risk",
                                        "suggestibility_factor"])
def test_distortion_fields_change_what_recall_does(field_name: str) -> None:
    base = PARAMS.profile("balanced")
    change: dict[str, Any] = {field_name: 0.0 if field_name.endswith("bias") else 1.0}
    extreme = replace(base, **change)
    assert outputs(base)["recalls"] != outputs(extreme)["recalls"]
