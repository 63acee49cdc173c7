"""Trino's JDBC driver (io.trino:trino-jdbc:476) against each target, as DBeaver, DataGrip and
notebooks use it: what they call on connect (DatabaseMetaData), a prepared statement with
parameters, complex types, a decimal, a timestamp with time zone, session statements, errors and
Statement.cancel(). One JVM per target runs every check (jdbc/Check.java); each test here
asserts on one check's report, the same for both targets, so a difference fails by name.

The driver connects as the README tells DBeaver and DataGrip to: the URL from
`clients.jdbc_url` (SSL, the PEM trust store), the person's QueryMesh access token as
`accessToken`; Ada with no user (the token's subject is the Trino user), Erin with her
subject as the user.
"""

import pytest

from clients import run_jdbc_checks

ADA_SUB = "e1e1e1e1-0000-4000-8000-000000000001"  # conftest.PEOPLE
TABLE_COLUMNS = ["TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT",
                 "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"]


@pytest.fixture(scope="module")
def jdbc(target):
    return run_jdbc_checks(target)


def check(jdbc, name):
    """The value check `name` reported; fails with the driver's exception if it threw."""
    report = jdbc[name]
    assert "error" not in report, f"{name}: {report['error']}"
    return report["value"]


def test_connection_as_a_database_tool_opens_it(jdbc):
    assert check(jdbc, "connection") == {
        "valid": True,  # Connection.isValid: HEAD /v1/statement
        "product": "Trino",
        "product_version": "476",  # SELECT version()
        "driver_version": "476",
        "catalog": "tpch",
        "schema": "tiny",
        "user": ADA_SUB,  # SELECT current_user: the token's subject
        # X-Trino-Time-Zone is the JVM's zone (the suite runs it in Asia/Kolkata).
        "session": [["tpch", "tiny", "Asia/Kolkata", 25]],
    }


def test_get_catalogs(jdbc):
    assert check(jdbc, "catalogs") == {"labels": ["TABLE_CAT"], "rows": [["system"], ["tpch"]]}


def test_get_schemas(jdbc):
    assert check(jdbc, "schemas") == {
        "labels": ["TABLE_SCHEM", "TABLE_CATALOG"],
        "rows": [[schema, "system"] for schema in ["information_schema", "jdbc", "metadata",
                                                   "runtime"]]
        + [[schema, "tpch"] for schema in ["information_schema", "sf1", "sf100", "sf1000",
                                           "sf10000", "sf100000", "sf300", "sf3000", "sf30000",
                                           "tiny"]],
    }
    assert check(jdbc, "schemas_of_tpch") == {
        "labels": ["TABLE_SCHEM", "TABLE_CATALOG"], "rows": [["tiny", "tpch"]]}


def test_get_tables(jdbc):
    tables = ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region",
              "supplier"]
    assert check(jdbc, "tables") == {
        "labels": TABLE_COLUMNS,
        "rows": [["tpch", "tiny", table, "TABLE"] + [None] * 6 for table in tables],
    }
    # getTables(null, "tiny", "n%", {"TABLE", "VIEW"}): patterns and types as DBeaver sends.
    assert check(jdbc, "tables_by_type") == {
        "labels": TABLE_COLUMNS, "rows": [["tpch", "tiny", "nation", "TABLE"] + [None] * 6]}


def test_get_columns(jdbc):
    def column(name, data_type, type_name, size, radix, octets, position):
        return ["tpch", "tiny", "nation", name, data_type, type_name, size, 0, None, radix, 0,
                None, None, None, None, octets, position, "NO", None, None, None, None, None,
                None]

    assert check(jdbc, "columns") == {
        "labels": ["TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
                   "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS",
                   "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE",
                   "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE",
                   "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE",
                   "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN"],
        "rows": [
            column("nationkey", -5, "bigint", 19, 10, None, 1),
            column("name", 12, "varchar(25)", 25, None, 25, 2),
            column("regionkey", -5, "bigint", 19, 10, None, 3),
            column("comment", 12, "varchar(152)", 152, None, 152, 4),
        ],
    }


