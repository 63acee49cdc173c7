//! The executor's tests: queueing past the running limit, inline runs, the pool's size, the
//! registry's bound, and the sweep's verdicts.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc;

use super::admission::Admitted;
use super::query::Chunk;
use super::registry::{Sweep, sweep_verdict};
use super::*;
use crate::platform::Journal;
use crate::querymesh::engine::SessionContext;

/// Counts billions of rows: runs until something stops it.
const ENDLESS: &str = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b CROSS JOIN tpch.tiny.orders c";
const PATIENCE: Duration = Duration::from_secs(20);

async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "{what} never happened");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queries_past_the_running_limit_wait_queued() {
    let config = crate::Config::builtin().with_ephemeral_ports();
    let engine = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
            .expect("the engine opens"),
    );
    let endless = engine
        .prepare(ENDLESS, &SessionContext::default())
        .expect("prepares");
    let executor = Executor::new(
        engine,
        PATIENCE,
        Limits {
            running: 1,
            running_per_person: 1,
            queued_per_person: 10,
            queued: 10,
        },
        Journal::default(),
    );
    // The runtime waits for blocking threads when it ends: stop every query, even when an
    // assertion fails.
    struct StopAll(Arc<Executor>);
    impl Drop for StopAll {
        fn drop(&mut self) {
            self.0.stop_all();
        }
    }
    let _stop_all = StopAll(executor.clone());
    // A stop right as a query starts stops it (an interrupt that lands before SQLite's first
    // step used to be lost, and the query ran on, holding its place).
    for _ in 0..5 {
        let query = executor.submit("q0".into(), "", endless.clone(), &ada());
        until("the query's start", || {
            query.started.load(Ordering::Relaxed)
        })
        .await;
        query.cancel();
        until("the cancelled query's end", || {
            executor.admission.running() == 0
        })
        .await;
    }
    let first = executor.submit("q1".into(), "", endless.clone(), &ada());
    let second = executor.submit("q2".into(), "", endless, &ada());
    until("the first query's start", || {
        first.started.load(Ordering::Relaxed)
    })
    .await;
    // The second waits its turn: its page, after the page wait, says QUEUED.
    let page: Value =
        serde_json::from_str(&second.page(1, "http://h").await.expect("a page")).expect("json");
    assert_eq!(page["stats"]["state"], "QUEUED", "{page}");
    assert!(!second.started.load(Ordering::Relaxed));
    first.cancel();
    until("the second query's start", || {
        second.started.load(Ordering::Relaxed)
    })
    .await;
    second.cancel();
    // A query cancelled while queued never runs.
    let third = executor.submit("q3".into(), "", engine_prepared(&executor), &ada());
    let fourth = executor.submit("q4".into(), "", engine_prepared(&executor), &ada());
    fourth.cancel();
    until("the third query's start", || {
        third.started.load(Ordering::Relaxed)
    })
    .await;
    third.cancel();
    let page: Value =
        serde_json::from_str(&fourth.page(1, "http://h").await.expect("a page")).expect("json");
    assert_eq!(page["error"]["errorName"], "USER_CANCELED", "{page}");
    assert!(!fourth.started.load(Ordering::Relaxed));
}

fn ada() -> resource_groups::Criteria {
    resource_groups::Criteria::user("ada")
}

fn test_limits() -> Limits {
    Limits {
        running: MAX_RUNNING,
        running_per_person: 4,
        queued_per_person: 100,
        queued: MAX_QUEUED,
    }
}

fn engine_prepared(executor: &Executor) -> Arc<Prepared> {
    executor
        .engine()
        .prepare(ENDLESS, &SessionContext::default())
        .expect("prepares")
}

/// Every page of `query` to the last: its rows and the last page.
async fn all_pages(query: &Query) -> (Vec<Value>, Value) {
    let mut rows = Vec::new();
    for token in 1.. {
        let body = query.page(token, "http://h").await.expect("a page");
        let page: Value = serde_json::from_str(&body).expect("json");
        rows.extend(page["data"].as_array().into_iter().flatten().cloned());
        if page.get("nextUri").is_none() {
            return (rows, page);
        }
    }
    unreachable!("pages are counted until the last")
}

