"""Retries with an Idempotency-Key (docs/service.md#retries) through a real ``graphmem serve``: the first
request commits and its answer is lost on the way back (a proxy that closes the connection as the answer comes), the
engine sends the same request again with the key, gets the first answer and nothing new is stored; and the key's
store itself against a real Neo4j: a write that committed without its answer being kept, a write taken over by a
retry, an attempt that failed."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import neo4j
import pytest

from graphmem.errors import IdempotencyKeyReused, RetryConflict
from graphmem.store.idempotency import Answer, carry_out_once, fence
from tests.integration.helpers import fresh, recall_counts
from tests.integration.server_process import Server
from tests.integration.test_server import live_game, mint, small_game

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


class AnswerKiller:
    """A TCP proxy to the server that forwards each request whole and closes the client's connection the moment the
    server's answer starts: the server carries the request out, the client never hears."""

    def __init__(self, target: str) -> None:
        host, port = target.removeprefix("http://").split(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.answered = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client: socket.socket) -> None:
        with client, socket.create_connection(self.target) as upstream:
            upstream.settimeout(300)
            client.settimeout(1)

            def forward() -> None:
                try:
                    while data := client.recv(65536):
                        upstream.sendall(data)
                except OSError:
                    pass

            threading.Thread(target=forward, daemon=True).start()
            first = upstream.recv(1)  # the server's answer begins: its write is done
            if first:
                self.answered.set()

    def close(self) -> None:
        self.listener.close()


@pytest.fixture()
def killer(server: Server) -> Iterator[AnswerKiller]:
    proxy = AnswerKiller(server.url)
    yield proxy
    proxy.close()


def lost(killer: AnswerKiller, credential: str | None, path: str, body: dict[str, Any], key: str) -> None:
    """Send a request whose answer never arrives; return once the server has answered it (to nobody)."""
    killer.answered.clear()
    headers = {"Idempotency-Key": key, **({"Authorization": f"Bearer {credential}"} if credential else {})}
    with pytest.raises(httpx.HTTPError):
        httpx.post(killer.url + path, json=body, headers=headers, timeout=120)
    assert killer.answered.wait(120), "the server never answered"


def test_a_batch_without_after_whose_answer_was_lost_is_stored_once(server: Server, engine: httpx.Client,
                                                                    killer: AnswerKiller) -> None:
    # the case: no after, no event ids; sent again without a key it would be stored twice
    game, _ = live_game(engine, 6)
    batch = {"events": [{"kind": "say", "speaker": "Sarah", "to": "all", "channel": "public",
                         "text": "I will say this only once."}]}
    key = str(uuid.uuid4())
    lost(killer, server.key, f"/games/{game}/events", batch, key)
    again = engine.post(f"/games/{game}/events", json=batch, headers={"Idempotency-Key": key})
    assert again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    # the first answer: the event stored by the first request, none found stored by this one
    assert (again.json()["events"], again.json()["already_stored"], again.json()["total_events"]) == (1, 0, 7)
    assert again.json()["ids"] == ["8"]
    after = engine.post(f"/games/{game}/events", json={"events": [], "after": 7})
    assert after.json()["total_events"] == 7  # stored once
    other = engine.post(f"/games/{game}/events", json={"events": []}, headers={"Idempotency-Key": key})
    assert other.status_code == 422 and other.json()["error"] == "idempotency_key_reused", other.text
    fresh_key = engine.post(f"/games/{game}/events", json=batch, headers={"Idempotency-Key": str(uuid.uuid4())})
    assert fresh_key.json()["total_events"] == 8  # a new key is a new request


