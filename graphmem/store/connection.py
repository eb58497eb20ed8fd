"""Opening a Neo4j driver and turning connection failures into one-line messages.

The caller owns the driver: library classes take ``driver: neo4j.Driver`` and ``database: str | None``; the CLI and
the service open one driver per process with :func:`open_driver` and close it at the edge.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit

import neo4j
from neo4j import GraphDatabase, RoutingControl
from neo4j.exceptions import AuthError, ConfigurationError, DriverError, Neo4jError, ServiceUnavailable

from graphmem.errors import InvalidNeo4jUri, Neo4jUnavailable
from graphmem.settings import Settings
from graphmem.store.queries import cypher

log = logging.getLogger(__name__)

MINIMUM_VERSION = (5, 26)
HINT = "start one with `graphmem neo4j start`, or set NEO4J_URI to a running Neo4j"

SUPPORTED_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The URI schemes graphmem connects with. The driver also accepts http and https (its experimental query API),
which needs aiohttp and is not what graphmem speaks."""

DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"


def _unreachable(settings: Settings, reason: str) -> Neo4jUnavailable:
    where = ""
    if settings.uri_source == "default":  # no URI given and no local Neo4j's state file in the home searched
        where = (f" (no local Neo4j runs from {settings.home}, stopped or never started there; one started with "
                 "another --home or GRAPHMEM_HOME is found by setting GRAPHMEM_HOME to that directory)")
    return Neo4jUnavailable(f"cannot reach Neo4j at {settings.uri} ({reason}): {HINT}{where}")


def check_uri(uri: str) -> None:
    """Return when ``uri`` has a supported scheme (:data:`SUPPORTED_SCHEMES`) and, if it names one, a numeric port.

    Raises InvalidNeo4jUri naming the URI and what is wrong with it.
    """
    supported = ", ".join(SUPPORTED_SCHEMES)
    if "://" not in uri:
        raise InvalidNeo4jUri(f"invalid Neo4j URI {uri!r}: it has no scheme (use SCHEME://HOST:PORT with a scheme "
                              f"of {supported}; e.g. bolt://localhost:7687)")
    try:
        parts = urlsplit(uri)
    except ValueError as e:  # e.g. an unclosed IPv6 bracket
        raise InvalidNeo4jUri(f"invalid Neo4j URI {uri!r}: {e}") from None
    if parts.scheme.lower() not in SUPPORTED_SCHEMES:
        raise InvalidNeo4jUri(f"invalid Neo4j URI {uri!r}: the scheme '{parts.scheme}' is not supported "
                              f"(supported: {supported}; e.g. bolt://localhost:7687)")
    try:
        _ = parts.port  # urlsplit reads the port only when asked: ValueError unless a number in 0..65535
    except ValueError:
        raise InvalidNeo4jUri(f"invalid Neo4j URI {uri!r}: the port must be a number from 0 to 65535") from None


def _database_names(driver: neo4j.Driver) -> list[str]:
    """The databases of the server (``SHOW DATABASES`` on ``system``), or [] when they cannot be listed."""
    try:
        records, _, _ = driver.execute_query(cypher("schema/show_databases"), database_="system",
                                             routing_=RoutingControl.READ)
    except (DriverError, Neo4jError, OSError):
        return []
    return [str(r["name"]) for r in records if r["name"] != "system"]


def _no_database(driver: neo4j.Driver, settings: Settings) -> Neo4jUnavailable:
    names = _database_names(driver)
    known = f" (its databases: {', '.join(names)})" if names else ""
    return Neo4jUnavailable(f"Neo4j at {settings.uri} has no database '{settings.database}'{known}: set "
                            "NEO4J_DATABASE or --database to one that exists")


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

    Raises Neo4jUnavailable with one line naming the URI and what to do (or naming the missing database, with the
    server's databases, when ``settings.database`` does not exist).
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
    except Neo4jError as e:
        if e.code == DATABASE_NOT_FOUND:
            raise _no_database(driver, settings) from e
        raise _unreachable(settings, str(e).splitlines()[0] if str(e) else type(e).__name__) from e
    except (DriverError, OSError, ValueError) as e:
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


QUIET_NOTIFICATIONS = (neo4j.NotificationDisabledClassification.UNRECOGNIZED,)
"""The classifications of server notifications graphmem's drivers ask Neo4j not to send. UNRECOGNIZED (01N50-01N52:
"the label / relationship type / property key does not exist") is what a young graph answers to graphmem's queries
for what nothing has set yet (an optional property such as ``Thought.forgotten``, ``Conflict`` nodes before the
contradictions job), and the driver logs every notification it gets to the ``neo4j.notifications`` logger, a
WARNING per query: a benchmark on a fresh database printed one for nearly every query. Nothing a user needs goes with
them: graphmem runs only its own queries (``cypher/``, each run against a live Neo4j by the tests), never Cypher a
user writes. Every other classification still comes (PERFORMANCE, DEPRECATION, HINT, ...)."""


def new_driver(uri: str, auth: tuple[str, str] | None, **config: Any) -> neo4j.Driver:
    """A driver for ``uri``, configured as graphmem configures each driver it creates: Neo4j sends no notification of
    :data:`QUIET_NOTIFICATIONS` (the driver's notification filter, ``notifications_disabled_classifications``).

    auth : (user, password), or None for a server without authentication. config : other driver options
    (``connection_timeout``, ``max_transaction_retry_time``, ...). Neither connects nor checks the server
    (:func:`open_driver` does); raises as ``neo4j.GraphDatabase.driver`` (ConfigurationError, ValueError) for a bad
    URI or option. The caller closes the driver."""
    return GraphDatabase.driver(uri, auth=auth, notifications_disabled_classifications=list(QUIET_NOTIFICATIONS),
                                **config)


def open_driver(settings: Settings, *, check: bool = True,
                max_retry_seconds: float | None = None) -> neo4j.Driver:
    """A driver for ``settings.uri`` (a scheme of :data:`SUPPORTED_SCHEMES`), checked with :func:`check_server`.

    Raises InvalidNeo4jUri (a Neo4jUnavailable and a usage error) for a malformed URI or an unsupported scheme,
    Neo4jUnavailable for an unreachable server, refused credentials, a missing database, or a server older than
    5.26. The caller closes the driver. max_retry_seconds : how long a managed transaction is retried on transient
    errors and lost connections (a server answers 503 sooner than a batch job gives up); None: the settings'
    ``retry_seconds`` (``[neo4j] retry_seconds``, ``GRAPHMEM_RETRY_SECONDS``, default 30).
    """
    check_uri(settings.uri)
    try:
        driver = new_driver(settings.uri, (settings.user, settings.password),
                            connection_acquisition_timeout=30.0, connection_timeout=5.0,
                            max_transaction_retry_time=(
                                settings.retry_seconds if max_retry_seconds is None else max_retry_seconds))
    except (ConfigurationError, ValueError) as e:
        raise InvalidNeo4jUri(f"invalid Neo4j URI {settings.uri!r}: {e}") from e
    if check:
        try:
            check_server(driver, settings)
        except Neo4jUnavailable:
            driver.close()
            raise
    return driver
