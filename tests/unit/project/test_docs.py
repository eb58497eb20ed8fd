"""The repository explains itself: every link of README.md and docs/ leads somewhere that exists (a file of the
repository, and a heading of it when the link names one), and the design docs cover the two questions a newcomer
asks first."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for line in text.splitlines():
        if line.startswith("#"):
            base = slug(line.lstrip("#"))
            n = 0
            while (name := base if n == 0 else f"{base}-{n}") in found:
                n += 1
            found.add(name)
    return found


def links(path: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def test_every_local_link_and_anchor_resolves() -> None:
    broken = []
    for page in pages():
        for target in links(page):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            file, _, anchor = target.partition("#")
            resolved = (page.parent / file).resolve() if file else page
            if not resolved.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_the_docs_index_lists_every_doc() -> None:
    listed = {Path(t.partition("#")[0]).name for t in links(DOCS / "README.md")}
    assert {p.name for p in DOCS.glob("*.md")} - {"README.md"} <= listed


def test_the_docs_answer_how_a_memory_fades_and_who_remembers_what() -> None:
    model = (DOCS / "model.md").read_text(encoding="utf-8")
    for heading in ("forgetting", "source-memory", "flashbulb-memories", "working-memory", "profiles"):
        assert heading in anchors(DOCS / "model.md"), heading
    assert "half-life" in model.lower() and "stability" in model.lower()
    assert "who-remembers-what" in anchors(DOCS / "perception.md")
    assert "information boundary" in (DOCS / "perception.md").read_text(encoding="utf-8").lower()
    assert "../shared" not in "".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))


CITED = re.compile(r"docs/([\w-]+\.md)(?:#([\w-]+))?")
SOURCES = ("graphmem", "cypher", "bench", "examples", "tests")


def source_files() -> list[Path]:
    return [p for d in SOURCES for p in sorted((ROOT / d).rglob("*"))
            if p.suffix in (".py", ".cypher", ".toml") and ".venv" not in p.parts]


def test_code_cites_the_docs_and_every_cited_section_exists() -> None:
    """Comments and docstrings cite the design where a reader of the repository can find it: a section of docs/
    (docs/model.md#forgetting), never a numbered section of a design document outside the clone."""
    outside, broken = [], []
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            if re.search(r"\bSPEC\s+(?:sections?\s+)?\d", line):
                outside.append(f"{path.relative_to(ROOT)}:{n}")
        for doc, anchor in CITED.findall(text):
            target = DOCS / doc
            if not target.exists() or (anchor and anchor not in anchors(target)):
                broken.append(f"{path.relative_to(ROOT)}: docs/{doc}{'#' + anchor if anchor else ''}")
    assert outside == [], "cite a docs/ section instead"
    assert sorted(set(broken)) == []


def test_the_count_of_analysis_queries_the_docs_give_is_the_count_shipped() -> None:
    shipped = len(list((ROOT / "cypher" / "analysis").glob("*.cypher")))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    assert f"{shipped} documented analysis queries" in readme
    assert f"the {shipped} analysis queries" in index
