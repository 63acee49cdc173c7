//! Expressions have Trino's types and JSON encoding, across the breadth of Trino SQL.

use serde_json::{Value, json};

use crate::support::engine::{engine, error, ok, single};

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
        // DoubleOperators.castToVarchar: always scientific (Trino 476).
        ("SELECT CAST(1.5E0 AS varchar)", "varchar", json!("1.5E0")),
        (
            // Trino 476 types a concatenation of varchars as plain varchar.
            "SELECT name || '!' FROM region WHERE regionkey = 0",
            "varchar",
            json!("AFRICA!"),
        ),
        // Trino 476: concat(varchar...) -> varchar, whatever the operands' lengths.
        ("SELECT concat('a', 'bc')", "varchar", json!("abc")),
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
        unknown_type.starts_with("TYPE_MISMATCH") && unknown_type.ends_with("Unknown type: text"),
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
