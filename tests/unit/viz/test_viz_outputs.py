"""Output paths are checked before any work, and written atomically."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.errors import UsageProblem
from graphmem.viz.outputs import DECAY_KINDS, TOLD_KINDS, check_output, output_kind, write_atomically


def test_the_kind_follows_the_extension_in_any_case(tmp_path: Path) -> None:
    assert [output_kind(tmp_path / f"a.{k}", TOLD_KINDS) for k in TOLD_KINDS] == list(TOLD_KINDS)
    assert output_kind(tmp_path / "A.PNG", DECAY_KINDS) == "png"


@pytest.mark.parametrize("name", ["told.pdf", "told", "told.html.bak"])
def test_an_unknown_extension_is_a_usage_error_listing_the_known_ones(tmp_path: Path, name: str) -> None:
    with pytest.raises(UsageProblem) as raised:
        check_output(tmp_path / name, TOLD_KINDS)
    assert ".html, .png, .svg, .graphml, .gexf" in str(raised.value)


def test_paths_that_cannot_be_written_are_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(UsageProblem, match="does not exist"):
        check_output(tmp_path / "missing" / "told.png", TOLD_KINDS)
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageProblem, match="not a directory"):
        check_output(tmp_path / "file" / "told.png", TOLD_KINDS)
    (tmp_path / "dir.png").mkdir()
    with pytest.raises(UsageProblem, match="not a regular file"):
        check_output(tmp_path / "dir.png", TOLD_KINDS)
    with pytest.raises(UsageProblem, match="not writable"):
        check_output(Path("/proc/told.png"), TOLD_KINDS)  # not writable even for root
    assert check_output(tmp_path / "ok.svg", TOLD_KINDS) == "svg"
    assert list(tmp_path.glob(".graphmem-*")) == []  # the probe is gone


def test_writes_are_atomic(tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    target.write_text("old")

    def fail(tmp: Path) -> None:
        assert tmp.suffix == ".svg" and tmp.parent == tmp_path
        tmp.write_text("half")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_atomically(target, fail)
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]
    write_atomically(target, lambda tmp: tmp.write_text("new"))
    assert target.read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]
