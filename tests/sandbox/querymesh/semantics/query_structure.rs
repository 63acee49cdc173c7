//! Query structure: subqueries, CTEs, set operations, grouping, ordering, row counts, windows.

use serde_json::{Value, json};

use super::{check_errors, check_rows};
use crate::support::engine::{engine, run};

#[test]
fn subqueries_ctes_and_set_operations() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // Correlated EXISTS / NOT EXISTS and a correlated scalar subquery
            // (AbstractTestQueries.testCorrelatedExistsSubqueries-style).
            (
                "SELECT name FROM region r WHERE NOT EXISTS (SELECT 1 FROM nation n WHERE n.regionkey = r.regionkey AND n.nationkey < 5) ORDER BY name",
                json!([["ASIA"], ["EUROPE"]]),
            ),
            (
                "SELECT regionkey, (SELECT count(*) FROM nation n WHERE n.regionkey = r.regionkey) FROM region r ORDER BY regionkey LIMIT 2",
                json!([[0, 5], [1, 5]]),
            ),
            (
                "SELECT count(*) FROM nation n WHERE nationkey = (SELECT max(nationkey) FROM nation m WHERE m.regionkey = n.regionkey)",
                json!([[5]]),
            ),
            // CTEs, one reading another (docs sql/select "WITH clause").
            (
                "WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y FROM b",
                json!([[2]]),
            ),
            (
                "WITH t (k) AS (SELECT regionkey FROM region) SELECT count(*) FROM t a JOIN t b ON a.k = b.k",
                json!([[5]]),
            ),
            // docs sql/select "UNION | INTERSECT | EXCEPT clause": DISTINCT is the default,
            // ALL keeps duplicates (INTERSECT ALL and EXCEPT ALL count them).
            ("SELECT 1 UNION ALL SELECT 1", json!([[1], [1]])),
            ("SELECT 1 UNION SELECT 1", json!([[1]])),
            ("SELECT 1 UNION DISTINCT SELECT 1", json!([[1]])),
            (
                "SELECT x FROM (VALUES (1), (1), (1), (2)) t (x) INTERSECT ALL SELECT x FROM (VALUES (1), (1), (3)) u (x) ORDER BY 1",
                json!([[1], [1]]),
            ),
            (
                "SELECT x FROM (VALUES (1), (1), (1), (2)) t (x) EXCEPT ALL SELECT x FROM (VALUES (1), (3)) u (x) ORDER BY 1",
                json!([[1], [1], [2]]),
            ),
            (
                "SELECT x FROM (VALUES (1), (1), (2)) t (x) INTERSECT DISTINCT SELECT 1",
                json!([[1]]),
            ),
            (
                "SELECT x FROM (VALUES (1), (1), (2), (NULL)) t (x) EXCEPT SELECT 2 ORDER BY 1",
                json!([[1], [null]]),
            ),
            // SqlBase.g4: `VALUES expression, …` rows need no parentheses when they have one
            // column.
            ("VALUES 3, 1, 2 ORDER BY 1", json!([[1], [2], [3]])),
            ("SELECT sum(x) FROM (VALUES 1, 2, 3) t (x)", json!([[6]])),
            (
                "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t (k, v) WHERE k = 2",
                json!([[2, "b"]]),
            ),
            (
                "SELECT x FROM (VALUES 1 + 1, abs(-3)) t (x) ORDER BY x",
                json!([[2], [3]]),
            ),
            // INTERSECT binds tighter than UNION.
            (
                "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 ORDER BY 1",
                json!([[1]]),
            ),
        ],
    );
    // The set operation's column names come from its first query, types from both.
    let a = run(&engine, "SELECT 1 AS a UNION SELECT 2.5 AS b ORDER BY 1").expect("union");
    assert_eq!(
        (a.names, a.types, json!(a.rows)),
        (
            vec!["a".to_string()],
            vec!["decimal(11, 1)".to_string()],
            json!([["1.0"], ["2.5"]])
        )
    );
    check_errors(
        &engine,
        &[
            ("SELECT 1 UNION SELECT 'a'", "TYPE_MISMATCH"),
            ("SELECT 1, 2 EXCEPT SELECT 1", "TYPE_MISMATCH"),
        ],
    );
}

