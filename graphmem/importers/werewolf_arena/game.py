"""One saved game of google/werewolf_arena as canonical objects: the walk over its rounds.

:class:`WerewolfGame` reads the players and their roles, what each was shown at the start, then each round in the
engine's own order (the night: the werewolves' choice, the Doctor's protection, the Seer's unmasking; the morning's
announcement; the debate with the votes after each turn; the final vote and the exile; the summaries), and the
winner. The event ids name the round and the step (``r1-debate3``, ``r1-vote-Mason``: see the package docstring),
so that what a player remembers can be checked against the engine's own record of what it showed them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from graphmem.claims.extract import ClaimExtractor
from graphmem.claims.saves import SaveExtractor
from graphmem.errors import LogProblem
from graphmem.importers.base import ConversionBuilder, Unconvertible
from graphmem.importers.werewolf_arena.source import SavedGame, prompt_player
from graphmem.logs.ballots import BallotRounds
from graphmem.logs.schema import FORMAT, has_visible_text

NAME = "werewolf-arena"
SOURCE_REPOSITORY = "google/werewolf_arena"
LICENCE = "Apache-2.0"

ROLES = {"Werewolf": "werewolf", "Villager": "villager", "Seer": "seer", "Doctor": "doctor"}
"""The engine's role names and the canonical roles (lower case, so that "Derek is a werewolf" reads as the role)."""
SIDES = {"traitor": "werewolves", "faithful": "villagers"}
"""The header's ``side_names``: the engine's names of the two sides (its ``winner``)."""
WINNERS = {"Werewolves": "werewolves", "Villagers": "villagers"}
NO_KILL = "No one was removed from the game during the night."
NO_MAJORITY = "A majority vote was not reached, so no one was removed from the game."
"""The engine's announcements when nobody is removed (the Doctor saved the werewolves' target; no majority)."""
_NOT_ID = re.compile(r"[^A-Za-z0-9._:-]+")


def game_id(folder_name: str) -> str:
    """The canonical game id of a saved game's folder: ``werewolf-arena-`` and the folder's name, every run of
    characters outside the game-id set (letters, digits, ``. _ : -``) made "-" (the engine's own ``session_id`` is
    the same "10" for every game its runner plays, so the folder, which the runner names by time, is the id)."""
    return f"{NAME}-{_NOT_ID.sub('-', folder_name).strip('-')}"[:200]


