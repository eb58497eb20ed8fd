"""One Avalon-NLU game as canonical objects: the walk over its tables (the mapping is the package docstring).

:class:`NluGame` reads the players and what each was shown at the start, every message row (a chat line or a line
of the game server), the stated beliefs and the persuasion labels; places each belief among the messages
(:func:`belief_places`); then emits, message by message, the phases of docs/log-format.md#avalon-nlu and the events,
each belief where it was placed, and the end last. Every value it reads is checked; a keyword or a player name is
read tolerantly (:meth:`ConversionBuilder.keyword`); a row that cannot be read is reported with its table and row
and left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.claims.extract import ClaimExtractor
from graphmem.errors import Guess, LogProblem
from graphmem.importers.avalon_llm.game import SIDES, WINNERS
from graphmem.importers.avalon_nlu.source import rows
from graphmem.importers.base import ConversionBuilder, Unconvertible
from graphmem.importers.keywords import read_keyword
from graphmem.logs.ballots import BallotRounds
from graphmem.logs.schema import FORMAT, has_visible_text

NAME = "avalon-nlu"
SOURCE_REPOSITORY = "sstepput/Avalon-NLU"
LICENCE = "MIT"
GAME_PREFIX = "avalon-nlu-"
"""The game id is this prefix and the file's name without ``.json`` (``avalon-nlu-1aKReQ``)."""

ROLES: dict[str, str] = {
    "merlin": "Merlin", "percival": "Percival", "morgana": "Morgana", "assassin": "assassin",
    "servant": "loyal servant", "minion": "minion",
}
"""The source's role words (``servant-1`` and ``servant-2`` read as ``servant``: the number only tells the two
servants' cards apart) and the canonical role of each, as the ``avalon-llm`` importer names them."""
EVIL_ROLES = ("assassin", "Morgana", "minion")
"""The canonical roles of the evil side (the header's ``traitor_roles``: those of them some player holds)."""
BELIEFS = ("merlin", "percival", "servant", "good", "morgana", "assassin", "minion", "evil", "undecided")
"""The drop-down's words, each the canonical ``belief`` as the source writes it (lower case): an analysis reads the
dataset's own values (issue 39), and the memory's wording names the role as the game does ("player-5 is Merlin",
:func:`graphmem.ingest.texts.belief_phrase`). A word not among them is kept, in lower case (a belief is open
text), and reported."""
VOTES = {"yes": "approve", "no": "reject"}
"""A party vote's words and the canonical team-vote choice of each."""

EVIL_SEES_EVIL = ("assassin", "Morgana", "minion")
"""Roles shown every other evil player as "evil" at the start (the source server: evil knows each other)."""


@dataclass(frozen=True)
class Line:
    """One row of the ``messages`` table: its row number, where the server put it (``quest``, ``turn``), who wrote
    it (a player name, or None for the server's own lines), its text and message id."""

    row: int
    quest: int
    turn: int
    speaker: str | None
    text: str
    mid: str | None
    guesses: tuple[Guess, ...] = ()
    """What reading the row guessed (a player's name), reported with the row's events."""


@dataclass(frozen=True)
class Belief:
    """One row of the ``beliefs`` table: ``player`` set ``belief`` about ``about`` at ``quest``/``turn``."""

    row: int
    player: str
    about: str
    belief: str
    quest: int
    turn: int
    guesses: tuple[Guess, ...] = ()
    """What reading the row guessed (a name, the belief's word), reported with the belief event."""


@dataclass
class Places:
    """Where the beliefs go among the message rows (:func:`belief_places`): ``before[i]`` the beliefs emitted just
    before the events of the i-th message (after a phase it opens), ``after[i]`` just after them, ``end`` after the
    last message; each list in the table's order."""

    before: dict[int, list[Belief]] = field(default_factory=dict)
    after: dict[int, list[Belief]] = field(default_factory=dict)
    end: list[Belief] = field(default_factory=list)