fn unstarted(id: &str) -> (Query, mpsc::Sender<Chunk>) {
    let (tx, rx) = mpsc::channel(CHANNEL_CHUNKS);
    let columns = Arc::new(protocol::columns_json(&[]));
    (Query::new(id.into(), "ada".into(), columns, rx), tx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_short_last_time_runs_here_and_one_that_is_not_moves_to_the_pool() {
    let config = crate::Config::builtin().with_ephemeral_ports();
    let engine = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
            .expect("the engine opens"),
    );
    let executor = Executor::new(engine.clone(), PATIENCE, test_limits(), Journal::default());
    executor.checkin(engine.connect().expect("a connection"));
    let tiny = SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
        ..SessionContext::default()
    };
    let plan = |sql: &str| engine.prepare(sql, &tiny).expect("prepares");

    // Never ran: not known to be short.
    let nation = plan("SELECT name FROM nation ORDER BY nationkey");
    let (query, tx) = unstarted("q1");
    assert!(!executor.run_here(&query, &nation, &tx));
    nation.record_run(Duration::from_micros(10));
    assert!(executor.run_here(&query, &nation, &tx));
    let (rows, last) = all_pages(&query).await;
    assert_eq!(rows.len(), 25);
    assert_eq!(rows[0], serde_json::json!(["ALGERIA"]));
    assert_eq!(last["stats"]["state"], "FINISHED");

    // Short last time, but now past the budget (a scan of every lineitem) or too many
    // bytes for one chunk: stopped, its history corrected, nothing sent.
    for sql in [
        "SELECT sum(l.quantity * p.retailprice) FROM lineitem l, part p WHERE p.partkey = l.partkey",
        "SELECT comment FROM lineitem ORDER BY orderkey, linenumber LIMIT 5000",
    ] {
        let long = plan(sql);
        long.record_run(Duration::from_micros(10));
        let (query, tx) = unstarted("q2");
        assert!(!executor.run_here(&query, &long, &tx), "{sql}");
        assert!(long.last_run().is_some_and(|t| t > INLINE_MAX));
        assert_eq!(query.processed_rows.load(Ordering::Relaxed), 0);
        assert!(!query.started.load(Ordering::Relaxed));
        // Through submit it runs on the pool, whole.
        long.record_run(Duration::from_micros(10));
        let submitted = executor.submit("q3".into(), "", long, &ada());
        let (rows, last) = all_pages(&submitted).await;
        assert_eq!(last["stats"]["state"], "FINISHED", "{last}");
        assert_eq!(rows.len(), if sql.contains("LIMIT") { 5000 } else { 1 });
    }

    // Submitted while short: the same rows as from the pool.
    let submitted = executor.submit("q4".into(), "", nation.clone(), &ada());
    let (inline_rows, _) = all_pages(&submitted).await;
    let fresh = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref()).expect("opens"),
    )
    .prepare("SELECT name FROM nation ORDER BY nationkey", &tiny)
    .expect("prepares");
    let pooled = executor.submit("q5".into(), "", fresh, &ada());
    let (pooled_rows, _) = all_pages(&pooled).await;
    assert_eq!(inline_rows, pooled_rows);
}

/// While queries come, connections are kept for every query that may run; once none runs,
/// the pool shrinks back to a few (a burst used to leave 30 MB of connections and freed
/// heap behind for good).
#[tokio::test]
async fn a_quiet_pool_shrinks_to_a_few_connections() {
    let config = crate::Config::builtin().with_ephemeral_ports();
    let engine = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
            .expect("the engine opens"),
    );
    let executor = Executor::new(engine.clone(), PATIENCE, test_limits(), Journal::default());
    for _ in 0..POOL_IDLE_QUIET + 4 {
        executor.checkin(engine.connect().expect("a connection"));
    }
    let idle = || executor.idle.lock().map(|i| i.len()).unwrap_or(0);
    assert_eq!(idle(), POOL_IDLE_QUIET + 4);
    // A query running: nothing is closed.
    let permit = match executor.admission.admit(&ada()) {
        Ok((_, Admitted::Now(permit))) => permit,
        _ => panic!("a place is free"),
    };
    executor.trim_when_idle();
    assert_eq!(idle(), POOL_IDLE_QUIET + 4);
    drop(permit);
    executor.trim_when_idle();
    assert_eq!(idle(), POOL_IDLE_QUIET);
}

#[tokio::test]
async fn past_its_size_the_registry_abandons_the_query_unasked_for_longest() {
    let config = crate::Config::builtin().with_ephemeral_ports();
    let engine = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
            .expect("the engine opens"),
    );
    let executor = Executor::new(engine, PATIENCE, test_limits(), Journal::default());
    let mut senders = Vec::new();
    for id in ["q1", "q2", "q3"] {
        let (query, tx) = unstarted(id);
        senders.push(tx);
        executor.register_within(&Arc::new(query), 3);
    }
    // q1 and q3 were asked about later than q2 (seconds after their creation, that is
    // now): q2 is the one nobody has asked about for longest.
    for (id, seen_ms) in [("q1", 10_000), ("q3", 5_000)] {
        let query = executor.find_by_id(id).expect("kept");
        query.last_seen.store(seen_ms, Ordering::Relaxed);
    }
    let (query, _tx) = unstarted("q4");
    executor.register_within(&Arc::new(query), 3);
    let kept: Vec<bool> = ["q1", "q2", "q3", "q4"]
        .iter()
        .map(|id| executor.find_by_id(id).is_some())
        .collect();
    assert_eq!(kept, [true, false, true, true]);
}

