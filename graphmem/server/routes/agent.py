"""A player's agent operations: recall, push a thought, list the open conflicts. The player's token, or the engine
key; a token reaches only its own player (:func:`graphmem.server.auth.require_player`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from graphmem.server import auth
from graphmem.server.deps import Caller, Once, PlayerName, Service
from graphmem.server.limits import Utf8JsonRoute
from graphmem.server.models import Conflicts, RecallAnswer, RecallBody, Thought, ThoughtBody

router = APIRouter(tags=["agent"], route_class=Utf8JsonRoute)


@router.post("/games/{game}/players/{player}/recall", response_model=RecallAnswer)
def recall(game: str, player: PlayerName, request: RecallBody, principal: Caller, memory: Service,
           once: Once) -> Any:
    """What the player remembers (docs/model.md#recall-and-reconsolidation): the prompt block (``prompt``) and its
    JSON (for a player token without the ground truth of each memory: true day, fabricated and misattributed flags,
    changes). ``dry_run`` looks without changing the memory, with ``seed`` to replay one (a player token for its own
    player too); ``seed`` on a recall that writes, and ``at``, a look into another phase, take the engine key."""
    return once(lambda: RecallAnswer(**auth.recall_for(
        memory, principal, game, player, request.topic, request.participants or [], k=request.k,
        dry_run=request.dry_run, seed=request.seed, at=request.at)))


@router.post("/games/{game}/players/{player}/thoughts", status_code=201, response_model=Thought)
def push_thought(game: str, player: PlayerName, request: ThoughtBody, memory: Service, once: Once) -> Any:
    """Push a thought into the player's working memory (docs/model.md#working-memory)."""
    return once(lambda: Thought(thought=memory.push_thought(game, player, request.text, priority=request.priority,
                                                            persistence=request.persistence, trigger="agent")), 201)


@router.get("/games/{game}/players/{player}/conflicts")
def conflicts(game: str, player: PlayerName, memory: Service) -> Conflicts:
    """The open contradictions between the player's own memories (docs/jobs.md#contradictions)."""
    return Conflicts(game=game, player=player, conflicts=memory.conflicts(game, player))
