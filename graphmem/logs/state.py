"""The game's facts as a canonical log unfolds: the one game-state tracker of graphmem.

:class:`GameState` knows who was eliminated (murdered or banished), on which line and in which phase, each player's
current role (the header's; after a ``recruit``, the recruiter's traitor-side role), the sides (the header's
``traitor_roles`` and ``side_names``), the banish votes of the current round, in a mission game the last team
proposed and who voted on each yes/no ballot since its last ``outcome`` (the quest's team), and whether the game has
ended. Validation (:class:`graphmem.logs.reader.GameLogValidator`) asks it which rules an event breaks
(docs/log-format.md "validation is strict"); perception (:mod:`graphmem.ingest.perception`) asks it who is alive, who is
on the traitor side and who voted for whom, to decide who witnesses an event. Both call :meth:`GameState.apply` after
each accepted event. The validation rules:

- Nothing follows the ``end`` event but reflections (``reflect``: what each player concluded after the game), and
  after the end every player may reflect, an eliminated one too.
- An eliminated player does nothing and perceives nothing afterwards: they do not speak (``say.speaker``), are not
  spoken to (``say.to``), do not vote or receive votes (``vote.voter``, ``vote.target``), observe nothing
  (``observe.observers``), are not murdered, banished or recruited again (``murder.victim``, ``banish.player``,
  ``recruit.player``), murder or recruit nobody (``murder.by``, ``recruit.by``), have no thoughts or emotion state
  (``thought.player``, ``emotion.player``), do not reflect before the game's end (``reflect.player``), hold no
  belief (``belief.player``: a belief is stated during play, so it never follows the end either), and witness
  nothing (``witnesses``, the keys of ``emotion``).
- Legitimate after an elimination: being talked or thought about (``about``, claims, ``observe.subject``), a
  ``reveal`` of the eliminated player's role, and the ``end`` event's ``witnesses`` and ``emotion`` (everyone may
  learn who won).
- A role made known (``banish.role_revealed``, ``reveal.role``) is the player's current role: the header's, or
  the traitor side's once recruited (a recruited faithful is revealed as a traitor). A ``reveal`` may instead give
  the name of the player's side (``side_names``: Merlin is shown that Charlie is "evil", not his role).
- A team is proposed by a player still in the game, of players still in the game (``propose.leader``,
  ``propose.team``).
- Only the traitor side (the header's ``traitor_roles``, and recruits) speaks on the ``traitors`` channel, casts
  murder votes, murders (``murder.by``) and recruits (``recruit.by``): otherwise those acts would have no witness
  of the killing side, and a Werewolf log that forgot ``"traitor_roles": ["werewolf"]`` would lose the wolves'
  night talk without a word.

The victim of a murder and the banished player may witness their own elimination: the state changes after the
event. A rejected event does not change the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from graphmem.errors import LogProblem
from graphmem.logs.ballots import BallotRounds
from graphmem.logs.schema import (
    DEFAULT_SIDE_NAMES,
    DEFAULT_TRAITOR_ROLES,
    BanishEvent,
    BeliefEvent,
    EmotionEvent,
    EndEvent,
    Event,
    GameHeader,
    MurderEvent,
    ObserveEvent,
    OutcomeEvent,
    ProposeEvent,
    RecruitEvent,
    ReflectEvent,
    RevealEvent,
    SayEvent,
    ThoughtEvent,
    VoteEvent,
    recruit_role,
)


@dataclass(frozen=True)
class Elimination:
    """Where a player left the game.

    how : "murdered" or "banished"
    line : int, the line of the murder or banish event
    phase : int, the index of its phase
    day : int, the day of its phase
    phase_name : str, the name of its phase
    """

    how: str
    line: int
    phase: int
    day: int
    phase_name: str

    def describe(self, name: str, place: Callable[[int], str] | None = None) -> str:
        """"Dmitri was murdered at line 9 (day 2, night)"; ``place(line)`` names the line otherwise (a live game:
        "event 7 of the game")."""
        return f"{name} was {self.how} at {(place or line_place)(self.line)} (day {self.day}, {self.phase_name})"


def line_place(line: int) -> str:
    """How a log file's messages name an earlier event: "line 9"."""
    return f"line {line}"


