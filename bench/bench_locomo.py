"""Recall on a public long-conversation benchmark that graphmem was not built from: LoCoMo (issue 24).

LoCoMo (Maharana et al., ACL 2024) has long conversations between two people over up to 35 sessions, and
questions whose answers are labelled turns (``evidence``). The file is the user's (CC BY-NC 4.0: never copied into
this repository); ``python -m bench.bench_locomo PATH`` (default ``../shared/data/locomo-dev/locomo-dev5.json``):

1. converts each conversation to a canonical game log (:func:`conversation_log`): the two speakers are its players,
   each session a phase (day = the session's number), each turn a private statement to the other speaker with the
   turn's id (``D3:7``) as event id, its session's date and time as the event's ``t`` (what the date route of recall
   reads: "What did Nate make on 9 November, 2022?") and no claims (a chat has no roles to claim);
2. stores one copy per memory profile (``perfect`` and every shipped profile: every player on it) and asks every
   question of categories 1-4 (5, adversarial, has no evidence) as the first speaker at the end of the conversation:
   a dry-run recall with the question as topic, k = 10;
3. counts evidence recall@10 as the public figures do: the share of all evidence turns (micro) found among the k
   memories recalled, overall, per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) and by the age
   of the evidence (sessions before the last one);
4. beside it in the same run, on the same turns and with the same model (all-MiniLM-L6-v2): plain cosine over
   "Speaker: text" (what a vector store holds), and graphmem's own lanes alone on the ``perfect`` copy: the dense
   lane (dense_weight 1, the others 0) and the lexical lane (lexical_weight 1, the others 0), so that the fused
   ranking can be checked against each of its lanes.

Evidence ids are read as a person would: ``D8:6; D9:17`` is two turns, ``D:11:26`` is ``D11:26``; ids that name no
turn of the conversation (two in the five development conversations) are left out and counted in the report.
``--profiles perfect,balanced`` some profiles; ``--out FILE`` the JSON report. A throw-away local Neo4j, or
``$NEO4J_URI``; the copies (``locomo-<id>.bench-PROFILE``) are deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import neo4j
import numpy as np

from bench.bench_retrieval import DENSE_LANE, LEXICAL_LANE, lane_params
from graphmem.embedding import Embedder
from graphmem.model import Parameters, default_parameters
from graphmem.recall import EmbeddingCache, recall
from graphmem.service import MemoryService
from graphmem.store.games import delete_game, stored_game_ids
from graphmem.store.reader import MemoryReader

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATH = ROOT.parent / "shared" / "data" / "locomo-dev" / "locomo-dev5.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
AGE_BINS = ((0, 4), (5, 9), (10, 14), (15, 19), (20, 99))
RECENT = 4
"""Evidence from the last five sessions (age 0-4): where the default profile must do at least as well as plain
cosine (issue 24)."""
COSINE = "plain cosine"


@dataclass(frozen=True)
class Turn:
    """One turn: its id (``D3:7``), speaker, text and session number; ``t``, its session's date and time as ISO 8601
    (None when the file gives none or another form)."""

    id: str
    speaker: str
    text: str
    session: int
    t: str | None = None


@dataclass(frozen=True)
class Question:
    """One question of categories 1-4 with its evidence turns (ids of the conversation) and their sessions."""

    conversation: str
    text: str
    category: int
    evidence: tuple[str, ...]
    sessions: tuple[int, ...]


@dataclass(frozen=True)
class Conversation:
    """A LoCoMo conversation: its id, its two speakers (the first asks), its turns in order and its questions; the
    number of evidence ids that name no turn (left out)."""

    id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    unreadable_evidence: int

    @property
    def game(self) -> str:
        """The canonical game id of the conversation."""
        return f"locomo-{self.id}"

    @property
    def last_session(self) -> int:
        """The number of the conversation's last session (the questions are asked after it)."""
        return max(t.session for t in self.turns)


def _evidence_ids(raw: Iterable[str]) -> list[str]:
    ids = []
    for item in raw:
        for part in str(item).split(";"):
            part = re.sub(r"^D:", "D", part.strip())
            if part:
                ids.append(part)
    return ids


def session_time(value: object) -> str | None:
    """A LoCoMo session's ``date_time`` ("1:56 pm on 8 May, 2023") as ISO 8601 ("2023-05-08T13:56:00"); None for
    another form."""
    try:
        return datetime.strptime(str(value).strip(), "%I:%M %p on %d %B, %Y").isoformat()
    except ValueError:
        return None


