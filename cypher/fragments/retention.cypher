// The forgetting curve R(dt, S) in [0, 1], the fraction of a memory's strength left after dt phases at stability S
// (docs/model.md#forgetting): (1 + 3 dt / (S ln 2))^(-1/2) on the "power" curve (Wixted & Ebbesen 1991), exp(-dt / S)
// on the "exponential" one (Ebbinghaus 1885); both give 1/2 at the half-life S ln 2, and 1 for S = inf.
// The one Cypher home of the curve: a query writes @retention(dt, s, curve) and graphmem.store.queries.load puts this
// expression there. Its Python home is graphmem.model.forgetting.retention; tests/integration/test_forgetting_copies.py
// runs this file in Neo4j and holds the two equal.
// @param dt: FLOAT  elapsed phases, >= 0 (a float: an integer divided by an integer would be truncated)
// @param s: FLOAT  stability, phases, > 0
// @param curve: STRING  "power" or "exponential" (anything else is taken as "exponential")
// @returns retention
CASE $curve WHEN 'power' THEN (1.0 + 3.0 * $dt / ($s * log(2.0))) ^ (-0.5) ELSE exp(-$dt / $s) END
