// Range index on one property of one label ({name}, {label}, {property} are checked identifiers).
// @returns nothing
CREATE RANGE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{property})
