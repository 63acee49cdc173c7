//! QueryMesh's memory budgets: no function builds a value its query may not hold, a query past
//! `query_max_memory_mb` fails as Trino's does (EXCEEDED_LOCAL_MEMORY_LIMIT), queries past
//! `max_memory_mb` together fail rather than all succeed (CLUSTER_OUT_OF_MEMORY), the
//! connection stays usable and the memory comes back; and what the broker makes of each.
//!
//! Trino's messages: `ExceededMemoryLimitException.exceededLocalUserMemoryLimit` ("Query
//! exceeded per-node memory limit of %s [%s]") and `ClusterMemoryManager`'s low-memory killer
//! ("Query killed because the cluster is out of memory. Please try again in a few minutes."),
//! codes from `StandardErrorCode` (trinodb/trino).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use serde_json::Value;
use zero_sandbox::Config;
use zero_sandbox::querymesh::engine::error::ErrorName;
use zero_sandbox::querymesh::engine::memory;
use zero_sandbox::querymesh::engine::{Engine, RunError};

use crate::support::engine::tiny;
use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self, broker_query};

/// A value is refused before it is built: each of these answers in far less than building a
/// gigabyte would take.
const FAST: Duration = Duration::from_secs(5);

/// An aggregate stops at its budget well before the time limit (30 s) it used to run into,
/// even in a debug build on a busy machine.
const WELL_BEFORE_THE_TIME_LIMIT: Duration = Duration::from_secs(10);

fn config(query_mb: u32, total_mb: u32) -> Config {
    let mut config = support::test_config();
    config.querymesh.query_max_memory_mb = query_mb;
    config.querymesh.max_memory_mb = total_mb;
    config
}

fn engine(query_mb: u32, total_mb: u32) -> Engine {
    let engine = Engine::open(&config(query_mb, total_mb).querymesh.engine(), None)
        .expect("the engine opens");
    assert!(memory::accounting(), "SQLite's memory is counted");
    engine
}

/// Runs `sql` on `conn`: its rows, or its error as (name, message).
fn run_on(
    engine: &Engine,
    conn: &Connection,
    sql: &str,
) -> Result<Vec<Vec<Value>>, (ErrorName, String)> {
    let prepared = engine.prepare(sql, &tiny()).expect("plans");
    let mut rows = Vec::new();
    prepared
        .run(conn, &mut |r| {
            rows.push(r);
            true
        })
        .map_err(|e| match e {
            RunError::Query(e) => (e.name, e.message()),
            RunError::Internal(e) => panic!("{sql} failed inside the stand-in: {e}"),
            RunError::Interrupted => panic!("{sql} was interrupted"),
        })?;
    Ok(rows)
}

/// Runs `sql` and asserts it failed as Trino fails a query past `budget_mb` per node, within
/// `within`.
fn assert_refused_at_budget(
    engine: &Engine,
    conn: &Connection,
    sql: &str,
    budget_mb: u32,
    within: Duration,
) {
    let started = Instant::now();
    let (name, message) = run_on(engine, conn, sql).expect_err(sql);
    assert_eq!(
        name,
        ErrorName::ExceededLocalMemoryLimit,
        "{sql}: {message}"
    );
    let expected = format!("Query exceeded per-node memory limit of {budget_mb}MB [Allocated: ");
    assert!(message.starts_with(&expected), "{sql}: {message}");
    assert!(
        started.elapsed() < within,
        "{sql} took {:?}",
        started.elapsed()
    );
}

