"""Reading an LLMafia game folder: its configuration, its chat files line by line, and the Game-Manager's messages.

Every chat file holds one message per line, ``[HH:MM:SS] Name: text``. A line that does not start so continues the
message before it (a message with a line break), which is reported as a reading. The Game-Manager's messages are
matched against :data:`MANAGER`, with their keywords (Daytime, Nighttime, a role, the winner) read tolerantly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.importers.base import ConversionBuilder, load_json
from graphmem.importers.keywords import read_keyword

MANAGER_NAME = "Game-Manager"
"""The speaker of the game's own messages."""
CHATS = {"manager": "public_manager_chat.txt", "day": "public_daytime_chat.txt", "night": "public_nighttime_chat.txt"}
"""The three public chat files, by who writes and sees them: the manager's announcements (everyone), the day talk
(every living player), the night talk (the mafia)."""

_LINE = re.compile(r"\[\s*(?P<h>\d{1,2}):(?P<m>\d{2}):(?P<s>\d{2})\s*\]\s*(?P<name>[^:\n]+?)\s*:\s?(?P<text>.*)",
                   re.DOTALL)
_WORD = r"[^\W\d_][\w-]*"

MANAGER: dict[str, re.Pattern[str]] = {
    "phase": re.compile(rf"Now it'?s (?P<phase>{_WORD}) for (?P<minutes>[\d.]+) minutes?\b.*", re.IGNORECASE | re.DOTALL),
    "vote_call": re.compile(rf"(?P<phase>{_WORD}) has ended,? now it'?s time to vote!?.*", re.IGNORECASE | re.DOTALL),
    "voted_out": re.compile(rf"(?P<player>.+?) was voted out\.? Their role was (?P<role>{_WORD})\.?", re.IGNORECASE),
    "vote": re.compile(r"(?P<voter>.+?) voted for (?P<target>.+?)\.?", re.IGNORECASE),
    "last_mafia": re.compile(r"There is only one mafia member left\b.*", re.IGNORECASE | re.DOTALL),
}
"""The Game-Manager's messages, by kind (each must match the whole message)."""
SHAPES = {
    "phase": "Now it's Daytime|Nighttime for N minutes, ...",
    "vote_call": "Daytime|Nighttime has ended, now it's time to vote! ...",
    "voted_out": "NAME was voted out. Their role was bystander|mafia",
    "vote": "NAME voted for NAME",
    "last_mafia": "There is only one mafia member left, ...",
}
"""What each manager message looks like, for the problem reported when none matches."""
PHASES = ("Daytime", "Nighttime")
ROLES = ("bystander", "mafia")
WINNERS = {"Mafia": "mafia", "Bystanders": "bystanders"}
"""The winner as ``who_wins.txt`` writes it ("Mafia wins!") and as the canonical ``end`` names it."""


@dataclass(frozen=True)
class Message:
    """One chat line: ``chat`` ("manager", "day", "night"), ``line`` (1-based, in its file), ``seconds`` since
    midnight, ``clock`` (HH:MM:SS as written), ``speaker`` (a player, or :data:`MANAGER_NAME`), ``text``, and the
    ``readings`` made on the way, (where, read, taken as), reported as guesses when the message is converted."""

    chat: str
    line: int
    seconds: int
    clock: str
    speaker: str
    text: str
    readings: tuple[tuple[str, str, str], ...] = ()

    @property
    def where(self) -> str:
        """The position in the source: "public_daytime_chat.txt:47"."""
        return f"{CHATS[self.chat]}:{self.line}"


def read(folder: Path) -> dict[str, Any]:
    """config.json of a game folder. Raises InvalidGameLog when it is unreadable or not an object."""
    path = folder / "config.json"
    data = load_json(path, str(path))
    if not isinstance(data, dict):
        raise InvalidGameLog(str(path), [LogProblem(0, "", "expected a JSON object")])
    return data


def read_lines(folder: Path, name: str) -> list[str]:
    """The lines of a text file of the game (an absent file has none). Raises InvalidGameLog for a file that is
    not UTF-8."""
    path = folder / name
    if not path.is_file():
        return []
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise InvalidGameLog(str(path), [LogProblem(line, "", f"not valid UTF-8: byte 0x{raw[e.start]:02x}")]) from None
    return text.replace("\r\n", "\n").split("\n")


def read_chat(folder: Path, chat: str, speakers: list[str], out: ConversionBuilder) -> list[Message]:
    """The messages of one chat file, speakers read tolerantly against ``speakers`` (the players and the
    Game-Manager). A line that is no message continues the one before (a reading); a line that cannot be read
    (no message before it, an unknown speaker) is a problem of ``out`` and is left out."""
    messages: list[Message] = []
    name = CHATS[chat]
    for number, raw in enumerate(read_lines(folder, name), start=1):
        if not raw.strip():
            continue
        m = _LINE.fullmatch(raw.strip())
        if m is None:
            if messages:
                last = messages[-1]
                continued = (f"{name}:{number}", raw.strip()[:80], f"the rest of the message on line {last.line}")
                messages[-1] = Message(last.chat, last.line, last.seconds, last.clock, last.speaker,
                                       f"{last.text}\n{raw.strip()}", (*last.readings, continued))
                continue
            out.problem(f"{name}:{number}", f"not a chat line: expected [HH:MM:SS] NAME: TEXT, got {raw.strip()[:80]!r}")
            continue
        reading = read_keyword(m["name"], speakers)
        if reading.keyword is None:
            out.problem(f"{name}:{number}", f"cannot read the speaker: {reading.reason}")
            continue
        readings = ((f"{name}:{number}", m["name"], reading.keyword),) if reading.guessed else ()
        seconds = int(m["h"]) * 3600 + int(m["m"]) * 60 + int(m["s"])
        clock = f"{int(m['h']):02d}:{m['m']}:{m['s']}"
        messages.append(Message(chat, number, seconds, clock, reading.keyword, m["text"].strip(), readings))
    return messages


def manager_kind(message: Message) -> tuple[str, re.Match[str]] | None:
    """The kind of a Game-Manager message (a key of :data:`MANAGER`) and its match, or None."""
    for kind, pattern in MANAGER.items():
        m = pattern.fullmatch(message.text)
        if m is not None:
            return kind, m
    return None
