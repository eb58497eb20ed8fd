"""Importer ``avalon-nlu``: Avalon games played online by people, with the beliefs they stated during play, from
sstepput/Avalon-NLU (docs/log-format.md#avalon-nlu, docs/perception.md#avalon-nlu-avalon-people).

Input: one game file (``<id>.json``, TinyDB: every table an object keyed by row number as a string). The game id is
``avalon-nlu-<id>``. Six players; roles ``merlin``, ``percival``, ``morgana``, ``assassin``, ``servant-1``,
``servant-2``.

Header: the players in seat order (``users[].index``), their roles as the ``avalon-llm`` importer names them
("Merlin", "Percival", "Morgana", "assassin", and both servants "loyal servant": the number only tells their cards
apart; ``metadata.source_roles`` keeps the source's word per player), ``traitor_roles`` ["assassin", "Morgana"],
``side_names`` {"traitor": "evil", "faithful": "good"}.

Mapping (day N is the source's ``quest`` N; the phases are docs/log-format.md#avalon-nlu's, pre-registered for
issue 39: a ``team`` phase per party proposal attempt, a ``quest`` phase for the quest's result, an
``assassination`` phase):

========================================================  ================================================  ==========
source                                                    canonical event                                   phase
========================================================  ================================================  ==========
each player's role                                        reveal {player, role}, seen by the player         pregame
what the server shows at the start                        Merlin, the assassin and Morgana: reveal {player: pregame
                                                          an evil player, role "evil"} to the holder alone;
                                                          Percival: observe "shown X and Y: one is Merlin,
                                                          the other Morgana"
"game started!"                                           (nothing: the game begins)                        N team
a chat line                                               say {speaker, to all, channel public, text,       N team
                                                          about, claims, annotations: the persuasion label}
"P proposed a party: A, B"                                propose {leader P, team}                          N team
"party vote outcome: player-1: yes, ..."                  one vote per player {ballot team, choice          N team
                                                          approve|reject}, public (the line shows them all)
"vote succeeded! initiating quest vote!" / "vote failed!" outcome {ballot team, result approved|rejected,    N team
                                                          counts, about: the party}
"quest succeeded!" / "quest failed!"                      outcome {ballot quest, result success|fail,       N quest
                                                          about: the party}
"good won for now, but the assassin..."                   outcome {ballot assassinate}                      N assassin.
"the assassin identified merlin, ..." / "... didn't find  outcome {ballot assassinate, result right|wrong},  N assassin.
merlin, ..."                                              and the end {winner "evil side"|"good side"}
"evil has failed three quests and wins!"                  end {winner "evil side"}                          (unchanged)
a ``beliefs`` row                                         belief {player, about, belief: the source's       where placed
                                                          word in lower case}, theirs alone
========================================================  ================================================  ==========

Event ids, for an analysis that maps the canonical events back to the source: every event derived from row R of
``messages`` has an id starting with ``m<R>``: ``m<R>`` for a say, a propose, an outcome or the end of three failed
quests, ``m<R>-<player>`` for that player's vote on the party vote line R (``m9-player-3``), ``m<R>-end`` for the end
that follows the assassination line R. Row R of ``beliefs`` is ``b<R>``. The rest: ``u<i>-role``, ``u<i>-sees-<j>``
and ``u<i>-sees`` (what the player of seat i was shown), and the phases ``q<N>-team<k>`` (the k-th party attempt of
quest N), ``q<N>-quest``, ``q<N>-assassination``.

Beliefs are placed by the pre-registered rule of :func:`.game.belief_places` (after the last message line of their
quest whose turn is at most theirs). The beliefs' turn counter starts again at each party proposal after a rejected
one, while the messages' turns run on through the quest (the source server resets its counter; the corpus numbers
the messages on), so in a quest of several party attempts the rule may place a belief before one set earlier: each
such belief is noted in the report. A belief of a player about themselves (``turn`` -1 in the corpus) is left out
and noted; a ``turn`` of -1 is read as "before the quest's first turn", a guess.

Labels: the ``persuasion`` table's ``persuasion`` and ``deception`` of a chat message become that statement's
``annotations``, stored on its Event node (``annotations_json``) and never perceived; a row repeating a message's
label is noted and left out.

Claims (:mod:`graphmem.claims.extract`): the chat gives role claims ("player-4 is merlin"), side claims ("i am good",
"player-3 is evil") and stances ("i suspect player-5", "player-6 seems suspicious"), as in the ``avalon-llm`` games.

Lost: the quest cards (secret, and not in the corpus), the number of fail cards (no line of the corpus gives it),
whom the assassin named (the line says only whether it was Merlin), which "yes" was the server's automatic approval
of a player who did not vote within 30 s and which proposal the server made for a leader who did not choose (both
read like the players' own), the message ids (``mid``; the event ids name the rows).

Tolerance: player names in every line and row, roles, beliefs and the party-vote words are read as keywords
(:mod:`graphmem.importers.keywords`); a full stop after a line's closing "!" is read away; a line after the game's
end (the corpus has a proposal by "###" after one) is left out; each is reported with its table and row.
"""

from __future__ import annotations

from graphmem.importers.avalon_nlu.game import LICENCE, NAME, SOURCE_REPOSITORY
from graphmem.importers.avalon_nlu.importer import AvalonNluImporter

__all__ = ["LICENCE", "NAME", "SOURCE_REPOSITORY", "AvalonNluImporter"]