def read_conversations(path: Path) -> list[Conversation]:
    """The conversations of a LoCoMo file (a JSON list of samples with ``conversation`` and ``qa``). Raises
    ValueError naming the sample and field when the file is not LoCoMo's shape."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of LoCoMo samples")
    out = []
    for i, sample in enumerate(data):
        try:
            conv = sample["conversation"]
            speakers = (str(conv["speaker_a"]), str(conv["speaker_b"]))
            sessions = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
            times = {n: session_time(conv.get(f"session_{n}_date_time")) for n in sessions}
            turns = tuple(Turn(str(t["dia_id"]), str(t["speaker"]), str(t["text"]), n, times[n])
                          for n in sessions for t in conv[f"session_{n}"])
            qa = sample["qa"]
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{path}: sample {i}: not a LoCoMo conversation ({e!r} missing or malformed)") from e
        session_of = {t.id: t.session for t in turns}
        questions, unreadable = [], 0
        for q in qa:
            if q.get("category") not in CATEGORIES:
                continue
            ids = _evidence_ids(q.get("evidence", []))
            known = tuple(dict.fromkeys(e for e in ids if e in session_of))
            unreadable += len(ids) - len([e for e in ids if e in session_of])
            if known:
                questions.append(Question(str(sample.get("sample_id", i)), str(q["question"]), int(q["category"]),
                                          known, tuple(session_of[e] for e in known)))
        out.append(Conversation(str(sample.get("sample_id", i)), speakers, turns, tuple(questions), unreadable))
    return out


def conversation_log(conversation: Conversation, profile: str, game: str | None = None) -> list[dict[str, Any]]:
    """The canonical game log (header and events, as JSON objects) of a conversation with both players on
    ``profile``: a phase per session, a private statement per turn (empty turns left out)."""
    a, b = conversation.speakers
    lines: list[dict[str, Any]] = [{
        "kind": "game", "format": "graphmem/1", "game": game or conversation.game,
        "title": f"LoCoMo conversation {conversation.id} between {a} and {b}",
        "players": [{"name": a, "role": "faithful", "profile": profile},
                    {"name": b, "role": "faithful", "profile": profile}],
        "source": "LoCoMo (Maharana et al., ACL 2024), converted by bench/bench_locomo.py", "licence": "CC BY-NC 4.0"}]
    session = None
    for turn in conversation.turns:
        if turn.session != session:
            session = turn.session
            lines.append({"kind": "phase", "day": session, "name": "session"})
        if not turn.text.strip():
            continue
        other = b if turn.speaker == a else a
        lines.append({"kind": "say", "id": turn.id, **({"t": turn.t} if turn.t else {}), "speaker": turn.speaker,
                      "to": [other], "channel": "private", "text": turn.text, "claims": []})
    return lines


def copy_id(conversation: Conversation, profile: str) -> str:
    """The game id of a conversation's copy on ``profile``."""
    return f"{conversation.game}.bench-{profile}"


def _found(question: Question, events: Iterable[str | None]) -> list[bool]:
    got = {e for e in events if e is not None}
    return [e in got for e in question.evidence]


def plain_cosine(conversation: Conversation, questions: Sequence[Question], embedder: Embedder,
                 k: int) -> list[list[bool]]:
    """For each question, which evidence turns are among the k turns whose "Speaker: text" is most similar to it."""
    turns = [t for t in conversation.turns if t.text.strip()]
    vectors = embedder.encode([f"{t.speaker}: {t.text}" for t in turns])
    topics = embedder.encode([q.text for q in questions])
    out = []
    for i, q in enumerate(questions):
        scores = vectors @ topics[i]
        top = np.argsort(-scores, kind="stable")[:k]
        out.append(_found(q, (turns[j].id for j in top)))
    return out


def _age_bin(age: int) -> str:
    for lo, hi in AGE_BINS:
        if lo <= age <= hi:
            return f"{lo}-{hi}" if hi < 99 else f"{lo}+"
    return "?"


def score(asked: Sequence[tuple[Conversation, Question]], found: Sequence[Sequence[bool]]) -> dict[str, Any]:
    """Evidence recall (micro: evidence turns found / all evidence turns) overall, per category and by age."""
    cats: dict[str, list[bool]] = defaultdict(list)
    ages: dict[str, list[bool]] = defaultdict(list)
    every: list[bool] = []
    recent: list[bool] = []
    for (conv, q), hits in zip(asked, found):
        every += hits
        cats[CATEGORIES[q.category]] += hits
        for session, hit in zip(q.sessions, hits):
            age = conv.last_session - session
            ages[_age_bin(age)].append(hit)
            if age <= RECENT:
                recent.append(hit)

    def share(v: Sequence[bool]) -> float:
        return round(sum(v) / len(v), 3) if v else 0.0

    return {"all": share(every), "categories": {c: share(v) for c, v in cats.items()},
            "by_age": {b: share(ages[b]) for b in (_age_bin(lo) for lo, _ in AGE_BINS) if b in ages},
            "recent": share(recent), "evidence": len(every),
            "evidence_by_age": {b: len(v) for b, v in ages.items()}}


