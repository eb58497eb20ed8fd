"""The visual vocabulary shared by every picture: colours by role, marks by fate, line styles by channel kind."""

from __future__ import annotations

ROLE_COLOURS = {"faithful": "#3b7dd8", "traitor": "#d7301f"}
"""Node fill by role; any other role is grey."""
OTHER_ROLE_COLOUR = "#9e9e9e"

KIND_COLOURS = {"private": "#e6820e", "public": "#6b7c93", "traitors": "#8c1d18"}
"""Edge colour by channel kind."""
KIND_DASHES = {"private": None, "public": (6, 4), "traitors": (2, 3)}
"""Edge dash pattern (on, off) in points by channel kind; None: solid."""
KIND_CURVATURE = {"private": 0.10, "public": 0.22, "traitors": 0.34}
"""Edge bend (arc3 radius): parallel edges of different kinds between two players stay apart."""
KIND_LABELS = {"private": "private (told directly)", "public": "public (round table)", "traitors": "traitors' meeting"}

FATE_LABELS = {"alive": "alive (circle)", "murdered": "murdered (circle with a cross)",
               "banished": "banished (square)"}


def role_colour(role: str) -> str:
    """The fill colour of a player of ``role``."""
    return ROLE_COLOURS.get(role, OTHER_ROLE_COLOUR)


BAND_COLOURS = {"CLEAR": "#c7e9c0", "FUZZY": "#fff3b0", "VAGUE": "#fdd0a2", "forgotten": "#eeeeee"}
"""Background of the clarity bands of the decay chart."""