#[test]
fn values_past_the_budget_are_refused_before_they_are_built() {
    let engine = engine(256, 1024);
    let conn = engine.connect().expect("a connection");
    for sql in [
        "SELECT length(lpad('x', 1000000000, 'y'))",
        "SELECT length(rpad('x', 1000000000, 'y'))",
        // Two code points of pad, three bytes each: 3 GB.
        "SELECT length(lpad('x', 1000000000, '€€'))",
        // 300 MB, past 256 MB though within SQLite's own length limit; and 200 MB, which
        // would be held twice (built, then copied into SQLite).
        "SELECT length(rpad('x', 300000000, 'y'))",
        "SELECT length(rpad('x', 200000000, 'y'))",
        // 10^5 × 10^5 bytes, through qm_replace (the search is not a literal).
        "SELECT length(replace(lpad('x', 100000, 'y'), substr('yy', 1, 1), lpad('z', 100000, 'z')))",
        // The same through SQLite's own replace, which grows its result as it goes.
        "SELECT length(replace(lpad('x', 100000, 'y'), 'y', lpad('z', 100000, 'z')))",
    ] {
        assert_refused_at_budget(&engine, &conn, sql, 256, FAST);
        // The connection goes on.
        assert_eq!(
            run_on(&engine, &conn, "SELECT count(*) FROM nation"),
            Ok(vec![vec![Value::from(25)]])
        );
    }
    // Past Integer.MAX_VALUE Trino's StringFunctions.pad refuses the argument itself.
    let (name, message) = run_on(&engine, &conn, "SELECT lpad('x', 3000000000, 'y')")
        .expect_err("a length past 2^31 - 1");
    assert_eq!(name, ErrorName::InvalidFunctionArgument);
    assert_eq!(
        message,
        "Target length must be in the range [0..2147483647]"
    );
    // Within the budget the value is built.
    assert_eq!(
        run_on(&engine, &conn, "SELECT length(lpad('x', 1000000, 'é'))"),
        Ok(vec![vec![Value::from(1_000_000)]])
    );
}

#[test]
fn a_query_past_a_small_budget_fails_and_a_small_one_succeeds() {
    let engine = engine(8, 16);
    let conn = engine.connect().expect("a connection");
    for sql in [
        // Each value fits alone; the row holds three of them at once.
        "SELECT lpad('a', 2000000, 'y'), lpad('b', 2000000, 'y'), lpad('c', 2000000, 'y')",
        // SQLite's own concatenation holds x, x || x and x || x || x at once.
        "SELECT length(x || x || x) FROM (SELECT lpad('a', 2000000, 'y') AS x)",
        // SQLite's own replace, growing its result as it goes, past the budget.
        "SELECT length(replace(lpad('a', 1000000, 'y'), 'y', 'yyyyyyyyyy'))",
    ] {
        let (name, message) = run_on(&engine, &conn, sql).expect_err(sql);
        assert_eq!(
            name,
            ErrorName::ExceededLocalMemoryLimit,
            "{sql}: {message}"
        );
        assert!(
            message.starts_with("Query exceeded per-node memory limit of 8MB [Allocated: "),
            "{message}"
        );
    }
    // Sorting and grouping all of lineitem fit in 8 MB: SQLite spills what does not.
    for (sql, expected) in [
        ("SELECT count(*), max(comment) FROM lineitem", 1),
        (
            "SELECT comment FROM lineitem ORDER BY comment, orderkey LIMIT 3",
            3,
        ),
        (
            "SELECT count(*) FROM (SELECT DISTINCT lpad(cast(orderkey AS varchar), 200, 'y') FROM lineitem)",
            1,
        ),
    ] {
        let rows = run_on(&engine, &conn, sql).unwrap_or_else(|e| panic!("{sql}: {e:?}"));
        assert_eq!(rows.len(), expected, "{sql}");
    }
    drop(conn);
    assert_eq!(
        engine.memory_budget().pool.used(),
        0,
        "every byte came back"
    );
}

#[test]
fn queries_past_the_pool_together_fail_rather_than_all_succeed() {
    // Each query may hold 8 MB; all of them together 10 MB. Two hold a 3 MB value each (a
    // constant SQLite computes once and keeps while the rows stream to their client): a third
    // building one more (3 MB, and 3 MB more for SQLite's copy) does not fit.
    let engine = std::sync::Arc::new(engine(8, 10));
    const HOLDING: &str =
        "SELECT name FROM nation WHERE length(lpad('a', 3000000, 'y')) > 0 ORDER BY nationkey";
    let (held_tx, held) = mpsc::channel::<()>();
    let (release_tx, release) = mpsc::channel::<()>();
    let release = std::sync::Arc::new(std::sync::Mutex::new(release));
    let holders: Vec<_> = (0..2)
        .map(|_| {
            let engine = engine.clone();
            let held_tx = held_tx.clone();
            let release = release.clone();
            std::thread::spawn(move || {
                let conn = engine.connect().expect("a connection");
                let prepared = engine.prepare(HOLDING, &tiny()).expect("plans");
                let mut first = true;
                let result = prepared.run(&conn, &mut |_| {
                    if std::mem::take(&mut first) {
                        let _ = held_tx.send(());
                        let _ = release.lock().expect("the release").recv();
                    }
                    false
                });
                result.map_err(|e| format!("{e:?}"))
            })
        })
        .collect();
    for _ in 0..2 {
        held.recv_timeout(Duration::from_secs(30))
            .expect("a query holds its value");
    }
    let conn = engine.connect().expect("a connection");
    let (name, message) = run_on(&engine, &conn, HOLDING).expect_err("the pool is full");
    assert_eq!(name, ErrorName::ClusterOutOfMemory, "{message}");
    assert_eq!(
        message,
        "Query killed because the cluster is out of memory. Please try again in a few minutes."
    );
    for _ in 0..2 {
        release_tx.send(()).expect("a holder waits");
    }
    for holder in holders {
        assert_eq!(holder.join().expect("the holder's thread"), Ok(()));
    }
    // With the others done, the same query runs.
    assert_eq!(
        run_on(&engine, &conn, HOLDING).map(|rows| rows.len()),
        Ok(25)
    );
    drop(conn);
    assert_eq!(
        engine.memory_budget().pool.used(),
        0,
        "every byte came back"
    );
}

