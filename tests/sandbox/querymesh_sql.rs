//! The QueryMesh engine at library level: Trino SQL through `Engine::prepare` and
//! `Prepared::run` on `Engine::connect`, against tpch.tiny and the developer's catalogs.

use serde_json::{Value, json};
use zero_sandbox::querymesh::engine::types::TrinoType;
use zero_sandbox::querymesh::engine::{Engine, RunError, SessionContext};

use crate::engine_harness::{engine, error, ok, run, run_in, single, tiny};
use crate::support;

// ---- the eight tables ----

const TABLES: &[(&str, u64, &str)] = &[
    (
        "nation",
        25,
        "nationkey bigint, name varchar(25), regionkey bigint, comment varchar(152)",
    ),
    (
        "region",
        5,
        "regionkey bigint, name varchar(25), comment varchar(152)",
    ),
    (
        "part",
        2000,
        "partkey bigint, name varchar(55), mfgr varchar(25), brand varchar(10), type varchar(25), size integer, container varchar(10), retailprice double, comment varchar(23)",
    ),
    (
        "supplier",
        100,
        "suppkey bigint, name varchar(25), address varchar(40), nationkey bigint, phone varchar(15), acctbal double, comment varchar(101)",
    ),
    (
        "partsupp",
        8000,
        "partkey bigint, suppkey bigint, availqty integer, supplycost double, comment varchar(199)",
    ),
    (
        "customer",
        1500,
        "custkey bigint, name varchar(25), address varchar(40), nationkey bigint, phone varchar(15), acctbal double, mktsegment varchar(10), comment varchar(117)",
    ),
    (
        "orders",
        15000,
        "orderkey bigint, custkey bigint, orderstatus varchar(1), totalprice double, orderdate date, orderpriority varchar(15), clerk varchar(15), shippriority integer, comment varchar(79)",
    ),
    (
        "lineitem",
        60175,
        "orderkey bigint, partkey bigint, suppkey bigint, linenumber integer, quantity double, extendedprice double, discount double, tax double, returnflag varchar(1), linestatus varchar(1), shipdate date, commitdate date, receiptdate date, shipinstruct varchar(25), shipmode varchar(10), comment varchar(44)",
    ),
];

#[test]
fn tpch_tables_have_the_connectors_columns_types_and_rows() {
    let engine = engine();
    for (table, count, schema) in TABLES {
        let select = ok(&engine, &format!("SELECT * FROM tpch.tiny.{table} LIMIT 1"));
        let shape: Vec<String> = select
            .names
            .iter()
            .zip(&select.types)
            .map(|(n, t)| format!("{n} {t}"))
            .collect();
        assert_eq!(&shape.join(", "), schema, "SELECT * from {table}");

        let described = ok(&engine, &format!("DESCRIBE {table}"));
        assert_eq!(described.names, ["Column", "Type", "Extra", "Comment"]);
        let shape: Vec<String> = described
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r[0].as_str().unwrap_or(""),
                    r[1].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(&shape.join(", "), schema, "DESCRIBE {table}");

        let info = ok(
            &engine,
            &format!(
                "SELECT column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = '{table}' ORDER BY ordinal_position"
            ),
        );
        let shape: Vec<String> = info
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r[0].as_str().unwrap_or(""),
                    r[1].as_str().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(
            &shape.join(", "),
            schema,
            "information_schema.columns of {table}"
        );

        let counted = ok(&engine, &format!("SELECT count(*) FROM {table}"));
        assert_eq!(counted.rows, vec![vec![json!(count)]], "rows of {table}");
    }
    let first = ok(&engine, "SELECT * FROM nation ORDER BY nationkey LIMIT 1");
    assert_eq!(
        first.rows[0],
        vec![
            json!(0),
            json!("ALGERIA"),
            json!(0),
            json!(" haggle. carefully final deposits detect slyly agai")
        ]
    );
    let line = ok(
        &engine,
        "SELECT orderkey, partkey, suppkey, linenumber, quantity, extendedprice, discount, tax, shipdate FROM lineitem ORDER BY orderkey, linenumber LIMIT 1",
    );
    assert_eq!(
        line.rows[0],
        vec![
            json!(1),
            json!(1552),
            json!(93),
            json!(1),
            json!(17.0),
            json!(24710.35),
            json!(0.04),
            json!(0.02),
            json!("1996-03-13")
        ]
    );
}

