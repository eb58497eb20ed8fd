"""Memory curves reconstructed from the stored closed-form state, and the decay chart (no Neo4j)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from graphmem.model.forgetting import strength_at
from graphmem.viz.decay import Bands, DecayChart, clarity_bands, draw_decay, memory_curve


def row(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"memory": "g/memory/A/1", "text": "Bob said something.", "flashbulb": False,
                            "floor": 0.0, "t_enc": 2, "e0": 0.8, "s_enc": 4.0, "e_ref": 0.8, "t_ref": 2, "s": 4.0,
                            "n": 0}
    base.update(overrides)
    return base


def test_a_memory_never_recalled_follows_its_encoding_curve_exactly() -> None:
    c = memory_curve(row(), "exponential", 6)
    assert c.phases == (2, 3, 4, 5, 6) and c.rehearsal is None and c.exact
    assert c.strengths == tuple(strength_at(0.8, 2, 4.0, t, "exponential") for t in range(2, 7))


def test_a_recall_shows_as_a_jump_at_t_ref() -> None:
    c = memory_curve(row(e_ref=0.7, t_ref=4, s=6.0, n=1), "power", 6)
    assert c.phases == (2, 3, 4, 4, 5, 6) and c.rehearsal == 4 and c.exact
    before = strength_at(0.8, 2, 4.0, 4, "power")
    assert c.strengths[2] == pytest.approx(before) and c.strengths[3] == pytest.approx(0.7) and 0.7 > before
    assert c.strengths[5] == pytest.approx(strength_at(0.7, 4, 6.0, 6, "power"))


def test_several_recalls_cannot_be_reconstructed_exactly() -> None:
    assert not memory_curve(row(e_ref=0.7, t_ref=4, s=6.0, n=3), "exponential", 6).exact


def test_a_flashbulb_never_drops_below_its_floor_and_the_curve_reaches_a_late_recall() -> None:
    c = memory_curve(row(flashbulb=True, floor=0.8, e0=1.0, e_ref=1.0, s_enc=2.0, s=2.0), "exponential", 30)
    assert min(c.strengths) == 0.8 and c.strengths[0] == 1.0
    late = memory_curve(row(e_ref=0.6, t_ref=9, n=1), "exponential", 5)
    assert late.phases[-1] == 9


@given(st.floats(0.05, 1.0), st.floats(0.5, 50.0), st.integers(0, 20), st.integers(0, 20),
       st.sampled_from(["exponential", "power"]))
def test_curves_stay_in_the_unit_interval_and_fall_between_recalls(e0: float, s: float, t_enc: int, span: int,
                                                                   curve: str) -> None:
    c = memory_curve(row(e0=e0, e_ref=e0, s_enc=s, s=s, t_enc=t_enc, t_ref=t_enc), curve, t_enc + span)
    assert all(0.0 <= v <= 1.0 for v in c.strengths)
    assert list(c.strengths) == sorted(c.strengths, reverse=True)
    assert len(c.phases) == span + 1


def test_clarity_bands_start_vague_at_the_threshold_when_above_015() -> None:
    assert clarity_bands(0.10) == Bands(0.70, 0.40, 0.15)
    assert clarity_bands(0.20) == Bands(0.70, 0.40, 0.20)


def test_the_chart_is_a_real_png(tmp_path: Path) -> None:
    curves = (memory_curve(row(), "exponential", 8), memory_curve(row(e_ref=0.9, t_ref=5, n=2), "exponential", 8),
              memory_curve(row(flashbulb=True, floor=0.8, e0=1.0, e_ref=1.0), "exponential", 8))
    chart = DecayChart("g", "A", "faithful", "balanced", "exponential", 8, {t: 1 + t // 3 for t in range(9)},
                       curves, clarity_bands(0.18))
    path = tmp_path / "decay.png"
    draw_decay(chart, path)
    with Image.open(path) as image:
        assert image.format == "PNG" and image.width > 800 and image.height > 400
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50
    svg = tmp_path / "decay.svg"
    draw_decay(chart, svg)
    assert svg.read_text().lstrip().startswith("<?xml")
