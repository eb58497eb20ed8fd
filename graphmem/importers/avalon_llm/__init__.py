"""Importer ``avalon-llm``: Avalon games played by LLM agents, from SuveenE/multi-round-avalon-agents
(docs/perception.md#imported-logs).

Input: one game's JSON file (``individual_games/game_NN.json``; the game id is its ``game_id``). A folder of them,
or the corpus folder, is searched by ``graphmem ingest``/``convert`` (``all_games.json``, ``player_memories.json``
and the summaries are not games and are skipped).

Series: a game file in an ``individual_games/`` folder whose parent holds ``player_memories.json`` (the source
engine ran those games as one series, the same people carrying memory from game to game) records where it was
played in ``metadata.source_series``: the name the file's ``session_id`` (characters outside the game-id set become
"-"), the position the game's number (``game_NN.json``, else the reflections' ``game_number``). It does not join a
series by itself: which games a player remembers together is the user's choice (``graphmem ingest --series NAME
FOLDER/individual_games``, the files in name order, which is the games' order), so that a corpus ingested for its
games alone keeps each game as it ended.

Header: the players and their roles, the named characters capitalised ("Merlin", "Percival", "Morgana", "Mordred",
"Oberon"), "assassin", and the source's "good" and "evil" as "loyal servant" and "minion" (``metadata.source_roles``
keeps the source's words); ``traitor_roles`` the evil roles of the game; ``side_names`` {"traitor": "evil",
"faithful": "good"}; the configuration (model, reasoning effort, team sizes) in ``metadata.config``.

Mapping (day N is mission N; every witness list is the canonical default unless said):

=================================  ===============================================================  ==============
source                             canonical event                                                  phase
=================================  ===============================================================  ==============
each player's role                 reveal {player, role}, seen by the player                        pregame
special_knowledge of Merlin and    reveal {player: shown, role: "evil"}, seen by the holder alone   pregame
of each evil player
special_knowledge of Percival      observe by Percival: "shown X and Y: one is Merlin, the other    pregame
                                   Morgana" (a reveal of Merlin when Morgana is not in the game)
missions[].discussion[]            say {speaker, to all, channel public, text, about, claims}       N discussion
missions[].proposals[]             propose {leader, team, text: reasoning, about, claims}           N team
proposals[].votes[]                vote {voter, ballot team, choice approve|reject, text: comment,  N team
                                   secret: true} (seen by the voter alone, see below)
proposals[].vote_result            outcome {ballot team, what: the tally, result approved|rejected, N team
                                   counts {approve, reject}, about: team}
missions[].quest_actions[]         vote {voter, ballot quest, choice success|fail, secret: true}    N quest
missions[].mission_result          outcome {ballot quest, what, result success|fail, counts         N quest
                                   {fail, success}, about: team}
assassin_phase.evil_discussion[]   say {channel traitors}: the evil players alone                   last assassination
assassin_phase.guess               vote {voter: assassin, ballot assassinate, target, text:         last assassination
                                   reasoning} (public), then outcome {result right|wrong}
each player's role, at the end      reveal {player, role}, seen by every other player (the engine    (unchanged)
                                   shows the roles when the game is over), before the end
winner                             end {winner: "good side"|"evil side", text: why}                 (unchanged)
post_game_reflections[]            after the end: self_assessment as reflect {player, text};        (unchanged)
                                   each player_observations entry as reflect {player, about, text}
=================================  ===============================================================  ==============

Team votes: the log holds every player's vote, but the source engine showed the players only the tally. So each
vote is ``secret`` (its voter remembers it, with their comment) and the tally is a public ``outcome``: a player's
memory holds what they could have seen. A proposal without votes (the fifth of a mission, approved by the rules)
gets an outcome saying so.

Claims: the extractor (:mod:`graphmem.claims.extract`) runs on discussion, proposals' reasons, vote comments, the evil
discussion and the assassin's reasoning, with the game's roles ("Diana is Merlin") and the side names as ``side``
claims ("I am good", "Charlie is evil"); stances (``suspects``/``trusts``) everywhere but in the evil discussion and
the assassin's reasoning, where the evil side picks its target and "Diana is the one" is no suspicion. With no
banish ballot in Avalon, a vote claim of intent names the current mission's day as its round.

Reflections: an observation keyed by a role instead of a player ("Assassin") is read as the one player who held it
(the assassin: ``assassin_phase.assassin``), a guess; an observation of oneself (the engine asked about the others,
and the answers read "N/A") is left out and noted. Reflections carry no claims.

Lost: ``player_memories.json`` itself (the source engine's copy of the reflections, shown word for word in every
later game: graphmem remembers each game's reflections in the series instead), the reflections' ``role_played``
and ``game_result`` (the reveals at the end and the ``end`` say them), ``thinking_time``, the empty
``reasoning_content``, and the source's turn counters (the order is kept).

Tolerance: roles, votes, cards, results, the winner, the discussion phases, player names and JSON keys are read as
keywords (:mod:`graphmem.importers.keywords`); each near spelling is reported as a guess with its JSON path.
Every value is checked: a card by a player not on the team, a fail count that does not match the cards, a
"correct" assassination that did not name Merlin, a player shown as evil who is good, are problems, not guesses.
"""

from __future__ import annotations

from graphmem.importers.avalon_llm.game import LICENCE, NAME, SOURCE_REPOSITORY
from graphmem.importers.avalon_llm.importer import AvalonImporter

__all__ = ["LICENCE", "NAME", "SOURCE_REPOSITORY", "AvalonImporter"]