def test_a_writing_recall_and_a_thought_whose_answers_were_lost_write_once(server: Server, engine: httpx.Client,
                                                                           driver: neo4j.Driver,
                                                                           killer: AnswerKiller) -> None:
    game, _ = live_game(engine, 26)
    token = mint(engine, game, "Marcus")

    def counts() -> dict[str, int]:
        return recall_counts(driver, game, "Marcus")

    before = counts()
    key = str(uuid.uuid4())
    route = f"/games/{game}/players/Marcus/recall"
    lost(killer, token, route, {"topic": "Thomas"}, key)
    once = counts()
    recalled = {uid for uid in once if once[uid] != before[uid]}
    assert recalled, "the first recall rehearsed what it recalled"
    with server.client(token) as marcus:
        again = marcus.post(route, json={"topic": "Thomas"}, headers={"Idempotency-Key": key})
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true", again.text
        assert {m["uid"] for m in again.json()["memories"]} >= recalled and again.json()["written"] > 0
        assert counts() == once  # rehearsed once, not twice
        thought = {"text": "Ask Thomas about the library."}
        key = str(uuid.uuid4())
        lost(killer, token, f"/games/{game}/players/Marcus/thoughts", thought, key)
        pushed = marcus.post(f"/games/{game}/players/Marcus/thoughts", json=thought, headers={"Idempotency-Key": key})
        assert pushed.status_code == 201 and pushed.headers["Idempotent-Replayed"] == "true", pushed.text
    thoughts = driver.execute_query("MATCH (t:Thought {game: $game, trigger: 'agent'}) RETURN t.uid AS uid",
                                    game=game).records
    assert [t["uid"] for t in thoughts] == [pushed.json()["thought"]]
    # the key is the caller's: the engine's same key is another request
    by_engine = engine.post(route, json={"topic": "Thomas", "dry_run": True}, headers={"Idempotency-Key": key})
    assert by_engine.status_code == 200 and by_engine.headers["Idempotent-Replayed"] == "false"


def test_a_game_created_with_history_whose_answer_was_lost_is_created_once(server: Server, engine: httpx.Client,
                                                                           killer: AnswerKiller) -> None:
    header, log = small_game(fresh("srv-retry"))
    key = str(uuid.uuid4())
    body = {**header, "history": log[:5]}
    lost(killer, server.key, "/games", body, key)
    again = engine.post("/games", json=body, headers={"Idempotency-Key": key})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true", again.text
    assert (again.json()["events"], again.json()["already_stored"]) == (5, 0)  # the first answer
    assert engine.delete(f"/games/{header['game']}").json()["deleted"]["IdempotencyKey"] == 1  # gone with its game


def test_the_same_json_with_other_whitespace_and_key_order_is_the_same_request(engine: httpx.Client) -> None:
    """The key names the parsed JSON, not its bytes (a client that re-serialises a retry sent 422 "key reused")."""
    game, _ = live_game(engine, 6)
    say = {"kind": "say", "speaker": "Sarah", "to": "all", "channel": "public", "text": "Once, caf\u00e9."}
    key = {"Idempotency-Key": str(uuid.uuid4()), "content-type": "application/json"}
    first = engine.post(f"/games/{game}/events", headers=key,
                        content=json.dumps({"events": [say], "after": 6}, ensure_ascii=False).encode())
    assert first.status_code == 200 and first.headers["Idempotent-Replayed"] == "false", first.text
    resent = json.dumps({"after": 6, "events": [dict(reversed(say.items()))]}, indent=2).encode()  # \u00e9 escaped
    again = engine.post(f"/games/{game}/events", headers=key, content=resent)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true", again.text
    assert again.json() == first.json() and again.json()["total_events"] == 7
    other = engine.post(f"/games/{game}/events", headers=key, content=resent.replace(b"Once", b"Twice"))
    assert other.status_code == 422 and other.json()["error"] == "idempotency_key_reused", other.text


def test_a_key_is_refused_where_it_would_be_ignored_and_two_keys_anywhere(engine: httpx.Client) -> None:
    """A route that does not carry its write out once per key refuses a key (it was ignored silently: the request
    was carried out again when sent again); two Idempotency-Key headers are one request with two names."""
    game, _ = live_game(engine, 6)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    minted = engine.post(f"/games/{game}/players/Marcus/tokens", headers=key)
    assert minted.status_code == 400, minted.text
    assert minted.json()["error"] == "idempotency_key_unsupported"
    assert minted.json()["field"] == "Idempotency-Key"
    reason = minted.json()["reason"]
    assert reason.startswith("POST /games/{game}/players/{player}/tokens takes no Idempotency-Key: it would be "
                             "ignored"), reason
    for route in ("POST /games", "POST /games/{game}/events", "POST /games/{game}/phase", "POST /games/{game}/end",
                  "POST /games/{game}/players/{player}/recall", "POST /games/{game}/players/{player}/thoughts"):
        assert route in reason, (route, reason)
    deleted = engine.delete(f"/games/{game}", headers=key)
    assert deleted.status_code == 400 and deleted.json()["error"] == "idempotency_key_unsupported", deleted.text
    assert engine.get(f"/games/{game}").status_code == 200  # nothing done: the game is still there
    two = engine.post(f"/games/{game}/events", json={"events": [], "after": 6},
                      headers=[("Idempotency-Key", "a-1"), ("Idempotency-Key", "a-2")])
    assert two.status_code == 400, two.text
    assert (two.json()["error"], two.json()["field"]) == ("malformed_request", "Idempotency-Key")
    assert two.json()["reason"] == "2 Idempotency-Key headers: a request is named by one key"


