"""pytest imports test files by basename (no packages, the default import mode): two test files with one name in
different folders stop the whole run at collection ("import file mismatch"), which CI only shows when both run."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]


def test_every_test_file_name_is_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert names, "no test files found"
    assert [name for name, n in names.items() if n > 1] == []
