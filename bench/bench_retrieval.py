"""Retrieval benchmark on the real games: does recall find what a player is asked about? (issue 13)

One command (``python -m bench.bench_retrieval``) ingests the real games of three corpora (:data:`CORPORA`: The
Traitors, Avalon and Mafia; ``--corpus`` some of them) once per memory profile (the ``perfect`` control and every
shipped profile; each copy under the id ``GAME.bench-PROFILE`` with every player on that profile, deleted at the
end), asks each copy the same questions at the end of its game, and prints recall@k per corpus, per question kind and
by age, next to two single rankings of the same memories in the same run:

- **questions** are generated from the ground truth of each log (:func:`questions`), only about what the asked
  player witnessed, each with its evidence events, worded as the game words it (:data:`WORDING`; a day of Avalon is
  a quest, Mafia has days and nights):

  =========  ===========================================================  =========================================
  kind       question                                                     evidence (events the owner remembers)
  =========  ===========================================================  =========================================
  vote       "Who did Riley vote to banish on day 2?" (Traitors),         Riley's banish votes that day (Mafia:
             "Who did Remi vote for on day 1?", "Who did Angel vote to    also a mafia player's night votes, asked
             kill on night 1?" (Mafia)                                    of the other mafia)
  accused    "Who voted to banish you on day 2?" / "Who voted against     the banish votes against the owner then
             you on day 2?" (Mafia)
  said       "What did Fletcher say at the round table on day 1?" /       the player's statements to the table
             "... in the day discussion on day 1?" (Mafia) / "... in      that day (Traitors: round table; Avalon
             the discussion before quest 2?" (Avalon)                     and Mafia: the public discussion)
  private    "What did Casey tell you in private on day 2?"               Casey's private messages to the owner then
  told       "Who told you about Riley in private?"                       private messages to the owner about Riley
  about      "What did Casey say about Riley?"                            Casey's statements about Riley that the
                                                                          owner heard (to the table or to the owner)
  fate       "Who was murdered before breakfast on day 3?" / "...         the murder / the banishment
             banished on day 2?"; Mafia "Who was killed on night 1?" /
             "Who was voted out on day 2?"
  proposal   "Which team did Charlie propose for quest 1?" (Avalon)       Charlie's team proposals for that quest
  team_vote  "How did you vote on Charlie's team for quest 1?" (Avalon)   the owner's own (secret) team votes on it
  tally      "Was Charlie's team for quest 1 approved or rejected?"       the tally of the team vote
  quest      "Did quest 2 succeed or fail?" (Avalon)                      the quest's result
  =========  ===========================================================  =========================================

  Per game and kind at most ``per_kind`` questions are drawn (seeded), each asked to one witness (not the player the
  question is about; a personal question to the player it concerns), keeping questions with 1 to k evidence events;
- **recall@k** of a question is the share of its evidence events that are the event of one of the k memories
  returned; a kind's or a corpus's figure is the mean over its questions, ``all`` the mean over every question of
  the run; "by age" is the share of evidence events recalled, grouped by how many phases before the question they
  happened;
- **rankings**: :func:`graphmem.recall.recall` (dry run, k = 10, the question as topic, no participants) on each
  profile's copy, and on the default profile's copy once more with ``recall.cue_support`` = 0 (free recall, the rule
  before cued recall: strength alone decides what can come back); ``dense only``: the owner's memories by the
  cosine of the question's and the memory text's embeddings (plain cosine, as a vector store ranks), computed in
  Neo4j; ``lexical only``: the owner's memories by Neo4j's full-text score of the question (the Lucene query recall
  uses, scoped to the owner, over the text and keywords). Both single rankings see every memory of the owner,
  whatever its strength. ``graphmem's dense lane`` and ``graphmem's lexical lane`` are recall itself on the
  reference copy (``perfect`` when it runs) with one lane of relevance alone (its weight 1, every other term 0,
  :func:`lane_params`): the fused ranking must be at least as good as each of its lanes (issue 24).

The target (issue 13): the ``perfect`` profile's recall@10 beats both single rankings by at least 10% relative
(checked over every question and per corpus).
``--figure PATH`` draws the default profile's recall by age (with and without cued recall, with ``perfect`` and the
single rankings) as a PNG.

Run: ``python -m bench.bench_retrieval`` (a throw-away local Neo4j, or ``$NEO4J_URI``); ``--games N`` uses the
first N games of each corpus; ``--corpus avalon,mafia`` some corpora; ``--profiles perfect,balanced`` some
profiles; ``--out`` the JSON report (every figure, over all questions and per corpus under ``corpora``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import neo4j

from graphmem.embedding import Embedder
from graphmem.importers import discover, load_game_log
from graphmem.logs import GameLog
from graphmem.logs.writer import dumps_line, game_log_lines
from graphmem.model import Parameters, default_parameters
from graphmem.recall import EmbeddingCache, recall
from graphmem.recall.lucene import lucene_query
from graphmem.service import MemoryService
from graphmem.store.games import delete_game, stored_game_ids
from graphmem.store.keys import scope_token
from graphmem.store.reader import MemoryReader

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("vote", "accused", "said", "private", "told", "about", "fate", "proposal", "team_vote", "tally", "quest")
AGE_BINS = ((0, 2), (3, 5), (6, 8), (9, 11), (12, 99))
RECENT = 4
"""Evidence from the last 5 phases (age 0-4) is "recent" (the issue's held-out target for the slowest-forgetting
shipped profile against plain cosine)."""
DENSE = "dense only"
LEXICAL = "lexical only"
DENSE_LANE = "graphmem's dense lane"
LEXICAL_LANE = "graphmem's lexical lane"
LANES = (DENSE_LANE, LEXICAL_LANE)
"""Recall with one lane of relevance alone (:func:`lane_params`), on the reference copy."""
FREE = "{} without cued recall"
"""The default profile with recall.cue_support = 0 (free recall: strength alone decides what can come back), the
rule before issue 13, on the same copy: what cued recall changes."""
DENSE_QUERY = """MATCH (m:Memory {game: $game, owner: $owner})
WHERE NOT m.state IN ['consolidated', 'tombstoned']
WITH m, vector.similarity.cosine($v, m.embedding) AS score
ORDER BY score DESC, m.uid LIMIT $k
RETURN m.event AS event"""
MEMORIES_QUERY = """MATCH (m:Memory {game: $game, owner: $owner})
WHERE NOT m.state IN ['consolidated', 'tombstoned']
RETURN m.uid AS uid, m.n AS n, m.event AS event"""
LEXICAL_QUERY = """CALL db.index.fulltext.queryNodes('memory_text', $q) YIELD node, score
WHERE NOT node.state IN ['consolidated', 'tombstoned']
WITH node, score ORDER BY score DESC, node.uid LIMIT $k
RETURN node.event AS event"""


@dataclass(frozen=True)
class Corpus:
    """A corpus of real games: its name in the report, the importer its games are read with, the variable that
    points at its games, where they are beside the checkout, and the few copied into ``examples/``."""

    name: str
    title: str
    importer: str
    env: str
    shared: str
    example: str


CORPORA = (
    Corpus("traitors", "The Traitors", "traitors-plomp", "GRAPHMEM_TRAITORS_DATA", "traitors-llm/games",
           "traitors-llm"),
    Corpus("avalon", "Avalon", "avalon-llm", "GRAPHMEM_AVALON_DATA", "avalon-llm", "avalon-llm"),
    Corpus("mafia", "Mafia", "llmafia", "GRAPHMEM_MAFIA_DATA", "llmafia", "llmafia"),
)
CORPUS_NAMES = tuple(c.name for c in CORPORA)


def corpus_dir(corpus: Corpus) -> Path:
    """The folder of a corpus's real games: ``$GRAPHMEM_TRAITORS_DATA`` (``_AVALON_``, ``_MAFIA_``), else
    ``../shared/data/NAME`` beside the checkout, else the few in ``examples/``
    (the first that holds a game of the corpus's importer)."""
    for candidate in (os.environ.get(corpus.env, ""), str(ROOT.parent / "shared" / "data" / corpus.shared)):
        if candidate and Path(candidate).is_dir() and any(fmt == corpus.importer
                                                            for _, fmt in discover([Path(candidate)])):
            return Path(candidate)
    return ROOT / "examples" / corpus.example


def games_dir() -> Path:
    """The real Traitors games (:func:`corpus_dir` of the Traitors)."""
    return corpus_dir(CORPORA[0])


def corpus_games(corpus: Corpus, games: int | None = None) -> list[GameLog]:
    """The games of a corpus, in the order of their paths; ``games``: the first N only."""
    found = sorted((path, fmt) for path, fmt in discover([corpus_dir(corpus)]) if fmt == corpus.importer)
    return [load_game_log(path, fmt) for path, fmt in (found[:games] if games else found)]


def corpus_of(game_log: GameLog) -> str:
    """Which corpus a game belongs to, hence how its questions are worded: by its importer, else by its shape (a
    native log with team proposals is a mission game like Avalon, one whose hidden side is called "mafia" is Mafia,
    any other is The Traitors)."""
    for corpus in CORPORA:
        if game_log.imported_from == corpus.importer:
            return corpus.name
    if any(logged.kind == "propose" for logged in game_log.events):
        return "avalon"
    return "mafia" if game_log.header.side_names.traitor == "mafia" else "traitors"


WORDING: dict[str, dict[str, str]] = {
    "traitors": {"banish_vote": "Who did {voter} vote to banish on day {day}?",
                 "accused": "Who voted to banish you on day {day}?",
                 "said": "What did {speaker} say at the round table on day {day}?",
                 "murder": "Who was murdered before breakfast on day {day}?",
                 "banish": "Who was banished on day {day}?"},
    "mafia": {"banish_vote": "Who did {voter} vote for on day {day}?",
              "murder_vote": "Who did {voter} vote to kill on night {day}?",
              "accused": "Who voted against you on day {day}?",
              "said": "What did {speaker} say in the day discussion on day {day}?",
              "murder": "Who was killed on night {day}?",
              "banish": "Who was voted out on day {day}?"},
    "avalon": {"said": "What did {speaker} say in the discussion before quest {day}?",
               "proposal": "Which team did {leader} propose for quest {day}?",
               "team_vote": "How did you vote on {leader}'s team for quest {day}?",
               "tally": "Was {leader}'s team for quest {day} approved or rejected?",
               "quest": "Did quest {day} succeed or fail?"},
}
"""How each corpus asks its questions (a day of Avalon is a quest, its number; Mafia has days and nights, the
night after day N is night N)."""
SAID_CHANNEL = {"traitors": "roundtable", "mafia": "public", "avalon": "public"}
"""The channel of the table's discussion, what ``said`` and ``about`` questions are about."""
ABOUT = "What did {speaker} say about {subject}?"
PRIVATE = "What did {speaker} tell you in private on day {day}?"
TOLD = "Who told you about {subject} in private?"


@dataclass(frozen=True)
class Question:
    """One question: the game (original id), its kind, the player asked, the text, the evidence events (ids), the
    phase of each evidence event, the phase it is asked at (the game's last) and the game's corpus."""

    game: str
    kind: str
    owner: str
    text: str
    evidence: tuple[str, ...]
    phases: tuple[int, ...]
    asked_at: int
    corpus: str = "traitors"


def questions(game_log: GameLog, witnessed: dict[str, set[str]], *, per_kind: int = 6, k: int = 10,
              seed: int = 0) -> list[Question]:
    """The questions of one game (see the module docstring), worded for its corpus (:func:`corpus_of`).

    witnessed : {owner: ids of the events the owner holds a memory of} (from the stored game; perception decides
    it, docs/perception.md#who-remembers-what). per_kind : at most this many questions per kind (seeded draw); k : the
    most evidence events a question may have. A question about everyone's business (a vote, a statement to the
    table, a death, a team, a result) goes to one witness drawn at random, never the player it is about; a personal
    one (what you were told, who voted against you, how you voted on a team) to the player it concerns. Either way
    the player asked holds a memory of every evidence event.
    """
    rng = random.Random(f"{seed}/{game_log.game}")
    corpus = corpus_of(game_log)
    words = WORDING[corpus]
    last = max(p.index for p in game_log.phases)
    phase_of = {logged.id: logged.phase for logged in game_log.events}
    public: dict[tuple[str, str], list[str]] = defaultdict(list)  # (kind, text) -> evidence
    not_asked: dict[tuple[str, str], str | None] = {}  # (kind, text) -> the player it is about
    personal: dict[tuple[str, str, str], list[str]] = defaultdict(list)  # (kind, text, owner) -> evidence
    leader = ""  # the leader of the latest team proposed (a mission game's team votes and tally are on it)

    def ask_everyone(kind: str, text: str, eid: str, about: str | None) -> None:
        public[(kind, text)].append(eid)
        not_asked[(kind, text)] = about

    for logged in game_log.events:
        data: dict[str, Any] = logged.event.model_dump()
        day, kind, eid = logged.day, logged.kind, logged.id
        if kind == "vote" and data.get("ballot") == "banish" and data.get("target") and "banish_vote" in words:
            ask_everyone("vote", words["banish_vote"].format(voter=data["voter"], day=day), eid, data["voter"])
            personal[("accused", words["accused"].format(day=day), data["target"])].append(eid)
        elif kind == "vote" and data.get("ballot") == "murder" and data.get("target") and "murder_vote" in words:
            ask_everyone("vote", words["murder_vote"].format(voter=data["voter"], day=day), eid, data["voter"])
        elif kind == "vote" and data.get("ballot") == "team" and leader and "team_vote" in words:
            personal[("team_vote", words["team_vote"].format(leader=leader, day=day), data["voter"])].append(eid)
        elif kind == "say" and data.get("channel") == SAID_CHANNEL[corpus]:
            ask_everyone("said", words["said"].format(speaker=data["speaker"], day=day), eid, data["speaker"])
            for owner in witnessed:
                for subject in data.get("about") or ():
                    if owner not in (subject, data["speaker"]):
                        personal[("about", ABOUT.format(speaker=data["speaker"], subject=subject), owner)] \
                            .append(eid)
        elif kind == "say" and data.get("channel") == "private" and isinstance(data.get("to"), (list, tuple)):
            for owner in data["to"]:
                personal[("private", PRIVATE.format(speaker=data["speaker"], day=day), owner)].append(eid)
                for subject in data.get("about") or ():
                    if subject not in (owner, data["speaker"]):
                        personal[("told", TOLD.format(subject=subject), owner)].append(eid)
                        personal[("about", ABOUT.format(speaker=data["speaker"], subject=subject), owner)] \
                            .append(eid)
        elif kind == "murder" and "murder" in words:
            ask_everyone("fate", words["murder"].format(day=day), eid, data["victim"])
        elif kind == "banish" and "banish" in words:
            ask_everyone("fate", words["banish"].format(day=day), eid, data["player"])
        elif kind == "propose" and "proposal" in words:
            leader = data["leader"]
            ask_everyone("proposal", words["proposal"].format(leader=leader, day=day), eid, leader)
        elif kind == "outcome" and data.get("ballot") == "team" and leader and "tally" in words:
            ask_everyone("tally", words["tally"].format(leader=leader, day=day), eid, None)
        elif kind == "outcome" and data.get("ballot") == "quest" and "quest" in words:
            ask_everyone("quest", words["quest"].format(day=day), eid, None)
    options: dict[str, list[tuple[str, tuple[str, ...], str]]] = defaultdict(list)
    for (kind, text), ids in sorted(public.items()):
        owners = sorted(o for o, seen in witnessed.items() if o != not_asked[(kind, text)] and set(ids) <= seen)
        if owners and len(ids) <= k:
            options[kind].append((text, tuple(ids), rng.choice(owners)))
    for (kind, text, owner), ids in sorted(personal.items()):
        if owner in witnessed and set(ids) <= witnessed[owner] and len(ids) <= k:
            options[kind].append((text, tuple(ids), owner))
    chosen: list[Question] = []
    for kind in KINDS:
        for text, evidence, owner in rng.sample(options[kind], min(per_kind, len(options[kind]))):
            chosen.append(Question(game_log.game, kind, owner, text, evidence, tuple(phase_of[i] for i in evidence),
                                   last, corpus))
    return chosen


def copy_id(game: str, profile: str) -> str:
    """The id of a game's copy in which every player has ``profile``: ``GAME.bench-PROFILE``, an id no other recipe
    makes (the README's control condition stores ``GAME.perfect``, which the benchmark must never delete)."""
    return f"{game}.bench-{profile}"


def write_copies(logs: Sequence[GameLog], profile: str, folder: Path) -> Path:
    """Canonical files of every game under :func:`copy_id`, every player on ``profile``, in ``folder/profile``."""
    out = folder / profile
    out.mkdir(parents=True, exist_ok=True)
    for game_log in logs:
        lines = list(game_log_lines(game_log))
        header = json.loads(lines[0])
        header["game"] = copy_id(game_log.game, profile)
        header["players"] = [{**p, "profile": profile} for p in header["players"]]
        (out / f"{header['game']}.jsonl").write_text("\n".join([dumps_line(header), *lines[1:]]) + "\n",
                                                     encoding="utf-8")
    return out


def _witnessed(driver: neo4j.Driver, database: str | None, game: str) -> dict[str, set[str]]:
    records, _, _ = driver.execute_query(
        "MATCH (m:Memory {game: $game}) WHERE m.event IS NOT NULL RETURN m.owner AS owner, collect(m.event) AS events",
        game=game, database_=database, routing_=neo4j.RoutingControl.READ)
    return {r["owner"]: set(r["events"]) for r in records}


def _hits(question: Question, events: Iterable[str | None]) -> list[bool]:
    got = {e for e in events if e is not None}
    return [e in got for e in question.evidence]


def ask(driver: neo4j.Driver, database: str | None, question: Question, game: str, params: Parameters,
        embedder: Embedder, cache: EmbeddingCache, reader: MemoryReader, k: int) -> list[bool]:
    """Whether each evidence event is among the events of the k memories recall returns on the copy ``game``
    (through the process's ``cache`` of vectors and ``reader`` of candidates)."""
    result = recall(driver, database, game, question.owner, topic=question.text, k=k, dry_run=True, params=params,
                    embedder=embedder, cache=cache, reader=reader)
    return _hits(question, (m.event for m in result.memories))


def ask_dense(session: neo4j.Session, question: Question, game: str, embedder: Embedder, k: int) -> list[bool]:
    """The same for the owner's k memories most similar to the question (cosine in Neo4j, every memory)."""
    vector = [float(x) for x in embedder.encode_one(question.text)]
    records = session.run(DENSE_QUERY, game=game, owner=question.owner, v=vector, k=k)
    return _hits(question, (r["event"] for r in records))


def lane_params(params: Parameters, lane: str) -> Parameters:
    """``params`` with relevance made of one lane alone: :data:`DENSE_LANE` or :data:`LEXICAL_LANE` (its weight 1,
    the other lane, the source route, the neighbours, the date and when routes and the participant boost 0)."""
    weights: dict[str, Any] = {"dense_weight": 0.0, "lexical_weight": 0.0, "source_weight": 0.0,
                               "neighbour_weight": 0.0, "date_weight": 0.0, "when_weight": 0.0,
                               "participant_boost": 0.0}
    weights["dense_weight" if lane == DENSE_LANE else "lexical_weight"] = 1.0
    return replace(params, recall=replace(params.recall, **weights))


def ask_lexical(session: neo4j.Session, question: Question, game: str, k: int) -> list[bool]:
    """The same for the owner's k memories with the best full-text score of the question (every memory)."""
    query = lucene_query(question.text, scope_token(game, question.owner))
    if query is None:
        return [False] * len(question.evidence)
    records = session.run(LEXICAL_QUERY, q=query, k=k)
    return _hits(question, (r["event"] for r in records))


def _age_bin(age: int) -> str:
    for lo, hi in AGE_BINS:
        if lo <= age <= hi:
            return f"{lo}-{hi}" if hi < 99 else f"{lo}+"
    return "?"


def score(questions_: Sequence[Question], hits: Sequence[Sequence[bool]]) -> dict[str, Any]:
    """recall@k overall (mean over questions), per kind, and by age (share of evidence events recalled)."""
    per_question = [sum(h) / len(h) for h in hits]
    kinds = {kind: round(statistics.mean(v), 3) for kind in KINDS
             if (v := [r for q, r in zip(questions_, per_question) if q.kind == kind])}
    ages: dict[str, list[bool]] = defaultdict(list)
    recent: list[bool] = []
    for q, h in zip(questions_, hits):
        for phase, hit in zip(q.phases, h):
            ages[_age_bin(q.asked_at - phase)].append(hit)
            if q.asked_at - phase <= RECENT:
                recent.append(hit)
    by_age = {b: round(sum(v) / len(v), 3) for b, v in sorted(ages.items(), key=lambda kv: int(kv[0].split("-")[0]
                                                                                               .rstrip("+")))}
    return {"all": round(statistics.mean(per_question), 3) if per_question else 0.0, "kinds": kinds,
            "by_age": by_age, "evidence_by_age": {b: len(v) for b, v in ages.items()},
            "recent": round(sum(recent) / len(recent), 3) if recent else 0.0}


def run(driver: neo4j.Driver, database: str | None, *, profiles: Sequence[str] | None = None,
        games: int | None = None, corpora: Sequence[str] | None = None, per_kind: int = 6, k: int = 10,
        seed: int = 0, params: Parameters | None = None, embedder: Embedder | None = None) -> dict[str, Any]:
    """The whole benchmark (see the module docstring) on ``corpora`` (names of :data:`CORPORA`, default all), the
    first ``games`` of each (default all); returns the JSON report: games, questions (count per kind), results
    {ranking: score()} over every question, the same per corpus under ``corpora``, seconds per step, the target
    check (overall and per corpus), and under ``asked`` every question with ``found`` {ranking: [whether each
    evidence event was among the k returned]}. Raises ValueError for an unknown corpus."""
    params = params or default_parameters()
    embedder = embedder or Embedder()
    shipped = [p for p in params.profiles if p != "perfect"]
    wanted = list(profiles) if profiles else (["perfect"] if "perfect" in params.profiles else []) + shipped
    missing = [p for p in wanted if p not in params.profiles]
    if missing:
        log.warning("profiles not defined, skipped: %s", ", ".join(missing))
    wanted = [p for p in wanted if p in params.profiles]
    chosen = list(corpora) if corpora else list(CORPUS_NAMES)
    unknown = [c for c in chosen if c not in CORPUS_NAMES]
    if unknown:
        raise ValueError(f"unknown corpus {', '.join(unknown)}: choose among {', '.join(CORPUS_NAMES)}")
    by_corpus = {c.name: corpus_games(c, games) for c in CORPORA if c.name in chosen}
    logs = [game_log for corpus_logs in by_corpus.values() for game_log in corpus_logs]
    service = MemoryService(driver, params=params, embedder=embedder)
    steps: dict[str, float] = {}
    stored = set(stored_game_ids(driver, database))
    with tempfile.TemporaryDirectory(prefix="graphmem-retrieval-") as tmp:
        for profile in wanted:
            t0 = time.perf_counter()
            for game_log in logs:  # a copy left by an earlier run was encoded by another graphmem: start afresh
                if copy_id(game_log.game, profile) in stored:
                    delete_game(driver, database, copy_id(game_log.game, profile))
            service.ingest(write_copies(logs, profile, Path(tmp)))
            steps[f"ingest {profile}"] = round(time.perf_counter() - t0, 1)
    reference = wanted[0]
    asked: list[Question] = []
    for game_log in logs:
        asked += questions(game_log, _witnessed(driver, database, copy_id(game_log.game, reference)),
                           per_kind=per_kind, k=k, seed=seed)
    hits: dict[str, list[list[bool]]] = {}
    cache, reader = EmbeddingCache(), MemoryReader()
    for profile in wanted:
        t0 = time.perf_counter()
        hits[profile] = [ask(driver, database, q, copy_id(q.game, profile), params, embedder, cache, reader, k)
                         for q in asked]
        steps[f"ask {profile}"] = round(time.perf_counter() - t0, 1)
    default = params.default_profile
    if default in wanted:
        free = replace(params, recall=replace(params.recall, cue_support=0.0))
        hits[FREE.format(default)] = [ask(driver, database, q, copy_id(q.game, default), free, embedder, cache,
                                          reader, k) for q in asked]
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        t0 = time.perf_counter()
        hits[DENSE] = [ask_dense(session, q, copy_id(q.game, reference), embedder, k) for q in asked]
        hits[LEXICAL] = [ask_lexical(session, q, copy_id(q.game, reference), k) for q in asked]
        steps["single rankings"] = round(time.perf_counter() - t0, 1)
    for lane in LANES:
        hits[lane] = [ask(driver, database, q, copy_id(q.game, reference), lane_params(params, lane), embedder,
                          cache, reader, k) for q in asked]
    for profile in wanted:  # the copies are the benchmark's own: leave the database as it was
        for game_log in logs:
            delete_game(driver, database, copy_id(game_log.game, profile))
    report = summary(asked, hits, params)
    report |= {"games": len(logs), "k": k, "per_kind": per_kind, "seed": seed, "steps": steps,
               "default_profile": params.default_profile, "examples": [asdict(q) for q in asked[:12]],
               "asked": [asdict(q) | {"found": {name: h[i] for name, h in hits.items()}}
                         for i, q in enumerate(asked)]}
    for name, corpus_logs in by_corpus.items():
        report["corpora"][name]["games"] = len(corpus_logs)
    return report


def summary(asked: Sequence[Question], hits: dict[str, list[list[bool]]],
            params: Parameters | None = None) -> dict[str, Any]:
    """The figures of the report from each ranking's hits (``hits[ranking][i]``: which evidence events of
    ``asked[i]`` it found): over every question (questions per kind, evidence events, results {ranking: score()},
    target) and the same per corpus under ``corpora`` {corpus: {...}}, the corpora in the order of :data:`CORPORA`."""

    def figures(which: list[int]) -> dict[str, Any]:
        subset = [asked[i] for i in which]
        results = {name: score(subset, [h[i] for i in which]) for name, h in hits.items()}
        return {"questions": {kind: sum(q.kind == kind for q in subset) for kind in KINDS},
                "evidence": sum(len(q.evidence) for q in subset), "results": results,
                "target": target(results, params)}

    report = figures(list(range(len(asked))))
    report["corpora"] = {name: figures([i for i, q in enumerate(asked) if q.corpus == name])
                         for name in CORPUS_NAMES if any(q.corpus == name for q in asked)}
    return report


def target(results: dict[str, Any], params: Parameters | None = None) -> dict[str, Any]:
    """perfect's recall@k against the better single ranking (relative gain, met when >= 10%), and the
    slowest-forgetting shipped profile's recall of recent evidence (age 0-4) against plain cosine's."""
    params = params or default_parameters()
    out: dict[str, Any] = {"met": None, "why": "no perfect profile in this run"}
    if "perfect" in results:
        best = max(results[DENSE]["all"], results[LEXICAL]["all"])
        gain = results["perfect"]["all"] / best - 1.0 if best else float("inf")
        out = {"perfect": results["perfect"]["all"], "best_single": best, "relative_gain": round(gain, 3),
               "met": gain >= 0.10}
        lanes = {lane: results[lane]["all"] for lane in LANES if lane in results}
        if lanes:
            out["lanes"] = {"fused": results["perfect"]["all"], **lanes,
                            "met": all(results["perfect"]["all"] >= v for v in lanes.values())}
    shipped = [p for p in params.profiles.values() if p.name in results and p.base_decay_rate > 0.0]
    if shipped:
        slowest = min(shipped, key=lambda p: (p.base_decay_rate, -p.base_encoding_strength, p.name)).name
        out["recent"] = {"profile": slowest, "recall": results[slowest]["recent"],
                         "plain_cosine": results[DENSE]["recent"],
                         "above": results[slowest]["recent"] > results[DENSE]["recent"]}
    return out


def _label(name: str, report: dict[str, Any]) -> str:
    return f"{name} (default)" if name == report.get("default_profile") else name


def _target_lines(t: dict[str, Any], what: str) -> list[str]:
    lines = []
    if t.get("met") is not None:
        lines.append(f"target{what}: perfect {t['perfect']:.3f} vs best single ranking {t['best_single']:.3f}: "
                     f"{100 * t['relative_gain']:+.1f}% ({'met' if t['met'] else 'NOT met'}, needs +10%)")
    if "lanes" in t:
        lanes = t["lanes"]
        lines.append(f"fused ranking{what}: perfect {lanes['fused']:.3f} vs its lanes alone "
                     + ", ".join(f"{lane} {lanes[lane]:.3f}" for lane in LANES if lane in lanes)
                     + f" ({'at least as good as each' if lanes['met'] else 'WORSE than a lane'})")
    if "recent" in t:
        r = t["recent"]
        lines.append(f"evidence from the last 5 phases{what}: {r['profile']} (the slowest-forgetting shipped "
                     f"profile) {r['recall']:.3f} vs plain cosine {r['plain_cosine']:.3f} "
                     f"({'above' if r['above'] else 'NOT above'})")
    return lines


def _block(report: dict[str, Any], part: dict[str, Any], k: int) -> list[str]:
    """recall@k of one corpus (or of every question) by kind and by age, as two Markdown tables."""
    results = part["results"]
    kinds = [kind for kind in KINDS if part["questions"].get(kind)]
    head = (f"| ranking | all ({sum(part['questions'].values())}) | "
            + " | ".join(f"{kind} ({part['questions'][kind]})" for kind in kinds) + " |")
    lines = [f"recall@{k} by question kind (questions):", "", head, "|---" * (2 + len(kinds)) + "|"]
    for name, r in results.items():
        lines.append(f"| {_label(name, report)} | {r['all']:.3f} | "
                     + " | ".join(f"{r['kinds'].get(kind, 0.0):.3f}" for kind in kinds) + " |")
    bins = list(next(iter(results.values()))["by_age"])
    counts = next(iter(results.values()))["evidence_by_age"]
    lines += ["", f"recall@{k} by age of the evidence, in phases before the question (evidence events):", "",
              "| ranking | " + " | ".join(f"{b} ({counts.get(b, 0)})" for b in bins) + " |",
              "|---" * (1 + len(bins)) + "|"]
    for name, r in results.items():
        lines.append(f"| {_label(name, report)} | " + " | ".join(f"{r['by_age'].get(b, 0.0):.3f}" for b in bins)
                     + " |")
    return lines


def table(report: dict[str, Any]) -> str:
    """Markdown tables: recall@k of every ranking over all questions and per corpus; then for each corpus, recall@k
    by question kind and by age in phases, with its target lines; then the target lines over all questions."""
    k = report["k"]
    corpora = report.get("corpora") or {}
    titles = {c.name: c.title for c in CORPORA}
    lines: list[str] = []
    if corpora:
        lines += [f"recall@{k}, all questions and per corpus (games, questions):", "",
                  f"| ranking | all ({report['games']}, {sum(report['questions'].values())}) | "
                  + " | ".join(f"{titles[c]} ({part.get('games', '?')}, {sum(part['questions'].values())})"
                               for c, part in corpora.items()) + " |",
                  "|---" * (2 + len(corpora)) + "|"]
        for name, r in report["results"].items():
            lines.append(f"| {_label(name, report)} | {r['all']:.3f} | "
                         + " | ".join(f"{part['results'][name]['all']:.3f}" for part in corpora.values()) + " |")
        for c, part in corpora.items():
            lines += ["", f"### {titles[c]} ({part.get('games', '?')} games, {sum(part['questions'].values())} "
                          f"questions, {part['evidence']} evidence events)", "", *_block(report, part, k), "",
                      *_target_lines(part["target"], f" ({titles[c]})")]
        lines += ["", *_target_lines(report["target"], " (all questions)")]
    else:
        lines += [*_block(report, report, k), "", *_target_lines(report["target"], "")]
    return "\n".join(lines)


def figure(report: dict[str, Any], path: Path) -> None:
    """The default profile's recall@k by age, with perfect and the single rankings, as a PNG (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = report["results"]
    default = report["default_profile"]
    bins = list(results[default]["by_age"])
    fig, ax = plt.subplots(figsize=(7.0, 4.0), dpi=120)
    styles = {default: ("C0", "-", 2.5), FREE.format(default): ("C3", "-.", 1.5), "perfect": ("C2", "--", 1.5),
              DENSE: ("C7", ":", 1.5), LEXICAL: ("C1", ":", 1.5)}
    for name, (colour, line, width) in styles.items():
        if name in results:
            ax.plot(bins, [results[name]["by_age"].get(b, 0.0) for b in bins], color=colour, linestyle=line,
                    linewidth=width, marker="o", label=f"{name} (default profile)" if name == default else name)
    ax.set_xlabel("age of the evidence (phases before the question)")
    ax.set_ylabel(f"recall@{report['k']}")
    ax.set_ylim(0.0, 1.0)
    ax.set_title(f"What a player recalls of what they are asked, by age ({report['games']} real games)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_retrieval", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="use the first N games of each corpus (default: all)")
    parser.add_argument("--corpus", default=",".join(CORPUS_NAMES),
                        help=f"comma-separated corpora (default: {','.join(CORPUS_NAMES)})")
    parser.add_argument("--profiles", help="comma-separated profiles (default: perfect and every shipped one)")
    parser.add_argument("--per-kind", type=int, default=6, help="questions per kind and game (default 6)")
    parser.add_argument("--k", type=int, default=10, help="memories recalled per question (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the questions drawn (default 0)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "retrieval.json",
                        help="the JSON report (default bench/results/retrieval.json, the committed full run: give "
                             "another path for a sample)")
    parser.add_argument("--figure", type=Path, help="draw the default profile's recall by age to this PNG")
    parser.add_argument("--per-question", type=Path,
                        help="write every question with the evidence events each ranking found to this JSON")
    args = parser.parse_args(argv)
    corpora = [c.strip() for c in args.corpus.split(",") if c.strip()]
    if not corpora or set(corpora) - set(CORPUS_NAMES):
        parser.error(f"--corpus: choose among {', '.join(CORPUS_NAMES)} (got {args.corpus!r})")
    logging.basicConfig(level=logging.INFO, format="[retrieval] %(message)s")
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    from bench.run import bench_driver, machine, neo4j_uri

    started = time.perf_counter()
    with neo4j_uri() as uri:
        with bench_driver(uri) as driver:
            report = run(driver, os.environ.get("NEO4J_DATABASE") or None,
                         profiles=args.profiles.split(",") if args.profiles else None, games=args.games,
                         corpora=corpora, per_kind=args.per_kind, k=args.k, seed=args.seed)
    report["machine"] = machine()
    report["seconds"] = round(time.perf_counter() - started, 1)
    asked = report.pop("asked")
    if args.per_question:
        args.per_question.parent.mkdir(parents=True, exist_ok=True)
        args.per_question.write_text(json.dumps(asked, indent=1), encoding="utf-8")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    if args.figure:
        figure(report, args.figure)
    print(table(report))
    print(f"\n{report['games']} games, {sum(report['questions'].values())} questions, {report['evidence']} evidence "
          f"events; {report['seconds']:.0f} s in all; JSON written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