@pytest.mark.parametrize("game", ["g\ud83d", "g" * 20_000], ids=["lone-surrogate", "20000-characters"])
def test_a_game_id_refused_without_a_key_is_refused_alike_with_one(engine: httpx.Client, driver: neo4j.Driver,
                                                                   game: str) -> None:
    header, _ = small_game(game)
    body = json.dumps(header).encode()  # ensure_ascii: the lone surrogate travels as the escape \ud83d
    keys = "MATCH (k:IdempotencyKey) RETURN count(k) AS n"
    before = driver.execute_query(keys).records[0]["n"]
    plain = engine.post("/games", content=body, headers={"content-type": "application/json"})
    keyed = engine.post("/games", content=body, headers={"content-type": "application/json",
                                                         "Idempotency-Key": str(uuid.uuid4())})
    assert plain.status_code == 422, plain.text
    assert (keyed.status_code, keyed.json()) == (422, plain.json())
    assert driver.execute_query(keys).records[0]["n"] == before  # no key kept for it


@pytest.fixture()
def key_game(driver: neo4j.Driver, schema: object) -> Iterator[str]:
    game = fresh("key")
    yield game
    from graphmem.store.games import delete_game

    delete_game(driver, None, game)


def _write(driver: neo4j.Driver, game: str, mark: str) -> Answer:
    """A write of the kind a request makes: one node, in a transaction that runs the fence first."""
    def work(tx: neo4j.ManagedTransaction) -> None:
        fence(tx)
        tx.run("CREATE (:Thought {uid: $uid, game: $game})", uid=f"{game}/{mark}", game=game).consume()

    with driver.session() as session:
        session.execute_write(work)
    return Answer(201, {"mark": mark})


def _written(driver: neo4j.Driver, game: str) -> list[str]:
    records = driver.execute_query("MATCH (t:Thought {game: $game}) RETURN t.uid AS uid ORDER BY uid", game=game).records
    return [r["uid"].rsplit("/", 1)[1] for r in records]


def test_the_key_store_writes_once_whatever_stops_an_attempt(driver: neo4j.Driver, key_game: str) -> None:
    game = key_game
    uid = f"idempotency/test-{uuid.uuid4().hex}"
    first = carry_out_once(driver, None, uid, game, "h", lambda: _write(driver, game, "a"))
    assert first == (Answer(201, {"mark": "a"}), False)
    assert carry_out_once(driver, None, uid, game, "h", lambda: _write(driver, game, "b")) == (first[0], True)
    with pytest.raises(IdempotencyKeyReused):
        carry_out_once(driver, None, uid, game, "other", lambda: _write(driver, game, "c"))
    assert _written(driver, game) == ["a"]

    # an attempt that fails before it writes lets the key go: the retry carries the request out
    failing = f"idempotency/test-{uuid.uuid4().hex}"

    def refused() -> Answer:
        raise RuntimeError("refused before writing")

    with pytest.raises(RuntimeError):
        carry_out_once(driver, None, failing, game, "h", refused)
    assert carry_out_once(driver, None, failing, game, "h", lambda: _write(driver, game, "d"))[1] is False

    # a process that dies after its write committed and before its answer was kept: the retry writes nothing
    died = f"idempotency/test-{uuid.uuid4().hex}"

    class Killed(BaseException):
        pass

    def commit_then_die() -> Answer:
        _write(driver, game, "e")
        raise Killed()

    with pytest.raises(Killed):
        carry_out_once(driver, None, died, game, "h", commit_then_die)
    with pytest.raises(RetryConflict, match="its answer was lost"):
        carry_out_once(driver, None, died, game, "h", lambda: _write(driver, game, "f"))
    assert _written(driver, game) == ["a", "d", "e"]

    # an attempt that runs past its lease is taken over; its write then rolls back (the fence), the retry's stands
    slow = f"idempotency/test-{uuid.uuid4().hex}"
    results: list[Any] = []

    def overtaken() -> Answer:
        taken = carry_out_once(driver, None, slow, game, "h", lambda: _write(driver, game, "h"), lease=0.0)
        results.append(taken)
        return _write(driver, game, "g")

    with pytest.raises(RetryConflict, match="took it over"):
        carry_out_once(driver, None, slow, game, "h", overtaken)
    assert results == [(Answer(201, {"mark": "h"}), False)]
    assert _written(driver, game) == ["a", "d", "e", "h"]
