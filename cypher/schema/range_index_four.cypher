// Composite range index on four properties of one label. {name}, {label}, {first}, {second}, {third}, {fourth}
// are checked identifiers.
// @returns nothing
CREATE RANGE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{first}, n.{second}, n.{third}, n.{fourth})
