"""Importer ``traitors-plomp``: the public LLM Traitors logs of michaelgiba/the-traitors (docs/perception.md#imported-logs).

Input: a game folder holding ``plomp.json`` (and optionally ``result.json``), or the ``plomp.json`` file itself.
The game id is the folder's name. ``plomp.json`` is ``{"key": ..., "buffer_items": [...]}``; items of type
``event`` are game events (``data.payload.plomp_display_event_type`` and ``plomp_display_text``), items of type
``prompt`` and ``query`` are the models' contexts and replies and are skipped.

Mapping (every event type of the 40 public games; witnesses are always set explicitly):

=========================  ==========================================================  =============
plomp event type           canonical event                                             phase
=========================  ==========================================================  =============
ROLE_SELECTED              reveal {player, role}                                       (pregame)
GAME_START                 observe {observers, text}                                   (pregame)
PRIVATE_MESSAGE            say {speaker, to: [recipient], channel private, text}       social
ROUND_TABLE_SPEECH         say {speaker, to all, channel roundtable, text}             roundtable
ROUND_TABLE_VOTE           vote {voter, target, ballot banish} + voted_for claim       roundtable
ELIMINATED_PLAYER          banish {player, votes, role_revealed}                       banishment
MURDER_SUGGESTION          say {speaker, to all, channel traitors, text, about}        night
MURDER_VOTE                vote {voter, target, ballot murder, text: reason}           night
MURDER_DECISION            observe {observers, text, about: [victim]}                  night
MURDERED_PLAYER            murder {victim, by: the living traitors}                    breakfast
FINAL_ROUND_ANNOUNCEMENT   observe {observers, text}                                   final
FINAL_ROUND_VOTE           vote {voter, ballot end_game, choice end|continue, text}    final
                           or vote {voter, target, ballot banish} + voted_for claim
FINAL_ROUND_CONTINUE       observe {observers, text}                                   final
FINAL_ROUND_SPEECH         say {speaker, to all, channel roundtable, text}             final
FINAL_ROUND_ELIMINATION    banish {player, votes} (role stays hidden)                  banishment
GAME_END                   end {winner, text}                                          (unchanged)
(an empty message)         observe {observers, text: the display text, about}          (as its type)
=========================  ==========================================================  =============

Witnesses: the players with a ``<Name>_visible: true`` tag, minus the players eliminated (murdered or banished)
by an earlier event; the victim of a murder and the banished player still witness their own elimination.

Phases and days (the logs have no phase events): each event type has a phase (table above). A ``phase`` event is
emitted when an event's phase differs from the current one. Phases of a day run in the order breakfast, social,
roundtable, final, banishment, night; the day advances when the new phase does not come later in that order than
the current one (a murder revealed at breakfast after the night; a day that starts with private messages or a
final round right after a banishment, when no murder happened that night; a second final round after a final
banishment). Day 1 starts with the first event after the role selection and GAME_START (which stay in the
pregame phase 0, day 0). So a day's round table votes stay in the round-table phase (votes alternate with
speeches: one speech, then that speaker's vote), the banishment phase is the announcement of the result, and
"MURDERED_PLAYER" opens the breakfast of the next day. The day equals the engine's ``round`` (GAME_END payload,
result.json) except when the game ends at a breakfast (the last faithful murdered): the end is then on the next
day.

Roles come from GAME_START's structured ``traitors``/``faithfuls`` when present and from ROLE_SELECTED, which
must agree. A banishment that reveals a role must agree with them too. "WAS NOT a traitor" reveals the player's
(non-traitor) role, i.e. "faithful".

Claims: role and vote claims of statements from :mod:`graphmem.claims.extract`; a ``voted_for`` claim on each banish
vote (not on murder votes, which are not statements about a banishment). ``about`` of statements and of murder
suggestions lists the players named in the text (whole words, any case; not the speaker).

Anything that does not parse is reported as a problem with its position and a text excerpt, never guessed.

The package: :mod:`.importer` (:class:`TraitorsPlompImporter`, detection and the item-by-item conversion),
:mod:`.source` (reading plomp.json, its event items, players and roles), :mod:`.patterns` (the text patterns),
:mod:`.phases` (the phase and day synthesis), :mod:`.mapping` (plomp events to canonical events), :mod:`.game`
(the state of one conversion). It is registered in :mod:`graphmem.importers`.
"""

from __future__ import annotations

from graphmem.importers.traitors_plomp.importer import LICENCE, NAME, SOURCE_REPOSITORY, TraitorsPlompImporter
from graphmem.importers.traitors_plomp.mapping import MAPPED_TYPES, mapped_types
from graphmem.importers.traitors_plomp.patterns import (
                                                             CURLY_QUOTED,
                                                             PATTERNS,
                                                             QUOTED,
                                                             SHAPES,
                                                             compile_patterns,
                                                             match_text,
                                                             name_pattern,
)
from graphmem.importers.traitors_plomp.phases import DAY_ORDER, PHASE_OF
from graphmem.importers.traitors_plomp.source import plomp_file

__all__ = ["CURLY_QUOTED", "DAY_ORDER", "LICENCE", "MAPPED_TYPES", "NAME", "PATTERNS", "PHASE_OF", "QUOTED", "SHAPES",
           "SOURCE_REPOSITORY", "TraitorsPlompImporter", "compile_patterns", "mapped_types", "match_text",
           "name_pattern", "plomp_file"]
