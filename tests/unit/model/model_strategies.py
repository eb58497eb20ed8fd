"""Shared hypothesis strategies and fixtures-as-functions for the model tests (imported by file name)."""

from __future__ import annotations

from hypothesis import strategies as st

from graphmem.model.params import Parameters, Profile, default_parameters

PARAMS: Parameters = default_parameters()
PROFILE_NAMES = ("analytical", "intuitive", "balanced", "emotional", "paranoid")
CURVE_NAMES = ("exponential", "power")

unit = st.floats(0.0, 1.0)
below_one = st.floats(0.0, 0.999)
phases = st.integers(0, 200)
stabilities = st.floats(1.0, 500.0)
curves = st.sampled_from(CURVE_NAMES)
shipped_profiles = st.sampled_from([PARAMS.profile(n) for n in PROFILE_NAMES])
emotion_names = st.sampled_from(["fear", "anger", "paranoia", "joy", "trust", "sadness", "surprise"])
emotions = st.dictionaries(emotion_names, unit, max_size=4)

# Any profile a user may define (every field inside its allowed range).
profiles = st.builds(
    Profile,
    name=st.just("hypo"),
    base_encoding_strength=unit,
    base_decay_rate=st.floats(0.05, 1.0),
    retrieval_threshold=st.floats(0.0, 0.399),
    emotional_memory_bias=unit,
    detail_memory_bias=unit,
    source_memory_bias=unit,
    temporal_memory_bias=unit,
    confabulation_risk=unit,
    suggestibility_factor=unit,
    working_memory_capacity=st.integers(4, 7),
)
any_profile = st.one_of(shipped_profiles, profiles)
