"""Plomp events to canonical events: one handler per plomp event type (the mapping table of the package
docstring), and who is alive after each event."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from graphmem.importers.traitors_plomp.game import _Context, _Game
from graphmem.importers.traitors_plomp.patterns import PATTERNS, SHAPES
from graphmem.importers.traitors_plomp.phases import PHASE_OF
from graphmem.logs.schema import has_visible_text

MAPPED_TYPES = tuple(PHASE_OF)


def mapped_types() -> tuple[str, ...]:
    """The plomp event types this importer converts."""
    return MAPPED_TYPES


def _claims_json(claims: list[Any]) -> list[dict[str, Any]]:
    return [c.model_dump(exclude_none=True) for c in claims]


def _say(ctx: _Context, m: re.Match[str], channel: str, to: str | list[str]) -> dict[str, Any]:
    g = ctx.game
    speaker = g.name(m["speaker"])
    text = m["text"]
    if not has_visible_text(text):
        # An empty message, or one of invisible characters only (the model answered with nothing; e.g. game
        # 3325g7wm, buffer_items[10]), is not a statement (a say needs visible text) but the witnesses did see it
        # happen: an observe event keeps that.
        about = [speaker] + ([p for p in to if p != speaker] if isinstance(to, list) else [])
        return {"kind": "observe", "observers": ctx.witnesses, "text": ctx.text.strip(), "about": about}
    event: dict[str, Any] = {"kind": "say", "speaker": speaker, "to": to, "channel": channel, "text": text}
    if about := g.mentions(text, exclude=speaker):
        event["about"] = about
    told = [p for p in to if p != speaker] if isinstance(to, list) else []
    rounds = g.ballots.at(ctx.day, table=channel == "roundtable")
    if claims := g.claims.extract(text, speaker, rounds=rounds, stances=channel != "traitors",
                                  addressee=told[0] if len(told) == 1 else None):
        event["claims"] = _claims_json(claims)
    return event


def _role_selected(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    player = ctx.game.name(m["player"])
    return [{"kind": "reveal", "player": player, "role": ctx.keywords["role"]}]


def _game_start(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [{"kind": "observe", "observers": ctx.witnesses, "text": " ".join(ctx.text.split())}]


def _private_message(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [_say(ctx, m, "private", [ctx.game.name(m["to"])])]


def _speech(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [_say(ctx, m, "roundtable", "all")]


def _banish_vote(ctx: _Context, m: re.Match[str]) -> dict[str, Any]:
    voter, target = ctx.game.name(m["voter"]), ctx.game.name(m["target"])
    return {"kind": "vote", "voter": voter, "target": target, "ballot": "banish",
            "claims": [{"subject": voter, "predicate": "voted_for", "object": target, "polarity": True,
                        "round": ctx.day}]}


def _round_table_vote(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    return [_banish_vote(ctx, m)]


def _final_vote(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    if shape == "vote":
        return [_banish_vote(ctx, m)]
    event: dict[str, Any] = {"kind": "vote", "voter": ctx.game.name(m["voter"]), "ballot": "end_game",
                             "choice": "end" if ctx.keywords["choice"] == "END_GAME" else "continue"}
    if m["reason"] and m["reason"].strip():
        event["text"] = m["reason"].strip()
    return [event]


def _banish(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    player = g.name(m["player"])
    event: dict[str, Any] = {"kind": "banish", "player": player, "votes": int(m["votes"])}
    if ctx.etype == "ELIMINATED_PLAYER":
        if g.name(m["again"]) != player:
            raise ctx.problem(f"the text names two players ({player}, {g.name(m['again'])})")
        is_traitor = not m["not"]
        role = g.roles[player]
        if is_traitor != (role == "traitor"):
            raise ctx.problem(f"the text reveals {player} as {'a traitor' if is_traitor else 'not a traitor'}, "
                              f"but the game gave them the role {role!r}")
        event["role_revealed"] = role
    return [event]


def _murder_suggestion(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    speaker, target = g.name(m["speaker"]), g.name(m["target"])
    about = [target] + [p for p in g.mentions(m["reason"] or "", exclude=speaker) if p != target]
    event: dict[str, Any] = {"kind": "say", "speaker": speaker, "to": "all", "channel": "traitors",
                             "text": ctx.text.strip(), "about": about}
    # The traitors' reasons to murder are not suspicions: no stances.
    if claims := g.claims.extract(m["reason"] or "", speaker, rounds=g.ballots.at(ctx.day), stances=False):
        event["claims"] = _claims_json(claims)
    return [event]


def _murder_vote(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    event: dict[str, Any] = {"kind": "vote", "voter": g.name(m["voter"]), "target": g.name(m["target"]),
                             "ballot": "murder"}
    if m["reason"] and m["reason"].strip():
        event["text"] = m["reason"].strip()
    return [event]


def _murder_decision(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    victim = ctx.game.name(m["victim"])
    return [{"kind": "observe", "observers": ctx.witnesses, "text": ctx.text.strip(), "about": [victim]}]


def _murdered(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    g = ctx.game
    victim = g.name(m["victim"])
    if g.pending_victim is not None and g.pending_victim != victim:
        raise ctx.problem(f"{victim} was murdered, but the traitors had decided to murder {g.pending_victim}")
    event: dict[str, Any] = {"kind": "murder", "victim": victim}
    if by := g.living_traitors():
        event["by"] = by
    return [event]


def _observe(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    if ctx.etype == "FINAL_ROUND_ANNOUNCEMENT":
        living = len(ctx.game.living())
        if int(m["count"]) != living:
            raise ctx.problem(f"the text says {m['count']} players remain, but {living} are alive "
                              f"({', '.join(ctx.game.living())})")
    return [{"kind": "observe", "observers": ctx.witnesses, "text": " ".join(ctx.text.split())}]


def _game_end(ctx: _Context, shape: str, m: re.Match[str]) -> list[dict[str, Any]]:
    winner = ctx.keywords["winner"].lower()
    structured = ctx.payload.get("winners")
    if structured is not None and (not isinstance(structured, str) or structured.lower() != winner):
        raise ctx.problem(f"the text says {winner} win, the payload says {structured!r}",
                          where=ctx.text_field.replace("plomp_display_text", "winners"))
    extra = {k: ctx.payload[k] for k in ("round", "reason", "prize_distribution") if k in ctx.payload}
    if extra:
        ctx.game.out.objects[0]["metadata"]["game_end"] = extra
    return [{"kind": "end", "winner": winner, "text": " ".join(ctx.text.split())}]


def _after(game: _Game, etype: str, events: list[dict[str, Any]]) -> None:
    """Update who is alive (after the event: eliminated players witness their own elimination)."""
    for event in events:
        if event["kind"] == "vote" and event.get("ballot") == "banish":
            game.ballots.vote(game.day, event["voter"], event["target"])
        if event["kind"] == "banish":
            game.ballots.banished(game.day)
            game.eliminated.add(event["player"])
        elif event["kind"] == "murder":
            game.eliminated.add(event["victim"])
            game.pending_victim = None
        elif etype == "MURDER_DECISION":
            game.pending_victim = event["about"][0]


_Handler = Callable[[_Context, str, re.Match[str]], list[dict[str, Any]]]

_HANDLERS: dict[str, _Handler] = {
    "ROLE_SELECTED": _role_selected,
    "GAME_START": _game_start,
    "PRIVATE_MESSAGE": _private_message,
    "ROUND_TABLE_SPEECH": _speech,
    "ROUND_TABLE_VOTE": _round_table_vote,
    "ELIMINATED_PLAYER": _banish,
    "MURDER_SUGGESTION": _murder_suggestion,
    "MURDER_VOTE": _murder_vote,
    "MURDER_DECISION": _murder_decision,
    "MURDERED_PLAYER": _murdered,
    "FINAL_ROUND_ANNOUNCEMENT": _observe,
    "FINAL_ROUND_VOTE": _final_vote,
    "FINAL_ROUND_CONTINUE": _observe,
    "FINAL_ROUND_SPEECH": _speech,
    "FINAL_ROUND_ELIMINATION": _banish,
    "GAME_END": _game_end,
}
assert set(_HANDLERS) == set(PHASE_OF) == set(PATTERNS) == set(SHAPES)