#[test]
fn grouping_ordering_and_row_counts() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT regionkey, count(*) c FROM nation GROUP BY regionkey HAVING count(*) = 5 ORDER BY regionkey DESC LIMIT 2",
                json!([[4, 5], [3, 5]]),
            ),
            (
                "SELECT count(*) FROM nation HAVING count(*) > 100",
                json!([]),
            ),
            (
                "SELECT nationkey % 2, count(*) FROM nation GROUP BY nationkey % 2 ORDER BY 1",
                json!([[0, 13], [1, 12]]),
            ),
            // docs sql/select "ORDER BY clause": NULLS LAST is the default in both
            // directions.
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x",
                json!([[1], [2], [null]]),
            ),
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x DESC",
                json!([[2], [1], [null]]),
            ),
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x DESC NULLS FIRST",
                json!([[null], [2], [1]]),
            ),
            (
                "SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x ASC NULLS FIRST",
                json!([[null], [1], [2]]),
            ),
            // docs sql/select "OFFSET", "LIMIT or FETCH FIRST clauses".
            (
                "SELECT regionkey FROM region ORDER BY regionkey OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY",
                json!([[2], [3]]),
            ),
            (
                "SELECT regionkey FROM region ORDER BY regionkey OFFSET 4 LIMIT 10",
                json!([[4]]),
            ),
            (
                "SELECT regionkey FROM region ORDER BY regionkey FETCH FIRST ROW ONLY",
                json!([[0]]),
            ),
            (
                "SELECT count(*) FROM (SELECT regionkey FROM region LIMIT ALL)",
                json!([[5]]),
            ),
            // FETCH FIRST … WITH TIES keeps the rows tied with the last one.
            (
                "SELECT regionkey FROM nation ORDER BY regionkey FETCH FIRST 2 ROWS WITH TIES",
                json!([[0], [0], [0], [0], [0]]),
            ),
            (
                "SELECT regionkey FROM nation ORDER BY regionkey OFFSET 3 ROWS FETCH NEXT 3 ROWS WITH TIES",
                json!([[0], [0], [1], [1], [1], [1], [1]]),
            ),
            (
                "SELECT name AS n FROM region ORDER BY n DESC FETCH FIRST 2 ROWS WITH TIES",
                json!([["MIDDLE EAST"], ["EUROPE"]]),
            ),
            (
                "SELECT count(*) FROM (SELECT regionkey, count(*) c FROM nation GROUP BY regionkey ORDER BY c FETCH FIRST 1 ROW WITH TIES)",
                json!([[5]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // StatementAnalyzer: "FETCH FIRST WITH TIES clause requires ORDER BY".
            (
                "SELECT regionkey FROM nation FETCH FIRST 2 ROWS WITH TIES",
                "MISSING_ORDER_BY",
            ),
            ("SELECT 1 LIMIT 1.5", "SYNTAX_ERROR"),
        ],
    );
}