/// An aggregate's state counts against its query's budget as it grows, whichever family it
/// is (Rust aggregates and SQLite's own alike): over a cross join of billions of rows each one
/// fails at the budget within seconds, where it used to grow for the whole time limit
/// (5.4 GB for array_agg) or to a gigabyte before failing (issue 25, hole 1).
#[test]
fn every_aggregate_family_over_a_cross_join_fails_fast_at_its_budget() {
    let engine = engine(8, 32);
    let conn = engine.connect().expect("a connection");
    for sql in [
        "SELECT cardinality(array_agg(a.comment)) FROM lineitem a CROSS JOIN lineitem b",
        "SELECT cardinality(map_agg(a.orderkey, b.comment)) FROM orders a CROSS JOIN orders b",
        "SELECT cardinality(multimap_agg(a.orderkey, b.comment)) FROM orders a CROSS JOIN orders b",
        "SELECT cardinality(histogram(a.orderkey * 100000 + b.orderkey)) FROM orders a CROSS JOIN orders b",
        "SELECT approx_percentile(a.orderkey * b.orderkey, 0.5) FROM orders a CROSS JOIN orders b",
        // listagg past Trino's 1 MB output, truncated: every value is kept until the end.
        "SELECT length(listagg(lpad(comment, 200, 'x'), ',' ON OVERFLOW TRUNCATE '...' WITHOUT COUNT) WITHIN GROUP (ORDER BY orderkey)) FROM lineitem",
        // SQLite's own json_group_array, which gathers a LATERAL subquery's rows.
        "SELECT count(*) FROM region r, LATERAL (SELECT a.comment FROM orders a CROSS JOIN orders b)",
    ] {
        assert_refused_at_budget(&engine, &conn, sql, 8, WELL_BEFORE_THE_TIME_LIMIT);
    }
    drop(conn);
    assert_eq!(
        engine.memory_budget().pool.used(),
        0,
        "every byte came back"
    );
}

/// SQLite's own aggregates (the engine's lowerings use json_group_array and group_concat)
/// allocate through the counting shim, so their memory is refused at the budget too, and the
/// statement stops there. group_concat grows without its connection, so SQLite alone would
/// only record the failure and report it when the group ends (after the whole cross join):
/// the refused allocation interrupts the query's connection itself.
#[test]
fn sqlites_own_aggregates_stop_at_the_budget() {
    let engine = engine(16, 64);
    let conn = engine.connect().expect("a connection");
    for sql in [
        "SELECT length(group_concat(a.comment)) FROM tpch_tiny.orders a, tpch_tiny.orders b",
        "SELECT length(json_group_array(a.comment)) FROM tpch_tiny.orders a, tpch_tiny.orders b",
        "SELECT length(json_group_object(a.orderkey || '-' || b.orderkey, a.comment)) \
         FROM tpch_tiny.orders a, tpch_tiny.orders b",
    ] {
        let started = Instant::now();
        let failed = {
            let _query = memory::Scope::on_connection(engine.memory_budget().clone(), &conn);
            conn.query_row(sql, [], |r| r.get::<_, i64>(0))
        };
        let code = failed.err().and_then(|e| e.sqlite_error_code());
        assert!(
            matches!(
                code,
                Some(rusqlite::ErrorCode::OutOfMemory | rusqlite::ErrorCode::OperationInterrupted)
            ),
            "{sql}: {code:?}"
        );
        assert!(
            started.elapsed() < FAST,
            "{sql} took {:?}",
            started.elapsed()
        );
    }
}

