"""Every hypothesis property test runs without a deadline (the ``graphmem`` profile of tests/conftest.py): on a loaded
2-core machine a deadline fails tests no change broke (DeadlineExceeded, 484 ms against the default 200 ms)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parents[2]


def test_the_loaded_profile_has_no_deadline_and_no_too_slow_check() -> None:
    assert settings.default is not None
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_no_property_test_sets_a_deadline_back() -> None:
    offenders = [f"{path.relative_to(TESTS)}:{number}"
                 for path in sorted(TESTS.rglob("*.py")) if path != Path(__file__).resolve()
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if re.search(r"\bdeadline=(?!None\b)", line)]
    assert offenders == [], f"a hypothesis deadline set back (remove it; tests/conftest.py sets none): {offenders}"
