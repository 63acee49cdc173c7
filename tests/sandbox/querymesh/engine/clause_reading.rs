//! How clauses are read: an aggregate inside a function, row-count clauses by clause rather than
//! by word, an empty select list placed at its FROM.

use crate::support::engine::{engine, error, ok, single};

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
