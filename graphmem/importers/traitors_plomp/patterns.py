"""The text patterns of plomp events: every accepted shape of ``plomp_display_text``, by event type.

"{name}" in a pattern is replaced by an alternation of the game's player names (matched ignoring case, longest
first); "{kw:SLOT}" by a word (or two, for "continue playing") that is then read as one of the keywords of
:data:`KEYWORDS` ``[SLOT]`` the way a person would (:mod:`graphmem.importers.keywords`: ``CONTINUE_PLAYINGNG`` is
``CONTINUE_PLAYING``, a guess the conversion reports). Every pattern must match the whole text (re.fullmatch,
DOTALL: messages may span lines). :data:`SHAPES` describes each type's shapes for the problem reported when none
matches.
"""

from __future__ import annotations

import re

_EXCERPT = 120

QUOTED = r"""(?P<q>["'])(?P<text>.*)(?P=q)"""
"""A message in straight double or single quotes (quotes inside it are kept: the match is greedy)."""
CURLY_QUOTED = r"\u201c(?P<text>.*)\u201d"
"""A message in curly double quotes."""

KEYWORDS: dict[str, tuple[str, ...]] = {
    "role": ("traitor", "faithful"),
    "side": ("traitor",),
    "banished": ("BANISHED",),
    "murdered": ("MURDERED",),
    "choice": ("END_GAME", "CONTINUE_PLAYING"),
    "winner": ("Faithfuls", "Traitors"),
}
"""The keywords each ``{kw:SLOT}`` of :data:`PATTERNS` can hold, as the engine writes them."""

_SLOT = r"(?P<\1>[^\W\d][\w-]*(?: [^\W\d][\w-]*)?)"
_ONE_WORD_SLOT = r"(?P<\1>[^\W\d][\w-]*)"

PATTERNS: dict[str, dict[str, str]] = {
    "ROLE_SELECTED": {"role": r"""(?P<q>['"]?)(?P<player>{name})(?P=q) selected as an? {kw:role}\.?"""},
    "GAME_START": {"start": r"Game started with the following players: (?P<list>\[.*\])\.?"},
    "PRIVATE_MESSAGE": {"message": r"(?P<speaker>{name}) messaged (?P<to>{name}): " + QUOTED,
                        "message_curly": r"(?P<speaker>{name}) messaged (?P<to>{name}): " + CURLY_QUOTED},
    "ROUND_TABLE_SPEECH": {"speech": r"(?P<speaker>{name}) said: " + QUOTED,
                           "speech_curly": r"(?P<speaker>{name}) said: " + CURLY_QUOTED},
    "FINAL_ROUND_SPEECH": {"speech": r"(?P<speaker>{name}) said: " + QUOTED,
                           "speech_curly": r"(?P<speaker>{name}) said: " + CURLY_QUOTED},
    "ROUND_TABLE_VOTE": {"vote": r"(?P<voter>{name}) voted to eliminate (?P<target>{name})\.?"},
    "ELIMINATED_PLAYER": {
        "banish": r"(?P<player>{name}) was {kw:banished} with (?P<votes>\d{1,6}) votes?\. (?P<again>{name}) WAS "
                  r"(?P<not>NOT )?an? {kw:side}\.?"},
    "FINAL_ROUND_ELIMINATION": {
        "banish": r"(?P<player>{name}) was {kw:banished} with (?P<votes>\d{1,6}) votes?\. Their role remains "
                  r"hidden\.?"},
    "MURDER_SUGGESTION": {"suggest": r"(?P<speaker>{name}) suggests murdering (?P<target>{name})(?::\s*(?P<reason>.*))?"},
    "MURDER_VOTE": {"vote": r"(?P<voter>{name}) votes to murder (?P<target>{name})(?::\s*(?P<reason>.*))?"},
    "MURDER_DECISION": {"decision": r"The traitors have decided to murder (?P<victim>{name})\.?"},
    "MURDERED_PLAYER": {"murder": r"(?P<victim>{name}) was {kw:murdered} by the traitors\.?"},
    "FINAL_ROUND_ANNOUNCEMENT": {
        "announce": r"\s*Final round! With (?P<count>\d{1,6}) players remaining,\s+the group must decide whether to end "
                    r"the game or eliminate another player\.\s*"},
    "FINAL_ROUND_VOTE": {
        "end_game": r"(?P<voter>{name}) votes to {kw:choice}(?::\s*(?P<reason>.*))?",
        "vote": r"(?P<voter>{name}) voted to eliminate (?P<target>{name})\.?"},
    "FINAL_ROUND_CONTINUE": {
        "continue": r"The vote was not unanimous\. (?P<end>\d+) player\(s\) voted to end, (?P<cont>\d+) to "
                    r"continue\. The game will continue\.?"},
    "GAME_END": {"end": r".*?\b{kw:winner} win!.*"},
}
"""Every accepted text shape, by plomp event type and shape name."""

