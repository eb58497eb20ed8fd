// Range index on one property of one relationship type. {name}, {type}, {property} are checked identifiers.
// @returns nothing
CREATE RANGE INDEX {name} IF NOT EXISTS FOR ()-[r:{type}]-() ON (r.{property})
