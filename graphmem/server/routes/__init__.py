"""The HTTP routes, one ``APIRouter`` per group of docs/service.md: :mod:`.health` (``/health``, ``/ready``),
:mod:`.games` (live games, uploads), :mod:`.jobs` (the jobs, the analysis queries, the who-told-whom picture),
:mod:`.tokens` (player tokens) and :mod:`.agent` (a player's recall, thoughts and conflicts). Each route declares its
answer's model (:mod:`graphmem.server.models`) and takes what it needs as dependencies (:mod:`graphmem.server.deps`).
"""

from __future__ import annotations

from fastapi import APIRouter

from graphmem.server.routes import agent, games, health, jobs, tokens

ROUTERS: tuple[APIRouter, ...] = (health.router, games.router, jobs.router, tokens.router, agent.router)
"""Every router, in the order of the API document."""