def run(driver: neo4j.Driver, database: str | None, path: Path, *, profiles: Sequence[str] | None = None,
        k: int = 10, params: Parameters | None = None, embedder: Embedder | None = None) -> dict[str, Any]:
    """The whole benchmark on the LoCoMo file ``path`` (see the module docstring); returns the JSON report."""
    params = params or default_parameters()
    embedder = embedder or Embedder()
    shipped = [p for p in params.profiles if p != "perfect"]
    wanted = list(profiles) if profiles else ["perfect", *shipped]
    conversations = read_conversations(path)
    service = MemoryService(driver, params=params, embedder=embedder)
    stored = set(stored_game_ids(driver, database))
    steps: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as tmp:
        for profile in wanted:
            t0 = time.perf_counter()
            folder = Path(tmp) / profile
            folder.mkdir()
            for conv in conversations:
                if copy_id(conv, profile) in stored:
                    delete_game(driver, database, copy_id(conv, profile))
                lines = conversation_log(conv, profile, copy_id(conv, profile))
                (folder / f"{conv.id}.jsonl").write_text(
                    "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
            service.ingest(folder)
            steps[f"ingest {profile}"] = round(time.perf_counter() - t0, 1)
    asked = [(conv, q) for conv in conversations for q in conv.questions]
    found: dict[str, list[list[bool]]] = {}
    latencies: dict[str, list[float]] = {}
    cache, reader = EmbeddingCache(), MemoryReader()
    rankings = [(p, p, params) for p in wanted]
    if "perfect" in wanted:
        rankings += [(lane, "perfect", lane_params(params, lane)) for lane in (DENSE_LANE, LEXICAL_LANE)]
    for name, profile, p in rankings:
        t0 = time.perf_counter()
        found[name], latencies[name] = [], []
        for conv, q in asked:
            result = recall(driver, database, copy_id(conv, profile), conv.speakers[0], topic=q.text, k=k,
                            dry_run=True, params=p, embedder=embedder, cache=cache, reader=reader)
            found[name].append(_found(q, (m.event for m in result.memories)))
            latencies[name].append(1000 * result.timings["total"])
        steps[f"ask {name}"] = round(time.perf_counter() - t0, 1)
    t0 = time.perf_counter()
    by_conv: dict[str, list[list[bool]]] = {
        conv.id: plain_cosine(conv, conv.questions, embedder, k) for conv in conversations}
    found[COSINE] = [hits for conv in conversations for hits in by_conv[conv.id]]
    steps[COSINE] = round(time.perf_counter() - t0, 1)
    for profile in wanted:
        for conv in conversations:
            delete_game(driver, database, copy_id(conv, profile))
    results = {name: score(asked, hits) for name, hits in found.items()}
    for name, values in latencies.items():
        results[name]["p50_ms"] = round(float(np.percentile(values, 50)), 1)
        results[name]["p95_ms"] = round(float(np.percentile(values, 95)), 1)
    return {"file": str(path), "conversations": [c.id for c in conversations], "questions": len(asked),
            "unreadable_evidence": sum(c.unreadable_evidence for c in conversations), "k": k,
            "default_profile": params.default_profile, "results": results, "steps": steps}


def table(report: dict[str, Any]) -> str:
    """The report as a text table: a row per ranking."""
    ages = [_age_bin(lo) for lo, _ in AGE_BINS]
    head = (f"{'ranking':<14} {'all':>6} " + " ".join(f"{c[:11]:>11}" for c in CATEGORIES.values()) + "  "
            + " ".join(f"{'age ' + a:>9}" for a in ages))
    lines = [f"LoCoMo {', '.join(report['conversations'])}: {report['questions']} questions, "
             f"{next(iter(report['results'].values()))['evidence']} evidence turns "
             f"({report['unreadable_evidence']} ids naming no turn left out), recall@{report['k']}", head]
    for name, r in report["results"].items():
        lines.append(f"{name:<14} {r['all']:>6.3f} "
                     + " ".join(f"{r['categories'].get(c, 0.0):>11.3f}" for c in CATEGORIES.values()) + "  "
                     + " ".join(f"{r['by_age'].get(a, 0.0):>9.3f}" for a in ages))
    counts = next(iter(report["results"].values()))["evidence_by_age"]
    lines.append("evidence by age: " + ", ".join(f"{a}: {counts.get(a, 0)}" for a in ages))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_locomo", description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH, help="a LoCoMo JSON file")
    parser.add_argument("--profiles", default="", help="comma-separated profiles (default: perfect and every shipped)")
    parser.add_argument("--k", type=int, default=10, help="memories recalled per question (default 10)")
    parser.add_argument("--out", type=Path, help="write the JSON report here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if not args.path.is_file():
        parser.error(f"no LoCoMo file at {args.path} (give its path)")
    try:  # before any Neo4j is started: a file of another shape is refused at once
        read_conversations(args.path)
    except (ValueError, UnicodeDecodeError) as e:
        parser.error(str(e))
    from bench.run import bench_driver, neo4j_uri  # the benchmarks' throw-away Neo4j, or $NEO4J_URI

    with neo4j_uri() as uri:
        with bench_driver(uri) as driver:
            from graphmem.store.schema import ensure_schema

            embedder = Embedder()
            ensure_schema(driver, None, embedder.dimension)
            report = run(driver, None, args.path, profiles=[p for p in args.profiles.split(",") if p] or None,
                         k=args.k, embedder=embedder)
    print(table(report))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
