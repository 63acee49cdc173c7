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
        // Not Trino's refusal: Trino answers it (docs sql/match-recognize); the stand-in names
        // what it lacks instead of a syntax error at the keyword.
        (
            "SELECT * FROM nation MATCH_RECOGNIZE (ORDER BY nationkey PATTERN (A) DEFINE A AS true)",
            "NOT_SUPPORTED: line 1:22: MATCH_RECOGNIZE (row pattern recognition) is not supported by the QueryMesh stand-in",
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
            "TYPE_MISMATCH: line 1:36: Cannot apply operator: varchar(25) = integer",
        ),
        (
            "SELECT name FROM nation WHERE nationkey = '1'",
            "TYPE_MISMATCH: line 1:41: Cannot apply operator: bigint = varchar(1)",
        ),
        (
            "SELECT orderkey FROM orders WHERE orderdate < '1995-01-01'",
            "TYPE_MISMATCH: line 1:45: Cannot apply operator: date < varchar(10)",
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

/// Trino checks names, existence, columns and types before its tpch connector says it cannot
/// write (DropTableTask, DropSchemaTask, DropViewTask, CreateTableTask, SetPropertiesTask,
/// StatementAnalyzer.visitInsert / visitDelete, CallTask and KillQueryProcedure; docs
/// sql/drop-table.md, sql/insert.md, sql/call.md): each answer as Trino 476 gives it.
#[test]
fn writes_are_refused_in_trinos_order_of_checks() {
    let engine = engine();
    let cases = [
        (
            "DROP TABLE tpch.tiny.nope",
            "TABLE_NOT_FOUND: line 1:1: Table 'tpch.tiny.nope' does not exist",
        ),
        (
            "DROP TABLE tpch.tiny.nation",
            "NOT_SUPPORTED: This connector does not support dropping tables",
        ),
        (
            "DROP SCHEMA tpch.tiny",
            "SCHEMA_NOT_EMPTY: line 1:1: Cannot drop non-empty schema 'tiny'",
        ),
        (
            "DROP SCHEMA tpch.nope",
            "SCHEMA_NOT_FOUND: line 1:1: Schema 'tpch.nope' does not exist",
        ),
        (
            "DROP VIEW tpch.tiny.nation",
            "GENERIC_USER_ERROR: line 1:1: View 'tpch.tiny.nation' does not exist, but a table \
             with that name exists. Did you mean DROP TABLE tpch.tiny.nation?",
        ),
        (
            "CREATE TABLE nope.s.t (x integer)",
            "CATALOG_NOT_FOUND: line 1:1: Catalog 'nope' not found",
        ),
        (
            "CREATE TABLE tpch.tiny.nation (x integer)",
            "TABLE_ALREADY_EXISTS: line 1:1: Table 'tpch.tiny.nation' already exists",
        ),
        (
            "CREATE TABLE tpch.tiny.t (x nope)",
            "TYPE_NOT_FOUND: line 1:27: Unknown type 'nope' for column 'x'",
        ),
        (
            "CREATE TABLE tpch.tiny.t (x integer) WITH (foo = 1)",
            "INVALID_TABLE_PROPERTY: line 1:44: Catalog 'tpch' table property 'foo' does not exist",
        ),
        (
            "CREATE TABLE tpch.tiny.t AS SELECT 1",
            "MISSING_COLUMN_NAME: line 1:1: Column name not specified at position 1",
        ),
        (
            "INSERT INTO tpch.tiny.nation VALUES (1)",
            "TYPE_MISMATCH: line 1:1: Insert query has mismatched column types: \
             Table: [bigint, varchar(25), bigint, varchar(152)], Query: [integer]",
        ),
        (
            "INSERT INTO tpch.tiny.region SELECT * FROM nope",
            "TABLE_NOT_FOUND: line 1:44: Table 'tpch.tiny.nope' does not exist",
        ),
        (
            "INSERT INTO tpch.tiny.nation (nope) VALUES (1)",
            "COLUMN_NOT_FOUND: line 1:1: Insert column name does not exist in target table: nope",
        ),
        (
            "INSERT INTO tpch.tiny.region VALUES (1.5, 'x', 'y')",
            "NOT_SUPPORTED: This connector does not support inserts",
        ),
        (
            "ALTER TABLE tpch.tiny.nation SET PROPERTIES x = 1",
            "INVALID_TABLE_PROPERTY: line 1:45: Catalog 'tpch' table property 'x' does not exist",
        ),
        (
            "ALTER TABLE tpch.tiny.nation DROP COLUMN nope",
            "COLUMN_NOT_FOUND: line 1:1: Column 'nope' does not exist",
        ),
        (
            "DELETE FROM tpch_tiny.nation",
            "TABLE_NOT_FOUND: line 1:1: Table 'tpch.tpch_tiny.nation' does not exist",
        ),
        (
            "UPDATE tpch.tiny.nation SET nope = 'x'",
            "COLUMN_NOT_FOUND: line 1:29: The UPDATE SET target column nope doesn't exist",
        ),
        (
            "CALL system.nope()",
            "PROCEDURE_NOT_FOUND: Procedure not registered: system.nope",
        ),
        (
            "CALL system.runtime.kill_query()",
            "INVALID_ARGUMENTS: line 1:1: Required procedure argument 'QUERY_ID' is missing",
        ),
        (
            "CALL system.runtime.kill_query(1, 'x')",
            "TYPE_MISMATCH: line 1:32: Cannot cast type integer to varchar",
        ),
        (
            "CALL system.runtime.kill_query('20200101_000000_00000_aaaaa', 'parity')",
            "NOT_FOUND: Target query not found: 20200101_000000_00000_aaaaa",
        ),
    ];
    for (sql, expected) in cases {
        let e = error(&engine, sql);
        assert_eq!(e, expected, "{sql}");
    }
    // IF [NOT] EXISTS of what is missing (or there) ends without output, as in Trino.
    for sql in [
        "DROP TABLE IF EXISTS tpch.tiny.nope",
        "DROP SCHEMA IF EXISTS nope.x",
        "CREATE TABLE IF NOT EXISTS tpch.tiny.nation (x integer)",
        "ALTER TABLE tpch.tiny.nation DROP COLUMN IF EXISTS nope",
    ] {
        let answer = ok(&engine, sql);
        assert!(answer.rows.is_empty(), "{sql}: {:?}", answer.rows);
    }
    assert_eq!(
        ok(&engine, "SELECT count(*) FROM nation").rows,
        vec![vec![json!(25)]]
    );
}