def test_get_type_info(jdbc):
    """system.jdbc.types as Trino 476 has it: the types with a JDBC type of their own in full
    (in Trino's order: by DATA_TYPE, integer twice), and every type of Trino SQL a database
    tool offers, as Trino describes it (most as JAVA_OBJECT, 2000). Trino's internal types
    (HyperLogLog, Geometry, …) also appear there; which of them a stand-in lists is not
    asserted."""
    info = check(jdbc, "type_info")
    assert info["labels"] == [
        "TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX", "LITERAL_SUFFIX",
        "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE",
        "FIXED_PREC_SCALE", "AUTO_INCREMENT", "LOCAL_TYPE_NAME", "MINIMUM_SCALE",
        "MAXIMUM_SCALE", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "NUM_PREC_RADIX"]

    def row(name, data_type, precision, searchable, radix):
        return [name, data_type, precision, None, None, None, 1, False, searchable, None, False,
                None, None, 0, 0, None, None, radix]

    assert [r for r in info["rows"] if r[1] != 2000] == [
        row("tinyint", -6, 3, 3, 10),
        row("bigint", -5, 19, 3, 10),
        row("varbinary", -3, 2147483647, 3, None),
        row("integer", 4, 10, 3, 10),
        row("integer", 4, 10, 3, 10),
        row("smallint", 5, 5, 3, 10),
        row("real", 7, 24, 3, 2),
        row("double", 8, 53, 3, 2),
        row("boolean", 16, None, 3, None),
        row("date", 91, 14, 3, None),
        row("array", 2003, None, 0, None),
    ]
    by_name = {r[0]: r for r in info["rows"] if r[1] == 2000}
    for name, searchable in [
        ("varchar", 0), ("char", 0), ("decimal", 0), ("time", 0), ("time with time zone", 0),
        ("timestamp", 0), ("timestamp with time zone", 0), ("row", 0), ("map", 0),
        ("json", 3), ("uuid", 3), ("ipaddress", 3), ("interval year to month", 3),
        ("interval day to second", 3), ("unknown", 3),
    ]:
        assert by_name.get(name) == row(name, 2000, None, searchable, None), name


def test_get_primary_keys_is_empty(jdbc):
    # The driver answers it with a query of its own that has no rows (Trino has no keys).
    assert check(jdbc, "primary_keys") == {
        "labels": ["TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ",
                   "PK_NAME"],
        "rows": []}


def test_get_table_types(jdbc):
    assert check(jdbc, "table_types") == {"labels": ["TABLE_TYPE"], "rows": [["TABLE"], ["VIEW"]]}


def test_prepared_statement_with_parameters(jdbc):
    # PREPARE once, then EXECUTE … USING each time, the statement held in
    # X-Trino-Prepared-Statement: a long, a string (one with a quote) and a decimal.
    assert check(jdbc, "prepared") == [
        [[1, "ARGENTINA"], [2, "BRAZIL"], [3, "CANADA"]],
        [],
        [[19, "ROMANIA"], [23, "UNITED KINGDOM"]],
    ]


def test_prepared_statement_metadata_before_it_runs(jdbc):
    # getMetaData (DESCRIBE OUTPUT) and getParameterMetaData (DESCRIBE INPUT), which tools
    # call before running a statement.
    assert check(jdbc, "prepared_metadata") == {
        "columns": [["name", "varchar(25)", 12, 25, 0, "java.lang.String"],
                    ["next", "bigint", -5, 19, 0, "java.lang.Long"]],
        "parameters": [["varchar", 12], ["bigint", -5]],
    }


def test_arrays(jdbc):
    assert check(jdbc, "array") == {
        # [label, type name, java.sql.Types, precision, scale, class name]
        "columns": [["numbers", "array(integer)", 2003, 0, 0, "java.sql.Array"],
                    ["letters", "array(varchar(1))", 2003, 0, 0, "java.sql.Array"],
                    ["nested", "array(array(double))", 2003, 0, 0, "java.sql.Array"]],
        # getArray: [base type name, base type, element class, elements]
        "numbers": ["integer", 4, "Object", [1, None, 3]],
        "letters": ["varchar(1)", 12, "Object", ["a", "b"]],
        "nested": ["array(double)", 2003, "Object", [[1.5], []]],
    }


def test_maps_and_rows(jdbc):
    assert check(jdbc, "map_and_row") == {
        "columns": [
            ["prices", "map(varchar(1),double)", 2000, 0, 0, "java.lang.String"],
            ["pair", "row(id integer,tag varchar,flags array(boolean))", 2000, 0, 0,
             "java.lang.String"],
            ["anonymous", "row(integer,decimal(3,2))", 2000, 0, 0, "java.lang.String"],
        ],
        "prices": ["UnmodifiableMap", {"a": None, "b": 2.5}],
        # getObject: io.trino.jdbc.Row, as [toString, [[field name, value], …]]
        "pair": ["{id=1, tag=x, flags=[true]}", [["id", 1], ["tag", "x"], ["flags", [True]]]],
        "anonymous": ["{7, 1.10}", [[None, 7], [None, "BigDecimal:1.10"]]],
    }


