// Trino's JDBC driver (io.trino:trino-jdbc) against one target, as DBeaver, DataGrip and
// notebooks use it: one JVM runs every check and prints one JSON line per check,
// {"check": NAME, "value": …} or {"check": NAME, "error": "…"}; test_jdbc.py asserts on them.
// No build tool: `java -cp trino-jdbc-476.jar Check.java` (a single-file source program).
//
// The target comes from the environment: CHECK_URL (the JDBC URL, SSL and trust store
// included, as the README gives it), ADA_TOKEN and ERIN_TOKEN (their QueryMesh access tokens)
// and ERIN_USER (her token's subject). Ada connects without a user, Erin with one, the two
// ways a database tool may be set up.

import io.trino.jdbc.QueryStats;
import io.trino.jdbc.Row;
import io.trino.jdbc.TrinoStatement;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

public class Check {
    /** Long enough to be cancelled on either target (the broker suite's long query). */
    static final String LONG_QUERY = "SELECT count(*) FROM tpch.tiny.lineitem a "
            + "CROSS JOIN tpch.tiny.lineitem b CROSS JOIN tpch.tiny.lineitem c";
    static final long WAIT_MS = 30_000;

    interface Body {
        Object run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv("CHECK_URL");
        try (Connection ada = connect(url, System.getenv("ADA_TOKEN"), null)) {
            check("connection", () -> connection(ada));
            DatabaseMetaData meta = ada.getMetaData();
            check("catalogs", () -> table(meta.getCatalogs()));
            check("schemas", () -> table(meta.getSchemas()));
            check("schemas_of_tpch", () -> table(meta.getSchemas("tpch", "ti%")));
            check("tables", () -> table(meta.getTables("tpch", "tiny", null, null)));
            check("tables_by_type", () -> table(meta.getTables(null, "tiny", "n%", new String[] {"TABLE", "VIEW"})));
            check("columns", () -> table(meta.getColumns("tpch", "tiny", "nation", null)));
            check("type_info", () -> table(meta.getTypeInfo()));
            check("primary_keys", () -> table(meta.getPrimaryKeys("tpch", "tiny", "nation")));
            check("table_types", () -> table(meta.getTableTypes()));
            check("prepared", () -> prepared(ada));
            check("prepared_metadata", () -> preparedMetadata(ada));
            check("array", () -> array(ada));
            check("map_and_row", () -> mapAndRow(ada));
            check("decimal", () -> decimal(ada));
            check("timestamp_with_time_zone", () -> timestampWithTimeZone(ada));
            check("session_statements", () -> sessionStatements(url));
            check("syntax_error", () -> failure(ada, "SELEC 1"));
            AtomicReference<String> cancelled = new AtomicReference<>();
            check("cancel", () -> cancel(ada, cancelled));
            check("cancelled_query_state", () -> queryState(ada, cancelled.get()));
        }
        try (Connection erin = connect(url, System.getenv("ERIN_TOKEN"), System.getenv("ERIN_USER"))) {
            check("access_denied", () -> failure(erin, "SELECT count(*) FROM tpch.tiny.orders"));
        }
        // Every check has answered: no thread left behind may keep the suite waiting.
        System.exit(0);
    }

