//! `WITH SESSION name = value [, …] query` (docs sql/select.md, "WITH SESSION"): the query runs
//! with the properties set, which are checked as Trino 476 checks them. Every expected answer
//! here is Trino 476's.

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

#[test]
fn the_query_runs_with_the_clauses_properties() {
    check_rows(
        &engine(),
        &[
            (
                "WITH SESSION join_distribution_type = 'BROADCAST', query_max_execution_time = '1h' SELECT count(*) FROM tpch.tiny.region",
                json!([[5]]),
            ),
            (
                "WITH SESSION time_zone_id = 'America/New_York' SELECT current_timezone()",
                json!([["America/New_York"]]),
            ),
            (
                "WITH SESSION max_recursion_depth = 5 WITH x AS (SELECT 2) SELECT * FROM x",
                json!([[2]]),
            ),
            // A WITH query named `session` is no clause.
            (
                "WITH session (a) AS (SELECT 1) SELECT * FROM session",
                json!([[1]]),
            ),
        ],
    );
}

#[test]
fn the_clauses_properties_are_checked_as_trinos() {
    check_errors(
        &engine(),
        &[
            (
                "WITH SESSION nosuch = 1 SELECT 1",
                "INVALID_SESSION_PROPERTY: line 1:23: Session property 'nosuch' does not exist",
            ),
            (
                "WITH SESSION query_max_execution_time = '1h', query_max_execution_time = '2h' SELECT 1",
                "INVALID_SESSION_PROPERTY: line 1:47: Session property 'query_max_execution_time' already set",
            ),
            (
                "WITH SESSION max_recursion_depth = '5' SELECT 1",
                "INVALID_SESSION_PROPERTY: Unable to set session property 'max_recursion_depth' to ''5'': Cannot cast type varchar(1) to integer",
            ),
            (
                "WITH SESSION query_max_execution_time = 2 SELECT 1",
                "INVALID_SESSION_PROPERTY: Unable to set session property 'query_max_execution_time' to '2': Cannot cast type integer to varchar",
            ),
            (
                "WITH SESSION max_recursion_depth = 2.5 SELECT 1",
                "INVALID_SESSION_PROPERTY: Unable to set session property 'max_recursion_depth' to 'DECIMAL '2.5'': Cannot cast type decimal(2,1) to integer",
            ),
            (
                "WITH SESSION query_max_run_time = 'x' SELECT 1",
                "INVALID_SESSION_PROPERTY: line 1:35: duration is not a valid data duration string: x",
            ),
            (
                "WITH SESSION max_recursion_depth = 0 SELECT 1",
                "INVALID_SESSION_PROPERTY: line 1:36: max_recursion_depth must be equal or greater than 1",
            ),
            (
                "WITH SESSION time_zone_id = 'Nowhere/Land' SELECT 1",
                "INVALID_SESSION_PROPERTY: line 1:29: Time zone not supported: Nowhere/Land",
            ),
            // Syntax first: a query's word is no property's name.
            (
                "WITH SESSION a = 1, SELECT 1",
                "SYNTAX_ERROR: line 1:21: mismatched input 'SELECT'. Expecting: <identifier>",
            ),
            (
                "WITH SESSION max_recursion_depth = 5",
                "SYNTAX_ERROR: line 1:37: mismatched input '<EOF>'. Expecting: ',', 'WITH', <query>",
            ),
        ],
    );
}
