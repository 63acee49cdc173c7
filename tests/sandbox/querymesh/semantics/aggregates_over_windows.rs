//! Every aggregate as a window function (trinodb/trino docs functions/window: "All Aggregate
//! functions can be used as window functions"), with Trino 476's answers: the Rust aggregates
//! over sliding and running frames, lowerings that wrap their aggregates (stddev, avg over
//! intervals, max over arrays), listagg WITHIN GROUP … OVER, and arbitrary over a window (the
//! frame's first value).

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

const ROWS: &str = "FROM (VALUES (1, 2.5e0, 'a', INTERVAL '1' DAY, ARRAY[1, 2]), \
                    (2, 3.5e0, 'b', INTERVAL '3' DAY, ARRAY[1, 1]), \
                    (3, 7.5e0, 'c', INTERVAL '4' DAY, ARRAY[0, 5])) t(x, d, s, iv, arr)";

fn sliding(call: &str) -> String {
    format!(
        "SELECT {call} OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) {ROWS} ORDER BY x"
    )
}

fn running(call: &str) -> String {
    format!("SELECT {call} OVER (ORDER BY x) {ROWS} ORDER BY x")
}

#[test]
fn rust_aggregates_over_sliding_and_running_frames() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (&running("max_by(s, d)"), json!([["a"], ["b"], ["c"]])),
            (&sliding("min_by(s, d)"), json!([["a"], ["a"], ["b"]])),
            (&sliding("bitwise_xor_agg(x)"), json!([[1], [3], [1]])),
            (&running("bitwise_and_agg(x)"), json!([[1], [0], [0]])),
            (&sliding("covar_pop(d, x)"), json!([[0.0], [0.25], [1.0]])),
            (&running("covar_samp(d, x)"), json!([[null], [0.5], [2.5]])),
            (
                &running("skewness(d)"),
                json!([[null], [null], [0.5951700641394974]]),
            ),
            (&sliding("max(x, 2)"), json!([[[1]], [[2, 1]], [[3, 2]]])),
            (
                &running("min_by(s, d, 2)"),
                json!([[["a"]], [["a", "b"]], [["a", "b"]]]),
            ),
            (
                &sliding("checksum(x)"),
                json!([["k4/DCrUt5dQ="], ["Y4fQ9YZf0TY="], ["F1xVAochFTE="]]),
            ),
            (&running("approx_distinct(s)"), json!([[1], [2], [3]])),
        ],
    );
}

#[test]
fn wrapped_lowerings_and_first_values() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                &sliding("stddev(d)"),
                json!([
                    [null],
                    [std::f64::consts::FRAC_1_SQRT_2],
                    [2.8284271247461903]
                ]),
            ),
            (
                &sliding("avg(iv)"),
                json!([["1 00:00:00.000"], ["2 00:00:00.000"], ["3 12:00:00.000"]]),
            ),
            (&running("max(arr)"), json!([[[1, 2]], [[1, 2]], [[1, 2]]])),
            (&sliding("min(arr)"), json!([[[1, 2]], [[1, 1]], [[0, 5]]])),
            (&running("arbitrary(s)"), json!([["a"], ["a"], ["a"]])),
            (&sliding("any_value(s)"), json!([["a"], ["a"], ["b"]])),
            // The corpus's window_functions statements.
            (
                "SELECT x, stddev_pop(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) \
                 FROM (VALUES 1, 3, 7) t(x) ORDER BY x",
                json!([[1, 0.0], [3, 1.0], [7, 2.0]]),
            ),
        ],
    );
}

/// docs functions/aggregate "listagg": WITHIN GROUP orders each frame's values.
#[test]
fn listagg_within_group_over_a_window() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT x, listagg(y, '+') WITHIN GROUP (ORDER BY y) OVER (PARTITION BY x) \
                 FROM (VALUES (1, 'b'), (1, 'a'), (2, 'c')) t(x, y) ORDER BY x, 2",
                json!([[1, "a+b"], [1, "a+b"], [2, "c"]]),
            ),
            (
                "SELECT x, listagg(x, ',') WITHIN GROUP (ORDER BY x DESC) OVER () \
                 FROM (VALUES 'b', 'a', 'c') t(x) ORDER BY x",
                json!([["a", "c,b,a"], ["b", "c,b,a"], ["c", "c,b,a"]]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT listagg(x, ',') OVER () FROM (VALUES 'a') t(x)",
            "SYNTAX_ERROR",
        )],
    );
}
