//! The QueryMesh engine's whole pipeline on arbitrary text: parse, analyse, emit SQLite SQL,
//! run it against tpch.tiny — through the library's own entry points (`Engine::prepare`,
//! `Prepared::run`), as the Trino protocol handler drives them.
//!
//! Per input: a 250 ms time budget (SQLite's progress handler, as the server's executor stops
//! a query) and a 16 MiB query memory budget (the engine's own, `query_max_memory_mb`);
//! libFuzzer's `-rss_limit_mb` catches memory the budget does not count.
//!
//! What must hold:
//! - no panic, wherever the text leads;
//! - every error carries a Trino error name ([`TRINO_ERROR_NAMES`]);
//! - no error message shows SQLite: its name, its own phrases (`no such column`, `near "`),
//!   the stand-in's internal names (`qm_`) or the generated SQL — unless the query text
//!   itself holds that phrase (a column named `qm_x` may be named back).

#![no_main]

use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;
use zero_sandbox::Config;
use zero_sandbox::querymesh::engine::{Engine, Prepared, RunError, SessionContext, TrinoError};

const TIME_BUDGET: Duration = Duration::from_millis(250);
const ROWS_READ: usize = 1_000;

/// Trino's `StandardErrorCode` names (trinodb/trino, core/trino-spi) the stand-in may use;
/// written out here, not read from the engine, so a name the engine makes up fails.
const TRINO_ERROR_NAMES: &[&str] = &[
    "DUPLICATE_COLUMN_OR_PATH_NAME",
    "MISSING_PATH_NAME",
    "INVALID_PLAN",
    "GENERIC_USER_ERROR",
    "SYNTAX_ERROR",
    "USER_CANCELED",
    "PERMISSION_DENIED",
    "NOT_FOUND",
    "FUNCTION_NOT_FOUND",
    "OPERATOR_NOT_FOUND",
    "INVALID_FUNCTION_ARGUMENT",
    "DIVISION_BY_ZERO",
    "INVALID_CAST_ARGUMENT",
    "NOT_SUPPORTED",
    "INVALID_WINDOW_FRAME",
    "NUMERIC_VALUE_OUT_OF_RANGE",
    "INVALID_SESSION_PROPERTY",
    "SUBQUERY_MULTIPLE_ROWS",
    "QUERY_REJECTED",
    "QUERY_TEXT_TOO_LARGE",
    "EXCEEDED_FUNCTION_MEMORY_LIMIT",
    "TYPE_NOT_FOUND",
    "CATALOG_NOT_FOUND",
    "SCHEMA_NOT_FOUND",
    "TABLE_NOT_FOUND",
    "COLUMN_NOT_FOUND",
    "DUPLICATE_COLUMN_NAME",
    "DUPLICATE_NAMED_QUERY",
    "MISSING_CATALOG_NAME",
    "MISSING_SCHEMA_NAME",
    "TYPE_MISMATCH",
    "INVALID_LITERAL",
    "MISMATCHED_COLUMN_ALIASES",
    "AMBIGUOUS_NAME",
    "INVALID_COLUMN_REFERENCE",
    "MISSING_ORDER_BY",
    "NESTED_AGGREGATION",
    "NESTED_WINDOW",
    "EXPRESSION_NOT_IN_DISTINCT",
    "EXPRESSION_NOT_AGGREGATE",
    "EXPRESSION_NOT_SCALAR",
    "EXPRESSION_NOT_CONSTANT",
    "INVALID_PARAMETER_USAGE",
    "VIEW_IS_RECURSIVE",
    "INVALID_ROW_FILTER",
    "INVALID_COLUMN_MASK",
    "MISSING_COLUMN_ALIASES",
    "INVALID_LIMIT_CLAUSE",
    "INVALID_ORDER_BY",
    "INVALID_PATH",
    "JSON_INPUT_CONVERSION_ERROR",
    "JSON_OUTPUT_CONVERSION_ERROR",
    "PATH_EVALUATION_ERROR",
    "JSON_VALUE_RESULT_ERROR",
    // The analysis errors of grouping, windows and calls (as Trino 476 names them on the wire).
    "AMBIGUOUS_FUNCTION_CALL",
    "MISSING_GROUP_BY",
    "MISSING_OVER",
    "FUNCTION_NOT_WINDOW",
    "INVALID_ARGUMENTS",
    "MISSING_ARGUMENT",
    "NULL_TREATMENT_NOT_ALLOWED",
    "DUPLICATE_WINDOW_NAME",
    "INVALID_WINDOW_REFERENCE",
    "INVALID_PARTITION_BY",
    "GENERIC_INTERNAL_ERROR",
    "FUNCTION_IMPLEMENTATION_MISSING",
    "QUERY_QUEUE_FULL",
    "EXCEEDED_TIME_LIMIT",
    "CLUSTER_OUT_OF_MEMORY",
    "EXCEEDED_LOCAL_MEMORY_LIMIT",
    // The refusals of statements that would write (DROP, CREATE, ALTER, CALL).
    "INVALID_TABLE_PROPERTY",
    "PROCEDURE_NOT_FOUND",
    "SCHEMA_NOT_EMPTY",
    "SCHEMA_ALREADY_EXISTS",
    "TABLE_ALREADY_EXISTS",
    "COLUMN_ALREADY_EXISTS",
    "MISSING_COLUMN_NAME",
    // Inline SQL routines' refusals (SqlRoutineAnalyzer), SET ROLE, COMMIT / ROLLBACK.
    "ALREADY_EXISTS",
    "MISSING_RETURN",
    "ROLE_NOT_FOUND",
    "NOT_IN_TRANSACTION",
];

