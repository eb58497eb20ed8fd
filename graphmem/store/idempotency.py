"""Writes carried out at most once per Idempotency-Key (docs/service.md#retries).

An engine that never heard the answer to a write (a timeout, a killed worker, a lost connection) sends the same
request again with the same ``Idempotency-Key``; the first answer comes back and nothing is written again. Any
server process may get the retry, so the key lives in Neo4j, one ``IdempotencyKey`` node per caller and key
(:func:`graphmem.store.keys.idempotency_uid`), with the hash of the request, whether its write committed, and its
answer (HTTP status and JSON body), kept :data:`KEEP_SECONDS`.

How one request with a key runs (:func:`carry_out_once`):

1. **Claim** the key (``idempotency/claim``: MERGE on its uid) with a fresh fence token. A key already held by an
   answered request gives its answer (for the same request: same route and body; another is refused); one under
   way is waited for, up to :data:`LEASE_SECONDS` after it was claimed, and then taken over if its write never
   committed (``idempotency/take_over``: its process died, or it runs that long).
2. **Carry out** the write. Every write transaction of the store that a request's write goes through (a live batch,
   a writing recall: :func:`graphmem.store.versions.write_raising_versions`; a pushed thought) first runs
   :func:`fence`, which marks the key committed **in that transaction** if this attempt still holds it, and rolls
   the transaction back (:class:`~graphmem.errors.RetryConflict`) if a retry took it over. So the key is marked
   exactly when the write commits: a process killed after the commit leaves a committed key, and the retry writes
   nothing.
3. **Keep** the answer (``idempotency/keep``). A process killed between the commit and this step leaves the key
   committed without an answer: the retry writes nothing and gets 409, the answer being lost with its process (a
   window of one small transaction). An attempt that fails lets the key go when it had written nothing
   (``idempotency/release``), so the retry carries the request out.

The attempt's fence token travels to the store's writers in a context variable (:data:`_HELD`), set only around the
one operation of the request, on the request's thread: the writers below the facade (the recall pipeline among
them) need not know about keys.
"""

from __future__ import annotations

import contextvars
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import neo4j

from graphmem.errors import IdempotencyKeyReused, RetryConflict
from graphmem.store.queries import cypher

KEEP_SECONDS = 86_400
"""How long a key and its answer are kept, in seconds: a day, as docs/service.md#retries promises (then it is deleted by a
later claim, and the same key names a new request)."""
LEASE_SECONDS = 60.0
"""How long, in seconds, a retry waits for the first request with its key to answer before it takes the key over
(when that request never committed) or is refused 409 (when it did and never answered)."""
POLL_SECONDS = 0.1
"""The pause between two looks at a key whose request is under way."""


@dataclass(frozen=True)
class Answer:
    """The answer of a request: its HTTP ``status`` and JSON ``body``."""

    status: int
    body: Any


@dataclass(frozen=True)
class _Held:
    uid: str
    nonce: str


_HELD: contextvars.ContextVar[_Held | None] = contextvars.ContextVar("graphmem_idempotency_key", default=None)


def fence(tx: neo4j.ManagedTransaction) -> None:
    """Inside a write transaction: when the write is a request's carried out with an Idempotency-Key, mark the key
    committed in this transaction; raise RetryConflict (the transaction rolls back, nothing written) when a retry
    took the key over meanwhile. Nothing when no key is held on this thread."""
    parameters = fence_parameters()
    if parameters is not None:
        refuse_if_lost(bool(tx.run(cypher("idempotency/fence"), parameters).single(strict=True)["held"]))


def fence_parameters() -> dict[str, Any] | None:
    """The parameters of ``cypher/idempotency/fence`` for the key held on this thread ({uid, nonce}); None when no
    key is held (then no fence runs). For :func:`fence`, and for a write that runs the fence as part of its own
    statement (:func:`graphmem.store.versions.run_raising_versions`)."""
    held = _HELD.get()
    return None if held is None else {"uid": held.uid, "nonce": held.nonce}


def refuse_if_lost(held: bool) -> None:
    """Raise RetryConflict (the caller's transaction then rolls back) when the fence found the key taken over
    (``held``, the column of ``cypher/idempotency/fence``, False)."""
    if not held:
        raise RetryConflict("a retry of this request (the same Idempotency-Key) took it over while it ran: nothing "
                            "of this attempt was written")


def carry_out_once(driver: neo4j.Driver, database: str | None, uid: str, game: str, request_sha256: str,
                   operation: Callable[[], Answer], *, lease: float = LEASE_SECONDS) -> tuple[Answer, bool]:
    """Carry out ``operation`` once for the key ``uid`` (see the module docstring); returns (its answer, whether it
    is the first request's answer given again).

    game : the game the request writes to (the key is deleted with it); request_sha256 : the hash of the request,
    which a retry must match; lease : seconds to wait for a request with this key under way.
    Raises IdempotencyKeyReused (422) for another request sent with the key; RetryConflict (409) when the first
    request committed and never answered, or is still under way after ``lease``; what ``operation`` raises.
    """
    nonce = secrets.token_hex(16)
    while True:
        records, _, _ = driver.execute_query(cypher("idempotency/claim"), uid=uid, game=game,
                                             request_sha256=request_sha256, nonce=nonce,
                                             keep_ms=KEEP_SECONDS * 1000, database_=database)
        row = records[0]
        if row["claimed"]:
            break
        if row["request_sha256"] != request_sha256:
            raise IdempotencyKeyReused("this Idempotency-Key was sent with another request (another route or body): "
                                       "a key names one request; send a new key for a new request")
        if row["status"] is not None:
            return Answer(int(row["status"]), json.loads(row["answer_json"])), True
        if row["lost"] or (row["committed"] and row["age_ms"] > lease * 1000):
            raise RetryConflict("the request sent first with this Idempotency-Key was carried out, and its answer was "
                                "lost with its server process: nothing was written again (read the game's state to "
                                "go on)")
        if row["age_ms"] > lease * 1000:
            taken, _, _ = driver.execute_query(cypher("idempotency/take_over"), uid=uid, held_by=row["nonce"],
                                               nonce=nonce, database_=database)
            if taken[0]["taken"]:
                break
            continue
        time.sleep(POLL_SECONDS)  # the first request is under way: its answer comes soon
    token = _HELD.set(_Held(uid, nonce))
    try:
        answer = operation()
    except BaseException:
        _HELD.reset(token)
        try:
            driver.execute_query(cypher("idempotency/release"), uid=uid, nonce=nonce, database_=database)
        except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError):
            pass  # the key then waits out its lease: a retry takes it over, or is told its answer is lost
        raise
    _HELD.reset(token)
    driver.execute_query(cypher("idempotency/keep"), uid=uid, nonce=nonce, status=answer.status,
                         answer_json=json.dumps(answer.body, ensure_ascii=False), database_=database)
    return answer, False