#[test]
fn window_functions() {
    let engine = engine();
    let t = "(VALUES (1, 10), (2, 20), (3, 20), (4, 40), (5, 50)) t (k, v)";
    let column = |expr: &str| format!("SELECT {expr} FROM {t} ORDER BY k");
    let cases: Vec<(String, &str, Value)> = vec![
        // docs functions/window: ranking functions are bigint, distributions double.
        (
            column("row_number() OVER (ORDER BY v DESC, k)"),
            "bigint",
            json!([5, 3, 4, 2, 1]),
        ),
        (
            column("rank() OVER (ORDER BY v)"),
            "bigint",
            json!([1, 2, 2, 4, 5]),
        ),
        (
            column("dense_rank() OVER (ORDER BY v)"),
            "bigint",
            json!([1, 2, 2, 3, 4]),
        ),
        (
            column("ntile(2) OVER (ORDER BY k)"),
            "bigint",
            json!([1, 1, 1, 2, 2]),
        ),
        (
            column("percent_rank() OVER (ORDER BY v)"),
            "double",
            json!([0.0, 0.25, 0.25, 0.75, 1.0]),
        ),
        (
            column("cume_dist() OVER (ORDER BY v)"),
            "double",
            json!([0.2, 0.6, 0.6, 0.8, 1.0]),
        ),
        // lag/lead(x, offset, default): the value's type.
        (
            column("lag(v, 2, 0) OVER (ORDER BY k)"),
            "integer",
            json!([0, 0, 10, 20, 20]),
        ),
        (
            column("lead(v) OVER (ORDER BY k)"),
            "integer",
            json!([20, 20, 40, 50, null]),
        ),
        (
            column("lead(v, 1, -1) OVER (ORDER BY k)"),
            "integer",
            json!([20, 20, 40, 50, -1]),
        ),
        // The default frame is RANGE UNBOUNDED PRECEDING to CURRENT ROW, peers included.
        (
            column("first_value(v) OVER (ORDER BY k DESC)"),
            "integer",
            json!([50, 50, 50, 50, 50]),
        ),
        (
            column("last_value(k) OVER (ORDER BY v)"),
            "integer",
            json!([1, 3, 3, 4, 5]),
        ),
        (
            column("sum(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"),
            "bigint",
            json!([10, 30, 40, 60, 90]),
        ),
        (
            column("avg(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)"),
            "double",
            json!([
                15.0,
                16.666666666666668,
                26.666666666666668,
                36.666666666666664,
                45.0
            ]),
        ),
        (
            column("sum(v) OVER ()"),
            "bigint",
            json!([140, 140, 140, 140, 140]),
        ),
        (
            column("count(*) OVER (PARTITION BY v)"),
            "bigint",
            json!([1, 2, 2, 1, 1]),
        ),
    ];
    let mut wrong = Vec::new();
    for (sql, ty, expected) in &cases {
        match run(&engine, sql) {
            Ok(a) => {
                let values: Vec<Value> = a.rows.iter().map(|r| r[0].clone()).collect();
                if a.types[0] != *ty || json!(values) != *expected {
                    wrong.push(format!(
                        "{sql}\n    expected {ty} {expected}\n    got      {} {}",
                        a.types[0],
                        json!(values)
                    ));
                }
            }
            Err(e) => wrong.push(format!("{sql}\n    failed {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    check_errors(
        &engine,
        &[
            // lag(x, offset, default): the default must have x's type.
            (
                &column("lag(v, 1, 'x') OVER (ORDER BY k)"),
                "FUNCTION_NOT_FOUND",
            ),
            (
                &column("ntile('a') OVER (ORDER BY k)"),
                "FUNCTION_NOT_FOUND",
            ),
            ("SELECT row_number() FROM nation", "MISSING_OVER"),
            // LagFunction and NTileFunction check their counts while running.
            (
                &column("lag(v, -1) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Offset must be at least 0",
            ),
            (
                &column("lead(v, k - 2) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Offset must be at least 0",
            ),
            (
                &column("ntile(0) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Buckets must be greater than 0",
            ),
            (
                &column("ntile(k - 1) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Buckets must be greater than 0",
            ),
            // NthValueFunction: "Offset must be at least 1".
            (
                &column("nth_value(v, 0) OVER (ORDER BY k)"),
                "INVALID_FUNCTION_ARGUMENT: Offset must be at least 1",
            ),
        ],
    );
}

/// A column Trino leaves unnamed (an expression without alias, VALUES, UNNEST) answers to no
/// name, its `_colN` included, and clients see it as `_col` + its position in the statement's
/// output, not in the block that made it (StatementAnalyzer: the Field has no name; the
/// output descriptor names it `_col` + index; Trino 476 answers, asked directly).
#[test]
fn unnamed_columns_answer_to_no_name_and_are_numbered_in_the_output() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT _col0 FROM (VALUES 1)",
                "COLUMN_NOT_FOUND: line 1:8: Column '_col0' cannot be resolved",
            ),
            (
                "SELECT _col1 FROM (SELECT 1, 2)",
                "COLUMN_NOT_FOUND: line 1:8: Column '_col1' cannot be resolved",
            ),
            (
                "SELECT 1 ORDER BY _col0",
                "COLUMN_NOT_FOUND: line 1:19: Column '_col0' cannot be resolved",
            ),
        ],
    );
    let names = |sql: &str| run(&engine, sql).map(|a| a.names);
    for (sql, expected) in [
        (
            "SELECT * FROM (SELECT 1), (SELECT 2)",
            vec!["_col0", "_col1"],
        ),
        (
            "WITH w AS (SELECT 1) SELECT * FROM w, w v",
            vec!["_col0", "_col1"],
        ),
        (
            "SELECT * FROM (VALUES 1) CROSS JOIN UNNEST(ARRAY[1]) WITH ORDINALITY",
            vec!["_col0", "_col1", "_col2"],
        ),
        // A name written as an alias is a name, `_col0` included.
        (
            "SELECT current_user, _col0 FROM (SELECT 1 AS _col0)",
            vec!["_col0", "_col0"],
        ),
        (
            "SELECT a.*, 5 FROM (SELECT 1, 2) a",
            vec!["_col0", "_col1", "_col2"],
        ),
    ] {
        assert_eq!(
            names(sql),
            Ok(expected.iter().map(|s| s.to_string()).collect()),
            "{sql}"
        );
    }
}

/// `row.* [AS (a, …)]` (docs sql/select.md "SELECT clause"; StatementAnalyzer
/// .analyzeSelectAllColumns): a row's fields as columns, named by the row's type or the list
/// (unquoted names upper-cased, as Trino 476 reports them); a name is a relation first.
#[test]
fn a_rows_fields_as_columns() {
    let engine = engine();
    let columns = |sql: &str| match run(&engine, sql) {
        Ok(a) => (a.names.clone(), json!(a.rows)),
        Err(e) => panic!("{sql} failed: {e}"),
    };
    assert_eq!(
        columns("SELECT (CAST(ROW(1, 2) AS ROW(a integer, b integer))).*, 3"),
        (
            vec!["a".to_string(), "b".to_string(), "_col2".to_string()],
            json!([[1, 2, 3]])
        )
    );
    assert_eq!(
        columns("SELECT (ROW(1, 'x')).* AS (x, \"y\")"),
        (vec!["X".to_string(), "y".to_string()], json!([[1, "x"]]))
    );
    assert_eq!(
        columns("SELECT t.r.* FROM (SELECT ROW(1, 2) r) t").1,
        json!([[1, 2]])
    );
    assert_eq!(
        columns("SELECT (ROW(regionkey, count(*))).* FROM nation GROUP BY regionkey ORDER BY 1").1,
        json!([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]])
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT (1).*",
                "TYPE_MISMATCH: line 1:1: expected expression of type Row",
            ),
            (
                "SELECT (ROW(1, 'a')).* AS (x)",
                "MISMATCHED_COLUMN_ALIASES: line 1:28: Column alias list has 1 entries but relation has 2 columns",
            ),
            (
                "SELECT (r).* FROM (SELECT ROW(1, 2) r) t",
                "TABLE_NOT_FOUND: line 1:8: Unable to resolve reference r",
            ),
            (
                "SELECT region.* x FROM region",
                "SYNTAX_ERROR: line 1:17: mismatched input 'x'",
            ),
        ],
    );
}

