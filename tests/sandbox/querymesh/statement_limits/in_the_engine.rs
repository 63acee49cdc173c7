//! Each deep or wide statement, in the engine on a worker's stack: it runs, or fails with a Trino
//! error.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{Expect, SQLITE_LIMIT, TOO_LARGE, chain, check, cte_chain, nest, on_worker_stack};
use crate::support::engine::engine;

fn cases() -> Vec<(&'static str, String, Expect)> {
    use Expect::*;
    let n = |v: i64| Value(json!(v));
    let t = Value(json!(true));
    let x = "FROM (VALUES 1) t (x)";
    vec![
        // Operator chains: analysed in a loop, whatever their length up to MAX_CHAIN.
        ("950 +", format!("SELECT {}", chain("1", "+", 950)), n(950)),
        (
            "3000 -",
            format!("SELECT 3000 - {}", chain("1", "-", 2999)),
            n(1),
        ),
        ("2000 *", format!("SELECT {}", chain("1", "*", 2000)), n(1)),
        (
            "300 + of a column",
            format!("SELECT {} {x}", chain("x", "+", 300)),
            n(300),
        ),
        // qm_int around every integer addition: past SQLite's own expression depth of 1000,
        // which the build turns off (sqlite_stack.rs: the stack is sized from the depth).
        (
            "900 + of a column",
            format!("SELECT {} {x}", chain("x", "+", 900)),
            n(900),
        ),
        (
            "1000 AND",
            format!("SELECT {}", chain("true", " AND ", 1000)),
            t.clone(),
        ),
        (
            "1000 OR",
            format!("SELECT {}", chain("false", " OR ", 999) + " OR true"),
            t.clone(),
        ),
        (
            "3998 AND, the longest chain",
            format!("SELECT {}", chain("true", " AND ", 3999)),
            t.clone(),
        ),
        (
            "3998 + of a column, the longest chain",
            format!("SELECT {} {x}", chain("x", "+", 3999)),
            n(3999),
        ),
        (
            "1000 AND of a column",
            format!("SELECT {} {x}", chain("x = 1", " AND ", 1000)),
            t.clone(),
        ),
        (
            "3000 mixed AND OR",
            format!("SELECT {}", chain("true AND false", " OR ", 1500)),
            Value(json!(false)),
        ),
        (
            "1000 ||",
            format!("SELECT length({})", chain("'ab'", " || ", 1000)),
            n(2000),
        ),
        (
            // Trino 476: `1 = 1 = 1` is a SYNTAX_ERROR (one predicate per operand).
            "comparisons",
            format!("SELECT {}", chain("1", " = ", 100)),
            Error("SYNTAX_ERROR"),
        ),
        (
            "past MAX_CHAIN",
            format!("SELECT {}", chain("1", "+", 5000)),
            Error(TOO_LARGE),
        ),
        (
            "past MAX_CHAIN in a function",
            format!("SELECT abs({})", chain("1", "+", 5000)),
            Error(TOO_LARGE),
        ),
        (
            "a 1 MB chain",
            format!("SELECT {}", chain("1", "+", 499_000)),
            Error(TOO_LARGE),
        ),
        // Chains sqlparser builds but the analysis recurses into: refused by the stack.
        // Trino 476 refuses the second IS (one predicate per operand) before any depth
        // matters, so this chain no longer reaches the analysis.
        (
            "3990 IS NULL",
            format!("SELECT 1{}", " IS NULL".repeat(3990)),
            Error("SYNTAX_ERROR: line 1:18: mismatched input 'IS'"),
        ),
        (
            "3990 IN",
            format!("SELECT 1{}", " IN (true)".repeat(3990)),
            Error("SYNTAX_ERROR: line 1:20: mismatched input 'IN'"),
        ),
        // Nesting: as deep as Trino 476's parser takes (about 1,469 parentheses or CASTs, 675
        // calls, 383 derived tables), planned on a stack grown for it (limits.rs
        // `with_stack_for`); past MAX_NESTING (1,500) Trino's refusal; between, SQLite's own
        // limits where it cannot run what Trino would.
        (
            "30 parentheses",
            format!("SELECT {}", nest("(", "1", ")", 30)),
            n(1),
        ),
        (
            "1469 parentheses, as many as Trino 476 takes",
            format!("SELECT {}", nest("(", "1", ")", 1469)),
            n(1),
        ),
        (
            "1501 parentheses, past MAX_NESTING",
            format!("SELECT {}", nest("(", "1", ")", 1501)),
            Error(TOO_LARGE),
        ),
        (
            "383 derived tables, as many as Trino 476 takes",
            format!(
                "SELECT * FROM {}",
                nest("(SELECT * FROM ", "(SELECT 1)", ")", 383)
            ),
            n(1),
        ),
        (
            "60 parentheses",
            format!("SELECT {}", nest("(", "1", ")", 60)),
            n(1),
        ),
        (
            "30 unary minus",
            format!("SELECT {}1", "- ".repeat(30)),
            n(1),
        ),
        (
            "31 unary minus",
            format!("SELECT {}1", "- ".repeat(31)),
            n(-1),
        ),
        (
            "500 unary minus",
            format!("SELECT {}1", "- ".repeat(500)),
            n(1),
        ),
        (
            "30 NOT",
            format!("SELECT {}true", "NOT ".repeat(30)),
            t.clone(),
        ),
        (
            "500 NOT",
            format!("SELECT {}true", "NOT ".repeat(500)),
            t.clone(),
        ),
        (
            "30 CASE",
            format!("SELECT {}", nest("CASE WHEN true THEN ", "1", " END", 30)),
            n(1),
        ),
        (
            "500 CASE",
            format!("SELECT {}", nest("CASE WHEN true THEN ", "1", " END", 500)),
            n(1),
        ),
        (
            "30 CASE in ELSE",
            format!(
                "SELECT {}",
                nest("CASE WHEN false THEN 0 ELSE ", "1", " END", 30)
            ),
            n(1),
        ),
        (
            "a CASE of 2000 WHEN",
            format!(
                "SELECT CASE {} ELSE 0 END",
                chain("WHEN false THEN 1", " ", 1999) + " WHEN true THEN 2"
            ),
            n(2),
        ),
        (
            "30 abs",
            format!("SELECT {}", nest("abs(", "-1", ")", 30)),
            n(1),
        ),
        (
            "500 abs",
            format!("SELECT {}", nest("abs(", "-1", ")", 500)),
            n(1),
        ),
        (
            "coalesce of 900",
            format!("SELECT coalesce({}, 7)", chain("NULL", ", ", 899)),
            n(7),
        ),
        (
            "coalesce of 5000",
            format!("SELECT coalesce({}, 7)", chain("NULL", ", ", 4999)),
            Error(SQLITE_LIMIT),
        ),
        (
            "IN of 20000",
            format!(
                "SELECT 19999 IN ({})",
                (0..20_000)
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            t.clone(),
        ),
        (
            "30 CAST",
            format!("SELECT {}", nest("CAST(", "1", " AS bigint)", 30)),
            n(1),
        ),
        (
            "500 CAST",
            format!("SELECT {}", nest("CAST(", "1", " AS bigint)", 500)),
            n(1),
        ),
        (
            "12 scalar subqueries",
            format!("SELECT {}", nest("(SELECT ", "1", ")", 12)),
            n(1),
        ),
        (
            "100 scalar subqueries",
            format!("SELECT {}", nest("(SELECT ", "1", ")", 100)),
            n(1),
        ),
        // Trino 476 takes about 304 (limits.rs); each costs SQLite three levels.
        (
            "300 scalar subqueries of several rows",
            format!(
                "SELECT {}",
                nest("(SELECT ", "count(*) FROM (VALUES 1, 2) t (x)", ")", 300)
            ),
            n(2),
        ),
        (
            "10 IN subqueries",
            format!(
                "SELECT 1 IN {}",
                nest("(SELECT 1 WHERE 1 IN ", "(SELECT 1)", ")", 10)
            ),
            t.clone(),
        ),
        (
            "100 IN subqueries",
            format!(
                "SELECT 1 IN {}",
                nest("(SELECT 1 WHERE 1 IN ", "(SELECT 1)", ")", 100)
            ),
            t.clone(),
        ),
        (
            "10 EXISTS",
            format!(
                "SELECT {}",
                nest("EXISTS (SELECT 1 WHERE ", "true", ")", 10)
            ),
            t.clone(),
        ),
        (
            "100 EXISTS",
            format!(
                "SELECT {}",
                nest("EXISTS (SELECT 1 WHERE ", "true", ")", 100)
            ),
            t.clone(),
        ),
        (
            "171 EXISTS, Trino's deepest",
            format!(
                "SELECT {}",
                nest("EXISTS (SELECT 1 WHERE ", "true", ")", 171)
            ),
            t.clone(),
        ),
        (
            "10 derived tables",
            format!(
                "SELECT * FROM {}",
                nest("(SELECT * FROM ", "(SELECT 1)", ")", 10)
            ),
            n(1),
        ),
        (
            "100 derived tables",
            format!(
                "SELECT * FROM {}",
                nest("(SELECT * FROM ", "(SELECT 1)", ")", 100)
            ),
            n(1),
        ),
        // Set operations: a loop, compounds of at most 100 terms (SQLite takes 500).
        (
            "500 UNION ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ALL ", 501)
            ),
            n(501),
        ),
        (
            "2500 UNION ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ALL ", 2500)
            ),
            n(2500),
        ),
        (
            "2500 UNION ALL of a table",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT regionkey FROM region", " UNION ALL ", 2500)
            ),
            n(12_500),
        ),
        (
            "1000 UNION",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " UNION ", 1000)
            ),
            n(1),
        ),
        (
            "1000 INTERSECT",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " INTERSECT ", 1000)
            ),
            n(1),
        ),
        (
            "1000 EXCEPT",
            format!(
                "SELECT count(*) FROM (SELECT 0 {})",
                " EXCEPT SELECT 1".repeat(999)
            ),
            n(1),
        ),
        (
            "200 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 100)
            ),
            n(1),
        ),
        (
            "400 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 200)
            ),
            n(1),
        ),
        // Each change of operation nests a subquery, compiled on a stack sized for it.
        (
            "600 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 300)
            ),
            n(1),
        ),
        (
            "runs of 99 UNION ALL and an EXCEPT",
            format!(
                "SELECT count(*) FROM ({})",
                chain(&chain("SELECT 1", " UNION ALL ", 99), " EXCEPT ", 39)
            ),
            n(98),
        ),
        (
            "1000 mixed set operations",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1 UNION SELECT 2", " EXCEPT ", 500)
            ),
            n(1),
        ),
        (
            "100 INTERSECT ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " INTERSECT ALL ", 100)
            ),
            n(1),
        ),
        (
            "1000 INTERSECT ALL",
            format!(
                "SELECT count(*) FROM ({})",
                chain("SELECT 1", " INTERSECT ALL ", 1000)
            ),
            // SQLite's compilation of 1,000 nested counting subqueries outgrows the query's
            // memory budget before it ends: a Trino error, and the process stays well.
            Error("EXCEEDED_LOCAL_MEMORY_LIMIT: Query exceeded per-node memory limit"),
        ),
        (
            "5000 UNION ALL",
            chain("SELECT 1", " UNION ALL ", 5000),
            Error(TOO_LARGE),
        ),
        (
            "10 nested set operations",
            format!(
                "SELECT count(*) FROM {}",
                nest("(SELECT 1 UNION ALL ", "SELECT 1", ")", 10)
            ),
            n(11),
        ),
        (
            "100 nested set operations",
            format!(
                "SELECT count(*) FROM {}",
                nest("(SELECT 1 UNION ALL ", "SELECT 1", ")", 100)
            ),
            n(101),
        ),
        // Joins and CTEs are lists to sqlparser; SQLite takes at most 64 tables in a join.
        (
            "60 joins",
            format!(
                "SELECT count(*) FROM (SELECT 1 x) t0{}",
                (1..60)
                    .map(|i| format!(" JOIN (SELECT 1 x) t{i} ON t{i}.x = t0.x"))
                    .collect::<String>()
            ),
            n(1),
        ),
        (
            "100 joins",
            format!(
                "SELECT count(*) FROM (SELECT 1 x) t0{}",
                (1..100)
                    .map(|i| format!(" JOIN (SELECT 1 x) t{i} ON t{i}.x = t0.x"))
                    .collect::<String>()
            ),
            Error(SQLITE_LIMIT),
        ),
        (
            "100 comma joins",
            format!(
                "SELECT count(*) FROM {}",
                (0..100)
                    .map(|i| format!("(SELECT 1) t{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Error(SQLITE_LIMIT),
        ),
        // Arrays and rows are JSON text to SQLite, nested as deep as their type (the build takes
        // SQLite's JSON depth to 2,000: 1,001 levels were an internal error).
        (
            "cardinality of 1499 nested arrays",
            format!("SELECT cardinality({})", nest("ARRAY[", "1", "]", 1499)),
            n(1),
        ),
        (
            "1499 nested rows",
            format!("SELECT {} IS NULL", nest("ROW(", "1", ")", 1499)),
            Value(json!(false)),
        ),
        // An answer nested deeper than serde_json reads (128) was null: refused.
        (
            "127 nested arrays answered",
            format!("SELECT {}[1]", nest("ARRAY[", "1", "]", 127)),
            Value((1..126).fold(json!([1]), |inner, _| json!([inner]))),
        ),
        (
            "128 nested arrays answered",
            format!("SELECT {}", nest("ARRAY[", "1", "]", 128)),
            Error(
                "NOT_SUPPORTED: The QueryMesh stand-in answers arrays, maps and rows nested at \
                 most 127 deep: column _col0 nests 128",
            ),
        ),
        ("100 chained CTEs", cte_chain(100), n(1)),
        ("1000 chained CTEs", cte_chain(1000), n(1)),
        // Each CTE's body is compiled inside its reader's, with no parentheses between: SQLite
        // recurses 6,000 deep (sqlite_stack.rs counts the SELECTs for it).
        ("6000 chained CTEs", cte_chain(6000), n(1)),
        (
            "2000 CTEs",
            format!(
                "WITH {} SELECT 1",
                (0..2000)
                    .map(|i| format!("c{i} AS (SELECT 1)"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            n(1),
        ),
        (
            "3000 columns",
            format!("SELECT {}", chain("1", ", ", 3000)),
            Error(SQLITE_LIMIT),
        ),
    ]
}

#[test]
fn deep_and_wide_statements_run_or_fail_with_a_trino_error() {
    on_worker_stack(|| {
        let engine = engine();
        for (name, sql, expect) in cases() {
            let started = Instant::now();
            check(&engine, name, &sql, &expect);
            // None of them may take long: the bounds also bound the work.
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{name} took {:?}",
                started.elapsed()
            );
        }
        // The engine still answers.
        check(&engine, "after", "SELECT 1", &Expect::Value(json!(1)));
    });
}
