// Drop one index ({name} is a checked identifier), to rebuild it with another definition.
// @returns nothing
DROP INDEX {name} IF EXISTS
