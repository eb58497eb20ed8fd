"""The visual vocabulary shared by every picture: colours by side, marks by fate, line styles by channel kind."""

from __future__ import annotations

from collections.abc import Iterable

TRAITOR_SIDE_COLOUR = "#d7301f"
"""Node fill of a player whose role is on the traitor side (the game's ``traitor_roles``: traitor, werewolf, ...)."""
OTHER_SIDE_COLOUR = "#3b7dd8"
"""Node fill of a player of any other role (faithful, villager, seer, ...)."""
OTHER_ROLE_COLOUR = "#9e9e9e"
"""Node fill of a player whose role is unknown (not in the game's roster)."""
ROLE_COLOURS = {"faithful": OTHER_SIDE_COLOUR, "traitor": TRAITOR_SIDE_COLOUR}
"""The colours of The Traitors' two roles (the legend of a graph without players)."""

KIND_COLOURS = {"private": "#e6820e", "public": "#6b7c93", "traitors": "#8c1d18"}
"""Edge colour by channel kind."""
KIND_DASHES = {"private": None, "public": (6, 4), "traitors": (2, 3)}
"""Edge dash pattern (on, off) in points by channel kind; None: solid."""
KIND_CURVATURE = {"private": 0.10, "public": 0.22, "traitors": 0.34}
"""Edge bend (arc3 radius): parallel edges of different kinds between two players stay apart."""
KIND_LABELS = {"private": "private (told directly)", "public": "public (round table)", "traitors": "traitors' meeting"}

FATE_LABELS = {"alive": "alive (circle)", "murdered": "murdered (circle with a cross)",
               "banished": "banished (square)"}


def side_colour(traitor_side: bool | None) -> str:
    """The fill colour of a player on the traitor side (True), the other side (False) or of unknown role (None)."""
    if traitor_side is None:
        return OTHER_ROLE_COLOUR
    return TRAITOR_SIDE_COLOUR if traitor_side else OTHER_SIDE_COLOUR


def role_legend(players: Iterable[tuple[str, bool | None]]) -> list[tuple[str, str]]:
    """The legend's ``(role, colour)`` entries for the game's players given as ``(role, traitor_side)``: every
    known role once, the other side's roles first, then the traitor side's, each by name (The Traitors: faithful,
    traitor; a Werewolf game: seer, villager, werewolf). Without known roles: The Traitors' two."""
    sides: dict[str, bool] = {}
    for role, traitor_side in players:
        if traitor_side is not None:
            sides[role] = sides.get(role, False) or traitor_side
    if not sides:
        return list(ROLE_COLOURS.items())
    return [(role, side_colour(sides[role])) for role in sorted(sides, key=lambda r: (sides[r], r))]


BAND_COLOURS = {"CLEAR": "#c7e9c0", "FUZZY": "#fff3b0", "VAGUE": "#fdd0a2", "forgotten": "#eeeeee"}
"""Background of the clarity bands of the decay chart."""
