//! After the rows: the indexes and the planner statistics, with their progress taken from
//! the SQLite VM steps and a cancel that stops any statement part-way.

use super::*;

/// Counts the SQLite VM steps the connection takes into `steps` and, when `cancel` is set,
/// fails the running statement with SQLITE_INTERRUPT within [`STEPS_PER_CHECK`] steps: the
/// only way to stop a long `CREATE INDEX` (seconds on sf1) or `ANALYZE` part-way. A handler
/// rather than `sqlite3_interrupt` from the signal handler: it reads an atomic on the
/// connection's own thread, with no connection pointer to share with a signal handler.
pub(super) fn watch_steps(
    conn: &mut Connection,
    cancel: Option<&'static AtomicBool>,
    steps: &Arc<AtomicU64>,
) -> rusqlite::Result<()> {
    let steps = Arc::clone(steps);
    conn.progress_handler(
        STEPS_PER_CHECK,
        Some(move || {
            steps.fetch_add(STEPS_PER_CHECK as u64, Ordering::Relaxed);
            cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        }),
    )
}

/// The table an index of [`schema::INDEXES`] is on.
pub(super) fn indexed_table(index: &str) -> &str {
    index
        .split_once(" ON ")
        .and_then(|(_, rest)| rest.split_once('('))
        .map_or("", |(table, _)| table.trim())
}

/// The work of building `index` at `scale`, in rows written.
pub(super) fn index_work(index: &str, scale: f64) -> u64 {
    (rows::estimated_rows(indexed_table(index), scale) as f64 * INDEX_COST) as u64
}

pub(super) fn statistics_work(scale: f64) -> u64 {
    ((scale * STATISTICS_WORK_PER_SCALE) as u64).max(1)
}

/// The work after the rows: every index and the statistics.
pub(super) fn finishing_work(scale: f64) -> u64 {
    schema::INDEXES
        .iter()
        .map(|i| index_work(i, scale))
        .sum::<u64>()
        + statistics_work(scale)
}

pub(super) fn interrupted(result: &rusqlite::Result<()>) -> bool {
    matches!(result, Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::OperationInterrupted)
}

/// What [`finish`] needs besides the connection.
pub(super) struct Finishing<'a> {
    pub(super) scale: f64,
    pub(super) clock: &'a Clock,
    /// The VM steps the connection has taken ([`watch_steps`]).
    pub(super) steps: &'a AtomicU64,
    pub(super) cancel: Option<&'static AtomicBool>,
}

/// The indexes (each in its own transaction, skipping those a resumed run already has), the
/// planner statistics, and the `complete` marker; `false` when cancelled. `report` gets the
/// stage, the index, and the work of this phase done in all and by this run.
pub(super) fn finish(
    conn: &mut Connection,
    f: &Finishing<'_>,
    report: &mut (dyn FnMut(Stage, &str, u64, u64) + Send),
) -> rusqlite::Result<bool> {
    let (mut done, mut this_run) = (0, 0);
    conn.pragma_update(None, "cache_size", -INDEX_SORT_KIB)?;
    conn.pragma_update(None, "threads", SORTER_THREADS)?;
    for index in schema::INDEXES {
        if f.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Ok(false);
        }
        let name = index.split_whitespace().nth(2).unwrap_or_default();
        let work = index_work(index, f.scale);
        let exists: bool = conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'index' AND name = ?1",
            [name],
            |r| r.get(0),
        )?;
        if exists {
            done += work;
            continue;
        }
        report(Stage::Indexes, name, done, this_run);
        let rows = rows::estimated_rows(indexed_table(index), f.scale).max(1);
        let (started, steps_before) = (Instant::now(), f.steps.load(Ordering::Relaxed));
        let built = with_ticks(
            f.steps,
            rows,
            &mut |share| {
                let part = (work as f64 * share) as u64;
                report(Stage::Indexes, name, done + part, this_run + part)
            },
            || {
                let tx = conn.transaction()?;
                tx.execute_batch(index)?;
                f.clock.record(&tx)?;
                tx.commit()
            },
        );
        if interrupted(&built) {
            tracing::debug!(index = name, "index build interrupted");
            return Ok(false);
        }
        built?;
        // What INDEX_COST and STEPS_PER_INDEXED_ROW are measured from.
        tracing::debug!(
            index = name,
            rows,
            ms = started.elapsed().as_millis() as u64,
            steps_per_row = (f.steps.load(Ordering::Relaxed) - steps_before) as f64 / rows as f64,
            "index built"
        );
        done += work;
        this_run += work;
    }
    report(Stage::Statistics, "", done, this_run);
    let started = Instant::now();
    conn.pragma_update(None, "analysis_limit", ANALYSIS_LIMIT)?;
    let analysed = conn.execute_batch("ANALYZE");
    tracing::debug!(
        ms = started.elapsed().as_millis() as u64,
        "statistics collected"
    );
    if interrupted(&analysed) {
        return Ok(false);
    }
    analysed?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let tx = conn.transaction()?;
    tx.execute(
        &format!("INSERT OR REPLACE INTO \"{META}\" VALUES ('complete', ?1)"),
        [now.to_string()],
    )?;
    f.clock.record(&tx)?;
    tx.commit()?;
    Ok(true)
}

/// Runs `work` (one statement over `rows` rows) while a thread calls `tick` every
/// [`INDEX_TICK`] with the share of it done, estimated from the VM steps taken and below 1.
pub(super) fn with_ticks<T>(
    steps: &AtomicU64,
    rows: u64,
    tick: &mut (dyn FnMut(f64) + Send),
    work: impl FnOnce() -> T,
) -> T {
    let start = steps.load(Ordering::Relaxed);
    let expected = rows as f64 * STEPS_PER_INDEXED_ROW;
    let tick = Mutex::new(tick);
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let tick = &tick;
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(INDEX_TICK) {
                let taken = steps.load(Ordering::Relaxed).saturating_sub(start) as f64;
                if let Ok(mut tick) = tick.lock() {
                    tick((taken / expected).min(0.99));
                }
            }
        });
        let result = work();
        drop(done);
        result
    })
}