// ---- the 22 TPC-H queries against Trino's answers ----

/// Parses a verifier answer: `(VARCHAR 'x', BIGINT '1', DECIMAL '2.50', DATE '…'), …`.
fn parse_answer(text: &str) -> Vec<Vec<(String, Option<String>)>> {
    let body = text.split_once("VALUES").map_or("", |(_, b)| b);
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut chars = body.chars().peekable();
    let mut word = String::new();
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                depth += 1;
                word.clear();
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    // A row is complete; `(CAST(NULL AS DOUBLE))` is a row of one NULL.
                    let cells = std::mem::take(&mut row);
                    rows.push(if cells.is_empty() {
                        vec![("NULL".to_string(), None)]
                    } else {
                        cells
                    });
                }
                word.clear();
            }
            '\'' => {
                let mut value = String::new();
                while let Some(v) = chars.next() {
                    if v == '\'' {
                        if chars.peek() == Some(&'\'') {
                            value.push('\'');
                            chars.next();
                        } else {
                            break;
                        }
                    } else {
                        value.push(v);
                    }
                }
                row.push((word.trim().to_string(), Some(value)));
                word.clear();
            }
            ',' => word.clear(),
            c => word.push(c),
        }
    }
    rows
}

fn matches(kind: &str, expected: &Option<String>, actual: &Value, ty: &str) -> bool {
    let Some(expected) = expected else {
        return actual.is_null();
    };
    match kind {
        "VARCHAR" => actual.as_str() == Some(expected) && ty.starts_with("varchar"),
        "BIGINT" => {
            actual.as_i64().map(|v| v.to_string()).as_deref() == Some(expected) && ty == "bigint"
        }
        "INTEGER" => {
            actual.as_i64().map(|v| v.to_string()).as_deref() == Some(expected) && ty == "integer"
        }
        "DATE" => actual.as_str() == Some(expected) && ty == "date",
        "DECIMAL" => {
            let digits = expected.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
            let (Ok(e), Some(a)) = (expected.parse::<f64>(), actual.as_f64()) else {
                return false;
            };
            ty == "double" && (a - e).abs() <= 0.5 * 10f64.powi(-digits) + 1e-9 * e.abs()
        }
        _ => false,
    }
}

#[test]
fn the_22_tpch_queries_return_trinos_answers() {
    let engine = engine();
    for n in 1..=22 {
        let sql =
            std::fs::read_to_string(format!("fixtures/tpch/queries/q{n}.sql")).expect("query text");
        let expected = parse_answer(
            &std::fs::read_to_string(format!("fixtures/tpch/answers/q{n}.sql")).expect("answer"),
        );
        let actual = match run(&engine, &sql) {
            Ok(a) => a,
            Err(e) => panic!("q{n} failed: {e}"),
        };
        assert_eq!(actual.rows.len(), expected.len(), "q{n} row count");
        for (i, (want, got)) in expected.iter().zip(&actual.rows).enumerate() {
            assert_eq!(want.len(), got.len(), "q{n} row {i} width");
            for (j, ((kind, value), cell)) in want.iter().zip(got).enumerate() {
                let ty = if kind == "NULL" {
                    "double"
                } else {
                    actual.types[j].as_str()
                };
                assert!(
                    matches(kind, value, cell, ty),
                    "q{n} row {i} column {j}: expected {kind} {value:?}, got {cell} ({ty})"
                );
            }
        }
    }
    let no_parts = ok(
        &engine,
        "SELECT count(*) FROM part WHERE brand = 'Brand#23' AND container = 'MED BOX'",
    );
    assert_eq!(
        no_parts.rows,
        vec![vec![json!(0)]],
        "q17's answer rests on this"
    );
}

// ---- Trino's types and values ----

