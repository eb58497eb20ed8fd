package graphmem;

import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.internal.helpers.HostnamePort;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.internal.GraphDatabaseAPI;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

/**
 * graphmem's local Neo4j: Neo4j Community 5.26 embedded, reachable over Bolt on the loopback interface only.
 *
 * <pre>
 * java [JVM flags] -jar graphmem-neo4j-local.jar --home DIR [--port N] [--page-cache SIZE] [--auth-password PW]
 * </pre>
 *
 * <ul>
 *   <li>{@code --home DIR}: the Neo4j home; data under DIR/data, Neo4j's own logs under DIR/logs.</li>
 *   <li>{@code --port N}: Bolt port on 127.0.0.1 (default 7687); 0 picks a free port, reported on the ready line.</li>
 *   <li>{@code --page-cache SIZE}: page cache, bytes with an optional k/m/g suffix (default 64m).</li>
 *   <li>{@code --auth-password PW} (or the environment variable {@code GRAPHMEM_NEO4J_AUTH_PASSWORD}): enable
 *       authentication and set the password of the {@code neo4j} user to PW (no change required). Without it,
 *       authentication is disabled, which is safe only because Bolt listens on 127.0.0.1 alone.</li>
 * </ul>
 *
 * <p>Protocol with the caller (the package graphmem/local_neo4j), on stdout, one line each, flushed:
 * {@code GRAPHMEM_NEO4J_READY bolt://127.0.0.1:PORT} once Bolt accepts connections;
 * {@code GRAPHMEM_NEO4J_FAILED port-in-use 127.0.0.1:PORT} or {@code GRAPHMEM_NEO4J_FAILED error MESSAGE}
 * (exit code 3 or 1) when it cannot start; {@code GRAPHMEM_NEO4J_STOPPED} after a clean shutdown
 * (SIGTERM or SIGINT run the shutdown hook, which calls {@link DatabaseManagementService#shutdown()}).
 * Usage errors exit with code 2.
 */
public final class LocalNeo4j {
    static final String READY = "GRAPHMEM_NEO4J_READY";
    static final String FAILED = "GRAPHMEM_NEO4J_FAILED";
    static final String STOPPED = "GRAPHMEM_NEO4J_STOPPED";
    static final String HOST = "127.0.0.1";
    static final String PASSWORD_ENV = "GRAPHMEM_NEO4J_AUTH_PASSWORD";

    private LocalNeo4j() {}

    /** Parsed command line. */
    record Options(Path home, int port, long pageCacheBytes, String password) {}

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("usage: LocalNeo4j --home DIR [--port N] [--page-cache SIZE] [--auth-password PW]");
            System.err.println("error: " + e.getMessage());
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        DatabaseManagementService service;
        try {
            Files.createDirectories(options.home());
            service = build(options);
        } catch (Throwable e) {
            e.printStackTrace();
            if (isBindFailure(e)) {
                out.println(FAILED + " port-in-use " + HOST + ":" + options.port());
                out.flush();
                System.exit(3);
            }
            out.println(FAILED + " error " + oneLine(e));
            out.flush();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.shutdown();
            out.println(STOPPED);
            out.flush();
        }, "graphmem-neo4j-shutdown"));
        try {
            GraphDatabaseService neo4j = service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
            if (!neo4j.isAvailable(Duration.ofMinutes(5).toMillis())) {
                throw new IllegalStateException("the default database did not become available");
            }
            GraphDatabaseService system = service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
            if (options.password() != null) {
                system.executeTransactionally(
                        "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                        Map.of("password", options.password()));
            }
            HostnamePort bolt = ((GraphDatabaseAPI) system).getDependencyResolver()
                    .resolveDependency(ConnectorPortRegister.class)
                    .getLocalAddress(ConnectorType.BOLT);
            if (bolt == null) {
                throw new IllegalStateException("the Bolt connector did not register a listen address");
            }
            out.println(READY + " bolt://" + HOST + ":" + bolt.getPort());
            out.flush();
        } catch (Throwable e) {
            e.printStackTrace();
            out.println(FAILED + " error " + oneLine(e));
            out.flush();
            System.exit(1);  // runs the shutdown hook, which shuts the DBMS down
        }
        new CountDownLatch(1).await();  // serve until SIGTERM / SIGINT
    }

    static DatabaseManagementService build(Options options) {
        boolean auth = options.password() != null;
        return new DatabaseManagementServiceBuilder(options.home())
                .setUserLogProvider(new Log4jLogProvider(System.out, Level.INFO))
                .setConfig(GraphDatabaseSettings.default_listen_address, new SocketAddress(HOST))
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(HOST, options.port()))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                .setConfig(GraphDatabaseSettings.pagecache_memory, options.pageCacheBytes())
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(16))
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "2 files")
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                // Bolt's event loops otherwise wait a 5 s quiet period each on shutdown (10 s per stop).
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .build();
    }

    static Options parse(String[] args) {
        Path home = null;
        int port = 7687;
        long pageCache = ByteUnit.mebiBytes(64);
        String password = System.getenv(PASSWORD_ENV);
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + flag);
            }
            String value = args[++i];
            switch (flag) {
                case "--home" -> home = Path.of(value).toAbsolutePath();
                case "--port" -> {
                    try {
                        port = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--port must be an integer, got " + value);
                    }
                    if (port < 0 || port > 65535) {
                        throw new IllegalArgumentException("--port must be in [0, 65535], got " + port);
                    }
                }
                case "--page-cache" -> pageCache = parseBytes(value);
                case "--auth-password" -> password = value;
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if (home == null) {
            throw new IllegalArgumentException("--home is required");
        }
        if (password != null && password.isEmpty()) {
            password = null;
        }
        return new Options(home, port, pageCache, password);
    }

    static long parseBytes(String value) {
        String v = value.trim().toLowerCase();
        long unit = 1;
        if (v.endsWith("k")) {
            unit = ByteUnit.kibiBytes(1);
        } else if (v.endsWith("m")) {
            unit = ByteUnit.mebiBytes(1);
        } else if (v.endsWith("g")) {
            unit = ByteUnit.gibiBytes(1);
        }
        String digits = unit == 1 ? v : v.substring(0, v.length() - 1);
        try {
            return Long.parseLong(digits) * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--page-cache must look like 64m, 1g or 65536, got " + value);
        }
    }

    static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
            String message = t.getMessage();
            if (message != null && message.contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = e.getClass().getSimpleName() + ": " + e.getMessage();
        if (root != e) {
            text += " (cause: " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        }
        return text.replace('\n', ' ').replace('\r', ' ');
    }
}
