//! The 22 TPC-H queries return Trino's answers.

use serde_json::{Value, json};

use crate::support::engine::{engine, ok, run};

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