def belief_places(lines: Sequence[Line], beliefs: Sequence[Belief]) -> Places:
    """The pre-registered placement of each belief (docs/log-format.md#avalon-nlu): a belief set at (quest q, turn
    t) goes right after the last message line of quest q whose turn is <= t (the end of that turn: the evidence the
    player could have seen), before any later line; with no such line it goes at the start of quest q's lines (and
    with no line of quest q at all, where quest q's lines would start: before the first line of a later quest, else
    after the last line). Beliefs of one place keep the table's order (``beliefs`` are given in it)."""
    places = Places()
    for belief in beliefs:
        same = [i for i, line in enumerate(lines) if line.quest == belief.quest]
        within = [i for i in same if lines[i].turn <= belief.turn]
        later = [i for i, line in enumerate(lines) if line.quest > belief.quest]
        if within:
            places.after.setdefault(within[-1], []).append(belief)
        elif same:
            places.before.setdefault(same[0], []).append(belief)
        elif later:
            places.before.setdefault(later[0], []).append(belief)
        else:
            places.end.append(belief)
    return places


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_SPACES = re.compile(r"\s+")
_TRAILING_STOPS = re.compile(r"(?<=!)\.+$")
_PROPOSAL = re.compile(r"^(?P<leader>.+?) proposed a party: (?P<team>.+)$")
_AUTOMATIC = re.compile(r"^automatic party proposal: (?P<team>.+)$")
_PARTY_VOTE = re.compile(r"^party vote outcome: (?P<votes>.+)$")
_ONE_VOTE = re.compile(r"^(?P<name>[^:]+):\s*(?P<choice>\S+)$")
_QUEST = re.compile(r"^quest (?P<result>succeeded|failed)(?:\s*\(?(?:with\s+)?(?P<fails>\d+) fail(?:s| cards?)?\)?)?!$")
_FIXED = {
    "game started!": "start",
    "vote succeeded! initiating quest vote!": "party passed",
    "vote failed!": "party failed",
    "good won for now, but the assassin...": "assassin's turn",
    "the assassin identified merlin, thus evil wins!": "merlin found",
    "the assassin didn't find merlin, thus the forces of good win!": "merlin not found",
    "the assassin dind't find merlin, thus the forces of good win!": "merlin not found",  # the server's own spelling
    "evil has failed three quests and wins!": "three quests failed",
}
"""The game server's fixed lines (lower-cased, as the corpus writes them) and what each is."""


