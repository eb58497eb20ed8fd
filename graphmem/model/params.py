"""Memory profiles and model parameters: the shipped ``defaults.toml`` merged with a user's overrides.

Every number of docs/model.md lives in ``graphmem/model/defaults.toml``; the model functions take them
from a :class:`Parameters` and a :class:`Profile`, never from constants. A user's ``graphmem.toml`` may
override any of them::

    [parameters]                    # overrides, same layout as defaults.toml
    curve = "exponential"
    [parameters.flashbulb]
    threshold = 0.65
    [profiles.analytical]           # override some fields of a shipped profile
    confabulation_risk = 0.1
    [profiles.mine]                 # a new profile; missing fields come from `balanced`
    base_decay_rate = 0.3

The allowed range of every field is declared next to it (the ``Num(...)`` specs here and in ``groups``; ``(``
and ``)`` are open bounds). Cross-field rules: ``retrieval_threshold`` must stay below ``clarity.fuzzy`` (and
the design's 0.40, docs/model.md#cued-recall-which-memories-come-back); ``base_decay_rate`` must be 0 (never forgets) or
at least ``flashbulb.decay_rate`` (0.05: a flashbulb is never less stable); ``clarity`` needs ``vague_floor < fuzzy <
clear``; ``default_profile`` must name a known profile.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

from graphmem.errors import ConfigError, UsageProblem
from graphmem.model._schema import Choice, MapOf, Num, Table, Text, build, merge, spec
from graphmem.model.forgetting import CURVES
from graphmem.model.groups import (
    IN_UNIT,
    UNIT,
    AppraisalRow,
    ClarityParams,
    ConsolidationParams,
    EncodingParams,
    FlashbulbParams,
    LifecycleParams,
    RecallParams,
    ReconsolidationParams,
    SalienceParams,
    SeriesParams,
    SimilarityParams,
    SourceParams,
    WorkingMemoryParams,
)
from graphmem.model.vocabulary import SITUATIONS

__all__ = ["AppraisalRow", "ClarityParams", "ConsolidationParams", "EncodingParams", "FlashbulbParams",
           "LifecycleParams", "Parameters", "Profile", "RecallParams", "ReconsolidationParams", "SalienceParams",
           "SeriesParams", "SimilarityParams", "SourceParams", "WorkingMemoryParams", "default_parameters",
           "load_parameters", "load_parameters_file", "resolve"]

BASE_PROFILE = "balanced"


@dataclass(frozen=True)
class Profile:
    """A player's memory profile (docs/model.md#profiles; Cowan 2001 for the working-memory capacity).

    name : str, the profile's name
    base_encoding_strength : float in [0, 1], E0 of a memory of salience 0 (docs/model.md#encoding-strength-and-stability)
    base_decay_rate : float in [0.05, 1] (at least the flashbulb decay rate), larger forgets faster: S scales
        with 0.15 / rate (docs/model.md#encoding-strength-and-stability); or 0, never forgets (S = inf: the ``perfect``
        control profile, docs/model.md#profiles)
    retrieval_threshold : float in [0, 0.40), memories below it are not recalled (docs/model.md#recall-and-reconsolidation)
    emotional_memory_bias : float in [0, 1], weight of emotion in salience (docs/model.md#salience)
    detail_memory_bias : float in [0, 1], protects details from loss at recall (docs/model.md#recall-and-reconsolidation)
    source_memory_bias : float in [0, 1], slows source-confidence decay: k = 1 + (1 - bias) * 5/3
    (docs/model.md#source-memory)
    temporal_memory_bias : float in [0, 1], protects the `when` detail (docs/model.md#recall-and-reconsolidation)
    confabulation_risk : float in [0, 1], raises distortion risk and the chance of importing details
    (docs/model.md#recall-and-reconsolidation) suggestibility_factor : float in [0, 1], chance of misattributing the
    teller (docs/model.md#recall-and-reconsolidation) working_memory_capacity : int in 3..7, items held in working
    memory (docs/model.md#working-memory; every shipped profile within
        Cowan's 4 +/- 1)
    """

    name: str
    base_encoding_strength: float = field(metadata=IN_UNIT)
    base_decay_rate: float = field(metadata=spec(UNIT))
    retrieval_threshold: float = field(metadata=spec(Num(0.0, 0.40, hi_open=True)))
    emotional_memory_bias: float = field(metadata=IN_UNIT)
    detail_memory_bias: float = field(metadata=IN_UNIT)
    source_memory_bias: float = field(metadata=IN_UNIT)
    temporal_memory_bias: float = field(metadata=IN_UNIT)
    confabulation_risk: float = field(metadata=IN_UNIT)
    suggestibility_factor: float = field(metadata=IN_UNIT)
    working_memory_capacity: int = field(metadata=spec(Num(3, 7, integer=True)))


@dataclass(frozen=True)
class Parameters:
    """Every model parameter, grouped by the section of docs/model.md that explains them, and the known profiles.

    curve : "power" (the shipped default) or "exponential", the forgetting curve of newly ingested games
    (docs/model.md#forgetting;
        a stored game keeps the curve it was ingested with, ``Game.curve``)
    default_profile : str, the profile of players whose log names none
    appraisal : mapping situation name -> AppraisalRow (docs/model.md#the-appraisal-table)
    profiles : mapping profile name -> Profile (docs/model.md#profiles plus the user's)
    """

    curve: str = field(metadata=spec(Choice(CURVES)))
    default_profile: str = field(metadata=spec(Text()))
    salience: SalienceParams = field(metadata=spec(Table(SalienceParams)))
    appraisal: Mapping[str, AppraisalRow] = field(metadata=spec(MapOf(Table(AppraisalRow), SITUATIONS)))
    encoding: EncodingParams = field(metadata=spec(Table(EncodingParams)))
    source: SourceParams = field(metadata=spec(Table(SourceParams)))
    flashbulb: FlashbulbParams = field(metadata=spec(Table(FlashbulbParams)))
    reconsolidation: ReconsolidationParams = field(metadata=spec(Table(ReconsolidationParams)))
    clarity: ClarityParams = field(metadata=spec(Table(ClarityParams)))
    lifecycle: LifecycleParams = field(metadata=spec(Table(LifecycleParams)))
    working_memory: WorkingMemoryParams = field(metadata=spec(Table(WorkingMemoryParams)))
    similarity: SimilarityParams = field(metadata=spec(Table(SimilarityParams)))
    consolidation: ConsolidationParams = field(metadata=spec(Table(ConsolidationParams)))
    recall: RecallParams = field(metadata=spec(Table(RecallParams)))
    series: SeriesParams = field(metadata=spec(Table(SeriesParams)))
    profiles: Mapping[str, Profile] = field(default_factory=lambda: MappingProxyType({}))

    def profile(self, name: str) -> Profile:
        """The profile called ``name``. Raises UsageProblem listing the known profiles."""
        try:
            return self.profiles[name]
        except KeyError:
            known = ", ".join(sorted(self.profiles))
            raise UsageProblem(f"unknown memory profile {name!r} (known profiles: {known})") from None


@functools.lru_cache(maxsize=1)
def _shipped() -> Mapping[str, Any]:
    text = resources.files("graphmem.model").joinpath("defaults.toml").read_text(encoding="utf-8")
    parsed: dict[str, Any] = tomllib.loads(text)
    return parsed


def _table(config: Mapping[str, Any], key: str, source: str) -> Mapping[str, Any]:
    value = config.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"{source}: field '{key}' must be a table, got {value!r}")
    return value


def _check(params: Parameters, source: str) -> None:
    c = params.clarity
    if not c.vague_floor < c.fuzzy < c.clear:
        raise ConfigError(f"{source}: field 'parameters.clarity.fuzzy' must be a number in "
                          f"({c.vague_floor:g}, {c.clear:g}) (between vague_floor and clear), got {c.fuzzy!r}")
    if params.default_profile not in params.profiles:
        raise ConfigError(f"{source}: field 'parameters.default_profile' must be one of "
                          f"{', '.join(sorted(params.profiles))}, got {params.default_profile!r}")
    bound = min(c.fuzzy, params.lifecycle.active)
    slowest = params.flashbulb.decay_rate
    for name, p in params.profiles.items():
        if 0.0 < p.base_decay_rate < slowest:
            raise ConfigError(f"{source}: field 'profiles.{name}.base_decay_rate' must be 0 (never forgets) or a "
                              f"number in [{slowest:g}, 1] (no faster than flashbulbs decay, "
                              f"parameters.flashbulb.decay_rate), got {p.base_decay_rate!r}")
        if p.retrieval_threshold >= bound:
            raise ConfigError(f"{source}: field 'profiles.{name}.retrieval_threshold' must be a number in "
                              f"[0, {bound:g}) (below the FUZZY band), got {p.retrieval_threshold!r}")


def load_parameters(config: Mapping[str, Any] | None = None, source: str = "<config>") -> Parameters:
    """The shipped parameters with the overrides of a parsed configuration applied.

    config : the parsed TOML mapping (e.g. ``Settings.config``); only its ``parameters`` and ``profiles``
        tables are read, other tables belong to other parts of graphmem. None: the shipped defaults.
    source : the file name used in error messages.

    Raises ConfigError naming ``source``, the dotted field (``profiles.mine.retrieval_threshold``) and the
    allowed range, for an out-of-range value, a wrongly typed value, an unknown field or a broken cross-field rule.
    """
    shipped = _shipped()
    user = config or {}
    raw = merge(_table(shipped, "parameters", source), _table(user, "parameters", source))
    user_profiles = _table(user, "profiles", source)
    for name, table in user_profiles.items():
        if not isinstance(table, Mapping):
            raise ConfigError(f"{source}: field 'profiles.{name}' must be a table, got {table!r}")
    tables = {name: merge(t, user_profiles.get(name, {})) for name, t in _table(shipped, "profiles", source).items()}
    for name, table in user_profiles.items():
        if name not in tables:
            tables[name] = merge(tables[BASE_PROFILE], table)
    profiles = {name: build(Profile, t, f"profiles.{name}", source, name=name) for name, t in tables.items()}
    params = build(Parameters, raw, "parameters", source, profiles=MappingProxyType(profiles))
    _check(params, source)
    return params


@functools.lru_cache(maxsize=1)
def default_parameters() -> Parameters:
    """The shipped parameters (``defaults.toml`` alone), read once."""
    return load_parameters(None, source="graphmem/model/defaults.toml")


def load_parameters_file(path: str | Path) -> Parameters:
    """Read a TOML file holding ``[parameters]``/``[profiles.NAME]`` tables and apply it to the defaults.

    Raises ConfigError for an unreadable file, malformed TOML, or any invalid field (see load_parameters).
    """
    p = Path(path)
    try:
        config = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: malformed TOML: {e}") from e
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read parameter file: {e}") from e
    return load_parameters(config, source=str(p))


def resolve(params: Parameters | None) -> Parameters:
    """``params``, or the shipped defaults when None (the model functions' optional ``params`` argument)."""
    return default_parameters() if params is None else params