SHAPES: dict[str, str] = {
    "ROLE_SELECTED": "'NAME' selected as a ROLE.",
    "GAME_START": "Game started with the following players: ['NAME', ...]",
    "PRIVATE_MESSAGE": 'NAME messaged NAME: "TEXT"',
    "ROUND_TABLE_SPEECH": 'NAME said: "TEXT"',
    "FINAL_ROUND_SPEECH": 'NAME said: "TEXT"',
    "ROUND_TABLE_VOTE": "NAME voted to eliminate NAME",
    "ELIMINATED_PLAYER": "NAME was BANISHED with N votes. NAME WAS [NOT ]a traitor",
    "FINAL_ROUND_ELIMINATION": "NAME was BANISHED with N votes. Their role remains hidden.",
    "MURDER_SUGGESTION": "NAME suggests murdering NAME: REASON",
    "MURDER_VOTE": "NAME votes to murder NAME: REASON",
    "MURDER_DECISION": "The traitors have decided to murder NAME",
    "MURDERED_PLAYER": "NAME was MURDERED by the traitors.",
    "FINAL_ROUND_ANNOUNCEMENT": "Final round! With N players remaining, the group must decide ...",
    "FINAL_ROUND_VOTE": "NAME votes to END_GAME|CONTINUE_PLAYING: REASON, or NAME voted to eliminate NAME",
    "FINAL_ROUND_CONTINUE": "The vote was not unanimous. N player(s) voted to end, N to continue. ...",
    "GAME_END": "... Faithfuls|Traitors win! ...",
}
"""What each plomp event type's text looks like, for the problem reported when no pattern matches."""


def name_pattern(players: list[str]) -> str:
    """The regex alternation of player names (longest first, so "Ann" never shadows "Anne")."""
    return "(?:" + "|".join(re.escape(p) for p in sorted(players, key=len, reverse=True)) + ")"


def _slots(pattern: str) -> str:
    """``{kw:SLOT}`` as a named group capturing a word (two words for a slot whose keywords have "_" in them)."""
    def slot(m: re.Match[str]) -> str:
        two = any("_" in k for k in KEYWORDS[m.group(1)])
        return (_SLOT if two else _ONE_WORD_SLOT).replace("\\1", m.group(1))
    return re.sub(r"\{kw:(\w+)\}", slot, pattern)


def compile_patterns(players: list[str]) -> dict[str, dict[str, re.Pattern[str]]]:
    """:data:`PATTERNS` compiled for one game's players (case-insensitive, DOTALL)."""
    alternation = name_pattern(players)
    return {
        etype: {shape: re.compile(_slots(p).replace("{name}", alternation), re.IGNORECASE | re.DOTALL)
                for shape, p in shapes.items()}
        for etype, shapes in PATTERNS.items()
    }


def slots_of(match: re.Match[str]) -> list[str]:
    """The keyword slots (keys of :data:`KEYWORDS`) a match of a compiled pattern captured."""
    return [name for name in match.re.groupindex if name in KEYWORDS and match.group(name) is not None]


def match_text(patterns: dict[str, dict[str, re.Pattern[str]]], etype: str, text: str) -> tuple[str, re.Match[str]] | None:
    """The first shape of ``etype`` whose pattern matches the whole text, as ``(shape, match)``, or None."""
    for shape, pattern in patterns.get(etype, {}).items():
        m = pattern.fullmatch(text)
        if m is not None:
            return shape, m
    return None


def _excerpt(text: str) -> str:
    """``text`` for a problem message: whitespace collapsed, cut to 120 characters, quoted (repr)."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 3] + "...")