#[test]
fn expressions_have_trinos_types_and_encoding() {
    let engine = engine();
    let cases: &[(&str, &str, Value)] = &[
        ("SELECT count(*) FROM nation", "bigint", json!(25)),
        ("SELECT avg(nationkey) FROM nation", "double", json!(12.0)),
        (
            "SELECT sum(linenumber) FROM lineitem WHERE orderkey = 1",
            "bigint",
            json!(21),
        ),
        ("SELECT 7 / 2", "integer", json!(3)),
        ("SELECT -7 / 2", "integer", json!(-3)),
        ("SELECT 7 % 3", "integer", json!(1)),
        (
            "SELECT nationkey * 1000000000000 FROM nation WHERE nationkey = 3",
            "bigint",
            json!(3_000_000_000_000i64),
        ),
        (
            "SELECT extract(YEAR FROM orderdate) FROM orders WHERE orderkey = 1",
            "bigint",
            json!(1996),
        ),
        (
            "SELECT year(orderdate) FROM orders WHERE orderkey = 1",
            "bigint",
            json!(1996),
        ),
        ("SELECT 1.5", "decimal(2, 1)", json!("1.5")),
        ("SELECT 0.06 - 0.01", "decimal(3, 2)", json!("0.05")),
        (
            "SELECT orderdate FROM orders WHERE orderkey = 1",
            "date",
            json!("1996-01-02"),
        ),
        (
            "SELECT DATE '1998-12-01' - INTERVAL '90' DAY",
            "date",
            json!("1998-09-02"),
        ),
        (
            "SELECT DATE '2020-01-31' + INTERVAL '1' MONTH",
            "date",
            json!("2020-02-29"),
        ),
        ("SELECT CAST(17 AS double)", "double", json!(17.0)),
        (
            "SELECT quantity FROM lineitem WHERE orderkey = 1 AND linenumber = 1",
            "double",
            json!(17.0),
        ),
        ("SELECT 1e0 / 0e0", "double", json!("Infinity")),
        ("SELECT CAST('42' AS bigint)", "bigint", json!(42)),
        ("SELECT TRY_CAST('abc' AS bigint)", "bigint", Value::Null),
        ("SELECT CAST(2.5 AS integer)", "integer", json!(3)),
        ("SELECT CAST(1.5E0 AS varchar)", "varchar", json!("1.5")),
        (
            "SELECT name || '!' FROM region WHERE regionkey = 0",
            "varchar(26)",
            json!("AFRICA!"),
        ),
        ("SELECT concat('a', 'bc')", "varchar(3)", json!("abc")),
        (
            "SELECT substring('Trino', 2, 3)",
            "varchar(5)",
            json!("rin"),
        ),
        ("SELECT strpos('Trino', 'in')", "bigint", json!(3)),
        (
            "SELECT length(name) FROM region WHERE regionkey = 1",
            "bigint",
            json!(7),
        ),
        ("SELECT upper(lower('AbC'))", "varchar(3)", json!("ABC")),
        ("SELECT trim('  x ')", "varchar(4)", json!("x")),
        (
            "SELECT replace('a-b-c', '-', '+')",
            "varchar(11)",
            json!("a+b+c"),
        ),
        ("SELECT coalesce(NULL, 2)", "integer", json!(2)),
        ("SELECT nullif(1, 1)", "integer", Value::Null),
        (
            "SELECT CASE WHEN 1 = 1 THEN 'yes' ELSE 'no' END",
            "varchar(3)",
            json!("yes"),
        ),
        (
            "SELECT date_trunc('month', DATE '1995-03-15')",
            "date",
            json!("1995-03-01"),
        ),
        (
            "SELECT date_add('day', 20, DATE '1995-03-15')",
            "date",
            json!("1995-04-04"),
        ),
        (
            "SELECT date_diff('day', DATE '1995-03-01', DATE '1995-03-15')",
            "bigint",
            json!(14),
        ),
        ("SELECT round(2.345E0, 2)", "double", json!(2.35)),
        ("SELECT round(1.005, 2)", "decimal(5, 3)", json!("1.010")),
        ("SELECT abs(-3)", "integer", json!(3)),
        (
            "SELECT approx_distinct(regionkey) FROM nation",
            "bigint",
            json!(5),
        ),
        (
            "SELECT count(DISTINCT regionkey) FROM nation",
            "bigint",
            json!(5),
        ),
        ("SELECT 'Abc' LIKE 'a%'", "boolean", json!(false)),
        ("SELECT 3 BETWEEN 1 AND 5", "boolean", json!(true)),
        (
            "SELECT TIMESTAMP '2020-01-02 03:04:05.678'",
            "timestamp(3)",
            json!("2020-01-02 03:04:05.678"),
        ),
    ];
    for (sql, ty, value) in cases {
        let (actual_ty, actual) = single(&engine, sql);
        assert_eq!((actual_ty.as_str(), &actual), (*ty, value), "{sql}");
    }
    assert_eq!(
        error(&engine, "SELECT 1 / 0"),
        "DIVISION_BY_ZERO: Division by zero"
    );
    assert!(
        error(&engine, "SELECT 9223372036854775807 + 1").starts_with("NUMERIC_VALUE_OUT_OF_RANGE")
    );
    assert!(error(&engine, "SELECT 1000000 * 1000000").starts_with("NUMERIC_VALUE_OUT_OF_RANGE"));
    assert_eq!(
        single(&engine, "SELECT 1 -- a comment\n + /* another */ 1").1,
        json!(2)
    );
    let special = ok(
        &engine,
        "SELECT 0E0 / 0E0, -1E0 / 0E0, CAST('NaN' AS double), - -1, -(-2)",
    );
    assert_eq!(
        special.rows,
        vec![vec![
            json!("NaN"),
            json!("-Infinity"),
            json!("NaN"),
            json!(1),
            json!(2)
        ]]
    );
    let unknown_type = error(&engine, "SELECT CAST(1 AS text)");
    assert!(
        unknown_type.starts_with("TYPE_NOT_FOUND") && unknown_type.ends_with("Unknown type: text"),
        "{unknown_type}"
    );
    assert!(
        error(&engine, "SELECT CAST('abc' AS bigint)")
            .starts_with("INVALID_CAST_ARGUMENT: Cannot cast 'abc' to BIGINT")
    );
    let names = ok(
        &engine,
        "SELECT nationkey, n.name, count(*) AS total, 1 + 1 FROM nation n GROUP BY nationkey, n.name LIMIT 1",
    );
    assert_eq!(names.names, ["nationkey", "name", "total", "_col3"]);
}

