//! What Trino refuses is refused with Trino's error; writes are refused and leave the data alone.

use serde_json::json;

use crate::support::engine::{engine, error, ok};

#[test]
fn what_trino_refuses_is_refused_with_trinos_error() {
    let engine = engine();
    let cases: &[(&str, &str)] = &[
        (
            "SELECT * FROM nation WHERE name = \"ALGERIA\"",
            "COLUMN_NOT_FOUND: line 1:35: Column 'algeria' cannot be resolved",
        ),
        (
            "SELECT ifnull(NULL, 1)",
            "FUNCTION_NOT_FOUND: line 1:8: Function 'ifnull' not registered",
        ),
        (
            "SELECT group_concat(name) FROM nation",
            "FUNCTION_NOT_FOUND: line 1:8: Function 'group_concat' not registered",
        ),
        (
            "SELECT strftime('%Y', orderdate) FROM orders",
            "FUNCTION_NOT_FOUND: line 1:8: Function 'strftime' not registered",
        ),
        (
            "SELECT name FROM nation WHERE name = 1",
            "TYPE_MISMATCH: line 1:31: Cannot apply operator: varchar(25) = integer",
        ),
        (
            "SELECT name FROM nation WHERE nationkey = '1'",
            "TYPE_MISMATCH: line 1:31: Cannot apply operator: bigint = varchar(1)",
        ),
        (
            "SELECT orderkey FROM orders WHERE orderdate < '1995-01-01'",
            "TYPE_MISMATCH: line 1:35: Cannot apply operator: date < varchar(10)",
        ),
        (
            "SELECT foo FROM nation",
            "COLUMN_NOT_FOUND: line 1:8: Column 'foo' cannot be resolved",
        ),
        (
            "SELECT name\nFROM nation\nWHERE bar = 1",
            "COLUMN_NOT_FOUND: line 3:7: Column 'bar' cannot be resolved",
        ),
        (
            "SELECT * FROM foo",
            "TABLE_NOT_FOUND: line 1:15: Table 'tpch.tiny.foo' does not exist",
        ),
        (
            "SELECT * FROM tpch.nope.nation",
            "SCHEMA_NOT_FOUND: line 1:15: Schema 'nope' does not exist",
        ),
        (
            "SELECT * FROM nope.tiny.nation",
            "CATALOG_NOT_FOUND: line 1:15: Catalog 'nope' not found",
        ),
        (
            "SELECT name FROM nation n JOIN region r ON n.regionkey = r.regionkey",
            "AMBIGUOUS_NAME: line 1:8: Column 'name' is ambiguous",
        ),
        (
            "SELECT regionkey, name FROM nation GROUP BY regionkey",
            "EXPRESSION_NOT_AGGREGATE: line 1:19: 'name' must be an aggregate expression or appear in GROUP BY clause",
        ),
        (
            "SELECT name FROM nation WHERE count(*) > 1",
            "EXPRESSION_NOT_SCALAR: line 1:31: WHERE clause cannot contain aggregations, window functions or grouping operations: [count(*)]",
        ),
        (
            "SELECT name FROM nation WHERE regionkey",
            "TYPE_MISMATCH: line 1:31: WHERE clause must evaluate to a boolean: actual type bigint",
        ),
        ("SELECT `name` FROM nation", "SYNTAX_ERROR"),
        ("SELECT name FROM nation LIMIT 1, 2", "SYNTAX_ERROR"),
        ("SELECT name FORM nation", "SYNTAX_ERROR"),
        (
            "SELECT name FROM nation;",
            "SYNTAX_ERROR: line 1:24: mismatched input ';'. Expecting: <EOF>",
        ),
        ("SELECT name::varchar FROM nation", "SYNTAX_ERROR"),
        (
            "SELECT DISTINCT regionkey FROM nation ORDER BY name",
            "EXPRESSION_NOT_IN_DISTINCT: line 1:48: For SELECT DISTINCT, ORDER BY expressions must appear in select list",
        ),
        (
            "SELECT * FROM nation WHERE",
            "SYNTAX_ERROR: line 1:27: mismatched input '<EOF>'",
        ),
        (
            "SELECT (SELECT name FROM region)",
            "SUBQUERY_MULTIPLE_ROWS: Scalar sub-query has returned multiple rows",
        ),
        (
            "SELECT name || (SELECT max(name) FROM region) FROM nation GROUP BY regionkey",
            "EXPRESSION_NOT_AGGREGATE: line 1:8: 'name' must be an aggregate expression or appear in GROUP BY clause",
        ),
        (
            "SELECT concat(name, 1) FROM nation",
            "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(25), integer) for function concat",
        ),
    ];
    for (sql, expected) in cases {
        let e = error(&engine, sql);
        assert!(
            e.starts_with(expected),
            "{sql}\n  expected {expected}\n  got      {e}"
        );
    }
}

#[test]
fn writes_are_refused_and_leave_the_data_unchanged() {
    let engine = engine();
    let writes = [
        "INSERT INTO nation VALUES (99, 'X', 0, 'x')",
        "UPDATE nation SET name = 'X'",
        "DELETE FROM nation",
        "CREATE TABLE t (x bigint)",
        "DROP TABLE nation",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "PRAGMA query_only = 0",
        "WITH x AS (SELECT 1) DELETE FROM nation",
        "ALTER TABLE nation ADD COLUMN y bigint",
    ];
    for sql in writes {
        let e = error(&engine, sql);
        assert!(
            e.starts_with("NOT_SUPPORTED") || e.starts_with("SYNTAX_ERROR"),
            "{sql}: {e}"
        );
    }
    let counted = ok(&engine, "SELECT count(*), max(name) FROM nation");
    assert_eq!(counted.rows, vec![vec![json!(25), json!("VIETNAM")]]);
    // The connection itself refuses writes too, behind the analyzer.
    let conn = engine.connect().expect("a connection");
    assert!(conn.execute("DELETE FROM tpch_tiny.nation", []).is_err());
    assert_eq!(
        ok(&engine, "SELECT count(*) FROM nation").rows,
        vec![vec![json!(25)]]
    );
}
