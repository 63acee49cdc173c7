//! UNNEST and LATERAL in FROM. Sources: trinodb/trino docs sql/select ("UNNEST", "LATERAL"),
//! TestUnnest, and Trino's StatementAnalyzer ("Cannot unnest type"); access control: Trino's
//! file-based access control checks the columns a query reads, wherever it reads them.

use serde_json::json;
use zero_sandbox::querymesh::engine::access::{AccessControl, User};

use super::{check_errors, check_rows};
use crate::support::engine::{engine, ok, tiny};

#[test]
fn unnest_arrays_maps_and_rows() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // docs sql/select "UNNEST": arrays into one column.
            (
                "SELECT * FROM UNNEST(ARRAY[1,2]) AS t(number)",
                json!([[1], [2]]),
            ),
            // Maps into two columns (key, value).
            (
                "SELECT * FROM UNNEST(map_from_entries(ARRAY[('SQL', 1974), ('Java', 1995)])) AS t(language, first_appeared_year)",
                json!([["SQL", 1974], ["Java", 1995]]),
            ),
            // An array of rows into one column per field, beside another array.
            (
                "SELECT * FROM UNNEST(ARRAY[ROW('Java', 1995), ROW('SQL' , 1974)], ARRAY[ROW(false), ROW(true)]) as t(language, first_appeared_year, declarative)",
                json!([["Java", 1995, false], ["SQL", 1974, true]]),
            ),
            // WITH ORDINALITY, the shorter array padded with NULLs.
            (
                "SELECT a, b, rownumber FROM UNNEST (ARRAY[2, 5], ARRAY[7, 8, 9]) WITH ORDINALITY AS t(a, b, rownumber)",
                json!([[2, 7, 1], [5, 8, 2], [null, 9, 3]]),
            ),
            // Empty and NULL arrays give no rows.
            ("SELECT * FROM UNNEST (ARRAY[]) AS t(value)", json!([])),
            (
                "SELECT * FROM UNNEST (CAST(null AS ARRAY(integer))) AS t(number)",
                json!([]),
            ),
            // Nested arrays and NULL elements stay as they are.
            (
                "SELECT x FROM UNNEST(ARRAY[ARRAY[1, 2], NULL, ARRAY[]]) AS t(x)",
                json!([[[1, 2]], [null], [[]]]),
            ),
            (
                "SELECT x, n FROM UNNEST(ARRAY['a', NULL, 'c']) WITH ORDINALITY AS t(x, n) WHERE n > 1",
                json!([[null, 2], ["c", 3]]),
            ),
            (
                "SELECT sum(x) FROM UNNEST(ARRAY[1, 2, 3]) AS t(x)",
                json!([[6]]),
            ),
        ],
    );
    // Columns without aliases take Trino's names: a row's field names, else `_colN`.
    let a = ok(&engine, "SELECT * FROM UNNEST(ARRAY[1, 2])");
    assert_eq!(a.names, ["_col0"]);
    assert_eq!(a.types, ["integer"]);
    let a = ok(
        &engine,
        "SELECT * FROM UNNEST(ARRAY[CAST(ROW(1, 'a') AS row(id integer, tag varchar))]) WITH ORDINALITY",
    );
    assert_eq!(a.names, ["id", "tag", "_col2"]);
    assert_eq!(a.types, ["integer", "varchar", "bigint"]);
    assert_eq!(a.rows, [[json!(1), json!("a"), json!(1)]]);
    let a = ok(
        &engine,
        "SELECT * FROM UNNEST(MAP(ARRAY['k'], ARRAY[1.5E0])) AS m(k, v)",
    );
    assert_eq!(a.names, ["k", "v"]);
    assert_eq!(a.types, ["varchar(1)", "double"]);
    assert_eq!(a.rows, [[json!("k"), json!(1.5)]]);
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM UNNEST(1)",
                // Trino 476's answer (trino-q): no position, INVALID_FUNCTION_ARGUMENT.
                "INVALID_FUNCTION_ARGUMENT: Cannot unnest type: integer",
            ),
            (
                "SELECT * FROM UNNEST(ARRAY[1], ARRAY[2]) AS t(x)",
                "MISMATCHED_COLUMN_ALIASES: line 1:45: Column alias list has 1 entries but 't' has 2 columns available",
            ),
            (
                "SELECT y FROM UNNEST(ARRAY[1]) AS t(x)",
                "COLUMN_NOT_FOUND: line 1:8: Column 'y' cannot be resolved",
            ),
        ],
    );
}