#[test]
fn queries_use_the_breadth_of_trino_sql() {
    let engine = engine();
    let cases: &[(&str, Value)] = &[
        (
            "WITH r AS (SELECT regionkey, name FROM region) SELECT name FROM r WHERE regionkey = 2",
            json!([["ASIA"]]),
        ),
        (
            "SELECT x FROM (SELECT regionkey FROM region WHERE regionkey < 2) AS t (x) ORDER BY x DESC",
            json!([[1], [0]]),
        ),
        (
            "SELECT regionkey FROM region WHERE regionkey < 2 UNION SELECT regionkey FROM region WHERE regionkey < 3 ORDER BY 1",
            json!([[0], [1], [2]]),
        ),
        (
            "SELECT regionkey FROM region INTERSECT SELECT 3",
            json!([[3]]),
        ),
        (
            "SELECT regionkey FROM region EXCEPT SELECT regionkey FROM region WHERE regionkey > 0",
            json!([[0]]),
        ),
        (
            "SELECT regionkey FROM region ORDER BY regionkey OFFSET 3 ROWS",
            json!([[3], [4]]),
        ),
        (
            "SELECT regionkey FROM region ORDER BY regionkey FETCH FIRST 2 ROWS ONLY",
            json!([[0], [1]]),
        ),
        (
            "SELECT x FROM (VALUES (2), (NULL), (1)) AS t (x) ORDER BY x NULLS FIRST",
            json!([[null], [1], [2]]),
        ),
        (
            "SELECT x FROM (VALUES (2), (NULL), (1)) AS t (x) ORDER BY x DESC",
            json!([[2], [1], [null]]),
        ),
        (
            "SELECT name, rank() OVER (ORDER BY regionkey DESC) FROM region ORDER BY 2 LIMIT 2",
            json!([["MIDDLE EAST", 1], ["EUROPE", 2]]),
        ),
        (
            "SELECT regionkey, sum(nationkey) OVER (PARTITION BY regionkey) FROM nation WHERE regionkey = 0 LIMIT 1",
            json!([[0, 50]]),
        ),
        (
            "SELECT regionkey, count(*) FROM nation GROUP BY regionkey HAVING count(*) > 4 ORDER BY regionkey",
            json!([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]]),
        ),
        (
            "SELECT r.name FROM region r WHERE EXISTS (SELECT 1 FROM nation n WHERE n.regionkey = r.regionkey AND n.name = 'JAPAN')",
            json!([["ASIA"]]),
        ),
        (
            "SELECT name FROM region WHERE regionkey IN (SELECT regionkey FROM nation WHERE name = 'PERU')",
            json!([["AMERICA"]]),
        ),
        (
            "SELECT n.name, r.name FROM nation n JOIN region r ON n.regionkey = r.regionkey WHERE n.nationkey = 0",
            json!([["ALGERIA", "AFRICA"]]),
        ),
        (
            "SELECT count(*) FROM nation n LEFT JOIN region r ON n.regionkey = r.regionkey AND r.regionkey = 9",
            json!([[25]]),
        ),
        (
            "SELECT count(*) FILTER (WHERE regionkey = 1) FROM nation",
            json!([[5]]),
        ),
        (
            "SELECT count(*) FROM tpch.tiny.nation, tiny.region",
            json!([[125]]),
        ),
        (
            "SELECT regionkey AS Region FROM region ORDER BY region DESC LIMIT 1",
            json!([[4]]),
        ),
        (
            "SELECT DISTINCT regionkey FROM nation ORDER BY regionkey DESC LIMIT 2",
            json!([[4], [3]]),
        ),
        (
            "SELECT DISTINCT n.regionkey FROM nation n ORDER BY n.regionkey LIMIT 1",
            json!([[0]]),
        ),
        (
            "SELECT * FROM nation JOIN region USING (regionkey) WHERE nationkey = 0",
            json!([[
                0,
                0,
                "ALGERIA",
                " haggle. carefully final deposits detect slyly agai",
                "AFRICA",
                "lar deposits. blithely final packages cajole. regular waters are final requests. regular accounts are according to "
            ]]),
        ),
        (
            "SELECT regionkey, region.regionkey FROM nation JOIN region USING (regionkey) WHERE nationkey = 1",
            json!([[1, 1]]),
        ),
        (
            "SELECT (SELECT name FROM region WHERE regionkey = 1)",
            json!([["AMERICA"]]),
        ),
        (
            "SELECT (SELECT name FROM region WHERE regionkey = 99)",
            json!([[null]]),
        ),
    ];
    for (sql, expected) in cases {
        let a = ok(&engine, sql);
        assert_eq!(&json!(a.rows), expected, "{sql}");
    }
}

