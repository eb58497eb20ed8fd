"""Hand-written questions about the real games, and evidence recall@k of any ranking on them (issue 24).

The generated questions of :mod:`bench.bench_retrieval` are built from the same ground truth as the memories'
keywords and context, so they flatter whatever matches those. The questions of :data:`QUESTIONS`
(``bench/questions/handwritten.jsonl``) were written by hand, after reading the converted games, the way an agent
in the game asks its memory: paraphrased ("kicked out", "backed", "who was found dead"), naming the speaker or the
asker, about accusations, role claims, reasons for votes, private promises, quests, night kills and the asker's
own words. Each line is one question::

    {"corpus": "traitors", "game": "433y9yyp", "asker": "Gwendolyn",
     "question": "Did anybody actually confess to me that they were a traitor?",
     "evidence": ["b28"], "at": null, "note": "Riley told Gwendolyn privately on day 1 ..."}

- ``corpus``: ``traitors``, ``avalon`` or ``mafia`` (the names of :data:`bench.bench_retrieval.CORPORA`);
- ``game``: the canonical game id (what ``graphmem convert`` writes in the header);
- ``asker``: the player who asks; they perceived every evidence event (docs/perception.md), so each is one of
  their memories;
- ``evidence``: 1 to :data:`MAX_EVIDENCE` canonical event ids (the ``id`` of the converted log's events): every
  event that answers the question and the asker perceived;
- ``at``: the phase index to ask at (``null``: the end of the game); every evidence event happened at or before it;
- ``note``: one line saying why these events answer it.

:func:`load` reads and validates the file (a bad line is a :class:`QuestionFileError` naming the line, the field
and the reason); :func:`check` holds each question against its converted game with graphmem's own perception
(:func:`graphmem.ingest.encode.encode_game`: the asker must hold a memory of each evidence event), no Neo4j needed.

**The measure.** For one question, the ranking returns the events of the k memories it recalls; a question's
recall@k is the share of its evidence events among them. :func:`evaluate` gives, per corpus and over all
questions, the *micro* figure (evidence events found / all evidence events) and the *mean* over questions (the
per-question recall@k averaged, as :mod:`bench.bench_retrieval` reports). A ranking is any callable
``rank(question) -> events`` (:data:`Ranking`); :func:`recall_ranking`, :func:`cosine_ranking` and
:func:`lexical_ranking` make the three of a stored copy ``GAME.bench-PROFILE``
(:func:`bench.bench_retrieval.copy_id`), honouring ``at``.

Run: ``python -m bench.handwritten --check`` checks every question against its game (the corpora of
:func:`bench.bench_retrieval.corpus_dir`; ``--examples`` only the games shipped in ``examples/``);
``python -m bench.handwritten`` ingests the games the file names once per profile into a throw-away local Neo4j
(or ``$NEO4J_URI``) and prints recall@k of graphmem's recall (dry run, the question as topic) per profile next to
plain cosine and the full-text lane over the same memories.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import neo4j
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bench.bench_retrieval import (
    CORPORA,
    CORPUS_NAMES,
    LANES,
    Corpus,
    copy_id,
    corpus_dir,
    corpus_of,
    lane_params,
    write_copies,
)
from graphmem.embedding import Embedder
from graphmem.importers import discover, load_game_log
from graphmem.ingest.encode import encode_game
from graphmem.logs import GameLog
from graphmem.model import Parameters, default_parameters
from graphmem.recall import EmbeddingCache, recall
from graphmem.recall.lucene import lucene_query
from graphmem.service import MemoryService
from graphmem.store.games import delete_game, stored_game_ids
from graphmem.store.keys import scope_token
from graphmem.store.reader import MemoryReader

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "bench" / "questions" / "handwritten.jsonl"
MAX_EVIDENCE = 5
NOT_PERCEIVED = ("phase", "thought", "emotion")
"""Event kinds nobody perceives (docs/perception.md): never evidence."""
COSINE = "plain cosine"
LEXICAL = "lexical only"
COSINE_QUERY = """MATCH (m:Memory {game: $game, owner: $owner})
WHERE NOT m.state IN ['consolidated', 'tombstoned'] AND ($at IS NULL OR m.t_enc <= $at)
WITH m, vector.similarity.cosine($v, m.embedding) AS score
ORDER BY score DESC, m.uid LIMIT $k
RETURN m.event AS event"""
LEXICAL_QUERY = """CALL db.index.fulltext.queryNodes('memory_text', $q) YIELD node, score
WHERE NOT node.state IN ['consolidated', 'tombstoned'] AND ($at IS NULL OR node.t_enc <= $at)
WITH node, score ORDER BY score DESC, node.uid LIMIT $k
RETURN node.event AS event"""


class HandQuestion(BaseModel):
    """One hand-written question (a line of :data:`QUESTIONS`; the module docstring gives each field)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    corpus: Literal["traitors", "avalon", "mafia"]
    game: str = Field(min_length=1)
    asker: str = Field(min_length=1)
    question: str = Field(min_length=1)
    evidence: tuple[str, ...] = Field(min_length=1, max_length=MAX_EVIDENCE)
    at: int | None = Field(default=None, ge=0)
    note: str = Field(min_length=1)

    @field_validator("evidence")
    @classmethod
    def _distinct(cls, ids: tuple[str, ...]) -> tuple[str, ...]:
        repeated = sorted({e for e in ids if ids.count(e) > 1})
        if repeated:
            raise ValueError(f"event ids repeated: {', '.join(repeated)}")
        if any(not e.strip() for e in ids):
            raise ValueError("an event id is empty")
        return ids


