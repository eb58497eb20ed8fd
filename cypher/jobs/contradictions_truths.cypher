// The role reveals one owner witnessed and still holds (docs/jobs.md#contradictions): memories, not tombstoned, of a banishment with a
// revealed role or of a reveal event; `final` when the revealed player was eliminated by the reveal's phase.
// @param game: STRING  the game id
// @param owner: STRING  the owner's player name
// @param player_uids: MAP  {player name: Player uid} of the game's players (graphmem/store/keys.py)
// @returns memory, subject, role, phase, final
MATCH (m:Memory {game: $game, owner: $owner})-[:OF_EVENT]->(e:Event)
WHERE m.state <> 'tombstoned' AND e.kind IN ['banish', 'reveal'] AND e.role_revealed IS NOT NULL
  AND size(e.targets) > 0
OPTIONAL MATCH (subject:Player {uid: $player_uids[e.targets[0]]})
RETURN m.uid AS memory, e.targets[0] AS subject, e.role_revealed AS role, e.phase AS phase,
       coalesce(subject.eliminated_phase <= e.phase, false) AS final
ORDER BY phase, memory
