// The databases of the server, to name them when the configured one does not exist (run on `system`).
// @returns name
SHOW DATABASES YIELD name RETURN DISTINCT name ORDER BY name
