"""Consolidation across a series of games (docs/jobs.md#consolidation-across-a-series): what one person remembers of
another over the games they played together becomes one Summary memory, in the owner's words.

``graphmem consolidate --series NAME`` calls :func:`consolidate_series`. For the latest game of the series (its
highest position) and each of its players (the owner, or one) and each other player of it (the observed):

1. read (``cypher/jobs/series_consolidate_read.cypher``) the complete games of the series in which the two people
   played together, and in each the owner's remembered memories (active, warm, or consolidated) of role reveals
   (``reveal`` and ``banish`` memories whose event revealed a role) and their reflections about the observed
   (:data:`REFLECTION_KINDS`);
2. plan (:func:`plan_series_summary`, pure) what the owner remembers: a game's side of the observed is known when
   the owner holds a reveal memory whose remembered ``whom`` is the observed (a lost detail does not count; an
   imported one counts for the player it now names: the owner misremembers); the latest remembered reflection gives
   "you noted: ...". Only the owner's own memories are read: never the roles themselves (the information boundary);
3. a pair is summarised when the owner remembers something of the observed from at least ``min_games`` games; the
   summary is owned by the owner's player in the latest game, ABOUT the observed's player there, with SUMMARISES
   edges to its members (which keep their state: they are episodes of other games and go on fading there);
4. write each owner's summaries in one transaction (``series_consolidate_write``) and tombstone, as superseded, the
   owner's earlier series summaries about the same person (``series_consolidate_supersede``; per game, raising that
   game's memory versions).

The summary's uid derives from its sorted member uids (:func:`graphmem.store.keys.series_summary_uid`): re-running
with nothing new writes nothing; a new game, or a member forgotten, gives a new summary that supersedes the old. It
fades like any memory of the latest game (the decay job; its stability is the consolidation's: 1.5 x the largest
member's, infinite for the ``perfect`` profile).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import neo4j

from graphmem.errors import NotFound
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import details_from_json
from graphmem.model.params import Parameters
from graphmem.model.source import initial_source_confidence, source_belief, source_exponent
from graphmem.model.vocabulary import MemoryType, SourceType
from graphmem.store.keys import player_uid, scope_token, series_summary_uid, series_uid
from graphmem.store.queries import cypher
from graphmem.store.versions import write_raising_versions
from graphmem.store.writer import Progress

__all__ = ["REFLECTION_KINDS", "SeriesConsolidationReport", "SeriesSummary", "consolidate_series",
           "plan_series_summary", "remembered_side"]

log = logging.getLogger(__name__)

REFLECTION_KINDS = ("reflect",)
"""Memory kinds of a player's post-game reflections (the owner's own conclusions about the player observed)."""

MIN_GAMES = 2
"""A pair is summarised when the owner remembers something of the observed from at least this many games."""

NOTE_CHARACTERS = 160
"""The longest quoted reflection, in characters (its first sentence, cut at a word beyond this)."""



@dataclass(frozen=True)
class SeriesSummary:
    """One planned summary: uid; owner (player name in the latest game); observed (player name there); members
    (uids, sorted); props (every Memory property but the embedding); games (together), hidden (games the owner
    remembers the observed on the hidden side), known (games whose side the owner remembers)."""

    uid: str
    owner: str
    observed: str
    members: tuple[str, ...]
    props: Mapping[str, Any]
    games: int
    hidden: int
    known: int

    def brief(self) -> dict[str, Any]:
        """What a report shows: uid, owner, observed, members, text, games, hidden, known, e0, s, state."""
        p = self.props
        return {"uid": self.uid, "owner": self.owner, "observed": self.observed, "members": len(self.members),
                "text": p["text"], "games": self.games, "hidden": self.hidden, "known": self.known, "e0": p["e0"],
                "s": p["s"], "state": p["state"]}


@dataclass
class SeriesConsolidationReport:
    """What one :func:`consolidate_series` did (or, with ``dry_run``, would do).

    series : str; game : the latest game (where the summaries go), None for an empty series; phase : its
    ``decayed_to``; dry_run; pairs : (owner, observed) pairs read; summaries : planned; created : Summary nodes the
    database created (0 on a re-run and with dry_run); superseded : older series summaries tombstoned (or that
    would be); planned : each summary's :meth:`SeriesSummary.brief`; seconds : wall time
    """

    series: str
    game: str | None
    phase: int
    dry_run: bool
    pairs: int = 0
    summaries: int = 0
    created: int = 0
    superseded: int = 0
    planned: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def hidden_role(role: str, traitor_roles: Sequence[str], sides: Sequence[str]) -> bool:
    """True when a revealed ``role`` is on the hidden side: one of the game's ``traitor_roles`` or its hidden side's
    name (``sides[0]``, Avalon's "evil")."""
    return role in traitor_roles or (bool(sides) and role == sides[0])


def remembered_side(game: Mapping[str, Any]) -> bool | None:
    """Whether the owner remembers the observed on the hidden side in one game (True), on the other (False), or not
    at all (None): from the owner's reveal memories whose remembered ``whom`` (not lost) is the observed, the latest
    one (by encoding phase) winning. ``game`` is one item of the read query's ``games``."""
    side: tuple[int, bool] | None = None
    for m in game["memories"]:
        if m["kind"] not in ("reveal", "banish") or m.get("role") is None:
            continue
        whom = [d.value for d in details_from_json(m["details_json"]) if d.kind == "whom" and not d.lost]
        if game["theirs"] not in whom:
            continue
        hidden = hidden_role(str(m["role"]), game["traitor_roles"], game["sides"])
        if side is None or int(m["t_enc"] or 0) >= side[0]:
            side = (int(m["t_enc"] or 0), hidden)
    return None if side is None else side[1]


def _note(text: str) -> str:
    """The first sentence of a reflection, at most about :data:`NOTE_CHARACTERS` characters."""
    flat = " ".join(text.split())
    first = re.split(r"(?<=[.!?])\s", flat, maxsplit=1)[0]
    if len(first) > NOTE_CHARACTERS:
        first = first[:NOTE_CHARACTERS].rsplit(" ", 1)[0] + "..."
    return first


def reflection_words(memory: Mapping[str, Any], observed: str) -> str | None:
    """The words of a reflection memory (its ``quote`` detail, else its text) when the owner remembers it as about
    ``observed`` (its ``whom`` detail, not lost, names them); None otherwise (a self-assessment, a reflection about
    another player, or one whose subject the owner no longer remembers)."""
    details = details_from_json(memory["details_json"])
    if not any(d.kind == "whom" and not d.lost and d.value == observed for d in details):
        return None
    quote = next((d.value for d in details if d.kind == "quote" and not d.lost), None)
    return str(quote if quote is not None else memory["text"])


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def summary_text(observed: str, games: int, hidden: int, known: int, hidden_name: str,
                 note: tuple[int, str] | None) -> str:
    """The summary in the owner's words: "Charlie was on the evil side in 5 of your 8 games together; after game 7
    you noted: "He blends in early."" (with "(you do not remember Charlie's side in 2 of them)" when the owner
    remembers fewer sides than games). note : (series position, the reflection's text) or None."""
    if known:
        told = "in none" if hidden == 0 else f"in {hidden}"
        text = f"{observed} was on the {hidden_name} side {told} of your {_count(games, 'game', 'games')} together"
        if known < games:
            text += f" (you do not remember {observed}'s side in {games - known} of them)"
    else:
        text = f"You played {_count(games, 'game', 'games')} with {observed}"
    if note is not None:
        return f'{text}; after game {note[0]} you noted: "{_note(note[1])}"'
    return text + "."


def plan_series_summary(series: str, row: Mapping[str, Any], params: Parameters,
                        min_games: int = MIN_GAMES) -> SeriesSummary | None:
    """The summary of one (owner, observed) row of the read query, or None when the owner remembers something of the
    observed from fewer than ``min_games`` games. Pure (the embedding is added by the job).

    row : latest, phase, day, phase_name, owner, profile, threshold, observed, observed_person, games (each: game,
    position, mine, theirs, traitor_roles, sides, memories). Strength as consolidation's
    (docs/jobs.md#the-summary-memory): ``e0 = min(1, strongest member + consolidation.strength_boost)``, ``s =
    consolidation.stability_factor * largest member s`` (infinite for a profile that never forgets), formed at the
    latest game's phase; source ``inferred`` (the owner's own conclusion), no teller.
    """
    games = list(row["games"])
    sides = {g["position"]: remembered_side(g) for g in games}
    # the owner's reflections about the observed: the player the reflection is about as the owner remembers it (its
    # `whom`), not every name its text mentions (`about`); its words are the note
    reflections = [(g["position"], m, words) for g in games for m in g["memories"] if m["kind"] in REFLECTION_KINDS
                   for words in [reflection_words(m, str(g["theirs"]))] if words is not None]
    remembered = {p for p, side in sides.items() if side is not None} | {p for p, _, _ in reflections}
    if len(remembered) < min_games:
        return None
    noted = {str(m["uid"]) for _, m, _ in reflections}
    members = [m for g in games for m in g["memories"]
               if str(m["uid"]) in noted
               or (sides[g["position"]] is not None and m.get("role") is not None
                   and g["theirs"] in [d.value for d in details_from_json(m["details_json"])
                                       if d.kind == "whom" and not d.lost])]
    hidden = sum(1 for side in sides.values() if side)
    known = sum(1 for side in sides.values() if side is not None)
    hidden_name = str(games[-1]["sides"][0]) if games else "hidden"
    latest_note = max(reflections, key=lambda pm: (pm[0], int(pm[1]["t_enc"] or 0)), default=None)
    observed, owner, game = str(row["observed"]), str(row["owner"]), str(row["latest"])
    text = summary_text(observed, len(games), hidden, known, hidden_name,
                        None if latest_note is None else (latest_note[0], latest_note[2]))
    uids = sorted(str(m["uid"]) for m in members)
    profile = params.profile(str(row["profile"] or "balanced"))
    cfg = params.consolidation
    phase = int(row["phase"])
    e0 = min(1.0, max(float(m["strength"] or 0.0) for m in members) + cfg.strength_boost)
    s = float("inf") if profile.base_decay_rate == 0 else cfg.stability_factor * max(float(m["s"] or 1.0)
                                                                                    for m in members)
    threshold = float(row["threshold"] if row["threshold"] is not None else profile.retrieval_threshold)
    c0 = initial_source_confidence(SourceType.INFERRED, params)

    def most(key: str) -> float:
        return max(float(m.get(key) or 0.0) for m in members)

    props: dict[str, Any] = {
        "uid": series_summary_uid(game, owner, uids), "game": game, "owner": owner, "event": None, "kind": "summary",
        "type": MemoryType.SEMANTIC.value, "text": text, "template": text, "details_json": "[]", "n_lost": 0,
        "fabricated": False, "about": [observed], "keywords": observed, "scope": scope_token(game, owner),
        "claims_json": "[]", "t_enc": phase, "day": int(row["day"]), "phase_name": str(row["phase_name"]),
        "salience": most("salience"), "relevance": most("relevance"), "emotion_peak": most("emotion_peak"),
        "emotion_json": "{}", "surprise": most("surprise"), "consequence": most("consequence"), "flashbulb": False,
        "flashbulb_score": 0.0, "floor": 0.0, "e0": e0, "s_enc": s, "decay_rate": profile.base_decay_rate,
        "e_ref": e0, "t_ref": phase, "s": s, "n": 0, "strength": e0, "decayed_to": phase,
        "state": str(lifecycle_state(e0, threshold, params)), "threshold": threshold,
        "source_type": SourceType.INFERRED.value, "teller": None, "c0": c0, "source_k": source_exponent(profile, params),
        "source_confidence": c0, "source_belief": source_belief(SourceType.INFERRED, c0, params),
        "believed_teller": None, "misattributed": False, "own": False, "last_recalled": None,
        "tombstone_reason": None, "tombstone_phase": None, "summary": None, "members": len(uids),
        "day_first": int(row["day"]), "day_last": int(row["day"]), "series": series,
        "subject_person": str(row["observed_person"]), "games_together": len(games), "hidden_games": hidden,
        "known_games": known,
    }
    return SeriesSummary(str(props["uid"]), owner, observed, tuple(uids), props, len(games), hidden, known)


def _read(driver: neo4j.Driver, database: str | None, series: str, player: str | None) -> list[dict[str, Any]]:
    def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
        return [r.data() for r in tx.run(cypher("jobs/series_consolidate_read"), series_uid=series_uid(series),
                                         player=player, reflection_kinds=list(REFLECTION_KINDS))]

    with driver.session(database=database, notifications_min_severity="OFF",
                        default_access_mode=neo4j.READ_ACCESS) as session:
        return session.execute_read(work)


def consolidate_series(driver: neo4j.Driver, database: str | None, series: str, params: Parameters,
                       embed: Callable[[Sequence[str]], Any], *, player: str | None = None,
                       dry_run: bool = False, min_games: int = MIN_GAMES,
                       progress: Progress | None = None) -> SeriesConsolidationReport:
    """Summarise, for each player of the series' latest game (or only ``player``), what they remember of each other
    player over their games together (see the module docstring).

    series : the series name; embed(texts) -> one vector per text, an array of shape (len(texts), dimension) or
    a list of lists (the configured embedding model, as ingest embeds: ``Embedder.encode``); player : a player
    name of the latest game, or None for every player; dry_run : plan and report, write nothing;
    min_games : int >= 1; progress(owner, summaries) after each owner.
    Raises NotFound for a series not stored, or a player the latest game does not have.
    """
    started = time.perf_counter()
    from graphmem.store.series import series_games

    gap, games = series_games(driver, database, series)
    if gap is None:
        raise NotFound(f"no series '{series}' is stored")
    rows = _read(driver, database, series, player)
    latest = games[-1].game if games else None
    report = SeriesConsolidationReport(series, latest, games[-1].decayed_to if games else 0, dry_run)
    if player is not None and not rows and latest is not None:
        raise NotFound(f"no player '{player}' with another player in game '{latest}', the latest of series "
                       f"'{series}'")
    by_owner: dict[str, list[SeriesSummary]] = {}
    stale: dict[str, list[tuple[str, str, str]]] = {}  # owner -> (game, owner there, uid) of summaries to supersede
    for row in rows:
        report.pairs += 1
        one = plan_series_summary(series, row, params, min_games)
        owner = str(row["owner"])
        by_owner.setdefault(owner, [])
        if one is None:
            continue
        by_owner[owner].append(one)
        stale.setdefault(owner, []).extend((str(e["game"]), str(e["owner"]), str(e["uid"]))
                                           for e in row["existing"] if e["uid"] != one.uid)
    for owner, planned in by_owner.items():
        report.summaries += len(planned)
        report.planned.extend(p.brief() for p in planned)
        report.superseded += len(stale.get(owner, []))
        if planned and not dry_run and latest is not None:
            vectors = embed([str(p.props["text"]) for p in planned])
            report.created += _write(driver, database, latest, planned, vectors)
            _supersede(driver, database, stale.get(owner, []), planned[0].props["game"])
        if progress:
            progress(owner, len(planned))
    report.seconds = time.perf_counter() - started
    log.info("series %s: %d summaries (%d created, %d superseded) of %d pairs in %.2f s%s", series,
             report.summaries, report.created, report.superseded, report.pairs, report.seconds,
             " (dry run)" if dry_run else "")
    return report


def _write(driver: neo4j.Driver, database: str | None, game: str, planned: Sequence[SeriesSummary],
           vectors: Any) -> int:
    rows = [{"uid": p.uid, "owner_uid": player_uid(game, p.owner), "props": dict(p.props),
             "embedding": [float(x) for x in vector], "members": list(p.members),
             "about_uids": [player_uid(game, p.observed)]} for p, vector in zip(planned, vectors)]

    def work(tx: neo4j.ManagedTransaction) -> int:
        return int(tx.run(cypher("jobs/series_consolidate_write"), summaries=rows).consume().counters.nodes_created)

    with driver.session(database=database, notifications_min_severity="OFF") as session:
        return write_raising_versions(session, game, [p.owner for p in planned], work)[0]


def _supersede(driver: neo4j.Driver, database: str | None, stale: Sequence[tuple[str, str, str]], latest: str) -> None:
    """Tombstone the summaries ``stale`` ((game, owner, uid)), one transaction per game raising its owners' versions."""
    by_game: dict[str, list[tuple[str, str]]] = {}
    for game, owner, uid in stale:
        by_game.setdefault(game, []).append((owner, uid))
    reason = f"superseded by a newer summary of the series (game {latest})"
    for game, items in sorted(by_game.items()):
        uids = sorted({uid for _, uid in items})

        def work(tx: neo4j.ManagedTransaction, uids: list[str] = uids) -> int:
            return int(tx.run(cypher("jobs/series_consolidate_supersede"), uids=uids,
                              reason=reason).single(strict=True)["superseded"])

        with driver.session(database=database, notifications_min_severity="OFF") as session:
            write_raising_versions(session, game, [owner for owner, _ in items], work)