class NluGame:
    """The conversion of one game file (see the package docstring). ``run()`` returns the builder."""

    def __init__(self, data: dict[str, Any], path: Path) -> None:
        self.data = data
        self.path = path
        self.out = ConversionBuilder()
        self.players: list[str] = []
        self.roles: dict[str, str] = {}
        self.claims = ClaimExtractor([])
        self.mention: re.Pattern[str] | None = None
        self.ballots = BallotRounds()
        # the walk's state
        self.day = 0
        self.phase_name: str | None = None
        self.phase_counts: dict[tuple[int, str], int] = {}
        self.next_phase: str | None = "team"
        self.team: list[str] | None = None
        self.leader: str | None = None
        self.tally: dict[str, int] | None = None
        self.quest_team: list[str] | None = None
        self.end: tuple[dict[str, Any], str] | None = None
        self.ended_at: int | None = None

    # -- the game -------------------------------------------------------------------------------------------------

    def run(self) -> ConversionBuilder:
        """Convert the whole game: header, what each player was shown, the messages with the beliefs among them,
        the end."""
        self.out.emit(self.header(), "users")
        for i, player in enumerate(self.players):
            self.out.part(self.knowledge, i, player)
        labels = self.labels()
        lines = [line for key, record in rows(self.data["messages"])
                 if (line := self.out.part(self.line, key, record)) is not None]
        beliefs = [belief for key, record in rows(self.data.get("beliefs") or {})
                   if (belief := self.out.part(self.belief_row, key, record)) is not None]
        if "beliefs" not in self.data:
            self.out.note("beliefs", "(no beliefs table)", "no player set a belief in this game: none imported")
        said = {line.mid for line in lines if line.speaker is not None}
        for mid in labels:
            if mid not in said:
                self.out.note("persuasion", mid, "a label of no chat message: left out")
        places = belief_places(lines, beliefs)
        reordered = self.reordered(places, lines, beliefs)

        def emit_belief(belief: Belief) -> None:
            self.emitting(belief.guesses + reordered.get(belief.row, ()), self.belief, belief)

        for i, line in enumerate(lines):
            kind = self.out.part(self.kind_of, line)
            if kind is not None:
                self.out.part(self.open_phase, line, kind)
            for belief in places.before.get(i, []):
                emit_belief(belief)
            if kind is not None:
                self.emitting(line.guesses, self.message, line, kind, labels)
            for belief in places.after.get(i, []):
                emit_belief(belief)
        for belief in places.end:
            emit_belief(belief)
        if self.end is not None:
            self.out.emit(*self.end)
        else:
            self.out.note("messages", "(no line ends the game)", "the game has no end event")
        return self.out

    def emitting(self, guesses: tuple[Guess, ...], convert: Any, *args: Any) -> None:
        """``convert(*args)`` as one part of the source, with the guesses made when its row was read: on its first
        event, or, when it emits nothing (a line after the end, "game started!"), noted on no line."""
        self.out.restore(guesses)
        self.out.part(convert, *args)
        for guess in self.out.hold():
            self.out.note(guess.where, guess.read, guess.taken_as)

    def header(self) -> dict[str, Any]:
        users = [(key, record) for key, record in rows(self.data["users"])]
        if not users:
            raise Unconvertible(LogProblem(0, "users", "no players"))
        specs: list[tuple[int, str, str, str]] = []
        for key, record in users:
            where = f"users[{key}]"
            if not isinstance(record, dict):
                raise Unconvertible(LogProblem(0, where, f"expected a JSON object, got {record!r:.60}"))
            name, role, index = record.get("name"), record.get("role"), record.get("index")
            if not isinstance(name, str) or not name.strip():
                raise Unconvertible(LogProblem(0, f"{where}.name", f"expected a player name, got {name!r:.60}"))
            if not isinstance(role, str):
                raise Unconvertible(LogProblem(0, f"{where}.role", f"expected a role, got {role!r:.60}"))
            if not isinstance(index, int) or isinstance(index, bool):
                raise Unconvertible(LogProblem(0, f"{where}.index", f"expected a seat number, got {index!r:.60}"))
            word = re.sub(r"-\d+$", "", role.strip())  # servant-1, servant-2: the same role
            specs.append((index, name.strip(), self.out.keyword(word, list(ROLES), f"{where}.role", "a role"), role))
        specs.sort()
        self.players = [name for _, name, _, _ in specs]
        self.roles = {name: ROLES[word] for _, name, word, _ in specs}
        roles = list(dict.fromkeys(self.roles.values()))
        self.claims = ClaimExtractor(self.players, roles, tuple(SIDES.values()))
        alternation = "|".join(re.escape(p) for p in sorted(self.players, key=len, reverse=True))
        self.mention = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)
        game_id = GAME_PREFIX + self.path.stem
        evil = sum(1 for r in self.roles.values() if r in EVIL_ROLES)
        return {
            "kind": "game", "format": FORMAT, "game": game_id,
            "title": f"Avalon played by people (Avalon-NLU), game {self.path.stem} ({len(self.players)} players, "
                     f"{evil} evil)",
            "players": [{"name": p, "role": self.roles[p]} for p in self.players],
            "traitor_roles": [r for r in EVIL_ROLES if r in roles],
            "side_names": dict(SIDES),
            "source": f"{SOURCE_REPOSITORY} (dataset/{self.path.name})",
            "licence": f"{LICENCE} ({SOURCE_REPOSITORY})",
            "imported_from": NAME,
            "metadata": {"source_file": self.path.name,
                         "source_roles": {name: source for _, name, _, source in specs}},
        }

    def knowledge(self, i: int, player: str) -> None:
        """Each player's own role, and what the source server showed them at the start: every evil player sees the
        other evil players as "evil", Merlin sees every evil player as "evil", Percival sees Merlin and Morgana
        without knowing which is which (an ``observe``, as the ``avalon-llm`` importer writes it)."""
        role = self.roles[player]
        self.out.emit({"kind": "reveal", "id": f"u{i + 1}-role", "player": player, "role": role,
                       "witnesses": [player]}, f"users[{i + 1}].role")
        if role in EVIL_SEES_EVIL or role == "Merlin":
            shown = [p for p in self.players if p != player and self.roles[p] in EVIL_ROLES]
            for j, other in enumerate(shown):
                self.out.emit({"kind": "reveal", "id": f"u{i + 1}-sees-{j + 1}", "player": other,
                               "role": SIDES["traitor"], "witnesses": [player]}, f"users[{i + 1}].role")
        elif role == "Percival":
            shown = [p for p in self.players if self.roles[p] in ("Merlin", "Morgana")]
            if len(shown) == 2:
                self.out.emit({"kind": "observe", "id": f"u{i + 1}-sees", "observers": [player], "about": shown,
                               "text": f"At the start you were shown {_listing(shown)}: one of them is Merlin, the "
                                       "other Morgana, and you do not know which."}, f"users[{i + 1}].role")
            elif shown:
                self.out.emit({"kind": "reveal", "id": f"u{i + 1}-sees-1", "player": shown[0],
                               "role": self.roles[shown[0]], "witnesses": [player]}, f"users[{i + 1}].role")

    # -- reading the tables ---------------------------------------------------------------------------------------

    def name(self, value: Any, where: str) -> str:
        """A player name, read tolerantly against the game's players."""
        if not isinstance(value, str):
            raise Unconvertible(LogProblem(0, where, f"expected a player name, got {value!r:.60}"))
        return self.out.keyword(value.strip(), self.players, where, "a player name")

    @staticmethod
    def number(record: dict[str, Any], key: str, where: str) -> int:
        value = record.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise Unconvertible(LogProblem(0, f"{where}.{key}", f"expected an integer, got {value!r:.60}"))
        return value

    @staticmethod
    def row_number(key: str, where: str) -> int:
        if not key.isdigit():
            raise Unconvertible(LogProblem(0, where, f"the key {key!r} is not a row number"))
        return int(key)

    def line(self, key: str, record: Any) -> Line:
        """One message row, checked."""
        where = f"messages[{key}]"
        row = self.row_number(key, where)
        if not isinstance(record, dict):
            raise Unconvertible(LogProblem(0, where, f"expected a JSON object, got {record!r:.60}"))
        text = record.get("msg")
        if not isinstance(text, str):
            raise Unconvertible(LogProblem(0, f"{where}.msg", f"expected a string, got {text!r:.60}"))
        player = record.get("player")
        if not isinstance(player, str):
            raise Unconvertible(LogProblem(0, f"{where}.player", f"expected a player name or 'system', "
                                                                 f"got {player!r:.60}"))
        speaker = None if player.strip().casefold() == "system" else self.name(player, f"{where}.player")
        mid = record.get("mid")
        return Line(row, self.number(record, "quest", where), self.number(record, "turn", where), speaker, text,
                    mid if isinstance(mid, str) and mid != "none" else None, self.out.hold())

    def belief_row(self, key: str, record: Any) -> Belief | None:
        """One belief row, checked; None (noted) for a belief of a player about themselves."""
        where = f"beliefs[{key}]"
        row = self.row_number(key, where)
        if not isinstance(record, dict):
            raise Unconvertible(LogProblem(0, where, f"expected a JSON object, got {record!r:.60}"))
        player = self.name(record.get("player"), f"{where}.player")
        about = self.name(record.get("about_player"), f"{where}.about_player")
        word = record.get("belief")
        if not isinstance(word, str) or not has_visible_text(word):
            raise Unconvertible(LogProblem(0, f"{where}.belief", f"expected a role or side, got {word!r:.60}"))
        quest, turn = self.number(record, "quest", where), self.number(record, "turn", where)
        if player == about:
            self.out.drop_guesses()
            self.out.note(where, f"{player} about {about}: {word!r} at quest {quest}, turn {turn}",
                          "a belief about oneself (the drop-down marks another player): left out")
            return None
        reading = read_keyword(word.strip(), list(BELIEFS))
        if reading.keyword is None:
            belief = _SPACES.sub(" ", word.strip()).lower()
            self.out.guess(f"{where}.belief", word, f"{belief!r}, kept as written in lower case (not a word of "
                                                    f"the drop-down)")
        else:
            belief = reading.keyword
            if reading.guessed:
                self.out.guess(f"{where}.belief", word, reading.keyword)
        return Belief(row, player, about, belief, quest, turn, self.out.hold())

    def labels(self) -> dict[str, dict[str, str | None]]:
        """``{message id: {"persuasion": ..., "deception": ...}}`` from the ``persuasion`` table; a row repeating an
        earlier one of the same message is noted and left out (a different one too: the first row stands)."""
        found: dict[str, tuple[str, dict[str, str | None]]] = {}
        for key, record in rows(self.data.get("persuasion") or {}):
            where = f"persuasion[{key}]"
            if not isinstance(record, dict) or not isinstance(record.get("mid"), str):
                self.out.problem(where, f"expected an object with a message id (mid), got {record!r:.60}")
                continue
            label: dict[str, str | None] = {}
            for name in ("persuasion", "deception"):
                value = record.get(name)
                if value is not None and not isinstance(value, str):
                    self.out.problem(f"{where}.{name}", f"expected a string or null, got {value!r:.60}")
                    value = None
                label[name] = value
            mid = record["mid"]
            if mid in found:
                first, kept = found[mid]
                same = "repeats" if kept == label else "differs from"
                self.out.note(where, f"{mid}: {label}", f"{same} {first} for the same message: {first} kept")
                continue
            found[mid] = (where, label)
        return {mid: label for mid, (_, label) in found.items()}

    @staticmethod
    def reordered(places: Places, lines: Sequence[Line], beliefs: Sequence[Belief]) -> dict[int, tuple[Guess, ...]]:
        """The guess of every belief the placement puts before a belief that comes earlier in the table (the table
        is in the order the beliefs were set), by the belief's row: the table's turn counter starts again at each
        party proposal after a rejected one (the source server resets it then), while the messages' turns run on
        through the quest. Each goes on its belief's canonical line, when the belief is emitted."""
        found: dict[int, tuple[Guess, ...]] = {}
        position: dict[int, float] = {}
        for i in range(len(lines)):
            for k, belief in enumerate(places.before.get(i, [])):
                position[belief.row] = i - 0.5 + k * 1e-4
            for k, belief in enumerate(places.after.get(i, [])):
                position[belief.row] = i + 0.5 + k * 1e-4
        for k, belief in enumerate(places.end):
            position[belief.row] = len(lines) + k * 1e-4
        latest: Belief | None = None
        for belief in beliefs:
            if latest is not None and position[belief.row] < position[latest.row]:
                found[belief.row] = (Guess(f"beliefs[{belief.row}]",
                                           f"quest {belief.quest}, turn {belief.turn}, after beliefs[{latest.row}] "
                                           f"(quest {latest.quest}, turn {latest.turn}) in the table",
                                           "placed before it by the turn rule (the beliefs' turn counter restarts at "
                                           "each party proposal, the messages' does not)"),)
            if latest is None or position[belief.row] >= position[latest.row]:
                latest = belief
        return found

    # -- the walk -------------------------------------------------------------------------------------------------

    def kind_of(self, line: Line) -> str:
        """"chat" for a player's line; for a server line one of :data:`_FIXED`'s kinds, "proposal", "party vote" or
        "quest". Raises Unconvertible for a server line of no known wording."""
        if line.speaker is not None:
            return "chat"
        text = self._normal(line)
        if text in _FIXED:
            return _FIXED[text]
        if _PROPOSAL.match(text) or _AUTOMATIC.match(text):
            return "proposal"
        if _PARTY_VOTE.match(text):
            return "party vote"
        if _QUEST.match(text):
            return "quest"
        raise Unconvertible(LogProblem(0, f"messages[{line.row}].msg", f"a line of the game server of no known "
                                                                       f"wording: {line.text!r:.80}"))

    @staticmethod
    def _normal(line: Line) -> str:
        """A server line as its patterns read it: spaces collapsed, lower case, a full stop after the closing "!"
        left out (the corpus has one: "... thus evil wins!.")."""
        return _TRAILING_STOPS.sub("", _SPACES.sub(" ", line.text.strip()).casefold())

    def open_phase(self, line: Line, kind: str) -> None:
        """Open the phase a message line begins, if it begins one (docs/log-format.md#avalon-nlu): a ``team`` phase
        at the first line after a party vote's result, a quest's result or the start of the game; a ``quest`` phase
        after "vote succeeded! initiating quest vote!"; an ``assassination`` phase at the assassination lines. The
        day is the line's quest."""
        if self.ended_at is not None:
            return
        if kind in ("assassin's turn", "merlin found", "merlin not found"):
            if self.phase_name != "assassination":
                self.phase(line.quest, "assassination", line)
            self.next_phase = None
        elif kind == "three quests failed":
            self.next_phase = None
        elif self.next_phase is not None:
            self.phase(line.quest, self.next_phase, line)
            self.next_phase = None
        elif line.quest != self.day:
            assert self.phase_name is not None
            self.out.guess(f"messages[{line.row}].quest", str(line.quest),
                           f"a new {self.phase_name} phase of day {line.quest} (the quest changed within a phase)")
            self.phase(line.quest, self.phase_name, line)

    def phase(self, day: int, name: str, line: Line) -> None:
        count = self.phase_counts.get((day, name), 0) + 1
        self.phase_counts[day, name] = count
        phase_id = f"q{day}-{name}{count}" if name == "team" else f"q{day}-{name}" + (f"-{count}" if count > 1 else "")
        self.out.emit({"kind": "phase", "id": phase_id, "day": day, "name": name}, f"messages[{line.row}]")
        self.day, self.phase_name = day, name

    def message(self, line: Line, kind: str, labels: dict[str, dict[str, str | None]]) -> None:
        """The events of one message line of ``kind`` (:meth:`kind_of`: a chat line, or one of the server's)."""
        where = f"messages[{line.row}]"
        if self.ended_at is not None:
            self.out.note(where, line.text, f"after the game's end (messages[{self.ended_at}]): left out")
            return
        if kind == "chat":
            self.say(line, labels.get(line.mid) if line.mid is not None else None)
            return
        stripped = self._normal(line)
        if stripped != _SPACES.sub(" ", line.text.strip()).casefold():
            self.out.guess(f"{where}.msg", line.text, f"{stripped!r} (a full stop after the closing '!')")
        if kind == "proposal":
            self.proposal(line)
        elif kind == "party vote":
            self.party_vote(line)
        elif kind in ("party passed", "party failed"):
            self.party_result(line, kind == "party passed")
        elif kind == "quest":
            self.quest_result(line)
        elif kind == "assassin's turn":
            self.out.emit({"kind": "outcome", "id": f"m{line.row}", "ballot": "assassinate",
                           "what": "Good won for now, but the assassin may still name Merlin."}, where)
        elif kind in ("merlin found", "merlin not found"):
            found = kind == "merlin found"
            what = "The assassin identified Merlin: evil wins." if found else \
                "The assassin did not find Merlin: the forces of good win."
            self.out.emit({"kind": "outcome", "id": f"m{line.row}", "ballot": "assassinate",
                           "result": "right" if found else "wrong", "what": what}, where)
            why = "The assassin identified Merlin." if found else \
                "Three quests succeeded and the assassin did not find Merlin."
            self.finish(line, {"kind": "end", "id": f"m{line.row}-end",
                               "winner": WINNERS["evil" if found else "good"], "text": why})
        elif kind == "three quests failed":
            self.finish(line, {"kind": "end", "id": f"m{line.row}", "winner": WINNERS["evil"],
                               "text": "Three quests failed."})
        # "start": the game begins; nothing to remember

    def finish(self, line: Line, end: dict[str, Any]) -> None:
        """The game's end: emitted after every other event (beliefs placed after this line come before it)."""
        self.end = (end, f"messages[{line.row}]")
        self.ended_at = line.row

    def say(self, line: Line, label: dict[str, str | None] | None) -> None:
        """A chat line: a public statement of its writer, seen by everyone; its persuasion label kept as the
        event's ``annotations`` (never perceived)."""
        where = f"messages[{line.row}]"
        assert line.speaker is not None and self.mention is not None
        if not has_visible_text(line.text):
            self.out.note(f"{where}.msg", line.text, "an empty chat line: nothing said, left out")
            return
        text = line.text.strip()
        named = {m.group(0).casefold() for m in self.mention.finditer(text)}
        event: dict[str, Any] = {"kind": "say", "id": f"m{line.row}", "speaker": line.speaker, "to": "all",
                                 "channel": "public", "text": text}
        about = [p for p in self.players if p.casefold() in named and p != line.speaker]
        if about:
            event["about"] = about
        rounds = self.ballots.at(self.day)
        event["claims"] = [c.model_dump(exclude_none=True)
                           for c in self.claims.extract(text, line.speaker, rounds=rounds)]
        if label is not None:
            event["annotations"] = dict(label)
        self.out.emit(event, where)

    def proposal(self, line: Line) -> None:
        where = f"messages[{line.row}]"
        text = self._normal(line)
        match = _PROPOSAL.match(text)
        if match is None:  # "automatic party proposal: ...": the server chose for a leader it does not name
            raise Unconvertible(LogProblem(0, f"{where}.msg", f"a proposal without its leader: {line.text!r:.80}"))
        leader = self.name(match.group("leader"), f"{where}.msg")
        team = [self.name(n, f"{where}.msg") for n in match.group("team").split(",")]
        twice = sorted({n for n in team if team.count(n) > 1})
        if twice:
            raise Unconvertible(LogProblem(0, f"{where}.msg", f"the party names {', '.join(twice)} twice"))
        self.out.emit({"kind": "propose", "id": f"m{line.row}", "leader": leader, "team": team, "claims": []}, where)
        self.leader, self.team = leader, team

    def party_vote(self, line: Line) -> None:
        """"party vote outcome: player-1: yes, ...": each player's vote, public (the line shows every vote)."""
        where = f"messages[{line.row}]"
        match = _PARTY_VOTE.match(self._normal(line))
        assert match is not None
        counts = {"approve": 0, "reject": 0}
        voted: list[str] = []
        for entry in match.group("votes").split(","):
            one = _ONE_VOTE.match(entry.strip())
            if one is None:
                raise Unconvertible(LogProblem(0, f"{where}.msg", f"cannot read the vote {entry.strip()!r:.40}"))
            voter = self.name(one.group("name"), f"{where}.msg")
            if voter in voted:
                raise Unconvertible(LogProblem(0, f"{where}.msg", f"{voter} votes twice"))
            choice = VOTES[self.out.keyword(one.group("choice").rstrip("."), list(VOTES), f"{where}.msg",
                                            "a party vote")]
            voted.append(voter)
            counts[choice] += 1
            self.out.emit({"kind": "vote", "id": f"m{line.row}-{voter}", "voter": voter, "ballot": "team",
                           "choice": choice, "claims": []}, where)
        missing = [p for p in self.players if p not in voted]
        if missing:
            self.out.note(where, line.text, f"no vote of {_listing(missing)}")
        self.tally = counts

    def party_result(self, line: Line, passed: bool) -> None:
        """"vote succeeded! initiating quest vote!" / "vote failed!": the outcome of the party vote (its tally from
        the vote line before it). A passed party opens the quest phase."""
        where = f"messages[{line.row}]"
        result = "approved" if passed else "rejected"
        team, leader, tally = self.team, self.leader, self.tally
        if tally is not None and passed != (tally["approve"] > tally["reject"]):
            self.out.note(where, line.text, f"the votes were {tally['approve']} to {tally['reject']}")
        party = f"{leader}'s party ({', '.join(team)})" if team is not None and leader is not None else "The party"
        what = f"{party} was {result}" + (f", {_plural(tally['approve'], 'vote')} to {tally['reject']}."
                                          if tally is not None else ".")
        event: dict[str, Any] = {"kind": "outcome", "id": f"m{line.row}", "ballot": "team", "what": what,
                                 "result": result}
        if tally is not None:
            event["counts"] = dict(tally)
        if team is not None:
            event["about"] = list(team)
        self.out.emit(event, where)
        self.quest_team = team if passed else None
        self.team, self.leader, self.tally = None, None, None
        self.next_phase = "quest" if passed else "team"

    def quest_result(self, line: Line) -> None:
        """"quest succeeded!" / "quest failed!": the quest's result, about the party that went (the number of fail
        cards when the line gives it; the corpus's lines never do)."""
        where = f"messages[{line.row}]"
        match = _QUEST.match(self._normal(line))
        assert match is not None
        success = match.group("result") == "succeeded"
        fails = int(match.group("fails")) if match.group("fails") is not None else None
        team = self.quest_team
        party = f" ({', '.join(team)})" if team is not None else ""
        what = f"Quest {line.quest}{party} {'succeeded' if success else 'failed'}"
        if fails is not None:
            what += f" with {_plural(fails, 'fail card')}" if fails else " with no fail card"
        event: dict[str, Any] = {"kind": "outcome", "id": f"m{line.row}", "ballot": "quest", "what": what + ".",
                                 "result": "success" if success else "fail"}
        if fails is not None and team is not None:
            event["counts"] = {"fail": fails, "success": len(team) - fails}
        if team is not None:
            event["about"] = list(team)
        else:
            self.out.note(where, line.text, "no party was approved before this result: the quest's party is unknown")
        self.out.emit(event, where)
        self.quest_team = None
        self.next_phase = "team"

    def belief(self, belief: Belief) -> None:
        """A stated belief: the believer's own conclusion, perceived by them alone."""
        where = f"beliefs[{belief.row}]"
        if belief.turn < 0:
            self.out.guess(f"{where}.turn", str(belief.turn), f"before quest {belief.quest}'s first turn (placed at "
                                                                f"the start of the quest's lines)")
        self.out.emit({"kind": "belief", "id": f"b{belief.row}", "player": belief.player, "about": belief.about,
                       "belief": belief.belief}, where)