/// `UNION | INTERSECT | EXCEPT [ALL | DISTINCT] CORRESPONDING` (docs sql/select.md): the
/// columns both sides name, in the left side's order, matched by name whatever their
/// positions; Trino 476's refusals of no shared column, a column named twice and `BY (…)`.
#[test]
fn set_operations_match_corresponding_columns_by_name() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT * FROM (VALUES (1, 'alice', 5)) AS t(id, name, x) UNION ALL CORRESPONDING \
                 SELECT * FROM (VALUES ('bob', 2)) AS t(name, id) ORDER BY 1",
                json!([[1, "alice"], [2, "bob"]]),
            ),
            (
                "SELECT 1 a, 2 b INTERSECT CORRESPONDING SELECT 2 b, 1 a",
                json!([[1, 2]]),
            ),
            (
                "SELECT 1 a, 2 b EXCEPT CORRESPONDING SELECT 2 b, 1 a",
                json!([]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT 1 a UNION CORRESPONDING SELECT 2 b",
                "MISMATCHED_COLUMN_ALIASES: line 1:12: No corresponding columns",
            ),
            (
                "SELECT 1 a, 2 a UNION CORRESPONDING SELECT 2 a",
                "AMBIGUOUS_NAME: line 1:17: Duplicate columns found when using CORRESPONDING in set operations: a",
            ),
            (
                "SELECT 1 a UNION CORRESPONDING BY (a) SELECT 2 a",
                "NOT_SUPPORTED: line 1:12: CORRESPONDING with columns is unsupported",
            ),
        ],
    );
}