class WerewolfGame:
    """The conversion of one saved game (see the module docstring). ``run()`` returns the builder."""

    def __init__(self, saved: SavedGame) -> None:
        self.saved = saved
        self.state = saved.state
        self.file = saved.state_file
        self.out = ConversionBuilder()
        self.players: list[str] = []
        self.roles: dict[str, str] = {}
        self.alive: list[str] = []
        self.claims = ClaimExtractor([])
        self.saves = SaveExtractor([])
        self.ballots = BallotRounds()
        self.mention: re.Pattern[str] | None = None

    # -- reading values -------------------------------------------------------------------------------------------

    def where(self, path: str) -> str:
        return f"{self.file}: {path}" if path else self.file

    def get(self, obj: Any, key: str, path: str, kind: type | tuple[type, ...] = object, required: bool = True) -> Any:
        """``obj[key]`` checked to be of ``kind`` (None when absent or null and not ``required``). Raises
        Unconvertible naming the position for a missing required key or a value of another kind."""
        if not isinstance(obj, dict):
            raise Unconvertible(LogProblem(0, self.where(path), f"expected a JSON object, got {obj!r:.60}"))
        value = obj.get(key)
        if value is None:
            if required:
                raise Unconvertible(LogProblem(0, self.where(f"{path}.{key}" if path else key), "missing"))
            return None
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise Unconvertible(LogProblem(0, self.where(f"{path}.{key}" if path else key),
                                           f"expected {getattr(kind, '__name__', kind)}, got {value!r:.60}"))
        return value

    def name(self, value: Any, path: str, among: Iterable[str] | None = None, what: str = "a player") -> str:
        """A player name, read tolerantly against ``among`` (default: every player)."""
        if not isinstance(value, str):
            raise Unconvertible(LogProblem(0, self.where(path), f"expected {what}'s name, got {value!r:.60}"))
        return self.out.keyword(value, list(among if among is not None else self.players), self.where(path), what)

    # -- the game -------------------------------------------------------------------------------------------------

    def run(self) -> ConversionBuilder:
        """Convert the whole game: header, what each player knows at the start, the rounds, the end."""
        self.out.emit(self.header(), self.file)  # then phase 0, "pregame", the log's own start
        for player in self.players:
            self.out.emit({"kind": "reveal", "id": f"role-{player}", "player": player, "role": self.roles[player],
                           "witnesses": [player]}, self.where(f"players.{player}.role"))
        wolves = [p for p in self.players if self.roles[p] == "werewolf"]
        for holder in wolves:
            for other in wolves:
                if other != holder:
                    self.out.emit({"kind": "reveal", "id": f"wolf-{holder}-{other}", "player": other,
                                   "role": "werewolf", "witnesses": [holder]}, self.where(f"players.{holder}"))
        rounds = self.get(self.state, "rounds", "", list, required=False) or []
        for r, round_ in enumerate(rounds):
            if self.out.part(self.round, r, round_) is None:
                break  # a round that cannot be read: what follows it cannot be placed
        self.out.part(self.end, rounds)
        return self.out

    def header(self) -> dict[str, Any]:
        specs = self.get(self.state, "players", "", dict)
        for key, spec in specs.items():
            path = f"players.{key}"
            name = self.get(spec, "name", path, str).strip()
            if name != key.strip():
                raise Unconvertible(LogProblem(0, self.where(f"{path}.name"), f"{name!r} under the key {key!r}"))
            word = self.out.keyword(self.get(spec, "role", path, str), list(ROLES), self.where(f"{path}.role"),
                                    "a role")
            self.players.append(name)
            self.roles[name] = ROLES[word]
        if not self.players:
            raise Unconvertible(LogProblem(0, self.where("players"), "no players"))
        self.alive = list(self.players)
        self.claims = ClaimExtractor(self.players, (*ROLES.values(),), tuple(SIDES.values()))
        self.saves = SaveExtractor(self.players)
        alternation = "|".join(re.escape(p) for p in sorted(self.players, key=len, reverse=True))
        self.mention = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)
        folder = self.saved.folder.resolve().name
        wolves = sum(1 for r in self.roles.values() if r == "werewolf")
        metadata: dict[str, Any] = {"source_folder": folder, "state_file": self.file,
                                    "source_roles": {p: spec.get("role") for p, spec in specs.items()}}
        session = self.state.get("session_id")
        if isinstance(session, str):
            metadata["session_id"] = session
        models = {p: spec.get("model") for p, spec in specs.items() if isinstance(spec.get("model"), str)}
        if models:
            metadata["models"] = models
        error = self.state.get("error_message")
        if isinstance(error, str) and error.strip():
            metadata["engine_error"] = error.strip().splitlines()[-1]
        return {
            "kind": "game", "format": FORMAT, "game": game_id(folder),
            "title": f"Werewolf Arena game {folder} ({len(self.players)} players, {wolves} werewolves)",
            "players": [{"name": p, "role": self.roles[p]} for p in self.players],
            "traitor_roles": ["werewolf"], "side_names": dict(SIDES),
            "source": f"{SOURCE_REPOSITORY} engine (game {folder})", "licence": f"{LICENCE} ({SOURCE_REPOSITORY})",
            "imported_from": NAME, "metadata": metadata,
        }

    def phase(self, day: int, name: str, path: str) -> None:
        self.out.emit({"kind": "phase", "id": f"r{day}-{name}", "day": day, "name": name}, self.where(path))

    def round(self, r: int, round_: Any) -> bool:
        """Convert round ``r`` (the engine's Round ``r``: its day number here). Returns True."""
        path = f"rounds[{r}]"
        self.phase(r, "night", path)
        wolves = [p for p in self.alive if self.roles[p] == "werewolf"]
        eliminated = self.get(round_, "eliminated", path, str, required=False)
        protected = self.get(round_, "protected", path, str, required=False)
        unmasked = self.get(round_, "unmasked", path, str, required=False)
        if eliminated is not None:
            eliminated = self.name(eliminated, f"{path}.eliminated", self.alive, "the werewolves' target")
            self.wolves_choice(r, eliminated, wolves)
        if protected is not None:
            protected = self.name(protected, f"{path}.protected", self.alive, "the protected player")
            doctor = self.holder("doctor", f"{path}.protected")
            self.out.emit({"kind": "vote", "id": f"r{r}-protect", "voter": doctor, "target": protected,
                           "ballot": "protect", "secret": True,
                           "claims": [{"subject": doctor, "predicate": "protected", "object": protected}]},
                          self.where(f"{path}.protected"))
        if unmasked is not None:
            unmasked = self.name(unmasked, f"{path}.unmasked", self.alive, "the unmasked player")
            seer = self.holder("seer", f"{path}.unmasked")
            self.out.emit({"kind": "reveal", "id": f"r{r}-unmask", "player": unmasked, "role": self.roles[unmasked],
                           "witnesses": [seer]}, self.where(f"{path}.unmasked"))
        debate = self.get(round_, "debate", path, list, required=False) or []
        if eliminated is None:
            return True  # the engine stopped in the night
        self.phase(r, "day", path)
        if eliminated != protected:
            self.alive.remove(eliminated)
            self.out.emit({"kind": "murder", "id": f"r{r}-morning", "victim": eliminated, "by": wolves},
                          self.where(f"{path}.eliminated"))
        else:
            self.out.emit({"kind": "observe", "id": f"r{r}-morning", "observers": list(self.alive), "text": NO_KILL},
                          self.where(f"{path}.protected"))
        votes = self.get(round_, "votes", path, list, required=False) or []
        polls = len(votes) == len(debate)  # RUN_SYNTHETIC_VOTES: a vote after every turn, the last one the ballot
        if votes and not polls and len(votes) != 1:
            raise Unconvertible(LogProblem(0, self.where(f"{path}.votes"), f"{len(votes)} votes for {len(debate)} "
                                                                           "debate turns: expected one or one a turn"))
        for i, line in enumerate(debate):
            self.out.part(self.speech, r, i, line)
            if polls and i < len(debate) - 1:
                self.out.part(self.poll, r, i, votes[i])
        if not debate:
            return True  # the game ended in the night (or the engine stopped before the debate)
        self.phase(r, "vote", path)
        if not votes:
            return True  # the engine stopped before the vote
        cast = self.out.part(self.ballot, r, len(votes) - 1, votes[-1])
        exiled = self.get(round_, "exiled", path, str, required=False)
        self.out.part(self.exile, r, exiled, cast or {})
        players = self.get(round_, "players", path, list, required=False)
        if players is not None and sorted(players) != sorted(self.alive):
            self.out.problem(self.where(f"{path}.players"), f"the engine lists {', '.join(players)} at the end of the "
                                                            f"round, but its events leave {', '.join(self.alive)}")
        self.summaries(r)
        return True

    def holder(self, role: str, path: str) -> str:
        """The living player of ``role`` (the Doctor, the Seer); Unconvertible when there is none."""
        found = [p for p in self.alive if self.roles[p] == role]
        if len(found) != 1:
            raise Unconvertible(LogProblem(0, self.where(path), f"a night action of the {role}, but the game has "
                                                                f"{len(found)} living {role}s"))
        return found[0]

    def wolves_choice(self, r: int, target: str, wolves: list[str]) -> None:
        """The werewolves' night choice, seen by the living werewolves: a murder vote by the werewolf whose prompt
        chose (``game_logs.json``), or, without the logs, what the werewolves observed together."""
        chooser = None
        logs = self.saved.logs
        if logs is not None and r < len(logs) and isinstance(logs[r], dict):
            chooser = prompt_player(logs[r].get("eliminate"))
        where = self.where(f"rounds[{r}].eliminated")
        if chooser in wolves:
            self.out.emit({"kind": "vote", "id": f"r{r}-eliminate", "voter": chooser, "target": target,
                           "ballot": "murder"}, where)
            return
        self.out.note(where, f"the werewolves chose {target}", f"no {self.saved.folder.name}/game_logs.json entry "
                                                              "names the werewolf who chose: an observe of the choice")
        we = "We" if len(wolves) > 1 else "I"
        self.out.emit({"kind": "observe", "id": f"r{r}-eliminate", "observers": wolves, "about": [target],
                       "text": f"{we} decided to eliminate {target} during the night."}, where)

    def speech(self, r: int, i: int, line: Any) -> None:
        path = f"rounds[{r}].debate[{i}]"
        if not isinstance(line, list) or len(line) != 2:
            raise Unconvertible(LogProblem(0, self.where(path), f"expected [speaker, text], got {line!r:.60}"))
        speaker = self.name(line[0], f"{path}[0]", self.alive, "a living speaker")
        text = line[1]
        if not isinstance(text, str) or not has_visible_text(text):
            raise Unconvertible(LogProblem(0, self.where(f"{path}[1]"), f"expected what {speaker} said, got "
                                                                        f"{text!r:.60}"))
        text = text.strip()
        self.out.emit({"kind": "say", "id": f"r{r}-debate{i + 1}", "speaker": speaker, "to": "all",
                       "channel": "public", "text": text, **self.statement(text, speaker, r)}, self.where(path))

    def statement(self, text: str, speaker: str, day: int) -> dict[str, Any]:
        """``about`` (players named, not the speaker) and ``claims`` of a debate line (docs/perception.md#claims):
        role, side and vote claims and stances (:class:`ClaimExtractor`; the debate is where the day's ballot is
        held), and save claims (:class:`SaveExtractor`: "I protected X" is about the night of ``day``)."""
        assert self.mention is not None
        named = {m.group(0).casefold() for m in self.mention.finditer(text)}
        extra: dict[str, Any] = {}
        about = [p for p in self.players if p.casefold() in named and p != speaker]
        if about:
            extra["about"] = about
        claims = self.claims.extract(text, speaker, rounds=self.ballots.at(day, table=True))
        claims += [c for c in self.saves.extract(text, speaker) if c not in claims]
        extra["claims"] = [c.model_dump(exclude_none=True) for c in claims]
        return extra

    def poll(self, r: int, i: int, votes: Any) -> None:
        """The votes the engine asks for after each debate turn but the last (``RUN_SYNTHETIC_VOTES``): kept, seen by
        nobody (the engine never shows them, not even to the voter)."""
        path = f"rounds[{r}].votes[{i}]"
        if not isinstance(votes, dict):
            raise Unconvertible(LogProblem(0, self.where(path), f"expected {{voter: target}}, got {votes!r:.60}"))
        for voter, target in votes.items():
            v = self.name(voter, f"{path}.{voter}", self.alive, "a living voter")
            t = self.name(target, f"{path}.{voter}", self.alive, "a living player")
            self.out.emit({"kind": "vote", "id": f"r{r}-poll{i + 1}-{v}", "voter": v, "target": t, "ballot": "poll",
                           "witnesses": []}, self.where(f"{path}.{voter}"))

    def ballot(self, r: int, i: int, votes: Any) -> dict[str, str]:
        """The final vote of round ``r`` (after the last debate turn): each voter's secret banish vote, which only
        they remember (the engine tells each voter "your vote will not be revealed") and which claims itself."""
        path = f"rounds[{r}].votes[{i}]"
        if not isinstance(votes, dict):
            raise Unconvertible(LogProblem(0, self.where(path), f"expected {{voter: target}}, got {votes!r:.60}"))
        cast: dict[str, str] = {}
        for voter, target in votes.items():
            v = self.name(voter, f"{path}.{voter}", self.alive, "a living voter")
            t = self.name(target, f"{path}.{voter}", self.alive, "a living player")
            cast[v] = t
            self.ballots.vote(r, v, t)
            self.out.emit({"kind": "vote", "id": f"r{r}-vote-{v}", "voter": v, "target": t, "ballot": "banish",
                           "secret": True, "claims": [{"subject": v, "predicate": "voted_for", "object": t,
                                                       "round": r}]}, self.where(f"{path}.{voter}"))
        return cast

    def exile(self, r: int, exiled: str | None, cast: dict[str, str]) -> None:
        """The exile as the engine announced it: to the players still in the game after it (the exiled player is
        no longer told), without the role (the engine does not reveal it)."""
        path = f"rounds[{r}].exiled"
        self.ballots.banished(r)
        if exiled is None:
            self.out.emit({"kind": "observe", "id": f"r{r}-exile", "observers": list(self.alive),
                           "text": NO_MAJORITY}, self.where(path))
            return
        player = self.name(exiled, path, self.alive, "the exiled player")
        self.alive.remove(player)
        votes = sum(1 for target in cast.values() if target == player)
        self.out.emit({"kind": "banish", "id": f"r{r}-exile", "player": player, "votes": votes,
                       "witnesses": list(self.alive)}, self.where(path))

    def summaries(self, r: int) -> None:
        """Each living player's summary of round ``r``, as their own observation records it ("Round r: Summary:
        ..."): the player's own conclusion, theirs alone (a ``reflect``)."""
        specs = self.state.get("players") or {}
        prefix = f"Round {r}: Summary: "
        for player in self.alive:
            observations = specs.get(player, {}).get("observations") if isinstance(specs.get(player), dict) else None
            for k, seen in enumerate(observations or []):
                if isinstance(seen, str) and seen.startswith(prefix) and has_visible_text(seen[len(prefix):]):
                    self.out.emit({"kind": "reflect", "id": f"r{r}-summary-{player}", "player": player,
                                   "text": seen[len(prefix):].strip()},
                                  self.where(f"players.{player}.observations[{k}]"))
                    break

    def end(self, rounds: list[Any]) -> None:
        """The winner, remembered by nobody: the engine stops without telling the players."""
        winner = self.state.get("winner")
        if not isinstance(winner, str) or not winner.strip():
            return
        word = self.out.keyword(winner, list(WINNERS), self.where("winner"), "the winner")
        self.out.emit({"kind": "end", "id": "end", "winner": WINNERS[word], "witnesses": []}, self.where("winner"))
