// Uniqueness constraint on `uid` for one label ({name} and {label} are checked, backticked identifiers).
// @returns nothing
CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.uid IS UNIQUE