/// `GROUP BY AUTO` (docs sql/select.md, Trino 476): the select list's items that are not an
/// aggregate call, beside any other grouping element; an item holding an aggregate inside an
/// expression is a key too, and refused as one. Trino 476's answers.
#[test]
fn group_by_auto_groups_by_the_items_that_are_not_aggregates() {
    check_rows(
        &engine(),
        &[
            (
                "SELECT regionkey, count(*), max(name) FROM tpch.tiny.nation GROUP BY AUTO ORDER BY 1",
                json!([
                    [0, 5, "MOZAMBIQUE"],
                    [1, 5, "UNITED STATES"],
                    [2, 5, "VIETNAM"],
                    [3, 5, "UNITED KINGDOM"],
                    [4, 5, "SAUDI ARABIA"]
                ]),
            ),
            (
                "SELECT count(*) FROM tpch.tiny.nation GROUP BY AUTO",
                json!([[25]]),
            ),
            (
                "SELECT 1, count(*) FROM tpch.tiny.nation GROUP BY AUTO",
                json!([[1, 25]]),
            ),
            (
                "SELECT regionkey AS r, upper(name) FROM tpch.tiny.nation GROUP BY AUTO ORDER BY 1, 2 LIMIT 2",
                json!([[0, "ALGERIA"], [0, "ETHIOPIA"]]),
            ),
            (
                "SELECT regionkey FROM tpch.tiny.nation GROUP BY AUTO, regionkey ORDER BY 1 LIMIT 2",
                json!([[0], [1]]),
            ),
            (
                "SELECT regionkey, sum(nationkey) FILTER (WHERE nationkey > 3) FROM tpch.tiny.nation GROUP BY AUTO HAVING count(*) > 1 ORDER BY 1 LIMIT 1",
                json!([[0, 50]]),
            ),
            (
                "SELECT \"auto\" FROM (VALUES 1) t(\"auto\") GROUP BY \"auto\"",
                json!([[1]]),
            ),
        ],
    );
    check_errors(
        &engine(),
        &[(
            "SELECT regionkey, count(*) + regionkey FROM tpch.tiny.nation GROUP BY AUTO",
            "EXPRESSION_NOT_SCALAR: ",
        )],
    );
}

