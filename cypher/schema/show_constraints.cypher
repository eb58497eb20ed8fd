// Every constraint.
// @returns name, type, labels, properties
SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties
RETURN name, type, labelsOrTypes AS labels, properties
ORDER BY name