// ---- what Trino refuses ----

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

// ---- exploration ----

#[test]
fn catalogs_schemas_tables_and_columns_can_be_explored() {
    let engine = engine();
    let catalogs = ok(&engine, "SHOW CATALOGS");
    assert_eq!(catalogs.names, ["Catalog"]);
    assert!(catalogs.rows.contains(&vec![json!("tpch")]));
    let schemas = ok(&engine, "SHOW SCHEMAS FROM tpch");
    assert_eq!(
        json!(schemas.rows),
        json!([["information_schema"], ["tiny"]])
    );
    let tables = ok(&engine, "SHOW TABLES FROM tpch.tiny");
    assert_eq!(
        json!(tables.rows),
        json!([
            ["customer"],
            ["lineitem"],
            ["nation"],
            ["orders"],
            ["part"],
            ["partsupp"],
            ["region"],
            ["supplier"]
        ])
    );
    let like = ok(&engine, "SHOW TABLES FROM tpch.tiny LIKE 'part%'");
    assert_eq!(json!(like.rows), json!([["part"], ["partsupp"]]));
    let columns = ok(&engine, "SHOW COLUMNS FROM tpch.tiny.region");
    assert_eq!(
        json!(columns.rows),
        json!([
            ["regionkey", "bigint", "", ""],
            ["name", "varchar(25)", "", ""],
            ["comment", "varchar(152)", "", ""]
        ])
    );
    let info = ok(
        &engine,
        "SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny' AND table_name LIKE 'n%'",
    );
    assert_eq!(json!(info.rows), json!([["nation"]]));
    let no_session = run_in(&engine, &SessionContext::default(), "SELECT * FROM nation")
        .err()
        .unwrap_or_default();
    assert!(
        no_session.starts_with("MISSING_CATALOG_NAME"),
        "{no_session}"
    );
}

// ---- the developer's own data ----