#[test]
fn unnest_beside_the_rows_it_reads() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // docs sql/select "UNNEST": CROSS JOIN reading the left side.
            (
                "SELECT student, score FROM (VALUES ('John', ARRAY[7, 10, 9]), ('Mary', ARRAY[4, 8, 9])) AS tests (student, scores) CROSS JOIN UNNEST(scores) AS t(score)",
                json!([
                    ["John", 7],
                    ["John", 10],
                    ["John", 9],
                    ["Mary", 4],
                    ["Mary", 8],
                    ["Mary", 9]
                ]),
            ),
            // Several arrays per row, padded to the longest.
            (
                "SELECT numbers, animals, n, a FROM (VALUES (ARRAY[2, 5], ARRAY['dog', 'cat', 'bird']), (ARRAY[7, 8, 9], ARRAY['cow', 'pig'])) AS x (numbers, animals) CROSS JOIN UNNEST(numbers, animals) AS t (n, a)",
                json!([
                    [[2, 5], ["dog", "cat", "bird"], 2, "dog"],
                    [[2, 5], ["dog", "cat", "bird"], 5, "cat"],
                    [[2, 5], ["dog", "cat", "bird"], null, "bird"],
                    [[7, 8, 9], ["cow", "pig"], 7, "cow"],
                    [[7, 8, 9], ["cow", "pig"], 8, "pig"],
                    [[7, 8, 9], ["cow", "pig"], 9, null]
                ]),
            ),
            // LEFT JOIN … ON TRUE keeps the rows whose array is empty or NULL.
            (
                "SELECT runner, checkpoint FROM (VALUES ('Joe', ARRAY[10, 20, 30, 42]), ('Roger', ARRAY[10]), ('Dave', ARRAY[]), ('Levi', NULL)) AS marathon (runner, checkpoints) LEFT JOIN UNNEST(checkpoints) AS t(checkpoint) ON TRUE",
                json!([
                    ["Joe", 10],
                    ["Joe", 20],
                    ["Joe", 30],
                    ["Joe", 42],
                    ["Roger", 10],
                    ["Dave", null],
                    ["Levi", null]
                ]),
            ),
            // A comma join reads the items before it too; the table's own columns.
            (
                "SELECT r.name, x FROM region r, UNNEST(ARRAY[r.regionkey, r.regionkey * 10]) AS u(x) WHERE r.regionkey < 2 ORDER BY r.name, x",
                json!([
                    ["AFRICA", 0],
                    ["AFRICA", 0],
                    ["AMERICA", 1],
                    ["AMERICA", 10]
                ]),
            ),
            // In a correlated subquery, and grouped by.
            (
                "SELECT (SELECT sum(x) FROM UNNEST(ARRAY[n.nationkey, 1]) AS u(x)) FROM nation n WHERE n.nationkey = 3",
                json!([[4]]),
            ),
            (
                "SELECT k, count(*) FROM nation CROSS JOIN UNNEST(ARRAY[regionkey]) AS u(k) GROUP BY k ORDER BY k",
                json!([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]]),
            ),
            (
                "SELECT n.name, k, v FROM nation n CROSS JOIN UNNEST(MAP(ARRAY[n.name], ARRAY[n.nationkey])) AS m(k, v) WHERE n.nationkey = 1",
                json!([["ARGENTINA", "ARGENTINA", 1]]),
            ),
        ],
    );
}

