"""From a validated game log to the rows of the graph: perception (docs/perception.md#who-remembers-what) and encoding
(docs/model.md#salience, docs/model.md#encoding-strength-and-stability, docs/model.md#the-appraisal-table,
docs/model.md#flashbulb-memories, docs/model.md#working-memory).

Pure: no I/O, no Neo4j, no embeddings (rumour chains, which need embeddings, are linked afterwards by
:mod:`graphmem.ingest.rumours`). The same log and parameters always give the same rows, which is what makes a
second ingest of a log a no-op.

The emotions a witness encodes with (docs/model.md#salience's ``I``) are the event's ``emotion`` entry for that witness
when the log gives one (a game's emotion engine); otherwise the appraisal of docs/model.md#the-appraisal-table combined
with the witness's current emotion state from ``emotion`` events (the larger intensity of each emotion stands).

The claims an event is encoded with (perception, memory type, rumour chains, ``claims_json`` of its Event and
Memory nodes) are its own, or for a statement with no ``claims`` key in a log written natively or sent live the
claims the extractor derives from its text (:func:`graphmem.claims.extract.derived_claims`, stances included); every
``voted_for`` claim then names the ballot round it is about (:func:`graphmem.claims.extract.with_rounds`: a vote's
own claim its day, any other without one the latest ballot before the statement). The log itself, and so its hash,
stays as written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from graphmem.claims.extract import claim_extractor_for, derived_claims, with_rounds
from graphmem.errors import LogProblem
from graphmem.ingest import texts
from graphmem.ingest.perception import Percept, about_of, actor_of, perceive, targets_of
from graphmem.logs.reader import GameLog, LoggedEvent, PhaseInfo
from graphmem.logs.schema import (
    BanishEvent,
    Claim,
    EmotionEvent,
    Event,
    GameHeader,
    PhaseEvent,
    SayEvent,
    ThoughtEvent,
)
from graphmem.logs.state import GameState
from graphmem.model import Parameters, Profile, Situation, SourceType
from graphmem.model.clarity import lifecycle_state
from graphmem.model.details import details_to_json, search_keywords
from graphmem.model.encoding import classify_type, decay_rate, encoding_strength, stability
from graphmem.model.flashbulb import EmotionalContext, emotional_peak, flashbulb_score, is_flashbulb, strength_floor
from graphmem.model.salience import appraise, personal_relevance, salience
from graphmem.model.source import OWN_KINDS, initial_source_confidence, source_exponent
from graphmem.store.keys import (
    automatic_thought_id,
    event_uid,
    memory_uid,
    phase_uid,
    player_uid,
    scope_token,
    source_uid,
    thought_uid,
)
from graphmem.store.records import EventRow, GameRow, GameRows, MemoryRow, PhaseRow, PlayerRow, ThoughtRow, ToldRow

LISTENER_SOURCES = (SourceType.DIRECT_TOLD, SourceType.GROUP_DISCUSS)
"""Sources that count as being told (a TOLD edge); overhearing is not being told."""


ClaimTuple = tuple[str, str, str, bool, int | None]
"""A claim as rows and rumour chains keep it: (subject, predicate, object, polarity, round or None)."""


@dataclass(frozen=True)
class Statement:
    """A ``say`` event as rumour chains need it (docs/perception.md#rumour-chains).

    order : int, position of the event in the log; speaker : str; text : the statement's content (the text of
    its listeners' memories); claims : tuple of ClaimTuple; listeners : uids of the
    memories of everyone who heard it (told, overheard, group)
    """

    order: int
    speaker: str
    text: str
    claims: tuple[ClaimTuple, ...]
    listeners: tuple[str, ...]


@dataclass
class EncodedGame(GameRows):
    """Everything one game log becomes, before embeddings: the rows to store, and what rumour chains need.

    statements : the ``say`` events, in log order
    memory_order : {memory uid: position of its event in the log} (rumour chains look only backwards)
    memory_claims : {memory uid: claims of its event}
    """

    statements: list[Statement] = field(default_factory=list)
    memory_order: dict[str, int] = field(default_factory=dict)
    memory_claims: dict[str, tuple[ClaimTuple, ...]] = field(default_factory=dict)
    game_changed: bool = True
    """False when :meth:`GameEncoder.take` gave the game row as the previous take did (a live batch then leaves the
    stored Game node to ``ingest/live_claim``)."""


def _claims(logged: LoggedEvent) -> tuple[ClaimTuple, ...]:
    return tuple((c.subject, c.predicate, c.object, c.polarity, c.round) for c in getattr(logged.event, "claims", ()))


def _claims_json(claims: Sequence[ClaimTuple]) -> str:
    """``claims_json`` of a Memory or Event: a list of ``[subject, predicate, object, polarity]``, with the round as
    a fifth item for a ``voted_for`` claim that names one; names as written (not \\u-escaped), so that the claim
    queries, which look for a player's name in it, find every player."""
    return json.dumps([list(c[:4]) + ([c[4]] if c[4] is not None else []) for c in claims], ensure_ascii=False)


def _annotations_json(event: Event) -> str | None:
    """``annotations_json`` of an Event: its annotations (labels added after play, docs/log-format.md#annotations) as
    a JSON object with sorted keys, or None when it has none. Only the Event node holds them: no memory is made of
    them."""
    annotations = getattr(event, "annotations", None)
    return json.dumps(annotations, ensure_ascii=False, sort_keys=True) if annotations else None


def _attributed(event: Event) -> str | None:
    """A statement with its speaker, as everyone who perceives it does at encoding ("Melanie: I play the clarinet"):
    what is embedded for every memory of it (the speaker's own included), so that a question naming the speaker
    meets it in meaning as well as in words (LoCoMo, bench/README.md: plain cosine over the bare turn 0.237, over
    "Speaker: turn" 0.432)."""
    if not isinstance(event, SayEvent):
        return None
    return f"{event.speaker}: {' '.join(event.text.split())}"


def _conversation(event: SayEvent) -> tuple[str, frozenset[str]]:
    """Which conversation a statement belongs to: its channel and, for a private one, the people in it (speaker and
    addressees, in either direction); everything said on a shared channel (the round table, in public, at the
    hidden side's meeting) is one conversation."""
    if event.channel != "private" or event.to == "all":
        return event.channel, frozenset()
    return event.channel, frozenset([event.speaker, *event.to])


def _emotions(logged: LoggedEvent, owner: str, appraised: Mapping[str, float],
              current: Mapping[str, float]) -> dict[str, float]:
    given = getattr(logged.event, "emotion", None)
    if given and owner in given:
        return dict(given[owner])
    merged = dict(current)
    for name, intensity in appraised.items():
        merged[name] = max(intensity, merged.get(name, 0.0))
    return merged


class GameEncoder:
    """Walks a game's events in order, keeping the game state (living players, roles, votes of the round, emotion
    states), and accumulates the rows. :func:`encode_game` runs it over a whole log; a live game feeds it one
    event at a time (:mod:`graphmem.ingest.live`) and takes the rows added since the last call.
    """

    def __init__(self, header: GameHeader, params: Parameters, imported_from: str = "graphmem") -> None:
        self.header = header
        self.imported_from = imported_from
        self.params = params
        self.game = header.game
        self.profiles: dict[str, Profile] = {
            p.name: params.profile(p.profile or params.default_profile) for p in header.players}
        self.state = GameState.of(header)
        self.emotion: dict[str, dict[str, float]] = {p: {} for p in self.state.roles}
        self.memories: list[MemoryRow] = []
        self.events: list[EventRow] = []
        self.told: list[ToldRow] = []
        self.thoughts: list[ThoughtRow] = []
        self.statements: list[Statement] = []
        self.memory_order: dict[str, int] = {}
        self.memory_claims: dict[str, tuple[ClaimTuple, ...]] = {}
        self.seq = 0
        self.conversations: dict[tuple[str, frozenset[str]], tuple[int, str, frozenset[str]]] = {}
        """The last statement of each conversation (:func:`_conversation`): its phase, words and perceivers."""
        self._taken = (0, 0, 0, 0, 0)
        self._taken_rows: tuple[GameRow | None, dict[str, PlayerRow], int] = (None, {}, 0)
        """The game row, the player rows by uid and the number of phases the last ``take`` gave."""
        self.extractor = claim_extractor_for(header)
        self.roles = frozenset(header.roles.values())
        side = header.side_names.traitor
        self.killers = "traitors" if side == "traitor" else side

    def wording(self, event: Event, owner: str | None, day: int) -> texts.Wording:
        """How ``owner`` (None: the ground truth) words ``event``, in this game's state (the team last proposed,
        the game's roles, the name of the side that murders, whether the game has ended):
        :func:`graphmem.ingest.texts.wording`."""
        team = self.state.proposal[1] if self.state.proposal is not None else ()
        return texts.wording(event, owner, day, team=team, roles=self.roles, killers=self.killers,
                             ended=self.state.ended is not None)

    # -- memories -------------------------------------------------------------------------------------------------

    def memory(self, logged: LoggedEvent, order: int, percept: Percept, wording: texts.Wording,
               *, kind: str | None = None, lesson: bool = False, context: str | None = None) -> MemoryRow:
        """Encode one memory for ``percept.owner`` (salience, E0, S, flashbulb, source) and keep its row.

        context : for a statement, the words of the statement it followed in its conversation, when the owner heard
        that one too (:meth:`_followed`).
        """
        p, owner = self.params, percept.owner
        profile = self.profiles[owner]
        appraisal = appraise(percept.situation, p, voted_out_faithful=percept.voted_out_faithful)
        emotions = _emotions(logged, owner, appraisal.emotions, self.emotion[owner])
        relevance = personal_relevance(appraisal.relevance, percept.involved, p)
        sal = salience(appraisal.relevance, percept.involved, emotions, profile, p)
        flashbulb = is_flashbulb(emotions, appraisal.surprise, relevance, appraisal.consequence, p)
        peak = emotional_peak(emotions)
        claims = _claims(logged)
        kind = kind or logged.kind
        factual = any(c[1] in ("role", "side") for c in claims)
        mtype = classify_type(kind, emotion_peak=peak, flashbulb=flashbulb, factual=factual, params=p)
        e0 = encoding_strength(sal, profile, flashbulb, p)
        s = stability(sal, profile, mtype, flashbulb, p)
        c0 = initial_source_confidence(percept.source_type, p)
        about = [name for name in about_of(logged.event, list(self.state.roles)) if name != owner]
        uid = memory_uid(self.game, owner, logged.id, lesson)
        event = event_uid(self.game, logged.id)
        row = MemoryRow(
            uid=uid, game=self.game, owner=owner, event=logged.id, kind=kind, type=str(mtype),
            text=wording.text, template=wording.template, details_json=details_to_json(wording.details),
            n_lost=0, fabricated=False, about=about, keywords=search_keywords(wording.details, about),
            scope=scope_token(self.game, owner), claims_json=_claims_json(claims),
            t_enc=logged.phase, day=logged.day, phase_name=logged.phase_name, salience=sal, relevance=relevance,
            emotion_peak=peak, emotion_json=EmotionalContext.of(emotions).to_json(), surprise=appraisal.surprise,
            consequence=appraisal.consequence, flashbulb=flashbulb,
            flashbulb_score=flashbulb_score(peak, appraisal.surprise, relevance, appraisal.consequence, p),
            floor=strength_floor(flashbulb, p), e0=e0, s_enc=s, decay_rate=decay_rate(profile, flashbulb, p),
            e_ref=e0, t_ref=logged.phase, s=s, n=0, strength=max(e0, strength_floor(flashbulb, p)),
            decayed_to=logged.phase, state=str(lifecycle_state(e0, profile.retrieval_threshold, p)),
            threshold=profile.retrieval_threshold, source_type=str(percept.source_type), teller=percept.teller,
            c0=c0, source_k=source_exponent(profile, p), source_confidence=c0,
            source_belief=str(percept.source_type), believed_teller=percept.teller, misattributed=False,
            channel=getattr(logged.event, "channel", None), owner_uid=player_uid(self.game, owner),
            event_uid=event, source_uid=source_uid(self.game, owner, logged.id, lesson),
            teller_uid=player_uid(self.game, percept.teller) if percept.teller else None,
            about_uids=[player_uid(self.game, name) for name in about],
            own=kind in OWN_KINDS and actor_of(logged.event) == owner, context=context,
            attributed=_attributed(logged.event) if kind == "say" else None)
        self.memories.append(row)
        self.memory_order[uid] = order
        self.memory_claims[uid] = claims
        if flashbulb or percept.situation is Situation.ACCUSED:
            trigger = "flashbulb" if flashbulb else "accusation"
            w = p.working_memory
            self.thought(owner, automatic_thought_id(logged.id, trigger), wording.text, w.automatic_priority,
                         w.automatic_persistence, logged.phase, trigger)
        return row

    def thought(self, player: str, thought_id: str, content: str, priority: float, persistence: int,
                phase: int, trigger: str) -> None:
        """Push a working-memory item (docs/model.md#working-memory); the decay job decides which are active."""
        self.seq += 1
        self.thoughts.append(ThoughtRow(
            uid=thought_uid(self.game, player, thought_id), game=self.game, player=player, content=content,
            priority=priority, persistence=persistence, pushed_phase=phase, expires_phase=phase + persistence,
            seq=self.seq, trigger=trigger, active=persistence > 0, persistence_left=persistence,
            player_uid=player_uid(self.game, player)))

    # -- events ---------------------------------------------------------------------------------------------------

    def event(self, logged: LoggedEvent, order: int) -> None:
        """Perceive, encode and apply one event of the log (with its derived claims, see the module docstring)."""
        logged = self.with_claims(logged)
        event = logged.event
        if isinstance(event, PhaseEvent):
            return
        if isinstance(event, EmotionEvent):
            self.emotion[event.player] = dict(event.state)
            return
        if isinstance(event, ThoughtEvent):
            self._thought_event(logged, order, event)
            return
        percepts = perceive(logged, self.state)
        self._event_row(logged, [pc.owner for pc in percepts])
        before = self._followed(logged, event) if isinstance(event, SayEvent) else None
        rows = [self.memory(logged, order, pc, self.wording(event, pc.owner, logged.day),
                            context=before[0] if before is not None and pc.owner in before[1] else None)
                for pc in percepts]
        if isinstance(event, SayEvent):
            self._statement(logged, order, event, percepts, rows)
            self.conversations[_conversation(event)] = (logged.phase, " ".join(event.text.split()),
                                                        frozenset(pc.owner for pc in percepts))
        if (isinstance(event, BanishEvent) and event.role_revealed is not None
                and not self.state.is_traitor_role(event.role_revealed)):
            self._lessons(logged, order, event, percepts)
        self.state.apply(event, logged.line, logged.phase, logged.day, logged.phase_name)

    def with_claims(self, logged: LoggedEvent) -> LoggedEvent:
        """``logged`` with the claims it is encoded with: its own, or those derived from its text, each
        ``voted_for`` claim naming its ballot round."""
        event = logged.event
        rounds = self.state.ballots.at(logged.day, table=getattr(event, "channel", None) == "roundtable")
        derived = derived_claims(event, self.extractor, rounds) if self.extractor is not None else None
        given: tuple[Claim, ...] = derived if derived is not None else tuple(getattr(event, "claims", ()))
        claims = with_rounds(event, given, rounds, logged.day)
        if derived is None and claims == given:
            return logged
        return replace(logged, event=event.model_copy(update={"claims": claims}))

    def _thought_event(self, logged: LoggedEvent, order: int, event: ThoughtEvent) -> None:
        self.thought(event.player, logged.id, event.text, event.priority, event.persistence, logged.phase,
                     event.trigger or event_uid(self.game, logged.id))
        if event.procedural:
            percept = Percept(event.player, SourceType.INFERRED, None, Situation.OTHER, True)
            self._event_row(logged, [event.player])
            self.memory(logged, order, percept, texts.Wording("{content}", texts.details_for(
                logged.day, quote=event.text, what=texts.gist(event.text))), kind="lesson")

    def _followed(self, logged: LoggedEvent, event: SayEvent) -> tuple[str, frozenset[str]] | None:
        """The statement ``event`` followed in its conversation, in the same phase: (its words, who perceived it), or
        None for an opening statement. What was just said is part of the situation a reply is encoded in (Tulving &
        Thomson 1973, encoding specificity): "what did Melanie say about the kids" finds her "Yes, they loved it"
        through the question it answered (docs/model.md#candidates-and-ranking)."""
        last = self.conversations.get(_conversation(event))
        if last is None or last[0] != logged.phase:
            return None
        return last[1], last[2]

    def _statement(self, logged: LoggedEvent, order: int, event: SayEvent, percepts: list[Percept],
                   rows: list[MemoryRow]) -> None:
        listeners = tuple(r.uid for pc, r in zip(percepts, rows) if pc.source_type is not SourceType.FIRST_HAND)
        content = next((r.text for pc, r in zip(percepts, rows) if pc.source_type is not SourceType.FIRST_HAND),
                       None)
        if content is not None:
            self.statements.append(Statement(order, event.speaker, content, _claims(logged), listeners))
        for pc in percepts:
            if pc.source_type in LISTENER_SOURCES:
                self.told.append(ToldRow(player_uid(self.game, event.speaker), player_uid(self.game, pc.owner),
                                         logged.id, logged.phase, logged.day, event.channel))

    def _lessons(self, logged: LoggedEvent, order: int, event: BanishEvent, percepts: list[Percept]) -> None:
        witnesses = {pc.owner for pc in percepts}
        for voter, target in self.state.banish_votes.items():
            if target == event.player and voter in witnesses:
                percept = Percept(voter, SourceType.INFERRED, None, Situation.BANISHMENT_REVEAL, True, True)
                self.memory(logged, order, percept, texts.lesson_wording(event.player, logged.day),
                            kind="lesson", lesson=True)

    def _event_row(self, logged: LoggedEvent, witnesses: list[str]) -> None:
        event, game = logged.event, self.game
        objective = self.wording(event, None, logged.day) if not isinstance(event, ThoughtEvent) else \
            texts.Wording(event.text, ())
        actor = actor_of(event) if not isinstance(event, ThoughtEvent) else event.player
        targets = targets_of(event) if not isinstance(event, ThoughtEvent) else []
        self.events.append(EventRow(
            uid=event_uid(game, logged.id), game=game, id=logged.id, kind=logged.kind, phase=logged.phase,
            day=logged.day, line=logged.line, text=objective.text, channel=getattr(event, "channel", None),
            ballot=getattr(event, "ballot", None), actor=actor, targets=targets, witnesses=witnesses,
            details_json=details_to_json(objective.details), claims_json=_claims_json(_claims(logged)),
            role_revealed=getattr(event, "role_revealed", None) or getattr(event, "role", None),
            t=getattr(event, "t", None), secret=bool(getattr(event, "secret", False)),
            choice=getattr(event, "choice", None), result=getattr(event, "result", None),
            belief=getattr(event, "belief", None), annotations_json=_annotations_json(event),
            phase_uid=phase_uid(game, logged.phase),
            actor_uid=player_uid(game, actor) if actor else None,
            target_uids=[player_uid(game, p) for p in targets],
            witness_uids=[player_uid(game, p) for p in witnesses]))

    # -- the game -------------------------------------------------------------------------------------------------

    def take(self, phases: Sequence[PhaseInfo]) -> EncodedGame:
        """The rows added or changed since the last ``take``: the new events, memories, told rows, thoughts,
        statements and phases, the players whose row changed (a role, a fate, an emotion), and the game row always,
        with ``game_changed`` False when it is the last take's (a live batch writes only these: what an earlier take
        gave is stored already, and a stored row that did not change needs no statement)."""
        full = self.result(phases)
        marks = self._taken
        self._taken = (len(self.events), len(self.memories), len(self.told), len(self.thoughts),
                       len(self.statements))
        full.events, full.memories, full.told, full.thoughts, full.statements = (
            full.events[marks[0]:], full.memories[marks[1]:], full.told[marks[2]:], full.thoughts[marks[3]:],
            full.statements[marks[4]:])
        game, players, phase_count = self._taken_rows
        self._taken_rows = (full.game, {p.uid: p for p in full.players}, len(full.phases))
        full.game_changed = full.game != game
        full.players = [p for p in full.players if players.get(p.uid) != p]
        full.phases = full.phases[phase_count:]
        return full

    def result(self, phases: Sequence[PhaseInfo]) -> EncodedGame:
        """Every row so far; ``phases`` are the game's phases so far (from the validator or the log)."""
        game, p, header = self.game, self.params, self.header
        phase_rows = [PhaseRow(phase_uid(game, ph.index), game, ph.index, ph.day, ph.name,
                               phase_uid(game, ph.index - 1) if ph.index > 0 else None) for ph in phases]
        players = []
        for spec in header.players:
            profile = self.profiles[spec.name]
            gone = self.state.eliminated.get(spec.name)
            players.append(PlayerRow(
                uid=player_uid(game, spec.name), game=game, name=spec.name, role=self.state.roles[spec.name],
                profile=profile.name, status=self.state.status(spec.name),
                eliminated_phase=gone.phase if gone else None,
                eliminated_day=gone.day if gone else None,
                wm_capacity=profile.working_memory_capacity, threshold=profile.retrieval_threshold,
                emotion_json=json.dumps(self.emotion[spec.name], sort_keys=True)))
        last_phase = max((ph.index for ph in phases), default=0)
        row = GameRow(uid=game, game=game, title=header.title or game, format=header.format,
                      imported_from=self.imported_from, curve=p.curve, last_phase=last_phase,
                      winner=self.state.ended[1] if self.state.ended else None,
                      traitor_roles=list(header.traitor_roles),
                      side_names=[header.side_names.traitor, header.side_names.faithful])
        return EncodedGame(row, players, phase_rows, list(self.events), list(self.memories), list(self.told),
                           list(self.thoughts), statements=list(self.statements),
                           memory_order=dict(self.memory_order), memory_claims=dict(self.memory_claims))


def encode_game(log: GameLog, params: Parameters) -> EncodedGame:
    """The rows of one validated game log (see the module docstring).

    Raises UsageProblem when a player's profile is not a known profile (``check_profiles`` reports it earlier,
    with the header line).
    """
    encoder = GameEncoder(log.header, params, log.imported_from)
    for order, logged in enumerate(log.events):
        encoder.event(logged, order)
    return encoder.result(log.phases)



def check_profiles(log: GameLog, params: Parameters) -> list[LogProblem]:
    """Problems with the header's memory profiles (line 1, ``players[i].profile``), before anything is written."""
    known = sorted(params.profiles)
    return [LogProblem(1, f"players[{i}].profile", f"unknown memory profile {spec.profile!r} (known: {', '.join(known)})")
            for i, spec in enumerate(log.header.players) if spec.profile and spec.profile not in params.profiles]
