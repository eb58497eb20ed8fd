// Composite range index on two properties of one label (composite indexes are available in Community;
// only composite constraints are Enterprise). {name}, {label}, {first}, {second} are checked identifiers.
// @returns nothing
CREATE RANGE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{first}, n.{second})