def test_decimals(jdbc):
    assert check(jdbc, "decimal") == {
        "columns": [["amount", "decimal(10,2)", 3, 10, 2, "java.math.BigDecimal"],
                    ["tiny", "decimal(6,6)", 3, 6, 6, "java.math.BigDecimal"],
                    ["wide", "decimal(38,9)", 3, 38, 9, "java.math.BigDecimal"],
                    ["total", "decimal(38,2)", 3, 38, 2, "java.math.BigDecimal"]],
        # [getBigDecimal plain, its scale, getString, getDouble]
        "amount": ["12.50", 2, "12.50", 12.5],
        "tiny": ["-0.000001", 6, "-0.000001", -1e-06],
        "wide": ["12345678901234567890.123456789", 9, "12345678901234567890.123456789",
                 1.2345678901234567e+19],
        "total": ["6681865.59", 2, "6681865.59", 6681865.59],
    }


def test_timestamps_with_time_zone(jdbc):
    kind = "java.sql.Timestamp"
    assert check(jdbc, "timestamp_with_time_zone") == {
        "columns": [["paris", "timestamp(3) with time zone", 2014, 3, 0, "java.lang.String"],
                    ["offset6", "timestamp(6) with time zone", 2014, 3, 0, "java.lang.String"],
                    ["epoch", "timestamp(3) with time zone", 2014, 3, 0, "java.lang.String"],
                    ["whole", "timestamp(0) with time zone", 2014, 3, 0, "java.lang.String"]],
        # [getString, getObject's class, its toString (in the JVM's zone),
        #  getObject(ZonedDateTime.class), getTimestamp's instant]
        "paris": ["2020-01-02 03:04:05.678 Europe/Paris", kind, "2020-01-02 07:34:05.678",
                  "2020-01-02T03:04:05.678+01:00[Europe/Paris]", "2020-01-02T02:04:05.678Z"],
        "offset6": ["2020-07-01 12:00:00.123456 +05:30", kind, "2020-07-01 12:00:00.123456",
                    "2020-07-01T12:00:00.123456+05:30", "2020-07-01T06:30:00.123456Z"],
        # from_unixtime answers in the session's zone: the driver's X-Trino-Time-Zone.
        "epoch": ["1970-01-01 05:30:00.000 Asia/Kolkata", kind, "1970-01-01 05:30:00.0",
                  "1970-01-01T05:30+05:30[Asia/Kolkata]", "1970-01-01T00:00:00Z"],
        "whole": ["2020-01-02 03:04:05 America/New_York", kind, "2020-01-02 13:34:05.0",
                  "2020-01-02T03:04:05-05:00[America/New_York]", "2020-01-02T08:04:05Z"],
    }


def test_use_and_set_session_are_updates_the_driver_keeps(jdbc):
    assert check(jdbc, "session_statements") == {
        "use_is_a_query": False, "schema": "sf1", "set_session_is_a_query": False,
        "after": [["sf1"]], "back": [["tiny", 5]],
    }


def test_errors_carry_trinos_message_and_code(jdbc):
    failure = check(jdbc, "syntax_error")
    # Trino's message goes on to list the tokens its parser expected here; which ones is the
    # parity suite's business (tests/parity), not the driver's.
    assert failure["message"].startswith(
        "Query failed (#id): line 1:1: mismatched input 'SELEC'. Expecting: "), failure
    assert (failure["sql_state"], failure["error_code"]) == (None, 1)  # SYNTAX_ERROR
    # Erin's token (and her subject as the user): the rules deny her tpch.tiny.orders.
    assert check(jdbc, "access_denied") == {
        "message": "Query failed (#id): Access Denied: Cannot select from table tpch.tiny.orders",
        "sql_state": None, "error_code": 4,  # PERMISSION_DENIED
    }


def test_statement_cancel_from_another_thread(jdbc):
    # The long query RUNNING (the driver's progress monitor said so), Statement.cancel() on
    # another thread: the reading thread gets an SQLException within 5 s.
    assert check(jdbc, "cancel") == {"thrown": "SQLException", "within_5_s": True}


def test_the_cancelled_query_failed_user_canceled(jdbc):
    # The query Statement.cancel() stopped, by its id, in system.runtime.queries.
    assert check(jdbc, "cancelled_query_state") == [["FAILED", "USER_CANCELED"]]
