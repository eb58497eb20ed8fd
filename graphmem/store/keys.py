"""The graph's identity keys: every node's ``uid`` and the per-owner ``scope`` token (docs/graph-model.md).

One home for the uid scheme, so that ingest (which creates the nodes), the jobs and recall (which find them again)
and the analysis queries agree. Uids are plain strings such as ``{game}/player/{name}``: Neo4j Community has no
composite keys, so one unique ``uid`` per node (a uniqueness constraint per label) carries the game, the owner and
the event. Summaries and conflicts derive theirs from their sorted member uids, so re-running a job adds nothing.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable


def game_uid(game: str) -> str:
    """``{game}``."""
    return game


def series_uid(series: str) -> str:
    """``series/{name}`` (no game id holds a "/", so no Game shares it)."""
    return f"series/{series}"


def person_key(name: str) -> str:
    """How a series matches a person across its games: the player name in Unicode NFC, case-folded ("Charlie" and
    "charlie" are one person; a game's names already differ ignoring case)."""
    return unicodedata.normalize("NFC", name).casefold()


def person_uid(series: str, name: str) -> str:
    """``series/{series}/person/{person_key(name)}``: one per person of a series."""
    return f"series/{series}/person/{person_key(name)}"


def player_uid(game: str, name: str) -> str:
    """``{game}/player/{name}``."""
    return f"{game}/player/{name}"


def phase_uid(game: str, index: int) -> str:
    """``{game}/phase/{index}``."""
    return f"{game}/phase/{index}"


def event_uid(game: str, event_id: str) -> str:
    """``{game}/event/{id}``."""
    return f"{game}/event/{event_id}"


def memory_uid(game: str, owner: str, event_id: str, lesson: bool = False) -> str:
    """``{game}/memory/{owner}/{event}`` (``.../lesson`` for the outcome lesson of that event)."""
    return f"{game}/memory/{owner}/{event_id}" + ("/lesson" if lesson else "")


def scope_token(game: str, owner: str) -> str:
    """A memory's ``scope``: one Lucene-safe token naming its owner, ``"s" + sha1(f"{game}/{owner}")[:20]``.

    The full-text index ``memory_text`` covers it, so recall asks Lucene for ``(topic words) AND scope:TOKEN``
    and gets only the owner's matches instead of every game's. Game ids and player names may hold any character
    (Lucene's analyzer would split ``game-1/Ann`` into several tokens), hence the hash: a letter and 20 hex
    digits, one token, lower case, 80 bits (no collision among any realistic number of owners).
    """
    return "s" + hashlib.sha1(f"{game}/{owner}".encode()).hexdigest()[:20]


def source_uid(game: str, owner: str, event_id: str, lesson: bool = False) -> str:
    """``{game}/source/{owner}/{event}`` (``.../lesson`` for a lesson)."""
    return f"{game}/source/{owner}/{event_id}" + ("/lesson" if lesson else "")


def thought_uid(game: str, player: str, thought_id: str) -> str:
    """``{game}/thought/{player}/{id}``."""
    return f"{game}/thought/{player}/{thought_id}"


def api_thought_uid_prefix(game: str, player: str) -> str:
    """``{game}/thought/{player}/api-``: a thought pushed through the API has this uid followed by its ``seq``
    (the game's push order, which cypher/ingest/push_thought.cypher continues), i.e. the :func:`thought_uid` of the
    id ``api-{seq}``."""
    return thought_uid(game, player, "api-")


AUTOMATIC_TRIGGERS = ("flashbulb", "accusation")
"""The triggers of the working-memory items ingest pushes by itself from one memory (docs/model.md#working-memory)."""


def automatic_thought_id(event_id: str, trigger: str) -> str:
    """``{event}-{trigger}``: the id of the thought ingest pushes from ``event_id`` for ``trigger`` (one of
    :data:`AUTOMATIC_TRIGGERS`), so that forgetting the memory finds it again."""
    return f"{event_id}-{trigger}"


def _members_digest(uids: Iterable[str]) -> str:
    return hashlib.sha1("\n".join(sorted(uids)).encode("utf-8")).hexdigest()[:16]


def summary_uid(game: str, owner: str, member_uids: Iterable[str]) -> str:
    """``{game}/summary/{owner}/{sha1(sorted member uids joined by newlines)[:16]}``."""
    return f"{game}/summary/{owner}/{_members_digest(member_uids)}"


def series_summary_uid(game: str, owner: str, member_uids: Iterable[str]) -> str:
    """``{game}/summary/{owner}/series-{sha1(sorted member uids joined by newlines)[:16]}``: a summary of one person
    across the games of a series (docs/jobs.md#consolidation-across-a-series), owned by ``owner`` of ``game`` (the
    series' latest game); its members are memories of several games, so it never shares a uid with a game's own
    summaries."""
    return f"{game}/summary/{owner}/series-{_members_digest(member_uids)}"


def conflict_uid(game: str, owner: str, memory_uids: Iterable[str]) -> str:
    """``{game}/conflict/{owner}/{sha1(sorted memory uids joined by newlines)[:16]}``."""
    return f"{game}/conflict/{owner}/{_members_digest(memory_uids)}"


def log_batch_uid(game: str, start: int) -> str:
    """``{game}/log/{start}``: the stored events of a live game's batch that begins with event ``start`` (0-based)."""
    return f"{game}/log/{start}"


def token_uid(token_sha256: str) -> str:
    """``token/{sha256 of the token}``: a player token is stored only as its hash (docs/service.md)."""
    return f"token/{token_sha256}"


def idempotency_uid(caller: str, key: str) -> str:
    """``idempotency/{sha256 of the caller and the key}``: an Idempotency-Key is the caller's own
    (docs/service.md#retries), so the same key sent by two callers names two requests; ``caller`` is "engine" or a
    player's ``{game}/player/{name}`` (:func:`player_uid`)."""
    return "idempotency/" + hashlib.sha256(f"{caller}\n{key}".encode()).hexdigest()
