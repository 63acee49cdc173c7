//! Property tests: random expressions and statements never panic nor overflow, and what they found.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, TestRng, TestRunner};
use serde_json::json;
use zero_sandbox::querymesh::engine::Engine;

use super::{Expect, check, on_worker_stack};
use crate::support::engine::{engine, run};

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..1000).prop_map(|n| n.to_string()),
        Just("2147483647".to_string()),
        Just("9223372036854775807".to_string()),
        Just("1.5".to_string()),
        Just("1e3".to_string()),
        Just("'ab'".to_string()),
        Just("''".to_string()),
        Just("true".to_string()),
        Just("NULL".to_string()),
        Just("DATE '2024-02-29'".to_string()),
        Just("INTERVAL '1' DAY".to_string()),
        Just("nationkey".to_string()),
        Just("name".to_string()),
        Just("regionkey".to_string()),
    ]
}

/// Random expression trees over the columns of nation, every construct the analysis knows.
fn expression() -> impl Strategy<Value = String> {
    leaf().prop_recursive(6, 64, 4, |inner| {
        const BINARY: &[&str] = &[
            "+",
            "-",
            "*",
            "/",
            "%",
            "||",
            "AND",
            "OR",
            "=",
            "<>",
            "<",
            ">=",
            "IS DISTINCT FROM",
        ];
        const FUNCTIONS: &[&str] = &[
            "abs", "length", "upper", "round", "coalesce", "greatest", "concat", "sign", "nullif",
            "substr",
        ];
        const TYPES: &[&str] = &[
            "bigint",
            "integer",
            "double",
            "varchar",
            "decimal(10,2)",
            "date",
            "boolean",
        ];
        prop_oneof![
            (
                inner.clone(),
                proptest::sample::select(BINARY),
                inner.clone()
            )
                .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
            inner.clone().prop_map(|e| format!("({e})")),
            inner.clone().prop_map(|e| format!("-{e}")),
            inner.clone().prop_map(|e| format!("NOT {e}")),
            inner.clone().prop_map(|e| format!("{e} IS NULL")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("CASE WHEN {a} THEN {b} ELSE {c} END")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("{a} BETWEEN {b} AND {c}")),
            (
                inner.clone(),
                proptest::collection::vec(inner.clone(), 1..4)
            )
                .prop_map(|(a, list)| format!("{a} IN ({})", list.join(", "))),
            (
                proptest::sample::select(FUNCTIONS),
                proptest::collection::vec(inner.clone(), 1..3)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            (inner.clone(), proptest::sample::select(TYPES))
                .prop_map(|(e, t)| format!("TRY_CAST({e} AS {t})")),
            (inner.clone(), proptest::sample::select(TYPES))
                .prop_map(|(e, t)| format!("CAST({e} AS {t})")),
            inner
                .clone()
                .prop_map(|e| format!("(SELECT max({e}) FROM nation)")),
            inner
                .clone()
                .prop_map(|e| format!("EXISTS (SELECT 1 FROM region WHERE {e})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("{a} LIKE {b}")),
        ]
    })
}

/// Random statements: expressions in every clause, set operations, and long chains of the
/// shapes that once overflowed the stack.
fn statement_text() -> impl Strategy<Value = String> {
    let chain_of = (
        proptest::sample::select(
            &[
                "+",
                "AND",
                "OR",
                "||",
                " UNION ALL SELECT ",
                " IS NULL",
                ")",
            ][..],
        ),
        0usize..6000,
    )
        .prop_map(|(op, n)| match op {
            " UNION ALL SELECT " => format!("SELECT 1{}", " UNION ALL SELECT 1".repeat(n)),
            " IS NULL" => format!("SELECT 1{}", " IS NULL".repeat(n)),
            ")" => format!("SELECT {}1{}", "(".repeat(n % 200), ")".repeat(n % 200)),
            op => format!("SELECT {}", vec!["1"; n + 1].join(&format!(" {op} "))),
        });
    prop_oneof![
        4 => (expression(), expression()).prop_map(|(e, w)| format!("SELECT {e} FROM nation WHERE {w}")),
        2 => (expression(), expression()).prop_map(|(e, g)| format!("SELECT {g}, count(*) FROM nation GROUP BY {g} HAVING {e}")),
        2 => (expression(), expression()).prop_map(|(a, b)| format!("SELECT {a} FROM nation UNION SELECT {b} FROM region")),
        1 => expression().prop_map(|e| format!("SELECT {e} FROM nation ORDER BY {e} LIMIT 3")),
        2 => chain_of,
    ]
}

/// Random SQL may fail, but as Trino fails a query: with a user error (a SYNTAX_ERROR, a
/// TYPE_MISMATCH, …), never an internal one, a panic or an overflow.
fn assert_trino_answer(engine: &Engine, sql: &str) -> Result<(), TestCaseError> {
    if let Err(e) = run(engine, sql) {
        let name = e.split(':').next().unwrap_or_default();
        let named = !name.is_empty() && name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
        prop_assert!(named && name != "GENERIC_INTERNAL_ERROR", "{sql}\n→ {e}");
    }
    Ok(())
}

#[test]
fn random_sql_never_panics_nor_overflows() {
    on_worker_stack(|| {
        let engine = engine();
        // Bounded and seeded, for CI: the same cases every run, a few seconds unoptimised.
        let config = ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut runner = TestRunner::new_with_rng(config, rng);
        runner
            .run(&statement_text(), |sql| assert_trino_answer(&engine, &sql))
            .unwrap_or_else(|e| panic!("{e}"));
    });
}

/// Found by the property test: SQLite reads an integer constant as a GROUP BY or ORDER BY
/// position, also one its parser folds (`'ab' IS NULL` is 0); Trino takes only a literal
/// integer for one (docs sql/select "GROUP BY clause", "ORDER BY clause").
#[test]
fn constant_keys_are_values_not_positions() {
    let engine = engine();
    for (sql, want) in [
        (
            "SELECT count(*) FROM nation GROUP BY ('ab' IS NULL)",
            json!(25),
        ),
        (
            "SELECT name FROM region ORDER BY INTERVAL '1' DAY, name LIMIT 1",
            json!("AFRICA"),
        ),
        (
            "SELECT name FROM region ORDER BY 'ab' IS NULL, name DESC LIMIT 1",
            json!("MIDDLE EAST"),
        ),
    ] {
        check(&engine, sql, sql, &Expect::Value(want));
    }
}
