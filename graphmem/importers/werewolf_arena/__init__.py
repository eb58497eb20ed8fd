"""Importer ``werewolf-arena``: Werewolf games saved by the engine of google/werewolf_arena (arXiv 2407.13943;
docs/perception.md#imported-logs).

Input: one game folder as ``werewolf.logging.save_game`` writes it: ``game_complete.json`` (``game_partial.json``
when the engine stopped on an error), the engine's State, and ``game_logs.json``, every model call of each round.
The game id is ``werewolf-arena-`` and the folder's name (the engine's runner gives every game the ``session_id``
"10" and names the folder by time).

Header: the players and their roles in lower case ("werewolf", "villager", "seer", "doctor"; the engine's words in
``metadata.source_roles``), ``traitor_roles`` ["werewolf"], ``side_names`` {"traitor": "werewolves", "faithful":
"villagers"}; the players' models, the engine's ``session_id`` and, for a stopped game, the last line of its error in
``metadata``.

Mapping (day N is the engine's Round N; the event ids name the round and the step, so that a player's memories can be
held against the engine's record of what it showed them; every witness list is the engine's):

==============================================  ==============================================================  ======
source                                          canonical event (id)                                            phase
==============================================  ==============================================================  ======
each player's role                              reveal {player, role}, seen by that player (``role-P``)          0 pregame
each werewolf's partner (``other_wolf``)        reveal {partner, "werewolf"}, seen by the werewolf alone         0 pregame
                                                (``wolf-P-Q``)
rounds[N].eliminated                            vote {voter: the werewolf whose prompt chose (game_logs.json),  N night
                                                target, ballot murder}: the living werewolves (``rN-eliminate``)
rounds[N].protected                             vote {voter: the Doctor, target, ballot protect, secret}: the    N night
                                                Doctor alone (``rN-protect``)
rounds[N].unmasked                              reveal {player, role}, seen by the Seer alone (``rN-unmask``)    N night
the morning's announcement                      murder {victim, by: the living werewolves}, seen by the living,  N day
                                                or observe "No one was removed ..." (``rN-morning``)
rounds[N].debate[i]                             say {speaker, to all, channel public, text, about, claims}:      N day
                                                the living players (``rN-debate<i+1>``)
rounds[N].votes[i], every turn but the last     vote {ballot poll, witnesses []}: kept, remembered by nobody    N day
                                                (``rN-poll<i+1>-P``)
rounds[N].votes[-1], the vote after the debate  vote {ballot banish, secret, voted_for claim}: the voter alone   N vote
                                                (``rN-vote-P``)
rounds[N].exiled                                banish {player, votes} without the role, seen by the players     N vote
                                                still in the game, or observe "A majority vote was not reached
                                                ..." (``rN-exile``)
each player's "Round N: Summary: ..."           reflect {player, text}: their own conclusion (``rN-summary-P``)  N vote
winner                                          end {winner "werewolves"/"villagers"}, witnesses [] (``end``)     last
==============================================  ==============================================================  ======

What each player is shown follows the engine exactly, and the tests hold it to the engine's own per-player record
(each player's ``observations`` and the debate their prompts showed): the night's victim is not told of the
morning's announcement, nor the exiled player of the exile; the votes are secret ("Your vote will not be revealed
to the other players"), so each player remembers their own final vote and nobody the votes the engine asks for
after every debate turn; the exile does not reveal the role; the Doctor's save and the Seer's answer are the
Doctor's and the Seer's alone; and the engine never tells the players who won, so the ``end`` is stored but
remembered by nobody.

Claims (:mod:`graphmem.claims.extract`, :mod:`graphmem.claims.saves`): each debate line gives role claims ("I am
the Seer", "Derek is a werewolf"), vote claims of the day's ballot ("I'm voting for Mason"), stances and save claims
("I protected Mason last night": ``protected``, about the night of that day); each final vote claims itself.

Lost: the bids to speak (``rounds[].bids``, never shown to anyone) and the models' prompts, replies and reasons
(``game_logs.json``, of which only the werewolf who chose each night's victim is read); the players' ``personality``
and ``bidding_rationale``.

Tolerance: player names, roles and the winner are read as keywords (:mod:`graphmem.importers.keywords`), each near
spelling reported as a guess with its JSON path; a round whose players the events do not leave as the engine lists
them is a problem. Without ``game_logs.json``, the werewolves' choice is an ``observe`` of the living werewolves.
"""

from __future__ import annotations

from graphmem.importers.werewolf_arena.game import LICENCE, NAME, SOURCE_REPOSITORY
from graphmem.importers.werewolf_arena.importer import WerewolfArenaImporter

__all__ = ["LICENCE", "NAME", "SOURCE_REPOSITORY", "WerewolfArenaImporter"]
