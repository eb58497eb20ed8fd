"""One LLMafia game folder as canonical objects: the game's days and nights rebuilt from the manager's messages and
the timestamps, and every chat line placed in them.

1. The Game-Manager's chat gives the phases: "Now it's Daytime" opens a day (day 1, 2, ...), "Now it's Nighttime"
   the night of that day, "X was voted out. Their role was R" closes the current one (a banishment by day, the
   mafia's kill by night). A second "Now it's Daytime" while a day is open (the game restarted: 0014, 0015) is the
   same day going on: a new phase of that day, reported as a reading.
2. Each day-chat line goes to the first day still open at its time (its end, the elimination, not before it), each
   night-chat line to the first such night: a line stamped in the very second a day ends belongs to that day, and a
   late-written line stamped earlier (the LLM's messages) falls in place. Within a day or night, lines are in time
   order, the file's order for lines of the same second.
3. A line repeated with the same time, speaker and text (the restarted games wrote their chat again) is left out
   and reported; so are the vote lines a restart replayed for players already voted out, for players already voted
   out, and a voter's vote repeated for the same target in one round.
4. "Daytime has ended, now it's time to vote!" opens the day's vote phase; each "X voted for Y" is a vote (banish
   by day, murder by night). The night stays one phase (talk, then the mafia's votes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.claims.extract import ClaimExtractor
from graphmem.errors import LogProblem
from graphmem.importers.base import ConversionBuilder, Unconvertible
from graphmem.importers.keywords import read_keyword
from graphmem.importers.llmafia.source import (
    MANAGER_NAME,
    PHASES,
    ROLES,
    SHAPES,
    WINNERS,
    Message,
    manager_kind,
    read_chat,
    read_lines,
)
from graphmem.logs.ballots import BallotRounds
from graphmem.logs.schema import FORMAT, has_visible_text

NAME = "llmafia"
SOURCE_REPOSITORY = "niveck/LLMafia"
LICENCE = "MIT"
SIDES = {"traitor": "mafia", "faithful": "bystander"}
"""The header's ``side_names``: the game's own words for the two sides, which are also its two roles."""


@dataclass
class Segment:
    """A day or a night: ``kind`` ("day" or "night"), ``day`` (its number), the manager message that opened it and
    those that restarted it, its notes, the message that closed it (an elimination) and the chat lines placed in
    it."""

    kind: str
    day: int
    opened: Message
    restarts: list[Message] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    closed: Message | None = None
    lines: list[Message] = field(default_factory=list)

    @property
    def end(self) -> float:
        """When it closed (seconds since midnight), or infinity while open."""
        return self.closed.seconds if self.closed is not None else float("inf")


class MafiaGame:
    """The conversion of one game folder (see the module docstring). ``run()`` returns the builder."""

    def __init__(self, folder: Path, config: dict[str, Any]) -> None:
        self.folder = folder
        self.config = config
        self.out = ConversionBuilder()
        self.players: list[str] = []
        self.mafia: set[str] = set()
        self.alive: list[str] = []
        self.claims = ClaimExtractor([])
        self.ballots = BallotRounds()
        self.mention: re.Pattern[str] | None = None
        self.game_id = f"llmafia-{folder.resolve().name}"

    # -- the header -----------------------------------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        config = self.config
        specs = config.get("players")
        if not isinstance(specs, list) or not specs:
            raise Unconvertible(LogProblem(0, "config.json: players", "missing or not a non-empty list"))
        llm: dict[str, Any] = {}
        for i, spec in enumerate(specs):
            where = f"config.json: players[{i}]"
            if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"].strip():
                raise Unconvertible(LogProblem(0, where, "expected an object with a name"))
            name = spec["name"].strip()
            if not isinstance(spec.get("is_mafia"), bool):
                raise Unconvertible(LogProblem(0, f"{where}.is_mafia", "missing or not true/false"))
            self.players.append(name)
            if spec["is_mafia"]:
                self.mafia.add(name)
            if spec.get("is_llm") is True:
                settings = spec.get("llm_config")
                model = settings.get("model_name") if isinstance(settings, dict) else None
                llm[name] = model if isinstance(model, str) else "an LLM"
        self.alive = list(self.players)
        self.check_list("mafia_names.txt", sorted(self.mafia))
        self.check_list("player_names.txt", sorted(self.players))
        self.claims = ClaimExtractor(self.players, ROLES)
        alternation = "|".join(re.escape(p) for p in sorted(self.players, key=len, reverse=True))
        self.mention = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)
        folder = self.folder.resolve().name
        models = ", ".join(f"{model} as {name}" for name, model in llm.items())
        title = (f"Mafia played by people and an LLM, LLMafia game {folder} ({len(self.players)} players, "
                 f"{len(self.mafia)} mafia" + (f"; {models}" if models else "") + ")")
        metadata: dict[str, Any] = {"source_folder": f"games/{folder}", "llm_players": llm}
        for key in ("daytime_minutes", "nighttime_minutes"):
            if isinstance(config.get(key), (int, float)) and not isinstance(config.get(key), bool):
                metadata[key] = config[key]
        return {
            "kind": "game", "format": FORMAT, "game": self.game_id, "title": title,
            "players": [{"name": p, "role": "mafia" if p in self.mafia else "bystander"} for p in self.players],
            "traitor_roles": ["mafia"], "side_names": dict(SIDES),
            "source": f"{SOURCE_REPOSITORY} (game {folder})", "licence": f"{LICENCE} ({SOURCE_REPOSITORY})",
            "imported_from": NAME, "metadata": metadata,
        }

    def check_list(self, name: str, expected: list[str]) -> None:
        """A list file of the game (one name a line) must name the players config.json gives, if it is there."""
        listed = sorted(line.strip() for line in read_lines(self.folder, name) if line.strip())
        if (self.folder / name).is_file() and listed != expected:
            self.out.problem(name, f"names {', '.join(listed) or 'nobody'}, but config.json says "
                                   f"{', '.join(expected) or 'nobody'}")

    # -- the run --------------------------------------------------------------------------------------------------

    def run(self) -> ConversionBuilder:
        """Convert the whole game (header, own roles, days and nights, the end)."""
        self.out.emit(self.header(), "config.json")
        for i, player in enumerate(self.players):
            role = "mafia" if player in self.mafia else "bystander"
            self.out.emit({"kind": "reveal", "id": f"role-{i}", "player": player, "role": role,
                           "witnesses": [player]}, "config.json")
        speakers = [*self.players, MANAGER_NAME]
        manager = read_chat(self.folder, "manager", speakers, self.out)
        segments = self.segments(manager)
        for chat in ("day", "night"):
            self.place(chat, read_chat(self.folder, chat, speakers, self.out), segments)
        for segment in segments:
            self.segment(segment)
        self.end(segments)
        return self.out

    def segments(self, manager: list[Message]) -> list[Segment]:
        """The days and nights the manager's messages open and close (see the module docstring, step 1)."""
        segments: list[Segment] = []
        day = 0
        for message in manager:
            if message.speaker != MANAGER_NAME:
                self.out.problem(message.where, f"a message of {message.speaker} in the manager's chat")
                continue
            matched = manager_kind(message)
            if matched is None:
                self.out.problem(message.where, f"cannot parse the Game-Manager's message: expected one of "
                                                f"{'; '.join(SHAPES.values())}, got {message.text[:80]!r}")
                continue
            kind, m = matched
            current = segments[-1] if segments else None
            if kind == "phase":
                reading = read_keyword(m["phase"], PHASES)
                if reading.keyword is None:
                    self.out.problem(message.where, f"cannot read the phase: {reading.reason}")
                    continue
                if reading.guessed:
                    message = _with_reading(message, (message.where, m["phase"], reading.keyword))
                chat = "day" if reading.keyword == "Daytime" else "night"
                if current is not None and current.kind == chat and current.closed is None:
                    current.restarts.append(message)
                    continue
                if chat == "day" or day == 0:
                    day += 1
                segments.append(Segment(chat, day, message))
            elif kind == "voted_out":
                if current is None or current.closed is not None:
                    self.out.problem(message.where, "an elimination while no day or night is open")
                    continue
                current.closed = message
            elif kind == "last_mafia" and current is not None:
                current.notes.append(message)
            else:
                self.out.problem(message.where, f"a {kind.replace('_', ' ')} message in the manager's chat, where "
                                                "no day or night is open or where it does not belong")
        return segments

    def place(self, chat: str, messages: list[Message], segments: list[Segment]) -> None:
        """Put each line of the day or night chat into its day or night (module docstring, steps 2 and 3)."""
        seen: dict[tuple[int, str, str], int] = {}
        kind = "day" if chat == "day" else "night"
        own = [s for s in segments if s.kind == kind]
        repeats: list[Message] = []
        for message in messages:
            key = (message.seconds, message.speaker, message.text)
            if key in seen:
                repeats.append(message)
                continue
            seen[key] = message.line
            target = next((s for s in own if s.end >= message.seconds), None)
            if target is None:
                self.left_out(message, "a line after the game's last elimination")
                continue
            target.lines.append(message)
        self.report_repeats(repeats)

    def report_repeats(self, repeats: list[Message]) -> None:
        """One reading per run of consecutive repeated lines (a restarted game writes its chat again)."""
        runs: list[list[Message]] = []
        for message in repeats:
            if runs and message.line == runs[-1][-1].line + 1:
                runs[-1].append(message)
            else:
                runs.append([message])
        for run in runs:
            first, last = run[0], run[-1]
            lines = f"{first.line}-{last.line}" if len(run) > 1 else str(first.line)
            shown = f"[{first.clock}] {first.speaker}: {first.text}"[:80]
            self.out.note(f"{first.where.rsplit(':', 1)[0]}:{lines}", shown + (f" ... ({len(run)} lines)"
                                                                               if len(run) > 1 else ""),
                          "lines written again with the same time, speaker and text, left out")

    def left_out(self, message: Message, what: str) -> None:
        """Report a line read as something to leave out (it goes into no canonical line)."""
        self.out.note(message.where, f"[{message.clock}] {message.speaker}: {message.text}"[:120], f"{what}, left out")

    def reading(self, message: Message, taken_as: str) -> None:
        """Report how a line was read (placed on the next emitted object)."""
        self.out.guess(message.where, f"[{message.clock}] {message.speaker}: {message.text}"[:120], taken_as)

    # -- a day or a night -----------------------------------------------------------------------------------------

    def segment(self, segment: Segment) -> None:
        name = segment.kind
        self.emit_message(segment.opened, {"kind": "phase", "id": f"d{segment.day}-{name}", "day": segment.day,
                                           "name": name})
        items = [(m.seconds, 0, m.line, m) for m in (*segment.restarts, *segment.notes)]
        items += [(m.seconds, 1, m.line, m) for m in segment.lines]
        votes: dict[str, str] = {}
        phase = name
        for _, _, _, message in sorted(items, key=lambda item: item[:3]):
            phase = self.out.part(self.item, segment, message, phase, votes) or phase  # a part left out keeps it
        if segment.closed is not None:
            self.out.part(self.elimination, segment, segment.closed, votes)

    def item(self, segment: Segment, message: Message, phase: str, votes: dict[str, str]) -> str:
        """Convert one message of a day or night; returns the phase it leaves the day in ("day", "vote", ...)."""
        if message in segment.restarts:
            self.reading(message, f"the same {'day' if segment.kind == 'day' else 'night'} going on (the game "
                                  "restarted; nobody was voted out)")
            self.emit_message(message, {"kind": "phase", "id": f"mgr{message.line}", "day": segment.day,
                                        "name": segment.kind})
            return segment.kind
        if message in segment.notes:
            self.emit_message(message, {"kind": "observe", "id": f"mgr{message.line}", "observers": list(self.alive),
                                        "text": message.text})
            return phase
        event_id = f"{message.chat}{message.line}"
        if message.speaker != MANAGER_NAME:
            text = message.text.strip()
            if not has_visible_text(text):
                return phase  # an empty message says nothing
            if message.speaker not in self.alive:
                self.left_out(message, f"a message of {message.speaker}, already voted out")
                return phase
            channel = "public" if segment.kind == "day" else "traitors"
            self.emit_message(message, {"kind": "say", "id": event_id, "speaker": message.speaker, "to": "all",
                                        "channel": channel, "text": text,
                                        **self.statement(text, message.speaker, segment, phase)})
            return phase
        matched = manager_kind(message)
        if matched is None:
            raise Unconvertible(LogProblem(0, message.where, f"cannot parse the Game-Manager's message: expected "
                                                             f"{SHAPES['vote_call']} or {SHAPES['vote']}, got "
                                                             f"{message.text[:80]!r}"))
        kind, m = matched
        if kind == "vote_call":
            said = self.keyword(message, m["phase"], PHASES, "the phase")
            if (said == "Daytime") != (segment.kind == "day"):
                raise Unconvertible(LogProblem(0, message.where, f"{said} ends in the {segment.kind}"))
            if segment.kind == "day" and phase != "vote":
                self.emit_message(message, {"kind": "phase", "id": event_id, "day": segment.day, "name": "vote"})
            return "vote"
        if kind == "vote":
            self.vote(segment, message, m, votes)
            return phase
        raise Unconvertible(LogProblem(0, message.where, f"a {kind.replace('_', ' ')} message in the "
                                                         f"{segment.kind} chat"))

    def vote(self, segment: Segment, message: Message, m: re.Match[str], votes: dict[str, str]) -> None:
        voter = self.keyword(message, m["voter"], self.players, "the voter")
        target = self.keyword(message, m["target"], self.players, "the vote's target")
        if voter not in self.alive:
            self.left_out(message, f"a vote replayed for {voter}, already voted out")
            return
        if target not in self.alive:
            self.left_out(message, f"a vote replayed for {target}, already voted out")
            return
        if votes.get(voter) == target:
            self.left_out(message, f"{voter}'s vote for {target} repeated")
            return
        votes[voter] = target
        ballot = "banish" if segment.kind == "day" else "murder"
        event: dict[str, Any] = {"kind": "vote", "id": f"{message.chat}{message.line}", "voter": voter,
                                 "target": target, "ballot": ballot}
        if ballot == "banish":
            event["claims"] = [{"subject": voter, "predicate": "voted_for", "object": target, "polarity": True,
                                "round": segment.day}]
            self.ballots.vote(segment.day, voter, target)
        self.emit_message(message, event)

    def elimination(self, segment: Segment, message: Message, votes: dict[str, str]) -> None:
        matched = manager_kind(message)
        assert matched is not None and matched[0] == "voted_out"
        m = matched[1]
        player = self.keyword(message, m["player"], self.players, "the player voted out")
        role = self.keyword(message, m["role"], ROLES, "the role")
        event_id = f"mgr{message.line}"
        if segment.kind == "day":
            count = sum(1 for voter, target in votes.items() if target == player and voter in self.alive)
            self.emit_message(message, {"kind": "banish", "id": event_id, "player": player, "votes": count,
                                        "role_revealed": role})
            self.ballots.banished(segment.day)
            self.alive.remove(player)
            return
        by = [p for p in self.alive if p in self.mafia]
        self.emit_message(message, {"kind": "murder", "id": event_id, "victim": player, "by": by,
                                    "witnesses": list(self.alive)})
        self.alive.remove(player)
        self.out.emit({"kind": "reveal", "id": f"{event_id}-role", "player": player, "role": role,
                       "witnesses": list(self.alive)}, message.where)

    def end(self, segments: list[Segment]) -> None:
        lines = [line.strip() for line in read_lines(self.folder, "who_wins.txt") if line.strip()]
        if not lines:
            state = (f"the log stops during day {segments[-1].day}'s {segments[-1].kind}" if segments
                     else "the log holds no day")
            self.out.objects[0]["metadata"]["end"] = f"who_wins.txt names no winner: {state}"
            return
        m = re.fullmatch(r"(?P<side>[^\W\d_][\w-]*)\s+wins?\s*!*\.?", lines[0], re.IGNORECASE)
        if m is None:
            self.out.problem("who_wins.txt", f"expected 'Mafia wins!' or 'Bystanders win!', got {lines[0][:80]!r}")
            return
        reading = read_keyword(m["side"], list(WINNERS))
        if reading.keyword is None:
            self.out.problem("who_wins.txt", f"cannot read the winner: {reading.reason}")
            return
        if reading.guessed:
            self.out.guess("who_wins.txt:1", m["side"], reading.keyword)
        self.out.emit({"kind": "end", "id": "end", "winner": WINNERS[reading.keyword], "text": lines[0]},
                      "who_wins.txt")

    # -- helpers --------------------------------------------------------------------------------------------------

    def keyword(self, message: Message, text: str, vocabulary: list[str] | tuple[str, ...], what: str) -> str:
        """``text`` of ``message`` read as a keyword (a guess reported with the message's position)."""
        return self.out.keyword(text.strip(), list(vocabulary), message.where, what)

    def emit_message(self, message: Message, obj: dict[str, Any]) -> None:
        """Emit one object made of ``message``, with the readings made on the way to it."""
        for where, read, taken_as in message.readings:
            self.out.guess(where, read, taken_as)
        self.out.emit(obj, message.where)

    def statement(self, text: str, speaker: str, segment: Segment, phase: str) -> dict[str, Any]:
        """``about`` (players named, not the speaker) and ``claims`` of a chat message (docs/perception.md#claims).

        By day: role and vote claims and stances, each vote claim naming the banish round it is about
        (:class:`BallotRounds`; a message of the day's vote phase is said where that day's ballot is held, so the
        speaker's own "I voted for X" is today's vote). By night, in the mafia's chat: no stances (the mafia choose
        whom to kill: "let's vote Brook" is no suspicion of Brook), and no claim of the speaker's vote to come,
        which is the night's kill vote and no banish ballot; a claim about a past day's vote ("noah voted for
        sidney") stays, with that day's round.
        """
        assert self.mention is not None
        named = {m.group(0).casefold() for m in self.mention.finditer(text)}
        extra: dict[str, Any] = {}
        about = [p for p in self.players if p.casefold() in named and p != speaker]
        if about:
            extra["about"] = about
        day = segment.kind == "day"
        rounds = self.ballots.at(segment.day, table=day and phase == "vote")
        claims = self.claims.extract(text, speaker, rounds=rounds, stances=day)
        if not day:
            claims = [c for c in claims if c.predicate != "voted_for" or (c.round is not None and c.round <= segment.day)]
        extra["claims"] = [c.model_dump(exclude_none=True) for c in claims]
        return extra


def _with_reading(message: Message, reading: tuple[str, str, str]) -> Message:
    return Message(message.chat, message.line, message.seconds, message.clock, message.speaker, message.text,
                   (*message.readings, reading))
