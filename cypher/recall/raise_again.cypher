// The second raise of a writer's owners' memory versions, in a transaction of its own once the write has committed
// (graphmem.store.versions, "raises the owners' versions twice"): each version + 1, the change log left as it is
// (this raise changes no memory, as the first raise logged them). It matches the versions the first raise created
// and creates none, so a raise that comes after its game was deleted leaves nothing behind.
// @param uids: LIST<STRING>  the players' uids, which their MemoryVersion nodes share, sorted (one lock order)
// @returns versions
// CYPHER replan=skip: its plan is kept while the statistics change (graphmem.store.queries, "Query plans")
CYPHER replan=skip
UNWIND $uids AS uid
MATCH (v:MemoryVersion {uid: uid})
SET v.version = v.version + 1
RETURN collect({game: v.game, owner: v.owner, version: v.version}) AS versions
