//! Statements deep or wide enough to overflow a stack or to pass SQLite's limits: each runs,
//! or fails with a Trino error — never a crash of the process (crates/querymesh-engine/src/sql/limits.rs).
//!
//! Trino's own parser answers a statement its stack cannot hold with `line 1:1: statement is
//! too large (stack overflow while parsing)`, a SYNTAX_ERROR (trinodb/trino
//! core/trino-parser/.../SqlParser.java `invokeParser`; TestSqlParser
//! `testStackOverflowStatement`), which the stand-in gives too.

mod in_the_engine;
mod over_http;
mod random_sql;

use serde_json::Value;
use zero_sandbox::querymesh::engine::Engine;

use crate::support::engine::run;

const TOO_LARGE: &str =
    "SYNTAX_ERROR: line 1:1: statement is too large (stack overflow while parsing)";

/// The stand-in's refusal of what only SQLite's limits stop.
const SQLITE_LIMIT: &str = "NOT_SUPPORTED: The query is too large for the QueryMesh stand-in";

/// tokio's worker and blocking threads have 2 MiB stacks; so does the thread each case runs on.
const WORKER_STACK: usize = 2 << 20;

/// `item sep item sep …`, `n` items.
fn chain(item: &str, sep: &str, n: usize) -> String {
    vec![item; n].join(sep)
}

/// `open … item … close`, nested `n` deep.
fn nest(open: &str, item: &str, close: &str, n: usize) -> String {
    format!("{}{item}{}", open.repeat(n), close.repeat(n))
}

/// What a statement must come to.
#[derive(Clone, Debug)]
enum Expect {
    /// The first column of the first row.
    Value(Value),
    /// An error starting with this (`ERROR_NAME: message`).
    Error(&'static str),
}

fn check(engine: &Engine, name: &str, sql: &str, expect: &Expect) {
    let got = run(engine, sql).map(|a| a.rows.first().and_then(|r| r.first()).cloned());
    let ok = match (&got, expect) {
        (Ok(Some(v)), Expect::Value(want)) => v == want,
        (Err(e), Expect::Error(prefix)) => e.starts_with(prefix),
        _ => false,
    };
    let shown = |r: &Result<Option<Value>, String>| match r {
        Ok(v) => format!("{v:?}").chars().take(200).collect::<String>(),
        Err(e) => e.chars().take(300).collect(),
    };
    assert!(ok, "{name}: expected {expect:?}, got {}", shown(&got));
}

/// Runs `f` on a thread with a worker's stack: an overflow aborts the whole test binary.
fn on_worker_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic");
}

/// `WITH t0 AS (…), t1 AS (SELECT x FROM t0), …`: each CTE reads the one before.
fn cte_chain(n: usize) -> String {
    let ctes: Vec<String> = (1..n)
        .map(|i| format!("t{i} AS (SELECT x FROM t{})", i - 1))
        .collect();
    format!(
        "WITH t0 AS (SELECT 1 AS x), {} SELECT x FROM t{}",
        ctes.join(", "),
        n - 1
    )
}