class QuestionFileError(ValueError):
    """A line of the question file that is not a valid question: ``problems`` lists (line, field, reason)."""

    def __init__(self, path: Path, problems: Sequence[tuple[int, str, str]]) -> None:
        self.path = path
        self.problems = list(problems)
        super().__init__("\n".join(f"{path}:{line}: {fld}: {reason}" for line, fld, reason in self.problems))


def load(path: Path = QUESTIONS) -> list[HandQuestion]:
    """The questions of a JSONL file, in file order (question N is line N).

    Raises QuestionFileError listing every bad line as ``PATH:LINE: FIELD: REASON`` (not JSON, an empty line, a
    missing or unknown field, a wrong type or value, the same question twice for the same game and asker); OSError
    when the file cannot be read.
    """
    problems: list[tuple[int, str, str]] = []
    out: list[HandQuestion] = []
    seen: dict[tuple[str, str, str], int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():  # refused, so that question N of the file is line N
            problems.append((number, "(line)", "an empty line: one question per line, no blank lines"))
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append((number, "(line)", f"not JSON: {e.msg} at column {e.colno}"))
            continue
        if not isinstance(data, dict):
            problems.append((number, "(line)", f"a question is a JSON object, not {type(data).__name__}"))
            continue
        try:
            q = HandQuestion.model_validate(data)
        except ValidationError as e:
            problems += [(number, ".".join(str(p) for p in err["loc"]) or "(line)", err["msg"]) for err in e.errors()]
            continue
        key = (q.game, q.asker, q.question)
        if key in seen:
            problems.append((number, "question", f"the same question of {q.asker} in {q.game} as line {seen[key]}"))
            continue
        seen[key] = number
        out.append(q)
    if problems:
        raise QuestionFileError(path, problems)
    return out


def _corpus(name: str) -> Corpus:
    return next(c for c in CORPORA if c.name == name)


def example_dir(corpus: Corpus) -> Path:
    """The few games of a corpus shipped in the checkout (``examples/NAME``)."""
    return ROOT / "examples" / corpus.example


def find_games(wanted: Iterable[tuple[str, str]], folders: Mapping[str, Sequence[Path]] | None = None
               ) -> dict[str, GameLog]:
    """{game id: its validated log} for the (corpus, game id) pairs ``wanted`` that are found.

    folders : {corpus: folders to look in}; default :func:`bench.bench_retrieval.corpus_dir` (the shared corpus
    beside the checkout, else ``examples/``) and ``examples/``. Only logs of the corpus's importer are read, in
    path order, until every wanted game of the corpus is found; a game found in no folder is left out.
    """
    by_corpus: dict[str, set[str]] = defaultdict(set)
    for name, game in wanted:
        by_corpus[name].add(game)
    found: dict[str, GameLog] = {}
    for name, games in by_corpus.items():
        corpus = _corpus(name)
        places = list(folders[name]) if folders and name in folders else [corpus_dir(corpus), example_dir(corpus)]
        paths = sorted({path for path, fmt in discover([p for p in places if p.exists()]) if fmt == corpus.importer})
        for path in paths:
            if games <= set(found):
                break
            game_log = load_game_log(path, corpus.importer)
            if game_log.game in games and game_log.game not in found:
                found[game_log.game] = game_log
    return found


def perceived(game_log: GameLog, params: Parameters | None = None) -> dict[str, set[str]]:
    """{player: ids of the events the player holds a memory of}, by the perception ingest encodes with
    (:func:`graphmem.ingest.encode.encode_game`; docs/perception.md), without a database."""
    encoded = encode_game(game_log, params or default_parameters())
    out: dict[str, set[str]] = {p.name: set() for p in game_log.header.players}
    for memory in encoded.memories:
        out.setdefault(memory.owner, set()).add(memory.event)
    return out


@dataclass(frozen=True)
class Problem:
    """What is wrong with question number ``index`` (0-based: line ``index + 1`` of the file) against its game."""

    index: int
    field: str
    reason: str


def check_question(index: int, q: HandQuestion, game_log: GameLog, seen: Mapping[str, set[str]]) -> list[Problem]:
    """The problems of one question against its game: the corpus is the game's, the asker plays in it, each
    evidence id is a perceivable event of the game, the asker holds a memory of it (``seen``: :func:`perceived`),
    and with ``at`` the phase exists and every evidence event happened at or before it."""
    problems: list[Problem] = []
    if corpus_of(game_log) != q.corpus:
        problems.append(Problem(index, "corpus", f"{q.game} is a {corpus_of(game_log)} game, not {q.corpus}"))
    players = [p.name for p in game_log.header.players]
    if q.asker not in players:
        return [*problems, Problem(index, "asker", f"{q.asker!r} does not play in {q.game} ({', '.join(players)})")]
    events = {logged.id: logged for logged in game_log.events}
    last = max(p.index for p in game_log.phases)
    if q.at is not None and q.at > last:
        problems.append(Problem(index, "at", f"phase {q.at} is after the last phase of {q.game} ({last})"))
    for i, eid in enumerate(q.evidence):
        where = f"evidence[{i}]"
        logged = events.get(eid)
        if logged is None:
            problems.append(Problem(index, where, f"no event {eid!r} in {q.game}"))
        elif logged.kind in NOT_PERCEIVED:
            problems.append(Problem(index, where, f"{eid} is a {logged.kind} event, which nobody perceives"))
        elif eid not in seen.get(q.asker, set()):
            problems.append(Problem(index, where, f"{q.asker} did not perceive {eid} ({logged.kind} at phase "
                                                  f"{logged.phase})"))
        elif q.at is not None and logged.phase > q.at:
            problems.append(Problem(index, where, f"{eid} happened at phase {logged.phase}, after at={q.at}"))
    return problems


@dataclass
class CheckReport:
    """:func:`check`'s result: the problems found; per corpus the questions, games and evidence events checked;
    and the questions whose game was not found (their indices)."""

    problems: list[Problem]
    checked: dict[str, dict[str, int]]
    missing: list[int]

    def lines(self, questions: Sequence[HandQuestion]) -> list[str]:
        """The report as printed by ``--check``."""
        out = [f"{name}: {c['questions']} questions on {c['games']} games, {c['evidence']} evidence events checked"
               for name, c in self.checked.items()]
        gone = sorted({(questions[i].corpus, questions[i].game) for i in self.missing})
        if gone:
            out.append(f"not checked: {len(self.missing)} questions on {len(gone)} games not found: "
                       + ", ".join(f"{c}/{g}" for c, g in gone))
        out += [f"line {p.index + 1} ({questions[p.index].game}, {questions[p.index].asker}): {p.field}: "
                f"{p.reason}" for p in self.problems]
        return out


def check(questions: Sequence[HandQuestion], games: Mapping[str, GameLog],
          params: Parameters | None = None) -> CheckReport:
    """Each question against its game (:func:`check_question`); questions whose game is not in ``games`` are
    listed under ``missing``, not checked."""
    params = params or default_parameters()
    seen = {game: perceived(game_log, params) for game, game_log in games.items()}
    problems: list[Problem] = []
    missing: list[int] = []
    counts: dict[str, dict[str, Any]] = {}
    for i, q in enumerate(questions):
        if q.game not in games:
            missing.append(i)
            continue
        problems += check_question(i, q, games[q.game], seen[q.game])
        c = counts.setdefault(q.corpus, {"questions": 0, "games": set(), "evidence": 0})
        c["questions"] += 1
        c["games"].add(q.game)
        c["evidence"] += len(q.evidence)
    checked = {name: {"questions": counts[name]["questions"], "games": len(counts[name]["games"]),
                      "evidence": counts[name]["evidence"]} for name in CORPUS_NAMES if name in counts}
    return CheckReport(problems, checked, missing)


Ranking = Callable[[HandQuestion], Iterable[str | None]]
"""A ranking: for a question, the events (canonical ids, ``Memory.event``; None for a memory of no event) of the
memories it recalls for the asker, best first. :func:`evaluate` keeps the first k."""


def _figures(hits: Sequence[Sequence[bool]]) -> dict[str, Any]:
    evidence = sum(len(h) for h in hits)
    found = sum(sum(h) for h in hits)
    return {"questions": len(hits), "evidence": evidence, "found": found,
            "micro": round(found / evidence, 3) if evidence else 0.0,
            "mean": round(statistics.mean(sum(h) / len(h) for h in hits), 3) if hits else 0.0}


def hits_of(questions: Sequence[HandQuestion], rank: Ranking, k: int = 10) -> list[list[bool]]:
    """For each question, whether each of its evidence events is the event of one of the first k memories
    ``rank`` returns (same order as ``question.evidence``). Raises ValueError for k < 1."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    out = []
    for q in questions:
        got = {e for i, e in zip(range(k), rank(q)) if e is not None}
        out.append([e in got for e in q.evidence])
    return out


def summarize(questions: Sequence[HandQuestion], hits: Sequence[Sequence[bool]]) -> dict[str, Any]:
    """recall@k from the hits of one ranking (:func:`hits_of`): ``{"all": figures, "corpora": {corpus: figures}}``,
    figures = {questions, evidence, found, micro = found / evidence, mean = mean over questions of the share of
    its evidence found}, each in [0, 1] rounded to 3 places; corpora in the order of :data:`CORPUS_NAMES`."""
    return {"all": _figures(hits),
            "corpora": {name: _figures([h for q, h in zip(questions, hits) if q.corpus == name])
                        for name in CORPUS_NAMES if any(q.corpus == name for q in questions)}}


def evaluate(questions: Sequence[HandQuestion], rank: Ranking, k: int = 10) -> dict[str, Any]:
    """Evidence recall@k of one ranking on the questions (:func:`summarize` of :func:`hits_of`), with ``hits``
    (per question, which evidence events were found). Raises ValueError for k < 1."""
    hits = hits_of(questions, rank, k)
    return summarize(questions, hits) | {"k": k, "hits": hits}


def recall_ranking(driver: neo4j.Driver, database: str | None, profile: str, params: Parameters,
                   embedder: Embedder, cache: EmbeddingCache | None = None, reader: MemoryReader | None = None,
                   k: int = 10) -> Ranking:
    """graphmem's recall on the copy ``GAME.bench-PROFILE``: a dry run for the asker with the question as topic,
    no participants, at the question's phase (the end of the game when ``at`` is None), k memories (through the
    process's ``cache`` of vectors and ``reader`` of candidates: new ones when None)."""
    cache = cache or EmbeddingCache()
    reader = reader or MemoryReader()

    def rank(q: HandQuestion) -> list[str | None]:
        result = recall(driver, database, copy_id(q.game, profile), q.asker, topic=q.question, at=q.at, k=k,
                        dry_run=True, params=params, embedder=embedder, cache=cache, reader=reader)
        return [m.event for m in result.memories]

    return rank


def cosine_ranking(driver: neo4j.Driver, database: str | None, profile: str, embedder: Embedder,
                   k: int = 10) -> Ranking:
    """Plain cosine: the asker's memories on the copy ``GAME.bench-PROFILE`` (every one encoded by the question's
    phase, whatever its strength) by the cosine of the question's and the memory text's embeddings, in Neo4j."""

    def rank(q: HandQuestion) -> list[str | None]:
        vector = [float(x) for x in embedder.encode_one(q.question)]
        records, _, _ = driver.execute_query(COSINE_QUERY, game=copy_id(q.game, profile), owner=q.asker, v=vector,
                                             at=q.at, k=k, database_=database,
                                             routing_=neo4j.RoutingControl.READ)
        return [r["event"] for r in records]

    return rank


def lexical_ranking(driver: neo4j.Driver, database: str | None, profile: str, k: int = 10) -> Ranking:
    """The full-text lane alone: the asker's memories on the copy by Neo4j's full-text score of the question (the
    Lucene query recall uses, scoped to the owner), every one encoded by the question's phase."""

    def rank(q: HandQuestion) -> list[str | None]:
        query = lucene_query(q.question, scope_token(copy_id(q.game, profile), q.asker))
        if query is None:
            return []
        records, _, _ = driver.execute_query(LEXICAL_QUERY, q=query, at=q.at, k=k, database_=database,
                                             routing_=neo4j.RoutingControl.READ)
        return [r["event"] for r in records]

    return rank


def ingest_copies(driver: neo4j.Driver, database: str | None, logs: Sequence[GameLog], profiles: Sequence[str],
                  params: Parameters, embedder: Embedder) -> None:
    """Store each game once per profile under ``GAME.bench-PROFILE`` (every player on that profile), replacing a
    copy left by an earlier run (:func:`bench.bench_retrieval.write_copies`)."""
    service = MemoryService(driver, params=params, embedder=embedder)
    stored = set(stored_game_ids(driver, database))
    with tempfile.TemporaryDirectory(prefix="graphmem-handwritten-") as tmp:
        for profile in profiles:
            for game_log in logs:
                if copy_id(game_log.game, profile) in stored:
                    delete_game(driver, database, copy_id(game_log.game, profile))
            service.ingest(write_copies(logs, profile, Path(tmp)))


def delete_copies(driver: neo4j.Driver, database: str | None, logs: Sequence[GameLog],
                  profiles: Sequence[str]) -> None:
    """Delete the copies :func:`ingest_copies` stored."""
    for profile in profiles:
        for game_log in logs:
            delete_game(driver, database, copy_id(game_log.game, profile))


def run(driver: neo4j.Driver, database: str | None, questions: Sequence[HandQuestion], games: Mapping[str, GameLog],
        *, profiles: Sequence[str] | None = None, k: int = 10, params: Parameters | None = None,
        embedder: Embedder | None = None) -> dict[str, Any]:
    """recall@k on the questions whose game is in ``games``: graphmem's recall on each profile's copy (default
    ``perfect`` and every shipped profile), and on the first profile's copy plain cosine, the full-text index alone
    and graphmem's dense and lexical lanes alone (:func:`bench.bench_retrieval.lane_params`);
    the copies are deleted at the end. Returns {"questions": count, "k": k, "results": {ranking: evaluate()}}."""
    params = params or default_parameters()
    embedder = embedder or Embedder()
    wanted = list(profiles) if profiles else (["perfect"] if "perfect" in params.profiles else []) + [
        p for p in params.profiles if p != "perfect"]
    unknown = [p for p in wanted if p not in params.profiles]
    if unknown:
        raise ValueError(f"unknown profiles {', '.join(unknown)}: choose among {', '.join(params.profiles)}")
    asked = [q for q in questions if q.game in games]
    logs = [games[g] for g in dict.fromkeys(q.game for q in asked)]
    ingest_copies(driver, database, logs, wanted, params, embedder)
    try:
        cache, reader = EmbeddingCache(), MemoryReader()
        rankings: dict[str, Ranking] = {p: recall_ranking(driver, database, p, params, embedder, cache, reader, k)
                                        for p in wanted}
        rankings[COSINE] = cosine_ranking(driver, database, wanted[0], embedder, k)
        rankings[LEXICAL] = lexical_ranking(driver, database, wanted[0], k)
        for lane in LANES:  # recall with one lane of relevance alone: the fused ranking must beat each (issue 24)
            rankings[lane] = recall_ranking(driver, database, wanted[0], lane_params(params, lane), embedder, cache,
                                            reader, k)
        results = {name: evaluate(asked, rank, k) for name, rank in rankings.items()}
    finally:
        delete_copies(driver, database, logs, wanted)
    return {"questions": len(asked), "games": len(logs), "k": k, "results": results,
            "default_profile": params.default_profile}


def table(report: dict[str, Any]) -> str:
    """A Markdown table: per ranking, recall@k (micro, then the mean over questions) over all questions and per
    corpus."""
    results = report["results"]
    first = next(iter(results.values()))
    parts = [("all", first["all"]), *first["corpora"].items()]
    titles = {c.name: c.title for c in CORPORA}
    head = "| ranking | " + " | ".join(
        f"{titles.get(name, name)} ({part['questions']} q, {part['evidence']} ev)" for name, part in parts) + " |"
    lines = [f"evidence recall@{report['k']}, micro / mean over questions:", "", head, "|---" * (1 + len(parts)) + "|"]
    for name, r in results.items():
        label = f"{name} (default)" if name == report.get("default_profile") else name
        cells = [r["all"], *r["corpora"].values()]
        lines.append(f"| {label} | " + " | ".join(f"{c['micro']:.3f} / {c['mean']:.3f}" for c in cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.handwritten", description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=QUESTIONS, help=f"the questions (default {QUESTIONS})")
    parser.add_argument("--check", action="store_true",
                        help="check every question against its converted game (no Neo4j) and print counts")
    parser.add_argument("--examples", action="store_true",
                        help="only the games shipped in examples/ (questions on other games are not asked)")
    parser.add_argument("--profiles", help="comma-separated profiles (default: perfect and every shipped one)")
    parser.add_argument("--k", type=int, default=10, help="memories recalled per question (default 10)")
    parser.add_argument("--out", type=Path, help="write the JSON report here")
    args = parser.parse_args(argv)
    try:
        questions = load(args.file)
    except QuestionFileError as e:
        print(e, file=sys.stderr)
        return 2
    except OSError as e:
        parser.error(f"--file: cannot read {args.file}: {e.strerror}")
    folders = {c.name: [example_dir(c)] for c in CORPORA} if args.examples else None
    games = find_games({(q.corpus, q.game) for q in questions}, folders)
    counts = {name: sum(q.corpus == name for q in questions) for name in CORPUS_NAMES}
    print(f"{len(questions)} questions in {args.file}: "
          + ", ".join(f"{name} {n}" for name, n in counts.items()))
    if args.check:
        checked = check(questions, games)
        for line in checked.lines(questions):
            print(line)
        failed = bool(checked.problems) or (bool(checked.missing) and not args.examples)
        print("check: " + ("FAILED" if failed else "passed"))
        return 1 if failed else 0
    logging.basicConfig(level=logging.INFO, format="[handwritten] %(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    from bench.run import bench_driver, neo4j_uri

    started = time.perf_counter()
    with neo4j_uri() as uri:
        with bench_driver(uri) as driver:
            report = run(driver, os.environ.get("NEO4J_DATABASE") or None, questions, games,
                         profiles=args.profiles.split(",") if args.profiles else None, k=args.k)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(table(report))
    print(f"\n{report['questions']} questions on {report['games']} games; {report['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