def _acting(event: Event) -> list[tuple[str, str, str]]:
    """``(field, player, what they cannot do)`` for every field of ``event`` that must name a player still in the
    game (see the module docstring)."""
    refs: list[tuple[str, str, str]] = []
    if isinstance(event, SayEvent):
        refs.append(("speaker", event.speaker, "speak"))
        if event.to != "all":
            refs.extend((f"to[{i}]", name, "be spoken to") for i, name in enumerate(event.to))
    elif isinstance(event, ObserveEvent):
        refs.extend((f"observers[{i}]", name, "observe anything") for i, name in enumerate(event.observers))
    elif isinstance(event, VoteEvent):
        refs.append(("voter", event.voter, "vote"))
        if event.target is not None:
            refs.append(("target", event.target, "be voted for"))
    elif isinstance(event, ProposeEvent):
        refs.append(("leader", event.leader, "propose a team"))
        refs.extend((f"team[{i}]", name, "be proposed for a team") for i, name in enumerate(event.team))
    elif isinstance(event, MurderEvent):
        refs.append(("victim", event.victim, "be murdered"))
        refs.extend((f"by[{i}]", name, "murder anyone") for i, name in enumerate(event.by or ()))
    elif isinstance(event, BanishEvent):
        refs.append(("player", event.player, "be banished"))
    elif isinstance(event, RecruitEvent):
        refs.append(("player", event.player, "be recruited"))
        refs.append(("by", event.by, "recruit anyone"))
    elif isinstance(event, ThoughtEvent):
        refs.append(("player", event.player, "have thoughts"))
    elif isinstance(event, EmotionEvent):
        refs.append(("player", event.player, "have an emotion state"))
    elif isinstance(event, ReflectEvent):
        refs.append(("player", event.player, "reflect before the game's end"))
    elif isinstance(event, BeliefEvent):
        refs.append(("player", event.player, "hold a belief"))
    if not isinstance(event, EndEvent):
        refs.extend((f"witnesses[{i}]", name, "witness anything")
                    for i, name in enumerate(getattr(event, "witnesses", None) or ()))
        refs.extend((f"emotion.{name}", name, "perceive anything") for name in getattr(event, "emotion", None) or {})
    return refs


def _traitor_acts(event: Event) -> list[tuple[str, str, str]]:
    """``(field, player, what only the traitor side can do)`` for every field of ``event`` that must name a player
    of the traitor side: the speaker on the ``traitors`` channel, a murder voter, a murderer, a recruiter."""
    if isinstance(event, SayEvent) and event.channel == "traitors":
        return [("speaker", event.speaker, "speak on the traitors channel")]
    if isinstance(event, VoteEvent) and event.ballot == "murder":
        return [("voter", event.voter, "cast a murder vote")]
    if isinstance(event, MurderEvent):
        return [(f"by[{i}]", name, "murder") for i, name in enumerate(event.by or ())]
    if isinstance(event, RecruitEvent):
        return [("by", event.by, "recruit")]
    return []