#[test]
fn the_sweep_forgets_settled_queries_and_abandons_unfetched_ones() {
    let soon = KEEP_FINISHED - Duration::from_millis(1);
    assert_eq!(sweep_verdict(true, false, soon), Sweep::Keep);
    assert_eq!(sweep_verdict(true, false, KEEP_FINISHED), Sweep::Forget);
    // A cancelled query its client never fetched again goes as soon as a finished one.
    assert_eq!(sweep_verdict(false, true, soon), Sweep::Keep);
    assert_eq!(sweep_verdict(false, true, KEEP_FINISHED), Sweep::Forget);
    assert_eq!(sweep_verdict(false, false, KEEP_FINISHED), Sweep::Keep);
    assert_eq!(sweep_verdict(false, false, ABANDON_AFTER), Sweep::Abandon);
}

/// A quiet spell as long as the first of [`TRIM_AGAIN_AFTER`] leaves only [`POOL_IDLE_FLOOR`]
/// connections (the pool used to keep [`POOL_IDLE_QUIET`] for good), and a query in between
/// starts the spell again. The clock is passed in: no waiting.
#[test]
fn a_pool_quiet_for_a_spell_keeps_only_its_floor() {
    let config = crate::Config::builtin().with_ephemeral_ports();
    let engine = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
            .expect("the engine opens"),
    );
    // No runtime: no sweep task trims behind the test's back.
    let executor = Executor::new(engine.clone(), PATIENCE, test_limits(), Journal::default());
    for _ in 0..POOL_IDLE_QUIET + 2 {
        executor.checkin(engine.connect().expect("a connection"));
    }
    let idle = || executor.idle.lock().map(|i| i.len()).unwrap_or(0);
    let start = Instant::now();
    executor.trim_when_idle_at(start);
    assert_eq!(idle(), POOL_IDLE_QUIET, "no query runs: a few are kept");
    let spell = TRIM_AGAIN_AFTER[0];
    executor.trim_when_idle_at(start + spell - Duration::from_millis(1));
    assert_eq!(idle(), POOL_IDLE_QUIET, "not quiet long enough yet");
    executor.trim_when_idle_at(start + spell);
    assert_eq!(idle(), POOL_IDLE_FLOOR, "a pause: only the floor is kept");

    // A query ran (its connection came back): the next spell counts from the tick after it.
    let back = start + spell + Duration::from_secs(1);
    executor.checkin(engine.connect().expect("a connection"));
    executor.trim_when_idle_at(back);
    assert_eq!(idle(), POOL_IDLE_FLOOR + 1);
    executor.trim_when_idle_at(back + spell - Duration::from_millis(1));
    assert_eq!(idle(), POOL_IDLE_FLOOR + 1);
    executor.trim_when_idle_at(back + spell);
    assert_eq!(idle(), POOL_IDLE_FLOOR);
    // Every later round of the spell keeps the floor, and the pool still serves.
    executor.trim_when_idle_at(back + TRIM_AGAIN_AFTER[1]);
    assert_eq!(idle(), POOL_IDLE_FLOOR);
    assert!(executor.checkout().is_ok());
}

/// A connection put back keeps its schemas and compiled statements, not the pages its query
/// read (what `sqlite3_db_status` says it holds, as the trim's debug log reports it).
#[test]
fn a_pooled_connection_gives_back_its_page_cache() {
    use crate::querymesh::engine::memory::ConnectionStats;
    let config = crate::Config::builtin().with_ephemeral_ports();
    let engine = Arc::new(
        Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
            .expect("the engine opens"),
    );
    let executor = Executor::new(engine.clone(), PATIENCE, test_limits(), Journal::default());
    let scan = engine
        .prepare(
            "SELECT max(comment) FROM tpch.tiny.orders",
            &SessionContext::default(),
        )
        .expect("prepares");
    let conn = engine.connect().expect("a connection");
    scan.run(&conn, &mut |_| true).expect("runs");
    let used = ConnectionStats::of(&conn);
    assert!(
        used.page_cache > 256 << 10,
        "the scan filled the cache: {used:?}"
    );
    assert!(used.statements > 0 && used.schema > 0, "{used:?}");
    executor.checkin(conn);
    let pooled = executor.checkout().expect("the pooled connection");
    let kept = ConnectionStats::of(&pooled);
    assert!(kept.page_cache < 64 << 10, "pages released: {kept:?}");
    assert_eq!(kept.statements, used.statements, "statements kept");
}
