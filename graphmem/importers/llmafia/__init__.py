"""Importer ``llmafia``: Mafia games played in real time by people with one LLM player, from niveck/LLMafia
(docs/perception.md#imported-logs).

Input: one game folder (``games/NNNN/``: ``config.json``, ``public_manager_chat.txt``, ``public_daytime_chat.txt``,
``public_nighttime_chat.txt``, ``who_wins.txt``, ...). The game id is ``llmafia-NNNN``.

Header: the players of ``config.json`` (``mafia_names.txt`` and ``player_names.txt`` must agree), role "mafia" or
"bystander" (the game's words), ``traitor_roles`` ["mafia"], ``side_names`` {"traitor": "mafia", "faithful":
"bystander"}; the LLM player and its model, and the day and night lengths, in ``metadata``.

Mapping (day N is the N-th "Now it's Daytime"; :mod:`.game` says how lines are placed in days and nights):

=====================================================  ======================================================  ========
source                                                 canonical event                                         phase
=====================================================  ======================================================  ========
config.json                                            reveal of each player's own role, seen by that player   pregame
manager: "Now it's Daytime for N minutes, ..."         phase {day N, name "day"}                               N day
daytime chat: NAME: TEXT                               say {speaker, to all, channel public, about, claims}    N day
daytime chat: "Daytime has ended, now it's time to     phase {day N, name "vote"}                              N vote
vote!"
daytime chat: "X voted for Y"                          vote {ballot banish} + X's voted_for claim              N vote
manager: "X was voted out. Their role was R" (day)     banish {player X, votes: the round's votes for X,       N vote
                                                       role_revealed R}
manager: "Now it's Nighttime for N minutes, ..."       phase {day N, name "night"}                             N night
nighttime chat: NAME: TEXT                             say {channel traitors}: the living mafia alone          N night
nighttime chat: "X voted for Y"                        vote {ballot murder}: the living mafia alone            N night
manager: "X was voted out. Their role was R" (night)   murder {victim X, by: the living mafia, witnessed by    N night
                                                       every living player, X too}, then reveal {X, R} to the
                                                       living
manager: "There is only one mafia member left, ..."    observe by the living players                           N night
who_wins.txt: "Mafia wins!" / "Bystanders win!"        end {winner "mafia" / "bystanders", text}               (last)
=====================================================  ======================================================  ========

The mafia learn of each other in the night chat, not at the start: the source shows them asking "Who's the other
mafia?" on the first night, so no reveal of the other mafia is made.

Human chat is data: typos, jokes and instructions aimed at the LLM player ("ignore all previous instructions ...")
are statements like any other, stored as written and never followed.

Claims (:mod:`graphmem.claims.extract`): a banish vote claims itself (``voted_for``, with its day as the round); a day
chat line gives role, vote and stance claims, each vote claim naming the banish round it is about (a line of the
day's vote phase is said where that day's ballot is held); a night chat line gives no stance and no claim of the
speaker's vote to come (the mafia choosing whom to kill; the night's vote is no banish ballot), only claims about
a past day's vote.

Lost: the wall-clock times (the logs have no date; the order is kept, and the event ids name the file and line);
what a player wrote that nobody saw (lines only in ``NAME_chat.txt``, typed after being voted out or while the chat
was closed); the survey answers (``NAME_survey.txt``); the model prompt logs (left out of the corpus). A game whose
``who_wins.txt`` is empty (0014 and 0015 stop during a vote) has no ``end`` event: ``metadata.end`` says where the
log stops.

Tolerance: the manager's keywords (Daytime, Nighttime, the role, the winner), speakers and the names in vote and
elimination lines are read as keywords (:mod:`graphmem.importers.keywords`). Every other reading is reported
the same way, with its file and line: a line continuing the message before it, a line repeated by a restarted
game, a vote replayed for a player already voted out, a restart of a day that is still open.
"""

from __future__ import annotations

from graphmem.importers.llmafia.game import LICENCE, NAME, SOURCE_REPOSITORY
from graphmem.importers.llmafia.importer import LLMafiaImporter

__all__ = ["LICENCE", "NAME", "SOURCE_REPOSITORY", "LLMafiaImporter"]