#[test]
fn lateral_subqueries_read_the_items_before_them() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // docs sql/select "LATERAL".
            (
                "SELECT name, x, y FROM nation CROSS JOIN LATERAL (SELECT name || ' :-' AS x) CROSS JOIN LATERAL (SELECT x || ')' AS y) WHERE nationkey = 0",
                json!([["ALGERIA", "ALGERIA :-", "ALGERIA :-)"]]),
            ),
            (
                "SELECT r.name, l.n FROM region r, LATERAL (SELECT count(*) AS n FROM nation WHERE nation.regionkey = r.regionkey) AS l ORDER BY r.name LIMIT 2",
                json!([["AFRICA", 5], ["AMERICA", 5]]),
            ),
            (
                "SELECT r.regionkey, l.name FROM region r LEFT JOIN LATERAL (SELECT name FROM nation WHERE nation.regionkey = r.regionkey AND nation.nationkey > 23) AS l ON TRUE ORDER BY r.regionkey",
                json!([
                    [0, null],
                    [1, "UNITED STATES"],
                    [2, null],
                    [3, null],
                    [4, null]
                ]),
            ),
            // The subquery's own ORDER BY and LIMIT hold for each row it is evaluated for.
            (
                "SELECT r.regionkey, l.name FROM region r CROSS JOIN LATERAL (SELECT name FROM nation WHERE nation.regionkey = r.regionkey ORDER BY name DESC LIMIT 2) AS l WHERE r.regionkey < 2 ORDER BY r.regionkey",
                json!([
                    [0, "MOZAMBIQUE"],
                    [0, "MOROCCO"],
                    [1, "UNITED STATES"],
                    [1, "PERU"]
                ]),
            ),
        ],
    );
}

#[test]
fn access_checks_see_through_unnest_and_lambdas() {
    let engine = engine();
    // Trino's file-based access control: a denied column may be read nowhere in the query.
    let rules = AccessControl::parse(
        r#"{"tables": [
            {"table": "nation", "privileges": ["SELECT"],
             "columns": [{"name": "comment", "allow": false}]},
            {"privileges": ["SELECT"]}
        ]}"#,
    )
    .expect("valid rules");
    let ada = User {
        name: "ada".into(),
        groups: Vec::new(),
    };
    let check = |sql: &str| {
        let prepared = engine.prepare(sql, &tiny()).expect("prepares");
        rules
            .check_select(&ada, &prepared.reads)
            .map_err(|e| e.message().to_string())
    };
    let denied = Err("Access Denied: Cannot select from table tpch.tiny.nation".to_string());
    for sql in [
        "SELECT x FROM nation n CROSS JOIN UNNEST(ARRAY[n.comment]) AS u(x)",
        "SELECT n.name FROM nation n, UNNEST(ARRAY[n.comment]) AS u(x)",
        "SELECT l.c FROM nation n CROSS JOIN LATERAL (SELECT n.comment AS c) AS l",
        "SELECT map_filter(MAP(ARRAY[1], ARRAY[n.name]), (k, v) -> v = n.comment) FROM nation n",
        "SELECT transform_values(MAP(ARRAY[n.name], ARRAY[1]), (k, v) -> length(n.comment)) FROM nation n",
        "SELECT map_agg(n.name, n.comment) FROM nation n",
    ] {
        assert_eq!(check(sql), denied, "{sql}");
    }
    for sql in [
        "SELECT x FROM nation n CROSS JOIN UNNEST(ARRAY[n.name]) AS u(x)",
        "SELECT map_filter(MAP(ARRAY[1], ARRAY[n.name]), (k, v) -> v = 'x') FROM nation n",
    ] {
        assert_eq!(check(sql), Ok(()), "{sql}");
    }
}