    static Connection connect(String url, String token, String user) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("accessToken", token);
        if (user != null) {
            properties.setProperty("user", user);
        }
        return DriverManager.getConnection(url, properties);
    }

    static void check(String name, Body body) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("check", name);
        long started = System.nanoTime();
        try {
            line.put("value", body.run());
        } catch (Throwable failure) {
            line.put("error", failure.getClass().getName() + ": " + failure.getMessage());
        }
        line.put("ms", (System.nanoTime() - started) / 1_000_000);
        System.out.println(json(line));
        System.out.flush();
    }

    static Object connection(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("valid", connection.isValid(10)); // HEAD /v1/statement
        facts.put("product", meta.getDatabaseProductName());
        facts.put("product_version", meta.getDatabaseProductVersion()); // SELECT version()
        facts.put("driver_version", meta.getDriverVersion());
        facts.put("catalog", connection.getCatalog());
        facts.put("schema", connection.getSchema());
        facts.put("user", meta.getUserName()); // SELECT current_user
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT current_catalog, current_schema, current_timezone(), (SELECT count(*) FROM nation)")) {
            facts.put("session", table(rows).get("rows"));
        }
        return facts;
    }

    /** USE and SET SESSION are updates to the driver, which keeps what they change. */
    static Object sessionStatements(String url) throws SQLException {
        try (Connection connection = connect(url, System.getenv("ADA_TOKEN"), null);
             Statement statement = connection.createStatement()) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("use_is_a_query", statement.execute("USE tpch.sf1"));
            facts.put("schema", connection.getSchema());
            facts.put("set_session_is_a_query", statement.execute("SET SESSION query_max_run_time = '1h'"));
            try (ResultSet rows = statement.executeQuery("SELECT current_schema")) {
                facts.put("after", table(rows).get("rows"));
            }
            // Back to tiny by its name alone (the catalog kept): its tables resolve unqualified.
            statement.execute("USE tiny");
            try (ResultSet rows = statement.executeQuery("SELECT current_schema, (SELECT count(*) FROM region)")) {
                facts.put("back", table(rows).get("rows"));
            }
            return facts;
        }
    }

    static Object prepared(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT nationkey, name FROM tpch.tiny.nation WHERE regionkey = ? AND name LIKE ? "
                        + "AND nationkey < ? ORDER BY nationkey")) {
            List<Object> runs = new ArrayList<>();
            // Twice with other values: the statement is prepared once, executed with each.
            statement.setLong(1, 1);
            statement.setString(2, "%A%");
            statement.setBigDecimal(3, new BigDecimal("20.5"));
            runs.add(table(statement.executeQuery()).get("rows"));
            statement.setInt(1, 3);
            statement.setString(2, "%'%"); // a quote inside a parameter stays a value
            statement.setBigDecimal(3, new BigDecimal("100"));
            runs.add(table(statement.executeQuery()).get("rows"));
            statement.setInt(1, 3);
            statement.setString(2, "%O%");
            runs.add(table(statement.executeQuery()).get("rows"));
            return runs;
        }
    }

    static Object preparedMetadata(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT name, regionkey + 1 AS next FROM tpch.tiny.nation WHERE name = ? AND regionkey < ?")) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("columns", columns(statement.getMetaData())); // DESCRIBE OUTPUT
            ParameterMetaData parameters = statement.getParameterMetaData(); // DESCRIBE INPUT
            List<Object> types = new ArrayList<>();
            for (int i = 1; i <= parameters.getParameterCount(); i++) {
                types.add(List.of(parameters.getParameterTypeName(i), parameters.getParameterType(i)));
            }
            facts.put("parameters", types);
            return facts;
        }
    }

    static Object array(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT ARRAY[1, NULL, 3] AS numbers, ARRAY['a', 'b'] AS letters, "
                             + "ARRAY[ARRAY[1.5e0], ARRAY[]] AS nested")) {
            rows.next();
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("columns", columns(rows.getMetaData()));
            for (String column : List.of("numbers", "letters", "nested")) {
                Array array = rows.getArray(column);
                Object[] elements = (Object[]) array.getArray();
                facts.put(column, List.of(array.getBaseTypeName(), array.getBaseType(),
                        elements.getClass().getComponentType().getSimpleName(), value(elements)));
            }
            return facts;
        }
    }

    static Object mapAndRow(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT MAP(ARRAY['b', 'a'], ARRAY[2.5e0, NULL]) AS prices, "
                             + "CAST(ROW(1, 'x', ARRAY[true]) AS row(id integer, tag varchar, flags array(boolean))) AS pair, "
                             + "ROW(7, DECIMAL '1.10') AS anonymous")) {
            rows.next();
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("columns", columns(rows.getMetaData()));
            Object prices = rows.getObject("prices");
            facts.put("prices", List.of(prices.getClass().getSimpleName(), value(new TreeMap<>((Map<?, ?>) prices))));
            for (String column : List.of("pair", "anonymous")) {
                Row row = (Row) rows.getObject(column);
                List<Object> fields = new ArrayList<>();
                row.getFields().forEach(field -> fields.add(Arrays.asList(
                        field.getName().orElse(null), value(field.getValue()))));
                facts.put(column, List.of(row.toString(), fields));
            }
            return facts;
        }
    }

    static Object decimal(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT CAST(12.5 AS decimal(10, 2)) AS amount, DECIMAL '-0.000001' AS tiny, "
                             + "CAST('12345678901234567890.123456789' AS decimal(38, 9)) AS wide, "
                             + "sum(CAST(acctbal AS decimal(12, 2))) AS total FROM tpch.tiny.customer")) {
            rows.next();
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("columns", columns(rows.getMetaData()));
            for (int i = 1; i <= 4; i++) {
                BigDecimal decimal = rows.getBigDecimal(i);
                facts.put(rows.getMetaData().getColumnLabel(i), List.of(
                        decimal.toPlainString(), decimal.scale(), rows.getString(i), rows.getDouble(i)));
            }
            return facts;
        }
    }

    static Object timestampWithTimeZone(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT TIMESTAMP '2020-01-02 03:04:05.678 Europe/Paris' AS paris, "
                             + "TIMESTAMP '2020-07-01 12:00:00.123456 +05:30' AS offset6, "
                             + "from_unixtime(0) AS epoch, "
                             + "CAST(TIMESTAMP '2020-01-02 03:04:05 America/New_York' AS timestamp(0) with time zone) AS whole")) {
            rows.next();
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("columns", columns(rows.getMetaData()));
            for (int i = 1; i <= 4; i++) {
                Object object = rows.getObject(i);
                facts.put(rows.getMetaData().getColumnLabel(i), List.of(
                        rows.getString(i), object.getClass().getName(), object.toString(),
                        rows.getObject(i, ZonedDateTime.class).toString(),
                        rows.getTimestamp(i).toInstant().toString()));
            }
            return facts;
        }
    }

    /** A statement that fails: what the driver's SQLException carries. */
    static Object failure(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery(sql)) {
                return Map.of("rows", table(rows).get("rows"));
            } catch (SQLException failure) {
                Map<String, Object> facts = new LinkedHashMap<>();
                // "Query failed (#<query id>): <message>": the id differs per run.
                facts.put("message", failure.getMessage().replaceFirst("\\(#[0-9a-z_]+\\)", "(#id)"));
                facts.put("sql_state", failure.getSQLState());
                facts.put("error_code", failure.getErrorCode());
                return facts;
            }
        }
    }

    /** Statement.cancel() from another thread while the long query runs: the reading thread
     * gets an SQLException. `cancelled` gets the query's id. */
    static Object cancel(Connection connection, AtomicReference<String> cancelled) throws Exception {
        try (Statement statement = connection.createStatement()) {
            AtomicReference<QueryStats> progress = new AtomicReference<>();
            statement.unwrap(TrinoStatement.class).setProgressMonitor(progress::set);
            // On a daemon thread: should the driver never wake the reader, the check fails
            // after WAIT_MS and the JVM still ends.
            Executor daemon = task -> {
                Thread thread = new Thread(task, "reader");
                thread.setDaemon(true);
                thread.start();
            };
            CompletableFuture<Object> reading = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rows = statement.executeQuery(LONG_QUERY)) {
                    while (rows.next()) {
                        // the single row never comes
                    }
                    return "finished without an exception";
                } catch (SQLException thrown) {
                    return thrown;
                }
            }, daemon);
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (progress.get() == null || !progress.get().getState().equals("RUNNING")) {
                if (reading.isDone() || System.currentTimeMillis() > deadline) {
                    return "not RUNNING within 30 s: " + progress.get() + " " + reading.getNow(null);
                }
                Thread.sleep(20);
            }
            cancelled.set(progress.get().getQueryId());
            long asked = System.nanoTime();
            statement.cancel();
            Object outcome = reading.get(WAIT_MS, TimeUnit.MILLISECONDS);
            long tookMs = (System.nanoTime() - asked) / 1_000_000;
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("thrown", outcome instanceof SQLException ? outcome.getClass().getSimpleName() : outcome);
            facts.put("within_5_s", tookMs < 5_000);
            return facts;
        }
    }

    /** The cancelled query's state and error in system.runtime.queries, once it has ended. */
    static Object queryState(Connection connection, String queryId) throws Exception {
        if (queryId == null) {
            return "no query was cancelled";
        }
        long deadline = System.currentTimeMillis() + WAIT_MS;
        try (Statement statement = connection.createStatement()) {
            while (true) {
                // A query id is [0-9a-z_]: safe inside the literal.
                Object rows = table(statement.executeQuery("SELECT state, error_code "
                        + "FROM system.runtime.queries WHERE query_id = '" + queryId + "'")).get("rows");
                if (!rows.toString().contains("RUNNING") || System.currentTimeMillis() > deadline) {
                    return rows;
                }
                Thread.sleep(100);
            }
        }
    }

    /** A result set as {"labels": [...], "rows": [[...], ...]}, closing it. */
    static Map<String, Object> table(ResultSet rows) throws SQLException {
        try (rows) {
            ResultSetMetaData meta = rows.getMetaData();
            List<Object> labels = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                labels.add(meta.getColumnLabel(i));
            }
            List<Object> values = new ArrayList<>();
            while (rows.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.add(value(rows.getObject(i)));
                }
                values.add(row);
            }
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("labels", labels);
            table.put("rows", values);
            return table;
        }
    }

    /** Each column as [label, type name, java.sql.Types, precision, scale, class name]. */
    static List<Object> columns(ResultSetMetaData meta) throws SQLException {
        List<Object> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(List.of(meta.getColumnLabel(i), meta.getColumnTypeName(i), meta.getColumnType(i),
                    meta.getPrecision(i), meta.getScale(i), meta.getColumnClassName(i)));
        }
        return columns;
    }

    /** A value as JSON sees it: exact numbers stay numbers, decimals become strings. */
    static Object value(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean
                || value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof Double || value instanceof Float) {
            return value;
        }
        if (value instanceof Object[]) {
            List<Object> list = new ArrayList<>();
            for (Object element : (Object[]) value) {
                list.add(value(element));
            }
            return list;
        }
        if (value instanceof List) {
            List<Object> list = new ArrayList<>();
            for (Object element : (List<?>) value) {
                list.add(value(element));
            }
            return list;
        }
        if (value instanceof Map) {
            Map<String, Object> map = new LinkedHashMap<>();
            ((Map<?, ?>) value).forEach((key, element) -> map.put(String.valueOf(key), value(element)));
            return map;
        }
        return value.getClass().getSimpleName() + ":" + value;
    }

    static String json(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof Short || value instanceof Byte) {
            return value.toString();
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            return Double.isFinite(number) ? value.toString() : json(value.toString());
        }
        if (value instanceof Map) {
            StringBuilder out = new StringBuilder("{");
            ((Map<?, ?>) value).forEach((key, element) -> {
                if (out.length() > 1) {
                    out.append(", ");
                }
                out.append(json(String.valueOf(key))).append(": ").append(json(element));
            });
            return out.append('}').toString();
        }
        if (value instanceof List) {
            StringBuilder out = new StringBuilder("[");
            for (Object element : (List<?>) value) {
                if (out.length() > 1) {
                    out.append(", ");
                }
                out.append(json(element));
            }
            return out.append(']').toString();
        }
        if (value instanceof Object[]) {
            return json(Arrays.asList((Object[]) value));
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toString().toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