/// What only SQLite (or the stand-in's own SQL) says; lower case.
const SQLITE_TELLS: &[&str] = &[
    "sqlite",
    "qm_",
    "no such column",
    "no such table",
    "no such function",
    "near \"",
    "sql logic error",
    "unrecognized token",
    "misuse of aggregate",
    "misuse of window function",
    "wrong number of arguments to function",
    "incomplete input",
    "parser stack overflow",
    "ambiguous column name",
];

struct Pipeline {
    engine: Engine,
    conn: Connection,
}

static PIPELINE: LazyLock<Mutex<Pipeline>> = LazyLock::new(|| {
    let mut config = Config::builtin();
    config.querymesh.query_max_memory_mb = 16;
    config.querymesh.max_memory_mb = 64;
    // tpch.tiny only, kept in the user's cache directory (no state directory), as in tests.
    let engine = Engine::open(&config.querymesh.engine(), None).expect("the engine opens on tpch.tiny");
    let conn = engine.connect().expect("a connection");
    Mutex::new(Pipeline { engine, conn })
});

fn session() -> SessionContext {
    SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
        user: Some("fuzz".into()),
        ..SessionContext::default()
    }
}

fn check_error(error: &TrinoError, sql: &str, generated: Option<&str>) {
    let (name, _) = error.name.name_and_code();
    assert!(
        TRINO_ERROR_NAMES.contains(&name),
        "{name} is not a Trino error name"
    );
    let message = error.message();
    assert!(!message.is_empty(), "{name} without a message");
    let lower_message = message.to_lowercase();
    let lower_sql = sql.to_lowercase();
    for tell in SQLITE_TELLS {
        assert!(
            !lower_message.contains(tell) || lower_sql.contains(tell),
            "{name} message shows SQLite ({tell:?}): {message}"
        );
    }
    if let Some(generated) = generated.filter(|g| g.len() >= 16 && !sql.contains(*g)) {
        assert!(
            !message.contains(generated),
            "{name} message shows the generated SQL: {message}"
        );
    }
}

fn run(prepared: &Prepared, conn: &mut Connection, sql: &str) {
    let started = Instant::now();
    conn.progress_handler(1_000, Some(move || started.elapsed() > TIME_BUDGET))
        .expect("a progress handler");
    let mut rows = 0;
    let result = prepared.run(conn, &mut |_row| {
        rows += 1;
        rows < ROWS_READ
    });
    conn.progress_handler(0, None::<fn() -> bool>)
        .expect("the progress handler removed");
    match result {
        Ok(()) | Err(RunError::Interrupted) => {}
        Err(RunError::Query(error)) => check_error(&error, sql, prepared.sqlite_sql()),
        // The stand-in's own fault (e.g. SQLite refused the generated statement): answered as
        // GENERIC_INTERNAL_ERROR in fixed words, which must never carry the generated SQL.
        Err(RunError::Internal(internal)) => {
            let said = internal.to_string();
            if let Some(generated) = prepared.sqlite_sql().filter(|g| g.len() >= 16) {
                assert!(!said.contains(generated), "an internal error shows the SQL: {said}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(sql) = std::str::from_utf8(data) else {
        return;
    };
    let mut pipeline = PIPELINE.lock().unwrap_or_else(|p| p.into_inner());
    let Pipeline { engine, conn } = &mut *pipeline;
    match engine.prepare(sql, &session()) {
        Ok(prepared) => run(&prepared, conn, sql),
        Err(error) => check_error(&error, sql, None),
    }
});