/// A minus right before an integer literal is part of it (Trino's lexer): bigint's least
/// value can be written, and past it the signed text is the invalid literal, at the sign.
#[test]
fn a_minus_before_an_integer_literal_is_part_of_it() {
    check_rows(
        &engine(),
        &[
            (
                "SELECT -9223372036854775808",
                json!([[-9223372036854775808i64]]),
            ),
            (
                "SELECT -0x8000000000000000",
                json!([[-9223372036854775808i64]]),
            ),
            ("SELECT 1 AS primary", json!([[1]])),
        ],
    );
    check_errors(
        &engine(),
        &[
            (
                "SELECT -0x8000000000000001",
                "SYNTAX_ERROR: line 1:8: Invalid numeric literal: -0x8000000000000001",
            ),
            (
                "SELECT -99999999999999999999",
                "SYNTAX_ERROR: line 1:8: Invalid numeric literal: -99999999999999999999",
            ),
            (
                "SELECT -(9223372036854775808)",
                "SYNTAX_ERROR: line 1:10: Invalid numeric literal: 9223372036854775808",
            ),
        ],
    );
}

/// `TABLE name` (SqlBase.g4 `queryPrimary: TABLE qualifiedName`): `SELECT * FROM name`,
/// wherever a query's primary stands; `TABLE(…)` stays a table function. Trino 476's answers.
#[test]
fn table_is_a_query_of_the_whole_table() {
    check_rows(
        &engine(),
        &[
            (
                "TABLE tpch.tiny.region ORDER BY 1 LIMIT 1",
                json!([[
                    0,
                    "AFRICA",
                    "lar deposits. blithely final packages cajole. regular waters are final requests. regular accounts are according to "
                ]]),
            ),
            (
                "SELECT count(*) FROM (TABLE tpch.tiny.nation) t",
                json!([[25]]),
            ),
            (
                "SELECT count(*) FROM (TABLE tpch.tiny.region UNION ALL TABLE tpch.tiny.region)",
                json!([[10]]),
            ),
            ("WITH x AS (SELECT 1 a) TABLE x", json!([[1]])),
            ("SELECT * FROM TABLE(sequence(1, 2))", json!([[1], [2]])),
        ],
    );
    check_errors(
        &engine(),
        &[(
            "TABLE nosuch",
            "TABLE_NOT_FOUND: line 1:1: Table 'tpch.tiny.nosuch' does not exist",
        )],
    );
}

/// Integer overflow names the operands, as Trino's Math.addExact and friends' messages do.
#[test]
fn integer_overflow_names_its_operands() {
    check_errors(
        &engine(),
        &[
            // Every negation fits an unknown: Trino will not choose one.
            (
                "SELECT -NULL",
                "AMBIGUOUS_FUNCTION_CALL: Could not choose a best candidate operator.",
            ),
            (
                "SELECT x + 1 FROM (VALUES BIGINT '9223372036854775807') t(x)",
                "NUMERIC_VALUE_OUT_OF_RANGE: bigint addition overflow: 9223372036854775807 + 1",
            ),
            (
                "SELECT x * 2 FROM (VALUES 2147483647) t(x)",
                "NUMERIC_VALUE_OUT_OF_RANGE: integer multiplication overflow: 2147483647 * 2",
            ),
            (
                "SELECT x - y FROM (VALUES (TINYINT '-128', TINYINT '1')) t(x, y)",
                "NUMERIC_VALUE_OUT_OF_RANGE: tinyint subtraction overflow: -128 - 1",
            ),
            (
                "SELECT -x FROM (VALUES BIGINT '-9223372036854775808') t(x)",
                "NUMERIC_VALUE_OUT_OF_RANGE: bigint negation overflow: -9223372036854775808",
            ),
        ],
    );
    check_rows(
        &engine(),
        &[(
            "SELECT try(x + 1), -y FROM (VALUES (2147483647, CAST(NULL AS integer))) t(x, y)",
            json!([[null, null]]),
        )],
    );
}
