"""Opening a Neo4j driver and turning connection failures into one-line messages.

The caller owns the driver: library classes take ``driver: neo4j.Driver`` and ``database: str | None``; the CLI and
the service open one driver per process with :func:`open_driver` and close it at the edge.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

import neo4j
from neo4j import GraphDatabase, RoutingControl
from neo4j.exceptions import AuthError, ConfigurationError, DriverError, Neo4jError, ServiceUnavailable

from graphmem.errors import Neo4jUnavailable
from graphmem.settings import Settings

log = logging.getLogger(__name__)

MINIMUM_VERSION = (5, 26)
HINT = "start one with `graphmem neo4j start`, or set NEO4J_URI to a running Neo4j"


def _unreachable(settings: Settings, reason: str) -> Neo4jUnavailable:
    return Neo4jUnavailable(f"cannot reach Neo4j at {settings.uri} ({reason}): {HINT}")


def parse_version(text: str) -> tuple[int, int]:
    """``"5.26.30"`` -> ``(5, 26)``; calendar versions such as ``"2025.01.0"`` sort after every 5.x."""
    match = re.match(r"^(\d+)\.(\d+)", text)
    if match is None:
        raise ValueError(f"unrecognised Neo4j version {text!r}")
    return int(match[1]), int(match[2])


def server_version(driver: neo4j.Driver, database: str | None = None) -> str:
    """The server's version string (``CALL dbms.components()``)."""
    records, _, _ = driver.execute_query(
        "CALL dbms.components() YIELD name, versions RETURN versions[0] AS version",
        database_=database, routing_=RoutingControl.READ)
    return str(records[0]["version"])


def check_server(driver: neo4j.Driver, settings: Settings) -> str:
    """Verify connectivity, credentials and version (>= 5.26). Returns the version string.

    Raises Neo4jUnavailable with one line naming the URI and what to do.
    """
    try:
        driver.verify_connectivity()
        version = server_version(driver, settings.database)
    except AuthError as e:
        raise Neo4jUnavailable(
            f"Neo4j at {settings.uri} refused the credentials of user '{settings.user}' ({e.message}): "
            "set NEO4J_USER and NEO4J_PASSWORD (or --user/--password)") from e
    except ServiceUnavailable as e:
        raise _unreachable(settings, "nothing answers there") from e
    except (DriverError, Neo4jError, OSError) as e:
        raise _unreachable(settings, str(e).splitlines()[0] if str(e) else type(e).__name__) from e
    try:
        found = parse_version(version)
    except ValueError as e:
        raise Neo4jUnavailable(f"Neo4j at {settings.uri} reports version {version!r}, which graphmem cannot read") from e
    if found < MINIMUM_VERSION:
        raise Neo4jUnavailable(
            f"Neo4j at {settings.uri} is version {version}; graphmem needs 5.26 or later "
            "(vector indexes and the Cypher it uses): upgrade, or use `graphmem neo4j start`")
    return version


def open_driver(settings: Settings, *, check: bool = True) -> neo4j.Driver:
    """A driver for ``settings.uri`` (``bolt://`` or ``neo4j://``), checked with :func:`check_server`.

    Raises Neo4jUnavailable for a malformed URI, an unreachable server, refused credentials, or a server older
    than 5.26. The caller closes the driver.
    """
    try:
        driver = GraphDatabase.driver(settings.uri, auth=(settings.user, settings.password),
                                      connection_acquisition_timeout=30.0, connection_timeout=5.0)
    except (ConfigurationError, ValueError) as e:
        raise Neo4jUnavailable(f"invalid Neo4j URI {settings.uri!r}: {e}") from e
    if check:
        try:
            check_server(driver, settings)
        except Neo4jUnavailable:
            driver.close()
            raise
    return driver


@contextmanager
def connected(settings: Settings) -> Iterator[neo4j.Driver]:
    """``with connected(settings) as driver:`` opens, checks and finally closes one driver."""
    driver = open_driver(settings)
    try:
        yield driver
    finally:
        driver.close()