class GameState:
    """Who is still in the game, each player's current role and side, the current votes, and the end.

    roles : {player name: role}, the header's roles in header order (then updated by recruitment)
    traitor_roles : the header's ``traitor_roles`` (a recruit's role: :func:`graphmem.logs.schema.recruit_role`)
    place : how messages name an earlier event by its line (default "line 9"; a live game has no file and says
        "event 7 of the game")
    side_names : (hidden side, other side), the header's ``side_names`` (default ("traitor", "faithful"))

    Attributes: ``eliminated`` {player: Elimination}, ``recruited`` {player: line}, ``banish_votes`` {voter: target}
    of the current banishment round (cleared by each banishment), ``ballots`` the banish ballot rounds by day (the
    rounds claims about votes name, docs/perception.md#claims), ``proposal`` (leader, team) of the last ``propose`` or None,
    ``ballot_voters`` {ballot: voters in order} of the yes/no ballots since that ballot's last ``outcome`` (for a
    quest ballot: the quest's team), ``ended`` (line, winner) or None.
    """

    def __init__(self, roles: Mapping[str, str], traitor_roles: Sequence[str] = DEFAULT_TRAITOR_ROLES,
                 side_names: Sequence[str] = DEFAULT_SIDE_NAMES, place: Callable[[int], str] = line_place) -> None:
        self.place = place
        self.roles = dict(roles)
        self.traitor_roles = tuple(traitor_roles)
        self.side_names = (side_names[0], side_names[1])
        self.eliminated: dict[str, Elimination] = {}
        self.recruited: dict[str, int] = {}
        self.banish_votes: dict[str, str] = {}
        self.ballots = BallotRounds()
        self.proposal: tuple[str, tuple[str, ...]] | None = None
        self.ballot_voters: dict[str, list[str]] = {}
        self.ended: tuple[int, str] | None = None

    @classmethod
    def of(cls, header: GameHeader, place: Callable[[int], str] = line_place) -> GameState:
        """The state at the start of the game ``header`` describes; ``place`` as in the class."""
        return cls(header.roles, header.traitor_roles, (header.side_names.traitor, header.side_names.faithful), place)

    def copy(self) -> GameState:
        """An independent copy (the records it holds are immutable)."""
        other = GameState(self.roles, self.traitor_roles, self.side_names, self.place)
        other.eliminated = dict(self.eliminated)
        other.recruited = dict(self.recruited)
        other.banish_votes = dict(self.banish_votes)
        other.ballots = self.ballots.copy()
        other.proposal = self.proposal
        other.ballot_voters = {key: list(voters) for key, voters in self.ballot_voters.items()}
        other.ended = self.ended
        return other

    def side_of(self, name: str) -> str:
        """The name of the side ``name`` is (now) on: ``side_names[0]`` for the traitor side, else ``side_names[1]``."""
        return self.side_names[0] if self.is_traitor(name) else self.side_names[1]

    def status(self, name: str) -> str:
        """``"alive"``, ``"murdered"`` or ``"banished"``."""
        gone = self.eliminated.get(name)
        return "alive" if gone is None else gone.how

    def living(self) -> list[str]:
        """Living players, in header order."""
        return [p for p in self.roles if p not in self.eliminated]

    def living_traitors(self) -> list[str]:
        """Living players whose role is on the traitor side."""
        return [p for p in self.living() if self.roles[p] in self.traitor_roles]

    def is_traitor(self, name: str) -> bool:
        """Whether ``name`` is (now) on the traitor side."""
        return self.roles.get(name) in self.traitor_roles

    def is_traitor_role(self, role: str | None) -> bool:
        """Whether ``role`` is a role of the traitor side."""
        return role in self.traitor_roles

    def problems(self, event: Event, line: int) -> list[LogProblem]:
        """Every rule of the module docstring that ``event`` on ``line`` breaks (names not in ``roles`` are
        skipped: the reader reports them as unknown players)."""
        if self.ended is not None:
            if isinstance(event, ReflectEvent):
                return []  # after the game every player reflects, an eliminated one too
            end_line, winner = self.ended
            return [LogProblem(line, "kind", f"the game ended at {self.place(end_line)} (winner {winner!r}): no event "
                                             "may follow the end event but a reflection")]
        problems = [LogProblem(line, where, f"{gone.describe(name, self.place)}: an eliminated player cannot {what}")
                    for where, name, what in _acting(event) if (gone := self.eliminated.get(name)) is not None]
        problems.extend(LogProblem(line, where, self._not_traitor_side(name, what))
                        for where, name, what in _traitor_acts(event)
                        if name in self.roles and self.roles[name] not in self.traitor_roles)
        revealed = (("role_revealed", event.player, event.role_revealed) if isinstance(event, BanishEvent)
                    else ("role", event.player, event.role) if isinstance(event, RevealEvent) else None)
        if revealed is not None:
            where, player, role = revealed
            current = self.roles.get(player)
            side = self.side_of(player) if isinstance(event, RevealEvent) and current is not None else None
            if role is not None and current is not None and role != current and role != side:
                problems.append(LogProblem(line, where, self._role_mismatch(player, role, current, side)))
        return problems

    def _not_traitor_side(self, player: str, what: str) -> str:
        sides = ", ".join(repr(r) for r in self.traitor_roles)
        held = sorted({r for r in self.roles.values() if r not in self.traitor_roles})
        hint = (f"; if {self.roles[player]!r} is this game's killing side, name it in the header: "
                f'"traitor_roles": ["{self.roles[player]}"]' if not any(r in self.traitor_roles for r in
                                                                         self.roles.values()) else "")
        return (f"{player} ({self.roles[player]!r}) is not on the traitor side (traitor_roles: {sides}; other roles: "
                f"{', '.join(held)}): only the traitor side can {what}{hint}")

    def _role_mismatch(self, player: str, role: str, current: str, side: str | None) -> str:
        source = f"recruited at {self.place(self.recruited[player])}" if player in self.recruited else "in the header"
        hint = " (roles are case-sensitive)" if role.casefold() in (current.casefold(), (side or "").casefold()) \
            else ""
        also = f" (side {side!r})" if side is not None and side != current else ""
        return f"reveals {player} as {role!r}, but {player}'s role is {current!r}{also} ({source}){hint}"

    def apply(self, event: Event, line: int, phase: int, day: int, phase_name: str) -> None:
        """Record an accepted event (after its witnesses were judged on the state before it): a banish vote, a
        yes/no vote, a proposal, an outcome, an elimination, a recruitment, the end."""
        if isinstance(event, VoteEvent) and event.ballot == "banish" and event.target:
            self.banish_votes[event.voter] = event.target
            self.ballots.vote(day, event.voter, event.target)
        elif isinstance(event, VoteEvent) and event.target is None:
            self.ballot_voters.setdefault(event.ballot, []).append(event.voter)
        elif isinstance(event, ProposeEvent):
            self.proposal = (event.leader, event.team)
        elif isinstance(event, OutcomeEvent) and event.ballot is not None:
            self.ballot_voters.pop(event.ballot, None)
        elif isinstance(event, MurderEvent):
            self.eliminated[event.victim] = Elimination("murdered", line, phase, day, phase_name)
        elif isinstance(event, BanishEvent):
            self.eliminated[event.player] = Elimination("banished", line, phase, day, phase_name)
            self.banish_votes.clear()
            self.ballots.banished(day)
        elif isinstance(event, RecruitEvent):
            self.roles[event.player] = recruit_role(self.roles.get(event.by), self.traitor_roles)
            self.recruited[event.player] = line
        elif isinstance(event, EndEvent):
            self.ended = (line, event.winner)