/// Within the budget the same aggregates answer, and what their states held comes back.
#[test]
fn aggregates_within_the_budget_answer_and_give_their_memory_back() {
    let engine = engine(16, 64);
    let conn = engine.connect().expect("a connection");
    let rows = run_on(
        &engine,
        &conn,
        "SELECT cardinality(array_agg(comment)), cardinality(map_agg(orderkey, comment)), \
         cardinality(multimap_agg(custkey, comment)), count(DISTINCT custkey), \
         histogram(orderstatus), length(listagg(orderstatus, '') WITHIN GROUP (ORDER BY orderkey)), \
         approx_percentile(orderkey, 0.5) >= 1 FROM orders",
    )
    .expect("fits 16 MB");
    let row = &rows[0];
    assert_eq!(row[0], Value::from(15000), "{row:?}");
    assert_eq!(row[1], Value::from(15000), "{row:?}");
    assert_eq!(row[2], row[3], "one entry per customer: {row:?}");
    assert_eq!(
        row[4],
        serde_json::json!({"F": 7304, "O": 7333, "P": 363}),
        "{row:?}"
    );
    assert_eq!(row[5], Value::from(15000), "{row:?}");
    assert_eq!(row[6], Value::Bool(true), "{row:?}");
    let grouped = run_on(
        &engine,
        &conn,
        "SELECT count(*) FROM (SELECT custkey, array_agg(comment) FROM orders GROUP BY custkey)",
    )
    .expect("fits 16 MB");
    assert_eq!(grouped[0][0], row[3]);
    drop(conn);
    assert_eq!(
        engine.memory_budget().pool.used(),
        0,
        "every byte came back"
    );
}

#[test]
fn the_budgets_are_validated_naming_their_keys() {
    for (toml, key) in [
        (
            "[querymesh]\nquery_max_memory_mb = 1\n",
            "`querymesh.query_max_memory_mb`",
        ),
        (
            "[querymesh]\nquery_max_memory_mb = 64\nmax_memory_mb = 32\n",
            "`querymesh.max_memory_mb`",
        ),
    ] {
        let error = Config::from_toml(toml, "t.toml")
            .expect_err(toml)
            .to_string();
        assert!(error.contains(key), "{error}");
    }
    let builtin = Config::builtin();
    assert_eq!(builtin.querymesh.query_max_memory_mb, 256);
    assert_eq!(builtin.querymesh.max_memory_mb, 1024);
}

/// A platform session for ada straight in the store; its identity for the broker.
fn identity_of_ada(sandbox: &zero_sandbox::Sandbox, access_token: &str) -> String {
    support::platform_session(sandbox, "ada", access_token).0
}

/// A query past its own budget is the query's fault, like one past its time limit: 422
/// QUERYMESH_QUERY_FAILED ("check the query"). The stand-in's own error over the protocol is
/// Trino's, INSUFFICIENT_RESOURCES.
#[tokio::test]
async fn over_the_protocol_and_through_the_broker_a_query_past_its_budget_is_its_fault() {
    let sandbox = support::start_with(config(8, 16)).await;
    let signed_in = support::sign_in(&sandbox, "ada").await;
    let identity = signed_in.identity(&sandbox);
    let (status, body) = broker_query(
        &sandbox,
        &identity,
        "SELECT length(lpad('x', 100000000, 'y'))",
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "QUERYMESH_QUERY_FAILED", "{body}");
    let message = body["message"].as_str().expect("a message");
    assert!(
        message.contains("Query exceeded per-node memory limit of 8MB"),
        "{message}"
    );
    let (status, body) =
        broker_query(&sandbox, &identity, "SELECT count(*) FROM tpch.tiny.nation").await;
    assert_eq!(status, 200, "{body}");
}

/// The cluster out of memory is a busy QueryMesh: 503 QUERYMESH_UNAVAILABLE ("repeat in a
/// moment", as Trino's own message says).
#[tokio::test]
async fn through_the_broker_a_cluster_out_of_memory_is_unavailable() {
    let fake = FakeTrino::start(Behaviour::Error(
        "CLUSTER_OUT_OF_MEMORY",
        "INSUFFICIENT_RESOURCES",
        "Query killed because the cluster is out of memory. Please try again in a few minutes.",
    ))
    .await;
    let mut config = support::test_config();
    config.querymesh.url = Some(fake.url.clone());
    let sandbox = support::start_with(config).await;
    let identity = identity_of_ada(&sandbox, "test-access-token-of-ada");
    let (status, body) = broker_query(&sandbox, &identity, "SELECT 1").await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "QUERYMESH_UNAVAILABLE", "{body}");
}
