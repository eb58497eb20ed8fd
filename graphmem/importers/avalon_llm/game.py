"""One Avalon game of SuveenE/multi-round-avalon-agents as canonical objects: the walk over its JSON.

:class:`AvalonGame` reads the header (players, roles, sides), the knowledge each player was shown, each mission
(discussion, proposals and their team votes, the quest cards, the quest's result), the assassination and the end,
in that order, and emits canonical objects into a :class:`~graphmem.importers.base.ConversionBuilder`. Every
value it reads is checked; a keyword or a player name is read tolerantly (:meth:`ConversionBuilder.keyword`); a part
that cannot be read is reported with its JSON path and left out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem.claims.extract import ClaimExtractor
from graphmem.errors import InvalidGameLog, LogProblem
from graphmem.importers.base import ConversionBuilder, Unconvertible, load_json
from graphmem.importers.keywords import read_keyword
from graphmem.logs.ballots import BallotRounds
from graphmem.logs.schema import FORMAT, has_visible_text

NAME = "avalon-llm"
SOURCE_REPOSITORY = "SuveenE/multi-round-avalon-agents"
LICENCE = "MIT"

ROLES: dict[str, str] = {
    "merlin": "Merlin", "percival": "Percival", "good": "loyal servant", "loyal servant": "loyal servant",
    "servant": "loyal servant", "assassin": "assassin", "morgana": "Morgana", "mordred": "Mordred",
    "oberon": "Oberon", "evil": "minion", "minion": "minion",
}
"""The source's role words and the canonical role of each: the named characters capitalised (they read "Diana is
Merlin"), "good" and "evil" renamed "loyal servant" and "minion" (the README's other names for them), so that "good"
and "evil" are free to name the two sides."""
EVIL_ROLES = ("assassin", "Morgana", "Mordred", "Oberon", "minion")
"""The canonical roles of the evil side (the header's ``traitor_roles``: those of them some player holds)."""
SIDES = {"traitor": "evil", "faithful": "good"}
"""The header's ``side_names``."""
WINNERS = {"good": "good side", "evil": "evil side"}
"""The source's ``winner`` and the canonical ``end.winner`` ("The game ended: the good side won.")."""
VOTES = ("approve", "reject")
CARDS = ("success", "fail")
VOTE_RESULTS = ("approved", "rejected")
SEES_EVIL = ("Merlin", *EVIL_ROLES)
"""Roles whose special knowledge is a list of evil players (Merlin, and each evil player of the others)."""


SERIES_FILE = "player_memories.json"
"""The source engine's memory carried from game to game, beside a series' ``individual_games/`` folder: its
``session_id`` names the series."""
_GAME_FILE = re.compile(r"game_(\d+)\.json", re.IGNORECASE)
_NOT_ID = re.compile(r"[^A-Za-z0-9._:-]+")


@functools.lru_cache(maxsize=16)
def _session_id(path: str, mtime_ns: int) -> str | None:
    """The ``session_id`` of a ``player_memories.json`` (read once per file and version), or None when it has none
    or cannot be read (then the game is in no series)."""
    try:
        data = load_json(Path(path), path)
    except InvalidGameLog:
        return None
    session = data.get("session_id") if isinstance(data, dict) else None
    return session if isinstance(session, str) else None


def series_name(session: str) -> str | None:
    """A ``session_id`` in the game-id charset (letters, digits and ``. _ : -``, starting with a letter or digit, at
    most 200 characters): every other run of characters becomes "-"; None when nothing is left."""
    name = _NOT_ID.sub("-", session).lstrip("._:-")[:200]
    return name or None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class AvalonGame:
    """The conversion of one game file (see the module docstring). ``run()`` returns the builder's conversion."""

    def __init__(self, data: dict[str, Any], path: Path) -> None:
        self.data = data
        self.path = path
        self.out = ConversionBuilder()
        self.players: list[str] = []
        self.roles: dict[str, str] = {}
        self.good: dict[str, bool] = {}
        self.claims = ClaimExtractor([])
        self.mention: re.Pattern[str] | None = None
        self.last_day = 0
        self.ballots = BallotRounds()

    # -- reading values -------------------------------------------------------------------------------------------

    def get(self, obj: Any, key: str, where: str, kind: type | tuple[type, ...] = object,
            required: bool = True) -> Any:
        """``obj[key]``, a key written near it read as it (a guess), or None when absent and not ``required``.
        Raises Unconvertible for a missing required key or a value not of ``kind``."""
        if not isinstance(obj, dict):
            raise Unconvertible(LogProblem(0, where, f"expected a JSON object, got {type(obj).__name__}"))
        actual = key
        if key not in obj:
            near = [k for k in obj if isinstance(k, str) and read_keyword(k, [key]).keyword == key]
            if len(near) != 1:
                if not required:
                    return None
                raise Unconvertible(LogProblem(0, f"{where}.{key}", "missing"))
            actual = near[0]
            self.out.guess(f"{where}.{actual}", actual, key)
        value = obj[actual]
        if value is None and not required:
            return None
        if not isinstance(value, kind) or isinstance(value, bool) and kind in (int, float):
            kinds = kind if isinstance(kind, tuple) else (kind,)
            wanted = " or ".join("a string" if k is str else "a list" if k is list else "an object" if k is dict
                                 else "an integer" if k is int else "true or false" if k is bool else k.__name__
                                 for k in kinds)
            raise Unconvertible(LogProblem(0, f"{where}.{actual}", f"expected {wanted}, got {value!r:.60}"))
        return value

    def name(self, value: Any, where: str) -> str:
        """A player name, read tolerantly against the game's players."""
        if not isinstance(value, str):
            raise Unconvertible(LogProblem(0, where, f"expected a player name, got {value!r:.60}"))
        return self.out.keyword(value, self.players, where, "a player name")

    def names(self, value: Any, where: str) -> list[str]:
        if not isinstance(value, list):
            raise Unconvertible(LogProblem(0, where, f"expected a list of player names, got {value!r:.60}"))
        return [self.name(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def text(self, value: Any, where: str) -> str | None:
        """A statement's text, or None when empty (nothing was said)."""
        if not isinstance(value, str):
            raise Unconvertible(LogProblem(0, where, f"expected a string, got {value!r:.60}"))
        return value.strip() if has_visible_text(value) else None

    def statement(self, text: str, speaker: str | None, *, stances: bool = True) -> dict[str, Any]:
        """``about`` (players named, not the speaker) and ``claims`` of a text, for an event object."""
        extra: dict[str, Any] = {}
        assert self.mention is not None
        named = {m.group(0).casefold() for m in self.mention.finditer(text)}
        about = [p for p in self.players if p.casefold() in named and p != speaker]
        if about:
            extra["about"] = about
        extra["claims"] = self.claims_of(text, speaker, stances=stances)
        return extra

    def claims_of(self, text: str, speaker: str | None, *, stances: bool = True) -> list[dict[str, Any]]:
        """The claims of a text as JSON objects: role, side and vote claims, and stances unless ``stances`` is False
        (the evil discussion and the assassin's reasons choose a target; they are no suspicion). Avalon has no
        banish ballot, so the rounds (:class:`BallotRounds`) are those of a game without one: a vote claim of intent
        is about the current mission's day, a past one about none (the encoder's rule then applies)."""
        rounds = self.ballots.at(self.last_day)
        return [c.model_dump(exclude_none=True)
                for c in self.claims.extract(text, speaker, rounds=rounds, stances=stances)]

    # -- the game -------------------------------------------------------------------------------------------------

    def run(self) -> ConversionBuilder:
        """Convert the whole game (header, knowledge, missions, assassination, end)."""
        header = self.header()
        self.out.emit(header, "header")
        for i, spec in enumerate(self.get(self.data, "players", "", list)):
            self.out.part(self.knowledge, i, spec)
        missions = self.out.part(self.get, self.data, "missions", "", list) or []
        for k, mission in enumerate(missions):
            self.out.part(self.mission, k, mission)
        assassination = self.get(self.data, "assassin_phase", "", dict, required=False)
        if assassination is not None:
            self.out.part(self.assassination, assassination)
        self.out.part(self.roles_revealed)
        self.out.part(self.end, missions, assassination)
        reflections = self.out.part(self.get, self.data, "post_game_reflections", "", list, False) or []
        for j, reflection in enumerate(reflections):
            self.out.part(self.reflection, j, reflection)
        return self.out

    def header(self) -> dict[str, Any]:
        game_id = self.get(self.data, "game_id", "", str)
        config = self.get(self.data, "config", "", dict, required=False) or {}
        specs = self.get(self.data, "players", "", list)
        names = [self.get(p, "name", f"players[{i}]", str) for i, p in enumerate(specs)]
        self.players = [n.strip() for n in names]
        source_roles: dict[str, str] = {}
        for i, spec in enumerate(specs):
            where = f"players[{i}]"
            word = self.out.keyword(self.get(spec, "role", where, str), list(ROLES), f"{where}.role", "a role")
            role = ROLES[word]
            good = self.get(spec, "is_good", where, bool)
            if good == (role in EVIL_ROLES):
                raise Unconvertible(LogProblem(0, f"{where}.is_good", f"{good} for the role {word!r}, which is on the "
                                                                      f"{'evil' if role in EVIL_ROLES else 'good'} side"))
            self.roles[self.players[i]] = role
            self.good[self.players[i]] = good
            source_roles[role] = word
        roles = list(dict.fromkeys(self.roles.values()))
        self.claims = ClaimExtractor(self.players, roles, tuple(SIDES.values()))
        alternation = "|".join(re.escape(p) for p in sorted(self.players, key=len, reverse=True))
        self.mention = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)
        evil = sum(1 for r in self.roles.values() if r in EVIL_ROLES)
        title = f"Avalon played by LLM agents, game {game_id} ({len(self.players)} players, {evil} evil"
        if isinstance(config.get("model"), str):
            effort = config.get("reasoning_effort")
            title += f"; {config['model']}" + (f", reasoning effort {effort}" if isinstance(effort, str) else "")
        metadata: dict[str, Any] = {"source_file": self.source_file(),
                                    "source_roles": {r: w for r, w in source_roles.items() if r != w}}
        metadata["config"] = {k: v for k, v in config.items() if isinstance(v, (str, int, float, bool, list))}
        series = self.series()
        if series is not None:  # recorded, not joined: a series is the user's choice (`ingest --series`)
            metadata["source_series"] = series
        return {
            "kind": "game", "format": FORMAT, "game": game_id, "title": title + ")",
            "players": [{"name": p, "role": self.roles[p]} for p in self.players],
            "traitor_roles": [r for r in EVIL_ROLES if r in roles],
            "side_names": dict(SIDES),
            "source": f"{SOURCE_REPOSITORY} ({metadata['source_file']})",
            "licence": f"{LICENCE} ({SOURCE_REPOSITORY})",
            "imported_from": NAME,
            "metadata": metadata,
        }

    def series(self) -> dict[str, Any] | None:
        """Where the source engine placed the game, ``metadata.source_series`` ({name, position}, the shape of the
        header's ``series``, docs/log-format.md#series-of-games) when the game file sits in an
        ``individual_games/`` folder whose parent holds ``player_memories.json`` (the source engine ran the games as
        one series): its ``session_id`` as the name, and as the position the number of the file (``game_NN.json``)
        or else the reflections' ``game_number``. None otherwise."""
        folder = self.path.parent
        memories = folder.parent / SERIES_FILE
        if folder.name != "individual_games" or not memories.is_file():
            return None
        session = _session_id(str(memories), memories.stat().st_mtime_ns)
        name = series_name(session) if session is not None else None
        if name is None:
            self.out.note(SERIES_FILE, session or "", "no session_id: the game is in no series")
            return None
        spec: dict[str, Any] = {"name": name}
        numbered = _GAME_FILE.fullmatch(self.path.name)
        reflections = self.data.get("post_game_reflections")
        numbers = {r.get("game_number") for r in reflections if isinstance(r, dict)} \
            if isinstance(reflections, list) else set()
        if numbered is not None and int(numbered.group(1)) >= 1:
            spec["position"] = int(numbered.group(1))
        elif len(numbers) == 1 and isinstance(n := next(iter(numbers)), int) and not isinstance(n, bool) and n >= 1:
            spec["position"] = n
        return spec

    def source_file(self) -> str:
        """The file's path in the source repository's layout (from the corpus folder down), else its name."""
        parts = self.path.parts
        for i, part in enumerate(parts):
            if part.startswith(("1_cross_game", "2_tournaments")):
                return "/".join(parts[i:])
        return self.path.name

    def knowledge(self, i: int, spec: dict[str, Any]) -> None:
        """Each player's own role, and what they were shown at the start, as private reveals (docs/log-format.md)."""
        player = self.players[i]
        role = self.roles[player]
        where = f"players[{i}]"
        self.out.emit({"kind": "reveal", "id": f"p{i}-role", "player": player, "role": role, "witnesses": [player]},
                      where)
        shown = self.names(self.get(spec, "special_knowledge", where, list), f"{where}.special_knowledge")
        if not shown:
            return
        seen = {self.roles[p] for p in shown}
        if role in SEES_EVIL:
            wrong = [p for p in shown if self.good[p]]
            if wrong:
                raise Unconvertible(LogProblem(0, f"{where}.special_knowledge", f"{player} ({role}) is shown "
                                               f"{_listing(wrong)} as evil, but they are good"))
            for j, other in enumerate(shown):
                self.out.emit({"kind": "reveal", "id": f"p{i}-sees-{j}", "player": other, "role": SIDES["traitor"],
                               "witnesses": [player]}, f"{where}.special_knowledge[{j}]")
        elif role == "Percival" and seen <= {"Merlin", "Morgana"}:
            if len(shown) == 1:  # no Morgana in the game: Merlin stands alone
                self.out.emit({"kind": "reveal", "id": f"p{i}-sees-0", "player": shown[0], "role": "Merlin",
                               "witnesses": [player]}, f"{where}.special_knowledge")
                return
            self.out.emit({"kind": "observe", "id": f"p{i}-sees", "observers": [player], "about": shown,
                           "text": f"At the start you were shown {_listing(shown)}: one of them is Merlin, the other "
                                   "Morgana, and you do not know which."}, f"{where}.special_knowledge")
        else:
            raise Unconvertible(LogProblem(0, f"{where}.special_knowledge", f"what a {role} is shown is not known "
                                           f"to this importer (shown: {_listing(shown)})"))

    # -- missions -------------------------------------------------------------------------------------------------

    def phase(self, day: int, name: str, where: str) -> None:
        self.out.emit({"kind": "phase", "id": f"d{day}-{name}", "day": day, "name": name}, where)
        self.last_day = day

    def mission(self, k: int, mission: dict[str, Any]) -> None:
        where = f"missions[{k}]"
        n = self.get(mission, "mission_number", where, int)
        self.phase(n, "discussion", where)
        discussion = self.get(mission, "discussion", where, list)
        order = sorted(range(len(discussion)), key=lambda j: (self._turn(discussion[j]), j))
        for j in order:
            self.out.part(self.speech, discussion[j], f"{where}.discussion[{j}]",
                      f"m{n}-d{j}", "public", "discussion")
        self.phase(n, "team", f"{where}.proposals")
        proposals = self.get(mission, "proposals", where, list)
        teams: list[list[str] | None] = [self.out.part(self.proposal, n, j, p,
                                                   f"{where}.proposals[{j}]") for j, p in enumerate(proposals)]
        final = self.get(mission, "final_team_index", where, int)
        if not 0 <= final < len(teams):
            raise Unconvertible(LogProblem(0, f"{where}.final_team_index", f"{final} is not the index of one of the "
                                                                           f"{len(teams)} proposals"))
        team = teams[final]
        if team is None:
            raise Unconvertible(LogProblem(0, f"{where}.proposals[{final}]", "the team sent on the quest could not "
                                                                            "be read (reported above)"))
        self.phase(n, "quest", f"{where}.quest_actions")
        cards = self.get(mission, "quest_actions", where, list)
        played: list[str] = []
        for j, action in enumerate(cards):
            card = self.out.part(self.card, n, j, action, team,
                             f"{where}.quest_actions[{j}]")
            if card is not None:
                played.append(card)
        self.quest_result(n, mission, team, played, where)

    @staticmethod
    def _turn(entry: Any) -> float:
        turn = entry.get("global_turn_id") if isinstance(entry, dict) else None
        return float(turn) if isinstance(turn, (int, float)) and not isinstance(turn, bool) else 0.0

    def speech(self, entry: dict[str, Any], where: str, event_id: str, channel: str, phase: str) -> None:
        """A discussion entry (public) or an evil-discussion entry (the traitors channel)."""
        speaker = self.name(self.get(entry, "player", where), f"{where}.player")
        said = self.get(entry, "phase", where, str, required=False)
        if said is not None:
            self.out.keyword(said, [phase], f"{where}.phase", "the discussion's phase")
        text = self.text(self.get(entry, "content", where), f"{where}.content")
        if text is None:  # nothing said: nothing to remember
            return
        self.out.emit({"kind": "say", "id": event_id, "speaker": speaker, "to": "all", "channel": channel,
                       "text": text, **self.statement(text, speaker, stances=channel != "traitors")}, where)

    def proposal(self, n: int, j: int, proposal: dict[str, Any], where: str) -> list[str]:
        leader = self.name(self.get(proposal, "leader", where), f"{where}.leader")
        team = self.names(self.get(proposal, "team_members", where), f"{where}.team_members")
        reasons = self.get(proposal, "reasoning", where, str, required=False)
        reason = self.text(reasons, f"{where}.reasoning") if reasons is not None else None
        event: dict[str, Any] = {"kind": "propose", "id": f"m{n}-p{j}", "leader": leader, "team": team}
        if reason is not None:
            event |= {"text": reason, **self.statement(reason, leader)}
        else:
            event["claims"] = []
        self.out.emit(event, where)
        votes = self.get(proposal, "votes", where, list)
        counts = {choice: 0 for choice in VOTES}
        for v, vote in enumerate(votes):
            choice = self.out.part(self.team_vote, n, j, v, vote, f"{where}.votes[{v}]")
            if choice is not None:
                counts[choice] += 1
        result = self.out.keyword(self.get(proposal, "vote_result", where, str), VOTE_RESULTS,
                                  f"{where}.vote_result", "a team vote's result")
        listed = ", ".join(team)
        if votes:
            what = (f"{leader}'s team ({listed}) was {result}, {_plural(counts['approve'], 'vote')} to "
                    f"{counts['reject']}.")
            tally: dict[str, Any] = {"counts": counts}
        else:
            what = f"{leader}'s team ({listed}) goes on the quest without a vote, the last proposal allowed."
            tally = {}
        self.out.emit({"kind": "outcome", "id": f"m{n}-p{j}-tally", "ballot": "team", "what": what,
                       "result": result, **tally, "about": team}, f"{where}.vote_result")
        return team

    def team_vote(self, n: int, j: int, v: int, vote: dict[str, Any], where: str) -> str:
        """One player's team vote: secret, seen by the voter alone (the source engine showed the others only the
        tally, which the outcome carries); its comment is the voter's own reason."""
        voter = self.name(self.get(vote, "player", where), f"{where}.player")
        choice = self.out.keyword(self.get(vote, "vote", where, str), VOTES, f"{where}.vote", "a team vote")
        event: dict[str, Any] = {"kind": "vote", "id": f"m{n}-p{j}-v{v}", "voter": voter, "ballot": "team",
                                 "choice": choice, "secret": True}
        comments = self.get(vote, "comment", where, str, required=False)
        comment = self.text(comments, f"{where}.comment") if comments is not None else None
        if comment is not None:
            event["text"] = comment
            event["claims"] = self.claims_of(comment, voter)
        else:
            event["claims"] = []
        self.out.emit(event, where)
        return choice

    def card(self, n: int, j: int, action: dict[str, Any], team: list[str], where: str) -> str:
        """One quest card: secret, seen by its player alone."""
        player = self.name(self.get(action, "player", where), f"{where}.player")
        if player not in team:
            raise Unconvertible(LogProblem(0, f"{where}.player", f"{player} is not on the quest's team "
                                                                 f"({', '.join(team)})"))
        card = self.out.keyword(self.get(action, "action", where, str), CARDS, f"{where}.action", "a quest card")
        self.out.emit({"kind": "vote", "id": f"m{n}-q{j}", "voter": player, "ballot": "quest", "choice": card,
                       "secret": True, "claims": []}, where)
        return card

    def quest_result(self, n: int, mission: dict[str, Any], team: list[str], played: list[str], where: str) -> None:
        result = self.out.keyword(self.get(mission, "mission_result", where, str), CARDS, f"{where}.mission_result",
                                  "a quest's result")
        fails = self.get(mission, "fail_count", where, int)
        if fails != played.count("fail") and len(played) == len(team):
            raise Unconvertible(LogProblem(0, f"{where}.fail_count", f"{fails}, but {played.count('fail')} of the "
                                                                     f"quest cards are fail"))
        verb = "succeeded" if result == "success" else "failed"
        what = f"Quest {n} ({', '.join(team)}) {verb} with {_plural(fails, 'fail card') if fails else 'no fail card'}."
        self.out.emit({"kind": "outcome", "id": f"m{n}-result", "ballot": "quest", "what": what, "result": result,
                       "counts": {"fail": fails, "success": len(team) - fails}, "about": team},
                      f"{where}.mission_result")

    # -- the end --------------------------------------------------------------------------------------------------

    def assassination(self, phase: dict[str, Any]) -> None:
        where = "assassin_phase"
        self.phase(self.last_day, "assassination", where)
        for j, entry in enumerate(self.get(phase, "evil_discussion", where, list)):
            self.out.part(self.speech, entry, f"{where}.evil_discussion[{j}]",
                      f"a-d{j}", "traitors", "evil_discussion")
        assassin = self.name(self.get(phase, "assassin", where), f"{where}.assassin")
        guess = self.name(self.get(phase, "guess", where), f"{where}.guess")
        correct = self.get(phase, "correct", where, bool)
        if correct != (self.roles[guess] == "Merlin"):
            raise Unconvertible(LogProblem(0, f"{where}.correct", f"{correct}, but {guess} is "
                                                                  f"{'' if self.roles[guess] == 'Merlin' else 'not '}"
                                                                  "Merlin"))
        vote: dict[str, Any] = {"kind": "vote", "id": "a-guess", "voter": assassin, "ballot": "assassinate",
                                "target": guess}
        reasons = self.get(phase, "reasoning", where, str, required=False)
        reason = self.text(reasons, f"{where}.reasoning") if reasons is not None else None
        if reason is not None:
            vote["text"] = reason
        vote["claims"] = self.claims_of(reason or "", assassin, stances=False)
        self.out.emit(vote, f"{where}.guess")
        verdict = "right" if correct else "wrong"
        self.out.emit({"kind": "outcome", "id": "a-result", "ballot": "assassinate", "result": verdict,
                       "what": f"{assassin}, the assassin, named {guess} as Merlin, and was {verdict}.",
                       "about": [assassin, guess]}, f"{where}.correct")

    def roles_revealed(self) -> None:
        """At the end every player learns every other player's role (the source engine shows them: the players'
        reflections discuss everyone's roles): a ``reveal`` of each player's role, seen by all the others."""
        for i, player in enumerate(self.players):
            others = [p for p in self.players if p != player]
            self.out.emit({"kind": "reveal", "id": f"end-role-{i}", "player": player, "role": self.roles[player],
                           "witnesses": others}, f"players[{i}].role")

    def reflection(self, j: int, entry: Any) -> None:
        """One player's reflection after the game: the ``self_assessment`` as a ``reflect`` without ``about``, each
        ``player_observations`` entry as a ``reflect`` about that player. An observation of oneself (the engine asked
        about the others; the answers read "N/A") is left out and noted; a key naming a role rather than a player
        ("Assassin") is read as the player who held it, a guess."""
        where = f"post_game_reflections[{j}]"
        player = self.name(self.get(entry, "player_name", where), f"{where}.player_name")
        assessment = self.get(entry, "self_assessment", where, str, required=False)
        text = self.text(assessment, f"{where}.self_assessment") if assessment is not None else None
        if text is not None:
            self.out.emit({"kind": "reflect", "id": f"r{j}-self", "player": player, "text": text},
                          f"{where}.self_assessment")
        observations = self.get(entry, "player_observations", where, dict, required=False) or {}
        for k, (key, said) in enumerate(observations.items()):
            self.out.part(self.observation, j, k, player, key, said, f"{where}.player_observations.{key}")

    def observation(self, j: int, k: int, player: str, key: str, said: Any, where: str) -> None:
        text = self.text(said, where)
        about = self.observed(key, where)
        if about == player:
            self.out.note(where, f"{key}: {said!r:.60}", "an observation of oneself (the engine asked about the "
                                                         "others), left out")
            return
        if text is None:
            return
        self.out.emit({"kind": "reflect", "id": f"r{j}-o{k}", "player": player, "about": about, "text": text}, where)

    def observed(self, key: str, where: str) -> str:
        """The player an observation is about: its key read as a player name, or else as a role some one player held
        ("Assassin": the player who named Merlin, or held the assassin's role), a guess."""
        try:
            return self.name(key, where)
        except Unconvertible as refused:
            word = read_keyword(key, list(ROLES)).keyword
            if word is None:
                raise
            role = ROLES[word]
            holders = [p for p in self.players if self.roles[p] == role]
            phase = self.data.get("assassin_phase")
            if role == "assassin" and isinstance(phase, dict) and isinstance(phase.get("assassin"), str):
                holders = [self.name(phase["assassin"], "assassin_phase.assassin")]
            if len(holders) != 1:
                raise refused from None
            self.out.guess(where, key, holders[0])
            return holders[0]

    def end(self, missions: list[Any], assassination: dict[str, Any] | None) -> None:
        word = self.out.keyword(self.get(self.data, "winner", "", str), list(WINNERS), "winner", "the winner")
        results = [m.get("mission_result") for m in missions if isinstance(m, dict)]
        fails = sum(1 for r in results if isinstance(r, str) and read_keyword(r, CARDS).keyword == "fail")
        if assassination is not None and assassination.get("correct") is True:
            why = "The assassin named Merlin."
        elif assassination is not None:
            why = "Three quests succeeded and the assassin did not find Merlin."
        elif fails >= 3:
            why = f"{fails} quests failed."
        else:
            why = "The evil side won." if word == "evil" else "The good side won."
        self.out.emit({"kind": "end", "id": "end", "winner": WINNERS[word], "text": why}, "winner")