#[test]
fn sqlite_and_csv_sources_become_catalogs_with_trino_types() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("app.db");
    {
        // SQLite's memory is counted only if nothing opens it first (querymesh/engine/memory.rs).
        zero_sandbox::querymesh::engine::memory::install();
        let conn = rusqlite::Connection::open(&db).expect("a database");
        conn.execute_batch(
            "CREATE TABLE Accounts (id INTEGER NOT NULL, owner TEXT, balance REAL, opened DATE);
             INSERT INTO Accounts VALUES (1, 'ada', 10.5, '2024-01-02'), (2, 'grace', 20, '2024-02-03');",
        )
        .expect("rows");
    }
    let csv_dir = dir.path().join("sales");
    std::fs::create_dir(&csv_dir).expect("a folder");
    std::fs::write(csv_dir.join("orders.csv"), "id,amount,region,shipped,day\n1,12,\"north, east\",true,2024-01-01\n2,7.5,south,false,2024-01-02\n3,,south,true,\n")
        .expect("a csv");
    let mut config = support::test_config();
    config.querymesh.catalogs = vec![
        toml::from_str(&format!("catalog = 'mydata'\nschema = 'main'\nsqlite = {:?}", db.display().to_string())).expect("a source"),
        toml::from_str(&format!("catalog = 'files'\nschema = 'sales'\ncsv_dir = {:?}\ntypes = {{ 'orders.id' = 'integer' }}", csv_dir.display().to_string())).expect("a source"),
    ];
    let engine =
        Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens");
    let session = SessionContext {
        catalog: Some("mydata".into()),
        schema: Some("main".into()),
        ..Default::default()
    };
    let accounts = run_in(
        &engine,
        &session,
        "SELECT id, owner, balance, opened FROM accounts ORDER BY id",
    )
    .expect("accounts");
    assert_eq!(accounts.types, ["bigint", "varchar", "double", "date"]);
    assert_eq!(
        json!(accounts.rows),
        json!([
            [1, "ada", 10.5, "2024-01-02"],
            [2, "grace", 20.0, "2024-02-03"]
        ])
    );
    let orders = run_in(
        &engine,
        &session,
        "SELECT * FROM files.sales.orders ORDER BY id",
    )
    .expect("orders");
    assert_eq!(orders.names, ["id", "amount", "region", "shipped", "day"]);
    assert_eq!(
        orders.types,
        ["integer", "double", "varchar", "boolean", "date"]
    );
    assert_eq!(
        json!(orders.rows),
        json!([
            [1, 12.0, "north, east", true, "2024-01-01"],
            [2, 7.5, "south", false, "2024-01-02"],
            [3, null, "south", true, null]
        ])
    );
    let joined = run_in(&engine, &session, "SELECT a.owner, o.amount FROM accounts a JOIN files.sales.orders o ON a.id = o.id ORDER BY 1").expect("a join");
    assert_eq!(json!(joined.rows), json!([["ada", 12.0], ["grace", 7.5]]));
    let shown = run_in(&engine, &session, "SHOW SCHEMAS FROM files").expect("schemas");
    assert_eq!(
        json!(shown.rows),
        json!([["information_schema"], ["sales"]])
    );
    assert!(run_in(&engine, &session, "DELETE FROM accounts").is_err());
    assert_eq!(
        run_in(&engine, &session, "SELECT count(*) FROM accounts")
            .expect("count")
            .rows,
        vec![vec![json!(2)]]
    );
    assert_eq!(TrinoType::Date.to_string(), "date");
}

// ---- interruption ----

#[test]
fn an_interrupted_query_reports_interrupted() {
    let engine = engine();
    let prepared = engine
        .prepare("SELECT count(*) FROM lineitem a, lineitem b", &tiny())
        .expect("prepared");
    let conn = engine.connect().expect("a connection");
    let handle = conn.get_interrupt_handle();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = done.clone();
    let interrupter = std::thread::spawn(move || {
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            handle.interrupt();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    });
    let result = prepared.run(&conn, &mut |_| true);
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    interrupter.join().expect("the interrupter ends");
    assert!(matches!(result, Err(RunError::Interrupted)), "{result:?}");
}

