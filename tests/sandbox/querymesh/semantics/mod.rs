//! Trino semantics of SQL constructs, one by one, at engine level: each case is the result TYPE,
//! VALUE (in Trino's JSON encoding) or ERROR that Trino gives, with the source of that
//! expectation. Sources are trinodb/trino's own code and tests (named by class), and the trino.io
//! function docs (named by page, e.g. "docs functions/string").

mod aggregate_extensions;
mod aggregates;
mod aggregates_over_windows;
mod analysis_refusals;
mod arrays;
mod binary;
mod bing_tiles;
mod casts;
mod chars;
mod checksum;
mod complex;
mod conditionals;
mod date_formats;
mod dates;
mod decimals;
mod filtered_statistics;
mod formatting;
mod geospatial;
mod grouping_sets;
mod ip_and_color;
mod joins;
mod json;
mod json_table;
mod lambdas;
mod maps;
mod math_functions;
mod nan_and_real;
mod numbers;
mod query_structure;
mod recursive_with;
mod regexp;
mod routines;
mod setdigest;
mod sketches;
mod strings;
mod subqueries;
mod table_functions;
mod time_of_day;
mod time_zones;
mod unnest;
mod urls_and_metrics;
mod values_statistics;
mod windows;
mod with_session;

use serde_json::{Value, json};
use zero_sandbox::querymesh::engine::Engine;

use crate::support::engine::run;

/// Checks each `(sql, type, value)`: a one-row, one-column answer; all mismatches reported.
fn check_values(engine: &Engine, cases: &[(&str, &str, Value)]) {
    let mut wrong = Vec::new();
    for (sql, ty, value) in cases {
        match run(engine, sql) {
            Ok(a) if a.rows.len() == 1 && a.types.len() == 1 => {
                let got = (a.types[0].as_str(), &a.rows[0][0]);
                if got != (*ty, value) {
                    wrong.push(format!(
                        "{sql}\n    expected {ty} {value}\n    got      {} {}",
                        got.0, got.1
                    ));
                }
            }
            Ok(a) => wrong.push(format!("{sql}\n    got {:?} rows {:?}", a.types, a.rows)),
            Err(e) => wrong.push(format!(
                "{sql}\n    expected {ty} {value}\n    failed   {e}"
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Checks each `(sql, rows)` for the whole answer.
fn check_rows(engine: &Engine, cases: &[(&str, Value)]) {
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        match run(engine, sql) {
            Ok(a) if json!(a.rows) == *expected => {}
            Ok(a) => wrong.push(format!(
                "{sql}\n    expected {expected}\n    got      {}",
                json!(a.rows)
            )),
            Err(e) => wrong.push(format!("{sql}\n    failed {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Checks each `(sql, error)`: the query fails and its `"NAME: message"` starts with `error`.
fn check_errors(engine: &Engine, cases: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for (sql, expected) in cases {
        match run(engine, sql) {
            Err(e) if e.starts_with(expected) => {}
            Err(e) => wrong.push(format!("{sql}\n    expected {expected}\n    got      {e}")),
            Ok(a) => wrong.push(format!(
                "{sql}\n    expected {expected}\n    succeeded {:?} {}",
                a.types,
                json!(a.rows)
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