#[test]
fn tpch_is_written_once_into_the_state_directory_and_reused() {
    let state = tempfile::tempdir().expect("a state directory");
    let mut config = support::test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let first =
        Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens");
    let file = state
        .path()
        .join(zero_sandbox::querymesh::engine::tpch::file_name());
    let modified = std::fs::metadata(&file)
        .and_then(|m| m.modified())
        .expect("the written file");
    let leftovers: Vec<_> = std::fs::read_dir(state.path())
        .expect("the directory")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files are left behind");
    drop(first);
    let again = Engine::open(&config.querymesh, config.state_dir.as_deref())
        .expect("the engine opens again");
    assert_eq!(
        std::fs::metadata(&file)
            .and_then(|m| m.modified())
            .expect("the file"),
        modified,
        "reused, not rewritten"
    );
    assert_eq!(
        ok(&again, "SELECT count(*) FROM lineitem").rows,
        vec![vec![json!(60175)]]
    );
}

#[test]
fn the_engine_and_its_plans_cross_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Engine>();
    shareable::<zero_sandbox::querymesh::engine::Prepared>();
    let engine = std::sync::Arc::new(engine());
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let engine = engine.clone();
            std::thread::spawn(move || ok(&engine, "SELECT count(*) FROM orders").rows)
        })
        .collect();
    for w in workers {
        assert_eq!(w.join().expect("a worker"), vec![vec![json!(15000)]]);
    }
}

#[test]
fn an_aggregate_inside_a_function_still_aggregates() {
    let engine = engine();
    for sql in [
        "SELECT typeof(avg(1)) FROM tpch.tiny.region",
        "SELECT upper(max(name)) FROM tpch.tiny.nation",
        "SELECT coalesce(max(nationkey), 0) + 1 FROM tpch.tiny.nation",
    ] {
        assert_eq!(ok(&engine, sql).rows.len(), 1, "{sql}");
    }
    assert_eq!(
        single(&engine, "SELECT typeof(avg(1)) FROM tpch.tiny.region").1,
        "double"
    );
}

#[test]
fn row_count_clauses_are_checked_by_clause_not_by_word() {
    let engine = engine();
    // Valid Trino: the words LIMIT/OFFSET/FETCH/ROWS in other roles, and clauses of subqueries.
    for (sql, rows) in [
        (
            "SELECT * FROM (SELECT name FROM nation ORDER BY name LIMIT 5) ORDER BY name DESC",
            5,
        ),
        (
            "SELECT name FROM nation WHERE nationkey IN (SELECT nationkey FROM nation ORDER BY nationkey OFFSET 20 ROWS) OFFSET 2 LIMIT 10",
            3,
        ),
        (
            "SELECT sum(nationkey) OVER (ORDER BY nationkey ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nation ORDER BY 1 FETCH FIRST 3 ROWS ONLY",
            3,
        ),
        (
            "SELECT \"limit\".name FROM nation AS \"limit\" LIMIT ALL",
            25,
        ),
        (
            "SELECT 1 AS \"offset\" UNION ALL SELECT 2 ORDER BY 1 OFFSET 1 ROW",
            1,
        ),
        (
            "SELECT name FROM nation ORDER BY name FETCH NEXT ROW ONLY",
            1,
        ),
        (
            "WITH t AS (SELECT name FROM nation ORDER BY name LIMIT 3) SELECT * FROM t LIMIT 2",
            2,
        ),
    ] {
        assert_eq!(ok(&engine, sql).rows.len(), rows, "{sql}");
    }
    for sql in [
        "SELECT name FROM nation LIMIT 5 OFFSET 2",
        "SELECT * FROM (SELECT name FROM nation LIMIT 5 OFFSET 1)",
        "SELECT name FROM nation LIMIT 2 ORDER BY name",
    ] {
        let e = error(&engine, sql);
        assert!(e.contains("SYNTAX_ERROR"), "{sql}: {e}");
    }
}

#[test]
fn an_empty_select_list_is_placed_at_its_from() {
    let engine = engine();
    for (sql, message) in [
        (
            "SELECT FROM",
            "line 1:8: mismatched input 'FROM'. Expecting: <expression>",
        ),
        (
            "SELECT\n  FROM nation",
            "line 2:3: mismatched input 'FROM'. Expecting: <expression>",
        ),
        (
            "SELECT a, FROM nation",
            "line 1:11: mismatched input 'FROM'. Expecting: <expression>",
        ),
    ] {
        assert_eq!(
            error(&engine, sql),
            format!("SYNTAX_ERROR: {message}"),
            "{sql:?}"
        );
    }
}
